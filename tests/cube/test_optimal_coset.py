"""The coset table (corner classes x flip x E-slice): its class count against nxopt's published
9,930, the tiny table's every entry against a plain BFS over the raw (unreduced) coordinates,
the symmetry look-ups against cubes conjugated directly, and the solver with the table on:
answers equal a meet-in-the-middle BFS and the answers without it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from test_optimal import OPTIONS, meet_in_the_middle_distance, scramble  # the same BFS helpers

from puzzlesearch.cli import main
from puzzlesearch.cube._kernels.coset_blocks import move_mask
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import ESLICE, FLIP, TWIST
from puzzlesearch.cube.model.cubie import SOLVED, CubieCube, parse_moves
from puzzlesearch.cube.model.symmetry import conjugate_arrays
from puzzlesearch.cube.tables.coset import (
    CTOP,
    N_CLASSES,
    bfs_tables,
    build_classes,
    build_table,
    coset_tables,
    load_table,
    row_stride,
    table_path,
)
from puzzlesearch.manifest import ArtifactError


@pytest.fixture(scope="module")
def coset_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("coset_tiny")
    build_table("tiny", folder)
    return folder


@pytest.fixture(scope="module")
def coset(coset_dir):
    return load_table(coset_dir, "tiny")


@njit
def _raw_bfs(mc, mt, ms):
    """Distances of every (U-corner positions, twist, E-slice) value, no symmetry (uint8, 255 = unseen)."""
    n_tw, n_sl = mt.shape[0], ms.shape[0]
    n = mc.shape[0] * n_tw * n_sl
    dist = np.full(n, 255, np.uint8)
    dist[0] = 0
    depth = 0
    grew = True
    while grew:
        grew = False
        for x in range(n):
            if dist[x] != depth:
                continue
            sl, y = x % n_sl, x // n_sl
            tw, ct = y % n_tw, y // n_tw
            for m in range(mc.shape[1]):
                z = (mc[ct, m] * n_tw + mt[tw, m]) * n_sl + ms[sl, m]
                if dist[z] == 255:
                    dist[z] = depth + 1
                    grew = True
        depth += 1
    return dist


@njit
def _tiny_entries(table, bound, class_sym, slice_conj, stride):
    """The 2-bit entries of every raw (corners, twist, E-slice) value in the tiny table and its bound copy
    (uint8 each): row = the class of (corners, twist), column = the E slice conjugated by its symmetry.
    One loop, so no 75.8M-entry int64 temporaries (numpy's form of it took ~35 s, most of it allocating)."""
    n_sl = slice_conj.shape[0]
    n = class_sym.shape[0] * n_sl
    entry = np.empty(n, np.uint8)
    bound_entry = np.empty(n, np.uint8)
    for x in range(n):
        sl, y = x % n_sl, x // n_sl
        cs = np.int64(class_sym[y])
        i = (cs >> 4) * stride + slice_conj[sl, cs & 15]
        entry[x] = (table[i >> 2] >> ((i & 3) << 1)) & 3
        bound_entry[x] = (bound[i >> 2] >> ((i & 3) << 1)) & 3
    return entry, bound_entry


def _random_arrays(n: int, seed: int):
    """n random cube states (any permutations, orientations summing to zero)."""
    rng = np.random.default_rng(seed)
    cp = np.array([rng.permutation(8) for _ in range(n)])
    ep = np.array([rng.permutation(12) for _ in range(n)])
    co = rng.integers(0, 3, (n, 8))
    co[:, -1] = (-co[:, :-1].sum(axis=1)) % 3
    eo = rng.integers(0, 2, (n, 12))
    eo[:, -1] = eo[:, :-1].sum(axis=1) % 2
    return cp, co, ep, eo


def test_corner_classes_match_nxopt_count():
    classes = build_classes()
    assert len(classes.rep) == N_CLASSES == 9930  # Rokicki, nxopt.md: 153,090 values -> 9,930 classes


def test_tiny_table_equals_raw_bfs_mod_3(coset):
    ct = coset_tables()
    dist = _raw_bfs(ct.ctop, ct.twist, ct.eslice)
    assert (dist < 255).all() and dist.max() == 10
    entry, bound_entry = _tiny_entries(coset.table, coset.bound, coset.class_sym, ct.slice_conj, row_stride("tiny"))
    assert (entry == dist % 3).all()
    distribution = np.bincount(dist)
    assert coset.meta["max_depth"] == 10 and distribution[0] == 1
    # the bound copy (inverse look-ups): a lower bound everywhere, exact just above its near depth
    lower = coset.lower[bound_entry]
    near = coset.meta["near_depth"]
    assert (lower <= dist).all()
    assert (lower[(dist > near) & (dist <= near + 3)] == dist[(dist > near) & (dist <= near + 3)]).all()
    assert (lower[dist <= near] == 0).all()


def test_forward_levels_set_the_same_entries_on_one_thread_as_on_all(coset):
    """The forward levels set entries in place from all threads at once (an atomic and on a byte that
    four entries share): the tiny table built on one thread is the fixture's, built on all, byte for
    byte, with the same count at every level."""
    import numba

    from puzzlesearch.cube.tables.coset import build_packed

    threads = numba.get_num_threads()
    if threads < 2:
        pytest.skip("numba has one thread here: nothing runs at once")
    numba.set_num_threads(1)
    try:
        one, dist, _, _ = build_packed("tiny", build_classes(), keep_near=-1)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(one, coset.table)
    assert " ".join(f"{d}:{c}" for d, c in dist.items()) == coset.meta["distribution"]


def test_symmetry_look_ups_equal_cubes_conjugated_directly():
    """class_sym's symmetry u maps (U corners, twist) to the class representative; the column
    tables conjugate (flip, E-slice) as conjugating the cube by u does."""
    from puzzlesearch.cube._kernels.coset import _conj_col, _geometry, _move_conj_col

    classes = build_classes()
    _, cols = bfs_tables("full")
    geo = _geometry(cols)
    a = _random_arrays(100, 7)
    x = CTOP.encode(a) * K.N_TWIST + TWIST.encode(a)
    col = ESLICE.encode(a) * K.N_FLIP + FLIP.encode(a)
    for s in range(16):
        b = conjugate_arrays(a, s)
        want = ESLICE.encode(b) * K.N_FLIP + FLIP.encode(b)
        assert [_conj_col(cols, int(t), s, geo) for t in col] == want.tolist()
    u = classes.symidx[x]
    for k in range(len(x)):
        one = tuple(arr[k : k + 1] for arr in a)
        conj = conjugate_arrays(one, int(u[k]))
        rep = classes.rep[classes.classidx[x[k]]]
        assert CTOP.encode(conj)[0] * K.N_TWIST + TWIST.encode(conj)[0] == rep
    from puzzlesearch.cube.model.coords import apply_move

    for m in range(K.N_MOVES):
        for s in (0, 5, 9):
            b = conjugate_arrays(apply_move(a, m), s)
            want = ESLICE.encode(b) * K.N_FLIP + FLIP.encode(b)
            assert [_move_conj_col(cols, int(t), m, s, geo) for t in col] == want.tolist()


@pytest.mark.parametrize("length", [3, 5, 7])
def test_coset_look_ups_keep_answers_optimal(coset, length):
    from puzzlesearch.cube.solvers.optimal import SearchTables
    from puzzlesearch.cube.tables.big import store_table

    big = store_table("tiny")
    for on, off in _with_and_without(SearchTables(big, coset=coset), random.Random(5100 + length), length):
        assert on.nodes <= off.nodes


def _with_and_without(tables, rng, length: int):
    """(with the coset table, without it) of two scrambles, each checked: solved, and the same optimal length
    as a meet-in-the-middle BFS."""
    from puzzlesearch.cube.solvers.optimal import search

    pairs = []
    for _ in range(2):
        cube = SOLVED.apply(scramble(rng, length))
        on = search(cube, tables, OPTIONS)
        off = search(cube, tables, replace(OPTIONS, coset=False))
        assert cube.apply(on.moves).is_solved
        assert len(on.moves) == len(off.moves) == meet_in_the_middle_distance(cube)
        pairs.append((on, off))
    return pairs


def test_coset_distances_are_lower_bounds_of_known_cubes(coset):
    from puzzlesearch.cube._kernels.coset import coset_depth

    rng = random.Random(77)
    bundle, moves = coset.bundle(), coset.moves()
    for n in range(0, 9):
        cube: CubieCube = SOLVED.apply(scramble(rng, n))
        d = coset_depth(bundle, moves, CTOP.of(cube), TWIST.of(cube), FLIP.of(cube), ESLICE.of(cube))
        assert 0 <= d <= n


def test_damaged_coset_table_is_one_line_naming_the_file(coset_dir, tmp_path):
    import shutil

    copy = tmp_path / "coset"
    shutil.copytree(coset_dir, copy)
    path = table_path(copy, "tiny")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x55
    path.write_bytes(bytes(data))
    with pytest.raises(ArtifactError) as err:
        load_table(copy, "tiny")
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_cli_builds_and_uses_the_coset_table(tmp_path, capsys):
    from puzzlesearch.cube.tables.big import build_table as build_big

    folder = tmp_path / "tables"
    build_big("tiny", folder)
    solve = ["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(folder)]
    moves = "R U2 F' L D B"
    capsys.readouterr()
    assert main([*solve, moves]) == 0
    assert "coset look-ups off" in capsys.readouterr().err
    assert main(["cube", "build-optimal-coset", "tiny", "--out-dir", str(folder)]) == 0
    capsys.readouterr()
    assert main([*solve, moves]) == 0
    out = capsys.readouterr()
    assert "coset look-ups off" not in out.err
    answer = parse_moves(out.out.strip())
    assert SOLVED.apply(parse_moves(moves)).apply(answer).is_solved and len(answer) <= 6
    path = table_path(folder, "tiny")
    path.write_bytes(path.read_bytes()[:-7])
    assert main([*solve, moves]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("puzzlesearch: error")]
    assert len(errors) == 1 and str(path) in errors[0] and "truncated" in errors[0]


def test_a_folder_with_the_coset_table_alone_solves_optimally(coset_dir, coset, tmp_path, capsys):
    """The search reads no big table when the coset table is there: a folder holding only the coset
    table answers optimally (against a meet-in-the-middle BFS), and a search that would read the big
    table without one is refused in one line."""
    import shutil

    from puzzlesearch.cube.solvers.optimal import SearchTables, search
    from puzzlesearch.errors import PuzzleError

    folder = tmp_path / "coset_only"
    shutil.copytree(coset_dir, folder)
    assert not list(folder.glob("optimal_*"))
    rng = random.Random(2812)
    cubes = [SOLVED.apply(scramble(rng, n)) for n in (5, 7)]
    capsys.readouterr()
    solve = ["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(folder)]
    assert main([*solve, *(c.to_text() for c in cubes)]) == 0
    out = capsys.readouterr()
    assert "look-ups off" not in out.err
    for cube, line in zip(cubes, out.out.strip().splitlines()):
        answer = parse_moves(line)
        assert cube.apply(answer).is_solved and len(answer) == meet_in_the_middle_distance(cube)
    with pytest.raises(PuzzleError) as err:
        search(cubes[0], SearchTables(None, coset=coset), replace(OPTIONS, big=True))
    assert "no big table" in str(err.value) and "\n" not in str(err.value)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert (
        main(["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(empty), "R U"])
        == 2
    )
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("puzzlesearch: error")]
    assert len(errors) == 1 and "holds no optimal table" in errors[0] and "build-optimal-coset tiny" in errors[0]


def test_a_long_search_logs_each_depth_bound(coset_dir, tmp_path, capsys, monkeypatch):
    """One cube at a time, the CLI's search logs each new depth bound once it has run
    PROGRESS_AFTER seconds (here 0): the bounds rise one by one up to the answer's length."""
    import re

    from puzzlesearch.cube._kernels import optimal_search

    monkeypatch.setattr(optimal_search, "PROGRESS_AFTER", 0.0)
    cube = SOLVED.apply(scramble(random.Random(2813), 8))
    capsys.readouterr()
    solve = ["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(coset_dir)]
    assert main([*solve, cube.to_text()]) == 0
    out = capsys.readouterr()
    answer = parse_moves(out.out.strip())
    assert cube.apply(answer).is_solved and len(answer) == meet_in_the_middle_distance(cube)
    bounds = [int(b) for b in re.findall(r"no solution shorter than (\d+); searching", out.err)]
    assert bounds and bounds == list(range(bounds[0], len(answer) + 1))  # the last one finds the answer
    assert "loading and checking" not in out.err  # (the tiny table: no load line)


def test_a_few_cubes_map_the_coset_table_and_answer_optimally(coset_dir, capsys, monkeypatch):
    """Up to MAPPED_UP_TO cubes, the CLI maps the coset table's files from the page cache instead of reading
    them (here every file maps: MAP_AT_LEAST 0); the answers stay optimal (meet-in-the-middle BFS). One
    cube more, and the files are read into memory."""
    from puzzlesearch import manifest
    from puzzlesearch.cube.solvers.optimal import MAPPED_UP_TO

    monkeypatch.setattr(manifest, "MAP_AT_LEAST", 0)
    modes: list[tuple[str, object]] = []
    plain_load = np.load

    def spy(path, *args, **kwargs):
        modes.append((Path(path).name, kwargs.get("mmap_mode")))
        return plain_load(path, *args, **kwargs)

    monkeypatch.setattr(np, "load", spy)
    rng = random.Random(2814)
    cubes = [SOLVED.apply(scramble(rng, n)) for n in (6, 7)]
    solve = ["cube", "solve", "--solver", "optimal", "--set", "optimal.table=tiny", "--tables", str(coset_dir)]
    capsys.readouterr()
    assert main([*solve, *(c.to_text() for c in cubes)]) == 0
    for cube, line in zip(cubes, capsys.readouterr().out.strip().splitlines()):
        answer = parse_moves(line)
        assert cube.apply(answer).is_solved and len(answer) == meet_in_the_middle_distance(cube)
    assert ("coset_tiny.npy", "c") in modes and ("coset_tiny_bound.npy", "c") in modes
    modes.clear()
    assert main([*solve, *(SOLVED.apply(scramble(rng, 3)).to_text() for _ in range(MAPPED_UP_TO + 1))]) == 0
    assert ("coset_tiny.npy", None) in modes and all(mode is None for _, mode in modes)


def test_a_mapped_load_is_the_same_writable_array(tmp_path):
    """manifest.load_npy within mapped_loads: a copy-on-write mapping of the file, equal to the read array and
    of the same numba type (a read-only mapping would compile the kernels again for another type)."""
    import numba

    from puzzlesearch import manifest

    data = np.arange(5000, dtype=np.uint8)
    path = tmp_path / "t.npy"
    np.save(path, data)
    meta = manifest.write_manifest(tmp_path / "t.json", [path], "test")
    plain = manifest.load_npy(path, meta)
    with manifest.mapped_loads(at_least=0):
        mapped = manifest.load_npy(path, meta)
    assert type(mapped) is np.ndarray and isinstance(mapped.base, np.memmap)
    assert (mapped == data).all() and mapped.flags.writeable and not isinstance(plain.base, np.memmap)
    assert numba.typeof(mapped) == numba.typeof(plain)
    with manifest.mapped_loads(at_least=data.nbytes + 1000):  # smaller than the threshold: read
        assert not isinstance(manifest.load_npy(path, meta).base, np.memmap)


# ------------------------------------------------------------------ the large variant (nxopt EP2 x EO2)


@pytest.fixture(scope="module")
def edges():
    """The large variant's columns alone (one row), mod 3 and in the bound encoding (base 5)."""
    from puzzlesearch.cube.tables.coset import build_packed, trivial_classes

    classes = trivial_classes()
    return classes, build_packed("edges", classes)[0], build_packed("edges", classes, base=5)


@njit
def _raw_edges_bfs(mss, mud):
    """Distances of every (sorted E slice, U/D-layer flips) value by plain BFS over the raw move tables."""
    n_b = 256
    n = mss.shape[0] * n_b
    dist = np.full(n, 255, np.uint8)
    dist[0] = 0
    depth, grew = 0, True
    while grew:
        grew = False
        for x in range(n):
            if dist[x] != depth:
                continue
            a, b = x // n_b, x % n_b
            for m in range(mss.shape[1]):
                z = mss[a, m] * n_b + mud[(a // 24) * n_b + b, m] % n_b
                if dist[z] == 255:
                    dist[z] = depth + 1
                    grew = True
        depth += 1
    return dist


def _entries(table, n):
    i = np.arange(n)
    return (table[i >> 2] >> ((i & 3) << 1)) & 3


def test_large_columns_move_and_conjugate_as_cubes_do():
    """The sorted E slice and the U/D-layer flips (by position, E edges' flips ignored) of random cubes:
    their move and symmetry tables give what moving or conjugating the cubes gives."""
    from puzzlesearch.cube.model.coords import SLICE_SORTED, apply_move
    from puzzlesearch.cube.tables.coset import UDFLIP, large_columns

    lc = large_columns()
    a = _random_arrays(300, 11)
    ss, ud = SLICE_SORTED.encode(a), UDFLIP.encode(a)
    for m in range(K.N_MOVES):
        b = apply_move(a, m)
        assert (lc.ss[ss, m] == SLICE_SORTED.encode(b)).all() and (lc.udflip[ud, m] == UDFLIP.encode(b)).all()
    for s in range(16):
        b = conjugate_arrays(a, s)
        assert (lc.ss_conj[ss, s] == SLICE_SORTED.encode(b)).all()
        assert (lc.udflip_conj[ud, s] == UDFLIP.encode(b)).all()
    flipped = (a[0], a[1], a[2], a[3].copy())  # flipping two E edges leaves the value as it is
    rows = np.arange(len(ud))
    e_pos = np.argsort(a[2] < 8, axis=1, kind="stable")[:, :2]
    flipped[3][rows[:, None], e_pos] ^= 1
    assert (UDFLIP.encode(flipped) == ud).all()


def test_large_columns_alone_equal_raw_bfs(edges):
    """The BFS with symmetry twins (every symmetry fixes the one row) equals a plain BFS, mod 3; the bound
    encoding reads <= 5 as 0, 6 and 7 exactly and the rest as 8, a lower bound everywhere."""
    from puzzlesearch.cube.tables.coset import base_lower, large_columns

    _, mod3, (bound, dist_b, _, _) = edges
    lc = large_columns()
    dist = _raw_edges_bfs(lc.ss, lc.udflip)
    n = len(dist)
    assert (dist < 255).all() and dist.max() == 9 and np.bincount(dist)[0] == 1
    assert (_entries(mod3, n) == dist % 3).all()
    read = base_lower(5)[_entries(bound, n)]
    assert (read <= dist).all()
    assert (read[dist <= 5] == 0).all() and (read[(dist == 6) | (dist == 7)] == dist[(dist == 6) | (dist == 7)]).all()
    assert (read[dist >= 8] == 8).all()
    assert max(dist_b) == 7


@njit
def _moved_mask(mask, g, m, u, bm):
    """move_mask of a 0/1 array of one block's 256 entries, through the kernel's pair lanes and back."""
    v = np.zeros((8, 1), np.uint64)
    for b in range(256):
        v[b // 32, 0] |= np.uint64(mask[b]) << np.uint64(2 * (b % 32))
    move_mask(v, g, m, u, bm)
    out = np.empty(256, np.int64)
    for b in range(256):
        out[b] = (v[b // 32, 0] >> np.uint64(2 * (b % 32))) & np.uint64(1)
    return out


def test_block_moves_move_a_block_as_the_column_tables_do():
    """The large layout's block moves (a permutation of b's bits plus a constant) send every b of random
    (E-slice positions, move, symmetry) where the column tables send it; the full layout has none."""
    from puzzlesearch.cube.tables.coset import bfs_tables, block_moves, variant_block_moves

    _, cols = bfs_tables("large")
    bm = variant_block_moves("large")
    assert block_moves(bfs_tables("full")[1]) is None
    rng = np.random.default_rng(41)
    b = np.arange(256)
    for _ in range(300):
        g, m, u = int(rng.integers(bm.xor.shape[0])), int(rng.integers(K.N_MOVES)), int(rng.integers(16))
        mask = rng.integers(0, 2, 256)
        b2 = cols.flip_conj[bm.after[g, m] * 256 + cols.move_flip[g * 256 + b, m].astype(np.int64), u]
        assert (_moved_mask(mask, g, m, u, bm) == mask[b2]).all()


@pytest.mark.parametrize("depth", [4, 8])
def test_backward_by_blocks_sets_what_the_per_entry_twin_sets(depth):
    """backward_pass_blocks and backward_pass (per entry) set the same entries of a random large-layout table:
    rows with random neighbour rows and symmetries (so every u), values a random mix with EMPTY the most; the
    blocks in two calls of rows (as build_packed splits a level), the twin in one."""
    from puzzlesearch.cube._kernels.bfs_bundles import SymClassArrays
    from puzzlesearch.cube._kernels.coset import backward_pass
    from puzzlesearch.cube._kernels.coset_blocks import backward_pass_blocks
    from puzzlesearch.cube.tables.coset import N_CORNER, bfs_tables, row_stride, variant_block_moves

    corner_moves, cols = bfs_tables("large")
    rng = np.random.default_rng(depth)
    n_rows, stride = 4, row_stride("large")
    classes = SymClassArrays(
        rng.integers(0, N_CORNER, n_rows).astype(np.int32),
        rng.integers(0, n_rows, N_CORNER).astype(np.int32),
        rng.integers(0, 16, N_CORNER).astype(np.uint8),
        np.ones(n_rows, np.uint16),
    )
    e = rng.choice(4, size=n_rows * stride, p=[0.1, 0.1, 0.1, 0.7]).astype(np.uint8)
    table = e[0::4] | e[1::4] << 2 | e[2::4] << 4 | e[3::4] << 6
    per_entry, blocks = table.copy(), table.copy()
    n = backward_pass(per_entry, depth, classes, corner_moves, cols, stride, 0, n_rows)
    bm = variant_block_moves("large")
    words = blocks.view(np.uint64)
    assert (
        backward_pass_blocks(words, depth, classes, corner_moves, cols, stride, bm, 1, n_rows)
        + backward_pass_blocks(words, depth, classes, corner_moves, cols, stride, bm, 0, 1)
        == n
    )
    assert n > 0 and (blocks == per_entry).all()


def test_bound_table_sample_check_catches_a_wrong_entry(edges, tmp_path):
    from puzzlesearch.cube.tables.coset import check_base_sample, n_entries

    classes, _, (bound, _, _, _) = edges
    n = n_entries("edges")
    check_base_sample(tmp_path / "t.npy", bound, "edges", classes, np.arange(0, n, 7))
    j = int(np.nonzero(_entries(bound, n) == 0)[0][500])  # reads 6: make it read 7 (no neighbour at 6 then)
    bad = bound.copy()
    bad[j >> 2] = (bad[j >> 2] & ~np.uint8(3 << ((j & 3) << 1))) | np.uint8(1 << ((j & 3) << 1))
    with pytest.raises(ArtifactError) as err:
        check_base_sample(tmp_path / "t.npy", bad, "edges", classes, np.arange(j - 3, j + 4))
    assert "t.npy" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("length", [4, 6])
def test_large_look_ups_keep_answers_optimal(edges, length):
    """The search with the large variant's look-up path (here the columns-alone table: its bound holds for
    every corner state) keeps answers optimal: the same lengths as without it and as a meet-in-the-middle BFS."""
    from puzzlesearch.cube.solvers.optimal import SearchTables
    from puzzlesearch.cube.tables.big import store_table
    from puzzlesearch.cube.tables.coset import N_CORNER, CosetTable, base_lower

    classes, _, (bound, _, _, _) = edges
    large = CosetTable("edges", bound, classes, {}, np.zeros(N_CORNER, np.uint32), bound, base_lower(5))
    pairs = _with_and_without(SearchTables(store_table("tiny"), coset=large), random.Random(8800 + length), length)
    assert len(pairs) == 2


@pytest.mark.parametrize("variant", ["full", "large"])
def test_look_up_index_is_the_conjugated_cubes_column(variant):
    """coset_index of random cubes (their corner class's symmetry u) is the class's row and the column of the
    cube conjugated by u, read off the conjugated cubie arrays."""
    from puzzlesearch.cube._kernels.coset import coset_index
    from puzzlesearch.cube.model.coords import SLICE_SORTED
    from puzzlesearch.cube.tables.artifact import class_sym_of
    from puzzlesearch.cube.tables.coset import N_UD_FLIP, UDFLIP, lookup_bundle, n_bytes

    class_sym = class_sym_of(build_classes())
    bundle = lookup_bundle(class_sym, np.zeros(1, np.uint8), variant)
    a = _random_arrays(300, 29)
    cs = class_sym[CTOP.encode(a) * K.N_TWIST + TWIST.encode(a)].astype(np.int64)
    got = [coset_index(bundle, c, s, f) for c, s, f in zip(cs, SLICE_SORTED.encode(a), FLIP.encode(a))]
    want = []
    for k, c in enumerate(cs):
        b = conjugate_arrays(tuple(x[k : k + 1] for x in a), int(c & 15))
        if variant == "large":
            col = SLICE_SORTED.encode(b)[0] * N_UD_FLIP + UDFLIP.encode(b)[0] % N_UD_FLIP
        else:
            col = ESLICE.encode(b)[0] * K.N_FLIP + FLIP.encode(b)[0]
        want.append((c >> 4) * row_stride(variant) + col)
    assert got == want and max(got) < n_bytes(variant) * 4
