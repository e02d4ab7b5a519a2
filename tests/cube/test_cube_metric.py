"""`--metric qtm` (issue 28): two-phase lengths in the quarter-turn metric (a half turn counts 2).

Lengths are counted here from the printed move text (a token ending in 2 counts 2), every
solution is applied to its cube, and the QTM search is compared with the HTM one on the
same cubes: it must give shorter quarter-turn solutions on average.
"""

from __future__ import annotations

import random
import statistics

import polars as pl
from test_cube_artifacts import write_cubes

from puzzlesearch.cli import main
from puzzlesearch.cube.io import format_moves
from puzzlesearch.cube.model.cubie import SOLVED, parse_moves, random_cube
from puzzlesearch.cube.settings import TwoPhaseOptions
from puzzlesearch.cube.solve import solve_cube


def qtm_of_text(solution: str) -> int:
    """Quarter turns of a standard-notation solution, from its text alone."""
    return sum(2 if token.endswith("2") else 1 for token in solution.split())


def test_qtm_search_is_shorter_in_quarter_turns_than_the_htm_search(cube_tables):
    rng = random.Random(2805)
    cubes = [random_cube(rng) for _ in range(20)]
    lengths = {}
    for metric in ("htm", "qtm"):
        options = TwoPhaseOptions(metric=metric, time_limit=600)
        solutions = [solve_cube(cube, cube_tables, "twophase", options) for cube in cubes]
        for cube, s in zip(cubes, solutions):
            assert cube.apply(s.moves).is_solved
        lengths[metric] = [qtm_of_text(format_moves(s.moves)) for s in solutions]
    assert statistics.mean(lengths["qtm"]) < statistics.mean(lengths["htm"]) - 1  # measured: 26.4 against 29.6


def test_cli_prints_and_writes_the_qtm_length(cube_tables, tmp_path, capsys):
    code = main(["cube", "solve", "--tables", str(cube_tables.dir), "--metric", "qtm", "R2 U2 F2 L"])
    out, err = capsys.readouterr()
    assert code == 0, err
    solution, length = out.strip().split("  ")
    assert SOLVED.apply(parse_moves("R2 U2 F2 L")).apply(parse_moves(solution)).is_solved
    assert length == f"({qtm_of_text(solution)} qtm)" == "(7 qtm)"  # R2 U2 F2 L: 7 quarter turns, optimal
    cubes = write_cubes(tmp_path / "cubes.txt", 5, 2806)
    out_file = tmp_path / "q.parquet"
    args = ["--tables", str(cube_tables.dir), "--metric", "qtm", "--file", str(tmp_path / "cubes.txt")]
    assert main(["cube", "solve", *args, "--out", str(out_file)]) == 0
    rows = pl.read_parquet(out_file)
    for cube, row in zip(cubes, rows.iter_rows(named=True)):
        assert cube.apply(parse_moves(row["solution"])).is_solved
        assert row["qtm"] == qtm_of_text(row["solution"]) and row["moves"] == len(row["solution"].split())


def test_qtm_with_other_solvers_is_one_line(capsys):
    code = main(["cube", "solve", "--solver", "thistlethwaite", "--metric", "qtm", "R U"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "--metric qtm" in err
