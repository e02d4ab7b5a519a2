"""Optimal solver: IDA* in the full cube group, bounded by symmetry-reduced pruning tables.

The big table (tables/big.py) gives the exact distance of a cube's (flip, E-slice edges,
twist) projection. Each node looks it up in the three axis orientations: the position
conjugated by the identity, by URF3 and by URF3^2 (each puts another axis on U-D), so
the bound is the largest of the three distances; the coset table (tables/coset.py) and the
inverse position's views (tables/bound.py, or the coset table's bound copy) bound it too. With
table full the coset table is the one of cube.optimal.coset_table: large (7.55 GB, read as bounds
in all six views; the default) or full (2.5 GB and its bound copy).
A node is solved when all three are 0, every slice's edges sit sorted at home and the
corner permutation is solved. Iterative deepening makes the first solution found a
shortest one: in face turns, or with options.metric "qtm" in quarter turns (a half turn costs 2;
the same face-turn tables bound it, the kernel's docstring says why each rule still holds).
With the coset table there the search reads the big table in no view (options.big is off: its
look-ups cost more than they cut), so the full variant is then neither built nor loaded; the
search takes its move tables from code (SearchTables.table None).
This module builds the kernel's bundles; the search is _kernels/optimal_search.py.
"""

from __future__ import annotations

import contextlib
import functools
import shlex
import time
from dataclasses import dataclass, field, replace

import numpy as np

from puzzlesearch import manifest, store
from puzzlesearch.cube._kernels import optimal_search
from puzzlesearch.cube._kernels.bfs_bundles import SymClassArrays
from puzzlesearch.cube._kernels.big_table import exact_depth
from puzzlesearch.cube._kernels.bundles import (
    BigLookup,
    CornerLookup,
    CosetSearch,
    CubieMoves,
    InverseData,
    InverseLuts,
    KernelTables,
    Limits,
    SearchMoves,
    Start,
)
from puzzlesearch.cube._kernels.coset import coset_depth, entry_of
from puzzlesearch.cube._kernels.optimal_search import compile_search, ida_search, search_loop
from puzzlesearch.cube.model.constants import N_CORNERS, N_EDGES, N_SLICE_PERM, N_TWIST, STOP_NAMES, Stop
from puzzlesearch.cube.model.coords import (
    CORNER_MASK_RANK,
    CPERM,
    CTOP,
    EDGE_MASK_RANK,
    FLIP,
    SLICE_SORTED,
    TWIST,
    all_perms,
    perm_rank,
)
from puzzlesearch.cube.model.cubie import MOVE_CO, MOVE_CP, MOVE_EO, MOVE_EP, CubieCube, parity
from puzzlesearch.cube.model.symmetry import AXIS_SYMS, conjugate
from puzzlesearch.cube.settings import OptimalOptions
from puzzlesearch.cube.solvers.twophase import move_costs
from puzzlesearch.cube.tables import coset as coset_tables
from puzzlesearch.cube.tables.artifact import TableKind, class_sym_of, code_sha256
from puzzlesearch.cube.tables.big import KIND as BIG_KIND
from puzzlesearch.cube.tables.big import OptimalTable, coord_tables, load_table, store_table, table_dir_of
from puzzlesearch.cube.tables.bound import KIND as BOUND_KIND
from puzzlesearch.cube.tables.bound import BoundTable, load_bound
from puzzlesearch.cube.tables.corners import CornerTable
from puzzlesearch.cube.tables.coset import CosetTable
from puzzlesearch.errors import PuzzleError
from puzzlesearch.jit import compile_ahead
from puzzlesearch.progress import log

__all__ = ["OptimalOptions", "OptimalResult", "SearchTables", "axis_coords", "search"]

MAX_LENGTH = 20  # God's number: every cube is solved within it
MAX_LENGTH_QTM = 26  # God's number in the quarter-turn metric (Rokicki, 2014)
# First use (the store lacks the full tables), in stages: each cube is first searched with the
# tiny coset table alone (~1 s to build) within QUICK_NODES (~1 s; a 12-move cube takes 0.1-1.1 M
# nodes, a 13-move one 1-3 M), then with the small table beside it (35 MB, ~8 s to build, built
# when a cube first needs it) within FIRST_USE_NODES (a 14-move cube takes ~0.7 M), and only a cube
# neither finishes builds the full tables.
QUICK_NODES = 5_000_000
FIRST_USE_VARIANT = "small"
FIRST_USE_NODES = 30_000_000
SMALL_BUILD = "35 MB, ~8 s to build"  # what the first-use lines say of the small table
COSET_BUILD = {  # what the first-use line says of each second table (cube.optimal.coset_table)
    "full": "coset_full (2 x 2.5 GB, ~20 min, ~7.5 GB peak)",
    "large": "coset_large (7.55 GB, ~7 min on 2 cores, ~7.6 GB peak)",
}


COSET_LOAD = {  # what loading each second table costs (benchmarks/RESULTS.md; the page cache decides)
    "full": "5 GB, ~10-15 s",
    "large": "7.55 GB, ~20 s",
}
COSET_MAP = {  # the same, mapped from the page cache (manifest.mapped_loads): the checksum pass, no copy
    "full": "5 GB, mapped, ~3 s",
    "large": "7.55 GB, mapped, ~8 s",
}
# Solving at most this many cubes, the coset table is mapped from the page cache instead of read
# into memory: its load takes ~8 s instead of 20-50 s, and each search 10-30% longer through 4 KB
# pages (benchmarks/RESULTS.md, "mapping the large coset table"); more cubes repay the copy.
MAPPED_UP_TO = 4


def maps_tables(n_cubes: int) -> bool:
    """True if a run solving n_cubes cubes maps its coset table rather than reading it (MAPPED_UP_TO)."""
    return n_cubes <= MAPPED_UP_TO


def _loading(mapped: bool):
    """The context a table load runs in: mapped (manifest.mapped_loads) or read into memory."""
    return manifest.mapped_loads() if mapped else contextlib.nullcontext()


def full_build_note(coset_table: str) -> str:
    """The first-use line: which full table is missing, how big, how long, how to build it ahead."""
    return (
        f"the full optimal table is not built yet: {COSET_BUILD[coset_table]}; build it ahead with "
        "`puzzlesearch cube build-tables --optimal` (into the store) or `snakemake --cores 2 cube_optimal_all` "
        "(then --tables results/cube/optimal/table_full)"
    )


@dataclass(frozen=True)
class OptimalResult:
    """One search: the moves (a shortest solution), nodes generated, what stopped it, seconds."""

    moves: tuple[int, ...]
    nodes: int
    stop: str
    seconds: float
    bound: int  # the last depth bound searched


def axis_coords(cube: CubieCube) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(flip, sorted slice, twist) of the cube conjugated to put each of the 3 axes on U-D."""
    cubes = [conjugate(cube, s) for s in AXIS_SYMS]
    fl = np.array([FLIP.of(c) for c in cubes], dtype=np.int64)
    ss = np.array([SLICE_SORTED.of(c) for c in cubes], dtype=np.int64)
    tw = np.array([TWIST.of(c) for c in cubes], dtype=np.int64)
    return fl, ss, tw


@dataclass(frozen=True)
class SearchTables:
    """The big table, its bound table (inverse look-ups), the exact corner table and the coset table, when there.

    table None: no big table; the coset table carries the search (options.big off, as by default).
    """

    table: OptimalTable | None
    bound: BoundTable | None = None  # for the inverse look-ups
    corners: CornerTable | None = None
    coset: CosetTable | None = None  # the second table: corner classes x flip x E-slice

    def __post_init__(self):
        if self.table is None and self.coset is None:
            raise ValueError("SearchTables needs the big table or the coset table")

    @property
    def variant(self) -> str:
        """The big table's variant, or (no big table) the coset table's."""
        return self.table.variant if self.table is not None else self.coset.variant

    def search_data(self):
        """The kernel's big-table bundle: the big table's, or (no big table) its move tables over one-entry stand-ins."""
        return (self.table or moves_only_table()).search_data()

    def reads_big(self, options: OptimalOptions) -> bool:
        """True if a search with these options looks the big table up (options.big, or no coset table to use)."""
        return bool(options.big or not (options.coset and self.coset is not None))


def search_tables_of(tables) -> SearchTables:
    """A SearchTables from itself or a bare OptimalTable (no other table)."""
    return tables if isinstance(tables, SearchTables) else SearchTables(tables)


@dataclass
class FirstUseTables:
    """The store's tables on first use: the tiny coset table now, the small table and then the full
    ones built when a cube first needs them (search: QUICK_NODES, then FIRST_USE_NODES)."""

    quick: SearchTables  # the first stage's tables (the store's: the tiny coset table alone)
    full_variant: str = "full"
    _small: SearchTables | None = field(default=None, repr=False)
    _full: SearchTables | None = field(default=None, repr=False)
    coset_table: str = field(default_factory=lambda: OptimalOptions().coset_table)  # the schema's default
    mapped: bool = False  # load the full tables mapped (maps_tables)

    def small(self) -> SearchTables:
        """The second stage's tables: the store's small table beside the tiny coset table (built now if missing)."""
        if self._small is None:
            if not stored(BIG_KIND, FIRST_USE_VARIANT):
                log(
                    "cube",
                    f"a cube needs more than {QUICK_NODES:,} nodes with the tiny coset table alone: "
                    f"adding the small table ({SMALL_BUILD})",
                )
            self._small = store_search_tables(FIRST_USE_VARIANT, self.coset_table)
        return self._small

    def full(self) -> SearchTables:
        """The store's full tables (built there now, with progress, if still missing)."""
        if self._full is None:
            log(
                "cube",
                f"a cube needs more than {FIRST_USE_NODES:,} nodes with the small table: building the full tables",
            )
            self._full = store_search_tables(self.full_variant, self.coset_table, self.mapped)
        return self._full


def search(cube: CubieCube, tables, options: OptimalOptions) -> OptimalResult:
    """A shortest solution, or a result whose stop says which budget ended the search.

    `tables`: SearchTables (or an OptimalTable alone, or FirstUseTables: the small table
    first, within FIRST_USE_NODES, then the full ones). The corner table is looked up when
    it is there and options.corners is on.
    """
    if isinstance(tables, FirstUseTables):
        if tables._full is None:
            stages = (
                (lambda: tables.quick, QUICK_NODES, False),
                # the small big table beside the tiny coset table: a 14-move cube in 0.7 M nodes
                # instead of 14-37 M with the tiny coset table alone (benchmarks/RESULTS.md)
                (tables.small, FIRST_USE_NODES, True),
            )
            if tables._small is not None:  # the second stage's tables are stronger: the first is no use
                stages = stages[1:]
            for stage_tables, nodes, big in stages:
                budget = min(options.node_budget, nodes)
                result = _search(cube, stage_tables(), replace(options, node_budget=budget, big=big))
                if result.stop == STOP_NAMES[Stop.COMPLETE] or options.node_budget <= nodes:
                    return result
        return _search(cube, tables.full(), options)
    return _search(cube, tables, options)


def _search(cube: CubieCube, tables, options: OptimalOptions) -> OptimalResult:
    """search() with one set of tables."""
    st = search_tables_of(tables)
    if st.table is None and st.reads_big(options):
        raise PuzzleError(
            "these optimal tables have no big table (optimal_full), and this search needs it "
            "(no coset table, or big look-ups asked for): build it with `puzzlesearch cube build-optimal-table full`"
        )
    coords = axis_coords(cube)
    data = st.search_data()
    use_corners = bool(options.corners and st.corners is not None)
    t0 = time.perf_counter()
    moves, nodes, stop, bound = _batched_search(cube, st, data, coords, options, use_corners)
    seconds = time.perf_counter() - t0
    if bound < 0 and not len(moves):
        what, command = (
            (f"coset table {st.variant}", f"build-optimal-coset {st.variant} --out-dir DIR")
            if st.table is None
            else (f"optimal table {st.variant} (or its coset table)", f"build-optimal-table {st.variant}")
        )
        raise PuzzleError(
            f"{what} gives no distance for this cube (damaged table?); rebuild it: puzzlesearch cube {command}"
        )
    return OptimalResult(tuple(int(m) for m in moves), int(nodes), STOP_NAMES[stop], seconds, int(bound))


@functools.lru_cache(maxsize=1)
def cperm_depths() -> np.ndarray:
    """Each corner permutation's exact face-turn distance (uint8), by BFS over the search's move table."""
    move_cperm = coord_tables().cperm
    depth = np.full(move_cperm.shape[0], -1, dtype=np.int64)
    depth[0] = 0
    front, d = np.zeros(1, dtype=np.int64), 0
    while len(front):
        d += 1
        reached = np.unique(move_cperm[front].ravel())
        front = reached[depth[reached] < 0]
        depth[front] = d
    return depth.astype(np.uint8)


@functools.lru_cache(maxsize=1)
def narrow_move_tables() -> tuple[np.ndarray, ...]:
    """The search's move tables (flip, sorted slice, twist, corner permutation: the big table's
    search_data takes them from coord_tables too) as uint16: every coordinate is below 2^16, and half
    the bytes of int32 keep more of them in cache (total CPU -7% over 20 random cubes,
    benchmarks/RESULTS.md, "move tables in 16 bits")."""
    ct = coord_tables()
    return tuple(a.astype(np.uint16) for a in (ct.flip, ct.slice_sorted, ct.twist, ct.cperm))


def search_moves(axis_moves: np.ndarray) -> SearchMoves:
    """The kernel's SearchMoves: the narrowed move tables, the axis views' moves, the corner permutations' distances."""
    return SearchMoves(*narrow_move_tables(), axis_moves, cperm_depths())


@functools.lru_cache(maxsize=1)
def inverse_luts() -> InverseLuts:
    """Look-up tables of the kernel's inverse_coords: 3^corner, 2^edge, slice mask rank, 4-perm rank."""
    pow3 = np.array([3**c if c < N_CORNERS - 1 else 0 for c in range(N_CORNERS)], dtype=np.int64)
    pow2 = np.array([1 << e if e < N_EDGES - 1 else 0 for e in range(N_EDGES)], dtype=np.int64)
    perms = all_perms(4)
    perm4 = np.zeros(256, dtype=np.int64)
    perm4[(perms << np.array([6, 4, 2, 0])).sum(axis=1)] = perm_rank(perms)
    return InverseLuts(pow3, pow2, EDGE_MASK_RANK.astype(np.int64), perm4)


def cubie_moves() -> CubieMoves:
    """The 18 moves on cubies, as the kernel takes them."""
    return CubieMoves(*(np.asarray(x, dtype=np.int64) for x in (MOVE_CP, MOVE_CO, MOVE_EP, MOVE_EO)))


def views(cube: CubieCube) -> tuple[np.ndarray, ...]:
    """Cubie states (cp, co, ep, eo; (3, 8) / (3, 12)) of the cube seen with each axis on U-D."""
    cubes = [conjugate(cube, s) for s in AXIS_SYMS]
    return tuple(np.array([getattr(c, k) for c in cubes], dtype=np.int64) for k in ("cp", "co", "ep", "eo"))


def _batched_search(cube: CubieCube, st: SearchTables, data, coords, options: OptimalOptions, use_corners: bool):
    """Run the kernel's ida_search: exact start distances, then IDA*."""
    args = kernel_args(cube, st, data, coords, options, use_corners)
    if args is None:  # a table without a distance for this cube
        return np.zeros(0, dtype=np.int64), 0, 0, -1
    return ida_search(*args)


def kernel_args(cube: CubieCube, st: SearchTables, data, coords, options: OptimalOptions, use_corners: bool):
    """ida_search's arguments (tables, start, views, limits), or None if a table has no distance for the cube."""
    fl, ss, tw = coords
    use_coset, coset, ctop0, hn0 = _coset_start(cube, st, options, coords)
    if use_coset and (hn0 < 0).any():
        return None
    hh = np.zeros(3, dtype=np.int64)  # the big table's exact distances, when the search reads it
    if st.reads_big(options):
        hh[: options.axes] = [exact_depth(data, fl[a], ss[a], tw[a], data.axis_moves[a]) for a in range(options.axes)]
    if (hh < 0).any():
        return None
    cp = CPERM.of(cube)
    corners = CornerLookup(st.corners.table, st.corners.n_cperm) if use_corners else _NO_CORNERS
    hc = int(corners.table[(cp % corners.n_cperm) * N_TWIST + TWIST.of(cube)]) if use_corners else 0
    coset_inverse = bool(use_coset and options.inverse and options.coset_inverse)
    use_inverse = bool(options.inverse and (st.bound is not None or coset_inverse))
    tables = _kernel_tables(data, corners, st.bound, coset)
    limits = _limits(options, use_corners, use_inverse, use_coset, coset_inverse, corner_parity(cube))
    return tables, Start(fl, ss, tw, hh, cp, hc, ctop0, hn0), views(cube), limits


_NO_CORNERS = CornerLookup(np.zeros(1, dtype=np.uint8), 1)  # (off: a stand-in of the corner table's type)


def _kernel_tables(data, corners: CornerLookup, bound: BoundTable | None, coset: CosetSearch) -> KernelTables:
    """The kernel's table bundles (without a bound table: a stand-in of its type, never read)."""
    bound_table = bound.table if bound is not None else np.zeros(1, dtype=np.uint8)
    lower = bound.lower if bound is not None else np.zeros(4, dtype=np.int64)
    inv = InverseData(bound_table, lower, cubie_moves(), inverse_luts())
    big = BigLookup(data.class_sym, data.twist_conj, data.table, data.slice_div, data.flip_mod)
    moves = search_moves(data.axis_moves)
    return KernelTables(big, moves, corners, inv, coset)


def _limits(options: OptimalOptions, use_corners, use_inverse, use_coset, coset_inverse, cube_parity: int) -> Limits:
    """The search's budgets and switches, of fixed types (an int time limit from YAML and a float one
    from a flag compile the same kernel)."""
    return Limits(
        int(options.node_budget),
        float(options.time_limit),
        int(MAX_LENGTH_QTM if options.metric == "qtm" else MAX_LENGTH),
        int(options.axes),
        bool(use_corners),
        bool(use_inverse),
        bool(options.axis_rules),
        bool(use_coset),
        bool(options.big or not use_coset),
        bool(coset_inverse),
        move_costs(options.metric),
        int(cube_parity) if options.metric == "qtm" else -1,
        bool(options.progress),
        int(optimal_search.ORDER_FROM),
    )


def stand_in_tables() -> KernelTables:
    """KernelTables of the loaded tables' types over one-entry stand-ins (the move tables real), to
    compile the search before its tables exist; tests check the types against real tables'."""
    return _kernel_tables(moves_only_table().search_data(), _NO_CORNERS, None, _no_coset(coset_tables.coset_tables()))


@functools.lru_cache(maxsize=1)
def moves_only_table() -> OptimalTable:
    """An OptimalTable of one-entry stand-ins: its search_data carries the real move tables, its look-ups nothing.

    The search of SearchTables without a big table, and the kernel's compile ahead of the tables, use it.
    """
    one = np.zeros(1, dtype=np.int32)
    classes = SymClassArrays(one, one, np.zeros(1, dtype=np.uint8), np.zeros(1, dtype=np.uint16))
    return OptimalTable("tiny", np.zeros(1, dtype=np.uint8), classes, {}, class_sym_of(classes))


def warm_up_search() -> None:
    """Compile the search kernel in a forked process while this one builds or loads its tables.

    The kernel's first compile takes ~14 CPU s; the child compiles it for the real tables' types
    (stand_in_tables) and leaves it in numba's cache for this process's first search
    (jit.compile_ahead); a cached kernel costs the child a load.
    """
    compile_ahead(search_loop(), lambda: compile_search(stand_in_tables(), stand_in_limits()))


def stand_in_limits() -> Limits:
    """Limits of the schema's defaults (every Limits has the same types)."""
    return _limits(OptimalOptions(), False, True, True, True, 0)


def corner_parity(cube: CubieCube) -> int:
    """The parity of the cube's corner permutation: every quarter turn flips it and a half turn keeps
    it, so every solution's QTM length has this parity (the QTM search tries only such bounds)."""
    return parity(cube.cp)


def _coset_start(cube: CubieCube, st: SearchTables, options: OptimalOptions, coords):
    """(use it, kernel bundle, U-corner positions and exact coset distance of each axis view)."""
    ct = coset_tables.coset_tables()
    use = bool(options.coset and st.coset is not None)
    ctop0 = np.array([CTOP.of(conjugate(cube, s)) for s in AXIS_SYMS], dtype=np.int64)
    if not use:
        return False, _no_coset(ct), ctop0, np.zeros(3, dtype=np.int64)
    lookup = st.coset.bundle()
    fl, ss, tw = coords
    if lookup.large:  # a bound table: its reading is the bound (no exact distance to track)
        hn0 = np.array([st.coset.lower[entry_of(lookup, ctop0[a], tw[a], fl[a], ss[a])] for a in range(3)])
    else:
        hn0 = np.array(
            [coset_depth(lookup, st.coset.moves(), ctop0[a], tw[a], fl[a], ss[a] // N_SLICE_PERM) for a in range(3)],
            dtype=np.int64,
        )
    return True, CosetSearch(lookup, ct.ctop, st.coset.bound, st.coset.lower, CORNER_MASK_RANK), ctop0, hn0


def _no_coset(ct) -> CosetSearch:
    """Coset look-ups off: one-entry stand-ins of the coset table's types (never read)."""
    empty = coset_tables.lookup_bundle(np.zeros(1, np.uint32), np.zeros(1, np.uint8), "tiny")
    return CosetSearch(empty, ct.ctop, np.zeros(1, np.uint8), np.zeros(4, np.int64), CORNER_MASK_RANK)


def budget_message(result: OptimalResult, options: OptimalOptions) -> str:
    """The one-line error of a search that ended before proving a shortest solution."""
    if result.stop == "time":
        limit, key = f"time cap of {options.time_limit:g} s", "cube.optimal.time_limit (--time-limit)"
    else:
        limit, key = f"node budget of {options.node_budget:,}", "cube.optimal.node_budget"
    return (
        f"optimal search reached its {limit} at depth bound {result.bound} "
        f"({result.nodes:,} nodes, no solution that short): raise config key {key}"
    )


def stored(kind: TableKind, variant: str) -> bool:
    """True if the store already holds this variant of a table kind (so loading it builds nothing)."""
    key = store.content_key(kind=kind.kind, code=code_sha256(kind.kind), variant=variant)
    return (store.store_root() / kind.store_folder / key / store.KEY_FILE).exists()


def full_stored(coset_table: str) -> bool:
    """True if the store holds the full search's table: the coset table of cube.optimal.coset_table."""
    return stored(coset_tables.KIND, coset_table)


def _load_note(coset_variant: str, where: str, mapped: bool) -> None:
    """Log the load of a full coset table (seconds to tens of seconds) before it starts."""
    cost = (COSET_MAP if mapped else COSET_LOAD)[coset_variant]
    log("cube", f"optimal: loading and checking {where} ({cost})")


def store_search_tables(variant: str, coset_table: str, mapped: bool = False, big: bool = True) -> SearchTables:
    """The store's tables of a variant (built there on first use): the coset table, and the big table but for full.

    The full search reads only the coset table (options.big off), so the full big table (~830 MB,
    ~20 min to build) is left out; the small one stays, for first use's second stage (searched with
    big on). big=False leaves it out too (first use's first stage). mapped: the coset table is
    mapped from the page cache (maps_tables).
    """
    coset_variant = coset_tables.variant_for(variant, coset_table)
    if coset_variant in COSET_BUILD and stored(coset_tables.KIND, coset_variant):  # (a build logs its own progress)
        _load_note(coset_variant, f"the store's coset_{coset_variant}", mapped)
    with _loading(mapped):
        coset = coset_tables.store_table(coset_variant)
    return SearchTables(store_table(variant) if big and variant != "full" else None, coset=coset)


def search_tables(table_dir, variant: str, coset_table: str, mapped: bool = False):
    """The solver's SearchTables: --tables DIR (verified, never built) or the store's.

    With the coset table (in the folder, or the store's) the search reads only it (the inverse
    views in its bound copy), so neither the big table nor its bound table is loaded, nor needed
    in the folder; without it, the big table and its bound table when the folder has one, else a
    logged note and no inverse look-ups. The search kernel compiles in a forked process meanwhile
    (warm_up_search). mapped: the coset table is mapped from the page cache (maps_tables).
    """
    warm_up_search()
    if table_dir is None:
        if variant == "full" and not full_stored(coset_table):
            log(
                "cube",
                f"first use of --solver optimal: {full_build_note(coset_table)}; meanwhile each cube is tried with the "
                f"tiny coset table ({QUICK_NODES:,} nodes, enough for most inputs up to ~12 moves), then with the "
                f"small table beside it ({SMALL_BUILD}; {FIRST_USE_NODES:,} nodes, ~14 moves, or ~15 quarter turns "
                "with --metric qtm)",
            )
            quick = store_search_tables(FIRST_USE_VARIANT, coset_table, big=False)  # the tiny coset table alone
            staged = FirstUseTables(quick, variant, coset_table=coset_table, mapped=mapped)
            if stored(BIG_KIND, FIRST_USE_VARIANT):  # a cube before needed it: load it now (35 MB)
                staged.small()
            return staged
        return store_search_tables(variant, coset_table, mapped)
    coset_variant = coset_tables.variant_for(variant, coset_table)
    d = table_dir_of(table_dir)
    if coset_tables.present(d, coset_variant):
        if coset_variant in COSET_BUILD:
            _load_note(coset_variant, f"coset_{coset_variant} in {d}", mapped)
        with _loading(mapped):
            return SearchTables(None, coset=coset_tables.load_table(d, coset_variant))
    q = shlex.quote(str(d))  # the suggested commands stay right for a folder with a space or a quote
    add_coset = f"`puzzlesearch cube build-optimal-coset {coset_variant} --out-dir {q}`"
    if not BIG_KIND.present(d, variant):
        raise PuzzleError(
            f"{d} holds no optimal table: the search reads the coset table {coset_variant} ({add_coset} builds it), "
            f"or without it the big table {variant} (`puzzlesearch cube build-optimal-table {variant} --out-dir {q}`)"
        )
    big = load_table(table_dir, variant)
    log("cube", f"no coset table in {d}: coset look-ups off ({add_coset} adds it)")
    if not BOUND_KIND.present(d, variant):
        log(
            "cube",
            f"no bound table in {d}: inverse look-ups off "
            f"(`puzzlesearch cube build-optimal-bound {variant} --tables {q}` adds it)",
        )
        return SearchTables(big)
    return SearchTables(big, load_bound(d, big))
