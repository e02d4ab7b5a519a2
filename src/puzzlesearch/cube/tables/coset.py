"""The optimal solver's coset table: corner classes x flip x E-slice, build, save, load verified.

A second pruning table beside the flip x sorted-slice x twist one (optimal_tables), on
another projection: which 4 positions hold the U corners (70) and the twist (2187), reduced
by the 16 U-D symmetries to 9,930 corner classes, times the flip (2048) and the E-slice
positions (495). This is Rokicki's nxopt "EO3 x EP1" subgroup (every U and D turn, corners
kept in their layer, no edge leaves or enters the E slice, no orientation changes): nxopt
reports an average single look-up of 10.67 moves for it (2.60 GB) against 10.30 for the
flip x sorted-slice x twist table. Entries are distances mod 3 in 2 bits, decoded along
the search path from the exact start distance (Kociemba's scheme, as in optimal_tables).

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
from pathlib import Path

import numpy as np

from puzzlesearch import manifest
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import ESLICE, FLIP, TWIST, Arrays, Coord, solved_arrays
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_npy, write_npz
from puzzlesearch.progress import log

# ------------------------------------------------------------------ the U-corner coordinate

_CMASKS = np.array([m for m in range(1 << K.N_CORNERS) if bin(m).count("1") == 4], dtype=np.int64)
_CMASK_RANK = np.full(1 << K.N_CORNERS, -1, dtype=np.int64)
_CMASK_RANK[_CMASKS] = np.arange(len(_CMASKS))  # 0x0F (the U corners at home) has rank 0
U_CORNERS = (0, 1, 2, 3)  # UFR URB UBL ULF


def _ctop_encode(a: Arrays) -> np.ndarray:
    return _CMASK_RANK[((a[0] < len(U_CORNERS)) << np.arange(K.N_CORNERS)).sum(axis=1)]


def _ctop_decode() -> Arrays:
    cp, co, ep, eo = solved_arrays(len(_CMASKS))
    inside = (_CMASKS[:, None] >> np.arange(K.N_CORNERS)) & 1
    for r, row in enumerate(inside):
        cp[r, row == 1] = U_CORNERS
        cp[r, row == 0] = [c for c in range(K.N_CORNERS) if c not in U_CORNERS]
    return cp, co, ep, eo


CTOP = Coord("ctop", len(_CMASKS), _ctop_encode, _ctop_decode)  # which 4 positions hold the U corners: 70


MANIFEST_KIND = "cube-optimal-coset"
VARIANTS = ("full", "tiny")
N_SYM_UD = 16
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
    return manifest_path(table_dir, variant).exists() or table_path(table_dir, variant).exists()


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise PuzzleError(f"unknown coset table variant {variant!r}: one of {', '.join(VARIANTS)}")


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
    from puzzlesearch.cube.model.symmetry import conjugate_arrays, coord_conjugation
    from puzzlesearch.cube.tables.phases import coord_move_table

    reps = ESLICE.decode()
    offset = np.stack([FLIP.encode(conjugate_arrays(reps, s)) for s in range(N_SYM_UD)], axis=1)
    return CosetTables(
        *(coord_move_table(c).astype(np.int64) for c in (CTOP, TWIST, FLIP, ESLICE)),
        *(coord_conjugation(c, N_SYM_UD).astype(np.int64) for c in (CTOP, TWIST, ESLICE, FLIP)),
        offset.astype(np.int64),
    )


@dataclass(frozen=True)
class CornerClasses:
    """Classes of x = ctop * 2187 + twist under the 16 U-D symmetries."""

    rep: np.ndarray  # int32 (9930,)
    classidx: np.ndarray  # int32 (153090,)
    symidx: np.ndarray  # uint8 (153090,)
    stab: np.ndarray  # uint16 (9930,)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"rep": self.rep, "classidx": self.classidx, "symidx": self.symidx, "stab": self.stab}


def build_classes() -> CornerClasses:
    """The corner classes (optimal_kernels.sym_classes with twist in the flip's place)."""
    from puzzlesearch.cube._kernels.big_table import sym_classes
    from puzzlesearch.cube.model.symmetry import SYM_INV

    ct = coset_tables()
    inverse = SYM_INV[:N_SYM_UD].astype(np.int64)
    rep, classidx, symidx, stab = sym_classes(
        ct.twist_conj.astype(np.int32), ct.ctop_conj.astype(np.int32), K.N_TWIST, CTOP.size, inverse
    )
    if len(rep) != N_CLASSES:
        raise AssertionError(f"{len(rep)} corner classes, expected {N_CLASSES}")
    return CornerClasses(rep, classidx, symidx, stab)


def bfs_tables(variant: str) -> tuple:
    """(corner_moves, cols) of the BFS kernels: small int32 move and conjugation tables."""
    ct = coset_tables()
    nf = N_FLIPS[variant]
    flip = ct.flip if nf > 1 else np.zeros((1, K.N_MOVES), dtype=np.int64)
    i32 = [a.astype(np.int32) for a in (ct.eslice, flip, ct.slice_conj, ct.flip_conj, ct.flip_offset)]
    return (ct.ctop.astype(np.int32), ct.twist.astype(np.int32)), (*i32, nf)


def build_packed(variant: str, classes: CornerClasses, keep_near: int = -1) -> tuple:
    """(packed table, depth -> entries, seconds, near): parallel forward levels, then parallel backward ones.

    near: a copy of the table once the levels up to keep_near are filled (None if keep_near < 0).
    """
    import numba

    from puzzlesearch.cube._kernels.coset import backward_pass, forward_pass, mark_solved

    t0 = time.perf_counter()
    corner_moves, cols = bfs_tables(variant)
    n, stride = n_entries(variant), row_stride(variant)
    table = np.full(n_bytes(variant), 255, dtype=np.uint8)  # rows are whole bytes: threads never share one
    class_data = (classes.rep, classes.classidx, classes.symidx, classes.stab)
    dist = {0: int(mark_solved(table, class_data, cols, stride))}
    filled, depth = dist[0], 0
    parts = max(1, numba.get_num_threads())
    near = table.copy() if keep_near == 0 else None
    while filled < n:
        backward = filled > FORWARD_FILL * n
        t1 = time.perf_counter()
        if backward:
            new = int(backward_pass(table, depth, class_data, corner_moves, cols, stride))
        else:
            new = int(forward_pass(table, depth, class_data, corner_moves, cols, stride, parts))
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


def table_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"coset_{variant}.npy"


def classes_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"coset_{variant}_classes.npz"


def manifest_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"coset_{variant}.json"


def bound_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"coset_{variant}_bound.npy"


def build_table(variant: str, out_dir) -> dict:
    """Build one variant into out_dir (table, its bound copy, classes, manifest); returns the manifest.

    The bound copy is the table with the entries within NEAR moves set to 3, so an entry
    reads as a lower bound without a parent (the inverse look-ups): 3 -> 0, else the
    smallest distance above NEAR with its residue mod 3 (as optimal_bound does for the big table).
    """
    _check_variant(variant)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
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
    write_npy(bound_path(out, variant), bound)
    del bound
    write_npy(table_path(out, variant), table)
    write_npz(classes_path(out, variant), **classes.arrays())
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
    files = [table_path(out, variant), bound_path(out, variant), classes_path(out, variant)]
    manifest.write_manifest(manifest_path(out, variant), files, MANIFEST_KIND, {"variant": variant}, meta)
    log("cube", f"coset table {variant} written to {out} ({meta['build_seconds']:.0f}s)")
    return meta


# ------------------------------------------------------------------ loading


@dataclass(frozen=True)
class CosetTable:
    """A verified coset table with what the search needs."""

    variant: str
    table: np.ndarray
    classes: CornerClasses
    meta: dict
    class_sym: np.ndarray  # uint32 class << 4 | symmetry per ctop * 2187 + twist
    bound: np.ndarray  # the bound copy (inverse look-ups)
    lower: np.ndarray  # int64 (4,): lower bound of its entry values 0..3

    def bundle(self) -> tuple:
        """The kernel bundle (see optimal_coset_kernels)."""
        ct = coset_tables()
        nf = N_FLIPS[self.variant]
        return (self.class_sym, self.table, ct.slice_conj, ct.flip_conj, ct.flip_offset, nf, row_stride(self.variant))

    @staticmethod
    def moves() -> tuple:
        """(move_ctop, move_twist, move_flip, move_eslice) of coset_depth."""
        ct = coset_tables()
        return ct.ctop, ct.twist, ct.flip, ct.eslice


def load_table(table_dir, variant: str) -> CosetTable:
    """Verify (sha256, shapes, ranges) and load one variant; never builds."""
    _check_variant(variant)
    d = Path(table_dir)
    mpath = manifest_path(d, variant)
    if not mpath.exists() and not table_path(d, variant).exists():
        raise PuzzleError(
            f"coset table {table_path(d, variant)} is missing: build it with "
            f"`puzzlesearch cube build-optimal-coset {variant} --out-dir {d}`"
        )
    meta = manifest.verify(mpath, MANIFEST_KIND)
    tpath, cpath = table_path(d, variant), classes_path(d, variant)
    table = manifest.load_npy(tpath, meta)
    bound = manifest.load_npy(bound_path(d, variant), meta)
    if bound.shape != table.shape or bound.dtype != np.uint8:
        raise manifest.damaged(bound_path(d, variant), f"is {bound.dtype} {bound.shape}, expected uint8 {table.shape}")
    arrays = manifest.load_npz(cpath, meta)
    want = {"rep": (N_CLASSES,), "classidx": (N_CORNER,), "symidx": (N_CORNER,), "stab": (N_CLASSES,)}
    for name, shape in want.items():
        if name not in arrays or arrays[name].shape != shape:
            raise manifest.damaged(cpath, f"array {name!r} is missing or not of shape {shape}")
    if table.shape != (n_bytes(variant),) or table.dtype != np.uint8:
        raise manifest.damaged(tpath, f"is {table.dtype} {table.shape}, expected uint8 ({n_bytes(variant)},)")
    manifest.check_range(cpath, "classidx", arrays["classidx"], 0, N_CLASSES - 1)
    manifest.check_range(cpath, "symidx", arrays["symidx"], 0, N_SYM_UD - 1)
    manifest.check_range(cpath, "rep", arrays["rep"], 0, N_CORNER - 1)
    classes = CornerClasses(arrays["rep"], arrays["classidx"], arrays["symidx"], arrays["stab"])
    class_sym = (classes.classidx.astype(np.uint32) << 4) | classes.symidx
    from puzzlesearch.cube.tables.bound import lower_bounds

    return CosetTable(variant, table, classes, meta, class_sym, bound, lower_bounds(int(meta["near_depth"])))


def code_sha256() -> str:
    """sha256 of the code that shapes the table (the store key)."""
    from puzzlesearch import store
    from puzzlesearch.cube._kernels import big_table as optimal_kernels
    from puzzlesearch.cube._kernels import coset as optimal_coset_kernels
    from puzzlesearch.cube.model import coords, cubie, symmetry
    from puzzlesearch.cube.tables import coset as this

    return store.code_sha256(K, cubie, coords, symmetry, optimal_kernels, optimal_coset_kernels, this)


def store_table(variant: str) -> CosetTable:
    """The store's table of a variant (built there on first use)."""
    from puzzlesearch import store

    key = store.content_key(kind="cube-optimal-coset", variant=variant, code=code_sha256())
    folder = store.ensure("cube-optimal-coset", key, lambda tmp: build_table(variant, tmp), f"coset table {variant}")
    return load_table(folder, variant)
