"""The optimal solver's coset table: corner classes x flip x E-slice, build, save, load verified.

A second pruning table beside the flip x sorted-slice x twist one (tables/big.py), on
another projection: which 4 positions hold the U corners (70) and the twist (2187), reduced
by the 16 U-D symmetries to 9,930 corner classes, times the flip (2048) and the E-slice
positions (495). This is Rokicki's nxopt "EO3 x EP1" subgroup (every U and D turn, corners
kept in their layer, no edge leaves or enters the E slice, no orientation changes): nxopt
reports an average single look-up of 10.67 moves for it (2.60 GB) against 10.30 for the
flip x sorted-slice x twist table. Entries are distances mod 3 in 2 bits, decoded along
the search path from the exact start distance (Kociemba's scheme, as in tables/big.py).

  variant  flip  classes  entries (x 495 x flips)  bytes     build
  full     yes   9,930    10.07 G                  ~2.52 GB  ~17 min on 2 cores (numba, parallel levels)
  tiny     no    9,930    4.9 M                    ~1.2 MB   seconds (the tests)

Files of a table folder: coset_<variant>.npy (packed entries), coset_<variant>_classes.npz
(class and symmetry of every U-corner x twist value, representatives, self-symmetries) and
coset_<variant>_bound.npy (the bound copy: the inverse look-ups) and coset_<variant>.json
(manifest: sha256 of the three, size, build seconds, depth distribution, near depth).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

import numba
import numpy as np

from puzzlesearch.cube._kernels.bfs_bundles import Columns, CornerMoves, SymClassArrays
from puzzlesearch.cube._kernels.big_table import sym_classes
from puzzlesearch.cube._kernels.bundles import CosetLookup, CosetMoves
from puzzlesearch.cube._kernels.coset import backward_pass, forward_pass, mark_solved
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import CTOP, ESLICE, FLIP, TWIST, coord_move_table
from puzzlesearch.cube.model.symmetry import N_SYM_UD, SYM_INV, conjugate_arrays, coord_conjugation
from puzzlesearch.cube.tables import COSET_CODE, structure
from puzzlesearch.cube.tables.artifact import TableKind, class_sym_of, load_classes, read_npy
from puzzlesearch.cube.tables.bound import lower_bounds
from puzzlesearch.cube.tables.structure import sample_of
from puzzlesearch.progress import log

VARIANTS = ("full", "tiny")
KIND = TableKind(
    stem="coset_{variant}",
    kind="cube-optimal-coset",
    what="coset table",
    command="build-optimal-coset {variant} --out-dir {dir}",
    variants=VARIANTS,
    store_folder="cube-optimal-coset",
    code=COSET_CODE,
)
CLASSES, BOUND = "_classes.npz", "_bound.npy"
N_CORNER = CTOP.size * K.N_TWIST  # 153,090 (U-corner positions, twist) values
N_CLASSES = 9930  # nxopt's count of corner classes under the 16 U-D symmetries
N_FLIPS = {"full": K.N_FLIP, "tiny": 1}
FORWARD_FILL = 0.30  # levels after this share of entries is reached are filled backward (in parallel)
MAX_TABLE_DEPTH = 20
NEAR = 8  # the bound copy: entries within this many moves read as 0 (0.3% of the full table), 9..11 read exactly


def n_col(variant: str) -> int:
    """Columns of a row: E-slice positions x flips."""
    return K.N_SLICE * N_FLIPS[variant]


def row_stride(variant: str) -> int:
    """Entries per row in the file: the columns padded to a multiple of 8 (whole bytes of the
    table and of the BFS bitmaps; full: 1,013,760, tiny: 496)."""
    return -(-n_col(variant) // 8) * 8


def n_entries(variant: str) -> int:
    """Entries that are positions (the padding left out)."""
    return N_CLASSES * n_col(variant)


def n_bytes(variant: str) -> int:
    return N_CLASSES * row_stride(variant) // 4


def variant_for(table_variant: str) -> str:
    """The coset variant that goes with a big table variant (full with full, tiny with small and tiny)."""
    return "full" if table_variant == "full" else "tiny"


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
    """(corner_moves, cols) of the BFS kernels: small int32 move and conjugation tables."""
    ct = coset_tables()
    nf = N_FLIPS[variant]
    flip = ct.flip if nf > 1 else np.zeros((1, K.N_MOVES), dtype=np.int64)
    i32 = [a.astype(np.int32) for a in (ct.eslice, flip, ct.slice_conj, ct.flip_conj, ct.flip_offset)]
    return CornerMoves(ct.ctop.astype(np.int32), ct.twist.astype(np.int32)), Columns(*i32, nf)


def build_packed(variant: str, classes: SymClassArrays, keep_near: int = -1) -> tuple:
    """(packed table, depth -> entries, seconds, near): parallel forward levels, then parallel backward ones.

    near: a copy of the table once the levels up to keep_near are filled (None if keep_near < 0).
    """
    t0 = time.perf_counter()
    corner_moves, cols = bfs_tables(variant)
    n, stride = n_entries(variant), row_stride(variant)
    table = np.full(n_bytes(variant), 255, dtype=np.uint8)  # rows are whole bytes: threads never share one
    dist = {0: int(mark_solved(table, classes, cols, stride))}
    filled, depth = dist[0], 0
    parts = max(1, numba.get_num_threads())
    near = table.copy() if keep_near == 0 else None
    while filled < n:
        backward = filled > FORWARD_FILL * n
        t1 = time.perf_counter()
        if backward:
            new = int(backward_pass(table, depth, classes, corner_moves, cols, stride))
        else:
            new = int(forward_pass(table, depth, classes, corner_moves, cols, stride, parts))
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
        "table": f"coset_{variant}",
        "variant": variant,
        "classes": len(classes.rep),
        "entries": n_entries(variant),
        "bytes": int(table.nbytes),
        "row_stride": row_stride(variant),
        "build_seconds": round(time.perf_counter() - t0, 2),
        "max_depth": max(dist),
        "mean_depth": round(sum(d * c for d, c in dist.items()) / total, 4),
        "distribution": " ".join(f"{d}:{c}" for d, c in dist.items()),
        "near_depth": NEAR,
    }
    KIND.write_manifest(out_dir, variant, (".npy", BOUND, CLASSES), meta)
    log("cube", f"coset table {variant} written to {out_dir} ({meta['build_seconds']:.0f}s)")
    return meta


# ------------------------------------------------------------------ loading


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
        ct = coset_tables()
        nf = N_FLIPS[self.variant]
        return CosetLookup(
            self.class_sym, self.table, ct.slice_conj, ct.flip_conj, ct.flip_offset, nf, row_stride(self.variant)
        )

    @staticmethod
    def moves() -> CosetMoves:
        """The move tables of coset_depth."""
        ct = coset_tables()
        return CosetMoves(ct.ctop, ct.twist, ct.flip, ct.eslice)


def load_table(table_dir, variant: str) -> CosetTable:
    """Verify (sha256, shapes, ranges) and load one variant; never builds."""
    KIND.check_variant(variant)
    meta = KIND.verify(table_dir, variant)
    table = read_npy(table_path(table_dir, variant), meta, np.uint8, (n_bytes(variant),))
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
