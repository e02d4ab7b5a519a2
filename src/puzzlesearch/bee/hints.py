"""The hints page of a puzzle: first letter x word length counts, two-letter starts, totals.

As solvers know it from the published game: a grid with one row per first letter and one
column per word length (Σ totals on both sides), the list of two-letter starts with their
counts (`AB-3`), and the number of words, points and pangrams (perfect pangrams use each
letter exactly once).
"""

from __future__ import annotations

import html
import json
from collections import Counter
from dataclasses import dataclass

TWO = 2  # letters of a start in the two-letter list


@dataclass(frozen=True)
class Hints:
    """What the hints page shows of one puzzle."""

    letters: str  # uppercase, alphabetical
    center: str
    words: int
    points: int
    pangrams: int
    perfect_pangrams: int
    grid: dict[str, dict[int, int]]  # first letter -> word length -> count (letters and lengths that occur)
    two_letters: dict[str, int]  # first two letters -> count, alphabetical

    @property
    def lengths(self) -> list[int]:
        """The word lengths that occur, shortest first."""
        return sorted({n for row in self.grid.values() for n in row})

    def grid_json(self) -> str:
        """The grid as JSON: {"A": {"4": 3, ...}, ...} (the table's `hint_grid` column)."""
        return json.dumps({k: {str(n): c for n, c in sorted(v.items())} for k, v in self.grid.items()})

    def two_letters_text(self) -> str:
        """The two-letter list as the game prints it: 'AB-3 AC-1 ...'."""
        return " ".join(f"{k}-{c}" for k, c in self.two_letters.items())


def make_hints(answers: list[str], points: int, pangram_words: list[str], letters: str, center: str) -> Hints:
    """Hints of a puzzle from its answers (lowercase) and totals."""
    grid: dict[str, Counter] = {}
    for word in answers:
        grid.setdefault(word[0].upper(), Counter())[len(word)] += 1
    starts = Counter(word[:TWO].upper() for word in answers)
    return Hints(
        letters=letters,
        center=center,
        words=len(answers),
        points=points,
        pangrams=len(pangram_words),
        perfect_pangrams=sum(len(w) == len(letters) for w in pangram_words),
        grid={k: dict(sorted(grid[k].items())) for k in sorted(grid)},
        two_letters=dict(sorted(starts.items())),
    )


def grid_html(h: Hints) -> str:
    """The grid as an HTML table with Σ row and column totals."""
    lengths = h.lengths
    head = "<tr><th></th>" + "".join(f"<th>{n}</th>" for n in lengths) + "<th>Σ</th></tr>"
    rows = []
    for letter, row in h.grid.items():
        cells = "".join(f"<td>{row.get(n, '-')}</td>" for n in lengths)
        rows.append(f"<tr><th>{letter}:</th>{cells}<td>{sum(row.values())}</td></tr>")
    column_totals = "".join(f"<td>{sum(r.get(n, 0) for r in h.grid.values())}</td>" for n in lengths)
    rows.append(f"<tr><th>Σ:</th>{column_totals}<td>{h.words}</td></tr>")
    return f'<table class="hint-grid">{head}{"".join(rows)}</table>'


def hints_fragment(h: Hints) -> str:
    """The hints as an HTML fragment (totals line, grid, two-letter list)."""
    letters = " ".join(f"<b>{c}</b>" if c == h.center else c for c in h.letters)
    perfect = f" ({h.perfect_pangrams} Perfect)" if h.perfect_pangrams else ""
    by_first: dict[str, list[str]] = {}
    for start, count in h.two_letters.items():
        by_first.setdefault(start[0], []).append(f"{start}-{count}")
    two = "".join(f"<p>{html.escape(' '.join(v))}</p>" for v in by_first.values())
    return (
        f'<div class="hints"><p class="hint-letters">{letters}</p>'
        f'<p class="hint-totals">WORDS: {h.words}, POINTS: {h.points}, PANGRAMS: {h.pangrams}{perfect}</p>'
        f'{grid_html(h)}<h4>Two letter list:</h4><div class="two-letters">{two}</div></div>'
    )


HINTS_STYLE = (
    "body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;color:#111}"
    ".hint-grid{border-collapse:collapse;margin:.8em 0}.hint-grid td,.hint-grid th{padding:.15em .6em;"
    "text-align:right;font-variant-numeric:tabular-nums}.hint-grid tr:last-child td,.hint-grid tr:last-child th"
    "{border-top:1px solid #999}.hint-letters{font-size:1.4em;letter-spacing:.2em}"
    ".hint-letters b{color:#b8860b}.two-letters p{margin:.2em 0;font-family:monospace}"
)


def hints_page(h: Hints, title: str) -> str:
    """A self-contained hints page."""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{HINTS_STYLE}</style></head><body><h2>{html.escape(title)}</h2>{hints_fragment(h)}</body></html>\n"
    )
