"""Reading raw word-list entries from a file or from an embedded list."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from puzzlesearch.errors import PuzzleError

BUILTIN_PREFIX = "builtin:"
# Embedded lists: the word-frequency files that pyspellchecker ships.
BUILTIN_LANGUAGES = ("en", "ar")
BUILTIN_ENGLISH = "builtin:en"  # the embedded English list (the one the constructors' list merges into)
_SNIFF_BYTES = 8192
BUILTIN_SUFFIX = ".json.gz"  # the embedded lists' format: a gzipped JSON {word: frequency}


@dataclass(frozen=True)
class Entry:
    """One raw entry: the text, its frequency if the source has one, its line number."""

    text: str
    frequency: int | None
    line: int


def is_builtin(source: str) -> bool:
    """True for 'builtin:<lang>' sources."""
    return source.startswith(BUILTIN_PREFIX)


def source_file(source: str) -> Path:
    """The file behind a source (for builtins, the packaged resource file)."""
    if is_builtin(source):
        lang = source[len(BUILTIN_PREFIX) :]
        if lang not in BUILTIN_LANGUAGES:
            raise PuzzleError(
                f"unknown embedded word list {source!r} (have: "
                + ", ".join(BUILTIN_PREFIX + x for x in BUILTIN_LANGUAGES)
                + ")"
            )
        res = resources.files("spellchecker") / "resources" / f"{lang}.json.gz"
        return Path(str(res))
    return Path(source)


def read_entries(source: str) -> Iterator[Entry]:
    """Yield the entries of a source; a missing, empty or binary file is a PuzzleError."""
    path = source_file(source)
    if is_builtin(source) or path.name.endswith(BUILTIN_SUFFIX):
        yield from _read_builtin(path)
        return
    if not path.exists():
        raise PuzzleError(f"word list {path}: no such file")
    if path.is_dir():
        raise PuzzleError(f"word list {path}: is a folder, not a file")
    data = path.read_bytes()
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise PuzzleError(f"word list {path}: binary file (NUL bytes), expected one word a line")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PuzzleError(f"word list {path}: line {line} is not UTF-8 text (binary file?)") from None
    count = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        freq = None
        if len(parts) >= 2 and parts[-1].isascii() and parts[-1].isdecimal():
            freq = int(parts[-1])
            parts = parts[:-1]
        count += 1
        yield Entry(" ".join(parts), freq, number)
    if count == 0:
        raise PuzzleError(f"word list {path}: empty (no words, only blank or comment lines)")


def _read_builtin(path: Path) -> Iterator[Entry]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            table = json.load(fh)
    except (OSError, EOFError, ValueError):
        raise PuzzleError(f"word list {path}: not a gzipped JSON word-frequency table") from None
    if not isinstance(table, dict):
        raise PuzzleError(f"word list {path}: not a gzipped JSON word-frequency table")
    for number, (word, freq) in enumerate(table.items(), start=1):
        yield Entry(word, int(freq), number)
