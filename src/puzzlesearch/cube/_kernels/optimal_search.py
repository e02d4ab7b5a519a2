"""numba IDA* of the optimal solver: two heuristics, children looked up in batches.

Heuristics (the bound is the largest): the flip x sorted-slice x twist table (2 bits mod 3,
exact distances tracked along the path) in the three axis orientations, and the exact
corner table (tables/corners.py). A node's children are tested stage by stage, the stage of
the largest parent distance first (the tight one prunes most; the corner table, one memory
access instead of two, first among equals): each stage computes every surviving child's
address, then loads them all, then filters, so the loads of up to 15 children overlap
instead of waiting for each other. Children stay in move order, so below ORDER_FROM the first
solution found is the same one as move-by-move IDA* finds (baselines/cube_optimal_moves.py).

Near the leaves (a budget left within the corner permutation's diameter, CPERM_DIAMETER), the
candidates first pass the corner permutation's exact distance (SearchMoves.cperm_depth, 40,320
bytes, in cache): the large coset table reads every entry within 9 moves as 0, so below that
budget its look-ups cut nothing, and without this filter the last levels held up to 38% of a
search's nodes (benchmarks/RESULTS.md, "the corner permutation near the leaves").

Axis rules (Flags.rules; the table's goal group holds every U and D turn, so a table distance
d in one axis view means no path of exactly d moves to that goal ends with a turn of that
view's U-D axis; Reid, de Bondt, Rokicki's nxopt):
- forward: a child whose three axis distances all equal its remaining depth r is cut (each
  axis is ruled out as the last move, so r moves are not enough: the (x,x,x) -> x+1 rule);
- inverse: the inverse position's solutions are the reversed inverted ones, so an inverse
  view bound equal to r rules that axis out as the child's next move (FORBID bits, carried
  into the node); all three ruled out cuts the child.

Ordered heads (Heads; from Rokicki's nxopt): IDA* ends in the first solution of its last depth
bound, and that bound costs most of a search (about 13 times the bound before it), so where in
it a solution lies decides the time. From depth bound ORDER_FROM on, a bound is searched by heads,
the root's descendants HEAD_DEPTH moves down: their subtrees are searched one after another, most
nodes in the bound before first, ties and a first such bound in depth-first order. A subtree
whose bound before was searched longest is the likeliest to hold a solution of this one (nxopt
also divides a head's nodes by the share of move sequences its last face leaves; on the first 20
random cubes that took 2% more nodes, so it is left out). The order
changes which solution of the last bound comes first, never its length: every bound before it
is searched in full. A bound lists its heads depth first (the same children as a plain pass),
then replays each one from the root, expanding only the path below the moves it shares with the
head before (a listed head is kept again: the same node, budget and forbidden axes).

Bundles (_kernels/bundles.py, built in solvers/optimal.py): KernelTables (BigLookup,
SearchMoves, CornerLookup, InverseData, CosetSearch), Start, Limits; the search state is a
Node, Kids, View, Work and Heads of preallocated arrays.

The coset table (corner classes x flip x E-slice, tables/coset.py) is a second heuristic in the
three axis views (stages 4..6); its goal group also holds every U and D turn, so an axis's
distance for the axis rules is the larger of its two tables'. Its large variant (CosetLookup.large)
holds bounds, not distances mod 3: a child's reading is its bound (_keep_bound), in the axis
views as in the inverse's; the axis rules need only "at least r", which a bound gives.

Metrics (Limits.cost: every move 1 in HTM; in QTM a half turn 2, one of the 18 moves still):
node.left[g] is the budget left at depth g, the depth bound minus the path's cost, and a child
of move m has r = left - cost[m] left (HTM: bound - g - 1, so HTM searches as before, node for
node). The tables hold face-turn distances. A path's face-turn length never exceeds its
quarter-turn cost, so each distance is a lower bound of the QTM distance too, and each rule
stays valid with a QTM budget r:
- bounds: a child lives if every bound is at most r; a child whose move spends the whole
  budget (r = 0) lives only if it is the solved cube (_solves), and only such a child ends
  the search;
- mod-3 decoding: one move, a half turn included, changes a projection's face-turn distance
  by at most 1, whatever it costs;
- forward rule (three views all equal to r -> cut): a solution costing at most r has at most
  r moves and at least r (the views' distance), so exactly r, and its last move's axis has a
  view at most r - 1. In QTM its premise "face-turn length = r" holds because a bound equal
  to the QTM budget forces every remaining move to be a quarter turn; nothing assumes it
  otherwise;
- inverse rule (an inverse view equal to r rules its axis out as the next move; all three
  cut): a solution starting on that axis has at least bound + 1 = r + 1 moves, more than a
  QTM cost of r allows;
- the coset inverse stage's "a U or D turn of the view keeps its parent's bound" is a fact
  about positions, not costs;
- move-sequence pruning (no face twice in a row, opposite faces in one order): two turns of
  one face merge into one that costs no more quarter turns (U U = U2 at 2, U U2 = U' at 1,
  U2 U2 = nothing) and opposite faces commute at the same cost, so every QTM-shortest solution
  has a form the search makes; "U U" is the move U2 of cost 2;
- QTM depth bounds of the wrong parity are skipped (Limits.parity): a quarter turn is an odd
  corner permutation and a half turn an even one, so every solution's QTM length has the
  parity of the cube's corner permutation.
"""

from __future__ import annotations

import numpy as np
from numba import njit, objmode

from puzzlesearch.cube._kernels.bundles import (
    Budget,
    Faces,
    Flags,
    Heads,
    Kids,
    Lows,
    Node,
    Scratch,
    SearchState,
    View,
    Work,
)
from puzzlesearch.cube._kernels.common import clock, next_depth
from puzzlesearch.cube._kernels.coset import coset_index
from puzzlesearch.cube.model.constants import N_MOVES, N_TWIST, Stop
from puzzlesearch.jit import call_kernel, compile_once
from puzzlesearch.progress import log

CLOCK_EVERY = 1 << 20  # nodes between looks at the clock
MAX_DEPTH = 26  # IDA* never goes deeper (God's number: 20 face turns, 26 quarter turns)
CORNER_STAGE = 3  # stage ids 0..2: the axes; 3: the corner table; 4..6: the coset table's axes
COSET_STAGE = 4
N_STAGES = 7
N_AXES = 3
ALL_AXES = (1 << N_AXES) - 1  # every axis ruled out as the next move: no path of that length
CPERM_DIAMETER = 7  # the largest face-turn distance of a corner permutation (tests check it by BFS)
HEAD_DEPTH = 4  # moves in a head, the root's descendants a bound is searched by (nxopt's TOPSIZE)
N_HEAD_CODES = N_MOVES**HEAD_DEPTH
ORDER_FROM = 12  # the first depth bound searched head by head (a random cube's root reads 13-14 on the large table)
PLAIN, COLLECT, REPLAY, SUBTREE = 0, 1, 2, 3  # _ida_loop's phases within one depth bound


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
def _corner_stage(corners, moves, node, kids, cand, n, g, togo, cost, scratch):
    """Keep the candidates whose corner distance fits in the budget togo - cost[m] left after them; the number kept."""
    ctable, n_cperm = corners.table, corners.n_cperm
    move_twist, move_cperm = moves.twist, moves.cperm
    tw, cp = node.tw, node.cp
    ccp, chc = kids.cp, kids.hc
    idx, val = scratch.idx, scratch.val
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
        if val[k] + cost[cand[k]] <= togo:
            chc[g, cand[k]] = val[k]
            cand[j] = cand[k]
            j += 1
    return j


@njit(cache=True, inline="always")
def _cperm_filter(moves, node, kids, cand, n, g, togo, cost):
    """Keep the candidates whose corner permutation's distance fits in the budget left after them; the number kept."""
    move_cperm, depth = moves.cperm, moves.cperm_depth
    cp = node.cp[g]
    j = 0
    for k in range(n):
        m = cand[k]
        c2 = move_cperm[cp, m]
        if depth[c2] + cost[m] <= togo:
            kids.cp[g, m] = c2
            cand[j] = m
            j += 1
    return j


@njit(cache=True, inline="always")
def _axis_coords(moves, node, kids, cand, n, g, a):
    """The candidates' flip, sorted slice and twist seen in axis a (no look-up)."""
    move_flip, move_ss, move_twist, axis_moves = moves.flip, moves.ss, moves.twist, moves.axis_moves
    fl, ss, tw = node.fl, node.ss, node.tw
    cf, cs, ct = kids.fl, kids.ss, kids.tw
    for k in range(n):
        m = cand[k]
        mm = axis_moves[a, m]
        cf[g, m, a] = move_flip[fl[g, a], mm]
        cs[g, m, a] = move_ss[ss[g, a], mm]
        ct[g, m, a] = move_twist[tw[g, a], mm]


@njit(cache=True, inline="always")
def _keep(val, idx, h, togo, cost, cand, n, out, g, a):
    """Keep the candidates whose distance, decoded from the parent's h and their loaded byte, fits in the
    budget togo - cost[m] left after them (HTM, every cost 1: below togo).

    The distances kept go to out[g, m, a]; returns the number kept (in order, in cand).
    """
    j = 0
    for k in range(n):
        h2 = next_depth(h, (val[k] >> ((idx[k] & 3) << 1)) & 3)
        if h2 + cost[cand[k]] <= togo:
            out[g, cand[k], a] = h2
            cand[j] = cand[k]
            j += 1
    return j


@njit(cache=True, inline="always")
def _keep_bound(val, idx, lower, togo, cost, cand, n, out, g, a):
    """As _keep, with each candidate's bound read from its entry by the table's map lower (no parent)."""
    j = 0
    for k in range(n):
        h2 = lower[(val[k] >> ((idx[k] & 3) << 1)) & 3]
        if h2 + cost[cand[k]] <= togo:
            out[g, cand[k], a] = h2
            cand[j] = cand[k]
            j += 1
    return j


@njit(cache=True, inline="always")
def _axis_stage(big, moves, node, kids, cand, n, g, a, togo, cost, scratch, have):
    """Keep the candidates whose axis-a distance fits in the budget left after them; the number kept."""
    class_sym, twist_conj, table, slice_div, flip_mod = big
    cf, cs, ct = kids.fl, kids.ss, kids.tw
    idx, val = scratch.idx, scratch.val
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
    return _keep(val, idx, node.hh[g, a], togo, cost, cand, n, kids.hh, g, a)


@njit(cache=True, inline="always")
def _coset_stage(coset, moves, node, kids, cand, n, g, a, togo, cost, scratch, have):
    """Keep the candidates whose axis-a coset distance fits in the budget left after them; the number kept."""
    lookup, move_ctop = coset.lookup, coset.move_ctop
    class_sym, table = lookup.class_sym, lookup.table
    axis_moves = moves.axis_moves
    cf, cs, ct, cct = kids.fl, kids.ss, kids.tw, kids.ctop
    idx, val = scratch.idx, scratch.val
    if not have[a]:
        _axis_coords(moves, node, kids, cand, n, g, a)
        have[a] = 1
    for k in range(n):
        m = cand[k]
        c2 = move_ctop[node.ctop[g, a], axis_moves[a, m]]
        cct[g, m, a] = c2
        idx[k] = c2 * N_TWIST + ct[g, m, a]
    for k in range(n):
        val[k] = class_sym[idx[k]]
    for k in range(n):
        m = cand[k]
        idx[k] = coset_index(lookup, val[k], cs[g, m, a], cf[g, m, a])
    for k in range(n):
        val[k] = table[idx[k] >> 2]
    if lookup.large:  # entries are lower bounds (coset.lower), not distances mod 3
        return _keep_bound(val, idx, coset.lower, togo, cost, cand, n, kids.hn, g, a)
    return _keep(val, idx, node.hn[g, a], togo, cost, cand, n, kids.hn, g, a)


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
    return Faces(fc, fe)


@njit(cache=True, inline="always")
def _child_inverse(inv, faces, view, g, a, mm):
    """(flip, sorted slice, twist) of the inverse of child mm of the depth-g view a, from the parent's.

    Only the turned face's 4 corners and 4 edges change: their terms of the inverse's twist and
    flip are swapped; the sorted slice is ranked from the child's edges at positions 8..11.
    """
    mcp, mco, mep, meo = inv.cubie_moves
    pow3, pow2, mask_rank, perm4 = inv.luts
    vcp, vco, vep, veo, vinv = view
    fc, fe = faces.corners, faces.edges
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
    pow3, pow2, mask_rank, perm4 = inv.luts
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
    c = np.int64(big.class_sym[(ss // big.slice_div) * big.flip_mod + fl % big.flip_mod])
    i = (c >> 4) * big.twist_conj.shape[0] + big.twist_conj[tw, c & 15]
    return inv.lower[(inv.bound[i >> 2] >> ((i & 3) << 1)) & 3]


@njit(cache=True)
def _coset_bound_of(coset, cp, fl, ss, tw):
    """Lower bound of one inverse view from the coset table's bound copy (cp: the view's corners)."""
    lookup = coset.lookup
    mask = 0
    for i in range(4):
        mask |= 1 << cp[i]
    i = coset_index(lookup, np.int64(lookup.class_sym[coset.cmask_rank[mask] * N_TWIST + tw]), ss, fl)
    return coset.lower[(coset.bound[i >> 2] >> ((i & 3) << 1)) & 3]


@njit(cache=True, inline="always")
def _admit(forbid, g, m, a, low, rest, rules):
    """True if an inverse view's bound low lets child m live with the budget rest left after it; with
    the axis rules, a bound of exactly rest rules axis a out as its next move (all three ruled out: no)."""
    if low > rest:
        return False
    if rules and low == rest:  # no path of rest moves (nor of rest quarter turns) starts on this axis
        forbid[g, m] |= 1 << a
        if forbid[g, m] == ALL_AXES:
            return False
    return True


@njit(cache=True, inline="always")
def _inverse_stage(big, moves, inv, faces, view, kinv, forbid, cand, n, g, a, togo, cost, rules, scratch):
    """Keep the candidates whose inverse, seen in axis a, has a bound within the budget togo - cost[m]
    left after them; the number kept.

    With the axis rules, a bound of exactly that budget rules axis a out as the child's next move.

    Parameters
    ----------
    big : the big table's arrays (class_sym, twist_conj, slice_div, flip_mod); moves : the move tables.
    inv : the inverse cube's state and bound table (inv.bound, inv.lower); faces, view : the axis views.
    kinv : out, the children's inverse coordinates per (depth g, move, axis).
    forbid : out, per child the axes its next move may not turn (the axis rules).
    cand, n : the candidate moves and how many there are; kept ones are compacted to the front.
    g : the depth; a : the axis (view) looked at; togo : the moves left; cost : each move's cost (htm/qtm).
    rules : whether the axis rules apply; scratch : preallocated look-up arrays (idx, val, tws).
    """
    class_sym, twist_conj, slice_div, flip_mod = big.class_sym, big.twist_conj, big.slice_div, big.flip_mod
    btable, lower = inv.bound, inv.lower
    axis_moves = moves.axis_moves
    idx, val, tws = scratch.idx, scratch.val, scratch.tws
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
        if _admit(forbid, g, m, a, lower[(val[k] >> ((idx[k] & 3) << 1)) & 3], togo - cost[m], rules):
            cand[j] = m
            j += 1
    return j


@njit(cache=True, inline="always")
def _coset_inverse_stage(coset, moves, inv, faces, view, kinv, forbid, cand, n, g, a, togo, cost, rules, scratch, lows):
    """As _inverse_stage, with the inverse's views looked up in the coset table's bound copy.

    A move that is a U or D turn in view a leaves that inverse view's coset as it was (the
    move lands in front of the inverse's solution, inside the table's group; nxopt): its
    bound is the parent's, with no look-up. lows = (view bits of U-D moves, the nodes' bounds,
    the children's bounds).

    Parameters
    ----------
    coset : the coset table's arrays (lookup, bound, lower, cmask_rank); the others as _inverse_stage.
    """
    ud_bits, ilow, cilow = lows
    lookup, cbound, clower, cmask_rank = coset.lookup, coset.bound, coset.lower, coset.cmask_rank
    class_sym = lookup.class_sym
    mcp = inv.cubie_moves.cp
    vcp = view.cp
    axis_moves = moves.axis_moves
    idx, val = scratch.idx, scratch.val
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
        idx[k] = coset_index(lookup, np.int64(class_sym[cmask_rank[mask] * N_TWIST + tw]), ss, fl)
    for k in range(n):
        if idx[k] >= 0:
            val[k] = cbound[idx[k] >> 2]
    j = 0
    for k in range(n):
        m = cand[k]
        low = ilow[g, a] if idx[k] < 0 else clower[(val[k] >> ((idx[k] & 3) << 1)) & 3]
        cilow[g, m, a] = low
        if _admit(forbid, g, m, a, low, togo - cost[m], rules):
            cand[j] = m
            j += 1
    return j


@njit(cache=True, inline="always")
def _solves(moves, node, g, m):
    """True if move m solves the node at depth g (move tables only: the last level)."""
    fl, ss, tw, cp = node.fl, node.ss, node.tw, node.cp
    if moves.cperm[cp[g], m] != 0 or moves.flip[fl[g, 0], m] != 0 or moves.twist[tw[g, 0], m] != 0:
        return False
    for a in range(3):
        if moves.ss[ss[g, a], moves.axis_moves[a, m]] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _forward_rule(kids, cand, n, g, togo, cost, use_coset):
    """Drop the candidates whose three axis distances all equal the budget rest = togo - cost[m] left
    after them (the (x,x,x) -> x+1 rule).

    An axis's distance is the larger of its two tables' (both never exceed rest here).
    """
    ch, chn = kids.hh, kids.hn
    j = 0
    for k in range(n):
        m = cand[k]
        rest = togo - cost[m]
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
def _candidates(moves, node, g, flags, cand):
    """The moves out of the node at depth g that fit in its budget left, into cand: (generated, n, last).

    generated: the children generated (counted as nodes); n: those in cand still to be checked
    against the bounds; last: the move that spends the whole budget and solves the node, or -1
    (at most one does; such a child is the solved cube and needs no look-up).
    """
    cost, ud_bits = flags.cost, flags.ud_bits
    prev = node.mv[g]
    forbid = node.forbid[g]
    togo = node.left[g]
    n = 0
    for m in range(N_MOVES):
        if prev >= 0:
            f, pf = m // 3, prev // 3
            if f == pf or f + 3 == pf:
                continue
        if forbid & ud_bits[m]:
            continue
        if cost[m] > togo:  # (QTM: a half turn with one quarter turn left)
            continue
        cand[n] = m
        n += 1
    generated = n
    last = -1
    if togo <= flags.max_cost:  # (HTM: togo 1, every child must be solved)
        j = 0
        for k in range(n):
            m = cand[k]
            if cost[m] < togo:
                cand[j] = m
                j += 1
            elif _solves(moves, node, g, m):
                last = m
        n = j
    return generated, n, last


@njit(cache=True, inline="always")
def _forward_stages(tables, node, kids, g, flags, work, n):
    """Keep the n candidates whose children are within their budget left by every forward bound; returns n kept."""
    big, moves, corners, _, coset = tables
    cost = flags.cost
    cand, order, scratch, _, _, _, have = work
    togo = node.left[g]
    if n > 0 and togo - flags.max_cost < CPERM_DIAMETER:  # a child may have fewer moves left than the diameter
        n = _cperm_filter(moves, node, kids, cand, n, g, togo, cost)
    if n == 0:
        return n
    n_stages = _stage_order(
        node.hh,
        node.hc,
        node.hn,
        g,
        flags.n_axes,
        flags.use_corners,
        flags.use_coset,
        flags.use_big,
        order,
        scratch.keys,
    )
    have[0], have[1], have[2] = 0, 0, 0
    for i in range(n_stages):
        if n == 0:
            break
        s = order[i]
        if s == CORNER_STAGE:
            n = _corner_stage(corners, moves, node, kids, cand, n, g, togo, cost, scratch)
        elif s >= COSET_STAGE:
            n = _coset_stage(coset, moves, node, kids, cand, n, g, s - COSET_STAGE, togo, cost, scratch, have)
        else:
            n = _axis_stage(big, moves, node, kids, cand, n, g, s, togo, cost, scratch, have)
    if n > 0 and flags.rules and flags.n_axes == N_AXES:
        n = _forward_rule(kids, cand, n, g, togo, cost, flags.use_coset)
    return n


@njit(cache=True, inline="always")
def _inverse_stages(tables, node, kids, g, flags, work, n):
    """Keep the n candidates whose children's inverses are within their budget left (when looked up); returns n kept."""
    big, moves, _, inv, coset = tables
    if n == 0 or not flags.use_inverse:
        return n
    cost, rules = flags.cost, flags.rules
    cand, _, scratch, view, kinv, faces, _ = work
    togo = node.left[g]
    for k in range(n):
        kids.forbid[g, cand[k]] = 0
    for a in range(3):
        if n == 0:
            break
        if flags.use_coset_inverse:
            lows = Lows(flags.ud_bits, node.ilow, kids.ilow)
            n = _coset_inverse_stage(
                coset, moves, inv, faces, view, kinv, kids.forbid, cand, n, g, a, togo, cost, rules, scratch, lows
            )
        else:
            n = _inverse_stage(
                big, moves, inv, faces, view, kinv, kids.forbid, cand, n, g, a, togo, cost, rules, scratch
            )
    return n


@njit(cache=True, inline="always")
def _list_children(tables, node, kids, g, flags, cand, n, last):
    """List the n kept candidates (their coordinates completed) and the solving move last, in move order."""
    moves = tables.moves
    if n > 0:
        for a in range(flags.n_axes, 3):  # axes not looked up: coordinates only (the solved test)
            _axis_coords(moves, node, kids, cand, n, g, a)
        if not flags.use_corners:
            for k in range(n):
                kids.cp[g, cand[k]] = moves.cperm[node.cp[g], cand[k]]
    j = 0
    for k in range(n):
        if 0 <= last < cand[k]:
            kids.moves[g, j] = last
            j += 1
            last = -1
        kids.moves[g, j] = cand[k]
        j += 1
    if last >= 0:
        kids.moves[g, j] = last
        j += 1
    kids.count[g] = j
    kids.next[g] = 0


@njit(cache=True, inline="always")
def _descend(node, kids, g, m, inv, axis_moves, view, kinv, use_inverse, cost):
    """Copy child m of the node at depth g into depth g + 1 (with the inverse: its views' cubies)."""
    fl, ss, tw, hh, cp, hc, mv = node.fl, node.ss, node.tw, node.hh, node.cp, node.hc, node.mv
    cf, cs, ct, ccp, chc, ch = kids.fl, kids.ss, kids.tw, kids.cp, kids.hc, kids.hh
    for a in range(3):
        fl[g + 1, a], ss[g + 1, a], tw[g + 1, a], hh[g + 1, a] = cf[g, m, a], cs[g, m, a], ct[g, m, a], ch[g, m, a]
    cp[g + 1], hc[g + 1], mv[g + 1] = ccp[g, m], chc[g, m], m
    node.left[g + 1] = node.left[g] - cost[m]
    for a in range(3):
        node.ctop[g + 1, a], node.hn[g + 1, a] = kids.ctop[g, m, a], kids.hn[g, m, a]
    if use_inverse:
        mcp, mco, mep, meo = inv.cubie_moves
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
        node.forbid[g + 1] = kids.forbid[g, m]
        for a in range(3):
            node.ilow[g + 1, a] = kids.ilow[g, m, a]


def search_state(tables, limits) -> SearchState:
    """The search's preallocated state and switches (no look-up: the root is set by ida_search)."""
    inv = tables.inv
    use_corners, use_inverse, use_coset, use_big = (
        limits.use_corners,
        limits.use_inverse,
        limits.use_coset,
        limits.use_big,
    )
    n_axes, coset_inv = limits.n_axes, limits.coset_inverse
    flags = Flags(
        n_axes,
        use_corners,
        use_inverse,
        limits.axis_rules,
        view_ud_bits(tables.moves.axis_moves),
        use_coset,
        use_big,
        coset_inv,
        limits.cost,
        limits.cost.max(),
    )
    L = MAX_DEPTH + 1
    node = Node(
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.full(L, -1, dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros((L, 3), dtype=np.int64),
        np.zeros(L, dtype=np.int64),
    )
    kids = Kids(
        np.zeros((L, N_MOVES), dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES), dtype=np.int64),
        np.zeros((L, N_MOVES), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros(L, dtype=np.int64),
        np.zeros((L, N_MOVES), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
        np.zeros((L, N_MOVES, 3), dtype=np.int64),
    )
    view = View(
        np.zeros((L, 3, 8), dtype=np.int64),
        np.zeros((L, 3, 8), dtype=np.int64),
        np.zeros((L, 3, 12), dtype=np.int64),
        np.zeros((L, 3, 12), dtype=np.int64),
        np.zeros((L, 3, 3), dtype=np.int64),
    )
    kinv = np.zeros((L, N_MOVES, 3, 3), dtype=np.int64)
    scratch = Scratch(
        np.zeros(N_MOVES, dtype=np.int64),
        np.zeros(N_MOVES, dtype=np.int64),
        np.zeros(N_MOVES, dtype=np.int64),
        np.zeros(N_STAGES, dtype=np.int64),
    )
    faces = face_positions(inv.cubie_moves.cp, inv.cubie_moves.ep)
    have = np.zeros(3, dtype=np.int64)
    work = Work(np.zeros(N_MOVES, dtype=np.int64), np.zeros(N_STAGES, dtype=np.int64), scratch, view, kinv, faces, have)
    budget = Budget(
        limits.node_budget, limits.time_limit, limits.max_length, limits.parity, limits.progress, limits.order_from
    )
    return SearchState(node, kids, view, kinv, work, flags, budget, search_heads(limits.order_from))


def compile_search(tables, limits) -> None:
    """Compile (or load from numba's cache) the IDA* loop for these bundles' types; searches nothing.

    The tables may be stand-ins of the real ones' types (solvers/optimal.py warm_up_search):
    only the types are read.
    """
    state = search_state(tables, limits)
    compile_once(_ida_loop, *_loop_args(tables, state, np.full(3, -1, dtype=np.int64), 0, False))


def search_loop():
    """The compiled IDA* loop (jit.compile_ahead compiles it ahead of the first search)."""
    return _ida_loop


def _loop_args(tables, state, root_low, h0, solved0) -> tuple:
    """_ida_loop's arguments, in its order."""
    s = state
    return (
        tables,
        s.node,
        s.kids,
        s.view,
        s.kinv,
        s.work,
        s.flags,
        s.heads,
        root_low,
        int(h0),
        bool(solved0),
        s.budget,
    )


def ida_search(tables, start, views, limits):
    """IDA* over the full cube: (moves, nodes, stop, depth bound reached).

    tables: KernelTables; start: Start (the 3 axis views' coordinates and exact distances, the
    corner permutation and its distance, the views' U-corner positions and coset distances);
    views = the cubie state (cp, co, ep, eo; (3, 8) / (3, 12)) of each axis view (for the
    inverse look-ups); limits: Limits. Nodes are counted as children generated, as in the
    move-by-move baseline (baselines/cube_optimal_moves.py), so the two kernels' counts compare.

    Plain Python: it allocates the search state and computes the root's bounds, then runs the
    compiled loop (_ida_loop); compiled as well, it cost ~6 s of the kernel's first compile.
    """
    state = search_state(tables, limits)
    node, view = state.node, state.view
    inv, coset = tables.inv, tables.coset
    use_corners, use_inverse, use_coset = limits.use_corners, limits.use_inverse, limits.use_coset
    use_big, n_axes, coset_inv = limits.use_big, limits.n_axes, limits.coset_inverse
    cp0, co0, ep0, eo0 = views
    h0 = start.hc if use_corners else 0
    root_low = np.full(3, -1, dtype=np.int64)  # the root's inverse view bounds
    for a in range(3):
        node.fl[0, a], node.ss[0, a], node.tw[0, a] = start.fl[a], start.ss[a], start.tw[a]
        node.hh[0, a] = start.hh[a] if a < n_axes and use_big else 0  # (without the big table's stages, 0 all along)
        h0 = max(h0, node.hh[0, a])
        node.ctop[0, a] = start.ctop[a]
        node.hn[0, a] = start.hn[a] if use_coset and a < n_axes else 0
        h0 = max(h0, node.hn[0, a])
        view.cp[0, a, :] = cp0[a]
        view.co[0, a, :] = co0[a]
        view.ep[0, a, :] = ep0[a]
        view.eo[0, a, :] = eo0[a]
        if use_inverse:
            f, s, t = inverse_coords(inv, view.cp[0, a], view.co[0, a], view.ep[0, a], view.eo[0, a])
            view.inv[0, a, 0], view.inv[0, a, 1], view.inv[0, a, 2] = f, s, t
            root_low[a] = (
                _coset_bound_of(coset, view.cp[0, a], f, s, t) if coset_inv else _bound_of(tables.big, inv, f, s, t)
            )
            h0 = max(h0, root_low[a])
            node.ilow[0, a] = root_low[a]
    node.cp[0], node.hc[0] = start.cp, start.hc
    fl0, ss0 = start.fl, start.ss
    solved0 = start.cp == 0 and fl0[0] == 0 and start.tw[0] == 0 and ss0[0] == 0 and ss0[1] == 0 and ss0[2] == 0
    args = _loop_args(tables, state, root_low, h0, solved0)
    compile_once(_ida_loop, *args)  # ~14 CPU s the first time: one process of a machine compiles it
    g, nodes, stop, bound = call_kernel(_ida_loop, *args)  # (a Ctrl-C inside: KeyboardInterrupt)
    if g >= 0:
        return node.mv[1 : g + 1].copy(), nodes, stop, bound
    return np.zeros(0, dtype=np.int64), nodes, stop, bound


def search_heads(order_from: int) -> Heads:
    """The ordered heads' preallocated arrays (tally and prior zero: the first ordered bound keeps depth-first order)."""
    if order_from <= HEAD_DEPTH:
        raise ValueError(f"order_from must exceed HEAD_DEPTH ({HEAD_DEPTH}): a head must not be a leaf")
    return Heads(
        np.zeros(N_HEAD_CODES, dtype=np.int64),
        np.zeros(N_HEAD_CODES, dtype=np.int64),
        np.zeros(N_HEAD_CODES, dtype=np.int64),
        np.zeros(N_HEAD_CODES, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _head_code(mv, m, depth):
    """The code of the head mv[1..depth-1] then m: sum of move_i * 18**i."""
    code = 0
    scale = 1
    for i in range(1, depth):
        code += mv[i] * scale
        scale *= N_MOVES
    return code + m * scale


@njit(cache=True, inline="always")
def _head_move(code, g):
    """A head's move out of depth g."""
    for _ in range(g):
        code //= N_MOVES
    return code % N_MOVES


@njit(cache=True, inline="always")
def _shared_moves(a, b):
    """How many first moves two heads share."""
    k = 0
    while k < HEAD_DEPTH and a % N_MOVES == b % N_MOVES:
        a //= N_MOVES
        b //= N_MOVES
        k += 1
    return k


@njit(cache=True, inline="always")
def _before(prior, codes, x, y):
    """True if listed head x is searched before y: more nodes in the bound before, then depth-first order."""
    px, py = prior[codes[x]], prior[codes[y]]
    return px > py or (px == py and x < y)


@njit(cache=True, inline="always")
def _sift(order, prior, codes, root, end):
    """Restore the heap order[root:end] below root (the head searched last on top)."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and _before(prior, codes, order[child], order[child + 1]):
            child += 1
        if not _before(prior, codes, order[root], order[child]):
            return
        order[root], order[child] = order[child], order[root]
        root = child


@njit(cache=True, inline="always")
def order_heads(heads, n):
    """Sort the n listed heads into heads.order: most nodes under them in the last ordered bound first.

    Ties, and a first ordered bound (all zero), keep depth-first order. A heapsort in place: no
    allocation.
    """
    codes, order, prior = heads.codes, heads.order, heads.prior
    for k in range(n):
        order[k] = k
    for root in range(n // 2 - 1, -1, -1):
        _sift(order, prior, codes, root, n)
    for end in range(n - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift(order, prior, codes, 0, end)


@njit(cache=True, inline="always")
def _keep_tally(heads, n):
    """After a bound without a solution: its nodes per head become the prior of the next."""
    tally, prior, codes = heads.tally, heads.prior, heads.codes
    for c in range(prior.shape[0]):
        prior[c] = 0
    for k in range(n):
        c = codes[k]
        prior[c] = tally[c]
        tally[c] = 0


PROGRESS_AFTER = 2.0  # seconds: a search shorter than this logs no depth bounds


def log_bound(bound: int, nodes: int, seconds: float) -> None:
    """The progress line of a new depth bound (Limits.progress), once the search has run PROGRESS_AFTER seconds."""
    if seconds >= PROGRESS_AFTER:
        log("cube", f"optimal: no solution shorter than {bound}; searching {bound} ({nodes:,} nodes, {seconds:.1f} s)")


@njit(cache=True)
def _report_bound(bound, nodes, seconds):
    """log_bound from the compiled loop (object mode: once per depth bound)."""
    with objmode():
        log_bound(bound, nodes, seconds)


@njit(cache=True, _nrt=False)
def _ida_loop(tables, node, kids, view, kinv, work, flags, heads, root_low, h0, solved0, budget):
    """The IDA* iterations over the preallocated state: (solution length or -1, nodes, stop, bound).

    From depth bound budget.order_from on, a bound is searched head by head (module docstring,
    "Ordered heads"): COLLECT lists the heads depth first, then each head in turn is replayed
    from the root (REPLAY, reusing the children listed along the path it shares with the head
    before) and its subtree searched (SUBTREE). Below that bound: one depth-first pass (PLAIN).

    Compiled without numba's reference counting (_nrt=False): the helpers are inlined into this
    one loop and unpack ~80 arrays per node, whose increments and decrements cost more than the
    search (1.8x); allocating here is then a compile error, so nothing can leak.
    """
    node_budget, time_limit, max_length, parity, progress, order_from = budget
    n_axes, rules = flags.n_axes, flags.rules
    hh, hn, forbid = node.hh, node.hn, node.forbid
    count, nxt = kids.count, kids.next
    nodes = np.int64(0)
    next_clock = CLOCK_EVERY
    start = clock()
    deadline = start + time_limit
    for bound in range(h0, min(max_length, MAX_DEPTH) + 1):
        if parity >= 0 and bound % 2 != parity:  # (QTM: every solution's length has the cube's parity)
            continue
        if progress and bound > h0:
            _report_bound(bound, nodes, clock() - start)
        if bound == 0:  # a projection at distance 0 need not be the solved cube
            if solved0:
                return 0, nodes, Stop.COMPLETE, bound
            continue
        g = 0
        node.left[0] = bound
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
        phase = COLLECT if bound >= order_from else PLAIN
        floor = 0  # the depth-first search backs up no further than this depth (SUBTREE: the head's)
        n_heads, cur, head_start = 0, 0, nodes
        fresh = True  # the node at depth g is still to expand
        while True:  # (one call site of each expansion step: their inlined bodies are the bulk of the compile)
            if fresh:  # expand the node at depth g: list its children that fit in its budget left
                generated, n, last = _candidates(tables.moves, node, g, flags, work.cand)
                n = _forward_stages(tables, node, kids, g, flags, work, n)
                n = _inverse_stages(tables, node, kids, g, flags, work, n)
                _list_children(tables, node, kids, g, flags, work.cand, n, last)
                nodes += generated
                if nodes >= next_clock:
                    next_clock = nodes + CLOCK_EVERY
                    if nodes >= node_budget:
                        return -1, nodes, Stop.NODES, bound
                    if clock() > deadline:
                        return -1, nodes, Stop.TIME, bound
            fresh = True
            if phase == REPLAY:  # the head's move out of depth g (kept: the same node and budget as in COLLECT)
                m = _head_move(heads.codes[heads.order[cur]], g)
            else:
                if phase == COLLECT and g == HEAD_DEPTH - 1:  # list the children as heads, descend into none
                    for k in range(count[g]):
                        heads.codes[n_heads] = _head_code(node.mv, kids.moves[g, k], HEAD_DEPTH)
                        n_heads += 1
                    nxt[g] = count[g]
                while g >= floor and nxt[g] >= count[g]:
                    g -= 1
                if g < floor:
                    if phase == PLAIN or (phase == COLLECT and n_heads == 0):
                        break
                    if phase == COLLECT:
                        order_heads(heads, n_heads)
                        cur, g = 0, 0  # the root's children are listed; deeper ones belong to the last path listed
                    else:  # a head's subtree is searched
                        code = heads.codes[heads.order[cur]]
                        heads.tally[code] += nodes - head_start
                        cur += 1
                        if cur == n_heads:
                            break
                        g = _shared_moves(code, heads.codes[heads.order[cur]])  # the children listed there still hold
                    phase, floor, fresh = REPLAY, 0, False
                    continue
                m = kids.moves[g, nxt[g]]
                nxt[g] += 1
            _descend(node, kids, g, m, tables.inv, tables.moves.axis_moves, view, kinv, flags.use_inverse, flags.cost)
            g += 1
            if node.left[g] == 0:  # (only a solving child spends the whole budget)
                return g, nodes, Stop.COMPLETE, bound
            if phase == REPLAY and g == HEAD_DEPTH:
                phase, floor, head_start = SUBTREE, HEAD_DEPTH, nodes
        if phase != PLAIN:
            _keep_tally(heads, n_heads)
    return -1, nodes, Stop.COMPLETE, -1
