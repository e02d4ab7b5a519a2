"""The playable Bee page in a real headless browser (Playwright with Debian's chromium).

The puzzle is a hand-made word list over ACEILNT/T (words need not be real); its answers,
points and ranks are worked out here by the published rules, not by the code under test.
Skips when chromium or playwright is missing, unless PUZZLESEARCH_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

from collections import Counter

import polars as pl
import pytest
from crossword.test_crossword_page import browser  # noqa: F401  (the shared chromium fixture and its skip rule)

from puzzlesearch.bee.hints import hints_page
from puzzlesearch.bee.page import play_page
from puzzlesearch.bee.schedule import scheduled_puzzle
from puzzlesearch.bee.settings import ScheduleRules
from puzzlesearch.lexicon.model import letter_mask

LETTERS, CENTER = "ACEILNT", "T"
WORDS = ["tile", "tint", "latent", "entail", "client", "tenant", "lactic", "ancient", "canticle", "tale", "lint"]
NOT_ANSWERS = ["lane", "nice"]  # the letters fit, no center: "Missing center letter"
RANKS = ScheduleRules().rank_list()


def points_of(word: str) -> int:
    """1 for 4 letters, else 1 a letter, +7 for a pangram."""
    return (1 if len(word) == 4 else len(word)) + (7 if len(set(word)) == 7 else 0)


def hand_table() -> pl.DataFrame:
    """A Bee word list of the hand-made words (answers and NOT_ANSWERS)."""
    words = WORDS + NOT_ANSWERS
    return pl.DataFrame(
        {
            "word": words,
            "length": [len(w) for w in words],
            "mask": [letter_mask(w) for w in words],
            "distinct": [len(set(w)) for w in words],
            "frequency": [100] * len(words),
            "zipf": [3.0] * len(words),
        },
        schema_overrides={"length": pl.Int16, "mask": pl.UInt32, "distinct": pl.Int16},
    )


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    """The playable page of the hand-made puzzle."""
    rules = ScheduleRules(schedule_min_words=1, schedule_max_words=50)
    puzzle = scheduled_puzzle(1, LETTERS, CENTER, hand_table(), rules)
    assert sorted(puzzle.answers["word"].to_list()) == sorted(WORDS)
    path = tmp_path_factory.mktemp("bee_page") / "day-001.html"
    path.write_text(play_page(puzzle, [r.name for r in RANKS], 4, 0), encoding="utf-8")
    return path


def type_word(page, word: str) -> None:
    """Type a word on the keyboard and press Enter."""
    page.keyboard.type(word)
    page.keyboard.press("Enter")


def message_after(page, word: str) -> str:
    """The message the game shows after a word is entered."""
    type_word(page, word)
    page.wait_for_selector("#message span")
    return page.inner_text("#message span")


def test_every_answer_reaches_queen_bee_and_a_reload_keeps_them(browser, page_file, tmp_path):  # noqa: F811
    total = sum(points_of(w) for w in WORDS)
    page = browser.new_page()
    page.goto(page_file.as_uri())
    assert page.inner_text("#rank") == "Beginner"
    requests = []
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith("file:") else None)
    for i, word in enumerate(WORDS):
        type_word(page, word)
        assert int(page.inner_text("#score")) == sum(points_of(w) for w in WORDS[: i + 1])
    assert int(page.inner_text("#score")) == total
    assert page.inner_text("#rank") == "Queen Bee"
    pangrams = [w for w in WORDS if set(w) == set(LETTERS.lower())]
    assert [w.lower() for w in page.locator("#found li.pangram").all_inner_texts()] == pangrams == ["canticle"]
    page.screenshot(path=str(tmp_path / "bee.png"))
    assert (tmp_path / "bee.png").stat().st_size > 10_000
    page.reload()
    assert sorted(w.lower() for w in page.locator("#found li").all_inner_texts()) == sorted(WORDS)
    assert page.inner_text("#rank") == "Queen Bee" and int(page.inner_text("#score")) == total
    assert requests == []
    page.close()


def test_each_error_message_appears_for_its_case(browser, page_file):  # noqa: F811
    page = browser.new_page()
    page.goto(page_file.as_uri())
    assert message_after(page, "tin") == "Too short"
    assert message_after(page, "lane") == "Missing center letter"
    assert message_after(page, "tacit") == "Not in word list"
    assert message_after(page, "tile").startswith("Good!")
    assert message_after(page, "tile") == "Already found"
    page.close()


def test_clicks_shuffle_delete_hints_and_reveal(browser, page_file):  # noqa: F811
    page = browser.new_page()
    page.goto(page_file.as_uri())
    page.evaluate("localStorage.clear()")
    page.reload()
    for letter in "tilex":
        if letter in LETTERS.lower():
            page.click(f'#hive g[data-letter="{letter}"]')
    page.click("#shuffle")
    page.click("#delete")
    assert page.inner_text("#input").lower() == "til"
    page.click(f'#hive g[data-letter="{"e"}"]')
    page.click("#enter")
    assert [w.lower() for w in page.locator("#found li").all_inner_texts()] == ["tile"]
    assert not page.is_visible("#hintsbox")
    page.click("#toggle-hints")
    assert page.is_visible("#hintsbox") and f"WORDS: {len(WORDS)}" in page.inner_text("#hintsbox")
    page.click("#reveal")
    assert sorted(w.lower() for w in page.locator("#answers li").all_inner_texts()) == sorted(WORDS)
    assert page.locator("#answers li.missed").count() == len(WORDS) - 1
    letters = sorted(page.locator("#hive g").evaluate_all("gs => gs.map(g => g.dataset.letter)"))
    assert "".join(letters) == LETTERS.lower()
    page.close()


def test_the_hints_page_shows_the_counts_worked_out_by_hand(browser, tmp_path):  # noqa: F811
    puzzle = scheduled_puzzle(1, LETTERS, CENTER, hand_table(), ScheduleRules(schedule_min_words=1))
    path = tmp_path / "hints-001.html"
    path.write_text(hints_page(puzzle.hints, "ACEILNT / T — hints"), encoding="utf-8")
    page = browser.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith("file:") else None)
    page.goto(path.as_uri())
    total = sum(points_of(w) for w in WORDS)
    pangrams = sum(set(w) == set(LETTERS.lower()) for w in WORDS)
    assert page.inner_text(".hint-totals") == f"WORDS: {len(WORDS)}, POINTS: {total}, PANGRAMS: {pangrams}"
    rows = page.eval_on_selector_all(
        ".hint-grid tr", "rows => rows.map(r => [...r.children].map(c => c.innerText.trim()))"
    )
    lengths = [int(n) for n in rows[0][1:-1]]
    by_hand = Counter((w[0].upper(), len(w)) for w in WORDS)
    assert lengths == sorted({len(w) for w in WORDS})
    for row in rows[1:-1]:
        first = row[0].rstrip(":")
        counts = [0 if c == "-" else int(c) for c in row[1:-1]]
        assert counts == [by_hand[first, n] for n in lengths] and int(row[-1]) == sum(counts)
    assert {r[0].rstrip(":") for r in rows[1:-1]} == {w[0].upper() for w in WORDS}
    assert rows[-1][1:] == [str(Counter(len(w) for w in WORDS)[n]) for n in lengths] + [str(len(WORDS))]
    shown = " ".join(page.locator(".two-letters p").all_inner_texts()).split()
    assert sorted(shown) == sorted(f"{k}-{v}" for k, v in Counter(w[:2].upper() for w in WORDS).items())
    page.screenshot(path=str(tmp_path / "hints.png"), full_page=True)
    assert not requests  # self-contained
