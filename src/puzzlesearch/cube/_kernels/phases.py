"""numba kernels: breadth-first pruning tables and IDA* searches (plain arrays in and out).

A phase state is a pair of coordinates (a, b); its table index is a * n_b + b. Move tables
are int32 arrays (size x 18), pruning tables int8 distances (-1 = not reached). Symmetry-
reduced tables (bfs_sym_distances) index class * n_t + t instead (cube/symmetry.py).
Thistlethwaite: ida_phase per phase; two-phase: twophase_sym_search (six directions).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from puzzlesearch.cube.model.constants import N_SLICE, N_SLICE_PERM
from puzzlesearch.cube.model.symmetry import SYM_MASK, SYM_SHIFT

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


# ------------------------------------------------------------------ two-phase with symmetry-reduced phase 1


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
    while frontier > 0:
        if cap > 0 and depth == cap - 1:
            for i in range(size):
                if dist[i] < 0:
                    dist[i] = cap
            break
        backward = unreached < 2 * frontier
        found = 0
        for c in range(n_class):
            found += _sym_layer_class(
                c, dist, ts, (move_a, move_b, move_t, classsym, reps, selfsym, t_conj, moves), n_a, n_t, depth, backward
            )
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


@njit(cache=True, inline="always")
def _h1(tw, fl, sl, p1):
    """Exact phase-1 distance of (twist, flip, E slice) from the symmetry-reduced table."""
    cs = p1[3][sl * 2048 + fl]
    return p1[5][(cs >> SYM_SHIFT) * 2187 + p1[4][tw, cs & SYM_MASK]]


@njit(cache=True, inline="always")
def _h2(c, e, s, p2):
    """Phase-2 lower bound: the largest of corners x E perm, U/D edges x E perm, corner classes x U/D edges."""
    cs = p2[8][c]
    h = p2[10][(cs >> SYM_SHIFT) * 40320 + p2[9][e, cs & SYM_MASK]]
    return max(h, max(p2[3][c * N_SLICE_PERM + s], p2[4][e * N_SLICE_PERM + s]))


# counters of a search (an int64 array shared by the phase functions)
C_NODES, C_CLOCK, C_BEST, C_DIR, C_STOP, C_LEAVES, C_PHASE2 = 0, 1, 2, 3, 4, 5, 6
GO_ON = -1  # C_STOP while the search goes on


@njit(cache=True)
def _tick(cnt, deadline):
    """Count a node; every CLOCK_EVERY nodes look at the clock (sets C_STOP to STOP_TIME)."""
    cnt[C_NODES] += 1
    if cnt[C_NODES] >= cnt[C_CLOCK]:
        cnt[C_CLOCK] = cnt[C_NODES] + CLOCK_EVERY
        if _clock() > deadline:
            cnt[C_STOP] = STOP_TIME
            return False
    return True


@njit(cache=True)
def _phase2(c0, e0, s0, last, limit, p2, path2, stack, cnt, deadline):
    """Shortest phase-2 solution of at most `limit` moves (IDA*); its length, or -1.

    `last` is phase 1's last move: phase 2 may not start on its opposite face (never
    shorter), but may start on the same face (the caller merges the two).
    """
    h = _h2(c0, e0, s0, p2)
    if h == 0:
        return 0
    for bound in range(h, limit + 1):
        d = 0
        stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = c0, e0, s0, -1
        while d >= 0:
            stack[d, 3] += 1
            k = stack[d, 3]
            if k >= 10:
                d -= 1
                continue
            m2 = p2[7][k]
            if d > 0 and _redundant(m2, path2[d - 1]):
                continue
            if d == 0 and last >= 0 and last // 3 % 3 == m2 // 3 % 3 and last // 3 != m2 // 3:
                continue
            if not _tick(cnt, deadline):
                return -1
            c = p2[0][stack[d, 0], m2]
            e = p2[1][stack[d, 1], m2]
            s = p2[2][stack[d, 2], m2]
            if d + 1 + _h2(c, e, s, p2) > bound:
                continue
            path2[d] = m2
            if d + 1 == bound:
                return bound
            d += 1
            stack[d, 0], stack[d, 1], stack[d, 2], stack[d, 3] = c, e, s, -1
    return -1


@njit(cache=True)
def _leaf(k, d1, path1, starts, p2, lim, best, path2, stack, cnt, deadline, work):
    """Phase 2 after the phase-1 solution path1[:d1] of direction k; records a better total."""
    cp, ep, tmp = work[0], work[1], work[2]  # no allocation: this runs for every phase-1 solution
    for j in range(8):
        cp[j] = starts[3][k, j]
    for j in range(12):
        ep[j] = starts[4][k, j]
    for i in range(d1):
        mc, me = p2[5][path1[i]], p2[6][path1[i]]
        for j in range(8):
            tmp[j] = cp[mc[j]]
        for j in range(8):
            cp[j] = tmp[j]
        for j in range(12):
            tmp[j] = ep[me[j]]
        for j in range(12):
            ep[j] = tmp[j]
    c0, e0, s0 = perm_ranks(cp, ep)
    best_len = cnt[C_BEST]
    limit = min(lim[2], best_len - 1 - d1)
    cnt[C_LEAVES] += 1
    if _h2(c0, e0, s0, p2) > limit:
        return
    cnt[C_PHASE2] += 1
    last = path1[d1 - 1] if d1 > 0 else -1
    n2 = _phase2(c0, e0, s0, last, limit, p2, path2, stack, cnt, deadline)
    if n2 < 0:
        return
    merged = 1 if n2 > 0 and last >= 0 and path2[0] // 3 == last // 3 else 0
    if d1 + n2 - merged >= best_len:
        return
    cnt[C_BEST] = d1 + n2 - merged
    cnt[C_DIR] = k
    for i in range(d1):
        best[i] = path1[i]
    if merged:
        best[d1 - 1] = 3 * (last // 3) + (last % 3 + path2[0] % 3 + 1) % 4
    for i in range(merged, n2):
        best[d1 - merged + i] = path2[i]


@njit(cache=True)
def _budget_stop(lim, cnt):
    """STOP_TARGET / STOP_NODES when a found solution ends the search, else GO_ON."""
    if cnt[C_BEST] > lim[0]:
        return GO_ON
    if cnt[C_BEST] <= lim[1] and cnt[C_NODES] > lim[4]:
        return STOP_TARGET
    if cnt[C_NODES] > lim[3]:
        return STOP_NODES
    return GO_ON


@njit(cache=True)
def _phase1(k, d1, starts, p1, p2, lim, best, path1, path2, st1, stack2, cnt, deadline, work):
    """Every phase-1 solution of exactly d1 moves of direction k, each completed by phase 2."""
    if d1 == 0:
        _leaf(k, 0, path1, starts, p2, lim, best, path2, stack2, cnt, deadline, work)
        return
    depth = 0
    st1[0, 0], st1[0, 1], st1[0, 2], st1[0, 3] = starts[0][k], starts[1][k], starts[2][k], -1
    while depth >= 0:
        st1[depth, 3] += 1
        m = st1[depth, 3]
        if m >= 18:
            depth -= 1
            continue
        if depth > 0 and _redundant(m, path1[depth - 1]):
            continue
        stop = _budget_stop(lim, cnt)
        if stop != GO_ON:
            cnt[C_STOP] = stop
            return
        if not _tick(cnt, deadline):
            return
        tw = p1[0][st1[depth, 0], m]
        fl = p1[1][st1[depth, 1], m]
        sl = p1[2][st1[depth, 2], m]
        togo = d1 - depth - 1
        if p1[6][tw * N_SLICE + sl] > togo or p1[7][fl * N_SLICE + sl] > togo:
            continue  # the small tables (cache-resident) already prune it
        if _h1(tw, fl, sl, p1) > togo:
            continue
        path1[depth] = m
        if depth + 1 < d1:
            depth += 1
            st1[depth, 0], st1[depth, 1], st1[depth, 2], st1[depth, 3] = tw, fl, sl, -1
            continue
        face = m // 3
        if m % 3 == 1 or face == 0 or face == 3:
            continue  # the last move keeps G2: a shorter phase 1 ends here too
        _leaf(k, d1, path1, starts, p2, lim, best, path2, stack2, cnt, deadline, work)
        if cnt[C_STOP] != GO_ON:
            return


@njit(cache=True)
def twophase_sym_search(starts, p1, p2, lim, time_limit):
    """Two-phase search over several directions at once; returns (moves, direction, nodes, stop).

    starts = (twist, flip, E slice, corner perm (n x 8), edge perm (n x 12)) of the n
    directions (the cube, its conjugates by the axis-turning symmetries, their inverses);
    p1 = (twist, flip, E slice move tables, sym_fsclass, sym_twistconj, the exact phase-1
    class table tp1_sym, the quick bounds tp1_twist and tp1_flip, looked up first since they
    stay in cache); p2 = (corner perm, U/D edge perm, E perm move tables, tp2_corner,
    tp2_edge, move arrays of corner and edge positions, the 10 phase-2 moves, sym_cpclass,
    sym_udconj, the corner-class x U/D-edge table tp2_sym); lim = (max_length,
    target_length, phase2_max, node_budget, min_nodes). For each phase-1 length d1 in turn,
    every direction enumerates its phase-1 solutions of exactly d1 moves (the table is
    exact) and completes each with an optimal phase 2 of at most min(phase2_max,
    best - 1 - d1) moves, skipped at once when the phase-2 bound exceeds that. Stops on a
    solution <= target_length (after min_nodes nodes), on node_budget after a first
    solution, when d1 reaches the best total, or after time_limit seconds (best so far,
    STOP_TIME). Moves are in the frame of the returned direction; phase 1's last and phase
    2's first move on one face are already merged. Empty moves: nothing within max_length.
    Also returns the phase-1 solutions reached and the phase-2 searches started.
    """
    max_length = lim[0]
    n_dir = len(starts[0])
    best = np.empty(max_length + 2, dtype=np.int64)
    path1 = np.empty(max_length + 2, dtype=np.int64)
    path2 = np.empty(max_length + 2, dtype=np.int64)
    st1 = np.empty((max_length + 2, 4), dtype=np.int64)
    stack2 = np.empty((max_length + 2, 4), dtype=np.int64)
    cnt = np.zeros(7, dtype=np.int64)
    work = (np.empty(8, dtype=np.int64), np.empty(12, dtype=np.int64), np.empty(12, dtype=np.int64))
    cnt[C_CLOCK] = CLOCK_EVERY
    cnt[C_BEST] = max_length + 1
    cnt[C_DIR] = -1
    cnt[C_STOP] = GO_ON
    deadline = _clock() + time_limit
    h0 = np.empty(n_dir, dtype=np.int64)
    for k in range(n_dir):
        h0[k] = _h1(starts[0][k], starts[1][k], starts[2][k], p1)
    d1 = h0.min()
    while d1 < cnt[C_BEST] and cnt[C_STOP] == GO_ON:
        for k in range(n_dir):
            if h0[k] <= d1:
                _phase1(k, d1, starts, p1, p2, lim, best, path1, path2, st1, stack2, cnt, deadline, work)
                if cnt[C_STOP] != GO_ON:
                    break
        d1 += 1
    stop = STOP_EXHAUSTED if cnt[C_STOP] == GO_ON else cnt[C_STOP]
    n_best = cnt[C_BEST] if cnt[C_BEST] <= max_length else 0
    return best[:n_best].copy(), cnt[C_DIR], cnt[C_NODES], stop, cnt[C_LEAVES], cnt[C_PHASE2]
