"""numba kernel of the tables' structural checks on load (tables/structure.py): a distance table's BFS shape.

Kept apart from the kernels that build tables: it shapes no table (no store key lists it).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _entry_fault(dist, i, row_a, move_b, b, moves, goal):
    """True if entry i = a * n_b + b breaks the BFS shape (row_a[m] = move_a[a, m] * n_b)."""
    d = np.int64(dist[i])
    lower = False
    for q in range(moves.shape[0]):
        m = moves[q]
        e = np.int64(dist[row_a[m] + move_b[b, m]])
        if d < 0:
            if e >= 0:
                return True
        elif e < 0 or e > d + 1 or e < d - 1:
            return True
        elif e == d - 1:
            lower = True
    return (d == 0 and i != goal) or (d > 0 and not lower)


@njit(cache=True)
def pair_distance_fault(dist, move_a, move_b, n_b, moves, goal, indices):
    """The first entry that breaks the shape of a BFS distance table, or -1.

    dist is over i = a * n_b + b, the neighbours of i are move_a[a, m] * n_b + move_b[b, m]
    for m in `moves` (move tables already checked: every entry a coordinate). Each entry must
    be -1 (unreached) with every neighbour -1, or a depth d with every neighbour reached and
    at d - 1, d or d + 1 (the bound is admissible), one of them at d - 1 unless d is 0 (the
    depth is reached), and 0 only at `goal`. With the goal at 0 these make it the exact BFS
    distance when every entry is checked: `indices` empty (row by row: the neighbours of one
    row of n_b entries stay close together), else only those.
    """
    row_a = np.empty(move_a.shape[1], dtype=np.int64)
    if indices.shape[0] == 0:
        for a in range(move_a.shape[0]):
            for m in range(move_a.shape[1]):
                row_a[m] = np.int64(move_a[a, m]) * n_b
            for b in range(n_b):
                i = a * n_b + b
                if _entry_fault(dist, i, row_a, move_b, b, moves, goal):
                    return i
        return -1
    for k in range(indices.shape[0]):
        i = indices[k]
        a, b = i // n_b, i % n_b
        for m in range(move_a.shape[1]):
            row_a[m] = np.int64(move_a[a, m]) * n_b
        if _entry_fault(dist, i, row_a, move_b, b, moves, goal):
            return i
    return -1
