"""Move and pruning tables: exact Thistlethwaite coset distributions, consistency with the model."""

from __future__ import annotations

import random
import time

import numpy as np
import polars as pl
import pytest
from cube_testing import read_tsv

from puzzlesearch.cube.model.constants import THISTLETHWAITE_COSETS
from puzzlesearch.cube.model.cubie import MOVE_CUBES, random_cube
from puzzlesearch.cube.tables.phases import (
    COORD_SIZES,
    MOVE_TABLES,
    PRUNE_SPECS,
    build_move_tables,
    distribution,
    write_manifest,
)


def test_phase_tables_match_the_exact_distributions(cube_tables, cube_data):
    rows = {r["phase"]: r for r in read_tsv(cube_data / "thistlethwaite_phase_distributions.tsv")}
    for phase in "1234":
        expected = {
            int(d): int(c)
            for d, c in (pair.split(":") for pair in rows[phase]["distance:count (HTM, phase move set)"].split())
        }
        got = distribution(cube_tables.prune(f"th{phase}"))
        assert got == expected, f"phase {phase}"
        assert sum(got.values()) == int(rows[phase]["n_cosets"])
        assert max(got) == int(rows[phase]["max"])


def test_phase_tables_have_the_coset_counts(cube_tables):
    """Thistlethwaite's coset counts (no ../shared needed): their product is |G| = 4.3e19."""
    for phase, count in enumerate(THISTLETHWAITE_COSETS, 1):
        assert (cube_tables.prune(f"th{phase}") >= 0).sum() == count
    assert np.prod([float(c) for c in THISTLETHWAITE_COSETS]) == pytest.approx(43_252_003_274_489_856_000)


def test_twophase_tables_reach_every_state(cube_tables):
    for name in ("tp1_twist", "tp1_flip", "tp1_sym", "tp2_corner", "tp2_edge", "tp2_sym"):
        table = cube_tables.prune(name)
        assert (table >= 0).all(), name
        assert table.size == COORD_SIZES[PRUNE_SPECS[name].a] * COORD_SIZES[PRUNE_SPECS[name].b]


def test_move_tables_agree_with_the_cubie_model(cube_tables):
    """coordinate(cube * move) == move_table[coordinate(cube), move] on random cubes."""
    rng = random.Random(11)
    cubes = [random_cube(rng) for _ in range(30)]
    for name in ("flip", "twist", "eslice", "mslice", "cperm", "cclass"):
        table = cube_tables.move(name)
        for cube in cubes:
            c = cube_tables.coord(name, cube)
            for m, move in enumerate(MOVE_CUBES):
                assert table[c, m] == cube_tables.coord(name, cube * move), (name, m)


def test_manifest_lists_every_table(cube_tables):
    df = pl.read_parquet(cube_tables.dir / "manifest.parquet")
    names = set(df["table"])
    assert {f"prune_{n}" for n in PRUNE_SPECS} <= names
    assert {f"move_{n}" for n in MOVE_TABLES} <= names
    prune = df.filter(pl.col("kind") == "prune")
    assert (prune["bytes"] == prune["entries"]).all()  # int8
    assert (df["build_seconds"] >= 0).all()
    th2 = prune.filter(pl.col("table") == "prune_th2").row(0, named=True)
    assert th2["reached"] == 1_082_565 and th2["max_depth"] == 10


def test_move_table_build_seconds_add_up_to_at_most_the_wall_time(tmp_path):
    """Each build step's seconds are counted once, so the manifest's sum fits in the measured time."""
    t0 = time.perf_counter()
    build_move_tables(tmp_path)
    wall = time.perf_counter() - t0
    df = write_manifest(tmp_path, complete=False)
    assert df["build_seconds"].sum() <= wall + 0.001
    corner = df.filter(pl.col("table").is_in(["cperm_half", "move_cclass", "move_chalf"]))
    assert corner.height == 3 and (corner["build_seconds"] == 0).all()
    assert all("cperm_class" in note for note in corner["note"])
