"""`--metric qtm` for the optimal solver (issue 28): shortest solutions in the quarter-turn metric.

Every answer is applied to its cube, and its QTM length is checked against a meet-in-the-middle
BFS (test_optimal's, over full cube states) whose generators are the 12 quarter turns only (a half
turn is two of them), so the QTM distance is a plain word length, independent of the solver's
costs, tables and pruning rules. The HTM answers are checked the same way against the 18-move
BFS of test_optimal. The solver runs on the `tiny` tables (with and without the bound and coset
tables, so every pruning stage of the kernel runs with QTM budgets).
"""

from __future__ import annotations

import random
from dataclasses import replace

import numba
import polars as pl
import pytest
from test_optimal import meet_in_the_middle_distance

from puzzlesearch.cli import main
from puzzlesearch.cube.io import format_moves, parse_line
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.cubie import SOLVED, parse_moves
from puzzlesearch.cube.settings import OptimalOptions
from puzzlesearch.cube.solve import solve_cube
from puzzlesearch.cube.solvers import optimal
from puzzlesearch.cube.tables import coset as coset_tables
from puzzlesearch.cube.tables.big import build_table, load_table
from puzzlesearch.cube.tables.bound import build_bound, load_bound

QTM = OptimalOptions(table="tiny", time_limit=600, metric="qtm")
HTM = replace(QTM, metric="htm")
# The quarter turns, from the notation alone (a half turn's text ends in 2).
QUARTER_TURNS = [m for m in range(K.N_MOVES) if not format_moves([m]).endswith("2")]


def qtm_of_text(solution: str) -> int:
    """Quarter turns of a standard-notation solution, from its text alone."""
    return sum(2 if token.endswith("2") else 1 for token in solution.split())


# ------------------------------------------------------------------ the quarter-turn BFS


def qtm_distance(cube, limit: int = 10) -> int:
    """Fewest quarter turns that solve the cube: test_optimal's meet-in-the-middle BFS over full
    states with the 12 quarter turns as its only moves."""
    return meet_in_the_middle_distance(cube, limit, QUARTER_TURNS)


def quarter_scramble(rng: random.Random, n: int) -> list[int]:
    """n quarter turns, no turn right after its inverse."""
    moves: list[int] = []
    while len(moves) < n:
        m = rng.choice(QUARTER_TURNS)
        if moves and m // 3 == moves[-1] // 3 and m != moves[-1]:
            continue
        moves.append(m)
    return moves


def test_quarter_turn_bfs_on_known_cubes():
    assert len(QUARTER_TURNS) == 12
    assert qtm_distance(SOLVED.apply(parse_moves("R2 U2"))) == 4
    assert qtm_distance(SOLVED.apply(parse_moves("R U R' U'"))) == 4
    assert qtm_distance(SOLVED.apply(parse_moves("U2"))) == 2
    assert qtm_distance(SOLVED.apply(parse_moves("R L'"))) == 2
    assert qtm_distance(SOLVED.apply(parse_moves("R R'"))) == 0


# ------------------------------------------------------------------ tables


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory):
    """The tiny big table, its bound table and the tiny coset table in one folder (built once)."""
    folder = tmp_path_factory.mktemp("optimal_qtm_tiny")
    build_table("tiny", folder)
    build_bound(load_table(folder, "tiny"), folder)
    coset_tables.build_table("tiny", folder)
    return folder


@pytest.fixture(scope="module")
def table_sets(tiny_folder):
    """The kernel's table combinations: big table alone; with its bound table (inverse stage); with
    the coset table (coset stages, coset inverse stage); both big and coset (the first-use setup)."""
    big = load_table(tiny_folder, "tiny")
    coset = coset_tables.load_table(tiny_folder, "tiny")
    return {
        "big": (optimal.SearchTables(big), {}),
        "bound": (optimal.SearchTables(big, load_bound(tiny_folder, big)), {}),
        "coset": (optimal.SearchTables(big, coset=coset), {}),
        "big+coset": (optimal.SearchTables(big, coset=coset), {"big": True}),
    }


def _solve(cube, tables, options):
    """An optimal search's moves, checked by applying them."""
    result = optimal.search(cube, tables, options)
    assert result.stop == "complete"
    assert cube.apply(result.moves).is_solved
    return result.moves


# ------------------------------------------------------------------ tests


def test_half_turns_cost_two(table_sets):
    """R2 U2: 2 moves in HTM, 4 quarter turns; the QTM answer is verified and counts 4."""
    cube = SOLVED.apply(parse_moves("R2 U2"))
    tables = table_sets["coset"][0]
    assert len(_solve(cube, tables, HTM)) == 2 == meet_in_the_middle_distance(cube)
    qtm = _solve(cube, tables, QTM)
    assert qtm_of_text(format_moves(qtm)) == 4 == qtm_distance(cube)


@pytest.mark.parametrize("tables_name", ["big", "bound", "coset", "big+coset"])
def test_qtm_lengths_equal_the_quarter_turn_bfs(table_sets, tables_name):
    tables, extra = table_sets[tables_name]
    options = replace(QTM, **extra)
    rng = random.Random(2828)
    for length in range(1, 7):
        for _ in range(2):
            cube = SOLVED.apply(quarter_scramble(rng, length))
            moves = _solve(cube, tables, options)
            assert qtm_of_text(format_moves(moves)) == qtm_distance(cube, limit=length), format_moves(moves)
    for n in range(2, 5):  # half turns mixed in (their QTM optimum may be reached without them)
        cube = SOLVED.apply([rng.randrange(K.N_MOVES) for _ in range(n)])
        moves = _solve(cube, tables, options)
        assert qtm_of_text(format_moves(moves)) == qtm_distance(cube), format_moves(moves)


def test_qtm_optimum_below_the_htm_optimum_quarter_turns(table_sets):
    """U2 L2 D2 B2 D2 B2 (found by brute force): 6 moves in HTM (12 quarter turns in the answer),
    10 quarter turns in QTM, with more moves than the HTM optimum."""
    cube = SOLVED.apply(parse_moves("U2 L2 D2 B2 D2 B2"))
    tables = table_sets["coset"][0]
    htm = _solve(cube, tables, HTM)
    qtm = _solve(cube, tables, QTM)
    assert len(htm) == meet_in_the_middle_distance(cube) == 6
    assert qtm_of_text(format_moves(qtm)) == qtm_distance(cube) == 10
    assert qtm_of_text(format_moves(htm)) == 12 and len(qtm) > len(htm)


def test_reference_short_cubes_in_both_metrics(table_sets, cube_data):
    """The 54 one- to three-move cubes of ../shared/cube/rokicki_style_100.txt: the HTM answers have the
    18-move BFS's length (unchanged by the QTM work), the QTM answers the quarter-turn BFS's."""
    tables = table_sets["coset"][0]
    lines = (cube_data / "rokicki_style_100.txt").read_text().splitlines()[:54]
    for n, line in enumerate(lines, 1):
        cube = parse_line(line, f"line {n}")
        assert len(_solve(cube, tables, HTM)) == meet_in_the_middle_distance(cube), n
        assert qtm_of_text(format_moves(_solve(cube, tables, QTM))) == qtm_distance(cube, limit=6), n


def test_solved_cube_and_solve_cube_row(table_sets):
    tables = table_sets["coset"][0]
    assert solve_cube(SOLVED, tables, "optimal", QTM).moves == ()
    cube = SOLVED.apply(parse_moves("F2 R"))
    s = solve_cube(cube, tables, "optimal", QTM)  # verifies the answer itself
    assert qtm_of_text(format_moves(s.moves)) == qtm_distance(cube) == 3 and s.nodes is not None


def test_first_use_tables_answer_qtm(table_sets, monkeypatch):
    """The first-use path (small tables first, then the full ones) keeps the metric in both stages."""
    tables = table_sets["big+coset"][0]
    built = []

    def full_tables(variant, coset_table="full"):
        built.append(variant)
        return tables

    monkeypatch.setattr(optimal, "store_search_tables", full_tables)
    cube = SOLVED.apply(parse_moves("R2 U2 F"))
    moves = optimal.search(cube, optimal.FirstUseTables(tables), QTM).moves
    assert cube.apply(moves).is_solved and qtm_of_text(format_moves(moves)) == qtm_distance(cube) == 5
    assert not built
    moves = optimal.search(cube, optimal.FirstUseTables(tables, _full=tables), QTM).moves  # the full tables' stage
    assert cube.apply(moves).is_solved and qtm_of_text(format_moves(moves)) == 5 and not built


def test_cli_prints_the_verified_solution_and_its_qtm_length(tiny_folder, tmp_path, capsys):
    solve = ["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(tiny_folder)]
    assert main([*solve, "--metric", "qtm", "R2 U"]) == 0
    solution, length = capsys.readouterr().out.strip().split("  ")
    assert SOLVED.apply(parse_moves("R2 U")).apply(parse_moves(solution)).is_solved
    assert length == f"({qtm_of_text(solution)} qtm)" == "(3 qtm)"
    out = tmp_path / "q.parquet"
    scrambles = ["R2 U2", "U2 L2 D2 B2 D2 B2"]
    assert main([*solve, "--set", "optimal.metric=qtm", *scrambles, "--out", str(out)]) == 0
    rows = pl.read_parquet(out).to_dicts()
    for scramble, row, best in zip(scrambles, rows, (4, 10)):
        assert SOLVED.apply(parse_moves(scramble)).apply(parse_moves(row["solution"])).is_solved
        assert row["qtm"] == qtm_of_text(row["solution"]) == best and row["moves"] == len(row["solution"].split())
        assert row["nodes"] > 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--solver", "thistlethwaite", "--metric", "qtm"], "--metric qtm"),
        (["--solver", "thistlethwaite", "--metric", "htm"], "--metric htm"),
        (["--solver", "optimal", "--set", "optimal.metric=quarter"], "optimal.metric"),
    ],
)
def test_bad_metric_combinations_are_one_line(args, words, capsys):
    code = main(["cube", "solve", *args, "R U"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err


@pytest.mark.parametrize("tables_name", ["big", "bound", "coset", "big+coset"])
@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_the_warm_up_compiles_for_the_real_tables_types(table_sets, tables_name, metric):
    """warm_up_search compiles the kernel in a child over stand-ins before the tables exist; the
    search finds that compile in numba's cache only if every bundle has the real tables' types."""
    tables, extra = table_sets[tables_name]
    options = replace(QTM if metric == "qtm" else HTM, **extra)
    cube = SOLVED.apply(parse_moves("R U2 F' L D"))
    args = optimal.kernel_args(cube, tables, tables.table.search_data(), optimal.axis_coords(cube), options, False)
    assert numba.typeof(args[0]) == numba.typeof(optimal.stand_in_tables())
    assert numba.typeof(args[3]) == numba.typeof(optimal.stand_in_limits())


@pytest.mark.parametrize("tables_name", ["bound", "coset"])
def test_ordered_bounds_keep_qtm_answers_optimal(table_sets, tables_name, monkeypatch):
    """Bounds from 5 quarter turns on searched head by head (optimal_search, "Ordered heads"): the
    quarter-turn BFS's lengths still; half turns mixed in, so a head can spend its whole budget."""
    from puzzlesearch.cube._kernels import optimal_search

    monkeypatch.setattr(optimal_search, "ORDER_FROM", optimal_search.HEAD_DEPTH + 1)
    tables, extra = table_sets[tables_name]
    options = replace(QTM, **extra)
    rng = random.Random(2930)
    for length in (6, 7, 8):
        cube = SOLVED.apply(quarter_scramble(rng, length))
        moves = _solve(cube, tables, options)
        assert qtm_of_text(format_moves(moves)) == qtm_distance(cube, limit=length), format_moves(moves)
    for n in (4, 5):
        cube = SOLVED.apply([rng.randrange(K.N_MOVES) for _ in range(n)])
        moves = _solve(cube, tables, options)
        assert qtm_of_text(format_moves(moves)) == qtm_distance(cube), format_moves(moves)
