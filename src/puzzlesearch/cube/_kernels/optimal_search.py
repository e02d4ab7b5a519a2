"""numba IDA* of the optimal solver: two heuristics, children looked up in batches.

Heuristics (the bound is the largest): the flip x sorted-slice x twist table (2 bits mod 3,
exact distances tracked along the path) in the three axis orientations, and the exact
corner table (optimal_corners). A node's children are tested stage by stage, the stage of
the largest parent distance first (the tight one prunes most; the corner table, one memory
access instead of two, first among equals): each stage computes every surviving child's
address, then loads them all, then filters, so the loads of up to 15 children overlap
instead of waiting for each other. Children stay in move order, so the first solution
found is the same one as move-by-move IDA* finds.

Axis rules (flags[3]; the table's goal group holds every U and D turn, so a table distance
d in one axis view means no path of exactly d moves to that goal ends with a turn of that
view's U-D axis; Reid, de Bondt, Rokicki's nxopt):
- forward: a child whose three axis distances all equal its remaining depth r is cut (each
  axis is ruled out as the last move, so r moves are not enough: the (x,x,x) -> x+1 rule);
- inverse: the inverse position's solutions are the reversed inverted ones, so an inverse
  view bound equal to r rules that axis out as the child's next move (FORBID bits, carried
  into the node); all three ruled out cuts the child.

Bundles (plain tuples, built in optimal_search):
  big     = (class_sym, twist_conj, table, slice_div, flip_mod)  see optimal_kernels
  moves   = (move_flip, move_ss, move_twist, move_cperm, axis_moves)
  corners = (corner_table uint8, n_cperm)   index (cperm % n_cperm) * 2187 + twist (U-D view)
  coset   = (bundle, move_ctop)  the coset table (optimal_coset_kernels) and the U-corner move table
  limits  = (node_budget, time_limit, max_length, n_axes, use_corners, use_inverse, axis_rules, use_coset)

The coset table (corner classes x flip x E-slice, optimal_coset) is a second heuristic in the
three axis views (stages 4..6); its goal group also holds every U and D turn, so an axis's
distance for the axis rules is the larger of its two tables'.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube.model.constants import N_SLICE_PERM, N_TWIST
from puzzlesearch.cube._kernels.coset import coset_index
from puzzlesearch.cube._kernels.big_table import (
    CLOCK_EVERY,
    MAX_DEPTH,
    N_MOVES,
    STOP_COMPLETE,
    STOP_NODES,
    STOP_TIME,
    _clock,
    _next_depth,
)

CORNER_STAGE = 3  # stage ids 0..2: the axes; 3: the corner table; 4..6: the coset table's axes
COSET_STAGE = 4
N_STAGES = 7
N_AXES = 3
ALL_AXES = (1 << N_AXES) - 1  # every axis ruled out as the next move: no path of that length


@njit(cache=True)
def view_ud_bits(axis_moves):
    """Per move, the bit of the axis view in which it is a U or D turn (one bit each)."""
    out = np.zeros(axis_moves.shape[1], dtype=np.int64)
    for a in range(N_AXES):
        for m in range(axis_moves.shape[1]):
            if (axis_moves[a, m] // 3) % 3 == 0:
                out[m] |= 1 << a
    return out


@njit(cache=True, inline="always")
def _stage_order(hh, hc, hn, g, n_axes, use_corners, use_coset, use_big, order, keys):
    """Stages by decreasing parent distance (corner, then coset table first among equals); their number."""
    n = 0
    if use_corners:
        order[n], keys[n] = CORNER_STAGE, 4 * hc[g] + 3
        n += 1
    if use_coset:
        for a in range(n_axes):
            order[n], keys[n] = COSET_STAGE + a, 4 * hn[g, a] + 1
            n += 1
    if use_big:
        for a in range(n_axes):
            order[n], keys[n] = a, 4 * hh[g, a]
            n += 1
    for i in range(1, n):
        j = i
        while j > 0 and keys[j] > keys[j - 1]:
            keys[j], keys[j - 1] = keys[j - 1], keys[j]
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    return n


@njit(cache=True, inline="always")
def _corner_stage(corners, moves, node, kids, cand, n, g, togo, scratch):
    """Keep the candidates whose corner distance fits in togo - 1 moves; the number kept."""
    ctable, n_cperm = corners
    move_twist, move_cperm = moves[2], moves[3]
    tw, cp = node[2], node[4]
    ccp, chc = kids[5], kids[6]
    idx, val = scratch[0], scratch[1]
    n_twist = move_twist.shape[0]
    for k in range(n):
        m = cand[k]
        c2 = move_cperm[cp[g], m]
        ccp[g, m] = c2
        idx[k] = (c2 % n_cperm) * n_twist + move_twist[tw[g, 0], m]
    for k in range(n):
        val[k] = ctable[idx[k]]
    j = 0
    for k in range(n):
        if val[k] < togo:
            chc[g, cand[k]] = val[k]
            cand[j] = cand[k]
            j += 1
    return j


@njit(cache=True, inline="always")
def _axis_coords(moves, node, kids, cand, n, g, a):
    """The candidates' flip, sorted slice and twist seen in axis a (no look-up)."""
    move_flip, move_ss, move_twist, axis_moves = moves[0], moves[1], moves[2], moves[4]
    fl, ss, tw = node[0], node[1], node[2]
    cf, cs, ct = kids[2], kids[3], kids[4]
    for k in range(n):
        m = cand[k]
        mm = axis_moves[a, m]
        cf[g, m, a] = move_flip[fl[g, a], mm]
        cs[g, m, a] = move_ss[ss[g, a], mm]
        ct[g, m, a] = move_twist[tw[g, a], mm]


@njit(cache=True, inline="always")
def _keep(val, idx, h, togo, cand, n, out, g, a):
    """Keep the candidates whose distance, decoded from the parent's h and their loaded byte, is below togo.

    The distances kept go to out[g, m, a]; returns the number kept (in order, in cand).
    """
    j = 0
    for k in range(n):
        h2 = _next_depth(h, (val[k] >> ((idx[k] & 3) << 1)) & 3)
        if h2 < togo:
            out[g, cand[k], a] = h2
            cand[j] = cand[k]
            j += 1
    return j


@njit(cache=True, inline="always")
def _axis_stage(big, moves, node, kids, cand, n, g, a, togo, scratch, have):
    """Keep the candidates whose axis-a distance fits in togo - 1 moves; the number kept."""
    class_sym, twist_conj, table, slice_div, flip_mod = big
    hh = node[3]
    cf, cs, ct, ch = kids[2], kids[3], kids[4], kids[7]
    idx, val = scratch[0], scratch[1]
    n_twist = twist_conj.shape[0]
    if not have[a]:
        _axis_coords(moves, node, kids, cand, n, g, a)
        have[a] = 1
    for k in range(n):
        m = cand[k]
        idx[k] = (cs[g, m, a] // slice_div) * flip_mod + cf[g, m, a] % flip_mod
    for k in range(n):
        val[k] = class_sym[idx[k]]
    for k in range(n):
        c = val[k]
        idx[k] = (c >> 4) * n_twist + twist_conj[ct[g, cand[k], a], c & 15]
    for k in range(n):
        val[k] = table[idx[k] >> 2]
    return _keep(val, idx, hh[g, a], togo, cand, n, ch, g, a)


@njit(cache=True, inline="always")
def _coset_stage(coset, moves, node, kids, cand, n, g, a, togo, scratch, have):
    """Keep the candidates whose axis-a coset distance fits in togo - 1 moves; the number kept."""
    bundle, move_ctop = coset[0], coset[1]
    class_sym, table = bundle[0], bundle[1]
    axis_moves = moves[4]
    ctop, hn = node[8], node[9]
    cf, cs, ct, cct, chn = kids[2], kids[3], kids[4], kids[10], kids[11]
    idx, val = scratch[0], scratch[1]
    if not have[a]:
        _axis_coords(moves, node, kids, cand, n, g, a)
        have[a] = 1
    for k in range(n):
        m = cand[k]
        c2 = move_ctop[ctop[g, a], axis_moves[a, m]]
        cct[g, m, a] = c2
        idx[k] = c2 * N_TWIST + ct[g, m, a]
    for k in range(n):
        val[k] = class_sym[idx[k]]
    for k in range(n):
        m = cand[k]
        idx[k] = coset_index(bundle, val[k], cs[g, m, a] // N_SLICE_PERM, cf[g, m, a])
    for k in range(n):
        val[k] = table[idx[k] >> 2]
    return _keep(val, idx, hn[g, a], togo, cand, n, chn, g, a)


# ------------------------------------------------------------------ inverse look-ups


@njit(cache=True)
def face_positions(mcp, mep):
    """Per move, the 4 corner and the 4 edge positions it changes (its face's)."""
    fc = np.zeros((mcp.shape[0], 4), dtype=np.int64)
    fe = np.zeros((mep.shape[0], 4), dtype=np.int64)
    for mm in range(mcp.shape[0]):
        k = 0
        for i in range(mcp.shape[1]):
            if mcp[mm, i] != i:
                fc[mm, k] = i
                k += 1
        k = 0
        for i in range(mep.shape[1]):
            if mep[mm, i] != i:
                fe[mm, k] = i
                k += 1
    return fc, fe


@njit(cache=True, inline="always")
def _child_inverse(inv, faces, view, g, a, mm):
    """(flip, sorted slice, twist) of the inverse of child mm of the depth-g view a, from the parent's.

    Only the turned face's 4 corners and 4 edges change: their terms of the inverse's twist and
    flip are swapped; the sorted slice is ranked from the child's edges at positions 8..11.
    """
    mcp, mco, mep, meo = inv[2]
    pow3, pow2, mask_rank, perm4 = inv[3]
    vcp, vco, vep, veo, vinv = view
    fc, fe = faces
    fl, tw = vinv[g, a, 0], vinv[g, a, 2]
    for q in range(4):
        i = fc[mm, q]
        j = mcp[mm, i]
        tw += ((3 - (vco[g, a, j] + mco[mm, i]) % 3) % 3) * pow3[vcp[g, a, j]]
        tw -= ((3 - vco[g, a, i]) % 3) * pow3[vcp[g, a, i]]
    for q in range(4):
        i = fe[mm, q]
        j = mep[mm, i]
        fl += (veo[g, a, j] ^ meo[mm, i]) * pow2[vep[g, a, j]] - veo[g, a, i] * pow2[vep[g, a, i]]
    e8, e9, e10, e11 = vep[g, a, mep[mm, 8]], vep[g, a, mep[mm, 9]], vep[g, a, mep[mm, 10]], vep[g, a, mep[mm, 11]]
    mask = (1 << e8) | (1 << e9) | (1 << e10) | (1 << e11)
    code = 0
    for i, p in ((0, e8), (1, e9), (2, e10), (3, e11)):
        slot = (e8 < p) + (e9 < p) + (e10 < p) + (e11 < p)
        code += i << (2 * (3 - slot))
    return fl, mask_rank[mask] * 24 + perm4[code], tw


@njit(cache=True)
def inverse_coords(inv, cp, co, ep, eo):
    """(flip, sorted slice, twist) of the inverse of the cubie state cp, co, ep, eo.

    The inverse Z of X has Z.cp[X.cp[i]] = i, Z.co[X.cp[i]] = -X.co[i], Z.ep[X.ep[i]] = i,
    Z.eo[X.ep[i]] = X.eo[i]: Z's E edges sit at X.ep[8..11], edge i at X.ep[i].
    """
    pow3, pow2, mask_rank, perm4 = inv[3]
    tw = 0
    for i in range(8):
        tw += ((3 - co[i]) % 3) * pow3[cp[i]]
    fl = 0
    for i in range(12):
        fl += eo[i] * pow2[ep[i]]
    mask = 0
    code = 0
    for i in range(8, 12):
        p = ep[i]
        mask |= 1 << p
        slot = 0
        for j in range(8, 12):
            if ep[j] < p:
                slot += 1
        code += (i - 8) << (2 * (3 - slot))
    return fl, mask_rank[mask] * 24 + perm4[code], tw


@njit(cache=True)
def _bound_of(big, inv, fl, ss, tw):
    """Lower bound of one inverse view from the bound table (no parent needed)."""
    class_sym, twist_conj, slice_div, flip_mod = big[0], big[1], big[3], big[4]
    c = np.int64(class_sym[(ss // slice_div) * flip_mod + fl % flip_mod])
    i = (c >> 4) * twist_conj.shape[0] + twist_conj[tw, c & 15]
    return inv[1][(inv[0][i >> 2] >> ((i & 3) << 1)) & 3]


@njit(cache=True)
def _coset_bound_of(coset, inv, cp, fl, ss, tw):
    """Lower bound of one inverse view from the coset table's bound copy (cp: the view's corners)."""
    bundle, cbound, clower, cmask_rank = coset[0], coset[2], coset[3], coset[4]
    mask = 0
    for i in range(4):
        mask |= 1 << cp[i]
    i = coset_index(bundle, np.int64(bundle[0][cmask_rank[mask] * N_TWIST + tw]), ss // N_SLICE_PERM, fl)
    return clower[(cbound[i >> 2] >> ((i & 3) << 1)) & 3]


@njit(cache=True, inline="always")
def _admit(forbid, g, m, a, low, togo, rules):
    """True if an inverse view's bound low lets child m live; with the axis rules, a bound of
    exactly togo - 1 rules axis a out as its next move (all three ruled out: no)."""
    if low >= togo:
        return False
    if rules and low == togo - 1:  # no path of togo - 1 moves starts on this axis
        forbid[g, m] |= 1 << a
        if forbid[g, m] == ALL_AXES:
            return False
    return True


@njit(cache=True, inline="always")
def _inverse_stage(big, moves, inv, faces, view, kinv, forbid, cand, n, g, a, togo, rules, scratch):
    """Keep the candidates whose inverse, seen in axis a, has a bound below togo; the number kept.

    With the axis rules, a bound of exactly togo - 1 rules axis a out as the child's next move.
    """
    class_sym, twist_conj, slice_div, flip_mod = big[0], big[1], big[3], big[4]
    btable, lower = inv[0], inv[1]
    axis_moves = moves[4]
    idx, val, tws = scratch[0], scratch[1], scratch[2]
    n_twist = twist_conj.shape[0]
    for k in range(n):
        m = cand[k]
        fl, ss, tw = _child_inverse(inv, faces, view, g, a, axis_moves[a, m])
        kinv[g, m, a, 0], kinv[g, m, a, 1], kinv[g, m, a, 2] = fl, ss, tw
        idx[k] = (ss // slice_div) * flip_mod + fl % flip_mod
        tws[k] = tw
    for k in range(n):
        val[k] = class_sym[idx[k]]
    for k in range(n):
        c = val[k]
        idx[k] = (c >> 4) * n_twist + twist_conj[tws[k], c & 15]
    for k in range(n):
        val[k] = btable[idx[k] >> 2]
    j = 0
    for k in range(n):
        m = cand[k]
        if _admit(forbid, g, m, a, lower[(val[k] >> ((idx[k] & 3) << 1)) & 3], togo, rules):
            cand[j] = m
            j += 1
    return j


@njit(cache=True, inline="always")
def _coset_inverse_stage(coset, moves, inv, faces, view, kinv, forbid, cand, n, g, a, togo, rules, scratch, lows):
    """As _inverse_stage, with the inverse's views looked up in the coset table's bound copy.

    A move that is a U or D turn in view a leaves that inverse view's coset as it was (the
    move lands in front of the inverse's solution, inside the table's group; nxopt): its
    bound is the parent's, with no look-up. lows = (view bits of U-D moves, the nodes' bounds,
    the children's bounds).
    """
    ud_bits, ilow, cilow = lows
    bundle, cbound, clower, cmask_rank = coset[0], coset[2], coset[3], coset[4]
    class_sym = bundle[0]
    mcp = inv[2][0]
    vcp = view[0]
    axis_moves = moves[4]
    idx, val = scratch[0], scratch[1]
    for k in range(n):
        m = cand[k]
        mm = axis_moves[a, m]
        fl, ss, tw = _child_inverse(inv, faces, view, g, a, mm)
        kinv[g, m, a, 0], kinv[g, m, a, 1], kinv[g, m, a, 2] = fl, ss, tw
        mask = 0
        for i in range(4):  # the inverse's U corners sit where the child's U positions' cubies are
            mask |= 1 << vcp[g, a, mcp[mm, i]]
        if (ud_bits[m] >> a) & 1:
            idx[k] = -1
            continue
        idx[k] = coset_index(bundle, np.int64(class_sym[cmask_rank[mask] * N_TWIST + tw]), ss // N_SLICE_PERM, fl)
    for k in range(n):
        if idx[k] >= 0:
            val[k] = cbound[idx[k] >> 2]
    j = 0
    for k in range(n):
        m = cand[k]
        low = ilow[g, a] if idx[k] < 0 else clower[(val[k] >> ((idx[k] & 3) << 1)) & 3]
        cilow[g, m, a] = low
        if _admit(forbid, g, m, a, low, togo, rules):
            cand[j] = m
            j += 1
    return j


@njit(cache=True, inline="always")
def _solves(moves, node, g, m):
    """True if move m solves the node at depth g (move tables only: the last level)."""
    move_flip, move_ss, move_twist, move_cperm, axis_moves = moves
    fl, ss, tw, cp = node[0], node[1], node[2], node[4]
    if move_cperm[cp[g], m] != 0 or move_flip[fl[g, 0], m] != 0 or move_twist[tw[g, 0], m] != 0:
        return False
    for a in range(3):
        if move_ss[ss[g, a], axis_moves[a, m]] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _forward_rule(kids, cand, n, g, rest, use_coset):
    """Drop the candidates whose three axis distances all equal rest (the (x,x,x) -> x+1 rule).

    An axis's distance is the larger of its two tables' (both never exceed rest here).
    """
    ch, chn = kids[7], kids[11]
    j = 0
    for k in range(n):
        m = cand[k]
        full = True
        for a in range(N_AXES):
            if ch[g, m, a] != rest and not (use_coset and chn[g, m, a] == rest):
                full = False
                break
        if full:
            continue
        cand[j] = m
        j += 1
    return j


@njit(cache=True, inline="always")
def _expand(tables, node, kids, g, bound, flags, work):
    """List the children of the node at depth g that fit in the bound; returns children generated."""
    big, moves, corners, inv, coset = tables
    n_axes, use_corners, use_inverse, rules, ud_bits, use_coset, use_big, use_coset_inverse = flags
    cand, order, scratch, view, kinv, faces, have = work
    mv = node[6]
    kid_moves, nk, ki = kids[0], kids[1], kids[8]
    prev = mv[g]
    forbid = node[7][g]
    n = 0
    for m in range(N_MOVES):
        if prev >= 0:
            f, pf = m // 3, prev // 3
            if f == pf or f + 3 == pf:
                continue
        if forbid & ud_bits[m]:
            continue
        cand[n] = m
        n += 1
    generated = n
    togo = bound - g
    if togo == 1:  # the child must be solved
        j = 0
        for k in range(n):
            if _solves(moves, node, g, cand[k]):
                cand[j] = cand[k]
                j += 1
        n = j
    else:
        n_stages = _stage_order(
            node[3], node[5], node[9], g, n_axes, use_corners, use_coset, use_big, order, scratch[3]
        )
        have[0], have[1], have[2] = 0, 0, 0
        for i in range(n_stages):
            if n == 0:
                break
            s = order[i]
            if s == CORNER_STAGE:
                n = _corner_stage(corners, moves, node, kids, cand, n, g, togo, scratch)
            elif s >= COSET_STAGE:
                n = _coset_stage(coset, moves, node, kids, cand, n, g, s - COSET_STAGE, togo, scratch, have)
            else:
                n = _axis_stage(big, moves, node, kids, cand, n, g, s, togo, scratch, have)
        if rules and n_axes == N_AXES:
            n = _forward_rule(kids, cand, n, g, togo - 1, use_coset)
        if use_inverse:
            for k in range(n):
                kids[9][g, cand[k]] = 0
            for a in range(3):
                if n == 0:
                    break
                if use_coset_inverse:
                    lows = (ud_bits, node[10], kids[12])
                    n = _coset_inverse_stage(
                        coset, moves, inv, faces, view, kinv, kids[9], cand, n, g, a, togo, rules, scratch, lows
                    )
                else:
                    n = _inverse_stage(big, moves, inv, faces, view, kinv, kids[9], cand, n, g, a, togo, rules, scratch)
        if n > 0:
            for a in range(n_axes, 3):  # axes not looked up: coordinates only (the solved test)
                _axis_coords(moves, node, kids, cand, n, g, a)

            if not use_corners:
                for k in range(n):
                    kids[5][g, cand[k]] = moves[3][node[4][g], cand[k]]
    for k in range(n):
        kid_moves[g, k] = cand[k]
    nk[g] = n
    ki[g] = 0
    return generated


@njit(cache=True, inline="always")
def _descend(node, kids, g, m, inv, axis_moves, view, kinv, use_inverse):
    """Copy child m of the node at depth g into depth g + 1 (with the inverse: its views' cubies)."""
    fl, ss, tw, hh, cp, hc, mv = node[:7]
    cf, cs, ct, ccp, chc, ch = kids[2], kids[3], kids[4], kids[5], kids[6], kids[7]
    for a in range(3):
        fl[g + 1, a], ss[g + 1, a], tw[g + 1, a], hh[g + 1, a] = cf[g, m, a], cs[g, m, a], ct[g, m, a], ch[g, m, a]
    cp[g + 1], hc[g + 1], mv[g + 1] = ccp[g, m], chc[g, m], m
    for a in range(3):
        node[8][g + 1, a], node[9][g + 1, a] = kids[10][g, m, a], kids[11][g, m, a]
    if use_inverse:
        mcp, mco, mep, meo = inv[2]
        vcp, vco, vep, veo, vinv = view
        for a in range(3):
            mm = axis_moves[a, m]
            for i in range(8):
                j = mcp[mm, i]
                vcp[g + 1, a, i] = vcp[g, a, j]
                vco[g + 1, a, i] = (vco[g, a, j] + mco[mm, i]) % 3
            for i in range(12):
                j = mep[mm, i]
                vep[g + 1, a, i] = vep[g, a, j]
                veo[g + 1, a, i] = veo[g, a, j] ^ meo[mm, i]
            for x in range(3):
                vinv[g + 1, a, x] = kinv[g, m, a, x]
        node[7][g + 1] = kids[9][g, m]
        for a in range(3):
            node[10][g + 1, a] = kids[12][g, m, a]


@njit(cache=True)
def ida_search(tables, start, views, limits):
    """IDA* over the full cube: (moves, nodes, stop, depth bound reached).

    tables = (big, moves, corners, inv, coset); start = (fl, ss, tw, hh) of the 3 axis views (each
    (3,), hh their exact distances), cperm and the corner distance, then the views' U-corner
    positions and exact coset distances (each (3,)); views = the cubie state
    (cp, co, ep, eo; (3, 8) / (3, 12)) of each axis view (for the inverse look-ups). Nodes
    are counted as children generated, as in optimal_kernels.ida_search, so the two
    kernels' counts compare.
    """
    big, moves, corners, inv, coset = tables
    fl0, ss0, tw0, hh0, cp0, hc0, ctop0, hn0 = start
    node_budget, time_limit, max_length, n_axes, use_corners, use_inverse, rules, use_coset, use_big, coset_inv = limits
    flags = (n_axes, use_corners, use_inverse, rules, view_ud_bits(moves[4]), use_coset, use_big, coset_inv)
    L = MAX_DEPTH + 1
    node = (
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.full(L, -1, dtype=np.int64),
        np.zeros(L, dtype=np.int64),  # forbid bits: axes ruled out as the next move
        np.zeros((L, 3), dtype=np.int64),  # U-corner positions of each view
        np.zeros((L, 3), dtype=np.int64),  # exact coset distance of each view
        np.zeros((L, 3), dtype=np.int64),  # coset bound of each inverse view
    )
    kids = (
        np.zeros((L, N_MOVES), dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES), dtype=np.int64),
        np.zeros((L, N_MOVES), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.zeros((L, N_MOVES), dtype=np.int64),  # the children's forbid bits
        np.zeros((L, N_MOVES, 3), dtype=np.int64),  # the children's U-corner positions
        np.zeros((L, N_MOVES, 3), dtype=np.int64),  # the children's coset distances
        np.zeros((L, N_MOVES, 3), dtype=np.int64),  # the children's inverse views' coset bounds
    )
    vnode = (  # cubies of the 3 axis views and their inverses' (flip, sorted slice, twist)
        np.zeros((L, 3, 8), dtype=np.int64),
        np.zeros((L, 3, 8), dtype=np.int64),
        np.zeros((L, 3, 12), dtype=np.int64),
        np.zeros((L, 3, 12), dtype=np.int64),
    )
    vinv = np.zeros((L, 3, 3), dtype=np.int64)
    view = (vnode[0], vnode[1], vnode[2], vnode[3], vinv)
    kinv = np.zeros((L, N_MOVES, 3, 3), dtype=np.int64)  # the children's inverse coordinates
    fl, ss, tw, hh, cp, hc, mv, forbid, ctop, hn, ilow = node
    scratch = (
        np.zeros(N_MOVES, dtype=np.int64),
        np.zeros(N_MOVES, dtype=np.int64),
        np.zeros(N_MOVES, dtype=np.int64),
        np.zeros(N_STAGES, dtype=np.int64),
    )
    faces = face_positions(inv[2][0], inv[2][2])
    have = np.zeros(3, dtype=np.int64)  # axes whose children's coordinates are computed
    work = (np.zeros(N_MOVES, dtype=np.int64), np.zeros(N_STAGES, dtype=np.int64), scratch, view, kinv, faces, have)
    h0 = hc0 if use_corners else 0
    root_low = np.full(3, -1, dtype=np.int64)  # the root's inverse view bounds
    for a in range(3):
        fl[0, a], ss[0, a], tw[0, a] = fl0[a], ss0[a], tw0[a]
        hh[0, a] = hh0[a] if a < n_axes and use_big else 0  # (without the big table's stages, 0 all along)
        h0 = max(h0, hh[0, a])
        ctop[0, a] = ctop0[a]
        hn[0, a] = hn0[a] if use_coset and a < n_axes else 0
        h0 = max(h0, hn[0, a])
        for x in range(4):
            for i in range(views[x].shape[1]):
                vnode[x][0, a, i] = views[x][a, i]
        if use_inverse:
            f, s, t = inverse_coords(inv, vnode[0][0, a], vnode[1][0, a], vnode[2][0, a], vnode[3][0, a])
            vinv[0, a, 0], vinv[0, a, 1], vinv[0, a, 2] = f, s, t
            root_low[a] = (
                _coset_bound_of(coset, inv, vnode[0][0, a], f, s, t) if coset_inv else _bound_of(big, inv, f, s, t)
            )
            h0 = max(h0, root_low[a])
            ilow[0, a] = root_low[a]
    cp[0], hc[0] = cp0, hc0
    solved0 = cp0 == 0 and fl0[0] == 0 and tw0[0] == 0 and ss0[0] == 0 and ss0[1] == 0 and ss0[2] == 0
    budget = (node_budget, time_limit, max_length)
    g, nodes, stop, bound = _ida_loop(tables, node, kids, view, kinv, work, flags, root_low, h0, solved0, budget)
    if g >= 0:
        return node[6][1 : g + 1].copy(), nodes, stop, bound
    return np.zeros(0, dtype=np.int64), nodes, stop, bound


@njit(cache=True, _nrt=False)
def _ida_loop(tables, node, kids, view, kinv, work, flags, root_low, h0, solved0, budget):
    """The IDA* iterations over the preallocated state: (solution length or -1, nodes, stop, bound).

    Compiled without numba's reference counting (_nrt=False): the helpers are inlined into this
    one loop and unpack ~80 arrays per node, whose increments and decrements cost more than the
    search (1.8x); allocating here is then a compile error, so nothing can leak.
    """
    node_budget, time_limit, max_length = budget
    n_axes, use_inverse, rules = flags[0], flags[2], flags[3]
    moves, inv = tables[1], tables[3]
    fl, ss, tw, hh, cp, hc, mv, forbid, ctop, hn, ilow = node
    nk, ki = kids[1], kids[8]
    nodes = np.int64(0)
    next_clock = CLOCK_EVERY
    deadline = _clock() + time_limit
    for bound in range(h0, min(max_length, MAX_DEPTH) + 1):
        if bound == 0:  # a projection at distance 0 need not be the solved cube
            if solved0:
                return 0, nodes, STOP_COMPLETE, bound
            continue
        g = 0
        forbid[0] = 0
        for a in range(3):
            if rules and root_low[a] == bound:
                forbid[0] |= 1 << a
        if rules and n_axes == N_AXES:
            full = True
            for a in range(3):
                if max(hh[0, a], hn[0, a]) != bound:
                    full = False
            if full:
                continue
        nodes += _expand(tables, node, kids, 0, bound, flags, work)
        while g >= 0:
            if ki[g] >= nk[g]:
                g -= 1
                continue
            m = kids[0][g, ki[g]]
            ki[g] += 1
            _descend(node, kids, g, m, inv, moves[4], view, kinv, use_inverse)
            g += 1
            if g == bound:
                return g, nodes, STOP_COMPLETE, bound
            nodes += _expand(tables, node, kids, g, bound, flags, work)
            if nodes >= next_clock:
                next_clock = nodes + CLOCK_EVERY
                if nodes >= node_budget:
                    return -1, nodes, STOP_NODES, bound
                if _clock() > deadline:
                    return -1, nodes, STOP_TIME, bound
    return -1, nodes, STOP_COMPLETE, -1
