"""Shared fixtures: the ../shared folder (word lists, facts) and lexicons built from it."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml

from puzzlesearch.config import validate_config
from puzzlesearch.lexicon import open_lexicon

PROJECT = Path(__file__).resolve().parents[1]
SHARED = PROJECT.parent / "shared"
# The config of the `project` fixture: the builtin English and Arabic word lists (crossword tests).
PROJECT_CONFIG_TEXT = "lexicons:\n  default: builtin:en\n  arabic: {source: builtin:ar, alphabet: arabic}\n"

# Interactive commands build into an artifact store; the tests use their own, never the
# project's results/store or the user's cache (subprocesses inherit the variable). The main
# pytest process makes one temporary store; its pytest-xdist workers inherit the variable
# (they start after this module is imported), so one run shares one store (its lock builds
# each table once), and the main process deletes it when the run ends (~850 MB of tables).
OWN_STORE_VARIABLE = "PUZZLESEARCH_TEST_STORE"  # set by the process that made the store
if not os.environ.get("PUZZLESEARCH_TEST_KEEP_STORE"):
    if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(OWN_STORE_VARIABLE):
        os.environ["PUZZLESEARCH_STORE"] = os.environ[OWN_STORE_VARIABLE]
    else:
        _own_store = tempfile.mkdtemp(prefix="puzzlesearch-store-")
        os.environ["PUZZLESEARCH_STORE"] = os.environ[OWN_STORE_VARIABLE] = _own_store

        def pytest_unconfigure(config):
            """Delete the run's temporary store (the main process made it; workers only use it)."""
            shutil.rmtree(_own_store, ignore_errors=True)


# The longest test files, longest first: pytest-xdist hands out whole files (`--dist loadfile`)
# in collection order (`--no-loadscope-reorder`), so starting these first keeps a long file
# from running alone at the end. Seconds of one serial run (2026-11-26, `--durations=0`);
# the other files follow in their usual order.
LONGEST_FILES = (
    "workflow/test_slurm.py",  # 220 s
    "workflow/test_robustness.py",  # 178
    "crossword/test_crossword.py",  # 150 with the next two, before they were split out of it
    "crossword/test_crossword_budgets.py",
    "crossword/test_crossword_cli.py",
    "boggle/test_boggle_results_checked.py",  # 117
    "report/test_report.py",  # 116
    "cube/test_cube_artifacts.py",  # 98 (less since its store test seeds the store, 2026-11-29)
    "boggle/test_proof.py",  # 81
    "boggle/test_boggle_workflow.py",  # 68
    "workflow/test_pipeline.py",  # 63
    "workflow/test_cluster.py",  # 61
    "crossword/test_crossword_byte_flips.py",  # 56
    "bee/test_pipeline_bee.py",  # 56
    "cube/test_cube_byte_flips.py",  # 52
    "crossword/test_pipeline_crossword.py",  # 52
    "lexicon/test_lexicon_byte_flips.py",  # 43 (134 before it loaded the flipped file's DAWG first)
    # the next longest, in worker seconds of a 3-worker run on a loaded machine (2026-12-07, about 2.2x
    # a clean run's), so that `-m "not slow"` stays a quick subset:
    "bee/test_acceptance.py",  # 237
    "crossword/test_crossword_clues.py",  # 208
    "crossword/test_crossword_fill.py",  # 201
    "boggle/test_boggle_pipeline_mode.py",  # 200
    "core/test_robustness_cli.py",  # 171
    "boggle/test_proof_tree.py",  # 159
    "cube/test_cube_crafted_tables.py",  # 146
    "cube/test_optimal_coset.py",  # 137
    "bee/test_schedule.py",  # 130
    "crossword/test_crossword_bounded.py",  # 117
)


def pytest_collection_modifyitems(config, items):
    """Put the tests of LONGEST_FILES first, longest file first (a stable sort: order within a file is kept),
    and mark them `slow`: `pytest -m "not slow"` is the quick subset (docs/development.md)."""
    rank = {PROJECT / "tests" / name: i for i, name in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: rank.get(Path(item.path), len(rank)))
    for item in items:
        if Path(item.path) in rank:
            item.add_marker(pytest.mark.slow)


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


@pytest.fixture(scope="session")
def project(tmp_path_factory) -> Path:
    """A temporary project root (empty Snakefile, config.yaml with the builtin word lists).

    One per session: the crossword tests write only under its results/cli (tables go to the
    session's artifact store), and test files that need another project define their own.
    """
    root = tmp_path_factory.mktemp("project")
    (root / "Snakefile").write_text("")
    (root / "config.yaml").write_text(PROJECT_CONFIG_TEXT)
    return root


@pytest.fixture(scope="session")
def config() -> dict:
    """The validated config of the `project` fixture (defaults filled in)."""
    return validate_config(yaml.safe_load(PROJECT_CONFIG_TEXT))


@pytest.fixture(scope="session")
def cube_tables():
    """Every cube move and pruning table, built once per session into the session's artifact store.

    About 30 s on an idle machine, plus numba compilation; every later store user reuses the
    build. PUZZLESEARCH_TEST_CUBE_TABLES=DIR uses a folder built before (verified like any
    other) instead, to iterate on tests quickly.
    """
    from puzzlesearch.cube.tables.phases import Tables, store_tables

    given = os.environ.get("PUZZLESEARCH_TEST_CUBE_TABLES")
    return Tables(given) if given else store_tables()


@pytest.fixture(scope="session")
def wordnet_phrase_tags() -> dict[str, int]:
    """WordNet's multiword lemmas (at_a_loss) and the senses its concordance tags, read from its index files here."""
    from puzzlesearch.lexicon.wordinfo import POS_FILES, wordnet_dir

    out: dict[str, int] = {}
    for pos in POS_FILES:
        with open(wordnet_dir() / f"index.{pos}", encoding="latin-1") as fh:
            for line in fh:
                f = line.split()
                if line.startswith(" ") or "_" not in f[0]:
                    continue
                n_ptr = int(f[3])
                out[f[0]] = out.get(f[0], 0) + int(f[5 + n_ptr])
    return out


@pytest.fixture(scope="session")
def wordnet_phrases(wordnet_phrase_tags) -> set[str]:
    """WordNet's multiword lemmas as grid entries (at_a_loss: ataloss)."""
    return {lemma.replace("_", "") for lemma in wordnet_phrase_tags}
