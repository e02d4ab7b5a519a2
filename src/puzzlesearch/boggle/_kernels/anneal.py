"""numba kernels: simulated annealing over Boggle boards (single-cell changes and swaps).

One annealing run walks one board: each step proposes a move (swap two cells holding
different letters with probability `swap_p`, else change one cell to another allowed
letter), scores the moved board in full (scorer._score: a 5x5 board in ~15-30 us) and
accepts it by the Metropolis rule at the step's temperature
t = t0 * exp(-log_ratio * step / run_steps) (geometric cooling from t0 to t_end over
`run_steps` steps). The run's best board is kept with the step it was reached at; with
`stall` > 0 a run ends early once `stall` steps have passed without a new run best (the
board has frozen: on 5x5 runs the best comes while the board still moves, in the first
quarter of the cooling, and the frozen rest of a run only re-scores a local optimum).

Everything a run needs between two kernel calls is in one `AnnealArrays` (a typing.NamedTuple
of arrays), so a caller can stop after any call (budget, Ctrl-C), save the arrays and resume:
the random numbers come from a xorshift64* generator whose state is in the arrays, so the
same arrays and calls give the same boards however the steps are split into calls.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzlesearch.boggle._kernels.scorer import _score, new_work

# AnnealArrays.ints slots
SCORE, BEST_SCORE, BEST_AT, STEP, BOARDS, BEST_STEP = range(6)
N_INTS = 6
MULTIPLIER = np.uint64(2685821657736338717)  # xorshift64* (Vigna 2016)


class AnnealArrays(NamedTuple):
    """The state of one annealing run between kernel calls."""

    board: np.ndarray  # uint8 letters of the current board
    best: np.ndarray  # uint8 letters of the run's best board
    allowed: np.ndarray  # uint8 letters a cell may be changed to
    rng: np.ndarray  # uint64[1] xorshift64* state (never 0)
    ints: (
        np.ndarray
    )  # int64[N_INTS]: score, best score, boards scored when the best was reached, step in run, boards scored,
    # step in run when the best was reached


@njit(cache=True)
def next_u64(rng):
    """The next 64-bit number of the xorshift64* generator held in rng[0]."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * MULTIPLIER


@njit(cache=True)
def uniform(rng):
    """A float in [0, 1) (53 bits)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def below(rng, n):
    """An integer in [0, n) (n small: the modulo bias is below 2**-50)."""
    return np.int64((next_u64(rng) >> np.uint64(11)) % np.uint64(n))


@njit(cache=True)
def random_board(state):
    """Fill state.board with allowed letters drawn uniformly."""
    for c in range(state.board.shape[0]):
        state.board[c] = state.allowed[below(state.rng, state.allowed.shape[0])]


@njit(cache=True)
def propose(board, allowed, rng, swap_p):
    """Move `board` in place; returns (cell a, old letter a, cell b, old letter b) to undo it (b = -1: a change)."""
    n = board.shape[0]
    if uniform(rng) < swap_p:
        for _ in range(64):  # two cells with different letters (a board of one letter has none)
            a = below(rng, n)
            b = below(rng, n - 1)
            b += b >= a
            if board[a] != board[b]:
                la, lb = board[a], board[b]
                board[a], board[b] = lb, la
                return a, la, b, lb
    a = below(rng, n)
    old = board[a]
    if allowed.shape[0] > 1:
        k = below(rng, allowed.shape[0] - 1)
        letter = allowed[k]
        if letter == old:  # skip the cell's own letter: draw among the others
            letter = allowed[allowed.shape[0] - 1]
        board[a] = letter
    return a, old, -1, old


@njit(cache=True)
def anneal(state, nbm, trie, stamp0, steps, run_steps, t0, log_ratio, swap_p, stall):
    """Run up to `steps` annealing steps (fewer when the run ends first); returns steps done.

    Every step scores one board: step 0 of a run its starting board, each later step one
    move from the current board. Stamps stamp0 .. stamp0 + steps - 1 are used. The run
    ends after `run_steps` steps, or (stall > 0) `stall` steps after its best was reached:
    then ints[STEP] is set to run_steps.
    """
    board, best, ints, rng = state.board, state.best, state.ints, state.rng
    work = new_work()
    none = np.zeros(0, dtype=np.int64)
    stamp = stamp0
    done = 0
    while done < steps and ints[STEP] < run_steps:
        if ints[STEP] == 0:  # the run's starting board
            s, _ = _score(board, nbm, trie, stamp, work, none)
            ints[SCORE] = s
            ints[BEST_SCORE] = s
            ints[BEST_AT] = ints[BOARDS] + 1
            ints[BEST_STEP] = 0
            best[:] = board
        else:
            t = t0 * np.exp(-log_ratio * ints[STEP] / run_steps)
            a, la, b, lb = propose(board, state.allowed, rng, swap_p)
            s, _ = _score(board, nbm, trie, stamp, work, none)
            delta = s - ints[SCORE]
            if delta >= 0 or uniform(rng) < np.exp(delta / t):
                ints[SCORE] = s
                if s > ints[BEST_SCORE]:
                    ints[BEST_SCORE] = s
                    ints[BEST_AT] = ints[BOARDS] + 1
                    ints[BEST_STEP] = ints[STEP]
                    best[:] = board
            else:  # undo the move
                board[a] = la
                if b >= 0:
                    board[b] = lb
        stamp += 1
        ints[BOARDS] += 1
        ints[STEP] += 1
        done += 1
        if stall > 0 and ints[STEP] - ints[BEST_STEP] >= stall:
            ints[STEP] = run_steps  # frozen: the run ends
    return done
