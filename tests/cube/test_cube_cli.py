"""The `puzzlesearch cube` commands: verified output, one-line errors, no partial files."""

from __future__ import annotations

import polars as pl
import pytest

from puzzlesearch.cli import main
from puzzlesearch.config import validate_config
from puzzlesearch.cube.model.cubie import SOLVED, parse_cube, parse_moves
from puzzlesearch.errors import ConfigError

SOLVED_TEXT = "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("solver", ["thistlethwaite", "twophase"])
def test_solve_prints_verified_solutions(cube_tables, capsys, solver):
    cubes = ["R U2 F' L D", "RU LF UB DR DL BL UL FU BD RF BR FD LDF LBD FUL RFD UFR RDB UBL RBU"]
    code, out, _ = run(
        capsys, "cube", "solve", *cubes, "--solver", solver, "--tables", str(cube_tables.dir), "--format", "contest"
    )
    assert code == 0
    answers = out.splitlines()
    assert len(answers) == 2
    for cube, answer in zip(cubes, answers):
        assert " " not in answer and parse_cube(cube).apply(parse_moves(answer)).is_solved


def test_solve_file_to_parquet(cube_tables, capsys, tmp_path):
    cubes = tmp_path / "cubes.txt"
    cubes.write_text("# two cubes\nR U R' U'\n\n" + SOLVED_TEXT + "\n")
    out = tmp_path / "out.parquet"
    code, _, _ = run(capsys, "cube", "solve", "--file", str(cubes), "--tables", str(cube_tables.dir), "--out", str(out))
    assert code == 0
    df = pl.read_parquet(out)
    assert df.columns == ["cube", "solution", "moves", "milliseconds", "stopped_by"]
    assert df["moves"].to_list() == [4, 0]
    assert df["stopped_by"].to_list()[1] == "solved" and df["stopped_by"][0] in ("target", "nodes", "complete")
    for row in df.iter_rows(named=True):
        assert parse_cube(row["cube"]).apply(parse_moves(row["solution"])).is_solved


def test_bad_line_is_one_error_and_no_file(cube_tables, capsys, tmp_path):
    cubes = tmp_path / "cubes.txt"
    cubes.write_text("R U\n" + SOLVED_TEXT.replace("UF ", "FU ", 1) + "\n")
    out = tmp_path / "out.parquet"
    code, stdout, err = run(
        capsys, "cube", "solve", "--file", str(cubes), "--tables", str(cube_tables.dir), "--out", str(out)
    )
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and "line 2" in err and "edge flips" in err
    assert not out.exists()


def test_bad_cube_argument(cube_tables, capsys):
    code, _, err = run(capsys, "cube", "solve", "UF UR", "--tables", str(cube_tables.dir))
    assert code == 2 and "2 tokens, expected 20" in err and err.count("\n") == 1


def test_compact_scrambles_and_bad_moves(cube_tables, capsys):
    code, out, _ = run(capsys, "cube", "solve", "RUF", "RU", "--tables", str(cube_tables.dir))
    assert code == 0
    answers = out.splitlines()
    assert len(answers) == 2
    for scramble, answer in zip(("R U F", "R U"), answers):  # spaced scrambles, read independently
        assert SOLVED.apply(parse_moves(scramble)).apply(parse_moves(answer)).is_solved
        assert len(parse_moves(answer)) <= len(parse_moves(scramble))
    code, out, err = run(capsys, "cube", "solve", "R U2 Fx", "--tables", str(cube_tables.dir))
    assert code == 2 and out == "" and "'Fx'" in err and err.count("\n") == 1
    code, out, err = run(capsys, "cube", "solve", "ru", "--tables", str(cube_tables.dir))
    assert code == 2 and out == "" and "wide turns" in err and err.count("\n") == 1


def test_solved_cube_says_already_solved(cube_tables, capsys):
    for solver in ("twophase", "thistlethwaite"):
        code, out, _ = run(
            capsys, "cube", "solve", SOLVED_TEXT, "R R'", "--tables", str(cube_tables.dir), "--solver", solver
        )
        assert code == 0 and out.splitlines() == ["already solved (0 moves)"] * 2


def test_facelet_string_of_a_scramble_is_solved(cube_tables, capsys):
    """54 facelets of a known scramble (independent: the facelets of single turns are checked by hand)."""
    from puzzlesearch.cube.model.facelets import to_facelets

    scramble = "R U2 F' L D B2 R' U F2 D'"
    facelets = to_facelets(SOLVED.apply(parse_moves(scramble)))
    for solver in ("twophase", "thistlethwaite"):
        code, out, _ = run(capsys, "cube", "solve", facelets, "--tables", str(cube_tables.dir), "--solver", solver)
        assert code == 0
        assert SOLVED.apply(parse_moves(scramble)).apply(parse_moves(out)).is_solved


@pytest.mark.parametrize(
    "flag, value, fragment",
    [
        (
            "--node-budget",
            "-5",
            "--node-budget -5: config key cube.twophase.node_budget: -5 is less than the minimum of 0",
        ),
        ("--target-length", "-3", "--target-length -3: config key cube.twophase.target_length: -3 is less than"),
        (
            "--target-length",
            "31",
            "--target-length 31: config key cube.twophase.target_length: 31 is greater than the maximum of 30",
        ),
        ("--phase2-max", "0", "--phase2-max 0: config key cube.twophase.phase2_max: 0 is less than the minimum of 1"),
        ("--phase2-max", "19", "--phase2-max 19: config key cube.twophase.phase2_max"),
        (
            "--time-limit",
            "0",
            "--time-limit 0: config key cube.twophase.time_limit: 0.0 is less than or equal to the minimum of 0",
        ),
        ("--time-limit", "nan", "--time-limit nan: config key cube.twophase.time_limit: nan is not a finite number"),
        ("--time-limit", "1e9", "--time-limit 1e+09: config key cube.twophase.time_limit"),
        ("--set", "twophase.time_limit=-1", "--set cube.twophase.time_limit: -1 is less than or equal to"),
        ("--set", "twophase.time_limt=5", "cube.twophase: Additional properties are not allowed ('time_limt'"),
        ("--set", "twophase={x", "--set 'twophase={x'"),
        ("--max-length", "31", "--max-length 31: config key cube.twophase.max_length: 31 is greater than the maximum"),
        ("--max-length", "-1", "--max-length -1: config key cube.twophase.max_length: -1 is less than the minimum"),
    ],
)
def test_budget_flags_are_checked(cube_tables, capsys, flag, value, fragment):
    """The flags are checked by the settings (bounds from the schema only), errors name flag and key."""
    code, out, err = run(capsys, "cube", "solve", "R U", flag, value, "--tables", str(cube_tables.dir))
    assert code == 2 and out == "" and fragment in err and err.count("\n") == 1


def test_budget_flags_accept_the_schema_bounds(cube_tables, capsys):
    """The extreme values the config schema allows are accepted by the flags too."""
    code, out, _ = run(
        capsys,
        "cube",
        "solve",
        "R U",
        "--tables",
        str(cube_tables.dir),
        "--target-length",
        "0",
        "--node-budget",
        "0",
        "--phase2-max",
        "18",
        "--time-limit",
        "3600",
    )
    assert code == 0 and parse_cube("R U").apply(parse_moves(out)).is_solved


def test_max_length_flag(cube_tables, capsys):
    """--max-length 20 on a cube that needs more than a few moves: a verified answer of at most 20 moves."""
    cube = "RU LF UB DR DL BL UL FU BD RF BR FD LDF LBD FUL RFD UFR RDB UBL RBU"
    code, out, _ = run(capsys, "cube", "solve", cube, "--max-length", "20", "--tables", str(cube_tables.dir))
    moves = parse_moves(out)
    assert code == 0 and len(moves) <= 20 and parse_cube(cube).apply(moves).is_solved


def test_thistlethwaite_flags(cube_tables, capsys):
    code, out, err = run(
        capsys,
        "cube",
        "solve",
        "R U",
        "--solver",
        "thistlethwaite",
        "--time-limit",
        "-1",
        "--tables",
        str(cube_tables.dir),
    )
    assert code == 2 and "cube.thistlethwaite.time_limit" in err and err.count("\n") == 1
    code, out, err = run(
        capsys,
        "cube",
        "solve",
        "R U",
        "--solver",
        "thistlethwaite",
        "--node-budget",
        "5",
        "--tables",
        str(cube_tables.dir),
    )
    assert code == 2 and "--node-budget is a twophase setting" in err and err.count("\n") == 1


def test_time_limit_error_names_the_flag(cube_tables, capsys):
    code, out, err = run(
        capsys,
        "cube",
        "solve",
        "R U2 F' L D B2 R' U F2 D' L B' R2 U' F D2 L'",
        "--phase2-max",
        "1",
        "--time-limit",
        "0.2",
        "--tables",
        str(cube_tables.dir),
    )
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "time limit of 0.2 s" in err and "--time-limit" in err and "cube.twophase.time_limit" in err


def test_unreadable_cube_files(cube_tables, capsys, tmp_path):
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("R U\n# caf\u00e9\n".encode("latin-1"))
    code, out, err = run(capsys, "cube", "solve", "--file", str(latin1), "--tables", str(cube_tables.dir))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert str(latin1) in err and "line 2" in err and "UTF-8" in err
    code, out, err = run(capsys, "cube", "solve", "--file", str(tmp_path), "--tables", str(cube_tables.dir))
    assert code == 2 and "is a directory" in err and "does not exist" not in err and err.count("\n") == 1


def test_random_is_reproducible(capsys, tmp_path):
    paths = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for p in paths:
        assert run(capsys, "cube", "random", "--count", "5", "--seed", "3", "--out", str(p))[0] == 0
    assert paths[0].read_text() == paths[1].read_text()
    assert len([parse_cube(line) for line in paths[0].read_text().splitlines()]) == 5


def test_config_section_defaults_and_errors():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    config = validate_config({"lexicons": {"default": "builtin:en"}}, root)
    assert config["cube"]["twophase"]["target_length"] == 21
    assert config["cube"]["twophase"]["time_limit"] == 10
    assert config["cube"]["thistlethwaite"]["time_limit"] == 10
    assert config["cube"]["default_testsets"] == ["random100"]
    with pytest.raises(ConfigError, match="cube.twophase.phase2_max"):
        validate_config({"lexicons": {"default": "builtin:en"}, "cube": {"twophase": {"phase2_max": 40}}}, root)
    with pytest.raises(ConfigError, match="cube.twophase.time_limit"):
        validate_config({"lexicons": {"default": "builtin:en"}, "cube": {"twophase": {"time_limit": 0}}}, root)
    with pytest.raises(ConfigError, match="cube.thistlethwaite.time_limit"):
        validate_config({"lexicons": {"default": "builtin:en"}, "cube": {"thistlethwaite": {"time_limit": -1}}}, root)
    with pytest.raises(ConfigError, match="cube.solvers"):
        validate_config({"lexicons": {"default": "builtin:en"}, "cube": {"solvers": ["korf"]}}, root)


def test_a_few_interactive_cubes_map_the_tables_a_pipeline_job_reads_them(cube_tables):
    """Interactive: up to MAPPED_UP_TO cubes map the large tables; a pipeline job never does (its
    milliseconds per cube are the report's figures), nor does a larger file."""
    from argparse import Namespace

    from puzzlesearch.cube import cli
    from puzzlesearch.cube.tables.phases import MAPPED_UP_TO

    args = Namespace(solver="thistlethwaite", tables=str(cube_tables.dir))
    assert cli._open_tables(args, None, 1, pipeline=False).mapped
    assert cli._open_tables(args, None, MAPPED_UP_TO, pipeline=False).mapped
    assert not cli._open_tables(args, None, MAPPED_UP_TO + 1, pipeline=False).mapped
    assert not cli._open_tables(args, None, 1, pipeline=True).mapped
