"""Cube symmetries and the symmetry-reduced two-phase tables, checked against independent facts.

Facts used: conjugation is an automorphism of the cube group that maps face turns to face
turns; published class counts (Kociemba: 64,430 flip-slice classes and 2,768 corner
permutation classes under the 16 symmetries keeping the U-D axis); and plain breadth-first
searches over the raw (unreduced) coordinates for the first layers of each table.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import CPERM, ESLICE, FLIP, TWIST, UDEDGE
from puzzlesearch.cube.model.cubie import MOVE_CUBES, SOLVED, random_cube
from puzzlesearch.cube.model.symmetry import (
    MOVE_CONJ,
    N_SYM,
    N_SYM_UD,
    SYM_INV,
    SYM_MASK,
    SYM_MULT,
    SYM_SHIFT,
    SYMMETRIES,
    URF3,
    conjugate,
    sym_classes,
)


def cubes(n: int, seed: int) -> list:
    rng = random.Random(seed)
    return [random_cube(rng) for _ in range(n)]


def test_conjugation_is_an_automorphism_mapping_moves_to_moves():
    """conj(a * b) = conj(a) * conj(b); composing symmetries follows SYM_MULT; moves go to moves."""
    rng = random.Random(3)
    for a, b in zip(cubes(6, 1), cubes(6, 2)):
        for s in range(N_SYM):
            assert conjugate(a * b, s) == conjugate(a, s) * conjugate(b, s)
            t = rng.randrange(N_SYM)
            assert conjugate(conjugate(a, s), t) == conjugate(a, int(SYM_MULT[s, t]))
            assert conjugate(conjugate(a, s), int(SYM_INV[s])) == a
    for s in range(N_SYM):
        images = [int(MOVE_CONJ[s, m]) for m in range(K.N_MOVES)]
        assert sorted(images) == list(range(K.N_MOVES))  # a bijection of the 18 moves
        for m in range(K.N_MOVES):
            assert conjugate(MOVE_CUBES[m], s) == MOVE_CUBES[images[m]]
            if m % 3 == 1:
                assert images[m] % 3 == 1  # half turns stay half turns


def test_symmetry_numbering():
    """0 is the identity, the first 16 keep the U-D axis (and map G2 moves to G2 moves), URF3 has order 3."""
    assert all(conjugate(c, 0) == c for c in cubes(3, 4))
    assert [s.keeps_ud_axis for s in SYMMETRIES] == [True] * N_SYM_UD + [False] * (N_SYM - N_SYM_UD)
    assert sum(s.mirror for s in SYMMETRIES) == 24 and sum(s.mirror for s in SYMMETRIES[:N_SYM_UD]) == 8
    for s in range(N_SYM_UD):
        assert {int(MOVE_CONJ[s, m]) for m in K.G2_MOVES} == set(K.G2_MOVES)
    urf3_twice = int(SYM_MULT[URF3, URF3])
    assert urf3_twice != 0 and SYM_MULT[urf3_twice, URF3] == 0
    assert MOVE_CONJ[URF3, 0] // 3 != 0  # U turns become turns of another axis


def test_class_counts_are_the_published_ones(cube_tables):
    """Kociemba: 64,430 (E slice, flip) classes and 2,768 corner permutation classes."""
    assert len(cube_tables.sym("sym_fsrep")) == 64_430
    assert len(cube_tables.sym("sym_cprep")) == 2_768
    assert (cube_tables.sym("sym_fsself") & 1).all()  # the identity fixes every representative


def test_sym_lookups_agree_with_conjugating_cubes(cube_tables):
    """Conjugate a cube by the looked-up symmetry, then encode: the class representative, and the conjugated twist/edges."""
    fsclass, fsrep = cube_tables.sym("sym_fsclass"), cube_tables.sym("sym_fsrep")
    twconj, cpclass, cprep = (
        cube_tables.sym("sym_twistconj"),
        cube_tables.sym("sym_cpclass"),
        cube_tables.sym("sym_cprep"),
    )
    udconj = cube_tables.sym("sym_udconj")
    for cube in cubes(20, 5):
        raw = ESLICE.of(cube) * K.N_FLIP + FLIP.of(cube)
        cls, s = fsclass[raw] >> SYM_SHIFT, fsclass[raw] & SYM_MASK
        image = conjugate(cube, int(s))
        assert ESLICE.of(image) * K.N_FLIP + FLIP.of(image) == fsrep[cls]
        for t in range(N_SYM_UD):
            other = conjugate(cube, t)
            assert TWIST.of(other) == twconj[TWIST.of(cube), t]
            assert fsclass[ESLICE.of(other) * K.N_FLIP + FLIP.of(other)] >> SYM_SHIFT == cls  # a class invariant
        g2 = SOLVED.apply([random.Random(CPERM.of(cube)).choice(K.G2_MOVES) for _ in range(30)])
        cs = cpclass[CPERM.of(g2)]
        image = conjugate(g2, int(cs & SYM_MASK))
        assert CPERM.of(image) == cprep[cs >> SYM_SHIFT]
        assert UDEDGE.of(image) == udconj[UDEDGE.of(g2), cs & SYM_MASK]


def test_sym_classes_of_a_tiny_coordinate():
    """A coordinate with 4 values where symmetry 1 swaps 1 and 2: classes {0}, {1, 2}, {3}."""
    conj = np.array([[0, 0], [1, 2], [2, 1], [3, 3]])
    classes = sym_classes(conj)
    assert classes.reps.tolist() == [0, 1, 3]
    assert classes.class_of.tolist() == [0, 1, 1, 2] and classes.sym_of.tolist() == [0, 0, 1, 0]
    assert classes.selfsym.tolist() == [3, 1, 3]


def raw_layers(moves: tuple[int, ...], tables: list[np.ndarray], sizes: list[int], depth: int) -> list[int]:
    """States per distance 0..depth from solved over raw coordinate tuples (plain BFS, no symmetry)."""
    key = lambda cols: np.ravel_multi_index(cols, sizes)  # noqa: E731
    frontier = [np.zeros(1, dtype=np.int64) for _ in sizes]
    seen = np.unique(key(frontier))
    counts = [1]
    for _ in range(depth):
        nxt = [np.concatenate([t[f, m] for m in moves]).astype(np.int64) for t, f in zip(tables, frontier)]
        keys, first = np.unique(key(nxt), return_index=True)
        new = ~np.isin(keys, seen)
        frontier = [col[first[new]] for col in nxt]
        seen = np.union1d(seen, keys[new])
        counts.append(int(new.sum()))
    return counts


def expanded_counts(dist: np.ndarray, orbit: np.ndarray, n_t: int, depth: int) -> list[int]:
    """Raw states per distance from a class table: each class entry stands for orbit-size raw states."""
    per_class = dist.reshape(len(orbit), n_t)
    return [int((orbit * (per_class == d).sum(axis=1)).sum()) for d in range(depth + 1)]


@pytest.mark.parametrize("phase", [1, 2])
def test_class_tables_match_a_raw_bfs(cube_tables, phase):
    """The first layers of each class table, expanded to raw states, equal a plain BFS over raw coordinates."""
    if phase == 1:
        names, sizes, depth, moves = ("twist", "flip", "eslice"), [K.N_TWIST, K.N_FLIP, K.N_SLICE], 5, K.ALL_MOVES
        classes, table, n_t = cube_tables.sym("sym_fsclass"), cube_tables.prune("tp1_sym"), K.N_TWIST
    else:
        names, sizes, depth, moves = ("cperm", "udedge", "sliceperm"), [K.N_CPERM, K.N_UDEDGE, 1], 6, K.G2_MOVES
        classes, table, n_t = cube_tables.sym("sym_cpclass"), cube_tables.prune("tp2_sym"), K.N_UDEDGE
    tables = [cube_tables.move(n) if s > 1 else np.zeros((1, K.N_MOVES), np.int32) for n, s in zip(names, sizes)]
    orbit = np.bincount(classes >> SYM_SHIFT)
    assert expanded_counts(table, orbit, n_t, depth) == raw_layers(moves, tables, sizes, depth)


def test_phase_one_distances_are_consistent(cube_tables):
    """On random cubes: the exact phase-1 distance is at most 12 (Kociemba) and changes by at most 1 per move."""

    fsclass, twconj, dist = (
        cube_tables.sym("sym_fsclass"),
        cube_tables.sym("sym_twistconj"),
        cube_tables.prune("tp1_sym"),
    )
    for cube in cubes(10, 8):
        cs = fsclass[ESLICE.of(cube) * K.N_FLIP + FLIP.of(cube)]
        d = dist[(cs >> SYM_SHIFT) * K.N_TWIST + twconj[TWIST.of(cube), cs & SYM_MASK]]
        assert 0 <= d <= 12  # phase 1 needs at most 12 moves (Kociemba)
        for m in range(K.N_MOVES):  # neighbours differ by at most one move
            nb = cube * MOVE_CUBES[m]
            cs2 = fsclass[ESLICE.of(nb) * K.N_FLIP + FLIP.of(nb)]
            d2 = dist[(cs2 >> SYM_SHIFT) * K.N_TWIST + twconj[TWIST.of(nb), cs2 & SYM_MASK]]
            assert abs(int(d2) - int(d)) <= 1
