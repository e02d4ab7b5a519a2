"""Crossword: cost kernel vs brute force, generated grids vs the word list, numeric clues,
.ipuz structure, fixed-pattern fill, errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from puzzlesearch.cli import main
from puzzlesearch.crossword import kernels
from puzzlesearch.crossword.fill import FillSettings, NoFill, fill
from puzzlesearch.crossword.io import read_pattern, to_html, to_ipuz
from puzzlesearch.crossword.model import Alphabet, Language, runs, slot_word, slots
from puzzlesearch.crossword.search import SearchSettings, generate
from puzzlesearch.crossword.tables import WordTables, build_arrays, numeric_words, open_tables
from puzzlesearch.config import validate_config

PROJECT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="session")
def project(tmp_path_factory):
    """A temporary project root: config.yaml with the builtin English list, the schemas."""
    root = tmp_path_factory.mktemp("cwproject")
    shutil.copytree(PROJECT / "workflow" / "schemas", root / "workflow" / "schemas")
    (root / "config.yaml").write_text("lexicons:\n  default: builtin:en\n")
    return root


@pytest.fixture(scope="session")
def config(project):
    return validate_config({"lexicons": {"default": "builtin:en"}}, project)


@pytest.fixture(scope="session")
def english(config, project):
    """The default English lexicon's tables (no frequency floor) and its word set."""
    tables = open_tables("default", config, project, 0)
    words = set(pl.read_parquet(project / "results" / "lexicon" / "default" / "words.parquet")["word"])
    return tables, words


def english_language(tables):
    return Language("en", tables.name, tables.alphabet, tables.alphabet.letters)


def down_words(grid, alphabet):
    """Every vertical run of 2+ letters, read straight from the grid."""
    out = []
    for c in range(grid.shape[1]):
        for start, length in runs(grid[:, c] != 0):
            if length >= 2:
                out.append(alphabet.decode(grid[start:start + length, c]))
    return out


def across_words(grid, alphabet):
    return [alphabet.decode(grid[r, s:s + n]) for r in range(grid.shape[0])
            for s, n in runs(grid[r] != 0) if n >= 2]


# ---------------------------------------------------------------- cost

def brute_cost(grid, alphabet, words, floor_ok):
    """f = unknown letters + 0.2 x scrambled letters, in units of 0.2, by plain Python."""
    known = {w for w in words if floor_ok[w]}
    anagrams = {"".join(sorted(w)) for w in known}
    total = 0
    for w in down_words(grid, alphabet):
        if w in known:
            continue
        total += len(w) if "".join(sorted(w)) in anagrams else 5 * len(w)
    return total


def test_cost_matches_brute_force():
    rng = np.random.default_rng(7)
    letters = "abcde"
    alphabet = Alphabet(letters)
    pool = sorted({"".join(rng.choice(list(letters), size=rng.integers(2, 6))) for _ in range(400)})
    freq = rng.integers(0, 100, size=len(pool))
    tables = WordTables("tiny", alphabet, build_arrays(pl.DataFrame(
        {"word": pool, "length": [len(w) for w in pool], "frequency": freq}), letters), min_frequency=30)
    floor_ok = {w: f >= 30 for w, f in zip(pool, freq)}
    for trial in range(300):
        n = int(rng.integers(2, 9))
        grid = rng.integers(1, 6, size=(n, n)).astype(np.int8)
        grid[rng.random((n, n)) < rng.random() * 0.5] = 0
        if trial % 3 == 0:  # plant real words so that known and scrambled cases occur
            for c in range(n):
                w = pool[int(rng.integers(len(pool)))]
                if len(w) <= n:
                    grid[:len(w), c] = alphabet.encode(w)
                    if len(w) < n:
                        grid[len(w), c] = 0
                    if c % 2:
                        grid[:len(w), c] = grid[:len(w), c][::-1]
        got = kernels.grid_cost(grid, *tables.kernel_args())
        assert got[0] == brute_cost(grid, alphabet, pool, floor_ok)
        assert got[0] == 5 * got[1] + got[2]


# ---------------------------------------------------------------- generation

def test_generated_english_grid_words_are_in_the_word_list(english):
    tables, words = english
    settings = SearchSettings(size=12, max_down=4, time_budget=30)
    g = generate(tables, english_language(tables), settings, seed=1, progress=False)
    assert g.cost == 0
    downs = down_words(g.grid, tables.alphabet)
    assert downs and all(len(w) <= 4 for w in downs)
    assert all(w in words for w in downs), [w for w in downs if w not in words]
    assert all(w in words for w in across_words(g.grid, tables.alphabet))


def test_generated_grid_is_reproducible(english):
    tables, _ = english
    settings = SearchSettings(size=8, max_down=3, time_budget=30, max_pops=200)
    a = generate(tables, english_language(tables), settings, seed=5, progress=False)
    b = generate(tables, english_language(tables), settings, seed=5, progress=False)
    assert np.array_equal(a.grid, b.grid) and a.cost5 == b.cost5


def test_numeric_puzzle_words_are_products_with_correct_clues(config, project):
    from puzzlesearch.crossword.io import clue_function, entries
    from puzzlesearch.crossword.search import open_language

    tables, language = open_language("num", config, project)
    g = generate(tables, language, SearchSettings(size=10, max_across=4, max_down=4, time_budget=30),
                 seed=0, progress=False)
    assert g.cost == 0
    clue = clue_function(language, config["crossword"])
    ents = entries(g.grid, language.alphabet, clue)
    assert ents
    for e in ents:
        x, y = map(int, e.clue.split("*"))
        assert 2 <= x <= y <= 99 and str(x * y) == e.answer
    fillers = [g.grid[r, c] for r in range(10) for c in range(10)
               if g.grid[r, c] and (c == 0 or not g.grid[r, c - 1]) and (c == 9 or not g.grid[r, c + 1])]
    assert all(language.alphabet.letters[f - 1] in "123456789" for f in fillers)
    products = {str(x * y) for x in range(2, 100) for y in range(x, 100)}
    assert set(numeric_words(99)["word"]) == products


# ---------------------------------------------------------------- ipuz / html

def check_ipuz(doc, grid, language):
    doc = json.loads(json.dumps(doc))
    for key in ("version", "kind", "dimensions", "puzzle", "solution", "clues"):
        assert key in doc
    assert doc["version"] == "http://ipuz.org/v2" and doc["kind"] == ["http://ipuz.org/crossword#1"]
    h, w = grid.shape
    assert doc["dimensions"] == {"width": w, "height": h}
    assert len(doc["puzzle"]) == h and all(len(r) == w for r in doc["puzzle"])
    assert len(doc["solution"]) == h and all(len(r) == w for r in doc["solution"])
    page = grid[:, ::-1] if language.rtl else grid
    for r in range(h):
        for c in range(w):
            sol, cell = doc["solution"][r][c], doc["puzzle"][r][c]
            if page[r, c] == 0:
                assert sol == "#" and cell == "#"
            else:
                assert sol.lower() == language.alphabet.letters[page[r, c] - 1] and isinstance(cell, int)
    # every clue's answer is spelled by the solution from its numbered cell
    where = {doc["puzzle"][r][c]: (r, c) for r in range(h) for c in range(w) if doc["puzzle"][r][c] not in ("#", 0)}
    step = -1 if language.rtl else 1
    for direction, (dr, dc) in (("Across", (0, step)), ("Down", (1, 0))):
        for clue in doc["clues"][direction]:
            r, c = where[clue["number"]]
            letters = [doc["solution"][r + i * dr][c + i * dc] for i in range(len(clue["answer"]))]
            assert "".join(letters) == clue["answer"]


def test_ipuz_english_and_arabic(english, config, project):
    from puzzlesearch.crossword.search import open_language

    tables, _ = english
    lang = english_language(tables)
    g = generate(tables, lang, SearchSettings(size=9, time_budget=30), seed=2, progress=False)
    check_ipuz(to_ipuz(g.grid, lang), g.grid, lang)
    assert "<table" in to_html(g.grid, lang)
    config = validate_config({"lexicons": {"default": "builtin:en", "arabic": {"source": "builtin:ar",
                                                                             "alphabet": "arabic"}}}, project)
    ar_tables, ar = open_language("ar", config, project)
    g = generate(ar_tables, ar, SearchSettings(size=8, time_budget=30), seed=0, progress=False)
    doc = to_ipuz(g.grid, ar)
    check_ipuz(doc, g.grid, ar)
    assert doc["org.puzzlesearch.direction"] == "rtl"
    page = to_html(g.grid, ar)
    assert 'dir="rtl"' in page and 'lang="ar"' in page


# ---------------------------------------------------------------- fixed-pattern fill

PATTERN = """\
...#...
.......
##...##
.......
...#...
"""


def test_fill_uses_distinct_lexicon_words_that_cross(english, tmp_path):
    tables, words = english
    path = tmp_path / "p.txt"
    path.write_text(PATTERN)
    pattern = read_pattern(path, tables.alphabet)
    result = fill(pattern, tables, FillSettings(time_budget=60), progress=False)
    grid = result.grid
    assert ((grid == 0) == (pattern == 0)).all()
    got = across_words(grid, tables.alphabet) + down_words(grid, tables.alphabet)
    assert sorted(got) == sorted(result.words)  # the words are what the grid spells (crossings agree)
    assert len(set(got)) == len(got)
    assert all(w in words for w in got)
    assert len(got) == len(slots(pattern != 0))


def test_fill_is_reproducible_for_a_seed(english, tmp_path):
    tables, _ = english
    path = tmp_path / "p.txt"
    path.write_text(PATTERN)
    pattern = read_pattern(path, tables.alphabet)
    runs_ = [fill(pattern, tables, FillSettings(time_budget=60, seed=3, first_nodes=20), progress=False)
             for _ in range(2)]
    assert runs_[0].words == runs_[1].words and runs_[0].nodes == runs_[1].nodes


def test_fill_keeps_given_letters(english, tmp_path):
    tables, _ = english
    path = tmp_path / "given.txt"
    path.write_text("cat#\n....\n....\n#...\n")
    result = fill(read_pattern(path, tables.alphabet), tables, FillSettings(time_budget=60), progress=False)
    assert tables.alphabet.decode(result.grid[0, :3]) == "cat"


def test_impossible_pattern_names_a_slot(english, tmp_path):
    tables, _ = english
    path = tmp_path / "bad.txt"
    path.write_text("qxz\n...\n...\n")
    with pytest.raises(NoFill, match=r"no fill found.*(Across|Down)"):
        fill(read_pattern(path, tables.alphabet), tables, FillSettings(time_budget=10), progress=False)


# ---------------------------------------------------------------- command line errors

def run_cli(args, capsys):
    code = main(args)
    err = capsys.readouterr().err.strip().splitlines()
    return code, [line for line in err if "error" in line]


def test_bad_input_gives_one_line(project, tmp_path, capsys, english):
    cfg = str(project / "config.yaml")
    bad = tmp_path / "bad.txt"
    bad.write_text("...\n.x!\n")
    code, err = run_cli(["--config", cfg, "crossword", "fill", "--pattern", str(bad)], capsys)
    assert code == 2 and len(err) == 1 and "line 2 column 3" in err[0]
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("...\n..\n")
    code, err = run_cli(["--config", cfg, "crossword", "fill", "--pattern", str(ragged)], capsys)
    assert code == 2 and len(err) == 1 and "line 2" in err[0]
    code, err = run_cli(["--config", cfg, "crossword", "fill", "--pattern", str(tmp_path / "none.txt")], capsys)
    assert code == 2 and len(err) == 1 and "none.txt" in err[0]
    code, err = run_cli(["--config", cfg, "crossword", "generate", "--size", "0"], capsys)
    assert code == 2 and len(err) == 1 and "size" in err[0]
    badcfg = tmp_path / "config.yaml"
    shutil.copytree(project / "workflow", tmp_path / "workflow")
    badcfg.write_text("lexicons: {default: builtin:en}\ncrossword: {strategy: fill9}\n")
    code, err = run_cli(["--config", str(badcfg), "crossword", "generate"], capsys)
    assert code == 2 and len(err) == 1 and "crossword.strategy" in err[0]


# ---------------------------------------------------------------- bitset fill pieces vs brute force

def tiny_tables(words, letters="abc", seed=0):
    """WordTables over a handful of words with random frequencies."""
    rng = np.random.default_rng(seed)
    frame = pl.DataFrame({"word": words, "length": [len(w) for w in words],
                          "frequency": rng.integers(1, 1000, len(words)).astype(np.int64)})
    return WordTables("tiny", Alphabet(letters, "ltr"), build_arrays(frame, letters))


def test_word_bitsets_count_pattern_matches_like_brute_force():
    from puzzlesearch.crossword.fill import word_bits

    rng = np.random.default_rng(1)
    letters = "abcd"
    words = sorted({"".join(rng.choice(list(letters), L)) for L in (3, 4) for _ in range(150)})
    tables = tiny_tables(words, letters)
    k = len(letters)
    full = (1 << (k + 1)) - 2
    for L in (3, 4):
        first, n, pos_bits = word_bits(tables, [L])[L]
        of_length = [w for w in words if len(w) == L]
        assert n == len(of_length) and pos_bits.shape == (L, k + 1, -(-n // 64))
        got = [tables.alphabet.decode(tables.codes[first + i, :L]) for i in range(n)]
        assert sorted(got) == of_length
        flat = pos_bits.ravel()
        for _ in range(50):
            masks = rng.integers(0, 1 << (k + 1), L).astype(np.int64) & full
            masks[rng.random(L) < 0.3] = full
            brute = sum(all(masks[p] >> (letters.index(w[p]) + 1) & 1 for p in range(L)) for w in of_length)
            scratch = np.zeros(pos_bits.shape[2], dtype=np.uint64)
            assert kernels.match_count(flat, 0, n, k, L, masks, full, scratch) == brute


def brute_fill_3x3(words):
    """Some fill of an all-white 3x3 grid with six distinct words, or None."""
    ws = set(words)
    for a in words:
        for b in words:
            for c in words:
                downs = ["".join(x) for x in zip(a, b, c)]
                entries = [a, b, c] + downs
                if all(d in ws for d in downs) and len(set(entries)) == 6:
                    return entries
    return None


def test_bitset_fill_agrees_with_brute_force_on_tiny_grids(tmp_path):
    rng = np.random.default_rng(7)
    all3 = ["".join(t) for t in np.array(np.meshgrid(*[list("abc")] * 3)).reshape(3, -1).T]
    pattern = np.full((3, 3), -1, dtype=np.int8)
    found = missing = 0
    for trial in range(40):
        words = sorted(set(rng.choice(all3, int(rng.integers(6, 16)), replace=False)))
        tables = tiny_tables(words, seed=trial)
        expect = brute_fill_3x3(words)
        if expect is None:
            with pytest.raises(NoFill, match="cannot be filled"):
                fill(pattern, tables, FillSettings(time_budget=30), progress=False)
            missing += 1
            continue
        result = fill(pattern, tables, FillSettings(time_budget=30), progress=False)
        got = across_words(result.grid, tables.alphabet) + down_words(result.grid, tables.alphabet)
        assert len(set(got)) == 6 and set(got) <= set(words)
        found += 1
    assert found > 0 and missing > 0  # both outcomes were checked
