"""One base for every cube table: file paths, the checksummed manifest, the verified load, the store.

A table kind (`TableKind`: the optimal solver's big, bound, corner and coset tables) names its
files `<stem>.npy` (plus `<stem>_classes.npz` ...) and `<stem>.json`, the manifest: the
sha256, size and array shapes of every file (puzzlesearch.manifest), the variant as its
settings, and the table's metadata (depth distribution, build seconds). Loading verifies the
checksums, then each array's dtype and shape, before a kernel indexes it; a missing table is a
one-line error naming the command that builds it. In the artifact store a table's folder is
keyed by its kind, its variant and the sha256 of the source files that shape it (`code`), so
a table is rebuilt exactly when that code changes. The two-phase and Thistlethwaite tables
(tables/phases.py, one file per table) are written and read by the same functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlesearch import kinds, manifest, store
from puzzlesearch.cube._kernels.bfs_bundles import SymClassArrays
from puzzlesearch.cube.model.symmetry import N_SYM_UD, SYM_SHIFT
from puzzlesearch.cube.tables import structure
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_npy, write_npz


def write_file(path, data) -> Path:
    """Write one table file: an array (.npy), or name -> array (.npz)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".npz":
        write_npz(path, **data)
    else:
        write_npy(path, data)
    return path


def write_table(folder, stem: str, files: dict[str, object], kind: str, settings: dict, meta: dict) -> dict:
    """Write a table's files (suffix -> data, see write_file) and its manifest <stem>.json; returns it."""
    paths = [write_file(Path(folder) / f"{stem}{suffix}", data) for suffix, data in files.items()]
    return manifest.write_manifest(Path(folder) / f"{stem}.json", paths, kind, settings, meta)


def expect_array(path, arr: np.ndarray, dtype, shape: tuple) -> np.ndarray:
    """`arr` if it has this dtype and shape, else the one-line ArtifactError naming `path`."""
    if arr.shape != tuple(shape) or arr.dtype != dtype:
        raise manifest.damaged(path, f"is {arr.dtype} {arr.shape}, expected {np.dtype(dtype)} {tuple(shape)}")
    return arr


def read_npy(path, meta: dict, dtype, shape: tuple) -> np.ndarray:
    """A verified table file's array, checked against its manifest and the expected dtype and shape."""
    return expect_array(path, manifest.load_npy(path, meta), dtype, shape)


def load_classes(path: Path, meta: dict, n_classes: int, n_values: int) -> SymClassArrays:
    """A verified classes file (big and coset tables): shapes and index ranges checked."""
    arrays = manifest.load_npz(path, meta)
    want = {"rep": (n_classes,), "classidx": (n_values,), "symidx": (n_values,), "stab": (n_classes,)}
    for name, shape in want.items():
        if name not in arrays or arrays[name].shape != shape:
            raise manifest.damaged(path, f"array {name!r} is missing or not of shape {shape}")
    manifest.check_range(path, "classidx", arrays["classidx"], 0, n_classes - 1)
    manifest.check_range(path, "symidx", arrays["symidx"], 0, N_SYM_UD - 1)
    manifest.check_range(path, "rep", arrays["rep"], 0, n_values - 1)
    structure.sym_classes(path, arrays["rep"], arrays["classidx"], arrays["symidx"], arrays["stab"])
    return SymClassArrays(*(arrays[name] for name in SymClassArrays._fields))


def class_sym_of(classes: SymClassArrays) -> np.ndarray:
    """class << 4 | symmetry per value (one memory access per look-up instead of two)."""
    return (classes.classidx.astype(np.uint32) << SYM_SHIFT) | classes.symidx


def code_sha256(kind: str) -> str:
    """sha256 of the source files that shape a table kind (declared in puzzlesearch/kinds.py)."""
    return kinds.code_sha256(kind)


def in_store(folder: str, what: str, build: Callable[[Path], object], **key_parts) -> Path:
    """The store folder of one table, built there by build(tmp_folder) on first use (key: key_parts)."""
    return store.ensure(folder, store.content_key(**key_parts), build, what)


@dataclass(frozen=True)
class TableKind:
    """A table kind: its file stem, manifest kind, variants, build command and the code that shapes it."""

    stem: str  # file stem, "{variant}" filled in: "optimal_{variant}"
    kind: str  # manifest kind (also the store key's)
    what: str  # its name in messages: "optimal table"
    command: str  # the command that builds one variant, "{variant}" and "{dir}" filled in
    variants: tuple[str, ...]
    store_folder: str = ""  # its folder in the artifact store ("": not kept there)

    def check_variant(self, variant: str) -> None:
        """PuzzleError unless `variant` is one of this kind's."""
        if variant not in self.variants:
            raise PuzzleError(f"unknown {self.what} variant {variant!r}: one of {', '.join(self.variants)}")

    def path(self, folder, variant: str, suffix: str = ".npy") -> Path:
        """A file of one variant (suffix: ".npy", ".json", "_classes.npz" ...)."""
        return Path(folder) / f"{self.stem.format(variant=variant)}{suffix}"

    def manifest_path(self, folder, variant: str) -> Path:
        return self.path(folder, variant, ".json")

    def present(self, folder, variant: str) -> bool:
        """True if the folder holds (the manifest or the table file of) this variant."""
        return self.manifest_path(folder, variant).exists() or self.path(folder, variant).exists()

    def write_file(self, folder, variant: str, suffix: str, data) -> Path:
        """Write one file of a variant (see write_file)."""
        return write_file(self.path(folder, variant, suffix), data)

    def write_manifest(self, folder, variant: str, suffixes, meta: dict) -> dict:
        """Write a variant's manifest over its files (written before); returns it."""
        files = [self.path(folder, variant, suffix) for suffix in suffixes]
        return manifest.write_manifest(
            self.manifest_path(folder, variant), files, self.kind, {"variant": variant}, meta
        )

    def write(self, folder, variant: str, files: dict[str, object], meta: dict) -> dict:
        """Write one variant's files (suffix -> data) and its manifest; returns the manifest."""
        return write_table(folder, self.stem.format(variant=variant), files, self.kind, {"variant": variant}, meta)

    def verify(self, folder, variant: str) -> dict:
        """The checked manifest of one variant (files present, sizes and sha256 as listed); never builds."""
        if not self.present(folder, variant):
            command = self.command.format(variant=variant, dir=folder)
            raise PuzzleError(
                f"{self.what} {self.path(folder, variant)} is missing: build it with `puzzlesearch cube {command}`"
            )
        return manifest.verify(self.manifest_path(folder, variant), self.kind)

    def in_store(self, variant: str, build: Callable[[str, Path], object], /, **key_parts) -> Path:
        """The store folder of one variant, built there by build(variant, tmp_folder) on first use."""
        code = code_sha256(self.kind)
        what = f"{self.what} {variant}"
        return in_store(
            self.store_folder, what, lambda tmp: build(variant, tmp), kind=self.kind, code=code, **key_parts
        )
