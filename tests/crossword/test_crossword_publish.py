"""Published crosswords: what `crossword generate` writes is checked again from the files alone.

Every written English puzzle (seeds 0-19, the default settings) has only entries of the
lexicon's raw word list, no lone letter, no entry under 3 letters, a clue for every entry
and none of the abbreviations and rare forms of the issue; a search that ends above cost 0
writes nothing and fails with one line naming the budget.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from puzzlesearch.lexicon import open_lexicon

pytestmark = pytest.mark.slow  # a long file (pipeline runs, byte flips, pages): not in -m "not slow"

SEEDS = 20
MIN_ENTRY = 3  # the schema's crossword.min_entry.en
BANNED = {"kt", "sr", "ms", "pe", "ad", "buhls", "nektons", "algins", "clavus"}  # the default-run examples
DANGLING = ("...", " of", " the", " a", " and", " to", " or", " e.g", " i.e")  # a cut or dangling clue ends like this


def whole_phrasal_lemma(text: str, phrase_tags, wn) -> bool:
    """Is the clue a whole WordNet multiword lemma, its first word maybe inflected ("Came up to":
    come_up_to, "Do away with")? Such a clue ends in a particle without being cut."""
    first, *rest = text.lower().split()
    heads = {first, *(base for base, _, _ in wn.bases(first))}
    return bool(rest) and any("_".join([head, *rest]) in phrase_tags for head in heads)


def run_ps(args, cwd):
    """The real CLI in a subprocess."""
    return subprocess.run([sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, capture_output=True, text=True)


def white_runs(line):
    """(start, length) of the runs of non-'#' cells of a row or column."""
    out, start = [], None
    for i, ch in enumerate(list(line) + ["#"]):
        if ch != "#" and start is None:
            start = i
        elif ch == "#" and start is not None:
            out.append((start, i - start))
            start = None
    return out


def grid_entries(solution):
    """(entries as strings, {cell: number of entries of 2+ letters through it}) read from a solution grid."""
    rows = [[ch if ch != "#" else "#" for ch in row] for row in solution]
    cols = [list(col) for col in zip(*rows)]
    words, cover = [], {}
    for lines, across in ((rows, True), (cols, False)):
        for i, line in enumerate(lines):
            for start, length in white_runs(line):
                if length >= 2:
                    words.append("".join(line[start : start + length]).lower())
                for j in range(start, start + length):
                    cell = (i, j) if across else (j, i)
                    cover[cell] = cover.get(cell, 0) + (length >= 2)
    return words, cover


def written_puzzles(folder, count):
    """(path, grid entries, cells' entry counts, clues) of each .ipuz in folder; there must be `count`."""
    files = sorted(folder.glob("*.ipuz"))
    assert len(files) == count
    for path in files:
        data = json.loads(path.read_text())
        words, cover = grid_entries(data["solution"])
        yield path, words, cover, [c for direction in data["clues"].values() for c in direction]


@pytest.fixture(scope="module")
def generated(project, tmp_path_factory):
    """`crossword generate --lang en` for seeds 0-19 with the default settings."""
    out = tmp_path_factory.mktemp("published")
    res = run_ps(
        ["crossword", "generate", "--lang", "en", "--seeds", str(SEEDS), "--out", str(out), "--quiet"], project
    )
    assert res.returncode == 0, res.stderr
    return out


def test_every_written_english_puzzle_is_valid(generated, config, project, wordnet_phrases, wordnet_phrase_tags):
    from puzzlesearch.lexicon import constructors
    from puzzlesearch.lexicon.wordinfo import load_wordnet

    wn = load_wordnet()

    lexicon = set(open_lexicon("default", config, project).words["word"])
    raw = lexicon | wordnet_phrases | set(constructors.open_list().scores())  # the default list's sources
    for path, words, cover, clues in written_puzzles(generated, SEEDS):
        assert words and set(words) <= raw, f"{path.name}: {sorted(set(words) - raw)}"
        assert not set(words) & BANNED, f"{path.name}: {sorted(set(words) & BANNED)}"
        assert min(len(w) for w in words) >= MIN_ENTRY, path.name
        assert all(n == 2 for n in cover.values()), f"{path.name}: a white cell outside an across and a down entry"
        assert len(clues) == len(words)
        for c in clues:
            text = c["clue"]
            assert text and not text.startswith("("), f"{path.name}: {c['answer']} has no clue"
            blank = "___" in text  # fill-in-the-blank: a whole phrase with a gap ("In ___ to": contrast)
            dangling = (
                text.lower().endswith(DANGLING) and not blank and not whole_phrasal_lemma(text, wordnet_phrase_tags, wn)
            )
            assert not dangling, f"{path.name}: {c['answer']}: {text!r}"


AR_SEEDS = 1  # the 20 seeds of the benchmark figure (docs/crossword.md) cost ~10 CPU s each
AR_DANGLING = {"من", "إلى", "عن", "على", "في", "نحو"}  # an Arabic meaning cut mid-phrase ends in one of these


def test_written_arabic_puzzles_are_american_style_and_fully_clued(project, config, tmp_path):
    """`crossword generate --lang ar` with the defaults: lexicon words of 3+ letters, every cell in two
    entries, every entry clued (Arramooz or the particles list), no clue cut mid-phrase."""
    out = tmp_path / "ar"
    args = ["crossword", "generate", "--lang", "ar", "--seeds", str(AR_SEEDS), "--out", str(out), "--quiet"]
    res = run_ps(args, project)
    assert res.returncode == 0, res.stderr
    raw = set(open_lexicon("arabic", config, project).words["word"])
    for path, words, cover, clues in written_puzzles(out, AR_SEEDS):
        answers = [c["answer"] for c in clues]
        assert sorted(answers) == sorted(w if w in answers else w[::-1] for w in words)  # across read right to left
        assert set(answers) <= raw and min(len(w) for w in answers) >= MIN_ENTRY, path.name
        assert all(n == 2 for n in cover.values()), f"{path.name}: a white cell outside an across and a down entry"
        for c in clues:
            assert c["clue"] and c["clue"].split()[-1] not in AR_DANGLING, (path.name, c)


def test_a_search_above_cost_zero_writes_nothing(project, tmp_path):
    out = tmp_path / "none"
    args = ["crossword", "generate", "--strategy", "fill1", "--max-pops", "1", "--max-down", "8", "--out", str(out)]
    res = run_ps(args, project)
    errors = [line for line in res.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert len(errors) == 1 and "no grid of cost 0" in errors[0] and "crossword.max_pops" in errors[0]
    assert not out.exists() or not any(out.iterdir())


def test_an_unfillable_pattern_budget_is_named(project, tmp_path):
    out = tmp_path / "none"
    args = ["crossword", "generate", "--size", "15", "--set", "pattern_nodes=1", "--max-pops", "3", "--out", str(out)]
    res = run_ps(args, project)
    errors = [line for line in res.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert res.returncode == 2 and len(errors) == 1 and "raise crossword.max_pops" in errors[0], res.stderr
    assert not out.exists() or not any(out.iterdir())


def test_lone_letters_become_black():
    import numpy as np

    from puzzlesearch.crossword.model import lone_cells, without_lone_letters

    grid = np.array([[1, 0, 2], [0, 0, 3], [4, 5, 6]], dtype=np.int8)  # (0, 0) is alone; the rest are in runs
    assert lone_cells(grid).tolist() == [[True, False, False], [False, False, False], [False, False, False]]
    fixed = without_lone_letters(grid)
    assert fixed[0, 0] == 0 and (fixed[grid != 0][1:] == grid[grid != 0][1:]).all()
