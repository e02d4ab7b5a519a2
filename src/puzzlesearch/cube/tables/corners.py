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

import numpy as np

from puzzlesearch import kinds, manifest
from puzzlesearch.cube._kernels.corners import corner_bfs
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.tables import structure
from puzzlesearch.cube.tables.artifact import TableKind, read_npy
from puzzlesearch.cube.tables.big import coord_tables, table_dir_of
from puzzlesearch.progress import log

VARIANTS = ("full", "tiny")
KIND = TableKind(
    stem="optimal_corners_{variant}",
    kind=kinds.CUBE_OPTIMAL_CORNERS,
    what="corner table",
    command="build-corner-table {variant} --out-dir {dir}",
    variants=VARIANTS,
)
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


def corner_moves(variant: str) -> tuple[np.ndarray, np.ndarray]:
    """(cperm, twist) move tables of a variant (tiny: one permutation value)."""
    ct = coord_tables()
    cperm = ct.cperm if variant == "full" else np.zeros((1, K.N_MOVES), dtype=np.int32)
    return cperm, ct.twist


def build_corners(variant: str) -> tuple[np.ndarray, dict[int, int], float]:
    """(distances, depth -> entries, seconds) by BFS (numba)."""
    KIND.check_variant(variant)
    t0 = time.perf_counter()
    cperm, twist = corner_moves(variant)
    table = np.empty(N_CPERM[variant] * K.N_TWIST, dtype=np.uint8)
    counts = corner_bfs(cperm, twist, table)
    dist = {d: int(c) for d, c in enumerate(counts)}
    if sum(dist.values()) != table.size:
        raise AssertionError(f"corner BFS reached {sum(dist.values()):,} of {table.size:,} entries")
    return table, dist, time.perf_counter() - t0


def table_path(table_dir, variant: str):
    return KIND.path(table_dir, variant)


def manifest_path(table_dir, variant: str):
    return KIND.manifest_path(table_dir, variant)


def build_table(variant: str, out_dir) -> dict:
    """Build one variant into out_dir (distances and manifest); returns the manifest."""
    table, dist, seconds = build_corners(variant)
    meta = {
        "table": f"optimal_corners_{variant}",
        "variant": variant,
        "entries": int(table.size),
        "bytes": int(table.nbytes),
        "build_seconds": round(seconds, 2),
        "max_depth": max(dist),
        "distribution": " ".join(f"{d}:{c}" for d, c in dist.items()),
    }
    KIND.write(out_dir, variant, {".npy": table}, meta)
    log(
        "cube",
        f"corner table {variant}: {table.size:,} entries, max depth {max(dist)}, {seconds:.1f}s, written to {out_dir}",
    )
    return meta


def load_corners(table_dir, variant: str) -> CornerTable:
    """Verify (sha256, shape, range) and load one variant; never builds."""
    KIND.check_variant(variant)
    d = table_dir_of(table_dir)
    meta = KIND.verify(d, variant)
    path = table_path(d, variant)
    table = read_npy(path, meta, np.uint8, (N_CPERM[variant] * K.N_TWIST,))
    manifest.check_range(path, "distances", table, 0, MAX_CORNER_DEPTH)
    # a BFS distance table over cperm * 2187 + twist, goal 0: every entry of tiny, a seeded sample of full (88 MB)
    cperm, twist = corner_moves(variant)
    structure.pair_distances(path, "distances", table, cperm, twist, K.N_TWIST, K.ALL_MOVES, 0, variant == "full")
    return CornerTable(variant, table, meta)
