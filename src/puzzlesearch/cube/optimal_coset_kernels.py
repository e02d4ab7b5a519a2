"""numba kernels of the coset table (optimal_coset): parallel backward BFS, exact distance, one look-up.

The table's rows are corner classes (which positions hold the U corners x twist, under the
16 U-D symmetries), its columns the edge part col = E-slice positions * n_flip + flip; a
row is a whole number of bytes, so threads that each fill their own rows never share one.

Bundle (a plain tuple, built in optimal_coset.CosetTable.bundle):
  coset = (class_sym, table, slice_conj, flip_conj, flip_offset, n_flip, stride)
  class_sym[ctop * 2187 + twist] = class << 4 | symmetry u (conjugating by u gives the class's
  representative); the column conjugated by u is
  slice_conj[sl, u] * n_flip + (flip_conj[fl, u] ^ flip_offset[sl, u])  (n_flip 1: no flips);
  the entry is class * stride + column (stride: the columns padded to whole bytes).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from puzzlesearch.cube.constants import N_TWIST
from puzzlesearch.cube.optimal_kernels import EMPTY, N_MOVES, get_entry, set_entry


@njit(cache=True, parallel=True)
def backward_pass(table, depth, sym_data, coord_moves, n_twist):
    """One backward BFS level in parallel over rows: every empty entry with a neighbour at depth gets depth+1.

    sym_data = (rep, classidx, symidx, stab, col_conj), coord_moves = (move_twist, move_ctop,
    move_col) as for optimal_kernels.prune_pass (rows: corner classes, columns: the edge part).
    Returns the number of entries set.
    """
    rep, classidx, symidx = sym_data[0], sym_data[1], sym_data[2]
    col_conj = sym_data[4]
    move_twist, move_ctop, move_col = coord_moves
    n_col = move_col.shape[0]
    cur, nxt = depth % 3, (depth + 1) % 3
    done = 0
    for c in prange(rep.shape[0]):
        buf = np.empty(n_col, dtype=np.int32)
        base = c * n_col
        nb = 0
        for t in range(n_col):
            if get_entry(table, base + t) == EMPTY:
                buf[nb] = t
                nb += 1
        found = 0
        if nb > 0:
            x = rep[c]
            tw, ct = x % n_twist, x // n_twist
            for m in range(N_MOVES):
                x2 = move_ctop[ct, m] * n_twist + move_twist[tw, m]
                base2 = np.int64(classidx[x2]) * n_col
                s2 = symidx[x2]
                k = 0
                while k < nb:
                    t2 = col_conj[move_col[buf[k], m], s2]
                    if get_entry(table, base2 + t2) == cur:
                        set_entry(table, base + buf[k], nxt)
                        found += 1
                        nb -= 1
                        buf[k] = buf[nb]
                    else:
                        k += 1
                if nb == 0:
                    break
        done += found
    return done


@njit(cache=True, inline="always")
def entry_of(coset, ct, tw, fl, sl):
    """The 2-bit entry of one axis view's (U-corner positions, twist, flip, E-slice positions)."""
    class_sym, table, slice_conj, flip_conj, flip_offset, n_flip, stride = coset
    c = np.int64(class_sym[ct * N_TWIST + tw])
    u = c & 15
    col = slice_conj[sl, u] * n_flip + ((flip_conj[fl % n_flip, u] ^ flip_offset[sl, u]) % n_flip)
    i = (c >> 4) * stride + col
    return get_entry(table, i)


@njit(cache=True)
def coset_depth(coset, moves, ct, tw, fl, sl):
    """Exact coset distance of one view: walk down the mod-3 entries to the solved coset (-1: damaged).

    moves = (move_ctop, move_twist, move_flip, move_eslice), each (size x 18), already in the view.
    """
    move_ctop, move_twist, move_flip, move_eslice = moves
    n_flip = coset[5]
    depth = 0
    v = entry_of(coset, ct, tw, fl, sl)
    if entry_of(coset, 0, 0, 0, 0) != 0:
        return -1
    while not (ct == 0 and tw == 0 and fl % n_flip == 0 and sl == 0):
        found = False
        for m in range(N_MOVES):
            c2, t2, f2, s2 = move_ctop[ct, m], move_twist[tw, m], move_flip[fl, m], move_eslice[sl, m]
            v2 = entry_of(coset, c2, t2, f2, s2)
            if v2 == (v + 2) % 3:
                ct, tw, fl, sl, v = c2, t2, f2, s2, v2
                depth += 1
                found = True
                break
        if not found or depth > 30:
            return -1
    if v != 0:
        return -1
    return depth
