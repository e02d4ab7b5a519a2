"""Cube rules in a throw-away copy of the project: quoting, per-solver settings, config errors."""

from __future__ import annotations

import polars as pl
import pytest
from pipeline_util import build_some_cube_tables, copy_project, planned_rules, snakemake

from puzzlesearch.cube.model.cubie import SOLVED, parse_cube, parse_moves

pytestmark = pytest.mark.slow  # a long file (pipeline runs, byte flips, pages): not in -m "not slow"

INJECTED = "results/cube/t;touch X;"  # before: `cube.tables` reached the shell unquoted and ran `touch X`
SPACED = "my cubes/it's a set.txt"
LINES = [
    "R U2 F' L D",
    "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR",
    "RU LF UB DR DL BL UL FU BD RF BR FD LDF LBD FUL RFD UFR RDB UBL RBU",
]


def cube_config(**twophase) -> list[str]:
    """--config values: tables at the injected path, one test set at a path with a space and a quote."""
    extra = "".join(f", {k}: {v}" for k, v in twophase.items())
    return [
        f'cube={{tables: "{INJECTED}", testsets: {{spaced: "{SPACED}"}}, default_testsets: [spaced],'
        f" twophase: {{target_length: 21{extra}}}}}"
    ]


def test_quoted_paths_and_per_solver_settings(tmp_path, cube_tables):
    root = copy_project(tmp_path / "p")  # with the checkout's compiled kernels
    (root / "my cubes").mkdir()
    (root / SPACED).write_text("# three cubes\n" + "\n".join(LINES) + "\n")
    # Every cube rule runs on the injected folder: the move tables and one prune table are built
    # there by the rules; the other prune tables, tens of CPU seconds to build and the same bytes,
    # come from the session's store, then manifest and solves run.
    seeded = build_some_cube_tables(root, INJECTED, cube_tables.dir, cube_config())
    assert seeded and all(stem.startswith(("prune_", "next_")) for stem in seeded)
    targets = [f"results/cube/{s}/spaced.parquet" for s in ("thistlethwaite", "twophase")]
    out = snakemake(root, *targets, "--config", *cube_config(), cores="2")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "rule cube_prune_table:" not in out.stderr  # the seeded tables were up to date
    assert "rule cube_next_table:" not in out.stderr
    assert not (root / "X").exists() and not (root / "results/cube/t").exists()
    assert (root / INJECTED / "manifest.parquet").exists()
    for target in targets:
        df = pl.read_parquet(root / target)
        assert df.height == len(LINES) and df["stopped_by"][1] == "solved"
        for line, row in zip(LINES, df.iter_rows(named=True)):
            assert SOLVED.apply([]) == SOLVED and parse_cube(line).apply(parse_moves(row["solution"])).is_solved
    assert planned_rules(root, *targets, config=cube_config()) == []
    # A two-phase budget reruns the two-phase solve only (each step gets its solver's settings).
    assert planned_rules(root, *targets, config=cube_config(node_budget=500000)) == ["cube_solve"]


def test_unknown_default_test_set_is_one_line(tmp_path):
    root = copy_project(tmp_path / "p")
    out = snakemake(root, "-n", "--config", "cube={default_testsets: [random100, nope]}")
    text = out.stdout + out.stderr
    assert out.returncode != 0 and "Traceback" not in text
    errors = [line for line in text.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(errors) == 1 and "config key cube.default_testsets" in errors[0] and "'nope'" in errors[0]


SHORT = ["R U2 F' L D", "F2 D' L B2 R", "U R2 B' D L2 F"]  # a test set the tiny tables solve in moments


def test_optimal_target_solves_a_test_set_optimally(tmp_path):
    """`cube_optimal_all` end to end on the tiny tables: build them, cut the first cubes of the
    configured test set, solve them optimally. Before, its solve step lacked the pipeline flag
    --testset and failed after the full tables' ~20-minute build (found measuring issue 28)."""
    from test_optimal import meet_in_the_middle_distance

    root = copy_project(tmp_path / "p")  # with the checkout's compiled kernels
    (root / "short.txt").write_text("\n".join(SHORT) + "\n")
    config = ["cube={testsets: {short: short.txt}, optimal: {table: tiny, testset: short, first: 2}}"]
    out = snakemake(root, "cube_optimal_all", "--config", *config, cores="2")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    df = pl.read_parquet(root / "results/cube/optimal/short_first2.parquet")
    assert df.height == 2
    for line, row in zip(SHORT, df.iter_rows(named=True)):
        cube = parse_cube(line)
        assert cube.apply(parse_moves(row["solution"])).is_solved
        assert row["moves"] == len(parse_moves(row["solution"])) == meet_in_the_middle_distance(cube)
    assert planned_rules(root, "cube_optimal_all", config=config) == []
    assert not list(root.glob("results/cube/optimal/table_tiny/optimal_tiny*"))  # the search reads the coset table only
