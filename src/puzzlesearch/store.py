"""The artifact store of interactive commands: build on first use, keyed by content.

A command such as `boggle score --lexicon words.txt` needs a lexicon's word table and
DAWG. They are built once into the store, in a folder named by a key: the sha256 of the
source's bytes, the options that shape the artifact and the code that builds it (never
the file name). A build runs in a temporary folder under a file lock and is renamed into
place whole, so two commands building the same key wait for each other and two sources
never share a folder. The store never writes the pipeline's files (results/lexicon/...).

Each folder records what built it (KEY_FILE: the key and the parts it hashes, e.g. the
source's sha256 and the options). A folder is used only when that record matches what
the caller hashed; a symlink, a folder without its record (when the caller gives parts)
or with another's is set aside and rebuilt. Leftovers of a killed build
(`.tmp-<key>-<pid>` whose process is gone) are removed by the next build.

Where: $PUZZLESEARCH_STORE if set, else `results/store/` of the project the command runs
in, else the user cache folder (platformdirs), e.g. ~/.cache/puzzlesearch.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
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
KEY_FILE = "store-key.json"  # in each store folder: the key and the parts it was hashed from
TMP_FOLDER = re.compile(r"^\.(?:tmp|stale)-[0-9a-f]+-(\d+)$")  # a build's temporary folder, by its pid


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


def _record(key: str, parts: dict | None) -> dict:
    """What a folder's KEY_FILE holds: its key and the parts hashed into it (as JSON sees them)."""
    return json.loads(json.dumps({"key": key, "parts": parts}, sort_keys=True, default=str))


def _proven(folder: Path, key: str, parts: dict | None) -> bool:
    """True when `folder` is a real folder whose KEY_FILE names this key and parts.

    A folder without KEY_FILE (built before the store kept one) counts only when the
    caller gives no parts.
    """
    if folder.is_symlink() or not folder.is_dir():
        return False
    try:
        recorded = json.loads((folder / KEY_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return parts is None
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return recorded == _record(key, parts)


def _pid_alive(pid: int) -> bool:
    """True if a process with this id runs (or is not ours to signal)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove(path: Path) -> None:
    """Remove a folder, or only the link when it is a symlink."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path, ignore_errors=True)


def clean_leftovers(base: Path) -> None:
    """Remove temporary build folders of processes that no longer run (a build killed with kill -9)."""
    for path in base.iterdir() if base.is_dir() else ():
        match = TMP_FOLDER.match(path.name)
        if match and int(match.group(1)) != os.getpid() and not _pid_alive(int(match.group(1))):
            log("store", f"removing {path} (left by a killed build)")
            _remove(path)


def ensure(kind: str, key: str, build: Callable[[Path], None], what: str = "", parts: dict | None = None) -> Path:
    """The store folder kind/key, built by `build(tmp_folder)` under a lock if it is not there.

    `parts` are what the caller hashed into `key` (content_key(**parts)); the folder must
    record the same, else it is set aside and rebuilt.
    """
    base = store_root() / kind
    final = base / key
    if _proven(final, key, parts):
        return final
    with locked(base / f".{key}.lock"):
        if _proven(final, key, parts):  # built by another process while we waited
            return final
        clean_leftovers(base)
        if final.exists() or final.is_symlink():
            stale = base / f".stale-{key}-{os.getpid()}"
            log("store", f"{final} does not record that it was built from this source and options; rebuilding")
            _remove(stale)
            os.rename(final, stale)
            _remove(stale)
        tmp = base / f".tmp-{key}-{os.getpid()}"
        _remove(tmp)
        tmp.mkdir(parents=True)
        log("store", f"building {what or kind} into {final}")
        try:
            build(tmp)
            (tmp / KEY_FILE).write_text(json.dumps(_record(key, parts), indent=2, sort_keys=True) + "\n")
            os.rename(tmp, final)
        finally:
            _remove(tmp)
    return final
