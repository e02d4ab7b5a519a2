"""Move and pruning tables: exact Thistlethwaite coset distributions, consistency with the model."""

from __future__ import annotations

import random
import time

import numpy as np
import polars as pl
import pytest
from cube_testing import read_tsv

from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.constants import THISTLETHWAITE_COSETS
from puzzlesearch.cube.model.cubie import MOVE_CUBES, CubieCube, random_cube
from puzzlesearch.cube.tables.phases import (
    COORD_SIZES,
    MOVE_TABLES,
    NEXT_STEM,
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
    for name in ("tp1_sym", "tp2_corner", "tp2_edge", "tp2_sym"):
        table = cube_tables.prune(name)
        assert (table >= 0).all(), name
        assert table.size == COORD_SIZES[PRUNE_SPECS[name].a] * COORD_SIZES[PRUNE_SPECS[name].b]


def test_move_tables_agree_with_the_cubie_model(cube_tables):
    """coordinate(cube * move) == move_table[coordinate(cube), move] on random cubes."""
    rng = random.Random(11)
    cubes = [random_cube(rng) for _ in range(30)]
    for name in ("flip", "twist", "eslice", "mslice", "cperm", "cclass", "slice_sorted"):
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
    assert NEXT_STEM in names
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


def test_next_table_agrees_with_the_exact_phase1_table(cube_tables):
    """next_tp1's distances are tp1_sym's; its move masks say what tp1_sym says of each neighbour.

    The neighbours are found here from the cubie model (each sampled entry's representative
    is decoded to a cube, turned by every move, and its coordinates read off), not from the
    move tables the build used.
    """
    from puzzlesearch.cube._kernels.phase_next import AWAY_BIT, N_POWERS, NEXT_DIST_SHIFT, NIBBLE_BITS, NIBBLE_MASK
    from puzzlesearch.cube.model.coords import ESLICE, FLIP, TWIST
    from puzzlesearch.cube.model.symmetry import SYM_MASK, SYM_SHIFT

    table, exact = cube_tables.next(), cube_tables.prune("tp1_sym")
    assert ((table >> NEXT_DIST_SHIFT).astype(np.int8) == exact).all()
    fsclass, fsrep, tconj = (
        cube_tables.sym("sym_fsclass"),
        cube_tables.sym("sym_fsrep"),
        cube_tables.sym("sym_twistconj"),
    )
    rng = np.random.default_rng(28)
    flip_reps, slice_reps, twist_reps = FLIP.decode(), ESLICE.decode(), TWIST.decode()
    for idx in rng.integers(0, table.size, 300):
        c, t = divmod(int(idx), K.N_TWIST)
        sl, fl = divmod(int(fsrep[c]), K.N_FLIP)
        rows = (slice_reps[0][sl], twist_reps[1][t], slice_reps[2][sl], flip_reps[3][fl])  # cp, co, ep, eo
        cube = CubieCube(*(tuple(int(x) for x in row) for row in rows))
        for m, move in enumerate(MOVE_CUBES):
            turned = cube * move
            raw = cube_tables.coord("eslice", turned) * K.N_FLIP + cube_tables.coord("flip", turned)
            cs = int(fsclass[raw])
            child = int(exact[(cs >> SYM_SHIFT) * K.N_TWIST + tconj[cube_tables.coord("twist", turned), cs & SYM_MASK]])
            nib = (int(table[idx]) >> (NIBBLE_BITS * (m // N_POWERS))) & NIBBLE_MASK
            delta = ((nib >> (m % N_POWERS)) & 1) + (nib >> AWAY_BIT) - 1
            assert child - int(exact[idx]) == delta, (int(idx), m)


def test_fsmove_follows_the_flip_slice_class_along_random_walks(cube_tables):
    """fsmove (the representatives' moves, conjugated along) keeps the class of the raw state and a
    symmetry that takes it there: the same class and the same phase-1 distance as a look-up of the raw state."""
    from puzzlesearch.cube._kernels.phase_next import NEXT_DIST_SHIFT
    from puzzlesearch.cube.model.symmetry import SYM_MASK, SYM_SHIFT
    from puzzlesearch.cube.solvers.twophase import FSMOVE_SYM_AT, UD_MOVE_CONJ, UD_SYM_MULT, fsmove_of

    (fsmove, fsmove_sym), fsclass = fsmove_of(cube_tables), cube_tables.sym("sym_fsclass")
    tconj = cube_tables.sym("sym_twistconj")
    assert fsmove.ctypes.data % 64 == 0 and fsmove.strides[0] == 64 and fsmove_sym.ctypes.data == fsmove.ctypes.data
    table = cube_tables.next()
    rng = random.Random(7)
    for _ in range(40):
        cube = random_cube(rng)
        cs = int(fsclass[cube_tables.coord("eslice", cube) * K.N_FLIP + cube_tables.coord("flip", cube)])
        c, s = cs >> SYM_SHIFT, cs & SYM_MASK
        for _ in range(25):
            m = rng.randrange(K.N_MOVES)
            mc = UD_MOVE_CONJ[s, m]
            c, s = int(fsmove[c, mc]), int(UD_SYM_MULT[s, fsmove_sym[c, FSMOVE_SYM_AT + mc]])
            cube = cube * MOVE_CUBES[m]
            raw = int(fsclass[cube_tables.coord("eslice", cube) * K.N_FLIP + cube_tables.coord("flip", cube)])
            assert c == raw >> SYM_SHIFT
            t = cube_tables.coord("twist", cube)
            walked = int(table[c * K.N_TWIST + tconj[t, s]]) >> NEXT_DIST_SHIFT
            looked_up = int(table[(raw >> SYM_SHIFT) * K.N_TWIST + tconj[t, raw & SYM_MASK]]) >> NEXT_DIST_SHIFT
            assert walked == looked_up


def test_mapped_tables_are_page_cache_maps_and_solve_alike(cube_tables):
    """For a few cubes (mapped_for) the large tables are mapped from the page cache, not copied; the
    small ones are read; both kinds of Tables verify and solve random cubes with verified solutions."""
    from puzzlesearch.cube.solve import solve_cube
    from puzzlesearch.cube.tables.phases import MAPPED_AT_LEAST, MAPPED_UP_TO, Tables, mapped_for

    assert mapped_for(1) and mapped_for(MAPPED_UP_TO) and not mapped_for(MAPPED_UP_TO + 1)
    mapped, read = Tables(cube_tables.dir, mapped=True), Tables(cube_tables.dir)
    rng = random.Random(5)
    for _ in range(5):
        cube = random_cube(rng)
        a, b = solve_cube(cube, mapped, "twophase"), solve_cube(cube, read, "twophase")  # each verified by applying it
        assert a.moves == b.moves  # same tables, same search: the same answer
    files = {p.stem for p in mapped.dir.glob("*.npy")}  # the cache also holds arrays derived from them
    arrays = {stem: arr for stem, arr in mapped._cache.items() if stem in files}
    assert arrays[NEXT_STEM].nbytes >= MAPPED_AT_LEAST > min(arr.nbytes for arr in arrays.values())
    for stem, arr in arrays.items():
        assert isinstance(arr.base, np.memmap) == (arr.nbytes >= MAPPED_AT_LEAST), stem
        assert not isinstance(read._cache[stem].base, np.memmap), stem
