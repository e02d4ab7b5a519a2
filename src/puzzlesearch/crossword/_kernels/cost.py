"""Numba kernels: word hash sets and the cost of a grid's vertical words.

Plain arrays in, plain values out. Conventions (see model.py): grids are int8 letter
codes, 0 = black. Word tables are `codes` (n, W) int8 rows padded with 0 and `lengths`;
a hash table is an int32 array of row numbers (-1 = empty), size a power of two, open
addressing with linear probing. Costs are integers in units of 0.2 letter:
cost5 = 5 x unknown letters + 1 x scrambled letters, so f = cost5 / 5.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

UNKNOWN_WEIGHT = 5  # a letter of an unknown vertical word costs 1 = 5 units
SCRAMBLED_WEIGHT = 1  # a letter of an anagram of a word costs 0.2 = 1 unit


class CostWords(NamedTuple):
    """The word rows, their hash table and eligible flags, and the same for the anagram
    signatures (WordTables.kernel_args())."""

    codes: np.ndarray  # (n, W) int8
    lengths: np.ndarray
    word_ok: np.ndarray  # bool per row: at or above the floors
    word_table: np.ndarray
    sig_codes: np.ndarray
    sig_lengths: np.ndarray
    sig_ok: np.ndarray
    sig_table: np.ndarray


class GridCost(NamedTuple):
    """A grid's vertical words: their cost and how many letters and words are unknown or scrambled."""

    cost5: int  # cost in units of 0.2 letter
    unknown_letters: int
    scrambled_letters: int
    unknown_words: int
    scrambled_words: int
    words: int  # vertical words of 2+ letters


# ---------------------------------------------------------------- hash sets


@njit(cache=True)
def word_hash(q, n):
    """Hash of the first n codes of q (int64, wrapping arithmetic)."""
    h = np.int64(n) * np.int64(0x9E3779B1)
    for i in range(n):
        h = (h ^ np.int64(q[i] + 1)) * np.int64(0x100000001B3)
    h ^= h >> np.int64(29)
    return h


@njit(cache=True)
def build_table(codes, lengths, size):
    """Hash table (int32, -1 empty) of the rows of `codes`; size a power of two."""
    table = np.full(size, -1, dtype=np.int32)
    mask = size - 1
    for row in range(codes.shape[0]):
        k = word_hash(codes[row], lengths[row]) & mask
        while table[k] >= 0:
            k = (k + 1) & mask
        table[k] = row
    return table


@njit(cache=True)
def find(table, codes, lengths, q, n):
    """Row of the word q[:n] in a hash table, or -1."""
    mask = table.shape[0] - 1
    k = word_hash(q, n) & mask
    while True:
        row = table[k]
        if row < 0:
            return -1
        if lengths[row] == n:
            same = True
            for i in range(n):
                if codes[row, i] != q[i]:
                    same = False
                    break
            if same:
                return row
        k = (k + 1) & mask


@njit(cache=True)
def first_missing_row(table, codes, lengths):
    """First row that `find` does not return for its own word, or -1: the table holds each row once.

    The caller makes sure the table has an empty slot (so every probe ends).
    """
    for row in range(codes.shape[0]):
        if find(table, codes, lengths, codes[row], lengths[row]) != row:
            return row
    return -1


@njit(cache=True)
def sort_small(q, n):
    """Insertion sort of q[:n] in place (words are short)."""
    for i in range(1, n):
        v = q[i]
        j = i - 1
        while j >= 0 and q[j] > v:
            q[j + 1] = q[j]
            j -= 1
        q[j + 1] = v


# ---------------------------------------------------------------- cost


@njit(cache=True)
def run_cost(q, n, words):
    """Cost units of one vertical word q[:n] (q is scratch: it gets sorted; words: CostWords)."""
    codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table = words
    if n < 2:
        return 0
    row = find(word_table, codes, lengths, q, n)
    if row >= 0 and word_ok[row]:
        return 0
    sort_small(q, n)
    sid = find(sig_table, sig_codes, sig_lengths, q, n)
    if sid >= 0 and sig_ok[sid]:
        return SCRAMBLED_WEIGHT * n
    return UNKNOWN_WEIGHT * n


@njit(cache=True)
def column_run(grid, r, c):
    """(start row, length) of the vertical run through white cell (r, c)."""
    top = r
    while top > 0 and grid[top - 1, c] != 0:
        top -= 1
    bottom = r
    n_rows = grid.shape[0]
    while bottom + 1 < n_rows and grid[bottom + 1, c] != 0:
        bottom += 1
    return top, bottom - top + 1


@njit(cache=True, inline="always")
def column_word(grid, c, r, q):
    """The next run of white cells in column c from row r on: (its first row, its length), its
    letters in q[:length]; length 0 past the column's last run."""
    n_rows = grid.shape[0]
    while r < n_rows and grid[r, c] == 0:
        r += 1
    n = 0
    while r + n < n_rows and grid[r + n, c] != 0:
        q[n] = grid[r + n, c]
        n += 1
    return r, n


@njit(cache=True)
def grid_cost(grid, words):
    """The GridCost of a grid's vertical words (words: CostWords)."""
    n_rows, n_cols = grid.shape
    q = np.zeros(n_rows, dtype=np.int8)
    cost5 = unknown_letters = scrambled_letters = unknown_words = scrambled_words = n_words = 0
    for c in range(n_cols):
        r, n = column_word(grid, c, 0, q)
        while n > 0:
            if n >= 2:
                cost = run_cost(q, n, words)
                cost5 += cost
                n_words += 1
                if cost == UNKNOWN_WEIGHT * n:
                    unknown_letters += n
                    unknown_words += 1
                elif cost > 0:
                    scrambled_letters += n
                    scrambled_words += 1
            r, n = column_word(grid, c, r + n, q)
    return GridCost(cost5, unknown_letters, scrambled_letters, unknown_words, scrambled_words, n_words)
