"""numba kernels of the coset table (tables/coset.py): parallel BFS levels, exact distance, one look-up.

The table's rows are corner classes (which positions hold the U corners x twist, under the
16 U-D symmetries), its columns the edge part col = a * n_b + b: a the E slice (its
positions, or in the large variant its positions x the order of its edges), b the flips (of
all edges, or of the 8 positions that hold U/D-layer edges; n_b = Columns.n_flip). A row is a
whole number of bytes, so threads that each fill their own rows (backward levels) never share
one; a forward level's threads set entries anywhere, each with an atomic and (_claim). A column is
moved and conjugated from small tables (a few MB at most, in cache), not from a table of all
its columns. The b tables (Columns.move_flip, flip_conj) are indexed by (a // a_div) * n_b + b
with a_div = n_a * n_b // their rows: a_div = n_a where the flips move alone (full, tiny),
24 where they depend on the E-slice positions (large: a // 24 is those positions).

Bundles (_kernels/bundles.py, built in tables/coset.py): CosetLookup (the table and its
symmetry look-ups; CosetTable.bundle), SymClassArrays, CornerMoves and Columns (the BFS).
  class_sym[ctop * 2187 + twist] = class << 4 | symmetry u (conjugating by u gives the class's
  representative); the column conjugated by u is
  slice_conj[sl, u] * n_flip + (flip_conj[fl, u] ^ flip_offset[sl, u])  (n_flip 1: no flips);
  the entry is class * stride + column (stride: the columns padded to whole bytes).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from puzzlesearch.bits import popcount
from puzzlesearch.cube._kernels.common import EMPTY, get_entry, set_entry
from puzzlesearch.cube.model.constants import N_EDGES, N_FLIP, N_MOVES, N_SLICE_PERM, N_TWIST


@njit(cache=True)
def _geometry(cols):
    """(shift, mask, a_row) of a column bundle: n_b = 1 << shift (every n_b is a power of 2), so a column
    splits by a shift and a mask, not a division; a_row[a] = (a // a_div) * n_b, the b tables' row base."""
    n_b = cols.n_flip
    shift = 0
    while (1 << shift) < n_b:
        shift += 1
    n_a = cols.move_slice.shape[0]
    a_div = n_a * n_b // cols.move_flip.shape[0]
    a_row = np.empty(n_a, dtype=np.int64)
    for a in range(n_a):
        a_row[a] = (a // a_div) * n_b
    return shift, np.int64(n_b - 1), a_row


@njit(cache=True, inline="always")
def _conj_ab(cols, a, b, u, geo):
    """Column (a, b) conjugated by symmetry u (small tables only: they stay in cache)."""
    shift, mask, a_row = geo
    return (np.int64(cols.slice_conj[a, u]) << shift) | (
        (cols.flip_conj[a_row[a] + b, u] ^ cols.flip_offset[a, u]) & mask
    )


@njit(cache=True, inline="always")
def _conj_col(cols, t, u, geo):
    """Column t conjugated by symmetry u."""
    shift, mask, _ = geo
    return _conj_ab(cols, t >> shift, t & mask, u, geo)


@njit(cache=True, inline="always")
def _move_conj_col(cols, t, m, u, geo):
    """Column t moved by m, then conjugated by symmetry u."""
    shift, mask, a_row = geo
    a, b = t >> shift, t & mask
    return _conj_ab(cols, cols.move_slice[a, m], cols.move_flip[a_row[a] + b, m] & mask, u, geo)


@njit(cache=True)
def mark_solved(table, classes, cols, stride):
    """Set the solved entry (x = 0, column 0) and its twins to 0; returns how many were set."""
    rep, classidx, symidx, stab = classes
    geo = _geometry(cols)
    c = classidx[0]
    base = np.int64(c) * stride
    t = _conj_col(cols, 0, symidx[0], geo)
    set_entry(table, base + t, 0)
    done = 1
    for s in range(1, 16):
        if (stab[c] >> s) & 1:
            i = base + _conj_col(cols, t, s, geo)
            if get_entry(table, i) == EMPTY:
                set_entry(table, i, 0)
                done += 1
    return done


@njit(cache=True, inline="always")
def neighbour_row(classes, corner_moves, x, m):
    """(row, symmetry u) of corner value x = ctop * 2187 + twist after move m: conjugating by u gives the row's representative."""
    x2 = corner_moves.ctop[x // N_TWIST, m] * N_TWIST + corner_moves.twist[x % N_TWIST, m]
    return classes.classidx[x2], classes.symidx[x2]


@njit(cache=True)
def _backward_row(table, c, cur, nxt, classes, corner_moves, cols, stride, buf, geo):
    """Fill row c's empty entries that have a neighbour at the current depth; how many."""
    n_col = cols.move_slice.shape[0] * cols.n_flip
    base = np.int64(c) * stride
    nb = 0
    for t in range(n_col):
        if get_entry(table, base + t) == EMPTY:
            buf[nb] = t
            nb += 1
    found = 0
    for m in range(N_MOVES):
        if nb == 0:
            break
        c2, u = neighbour_row(classes, corner_moves, classes.rep[c], m)
        base2 = np.int64(c2) * stride
        j = 0
        for k in range(nb):  # keep the unreached in order: the column look-ups stay local
            t = buf[k]
            if get_entry(table, base2 + _move_conj_col(cols, t, m, u, geo)) == cur:
                set_entry(table, base + t, nxt)
                found += 1
            else:
                buf[j] = t
                j += 1
        nb = j
    return found


@njit(cache=True, parallel=True)
def backward_pass(table, depth, classes, corner_moves, cols, stride, first, last):
    """Rows first..last-1 of one backward BFS level, in parallel: every empty entry with a neighbour at depth gets depth+1.

    Entry by entry (the full and tiny layouts, and the twin of the large layout's kernel that
    tests a block of 256 entries at a time: _kernels/coset_blocks.py).

    classes: SymClassArrays of x = ctop * 2187 + twist; corner_moves: CornerMoves; cols:
    Columns. A thread writes only its own rows (whole bytes); it reads others' entries for
    the value `depth`, which neither an empty nor a newly set entry has. Returns the number
    of entries set.
    """
    n_col = cols.move_slice.shape[0] * cols.n_flip
    cur, nxt = depth % 3, (depth + 1) % 3
    geo = _geometry(cols)
    done = 0
    for c in prange(first, last):
        buf = np.empty(n_col, dtype=np.int32)
        done += _backward_row(table, c, cur, nxt, classes, corner_moves, cols, stride, buf, geo)
    return done


@intrinsic
def _atomic_and(typingctx, arr, i, mask):
    """arr[i] &= mask as one atomic operation (a uint8 array); returns the byte before."""

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [index], wraparound=False)
        value = context.cast(builder, args[2], signature.args[2], types.uint8)
        return builder.atomic_rmw("and", ptr, value, "monotonic")

    return types.uint8(arr, i, mask), codegen


@njit(cache=True, inline="always")
def _claim(table, i, v):
    """Set entry i to v if it is EMPTY, safely while other threads do the same; 1 if this call set it, else 0.

    In a forward level the only writes are of v to EMPTY entries, and and-ing v into an
    entry that holds v leaves it, so an entry read EMPTY can be and-ed without a lock on the
    byte; the byte before the atomic and says whether this thread was first.
    """
    if get_entry(table, i) != EMPTY:
        return 0
    shift = (i & 3) << 1
    before = _atomic_and(table, i >> 2, np.uint8(255 ^ ((3 ^ v) << shift)))
    return 1 if (before >> shift) & 3 == EMPTY else 0


@njit(cache=True, parallel=True)
def forward_pass(table, depth, classes, corner_moves, cols, stride, n_parts, first, last):
    """One forward BFS level over rows first..last-1: expand their entries at depth (the rows dealt to
    n_parts parts, in parallel).

    Each part sets the empty neighbours (and their twins under the class's self-symmetries)
    to depth + 1 in place (_claim: an atomic and on the byte, as four entries share it), so
    the level needs no memory beyond the table: it never reads those as depth (mod 3).
    Returns the number of entries set.
    """
    n_col = cols.move_slice.shape[0] * cols.n_flip
    cur, nxt = depth % 3, (depth + 1) % 3
    geo = _geometry(cols)
    done = 0
    for p in prange(n_parts):
        found = 0
        rows = np.empty(N_MOVES, np.int64)  # the row's neighbour row and symmetry by move, once per row
        syms = np.empty(N_MOVES, np.int64)
        for c in range(first + p, last, n_parts):  # every n_parts-th row: the parts get alike shares of work
            base = np.int64(c) * stride
            for m in range(N_MOVES):
                rows[m], syms[m] = neighbour_row(classes, corner_moves, classes.rep[c], m)
            for t in range(n_col):
                if table[(base + t) >> 2] == 255 or get_entry(table, base + t) != cur:
                    continue  # (a byte of four empty entries is skipped at its first)
                for m in range(N_MOVES):
                    c2 = rows[m]
                    base2 = c2 * stride
                    t2 = _move_conj_col(cols, t, m, syms[m], geo)
                    i = base2 + t2
                    if get_entry(table, i) == EMPTY:
                        found += _claim(table, i, nxt)
                        st = classes.stab[c2]
                        if st != 1:
                            for s in range(1, 16):
                                if (st >> s) & 1:
                                    found += _claim(table, base2 + _conj_col(cols, t2, s, geo), nxt)
        done += found
    return done


@njit(cache=True, inline="always")
def _ud_flips(fl, mask):
    """The flips of the 8 positions in mask, in position order, of a flip coordinate (11 bits; the 12th
    edge's flip is their parity)."""
    bits = fl | (popcount(fl) & 1) << (N_EDGES - 1)
    out = 0
    k = 0
    for i in range(N_EDGES):
        if (mask >> i) & 1:
            out |= ((bits >> i) & 1) << k
            k += 1
    return out


@njit(cache=True, inline="always")
def coset_index(coset, cs, ss, fl):
    """Entry index of a corner value's class_sym cs = class << 4 | u with sorted E slice ss and flip fl."""
    u = cs & 15
    sl = ss // N_SLICE_PERM
    fl2 = coset.flip_conj[fl % N_FLIP, u] ^ coset.flip_offset[sl, u]  # the conjugate's flip
    if coset.large:
        ss2 = np.int64(coset.ss_conj[ss, u])
        col = ss2 * coset.n_flip + _ud_flips(fl2, coset.ud_mask[ss2 // N_SLICE_PERM])
    else:
        n_flip = coset.n_flip
        col = coset.slice_conj[sl, u] * n_flip + fl2 % n_flip
    return (cs >> 4) * coset.stride + col


@njit(cache=True, inline="always")
def entry_of(coset, ct, tw, fl, ss):
    """The 2-bit entry of one axis view's (U-corner positions, twist, flip, sorted E slice)."""
    return get_entry(coset.table, coset_index(coset, np.int64(coset.class_sym[ct * N_TWIST + tw]), ss, fl))


@njit(cache=True)
def coset_depth(coset, moves, ct, tw, fl, sl):
    """Exact coset distance of one view: walk down the mod-3 entries to the solved coset (-1: damaged).

    coset: a CosetLookup; moves: CosetMoves (each size x 18), already in the view.
    """
    move_ctop, move_twist, move_flip, move_eslice = moves
    n_flip = coset.n_flip
    depth = 0
    v = entry_of(coset, ct, tw, fl, sl * N_SLICE_PERM)
    if entry_of(coset, 0, 0, 0, 0) != 0:
        return -1
    while not (ct == 0 and tw == 0 and fl % n_flip == 0 and sl == 0):
        found = False
        for m in range(N_MOVES):
            c2, t2, f2, s2 = move_ctop[ct, m], move_twist[tw, m], move_flip[fl, m], move_eslice[sl, m]
            v2 = entry_of(coset, c2, t2, f2, s2 * N_SLICE_PERM)
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
