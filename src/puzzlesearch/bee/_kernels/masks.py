"""numba kernels: the dense mask table and scoring every (letter set, center).

The table holds every letter mask of at most K letters (K = puzzle size), indexed by
its size and colexicographic rank:

    index(mask) = OFFSET[popcount(mask)] + sum_i C(p_i, i + 1)

where p_0 < p_1 < ... are the mask's letter positions. With K = 7 that is
sum_{k<=7} C(26, k) = 971,712 slots (a few MB) instead of a flat 2^26 array.
Scoring a set visits its 2^K subsets; the index of each subset is built from the
subset without its highest letter, so a set costs about 2^K table reads and no word is
ever looked at.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.bee.model import N_LETTERS


def binomials(n: int = N_LETTERS, k: int = 10) -> np.ndarray:
    """C[n, r] for 0 <= n <= N_LETTERS, 0 <= r <= k (int64)."""
    c = np.zeros((n + 1, k + 2), dtype=np.int64)
    for i in range(n + 1):
        c[i, 0] = 1
        for r in range(1, min(i, k + 1) + 1):
            c[i, r] = c[i - 1, r - 1] + c[i - 1, r]
    return c


def offsets(size: int) -> np.ndarray:
    """OFFSET[k] = number of masks with fewer than k letters, for k = 0..size+1."""
    c = binomials(N_LETTERS, size)
    out = np.zeros(size + 2, dtype=np.int64)
    for k in range(1, size + 2):
        out[k] = out[k - 1] + c[N_LETTERS, k - 1]
    return out


@njit(cache=True)
def mask_index(mask, binom, offset):
    """Dense index of a mask (its letter count must be at most the table's size)."""
    rank = 0
    k = 0
    for p in range(N_LETTERS):
        if mask >> p & 1:
            k += 1
            rank += binom[p, k]
    return offset[k] + rank


@njit(cache=True)
def fill_table(masks, points, counts, binom, offset, n_slots):
    """Dense arrays (points, counts) over mask indices from per-mask totals."""
    table_points = np.zeros(n_slots, dtype=np.int64)
    table_counts = np.zeros(n_slots, dtype=np.int32)
    for i in range(masks.shape[0]):
        j = mask_index(masks[i], binom, offset)
        table_points[j] += points[i]
        table_counts[j] += counts[i]
    return table_points, table_counts


@njit(cache=True)
def score_sets(sets, size, table_points, table_counts, binom, offset):
    """Points and word counts of every (set, center), and pangram counts per set.

    sets: int64 masks of exactly `size` letters. Returns points[n, size],
    words[n, size] (column j = the set's j-th letter in alphabetical order as center)
    and pangrams[n].
    """
    n = sets.shape[0]
    n_sub = 1 << size
    points = np.zeros((n, size), dtype=np.int64)
    words = np.zeros((n, size), dtype=np.int32)
    pangrams = np.zeros(n, dtype=np.int32)
    popcount = np.zeros(n_sub, dtype=np.int64)
    top = np.zeros(n_sub, dtype=np.int64)
    for b in range(1, n_sub):
        popcount[b] = popcount[b >> 1] + (b & 1)
        t = 0
        while (b >> (t + 1)) != 0:
            t += 1
        top[b] = t
    pos = np.zeros(size, dtype=np.int64)
    rank = np.zeros(n_sub, dtype=np.int64)
    for i in range(n):
        m = sets[i]
        k = 0
        for p in range(N_LETTERS):
            if m >> p & 1:
                pos[k] = p
                k += 1
        for b in range(1, n_sub):
            t = top[b]
            rank[b] = rank[b ^ (1 << t)] + binom[pos[t], popcount[b]]
            j = offset[popcount[b]] + rank[b]
            v = table_points[j]
            w = table_counts[j]
            if w != 0:
                for c in range(size):
                    if b >> c & 1:
                        points[i, c] += v
                        words[i, c] += w
        pangrams[i] = table_counts[offset[size] + rank[n_sub - 1]]
    return points, words, pangrams


@njit(cache=True)
def letter_sets(allowed, size):
    """Every mask of `size` letters drawn from the `allowed` mask, in increasing order."""
    pos = np.zeros(N_LETTERS, dtype=np.int64)
    m = 0
    for p in range(N_LETTERS):
        if allowed >> p & 1:
            pos[m] = p
            m += 1
    count = 1
    for i in range(size):
        count = count * (m - i) // (i + 1)
    out = np.zeros(count, dtype=np.int64)
    x = (1 << size) - 1  # Gosper's hack over the m allowed letters
    i = 0
    while i < count:
        mask = 0
        for j in range(m):
            if x >> j & 1:
                mask |= 1 << pos[j]
        out[i] = mask
        i += 1
        u = x & -x
        v = x + u
        x = v + (((v ^ x) // u) >> 2)
    return out


@njit(cache=True)
def mask_codes(masks, width, base):
    """ASCII codes of each mask's letters (from `base`, e.g. ord('a')), NUL padded to width."""
    out = np.zeros((masks.shape[0], width), dtype=np.uint8)
    for i in range(masks.shape[0]):
        k = 0
        for p in range(N_LETTERS):
            if masks[i] >> p & 1 and k < width:
                out[i, k] = base + p
                k += 1
    return out


@njit(cache=True)
def alphabetical_keys(masks):
    """Integers that sort letter sets of one size as their alphabetical strings do."""
    out = np.zeros(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        key = 0
        for p in range(N_LETTERS):
            if masks[i] >> p & 1:
                key = key * N_LETTERS + p
        out[i] = key
    return out
