"""numba kernels of the two-phase and Thistlethwaite pruning tables: breadth-first distances.

A phase state is a pair of coordinates (a, b); its table index is a * n_b + b. Move tables
are int32 arrays (size x 18), pruning tables int8 distances (-1 = not reached). Symmetry-
reduced tables (bfs_sym_distances) index class * n_t + t instead (model/symmetry.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube._kernels.bfs_bundles import SymLayer
from puzzlesearch.cube.model.symmetry import SYM_MASK, SYM_SHIFT


@njit(cache=True)
def bfs_distances(move_a, move_b, moves, start, n_b, size):
    """Distance of every (a, b) from `start` using `moves`, by layers; -1 if unreachable."""
    dist = np.full(size, -1, dtype=np.int8)
    dist[start] = 0
    depth = 0
    while True:
        found = 0
        for i in range(size):
            if dist[i] != depth:
                continue
            a = i // n_b
            b = i - a * n_b
            for m in moves:
                j = move_a[a, m] * n_b + move_b[b, m]
                if dist[j] < 0:
                    dist[j] = depth + 1
                    found += 1
        if found == 0:
            return dist
        depth += 1


@njit(cache=True)
def bfs_sym_distances(move_a, move_b, move_t, classsym, reps, selfsym, t_conj, n_a, n_t, start, moves, cap):
    """Distances over (class, t) states: a symmetry-reduced BFS (-1: not reached).

    The raw pair coordinate b * n_a + a (move tables move_a, move_b: flip and E slice for
    phase 1; corner perm and the one-value `none` for phase 2), using `moves`,
    is reduced by `classsym` (raw -> class << SYM_SHIFT | sym, with conj(raw, sym) = rep)
    to one of len(reps) classes; the third coordinate t (twist) is conjugated by the same
    symmetry (t_conj: t x sym). Entry class * n_t + t. A class whose representative is
    fixed by some symmetries (selfsym bits) gets the conjugates of t too, so equivalent
    entries carry one distance. Early layers expand forward; once the unreached entries
    are fewer than twice the frontier, each unreached entry looks for a neighbour in it.
    With cap > 0 the search stops after depth cap - 1 and every entry not reached by then
    holds cap (a lower bound: its distance is at least cap).
    """
    n_class = len(reps)
    size = n_class * n_t
    dist = np.full(size, -1, dtype=np.int8)
    dist[start] = 0
    ts = np.empty(n_t, dtype=np.int64)
    depth = 0
    frontier = 1
    unreached = size - 1
    tabs = SymLayer(move_a, move_b, move_t, classsym, reps, selfsym, t_conj, moves)
    while frontier > 0:
        if cap > 0 and depth == cap - 1:
            for i in range(size):
                if dist[i] < 0:
                    dist[i] = cap
            break
        backward = unreached < 2 * frontier
        found = 0
        for c in range(n_class):
            found += _sym_layer_class(c, dist, ts, tabs, n_a, n_t, depth, backward)
        frontier = found
        unreached -= found
        depth += 1
    return dist


@njit(cache=True)
def _sym_layer_class(c, dist, ts, tabs, n_a, n_t, depth, backward):
    """One BFS layer for the entries of class c; returns the entries newly set to depth + 1."""
    move_a, move_b, move_t, classsym, reps, selfsym, t_conj, moves = tabs
    base = c * n_t
    want = -1 if backward else depth  # backward: the unreached entries of c look for a neighbour at depth
    n = 0
    for t in range(n_t):
        if dist[base + t] == want:
            ts[n] = t
            n += 1
    if n == 0:
        return 0
    a = reps[c] % n_a
    b = reps[c] // n_a
    found = 0
    for m in moves:
        cs = classsym[move_b[b, m] * n_a + move_a[a, m]]
        base2 = (cs >> SYM_SHIFT) * n_t
        s2 = cs & SYM_MASK
        if backward:
            k = 0
            while k < n:
                t = ts[k]
                if dist[base2 + t_conj[move_t[t, m], s2]] == depth:
                    dist[base + t] = depth + 1
                    found += 1
                    n -= 1
                    ts[k] = ts[n]
                else:
                    k += 1
            if n == 0:
                break
            continue
        fixed = selfsym[cs >> SYM_SHIFT]
        for k in range(n):
            t2 = t_conj[move_t[ts[k], m], s2]
            if dist[base2 + t2] >= 0:
                continue
            dist[base2 + t2] = depth + 1
            found += 1
            if fixed != 1:
                for s in range(1, SYM_MASK + 1):
                    if (fixed >> s) & 1:
                        t3 = t_conj[t2, s]
                        if dist[base2 + t3] < 0:
                            dist[base2 + t3] = depth + 1
                            found += 1
    return found
