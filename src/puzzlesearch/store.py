"""The artifact store of interactive commands: build on first use, keyed by content.

A command such as `boggle score --lexicon words.txt` needs a lexicon's word table and
DAWG. They are built once into the store, in a folder named by a key: the sha256 of the
source's bytes, the options that shape the artifact and the code that builds it (never
the file name). A build runs in a temporary folder under a file lock and is renamed into
place whole, so two commands building the same key wait for each other and two sources
never share a folder. The store never writes the pipeline's files (results/lexicon/...).

Where: $PUZZLESEARCH_STORE if set, else `results/store/` of the project the command runs
in, else the user cache folder (platformdirs), e.g. ~/.cache/puzzlesearch.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import platformdirs

from puzzlesearch.config import project_root
from puzzlesearch.manifest import STORE_MARKER
from puzzlesearch.progress import log

STORE_ENV = "PUZZLESEARCH_STORE"
PROJECT_STORE = Path("results") / "store"
PROJECT_CLI_OUT = Path("results") / "cli"


def store_root() -> Path:
    """The store folder (created, with its marker file)."""
    if os.environ.get(STORE_ENV):
        root = Path(os.environ[STORE_ENV])
    elif (project := project_root()) is not None:
        root = project / PROJECT_STORE
    else:
        root = Path(platformdirs.user_cache_dir("puzzlesearch"))
    root.mkdir(parents=True, exist_ok=True)
    marker = root / STORE_MARKER
    if not marker.exists():
        marker.write_text("puzzlesearch artifact store: folders named by content keys; safe to delete\n")
    return root


def cli_output_root() -> Path:
    """Where interactive commands write files by default: results/cli/ of the project, else the user data folder."""
    if (project := project_root()) is not None:
        return project / PROJECT_CLI_OUT
    return Path(platformdirs.user_data_dir("puzzlesearch"))


def content_key(**parts) -> str:
    """A short hex key of JSON-able parts (source hashes, options, code hashes)."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def code_sha256(*modules) -> str:
    """sha256 of the source of the given modules (an artifact is stale when they change)."""
    h = hashlib.sha256()
    for module in modules:
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (a lock file) for the duration of the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def ensure(kind: str, key: str, build: Callable[[Path], None], what: str = "") -> Path:
    """The store folder kind/key, built by `build(tmp_folder)` under a lock if it is not there."""
    base = store_root() / kind
    final = base / key
    if final.is_dir():
        return final
    with locked(base / f".{key}.lock"):
        if final.is_dir():  # built by another process while we waited
            return final
        tmp = base / f".tmp-{key}-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        log("store", f"building {what or kind} into {final}")
        try:
            build(tmp)
            os.rename(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return final
