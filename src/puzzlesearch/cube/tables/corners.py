"""The optimal solver's second heuristic: exact corner distances, built, saved, loaded verified.

Every corner state (permutation x twist) of the cube group with its exact distance to
solved, one byte an entry (Korf's corner table; max 11 moves, as for the 2x2x2). The
search takes the larger of it and the flip x slice x twist look-ups.

  variant  coordinates                 entries      bytes    build
  full     cperm (40320) x twist (2187)  88,179,840   ~88 MB   about a minute (numba)
  tiny     twist only                         2,187    ~2 KB   instant (the tests)

Files of a table folder: optimal_corners_<variant>.npy (distances) and
optimal_corners_<variant>.json (manifest: sha256, size, build seconds, depth distribution).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlesearch import manifest
from puzzlesearch.cube.model import constants as K
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_npy
from puzzlesearch.progress import log

MANIFEST_KIND = "cube-optimal-corners"
VARIANTS = ("full", "tiny")
N_CPERM = {"full": K.N_CPERM, "tiny": 1}
MAX_CORNER_DEPTH = 11  # the 2x2x2's diameter in face turns: no corner state is further


@dataclass(frozen=True)
class CornerTable:
    """A verified corner table: exact distances, index cperm * 2187 + twist (tiny: twist)."""

    variant: str
    table: np.ndarray  # uint8
    meta: dict

    @property
    def n_cperm(self) -> int:
        return N_CPERM[self.variant]


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise PuzzleError(f"unknown corner table variant {variant!r}: one of {', '.join(VARIANTS)}")


def corner_moves(variant: str) -> tuple[np.ndarray, np.ndarray]:
    """(cperm, twist) move tables of a variant (tiny: one permutation value)."""
    from puzzlesearch.cube.tables.big import coord_tables

    ct = coord_tables()
    cperm = ct.cperm if variant == "full" else np.zeros((1, K.N_MOVES), dtype=np.int32)
    return cperm, ct.twist


def build_corners(variant: str) -> tuple[np.ndarray, dict[int, int], float]:
    """(distances, depth -> entries, seconds) by BFS (numba)."""
    from puzzlesearch.cube._kernels.corners import corner_bfs

    _check_variant(variant)
    t0 = time.perf_counter()
    cperm, twist = corner_moves(variant)
    table = np.empty(N_CPERM[variant] * K.N_TWIST, dtype=np.uint8)
    counts = corner_bfs(cperm, twist, table)
    dist = {d: int(c) for d, c in enumerate(counts)}
    if sum(dist.values()) != table.size:
        raise AssertionError(f"corner BFS reached {sum(dist.values()):,} of {table.size:,} entries")
    return table, dist, time.perf_counter() - t0


def table_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"optimal_corners_{variant}.npy"


def manifest_path(table_dir, variant: str) -> Path:
    return Path(table_dir) / f"optimal_corners_{variant}.json"


def build_table(variant: str, out_dir) -> dict:
    """Build one variant into out_dir (distances and manifest); returns the manifest."""
    _check_variant(variant)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    table, dist, seconds = build_corners(variant)
    write_npy(table_path(out, variant), table)
    meta = {
        "table": f"optimal_corners_{variant}",
        "variant": variant,
        "entries": int(table.size),
        "bytes": int(table.nbytes),
        "build_seconds": round(seconds, 2),
        "max_depth": max(dist),
        "distribution": " ".join(f"{d}:{c}" for d, c in dist.items()),
    }
    manifest.write_manifest(
        manifest_path(out, variant), [table_path(out, variant)], MANIFEST_KIND, {"variant": variant}, meta
    )
    log(
        "cube",
        f"corner table {variant}: {table.size:,} entries, max depth {max(dist)}, {seconds:.1f}s, written to {out}",
    )
    return meta


def load_corners(table_dir, variant: str) -> CornerTable:
    """Verify (sha256, shape, range) and load one variant; never builds."""
    from puzzlesearch.cube.tables.big import table_dir_of

    _check_variant(variant)
    d = table_dir_of(table_dir)
    mpath, tpath = manifest_path(d, variant), table_path(d, variant)
    if not mpath.exists() and not tpath.exists():
        raise PuzzleError(
            f"corner table {tpath} is missing: build it with "
            f"`puzzlesearch cube build-corner-table {variant} --out-dir {d}`"
        )
    meta = manifest.verify(mpath, MANIFEST_KIND)
    table = manifest.load_npy(tpath, meta)
    size = N_CPERM[variant] * K.N_TWIST
    if table.shape != (size,) or table.dtype != np.uint8:
        raise manifest.damaged(tpath, f"is {table.dtype} {table.shape}, expected uint8 ({size},)")
    manifest.check_range(tpath, "distances", table, 0, MAX_CORNER_DEPTH)
    return CornerTable(variant, table, meta)


def code_sha256() -> str:
    """sha256 of the code that shapes the table (the store key)."""
    from puzzlesearch import store
    from puzzlesearch.cube._kernels import corners as optimal_corner_kernels
    from puzzlesearch.cube.model import coords, cubie
    from puzzlesearch.cube.tables import corners as this

    return store.code_sha256(K, cubie, coords, optimal_corner_kernels, this)


def store_corners(variant: str) -> CornerTable:
    """The store's corner table of a variant (built there on first use: about a minute)."""
    from puzzlesearch import store

    key = store.content_key(kind=MANIFEST_KIND, variant=variant, code=code_sha256())
    folder = store.ensure("cube-optimal-corners", key, lambda tmp: build_table(variant, tmp), f"corner table {variant}")
    return load_corners(folder, variant)
