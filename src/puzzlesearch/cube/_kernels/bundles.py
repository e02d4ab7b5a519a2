"""The bundles the cube's search kernels take: related arrays as one typing.NamedTuple each, declared once.

numba compiles a NamedTuple's attribute access like tuple indexing (also in the loops compiled
without reference counting, `_nrt=False`), so the kernels read `kids.hh[g, m, a]`, never
`kids[7][g, m, a]`. The Python side (tables/, solvers/) builds them; the kernels only read them.
The BFS kernels' bundles (the tables' builds) are in bfs_bundles.py.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# ------------------------------------------------------------------ table look-ups


class BigSearch(NamedTuple):
    """The big table and the move tables of its search (tables/big.py OptimalTable.search_data).

    The table's flip x slice value of a node is (ss // slice_div) * flip_mod + flip % flip_mod
    (flip_mod 1: a table without the flip); class_sym = class << 4 | symmetry.
    """

    class_sym: np.ndarray
    symidx: np.ndarray
    twist_conj: np.ndarray
    table: np.ndarray
    move_flip: np.ndarray
    move_ss: np.ndarray
    move_twist: np.ndarray
    move_cperm: np.ndarray
    axis_moves: np.ndarray  # axis_moves[a, m]: move m seen in axis view a
    slice_div: int
    flip_mod: int


class BigLookup(NamedTuple):
    """What a look-up of the big table needs (the search kernel's part of BigSearch)."""

    class_sym: np.ndarray
    twist_conj: np.ndarray
    table: np.ndarray
    slice_div: int
    flip_mod: int


class CosetLookup(NamedTuple):
    """The coset table: class_sym[ctop * 2187 + twist] = class << 4 | u; entry class * stride + column.

    large: the large variant (columns: sorted E slice x the flips of the positions that hold
    U/D-layer edges, ud_mask[slice]; entries are bounds, not mod 3); else the columns are E-slice
    positions x flip. Both conjugate the flip with flip_conj and flip_offset."""

    class_sym: np.ndarray
    table: np.ndarray
    slice_conj: np.ndarray
    flip_conj: np.ndarray
    flip_offset: np.ndarray
    n_flip: int
    stride: int
    large: bool
    ss_conj: np.ndarray  # 11,880 x 16 (large)
    ud_mask: np.ndarray  # 495: bit i set when position i holds a U/D-layer edge (large)


class CosetMoves(NamedTuple):
    """Move tables of the coset table's coordinates, for its exact start distance (coset_depth)."""

    ctop: np.ndarray
    twist: np.ndarray
    flip: np.ndarray
    eslice: np.ndarray


# ------------------------------------------------------------------ the optimal IDA* (_kernels/optimal_search.py)


class SearchMoves(NamedTuple):
    """Move tables of the search: flip, sorted slice, twist, corner permutation, the axis views' moves,
    and each corner permutation's exact face-turn distance (uint8 per permutation)."""

    flip: np.ndarray
    ss: np.ndarray
    twist: np.ndarray
    cperm: np.ndarray
    axis_moves: np.ndarray
    cperm_depth: np.ndarray


class CornerLookup(NamedTuple):
    """The exact corner table: index (cperm % n_cperm) * 2187 + twist (U-D view)."""

    table: np.ndarray
    n_cperm: int


class CubieMoves(NamedTuple):
    """The 18 moves on cubies (move x position), as in model/cubie.py."""

    cp: np.ndarray
    co: np.ndarray
    ep: np.ndarray
    eo: np.ndarray


class InverseLuts(NamedTuple):
    """Look-ups of the inverse coordinates: 3^corner, 2^edge, slice mask rank, 4-perm rank."""

    pow3: np.ndarray
    pow2: np.ndarray
    mask_rank: np.ndarray
    perm4: np.ndarray


class InverseData(NamedTuple):
    """The inverse look-ups: the big table's bound table, its entry -> lower bound map, cubie moves, luts."""

    bound: np.ndarray
    lower: np.ndarray
    cubie_moves: CubieMoves
    luts: InverseLuts


class CosetSearch(NamedTuple):
    """The coset table in the search: its look-up, the U-corner move table, its bound copy and map."""

    lookup: CosetLookup
    move_ctop: np.ndarray
    bound: np.ndarray
    lower: np.ndarray
    cmask_rank: np.ndarray


class KernelTables(NamedTuple):
    """Every table of one search."""

    big: BigLookup
    moves: SearchMoves
    corners: CornerLookup
    inv: InverseData
    coset: CosetSearch


class Start(NamedTuple):
    """The root: the 3 axis views' flip, sorted slice, twist and exact distances (each (3,)), the
    corner permutation and its distance, the views' U-corner positions and exact coset distances."""

    fl: np.ndarray
    ss: np.ndarray
    tw: np.ndarray
    hh: np.ndarray
    cp: int
    hc: int
    ctop: np.ndarray
    hn: np.ndarray


class Limits(NamedTuple):
    """Budgets and switches of one search."""

    node_budget: int
    time_limit: float
    max_length: int
    n_axes: int
    use_corners: bool
    use_inverse: bool
    axis_rules: bool
    use_coset: bool
    use_big: bool
    coset_inverse: bool
    cost: np.ndarray  # int64 (18,): what each move counts, 1 (HTM) or, a half turn, 2 (QTM)
    parity: int  # -1: every depth bound; 0 or 1: only bounds of this parity (QTM: the corner permutation's)
    progress: bool  # log each new depth bound of a long search (optimal_search.log_bound)
    order_from: int  # the first depth bound searched head by head, ordered by the last one's subtrees


class Budget(NamedTuple):
    """What ends the IDA* loop (nodes, seconds, length), the parity of the depth bounds it tries (-1: all),
    and whether it logs each new depth bound."""

    node_budget: int
    time_limit: float
    max_length: int
    parity: int
    progress: bool
    order_from: int


class Flags(NamedTuple):
    """The switches a node expansion reads (ud_bits: per move, the axis views where it is a U or D turn)."""

    n_axes: int
    use_corners: bool
    use_inverse: bool
    rules: bool
    ud_bits: np.ndarray
    use_coset: bool
    use_big: bool
    use_coset_inverse: bool
    cost: np.ndarray  # Limits.cost
    max_cost: int  # its largest value


class Node(NamedTuple):
    """The path's nodes by depth g: per axis view (L x 3) or per node (L,)."""

    fl: np.ndarray
    ss: np.ndarray
    tw: np.ndarray
    hh: np.ndarray  # exact big-table distance of each view
    cp: np.ndarray
    hc: np.ndarray  # corner-table distance
    mv: np.ndarray  # the move into depth g (-1 at the root)
    forbid: np.ndarray  # bits: axes ruled out as the next move
    ctop: np.ndarray  # U-corner positions of each view
    hn: np.ndarray  # exact coset distance of each view
    ilow: np.ndarray  # coset bound of each inverse view
    left: np.ndarray  # the budget left at depth g: the depth bound minus the path's cost (HTM: bound - g)


class Kids(NamedTuple):
    """The children of the node at each depth g, by move m (and axis view a)."""

    moves: np.ndarray  # (L, 18): the children kept, in move order
    count: np.ndarray  # (L,): how many
    fl: np.ndarray  # (L, 18, 3)
    ss: np.ndarray
    tw: np.ndarray
    cp: np.ndarray  # (L, 18)
    hc: np.ndarray
    hh: np.ndarray  # (L, 18, 3)
    next: np.ndarray  # (L,): the next child to descend into
    forbid: np.ndarray  # (L, 18)
    ctop: np.ndarray  # (L, 18, 3)
    hn: np.ndarray
    ilow: np.ndarray  # the inverse views' coset bounds


class View(NamedTuple):
    """Cubies of the 3 axis views by depth (L x 3 x 8 / 12) and their inverses' (flip, sorted slice, twist)."""

    cp: np.ndarray
    co: np.ndarray
    ep: np.ndarray
    eo: np.ndarray
    inv: np.ndarray


class Faces(NamedTuple):
    """Per move, the 4 corner and the 4 edge positions it changes."""

    corners: np.ndarray
    edges: np.ndarray


class Scratch(NamedTuple):
    """Per-expansion buffers: addresses, loaded values, twists, stage keys."""

    idx: np.ndarray
    val: np.ndarray
    tws: np.ndarray
    keys: np.ndarray


class Work(NamedTuple):
    """Buffers of a node expansion (allocated once per search)."""

    cand: np.ndarray
    order: np.ndarray
    scratch: Scratch
    view: View
    kinv: np.ndarray  # the children's inverse coordinates (L, 18, 3, 3)
    faces: Faces
    have: np.ndarray  # axes whose children's coordinates are computed


class Heads(NamedTuple):
    """The subtrees of a depth bound searched in order (optimal_search, "Ordered heads").

    A head is a path of HEAD_DEPTH moves from the root, coded sum(move_i * 18**i).
    """

    codes: np.ndarray  # this bound's heads, in depth-first order
    order: np.ndarray  # their search order (indexes into codes)
    tally: np.ndarray  # (18**HEAD_DEPTH,): nodes under each head in this bound
    prior: np.ndarray  # the same for the last bound searched head by head


class SearchState(NamedTuple):
    """The optimal IDA*'s preallocated state and switches (optimal_search.search_state); Python side only."""

    node: Node
    kids: Kids
    view: View
    kinv: np.ndarray
    work: Work
    flags: Flags
    budget: Budget
    heads: Heads


class Lows(NamedTuple):
    """The coset inverse stage's bounds: view bits of U-D moves, the nodes' and the children's."""

    ud_bits: np.ndarray
    ilow: np.ndarray
    cilow: np.ndarray


# ------------------------------------------------------------------ two-phase and Thistlethwaite (_kernels/phases.py)


class Phase1(NamedTuple):
    """Phase 1's tables: move tables, the move-mask table and its class look-ups."""

    twist: np.ndarray
    sslice: np.ndarray  # move_slice_sorted: E-slice positions * 24 + the E edges' order
    fsclass: np.ndarray  # sym_fsclass (the root's class)
    fsmove: np.ndarray  # (classes x 32) uint16: the class of the representative after move m (m < 18)
    fsmove_sym: np.ndarray  # (classes x 64) uint8, fsmove's bytes: the symmetry to it at FSMOVE_SYM_AT + m
    sym_mult: np.ndarray  # SYM_MULT[:16, :16]
    twistconj: np.ndarray  # sym_twistconj
    next: np.ndarray  # next_tp1 (uint32: distance and per-face move masks, _kernels/phase_next.py)
    move_conj: np.ndarray  # MOVE_CONJ[:16]: a raw state's move as a move of its class representative
    face_map: np.ndarray  # (16, 6): the representative's face of each raw face under the symmetry
    mirror: np.ndarray  # (16,): 1 if the symmetry reverses the turns (power p -> 2 - p)
    select: np.ndarray  # phase_next.select_table(): fitting powers by slack and face nibble
    after: np.ndarray  # (19,): bits of the moves allowed after move prev (index prev + 1; 0: the root)


class Phase2(NamedTuple):
    """Phase 2's tables: move tables, the three bounds, cubie edge moves, its 10 moves, class look-ups."""

    cperm: np.ndarray
    udedge: np.ndarray
    sliceperm: np.ndarray
    corner: np.ndarray  # tp2_corner
    edge: np.ndarray  # tp2_edge
    move_ep: np.ndarray  # cubie edge moves (18 x 12): the leaves replay the edges
    moves: np.ndarray  # the 10 phase-2 moves
    cpclass: np.ndarray  # sym_cpclass
    udconj: np.ndarray  # sym_udconj
    exact: np.ndarray  # tp2_sym


class Starts(NamedTuple):
    """The directions' start coordinates: twist, flip, sorted E slice (n,), corner and edge perms (n x 8, n x 12)."""

    twist: np.ndarray
    flip: np.ndarray
    sslice: np.ndarray
    cp: np.ndarray
    ep: np.ndarray


class TwoPhaseLimits(NamedTuple):
    """The two-phase search's limits; lengths in the metric whose per-move costs `cost` gives."""

    max_length: int
    target_length: int
    phase2_max: int
    node_budget: int
    min_nodes: int
    cost: np.ndarray  # int64 (18,): 1 a move (HTM), or 2 a half turn (QTM)


class LeafWork(NamedTuple):
    """Buffers of the phase-1 leaves, one row per direction: the edges after each prefix of the path, and how many rows are valid."""

    ep_path: np.ndarray  # (directions, L + 1, 12): [k, i], direction k's edges after its path's first i moves
    valid: np.ndarray  # (directions,): rows 0..valid[k] of direction k agree with its current path


class PreMoves(NamedTuple):
    """Two-phase's pre-move sequences (rows; row 0 the empty one): moves (P x MAX, -1 padded), lengths (P,).

    A direction with pre-moves q searches the cube Q * D (Q the cube after q from solved, D the
    direction's cube); its solutions are phase 1, phase 2, then q (solvers/twophase.py).
    """

    moves: np.ndarray
    length: np.ndarray


class TwoPhaseRun(NamedTuple):
    """One two-phase search's state: its best solution so far, phase 2's path and stack, its counters
    (phases.py's C_*), and the best total shared with the searches of the same cube on other threads."""

    best: np.ndarray
    path2: np.ndarray
    stack2: np.ndarray
    cnt: np.ndarray
    shared: np.ndarray


class Roots(NamedTuple):
    """Each direction's root, read once per cube (n,): next_tp1 entry, flip x slice class, symmetry, corner-perm rank (-1 until the direction's first round)."""

    entry: np.ndarray
    cls: np.ndarray
    sym: np.ndarray
    cperm: np.ndarray


class Phase1Work(NamedTuple):
    """Buffers of the interleaved phase-1 searches, one row per direction (k): each depth's children
    (k x depth x move x K_* column), their count, the next one, the path, the current depth (-1: done),
    this round's phase-1 length, the cost of the direction's pre-moves, its root; the directions still going."""

    kids: np.ndarray
    n_kids: np.ndarray
    next_kid: np.ndarray
    path: np.ndarray
    depth: np.ndarray
    length: np.ndarray
    pre_cost: np.ndarray
    roots: Roots
    live: np.ndarray
    leaf: LeafWork


class AxisSyms(NamedTuple):
    """The axis-turning symmetries of two-phase's directions (k x 8 / k x 12): model/symmetry.py's cubie action."""

    corner_map: np.ndarray
    corner_offset: np.ndarray
    corner_inv: np.ndarray  # argsort of corner_map
    edge_map: np.ndarray
    edge_offset: np.ndarray
    edge_inv: np.ndarray
    sign: np.ndarray  # (k,): -1 for a mirror (reverses the twist), else 1
