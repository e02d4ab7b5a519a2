"""Shared fixtures: the ../shared folder (word lists, facts) and lexicons built from it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from puzzlesearch.lexicon import open_lexicon

PROJECT = Path(__file__).resolve().parents[1]
SHARED = PROJECT.parent / "shared"

# Interactive commands build into an artifact store; the tests use their own, never the
# project's results/store or the user's cache (subprocesses inherit the variable).
if not os.environ.get("PUZZLESEARCH_TEST_KEEP_STORE"):
    os.environ["PUZZLESEARCH_STORE"] = tempfile.mkdtemp(prefix="puzzlesearch-store-")
# Snakemake's between-workflow output cache, used only by runs that pass pipeline_util.CUBE_TABLE_CACHE
# (pipeline tests about something else than the cube tables get them built once per session).
os.environ["SNAKEMAKE_OUTPUT_CACHE"] = tempfile.mkdtemp(prefix="puzzlesearch-smk-cache-")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the project; tests that need it skip when it is absent."""
    if not (SHARED / "wordlists").is_dir():
        pytest.skip(f"{SHARED} is absent: the shared word lists and facts live there")
    return SHARED


@pytest.fixture(scope="session")
def shared_lexicon(shared_dir, tmp_path_factory):
    """Factory: shared_lexicon('enable2k') -> Lexicon built from ../shared/wordlists/enable2k.txt.

    Artifacts are built once per test session into a temporary project folder.
    """
    root = tmp_path_factory.mktemp("lexicons")
    cache = {}

    def get(name: str):
        if name not in cache:
            path = shared_dir / "wordlists" / f"{name}.txt"
            cache[name] = open_lexicon(name, config={"lexicons": {name: str(path)}}, root=root)
        return cache[name]

    return get


@pytest.fixture(scope="session")
def enable2k(shared_lexicon):
    """The ENABLE2K lexicon (words, dawg, boggle_dawg)."""
    return shared_lexicon("enable2k")
