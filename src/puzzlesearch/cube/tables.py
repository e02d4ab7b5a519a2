"""Move tables and BFS pruning tables: built once, saved as .npy, loaded behind `Tables`.

Files in a table folder (default `results/cube/tables/`):
  move_<coord>.npy   int32 (size x 18): coordinate after each move (-1: move not allowed)
  cperm_class.npy, cperm_half.npy   corner permutation -> class / index in H
  prune_<name>.npy   int8 distances over a * n_b + b (-1: not reachable)
  <file>.json        metadata per table (shape, bytes, depth distribution, build seconds; the
                     four corner tables are built in one step, its seconds on cperm_class only)
  manifest.parquet   one row per table (written by `write_manifest`)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.cube import constants as K
from puzzlesearch.cube.coords import BASIC_COORDS, CPERM, DERIVED_COORDS, apply_move, all_perms, perm_rank
from puzzlesearch.cube.cubie import SOLVED
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_json, write_npy, write_parquet
from puzzlesearch.progress import log


@dataclass(frozen=True)
class PruneSpec:
    """A pruning table: distances over coordinate pairs (a, b) using a move set."""

    name: str
    a: str
    b: str
    moves: tuple[int, ...]
    what: str


PRUNE_SPECS = {
    s.name: s
    for s in (
        PruneSpec("th1", "flip", "none", K.ALL_MOVES, "Thistlethwaite phase 1: G0 -> G1 (edge flips)"),
        PruneSpec("th2", "twist", "eslice", K.G1_MOVES, "Thistlethwaite phase 2: G1 -> G2 (twists x E slice)"),
        PruneSpec("th3", "cclass", "mslice", K.G2_MOVES, "Thistlethwaite phase 3: G2 -> G3 (corner class x M slice)"),
        PruneSpec("th4", "chalf", "edgeslices", K.G3_MOVES, "Thistlethwaite phase 4: G3 -> solved"),
        PruneSpec("tp1_twist", "twist", "eslice", K.ALL_MOVES, "two-phase phase 1 bound (twists x E slice)"),
        PruneSpec("tp1_flip", "flip", "eslice", K.ALL_MOVES, "two-phase phase 1 bound (flips x E slice)"),
        PruneSpec("tp2_corner", "cperm", "sliceperm", K.G2_MOVES, "two-phase phase 2 bound (corners x E perm)"),
        PruneSpec("tp2_edge", "udedge", "sliceperm", K.G2_MOVES, "two-phase phase 2 bound (U/D edges x E perm)"),
    )
}
MOVE_TABLES = tuple(BASIC_COORDS) + tuple(DERIVED_COORDS)
COORD_SIZES = {**{n: c.size for n, c in BASIC_COORDS.items()}, **DERIVED_COORDS}


def move_file(dir: Path, coord: str) -> Path:
    return Path(dir) / f"move_{coord}.npy"


def prune_file(dir: Path, name: str) -> Path:
    return Path(dir) / f"prune_{name}.npy"


def move_table_files(dir) -> list[Path]:
    """Every file `build_move_tables` writes."""
    d = Path(dir)
    return [move_file(d, c) for c in MOVE_TABLES] + [d / "cperm_class.npy", d / "cperm_half.npy"]


# ------------------------------------------------------------------ building


def coord_move_table(coord) -> np.ndarray:
    """(size x 18) int32: the coordinate of each representative after each allowed move."""
    reps = coord.decode()
    table = np.full((coord.size, K.N_MOVES), -1, dtype=np.int32)
    for m in coord.moves:
        table[:, m] = coord.encode(apply_move(reps, m))
    return table


def _components(table: np.ndarray, moves) -> np.ndarray:
    """Label of each node = smallest node reachable through `moves` (label propagation)."""
    label = np.arange(table.shape[0])
    while True:
        new = label.copy()
        for m in moves:
            np.minimum(new, label[table[:, m]], out=new)
            np.minimum.at(new, table[:, m], label)
        if (new == label).all():
            return label
        label = new


def corner_classes(cperm_moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(class of each corner perm p under H.p, index of p inside H or -1).

    H is the group of corner permutations made by half turns (96 elements). Two states
    whose corner permutations are in the same class H.p need the same moves to reach G3.
    """
    perms = all_perms(K.N_CORNERS)
    inverse = perm_rank(np.argsort(perms, axis=1))
    comp = _components(cperm_moves, K.G3_MOVES)  # components p.H of appending half turns
    _, cls_of_comp = np.unique(comp, return_inverse=True)
    cls = cls_of_comp[inverse]  # H.p = (p^-1 . H)^-1
    half = np.full(K.N_CPERM, -1, dtype=np.int64)
    members = np.flatnonzero(comp == comp[0])
    half[members] = np.arange(len(members))
    if cls.max() + 1 != K.N_CORNER_CLASS or len(members) != K.N_CORNER_HALF:
        raise AssertionError("corner half-turn group has the wrong size")
    return cls, half


def derived_move_table(lookup: np.ndarray, size: int, cperm_moves: np.ndarray, moves) -> np.ndarray:
    """Move table on lookup values; checks that every member of a value moves alike."""
    valid = lookup >= 0
    rep = np.zeros(size, dtype=np.int64)
    rep[lookup[valid]] = np.flatnonzero(valid)
    table = np.full((size, K.N_MOVES), -1, dtype=np.int32)
    for m in moves:
        table[:, m] = lookup[cperm_moves[rep, m]]
        if not (lookup[cperm_moves[valid, m]] == table[lookup[valid], m]).all():
            raise AssertionError(f"corner lookup is not a coordinate for move {m}")
    return table


def build_move_tables(out_dir) -> dict[str, np.ndarray]:
    """Build and save every move table (and the corner lookups); returns them by name."""
    out = Path(out_dir)
    tables = {}
    for name, coord in BASIC_COORDS.items():
        t0 = time.perf_counter()
        tables[name] = coord_move_table(coord)
        _save(out, f"move_{name}", tables[name], "move", time.perf_counter() - t0,
              {"coord": name, "moves": len(coord.moves)})
    t0 = time.perf_counter()
    cls, half = corner_classes(tables["cperm"])
    tables["cclass"] = derived_move_table(cls, K.N_CORNER_CLASS, tables["cperm"], K.ALL_MOVES)
    tables["chalf"] = derived_move_table(half, K.N_CORNER_HALF, tables["cperm"], K.G3_MOVES)
    _save_corner_tables(out, {"cperm_class": cls, "cperm_half": half, "move_cclass": tables["cclass"],
                              "move_chalf": tables["chalf"]}, time.perf_counter() - t0)
    log("cube", f"move tables written to {out}")
    return tables


def _save_corner_tables(out: Path, arrays: dict[str, np.ndarray], seconds: float) -> None:
    """Save the corner tables built in one step: its seconds go to the first, 0 to the rest."""
    first = next(iter(arrays))
    for name, arr in arrays.items():
        kind = "lookup" if name.startswith("cperm_") else "move"
        note = (f"build_seconds covers {', '.join(arrays)} (built in one step)" if name == first
                else f"built with {first} (its build_seconds counts this table)")
        _save(out, name, arr.astype(np.int32), kind, seconds if name == first else 0.0, {"note": note})


def solved_index(spec: PruneSpec, lookups: dict[str, np.ndarray]) -> int:
    """Table index of the solved cube."""
    return coord_of(spec.a, SOLVED, lookups) * COORD_SIZES[spec.b] + coord_of(spec.b, SOLVED, lookups)


def coord_of(name: str, cube, lookups: dict[str, np.ndarray]) -> int:
    """Any coordinate (basic or derived) of one CubieCube."""
    if name in BASIC_COORDS:
        return BASIC_COORDS[name].of(cube)
    return int(lookups[f"cperm_{name[1:]}"][CPERM.of(cube)])  # cclass -> cperm_class


def build_prune_table(name: str, table_dir) -> np.ndarray:
    """BFS one pruning table from the saved move tables; save it with its distribution."""
    from puzzlesearch.cube.kernels import bfs_distances

    spec = PRUNE_SPECS[name]
    tables = Tables(table_dir, build=False)
    move_a, move_b = tables.move(spec.a), tables.move(spec.b)
    n_b = COORD_SIZES[spec.b]
    size = COORD_SIZES[spec.a] * n_b
    moves = np.array(spec.moves, dtype=np.int64)
    bfs_distances(move_a[:1] * 0, move_b[:1] * 0, moves, 0, 1, 1)  # compile/load the kernel first
    t0 = time.perf_counter()
    dist = bfs_distances(move_a, move_b, moves, solved_index(spec, tables.lookups), n_b, size)
    seconds = time.perf_counter() - t0
    _save(Path(table_dir), f"prune_{name}", dist, "prune", seconds,
          {"a": spec.a, "b": spec.b, "moves": len(spec.moves), "what": spec.what})
    log("cube", f"pruning table {name}: {int((dist >= 0).sum()):,} states, depth {int(dist.max())}, {seconds:.2f}s")
    return dist


def distribution(arr: np.ndarray) -> dict[int, int]:
    """depth -> count over the reached entries of a pruning table."""
    counts = np.bincount(arr[arr >= 0].astype(np.int64))
    return {d: int(c) for d, c in enumerate(counts) if c}


def _save(out: Path, stem: str, arr: np.ndarray, kind: str, seconds: float, extra: dict) -> None:
    write_npy(out / f"{stem}.npy", arr)
    meta = {"table": stem, "kind": kind, "shape": list(arr.shape), "dtype": str(arr.dtype),
            "entries": int(arr.size), "bytes": int(arr.nbytes), "build_seconds": round(seconds, 4), **extra}
    if kind == "prune":
        dist = distribution(arr)
        meta.update(reached=sum(dist.values()), max_depth=max(dist),
                    distribution=" ".join(f"{d}:{c}" for d, c in dist.items()))
    write_json(meta, out / f"{stem}.json")


def write_manifest(table_dir, out=None) -> pl.DataFrame:
    """One row per table from the .json metadata files; written to manifest.parquet."""
    d = Path(table_dir)
    rows = [json.loads(p.read_text()) for p in sorted(d.glob("*.json"))]
    df = pl.DataFrame(
        [{"table": r["table"], "kind": r["kind"], "shape": "x".join(map(str, r["shape"])),
          "dtype": r["dtype"], "entries": r["entries"], "bytes": r["bytes"],
          "reached": r.get("reached"), "max_depth": r.get("max_depth"),
          "distribution": r.get("distribution"), "build_seconds": r["build_seconds"],
          "note": r.get("note")} for r in rows],
        schema_overrides={"reached": pl.Int64, "max_depth": pl.Int64, "distribution": pl.String,
                          "note": pl.String},
    )
    write_parquet(df, out or d / "manifest.parquet")
    return df


def build_all(table_dir) -> None:
    """Every move and pruning table plus the manifest (what the CLI does on first use)."""
    build_move_tables(table_dir)
    for name in PRUNE_SPECS:
        build_prune_table(name, table_dir)
    write_manifest(table_dir)


# ------------------------------------------------------------------ loading


class Tables:
    """The table folder: arrays loaded on first use (memory-mapped reads are not needed)."""

    def __init__(self, table_dir, build: bool = True):
        self.dir = Path(table_dir)
        if build and not (self.dir / "manifest.parquet").exists():
            log("cube", f"tables missing in {self.dir}: building them once")
            build_all(self.dir)
        self._cache: dict[str, np.ndarray] = {}

    def _load(self, stem: str) -> np.ndarray:
        if stem not in self._cache:
            path = self.dir / f"{stem}.npy"
            if not path.exists():
                raise PuzzleError(f"cube table {path} is missing: run `puzzlesearch cube build-tables`")
            self._cache[stem] = np.load(path)
        return self._cache[stem]

    def move(self, coord: str) -> np.ndarray:
        """Move table of a coordinate (size x 18, int32)."""
        return self._load(f"move_{coord}")

    def prune(self, name: str) -> np.ndarray:
        """Pruning table (int8 distances)."""
        return self._load(f"prune_{name}")

    @property
    def lookups(self) -> dict[str, np.ndarray]:
        """Corner permutation -> class (cperm_class) and -> index in H (cperm_half)."""
        return {k: self._load(k) for k in ("cperm_class", "cperm_half")}

    def coord(self, name: str, cube) -> int:
        """A coordinate of one CubieCube."""
        return coord_of(name, cube, self.lookups)
