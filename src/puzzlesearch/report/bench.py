"""A bounded baseline benchmark: the numba Boggle scorer against the pure-Python reference.

Both score the same boards (classic dice rolled from a fixed seed, so the work is the
same on every run); the scores must agree board by board, else the benchmark fails.
Loading (the DAWG, numba's compiled kernels, the reference's prefix set) is outside
the timers: the figures compare scoring only.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.errors import PuzzleError

BENCH_SHAPE = "4x4"  # the classic board: the classic dice
BENCH_DICE = "classic"
NUMBA, PYTHON = "numba (DAWG kernel)", "pure Python (reference)"


def rolled_boards(count: int, seed: int) -> np.ndarray:
    """`count` 4x4 boards of the classic dice, shuffled and rolled from `seed`."""
    from puzzlesearch.boggle.model import parse_dice

    dice = parse_dice(BENCH_DICE)
    rng = np.random.default_rng(seed)
    out = np.zeros((count, len(dice)), dtype=np.uint8)
    for i in range(count):
        order = rng.permutation(len(dice))
        out[i] = dice[order, rng.integers(dice.shape[1], size=len(dice))]
    return out


def run(words_path: str | Path, dawg_path: str | Path, count: int, seed: int) -> pl.DataFrame:
    """Time both scorers on the same boards: method, boards, seconds, boards_per_second, total_score."""
    from puzzlesearch.boggle.model import Board, Shape
    from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score
    from puzzlesearch.boggle.score import Scorer

    if count < 1:
        raise PuzzleError(f"--boards {count}: give at least one board")
    shape = Shape.parse(BENCH_SHAPE)
    boards = rolled_boards(count, seed)
    scorer = Scorer.from_files(words_path, dawg_path)
    scorer.score_array(boards[:1], shape)  # numba: load the compiled kernel before the timer
    t0 = time.perf_counter()
    fast = scorer.score_array(boards, shape)[0]
    t_fast = time.perf_counter() - t0
    words = boggle_words(scorer.words or [])
    prefix_set = prefixes(words)
    t0 = time.perf_counter()
    slow = np.array(
        [
            reference_score(Board(shape.rows, shape.cols, tuple(int(c) for c in b)), words, prefix_set=prefix_set)[0]
            for b in boards
        ]
    )
    t_slow = time.perf_counter() - t0
    if not np.array_equal(fast, slow):
        bad = int(np.flatnonzero(fast != slow)[0])
        raise PuzzleError(f"benchmark board {bad}: numba scores {fast[bad]}, the reference {slow[bad]}")
    return pl.DataFrame(
        {
            "method": [NUMBA, PYTHON],
            "boards": [count, count],
            "seconds": [t_fast, t_slow],
            "boards_per_second": [count / max(t_fast, 1e-9), count / max(t_slow, 1e-9)],
            "total_score": [int(fast.sum()), int(slow.sum())],
        }
    )
