"""Fixtures of the crossword tests: the English tables and language, built once per worker."""

from __future__ import annotations

import pytest
from crossword_testing import (  # the shared helpers of the crossword tests
    run_ps,
)

from puzzlesearch.crossword.tables import (
    open_tables,
)
from puzzlesearch.lexicon import constructors, open_lexicon
from puzzlesearch.lexicon.wordinfo import load_wordnet


@pytest.fixture(scope="session")
def english(config, project):
    """The default English tables (no frequency floor) and their word set: every word comes from the default
    lexicon, WordNet's phrases or the constructors' list (names, abbreviations and blocked words are left out)."""
    tables = open_tables("en", config, project, 0)
    words = {w for L in range(2, tables.width + 1) for w in tables.words_of_length(L)}
    sources = set(open_lexicon("default", config, project).words["word"]) | set(load_wordnet().phrases)
    assert words <= sources | set(constructors.open_list().scores())
    return tables, words


@pytest.fixture(scope="module")
def cli_generated(project, english):
    """`crossword generate` without --out (3 seeds of 8x8, the default settings), run in the project folder."""
    out = run_ps(["crossword", "generate", "--size", "8", "--seeds", "3"], project)
    return out.stdout, project / "results" / "cli" / "crossword" / "en" / "8"
