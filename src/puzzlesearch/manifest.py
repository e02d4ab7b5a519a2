"""Artifact manifests: what was built, from what settings, and a checksum of every file.

A manifest is the JSON file written beside an artifact's data files (`dawg.json` beside
`dawg.npz`, `stats.json` beside `words.parquet` ...). Its `manifest` entry holds the
format, the kind, the settings that built it, and per file its size, sha256 and (for
numpy files) the shape and dtype of each array. Loaders call `verify` before reading
data: a missing, truncated, damaged or foreign file is an ArtifactError naming the file
and how to rebuild it, never a wrong answer or a crash further on.

Result tables (a search's seed table, a ranking, a scan summary) carry their manifest
entry inside the file: Parquet key-value metadata RESULT_KEY, or a JSON file's
`manifest` key. It holds the kind, the settings, what built it (`built`: seed, shape,
inputs' sha256 ...) and the sha256 of the data itself; `read_result_parquet` and
`read_result_json` check all of it, and that the file is the one the reader asked for.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import shlex
import struct
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from puzzlesearch import kinds
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import json_default, quiet_rust_panics, write_json, write_parquet

MANIFEST_FORMAT = 1
RESULT_KEY = "puzzlesearch"  # Parquet metadata key of a result table's manifest entry
# What a Parquet reader may raise on a damaged file: polars errors, and Rust panics
# (pyo3_runtime.PanicException derives from BaseException, not Exception).
NOT_PARQUET = (BaseException,)
STORE_MARKER = ".puzzlesearch-store"  # a file at the top of an artifact store folder


class ArtifactError(PuzzleError):
    """A built file that is missing, damaged or not what its manifest says."""


def file_sha256(path: str | Path) -> str:
    """Hex sha256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def rebuild_hint(path: str | Path) -> str:
    """How to rebuild the artifact that holds `path` (a store folder or a pipeline output)."""
    path = Path(path)
    for folder in path.resolve().parents:
        if (folder / STORE_MARKER).exists():
            artifact = path.resolve().relative_to(folder).parts[:2]
            return f"remove {folder.joinpath(*artifact)} and run the command again (it is rebuilt on first use)"
    return f"rebuild it: snakemake --cores all --force {shlex.quote(str(path))}"  # (a shell command: quoted)


def damaged(path: str | Path, why: str) -> ArtifactError:
    """The one-line error for a damaged artifact file (`why` kept on the error for callers with their own hint)."""
    error = ArtifactError(f"{path}: {why}; {rebuild_hint(path)}")
    error.why = why
    return error


def _arrays(path: Path) -> dict:
    """name -> {shape, dtype} of a .npy or .npz file."""
    if path.suffix == ".npy":
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
        return {path.stem: {"shape": list(arr.shape), "dtype": str(arr.dtype)}}
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as data:
            return {k: {"shape": list(data[k].shape), "dtype": str(data[k].dtype)} for k in data.files}
    return {}


def describe(path: str | Path) -> dict:
    """Size, sha256 and array shapes of one data file."""
    path = Path(path)
    entry = {"bytes": path.stat().st_size, "sha256": file_sha256(path)}
    arrays = _arrays(path)
    if arrays:
        entry["arrays"] = arrays
    return entry


def manifest_entry(files, kind: str, settings: dict | None = None) -> dict:
    """The `manifest` entry for data files (paths; stored by file name)."""
    return {
        "format": MANIFEST_FORMAT,
        "kind": kind,
        "settings": settings or {},
        "files": {Path(f).name: describe(f) for f in files},
    }


def manifest_checksum(data: dict) -> str:
    """sha256 of a manifest file's content (its meta and entry) without the checksum itself."""
    entry = {k: v for k, v in data["manifest"].items() if k != "manifest_sha256"}
    plain = json.loads(json.dumps({**data, "manifest": entry}, default=json_default))
    return hashlib.sha256(json.dumps(plain, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_manifest(path: str | Path, files, kind: str, settings: dict | None = None, meta: dict | None = None) -> dict:
    """Write `meta` plus a `manifest` entry for `files` to the JSON file `path` (atomically), checksummed itself."""
    data = {**(meta or {}), "manifest": manifest_entry(files, kind, settings)}
    data["manifest"]["manifest_sha256"] = manifest_checksum(data)
    write_json(data, path)
    return data


def read_manifest(path: str | Path, kind: str | None = None) -> dict:
    """A manifest JSON file, checked to be one (of `kind`, if given)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise damaged(path, "manifest is missing") from None
    except (OSError, ValueError, UnicodeDecodeError):
        raise damaged(path, "manifest is not valid JSON (truncated or damaged)") from None
    entry = data.get("manifest") if isinstance(data, dict) else None
    if (
        not isinstance(entry, dict)
        or entry.get("format") != MANIFEST_FORMAT
        or not isinstance(entry.get("files"), dict)
        or not isinstance(entry.get("settings"), dict)
        or not all(isinstance(f, dict) for f in entry["files"].values())
    ):
        raise damaged(path, "not a puzzlesearch manifest (built by another version?)")
    if kind is not None and entry.get("kind") != kind:
        raise damaged(path, f"manifest of a {entry.get('kind')!r} artifact, expected {kind!r}")
    if "manifest_sha256" not in entry:
        raise damaged(path, "manifest has no checksum (damaged, edited, or written by an older version)")
    if entry["manifest_sha256"] != manifest_checksum(data):
        raise damaged(path, "manifest checksum differs (damaged or edited)")
    return data


def verify(manifest_path: str | Path, kind: str | None = None, names=None) -> dict:
    """Check the files listed in a manifest (all, or `names`): present, same size, same sha256."""
    manifest_path = Path(manifest_path)
    data = read_manifest(manifest_path, kind)
    files = data["manifest"]["files"]
    for name in names if names is not None else sorted(files):
        path = manifest_path.parent / name
        want = files.get(name)
        if want is None:
            raise damaged(path, f"not listed in its manifest {manifest_path.name}")
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise damaged(path, "file is missing") from None
        if size != want.get("bytes"):
            raise damaged(path, f"size {size} bytes, its manifest says {want.get('bytes')} (truncated or changed)")
        if file_sha256(path) != want.get("sha256"):
            raise damaged(path, "checksum differs from its manifest (damaged or changed)")
    return data


def load_npz(path: str | Path, manifest: dict, mapped: bool = False) -> dict[str, np.ndarray]:
    """Arrays of a verified .npz, each checked against the manifest's shape and dtype.

    `mapped`: the arrays of an uncompressed .npz are private copy-on-write mappings of the file (as
    `mapped_loads`), not read into memory: nothing is copied, and a page is read when an array is used."""
    path = Path(path)
    try:
        if mapped:
            arrays = _mapped_npz(path)
        else:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, struct.error) as exc:
        raise damaged(path, f"cannot be read as .npz ({type(exc).__name__})") from None
    _check_arrays(path, arrays, manifest)
    return arrays


ZIP_LOCAL_HEADER = struct.Struct("<4s22xHH")  # a zip member's local header: signature, ..., name and extra lengths


def _mapped_npz(path: Path) -> dict[str, np.ndarray]:
    """The arrays of an uncompressed .npz (np.savez) mapped copy-on-write; ValueError for anything else."""
    arrays = {}
    size = path.stat().st_size
    with zipfile.ZipFile(path) as zf, open(path, "rb") as fh:
        for info in zf.infolist():
            if info.compress_type != zipfile.ZIP_STORED or not info.filename.endswith(".npy"):
                raise ValueError(f"{info.filename}: not an uncompressed .npy member")
            fh.seek(info.header_offset)
            magic, name_len, extra_len = ZIP_LOCAL_HEADER.unpack(fh.read(ZIP_LOCAL_HEADER.size))
            if magic != b"PK\x03\x04":
                raise ValueError(f"{info.filename}: no local header")
            start = info.header_offset + ZIP_LOCAL_HEADER.size + name_len + extra_len
            fh.seek(start)
            version = np.lib.format.read_magic(fh)
            if version not in ((1, 0), (2, 0)):  # (3.0: utf-8 field names, which np.savez writes for none of ours)
                raise ValueError(f"{info.filename}: .npy format {version}")
            read_header = (
                np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            )
            shape, fortran, dtype = read_header(fh, max_header_size=10000)
            offset = fh.tell()
            nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            if dtype.hasobject or offset + nbytes > min(start + info.file_size, size):
                raise ValueError(f"{info.filename}: data outside its member")
            order = "F" if fortran else "C"
            if nbytes == 0:
                arr = np.zeros(shape, dtype=dtype, order=order)
            else:  # writable (copy-on-write): a kernel sees the type a loaded array has
                arr = np.memmap(path, dtype=dtype, mode="c", offset=offset, shape=shape, order=order).view(np.ndarray)
                if offset % dtype.alignment:  # (a zip member starts anywhere): copied, so kernels read aligned data
                    arr = arr.copy(order="K")
            arrays[info.filename.removesuffix(".npy")] = arr
    return arrays


MAP_AT_LEAST = 1 << 30  # bytes: within mapped_loads(), a .npy this large is mapped, not read
_MAP_AT_LEAST: contextvars.ContextVar[int | None] = contextvars.ContextVar("map_at_least", default=None)


@contextmanager
def mapped_loads(at_least: int | None = None) -> Iterator[None]:
    """Within it, load_npy maps a .npy of at least `at_least` (MAP_AT_LEAST) bytes from the page cache instead of reading it.

    The array is a private copy-on-write mapping (writable, so its numba type is a loaded array's;
    nothing writes to it): no copy into anonymous memory, which for the optimal solver's 7.55 GB
    table took 12-45 s of system time, most of it finding huge pages. The checksum pass of
    `verify` has just read the file, so its pages are in the cache; searches read it through 4 KB
    pages and run slower (benchmarks/RESULTS.md, "mapping the large coset table").
    """
    token = _MAP_AT_LEAST.set(MAP_AT_LEAST if at_least is None else at_least)
    try:
        yield
    finally:
        _MAP_AT_LEAST.reset(token)


def load_npy(path: str | Path, manifest: dict) -> np.ndarray:
    """The array of a verified .npy, checked against the manifest's shape and dtype (mapped: see mapped_loads)."""
    path = Path(path)
    at_least = _MAP_AT_LEAST.get()
    try:
        if at_least is not None and path.stat().st_size >= at_least:
            arr = np.load(path, mmap_mode="c", allow_pickle=False).view(np.ndarray)
        else:
            arr = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise damaged(path, f"cannot be read as .npy ({type(exc).__name__})") from None
    _check_arrays(path, {path.stem: arr}, manifest)
    return arr


def reraise_interrupts(exc: BaseException) -> None:
    """Re-raise Ctrl-C and exits caught by a broad handler (a Rust panic is caught, these are not)."""
    if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError)):
        raise exc


def load_parquet(path: str | Path, columns=None):
    """A polars DataFrame from a verified Parquet file (read errors, Rust panics too, as ArtifactError)."""
    import polars as pl  # here, not at the top: the numpy-only artifacts (cube tables) never load polars

    try:
        with quiet_rust_panics():
            return pl.read_parquet(path, columns=columns)
    except NOT_PARQUET as exc:  # polars raises several error types, and panics, for damaged files
        reraise_interrupts(exc)
        raise damaged(path, f"cannot be read as Parquet ({type(exc).__name__})") from None


def data_sha256(data) -> str:
    """sha256 of a table's column names, types and values (a polars DataFrame) or of JSON-able data.

    Values go through Python's JSON (floats in their shortest repr), so the hash does not
    depend on the Parquet encoding or the polars version; the types are polars' names
    (a flipped byte can turn an Int8 column into an Int32 one with the same values).
    """
    if hasattr(data, "to_dict"):
        data = {
            "columns": data.columns,
            "dtypes": [str(dtype) for dtype in data.dtypes],
            "values": data.to_dict(as_series=False),
        }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str, allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()


def result_entry(kind: str, settings: dict, built: dict, data) -> dict:
    """A result file's manifest entry: kind, settings, what built it and its data's sha256."""
    entry = {"format": MANIFEST_FORMAT, "kind": kind, "settings": settings, "built": built}
    return json.loads(json.dumps({**entry, "data_sha256": data_sha256(data)}, default=str))


def entry_sha256(entry: dict) -> str:
    """sha256 of a result's whole manifest entry (kind, settings, what built it, its data's sha256): the identity
    a later stage records for an input, so that a reader can tell this run's input from another run's."""
    return hashlib.sha256(json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_result_parquet(df, path: str | Path, kind: str, settings: dict, built: dict) -> None:
    """A result table written atomically with its manifest entry in the Parquet metadata."""
    entry = result_entry(kind, settings, built, df)
    write_parquet(df, path, metadata={RESULT_KEY: json.dumps(entry, sort_keys=True)})


def _check_entry(path: Path, entry, kind: str, expect: dict) -> dict:
    """The entry of a result file, checked: ours, of `kind`, and with the `expect`ed settings/built values."""
    if not isinstance(entry, dict) or entry.get("format") != MANIFEST_FORMAT or "data_sha256" not in entry:
        raise damaged(path, "no puzzlesearch manifest entry (written by another version, or damaged)")
    if kind is not None and entry.get("kind") != kind:
        raise damaged(path, f"a {entry.get('kind')!r} result, expected {kind!r}")
    _check_settings(path, {**entry.get("settings", {}), **entry.get("built", {})}, expect)
    return entry


def has_result_entry(path: str | Path) -> bool:
    """True when a Parquet file carries a result manifest entry (False for other or unreadable files)."""
    import polars as pl  # as in load_parquet

    try:
        with quiet_rust_panics():
            return RESULT_KEY in pl.read_parquet_metadata(path)
    except NOT_PARQUET as exc:
        reraise_interrupts(exc)
        return False


def read_result_parquet(path: str | Path, kind: str | None, expect: dict | None = None, columns=None):
    """(DataFrame, manifest entry) of a result table (of `kind`; None: any), its entry and data checksum checked first."""
    import polars as pl  # as in load_parquet

    path = Path(path)
    if not path.is_file():
        raise PuzzleError(f"{path}: no such file")
    try:
        with quiet_rust_panics():
            text = pl.read_parquet_metadata(path).get(RESULT_KEY)
        entry = json.loads(text) if text else None
    except NOT_PARQUET as exc:
        reraise_interrupts(exc)
        raise damaged(path, f"cannot be read as Parquet ({type(exc).__name__})") from None
    entry = _check_entry(path, entry, kind, expect or {})
    df = load_parquet(path)
    if data_sha256(df) != entry["data_sha256"]:
        raise damaged(path, "data checksum differs from its manifest entry (damaged or changed)")
    return (df.select(columns) if columns else df), entry


def write_result_json(data: dict, path: str | Path, kind: str, settings: dict, built: dict) -> None:
    """A JSON result written atomically with its manifest entry under the key `manifest`."""
    write_json({**data, "manifest": result_entry(kind, settings, built, data)}, path)


def read_result_json(path: str | Path, kind: str | None, expect: dict | None = None) -> dict:
    """A JSON result (without its `manifest` key), its entry and data checksum checked."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PuzzleError(f"{path}: no such file") from None
    except (OSError, ValueError, UnicodeDecodeError):
        raise damaged(path, "not valid JSON (truncated or damaged)") from None
    if not isinstance(data, dict):
        raise damaged(path, "not a puzzlesearch result (a JSON object)")
    entry = _check_entry(path, data.pop("manifest", None), kind, expect or {})
    if data_sha256(json.loads(json.dumps(data))) != entry["data_sha256"]:
        raise damaged(path, "data checksum differs from its manifest entry (damaged or changed)")
    return data


def _check_arrays(path: Path, arrays: dict, manifest: dict) -> None:
    want = manifest["manifest"]["files"].get(path.name, {}).get("arrays", {})
    got = {k: {"shape": list(a.shape), "dtype": str(a.dtype)} for k, a in arrays.items()}
    if want and got != want:
        name = next((k for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)), "?")
        raise damaged(path, f"array {name!r} is {got.get(name)}, its manifest says {want.get(name)}")


def check_range(path: str | Path, name: str, arr: np.ndarray, lo: int, hi: int) -> None:
    """ArtifactError unless every entry of `arr` is in [lo, hi] (before a kernel indexes with it)."""
    if arr.size and (int(arr.min()) < lo or int(arr.max()) > hi):
        raise damaged(path, f"array {name!r} has entries outside {lo}..{hi}")


# ---------------------------------------------------------------- the one checked reader


def _check_settings(path: Path, recorded: dict, expect: dict, section: str = "") -> None:
    """ArtifactError unless each `expect`ed key was recorded with that value (settings or what built it); the
    message names a setting as `section` + key (bee.min_length) when a config section is given."""
    for key, want in expect.items():
        want = json.loads(json.dumps(want, default=str))
        if recorded.get(key) != want:
            name = f"{section}.{key}" if section else key
            raise damaged(path, f"built with {name} = {recorded.get(key)!r}, expected {want!r} (another job's file?)")


def read_verified(path: str | Path, kind: str, expect: dict | None = None, columns=None, section: str = ""):
    """(data, manifest) of an artifact file of `kind`, checked before anything is read: where the kind's manifest
    lives (kinds.py), that it is of this kind, its checksums, and the `expect`ed settings or build values.

    data: a polars DataFrame (.parquet), a dict (.json, its `manifest` key removed) or arrays (.npz/.npy);
    manifest: the result entry (INSIDE) or the manifest file's content (beside). Never reads unchecked.
    section: the config section of the expected settings, for the message (bee.min_length = 4, expected 5)."""
    path = Path(path)
    declared = kinds.kind(kind)
    if not path.is_file():
        raise PuzzleError(f"{path}: no such file")
    beside = declared.manifest_path(path)
    if beside is None:  # the entry inside the file
        if path.suffix == ".json":
            data = read_result_json(path, kind, expect)
            return data, json.loads(path.read_text(encoding="utf-8"))["manifest"]
        return read_result_parquet(path, kind, expect, columns)
    meta = verify(beside, kind, [path.name])
    _check_settings(path, {**meta, **meta["manifest"]["settings"]}, expect or {}, section)
    if path.suffix == ".parquet":
        return load_parquet(path, columns), meta
    if path.suffix == ".npz":
        return load_npz(path, meta), meta
    if path.suffix == ".npy":
        return load_npy(path, meta), meta
    try:
        return json.loads(path.read_text(encoding="utf-8")), meta
    except (OSError, ValueError, UnicodeDecodeError):
        raise damaged(path, "not valid JSON (truncated or damaged)") from None
