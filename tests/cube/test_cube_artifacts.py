"""The real `puzzlesearch cube` process: damaged tables, the store, pipeline mode, Ctrl-C.

Every run is a subprocess (exit codes, one-line stderr, no traceback); every solution it
prints or writes is checked by applying it to its cube with the cubie model.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from puzzlesearch.cube.model.cubie import SOLVED, parse_cube, parse_moves, random_cube
from puzzlesearch.cube.settings import step_settings_json
from puzzlesearch.manifest import file_sha256, manifest_checksum
from puzzlesearch.manifest import write_manifest as write_table_manifest

SCRAMBLE = "R U2 F' L D B2 R' U F2 D'"


def cube_cli(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m puzzlesearch cube ...` as a subprocess (output captured)."""
    return subprocess.run(
        [sys.executable, "-m", "puzzlesearch", "cube", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=240,
    )


def one_line_error(out: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one stderr line holding every fragment, no traceback."""
    assert out.returncode == 2, out.stderr
    assert out.stdout == "" and "Traceback" not in out.stderr
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(lines) == 1 and out.stderr.count("\n") == 1, out.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# The big tables no test here damages: hard-linked into the copies, not copied (~800 MB a test).
LINKED = frozenset({"next_tp1.npy", "prune_tp1_sym.npy", "prune_tp2_sym.npy"})


def _copy_or_link(src, dst):
    """Copy a table file, or hard-link it when it is in LINKED (the tests never write those)."""
    if Path(src).name in LINKED:
        os.link(src, dst)
    else:
        shutil.copy2(src, dst)


@pytest.fixture
def tables_copy(cube_tables, tmp_path) -> Path:
    """A private copy of the session's table folder, to damage (its big tables linked: LINKED)."""
    folder = tmp_path / "tables"
    shutil.copytree(cube_tables.dir, folder, copy_function=_copy_or_link)
    return folder


def remanifest(folder: Path, stem: str) -> None:
    """Rewrite a table's manifest over its (changed) file: the checksum then agrees, the range check must catch it."""
    meta = json.loads((folder / f"{stem}.json").read_text())
    kind = meta.pop("manifest")["kind"]
    write_table_manifest(folder / f"{stem}.json", [folder / f"{stem}.npy"], kind, {}, meta)


def change_entry(path: Path, index, value) -> None:
    """Set one entry of a .npy table (same size, same dtype)."""
    arr = np.load(path)
    arr[index] = value
    np.save(path, arr)


# ------------------------------------------------------------------ damaged tables


def test_changed_move_table_entry_is_one_line(tables_copy, tmp_path):
    """Before: a changed move-table entry segfaulted the kernel. Now the checksum, or the range check, stops it."""
    change_entry(tables_copy / "move_flip.npy", (5, 0), 10**6)
    out = cube_cli("solve", SCRAMBLE, "--solver", "twophase", "--tables", str(tables_copy), cwd=tmp_path)
    one_line_error(out, str(tables_copy / "move_flip.npy"), "checksum differs")
    remanifest(tables_copy, "move_flip")  # a consistent manifest over a wrong table
    out = cube_cli("solve", SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables_copy), cwd=tmp_path)
    one_line_error(out, str(tables_copy / "move_flip.npy"), "entries outside -1..2047")


def test_damaged_prune_table_is_one_line(tables_copy, tmp_path):
    """Before: a damaged Thistlethwaite table made the search run without end."""
    change_entry(tables_copy / "prune_th2.npy", slice(0, 1000), 9)
    out = cube_cli("solve", SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables_copy), cwd=tmp_path)
    one_line_error(out, str(tables_copy / "prune_th2.npy"), "checksum differs")
    change_entry(tables_copy / "prune_th2.npy", 0, 100)
    remanifest(tables_copy, "prune_th2")
    out = cube_cli("solve", SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables_copy), cwd=tmp_path)
    one_line_error(out, str(tables_copy / "prune_th2.npy"), "entries outside -1..")


def test_truncated_table_is_one_line(tables_copy, tmp_path):
    path = tables_copy / "prune_tp2_edge.npy"  # a table two-phase reads
    path.write_bytes(path.read_bytes()[:5000])
    out = cube_cli("solve", SCRAMBLE, "--tables", str(tables_copy), cwd=tmp_path)
    one_line_error(out, str(path), "truncated or changed")
    meta_path = path.with_suffix(".json")  # a manifest that agrees with the short file
    meta = json.loads(meta_path.read_text())
    meta["manifest"]["files"][path.name].update(bytes=path.stat().st_size, sha256=file_sha256(path))
    meta["manifest"]["manifest_sha256"] = manifest_checksum(meta)
    meta_path.write_text(json.dumps(meta))
    out = cube_cli("solve", SCRAMBLE, "--tables", str(tables_copy), cwd=tmp_path)
    one_line_error(out, str(path), "cannot be read as .npy")


def test_missing_tables_name_the_build_command_and_build_nothing(tmp_path):
    missing = tmp_path / "no tables"
    out = cube_cli("solve", SCRAMBLE, "--tables", str(missing), cwd=tmp_path)
    one_line_error(out, "puzzlesearch cube build-tables --dir", str(missing))
    assert not missing.exists()


def test_table_missing_from_a_folder(tables_copy, tmp_path):
    (tables_copy / "prune_tp2_edge.npy").unlink()
    (tables_copy / "prune_tp2_edge.json").unlink()
    out = cube_cli("solve", SCRAMBLE, "--tables", str(tables_copy), cwd=tmp_path)
    one_line_error(out, "prune_tp2_edge.npy is missing", "build-tables")


# ------------------------------------------------------------------ the artifact store


def test_interactive_solve_uses_the_project_store_never_results(cube_tables, tmp_path):
    """In a project without --tables: the tables come from results/store (content-keyed), never results/cube/tables.

    The project's store is seeded with the session's build (hard links: the same key and bytes), so
    a solve that looked anywhere else would build (and say so). These tables' build into an empty
    store is the session's own (the `cube_tables` fixture); a first use from an empty store is
    test_optimal_first_use.py's.
    """
    if not (cube_tables.dir / "store-key.json").is_file():
        pytest.skip("PUZZLESEARCH_TEST_CUBE_TABLES names a folder outside a store: nothing to seed a store with")
    project = tmp_path / "proj"
    project.mkdir()
    (project / "Snakefile").write_text("# a project marker\n")
    (project / "config.yaml").write_text("lexicons:\n  default: builtin:en\ncube:\n  format: contest\n")
    seeded = project / "results" / "store" / "cube" / cube_tables.dir.name
    seeded.mkdir(parents=True)
    for path in cube_tables.dir.iterdir():
        os.link(path, seeded / path.name)
    env = {k: v for k, v in os.environ.items() if k != "PUZZLESEARCH_STORE"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # not the user's cache either
    answers = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-m", "puzzlesearch", "cube", "solve", SCRAMBLE],
            cwd=project,
            capture_output=True,
            text=True,
            env=env,
            timeout=600,  # a fresh clone compiles the solver's kernels in the first run (minutes on a loaded machine)
        )
        assert done.returncode == 0, done.stderr
        assert "building" not in done.stderr, done.stderr
        answers.append(done.stdout.strip())
    assert " " not in answers[0] and answers[1] == answers[0]  # config cube.format: contest
    assert SOLVED.apply(parse_moves(SCRAMBLE)).apply(parse_moves(answers[0])).is_solved
    assert not (project / "results" / "cube").exists() and not (tmp_path / "cache").exists()
    assert [f.name for f in seeded.parent.iterdir() if not f.name.startswith(".")] == [seeded.name]


# ------------------------------------------------------------------ pipeline mode


def write_cubes(path: Path, count: int, seed: int) -> list:
    """`count` random cubes, one a line; returns them."""
    rng = random.Random(seed)
    cubes = [random_cube(rng) for _ in range(count)]
    path.write_text("".join(c.to_text() + "\n" for c in cubes))
    return cubes


def test_pipeline_mode_writes_a_verified_table(cube_tables, tmp_path):
    cubes = write_cubes(tmp_path / "cubes.txt", 5, 1)
    for solver in ("twophase", "thistlethwaite"):
        out = tmp_path / f"{solver}.parquet"
        res = cube_cli(
            "solve",
            "--settings",
            step_settings_json(solver, {}),
            "--solver",
            solver,
            "--tables",
            str(cube_tables.dir / "manifest.parquet"),
            "--file",
            str(tmp_path / "cubes.txt"),
            "--testset",
            "cubes",
            "--out",
            str(out),
            cwd=tmp_path,
        )
        assert res.returncode == 0, res.stderr
        df = pl.read_parquet(out)
        assert df["stopped_by"].to_list() == (
            ["complete"] * 5
            if solver == "thistlethwaite"
            else [s for s in df["stopped_by"] if s in ("target", "nodes", "complete")]
        )
        for cube, row in zip(cubes, df.iter_rows(named=True)):
            assert row["cube"] == cube.to_text() and cube.apply(parse_moves(row["solution"])).is_solved


@pytest.mark.parametrize(
    "solver, settings, key",
    [
        (
            "twophase",
            {"twophase": {"time_limit": 0.2, "target_length": 0, "node_budget": 10**12}},  # the schema maximum
            "cube.twophase.time_limit",
        ),
        ("thistlethwaite", {"thistlethwaite": {"time_limit": 1e-9}}, "cube.thistlethwaite.time_limit"),
    ],
)
def test_pipeline_time_cap_fails_the_job(cube_tables, tmp_path, solver, settings, key):
    """A load-dependent (time-capped) answer is never kept: one line naming the key, no file."""
    write_cubes(tmp_path / "cubes.txt", 3, 2)
    out = tmp_path / "out.parquet"
    res = cube_cli(
        "solve",
        "--settings",
        json.dumps(settings),
        "--solver",
        solver,
        "--tables",
        str(cube_tables.dir),
        "--file",
        str(tmp_path / "cubes.txt"),
        "--testset",
        "cubes",
        "--out",
        str(out),
        cwd=tmp_path,
    )
    one_line_error(res, "cube 1:", key)
    assert not out.exists()


def test_interactive_time_cap_keeps_the_best_and_says_so(cube_tables, tmp_path):
    cube = random_cube(random.Random(6))
    res = cube_cli(
        "solve",
        cube.to_text(),
        "--target-length",
        "0",
        "--node-budget",
        "1000000000000",
        "--time-limit",
        "0.3",
        "--tables",
        str(cube_tables.dir),
        "--out",
        str(tmp_path / "o.parquet"),
        cwd=tmp_path,
    )
    assert res.returncode == 0 and "stopped by the time limit of 0.3 s" in res.stderr
    row = pl.read_parquet(tmp_path / "o.parquet").row(0, named=True)
    assert row["stopped_by"] == "time"
    assert cube.apply(parse_moves(row["solution"])).is_solved


@pytest.mark.parametrize(
    "extra, fragment",
    [
        (["--time-limit", "3", "--out", "x.parquet"], "--time-limit cannot be combined with --settings"),
        (["--set", "format=contest", "--out", "x.parquet"], "--set cannot be combined with --settings"),
        ([], "--settings (pipeline mode) needs --out"),
        (["--settings", '{"twophase": {"phase2_max": 40}}', "--out", "x.parquet"], "cube.twophase.phase2_max"),
        (
            ["--settings", '{"thistlethwaite": {}}', "--out", "x.parquet"],
            "cube.thistlethwaite: not a setting of this step",
        ),
        (["--settings", "{oops", "--out", "x.parquet"], "--settings: not a JSON object"),
    ],
)
def test_pipeline_mode_errors(cube_tables, tmp_path, capsys, extra, fragment):
    """Pipeline mode takes no flags and no config; its settings errors name the key (in-process CLI)."""
    from puzzlesearch.cli import main

    write_cubes(tmp_path / "cubes.txt", 1, 3)
    code = main(
        [
            "cube",
            "solve",
            "--settings",
            "{}",
            "--tables",
            str(cube_tables.dir),
            "--file",
            str(tmp_path / "cubes.txt"),
            "--testset",
            "cubes",
            *extra,
        ]
    )
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err
    assert not (tmp_path / "x.parquet").exists()


# ------------------------------------------------------------------ Ctrl-C


def interrupt_after(args: list[str], cwd: Path, ready) -> tuple[subprocess.Popen, str, str]:
    """Start `cube solve`, send SIGINT once ready(stdout lines, stderr lines) is true; (process, stdout, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzlesearch", "cube", "solve", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stream = proc.stdout if ready == "stdout" else proc.stderr
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        seen.append(line)
        if (ready == "stdout" and len(seen) >= 5) or (ready == "stderr" and "100 cubes solved" in line):
            proc.send_signal(signal.SIGINT)
            break
    # the rest through the same buffered streams: communicate() reads the raw pipes and would
    # lose what readline() had buffered (a cut line; both streams are small)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=120)
    if ready == "stdout":
        return proc, "".join(seen) + out, err
    return proc, out, "".join(seen) + err


@pytest.mark.parametrize("jobs", ["1", "2"])  # --jobs 2: forked workers, the rows kept in input order
def test_ctrl_c_prints_what_was_solved_and_exits_130(cube_tables, tmp_path, jobs):
    cubes = write_cubes(tmp_path / "many.txt", 5000, 4)
    args = ["--file", str(tmp_path / "many.txt"), "--tables", str(cube_tables.dir), "--jobs", jobs]
    proc, out, err = interrupt_after(args + ["--solver", "thistlethwaite"], tmp_path, "stdout")
    assert proc.returncode == 130, err
    lines = out.splitlines()
    assert 5 <= len(lines) < len(cubes)
    for cube, line in zip(cubes, lines):
        assert cube.apply(parse_moves(line)).is_solved
    assert f"interrupted after {len(lines)} of 5000 cubes" in err and "Traceback" not in err


def test_ctrl_c_writes_the_rows_solved_so_far(cube_tables, tmp_path):
    cubes = write_cubes(tmp_path / "many.txt", 5000, 5)
    out_file = tmp_path / "partial.parquet"
    proc, _, err = interrupt_after(
        [
            "--file",
            str(tmp_path / "many.txt"),
            "--tables",
            str(cube_tables.dir),
            "--solver",
            "thistlethwaite",
            "--out",
            str(out_file),
        ],
        tmp_path,
        "stderr",
    )
    assert proc.returncode == 130, err
    df = pl.read_parquet(out_file)
    assert 100 <= df.height < len(cubes)
    assert f"interrupted after {df.height} of 5000 cubes (the solved ones are written to {out_file})" in err
    for cube, row in zip(cubes, df.iter_rows(named=True)):
        assert row["cube"] == cube.to_text() and parse_cube(row["cube"]).apply(parse_moves(row["solution"])).is_solved
