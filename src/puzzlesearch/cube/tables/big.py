"""The optimal solver's big pruning table: build, save with its manifest, load verified.

The table gives, for a cube's (flip, E-slice edges, twist), the distance to solved in the
full cube group of that projection, in 2 bits modulo 3 (Kociemba's RubikOptimal). The
flip x slice pair is reduced by the 16 symmetries that keep the U-D axis:

  variant  flip  slice coordinate                     classes     entries (x 2187)  bytes
  full     yes   sorted (positions and order, 11880)  1,523,864   3.33 G            ~833 MB
  small    yes   positions only (495)                    64,430   141 M             ~35 MB
  tiny     no    positions only (495)                        45    98 K             ~25 KB

`full` is the real solver's table (a pipeline artifact, tens of minutes to build);
`small` is the same machinery on the phase-1 projection (about 30 s), `tiny` drops the
flip (well under a second: the tests). Smaller tables are weaker bounds, so deep cubes
take far longer with them; every variant gives optimal answers.

Files of a table folder: optimal_<variant>.npy (packed entries),
optimal_<variant>_classes.npz (class index and symmetry of every flip x slice value, the
class representatives and their self-symmetries) and optimal_<variant>.json (manifest:
sha256 of both, size, build seconds, depth distribution).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from puzzlesearch import kinds
from puzzlesearch.cube._kernels.bfs_bundles import CoordMoves, SymClassArrays, SymData
from puzzlesearch.cube._kernels.big_table import prune_init, prune_pass, sym_classes
from puzzlesearch.cube._kernels.bundles import BigSearch
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import (
    CPERM,
    ESLICE,
    FLIP,
    SLICE_SORTED,
    TWIST,
    coord_move_table,
)
from puzzlesearch.cube.model.symmetry import (
    AXIS_SYMS,
    MOVE_CONJ,
    N_SYM_UD,
    SYM_INV,
    coord_conjugation,
    flipslice_conjugation,
)
from puzzlesearch.cube.tables import structure
from puzzlesearch.cube.tables.artifact import TableKind, class_sym_of, load_classes, read_npy
from puzzlesearch.cube.tables.structure import sample_of
from puzzlesearch.progress import log

VARIANTS = ("full", "small", "tiny")
KIND = TableKind(
    stem="optimal_{variant}",
    kind=kinds.CUBE_OPTIMAL_TABLE,
    what="optimal table",
    command="build-optimal-table {variant} --out-dir {dir}",
    variants=VARIANTS,
    store_folder="cube-optimal",
)
CLASSES = "_classes.npz"
# Kociemba's published class counts (flipslicesorted, flipslice); tiny: E-slice positions alone (counted here)
EXPECTED_CLASSES = {"full": 1_523_864, "small": 64_430, "tiny": 45}
MAX_TABLE_DEPTH = 20  # no projection is further from solved than the cube itself
BACKWARD_FILL = 0.35  # switch to the backward BFS once this share of entries is reached


# ------------------------------------------------------------------ coordinates of the search


@dataclass(frozen=True)
class CoordTables:
    """Move tables (size x 18, int32) and the twist conjugation the kernels use; built from code."""

    flip: np.ndarray
    slice_sorted: np.ndarray
    eslice: np.ndarray
    twist: np.ndarray
    cperm: np.ndarray
    twist_conj: np.ndarray  # 2187 x 16


@cache
def coord_tables() -> CoordTables:
    """The move and conjugation tables (a second or two of numpy; cached per process)."""
    return CoordTables(
        coord_move_table(FLIP),
        coord_move_table(SLICE_SORTED),
        coord_move_table(ESLICE),
        coord_move_table(TWIST),
        coord_move_table(CPERM),
        coord_conjugation(TWIST, N_SYM_UD),
    )


def slice_moves(variant: str) -> np.ndarray:
    """Move table of the table's slice coordinate."""
    ct = coord_tables()
    return ct.slice_sorted if variant == "full" else ct.eslice


def slice_div(variant: str) -> int:
    """Sorted slice // slice_div = the table's slice coordinate."""
    return 1 if variant == "full" else K.N_SLICE_PERM


def flip_mod(variant: str) -> int:
    """Flips in the table (1: the table ignores the flip)."""
    return 1 if variant == "tiny" else K.N_FLIP


def flip_moves(variant: str) -> np.ndarray:
    """Move table of the table's flip coordinate (one value for tiny)."""
    return coord_tables().flip if flip_mod(variant) > 1 else np.zeros((1, K.N_MOVES), dtype=np.int32)


def bfs_bundles(variant: str, classes: SymClassArrays) -> tuple[SymData, CoordMoves]:
    """The BFS kernels' bundles of a variant (also the bound table's)."""
    ct = coord_tables()
    sym_data = SymData(*classes, ct.twist_conj)
    return sym_data, CoordMoves(flip_moves(variant), slice_moves(variant), ct.twist)


# ------------------------------------------------------------------ symmetry classes


def build_classes(variant: str) -> SymClassArrays:
    """The flip x slice classes under the 16 U-D symmetries (numba)."""
    n_flip = flip_mod(variant)
    if n_flip > 1:
        flip_conj = (flipslice_conjugation(FLIP, ESLICE, N_SYM_UD) % K.N_FLIP).astype(np.int32)
    else:
        flip_conj = np.zeros((K.N_SLICE, N_SYM_UD), dtype=np.int32)
    coord = SLICE_SORTED if variant == "full" else ESLICE
    slice_conj = coord_conjugation(coord, N_SYM_UD)
    inverse = SYM_INV[:N_SYM_UD].astype(np.int64)
    classes = SymClassArrays(*sym_classes(flip_conj, slice_conj, n_flip, coord.size, inverse))
    if len(classes.rep) != EXPECTED_CLASSES[variant]:
        raise AssertionError(f"{len(classes.rep)} flip x slice classes, expected {EXPECTED_CLASSES[variant]}")
    return classes


# ------------------------------------------------------------------ building the table


def n_entries(variant: str) -> int:
    """Entries of a table: classes x twists."""
    return EXPECTED_CLASSES[variant] * K.N_TWIST


def build_packed(variant: str, classes: SymClassArrays | None = None) -> tuple[np.ndarray, dict[int, int], float]:
    """(packed table, depth -> entries, seconds) by BFS, forward then backward."""
    t0 = time.perf_counter()
    classes = classes or build_classes(variant)
    n = n_entries(variant)
    table = np.full((n + 3) // 4, 255, dtype=np.uint8)
    sym_data, coord_moves = bfs_bundles(variant, classes)
    dist = {0: int(prune_init(table, sym_data, 0, K.N_TWIST))}
    filled, depth = dist[0], 0
    while filled < n:
        backward = filled > BACKWARD_FILL * n
        t1 = time.perf_counter()
        new = int(prune_pass(table, depth, backward, sym_data, coord_moves, flip_mod(variant)))
        if new == 0:
            raise AssertionError(f"BFS stalled at depth {depth} with {n - filled:,} entries unreached")
        depth += 1
        dist[depth] = new
        filled += new
        log(
            "cube",
            f"optimal table {variant}: depth {depth}: {new:,} entries ({filled / n:.1%} filled, "
            f"{'backward' if backward else 'forward'}, {time.perf_counter() - t1:.1f}s)",
        )
    return table, dist, time.perf_counter() - t0


def table_path(table_dir, variant: str) -> Path:
    return KIND.path(table_dir, variant)


def classes_path(table_dir, variant: str) -> Path:
    return KIND.path(table_dir, variant, CLASSES)


def manifest_path(table_dir, variant: str) -> Path:
    return KIND.manifest_path(table_dir, variant)


def build_table(variant: str, out_dir) -> dict:
    """Build one variant into out_dir (table, classes, manifest); returns the manifest."""
    KIND.check_variant(variant)
    t0 = time.perf_counter()
    classes = build_classes(variant)
    class_seconds = time.perf_counter() - t0
    log("cube", f"optimal table {variant}: {len(classes.rep):,} flip x slice classes ({class_seconds:.1f}s)")
    table, dist, bfs_seconds = build_packed(variant, classes)
    meta = {
        "table": f"optimal_{variant}",
        "variant": variant,
        "classes": len(classes.rep),
        "entries": n_entries(variant),
        "bytes": int(table.nbytes),
        "classes_bytes": int(sum(a.nbytes for a in classes)),
        "build_seconds": round(class_seconds + bfs_seconds, 2),
        "class_seconds": round(class_seconds, 2),
        "max_depth": max(dist),
        "distribution": " ".join(f"{d}:{c}" for d, c in dist.items()),
    }
    meta = KIND.write(out_dir, variant, {".npy": table, CLASSES: classes.arrays()}, meta)
    log("cube", f"optimal table {variant} written to {out_dir} ({meta['build_seconds']:.0f}s)")
    return meta


# ------------------------------------------------------------------ loading


@dataclass(frozen=True)
class OptimalTable:
    """A verified table with what the search needs."""

    variant: str
    table: np.ndarray
    classes: SymClassArrays
    meta: dict
    class_sym: np.ndarray  # uint32 class << 4 | symmetry per flip x slice value (the search's look-up)

    @property
    def sha256(self) -> str:
        """The packed table file's sha256 (the bound table records it)."""
        return self.meta["manifest"]["files"][table_path(".", self.variant).name]["sha256"]

    def search_data(self) -> BigSearch:
        """The kernels' bundle of the table and the search's move tables."""
        ct = coord_tables()
        axis_moves = np.array([MOVE_CONJ[s] for s in AXIS_SYMS], dtype=np.int64)
        return BigSearch(
            self.class_sym,
            self.classes.symidx,
            ct.twist_conj,
            self.table,
            ct.flip,
            ct.slice_sorted,
            ct.twist,
            ct.cperm,
            axis_moves,
            slice_div(self.variant),
            flip_mod(self.variant),
        )


def table_dir_of(path) -> Path:
    """A table folder given as itself or as a file in it."""
    p = Path(path)
    return p.parent if p.suffix in (".json", ".npy", ".npz", ".parquet") else p


def load_table(table_dir, variant: str) -> OptimalTable:
    """Verify (sha256, shapes, ranges) and load one variant; never builds."""
    d = table_dir_of(table_dir)
    meta = KIND.verify(d, variant)
    table = read_npy(table_path(d, variant), meta, np.uint8, ((n_entries(variant) + 3) // 4,))
    n_values = flip_mod(variant) * (K.N_SLICE_SORTED if variant == "full" else K.N_SLICE)
    classes = load_classes(classes_path(d, variant), meta, EXPECTED_CLASSES[variant], n_values)
    # the solved cube (flip, slice, twist 0) is entry classidx[0] * 2187 + the conjugated twist 0 (0)
    solved = int(classes.classidx[0]) * K.N_TWIST
    structure.packed_distances(table_path(d, variant), "table", table, solved, sample_of(n_entries(variant)))
    return OptimalTable(variant, table, classes, meta, class_sym_of(classes))


def store_table(variant: str) -> OptimalTable:
    """The store's table of a variant (built there on first use)."""
    KIND.check_variant(variant)
    return load_table(KIND.in_store(variant, build_table, variant=variant), variant)
