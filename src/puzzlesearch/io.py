"""Atomic artifact writing (a file in results/ is either complete or absent), and stderr held back around reads."""

from __future__ import annotations

import contextlib
import json
import os
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
        yield tmp_path
        os.chmod(tmp_path, 0o666 & ~_umask())  # mkstemp makes 0600; use the usual mode
        os.replace(tmp_path, path)
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
