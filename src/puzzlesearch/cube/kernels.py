"""numba kernels: breadth-first pruning tables and IDA* searches (plain arrays in and out).

A phase state is a pair of coordinates (a, b); its table index is a * n_b + b. Move tables
are int32 arrays (size x 18), pruning tables int8 distances (-1 = not reached).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from puzzlesearch.cube.constants import N_SLICE, N_SLICE_PERM

CLOCK_EVERY = 1 << 16  # nodes between looks at the clock (well under 10 ms)

# Why a search stopped (returned by the kernels; names in STOP_NAMES).
STOP_EXHAUSTED = 0  # searched to the end: optimal (Thistlethwaite phase, two-phase within phase2_max)
STOP_TARGET = 1  # two-phase: a solution at or under target_length
STOP_NODES = 2  # two-phase: node budget spent after a first solution
STOP_TIME = 3  # the time cap (a safety cap: depends on machine load)
STOP_NAMES = ("complete", "target", "nodes", "time")


@njit(cache=True)
def _clock():
    """time.perf_counter() (numba has no clock, so in object mode: call it rarely)."""
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


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


@njit(cache=True, inline="always")
def _redundant(m, prev):
    """Same face twice, or opposite faces in the non-canonical order (faces U R F D L B)."""
    if prev < 0:
        return False
    f, g = m // 3, prev // 3
    return f == g or (f % 3 == g % 3 and f < g)


@njit(cache=True)
def ida_phase(a0, b0, move_a, move_b, prune, n_b, moves, max_depth, time_limit):
    """Shortest move sequence from (a0, b0) to a table-distance-0 state (IDA*).

    `moves` lists the phase's moves in the order to try them. Returns (move numbers, stop
    code): STOP_EXHAUSTED with [-1] if there is none within max_depth, STOP_TIME with [-1]
    after time_limit seconds (the clock is read every CLOCK_EVERY nodes).
    """
    path = np.empty(max_depth + 1, dtype=np.int64)
    h0 = prune[a0 * n_b + b0]
    if h0 == 0:
        return path[:0], STOP_EXHAUSTED
    nodes = 0
    next_clock = CLOCK_EVERY
    deadline = _clock() + time_limit
    sa = np.empty(max_depth + 1, dtype=np.int64)
    sb = np.empty(max_depth + 1, dtype=np.int64)
    mi = np.empty(max_depth + 1, dtype=np.int64)
    nm = len(moves)
    for bound in range(h0, max_depth + 1):
        depth = 0
        sa[0], sb[0], mi[0] = a0, b0, -1
        while depth >= 0:
            mi[depth] += 1
            if mi[depth] >= nm:
                depth -= 1
                continue
            m = moves[mi[depth]]
            if depth > 0 and _redundant(m, path[depth - 1]):
                continue
            nodes += 1
            if nodes >= next_clock:
                next_clock = nodes + CLOCK_EVERY
                if _clock() > deadline:
                    return np.full(1, -1, dtype=np.int64), STOP_TIME
            a = move_a[sa[depth], m]
            b = move_b[sb[depth], m]
            h = prune[a * n_b + b]
            if depth + 1 + h > bound:
                continue
            path[depth] = m
            if depth + 1 == bound:
                return path[:bound].copy(), STOP_EXHAUSTED
            depth += 1
            sa[depth], sb[depth], mi[depth] = a, b, -1
    return np.full(1, -1, dtype=np.int64), STOP_EXHAUSTED


@njit(cache=True, inline="always")
def _rank(p, lo, n, offset):
    """Lexicographic rank of p[lo:lo+n] - offset (a permutation of 0..n-1)."""
    r = 0
    for i in range(n - 1):
        s = 0
        for j in range(i + 1, n):
            if p[lo + j] < p[lo + i]:
                s += 1
        r = r * (n - i) + s
    return r


@njit(cache=True)
def perm_ranks(cp, ep):
    """(corner perm rank, U/D-edge perm rank, E-edge perm rank) of a G2 state."""
    return _rank(cp, 0, 8, 0), _rank(ep, 0, 8, 0), _rank(ep, 8, 4, 8)


@njit(cache=True)
def twophase_search(
    twist0,
    flip0,
    slice0,
    cp0,
    ep0,
    mv_twist,
    mv_flip,
    mv_slice,
    pr_twist,
    pr_flip,
    mv_cperm,
    mv_udedge,
    mv_sperm,
    pr_cperm,
    pr_udedge,
    move_cp,
    move_ep,
    p1_moves,
    p2_moves,
    max_length,
    target_length,
    p2_max,
    node_budget,
    min_nodes,
    time_limit,
):
    """Kociemba's two-phase search; returns (moves, nodes visited, stop code).

    Phase 1 runs IDA* to G2 = <U,D,R2,L2,F2,B2> for growing depths d1; every phase-1
    solution whose last move leaves G2 is completed by an optimal phase-2 IDA* of at most
    min(p2_max, best - 1 - d1) moves. Stops when a solution has <= target_length moves,
    when d1 reaches the best length, or when node_budget is spent after a first solution.
    A solution at or under target_length is only taken after min_nodes nodes, so that short
    cubes (few-move scrambles) still get their short solutions. Phase 2 may start on the
    face phase 1 ended with; the caller merges those two moves (counted here as one).
    Always stops after time_limit seconds (the clock is read every CLOCK_EVERY nodes),
    returning the best solution so far with STOP_TIME. Returns an empty array if nothing
    was found within max_length (or the time limit).
    """
    n_s = N_SLICE
    n_sp = N_SLICE_PERM
    best_len = max_length + 1
    best = np.empty(max_length + 1, dtype=np.int64)
    path1 = np.empty(max_length + 2, dtype=np.int64)
    path2 = np.empty(max_length + 2, dtype=np.int64)
    st_tw = np.empty(max_length + 2, dtype=np.int64)
    st_fl = np.empty(max_length + 2, dtype=np.int64)
    st_sl = np.empty(max_length + 2, dtype=np.int64)
    mi = np.empty(max_length + 2, dtype=np.int64)
    s2c = np.empty(max_length + 2, dtype=np.int64)
    s2e = np.empty(max_length + 2, dtype=np.int64)
    s2s = np.empty(max_length + 2, dtype=np.int64)
    mi2 = np.empty(max_length + 2, dtype=np.int64)
    cp = np.empty(8, dtype=np.int64)
    ep = np.empty(12, dtype=np.int64)
    nodes = 0
    next_clock = CLOCK_EVERY
    deadline = _clock() + time_limit
    n1 = len(p1_moves)
    n2 = len(p2_moves)
    h_start = max(pr_twist[twist0 * n_s + slice0], pr_flip[flip0 * n_s + slice0])
    d1 = h_start
    while d1 < best_len:
        # ---- phase 1, all solutions of exactly d1 moves (depth-first)
        depth = 0
        st_tw[0], st_fl[0], st_sl[0], mi[0] = twist0, flip0, slice0, -1
        at_leaf = d1 == 0
        while depth >= 0 or at_leaf:
            if not at_leaf:
                mi[depth] += 1
                if mi[depth] >= n1:
                    depth -= 1
                    continue
                if best_len <= max_length and best_len <= target_length and nodes > min_nodes:
                    return best[:best_len].copy(), nodes, STOP_TARGET
                if best_len <= max_length and nodes > node_budget:
                    return best[:best_len].copy(), nodes, STOP_NODES
                if nodes >= next_clock:
                    next_clock = nodes + CLOCK_EVERY
                    if _clock() > deadline:
                        n_best = best_len if best_len <= max_length else 0
                        return best[:n_best].copy(), nodes, STOP_TIME
                m = p1_moves[mi[depth]]
                if depth > 0 and _redundant(m, path1[depth - 1]):
                    continue
                tw = mv_twist[st_tw[depth], m]
                fl = mv_flip[st_fl[depth], m]
                sl = mv_slice[st_sl[depth], m]
                nodes += 1
                h = max(pr_twist[tw * n_s + sl], pr_flip[fl * n_s + sl])
                if depth + 1 + h > d1:
                    continue
                path1[depth] = m
                if depth + 1 < d1:
                    depth += 1
                    st_tw[depth], st_fl[depth], st_sl[depth], mi[depth] = tw, fl, sl, -1
                    continue
                # a phase-1 solution; skip it if its last move stays in G2 (found shorter)
                face = m // 3
                if m % 3 == 1 or face == 0 or face == 3:
                    continue
            at_leaf = False
            # ---- phase 2 from the cube after path1[:d1]
            for i in range(8):
                cp[i] = cp0[i]
            for i in range(12):
                ep[i] = ep0[i]
            for k in range(d1):
                mm = path1[k]
                cp[:] = cp[move_cp[mm]]
                ep[:] = ep[move_ep[mm]]
            c0, e0, s0 = perm_ranks(cp, ep)
            h2 = max(pr_cperm[c0 * n_sp + s0], pr_udedge[e0 * n_sp + s0])
            limit = min(p2_max, best_len - 1 - d1)
            last = path1[d1 - 1] if d1 > 0 else -1
            for bound in range(h2, limit + 1):
                found = False
                if bound == 0:
                    found = True
                else:
                    d = 0
                    s2c[0], s2e[0], s2s[0], mi2[0] = c0, e0, s0, -1
                    while d >= 0:
                        mi2[d] += 1
                        if mi2[d] >= n2:
                            d -= 1
                            continue
                        m2 = p2_moves[mi2[d]]
                        if d > 0 and _redundant(m2, path2[d - 1]):
                            continue
                        if d == 0 and last >= 0 and last // 3 % 3 == m2 // 3 % 3 and last // 3 != m2 // 3:
                            continue  # opposite face of phase 1's last move: never shorter
                        c = mv_cperm[s2c[d], m2]
                        e = mv_udedge[s2e[d], m2]
                        s = mv_sperm[s2s[d], m2]
                        nodes += 1
                        h2b = max(pr_cperm[c * n_sp + s], pr_udedge[e * n_sp + s])
                        if d + 1 + h2b > bound:
                            continue
                        path2[d] = m2
                        if d + 1 == bound:
                            found = True
                            break
                        d += 1
                        s2c[d], s2e[d], s2s[d], mi2[d] = c, e, s, -1
                merged = 1 if bound > 0 and last >= 0 and path2[0] // 3 == last // 3 else 0
                if found and d1 + bound - merged < best_len:
                    best_len = d1 + bound - merged
                    for k in range(d1):
                        best[k] = path1[k]
                    if merged:
                        best[d1 - 1] = 3 * (last // 3) + (last % 3 + path2[0] % 3 + 1) % 4
                    for k in range(merged, bound):
                        best[d1 - merged + k] = path2[k]
                    break
                if found:
                    break
            if d1 >= best_len:
                break
        d1 += 1
    if best_len > max_length:
        return best[:0].copy(), nodes, STOP_EXHAUSTED
    return best[:best_len].copy(), nodes, STOP_EXHAUSTED
