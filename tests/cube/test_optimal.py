"""The optimal solver: shortest answers checked against a plain meet-in-the-middle BFS over
full cube states, pruning-table entries against a plain BFS over the table's coordinates,
published symmetry-class counts, damaged tables. The solver runs on the `tiny` table here
(the big one takes tens of minutes to build); the superflip (optimal 20 moves) is the
optional long check `benchmarks/cube_optimal_bench.py --superflip` (needs the full table).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzlesearch.cli import main
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import ESLICE, TWIST, apply_move, solved_arrays
from puzzlesearch.cube.model.cubie import SOLVED, parse_moves
from puzzlesearch.cube.settings import OptimalOptions
from puzzlesearch.cube.solve import solve_cube
from puzzlesearch.cube.tables.big import EXPECTED_CLASSES, build_table, load_table, table_path
from puzzlesearch.manifest import ArtifactError

OPTIONS = OptimalOptions(table="tiny", time_limit=600)


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    """The tiny table (E-slice positions x twist classes), built once for the module."""
    folder = tmp_path_factory.mktemp("optimal_tiny")
    build_table("tiny", folder)
    return folder


@pytest.fixture(scope="module")
def tiny(tiny_dir):
    return load_table(tiny_dir, "tiny")


# ------------------------------------------------------------------ independent BFS helpers


def _keys(arrays) -> list[tuple[int, int]]:
    """A hashable key per state: corners (cubie * 3 + twist) and edges (cubie * 2 + flip), base 24."""
    cp, co, ep, eo = arrays
    corner = cp * 3 + co  # 0..23
    edge = ep * 2 + eo  # 0..23
    kc = (corner * (24 ** np.arange(8))).sum(axis=1)
    ke = (edge * (24 ** np.arange(12, dtype=np.int64))).sum(axis=1)
    return list(zip(kc.tolist(), ke.tolist()))


def _expand(frontier, seen: dict, level: int, moves=range(K.N_MOVES)):
    """States one of `moves` from the frontier not seen yet (marked with `level`); their keys."""
    new_rows, new_keys = [], set()
    for m in moves:
        nxt = apply_move(frontier, m)
        for i, key in enumerate(_keys(nxt)):
            if key not in seen and key not in new_keys:
                new_keys.add(key)
                new_rows.append(tuple(a[i] for a in nxt))
    for key in new_keys:
        seen[key] = level
    arrays = tuple(np.array([r[k] for r in new_rows]) for k in range(4))
    return arrays, new_keys


def meet_in_the_middle_distance(cube, limit: int = 8, moves=range(K.N_MOVES)) -> int:
    """Distance from solved in words of `moves` (default all 18) by BFS from both ends over full
    cube states (grow the smaller side)."""
    start = tuple(np.array([x]) for x in (cube.cp, cube.co, cube.ep, cube.eo))
    ends = [[start, {_keys(start)[0]: 0}, 0], [solved_arrays(1), {_keys(solved_arrays(1))[0]: 0}, 0]]
    if set(ends[0][1]) & set(ends[1][1]):
        return 0
    while ends[0][2] + ends[1][2] < limit:
        side, other = sorted(ends, key=lambda e: len(e[0][0]))
        side[2] += 1
        side[0], new_keys = _expand(side[0], side[1], side[2], moves)
        met = [other[1][k] for k in new_keys if k in other[1]]
        if met:
            return side[2] + min(met)
    raise AssertionError(f"no meeting within {limit} moves")


def scramble(rng: random.Random, n: int) -> list[int]:
    """n moves, no face twice in a row and opposite faces in one order (no obvious cancelling)."""
    moves: list[int] = []
    while len(moves) < n:
        m = rng.randrange(K.N_MOVES)
        if moves and (m // 3 == moves[-1] // 3 or m // 3 + 3 == moves[-1] // 3):
            continue
        moves.append(m)
    return moves


# ------------------------------------------------------------------ tests


def test_meet_in_the_middle_helper_on_known_cubes():
    assert meet_in_the_middle_distance(SOLVED.apply(parse_moves("R U R' U'"))) == 4
    assert meet_in_the_middle_distance(SOLVED.apply(parse_moves("R L"))) == 2
    assert meet_in_the_middle_distance(SOLVED.apply(parse_moves("R R'"))) == 0


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5, 6, 7])
def test_short_scrambles_match_bidirectional_bfs(tiny, length):
    rng = random.Random(1400 + length)
    for _ in range(2):
        cube = SOLVED.apply(scramble(rng, length))
        solution = solve_cube(cube, tiny, "optimal", OPTIONS)
        assert cube.apply(solution.moves).is_solved
        assert len(solution.moves) == meet_in_the_middle_distance(cube), cube
        assert solution.nodes is not None and solution.nodes >= len(solution.moves)


@pytest.mark.parametrize("length", [8, 9, 10])
def test_longer_scrambles_no_longer_than_the_scramble(tiny, length):
    rng = random.Random(2400 + length)
    for _ in range(3):
        cube = SOLVED.apply(scramble(rng, length))
        solution = solve_cube(cube, tiny, "optimal", OPTIONS)
        assert cube.apply(solution.moves).is_solved
        assert len(solution.moves) <= length


def test_solved_cube_needs_no_moves(tiny):
    solution = solve_cube(SOLVED, tiny, "optimal", OPTIONS)
    assert solution.moves == () and solution.stopped_by == "solved"


def _coordinate_bfs() -> np.ndarray:
    """Distances over (E-slice positions, twist) under all 18 moves, by plain BFS (-1: unreached)."""
    move_e = _move_table(ESLICE)
    move_t = _move_table(TWIST)
    n_t = K.N_TWIST
    dist = np.full(K.N_SLICE * n_t, -1, dtype=np.int64)
    start = ESLICE.of(SOLVED) * n_t + TWIST.of(SOLVED)
    dist[start] = 0
    frontier, depth = np.array([start]), 0
    while len(frontier):
        depth += 1
        e, t = frontier // n_t, frontier % n_t
        for m in range(K.N_MOVES):
            nxt = move_e[e, m] * n_t + move_t[t, m]
            dist[nxt[dist[nxt] < 0]] = depth
        frontier = np.flatnonzero(dist == depth)
    return dist


def _move_table(coord) -> np.ndarray:
    """Coordinate after each move, from cubie representatives (plain numpy)."""
    reps = coord.decode()
    return np.stack([coord.encode(apply_move(reps, m)) for m in range(K.N_MOVES)], axis=1)


def test_table_entries_equal_bfs_distances(tiny):
    from puzzlesearch.cube._kernels.big_table import exact_depth

    dist = _coordinate_bfs()
    assert (dist >= 0).all()
    data = tiny.search_data()
    rng = np.random.default_rng(14)
    sample = np.concatenate(
        [
            rng.choice(np.flatnonzero(dist == d), min(40, int((dist == d).sum())), replace=False)
            for d in range(int(dist.max()) + 1)
        ]
    )
    identity = data.axis_moves[0]
    for x in sample:
        e, t = divmod(int(x), K.N_TWIST)
        assert exact_depth(data, 0, e * K.N_SLICE_PERM, t, identity) == dist[x]
    assert tiny.meta["max_depth"] == dist.max()


def test_class_counts_match_published_figures():
    """Phase-1 flip x slice classes (64,430) and flip x sorted-slice classes (1,523,864), Kociemba."""
    from puzzlesearch.cube.tables.big import build_classes

    assert EXPECTED_CLASSES["small"] == 64_430 and EXPECTED_CLASSES["full"] == 1_523_864
    classes = build_classes("small")  # raises if the count differs
    assert len(classes.rep) == 64_430
    fs = classes.rep
    assert (classes.classidx[fs] == np.arange(len(fs))).all() and (classes.symidx[fs] == 0).all()


def test_damaged_table_is_one_line_naming_the_file(tiny_dir, tmp_path):
    import shutil

    copy = tmp_path / "tables"
    shutil.copytree(tiny_dir, copy)
    path = table_path(copy, "tiny")
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ArtifactError) as err:
        load_table(copy, "tiny")
    message = str(err.value)
    assert "\n" not in message and str(path) in message


def test_missing_table_names_the_build_command(tmp_path):
    with pytest.raises(Exception) as err:
        load_table(tmp_path, "tiny")
    assert "build-optimal-table tiny" in str(err.value)


def test_cli_solves_optimally(tiny_dir, capsys):
    code = main(
        ["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(tiny_dir), "R U2 F'"]
    )
    out, _ = capsys.readouterr()
    assert code == 0
    answer = out.strip()
    assert len(parse_moves(answer)) == 3
    assert SOLVED.apply(parse_moves("R U2 F'")).apply(parse_moves(answer)).is_solved


# ------------------------------------------------------------------ bound table, inverse look-ups, corner table


@pytest.fixture(scope="module")
def tiny_bound(tiny, tmp_path_factory):
    """The tiny table's bound table (near entries marked), built once for the module."""
    from puzzlesearch.cube.tables.bound import build_bound, load_bound

    folder = tmp_path_factory.mktemp("optimal_tiny_bound")
    build_bound(tiny, folder)  # raises if its near levels disagree with the table's distribution
    return load_bound(folder, tiny)


def test_inverse_coordinates_equal_those_of_the_inverse_cube():
    from puzzlesearch.cube._kernels.bundles import InverseData
    from puzzlesearch.cube._kernels.optimal_search import inverse_coords
    from puzzlesearch.cube.solvers.optimal import axis_coords, inverse_luts, views

    rng = random.Random(1414)
    inv = InverseData(np.zeros(1, np.uint8), np.zeros(4, np.int64), None, inverse_luts())
    for _ in range(50):
        cube = SOLVED.apply([rng.randrange(K.N_MOVES) for _ in range(30)])
        view = views(cube)
        fl, ss, tw = axis_coords(cube.inverse())  # CubieCube.inverse: independent of the kernel
        for a in range(3):
            assert inverse_coords(inv, *(v[a] for v in view)) == (fl[a], ss[a], tw[a])


def test_incremental_inverse_coordinates_of_children():
    """The kernel's per-child update (only the turned face's cubies) = the inverse of the child cube."""
    from puzzlesearch.cube._kernels.bundles import InverseData, View
    from puzzlesearch.cube._kernels.optimal_search import _child_inverse, face_positions, inverse_coords
    from puzzlesearch.cube.model.symmetry import MOVE_CONJ, SYM_MULT, URF3
    from puzzlesearch.cube.solvers.optimal import axis_coords, cubie_moves, inverse_luts, views

    rng = random.Random(1415)
    moves = cubie_moves()
    inv = InverseData(np.zeros(1, np.uint8), np.zeros(4, np.int64), moves, inverse_luts())
    faces = face_positions(moves.cp, moves.ep)
    axis_moves = np.array([MOVE_CONJ[s] for s in (0, URF3, int(SYM_MULT[URF3, URF3]))], dtype=np.int64)
    for _ in range(20):
        cube = SOLVED.apply([rng.randrange(K.N_MOVES) for _ in range(30)])
        state = views(cube)
        vinv = np.array([[inverse_coords(inv, *(v[a] for v in state))] for a in range(3)], dtype=np.int64)
        view = View(*(v[None] for v in state), vinv.reshape(1, 3, 3))
        for m in range(K.N_MOVES):
            fl, ss, tw = axis_coords(cube.apply([m]).inverse())
            for a in range(3):
                assert _child_inverse(inv, faces, view, 0, a, axis_moves[a, m]) == (fl[a], ss[a], tw[a])


def test_bound_table_is_a_lower_bound_exact_above_near(tiny, tiny_bound):
    from puzzlesearch.cube._kernels.bundles import BigLookup, InverseData
    from puzzlesearch.cube._kernels.optimal_search import _bound_of
    from puzzlesearch.cube.solvers.optimal import inverse_luts

    dist = _coordinate_bfs()
    data = tiny.search_data()
    big = BigLookup(data.class_sym, data.twist_conj, data.table, data.slice_div, data.flip_mod)
    inv = InverseData(tiny_bound.table, tiny_bound.lower, None, inverse_luts())
    near = tiny_bound.meta["near_depth"]
    for x in range(0, len(dist), 7):
        e, t = divmod(x, K.N_TWIST)
        lower = _bound_of(big, inv, 0, e * K.N_SLICE_PERM, t)
        assert lower == (0 if dist[x] <= near else dist[x] if dist[x] <= near + 3 else lower)
        assert lower <= dist[x]


@pytest.mark.parametrize("length", [4, 5, 6])
def test_inverse_look_ups_keep_answers_optimal(tiny, tiny_bound, length):
    from puzzlesearch.baselines import cube_optimal_moves
    from puzzlesearch.cube.solvers.optimal import SearchTables, search

    tables = SearchTables(tiny, tiny_bound)
    rng = random.Random(3400 + length)
    for _ in range(2):
        cube = SOLVED.apply(scramble(rng, length))
        with_inverse = search(cube, tables, OPTIONS)
        plain = cube_optimal_moves.search(cube, tiny, OPTIONS)  # the replaced move-by-move kernel, no inverse
        assert cube.apply(with_inverse.moves).is_solved
        assert len(with_inverse.moves) == meet_in_the_middle_distance(cube)
        assert with_inverse.moves == plain.moves  # same depth-first order: the same first solution
        assert with_inverse.nodes <= plain.nodes + K.N_MOVES * length


def test_corner_table_tiny_equals_twist_bfs(tmp_path):
    from puzzlesearch.cube.tables.corners import build_table as build_corners
    from puzzlesearch.cube.tables.corners import load_corners

    build_corners("tiny", tmp_path)
    corners = load_corners(tmp_path, "tiny")
    move_t = _move_table(TWIST)
    dist = np.full(K.N_TWIST, -1)
    dist[0], frontier, depth = 0, np.array([0]), 0
    while len(frontier):
        depth += 1
        for m in range(K.N_MOVES):
            nxt = move_t[frontier, m]
            dist[nxt[dist[nxt] < 0]] = depth
        frontier = np.flatnonzero(dist == depth)
    assert (corners.table == dist).all()


def test_cli_bound_table_built_used_and_checked(tiny_dir, tmp_path, capsys, caplog):
    import logging
    import shutil

    from puzzlesearch.cube.tables.bound import bound_path

    copy = tmp_path / "tables"
    shutil.copytree(tiny_dir, copy)
    solve = ["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(copy)]
    scramble = "R U2 F' L D"
    with caplog.at_level(logging.INFO):
        assert main([*solve, scramble]) == 0  # no bound table yet: solved without inverse look-ups, said so
    assert "inverse look-ups off" in caplog.text
    assert main(["cube", "build-optimal-bound", "tiny", "--tables", str(copy)]) == 0
    capsys.readouterr()
    assert main([*solve, scramble]) == 0
    answer = parse_moves(capsys.readouterr().out.strip())
    assert SOLVED.apply(parse_moves(scramble)).apply(answer).is_solved and len(answer) <= 5
    path = bound_path(copy, "tiny")
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    assert main([*solve, scramble]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("puzzlesearch: error")]
    assert len(errors) == 1 and str(path) in errors[0]  # (progress lines may come before it)


def test_corner_permutation_depths_match_a_bfs_over_cubie_permutations():
    """The near-leaf filter's table (solvers/optimal.cperm_depths, a BFS over the coordinate move table)
    equals a BFS over corner permutation arrays turned by the cubie model, and its largest distance is
    the kernel's CPERM_DIAMETER."""
    from puzzlesearch.cube._kernels.optimal_search import CPERM_DIAMETER
    from puzzlesearch.cube.model.coords import perm_rank
    from puzzlesearch.cube.solvers.optimal import cperm_depths

    want = np.full(K.N_CPERM, -1, dtype=np.int64)
    frontier = solved_arrays(1)[0]
    want[perm_rank(frontier)] = 0
    level = 0
    while len(frontier):
        level += 1
        _, co, ep, eo = solved_arrays(len(frontier))  # (the other cubies: apply_move's shapes; only cp is kept)
        turned = np.concatenate([apply_move((frontier, co, ep, eo), m)[0] for m in range(K.N_MOVES)])
        turned = np.unique(turned, axis=0)
        ranks = perm_rank(turned)
        frontier = turned[want[ranks] < 0]
        want[perm_rank(frontier)] = level
    assert (want >= 0).all()
    got = cperm_depths()
    assert got.dtype == np.uint8 and (got.astype(np.int64) == want).all()
    assert want.max() == CPERM_DIAMETER


def test_the_searchs_uint16_move_tables_equal_the_coordinate_move_tables():
    """The kernel's move tables are narrowed to 16 bits (a cache footprint half that of int32):
    every value survives the narrowing, for all four coordinates."""
    from puzzlesearch.cube.solvers.optimal import narrow_move_tables
    from puzzlesearch.cube.tables.big import coord_tables

    ct = coord_tables()
    for narrow, wide in zip(narrow_move_tables(), (ct.flip, ct.slice_sorted, ct.twist, ct.cperm)):
        assert narrow.dtype == np.uint16 and narrow.shape == wide.shape
        assert wide.min() >= 0 and (narrow.astype(np.int64) == wide).all()


# ------------------------------------------------------------------ ordered heads (optimal_search)


def test_heads_are_ordered_by_the_last_bounds_nodes_then_depth_first():
    from puzzlesearch.cube._kernels.optimal_search import HEAD_DEPTH, N_HEAD_CODES, order_heads, search_heads

    heads = search_heads(HEAD_DEPTH + 1)
    rng = np.random.default_rng(41)
    n = 700
    heads.codes[:n] = rng.choice(N_HEAD_CODES, size=n, replace=False)
    heads.prior[heads.codes[:n]] = rng.integers(0, 6, size=n)  # many ties
    order_heads(heads, n)
    key = heads.prior[heads.codes[:n]]
    assert list(heads.order[:n]) == sorted(range(n), key=lambda k: (-key[k], k))
    with pytest.raises(ValueError, match="HEAD_DEPTH"):
        search_heads(HEAD_DEPTH)


@pytest.mark.parametrize("with_bound", [False, True])
def test_ordered_bounds_keep_answers_optimal(tiny, tiny_bound, with_bound, monkeypatch):
    """From bound 5 on, searched head by head in the last bound's order: still the shortest answers
    (the meet-in-the-middle BFS up to 8 moves; beyond, the depth-first search's length)."""
    from puzzlesearch.cube._kernels import optimal_search
    from puzzlesearch.cube.solvers.optimal import SearchTables, search

    tables = SearchTables(tiny, tiny_bound if with_bound else None)
    rng = random.Random(5100 + with_bound)
    for length in (6, 7, 8, 9, 10):
        for _ in range(2):
            cube = SOLVED.apply(scramble(rng, length))
            monkeypatch.setattr(optimal_search, "ORDER_FROM", 99)
            plain = search(cube, tables, OPTIONS)
            monkeypatch.setattr(optimal_search, "ORDER_FROM", optimal_search.HEAD_DEPTH + 1)
            ordered = search(cube, tables, OPTIONS)
            assert cube.apply(ordered.moves).is_solved
            want = meet_in_the_middle_distance(cube) if length <= 8 else len(plain.moves)
            assert len(ordered.moves) == want == len(plain.moves)
