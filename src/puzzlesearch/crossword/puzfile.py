"""Across Lite .puz files (the `puzpy` package, import name `puz`) made from our .ipuz documents.

.puz (version 1.3) stores one ISO-8859-1 (Latin-1) byte per grid cell and Latin-1 text:
- English: letters A-Z, clues made Latin-1 (typographic quotes and dashes to ASCII,
  accents kept when Latin-1 has them, anything else '?').
- numeric: the digits are stored as they are (Across Lite takes digits in the solution).
- Arabic (or any right-to-left .ipuz): no .puz. One byte per cell cannot hold an Arabic
  letter and the format has no right-to-left reading; `puz_problem` says why, the
  generator logs it and writes the .ipuz and the page only.
White cells in no entry (no clue leads to them) are pre-filled in the .puz's fill.
An entry without a clue gets its enumeration, e.g. "(5)", as clue text.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import puz

from puzzlesearch import kinds
from puzzlesearch.crossword.model import DIRECTION_KEY
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import atomic_path
from puzzlesearch.manifest import verify

PUZ_VERSION = "1.3"
PUZ_BLACK, PUZ_EMPTY = ".", "-"
LATIN1 = "latin-1"
_ASCII_PUNCTUATION = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "--", "\u2026": "..."}
)


class PuzUnsupported(PuzzleError):
    """The puzzle cannot be written as .puz (letters outside Latin-1, right-to-left)."""


def latin1_text(text: str) -> str:
    """Text that Latin-1 can hold: ASCII quotes/dashes, Latin-1 letters kept, accents dropped, else '?'."""
    out = []
    for ch in str(text).translate(_ASCII_PUNCTUATION):
        if ord(ch) < 256:
            out.append(ch)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 256 and not unicodedata.combining(c))
        out.append(base or "?")
    return "".join(out)


def puz_problem(doc: dict) -> str | None:
    """Why an ipuz document cannot be a .puz, or None when it can."""
    if doc.get(DIRECTION_KEY) == "rtl":
        return ".puz has no right-to-left reading (use the .ipuz or the .html page)"
    for row in doc["solution"]:
        for cell in row:
            if cell == doc.get("block", "#"):
                continue
            text = str(cell)
            if len(text) != 1 or ord(text) > 255:
                return f".puz holds one Latin-1 character per cell, not {text!r} (use the .ipuz or the .html page)"
    return None


def _in_entry(solution: list[list[str]], block: str, r: int, c: int) -> bool:
    """True when cell (r, c) is in an across or down run of 2+ white cells."""
    h, w = len(solution), len(solution[0])

    def white(rr: int, cc: int) -> bool:
        return 0 <= rr < h and 0 <= cc < w and solution[rr][cc] != block

    return white(r, c - 1) or white(r, c + 1) or white(r - 1, c) or white(r + 1, c)


def _clues(doc: dict) -> list[tuple[int, int, str]]:
    """(number, 0 across / 1 down, text) of every clue in .puz order: by number, across first."""
    keyed = []
    for order, name in enumerate(("Across", "Down")):
        for item in doc["clues"].get(name, []):
            text = item.get("clue") or f"({item.get('enumeration') or len(item.get('answer', ''))})"
            keyed.append((int(item["number"]), order, latin1_text(text)))
    return sorted(keyed)


def to_puz(doc: dict):
    """A puz.Puzzle of an ipuz crossword dict (PuzUnsupported when .puz cannot hold it)."""
    problem = puz_problem(doc)
    if problem:
        raise PuzUnsupported(problem)
    block = doc.get("block", "#")
    solution = doc["solution"]
    p = puz.Puzzle(version=PUZ_VERSION)
    p.width, p.height = doc["dimensions"]["width"], doc["dimensions"]["height"]
    cells = [
        (PUZ_BLACK if cell == block else str(cell).upper(), r, c)
        for r, row in enumerate(solution)
        for c, cell in enumerate(row)
    ]
    p.solution = "".join(ch for ch, _, _ in cells)
    p.fill = "".join(ch if ch == PUZ_BLACK or not _in_entry(solution, block, r, c) else PUZ_EMPTY for ch, r, c in cells)
    p.title = latin1_text(doc.get("title", ""))
    p.author = latin1_text(doc.get("author", ""))
    p.copyright = latin1_text(doc.get("copyright", ""))
    p.notes = latin1_text(doc.get("notes", ""))
    clues = _clues(doc)
    p.clues = [text for _, _, text in clues]
    numbering = p.clue_numbering()
    grid_entries = sorted([(e["num"], 0) for e in numbering.across] + [(e["num"], 1) for e in numbering.down])
    if grid_entries != [(number, order) for number, order, _ in clues]:
        raise PuzzleError(".puz: the .ipuz clue numbers are not the grid's entries (numbered left to right)")
    return p


def write_puz(doc: dict, path: str | Path) -> Path:
    """Write the .puz of an ipuz dict atomically; return its path."""
    data = to_puz(doc).tobytes()
    path = Path(path)
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return path


def ipuz_to_puz(ipuz_path: str | Path, puz_path: str | Path) -> Path:
    """Convert an .ipuz file to .puz (one-line PuzzleError on a file that is not a crossword ipuz).

    A pipeline's .ipuz is checked first against the summary beside it (x.json lists x.ipuz with its sha256)."""
    ipuz_path = Path(ipuz_path)
    summary = ipuz_path.with_suffix(".json")
    if summary.is_file():
        verify(summary, kinds.CROSSWORD_PUZZLE, [ipuz_path.name])
    try:
        doc = json.loads(ipuz_path.read_text(encoding="utf-8"))
        doc["solution"], doc["clues"], doc["dimensions"]["width"]  # noqa: B018 (the keys .puz needs)
    except OSError as exc:
        raise PuzzleError(f"--ipuz {ipuz_path}: cannot read ({exc.strerror})") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise PuzzleError(f"--ipuz {ipuz_path}: not a crossword .ipuz ({type(exc).__name__}: {exc})") from None
    try:
        return write_puz(doc, puz_path)
    except PuzzleError as exc:
        raise type(exc)(f"--ipuz {ipuz_path}: {exc}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise PuzzleError(f"--ipuz {ipuz_path}: not a crossword .ipuz ({type(exc).__name__}: {exc})") from None
