"""Scoring and ranking every puzzle from the mask table; the words of one puzzle.

`rank_puzzles` never looks at words: it scores each candidate letter set through its
2^size subsets in the dense mask table (_kernels/masks.py score_sets).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from puzzlesearch.bee._kernels import masks as kernels
from puzzlesearch.bee.model import LETTERS, Puzzle, letters_mask
from puzzlesearch.bee.settings import BeeRules, TableRules
from puzzlesearch.bee.tables import MaskTable, check_sums_fit, masks_text, playable_words

PUZZLES_SCHEMA = {
    "rank": pl.UInt32,
    "letters": pl.String,  # the puzzle's letters, uppercase, alphabetical: "AEGINRT"
    "center": pl.String,  # the center letter, uppercase
    "points": pl.Int64,
    "words": pl.Int32,
    "pangrams": pl.Int32,
    "mask": pl.UInt32,
}
ANSWER_EXTRAS = ("frequency", "zipf")  # word-table columns puzzle_words passes on when present


def candidate_sets(masks: pl.DataFrame, rules: BeeRules) -> np.ndarray:
    """Letter sets to score: pangram masks when a pangram is required, else all sets."""
    if rules.require_pangram:
        sets = masks.filter(pl.col("pangram"))["mask"].to_numpy()
        return np.sort(sets.astype(np.int64))
    allowed = letters_mask(LETTERS) & ~rules.exclude_mask
    return kernels.letter_sets(allowed, rules.size)


def score_sets(table: MaskTable, sets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """points[n, size], words[n, size] per (set, center letter j), pangrams[n]."""
    return kernels.score_sets(
        np.ascontiguousarray(sets, dtype=np.int64), table.size, table.points, table.counts, table.binom, table.offset
    )


def rank_puzzles(table: MaskTable, masks: pl.DataFrame, rules: BeeRules) -> pl.DataFrame:
    """puzzles.parquet: every valid (letters, center), best first."""
    sets = candidate_sets(masks, rules)
    sets = sets[np.argsort(kernels.alphabetical_keys(sets), kind="stable")]
    points, words, pangrams = score_sets(table, sets)
    size = rules.size
    # Rows (set i, center j) come in alphabetical order of letters, then center.
    each = np.repeat(np.arange(len(sets), dtype=np.int64), size)
    points, words, pangrams = points.ravel(), words.ravel(), pangrams[each]
    keep = (words >= rules.min_words) & (points >= rules.min_points)
    if rules.max_words:
        keep &= words <= rules.max_words
    if rules.max_points:
        keep &= points <= rules.max_points
    if rules.require_pangram:
        keep &= pangrams > 0
    first, second = (points, words) if rules.score_by == "points" else (words, points)
    rows = np.flatnonzero(keep)
    key = -(first[rows].astype(np.int64) * (1 << 31) + second[rows])  # best first
    rows = rows[np.argsort(key, kind="stable")]
    centers = kernels.mask_codes(sets, size, 0).ravel()[rows]  # letter index 0..25
    return pl.DataFrame(
        {
            "rank": np.arange(1, len(rows) + 1, dtype=np.uint32),
            "letters": masks_text(sets, size, upper=True).gather(each[rows]),
            "center": pl.Series(list(LETTERS.upper()), dtype=pl.String).gather(centers),
            "points": points[rows],
            "words": words[rows],
            "pangrams": pangrams[rows],
            "mask": sets[each[rows]].astype(np.uint32),
        }
    ).cast(PUZZLES_SCHEMA)


def puzzle_words(words: pl.DataFrame, puzzle: Puzzle, rules: TableRules) -> pl.DataFrame:
    """The words of one puzzle with their points (and frequency, zipf when given), best first (a scan)."""
    fits = ((pl.col("mask") & ~pl.lit(puzzle.letters, pl.UInt32)) == 0) & ((pl.col("mask") & puzzle.center_mask) != 0)
    playable = playable_words(words, rules)
    check_sums_fit(playable, rules)  # its total is summed by the caller
    return (
        playable.filter(fits)
        .select("word", "points", "pangram", *[c for c in ANSWER_EXTRAS if c in words.columns])
        .sort(["points", "word"], descending=[True, False])
    )
