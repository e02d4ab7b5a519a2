"""Scoring and ranking every puzzle from the mask table; the words of one puzzle.

`rank_puzzles` never looks at words: it scores each candidate letter set through its
2^size subsets in the dense mask table (kernels.score_sets).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from puzzlesearch.bee import kernels
from puzzlesearch.bee.model import LETTERS, BeeRules, Puzzle, letters_mask
from puzzlesearch.bee.tables import MaskTable, masks_text, playable_words

PUZZLES_SCHEMA = {
    "rank": pl.UInt32,
    "letters": pl.String,  # the puzzle's letters, uppercase, alphabetical: "AEGINRT"
    "center": pl.String,  # the center letter, uppercase
    "points": pl.Int64,
    "words": pl.Int32,
    "pangrams": pl.Int32,
    "mask": pl.UInt32,
}


def candidate_sets(masks: pl.DataFrame, rules: BeeRules) -> np.ndarray:
    """Letter sets to score: pangram masks when a pangram is required, else all sets."""
    if rules.require_pangram:
        sets = masks.filter(pl.col("pangram"))["mask"].to_numpy()
        return np.sort(sets.astype(np.int64))
    allowed = letters_mask(LETTERS) & ~rules.exclude_mask
    return kernels.letter_sets(allowed, rules.size)


def score_sets(table: MaskTable, sets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """points[n, size], words[n, size] per (set, center letter j), pangrams[n]."""
    return kernels.score_sets(np.ascontiguousarray(sets, dtype=np.int64), table.size,
                              table.points, table.counts, table.binom, table.offset)


def rank_puzzles(table: MaskTable, masks: pl.DataFrame, rules: BeeRules) -> pl.DataFrame:
    """puzzles.parquet: every valid (letters, center), best first."""
    sets = candidate_sets(masks, rules)
    points, words, pangrams = score_sets(table, sets)
    size = rules.size
    letters = masks_text(sets, size, upper=True)
    codes = kernels.mask_codes(sets, size, ord("A"))
    frame = pl.DataFrame({
        "letters": np.repeat(letters.to_numpy(), size),
        "center": codes.ravel().view("S1").astype("U1"),
        "points": points.ravel(),
        "words": words.ravel(),
        "pangrams": np.repeat(pangrams, size),
        "mask": np.repeat(sets, size).astype(np.uint32),
    })
    keep = (pl.col("words") >= rules.min_words) & (pl.col("points") >= rules.min_points)
    if rules.max_words:
        keep &= pl.col("words") <= rules.max_words
    if rules.max_points:
        keep &= pl.col("points") <= rules.max_points
    if rules.require_pangram:
        keep &= pl.col("pangrams") > 0
    order = ["points", "words"] if rules.score_by == "points" else ["words", "points"]
    frame = (frame.filter(keep)
             .sort([*order, "letters", "center"], descending=[True, True, False, False]))
    return frame.with_row_index("rank", offset=1).select(list(PUZZLES_SCHEMA)).cast(PUZZLES_SCHEMA)


def puzzle_words(words: pl.DataFrame, puzzle: Puzzle, rules: BeeRules) -> pl.DataFrame:
    """The words of one puzzle with their points, best first (a scan of the word table)."""
    fits = ((pl.col("mask") & ~pl.lit(puzzle.letters, pl.UInt32)) == 0) & (
        (pl.col("mask") & puzzle.center_mask) != 0)
    return (playable_words(words, rules).filter(fits)
            .select("word", "points", "pangram", "frequency")
            .sort(["points", "word"], descending=[True, False]))
