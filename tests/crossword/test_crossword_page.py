"""Crossword outputs a person uses: the playable page in a real headless browser (Playwright
with Debian's chromium), the .ipuz checked by the `ipuz` package, the .puz read back by `puz`.

The grids are small hand-made ones (words need not be in a lexicon): the expected entries,
numbers and answers are worked out here from the grid strings by the plain crossword rule,
not by the code under test. Browser tests skip when /usr/bin/chromium or playwright is
missing, unless PUZZLESEARCH_REQUIRE_BROWSER=1 (CI), where they fail instead.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import ipuz  # the ipuz package (test extra)
import numpy as np
import puz  # puzpy (a dependency: the pipeline writes .puz)
import pytest

from puzzlesearch.crossword.io import to_ipuz, write_puzzle
from puzzlesearch.crossword.model import DIGITS, NUMERIC_FILLERS, Alphabet, Language, PuzzleText
from puzzlesearch.crossword.page import to_page
from puzzlesearch.lexicon.model import ARABIC, LATIN

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REQUIRE_BROWSER = os.environ.get("PUZZLESEARCH_REQUIRE_BROWSER") == "1"

# Grids in reading order ('#' black): for Arabic the first character of a row is its
# rightmost cell. EN's Q is a white cell in no entry (shown filled in, no clue leads there).
EN_ROWS = ["CRAB#", "A#LOT", "RAN#O", "E#E#E", "#Q###"]
AR_ROWS = ["كتاب#", "ل#ح#ن", "مدرسة", "ة#ب#ر"]
NUM_ROWS = ["123#", "4#56", "789#"]

EN = Language("en", "test", Alphabet(LATIN), LATIN)
AR = Language("ar", "test", Alphabet(ARABIC, "rtl"), ARABIC)
NUM = Language("num", "numeric", Alphabet(DIGITS), NUMERIC_FILLERS)


def clue_of(word: str) -> str:
    """A test clue that does not contain its answer (and is plain Latin-1)."""
    return f"Test clue, {len(word)} cells"


def grid_of(rows: list[str], language: Language) -> np.ndarray:
    """Letter codes of a reading-order grid text."""
    letters = language.alphabet.letters
    return np.array([[0 if ch == "#" else letters.index(ch.lower()) + 1 for ch in row] for row in rows], dtype=np.int8)


def expected_entries(rows: list[str]) -> list[dict]:
    """Entries by the plain rule: runs of 2+ white cells; across in reading order, then down; numbered."""
    h, w = len(rows), len(rows[0])

    def white(r, c):
        return 0 <= r < h and 0 <= c < w and rows[r][c] != "#"

    numbers, number, runs = {}, 0, {"across": [], "down": []}
    for r in range(h):
        for c in range(w):
            if not white(r, c):
                continue
            starts = []
            if not white(r, c - 1) and white(r, c + 1):
                starts.append(("across", 0, 1))
            if not white(r - 1, c) and white(r + 1, c):
                starts.append(("down", 1, 0))
            if starts:
                number += 1
                numbers[(r, c)] = number
            for direction, dr, dc in starts:
                cells = []
                rr, cc = r, c
                while white(rr, cc):
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                answer = "".join(rows[a][b] for a, b in cells)
                runs[direction].append({"dir": direction, "number": number, "cells": cells, "answer": answer})
    return runs["across"] + runs["down"]


# ---------------------------------------------------------------- .ipuz (ipuz package) and .puz (puzpy)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """English, Arabic and numeric puzzles written by write_puzzle (.ipuz, .html page, .puz when possible)."""
    folder = tmp_path_factory.mktemp("written")
    out = {}
    for name, rows, language in (("en", EN_ROWS, EN), ("ar", AR_ROWS, AR), ("num", NUM_ROWS, NUM)):
        paths = write_puzzle(
            grid_of(rows, language),
            language,
            folder / f"{name}.ipuz",
            folder / f"{name}.html",
            PuzzleText(clue_of, title=f"Test {name}"),
            puz_path=folder / f"{name}.puz",
        )
        out[name] = (rows, language, paths)
    return out


@pytest.mark.parametrize("name", ["en", "ar", "num"])
def test_ipuz_is_valid_for_the_ipuz_package_with_numbered_clues(written, name):
    rows, language, paths = written[name]
    doc = ipuz.read(paths[0].read_text(encoding="utf-8"))
    h, w = len(rows), len(rows[0])
    assert doc["dimensions"] == {"width": w, "height": h}
    page_rows = [row[::-1] for row in rows] if language.rtl else rows  # .ipuz is in page order
    assert [["#" if ch == "#" else ch for ch in row] for row in page_rows] == doc["solution"]
    entries = expected_entries(rows)
    numbers = {e["cells"][0]: e["number"] for e in entries}
    for r in range(h):
        for c in range(w):
            page_c = w - 1 - c if language.rtl else c
            cell = doc["puzzle"][r][page_c]
            assert cell == ("#" if rows[r][c] == "#" else numbers.get((r, c), 0))
    for direction, key in (("across", "Across"), ("down", "Down")):
        want = [(e["number"], e["answer"], clue_of(e["answer"])) for e in entries if e["dir"] == direction]
        got = [(c["number"], c["answer"], c["clue"]) for c in doc["clues"][key]]
        assert got == want


@pytest.mark.parametrize("name", ["en", "num"])
def test_puz_reads_back_with_the_same_solution_and_clues(written, name):
    rows, _, paths = written[name]
    assert paths[2].suffix == ".puz"
    p = puz.read(str(paths[2]))
    assert (p.width, p.height) == (len(rows[0]), len(rows))
    assert p.solution == "".join(rows).replace("#", ".")
    numbering = p.clue_numbering()
    entries = expected_entries(rows)
    got = [(e["num"], "across", e["clue"]) for e in numbering.across] + [
        (e["num"], "down", e["clue"]) for e in numbering.down
    ]
    assert got == [(e["number"], e["dir"], clue_of(e["answer"])) for e in entries]
    if name == "en":  # the Q in no entry is pre-filled; every other white cell is empty
        assert p.fill == "".join(rows).replace("#", ".").translate(str.maketrans("ABCDELNORT", "-" * 10))


def test_arabic_has_no_puz_and_the_converter_says_why(written, tmp_path):
    _, _, paths = written["ar"]
    assert [p.suffix for p in paths] == [".ipuz", ".html"] and not paths[0].with_suffix(".puz").exists()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "puzzlesearch",
            "crossword",
            "puz",
            "--ipuz",
            str(paths[0]),
            "--out",
            str(tmp_path / "a.puz"),
        ],
        capture_output=True,
        text=True,
    )
    errors = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode == 2 and "Traceback" not in out.stderr and len(errors) == 1, out.stderr
    assert "right-to-left" in errors[0] and "ar.ipuz" in errors[0]
    assert not (tmp_path / "a.puz").exists()


def test_puz_clues_are_made_latin1(tmp_path):
    write_puzzle(
        grid_of(NUM_ROWS, NUM),
        NUM,
        tmp_path / "n.ipuz",
        tmp_path / "n.html",
        PuzzleText(lambda w: "\u2018café\u2019 \u2014 \u03c0 r\u00b2"),
        puz_path=tmp_path / "n.puz",
    )
    p = puz.read(str(tmp_path / "n.puz"))
    assert set(p.clues) == {"'café' -- ? r\u00b2"}


# ---------------------------------------------------------------- the page's text


@pytest.mark.parametrize(("rows", "language"), [(EN_ROWS, EN), (AR_ROWS, AR), (NUM_ROWS, NUM)])
def test_page_is_self_contained_and_hides_the_answers(rows, language):
    page = to_page(grid_of(rows, language), language, PuzzleText(clue_of))
    assert not re.search(r"""(src|href|action)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert not re.search(r"<link|<img|<iframe|@import|url\(|@font-face|fetch\(|XMLHttpRequest", page, re.I)
    # the puzzle is only in the data element (the rest is the same for another grid) ...
    data = page.split('type="application/json">')[1].split("</script>")[0]
    other = to_page(grid_of(["#" + row[1:] for row in rows], language), language, PuzzleText(clue_of))
    assert page.replace(data, "") == other.replace(other.split('type="application/json">')[1].split("</script>")[0], "")
    # ... and no answer is spelled there (solution: scrambled base64; labels, alphabet: fixed text)
    fields = json.loads(data)
    plain = json.dumps(
        {k: v for k, v in fields.items() if k not in ("solution", "labels", "letters")}, ensure_ascii=False
    )
    for e in expected_entries(rows):
        assert e["answer"] not in plain and e["answer"].lower() not in plain
    assert not any(e["answer"] in fields["solution"] for e in expected_entries(rows) if len(e["answer"]) >= 4)


# ---------------------------------------------------------------- the page in a browser


@pytest.fixture(scope="module")
def browser():
    """One headless chromium for the module (skip, or fail under PUZZLESEARCH_REQUIRE_BROWSER=1, if absent)."""
    reason = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = "playwright is not installed (pip install -e '.[test]')"
    if reason is None and not CHROMIUM.exists():
        reason = f"{CHROMIUM} is absent (apt-get install chromium)"
    if reason:
        if REQUIRE_BROWSER:
            pytest.fail(f"PUZZLESEARCH_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The three test pages as files."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for name, rows, language in (("en", EN_ROWS, EN), ("ar", AR_ROWS, AR), ("num", NUM_ROWS, NUM)):
        path = folder / f"{name}.html"
        path.write_text(
            to_page(grid_of(rows, language), language, PuzzleText(clue_of, title=f"Test {name}")), encoding="utf-8"
        )
        out[name] = (rows, path)
    return out


@pytest.fixture
def open_page(browser, pages):
    """open_page(name) -> (rows, playwright page); JavaScript errors fail the test."""
    contexts, errors = [], []

    def opener(name):
        rows, path = pages[name]
        context = browser.new_context(viewport={"width": 1000, "height": 700})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(path.as_uri())
        return rows, page

    yield opener
    for context in contexts:
        context.close()
    assert errors == []


def index(rows, cell) -> int:
    """The page's cell index (data-i): reading-order row-major."""
    return cell[0] * len(rows[0]) + cell[1]


def active(page) -> int:
    return int(page.evaluate("document.activeElement.dataset.i"))


def is_solved(page) -> bool:
    return page.evaluate("document.body.classList.contains('solved')") and page.inner_text("#status").strip() != ""


def value(page, rows, cell) -> str:
    return page.input_value(f"input[data-i='{index(rows, cell)}']")


def active_clue(page) -> str:
    """'<number> <across|down>' of the highlighted clue (its list tells the direction)."""
    return page.evaluate(
        """() => { const li = document.querySelector('.clues li.active');
        const sec = [...document.querySelectorAll('.clues section')].indexOf(li.closest('section'));
        return li.querySelector('.n').textContent + ' ' + (sec === 0 ? 'across' : 'down'); }"""
    )


@pytest.mark.parametrize("name", ["en", "ar", "num"])
def test_typing_every_answer_with_tab_between_entries_solves_the_puzzle(open_page, name):
    rows, page = open_page(name)
    entries = expected_entries(rows)
    filled, white = set(), len({cell for e in entries for cell in e["cells"]})
    for k, e in enumerate(entries):
        if k:
            page.keyboard.press("Tab")
        assert active_clue(page) == f"{e['number']} {e['dir']}"
        # Tab goes to the entry's first empty cell; typing walks the entry from there
        start = next((j for j, cell in enumerate(e["cells"]) if cell not in filled), 0)
        assert active(page) == index(rows, e["cells"][start])
        assert is_solved(page) == (len(filled) == white)  # solved only once every cell is right
        page.keyboard.type(e["answer"][start:])
        filled.update(e["cells"])
    assert is_solved(page)
    assert all(value(page, rows, (r, c)) == ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#")
    page.keyboard.press("Shift+Tab")  # back to the previous entry
    assert active_clue(page) == f"{entries[-2]['number']} {entries[-2]['dir']}"
    if name == "ar":
        assert page.evaluate("document.documentElement.dir") == "rtl"


def test_check_marks_wrong_letters_and_reveal_fills_an_entry(open_page):
    rows, page = open_page("en")
    entries = expected_entries(rows)
    page.keyboard.type("CRXB")  # 1-Across with one wrong letter
    page.click("#check-entry")
    wrong = page.evaluate("[...document.querySelectorAll('.cell.wrong')].map(b => +b.dataset.i)")
    assert wrong == [index(rows, (0, 2))]
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("A")  # correcting the letter clears its mark
    assert page.evaluate("document.querySelectorAll('.cell.wrong').length") == 0
    down = next(e for e in entries if e["dir"] == "down" and e["number"] == 2)  # ALNE, crossing CRAB at A
    page.click(f".clues section:nth-of-type(2) li[data-k='{entries.index(down)}']")
    assert active_clue(page) == "2 down"
    page.keyboard.type("Z")  # the first empty cell of 2-Down is (1, 2): wrong
    page.click("#check-grid")
    assert page.evaluate("[...document.querySelectorAll('.cell.wrong')].map(b => +b.dataset.i)") == [
        index(rows, (1, 2))
    ]
    page.click("#reveal-entry")
    assert "".join(value(page, rows, cell) for cell in down["cells"]) == down["answer"]
    assert page.evaluate("document.querySelectorAll('.cell.wrong').length") == 0
    assert not is_solved(page)
    page.click("#reveal-grid")
    assert is_solved(page)
    page.click("#clear-grid")
    assert not is_solved(page) and value(page, rows, (0, 0)) == "" and value(page, rows, (4, 1)) == "Q"


def test_answer_key_view_toggles_without_losing_the_entries(open_page):
    rows, page = open_page("en")
    page.keyboard.type("CR")
    page.click("#answer-key")
    assert all(value(page, rows, (r, c)) == ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#")
    answers = page.evaluate("[...document.querySelectorAll('.clues li .answer')].map(s => s.textContent)")
    assert answers == [e["answer"] for e in expected_entries(rows)]
    page.click("#answer-key")
    assert [value(page, rows, (0, c)) for c in range(4)] == ["C", "R", "", ""]
    assert not is_solved(page)


def test_arrows_space_click_and_backspace_move_as_expected(open_page):
    rows, page = open_page("en")
    assert active(page) == index(rows, (0, 0)) and active_clue(page) == "1 across"
    page.keyboard.press("ArrowRight")
    assert active(page) == index(rows, (0, 1))
    page.keyboard.press("ArrowDown")  # (1, 1) is black: skip to (2, 1)
    assert active(page) == index(rows, (2, 1)) and active_clue(page) == "6 across"  # its only entry: RAN
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    assert active(page) == index(rows, (1, 0)) and active_clue(page) == "1 down"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Space")  # toggle at (0, 0): down -> across
    assert active(page) == index(rows, (0, 0)) and active_clue(page) == "1 across"
    page.click(f"input[data-i='{index(rows, (0, 0))}']")  # clicking the selected cell toggles too
    assert active_clue(page) == "1 down"
    page.keyboard.type("CA")
    assert active(page) == index(rows, (2, 0))
    page.keyboard.press("Backspace")  # empty cell: back one and clear it
    assert active(page) == index(rows, (1, 0)) and value(page, rows, (1, 0)) == ""
    page.keyboard.press("Backspace")  # empty again: back to C and clear it
    assert active(page) == index(rows, (0, 0)) and value(page, rows, (0, 0)) == ""
    page.keyboard.type("7")  # not a letter of the alphabet: refused
    assert value(page, rows, (0, 0)) == "" and active(page) == index(rows, (0, 0))


def test_arabic_page_is_right_to_left_with_mirrored_arrows(open_page):
    rows, page = open_page("ar")
    assert page.evaluate("getComputedStyle(document.getElementById('grid')).direction") == "rtl"

    def x(cell):
        return page.locator(f".cell[data-i='{index(rows, cell)}']").bounding_box()["x"]

    assert x((0, 0)) > x((0, 1)) > x((0, 2))  # reading order runs right to left on screen
    assert active(page) == index(rows, (0, 0))
    page.keyboard.press("ArrowLeft")  # visually left = the next cell in reading order
    assert active(page) == index(rows, (0, 1))
    page.keyboard.press("ArrowRight")
    assert active(page) == index(rows, (0, 0))
    page.keyboard.type(rows[0][:2])  # typing runs right to left too
    assert active(page) == index(rows, (0, 2)) and x((0, 2)) < x((0, 0))
    assert [value(page, rows, (0, c)) for c in range(2)] == list(rows[0][:2])


@pytest.mark.parametrize(("rows", "language"), [(EN_ROWS, EN), (AR_ROWS, AR)])
def test_page_data_holds_the_scrambled_solution_in_reading_order(rows, language):
    from puzzlesearch.crossword.page import unscramble

    page = to_page(grid_of(rows, language), language)
    data = json.loads(page.split('type="application/json">')[1].split("</script>")[0])
    assert (data["width"], data["height"], data["rtl"]) == (len(rows[0]), len(rows), language.rtl)
    assert unscramble(data["solution"]) == "".join(rows)


# ---------------------------------------------------------------- what solvers expect: saved progress, timer, pencil, print, phone


def type_entries(page, entries, filled, first):
    """Type the answers of entries[first:] after a (re)load: Tab from the first entry to each, then type."""
    for k, e in enumerate(entries):
        if k:
            page.keyboard.press("Tab")
        if k < first:
            continue
        assert active_clue(page) == f"{e['number']} {e['dir']}"
        start = next((j for j, cell in enumerate(e["cells"]) if cell not in filled), None)
        if start is not None:
            page.keyboard.type(e["answer"][start:])
        filled.update(e["cells"])


def test_progress_survives_a_reload_and_the_puzzle_reports_itself_solved(open_page):
    rows, page = open_page("en")
    entries = expected_entries(rows)
    half, filled = len(entries) // 2, set()
    type_entries(page, entries[:half], filled, 0)
    typed = {cell: value(page, rows, cell) for cell in filled}
    assert typed and all(typed.values()) and not is_solved(page)
    page.reload()
    assert {cell: value(page, rows, cell) for cell in filled} == typed  # the letters are still there
    type_entries(page, entries, filled, half)
    assert is_solved(page)
    page.reload()
    assert is_solved(page)  # a solved puzzle stays solved after a reload
    assert all(value(page, rows, (r, c)) == ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#")


def test_pencil_letters_are_marked_and_kept(open_page):
    rows, page = open_page("en")
    page.click(f"input[data-i='{index(rows, (0, 0))}']")
    page.click("#pencil")
    assert page.get_attribute("#pencil", "aria-pressed") == "true"
    page.keyboard.type("C")
    pencil_cells = page.evaluate("[...document.querySelectorAll('.cell.pencil input')].map(x => +x.dataset.i)")
    assert pencil_cells == [index(rows, (0, 0))]
    page.reload()
    assert value(page, rows, (0, 0)) == "C"
    assert page.evaluate("document.querySelectorAll('.cell.pencil').length") == 1


def test_timer_runs(open_page):
    rows, page = open_page("en")
    first = page.inner_text("#timer")
    assert re.fullmatch(r"\d+:\d\d", first)
    page.wait_for_timeout(2200)
    assert page.inner_text("#timer") != first


def test_phone_sized_screen_needs_no_sideways_scrolling(browser, pages):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(pages["en"][1].as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        box = page.query_selector("#grid").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    finally:
        context.close()


def test_print_view_puts_grid_and_clues_on_one_page(browser, tmp_path):
    """A 15x15 grid with 78 entries and long clues prints on one A4 page, without the buttons."""
    from puzzlesearch.crossword.fill import american_pattern

    pattern = american_pattern(15, 0.17, 0)
    grid = np.where(pattern != 0, 1, 0).astype(np.int8)  # every white cell 'a' (the page does not need words)
    path = tmp_path / "big.html"
    path.write_text(
        to_page(grid, EN, PuzzleText(lambda w: "A clue of about sixty characters, as long as WordNet's are"))
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        page.emulate_media(media="print")
        assert page.evaluate("getComputedStyle(document.getElementById('toolbar')).display") == "none"
        pdf = page.pdf(format="A4")
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
    finally:
        context.close()


def phrase_enumeration(word: str) -> str:
    """A stand-in for WordTables.enumeration: CRAB read as a two-word phrase."""
    return "2,2" if word.lower() == "crab" else str(len(word))


def test_a_phrase_shows_its_word_lengths_in_the_ipuz_and_on_the_page(browser, tmp_path):
    grid = grid_of(EN_ROWS, EN)
    doc = to_ipuz(grid, EN, PuzzleText(clue_of, phrase_enumeration))
    items = {c["answer"]: c["enumeration"] for d in doc["clues"].values() for c in d}
    assert items["CRAB"] == "2,2" and items["LOT"] == "3" and items["CARE"] == "4"
    path = tmp_path / "phrase.html"
    path.write_text(to_page(grid, EN, PuzzleText(clue_of, phrase_enumeration)), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    page.goto(path.as_uri())
    texts = page.evaluate("[...document.querySelectorAll('.clues li')].map(li => li.textContent)")
    context.close()
    assert any(t.endswith("Test clue, 4 cells (2,2)") for t in texts), texts
    assert any(t.endswith("Test clue, 3 cells (3)") for t in texts), texts
