"""The optimal solver's bound table: the big table read without a parent, for inverse look-ups.

The big table (tables/big.py) stores distances mod 3, decoded from the parent's exact
distance along a search path. The inverse of a node's position is not one move from the
inverse of its parent's, so its look-up needs a plain lower bound. The bound table is the
big table with every entry at distance <= near_depth (max depth - 5) set to 3: an entry
then reads as the smallest distance above near_depth with its residue mod 3 (full: 9, 10
or 11; exact but for the 0.3% of entries at 12 and 13), and 3 as 0. Same size as the big
table (full: ~833 MB), built from it in about a minute; its manifest records the big
table's sha256 and the number of entries per near level (checked against the big table's
distribution).

Files: optimal_<variant>_bound.npy and optimal_<variant>_bound.json, in the big table's folder.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from puzzlesearch import kinds, manifest
from puzzlesearch.cube._kernels.bound import mark_near
from puzzlesearch.cube.tables.artifact import TableKind, read_npy
from puzzlesearch.cube.tables.big import VARIANTS, OptimalTable, bfs_bundles, flip_mod, table_dir_of
from puzzlesearch.progress import log

KIND = TableKind(
    stem="optimal_{variant}_bound",
    kind=kinds.CUBE_OPTIMAL_BOUND,
    what="optimal bound table",
    command="build-optimal-bound {variant} --tables {dir}",
    variants=VARIANTS,
    store_folder="cube-optimal-bound",
)
NEAR_MARGIN = 5  # near_depth = the big table's max depth - this (full: 13 - 5 = 8)


@dataclass(frozen=True)
class BoundTable:
    """A verified bound table and its entry -> lower bound map."""

    variant: str
    table: np.ndarray  # uint8, packed 2-bit entries
    lower: np.ndarray  # int64 (4,): lower bound of entry values 0..3
    meta: dict


def lower_bounds(near_depth: int) -> np.ndarray:
    """Entry value -> lower bound: the smallest distance > near_depth with that residue mod 3; 3 -> 0."""
    out = np.zeros(4, dtype=np.int64)
    for v in range(3):
        out[v] = near_depth + 1 + (v - near_depth - 1) % 3
    return out


def near_depth_of(big: OptimalTable) -> int:
    return int(big.meta["max_depth"]) - NEAR_MARGIN


def bound_path(table_dir, variant: str):
    return KIND.path(table_dir, variant)


def manifest_path(table_dir, variant: str):
    return KIND.manifest_path(table_dir, variant)


def build_bound(big: OptimalTable, out_dir) -> dict:
    """Mark the near entries of a copy of the big table; write it and its manifest to out_dir."""
    t0 = time.perf_counter()
    variant, near = big.variant, near_depth_of(big)
    out = big.table.copy()
    sym_data, coord_moves = bfs_bundles(variant, big.classes)
    counts = [int(x) for x in mark_near(big.table, out, sym_data, coord_moves, flip_mod(variant), near)]
    published = {int(d): int(n) for d, n in (p.split(":") for p in big.meta["distribution"].split())}
    if counts != [published[d] for d in range(near + 1)]:
        raise AssertionError(f"near levels {counts} disagree with the big table's distribution {published}")
    seconds = time.perf_counter() - t0
    meta = {
        "table": f"optimal_{variant}_bound",
        "variant": variant,
        "near_depth": near,
        "near_entries": sum(counts),
        "bytes": int(out.nbytes),
        "build_seconds": round(seconds, 2),
        "big_table_sha256": big.sha256,
    }
    KIND.write(out_dir, variant, {".npy": out}, meta)
    log(
        "cube",
        f"bound table {variant}: {sum(counts):,} entries within {near} moves marked ({seconds:.1f}s), in {out_dir}",
    )
    return meta


def load_bound(table_dir, big: OptimalTable) -> BoundTable:
    """Verify (sha256, shape, made from this big table) and load; never builds."""
    d, variant = table_dir_of(table_dir), big.variant
    meta = KIND.verify(d, variant)
    path = bound_path(d, variant)
    if meta.get("big_table_sha256") != big.sha256:
        raise manifest.damaged(path, f"was made from another optimal_{variant}.npy")
    table = read_npy(path, meta, np.uint8, big.table.shape)
    return BoundTable(variant, table, lower_bounds(int(meta["near_depth"])), meta)


def store_bound(big: OptimalTable, big_key: str) -> BoundTable:
    """The store's bound table of a big table (built there on first use: about a minute)."""
    folder = KIND.in_store(big.variant, lambda _variant, tmp: build_bound(big, tmp), big=big_key)
    return load_bound(folder, big)
