"""Crossword: cost kernel vs brute force, generated grids vs the word list, numeric clues,
.ipuz structure, fixed-pattern fill, errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from puzzlesearch.baselines import crossword_fill
from puzzlesearch.cli import main
from puzzlesearch.config import validate_config
from puzzlesearch.crossword._kernels.cost import grid_cost
from puzzlesearch.crossword.fill import FillSettings, NoFill, fill
from puzzlesearch.crossword.io import read_pattern, to_html, to_ipuz
from puzzlesearch.crossword.model import (
    Alphabet,
    Language,
    PuzzleText,
    ThemeEntry,
    place_theme,
    runs,
    slot_word,
    slots,
)
from puzzlesearch.crossword.quality import RANK_ORDER
from puzzlesearch.crossword.search import generate
from puzzlesearch.crossword.settings import GenerateSettings
from puzzlesearch.crossword.tables import (
    TABLES_FILE,
    WordTables,
    build_arrays,
    numeric_words,
    open_language,
    open_tables,
)
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon import open_lexicon
from puzzlesearch.lexicon.wordinfo import load_wordnet

PROJECT = Path(__file__).resolve().parents[2]


def SearchSettings(**kw) -> GenerateSettings:
    """Settings of the progressive search (strategy fill1, the seed's 2-letter entries allowed)."""
    return GenerateSettings(**{"strategy": "fill1", "min_entry": 2, **kw})


# ---------------------------------------------------------------- fixtures


# `project` and `config` (the builtin word lists) come from conftest.py


@pytest.fixture(scope="session")
def english(config, project):
    """The default English lexicon's tables (no frequency floor) and their word set (names, abbreviations and
    blocked words are out of the tables, so the lexicon's words and WordNet's phrases are a superset)."""
    tables = open_tables("en", config, project, 0)
    words = {w for L in range(2, tables.width + 1) for w in tables.words_of_length(L)}
    assert words <= set(open_lexicon("default", config, project).words["word"]) | set(load_wordnet().phrases)
    return tables, words


def english_language(tables):
    return Language("en", tables.name, tables.alphabet, tables.alphabet.letters)


def down_words(grid, alphabet):
    """Every vertical run of 2+ letters, read straight from the grid."""
    out = []
    for c in range(grid.shape[1]):
        for start, length in runs(grid[:, c] != 0):
            if length >= 2:
                out.append(alphabet.decode(grid[start : start + length, c]))
    return out


def across_words(grid, alphabet):
    return [alphabet.decode(grid[r, s : s + n]) for r in range(grid.shape[0]) for s, n in runs(grid[r] != 0) if n >= 2]


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
    tables = WordTables(
        "tiny",
        alphabet,
        build_arrays(pl.DataFrame({"word": pool, "length": [len(w) for w in pool], "frequency": freq}), letters),
        min_frequency=30,
    )
    floor_ok = {w: f >= 30 for w, f in zip(pool, freq)}
    for trial in range(300):
        n = int(rng.integers(2, 9))
        grid = rng.integers(1, 6, size=(n, n)).astype(np.int8)
        grid[rng.random((n, n)) < rng.random() * 0.5] = 0
        if trial % 3 == 0:  # plant real words so that known and scrambled cases occur
            for c in range(n):
                w = pool[int(rng.integers(len(pool)))]
                if len(w) <= n:
                    grid[: len(w), c] = alphabet.encode(w)
                    if len(w) < n:
                        grid[len(w), c] = 0
                    if c % 2:
                        grid[: len(w), c] = grid[: len(w), c][::-1]
        got = grid_cost(grid, tables.kernel_args())
        assert got.cost5 == brute_cost(grid, alphabet, pool, floor_ok)
        assert got.cost5 == 5 * got.unknown_letters + got.scrambled_letters


# ---------------------------------------------------------------- generation


def test_generated_english_grid_words_are_in_the_word_list(english):
    tables, words = english
    # max_pops bounds the work; the time budget is only a safety cap, so which seed reaches cost 0
    # does not depend on the machine's load (a 30 s budget can stop a seed by time on a loaded machine)
    settings = SearchSettings(size=12, max_down=4, time_budget=600)
    for seed in ENGLISH_SEEDS:  # with names and abbreviations out, not every seed reaches cost 0 in max_pops
        g = generate(tables, english_language(tables), settings, seed=seed, progress=False)
        if g.cost == 0:
            break
    assert g.cost == 0, f"none of the seeds {ENGLISH_SEEDS} reached cost 0"
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

    tables, language = open_language("num", config, project)
    g = generate(
        tables, language, SearchSettings(size=10, max_across=4, max_down=4, time_budget=30), seed=0, progress=False
    )
    assert g.cost == 0
    clue = clue_function(language, tables.max_factor)
    ents = entries(g.grid, language.alphabet, PuzzleText(clue))
    assert ents
    for e in ents:
        x, y = map(int, e.clue.split("*"))
        assert 2 <= x <= y <= 99 and str(x * y) == e.answer
    fillers = [
        g.grid[r, c]
        for r in range(10)
        for c in range(10)
        if g.grid[r, c] and (c == 0 or not g.grid[r, c - 1]) and (c == 9 or not g.grid[r, c + 1])
    ]
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
    tables, _ = english
    lang = english_language(tables)
    g = generate(tables, lang, SearchSettings(size=9, time_budget=30), seed=2, progress=False)
    check_ipuz(to_ipuz(g.grid, lang), g.grid, lang)
    assert "<table" in to_html(g.grid, lang)
    config = validate_config(
        {"lexicons": {"default": "builtin:en", "arabic": {"source": "builtin:ar", "alphabet": "arabic"}}}, project
    )
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
    runs_ = [
        fill(pattern, tables, FillSettings(time_budget=60, first_nodes=20), seed=3, progress=False) for _ in range(2)
    ]
    assert runs_[0].words == runs_[1].words and runs_[0].nodes == runs_[1].nodes


def test_fill_keeps_given_letters(english, tmp_path):
    tables, _ = english
    path = tmp_path / "given.txt"
    path.write_text("cat#\n....\n....\n#...\n")
    result = fill(read_pattern(path, tables.alphabet), tables, FillSettings(time_budget=60), progress=False)
    assert tables.alphabet.decode(result.grid[0, :3]) == "cat"


EASY_15 = Path(__file__).parents[2] / "workflow/crossword/patterns/american15/easy.txt"
THEMES = ["8,4,A,chocolate", "6,8,D,frost"]  # an Across entry and a Down one crossing it at "o"


def test_theme_entries_stay_fixed_and_the_rest_is_filled(english):
    tables, words = english
    themes = [ThemeEntry.parse(t) for t in THEMES]
    pattern = place_theme(read_pattern(EASY_15, tables.alphabet), themes, tables.alphabet)
    result = fill(pattern, tables, FillSettings(time_budget=60), progress=False)
    for theme in themes:
        assert slot_word(result.grid, theme.slot(), tables.alphabet) == theme.word
    got = across_words(result.grid, tables.alphabet) + down_words(result.grid, tables.alphabet)
    assert {"chocolate", "frost"} <= set(got) and all(w in words for w in got) and len(set(got)) == len(got)


def test_theme_entries_that_do_not_fit_name_the_problem(english):
    tables, _ = english
    pattern = read_pattern(EASY_15, tables.alphabet)
    cases = {
        "1,1,D,crane": "row 4 column 1 is a black cell",
        "3,6,A,chairperson": "runs off the 15x15 grid",
        "3,7,A,armchair": "must fill a whole across slot",
        "8,4,A,chocolate;6,8,D,draft": "row 8 column 8 already holds 'o'",
        "1,1,A,cr4ne": "letter '4'",
        "1,1,X,crane": "expected ROW,COL,DIR,WORD",
        "1,A,crane": "expected ROW,COL,DIR,WORD",
    }
    for given, needle in cases.items():
        with pytest.raises(PuzzleError, match=re.escape(needle)):
            place_theme(pattern, [ThemeEntry.parse(t) for t in given.split(";")], tables.alphabet)


def test_theme_word_outside_the_word_list_is_one_line(project, capsys, english):
    cfg = str(project / "config.yaml")
    args = ["--config", cfg, "crossword", "fill", "--pattern", str(EASY_15), "--theme", "8,4,A,chocolatx"]
    code, err = run_cli(args, capsys)
    assert code == 2 and len(err) == 1 and "'chocolatx' is not in the en word list" in err[0]


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
    badcfg.write_text("lexicons: {default: builtin:en}\ncrossword: {strategy: fill9}\n")
    code, err = run_cli(["--config", str(badcfg), "crossword", "generate"], capsys)
    assert code == 2 and len(err) == 1 and "crossword.strategy" in err[0]


# ---------------------------------------------------------------- bitset fill pieces vs brute force


def tiny_tables(words, letters="abc", seed=0):
    """WordTables over a handful of words with random frequencies."""
    rng = np.random.default_rng(seed)
    frame = pl.DataFrame(
        {
            "word": words,
            "length": [len(w) for w in words],
            "frequency": rng.integers(1, 1000, len(words)).astype(np.int64),
        }
    )
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
            assert crossword_fill.match_count(flat, 0, n, k, L, masks, full, scratch) == brute


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


# ---------------------------------------------------------------- CLI outputs (default folders)

# Seeds tried for a cost-0 English 12x12 grid, the quickest first (any cost-0 grid is checked). On
# 2026-11-28 seed 0 reached cost 0 in 0.8 CPU s, 10 in 0.7, 8 in 1.1 and 2 in 11 (on 2026-11-26, with
# the fill of that day, seed 2 was the quick one); 5, 7, 11-13 and 15 stop above cost 0.
ENGLISH_SEEDS = (0, 10, 8, 2, 1, *range(3, 8), 9, *range(11, 16))

DOCUMENTED_COLUMNS = [
    "rank",
    "lang",
    "size",
    "seed",
    "strategy",
    "cost",
    "unknown_letters",
    "scrambled_letters",
    "unknown_words",
    "scrambled_words",
    "across_words",
    "down_words",
    "black_cells",
    "pops",
    "restarts",
    "seconds",
    "stopped_by",
    "grid",
    "file",
    "puz",
    "page",
    "entries",
    "clued_entries",
    "unclued_entries",
    "clue_share",
    "mean_score",
    "min_score",
    "low_entries",
    "low_score",
]  # README, Crossword > Results


def run_ps(args, cwd, check=True, timeout=None):
    """The real CLI in a subprocess (exit code, stdout, stderr)."""
    out = subprocess.run(
        [sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
    if check:
        assert out.returncode == 0, out.stderr
    return out


def one_error_line(out) -> str:
    """The one stderr line of a refused command (exit 2, no traceback)."""
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    errors = [line for line in lines if line.startswith("puzzlesearch: error:")]
    assert len(errors) == 1, out.stderr
    return errors[0]


@pytest.fixture(scope="module")
def cli_generated(project, english):
    """`crossword generate` without --out (3 seeds of 8x8, the default settings), run in the project folder."""
    out = run_ps(["crossword", "generate", "--size", "8", "--seeds", "3"], project)
    return out.stdout, project / "results" / "cli" / "crossword" / "en" / "8"


def test_generate_without_out_writes_to_the_cli_folder(cli_generated, project):
    stdout, folder = cli_generated
    expected = [folder / f"en_8_seed{s}.{ext}" for s in range(3) for ext in ("ipuz", "html", "puz")]
    expected.append(folder / "puzzles.parquet")
    written = [Path(line.removeprefix("# wrote ")) for line in stdout.splitlines() if line.startswith("# wrote ")]
    assert sorted(written) == sorted(expected)
    assert all(p.is_file() and p.stat().st_size > 0 for p in expected)
    assert not (project / "results" / "crossword" / "en").exists()  # the pipeline's folder is left alone
    assert not list(folder.glob(".*.tmp"))


def test_fill_without_out_writes_to_the_cli_folder(project, tmp_path, english):
    path = tmp_path / "small.txt"
    path.write_text(PATTERN)
    stdout = run_ps(
        [
            "crossword",
            "fill",
            "--pattern",
            str(path),
            "--min-frequency",
            "0",
            "--time-budget",
            "20",
            "--set",
            "min_entry=2",
        ],
        project,
    ).stdout
    folder = project / "results" / "cli" / "crossword" / "fill"
    expected = [folder / f"small.{ext}" for ext in ("ipuz", "html", "json")]
    assert all(f"# wrote {p}" in stdout for p in expected)
    assert json.loads(expected[2].read_text())["stopped_by"] == "filled"
    assert all(p.is_file() for p in expected)
    assert not (project / "results" / "crossword" / "fill").exists()


def grid_from_text(text, alphabet):
    """A page-order grid text ('#' black) as codes, for a left-to-right alphabet."""
    return np.array(
        [[0 if ch == "#" else alphabet.letters.index(ch) + 1 for ch in line] for line in text.splitlines()],
        dtype=np.int8,
    )


def test_puzzles_parquet_has_documented_columns_and_is_ranked_by_cost(cli_generated, english):
    tables, words = english
    _, folder = cli_generated
    df = pl.read_parquet(folder / "puzzles.parquet")
    assert df.columns == DOCUMENTED_COLUMNS
    assert df["rank"].to_list() == [1, 2, 3] and sorted(df["seed"].to_list()) == [0, 1, 2]
    keys = [tuple(-row[c] if desc else row[c] for c, desc in RANK_ORDER) for row in df.iter_rows(named=True)]
    assert keys == sorted(keys)  # ranked by cost, then fill quality, never by timings: reproducible
    assert set(df["stopped_by"]) <= {"cost", "pops"}
    for row in df.iter_rows(named=True):  # each cost is what its grid text costs, by plain Python
        grid = grid_from_text(row["grid"], tables.alphabet)
        assert row["cost"] == pytest.approx(brute_cost(grid, tables.alphabet, words, dict.fromkeys(words, True)) / 5)
        assert row["black_cells"] == int((grid == 0).sum()) and (folder / row["file"]).is_file()


# ---------------------------------------------------------------- fill2, HTML


def test_fill2_strategy_gives_valid_grids(english):
    tables, words = english
    settings = SearchSettings(size=8, max_down=4, max_across=6, strategy="fill2", time_budget=30, max_pops=300)
    for seed in range(3):
        g = generate(tables, english_language(tables), settings, seed=seed, progress=False)
        assert g.grid.shape == (8, 8)
        acrosses = across_words(g.grid, tables.alphabet)
        assert acrosses and all(w in words and len(w) <= 6 for w in acrosses)
        assert all(n <= 4 for c in range(8) for _, n in runs(g.grid[:, c] != 0))
        assert g.cost5 == brute_cost(g.grid, tables.alphabet, words, dict.fromkeys(words, True))


def test_html_is_self_contained_with_across_and_down_lists(english):
    import re

    tables, _ = english
    lang = english_language(tables)
    g = generate(tables, lang, SearchSettings(size=9, time_budget=30, max_pops=200), seed=3, progress=False)
    page = to_html(g.grid, lang)
    assert not re.search(r"""(src|href|action)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(", page, re.I)
    across_part, down_part = page.split("<h2>Down</h2>")
    assert "<h2>Across</h2>" in across_part
    across_list = re.findall(r"<li>\d+\. [^<]*<b>([A-Z]+)</b></li>", across_part)
    down_list = re.findall(r"<li>\d+\. [^<]*<b>([A-Z]+)</b></li>", down_part)
    assert sorted(across_list) == sorted(w.upper() for w in across_words(g.grid, tables.alphabet))
    assert sorted(down_list) == sorted(w.upper() for w in down_words(g.grid, tables.alphabet))


# ---------------------------------------------------------------- fill: lone cells, frequency, failures


def test_fill_keeps_white_cells_outside_words_and_their_letters(english, tmp_path):
    tables, _ = english
    path = tmp_path / "lone.txt"
    path.write_text("...\n#.#\nq#a\n")
    pattern = read_pattern(path, tables.alphabet)
    result = fill(pattern, tables, FillSettings(time_budget=30), progress=False)
    assert ((result.grid == 0) == (pattern == 0)).all()  # white stays white, black stays black
    assert tables.alphabet.decode(result.grid[2]) == "q#a"
    doc = to_ipuz(result.grid, english_language(tables))
    assert doc["puzzle"][2] == [0, "#", 0] and doc["solution"][2] == ["Q", "#", "A"]
    path.write_text("...\n#.#\nq#.\n")
    with pytest.raises(PuzzleError, match=r"row 3 column 3 is not in any word of 2\+ letters"):
        fill(read_pattern(path, tables.alphabet), tables, FillSettings(time_budget=30), progress=False)


def freq_tables(freqs, letters):
    """WordTables over the given {word: frequency}."""
    frame = pl.DataFrame(
        {
            "word": list(freqs),
            "length": [len(w) for w in freqs],
            "frequency": np.array(list(freqs.values()), dtype=np.int64),
        }
    )
    return WordTables("tiny", Alphabet(letters, "ltr"), build_arrays(frame, letters))


def test_fill_prefers_frequent_words():
    # two families of fills of "..", ".#": a-words (frequent; fewer crossing choices) and x-words (rare)
    freqs = {"ab": 1000, "ac": 900, "xy": 2, "xz": 1, "xw": 1, "xv": 1}
    tables = freq_tables(freqs, "abcvwxyz")
    pattern = np.array([[-1, -1], [-1, 0]], dtype=np.int8)
    fills = [(a, d) for a in freqs for d in freqs if a != d and a[0] == d[0]]
    best = max(fills, key=lambda f: np.log(freqs[f[0]]) + np.log(freqs[f[1]]))
    result = fill(pattern, tables, FillSettings(time_budget=30), progress=False)
    assert set(result.words) == set(best) == {"ab", "ac"}
    assert result.quality == pytest.approx((np.log10(1000) + np.log10(900)) / 2)
    plain = fill(pattern, tables, FillSettings(time_budget=30, freq_weight=0.0), progress=False)
    assert all(w.startswith("x") for w in plain.words)  # without the weight the crossing counts decide


def test_no_fill_names_the_slot_that_cannot_be_filled():
    all3 = ["".join(t) for t in np.array(np.meshgrid(*[list("abc")] * 3)).reshape(3, -1).T]
    tables = tiny_tables([w for w in all3 if not w.startswith("cc")])
    given = np.array([[3, 3, -1], [-1, -1, -1], [-1, -1, -1]], dtype=np.int8)  # 1-Across is cc?
    with pytest.raises(NoFill, match=r"no fill found.*hardest slot 1-Across, 3 letters"):
        fill(given, tables, FillSettings(time_budget=10), progress=False)
    wide = np.full((3, 4), -1, dtype=np.int8)  # 4-letter across slots, no 4-letter words
    with pytest.raises(NoFill, match=r"no fill found: slot 1-Across \(4 letters\) has no word of that length"):
        fill(wide, tables, FillSettings(time_budget=10), progress=False)


# ---------------------------------------------------------------- small input checks


def test_time_budget_and_pattern_size_are_checked(project, tmp_path, capsys, english):
    from puzzlesearch.crossword.fill import american_pattern

    cfg = str(project / "config.yaml")
    path = tmp_path / "p.txt"
    path.write_text(PATTERN)
    for budget in ("0", "-1"):
        code, err = run_cli(
            ["--config", cfg, "crossword", "fill", "--pattern", str(path), "--time-budget", budget], capsys
        )
        assert code == 2 and len(err) == 1 and "--time-budget" in err[0]
    code, err = run_cli(["--config", cfg, "crossword", "generate", "--time-budget", "-1"], capsys)
    assert code == 2 and len(err) == 1 and "--time-budget" in err[0]
    for size in ("2", "0"):
        code, err = run_cli(["--config", cfg, "crossword", "pattern", "--size", size], capsys)
        assert code == 2 and len(err) == 1 and "--size" in err[0]
    with pytest.raises(PuzzleError, match="crossword.time_budget"):
        SearchSettings(time_budget=-1)
    for size in ("41", "1000"):  # beyond the schema's bound of crossword.sizes
        line = one_error_line(run_ps(["crossword", "pattern", "--size", size], tmp_path, check=False))
        assert "--size" in line and "40" in line
    for size in range(3, 8):  # every pattern the generator gives has words of 3+ letters only
        white = american_pattern(size, 0.16, seed=size, max_word=9) != 0
        lengths = [n for line in list(white) + list(white.T) for _, n in runs(line)]
        assert lengths and min(lengths) >= 3


# ---------------------------------------------------------------- Arabic pattern orientation


def test_arabic_pattern_files_are_in_page_order(config, project, tmp_path):
    from puzzlesearch.crossword.io import show

    config = validate_config(
        {"lexicons": {"default": "builtin:en", "arabic": {"source": "builtin:ar", "alphabet": "arabic"}}}, project
    )
    tables, ar = open_language("ar", config, project)
    path = tmp_path / "ar.txt"
    path.write_text("...#\nن...\n", encoding="utf-8")  # as on the page: black top right, ن bottom left
    pattern = read_pattern(path, tables.alphabet)
    assert pattern[0, 0] == 0  # reading order: the rightmost page cell comes first
    result = fill(pattern, tables, FillSettings(time_budget=30), progress=False)
    lines = show(result.grid, ar).splitlines()
    assert lines[0][3] == "#" and lines[1][0] == "ن"  # printed as the file was drawn
    word = slot_word(
        result.grid, [s for s in slots(result.grid != 0) if s.direction == "across" and s.row == 1][0], tables.alphabet
    )
    assert word.endswith("ن")  # the leftmost cell of an Arabic row holds the word's last letter
    doc = to_ipuz(result.grid, ar)
    assert doc["puzzle"][0][3] == "#" and doc["solution"][1][0] == "ن"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")  # the printed grid read back is the same grid
    assert np.array_equal(read_pattern(path, tables.alphabet), result.grid)


# ---------------------------------------------------------------- settings, artifacts, budgets (issue 11)


def build_numeric(folder, max_factor=20):
    """`crossword build-tables --numeric` into folder; the tables.npz path."""
    npz = folder / "tables.npz"
    run_ps(
        [
            "crossword",
            "build-tables",
            "--settings",
            json.dumps({"max_factor": max_factor}),
            "--numeric",
            "--out",
            str(npz),
        ],
        folder,
    )
    return npz


def pipeline_generate(tables, folder, settings, lang="num", seed=0, check=True, timeout=None):
    """One pipeline puzzle job (explicit paths); the subprocess result."""
    stem = folder / f"{lang}_seed{seed}"
    return run_ps(
        [
            "crossword",
            "generate",
            "--settings",
            json.dumps(settings),
            "--tables",
            str(tables),
            "--lang",
            lang,
            "--seed",
            str(seed),
            "--ipuz",
            f"{stem}.ipuz",
            "--html",
            f"{stem}.html",
            "--summary",
            f"{stem}.json",
        ],
        folder,
        check=check,
        timeout=timeout,
    )


def test_damaged_tables_give_one_line_naming_the_file(tmp_path):
    npz = build_numeric(tmp_path)
    settings = {
        "size": 5,
        "max_pops": 20000,
        "strategy": "fill1",
        "min_entry": 2,
        "min_score": 0,
        "max_down": 3,
        "max_across": 3,
    }
    row = json.loads(pipeline_generate(npz, tmp_path, settings) and (tmp_path / "num_seed0.json").read_text())["row"]
    assert row["stopped_by"] == "cost" and row["cost"] == 0 and row["size"] == 5
    good = npz.read_bytes()
    for damage in (lambda b: b[:100] + bytes([b[100] ^ 1]) + b[101:], lambda b: b[: len(b) // 2]):
        npz.write_bytes(damage(good))
        line = one_error_line(pipeline_generate(npz, tmp_path, settings, check=False))
        assert "tables.npz" in line
    # a changed entry under a consistent manifest: the range check stops it before a kernel indexes it
    from puzzlesearch.manifest import read_manifest, write_manifest

    npz.write_bytes(good)
    with np.load(npz) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["word_table"][np.argmax(arrays["word_table"])] = 10**6
    np.savez(npz, **arrays)
    meta = read_manifest(tmp_path / "tables.json")
    info = meta.pop("manifest")
    write_manifest(tmp_path / "tables.json", [npz], info["kind"], info["settings"], meta)
    line = one_error_line(pipeline_generate(npz, tmp_path, settings, check=False))
    assert "tables.npz" in line and "word_table" in line


def rewrite_tables(npz, change) -> None:
    """Apply change(arrays) to tables.npz and recompute its manifest entry (a crafted, consistent file)."""
    from puzzlesearch.manifest import read_manifest, write_manifest

    with np.load(npz) as data:
        arrays = {k: data[k] for k in data.files}
    change(arrays)
    np.savez(npz, **arrays)
    meta = read_manifest(npz.with_name("tables.json"))
    info = meta.pop("manifest")
    files = [npz.with_name(name) for name in info["files"]]  # tables.npz and clues.parquet
    write_manifest(npz.with_name("tables.json"), files, info["kind"], info["settings"], meta)


def fill_slots(table):
    """Every empty slot of a hash table given an in-range row (a look-up of a missing word never ends)."""
    table[table < 0] = 0


def swap_two_rows(table):
    """Two filled slots exchanged (in range, each row once, but found at the wrong word)."""
    filled = np.flatnonzero(table >= 0)
    table[filled[[0, -1]]] = table[filled[[-1, 0]]]


@pytest.mark.parametrize("name", ["word_table", "sig_table"])
@pytest.mark.parametrize("damage", [fill_slots, swap_two_rows])
def test_a_crafted_hash_table_in_range_is_refused_not_a_hang(tmp_path, name, damage):
    npz = build_numeric(tmp_path)
    settings = {"size": 5, "max_pops": 20000, "strategy": "fill1", "min_entry": 2, "min_score": 0}
    rewrite_tables(npz, lambda arrays: damage(arrays[name]))
    line = one_error_line(pipeline_generate(npz, tmp_path, settings, check=False, timeout=120))
    assert "tables.npz" in line and name in line and not list(tmp_path.glob("num_seed0.*"))


def test_pipeline_time_cap_fails_naming_the_key(tmp_path, english, config, project):
    npz = english[0].clues_path.parent / TABLES_FILE  # the session's English tables (built once, in the store)
    settings = {"size": 12, "max_down": 8, "max_pops": 0, "time_budget": 0.05, "strategy": "fill1"}
    line = one_error_line(pipeline_generate(npz, tmp_path, settings, lang="en", check=False))
    assert "crossword.time_budget" in line and not list(tmp_path.glob("en_seed0.*"))
    line = one_error_line(pipeline_generate(npz, tmp_path, {"size": 5}, lang="ar", check=False))
    assert "--lang ar" in line and "arabic" in line  # English tables for an Arabic job


def test_same_seed_same_grid_on_a_busy_machine(project, english, tmp_path):
    args = [
        "crossword",
        "generate",
        "--size",
        "10",
        "--max-down",
        "5",
        "--max-pops",
        "1500",
        "--seed",
        "4",
        "--quiet",
        "--out",
    ]
    first = run_ps([*args, str(tmp_path / "a")], project)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        second = run_ps([*args, str(tmp_path / "b")], project)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    a, b = (pl.read_parquet(tmp_path / d / "puzzles.parquet") for d in ("a", "b"))
    assert first.returncode == second.returncode == 0
    assert a["grid"].to_list() == b["grid"].to_list() and a["pops"].to_list() == b["pops"].to_list()
    assert a["stopped_by"].to_list()[0] in ("cost", "pops")


def test_fill_node_budget_names_its_key(english):
    tables, _ = english
    square = np.full((5, 5), -1, dtype=np.int8)  # all white: takes some tens of nodes
    with pytest.raises(NoFill, match=r"crossword\.fill\.max_nodes=3 nodes"):
        fill(square, tables, FillSettings(first_nodes=1, max_nodes=3), progress=False)
    runs_ = [
        fill(square, tables, FillSettings(first_nodes=1, max_nodes=1000), seed=2, progress=False) for _ in range(2)
    ]
    assert runs_[0].words == runs_[1].words and runs_[0].nodes == runs_[1].nodes <= 1000


def test_lexicon_of_another_alphabet_is_refused(project, english):
    line = one_error_line(
        run_ps(["crossword", "generate", "--lang", "en", "--lexicon", "arabic", "--size", "5"], project, check=False)
    )
    assert "arabic" in line and "latin" in line
    line = one_error_line(run_ps(["crossword", "generate", "--size", "5", "--set", "queue=[1"], project, check=False))
    assert "--set" in line


def test_settings_defaults_come_from_the_schema():
    from puzzlesearch.crossword.settings import FillSettings as FS
    from puzzlesearch.crossword.settings import GenerateSettings, TableSettings
    from puzzlesearch.settings import section_defaults

    sec = section_defaults("crossword")
    g = GenerateSettings.for_job(sec, "ar", 5)
    assert g.size == 5 and g.max_across == 5 and g.max_pops == sec["max_pops"] > 0  # clipped to the size
    assert GenerateSettings.for_job({**sec, "min_frequency": {"en": 0, "ar": 7, "num": 0}}, "ar", 5).min_frequency == 7
    assert FS().max_nodes == sec["fill"]["max_nodes"] and TableSettings().max_factor == sec["numeric"]["max_factor"]
    with pytest.raises(PuzzleError, match="crossword.size"):
        GenerateSettings(size=41)


# ---------------------------------------------------------------- fill on American 15x15 patterns (issue 15)

AMERICAN = PROJECT / "workflow" / "crossword" / "patterns" / "american15"


def _white_runs(white):
    """Lengths of the white runs of every row and column, read straight from the mask."""
    return [n for line in list(white) + list(white.T) for _, n in runs(line)]


@pytest.mark.parametrize("name", ["easy", "stairs", "medium", "open"])
def test_american_patterns_are_standard_and_described(english, name):
    tables, _ = english
    path = AMERICAN / f"{name}.txt"
    white = read_pattern(path, tables.alphabet) != 0
    assert white.shape == (15, 15)
    assert (white == white[::-1, ::-1]).all()  # 180-degree rotational symmetry
    lengths = _white_runs(white)
    assert min(lengths) >= 3  # every entry 3+ letters, so every white cell is checked both ways
    cells = set(zip(*np.nonzero(white)))
    seen, stack = {min(cells)}, [min(cells)]
    while stack:  # all-over interlock: the white cells are one region
        r, c = stack.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    assert seen == cells
    header = path.read_text().splitlines()[0]
    stated = f"{int((~white).sum())} blocks, {len(lengths)} entries, longest {max(lengths)}"
    assert stated in header


def _eligible(tables, word):
    """Whether a word is a row of the tables at or above both floors (read from the raw arrays)."""
    a = tables.arrays
    codes = tables.alphabet.encode(word)
    rows = np.nonzero((a["lengths"] == len(word)) & (a["codes"][:, : len(word)] == codes).all(axis=1))[0]
    return any(a["frequency"][r] >= tables.min_frequency and a["score"][r] >= tables.min_score for r in rows)


def test_easy_american_pattern_fills_validly_at_the_default_floor(config, project, english):
    settings = FillSettings()
    tables = open_tables("en", config, project, settings.min_frequency, min_score=settings.min_score)
    pattern = read_pattern(AMERICAN / "easy.txt", tables.alphabet)
    for seed in (0, 1, 2):
        result = fill(pattern, tables, settings, seed, progress=False)
        grid = result.grid
        assert ((grid == 0) == (pattern == 0)).all() and (grid[pattern != 0] > 0).all()
        got = across_words(grid, tables.alphabet) + down_words(grid, tables.alphabet)
        assert sorted(got) == sorted(result.words)  # what the grid spells: crossings agree
        assert len(got) == 78 and len(set(got)) == 78  # no repeated entry
        assert all(_eligible(tables, w) for w in got)
        scores = [int(tables.arrays["score"][_row(tables, w)]) for w in got]
        assert result.min_entry == min(scores) >= settings.min_score
        assert result.nodes <= settings.max_nodes
    again = fill(pattern, tables, settings, 2, progress=False)
    assert again.words == result.words and again.nodes == result.nodes  # same seed, same grid


def _row(tables, word):
    """The eligible row of a word."""
    a = tables.arrays
    codes = tables.alphabet.encode(word)
    rows = np.nonzero((a["lengths"] == len(word)) & (a["codes"][:, : len(word)] == codes).all(axis=1))[0]
    return [r for r in rows if tables.word_ok[r]][0]


def brute_fill_square(words, n, forms=None):
    """Some fill of an all-white n x n grid with 2n distinct words, or None (plain Python); with
    `forms` (word -> the set of forms it stands for), no two of its words may share a form."""
    ws = set(words)
    stack = [[]]
    while stack:
        rows = stack.pop()
        if len(rows) == n:
            downs = ["".join(x) for x in zip(*rows)]
            if all(d in ws for d in downs) and len(set(rows + downs)) == 2 * n:
                if forms is None or not _shared_form(rows + downs, forms):
                    return rows + downs
            continue
        for w in words:
            prefix = ["".join(x) for x in zip(*(rows + [w]))]
            if all(any(v.startswith(p) for v in words) for p in prefix):
                stack.append(rows + [w])
    return None


def random_square_words(rng, trials):
    """(n, letters, trial, words): random lists of n-letter words over all-white squares, 3x3 over
    abc and 4x4 over ab, `trials` lists each."""
    for n, letters in ((3, "abc"), (4, "ab")):
        every = ["".join(t) for t in np.array(np.meshgrid(*[list(letters)] * n)).reshape(n, -1).T]
        for trial in range(trials):
            words = sorted(set(rng.choice(every, int(rng.integers(len(every) // 2, len(every))), replace=False)))
            yield n, letters, trial, words


def check_square_fill(pattern, tables, settings, seed, expect, allowed, proof_match, forms=None):
    """Fill an all-white square pattern: proved impossible (the message matching proof_match) when brute
    force found no fill (expect None), else a fill of distinct allowed words, no two sharing a form."""
    if expect is None:
        with pytest.raises(NoFill, match=proof_match) as exc:
            fill(pattern, tables, settings, seed, progress=False)
        assert exc.value.proved
        return
    r = fill(pattern, tables, settings, seed, progress=False)
    got = across_words(r.grid, tables.alphabet) + down_words(r.grid, tables.alphabet)
    assert len(set(got)) == 2 * pattern.shape[0] and set(got) <= set(allowed)
    assert forms is None or not _shared_form(got, forms)


def _shared_form(entries, forms):
    """Whether two of the entries stand for a common form."""
    return any(forms[a] & forms[b] for i, a in enumerate(entries) for b in entries[i + 1 :])


def test_fill_with_forms_of_one_word_agrees_with_brute_force():
    # random base forms (word -> '|'-joined bases, as the tables' stems column): a fill found never
    # holds two forms of one word, and "proved impossible" only when brute force finds no such fill
    rng = np.random.default_rng(27)
    checked = {True: 0, False: 0}
    for n, letters, trial, words in random_square_words(rng, 14):
        bases = [f"base{i}" for i in range(int(rng.integers(1, 5)))]  # forms shared by several words
        stems = {w: "|".join(sorted(set(rng.choice(bases, int(rng.integers(1, 3)))))) for w in words}
        stems = {w: b for w, b in stems.items() if rng.random() < 0.4}
        forms = {w: {w, *filter(None, stems.get(w, "").split("|"))} for w in words}
        tables = tiny_tables(words, letters, seed=trial)
        tables.stem_map = stems  # what a lexicon's clues.parquet `stems` column gives
        expect = brute_fill_square(words, n, forms)
        pattern = np.full((n, n), -1, dtype=np.int8)
        for first in (1000, 1):
            settings = FillSettings(time_budget=30, first_nodes=first)
            check_square_fill(pattern, tables, settings, trial, expect, words, "no two forms of one word", forms)
            checked[expect is None] += 1
        if brute_fill_square(words, n) is not None and expect is None:
            checked["forms decided"] = checked.get("forms decided", 0) + 1
    assert checked[True] > 0 and checked[False] > 0 and checked.get("forms decided", 0) > 0


def test_fill_at_a_score_floor_agrees_with_brute_force(tmp_path):
    # every fill found is made of words at or above the floor; none found is proved impossible
    # (by the restarts, or with one-node restarts by the complete searches between them)
    rng = np.random.default_rng(15)
    checked = {True: 0, False: 0}
    for n, letters, trial, words in random_square_words(rng, 12):
        scores = rng.integers(0, 101, len(words))
        floor = int(rng.integers(0, 60))
        frame = pl.DataFrame(
            {"word": words, "length": [n] * len(words), "frequency": [100] * len(words), "score": scores}
        )
        tables = WordTables("tiny", Alphabet(letters, "ltr"), build_arrays(frame, letters), min_score=floor)
        ok = [w for w, s in zip(words, scores) if s >= floor]
        expect = brute_fill_square(ok, n)
        pattern = np.full((n, n), -1, dtype=np.int8)
        for backjump, first in ((True, 1000), (False, 1000), (True, 1)):
            # first_nodes 1: restarts of a node or two, so the complete searches between them decide
            settings = FillSettings(backjump=backjump, time_budget=30, first_nodes=first)
            check_square_fill(pattern, tables, settings, trial, expect, ok, "cannot be filled")
            checked[expect is None] += 1
    assert checked[True] > 0 and checked[False] > 0  # both outcomes were checked
