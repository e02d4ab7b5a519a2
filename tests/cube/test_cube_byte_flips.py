"""Flipped bytes of the cube stage's files: each reader refuses them or reads the same thing (issue 30).

The default run writes, per cube stage: the move and pruning tables (.npy with a .json
manifest each), the table folder's manifest.parquet, the random test sets (text, one cube
a line) and one solve table per solver and test set. Here they are made small and real:
the move tables and the Thistlethwaite pruning tables by the pipeline commands, a test set
of 5 cubes by `cube random`, their Thistlethwaite solve by `cube solve` in pipeline mode,
and manifest.parquet by the function behind `cube manifest` (over the tables built here:
the two-phase ones are not needed and take minutes). Then byte_flips flips every byte (a
sample of the larger tables) and runs the reader the pipeline uses on each: the solve's
input reading for the test set, the table loader, the report's readers for the rest.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from byte_flips import assert_no_silent_change, flip_files, run_cli

from puzzlesearch import kinds
from puzzlesearch.cube.settings import step_settings_json

PROJECT = Path(__file__).resolve().parents[2]
PRUNE = ("th1", "th2", "th3", "th4")  # the Thistlethwaite solver's tables

READERS = """
from puzzlesearch.cube.io import parse_line, read_cubes
from puzzlesearch.cube.tables.phases import Tables
from puzzlesearch import kinds
from puzzlesearch.report import data


def testset(work):  # as `cube solve --file` reads it (cube/cli.py _read_input)
    return [parse_line(text, f"line {n}").to_text() for n, text in read_cubes(work / "cubes.txt")]


def solves(work):  # `report cube-solves` and the benchmark
    return data.cube_solves(["thistlethwaite"], [str(work / "thistlethwaite.parquet")])


def table_manifest(work):  # `report cube-tables`
    return data.read_table(work / "tables" / "manifest.parquet", kinds.CUBE_TABLE_MANIFEST)


def move_chalf(work):  # what a solver gets from the table loader
    return Tables(work / "tables").move("chalf")


def prune_th1(work):
    return Tables(work / "tables").prune("th1")


def prune_th3(work):
    return Tables(work / "tables").prune("th3")
"""

CASES = [
    ("cubes.txt", "testset"),
    ("thistlethwaite.parquet", "solves"),
    ("tables/manifest.parquet", "table_manifest"),
    ("tables/move_chalf.npy", "move_chalf"),
    ("tables/move_chalf.json", "move_chalf"),
    ("tables/prune_th1.npy", "prune_th1"),
    ("tables/prune_th1.json", "prune_th1"),
    ("tables/prune_th3.npy", "prune_th3"),  # 208 kB: a sample
    ("tables/prune_th3.json", "prune_th3"),
]


@pytest.fixture(scope="module")
def stage(tmp_path_factory) -> Path:
    """A folder with the tables, a 5-cube test set and its Thistlethwaite solve, as the pipeline makes them."""
    from puzzlesearch.cube.tables.phases import write_manifest

    work = tmp_path_factory.mktemp("cube_flips")
    run_cli("cube", "build-move-tables", "--out-dir", "tables", cwd=work)
    for name in PRUNE:
        run_cli("cube", "build-prune-table", name, "--tables", "tables", "--out", f"tables/prune_{name}.npy", cwd=work)
    write_manifest(work / "tables", work / "tables" / "manifest.parquet", complete=False)
    run_cli("cube", "random", "--count", 5, "--seed", 20260101, "--out", "cubes.txt", cwd=work)
    settings = step_settings_json("thistlethwaite", {})
    run_cli(
        "cube", "solve", "--settings", settings, "--solver", "thistlethwaite", "--tables", "tables/manifest.parquet",
        "--file", "cubes.txt", "--testset", "cubes", "--out", "thistlethwaite.parquet", cwd=work,
    )  # fmt: skip
    return work


def test_no_flipped_byte_of_a_cube_file_changes_what_is_read(stage):
    results = flip_files(stage, READERS, CASES)
    assert_no_silent_change(results)


def test_the_report_reads_the_kinds_the_cube_stage_writes():
    from puzzlesearch.cube.cli import SOLVES_KIND
    from puzzlesearch.cube.tables.phases import SUMMARY_KIND

    assert (SOLVES_KIND, SUMMARY_KIND) == (kinds.CUBE_SOLVES, kinds.CUBE_TABLE_MANIFEST)
    assert all(kinds.kind(k).manifest == kinds.INSIDE for k in (SOLVES_KIND, SUMMARY_KIND))


@pytest.mark.parametrize(
    "solver, testset, needle",
    [("twophase", "cubes", "built with solver = 'thistlethwaite', expected 'twophase'"),
     ("thistlethwaite", "random_100", "built with testset = 'cubes', expected 'random_100'")],
    ids=["another solver's table", "another test set's table"],
)  # fmt: skip
def test_a_solve_table_in_another_ones_place_is_refused(stage, tmp_path, solver, testset, needle):
    # issue 30 case 2 (cube): a solve table copied over another solver's or test set's was drawn as that one
    import shutil
    import subprocess

    from byte_flips import PUZZLESEARCH

    shutil.copy(stage / "thistlethwaite.parquet", tmp_path / "solves.parquet")
    out = subprocess.run(
        [str(PUZZLESEARCH), "report", "cube-solves", "--testset", testset, "--solvers", solver, "--solves",
         "solves.parquet", "--moves-out", "m.svg", "--times-out", "t.svg"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode == 2 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert needle in lines[0] and "solves.parquet" in lines[0]
    assert not (tmp_path / "m.svg").exists() and not (tmp_path / "t.svg").exists()
