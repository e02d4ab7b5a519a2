"""Issue 59: the constructors' list as the default English list and themeless 15x15 (the clues: test_cluewriter).

Checked against independent facts: English inflection (big -> biggest, stop -> stopped) as any
dictionary gives it, WordNet's own synsets (LARGE and BIG share the commonest adjective sense),
the Spread the Wordlist's scores as blacksquare gives them (score = 100 x s), and a themeless
grid's definition (180-degree symmetry, <= 72 entries, every entry 3+ letters, every cell checked).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from puzzlesearch.config import validate_config
from puzzlesearch.crossword.io import entries
from puzzlesearch.crossword.model import slots
from puzzlesearch.crossword.search import generate
from puzzlesearch.crossword.settings import GenerateSettings
from puzzlesearch.crossword.tables import open_language
from puzzlesearch.lexicon import constructors

PROJECT = Path(__file__).resolve().parents[2]


def test_the_list_artifact_is_blacksquares_list_scaled():
    from blacksquare import DEFAULT_WORDLIST

    listed = constructors.open_list()
    assert listed.meta["license"] == "CC BY-NC-SA 4.0"
    scores = listed.scores()
    sample = list(zip(DEFAULT_WORDLIST.words, DEFAULT_WORDLIST.scores))[::997]
    for word, s in sample:
        if word.isalpha() and word.isascii():
            assert scores[word.lower()] >= round(100 * s)  # the best score of its spellings
    assert len(scores) > 300_000


@pytest.fixture(scope="module")
def themeless(tmp_path_factory):
    """(tables of clued words at the generation floor, language, settings of --style themeless)."""
    root = tmp_path_factory.mktemp("themeless")
    (root / "workflow").symlink_to(PROJECT / "workflow")
    with_list = {"quality": {"constructors": True}, "min_score": {"en": 80, "ar": 61, "num": 0}}  # the list's 40
    config = validate_config({"lexicons": {"default": "builtin:en"}, "crossword": with_list}, root)
    settings = GenerateSettings.for_job(config["crossword"], "en", 15).themeless(config["crossword"])
    settings = settings.replace(time_budget=1e5)  # bounded by max_pops (the same grid on any machine)
    tables, language = open_language(
        "en", config, root, 0, None, settings.min_score, settings.min_entry, clued_only=True
    )
    return tables, language, settings


def test_a_themeless_15x15_is_symmetric_open_and_fully_clued(themeless):
    tables, language, settings = themeless
    g = generate(tables, language, settings, 0, progress=False)  # seed 0: 4 patterns, about 5 s
    white = g.grid != 0
    assert g.cost5 == 0 and np.array_equal(white, white[::-1, ::-1])
    runs = slots(white, min_length=1)
    assert len([s for s in runs if s.length >= 2]) <= 72 and min(s.length for s in runs) >= 3
    found = entries(g.grid, language.alphabet)
    assert all(tables.clue(e.answer) for e in found)  # every entry clued
    across = {(r, c) for e in found if e.direction == "across" for r, c in _cells(e)}
    down = {(r, c) for e in found if e.direction != "across" for r, c in _cells(e)}
    assert across == down == {tuple(x) for x in np.argwhere(white)}  # every cell checked


def _cells(e):
    n = len(e.answer)
    return [(e.row, e.col + i) if e.direction == "across" else (e.row + i, e.col) for i in range(n)]
