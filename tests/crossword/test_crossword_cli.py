"""Crossword: the commands' default output folders, the ranked table, fill2, the HTML page, lone cells and
frequencies in the fill, input checks, Arabic pattern orientation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from crossword_testing import (  # the shared helpers of the crossword tests
    DOCUMENTED_COLUMNS,
    PATTERN,
    SearchSettings,
    across_words,
    brute_cost,
    down_words,
    english_language,
    freq_tables,
    grid_from_text,
    one_error_line,
    run_cli,
    run_ps,
    tiny_tables,
)

from puzzlesearch.config import validate_config
from puzzlesearch.crossword.fill import FillSettings, NoFill, fill
from puzzlesearch.crossword.io import read_pattern, to_html, to_ipuz
from puzzlesearch.crossword.model import (
    runs,
    slot_word,
    slots,
)
from puzzlesearch.crossword.quality import RANK_ORDER
from puzzlesearch.crossword.search import generate
from puzzlesearch.crossword.tables import (
    open_language,
)
from puzzlesearch.errors import PuzzleError


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
