"""The optimal solver's pruning table: build, save with its manifest, load verified.

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

from puzzlesearch import manifest
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import CPERM, ESLICE, FLIP, TWIST, Arrays, Coord, all_perms, perm_rank
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_npy, write_npz
from puzzlesearch.progress import log

MANIFEST_KIND = "cube-optimal-table"
N_SYM_UD = 16
N_SLICE_SORTED = K.N_SLICE * K.N_SLICE_PERM  # 11880
VARIANTS = ("full", "small", "tiny")
# Kociemba's published class counts (flipslicesorted, flipslice); tiny: E-slice positions alone (counted here)
EXPECTED_CLASSES = {"full": 1_523_864, "small": 64_430, "tiny": 45}
MAX_TABLE_DEPTH = 20  # no projection is further from solved than the cube itself
BACKWARD_FILL = 0.35  # switch to the backward BFS once this share of entries is reached


# ------------------------------------------------------------------ the sorted-slice coordinate


def _ss_encode(a: Arrays) -> np.ndarray:
    """E-slice positions * 24 + order of the 4 E edges in those positions (0 = solved)."""
    ep = a[2]
    where = np.argsort(ep < 8, axis=1, kind="stable")[:, :4]  # positions of E edges, in order
    order = np.take_along_axis(ep, where, axis=1) - 8
    return ESLICE.encode(a) * K.N_SLICE_PERM + perm_rank(order)


def _ss_decode() -> Arrays:
    """A representative of every sorted-slice value (no flips or twists)."""
    cp, co, ep, eo = (np.repeat(x, K.N_SLICE_PERM, axis=0) for x in ESLICE.decode())
    perms = np.tile(all_perms(4), (K.N_SLICE, 1))
    ep = ep.copy()
    rows, cols = np.nonzero(ep >= 8)
    ep[rows, cols] = 8 + perms.reshape(-1)
    return cp, co, ep, eo


SLICE_SORTED = Coord("slice_sorted", N_SLICE_SORTED, _ss_encode, _ss_decode)


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
    from puzzlesearch.cube.model.symmetry import coord_conjugation
    from puzzlesearch.cube.tables.phases import coord_move_table

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


# ------------------------------------------------------------------ symmetry classes


@dataclass(frozen=True)
class FlipSliceClasses:
    """Classes of fs = slice * 2048 + flip: class and symmetry per fs, representatives, self-symmetries."""

    rep: np.ndarray  # int32 (n_classes,)
    classidx: np.ndarray  # int32 (n_fs,)
    symidx: np.ndarray  # uint8 (n_fs,)
    stab: np.ndarray  # uint16 (n_classes,)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"rep": self.rep, "classidx": self.classidx, "symidx": self.symidx, "stab": self.stab}


def build_classes(variant: str) -> FlipSliceClasses:
    """The flip x slice classes under the 16 U-D symmetries (numba)."""
    from puzzlesearch.cube._kernels.big_table import sym_classes
    from puzzlesearch.cube.model.symmetry import SYM_INV, coord_conjugation, flipslice_conjugation

    n_flip = flip_mod(variant)
    if n_flip > 1:
        flip_conj = (flipslice_conjugation(FLIP, ESLICE, N_SYM_UD) % K.N_FLIP).astype(np.int32)
    else:
        flip_conj = np.zeros((K.N_SLICE, N_SYM_UD), dtype=np.int32)
    coord = SLICE_SORTED if variant == "full" else ESLICE
    slice_conj = coord_conjugation(coord, N_SYM_UD)
    inverse = SYM_INV[:N_SYM_UD].astype(np.int64)
    rep, classidx, symidx, stab = sym_classes(flip_conj, slice_conj, n_flip, coord.size, inverse)
    if len(rep) != EXPECTED_CLASSES[variant]:
        raise AssertionError(f"{len(rep)} flip x slice classes, expected {EXPECTED_CLASSES[variant]}")
    return FlipSliceClasses(rep, classidx, symidx, stab)


# ------------------------------------------------------------------ building the table


def n_entries(variant: str) -> int:
    """Entries of a table: classes x twists."""
    return EXPECTED_CLASSES[variant] * K.N_TWIST


def build_packed(variant: str, classes: FlipSliceClasses | None = None) -> tuple[np.ndarray, dict[int, int], float]:
    """(packed table, depth -> entries, seconds) by BFS, forward then backward."""
    from puzzlesearch.cube._kernels.big_table import prune_init, prune_pass

    t0 = time.perf_counter()
    classes = classes or build_classes(variant)
    ct = coord_tables()
    n = n_entries(variant)
    table = np.full((n + 3) // 4, 255, dtype=np.uint8)
    sym_data = (classes.rep, classes.classidx, classes.symidx, classes.stab, ct.twist_conj)
    coord_moves = (flip_moves(variant), slice_moves(variant), ct.twist)
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
    return Path(table_dir) / f"optimal_{variant}.npy"


def classes_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"optimal_{variant}_classes.npz"


def manifest_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"optimal_{variant}.json"


def build_table(variant: str, out_dir) -> dict:
    """Build one variant into out_dir (table, classes, manifest); returns the manifest."""
    if variant not in VARIANTS:
        raise PuzzleError(f"unknown optimal table variant {variant!r}: one of {', '.join(VARIANTS)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    classes = build_classes(variant)
    class_seconds = time.perf_counter() - t0
    log("cube", f"optimal table {variant}: {len(classes.rep):,} flip x slice classes ({class_seconds:.1f}s)")
    table, dist, bfs_seconds = build_packed(variant, classes)
    write_npy(table_path(out, variant), table)
    write_npz(classes_path(out, variant), **classes.arrays())
    meta = {
        "table": f"optimal_{variant}",
        "variant": variant,
        "classes": len(classes.rep),
        "entries": n_entries(variant),
        "bytes": int(table.nbytes),
        "classes_bytes": int(sum(a.nbytes for a in classes.arrays().values())),
        "build_seconds": round(class_seconds + bfs_seconds, 2),
        "class_seconds": round(class_seconds, 2),
        "max_depth": max(dist),
        "distribution": " ".join(f"{d}:{c}" for d, c in dist.items()),
    }
    files = [table_path(out, variant), classes_path(out, variant)]
    manifest.write_manifest(manifest_path(out, variant), files, MANIFEST_KIND, {"variant": variant}, meta)
    log("cube", f"optimal table {variant} written to {out} ({meta['build_seconds']:.0f}s)")
    return meta


# ------------------------------------------------------------------ loading


@dataclass(frozen=True)
class OptimalTable:
    """A verified table with what the search needs."""

    variant: str
    table: np.ndarray
    classes: FlipSliceClasses
    meta: dict
    class_sym: np.ndarray  # uint32 class << 4 | symmetry per flip x slice value (the search's look-up)

    def search_data(self) -> tuple:
        """The kernel bundle (see optimal_kernels)."""
        from puzzlesearch.cube.model.symmetry import MOVE_CONJ, SYM_MULT, URF3

        ct = coord_tables()
        axes = (0, URF3, int(SYM_MULT[URF3, URF3]))
        axis_moves = np.array([MOVE_CONJ[s] for s in axes], dtype=np.int64)
        c = self.classes
        return (
            self.class_sym,
            c.symidx,
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
    mpath = manifest_path(d, variant)
    if not mpath.exists() and not table_path(d, variant).exists():
        raise PuzzleError(
            f"optimal table {table_path(d, variant)} is missing: build it with "
            f"`puzzlesearch cube build-optimal-table {variant} --out-dir {d}`"
        )
    meta = manifest.verify(mpath, MANIFEST_KIND)
    tpath, cpath = table_path(d, variant), classes_path(d, variant)
    table = manifest.load_npy(tpath, meta)
    arrays = manifest.load_npz(cpath, meta)
    n_cls = EXPECTED_CLASSES[variant]
    n_fs = flip_mod(variant) * (N_SLICE_SORTED if variant == "full" else K.N_SLICE)
    want = {"rep": (n_cls,), "classidx": (n_fs,), "symidx": (n_fs,), "stab": (n_cls,)}
    for name, shape in want.items():
        if name not in arrays or arrays[name].shape != shape:
            raise manifest.damaged(cpath, f"array {name!r} is missing or not of shape {shape}")
    if table.shape != ((n_entries(variant) + 3) // 4,) or table.dtype != np.uint8:
        raise manifest.damaged(
            tpath, f"is {table.dtype} {table.shape}, expected uint8 ({(n_entries(variant) + 3) // 4},)"
        )
    manifest.check_range(cpath, "classidx", arrays["classidx"], 0, n_cls - 1)
    manifest.check_range(cpath, "symidx", arrays["symidx"], 0, N_SYM_UD - 1)
    manifest.check_range(cpath, "rep", arrays["rep"], 0, n_fs - 1)
    classes = FlipSliceClasses(arrays["rep"], arrays["classidx"], arrays["symidx"], arrays["stab"])
    class_sym = (classes.classidx.astype(np.uint32) << 4) | classes.symidx
    return OptimalTable(variant, table, classes, meta, class_sym)


def code_sha256() -> str:
    """sha256 of the code that shapes the table (the store key)."""
    from puzzlesearch import store
    from puzzlesearch.cube._kernels import big_table as optimal_kernels
    from puzzlesearch.cube.model import coords, cubie, symmetry
    from puzzlesearch.cube.tables import big as this

    return store.code_sha256(K, cubie, coords, symmetry, optimal_kernels, this)


def store_table(variant: str) -> OptimalTable:
    """The store's table of a variant (built there on first use)."""
    from puzzlesearch import store

    key = store.content_key(kind="cube-optimal-table", variant=variant, code=code_sha256())
    folder = store.ensure("cube-optimal", key, lambda tmp: build_table(variant, tmp), f"optimal table {variant}")
    return load_table(folder, variant)
