"""numba kernels of the optimal solver: symmetry tables, the packed pruning table's BFS, IDA*.

The pruning table holds, for every (flip x slice class under the 16 UD symmetries, twist),
the distance to solved modulo 3 in 2 bits (3 = not reached yet), four entries a byte.
A search knows the exact distance of its parent, so the child's mod-3 value tells
whether it is one less, equal or one more (Kociemba's RubikOptimal scheme).

Bundles (plain tuples, built in optimal_tables):
  coord_moves = (move_flip, move_slice, move_twist)   int32 (size x 18)
  sym_data    = (rep, classidx, symidx, stab, twist_conj)
  search data = (class_sym, symidx, twist_conj, table, move_flip, move_ss, move_twist,
                 move_cperm, axis_moves, slice_div, flip_mod)
  the table's flip x slice value of a node is (ss // slice_div) * flip_mod + flip % flip_mod
  (flip_mod 1: a table without the flip); class_sym = class << 4 | symmetry, one memory
  access per look-up instead of two.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

EMPTY = 3  # a 2-bit entry not reached yet
N_MOVES = 18
CLOCK_EVERY = 1 << 20  # nodes between looks at the clock
STOP_COMPLETE, STOP_NODES, STOP_TIME = 0, 1, 2
STOP_NAMES = ("complete", "nodes", "time")
MAX_DEPTH = 24  # IDA* never goes deeper (God's number is 20)


@njit(cache=True)
def _clock():
    """time.perf_counter() in object mode (call it rarely)."""
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, inline="always")
def get_entry(table, i):
    """The 2-bit entry i of a packed table."""
    return (table[i >> 2] >> ((i & 3) << 1)) & 3


@njit(cache=True, inline="always")
def set_entry(table, i, v):
    """Set the 2-bit entry i (it must be EMPTY: bits are cleared by and-ing)."""
    table[i >> 2] &= np.uint8(255 ^ ((3 ^ v) << ((i & 3) << 1)))


# ------------------------------------------------------------------ symmetry tables


@njit(cache=True)
def sym_classes(flip_conj, slice_conj, n_flip, n_slice, inverse):
    """Classes of fs = slice*n_flip+flip under the symmetries: (rep, classidx, symidx, stab).

    flip_conj[eslice(slice)*n_flip + flip, s] is the conjugated flip (it depends on which
    positions hold slice edges); slice_conj[slice, s] likewise. symidx[fs] = u with
    conj(fs, u) = rep[classidx[fs]]; stab[c] is the bitmask of symmetries fixing rep[c].
    """
    n = n_flip * n_slice
    n_sym = slice_conj.shape[1]
    classidx = np.full(n, -1, dtype=np.int32)
    symidx = np.zeros(n, dtype=np.uint8)
    rep = np.empty(n, dtype=np.int32)
    stab = np.zeros(n, dtype=np.uint16)
    div = n_slice // (flip_conj.shape[0] // n_flip)
    n_cls = 0
    for fs in range(n):
        if classidx[fs] >= 0:
            continue
        sl, fl = fs // n_flip, fs % n_flip
        for s in range(n_sym):
            y = slice_conj[sl, s] * n_flip + flip_conj[(sl // div) * n_flip + fl, s]
            if y == fs:
                stab[n_cls] |= np.uint16(1 << s)
            if classidx[y] < 0:
                classidx[y] = n_cls
                symidx[y] = inverse[s]
        rep[n_cls] = fs
        n_cls += 1
    return rep[:n_cls].copy(), classidx, symidx, stab[:n_cls].copy()


# ------------------------------------------------------------------ pruning table BFS


@njit(cache=True)
def _set_with_twins(table, base, t, v, st, twist_conj):
    """Set entry base+t and its twins under the class's stabiliser; the number newly set."""
    done = 0
    if get_entry(table, base + t) == EMPTY:
        set_entry(table, base + t, v)
        done += 1
    if st != 1:
        for s in range(1, twist_conj.shape[1]):
            if (st >> s) & 1:
                t3 = twist_conj[t, s]
                if get_entry(table, base + t3) == EMPTY:
                    set_entry(table, base + t3, v)
                    done += 1
    return done


@njit(cache=True)
def prune_init(table, sym_data, fs_solved, n_twist):
    """Mark the solved entry (depth 0) and its twins; returns the number set."""
    rep, classidx, symidx, stab, twist_conj = sym_data
    c = classidx[fs_solved]
    return _set_with_twins(table, c * n_twist, twist_conj[0, symidx[fs_solved]], 0, stab[c], twist_conj)


@njit(cache=True)
def prune_pass(table, depth, backward, sym_data, coord_moves, n_flip):
    """One BFS level: set every entry at distance depth+1; returns how many were set.

    Forward: expand the entries at `depth`. Backward (once most entries are reached): test
    each empty entry for a neighbour at `depth`. Rows (one class, every twist) are handled
    together, so each move's class and symmetry lookups are made once per row.
    """
    rep, classidx, symidx, stab, twist_conj = sym_data
    move_flip, move_slice, move_twist = coord_moves
    n_twist = move_twist.shape[0]
    cur, nxt = depth % 3, (depth + 1) % 3
    buf = np.empty(n_twist, dtype=np.int64)
    done = 0
    for c in range(rep.shape[0]):
        base = c * n_twist
        want = EMPTY if backward else cur
        nb = 0
        for t in range(n_twist):
            if get_entry(table, base + t) == want:
                buf[nb] = t
                nb += 1
        if nb == 0:
            continue
        fs = rep[c]
        fl, sl = fs % n_flip, fs // n_flip
        for m in range(N_MOVES):
            fs2 = move_slice[sl, m] * n_flip + move_flip[fl, m]
            c2, s2 = classidx[fs2], symidx[fs2]
            base2 = c2 * n_twist
            if backward:
                k = 0
                while k < nb:
                    t2 = twist_conj[move_twist[buf[k], m], s2]
                    if get_entry(table, base2 + t2) == cur:
                        set_entry(table, base + buf[k], nxt)
                        done += 1
                        nb -= 1
                        buf[k] = buf[nb]
                    else:
                        k += 1
                if nb == 0:
                    break
            else:
                st = stab[c2]
                for k in range(nb):
                    t2 = twist_conj[move_twist[buf[k], m], s2]
                    if get_entry(table, base2 + t2) == EMPTY:
                        done += _set_with_twins(table, base2, t2, nxt, st, twist_conj)
    return done


# ------------------------------------------------------------------ search


@njit(cache=True, inline="always")
def _entry(data, fl, ss, tw):
    """The 2-bit table entry of one axis's (flip, sorted slice, twist)."""
    class_sym, twist_conj, table = data[0], data[2], data[3]
    n_twist, slice_div, flip_mod = data[6].shape[0], data[9], data[10]
    cs = np.int64(class_sym[(ss // slice_div) * flip_mod + fl % flip_mod])
    return get_entry(table, (cs >> 4) * n_twist + twist_conj[tw, cs & 15])


@njit(cache=True, inline="always")
def _next_depth(h, v):
    """The child's distance from the parent's h and the child's entry (h-1, h or h+1)."""
    d = (v - h) % 3
    return h if d == 0 else (h + 1 if d == 1 else h - 1)


@njit(cache=True)
def exact_depth(data, fl, ss, tw, axis_moves_row):
    """Distance of one axis's coordinates: walk down the table to the solved entry."""
    move_flip, move_ss, move_twist = data[4], data[5], data[6]
    depth = 0
    v = _entry(data, fl, ss, tw)
    solved_entry = _entry(data, 0, 0, 0)
    while not (fl % data[10] == 0 and (ss // data[9]) == 0 and tw == 0):
        found = False
        for m in range(N_MOVES):
            mm = axis_moves_row[m]
            f2, s2, t2 = move_flip[fl, mm], move_ss[ss, mm], move_twist[tw, mm]
            v2 = _entry(data, f2, s2, t2)
            if v2 == (v + 2) % 3:
                fl, ss, tw, v = f2, s2, t2, v2
                depth += 1
                found = True
                break
        if not found or depth > 30:
            return -1
    if v != solved_entry:
        return -1
    return depth


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
    move_flip, move_ss, move_twist, move_cperm, axis_moves = data[4], data[5], data[6], data[7], data[8]
    if move_cperm[cp[g], m] != 0 or move_flip[fl[g, 0], m] != 0 or move_twist[tw[g, 0], m] != 0:
        return False
    for a in range(3):
        if move_ss[ss[g, a], axis_moves[a, m]] != 0:
            return False
    return True


@njit(cache=True)
def ida_search(data, fl0, ss0, tw0, cp0, node_budget, time_limit, max_length, n_axes):
    """IDA* over the full cube: (moves, nodes, stop, depth bound reached).

    fl0, ss0, tw0: (3,) coordinates of the position conjugated to put each axis on UD;
    data[8] axis_moves[a, m] is move m seen in axis a. h = max of the three exact
    distances, each updated from its mod-3 entry (n_axes < 3: only the first n_axes are
    looked up, the baseline of the benchmark). A node is solved when the U-D view has no
    flip or twist, every slice's edges sit sorted at home, and the corners are in place.
    """
    move_flip, move_ss, move_twist, move_cperm, axis_moves = data[4], data[5], data[6], data[7], data[8]
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
            return np.zeros(0, dtype=np.int64), np.int64(0), STOP_COMPLETE, -1
        h0 = max(h0, hh[0, a])
    cp[0] = cp0
    order = np.arange(3)
    nodes = np.int64(0)
    next_clock = CLOCK_EVERY
    deadline = _clock() + time_limit
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
                    return out, nodes, STOP_COMPLETE, bound
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
                    h2 = _next_depth(hh[g, a], _entry(data, f2, s2, t2)) if a < n_axes else 0
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
                    return np.zeros(0, dtype=np.int64), nodes, STOP_NODES, bound
                if _clock() > deadline:
                    return np.zeros(0, dtype=np.int64), nodes, STOP_TIME, bound
            if not advanced:
                g -= 1
    return np.zeros(0, dtype=np.int64), nodes, STOP_COMPLETE, -1
