"""First use of `--solver optimal` (issue 28): with an empty store a short input is answered
optimally with the tiny coset table alone, a longer one with the small table beside it (in either
metric), after one line naming what the full tables cost and how to build them ahead; the answer is
checked by applying it and against a meet-in-the-middle BFS over full cube states (test_optimal's
helper), never against the solver itself.
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from test_optimal import OPTIONS, meet_in_the_middle_distance, scramble
from test_optimal_qtm import qtm_distance, qtm_of_text

from puzzlesearch.cube._kernels.optimal_search import CLOCK_EVERY
from puzzlesearch.cube.model.cubie import SOLVED, parse_moves
from puzzlesearch.cube.solvers import optimal
from puzzlesearch.cube.tables.big import build_table, load_table

pytestmark = pytest.mark.slow  # a long file (pipeline runs, byte flips, pages): not in -m "not slow"

PUZZLESEARCH = [sys.executable, "-m", "puzzlesearch"]
QTM_SCRAMBLE = "U2 L2 D2 B2 D2 B2"  # 6 moves, 10 quarter turns by another path (test_optimal_qtm)


def _run(args: list[str], store: Path) -> tuple[subprocess.CompletedProcess, float]:
    """(the finished command, its CPU seconds) with PUZZLESEARCH_STORE=store."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PUZZLESEARCH_STORE": str(store)}
    done = subprocess.run(PUZZLESEARCH + args, env=env, capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _stored(store: Path) -> set[str]:
    """The table kinds (store folders) the store holds."""
    return {p.parent.parent.name for p in store.glob("*/*/store-key.json")}


def test_first_use_answers_a_9_move_scramble_optimally_without_the_full_table(tmp_path):
    moves = scramble(random.Random(2809), 9)
    cube = SOLVED.apply(moves)
    done, cpu = _run(["cube", "solve", "--solver", "optimal", cube.to_text()], tmp_path)
    assert done.returncode == 0, done.stderr
    answer = parse_moves(done.stdout.strip())
    assert cube.apply(answer).is_solved
    assert len(answer) == meet_in_the_middle_distance(cube, limit=9)
    first = [line for line in done.stderr.splitlines() if "first use of --solver optimal" in line]
    assert len(first) == 1 and "coset_large (7.55 GB" in first[0] and "build-tables --optimal" in first[0]
    assert "cube_optimal_all" in first[0]
    assert _stored(tmp_path) == {"cube-optimal-coset"}  # the tiny coset table only: the first stage answered
    assert cpu < 60, (
        f"first use took {cpu:.1f} CPU s"
    )  # ~25 CPU s measured with the compile; loose for a loaded machine

    longer = SOLVED.apply(scramble(random.Random(2810), 14))  # within the small table's budget
    (tmp_path / "cubes.txt").write_text(f"{cube.to_text()}\n{longer.to_text()}\n")
    done, _cpu = _run(
        ["cube", "solve", "--file", str(tmp_path / "cubes.txt"), "--solver", "optimal", "--jobs", "2"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert parse_moves(lines[0]) == answer
    assert longer.apply(parse_moves(lines[1])).is_solved and len(parse_moves(lines[1])) <= 14
    assert "--jobs: the full optimal tables are not built yet" in done.stderr  # no worker builds its own copy
    assert "adding the small table" in done.stderr  # 14 moves: past the first stage's budget
    assert _stored(tmp_path) == {"cube-optimal", "cube-optimal-coset"}  # the small and tiny coset tables only
    assert len(list(tmp_path.glob("cube-optimal/*/optimal_full.npy"))) == 0
    again, _cpu = _run(["cube", "solve", "--solver", "optimal", longer.to_text()], tmp_path)
    assert again.returncode == 0, again.stderr
    assert parse_moves(again.stdout.strip()) == parse_moves(lines[1])
    assert "adding the small table" not in again.stderr  # stored: loaded up front, the first stage skipped
    qtm, _cpu = _run(["cube", "solve", "--solver", "optimal", "--metric", "qtm", QTM_SCRAMBLE], tmp_path)
    assert qtm.returncode == 0, qtm.stderr  # the quarter-turn metric on the small tables too
    solution, length = qtm.stdout.strip().split("  ")
    qcube = SOLVED.apply(parse_moves(QTM_SCRAMBLE))
    assert qcube.apply(parse_moves(solution)).is_solved
    assert length == f"({qtm_of_text(solution)} qtm)" == f"({qtm_distance(qcube)} qtm)"
    assert len(list(tmp_path.glob("cube-optimal/*/optimal_full.npy"))) == 0


@pytest.fixture(scope="module")
def tiny_tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("first_use_tiny")
    build_table("tiny", folder)
    return optimal.SearchTables(load_table(folder, "tiny"))


def test_a_cube_beyond_each_stage_budget_goes_to_the_next_tables(tiny_tables, monkeypatch):
    monkeypatch.setattr(optimal, "QUICK_NODES", 1)  # the kernel looks at them every CLOCK_EVERY nodes
    monkeypatch.setattr(optimal, "FIRST_USE_NODES", 1)
    built = []

    def stage_tables(variant, coset_table, mapped=False):
        built.append((variant, coset_table, mapped))
        return tiny_tables

    monkeypatch.setattr(optimal, "store_search_tables", stage_tables)
    staged = optimal.FirstUseTables(
        tiny_tables, coset_table="large", mapped=True
    )  # (cube.optimal.coset_table; a few cubes)
    short = SOLVED.apply(parse_moves("R U"))
    assert optimal.search(short, staged, OPTIONS).moves and not built  # done before the first look
    cube = SOLVED.apply(scramble(random.Random(2811), 12))
    alone = optimal.search(cube, tiny_tables, OPTIONS)
    assert alone.nodes > CLOCK_EVERY  # so the first two stages stop on their budgets
    result = optimal.search(cube, staged, OPTIONS)
    assert built == [("small", "large", False), ("full", "large", True)] and result.stop == "complete"
    assert cube.apply(result.moves).is_solved and len(result.moves) == len(alone.moves) <= 12
    optimal.search(cube, staged, OPTIONS)
    assert len(built) == 2  # each built once


def test_a_cube_past_the_first_stage_is_answered_by_the_small_tables(tiny_tables, monkeypatch):
    monkeypatch.setattr(optimal, "QUICK_NODES", 1)
    built = []

    def small_tables(variant, coset_table, mapped=False):
        built.append(variant)
        return tiny_tables

    monkeypatch.setattr(optimal, "store_search_tables", small_tables)
    staged = optimal.FirstUseTables(tiny_tables)
    cube = SOLVED.apply(scramble(random.Random(2811), 12))
    result = optimal.search(cube, staged, OPTIONS)
    assert built == ["small"] and result.stop == "complete"  # the second stage's budget was enough
    assert cube.apply(result.moves).is_solved and len(result.moves) == len(
        optimal.search(cube, tiny_tables, OPTIONS).moves
    )


def test_build_tables_ahead_builds_the_configured_coset_table(tmp_path, monkeypatch):
    """`cube build-tables --optimal` builds the table of the config's cube.optimal.coset_table (not the
    schema's default), and a bad value there is one line."""
    from puzzlesearch.cli import main

    built = []
    monkeypatch.setattr(
        optimal, "store_search_tables", lambda variant, coset_table: built.append((variant, coset_table))
    )
    config = tmp_path / "config.yaml"
    config.write_text("lexicons:\n  default: builtin:en\ncube:\n  optimal:\n    coset_table: full\n")
    assert main(["--config", str(config), "cube", "build-tables", "--optimal"]) == 0
    assert built == [("full", "full")]
    config.write_text("lexicons:\n  default: builtin:en\ncube:\n  optimal:\n    coset_table: huge\n")
    assert main(["--config", str(config), "cube", "build-tables", "--optimal"]) == 2
    assert built == [("full", "full")]


def test_a_loaded_small_table_skips_the_first_stage(tiny_tables, monkeypatch):
    bigs = []
    search_one = optimal._search

    def recorded(cube, tables, options):
        bigs.append(options.big)
        return search_one(cube, tables, options)

    monkeypatch.setattr(optimal, "_search", recorded)
    cube = SOLVED.apply(scramble(random.Random(2811), 8))
    optimal.search(cube, optimal.FirstUseTables(tiny_tables), OPTIONS)
    assert bigs == [False]  # the first stage answered
    bigs.clear()
    optimal.search(cube, optimal.FirstUseTables(tiny_tables, _small=tiny_tables), OPTIONS)
    assert bigs == [True]  # the small tables' stage alone
