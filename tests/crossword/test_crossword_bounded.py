"""Every crossword search ends (issue 62 items 6-8) and a word;score list given as the lexicon is read
(issue 62 item 9, issue 59): each case below failed on the code before the fix.

- generate with a lexicon whose patterns all fail at 0 nodes ran 420 s: such attempts now count
  against max_pops, and the time cap runs on the wall clock from the start;
- generate --size 40 spent minutes making patterns in Python: the patterns' making sees the cap;
- build-tables --numeric with max_factor 9999 built ~50 million products: the schema bounds it
  (999, built in about a second) and the clues come from the products' factor pairs at once;
- `crossword fill --lexicon FILE` with word;score lines dropped every line and died in a TypeError.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from puzzlesearch.crossword import search
from puzzlesearch.crossword.clues import numeric_clue
from puzzlesearch.crossword.fill import FillSettings, PatternDeadline, american_pattern, fill
from puzzlesearch.crossword.model import slots
from puzzlesearch.crossword.settings import GenerateSettings, TableSettings
from puzzlesearch.crossword.tables import (
    build_tables,
    language_of,
    load_tables,
    numeric_words,
    read_scored_list,
    score_file,
)
from puzzlesearch.errors import PuzzleError

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"


@pytest.fixture(scope="module")
def numeric(tmp_path_factory):
    """Numeric tables of max_factor 20: words of 1 to 3 digits only."""
    npz = tmp_path_factory.mktemp("num") / "tables.npz"
    build_tables(npz, None, TableSettings(max_factor=20))
    tables = load_tables(npz, min_entry=3)
    search._load_fill_kernels(tables)  # kernel loading (a first compile) is outside the timed bounds
    return tables, language_of("num", tables)


def settings_for(size: int, **kw) -> GenerateSettings:
    return GenerateSettings(
        **{"size": size, "strategy": "pattern", "min_entry": 3, "min_score": 0, "max_across": size, **kw}
    )


def test_attempts_failing_at_zero_nodes_count_against_max_pops(numeric):
    # 5x5 patterns have slots of 4-5 letters, which no product of 2..20 spells: every fill fails at once
    tables, language = numeric
    t = time.perf_counter()
    with pytest.raises(PuzzleError, match=r"crossword.max_pops=30 fill nodes \(30 patterns") as err:
        search.generate(tables, language, settings_for(5, max_pops=30, time_budget=1e5), 0, progress=False)
    assert time.perf_counter() - t < 30, "a bounded search"
    assert "\n" not in str(err.value)


def test_the_time_cap_is_wall_clock_from_the_start(numeric):
    # no work limit (max_pops 0): only the cap stops it, the failed attempts' time included
    tables, language = numeric
    t = time.perf_counter()
    with pytest.raises(PuzzleError, match=r"crossword.time_budget=1s"):
        search.generate(tables, language, settings_for(5, max_pops=0, time_budget=1.0), 0, progress=False)
    assert time.perf_counter() - t < 1.0 + 10, "stopped near the cap"


def test_making_a_big_pattern_sees_the_cap(numeric):
    with pytest.raises(PatternDeadline):
        american_pattern(40, 0.17, 0, 3, 15, deadline=time.perf_counter())
    tables, language = numeric
    search._load_fill_kernels(tables)  # a fresh clone compiles them here (the cap excludes kernel loading)
    t = time.perf_counter()
    with pytest.raises(PuzzleError, match=r"crossword.time_budget=0.5s"):
        search.generate(tables, language, settings_for(40, max_pops=50, time_budget=0.5), 0, progress=False)
    assert time.perf_counter() - t < 0.5 + 10


def test_no_eligible_word_is_one_line_before_any_pattern(numeric):
    tables, language = numeric
    with pytest.raises(PuzzleError, match="no eligible word of 4 to 5 letters"):
        search.generate(tables, language, settings_for(5, max_pops=10, min_entry=4), 0, progress=False)


def test_numeric_clues_are_the_most_balanced_pairs():
    words = numeric_words(60)
    # brute force: every product of 2 <= x <= y <= 60 and its pair of the largest x
    want = {}
    for x in range(2, 61):
        for y in range(x, 61):
            want[x * y] = f"{x}*{y}"  # x grows: the last pair written is the most balanced
    assert dict(zip(map(int, words["word"]), words["clue"])) == want
    assert all(numeric_clue(w, 60) == c for w, c in zip(words["word"], words["clue"]))


def test_a_max_factor_beyond_the_bound_is_one_line(tmp_path):
    out = subprocess.run(
        [
            str(PUZZLESEARCH),
            "crossword",
            "build-tables",
            "--settings",
            json.dumps({"max_factor": 9999}),
            "--numeric",
            "--out",
            str(tmp_path / "t" / "tables.npz"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode == 2 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert "max_factor" in lines[0] and "999" in lines[0]
    assert not (tmp_path / "t").exists()


# ---------------------------------------------------------------- word;score lists

# a 3x3 square whose rows and columns are six distinct words: ACE PAR EYE across, APE CAY ERE down
SQUARE_WORDS = {"ace": 50, "par": 40, "eye": 45, "ape": 30, "cay": 20, "ere": 35}


def test_a_word_score_list_is_read_as_the_lexicon(tmp_path):
    path = tmp_path / "list.txt"
    lines = [f"{w.upper()};{s}" for w, s in SQUARE_WORDS.items()] + ["# a comment", "Rank and File;50", "x-ray;10"]
    path.write_text("\n".join(lines) + "\n")
    assert score_file(str(path)) and not score_file(str(PROJECT / "README.md"))
    listed = read_scored_list(path, replace=True)
    assert listed.scores == {**SQUARE_WORDS, "rankandfile": 50, "xray": 10}
    npz = tmp_path / "t" / "tables.npz"
    build_tables(npz, None, TableSettings(phrases=True), listed)
    tables = load_tables(npz, min_score=20, min_entry=3)
    assert {w: tables.score(w) for w in SQUARE_WORDS} == SQUARE_WORDS  # the list's scores, as given
    assert tables.phrase_map.get("rankandfile") == "rank and file"  # WordNet's word breaks
    assert tables.contains("cay") and not tables.contains("xray")  # below the floor 20
    words = set(tables.words_of_length(3))
    assert words == set(SQUARE_WORDS)  # nothing but the list's words (no phrase added)
    result = fill(np.full((3, 3), -1, dtype=np.int8), tables, FillSettings(distinct_stems=False), 0, progress=False)
    grid_words = {
        "".join(tables.alphabet.letters[result.grid[r, c] - 1] for r, c in s.cells()) for s in slots(result.grid != 0)
    }
    assert grid_words == set(SQUARE_WORDS)  # the only 3x3 of six distinct list words


def test_a_bad_word_score_line_is_one_line(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("ace;50\npar;fifty\n")
    with pytest.raises(PuzzleError, match=r"line 2: expected word;score"):
        read_scored_list(path)
