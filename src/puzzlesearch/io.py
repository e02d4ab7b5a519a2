"""Atomic artifact writing (a file in results/ is either complete or absent), and stderr held back around reads.

Output folders a command makes its own (the Bee pages, an interactive proof's folder) carry
a marker, OUTPUT_MARKER, naming the command that wrote them (and, for a folder replaced as a
whole, the files it wrote). A command writes into a folder only when it is new, empty or
marked by the same command (`prepare_output_dir`), so it never deletes or overwrites files it
did not write: a user's folder, or another stage's inputs, is refused with one line.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from puzzlesearch.errors import PuzzleError


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it onto `path` only on success."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:  # a read-only or missing folder: name the file asked for, not a temporary one
        raise PuzzleError(f"{path}: cannot write ({exc.strerror or exc})") from None
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        try:
            yield tmp_path
            os.chmod(tmp_path, 0o666 & ~_umask())  # mkstemp makes 0600; use the usual mode
            os.replace(tmp_path, path)
        except OSError as exc:  # a full disk or a file size limit: name the file asked for (a write error names none)
            raise PuzzleError(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_parquet(df, path, metadata: dict[str, str] | None = None) -> None:
    """Write a polars DataFrame to Parquet atomically (with key-value `metadata`); a failed write names `path`."""
    with atomic_path(path) as tmp:
        try:
            df.write_parquet(tmp, metadata=metadata)
        except Exception as exc:  # polars raises ComputeError (not OSError) for e.g. a full disk
            if "polars" not in type(exc).__module__ and not isinstance(exc, OSError):
                raise
            reason = getattr(exc, "strerror", None) or str(exc).strip().splitlines()[0]
            raise PuzzleError(f"{path}: cannot write ({reason})") from None


def write_json(obj, path) -> None:
    """Write JSON atomically (sorted keys, indented, trailing newline)."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True, default=json_default) + "\n")


def write_text(text: str, path) -> None:
    """Write a text file atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_npz(path, **arrays) -> None:
    """Write numpy arrays to an uncompressed .npz atomically."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)


def write_npy(path, array) -> None:
    """Write one numpy array to .npy atomically."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            np.save(fh, array)


def json_default(obj):
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


# ---------------------------------------------------------------- output folders a command owns

OUTPUT_MARKER = ".puzzlesearch-output.json"  # in an output folder: the command that wrote it (and its files)


def read_marker(folder: str | os.PathLike) -> dict | None:
    """The marker of an output folder ({"writer": ..., "files": [...]}), or None when it has none."""
    try:
        data = json.loads((Path(folder) / OUTPUT_MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("writer"), str) else None


def prepare_output_dir(folder: str | os.PathLike, writer: str, replaced: bool = False) -> Path:
    """`folder` checked to be `writer`'s to write: absent, empty, or marked by `writer` (else a one-line PuzzleError).

    `replaced`: the writer replaces the folder as a whole, so it must also hold nothing but
    the files the marker lists (a file added by hand would be deleted with the folder).
    """
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise PuzzleError(f"{folder}: not a folder; give a new or empty folder for the output of `{writer}`")
    entries = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    if not entries:
        return folder
    marker = read_marker(folder)
    if marker is None or marker["writer"] != writer:
        whose = f"written by `{marker['writer']}`" if marker else f"holds {entries[0]!r} and no {OUTPUT_MARKER}"
        raise PuzzleError(
            f"{folder}: not an output folder of `{writer}` ({whose}); give a new or empty folder, nothing was written"
        )
    if replaced:
        foreign = [name for name in entries if name != OUTPUT_MARKER and name not in set(marker.get("files") or ())]
        if foreign:
            raise PuzzleError(
                f"{folder}: holds {foreign[0]!r}, which `{writer}` did not write (it replaces the folder); "
                "move it away or give another folder, nothing was written"
            )
    return folder


def mark_output_dir(folder: str | os.PathLike, writer: str, files=None) -> Path:
    """Create `folder` if needed and write its marker (naming `writer`, and `files` when given)."""
    folder = Path(folder)
    marker = {"writer": writer} if files is None else {"writer": writer, "files": sorted(files)}
    write_json(marker, folder / OUTPUT_MARKER)
    return folder


def replace_output_dir(folder: str | os.PathLike, writer: str, files: dict[str, str]) -> None:
    """Replace `folder` (checked by prepare_output_dir) by the text files `files` and a marker, all at once."""
    folder = prepare_output_dir(folder, writer, replaced=True)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    except OSError as exc:
        raise PuzzleError(f"{folder}: cannot write ({exc.strerror or exc})") from None
    stale = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    try:
        try:
            for name, text in files.items():
                (tmp / name).write_text(text, encoding="utf-8")
            (tmp / OUTPUT_MARKER).write_text(json.dumps({"writer": writer, "files": sorted(files)}, indent=2) + "\n")
            os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes 0700
            if folder.exists():
                os.rename(folder, stale)  # our own earlier output (checked above), removed once the new one is in
            try:
                os.rename(tmp, folder)
            except OSError:
                if stale.exists():
                    os.rename(stale, folder)  # the earlier output back in place
                raise
        except OSError as exc:
            raise PuzzleError(f"{folder}: cannot write ({exc.strerror or exc})") from None
    finally:
        for leftover in (tmp, stale):
            if leftover.exists():
                shutil.rmtree(leftover)


# ---------------------------------------------------------------- stderr

_STDERR_HELD = threading.Lock()  # fd 2 is the process's: one holder at a time


@contextlib.contextmanager
def quiet_rust_panics() -> Iterator[None]:
    """Around a polars read: what its Rust threads print to stderr (the panic lines of a damaged file,
    which the caller reports as one line) is held back, and written out only if the read succeeds.
    A read while another thread holds stderr back (or with no stderr) runs as is."""
    if not _STDERR_HELD.acquire(blocking=False):
        yield
        return
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        _STDERR_HELD.release()
        yield
        return
    try:
        with tempfile.TemporaryFile() as held:
            os.dup2(held.fileno(), 2)
            ok = False
            try:
                yield
                ok = True
            finally:
                os.dup2(saved, 2)
                if ok and held.tell():
                    held.seek(0)
                    os.write(2, held.read())
    finally:
        os.close(saved)
        _STDERR_HELD.release()
