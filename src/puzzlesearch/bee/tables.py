"""The bitmask -> points table: words reduced to letter masks, totals per mask.

`mask_frame` is the table as a polars DataFrame (masks.parquet, one row per distinct
mask); `MaskTable` holds it as dense arrays over every mask of at most `size` letters
(see _kernels/masks.py) for the scoring kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from puzzlesearch.bee._kernels import masks as kernels
from puzzlesearch.bee.model import N_LETTERS
from puzzlesearch.bee.settings import TableRules
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log

MASKS_SCHEMA = {
    "mask": pl.UInt32,
    "letters": pl.String,
    "distinct": pl.Int8,
    "words": pl.Int32,
    "points": pl.Int64,
    "pangram": pl.Boolean,
}


def has_frequencies(words: pl.DataFrame) -> bool:
    """True when the lexicon gives word frequencies."""
    return words.height > 0 and words["frequency"].null_count() < words.height


def playable_words(words: pl.DataFrame, rules: TableRules) -> pl.DataFrame:
    """The rows of words.parquet that can count in some puzzle, with `points` and `pangram`."""
    if words.height and words["mask"].null_count():
        raise PuzzleError("the Spelling Bee needs a latin (a-z) lexicon; this one has no letter masks")
    keep = (
        (pl.col("length") >= rules.min_length)
        & (pl.col("distinct") <= rules.size)
        & ((pl.col("mask") & rules.exclude_mask) == 0)
    )
    if rules.min_frequency:
        if has_frequencies(words):
            keep &= pl.col("frequency").is_null() | (pl.col("frequency") >= rules.min_frequency)
        else:
            log("bee", f"min_frequency {rules.min_frequency} ignored: this lexicon has no frequencies")
    pangram = pl.col("distinct") == rules.size
    base = (
        pl.when(pl.col("length") <= rules.short_length)
        .then(rules.short_points)
        .otherwise(pl.col("length").cast(pl.Int64))
    )
    return words.filter(keep).with_columns(
        points=(base + pl.when(pangram).then(rules.pangram_bonus).otherwise(0)).cast(pl.Int64),
        pangram=pangram,
    )


INT64_MAX = 2**63 - 1


def check_sums_fit(playable: pl.DataFrame, rules: TableRules) -> None:
    """PuzzleError unless every sum of word points (a mask's, a puzzle's) fits int64, in exact integers.

    The schema's maxima already make this so (1e6 points a word, far fewer than 9e12 words);
    this is the check where the sums are made, for settings that reach here another way.
    """
    longest = int(playable["length"].max() or 0)
    per_word = max(int(rules.short_points), longest) + int(rules.pangram_bonus)
    if per_word * playable.height > INT64_MAX:
        raise PuzzleError(
            f"bee points: {playable.height} words of up to {per_word} points could sum past int64 "
            f"(short_points {rules.short_points}, pangram_bonus {rules.pangram_bonus}); lower them"
        )


def mask_frame(words: pl.DataFrame, rules: TableRules) -> pl.DataFrame:
    """masks.parquet: per distinct mask its word count, points and pangram flag."""
    playable = playable_words(words, rules)
    check_sums_fit(playable, rules)
    table = (
        playable.group_by("mask")
        .agg(
            words=pl.len().cast(pl.Int32),
            points=pl.col("points").sum(),
            distinct=pl.col("distinct").first().cast(pl.Int8),
        )
        .sort("mask")
    )
    return (
        table.with_columns(
            letters=masks_text(table["mask"].to_numpy(), rules.size),
            pangram=pl.col("distinct") == rules.size,
        )
        .select(list(MASKS_SCHEMA))
        .cast(MASKS_SCHEMA)
    )


def masks_text(masks: np.ndarray, width: int, upper: bool = False) -> pl.Series:
    """Each mask's letters as a string ("aegint"), vectorized."""
    codes = kernels.mask_codes(masks.astype(np.int64), width, ord("A") if upper else ord("a"))
    text = np.ascontiguousarray(codes).view(f"S{width}").ravel().astype(f"U{width}")
    return pl.Series(text, dtype=pl.String)


@dataclass
class MaskTable:
    """Dense points and word counts for every mask of at most `size` letters."""

    size: int
    points: np.ndarray  # int64 per dense index
    counts: np.ndarray  # int32 per dense index
    binom: np.ndarray
    offset: np.ndarray

    @classmethod
    def from_frame(cls, masks: pl.DataFrame, size: int) -> MaskTable:
        """Scatter masks.parquet rows into the dense arrays."""
        if masks.height and masks["distinct"].max() > size:
            raise PuzzleError(f"mask table has masks of more than {size} letters")
        binom = kernels.binomials(N_LETTERS, size)
        offset = kernels.offsets(size)
        points, counts = kernels.fill_table(
            masks["mask"].to_numpy().astype(np.int64),
            masks["points"].to_numpy().astype(np.int64),
            masks["words"].to_numpy().astype(np.int32),
            binom,
            offset,
            int(offset[size + 1]),
        )
        return cls(size, points, counts, binom, offset)

    def lookup(self, mask: int) -> tuple[int, int]:
        """(points, words) of the words whose letter set is exactly `mask`."""
        j = kernels.mask_index(mask, self.binom, self.offset)
        return int(self.points[j]), int(self.counts[j])


def build_table(words: pl.DataFrame, rules: TableRules) -> tuple[pl.DataFrame, MaskTable]:
    """masks.parquet rows and the dense table, from words.parquet rows."""
    masks = mask_frame(words, rules)
    return masks, MaskTable.from_frame(masks, rules.size)
