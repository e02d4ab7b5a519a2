"""Boggle test fixtures: the ENABLE2K scorer and the brute-force reference's word and prefix sets."""

from __future__ import annotations

import pytest

from puzzlesearch.boggle.reference import boggle_words, prefixes
from puzzlesearch.boggle.score import Scorer


@pytest.fixture(scope="module")
def scorer(enable2k):
    return Scorer.for_lexicon(enable2k)


@pytest.fixture(scope="module")
def reference(enable2k):
    words = boggle_words(enable2k.words["word"].to_list())
    return words, prefixes(words)
