"""Crossword files: .ipuz (ipuz spec v2 JSON), .puz, the playable HTML page, grid text, patterns.

Grids are in reading order (model.py); for right-to-left languages the .ipuz arrays and
the text are mirrored into page order (column 0 = leftmost), numbering runs from the
right as an Arabic reader expects, and the HTML pages use dir="rtl" (the browser lays
the cells out from the right, so it receives them in reading order).

A puzzle is written as .ipuz, as the playable page (page.py: input cells, check, reveal,
an answer-key view) under the .html name, and as .puz when the format can hold it
(puzfile.py: not Arabic). `to_html` is the static answer key (no script). A run's outputs:
a generated puzzle with its clues and quality columns (`write_generated_with_clues`), the
ranked puzzles.parquet (`write_ranked`), a filled pattern (`write_filled`), each with a
manifest.

Pattern files are in page order too: each line is a row as it looks on the page, left to
right, so a printed grid read back as a pattern is the same grid. For Arabic this means a
given across word is typed last letter first (its first letter is the rightmost cell).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from puzzlesearch import kinds
from puzzlesearch.crossword.clues import numeric_clue
from puzzlesearch.crossword.model import (
    ACROSS,
    BLACK_CHAR,
    DIRECTION_KEY,
    DOWN,
    EMPTY_CHAR,
    Alphabet,
    Language,
    PuzzleText,
    grid_text,
    slot_word,
    slots,
)
from puzzlesearch.crossword.page import to_page
from puzzlesearch.crossword.puzfile import puz_problem, write_puz
from puzzlesearch.crossword.quality import fill_quality, rank_puzzles
from puzzlesearch.crossword.search import require_valid
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_json, write_parquet, write_text
from puzzlesearch.manifest import damaged, verify, write_manifest
from puzzlesearch.progress import log

IPUZ_VERSION = "http://ipuz.org/v2"
IPUZ_KIND = "http://ipuz.org/crossword#1"


@dataclass(frozen=True)
class Entry:
    """A numbered word of a finished grid with its clue ('' when there is none)."""

    direction: str
    number: int
    row: int
    col: int
    answer: str
    clue: str = ""
    enumeration: str = ""  # the answer's word lengths: "6", or "2,1,4" for AT A LOSS


def entries(grid: np.ndarray, alphabet: Alphabet, text: PuzzleText = PuzzleText()) -> list[Entry]:
    """The numbered entries (2+ letters) of a grid with text's clues and word lengths, across first, by number."""
    out = []
    for s in slots(grid != 0, min_length=2):
        word = slot_word(grid, s, alphabet)
        out.append(Entry(s.direction, s.number, s.row, s.col, word, text.clue_of(word), text.enumeration_of(word)))
    return sorted(out, key=lambda e: (e.direction != ACROSS, e.number))


def numbers(grid: np.ndarray) -> np.ndarray:
    """Clue number per cell (0 when none), in reading order."""
    out = np.zeros(grid.shape, dtype=int)
    for s in slots(grid != 0, min_length=2):
        out[s.row, s.col] = s.number
    return out


def to_ipuz(grid: np.ndarray, language: Language, text: PuzzleText = PuzzleText()) -> dict:
    """An ipuz v2 crossword dict: dimensions, puzzle, solution, clues."""
    n_rows, n_cols = grid.shape
    num = numbers(grid)
    puzzle = [[BLACK_CHAR if grid[r, c] == 0 else int(num[r, c]) for c in range(n_cols)] for r in range(n_rows)]
    solution = [
        [BLACK_CHAR if grid[r, c] == 0 else _cell_text(language, grid[r, c]) for c in range(n_cols)]
        for r in range(n_rows)
    ]
    if language.rtl:
        puzzle = [row[::-1] for row in puzzle]
        solution = [row[::-1] for row in solution]
    clues = {"Across": [], "Down": []}
    for e in entries(grid, language.alphabet, text):
        item = {
            "number": e.number,
            "clue": e.clue,
            "answer": _display(language, e.answer),
            "enumeration": e.enumeration,
        }
        clues["Across" if e.direction == ACROSS else "Down"].append(item)
    doc = {
        "version": IPUZ_VERSION,
        "kind": [IPUZ_KIND],
        "dimensions": {"width": n_cols, "height": n_rows},
        "puzzle": puzzle,
        "solution": solution,
        "clues": clues,
        "block": BLACK_CHAR,
        "empty": 0,
        "title": text.title or f"puzzlesearch {language.code} {n_rows}x{n_cols}",
        "author": "puzzlesearch",
    }
    if text.notes:
        doc["notes"] = text.notes
    if language.rtl:
        doc[DIRECTION_KEY] = "rtl"
    return doc


def _cell_text(language: Language, code) -> str:
    ch = language.alphabet.letters[int(code) - 1]
    return ch.upper() if language.code == "en" else ch


def _display(language: Language, word: str) -> str:
    return word.upper() if language.code == "en" else word


_CSS = """
body{font-family:sans-serif;margin:2em}
table.grid{border-collapse:collapse;margin-bottom:1.5em}
table.grid td{width:2.2em;height:2.2em;border:1px solid #333;position:relative;text-align:center;
 vertical-align:middle;font-size:1.1em;padding:0}
table.grid td.b{background:#222}
table.grid td sup{position:absolute;top:1px;left:2px;font-size:.55em;color:#555}
[dir=rtl] table.grid td sup{left:auto;right:2px}
.lists{display:flex;gap:3em}
.lists ol{padding-inline-start:0;list-style:none}
"""


def to_html(grid: np.ndarray, language: Language, text: PuzzleText = PuzzleText(), show_solution: bool = True) -> str:
    """The static answer key: a self-contained HTML page (no script), the numbered grid and the lists."""
    num = numbers(grid)
    rows = []
    for r in range(grid.shape[0]):
        cells = []
        for c in range(grid.shape[1]):
            if grid[r, c] == 0:
                cells.append('<td class="b"></td>')
                continue
            mark = f"<sup>{num[r, c]}</sup>" if num[r, c] else ""
            letter = html.escape(_cell_text(language, grid[r, c])) if show_solution else ""
            cells.append(f"<td>{mark}{letter}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    lists = []
    across_name, down_name = ("أفقي", "عمودي") if language.rtl else ("Across", "Down")
    for direction, name in ((ACROSS, across_name), (DOWN, down_name)):
        items = []
        for e in entries(grid, language.alphabet, text):
            if e.direction != direction:
                continue
            clue = e.clue or f"({len(e.answer)})"
            answer = f" <b>{html.escape(_display(language, e.answer))}</b>" if show_solution else ""
            items.append(f"<li>{e.number}. {html.escape(clue)}{answer}</li>")
        lists.append(f"<div><h2>{name}</h2><ol>{''.join(items)}</ol></div>")
    direction = ' dir="rtl"' if language.rtl else ""
    lang = {"en": "en", "ar": "ar"}.get(language.code, "en")
    title = html.escape(text.title or f"puzzlesearch {language.code} crossword")
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"{direction}>\n<head><meta charset="utf-8">'
        f"<title>{title}</title><style>{_CSS}</style></head>\n<body{direction}>\n<h1>{title}</h1>\n"
        f'<table class="grid"{direction}>\n' + "\n".join(rows) + "\n</table>\n"
        f'<div class="lists">{"".join(lists)}</div>\n</body>\n</html>\n'
    )


def has_puz(language: Language) -> bool:
    """True when a puzzle of this language can be a .puz (left to right, one Latin-1 byte per letter)."""
    return not language.rtl and all(ord(ch.upper()) < 256 for ch in language.alphabet.letters)


def puz_name(language: Language, ipuz_path: str | Path) -> str | None:
    """File name of the .puz beside an .ipuz (None for a language without .puz)."""
    return Path(ipuz_path).with_suffix(".puz").name if has_puz(language) else None


def write_puzzle(
    grid: np.ndarray,
    language: Language,
    ipuz_path: str | Path,
    html_path: str | Path,
    text: PuzzleText = PuzzleText(),
    puz_path: str | Path | None = None,
) -> list[Path]:
    """Write the .ipuz, the playable .html page and (when asked and possible) the .puz atomically; return the paths.

    A language .puz cannot hold (Arabic) writes no .puz and logs why.
    """
    ipuz_path, html_path = Path(ipuz_path), Path(html_path)
    doc = to_ipuz(grid, language, text)
    write_json(doc, ipuz_path)
    write_text(to_page(grid, language, replace(text, title=doc["title"])), html_path)
    paths = [ipuz_path, html_path]
    if puz_path is not None:
        problem = puz_problem(doc)
        if problem is None:
            paths.append(write_puz(doc, puz_path))
        else:
            log("crossword", f"no .puz for {ipuz_path.name}: {problem}")
    return paths


def show(grid: np.ndarray, language: Language) -> str:
    """The grid as text in page order."""
    return grid_text(grid, language.alphabet)


# ---------------------------------------------------------------- patterns (fill mode)


def pattern_text(path: str | Path) -> str:
    """The text of a pattern file (a one-line error when it cannot be read)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PuzzleError(f"pattern {path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise PuzzleError(f"pattern {path}: not UTF-8 text") from None


def read_pattern(path: str | Path, alphabet: Alphabet) -> np.ndarray:
    """A pattern file: lines of '#' (black), '.' (empty) or letters (given); -> int8 grid, -1 = empty.

    Lines are rows in page order (left to right as displayed); for a right-to-left
    alphabet they are mirrored into reading order. Blank lines and lines starting with
    ';' are ignored. Every row must have the same width.
    """
    path = Path(path)
    text = pattern_text(path)
    index = {ch: i + 1 for i, ch in enumerate(alphabet.letters)}
    rows, width = [], None
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if width is None:
            width = len(line)
        elif len(line) != width:
            raise PuzzleError(f"pattern {path} line {line_no}: {len(line)} cells, expected {width}")
        row = []
        for col, ch in enumerate(line, 1):
            if ch == BLACK_CHAR:
                row.append(0)
            elif ch == EMPTY_CHAR:
                row.append(-1)
            elif ch.lower() in index:
                row.append(index[ch.lower()])
            else:
                raise PuzzleError(
                    f"pattern {path} line {line_no} column {col}: {ch!r} is not '#', '.' or a letter of the alphabet"
                )
        rows.append(row)
    if not rows:
        raise PuzzleError(f"pattern {path}: no grid rows")
    grid = np.array(rows, dtype=np.int8)
    return grid[:, ::-1].copy() if alphabet.direction == "rtl" else grid


# ---------------------------------------------------------------- run outputs

PUZZLE_KIND, TABLE_KIND, FILL_KIND = kinds.CROSSWORD_PUZZLE, kinds.CROSSWORD_PUZZLES, kinds.CROSSWORD_FILL


def clue_function(language: Language, max_factor: int):
    """The clue of a word: 'x*y' for numeric puzzles (factors up to max_factor), none for word puzzles."""
    if not language.numeric:
        return None

    def clue(word: str) -> str:
        try:
            return numeric_clue(word, max_factor)
        except (PuzzleError, ValueError):
            return "?"

    return clue


def puzzle_stem(g) -> str:
    """File stem of a generated puzzle: {lang}_{size}_seed{seed}."""
    return f"{g.language.code}_{g.settings.size}_seed{g.seed}"


def puzzle_row(g, file: str, page: str | None = None) -> dict:
    """One generated puzzle's row of puzzles.parquet (without its rank): file is the .ipuz, page the .html."""
    ents = entries(g.grid, g.language.alphabet)
    return {
        "lang": g.language.code,
        "size": g.settings.size,
        "seed": g.seed,
        "strategy": g.settings.strategy,
        "cost": g.cost,
        "unknown_letters": g.unknown_letters,
        "scrambled_letters": g.scrambled_letters,
        "unknown_words": g.unknown_words,
        "scrambled_words": g.scrambled_words,
        "across_words": sum(e.direction == ACROSS for e in ents),
        "down_words": sum(e.direction == DOWN for e in ents),
        "black_cells": g.black_cells,
        "pops": g.pops,
        "restarts": g.restarts,
        "seconds": round(g.seconds, 4),
        "stopped_by": g.stopped_by,
        "grid": show(g.grid, g.language),
        "file": file,
        "puz": puz_name(g.language, file),
        "page": page if page is not None else str(Path(file).with_suffix(".html")),
    }


def search_trace(g) -> dict:
    """The best cost over a generation's search: parallel lists pops, seconds, cost (points of change)."""
    pops, seconds, cost5 = zip(*g.trace) if g.trace else ((), (), ())
    return {
        "pops": [int(p) for p in pops],
        "seconds": [round(float(s), 4) for s in seconds],
        "cost": [c / 5 for c in cost5],
    }


def grid_quality(grid, language: Language, tables, low_score: int):
    """FillQuality of a finished grid: its entries' scores (0 for non-words) and clues over `tables`."""
    ents = entries(grid, language.alphabet, PuzzleText(tables.clue))
    return fill_quality([tables.score(e.answer) for e in ents], [e.clue for e in ents], low_score)


def write_generated_with_clues(g, tables, ipuz_path, html_path, summary_path=None, puz_path=None, low_score: int = 0):
    """A generated puzzle's .ipuz, page (and .puz) with the tables' clues; its summary row gets the quality columns.

    A grid of cost > 0 (a non-word) is refused before anything is written (search.require_valid)."""
    require_valid(g)
    q = grid_quality(g.grid, g.language, tables, low_score)
    notes = (
        f"cost {g.cost:g}: {g.unknown_words} unknown and {g.scrambled_words} scrambled "
        f"down words; {q.clued} of {q.entries} entries clued; mean word score {q.mean_score:.1f}, "
        f"lowest {q.min_score}; strategy {g.settings.strategy}, seed {g.seed}, stopped by {g.stopped_by}"
    )
    size = g.settings.size
    paths = write_puzzle(
        g.grid,
        g.language,
        ipuz_path,
        html_path,
        PuzzleText(
            tables.clue, tables.enumeration, f"puzzlesearch {g.language.code} {size}x{size} seed {g.seed}", notes
        ),
        puz_path=puz_path,
    )
    row = {**puzzle_row(g, Path(ipuz_path).name, Path(html_path).name), **q.row()}
    if summary_path is not None:
        meta = {"row": row, "trace": search_trace(g), "clue_source": tables.meta.get("clue_source", "")}
        write_manifest(summary_path, paths, PUZZLE_KIND, g.settings.to_dict(), meta)
        paths.append(Path(summary_path))
    return paths, row


def read_rows(summary_paths) -> list[dict]:
    """The rows of per-seed summaries, each verified against its manifest and its own file name.

    A summary must describe the puzzle beside it (its row's .ipuz has the summary's name),
    and the rows must be one language and size with each seed once: a summary copied over
    another seed's is an error, not a seed counted twice.
    """
    rows, seen = [], {}
    for path in map(Path, summary_paths):
        data = verify(path, PUZZLE_KIND)
        row = data.get("row")
        if not isinstance(row, dict) or not all(k in row for k in ("file", "lang", "size", "seed")):
            raise damaged(path, "no puzzle row")
        if row["file"] != path.with_suffix(".ipuz").name:
            raise damaged(path, f"it describes {row['file']}, not {path.with_suffix('.ipuz').name}")
        key = (row["lang"], row["size"])
        if rows and key != (rows[0]["lang"], rows[0]["size"]):
            raise damaged(path, f"a {key[0]} {key[1]}x{key[1]} puzzle among {rows[0]['lang']} {rows[0]['size']}s")
        if row["seed"] in seen:
            raise damaged(path, f"seed {row['seed']} again (also {seen[row['seed']]})")
        seen[row["seed"]] = path
        rows.append(row)
    return rows


def write_ranked(rows: list[dict], path: str | Path) -> list[Path]:
    """Write the ranked puzzles.parquet and its manifest puzzles.json (clue coverage in its meta)."""
    path = Path(path)
    df = rank_puzzles(rows)
    write_parquet(df, path)
    meta = {"puzzles": len(rows)}
    if "entries" in df.columns and df.height:
        n_entries, clued = int(df["entries"].sum()), int(df["clued_entries"].sum())
        meta.update(entries=n_entries, clued_entries=clued, clue_share=round(clued / max(n_entries, 1), 4))
    json_path = path.with_suffix(".json")
    write_manifest(json_path, [path], TABLE_KIND, {}, meta)
    return [path, json_path]


def write_filled(
    result,
    language: Language,
    ipuz_path: str | Path,
    html_path: str | Path,
    json_path: str | Path,
    settings,
    puz_path: str | Path | None = None,
    clue: Callable[[str], str] | None = None,
    enumeration: Callable[[str], str] | None = None,
) -> list[Path]:
    """Write a filled pattern's .ipuz, .html page, .puz when asked, and a .json summary (a manifest of them).

    `clue`: the clue of an answer, as for generated puzzles (WordTables.clue: clues that
    pass the answer-form rule, '' when none); the summary counts the clued entries.
    `enumeration`: an answer's word lengths (PuzzleText.enumeration)."""
    floor = settings.min_frequency
    clues = [clue(w) if clue else "" for w in result.words]
    clued = sum(1 for c in clues if c)
    notes = (
        f"fixed-pattern fill: quality {result.quality:.2f} (mean log10 frequency), "
        f"frequency floor {floor}, {clued} of {len(clues)} entries clued, {result.nodes} nodes"  # no seconds: same fill, same bytes
    )
    unclued = [w for w, c in zip(result.words, clues) if not c]
    if unclued:  # the constructor's to-do list, on the page too
        notes += f"; without a clue: {', '.join(w.upper() for w in unclued)}"
    paths = write_puzzle(
        result.grid,
        language,
        ipuz_path,
        html_path,
        PuzzleText(clue, enumeration, f"puzzlesearch fill {Path(ipuz_path).stem}", notes),
        puz_path=puz_path,
    )
    summary = {
        "slots": len(result.words),
        "words": result.words,
        "clued": clued,
        "unclued": [w for w, c in zip(result.words, clues) if not c],
        "quality": round(result.quality, 4),
        "rarest_frequency": result.min_frequency,
        "min_frequency": floor,
        "nodes": result.nodes,
        "restarts": result.restarts,
        "seconds": round(result.seconds, 4),
        "stopped_by": result.stopped_by,
        "grid": show(result.grid, language),
    }
    write_manifest(json_path, paths, FILL_KIND, settings.to_dict(), summary)
    return paths + [Path(json_path)]
