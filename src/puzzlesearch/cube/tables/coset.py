"""The optimal solver's coset table: corner classes x flip x E-slice, build, save, load verified.

A second pruning table beside the flip x sorted-slice x twist one (tables/big.py), on
another projection: which 4 positions hold the U corners (70) and the twist (2187), reduced
by the 16 U-D symmetries to 9,930 corner classes, times the flip (2048) and the E-slice
positions (495). This is Rokicki's nxopt "EO3 x EP1" subgroup (every U and D turn, corners
kept in their layer, no edge leaves or enters the E slice, no orientation changes): nxopt
reports an average single look-up of 10.67 moves for it (2.60 GB) against 10.30 for the
flip x sorted-slice x twist table. Entries are distances mod 3 in 2 bits, decoded along
the search path from the exact start distance (Kociemba's scheme, as in tables/big.py).

The large variant is nxopt's "EO2 x EP2" subgroup (7.79 GB there; mean look-up 10.94): the
subgroup may also flip the E-slice edges but no longer reorders them, so the columns are the
E-slice positions x the order of the E edges in them (11,880, SLICE_SORTED) x the flips of
the 8 positions that hold U/D-layer edges (256): 3.04 M columns, 30.2 G entries. It has no
room for a bound copy, so it is built in nxopt's bound encoding (build_packed's base: the BFS
stops after level 11; an entry reads <= 9 as 0, 10 and 11 exactly, the rest 12) and read so
in all six views.

  variant  columns                         classes  entries  bytes     build
  full     495 E-slice x 2048 flips        9,930    10.07 G  ~2.52 GB  ~17 min on 2 cores (numba, parallel levels)
  tiny     495 E-slice                     9,930    4.9 M    ~1.2 MB   seconds (the tests)
  large    11,880 sorted E-slice x 256     9,930    30.2 G   ~7.55 GB  ~6.5 min (levels 0..11 only), ~7.6 GB peak

Files of a table folder: coset_<variant>.npy (packed entries), coset_<variant>_classes.npz
(class and symmetry of every U-corner x twist value, representatives, self-symmetries) and
coset_<variant>_bound.npy (the bound copy: the inverse look-ups; not for large) and
coset_<variant>.json (manifest: sha256 of the files, size, build seconds, depth distribution,
near depth or base).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

import numba
import numpy as np

from puzzlesearch import kinds, manifest
from puzzlesearch.cube._kernels.bfs_bundles import Columns, CornerMoves, SymClassArrays
from puzzlesearch.cube._kernels.big_table import sym_classes
from puzzlesearch.cube._kernels.bundles import CosetLookup, CosetMoves
from puzzlesearch.cube._kernels.common import EMPTY
from puzzlesearch.cube._kernels.coset import backward_pass, forward_pass, mark_solved
from puzzlesearch.cube._kernels.coset_blocks import (
    BLOCK_ENTRIES,
    INDEX_BITS,
    NO_SWAP,
    BlockMoves,
    backward_pass_blocks,
    lane_masks,
)
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import CTOP, ESLICE, FLIP, SLICE_SORTED, TWIST, Coord, coord_move_table
from puzzlesearch.cube.model.symmetry import N_SYM_UD, SYM_INV, conjugate_arrays, coord_conjugation
from puzzlesearch.cube.tables import structure
from puzzlesearch.cube.tables.artifact import TableKind, class_sym_of, load_classes, read_npy
from puzzlesearch.cube.tables.bound import lower_bounds
from puzzlesearch.cube.tables.structure import sample_of
from puzzlesearch.progress import log

VARIANTS = ("full", "tiny", "large")
KIND = TableKind(
    stem="coset_{variant}",
    kind=kinds.CUBE_OPTIMAL_COSET,
    what="coset table",
    command="build-optimal-coset {variant} --out-dir {dir}",
    variants=VARIANTS,
    store_folder="cube-optimal-coset",
)
CLASSES, BOUND = "_classes.npz", "_bound.npy"
N_CORNER = CTOP.size * K.N_TWIST  # 153,090 (U-corner positions, twist) values
N_CLASSES = 9930  # nxopt's count of corner classes under the 16 U-D symmetries
N_UD_FLIP = 2 ** len(K.UD_EDGES)  # 256 flips of the 8 positions that hold U/D-layer edges


@dataclass(frozen=True)
class Layout:
    """A variant's columns t = a * n_b + b (_kernels/coset.py): a the E slice (n_a values), b the flips (n_b)."""

    n_a: int
    n_b: int
    corners: bool = True  # rows: the 9,930 corner classes (False: one row, the BFS over the columns alone)
    base: int | None = None  # its own bound table (build_packed's base); None: mod 3 with a bound copy


LAYOUTS = {
    "full": Layout(K.N_SLICE, K.N_FLIP),  # E-slice positions x every edge's flip (nxopt EP1 x EO3)
    "tiny": Layout(K.N_SLICE, 1),  # E-slice positions (the tests)
    "large": Layout(K.N_SLICE_SORTED, N_UD_FLIP, base=9),  # E-slice positions, order x U/D-layer flips (EP2 x EO2)
    "edges": Layout(K.N_SLICE_SORTED, N_UD_FLIP, corners=False, base=5),  # the large columns alone (the tests)
}
N_FLIPS = {v: layout.n_b for v, layout in LAYOUTS.items()}
FORWARD_FILL = 0.30  # levels after this share of entries is reached are filled backward (in parallel)
ROWS_PER_CALL = 1024  # rows of one level's kernel call (a Python signal waits for the call to return)
BLOCKS_FRONTIER = 0.01  # large: a level is filled backward by blocks once its frontier is this share of entries
MAX_TABLE_DEPTH = 20
NEAR = 8  # the bound copy: entries within this many moves read as 0 (0.3% of the full table), 9..11 read exactly


def base_lower(base: int) -> np.ndarray:
    """Entry value -> lower bound of a table built with build_packed(..., base=base): base's residue
    reads 0, the next two residues base + 1 and base + 2, EMPTY base + 3 ([0, 10, 11, 12] for base 9).

    The large variant is its own bound table (7.6 GB: no room for a second copy), read the same way
    in the three axis views and the inverse's three (nxopt's 2-bit encoding, base 9)."""
    out = np.zeros(4, dtype=np.int64)
    for k in (1, 2):
        out[(base + k) % 3] = base + k
    out[EMPTY] = base + 3
    return out


def n_col(variant: str) -> int:
    """Columns of a row: E-slice part x flips."""
    layout = LAYOUTS[variant]
    return layout.n_a * layout.n_b


def n_rows(variant: str) -> int:
    """Rows: the corner classes (one row for the columns alone)."""
    return N_CLASSES if LAYOUTS[variant].corners else 1


def row_stride(variant: str) -> int:
    """Entries per row in the file: the columns padded to a multiple of 8 (a row is whole bytes, so a
    backward level's threads, each filling its own rows, never share one; full: 1,013,760, tiny: 496)."""
    return -(-n_col(variant) // 8) * 8


def n_entries(variant: str) -> int:
    """Entries that are positions (the padding left out)."""
    return n_rows(variant) * n_col(variant)


def n_bytes(variant: str) -> int:
    return n_rows(variant) * row_stride(variant) // 4


def variant_for(table_variant: str, coset_table: str) -> str:
    """The coset variant that goes with a big table variant: with full, coset_table (full or large, the
    setting cube.optimal.coset_table); tiny with small and tiny."""
    return coset_table if table_variant == "full" else "tiny"


def present(table_dir, variant: str) -> bool:
    """True if the folder holds (a manifest or table file of) this coset variant."""
    return KIND.present(table_dir, variant)


@dataclass(frozen=True)
class CosetTables:
    """Move and conjugation tables of the coset table's coordinates (built from code)."""

    ctop: np.ndarray  # 70 x 18
    twist: np.ndarray  # 2187 x 18
    flip: np.ndarray  # 2048 x 18
    eslice: np.ndarray  # 495 x 18
    ctop_conj: np.ndarray  # 70 x 16
    twist_conj: np.ndarray  # 2187 x 16
    slice_conj: np.ndarray  # 495 x 16
    flip_conj: np.ndarray  # 2048 x 16
    flip_offset: np.ndarray  # 495 x 16: flip change of the conjugate, by where the E edges are


@cache
def coset_tables() -> CosetTables:
    """The small move and conjugation tables (numpy; cached per process)."""
    reps = ESLICE.decode()
    offset = np.stack([FLIP.encode(conjugate_arrays(reps, s)) for s in range(N_SYM_UD)], axis=1)
    return CosetTables(
        *(coord_move_table(c).astype(np.int64) for c in (CTOP, TWIST, FLIP, ESLICE)),
        *(coord_conjugation(c, N_SYM_UD).astype(np.int64) for c in (CTOP, TWIST, ESLICE, FLIP)),
        offset.astype(np.int64),
    )


def _udflip_encode(a) -> np.ndarray:
    """E-slice positions * 256 + the flips of the 8 positions that hold U/D-layer edges (in position order)."""
    ud = a[2] < len(K.UD_EDGES)
    rank = np.where(ud, np.cumsum(ud, axis=1) - 1, 0)
    return ESLICE.encode(a) * N_UD_FLIP + ((a[3] * ud) << rank).sum(axis=1)


def _udflip_decode():
    """A representative of every value: the E slice's representative, its U/D-layer positions flipped by the
    bits, the first E-slice position flipped to keep the flips' sum even (the E edges' flips are free)."""
    cp, co, ep, eo = (np.repeat(x, N_UD_FLIP, axis=0) for x in ESLICE.decode())
    n = len(ep)
    ud = ep < len(K.UD_EDGES)
    bits = (np.tile(np.arange(N_UD_FLIP), K.N_SLICE)[:, None] >> np.arange(len(K.UD_EDGES))) & 1
    eo = eo.copy()
    eo[ud] = bits.reshape(-1)  # row by row, the 8 U/D-layer positions in order
    eo[np.arange(n), np.argmax(~ud, axis=1)] = bits.sum(axis=1) % 2
    return cp, co, ep, eo


# The large variant's flips: where the E edges are x the flips of the other 8 positions (495 x 256). The E
# edges' own flips are not part of it (nxopt's EO2: the subgroup may flip them), so a move's or a
# symmetry's effect on the 8 depends on where the E edges are, not on which U/D-layer edge is where.
UDFLIP = Coord("slice_udflip", K.N_SLICE * N_UD_FLIP, _udflip_encode, _udflip_decode)


@dataclass(frozen=True)
class LargeColumns:
    """Move and conjugation tables of the large variant's columns (E slice sorted, U/D-layer flips)."""

    ss: np.ndarray  # 11,880 x 18: E-slice positions * 24 + the order of the E edges in them
    ss_conj: np.ndarray  # 11,880 x 16
    udflip: np.ndarray  # 126,720 x 18: E-slice positions * 256 + U/D-layer flips
    udflip_conj: np.ndarray  # 126,720 x 16


@cache
def large_columns() -> LargeColumns:
    """The large variant's column tables (numpy; cached per process)."""
    return LargeColumns(
        coord_move_table(SLICE_SORTED).astype(np.int64),
        coord_conjugation(SLICE_SORTED, N_SYM_UD).astype(np.int64),
        coord_move_table(UDFLIP).astype(np.int64),
        coord_conjugation(UDFLIP, N_SYM_UD).astype(np.int64),
    )


def trivial_classes() -> SymClassArrays:
    """One row for a BFS over the columns alone (the edges variant): every symmetry fixes it."""
    one = np.zeros(1, dtype=np.int32)
    return SymClassArrays(one, one.copy(), np.zeros(1, dtype=np.uint8), np.full(1, (1 << N_SYM_UD) - 1, np.uint16))


def build_classes() -> SymClassArrays:
    """The corner classes (the big table's sym_classes with twist in the flip's place)."""
    ct = coset_tables()
    inverse = SYM_INV[:N_SYM_UD].astype(np.int64)
    classes = SymClassArrays(
        *sym_classes(ct.twist_conj.astype(np.int32), ct.ctop_conj.astype(np.int32), K.N_TWIST, CTOP.size, inverse)
    )
    if len(classes.rep) != N_CLASSES:
        raise AssertionError(f"{len(classes.rep)} corner classes, expected {N_CLASSES}")
    return classes


def bfs_tables(variant: str) -> tuple[CornerMoves, Columns]:
    """(corner_moves, cols) of the BFS kernels: small int32 move and conjugation tables.

    Columns' fields by variant (a, b as in _kernels/coset.py): full and tiny: E-slice
    positions, flips (tiny: none); large and edges: the sorted E slice, the U/D-layer flips
    (indexed by E-slice positions * 256 + flips, no offset). edges: corner tables of one value.
    """
    ct = coset_tables()
    nf = N_FLIPS[variant]
    if LAYOUTS[variant].n_a == K.N_SLICE:
        flip = ct.flip if nf > 1 else np.zeros((1, K.N_MOVES), dtype=np.int64)
        cols = Columns(
            *(a.astype(np.int32) for a in (ct.eslice, flip, ct.slice_conj, ct.flip_conj, ct.flip_offset)), nf
        )
    else:  # the flip tables hold only the new flips (uint8: ~2 MB each), no E-slice part
        lc = large_columns()
        i32, u8 = (lc.ss, lc.ss_conj), (lc.udflip % nf, lc.udflip_conj % nf)
        i32, u8 = [a.astype(np.int32) for a in i32], [a.astype(np.uint8) for a in u8]
        cols = Columns(i32[0], u8[0], i32[1], u8[1], np.zeros_like(i32[1]), nf)
    if not LAYOUTS[variant].corners:
        none = np.zeros((1, K.N_MOVES), dtype=np.int32)
        return CornerMoves(none, none.copy()), cols
    return CornerMoves(ct.ctop.astype(np.int32), ct.twist.astype(np.int32)), cols


def block_moves(cols: Columns) -> BlockMoves | None:
    """The large layout's block moves (_kernels/coset_blocks.py), or None for a layout whose flips do not
    move as a permutation of their bits plus a constant (full: the 12th edge's flip is the others' parity).

    For each group g of column parts (a // a_div: where the E edges are), move m and symmetry u,
    b -> flip_conj[g2 * 256 + move_flip[g * 256 + b, m], u] (g2 the group after m) must be
    P(b) ^ y for a permutation P of b's bits; this is checked on all 256 b.
    """
    n_a, n_b = cols.move_slice.shape[0], cols.n_flip
    if n_b != BLOCK_ENTRIES or np.any(cols.flip_offset):
        return None
    n_groups = cols.move_flip.shape[0] // n_b
    a_div = n_a // n_groups
    groups_after = cols.move_slice.reshape(n_groups, a_div, K.N_MOVES) // a_div
    after = groups_after[:, 0, :]
    if np.any(groups_after != after[:, None, :]):
        return None
    moved = cols.move_flip.reshape(n_groups, n_b, K.N_MOVES).transpose(0, 2, 1).astype(np.int64)  # g, m, b
    conj = cols.flip_conj.reshape(n_groups, n_b, N_SYM_UD).astype(np.int64)  # g2, b, u
    f = conj[after[:, :, None], moved, :].transpose(0, 1, 3, 2)  # g, m, u, b -> the neighbour's b
    y = f[..., 0]
    images = np.stack([f[..., 1 << i] ^ y for i in range(INDEX_BITS)], axis=-1)  # P of each bit
    if np.any(images & (images - 1)) or np.any(images == 0):
        return None
    sigma = np.log2(images).round().astype(np.int64)  # bit i -> bit sigma[i]
    b = np.arange(n_b)
    p_of_b = np.zeros(f.shape, dtype=np.int64)
    for i in range(INDEX_BITS):
        p_of_b |= ((b >> i) & 1) << sigma[..., i, None]
    if np.any(p_of_b ^ y[..., None] != f):
        return None
    return BlockMoves(y.astype(np.uint8), _bit_swaps(sigma), after.astype(np.int32), a_div, *lane_masks())


@cache
def variant_block_moves(variant: str) -> BlockMoves | None:
    """block_moves of a variant's columns (cached per process: ~6 s of numpy)."""
    return block_moves(bfs_tables(variant)[1])


def _bit_swaps(sigma: np.ndarray) -> np.ndarray:
    """Transpositions t1, t2, ... with sigma = t1 o t2 o ... (last axis: bit -> bit), as i * 8 + j (i < j)."""
    rho = sigma.copy()
    swaps = np.full((*sigma.shape[:-1], INDEX_BITS - 1), NO_SWAP, dtype=np.int8)
    n = np.zeros(sigma.shape[:-1], dtype=np.int64)
    for i in range(INDEX_BITS):
        j = rho[..., i]
        moving = j != i
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        idx = np.nonzero(moving)
        swaps[(*idx, n[idx])] = (lo * INDEX_BITS + hi)[idx]
        n[idx] += 1
        jj = j[..., None]
        rho = np.where(moving[..., None], np.where(rho == i, jj, np.where(rho == jj, i, rho)), rho)
    return swaps


def recode_reached(table: np.ndarray, code: int) -> None:
    """Set every reached entry (not EMPTY) to code, in place, a chunk at a time."""
    lut = np.zeros(256, dtype=np.uint8)
    for byte in range(256):
        for k in range(4):
            v = (byte >> (2 * k)) & 3
            lut[byte] |= (v if v == EMPTY else code) << (2 * k)
    step = 1 << 26
    for a in range(0, len(table), step):
        table[a : a + step] = lut[table[a : a + step]]


def build_packed(variant: str, classes: SymClassArrays, keep_near: int = -1, base: int | None = None) -> tuple:
    """(packed table, depth -> entries, seconds, near): parallel forward levels, then parallel backward ones.

    near: a copy of the table once the levels up to keep_near are filled (None if keep_near < 0).
    base (the large variant's bound encoding): once the levels up to base are filled, every
    reached entry is set to base's residue; the BFS goes on (an entry within base - 1 moves
    has no empty neighbour, so reading it as the current level reaches nothing new) and stops
    after level base + 2, leaving the rest EMPTY: entries read <= base, base + 1, base + 2,
    >= base + 3 (base_lower).
    The large layout's backward levels test a block of 256 entries at a time
    (_kernels/coset_blocks.py), and start as soon as a level's frontier is BLOCKS_FRONTIER of
    the entries (large: level 10).
    """
    t0 = time.perf_counter()
    corner_moves, cols = bfs_tables(variant)
    blocks = variant_block_moves(variant)  # large: backward levels a block at a time
    n, stride = n_entries(variant), row_stride(variant)
    table = np.full(n_bytes(variant), 255, dtype=np.uint8)  # rows are whole bytes: threads never share one
    dist = {0: int(mark_solved(table, classes, cols, stride))}
    filled, depth = dist[0], 0
    parts = max(1, numba.get_num_threads())
    near = table.copy() if keep_near == 0 else None
    while filled < n and (base is None or depth < base + 2):
        # with base: level base + 1 from every entry within base (recoded), base + 2 backward
        backward = filled > FORWARD_FILL * n or (base is not None and depth > base)
        backward |= blocks is not None and dist[depth] > BLOCKS_FRONTIER * n  # a big frontier: cheaper by blocks
        t1 = time.perf_counter()
        new = 0
        words = table.view(np.uint64) if blocks is not None else None  # (the large layout: whole 64-byte rows)
        for first in range(0, len(classes.rep), ROWS_PER_CALL):  # Ctrl-C is seen between two calls
            rows = first, min(len(classes.rep), first + ROWS_PER_CALL)
            if not backward:
                new += int(forward_pass(table, depth, classes, corner_moves, cols, stride, parts, *rows))
            elif blocks is not None:
                new += int(backward_pass_blocks(words, depth, classes, corner_moves, cols, stride, blocks, *rows))
            else:
                new += int(backward_pass(table, depth, classes, corner_moves, cols, stride, *rows))
        if new == 0 or depth >= MAX_TABLE_DEPTH:
            raise AssertionError(f"coset BFS stalled at depth {depth} with {n - filled:,} entries unreached")
        depth += 1
        dist[depth] = new
        filled += new
        log(
            "cube",
            f"coset table {variant}: depth {depth}: {new:,} entries ({filled / n:.1%} filled, "
            f"{'backward' if backward else 'forward'}, {time.perf_counter() - t1:.1f}s)",
        )
        if depth == keep_near:
            near = table.copy()
        if depth == base:
            recode_reached(table, depth % 3)
    return table, dist, time.perf_counter() - t0, near


def bound_of(table: np.ndarray, near_table: np.ndarray) -> np.ndarray:
    """The table with every entry set in near_table set to 3 (reads as 0: no bound without a parent)."""
    out = table.copy()
    step = 1 << 26
    for a in range(0, len(out), step):
        nb = near_table[a : a + step]
        fields = np.zeros(len(nb), dtype=np.uint8)
        for k in range(4):
            reached = ((nb >> (2 * k)) & 3) != 3
            fields |= reached.astype(np.uint8) << (2 * k) | reached.astype(np.uint8) << (2 * k + 1)
        out[a : a + step] |= fields
    return out


def table_path(table_dir, variant: str):
    return KIND.path(table_dir, variant)


def classes_path(table_dir, variant: str):
    return KIND.path(table_dir, variant, CLASSES)


def manifest_path(table_dir, variant: str):
    return KIND.manifest_path(table_dir, variant)


def bound_path(table_dir, variant: str):
    return KIND.path(table_dir, variant, BOUND)


def build_table(variant: str, out_dir) -> dict:
    """Build one variant into out_dir (table, its bound copy, classes, manifest); returns the manifest.

    The bound copy is the table with the entries within NEAR moves set to 3, so an entry
    reads as a lower bound without a parent (the inverse look-ups): 3 -> 0, else the
    smallest distance above NEAR with its residue mod 3 (as tables/bound.py does for the big table).
    """
    KIND.check_variant(variant)
    t0 = time.perf_counter()
    classes = build_classes()
    log("cube", f"coset table {variant}: {len(classes.rep):,} corner classes ({time.perf_counter() - t0:.1f}s)")
    if LAYOUTS[variant].base is not None:
        return _build_base_table(variant, out_dir, classes, t0)
    table, dist, bfs_seconds, near = build_packed(variant, classes, NEAR)
    t1 = time.perf_counter()
    bound = bound_of(table, near)
    del near
    log(
        "cube",
        f"coset table {variant}: bound copy, entries within {NEAR} moves marked ({time.perf_counter() - t1:.1f}s)",
    )
    KIND.write_file(out_dir, variant, BOUND, bound)
    del bound
    KIND.write_file(out_dir, variant, ".npy", table)
    KIND.write_file(out_dir, variant, CLASSES, classes.arrays())
    total = sum(dist.values())
    meta = {
        **_meta(variant, classes, table, t0),
        "max_depth": max(dist),
        "mean_depth": round(sum(d * c for d, c in dist.items()) / total, 4),
        "distribution": " ".join(f"{d}:{c}" for d, c in dist.items()),
        "near_depth": NEAR,
    }
    KIND.write_manifest(out_dir, variant, (".npy", BOUND, CLASSES), meta)
    log("cube", f"coset table {variant} written to {out_dir} ({meta['build_seconds']:.0f}s)")
    return meta


def _meta(variant: str, classes: SymClassArrays, table: np.ndarray, t0: float) -> dict:
    """The manifest fields every variant has."""
    return {
        "table": f"coset_{variant}",
        "variant": variant,
        "classes": len(classes.rep),
        "entries": n_entries(variant),
        "bytes": int(table.nbytes),
        "row_stride": row_stride(variant),
        "build_seconds": round(time.perf_counter() - t0, 2),
    }


def _build_base_table(variant: str, out_dir, classes: SymClassArrays, t0: float) -> dict:
    """The large variant: one table in the bound encoding (build_packed with base), classes and manifest."""
    base = LAYOUTS[variant].base
    table, dist, _, _ = build_packed(variant, classes, base=base)
    KIND.write_file(out_dir, variant, ".npy", table)
    KIND.write_file(out_dir, variant, CLASSES, classes.arrays())
    beyond = n_entries(variant) - sum(dist.values())
    counts = {**{d: c for d, c in dist.items() if d <= base}, base + 1: dist[base + 1], base + 2: dist[base + 2]}
    meta = {
        **_meta(variant, classes, table, t0),
        "base": base,
        "beyond": beyond,  # entries at base + 3 or more (not told apart)
        "mean_depth": round(
            sum(d * c for d, c in counts.items()) / n_entries(variant) + (base + 3) * beyond / n_entries(variant), 4
        ),  # base + 3 for the beyond
        "distribution": " ".join(f"{d}:{c}" for d, c in counts.items()) + f" {base + 3}+:{beyond}",
    }
    KIND.write_manifest(out_dir, variant, (".npy", CLASSES), meta)
    log("cube", f"coset table {variant} written to {out_dir} ({meta['build_seconds']:.0f}s)")
    return meta


# ------------------------------------------------------------------ loading


@cache
def _large_lookups() -> tuple[np.ndarray, np.ndarray]:
    """(ss_conj int16, ud_mask: per E-slice value the bits of the positions that hold U/D-layer edges)."""
    ud = ESLICE.decode()[2] < len(K.UD_EDGES)  # (495, 12)
    ud_mask = (ud.astype(np.int64) << np.arange(K.N_EDGES)).sum(axis=1)
    return large_columns().ss_conj.astype(np.int16), ud_mask


def lookup_bundle(class_sym: np.ndarray, table: np.ndarray, variant: str) -> CosetLookup:
    """The kernels' CosetLookup of a variant's table (the large one's column look-ups, or one-entry stand-ins)."""
    ct = coset_tables()
    large = LAYOUTS[variant].n_a == K.N_SLICE_SORTED
    ss_conj, ud_mask = _large_lookups() if large else (np.zeros((1, 1), np.int16), np.zeros(1, np.int64))
    return CosetLookup(
        class_sym,
        table,
        ct.slice_conj,
        ct.flip_conj.astype(np.int16),  # 64 KB instead of 256: it stays in the nearer caches
        ct.flip_offset,
        N_FLIPS[variant],
        row_stride(variant),
        large,
        ss_conj,
        ud_mask,
    )


@dataclass(frozen=True)
class CosetTable:
    """A verified coset table with what the search needs."""

    variant: str
    table: np.ndarray
    classes: SymClassArrays
    meta: dict
    class_sym: np.ndarray  # uint32 class << 4 | symmetry per ctop * 2187 + twist
    bound: np.ndarray  # the bound copy (inverse look-ups)
    lower: np.ndarray  # int64 (4,): lower bound of its entry values 0..3

    def bundle(self) -> CosetLookup:
        """The kernels' look-up bundle."""
        return lookup_bundle(self.class_sym, self.table, self.variant)

    @staticmethod
    def moves() -> CosetMoves:
        """The move tables of coset_depth."""
        ct = coset_tables()
        return CosetMoves(ct.ctop, ct.twist, ct.flip, ct.eslice)


def neighbours(variant: str, classes: SymClassArrays, idx: np.ndarray) -> np.ndarray:
    """(len(idx), 18) entry indices of the positions one move from entries idx (numpy, a sample's worth)."""
    corner_moves, cols = bfs_tables(variant)
    stride, n_b = row_stride(variant), cols.n_flip
    a_div = cols.move_slice.shape[0] * n_b // cols.move_flip.shape[0]
    c, t = idx // stride, idx % stride
    x = classes.rep[c].astype(np.int64)
    ms = np.arange(K.N_MOVES)
    x2 = corner_moves.ctop[(x // K.N_TWIST)[:, None], ms].astype(np.int64) * K.N_TWIST
    x2 += corner_moves.twist[(x % K.N_TWIST)[:, None], ms]
    u = classes.symidx[x2].astype(np.int64)
    a, b = (t // n_b)[:, None], (t % n_b)[:, None]
    a2 = cols.move_slice[a, ms].astype(np.int64)
    b2 = cols.move_flip[(a // a_div) * n_b + b, ms].astype(np.int64) % n_b
    a3 = cols.slice_conj[a2, u].astype(np.int64)
    b3 = (cols.flip_conj[(a2 // a_div) * n_b + b2, u].astype(np.int64) ^ cols.flip_offset[a2, u]) % n_b
    return classes.classidx[x2].astype(np.int64) * stride + a3 * n_b + b3


def check_base_sample(path, table: np.ndarray, variant: str, classes: SymClassArrays, idx: np.ndarray) -> None:
    """A bound-encoded table (build_packed with base): the solved entry reads <= base, and each sampled
    entry's neighbours fit its reading (one move changes a distance by at most 1, and a distance d > 0
    has a neighbour at d - 1). Raises ArtifactError naming the file."""
    base = LAYOUTS[variant].base
    r0, r1, r2 = base % 3, (base + 1) % 3, (base + 2) % 3

    def read(i):
        return (table[i >> 2] >> ((i & 3) << 1)) & 3

    solved = int(classes.classidx[0]) * row_stride(variant)
    if int(read(np.array([solved]))[0]) != r0:
        raise manifest.damaged(path, f"array 'table': the solved entry does not read <= {base}")
    e = read(idx)[:, None]
    nb = read(neighbours(variant, classes, idx))
    has = lambda v: (nb == v).any(axis=1)[:, None]  # noqa: E731
    bad = (e == r0) & (has(r2) | has(EMPTY))  # <= base: every neighbour <= base + 1
    bad |= (e == r1) & (has(EMPTY) | ~has(r0))  # base + 1: neighbours base .. base + 2, one <= base
    bad |= (e == r2) & (has(r0) | ~has(r1))  # base + 2: neighbours >= base + 1, one at base + 1
    bad |= (e == EMPTY) & (has(r0) | has(r1))  # >= base + 3: neighbours >= base + 2
    if bad.any():
        raise manifest.damaged(
            path, f"array 'table': entry {int(idx[np.argmax(bad[:, 0])])} disagrees with its neighbours"
        )


def load_table(table_dir, variant: str) -> CosetTable:
    """Verify (sha256, shapes, ranges) and load one variant; never builds."""
    KIND.check_variant(variant)
    meta = KIND.verify(table_dir, variant)
    table = read_npy(table_path(table_dir, variant), meta, np.uint8, (n_bytes(variant),))
    if LAYOUTS[variant].base is not None:
        classes = load_classes(classes_path(table_dir, variant), meta, N_CLASSES, N_CORNER)
        picked = sample_of(n_entries(variant))
        positions = picked // n_col(variant) * row_stride(variant) + picked % n_col(variant)
        check_base_sample(table_path(table_dir, variant), table, variant, classes, positions)
        lower = base_lower(LAYOUTS[variant].base)
        return CosetTable(variant, table, classes, meta, class_sym_of(classes), table, lower)
    bound = read_npy(bound_path(table_dir, variant), meta, np.uint8, table.shape)
    classes = load_classes(classes_path(table_dir, variant), meta, N_CLASSES, N_CORNER)
    # a seeded sample of positions (padding columns left out); the solved one is column 0 of class_sym[0]'s row
    picked = sample_of(n_entries(variant))
    positions = picked // n_col(variant) * row_stride(variant) + picked % n_col(variant)
    solved = int(classes.classidx[0]) * row_stride(variant)
    structure.packed_distances(table_path(table_dir, variant), "table", table, solved, positions)
    lower = lower_bounds(int(meta["near_depth"]))
    return CosetTable(variant, table, classes, meta, class_sym_of(classes), bound, lower)


def store_table(variant: str) -> CosetTable:
    """The store's table of a variant (built there on first use)."""
    KIND.check_variant(variant)
    return load_table(KIND.in_store(variant, build_table, variant=variant), variant)
