"""Crafted tables: entries in range, manifest rewritten to match, structure broken (the loaders' structural checks).

Each case changes a table so that every entry stays in range, rewrites its manifest (the
checksum then agrees), and runs the real `puzzlesearch cube solve`: one line naming the
file, exit 2, no traceback, no hang. Before the structural checks (tables/structure.py)
each of these solved wrongly, crashed on an unverified solution, or named another file.
The tables are the small ones: the Thistlethwaite tables and the optimal solver's tiny ones.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from puzzlesearch.cube.model.cubie import parse_cube, parse_moves
from puzzlesearch.manifest import write_manifest

SCRAMBLE = "R U2 F' L D B2 R' U F2 D'"
SHORT = "R U F' D2"  # the optimal solver's tiny table is weak: a short scramble


def cube_solve(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m puzzlesearch cube solve ...` as a subprocess, with a timeout (a hang fails)."""
    return subprocess.run(
        [sys.executable, "-m", "puzzlesearch", "cube", "solve", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=240,  # a hang fails; a loaded machine (4 test workers on 2 cores) needs minutes
    )


def one_line_error(out: subprocess.CompletedProcess, path: Path, fragment: str) -> None:
    """Exit 2, nothing on stdout, one stderr line naming the file, no traceback."""
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stdout == "" and "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(lines) == 1 and out.stderr.count("\n") == 1, out.stderr
    assert str(path) in lines[0] and fragment in lines[0], lines[0]


def solves(out: subprocess.CompletedProcess, scramble: str) -> None:
    """Exit 0 and the printed solution takes the scrambled cube to solved."""
    assert out.returncode == 0, out.stderr[-2000:]
    cube = parse_cube(scramble)
    assert cube.apply(parse_moves(out.stdout.strip().splitlines()[-1])).is_solved, out.stdout


def remanifest(path: Path, files=None) -> None:
    """Rewrite the manifest (<stem>.json) over the changed file(s): the checksum then agrees."""
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    head = meta.pop("manifest")
    files = files or [path]
    write_manifest(meta_path, files, head["kind"], head.get("settings", {}), meta)


@pytest.fixture(scope="module")
def th_tables(tmp_path_factory) -> Path:
    """The move tables, the symmetry lookups and the four Thistlethwaite pruning tables (seconds)."""
    from puzzlesearch.cube.tables.phases import build_move_tables, build_prune_table

    folder = tmp_path_factory.mktemp("crafted") / "tables"
    build_move_tables(folder)
    for name in ("th1", "th2", "th3", "th4"):
        build_prune_table(name, folder)
    return folder


@pytest.fixture
def tables(th_tables, tmp_path) -> Path:
    folder = tmp_path / "tables"
    shutil.copytree(th_tables, folder)
    return folder


def craft(path: Path, change) -> None:
    """Change a .npy table in place (same dtype and shape) and rewrite its manifest."""
    arr = np.load(path)
    change(arr)
    np.save(path, arr)
    remanifest(path)


def test_undamaged_tables_solve(tables, tmp_path):
    solves(cube_solve(SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables), cwd=tmp_path), SCRAMBLE)


def test_move_table_column_not_a_permutation(tables, tmp_path):
    path = tables / "move_flip.npy"

    def change(t):
        t[5, 0] = t[6, 0]  # U of flip 5 lands where U of flip 6 does: in range, not a permutation

    craft(path, change)
    out = cube_solve(SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables), cwd=tmp_path)
    one_line_error(out, path, "not undone by U'")


def test_move_table_with_two_rows_swapped(tables, tmp_path):
    path = tables / "move_cclass.npy"  # still permutations, but U then U' no longer gives the entry back
    craft(path, lambda t: t.__setitem__(slice(0, 2), t[[1, 0]]))
    out = cube_solve(SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables), cwd=tmp_path)
    one_line_error(out, path, "is not undone")


def test_corner_lookup_that_disagrees_with_the_move_tables(tables, tmp_path):
    path = tables / "cperm_half.npy"

    def change(t):
        a, b = np.flatnonzero(t >= 0)[[1, 2]]
        t[a], t[b] = t[b], t[a]  # two members of H renumbered: every value still once

    craft(path, change)
    out = cube_solve(SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables), cwd=tmp_path)
    one_line_error(out, path, "disagrees with move_cperm")


@pytest.mark.parametrize(
    "change, fragment",
    [
        ("deeper", "disagrees with its neighbours"),  # an inadmissible bound: non-optimal phases
        ("second_zero", "disagrees with its neighbours"),  # a second goal: a phase ends off its group
        ("goal", "the goal's entry"),
    ],
)
def test_prune_table_that_is_no_bfs_distance(tables, tmp_path, change, fragment):
    path = tables / "prune_th2.npy"

    def apply(t):
        if change == "deeper":
            i = int(np.flatnonzero(t == 3)[0])
            t[i] = 5  # within 0..max depth, two more than its neighbours allow
        elif change == "second_zero":
            t[int(np.flatnonzero(t == 1)[0])] = 0
        else:
            t[int(np.flatnonzero(t == 0)[0])] = 1

    craft(path, apply)
    out = cube_solve(SCRAMBLE, "--solver", "thistlethwaite", "--tables", str(tables), cwd=tmp_path)
    one_line_error(out, path, fragment)


@pytest.mark.parametrize(
    "stem, fragment",
    [("sym_twistconj", "not undone by the inverse symmetry"), ("sym_fsclass", "not in its class")],
)
def test_symmetry_lookup_that_is_inconsistent(tables, tmp_path, stem, fragment):
    # two-phase loads move tables, then sym_fsclass (with its representatives) and sym_twistconj,
    # before any pruning table: this folder has none of the two-phase ones, so they are reached first
    path = tables / f"{stem}.npy"

    def change(t):
        if stem == "sym_twistconj":
            t[[3, 4], 5] = t[[4, 4], 5]  # a conjugation that is no permutation
        else:
            rep = np.load(tables / "sym_fsrep.npy")
            t[rep[7]] = t[rep[8]]  # a representative put into another class

    craft(path, change)
    out = cube_solve(SCRAMBLE, "--solver", "twophase", "--tables", str(tables), cwd=tmp_path)
    one_line_error(out, path, fragment)


# ------------------------------------------------------------------ the optimal solver's tiny tables


@pytest.fixture(scope="module")
def opt_tables(tmp_path_factory) -> Path:
    """The tiny big table and the tiny coset table (seconds)."""
    from puzzlesearch.cube.tables import big, coset

    folder = tmp_path_factory.mktemp("crafted_optimal") / "tables"
    big.build_table("tiny", folder)
    coset.build_table("tiny", folder)
    return folder


@pytest.fixture
def opt_project(opt_tables, tmp_path) -> tuple[Path, Path]:
    """(project folder with config cube.optimal.table tiny, a private copy of the tiny tables)."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "Snakefile").write_text("# a project marker\n")
    (project / "config.yaml").write_text("lexicons:\n  default: builtin:en\ncube:\n  optimal:\n    table: tiny\n")
    folder = tmp_path / "tables"
    shutil.copytree(opt_tables, folder)
    return project, folder


def test_undamaged_optimal_tables_solve(opt_project):
    project, folder = opt_project
    solves(cube_solve(SHORT, "--solver", "optimal", "--tables", str(folder), cwd=project), SHORT)


def read_only(folder: Path, stem: str) -> None:
    """Leave the folder so the search reads the table `stem`: the big table is read only without a
    coset table (with one, the search reads the coset table alone), so for it the coset files go."""
    if stem.startswith("optimal_"):
        for path in folder.glob("coset_*"):
            path.unlink()


@pytest.mark.parametrize("stem", ["optimal_tiny", "coset_tiny"])
def test_classes_whose_representatives_left_their_class(opt_project, stem):
    project, folder = opt_project
    read_only(folder, stem)
    path = folder / f"{stem}_classes.npz"
    with np.load(path) as data:
        arrays = dict(data)
    arrays["rep"][[0, 1]] = arrays["rep"][[1, 0]]  # in range, each class's representative now in another
    np.savez(path, **arrays)
    remanifest(folder / f"{stem}.npy", sorted(p for p in folder.glob(f"{stem}*") if p.suffix != ".json"))
    out = cube_solve(SHORT, "--solver", "optimal", "--tables", str(folder), cwd=project)
    one_line_error(out, path, "not in its class")


@pytest.mark.parametrize("stem", ["optimal_tiny", "coset_tiny"])
def test_packed_table_with_unreached_entries(opt_project, stem):
    project, folder = opt_project
    read_only(folder, stem)
    path = folder / f"{stem}.npy"
    table = np.load(path)
    table[len(table) // 2 :] = 255  # every byte in range (uint8): half the entries EMPTY, as before the BFS
    np.save(path, table)
    remanifest(path, sorted(p for p in folder.glob(f"{stem}*") if p.suffix != ".json"))
    out = cube_solve(SHORT, "--solver", "optimal", "--tables", str(folder), cwd=project)
    one_line_error(out, path, "never reached")


# ------------------------------------------------------------------ two-phase's move-mask table


def test_next_table_with_a_wrong_move_mask(cube_tables, tmp_path):
    """next_tp1 (564 MB, from the session's tables): one sampled entry says a move keeps the distance when it does not."""
    from puzzlesearch.cube._kernels.phase_next import AWAY_BIT, NEXT_DIST_SHIFT
    from puzzlesearch.cube.tables.phases import NEXT_STEM, Tables, move_table_files
    from puzzlesearch.cube.tables.structure import sample_of
    from puzzlesearch.manifest import ArtifactError

    folder = tmp_path / "tables"
    folder.mkdir()
    for npy in [*move_table_files(cube_tables.dir), cube_tables.dir / f"{NEXT_STEM}.npy"]:
        for f in (npy, npy.with_suffix(".json")):
            shutil.copy(f, folder / f.name)
    path = folder / f"{NEXT_STEM}.npy"

    def change(t):
        idx = sample_of(t.size)
        at = int(idx[np.flatnonzero(t[idx] >> NEXT_DIST_SHIFT >= 2)[0]])
        t[at] ^= np.uint32(1 << AWAY_BIT)  # U's face: every delta moves by one, distances untouched

    craft(path, change)
    with pytest.raises(ArtifactError, match="disagrees with its neighbours") as err:
        Tables(folder).next()
    assert str(path) in str(err.value)
