"""numba kernels on cubie arrays: a solution's check, and two-phase's start coordinates of its directions.

`solves` applies moves to a cube's cubie arrays with the 18 move cubes (model/cubie.py's
product rule: position i takes the cubie at the move's position j) and checks the result
against the solved cube itself, not against any coordinate; the pure-Python
CubieCube.apply is its slower twin (tests/cube/test_cube_model.py compares them).

`direction_starts` fills two-phase's Starts: the cube and its inverse, each conjugated by the
three axis-turning symmetries (model/symmetry.py's conjugation formula), each of those after
each pre-move sequence (the product rule above), and their twist, flip
and sorted E-slice coordinates (model/coords.py's encodings; tests compare both with the
model on random cubes).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube.model.constants import N_CORNERS, N_EDGES, N_SLICE_PERM

N_TWIST_ORI = 3  # corner orientations
N_FLIP_ORI = 2  # edge orientations
FIRST_E_EDGE = 8  # the E-slice edges are 8..11 (FR FL BR BL)
N_E_EDGES = 4


@njit(cache=True)
def solves(cp, co, ep, eo, moves, cubie_moves):
    """True if `moves` (move numbers) take the cube (cubie arrays, 1-D) to the solved cube."""
    c, t, e, f = cp.copy(), co.copy(), ep.copy(), eo.copy()
    c2, t2, e2, f2 = np.empty_like(c), np.empty_like(t), np.empty_like(e), np.empty_like(f)
    for m in moves:
        mc, mt, me, mf = cubie_moves.cp[m], cubie_moves.co[m], cubie_moves.ep[m], cubie_moves.eo[m]
        for i in range(N_CORNERS):
            c2[i] = c[mc[i]]
            t2[i] = (t[mc[i]] + mt[i]) % N_TWIST_ORI
        for i in range(N_EDGES):
            e2[i] = e[me[i]]
            f2[i] = (f[me[i]] + mf[i]) % N_FLIP_ORI
        c, c2, t, t2, e, e2, f, f2 = c2, c, t2, t, e2, e, f2, f
    for i in range(N_CORNERS):
        if c[i] != i or t[i] != 0:
            return False
    for i in range(N_EDGES):
        if e[i] != i or f[i] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _conjugate_into(cp, co, ep, eo, sym, k, out_cp, out_co, out_ep, out_eo):
    """out[k] = the cube conjugated by axis symmetry k (conj(c)[g(p)] = g(c[p]), orientations shifted)."""
    cmap, coff, cinv = sym.corner_map[k], sym.corner_offset[k], sym.corner_inv[k]
    emap, eoff, einv = sym.edge_map[k], sym.edge_offset[k], sym.edge_inv[k]
    sign = sym.sign[k]
    for i in range(N_CORNERS):
        p = cinv[i]
        out_cp[i] = cmap[cp[p]]
        out_co[i] = (sign * co[p] + coff[p] - coff[cp[p]]) % N_TWIST_ORI
    for i in range(N_EDGES):
        p = einv[i]
        out_ep[i] = emap[ep[p]]
        out_eo[i] = (eo[p] + eoff[p] - eoff[ep[p]]) % N_FLIP_ORI


@njit(cache=True)
def direction_starts(cp, co, ep, eo, sym, pre, edge_mask_rank, starts):
    """Fill Starts from one cube's cubie arrays: rows base * P + p, the bases the cube by each axis
    symmetry, then its inverse by each; p the pre-move cube pre[p] (CubieMoves rows) times that base."""
    n_axes = sym.corner_map.shape[0]
    n_pre = pre.cp.shape[0]
    icp, ico, iep, ieo = np.empty_like(cp), np.empty_like(co), np.empty_like(ep), np.empty_like(eo)
    for i in range(N_CORNERS):
        icp[cp[i]] = i
        ico[cp[i]] = (N_TWIST_ORI - co[i]) % N_TWIST_ORI
    for i in range(N_EDGES):
        iep[ep[i]] = i
        ieo[ep[i]] = eo[i]
    dcp, dco, dep, deo = np.empty_like(cp), np.empty_like(co), np.empty_like(ep), np.empty_like(eo)
    tco, teo, tep = np.empty(N_CORNERS, np.int64), np.empty(N_EDGES, np.int64), np.empty(N_EDGES, np.int64)
    order = np.empty(N_E_EDGES, np.int64)
    for base in range(2 * n_axes):
        k = base % n_axes
        if base < n_axes:
            _conjugate_into(cp, co, ep, eo, sym, k, dcp, dco, dep, deo)
        else:
            _conjugate_into(icp, ico, iep, ieo, sym, k, dcp, dco, dep, deo)
        for p in range(n_pre):
            row = base * n_pre + p
            for i in range(N_CORNERS):  # the product pre[p] * base (model/cubie.py's rule)
                starts.cp[row, i] = pre.cp[p, dcp[i]]
                tco[i] = (pre.co[p, dcp[i]] + dco[i]) % N_TWIST_ORI
            for i in range(N_EDGES):
                tep[i] = starts.ep[row, i] = pre.ep[p, dep[i]]
                teo[i] = (pre.eo[p, dep[i]] + deo[i]) % N_FLIP_ORI
            _coordinates(tco, teo, tep, edge_mask_rank, order, starts, row)


@njit(cache=True, inline="always")
def _coordinates(tco, teo, tep, edge_mask_rank, order, starts, row):
    """Starts' twist, flip and sorted E-slice coordinates of row `row` from its orientations and edges."""
    twist = 0
    for i in range(N_CORNERS - 2, -1, -1):
        twist = twist * N_TWIST_ORI + tco[i]
    flip = 0
    for i in range(N_EDGES - 2, -1, -1):
        flip = flip * N_FLIP_ORI + teo[i]
    mask, n = 0, 0
    for i in range(N_EDGES):
        if tep[i] >= FIRST_E_EDGE:
            mask |= 1 << i
            order[n] = tep[i] - FIRST_E_EDGE
            n += 1
    rank = 0
    for i in range(N_E_EDGES - 1):
        s = 0
        for j in range(i + 1, N_E_EDGES):
            if order[j] < order[i]:
                s += 1
        rank = rank * (N_E_EDGES - i) + s
    starts.twist[row] = twist
    starts.flip[row] = flip
    starts.sslice[row] = edge_mask_rank[mask] * N_SLICE_PERM + rank
