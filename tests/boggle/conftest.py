"""Boggle test fixtures: the ENABLE2K scorer, the brute-force reference's word and prefix sets, a project folder."""

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


@pytest.fixture(scope="module")
def project(enable2k, tmp_path_factory):
    """A project folder of its own (config.yaml naming enable2k; the lexicon is in the tests' store)."""
    import yaml

    root = tmp_path_factory.mktemp("boggle_project")
    config = {"lexicons": {"enable2k": enable2k.spec.source}, "default_lexicon": "enable2k"}
    (root / "config.yaml").write_text(yaml.safe_dump(config))
    return root
