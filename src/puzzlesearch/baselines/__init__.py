"""Baselines the benchmarks measure against: one implementation, used by benchmarks/*.py and the report.

- lexicon: a plain dict-of-dicts trie (the minimal DAWG's baseline);
- Spelling Bee: the numba + polars mask table and puzzle ranking, and a pure-Python
  baseline (Norvig's pytudes method: a dict letter-set -> points, then the 2^7 subsets of
  each pangram set); both give (letters, center, points, words, pangrams) rows, best first;
- Rubik's cube: the published figures of peer two-phase solvers, and the `kociemba` C
  package (the optional `bench` extra) timed on given cubes, its answers verified.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import polars as pl

BeeRow = tuple[str, str, int, int, int]  # letters, center, points, words, pangrams


def best_of(repeat: int, fn):
    """(best seconds, last result) of `repeat` calls."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


# ---------------------------------------------------------------- lexicon


def trie_size(words: list[str]) -> tuple[int, int, float]:
    """Baseline: nodes and word-end nodes of a plain dict-of-dicts trie, and seconds to build it."""
    start = time.perf_counter()
    root: dict = {}
    nodes, ends = 1, 0
    for word in words:
        node = root
        for ch in word:
            if ch not in node:
                node[ch] = {}
                nodes += 1
            node = node[ch]
        if "" not in node:
            node[""] = True  # the word-end mark (no node)
            ends += 1
    return nodes, ends, time.perf_counter() - start


# ---------------------------------------------------------------- Spelling Bee


def fast_table(words_path: str | Path, rules):
    """numba + polars: words.parquet -> the masks frame and the dense MaskTable."""
    from puzzlesearch.bee.tables import MaskTable, mask_frame

    masks = mask_frame(pl.read_parquet(words_path), rules)
    return masks, MaskTable.from_frame(masks, rules.size)


def fast_puzzles(masks: pl.DataFrame, table, rules) -> pl.DataFrame:
    """numba: every valid (letters, center) scored and ranked."""
    from puzzlesearch.bee.search import rank_puzzles

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


# ---------------------------------------------------------------- Rubik's cube: published peers, the kociemba C package


@dataclass(frozen=True)
class CubePeer:
    """A peer two-phase solver's published figures (None: not published)."""

    name: str
    median_ms: float | None
    mean_ms: float | None
    mean_moves: float | None
    max_moves: int | None
    source: str


# Published constants, not measured by this project's runs (the kociemba row was measured once with
# benchmarks/cube_bench.py on ../shared/cube/random_1000.txt; the README's cube "Measured" table).
CUBE_PEERS = (
    CubePeer(
        "kociemba C package",
        11.0,
        None,
        20.76,
        22,
        "README 'Measured' (cube_bench.py, random_1000, this machine, Nov 2026)",
    ),
    CubePeer("min2phase (Java)", None, 7.96, None, 20, "min2phase README: <= 20 moves, 7.96 ms/cube mean, 1 MB tables"),
    CubePeer(
        "Kociemba's Python solver, 1 s/cube budget",
        None,
        1000.0,
        19.27,
        None,
        "RubiksCube-TwophaseSolver README: mean 19.27 moves at 1 s/cube (CPython)",
    ),
)
KOCIEMBA_LIVE = "kociemba C package (this run)"


def kociemba_solves(cubes) -> tuple[list[int], list[float]] | None:
    """(moves, ms) per cube of the `kociemba` C package, each answer verified by our cubie model; None if absent."""
    try:
        import kociemba
    except ImportError:
        return None
    from puzzlesearch.cube.cubie import parse_moves
    from puzzlesearch.cube.facelets import to_facelets
    from puzzlesearch.cube.solve import verify

    lengths, times = [], []
    kociemba.solve(to_facelets(cubes[0]))  # load its tables outside the timings
    for cube in cubes:
        facelets = to_facelets(cube)
        t0 = time.perf_counter()
        answer = kociemba.solve(facelets)
        times.append((time.perf_counter() - t0) * 1000)
        moves = parse_moves(answer)
        verify(cube, moves)
        lengths.append(len(moves))
    return lengths, times


# ---------------------------------------------------------------- Crossword: the fill and its plain baseline

# The baseline fill: no frequency weight, no restart noise, no last-conflict (dom/wdeg slot order and
# Luby node limits kept); the same node budget and seed as the fill it is compared with.
BASELINE_FILL = {"freq_weight": 0.0, "noise": 0.0, "last_conflict": False}


def fill_with(pattern, tables, settings, baseline: bool, seed: int = 0):
    """One fill of a pattern, the default knobs or the baseline's (None when the budget ends it unfilled)."""
    import dataclasses

    from puzzlesearch.crossword.fill import NoFill, fill

    knobs = dict(BASELINE_FILL) if baseline else {}
    last_conflict = knobs.pop("last_conflict", True)
    try:
        return fill(
            pattern, tables, dataclasses.replace(settings, **knobs), seed, progress=False, last_conflict=last_conflict
        )
    except NoFill:
        return None
