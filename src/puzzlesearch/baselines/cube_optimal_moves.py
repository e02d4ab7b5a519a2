"""The optimal solver's replaced IDA*: children generated and looked up one move at a time.

The first optimal search kernel (three axis views of the big table, no inverse look-ups, no
corner or coset table). `cube/_kernels/optimal_search.py` replaced it: that kernel looks a
node's children up in batches and adds more heuristics, but generates the same children in
the same order, so with the same tables both find the same first solution and count nodes
alike. Kept for `benchmarks/cube_optimal_bench.py`'s same-run baseline and the oracle test
in tests/cube/test_optimal.py; nothing in the product imports it.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from puzzlesearch.cube._kernels.big_table import entry, exact_depth
from puzzlesearch.cube._kernels.common import clock, next_depth
from puzzlesearch.cube._kernels.optimal_search import CLOCK_EVERY, MAX_DEPTH
from puzzlesearch.cube.model.constants import N_MOVES, STOP_NAMES, Stop
from puzzlesearch.cube.model.coords import CPERM
from puzzlesearch.cube.solvers.optimal import MAX_LENGTH, OptimalResult, SearchTables, axis_coords


@njit(cache=True, inline="always")
def _axis_order(hh, g, n_axes, order):
    """Axes by decreasing distance at depth g (the looked-up axes only, when n_axes < 3)."""
    order[0], order[1], order[2] = 0, 1, 2
    if n_axes < 3:
        return
    for i in range(1, 3):
        j = i
        while j > 0 and hh[g, order[j]] > hh[g, order[j - 1]]:
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1


@njit(cache=True, inline="always")
def _solved_child(data, fl, ss, tw, cp, g, m):
    """True if move m solves the node at depth g (move tables only: the last level of IDA*)."""
    if data.move_cperm[cp[g], m] or data.move_flip[fl[g, 0], m] or data.move_twist[tw[g, 0], m]:
        return False
    for a in range(3):
        if data.move_ss[ss[g, a], data.axis_moves[a, m]]:
            return False
    return True


@njit(cache=True)
def ida_search(data, fl0, ss0, tw0, cp0, node_budget, time_limit, max_length, n_axes):
    """IDA* over the full cube: (moves, nodes, stop, depth bound reached).

    data: a BigSearch; fl0, ss0, tw0: (3,) coordinates of the position conjugated to put
    each axis on UD; data.axis_moves[a, m] is move m seen in axis a. h = max of the three
    exact distances, each updated from its mod-3 entry (n_axes < 3: only the first n_axes
    are looked up). A node is solved when the U-D view has no flip or twist, every slice's
    edges sit sorted at home, and the corners are in place.
    """
    move_flip, move_ss, move_twist, move_cperm, axis_moves = (
        data.move_flip,
        data.move_ss,
        data.move_twist,
        data.move_cperm,
        data.axis_moves,
    )
    L = MAX_DEPTH + 1
    fl = np.zeros((L, 3), dtype=np.int64)
    ss = np.zeros((L, 3), dtype=np.int64)
    tw = np.zeros((L, 3), dtype=np.int64)
    hh = np.zeros((L, 3), dtype=np.int64)
    cp = np.zeros(L, dtype=np.int64)
    mv = np.full(L, -1, dtype=np.int64)
    h0 = 0
    for a in range(3):
        fl[0, a], ss[0, a], tw[0, a] = fl0[a], ss0[a], tw0[a]
        hh[0, a] = exact_depth(data, fl0[a], ss0[a], tw0[a], axis_moves[a]) if a < n_axes else 0
        if hh[0, a] < 0:
            return np.zeros(0, dtype=np.int64), np.int64(0), Stop.COMPLETE, -1
        h0 = max(h0, hh[0, a])
    cp[0] = cp0
    order = np.arange(3)
    nodes = np.int64(0)
    next_clock = CLOCK_EVERY
    deadline = clock() + time_limit
    for bound in range(h0, min(max_length, MAX_DEPTH) + 1):
        g = 0
        mv[:] = -1
        while g >= 0:
            # leaf test at depth g == bound
            if g == bound:
                if ss[g, 0] == 0 and ss[g, 1] == 0 and ss[g, 2] == 0 and fl[g, 0] == 0 and tw[g, 0] == 0 and cp[g] == 0:
                    out = np.empty(g, dtype=np.int64)
                    for k in range(g):
                        out[k] = mv[k + 1]
                    return out, nodes, Stop.COMPLETE, bound
                g -= 1
                continue
            m = mv[g + 1] + 1
            prev = mv[g] if g > 0 else -1
            _axis_order(hh, g, n_axes, order)
            advanced = False
            while m < N_MOVES:
                if prev >= 0:
                    f, pf = m // 3, prev // 3
                    if f == pf or (f + 3 == pf):
                        m += 1
                        continue
                nodes += 1
                if g + 1 == bound:  # the child must be solved: test it without table look-ups
                    if _solved_child(data, fl, ss, tw, cp, g, m):
                        for a in range(3):
                            mm = axis_moves[a, m]
                            fl[g + 1, a], ss[g + 1, a], tw[g + 1, a] = 0, move_ss[ss[g, a], mm], 0
                            hh[g + 1, a] = 0
                        cp[g + 1] = 0
                        mv[g + 1] = m
                        g += 1
                        advanced = True
                        break
                    m += 1
                    continue
                ok = True
                for k in range(3):  # the axis likeliest to prune first: the largest distance
                    a = order[k]
                    mm = axis_moves[a, m]
                    f2 = move_flip[fl[g, a], mm]
                    s2 = move_ss[ss[g, a], mm]
                    t2 = move_twist[tw[g, a], mm]
                    h2 = next_depth(hh[g, a], entry(data, f2, s2, t2)) if a < n_axes else 0
                    if g + 1 + h2 > bound:
                        ok = False
                        break
                    fl[g + 1, a], ss[g + 1, a], tw[g + 1, a], hh[g + 1, a] = f2, s2, t2, h2
                if ok:
                    cp[g + 1] = move_cperm[cp[g], m]
                    mv[g + 1] = m
                    if g + 2 <= L - 1:
                        mv[g + 2] = -1
                    g += 1
                    advanced = True
                    break
                m += 1
            if nodes >= next_clock:
                next_clock = nodes + CLOCK_EVERY
                if nodes >= node_budget:
                    return np.zeros(0, dtype=np.int64), nodes, Stop.NODES, bound
                if clock() > deadline:
                    return np.zeros(0, dtype=np.int64), nodes, Stop.TIME, bound
            if not advanced:
                g -= 1
    return np.zeros(0, dtype=np.int64), nodes, Stop.COMPLETE, -1


def search(cube, tables, options) -> OptimalResult:
    """A shortest solution by the replaced kernel (the big table's three axis views only).

    tables: a SearchTables or an OptimalTable (only the big table is used); options: an
    OptimalOptions (node_budget, time_limit, axes).
    """
    table = tables.table if isinstance(tables, SearchTables) else tables
    fl, ss, tw = axis_coords(cube)
    t0 = time.perf_counter()
    moves, nodes, stop, bound = ida_search(
        table.search_data(),
        fl,
        ss,
        tw,
        CPERM.of(cube),
        options.node_budget,
        options.time_limit,
        MAX_LENGTH,
        options.axes,
    )
    seconds = time.perf_counter() - t0
    return OptimalResult(tuple(int(m) for m in moves), int(nodes), STOP_NAMES[stop], seconds, int(bound))
