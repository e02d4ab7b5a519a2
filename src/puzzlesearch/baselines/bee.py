"""Spelling Bee baselines: the numba + polars mask table and ranking, and a pure-Python one.

`fast_table` / `fast_puzzles` run the package's own code (words.parquet -> masks -> every
puzzle ranked); `baseline_table` / `baseline_puzzles` are Norvig's pytudes method in pure
Python (a dict letter-set -> points, then the 2^7 subsets of each pangram set). Both give
(letters, center, points, words, pangrams) rows, best first.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from pathlib import Path

import polars as pl

from puzzlesearch.bee.search import rank_puzzles
from puzzlesearch.bee.tables import MaskTable, mask_frame

BeeRow = tuple[str, str, int, int, int]  # letters, center, points, words, pangrams


def best_of(repeat: int, fn):
    """(best seconds, last result) of `repeat` calls."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def fast_table(words_path: str | Path, rules):
    """numba + polars: words.parquet -> the masks frame and the dense MaskTable."""
    masks = mask_frame(pl.read_parquet(words_path), rules)
    return masks, MaskTable.from_frame(masks, rules.size)


def fast_puzzles(masks: pl.DataFrame, table, rules) -> pl.DataFrame:
    """numba: every valid (letters, center) scored and ranked."""
    return rank_puzzles(table, masks, rules)


def fast_rows(puzzles: pl.DataFrame) -> list[BeeRow]:
    """The ranked puzzles as baseline-comparable rows."""
    return puzzles.select("letters", "center", "points", "words", "pangrams").rows()


def baseline_table(words_path: str | Path, rules) -> tuple[Counter, Counter]:
    """Pure Python: letter set -> points and word count, one word at a time."""
    points, counts = Counter(), Counter()
    excluded = set(rules.exclude)
    for w in pl.read_parquet(words_path, columns=["word"])["word"].to_list():
        letters = frozenset(w)
        if len(w) < rules.min_length or len(letters) > rules.size or letters & excluded:
            continue
        pts = rules.short_points if len(w) <= rules.short_length else len(w)
        points[letters] += pts + (rules.pangram_bonus if len(letters) == rules.size else 0)
        counts[letters] += 1
    return points, counts


def baseline_puzzles(points: Counter, counts: Counter, rules) -> list[BeeRow]:
    """Pure Python: for each pangram set, sum its 2^7 subsets per center; sort."""
    out = []
    for letters in (s for s in points if len(s) == rules.size):
        letters_sorted = sorted(letters)
        subsets = [frozenset(c) for k in range(1, rules.size + 1) for c in itertools.combinations(letters_sorted, k)]
        subsets = [s for s in subsets if s in points]
        for center in letters_sorted:
            p = sum(points[s] for s in subsets if center in s)
            n = sum(counts[s] for s in subsets if center in s)
            out.append((-p, -n, "".join(letters_sorted).upper(), center.upper(), p, n, counts[letters]))
    out.sort()
    return [(r[2], r[3], r[4], r[5], r[6]) for r in out]
