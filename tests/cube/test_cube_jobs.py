"""`cube solve --jobs N` (issue 28): cubes solved in N processes, rows in input order, each
answer checked by applying it (optimal ones against a meet-in-the-middle BFS); Ctrl-C exits
130 keeping the rows solved so far (test_cube_artifacts' Ctrl-C test, with --jobs 2).
"""

from __future__ import annotations

import random

import polars as pl
from test_cube_artifacts import write_cubes
from test_optimal import meet_in_the_middle_distance, scramble, tiny_dir  # noqa: F401 (the fixture)

from puzzlesearch.cli import main
from puzzlesearch.cube.model.cubie import SOLVED, parse_moves


def _solve(args: list[str], capsys) -> tuple[int, list[str], str]:
    code = main(["cube", "solve", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_jobs_give_the_same_rows_in_input_order(cube_tables, tmp_path, capsys):
    cubes = write_cubes(tmp_path / "cubes.txt", 40, 2801)
    common = ["--file", str(tmp_path / "cubes.txt"), "--tables", str(cube_tables.dir), "--max-length", "21"]
    code1, one, _ = _solve(common + ["--jobs", "1"], capsys)
    code2, two, _ = _solve(common + ["--jobs", "2", "--out", str(tmp_path / "two.parquet")], capsys)
    assert code1 == code2 == 0 and len(one) == len(cubes) and two == []
    rows = pl.read_parquet(tmp_path / "two.parquet")
    assert rows["cube"].to_list() == [c.to_text() for c in cubes]
    for cube, line, sol in zip(cubes, one, rows["solution"].to_list()):
        assert line == sol  # --max-length 21: the first solution found, the same search in each process
        assert cube.apply(parse_moves(sol)).is_solved and len(parse_moves(sol)) <= 21


def test_jobs_solve_optimally(tiny_dir, tmp_path, capsys):  # noqa: F811 (the fixture)
    rng = random.Random(2802)
    cubes = [SOLVED.apply(scramble(rng, n)) for n in (3, 4, 5, 5, 6, 6)]
    (tmp_path / "short.txt").write_text("".join(c.to_text() + "\n" for c in cubes))
    code, lines, err = _solve(
        ["--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(tiny_dir)]
        + ["--file", str(tmp_path / "short.txt"), "--jobs", "2"],
        capsys,
    )
    assert code == 0, err
    assert len(lines) == len(cubes)
    for cube, line in zip(cubes, lines):
        answer = parse_moves(line)
        assert cube.apply(answer).is_solved and len(answer) == meet_in_the_middle_distance(cube)


def test_jobs_below_one_is_one_line(cube_tables, tmp_path, capsys):
    write_cubes(tmp_path / "cubes.txt", 2, 2803)
    code, lines, err = _solve(["--file", str(tmp_path / "cubes.txt"), "--jobs", "0"], capsys)
    assert code == 2 and lines == [] and err.count("\n") == 1 and "--jobs must be at least 1" in err
