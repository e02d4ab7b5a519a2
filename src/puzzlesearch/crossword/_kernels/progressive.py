"""Numba kernel of the progressive search (search.py): pop the cheapest grid, queue its mutants.

The grid cost and its units are those of cost.py; arrays come in NamedTuple bundles.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzlesearch.crossword._kernels.cost import column_run, column_word, run_cost


class Queue(NamedTuple):
    """Room for grid.shape[0] grids with their cost, pattern index and hash."""

    grid: np.ndarray  # (capacity, n, n) int8
    cost: np.ndarray  # cost5 per grid
    pat: np.ndarray  # the pattern (layout) index of each grid
    key: np.ndarray  # grid_key of each grid (duplicates stay out)


class Best(NamedTuple):
    """The cheapest grid seen and its info: [cost5, pattern] (INFO_COST, INFO_PATTERN)."""

    grid: np.ndarray
    info: np.ndarray


INFO_COST, INFO_PATTERN = 0, 1  # the entries of Best.info (an array: the kernel updates it in place)


class Layouts(NamedTuple):
    """Per pattern index: the across slots (row, first column, length), their number and each cell's slot."""

    slot_row: np.ndarray
    slot_col: np.ndarray
    slot_len: np.ndarray
    n_slots: np.ndarray
    cell_slot: np.ndarray


class Draw(NamedTuple):
    """The eligible word rows of each length and the letters of one-letter slots."""

    len_start: np.ndarray
    len_count: np.ndarray
    fillers: np.ndarray


@njit(cache=True)
def seed_rng(seed):
    """Seed numba's own random generator (separate from numpy's)."""
    np.random.seed(seed)


@njit(cache=True)
def grid_key(grid):
    """A 64-bit hash of a grid (to keep duplicates out of the queue)."""
    h = np.int64(1469598103934665603)
    for v in grid.ravel():
        h = (h ^ np.int64(v + 1)) * np.int64(0x100000001B3)
    return h


@njit(cache=True)
def _slot_delta(grid, r, c0, n, new, words, q):
    """Cost change when row r, columns c0..c0+n-1 get the letters new[:n]."""
    delta = 0
    for i in range(n):
        c = c0 + i
        if grid[r, c] == new[i]:
            continue
        top, m = column_run(grid, r, c)
        if m < 2:
            continue
        for k in range(m):
            q[k] = grid[top + k, c]
        delta -= run_cost(q, m, words)
        for k in range(m):
            q[k] = grid[top + k, c]
        q[r - top] = new[i]
        delta += run_cost(q, m, words)
    return delta


@njit(cache=True)
def _bad_cells(grid, words, q, out):
    """Fill out[:k] with flat indices of cells in costly vertical words; return k."""
    n_cols = grid.shape[1]
    k = 0
    for c in range(n_cols):
        r, n = column_word(grid, c, 0, q)
        while n > 0:
            if n >= 2 and run_cost(q, n, words) > 0:
                for i in range(n):
                    out[k] = (r + i) * n_cols + c
                    k += 1
            r, n = column_word(grid, c, r + n, q)
    return k


@njit(cache=True)
def _pop_cheapest(queue, qn, parent):
    """Copy the cheapest queued grid to parent and remove it: (cost, pattern, queue size)."""
    qgrid, qcost, qpat, qkey = queue
    i_best = 0
    for i in range(1, qn):
        if qcost[i] < qcost[i_best]:
            i_best = i
    parent[:, :] = qgrid[i_best]
    p_cost = qcost[i_best]
    pat = qpat[i_best]
    qn -= 1
    if i_best != qn:
        qgrid[i_best] = qgrid[qn]
        qcost[i_best] = qcost[qn]
        qpat[i_best] = qpat[qn]
        qkey[i_best] = qkey[qn]
    return p_cost, pat, qn


@njit(cache=True)
def _draw_word(n, words, draw, new):
    """new[:n] = a random eligible word of length n (a filler letter for n = 1); ok?"""
    codes = words.codes
    len_start, len_count, fillers = draw
    if n == 1:
        new[0] = fillers[np.random.randint(fillers.shape[0])]
        return True
    cnt = len_count[n]
    if cnt == 0:
        return False
    row = len_start[n] + np.random.randint(cnt)
    for i in range(n):
        new[i] = codes[row, i]
    return True


@njit(cache=True)
def _insert(queue, qn, best, parent, cost, pat):
    """Queue the grid `parent` unless it is already queued or worse than a full queue's
    worst (the caller checked room); track the best. Returns the queue size."""
    qgrid, qcost, qpat, qkey = queue
    best_grid, best_info = best
    if qn < qgrid.shape[0]:
        slot = qn
    else:
        slot = 0
        for i in range(1, qn):
            if qcost[i] > qcost[slot]:
                slot = i
        if cost >= qcost[slot]:
            return qn
    key = grid_key(parent)
    for i in range(qn):
        if qkey[i] == key and qcost[i] == cost:
            return qn
    qgrid[slot] = parent
    qcost[slot] = cost
    qpat[slot] = pat
    qkey[slot] = key
    if slot == qn:
        qn += 1
    if cost < best_info[INFO_COST]:
        best_info[INFO_COST] = cost
        best_info[INFO_PATTERN] = pat
        best_grid[:, :] = parent
    return qn


@njit(cache=True)
def progressive_search(queue, qn, best, layouts, words, draw, n_mutants, focus, max_pops):
    """Run up to max_pops pops of the progressive search; return (queue size, pops done).

    The queue holds qn grids. A pop removes the cheapest grid and makes n_mutants mutants
    of it: one horizontal slot gets a random other word of its length (with probability
    `focus` the slot is one crossing a costly vertical word). A mutant enters the queue
    when there is room or it beats the worst queued grid and is not already queued.
    best tracks the cheapest grid ever seen; the search stops as soon as a cost-0 grid is
    found. words: cost.CostWords; the other bundles are this module's NamedTuples.
    """
    qgrid = queue.grid
    best_info = best.info
    slot_row, slot_col, slot_len, n_slots, cell_slot = layouts
    capacity = qgrid.shape[0]
    n_rows, n_cols = qgrid.shape[1], qgrid.shape[2]
    q = np.zeros(n_rows, dtype=np.int8)
    bad = np.zeros(n_rows * n_cols, dtype=np.int64)
    new = np.zeros(n_cols, dtype=np.int8)
    parent = np.zeros((n_rows, n_cols), dtype=np.int8)
    pops = 0
    while pops < max_pops and qn > 0 and best_info[INFO_COST] > 0:
        pops += 1
        p_cost, pat, qn = _pop_cheapest(queue, qn, parent)
        n_bad = _bad_cells(parent, words, q, bad)
        for _ in range(n_mutants):
            if n_bad > 0 and np.random.random() < focus:
                cell = bad[np.random.randint(n_bad)]
                s = cell_slot[pat, cell // n_cols, cell % n_cols]
            else:
                s = np.random.randint(n_slots[pat])
            r, c0, n = slot_row[pat, s], slot_col[pat, s], slot_len[pat, s]
            if not _draw_word(n, words, draw, new):
                continue
            same = True
            for i in range(n):
                if parent[r, c0 + i] != new[i]:
                    same = False
                    break
            if same:
                continue
            cost = p_cost + _slot_delta(parent, r, c0, n, new, words, q)
            if qn >= capacity and cost >= _worst_cost(queue.cost, qn):
                continue
            old = parent[r, c0 : c0 + n].copy()
            parent[r, c0 : c0 + n] = new[:n]
            qn = _insert(queue, qn, best, parent, cost, pat)
            parent[r, c0 : c0 + n] = old
            if best_info[INFO_COST] == 0:
                break
    return qn, pops


@njit(cache=True)
def _worst_cost(qcost, qn):
    """The highest cost among the qn queued grids."""
    worst = qcost[0]
    for i in range(1, qn):
        if qcost[i] > worst:
            worst = qcost[i]
    return worst
