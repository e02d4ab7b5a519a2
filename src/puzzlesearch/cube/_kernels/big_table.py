"""numba kernels of the optimal solver's big table: symmetry classes, the packed BFS, exact distances.

The table holds, for every (flip x slice class under the 16 UD symmetries, twist), the
distance to solved modulo 3 in 2 bits (_kernels/common.py: EMPTY, get_entry, set_entry).
Bundles (_kernels/bundles.py, built in tables/big.py): SymData and CoordMoves for the BFS,
BigSearch for the look-ups.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube._kernels.common import EMPTY, get_entry, set_entry
from puzzlesearch.cube.model.constants import N_MOVES

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
    c = sym_data.classidx[fs_solved]
    t = sym_data.twist_conj[0, sym_data.symidx[fs_solved]]
    return _set_with_twins(table, c * n_twist, t, 0, sym_data.stab[c], sym_data.twist_conj)


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


# ------------------------------------------------------------------ look-ups


@njit(cache=True, inline="always")
def entry(data, fl, ss, tw):
    """The 2-bit table entry of one axis's (flip, sorted slice, twist) (data: a BigSearch)."""
    n_twist = data.move_twist.shape[0]
    cs = np.int64(data.class_sym[(ss // data.slice_div) * data.flip_mod + fl % data.flip_mod])
    return get_entry(data.table, (cs >> 4) * n_twist + data.twist_conj[tw, cs & 15])


@njit(cache=True)
def exact_depth(data, fl, ss, tw, axis_moves_row):
    """Distance of one axis's coordinates: walk down the table to the solved entry."""
    move_flip, move_ss, move_twist = data.move_flip, data.move_ss, data.move_twist
    depth = 0
    v = entry(data, fl, ss, tw)
    solved_entry = entry(data, 0, 0, 0)
    while not (fl % data.flip_mod == 0 and (ss // data.slice_div) == 0 and tw == 0):
        found = False
        for m in range(N_MOVES):
            mm = axis_moves_row[m]
            f2, s2, t2 = move_flip[fl, mm], move_ss[ss, mm], move_twist[tw, mm]
            v2 = entry(data, f2, s2, t2)
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
