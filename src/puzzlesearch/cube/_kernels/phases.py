"""numba IDA* searches of the phase solvers: one Thistlethwaite phase, two-phase in six directions with pre-moves.

A phase state is a pair of coordinates (a, b); its table index is a * n_b + b (pruning
tables: _kernels/phase_bfs.py). Thistlethwaite: ida_phase per phase; two-phase:
twophase_sym_search (bundles Phase1, Phase2, Starts, TwoPhaseLimits: _kernels/bundles.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from puzzlesearch.cube._kernels.bundles import LeafWork, Phase1Work, Roots, TwoPhaseRun
from puzzlesearch.cube._kernels.common import clock, prefetch, prefetch_flat
from puzzlesearch.cube._kernels.phase_next import NEXT_DIST_SHIFT, child_delta, fitting_moves
from puzzlesearch.cube.model.constants import G2_MOVES, N_FLIP, N_MOVES, N_SLICE_PERM, N_TWIST, N_UDEDGE, Stop
from puzzlesearch.cube.model.symmetry import SYM_MASK, SYM_SHIFT

N_EDGE_CUBIES, N_UD_EDGE_CUBIES = 12, 8  # all edges; the U and D layers' (the first 8 positions)
N_CORNER_CUBIES = 8
CLOCK_EVERY = 1 << 16  # nodes between looks at the clock (well under 10 ms)
TWOPHASE_CLOCK_EVERY = 1 << 10  # two-phase nodes between looks at the clock (a node is ~0.3 us: 0.3 ms)
N_PHASE2_MOVES = 10  # <U, D, R2, L2, F2, B2>


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
    code): Stop.COMPLETE with [-1] if there is none within max_depth, Stop.TIME with [-1]
    after time_limit seconds (the clock is read every CLOCK_EVERY nodes).
    """
    path = np.empty(max_depth + 1, dtype=np.int64)
    h0 = prune[a0 * n_b + b0]
    if h0 == 0:
        return path[:0], Stop.COMPLETE
    nodes = 0
    next_clock = CLOCK_EVERY
    deadline = clock() + time_limit
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
                if clock() > deadline:
                    return np.full(1, -1, dtype=np.int64), Stop.TIME
            a = move_a[sa[depth], m]
            b = move_b[sb[depth], m]
            h = prune[a * n_b + b]
            if depth + 1 + h > bound:
                continue
            path[depth] = m
            if depth + 1 == bound:
                return path[:bound].copy(), Stop.COMPLETE
            depth += 1
            sa[depth], sb[depth], mi[depth] = a, b, -1
    return np.full(1, -1, dtype=np.int64), Stop.COMPLETE


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


# ------------------------------------------------------------------ two-phase with symmetry-reduced phase 1


@njit(cache=True, inline="always")
def _h2(c, e, s, p2):
    """Phase-2 lower bound: the largest of corners x E perm, U/D edges x E perm, corner classes x U/D edges."""
    cs = p2.cpclass[c]
    h = p2.exact[(cs >> SYM_SHIFT) * N_UDEDGE + p2.udconj[e, cs & SYM_MASK]]
    return max(h, max(p2.corner[c * N_SLICE_PERM + s], p2.edge[e * N_SLICE_PERM + s]))


# counters of a search (an int64 array shared by the phase functions)
C_NODES, C_CLOCK, C_BEST, C_DIR, C_STOP, C_LEAVES, C_PHASE2, C_NBEST = 0, 1, 2, 3, 4, 5, 6, 7
GO_ON = -1  # C_STOP while the search goes on


@njit(cache=True)
def _look_at_clock(cnt, deadline):
    """Every TWOPHASE_CLOCK_EVERY nodes: False (and C_STOP set to Stop.TIME) once past the deadline.

    The searches count a node in their own loop (cnt[C_NODES] += 1) and call this only when
    cnt[C_NODES] reaches cnt[C_CLOCK]: a call on every node would take and drop a reference
    to cnt each time (two atomic operations, ~5% of a node).
    """
    cnt[C_CLOCK] = cnt[C_NODES] + TWOPHASE_CLOCK_EVERY
    if clock() > deadline:
        cnt[C_STOP] = Stop.TIME
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
            if k >= N_PHASE2_MOVES:
                d -= 1
                continue
            m2 = p2.moves[k]
            if d > 0 and _redundant(m2, path2[d - 1]):
                continue
            if d == 0 and last >= 0 and last // 3 % 3 == m2 // 3 % 3 and last // 3 != m2 // 3:
                continue
            cnt[C_NODES] += 1
            if cnt[C_NODES] >= cnt[C_CLOCK] and not _look_at_clock(cnt, deadline):
                return -1
            c = p2.cperm[stack[d, 0], m2]
            e = p2.udedge[stack[d, 1], m2]
            s = p2.sliceperm[stack[d, 2], m2]
            if d + 1 + _h2(c, e, s, p2) > bound:
                continue
            path2[d] = m2
            if d + 1 == bound:
                return bound
            d += 1
            stack[d, 0], stack[d, 1], stack[d, 2], stack[d, 3] = c, e, s, -1
    return -1


@njit(cache=True, inline="always")
def _leaf_limit(k, d1, pre_cost, path1, c0, s0, p2, lim, run, work):
    """(U/D-edge rank, cost so far, phase-2 limit) at direction k's phase-1 solution path1[k, :d1]; limit -1 when phase 2 is bound to fail.

    pre_cost: the cost of the direction's pre-moves, which follow phase 2 in its solutions.
    c0, s0: the corner and E-edge permutation ranks at the leaf (phase 1 carries them); the
    edges are replayed from the deepest row of work.ep_path[k] still valid for this path
    (work.valid[k]: rows 0..valid hold the edges after path1[k, :row]), so consecutive leaves,
    which share most of their path, replay a move or two. Inlined into its callers: most leaves
    end here, and a call would take and drop a reference to every array of its bundles.
    """
    eps = work.ep_path
    for i in range(work.valid[k], d1):
        me = p2.move_ep[path1[k, i]]
        for j in range(N_EDGE_CUBIES):
            eps[k, i + 1, j] = eps[k, i, me[j]]
    work.valid[k] = d1
    e0 = _rank(eps[k, d1], 0, N_UD_EDGE_CUBIES, 0)
    best_len = _bound(run.cnt, run.shared)  # in the metric's units (lim.cost: HTM all 1, QTM half turns 2)
    cost1 = pre_cost
    for i in range(d1):
        cost1 += lim.cost[path1[k, i]]
    limit = min(lim.phase2_max, best_len - 1 - cost1)  # each phase-2 move costs at least 1
    run.cnt[C_LEAVES] += 1
    if _h2(c0, e0, s0, p2) > limit:
        return e0, cost1, np.int64(-1)
    return e0, cost1, limit


@njit(cache=True)
def _leaf(k, d1, cost1, path1, c0, e0, s0, limit, p2, lim, run, deadline):
    """Phase 2 (at most `limit` moves, _leaf_limit) after direction k's phase-1 solution path1[k, :d1]; records a better total.

    cost1: the cost of the pre-moves and phase 1 (_leaf_limit). run: TwoPhaseRun (records a better total).
    """
    best, path2, stack, cnt, shared = run.best, run.path2, run.stack2, run.cnt, run.shared
    best_len = _bound(cnt, shared)
    cnt[C_PHASE2] += 1
    last = path1[k, d1 - 1] if d1 > 0 else -1
    n2 = _phase2(
        np.int64(c0), np.int64(e0), np.int64(s0), np.int64(last), np.int64(limit), p2, path2, stack, cnt, deadline
    )
    if n2 < 0:
        return
    merged = 1 if n2 > 0 and last >= 0 and path2[0] // 3 == last // 3 else 0
    joined = 3 * (last // 3) + (last % 3 + path2[0] % 3 + 1) % 4 if merged else -1
    total = cost1
    for i in range(n2):
        total += lim.cost[path2[i]]
    if merged:  # phase 1's last and phase 2's first turn of one face become one (never cancel: see _phase1)
        total += lim.cost[joined] - lim.cost[last] - lim.cost[path2[0]]
    if total >= best_len:
        return
    cnt[C_BEST] = total
    if total < shared[0]:  # (another thread may lower it meanwhile: a stale bound costs nodes, never answers)
        shared[0] = total
    cnt[C_NBEST] = d1 + n2 - merged
    cnt[C_DIR] = k
    for i in range(d1):
        best[i] = path1[k, i]
    if merged:
        best[d1 - 1] = joined
    for i in range(merged, n2):
        best[d1 - merged + i] = path2[i]


@njit(cache=True, inline="always")
def _bound(cnt, shared):
    """The best total found so far, by this search or another thread's (shared[0])."""
    return min(cnt[C_BEST], shared[0])


@njit(cache=True)
def _budget_stop(lim, cnt, shared):
    """Stop.TARGET / Stop.NODES when a solution found (here or on another thread) ends the search, else GO_ON."""
    best = _bound(cnt, shared)
    if best > lim.max_length:
        return GO_ON
    if best <= lim.target_length and cnt[C_NODES] > lim.min_nodes:
        return Stop.TARGET
    if cnt[C_NODES] > lim.node_budget:
        return Stop.NODES
    return GO_ON


# columns of a phase-1 child in Phase1Work.kids
K_MOVE, K_ENTRY, K_SYM, K_DIST, K_TWIST, K_CLASS, K_CPERM, K_SSLICE = 0, 1, 2, 3, 4, 5, 6, 7
N_KID_COLUMNS = 8
FSMOVE_SYM_AT = 2 * N_MOVES  # an fsmove row's first symmetry byte, after its 18 uint16 classes (solvers/twophase.py)
LEAVE_G2 = sum(1 << m for m in range(N_MOVES) if m not in G2_MOVES)  # bits of the moves that leave G2
WANDER_LIMIT = 5  # skip a child nearer than its moves to go when distance + moves to go is below this


@njit(cache=True)
def _expand(k, depth, d1, prev, entry, cls, sym, dist, tw, cp, ss, p1, p2, lim, best_len, work):
    """Store the children of direction k's phase-1 node at `depth` worth visiting (in move order) in work.kids[k, depth].

    The node's next_tp1 entry gives each child's exact distance, so only the children that
    can still reach G2 in the moves left are made. Each child's own entry is not read here:
    its index is stored (K_ENTRY) and its cache line prefetched, to be read when the child
    is expanded, after the other directions have taken a step each (twophase_sym_search), so
    the memory waits of the directions overlap. A child's flip x slice class comes from its
    parent's row of fsmove (the representative's children, conjugated along: min2phase), and
    its own row is prefetched too. Children at G2 (the last move) must end on a move
    outside G2 (else a shorter phase 1 ends there too) and pass the corners x E-edge bound
    of phase 2 (the corner permutation and the sorted slice ride along for this).

    Parameters
    ----------
    k : the search direction (one of the cube's conjugates or its inverse's).
    depth : the node's depth in phase 1; d1 : the phase-1 length being searched (children at d1 end it).
    prev : the move that led to the node (-1 at the root); its axis rules prune the next moves.
    entry : the node's next_tp1 entry (2-bit distances of its children); dist : the node's own distance.
    cls, sym : the node's flip x slice symmetry class and the symmetry taking it to the representative.
    tw, cp, ss : the node's twist, corner permutation and sorted-slice coordinates.
    p1, p2 : the phase-1 and phase-2 table bundles (Phase1Tables, Phase2Tables in bundles.py).
    lim : the search limits (phase2_max ...); best_len : the shortest total length found so far.
    work : the directions' work arrays (work.kids[k, depth] receives the children).
    """
    n = 0
    togo = d1 - depth - 1
    limit2 = min(lim.phase2_max, best_len - 1 - d1)  # each move costs at least 1
    kids = work.kids
    moves = fitting_moves(entry, sym, togo - dist, p1) & p1.after[prev + 1]
    if togo == 0:
        moves &= LEAVE_G2  # the last move keeps G2: a shorter phase 1 ends here too
    while moves:
        m = trailing_zeros(moves)
        moves &= moves - 1
        d = dist + child_delta(entry, p1.move_conj[sym, m])
        if d < togo and d + togo < WANDER_LIMIT:
            continue
        corners = p2.cperm[cp, m]
        s = p1.sslice[ss, m]
        if togo == 0:
            if p2.corner[corners * N_SLICE_PERM + s % N_SLICE_PERM] > limit2:
                continue
            kids[k, depth, n, K_MOVE] = m
            kids[k, depth, n, K_CPERM] = corners
            kids[k, depth, n, K_SSLICE] = s
            n += 1
            continue
        t = p1.twist[tw, m]
        mc = p1.move_conj[sym, m]
        c = np.int64(p1.fsmove[cls, mc])
        sy = p1.sym_mult[sym, p1.fsmove_sym[cls, FSMOVE_SYM_AT + mc]]
        if togo > 1:  # its children will read its row (one cache line)
            prefetch(p1.fsmove, c, 0)
        at = c * N_TWIST + p1.twistconj[t, sy]
        prefetch_flat(p1.next, at)
        prefetch(p2.cperm, corners, 0)  # the corner row its own children will read (one line; the
        # sorted-slice rows, 428 KB in all, stay in cache: prefetching them costs more than it saves)
        kids[k, depth, n, K_MOVE] = m
        kids[k, depth, n, K_ENTRY] = at
        kids[k, depth, n, K_SYM] = sy
        kids[k, depth, n, K_DIST] = d
        kids[k, depth, n, K_TWIST] = t
        kids[k, depth, n, K_CLASS] = c
        kids[k, depth, n, K_CPERM] = corners
        kids[k, depth, n, K_SSLICE] = s
        n += 1
    work.n_kids[k, depth] = n
    work.next_kid[k, depth] = 0


@njit(cache=True)
def _roots(starts, p1):
    """Roots of all directions: their table reads issued for all of them before any is used (prefetch),
    so the cache misses of a cube's hundreds of starts overlap. Only the entry (its distance sets the
    direction's first round), class and symmetry: the corner rank (-1 here) and the class's fsmove row
    wait for the direction's first round (_phase1_round), which most of a cube's starts never reach."""
    n_dir = len(starts.twist)
    fs = np.empty(n_dir, np.int64)
    for k in range(n_dir):
        fs[k] = starts.sslice[k] // N_SLICE_PERM * N_FLIP + starts.flip[k]
        prefetch_flat(p1.fsclass, fs[k])
    roots = Roots(np.empty(n_dir, np.int64), np.empty(n_dir, np.int64), np.empty(n_dir, np.int64), np.full(n_dir, -1))
    at = np.empty(n_dir, np.int64)
    for k in range(n_dir):
        cs = p1.fsclass[fs[k]]
        c, s = cs >> SYM_SHIFT, cs & SYM_MASK
        roots.cls[k], roots.sym[k] = c, s
        at[k] = c * N_TWIST + p1.twistconj[starts.twist[k], s]
        prefetch_flat(p1.next, at[k])
    for k in range(n_dir):
        roots.entry[k] = p1.next[at[k]]
    return roots


@njit(cache=True)
def _start_phase1(k, d1, starts, p1, p2, lim, run, deadline, work):
    """Set direction k up for its phase-1 solutions of exactly d1 moves (work.depth[k] = 0; -1 if it has none left)."""
    leaf = work.leaf
    pre_cost = work.pre_cost[k]
    leaf.valid[k] = 0  # (row 0 of leaf.ep_path[k], the start's edges, is set once per cube)
    work.depth[k] = -1
    tw, ss = starts.twist[k], starts.sslice[k]
    roots = work.roots
    cp = roots.cperm[k]
    if d1 == 0:
        s0 = ss % N_SLICE_PERM
        e0, cost1, limit = _leaf_limit(k, np.int64(0), pre_cost, work.path, cp, s0, p2, lim, run, leaf)
        if limit >= 0:
            _leaf(k, np.int64(0), cost1, work.path, cp, e0, s0, limit, p2, lim, run, deadline)
        return
    entry, cls, sym = roots.entry[k], roots.cls[k], roots.sym[k]
    root, no_move = np.int64(0), np.int64(-1)  # (int64 as at the other call: one compile of _expand)
    best_len = _bound(run.cnt, run.shared) - pre_cost  # what phase 1 and 2 may spend
    _expand(k, root, d1, no_move, entry, cls, sym, entry >> NEXT_DIST_SHIFT, tw, cp, ss, p1, p2, lim, best_len, work)
    work.depth[k] = 0


@njit(cache=True)
def _phase1_round(d1, first, pre_len, starts, p1, p2, lim, run, deadline, work):
    """Every phase-1 solution of d1 - pre_len[k] moves of each direction k with first[k] <= d1, completed by phase 2.

    The directions take a step each in turn (round robin): a step visits one child, a leaf
    (completed by phase 2) or a node (expanded, reading the entry prefetched when the child
    was made). work.depth[k] is -1 once direction k has no child left; work.live[:live] lists,
    in order, the directions still going (each pass drops those done, so a round's last
    directions do not step over hundreds that are).
    """
    n_dir = len(first)
    live = 0
    cnt, shared = run.cnt, run.shared
    lengths, pre_cost, order = work.length, work.pre_cost, work.live
    roots = work.roots
    for k in range(n_dir):
        if first[k] == d1:  # its first round: the class's fsmove row (read by its expansions), the corner rank
            prefetch(p1.fsmove, roots.cls[k], 0)
            roots.cperm[k] = _rank(starts.cp[k], 0, N_CORNER_CUBIES, 0)
    for k in range(n_dir):
        work.depth[k] = -1
        lengths[k] = d1 - pre_len[k]
        if first[k] <= d1 and cnt[C_STOP] == GO_ON:
            _start_phase1(k, lengths[k], starts, p1, p2, lim, run, deadline, work)
            if work.depth[k] >= 0:
                order[live] = k
                live += 1
    kids, n_kids, next_kid, path, depths = work.kids, work.n_kids, work.next_kid, work.path, work.depth
    leaf = work.leaf
    valid = leaf.valid
    nxt = p1.next
    while live > 0 and cnt[C_STOP] == GO_ON:
        kept = 0
        for j in range(live):
            k = order[j]
            depth = depths[k]
            i = next_kid[k, depth]
            while i >= n_kids[k, depth]:
                depth -= 1
                if depth < 0:
                    break
                i = next_kid[k, depth]
            depths[k] = depth
            if depth < 0:
                continue
            order[kept] = k
            kept += 1
            next_kid[k, depth] = i + 1
            stop = _budget_stop(lim, cnt, shared)
            if stop != GO_ON:
                cnt[C_STOP] = stop
                return
            cnt[C_NODES] += 1
            if cnt[C_NODES] >= cnt[C_CLOCK] and not _look_at_clock(cnt, deadline):
                return
            m = kids[k, depth, i, K_MOVE]
            path[k, depth] = m
            valid[k] = min(valid[k], depth)  # the edges after this move are to be replayed
            dk = lengths[k]
            if depth + 1 == dk:
                c0, s0 = np.int64(kids[k, depth, i, K_CPERM]), np.int64(kids[k, depth, i, K_SSLICE] % N_SLICE_PERM)
                e0, cost1, limit = _leaf_limit(k, dk, pre_cost[k], path, c0, s0, p2, lim, run, leaf)
                if limit >= 0:
                    _leaf(k, dk, cost1, path, c0, e0, s0, limit, p2, lim, run, deadline)
                    if cnt[C_STOP] != GO_ON:
                        return
                continue
            _expand(  # (the int32 columns as int64: one compile of _expand for both its call sites)
                k,
                depth + 1,
                dk,
                np.int64(m),
                np.int64(nxt[kids[k, depth, i, K_ENTRY]]),  # prefetched when the child was made
                np.int64(kids[k, depth, i, K_CLASS]),
                np.int64(kids[k, depth, i, K_SYM]),
                np.int64(kids[k, depth, i, K_DIST]),
                np.int64(kids[k, depth, i, K_TWIST]),
                np.int64(kids[k, depth, i, K_CPERM]),
                np.int64(kids[k, depth, i, K_SSLICE]),
                p1,
                p2,
                lim,
                _bound(cnt, shared) - pre_cost[k],
                work,
            )
            depths[k] = depth + 1
        live = kept


@njit(cache=True, nogil=True)
def twophase_sym_search(starts, pre, p1, p2, lim, time_limit, shared):
    """Two-phase search over several directions at once; returns (moves, direction, nodes, stop).

    starts: Starts of the n directions (the cube, its conjugates by the axis-turning
    symmetries, their inverses, each after each of the P pre-move sequences: row k has
    pre.moves[k % P], whose length counts in its phase-1 length d1 and whose cost in its
    totals; the caller appends those moves to its solutions); p1: Phase1 (move tables and
    the move-mask table next_tp1: one entry per node gives the exact distance of all its
    children, _expand); p2: Phase2
    (the corner-class x U/D-edge table tp2_sym and two small bounds, the corners x E-edge one
    also checked on phase 1's last move); lim: TwoPhaseLimits (lengths in its metric: lim.cost
    per move). For each phase-1 length d1 in turn, the directions enumerate their phase-1
    solutions of exactly d1 moves side by side, a child each in turn (round robin), so one
    direction's wait for its next next_tp1 entry (prefetched) overlaps the others' work
    (the table is exact; short detours near G2 are skipped, WANDER_LIMIT). Each phase-1
    solution is completed with an optimal phase 2 of at most min(phase2_max, best - 1 - d1)
    moves, skipped at once when the phase-2 bound exceeds that. Stops on a
    solution <= target_length (after min_nodes nodes), on node_budget after a first solution,
    when d1 reaches the best total, or after time_limit seconds (best so far, Stop.TIME).
    Moves are in the frame of the returned direction, without its pre-moves; phase 1's last
    and phase 2's first move on one face are already merged. Empty moves: nothing within
    max_length. Also returns the phase-1 solutions reached and the phase-2 searches started. A node is a
    phase-1 child visited or a phase-2 node generated. shared: int64 (1,), the best total of
    all the searches of one cube running on threads at once (each on its own directions;
    nogil), read as a bound and lowered by each; set to max_length + 1 before they start.
    """
    max_length = lim.max_length
    n_dir = len(starts.twist)
    best = np.empty(max_length + 2, dtype=np.int64)
    cnt = np.zeros(8, dtype=np.int64)
    run = TwoPhaseRun(
        best, np.empty(max_length + 2, dtype=np.int64), np.empty((max_length + 2, 4), dtype=np.int64), cnt, shared
    )
    n = max_length + 2
    leaf = LeafWork(np.empty((n_dir, n + 1, N_EDGE_CUBIES), dtype=np.int64), np.zeros(n_dir, dtype=np.int64))
    leaf.ep_path[:, 0, :] = starts.ep  # the edges at each start (_leaf replays moves from here; never rewritten)
    n_pre = len(pre.length)
    pre_len, pre_cost = np.empty(n_dir, np.int64), np.zeros(n_dir, np.int64)
    for k in range(n_dir):
        pre_len[k] = pre.length[k % n_pre]
        for i in range(pre_len[k]):
            pre_cost[k] += lim.cost[pre.moves[k % n_pre, i]]
    work = Phase1Work(
        np.empty((n_dir, n, N_MOVES, N_KID_COLUMNS), dtype=np.int32),
        np.zeros((n_dir, n), np.int64),
        np.zeros((n_dir, n), np.int64),
        np.empty((n_dir, n), np.int64),
        np.full(n_dir, -1, np.int64),
        np.zeros(n_dir, np.int64),
        pre_cost,
        _roots(starts, p1),
        np.empty(n_dir, np.int64),
        leaf,
    )
    cnt[C_CLOCK] = TWOPHASE_CLOCK_EVERY
    cnt[C_BEST] = max_length + 1
    cnt[C_DIR] = -1
    cnt[C_STOP] = GO_ON
    deadline = clock() + time_limit
    first = pre_len + (work.roots.entry >> NEXT_DIST_SHIFT)  # each direction's first round (its distance + pre-moves)
    d1 = first.min()
    while d1 < _bound(cnt, shared) and cnt[C_STOP] == GO_ON:
        _phase1_round(d1, first, pre_len, starts, p1, p2, lim, run, deadline, work)
        d1 += 1
    stop = Stop.COMPLETE if cnt[C_STOP] == GO_ON else cnt[C_STOP]
    n_best = cnt[C_NBEST] if cnt[C_BEST] <= max_length else 0
    return best[:n_best].copy(), cnt[C_DIR], cnt[C_NODES], stop, cnt[C_LEAVES], cnt[C_PHASE2]
