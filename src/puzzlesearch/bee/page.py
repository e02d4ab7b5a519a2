"""The pages of a scheduled puzzle: the playable honeycomb and the hints page, self-contained.

The playable page (page_template.html) has inline CSS and JavaScript and needs no network:
click or type letters, Delete/Backspace, Shuffle (or space), Enter; the game's messages
("Too short", "Missing center letter", "Not in word list", "Already found"); found words
with pangrams highlighted, the score and the rank bar (thresholds from the schedule),
progress kept in localStorage (key `puzzlesearch-bee-<LETTERS>-<CENTER>-<seed>-<day>`), the
hints toggled, the answers revealed on request. The answers are embedded as reversed
base64 JSON: not readable at a glance, not secret.
"""

from __future__ import annotations

import base64
import html
import json
from importlib import resources

from puzzlesearch.bee.hints import hints_fragment, hints_page
from puzzlesearch.bee.schedule import ScheduledPuzzle

TEMPLATE = "page_template.html"


def play_name(day: int) -> str:
    """File name of a day's playable page."""
    return f"day-{day:03d}.html"


def hints_name(day: int) -> str:
    """File name of a day's hints page."""
    return f"hints-{day:03d}.html"


def obscure(value) -> str:
    """JSON, base64, reversed: what the page's decode() undoes."""
    return base64.b64encode(json.dumps(value, sort_keys=True).encode("utf-8")).decode("ascii")[::-1]


def page_data(p: ScheduledPuzzle, rank_names: list[str], min_length: int, seed: int) -> dict:
    """What the page's script needs."""
    answers = dict(zip(p.answers["word"].to_list(), p.answers["points"].to_list()))
    return {
        "id": f"{p.letters}-{p.puzzle.center.upper()}-{seed}-{p.day}",
        "letters": p.letters,
        "center": p.puzzle.center.upper(),
        "points": p.points,
        "thresholds": p.thresholds,
        "ranks": rank_names,
        "min_length": min_length,
        "answers": obscure(answers),
        "pangrams": obscure(p.answers.filter(p.answers["pangram"])["word"].to_list()),
    }


def title(p: ScheduledPuzzle) -> str:
    """A page title: day, letters, center."""
    return f"Spelling Bee day {p.day}: {p.letters} / {p.puzzle.center.upper()}"


def play_page(p: ScheduledPuzzle, rank_names: list[str], min_length: int, seed: int) -> str:
    """The playable page of one puzzle."""
    text = resources.files("puzzlesearch.bee").joinpath(TEMPLATE).read_text("utf-8")
    data = json.dumps(page_data(p, rank_names, min_length, seed)).replace("</", "<\\/")
    subtitle = f"day {p.day} · {p.hints.words} words · difficulty {p.difficulty:.0f}/100"
    return (
        text.replace("__TITLE__", html.escape(title(p)))
        .replace("__SUBTITLE__", html.escape(subtitle))
        .replace("__HINTS__", hints_fragment(p.hints))
        .replace("__DATA__", data)
    )


def index_page(puzzles: list[ScheduledPuzzle]) -> str:
    """The schedule's index: one line per day with links to its pages."""
    rows = "".join(
        f"<tr><td>{p.day}</td><td>{p.letters}</td><td>{p.puzzle.center.upper()}</td><td>{p.hints.words}</td>"
        f"<td>{p.points}</td><td>{p.hints.pangrams}</td><td>{p.difficulty:.0f}</td>"
        f'<td><a href="{play_name(p.day)}">play</a> · <a href="{hints_name(p.day)}">hints</a></td></tr>'
        for p in puzzles
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Spelling Bee schedule</title>'
        "<style>body{font-family:sans-serif;margin:1.5em}td,th{padding:.2em .7em;text-align:right}</style>"
        "</head><body><h2>Spelling Bee schedule</h2><table><tr><th>day</th><th>letters</th><th>center</th>"
        f"<th>words</th><th>points</th><th>pangrams</th><th>difficulty</th><th></th></tr>{rows}</table></body></html>\n"
    )


def pages(puzzles: list[ScheduledPuzzle], rank_names: list[str], min_length: int, seed: int) -> dict[str, str]:
    """File name -> HTML of every page of a schedule (index, playable and hints pages)."""
    out = {"index.html": index_page(puzzles)}
    for p in puzzles:
        out[play_name(p.day)] = play_page(p, rank_names, min_length, seed)
        out[hints_name(p.day)] = hints_page(p.hints, title(p) + " — hints")
    return out
