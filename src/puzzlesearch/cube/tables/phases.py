"""Move tables and BFS pruning tables: built once, saved as .npy, loaded behind `Tables`.

Files in a table folder (the pipeline's `results/cube/tables/`, or a store folder):
  move_<coord>.npy   int32 (size x 18): coordinate after each move (-1: move not allowed)
  cperm_class.npy, cperm_half.npy   corner permutation -> class / index in H
  sym_*.npy          symmetry lookups of the two-phase class tables (cube/symmetry.py, the
                     16 U-D symmetries): sym_fsclass (E slice * 2048 + flip -> class << 4 |
                     symmetry), sym_fsrep (class -> raw representative), sym_fsself (class ->
                     bits of the symmetries fixing it), sym_twistconj (twist x symmetry ->
                     conjugated twist); sym_cpclass, sym_cprep, sym_cpself, sym_udconj the same
                     for corner permutations and the U/D edges
  prune_<name>.npy   int8 distances over a * n_b + b (-1: not reachable); tp1_sym and tp2_sym
                     over class * n_b + b (tp2_sym capped: PHASE2_CAP stands for "at least")
  <file>.json        the table's manifest (sha256, shape, dtype: puzzlesearch.manifest) plus
                     its metadata (depth distribution, build seconds; the four corner tables
                     are built in one step, its seconds on cperm_class only)
  manifest.parquet   one row per table (written by `write_manifest`)

`Tables` verifies each file against its manifest on first use, range-checks it (move
tables hold coordinates of their target, prune tables depths) and checks its structure
(tables/structure.py: moves are permutations undone by their inverses, lookups agree with
the move tables, prune tables are BFS distances) before a kernel indexes it, so a damaged
file is a one-line ArtifactError, never a crash, an endless search or a changed answer.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch import kinds, manifest
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import (
    BASIC_COORDS,
    CPERM,
    DERIVED_COORDS,
    ESLICE,
    FLIP,
    SLICE_SORTED,
    TWIST,
    UDEDGE,
    all_perms,
    coord_move_table,
    perm_rank,
)
from puzzlesearch.cube.model.cubie import SOLVED
from puzzlesearch.cube.model.symmetry import (
    N_SYM_UD,
    SYM_SHIFT,
    coord_conjugation,
    flipslice_conjugation,
    sym_classes,
)
from puzzlesearch.cube.tables import structure
from puzzlesearch.cube.tables.artifact import code_sha256, in_store, read_npy, write_table
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log

MANIFEST_KINDS = {
    "move": "cube-move-table",
    "lookup": "cube-lookup-table",
    "prune": "cube-prune-table",
    "next": "cube-next-table",
}
SUMMARY = "manifest.parquet"
SUMMARY_KIND = kinds.CUBE_TABLE_MANIFEST  # the manifest entry kind of manifest.parquet (one row per table)
BUILD_HINT = "puzzlesearch cube build-tables --dir"


@dataclass(frozen=True)
class PruneSpec:
    """A pruning table: distances over coordinate pairs (a, b) using a move set."""

    name: str
    a: str
    b: str
    moves: tuple[int, ...]
    what: str
    sym: bool = False  # a is a symmetry class (SYM_TABLES), b conjugated along (bfs_sym_distances)


PRUNE_SPECS = {
    s.name: s
    for s in (
        PruneSpec("th1", "flip", "none", K.ALL_MOVES, "Thistlethwaite phase 1: G0 -> G1 (edge flips)"),
        PruneSpec("th2", "twist", "eslice", K.G1_MOVES, "Thistlethwaite phase 2: G1 -> G2 (twists x E slice)"),
        PruneSpec("th3", "cclass", "mslice", K.G2_MOVES, "Thistlethwaite phase 3: G2 -> G3 (corner class x M slice)"),
        PruneSpec("th4", "chalf", "edgeslices", K.G3_MOVES, "Thistlethwaite phase 4: G3 -> solved"),
        PruneSpec(
            "tp1_sym",
            "fsclass",
            "twist",
            K.ALL_MOVES,
            "two-phase phase 1 exact distance (flip x E slice classes under 16 symmetries x twist)",
            sym=True,
        ),
        PruneSpec(
            "tp2_sym",
            "cpclass",
            "udedge",
            K.G2_MOVES,
            "two-phase phase 2 bound (corner perm classes under 16 symmetries x U/D edges)",
            sym=True,
        ),
        PruneSpec("tp2_corner", "cperm", "sliceperm", K.G2_MOVES, "two-phase phase 2 bound (corners x E perm)"),
        PruneSpec("tp2_edge", "udedge", "sliceperm", K.G2_MOVES, "two-phase phase 2 bound (U/D edges x E perm)"),
    )
}
SEARCH_COORDS = {c.name: c for c in (SLICE_SORTED,)}  # move tables only the searches use (no pruning table)
MOVE_COORDS = {**BASIC_COORDS, **SEARCH_COORDS}
MOVE_TABLES = tuple(MOVE_COORDS) + tuple(DERIVED_COORDS)
N_FLIPSLICE_CLASS = 64430  # classes of (E slice, flip) under the 16 U-D symmetries (Kociemba)
N_CPERM_CLASS = 2768  # classes of corner permutations under them (Kociemba, min2phase)
N_FLIPSLICE = K.N_SLICE * K.N_FLIP
# Symmetry lookups: file stem -> (shape, largest entry).
SYM_LOOKUPS = {
    "sym_fsclass": ((N_FLIPSLICE,), (N_FLIPSLICE_CLASS << SYM_SHIFT) - 1),
    "sym_fsrep": ((N_FLIPSLICE_CLASS,), N_FLIPSLICE - 1),
    "sym_fsself": ((N_FLIPSLICE_CLASS,), (1 << N_SYM_UD) - 1),
    "sym_twistconj": ((K.N_TWIST, N_SYM_UD), K.N_TWIST - 1),
    "sym_cpclass": ((K.N_CPERM,), (N_CPERM_CLASS << SYM_SHIFT) - 1),
    "sym_cprep": ((N_CPERM_CLASS,), K.N_CPERM - 1),
    "sym_cpself": ((N_CPERM_CLASS,), (1 << N_SYM_UD) - 1),
    "sym_udconj": ((K.N_UDEDGE, N_SYM_UD), K.N_UDEDGE - 1),
}
COORD_MOVES = {  # the moves each move table has (-1 in the other columns)
    **{n: c.moves for n, c in MOVE_COORDS.items()},
    "cclass": K.ALL_MOVES,
    "chalf": K.G3_MOVES,
}
COORD_SIZES = {
    **{n: c.size for n, c in MOVE_COORDS.items()},
    **DERIVED_COORDS,
    "fsclass": N_FLIPSLICE_CLASS,
    "cpclass": N_CPERM_CLASS,
}


# The phase-2 searches go at most phase2_max (schema maximum 18, default 12) or 20 - phase 1
# moves deep, so the phase-2 class table needs exact values only below this (a larger
# phase2_max still gets a valid, weaker bound); the deep layers it skips hold most entries
# and most of the build time.
PHASE2_CAP = 13


@dataclass(frozen=True)
class SymTable:
    """How to BFS a symmetry-reduced table: raw pair b * n_a + a -> class, t conjugated along."""

    coords: tuple[str, str, str]  # a, b, t (move tables)
    lookups: tuple[str, str, str, str]  # class << 4 | sym, representatives, self-symmetries, t conjugation
    cap: int = 0  # > 0: distances from cap on are stored as cap (a lower bound; the BFS stops there)


SYM_TABLES = {
    "tp1_sym": SymTable(("flip", "eslice", "twist"), ("sym_fsclass", "sym_fsrep", "sym_fsself", "sym_twistconj")),
    "tp2_sym": SymTable(
        ("cperm", "none", "udedge"), ("sym_cpclass", "sym_cprep", "sym_cpself", "sym_udconj"), cap=PHASE2_CAP
    ),
}


# The phase-1 move-mask table (_kernels/phase_next.py): tp1_sym's distance plus, per face, how
# each move changes it; uint32, one entry per tp1_sym entry, built from tp1_sym (about 10 s).
NEXT_STEM = "next_tp1"
NEXT_FROM = "tp1_sym"
NEXT_WHAT = "two-phase phase 1 exact distance and the distance change of each move (per face, 4 bits)"


def move_file(dir: Path, coord: str) -> Path:
    return Path(dir) / f"move_{coord}.npy"


def prune_file(dir: Path, name: str) -> Path:
    return Path(dir) / f"prune_{name}.npy"


def move_table_files(dir) -> list[Path]:
    """Every file `build_move_tables` writes."""
    d = Path(dir)
    return (
        [move_file(d, c) for c in MOVE_TABLES]
        + [d / "cperm_class.npy", d / "cperm_half.npy"]
        + [d / f"{stem}.npy" for stem in SYM_LOOKUPS]
    )


# ------------------------------------------------------------------ building


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
    for name, coord in MOVE_COORDS.items():
        t0 = time.perf_counter()
        tables[name] = coord_move_table(coord)
        _save(
            out,
            f"move_{name}",
            tables[name],
            "move",
            time.perf_counter() - t0,
            {"coord": name, "moves": len(coord.moves)},
        )
    t0 = time.perf_counter()
    cls, half = corner_classes(tables["cperm"])
    tables["cclass"] = derived_move_table(cls, K.N_CORNER_CLASS, tables["cperm"], K.ALL_MOVES)
    tables["chalf"] = derived_move_table(half, K.N_CORNER_HALF, tables["cperm"], K.G3_MOVES)
    _save_corner_tables(
        out,
        {"cperm_class": cls, "cperm_half": half, "move_cclass": tables["cclass"], "move_chalf": tables["chalf"]},
        time.perf_counter() - t0,
    )
    build_sym_lookups(out)
    log("cube", f"move tables written to {out}")
    return tables


def sym_lookups() -> dict[str, np.ndarray]:
    """The symmetry lookups (SYM_LOOKUPS) from the 16 U-D symmetries."""
    classes = sym_classes(flipslice_conjugation(FLIP, ESLICE))
    if classes.n_classes != N_FLIPSLICE_CLASS:
        raise AssertionError(f"{classes.n_classes} flip-slice classes, expected {N_FLIPSLICE_CLASS}")
    corners = sym_classes(coord_conjugation(CPERM))
    if corners.n_classes != N_CPERM_CLASS:
        raise AssertionError(f"{corners.n_classes} corner permutation classes, expected {N_CPERM_CLASS}")
    return {
        "sym_fsclass": (classes.class_of << SYM_SHIFT) | classes.sym_of,
        "sym_fsrep": classes.reps,
        "sym_fsself": classes.selfsym,
        "sym_twistconj": coord_conjugation(TWIST),
        "sym_cpclass": (corners.class_of << SYM_SHIFT) | corners.sym_of,
        "sym_cprep": corners.reps,
        "sym_cpself": corners.selfsym,
        "sym_udconj": coord_conjugation(UDEDGE),
    }


def build_sym_lookups(out: Path) -> None:
    """Build and save the symmetry lookups (one step: its seconds on the first)."""
    t0 = time.perf_counter()
    arrays = sym_lookups()
    seconds = time.perf_counter() - t0
    first = next(iter(arrays))
    for name, arr in arrays.items():
        note = f"build_seconds covers all {len(arrays)} sym_* lookups" if name == first else f"built with {first}"
        _save(out, name, arr.astype(np.int32), "lookup", seconds if name == first else 0.0, {"note": note})


def _save_corner_tables(out: Path, arrays: dict[str, np.ndarray], seconds: float) -> None:
    """Save the corner tables built in one step: its seconds go to the first, 0 to the rest."""
    first = next(iter(arrays))
    for name, arr in arrays.items():
        kind = "lookup" if name.startswith("cperm_") else "move"
        note = (
            f"build_seconds covers {', '.join(arrays)} (built in one step)"
            if name == first
            else f"built with {first} (its build_seconds counts this table)"
        )
        _save(out, name, arr.astype(np.int32), kind, seconds if name == first else 0.0, {"note": note})


def solved_index(spec: PruneSpec, lookups: dict[str, np.ndarray]) -> int:
    """Table index of the solved cube."""
    return coord_of(spec.a, SOLVED, lookups) * COORD_SIZES[spec.b] + coord_of(spec.b, SOLVED, lookups)


def coord_of(name: str, cube, lookups: dict[str, np.ndarray]) -> int:
    """Any coordinate (basic, search or derived) of one CubieCube."""
    if name in MOVE_COORDS:
        return MOVE_COORDS[name].of(cube)
    return int(lookups[f"cperm_{name[1:]}"][CPERM.of(cube)])  # cclass -> cperm_class


def build_prune_table(name: str, table_dir, out=None) -> np.ndarray:
    """BFS one pruning table from the (verified) move tables in table_dir; save it to `out`.

    `out` defaults to table_dir/prune_<name>.npy and must carry that file name (loaders
    find tables by name); its manifest is written beside it.
    """
    # numba is imported on a build only: the Snakefile reads this module
    from puzzlesearch.cube._kernels.phase_bfs import bfs_distances

    spec = PRUNE_SPECS[name]
    out = Path(out) if out else prune_file(Path(table_dir), name)
    if out.name != prune_file(Path("."), name).name:
        raise PuzzleError(f"--out {out}: a pruning table {name!r} must be named {prune_file(Path('.'), name).name}")
    tables = Tables(table_dir)
    if spec.sym:
        dist, seconds = _bfs_sym(tables, spec)
        extra = {"a": spec.a, "b": spec.b, "moves": len(spec.moves), "what": spec.what}
        cap = SYM_TABLES[name].cap
        if cap:
            extra["note"] = f"capped: distances of {cap} or more are stored as {cap} (a lower bound)"
        _save(out.parent, f"prune_{name}", dist, "prune", seconds, extra)
        log("cube", f"pruning table {name}: {dist.size:,} entries, depth {int(dist.max())}, {seconds:.2f}s")
        return dist
    move_a, move_b = tables.move(spec.a), tables.move(spec.b)
    n_b = COORD_SIZES[spec.b]
    size = COORD_SIZES[spec.a] * n_b
    moves = np.array(spec.moves, dtype=np.int64)
    bfs_distances(move_a[:1] * 0, move_b[:1] * 0, moves, 0, 1, 1)  # compile/load the kernel first
    t0 = time.perf_counter()
    dist = bfs_distances(move_a, move_b, moves, solved_index(spec, tables.lookups), n_b, size)
    seconds = time.perf_counter() - t0
    _save(
        out.parent,
        f"prune_{name}",
        dist,
        "prune",
        seconds,
        {"a": spec.a, "b": spec.b, "moves": len(spec.moves), "what": spec.what},
    )
    log("cube", f"pruning table {name}: {int((dist >= 0).sum()):,} states, depth {int(dist.max())}, {seconds:.2f}s")
    return dist


def _bfs_sym(tables: Tables, spec: PruneSpec) -> tuple[np.ndarray, float]:
    """(distances, seconds) of a symmetry-reduced table (SYM_TABLES)."""
    from puzzlesearch.cube._kernels.phase_bfs import bfs_sym_distances  # (numba on a build only)

    how = SYM_TABLES[spec.name]
    mv = [tables.move(c) for c in how.coords]
    sym = [tables.sym(s) for s in how.lookups]
    n_a, n_t = COORD_SIZES[how.coords[0]], COORD_SIZES[how.coords[2]]
    moves = np.array(spec.moves, dtype=np.int64)
    bfs_sym_distances(*mv, sym[0], sym[1][:1], sym[2][:1], sym[3], n_a, 1, 0, moves, 0)  # compile/load first
    start = int(sym[0][0] >> SYM_SHIFT) * n_t  # raw 0 and t 0: the solved cube
    t0 = time.perf_counter()
    dist = bfs_sym_distances(*mv, *sym, n_a, n_t, start, moves, how.cap)
    return dist, time.perf_counter() - t0


def distribution(arr: np.ndarray) -> dict[int, int]:
    """depth -> count over the reached entries of a pruning table."""
    top = int(arr.max()) if arr.size else -1
    counts = (np.count_nonzero(arr == d) for d in range(top + 1))  # no int64 copy of a 141 MB table
    return {d: int(c) for d, c in enumerate(counts) if c}


def _save(out: Path, stem: str, arr: np.ndarray, kind: str, seconds: float, extra: dict) -> None:
    """Write a table and its manifest (<stem>.json: checksum, shape, dtype, metadata)."""
    meta = {
        "table": stem,
        "kind": kind,
        "shape": list(arr.shape),
        "dtype": str(arr.dtype),
        "entries": int(arr.size),
        "bytes": int(arr.nbytes),
        "build_seconds": round(seconds, 4),
        **extra,
    }
    if kind == "prune":
        dist = distribution(arr)
        meta.update(
            reached=sum(dist.values()), max_depth=max(dist), distribution=" ".join(f"{d}:{c}" for d, c in dist.items())
        )
    write_table(out, stem, {".npy": arr}, MANIFEST_KINDS[kind], {}, meta)


def table_stems() -> list[str]:
    """Every table of a complete folder, by file stem."""
    return (
        [f"move_{c}" for c in MOVE_TABLES]
        + ["cperm_class", "cperm_half"]
        + list(SYM_LOOKUPS)
        + [f"prune_{n}" for n in PRUNE_SPECS]
        + [NEXT_STEM]
    )


def write_manifest(table_dir, out=None, complete: bool = True) -> pl.DataFrame:
    """One row per table from the verified table manifests; written to manifest.parquet (or `out`).

    complete: every table must be there (else only those present are listed).
    """
    d = Path(table_dir)
    rows = []
    for stem in table_stems():
        path = d / f"{stem}.json"
        if not path.exists():
            if not complete:
                continue
            raise PuzzleError(f"cube table manifest {path} is missing: build the tables first")
        rows.append(manifest.verify(path, _kind_of(stem), [f"{stem}.npy"]))
    df = pl.DataFrame(
        [
            {
                "table": r["table"],
                "kind": r["kind"],
                "shape": "x".join(map(str, r["shape"])),
                "dtype": r["dtype"],
                "entries": r["entries"],
                "bytes": r["bytes"],
                "reached": r.get("reached"),
                "max_depth": r.get("max_depth"),
                "distribution": r.get("distribution"),
                "build_seconds": r["build_seconds"],
                "note": r.get("note"),
            }
            for r in rows
        ],
        schema_overrides={"reached": pl.Int64, "max_depth": pl.Int64, "distribution": pl.String, "note": pl.String},
    )
    manifest.write_result_parquet(df, out or d / SUMMARY, SUMMARY_KIND, {}, {"tables": df.height})
    return df


def next_file(dir) -> Path:
    return Path(dir) / f"{NEXT_STEM}.npy"


def build_next_table(table_dir, out=None) -> np.ndarray:
    """The phase-1 move-mask table from the (verified) tp1_sym and symmetry look-ups in table_dir; saved to `out`.

    `out` defaults to table_dir/next_tp1.npy and must carry that file name.
    """
    from puzzlesearch.cube._kernels.phase_next import NEXT_DIST_SHIFT, build_next  # (numba on a build only)

    out = Path(out) if out else next_file(table_dir)
    if out.name != next_file(".").name:
        raise PuzzleError(f"--out {out}: the phase-1 move-mask table must be named {next_file('.').name}")
    tables = Tables(table_dir)
    exact = tables.prune(NEXT_FROM)
    args = (
        tables.sym("sym_fsrep"),
        tables.sym("sym_fsclass"),
        tables.sym("sym_twistconj"),
        tables.move("flip"),
        tables.move("eslice"),
        tables.move("twist"),
    )
    build_next(exact[:0], args[0][:0], *args[1:])  # compile/load the kernel first
    t0 = time.perf_counter()
    table, bad = build_next(exact, *args)
    seconds = time.perf_counter() - t0
    if bad >= 0:
        raise PuzzleError(f"prune_{NEXT_FROM}: entry {bad} and its neighbours are not BFS distances (rebuild it)")
    depths = distribution(exact)
    meta = {"from": f"prune_{NEXT_FROM}", "what": NEXT_WHAT, "max_depth": max(depths), "dist_shift": NEXT_DIST_SHIFT}
    _save(out.parent, NEXT_STEM, table, "next", seconds, meta)
    log("cube", f"move-mask table {NEXT_STEM}: {table.size:,} entries, {table.nbytes / 1e6:.0f} MB, {seconds:.2f}s")
    return table


def build_all(table_dir) -> None:
    """Every move and pruning table, the move-mask table, plus manifest.parquet (the store's build function)."""
    build_move_tables(table_dir)
    for name in PRUNE_SPECS:
        build_prune_table(name, table_dir)
    build_next_table(table_dir)
    write_manifest(table_dir)


def store_tables(mapped: bool = False) -> Tables:
    """The tables of the artifact store (built there on first use; never the pipeline's folder); mapped: see mapped_for."""
    code = code_sha256(kinds.CUBE_TABLES)
    return Tables(
        in_store("cube", "cube move and pruning tables", build_all, kind=kinds.CUBE_TABLES, code=code), mapped
    )


def table_dir_of(path) -> Path:
    """A table folder given as the folder itself or as a file in it (manifest.parquet, a .json)."""
    p = Path(path)
    return p.parent if p.suffix in (".parquet", ".json") else p


# ------------------------------------------------------------------ loading


def _kind_of(stem: str) -> str:
    """The manifest kind of a table file stem."""
    if stem.startswith("prune_"):
        return MANIFEST_KINDS["prune"]
    if stem == NEXT_STEM:
        return MANIFEST_KINDS["next"]
    return MANIFEST_KINDS["lookup" if stem.startswith(("cperm_", "sym_")) else "move"]


def _entry_bounds(stem: str, meta: dict, meta_path: Path) -> tuple[int, int]:
    """Allowed entry range of a table: -1..size-1 of the target coordinate, or -1..max depth."""
    if stem.startswith("move_"):
        return -1, COORD_SIZES[stem.removeprefix("move_")] - 1
    if stem == "cperm_class":
        return 0, K.N_CORNER_CLASS - 1
    if stem == "cperm_half":
        return -1, K.N_CORNER_HALF - 1
    if stem in SYM_LOOKUPS:
        return 0, SYM_LOOKUPS[stem][1]
    max_depth = meta.get("max_depth")
    if not isinstance(max_depth, int) or not 0 <= max_depth <= PRUNE_DEPTH_CAP:
        raise manifest.damaged(meta_path, f"max_depth {max_depth!r} is not a depth 0..{PRUNE_DEPTH_CAP}")
    if stem == NEXT_STEM:  # the distance in the top byte, any face nibbles below it
        from puzzlesearch.cube._kernels.phase_next import NEXT_DIST_SHIFT

        return 0, ((max_depth + 1) << NEXT_DIST_SHIFT) - 1
    return -1, max_depth


PRUNE_DEPTH_CAP = 20  # no phase of either solver is deeper (God's number bounds them all)
_EXPECTED_SHAPES = {
    **{f"move_{c}": (COORD_SIZES[c], K.N_MOVES) for c in MOVE_TABLES},
    "cperm_class": (K.N_CPERM,),
    "cperm_half": (K.N_CPERM,),
    **{stem: shape for stem, (shape, _) in SYM_LOOKUPS.items()},
    **{f"prune_{n}": (COORD_SIZES[s.a] * COORD_SIZES[s.b],) for n, s in PRUNE_SPECS.items()},
    NEXT_STEM: (N_FLIPSLICE_CLASS * K.N_TWIST,),
}
# Solving at most this many cubes, tables of at least MAPPED_AT_LEAST bytes (the ~800 MB of phase 1's
# next and pruning tables) are mapped from the page cache, not read into memory: a process's load
# takes ~1 CPU s instead of 1.7-5.3 s (most of it finding huge pages for the copy), and each search
# ~7-15% longer through 4 KB pages (benchmarks/RESULTS.md, "two-phase tables mapped for a few cubes").
MAPPED_UP_TO = 1_000
MAPPED_AT_LEAST = 1 << 20


def mapped_for(n_cubes: int) -> bool:
    """True if a run solving n_cubes cubes maps the large tables rather than reading them (MAPPED_UP_TO)."""
    return n_cubes <= MAPPED_UP_TO


_DTYPES = {"prune_": np.int8, NEXT_STEM: np.uint32}  # by stem prefix; other tables int32


class Tables:
    """A table folder: each table verified (checksum, shape, range) on first use, then cached.

    Never builds: a missing folder or table is a one-line error naming the build command.
    """

    def __init__(self, table_dir, mapped: bool = False):
        self.dir = table_dir_of(table_dir)
        if not self.dir.is_dir():
            raise PuzzleError(f"no cube table folder {self.dir}: build it with `{BUILD_HINT} {self.dir}`")
        self.mapped = mapped  # large tables mapped from the page cache (mapped_for)
        self._cache: dict[str, object] = {}

    def _load(self, stem: str) -> np.ndarray:
        if stem not in self._cache:
            self._cache[stem] = self._verified(stem)
        return self._cache[stem]

    def _verified(self, stem: str) -> np.ndarray:
        """One table: manifest checksum, shape/dtype, expected shape and entry range checked."""
        path = self.dir / f"{stem}.npy"
        meta_path = path.with_suffix(".json")
        if not meta_path.exists() and not path.exists():
            raise PuzzleError(f"cube table {path} is missing: build the tables with `{BUILD_HINT} {self.dir}`")
        meta = manifest.verify(meta_path, _kind_of(stem), [path.name])
        dtype = next((d for prefix, d in _DTYPES.items() if stem.startswith(prefix)), np.int32)
        with manifest.mapped_loads(MAPPED_AT_LEAST) if self.mapped else contextlib.nullcontext():
            arr = read_npy(path, meta, dtype, _EXPECTED_SHAPES[stem])
        lo, hi = _entry_bounds(stem, meta, meta_path)
        manifest.check_range(path, stem, arr, lo, hi)
        self._check_structure(stem, path, arr)
        return arr

    def _check_structure(self, stem: str, path: Path, arr: np.ndarray) -> None:
        """What the kernels assume beyond the range (tables/structure.py); other tables it needs are loaded."""
        if stem.startswith("move_"):
            structure.move_table(path, stem, arr, COORD_MOVES[stem.removeprefix("move_")])
        elif stem in ("cperm_class", "cperm_half"):
            self._check_corner_lookup(stem, path, arr)
        elif stem in ("sym_twistconj", "sym_udconj"):
            structure.conjugation(path, stem, arr)
        elif stem in ("sym_fsclass", "sym_cpclass"):
            part = stem.removeprefix("sym_").removesuffix("class")  # fs or cp
            structure.class_lookup(path, stem, arr, self._load(f"sym_{part}rep"), self._load(f"sym_{part}self"))
        elif stem.startswith("prune_"):
            self._check_prune(stem.removeprefix("prune_"), path, arr)
        elif stem == NEXT_STEM:
            how = SYM_TABLES[NEXT_FROM]
            mv = tuple(self.move(c) for c in how.coords)
            class_sym, reps, _self, t_conj = (self.sym(s) for s in how.lookups)
            structure.next_entries(path, stem, arr, mv, class_sym, reps, t_conj)

    def _check_corner_lookup(self, stem: str, path: Path, lookup: np.ndarray) -> None:
        """cperm_class / cperm_half: classes of 96 (the members of H numbered once), moved as move_cperm moves them."""
        coord = "c" + stem.removeprefix("cperm_")
        valid = lookup >= 0
        counts = np.bincount(lookup[valid], minlength=COORD_SIZES[coord])
        want = K.N_CORNER_HALF if coord == "cclass" else 1
        if (counts != want).any():
            raise manifest.damaged(path, f"array {stem!r} does not give every value to {want} corner permutations")
        cperm, moved = self.move("cperm"), self.move(coord)
        for m in COORD_MOVES[coord]:
            if (lookup[cperm[valid, m]] != moved[lookup[valid], m]).any():
                raise manifest.damaged(path, f"array {stem!r} disagrees with move_cperm and move_{coord}")

    def _check_prune(self, name: str, path: Path, dist: np.ndarray) -> None:
        """A BFS distance table: every entry of the pair tables, a seeded sample of the symmetry-reduced ones."""
        spec = PRUNE_SPECS[name]
        if spec.sym:
            how = SYM_TABLES[name]
            mv = tuple(self.move(c) for c in how.coords)
            class_sym, reps, _self, t_conj = (self.sym(s) for s in how.lookups)
            structure.sym_distances(path, f"prune_{name}", dist, mv, class_sym, reps, t_conj, spec.moves, how.cap)
            return
        goal = solved_index(spec, self.lookups)
        move_a, move_b = self.move(spec.a), self.move(spec.b)
        structure.pair_distances(path, f"prune_{name}", dist, move_a, move_b, COORD_SIZES[spec.b], spec.moves, goal)

    def move(self, coord: str) -> np.ndarray:
        """Move table of a coordinate (size x 18, int32)."""
        return self._load(f"move_{coord}")

    def prune(self, name: str) -> np.ndarray:
        """Pruning table (int8 distances)."""
        return self._load(f"prune_{name}")

    def derived(self, name: str, make):
        """What make(self) computes from this folder's verified tables (an array, a bundle), once per Tables."""
        key = f"derived:{name}"
        if key not in self._cache:
            self._cache[key] = make(self)
        return self._cache[key]

    def next(self) -> np.ndarray:
        """The phase-1 move-mask table next_tp1 (uint32)."""
        return self._load(NEXT_STEM)

    def sym(self, stem: str) -> np.ndarray:
        """A symmetry lookup (SYM_LOOKUPS, int32)."""
        return self._load(stem)

    @property
    def lookups(self) -> dict[str, np.ndarray]:
        """Corner permutation -> class (cperm_class) and -> index in H (cperm_half)."""
        return {k: self._load(k) for k in ("cperm_class", "cperm_half")}

    def coord(self, name: str, cube) -> int:
        """A coordinate of one CubieCube."""
        return coord_of(name, cube, self.lookups)
