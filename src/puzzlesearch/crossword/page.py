"""The playable crossword page: one self-contained HTML file (inline CSS and JavaScript, no network).

The page holds the grid in reading order (the browser lays a right-to-left grid out from
the right with dir="rtl", so arrow keys are mirrored there), the entries with their cells
and clues, and the solution scrambled (UTF-8 bytes XOR a fixed key stream, base64): the
answers are not in the page's text, yet check, reveal and the answer-key view work
offline. White cells in no entry of 2+ letters are shown filled in (no clue leads to them).

The template is page_template.html beside this module (package data); its placeholders
__LANG__, __DIR__, __TITLE__ and __DATA__ are filled here.
"""

from __future__ import annotations

import base64
import html
import json
import re
from functools import cache
from importlib import resources

import numpy as np

from puzzlesearch.crossword.model import ACROSS, BLACK_CHAR, Language, PuzzleText, slots

TEMPLATE = "page_template.html"
SCRAMBLE_STEP, SCRAMBLE_OFFSET = 31, 17  # key byte i = (31 i + 17) mod 256; the page's decode() uses the same
BLACK, ENTRY_CELL, GIVEN_CELL = 0, 1, 2  # cell kinds of the page data
LABELS = {
    "en": {
        "across": "Across",
        "down": "Down",
        "checkEntry": "Check word",
        "checkGrid": "Check puzzle",
        "revealEntry": "Reveal word",
        "revealGrid": "Reveal puzzle",
        "clear": "Clear",
        "key": "Answer key",
        "solved": "Solved! Every letter is right.",
        "cell": "row {r}, column {c}",
        "pencil": "Pencil",
        "print": "Print",
        "timer": "Time",
        "pause": "Pause",
    },
    "ar": {
        "across": "أفقي",
        "down": "عمودي",
        "checkEntry": "تحقق من الكلمة",
        "checkGrid": "تحقق من الشبكة",
        "revealEntry": "اكشف الكلمة",
        "revealGrid": "اكشف الشبكة",
        "clear": "امسح",
        "key": "مفتاح الحل",
        "solved": "أحسنت! كل الحروف صحيحة.",
        "cell": "الصف {r}، العمود {c}",
        "pencil": "قلم رصاص",
        "print": "اطبع",
        "timer": "الوقت",
        "pause": "إيقاف مؤقت",
    },
}
_PLACEHOLDER = re.compile(r"__(LANG|DIR|TITLE|DATA)__")


def scramble(text: str) -> str:
    """Base64 of the UTF-8 bytes of text XOR the page's key stream (not secret: keeps answers out of view)."""
    data = text.encode("utf-8")
    key = ((i * SCRAMBLE_STEP + SCRAMBLE_OFFSET) & 255 for i in range(len(data)))
    return base64.b64encode(bytes(b ^ k for b, k in zip(data, key))).decode("ascii")


def unscramble(text: str) -> str:
    """The inverse of scramble (what the page's decode() does)."""
    data = base64.b64decode(text)
    return bytes(b ^ ((i * SCRAMBLE_STEP + SCRAMBLE_OFFSET) & 255) for i, b in enumerate(data)).decode("utf-8")


def cell_letter(language: Language, code) -> str:
    """A cell's letter as shown (upper case for English)."""
    ch = language.alphabet.letters[int(code) - 1]
    return ch.upper() if language.code == "en" else ch


def page_data(grid: np.ndarray, language: Language, text: PuzzleText = PuzzleText()) -> dict:
    """The JSON the page script reads: grid shape, cell kinds and numbers, entries (with the word lengths shown
    after a clue: "6", "2,1,4"), scrambled solution."""
    n_rows, n_cols = grid.shape
    kinds = np.where(grid != 0, GIVEN_CELL, BLACK)
    numbers = np.zeros(grid.shape, dtype=int)
    entries = []
    for s in slots(grid != 0, min_length=2):
        cells = s.cells()
        for r, c in cells:
            kinds[r, c] = ENTRY_CELL
        numbers[s.row, s.col] = s.number
        word = "".join(language.alphabet.letters[grid[r, c] - 1] for r, c in cells)
        entries.append(
            {
                "dir": s.direction,
                "number": s.number,
                "cells": [r * n_cols + c for r, c in cells],
                "clue": text.clue_of(word),
                "enum": text.enumeration_of(word),
            }
        )
    entries.sort(key=lambda e: (e["dir"] != ACROSS, e["number"]))
    solution = "".join(BLACK_CHAR if code == 0 else cell_letter(language, code) for code in grid.ravel())
    upper = language.code == "en"
    return {
        "width": n_cols,
        "height": n_rows,
        "rtl": language.rtl,
        "numeric": language.numeric,
        "upper": upper,
        "letters": language.alphabet.letters.upper() if upper else language.alphabet.letters,
        "kinds": [int(k) for k in kinds.ravel()],
        "numbers": [int(n) for n in numbers.ravel()],
        "entries": entries,
        "solution": scramble(solution),
        "notes": text.notes,
        "labels": LABELS["ar" if language.rtl else "en"],
    }


@cache
def template() -> str:
    """The page template (package data)."""
    return resources.files("puzzlesearch.crossword").joinpath(TEMPLATE).read_text(encoding="utf-8")


def script_json(data: dict) -> str:
    """JSON safe inside a <script> element (no '<', '>' or '&' characters)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def to_page(grid: np.ndarray, language: Language, text: PuzzleText = PuzzleText()) -> str:
    """The playable page of a finished grid (reading-order grid, as model.py stores it)."""
    title = text.title or f"puzzlesearch {language.code} crossword"
    values = {
        "LANG": "ar" if language.rtl else "en",
        "DIR": "rtl" if language.rtl else "ltr",
        "TITLE": html.escape(title),
        "DATA": script_json(page_data(grid, language, text)),
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template())
