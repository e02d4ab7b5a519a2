"""The report: figures built by a small default run, `snakemake --report` (html and zip), the end-of-run
summary, and the numbers behind the figures checked against independent computations."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import polars as pl
import pytest
from pipeline_util import copy_project, seed_cube_tables, snakemake

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CATEGORIES = ("Boggle", "Spelling Bee", "Rubik's cube", "Crossword", "Benchmarks")
# A tiny word list with one 7-letter pangram set (a e g i n r t), so the Bee has puzzles.
EXTRA_WORDS = (
    "tearing granite grate great tiger train grain rating gratin ring rain tear gear near rent "
    "tern gain grin girt gent tang gate rate"
).split()
SMALL_CONFIG = """\
lexicons:
  tiny: tiny.txt
  english: english.txt  # the crossword's English list (ENGLISH_WORDS): a publishable (cost 0, clued) grid needs real words
boggle: {lexicons: [tiny], seeds: 2, max_boards: 2000, pool_size: 10, scan: {boards: 1, distance: 1}}
bee: {lexicons: [tiny]}
crossword:
  langs: [en, num]
  sizes: [5]
  seeds: 2
  lexicons: {en: english}
  min_score: {en: 50}  # a user's own list: our scores (the default 80 is the constructors' list's 40)
  fill: {patterns: [], min_frequency: 0, min_score: 50}
cube:
  solvers: [thistlethwaite]
  testsets: {r3: {random: 3, seed: 1}}
  default_testsets: [r3]
"""
ENGLISH_WORDS = (
    30_000  # wordfreq's most frequent English words: the crosswords' list (builtin:en's 160k cost ~40 CPU s more)
)
# The crossword benchmark's pattern, replaced in the small run by one the tiny list can fill
# (a 4x4 frame around a black 2x2, e.g. TEAR, GIRT across and TANG, RENT down).
FRAME = "....\n.##.\n.##.\n....\n"


def common_english_words() -> list[str]:
    """The crosswords' small English list: wordfreq's most frequent plain lowercase words of 3-12 letters."""
    from wordfreq import top_n_list

    return [
        w for w in top_n_list("en", ENGLISH_WORDS) if w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 12
    ]


def small_config() -> dict:
    """The validated config of the small run (defaults filled in)."""
    import yaml

    from puzzlesearch.settings import validate_config

    return validate_config(yaml.safe_load(SMALL_CONFIG), "test config")


@pytest.fixture(scope="module")
def run(tmp_path_factory, cube_tables):
    """A small default run (every stage and the report figures), then both report files.

    The cube tables are the session's store build (the same bytes the table rules write):
    the run makes the folder's manifest and solves with them, and the report draws them.
    """
    root = copy_project(tmp_path_factory.mktemp("report") / "p")
    seed_cube_tables(root, small_config()["cube"]["tables"], cube_tables.dir)
    with open(root / "tiny.txt", "a") as fh:
        fh.write("\n".join(EXTRA_WORDS) + "\n")
    (root / "english.txt").write_text("\n".join(common_english_words()) + "\n")
    (root / "config.yaml").write_text(SMALL_CONFIG)
    from puzzlesearch.report.targets import FILL_BENCH_PATTERN

    (root / FILL_BENCH_PATTERN).write_text(FRAME)
    out = snakemake(root, cores="2")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    for name in ("report.html", "report.zip"):
        rep = snakemake(root, "--report", name)
        assert rep.returncode == 0, rep.stdout[-2000:] + rep.stderr[-2000:]
    return root, out.stdout + out.stderr


def valid_figure(path) -> bool:
    """A non-empty PNG (by its signature and IHDR size) or SVG (XML with an svg root)."""
    data = path.read_bytes()
    if path.suffix == ".png":
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        return data.startswith(PNG_MAGIC) and width > 0 and height > 0
    if path.suffix == ".svg":
        import xml.etree.ElementTree as ET

        return ET.fromstring(data).tag.endswith("svg")
    return path.suffix == ".html" and b"<table>" in data and b"</html>" in data


def test_every_figure_is_built_and_valid(run):
    from puzzlesearch.report.targets import report_files

    root, _ = run
    files = report_files(small_config())
    assert set(files) == set(CATEGORIES) and all(files.values())
    for paths in files.values():
        for rel_path in paths:
            path = root / rel_path
            assert path.is_file() and path.stat().st_size > 0, rel_path
            assert valid_figure(path), rel_path


def test_report_html_and_zip_name_every_category(run):
    root, _ = run
    text = (root / "report.html").read_text(encoding="utf-8")
    for category in CATEGORIES:
        assert json.dumps(category) in text or category in text, category
    with zipfile.ZipFile(root / "report.zip") as zf:
        names = zf.namelist()
        page = zf.read(next(n for n in names if n.endswith("report.html"))).decode()
    assert all(c in page or json.dumps(c) in page for c in CATEGORIES)
    for figure in (
        "board.png",
        "progress.png",
        "histogram.png",
        "scan.png",
        "top.html",
        "points.png",
        "moves.png",
        "times.png",
        "tables.png",
        "grid.png",
        "trace.png",
        "jobs.png",
        "lexicon.png",
        "bee.png",
        "cube.png",
        "crossword.png",
    ):
        assert any(n.endswith("/" + figure) for n in names), figure


def test_end_of_run_summary_names_each_best_result(run):
    root, log = run
    best = pl.read_parquet(root / "results/boggle/tiny/4x4/free/best.parquet").row(0, named=True)
    assert f"{best['board']} scores {best['score']} ({best['n_words']} words)" in log
    bee = pl.read_parquet(root / "results/bee/tiny/puzzles.parquet").sort("rank").row(0, named=True)
    assert f"Spelling Bee tiny: {bee['letters']} center {bee['center']}, {bee['points']} points" in log
    cube = pl.read_parquet(root / "results/cube/thistlethwaite/r3.parquet")
    assert f"3 cubes, mean {cube['moves'].mean():.2f} moves (max {cube['moves'].max()})" in log
    for lang in ("en", "num"):
        row = pl.read_parquet(root / f"results/crossword/{lang}/5/puzzles.parquet").sort("rank").row(0, named=True)
        page = f"results/crossword/{lang}/5/{row['file'].replace('.ipuz', '.html')}"
        assert page in log and (root / page).is_file()


def test_summary_never_fails_on_a_damaged_file(tmp_path):
    from puzzlesearch.report.summary import summary_lines

    folder = tmp_path / "results/boggle/x/4x4/free"
    folder.mkdir(parents=True)
    (folder / "best.parquet").write_bytes(b"not parquet")
    lines = summary_lines(tmp_path)
    assert any("boggle: could not read" in line for line in lines), lines


def test_the_baseline_benchmark_agrees_with_the_reference(run):
    root, _ = run
    table = pl.read_csv(root / "results/report/benchmarks/boggle_scorer.tsv", separator="\t")
    assert table["boards"].to_list() == [200, 200]
    assert table["total_score"][0] == table["total_score"][1]  # the run fails otherwise; here: it ran
    # the reference score of the benchmark's first board, computed here from the word list itself
    from puzzlesearch.boggle.model import Board
    from puzzlesearch.boggle.reference import boggle_words, reference_score
    from puzzlesearch.report.bench import rolled_boards

    words = boggle_words(pl.read_parquet(root / "results/lexicon/tiny/words.parquet")["word"])
    boards = rolled_boards(200, 1)
    total = sum(reference_score(Board(4, 4, tuple(int(c) for c in b)), words)[0] for b in boards)
    assert total == table["total_score"][0]


NYT = {"size": 7, "min_length": 4, "short_length": 4, "short_points": 1, "pangram_bonus": 7, "exclude": "s"}


def lexicon_words(root, lexicon: str = "tiny") -> list[str]:
    """The distinct words of one of the small run's lexicons (tiny: Boggle and Bee; english: crosswords)."""
    return sorted(set(pl.read_parquet(root / f"results/lexicon/{lexicon}/words.parquet")["word"].to_list()))


def test_the_lexicon_baseline_counts_prefixes_and_suffix_classes(run):
    root, _ = run
    figures = json.loads((root / "results/report/benchmarks/lexicon.json").read_text())
    words = lexicon_words(root)
    assert figures["words"] == len(words) and figures["methods"][1].startswith("plain trie")
    dawg_nodes, trie_nodes = figures["nodes"]
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    assert trie_nodes == len(prefixes) + 1  # one node per distinct prefix, and the root
    # the minimal DAWG: one node per distinct right language (the set of endings after a prefix)
    endings: dict[str, set[str]] = {}
    for w in words:
        for i in range(len(w) + 1):
            endings.setdefault(w[:i], set()).add(w[i:])
    assert dawg_nodes == len({frozenset(e) for e in endings.values()}) < trie_nodes
    assert all(s >= 0 for s in figures["seconds"])


def brute_force_bee(words: list[str]) -> list[tuple]:
    """Every NYT puzzle of `words`, best first: (letters, center, points, words, pangrams), word by word."""
    ok = [w for w in words if len(w) >= 4 and "s" not in w and len(set(w)) <= 7]
    out = []
    for letters in {frozenset(w) for w in ok if len(set(w)) == 7}:
        fits = [w for w in ok if set(w) <= letters]
        for center in letters:
            hits = [w for w in fits if center in w]
            points = sum((1 if len(w) == 4 else len(w)) + 7 * (len(set(w)) == 7) for w in hits)
            pangrams = sum(set(w) == letters for w in fits)
            out.append((-points, -len(hits), "".join(sorted(letters)).upper(), center.upper(), pangrams))
    return [(r[2], r[3], -r[0], -r[1], r[4]) for r in sorted(out)]


def test_the_bee_baseline_and_kernel_agree_with_brute_force(run):
    from puzzlesearch.report.bench import bee_rules

    assert {k: getattr(bee_rules(), k) for k in NYT} == NYT  # the rules the brute force below follows
    root, _ = run
    figures = json.loads((root / "results/report/benchmarks/bee.json").read_text())
    words = lexicon_words(root)
    expected = brute_force_bee(words)
    assert figures["puzzles"] == len(expected) > 0
    assert [tuple(r.values()) for r in figures["top"]] == expected[: len(figures["top"])]
    assert figures["words"] == sum(len(w) >= 4 and "s" not in w and len(set(w)) <= 7 for w in words)
    assert set(figures["seconds"]) == set(figures["methods"]) and all(len(v) == 2 for v in figures["seconds"].values())


@pytest.mark.parametrize("bench", ["lexicon", "bee"])
def test_a_baseline_benchmark_fails_when_the_methods_disagree(bench, tmp_path, monkeypatch):
    from puzzlesearch.baselines import bee as bee_baselines
    from puzzlesearch.baselines import lexicon as lexicon_baselines
    from puzzlesearch.errors import PuzzleError
    from puzzlesearch.lexicon import LexiconSpec
    from puzzlesearch.lexicon.artifacts import build_words
    from puzzlesearch.report import bench as bench_mod

    (tmp_path / "list.txt").write_text("\n".join(EXTRA_WORDS) + "\n")
    path = tmp_path / "words.parquet"
    build_words(LexiconSpec("t", str(tmp_path / "list.txt")), tmp_path / "list.txt", path)
    run_it = getattr(bench_mod, f"run_{bench}")
    assert run_it(path)  # they agree on the real words
    if bench == "lexicon":
        monkeypatch.setattr(lexicon_baselines, "trie_size", lambda words: (10**6, len(words) + 1, 0.0))
    else:
        honest = bee_baselines.baseline_puzzles
        monkeypatch.setattr(bee_baselines, "baseline_puzzles", lambda *a: honest(*a)[1:])
    with pytest.raises(PuzzleError, match="benchmark"):
        run_it(path)


def test_the_cube_benchmark_summarises_the_solve_tables(run):
    import importlib.util

    from puzzlesearch.baselines.cube_peers import CUBE_PEERS

    root, _ = run
    figures = json.loads((root / "results/report/benchmarks/cube.json").read_text())
    ours = [r for r in figures["rows"] if r["kind"] == "this run"]
    assert [r["name"] for r in ours] == ["thistlethwaite"] and figures["cubes"] == 3
    table = pl.read_parquet(root / "results/cube/thistlethwaite/r3.parquet")
    ms, moves = table["milliseconds"].to_numpy(), table["moves"].to_numpy()
    assert ours[0]["median_ms"] == pytest.approx(np.median(ms)) and ours[0]["mean_ms"] == pytest.approx(ms.mean())
    assert ours[0]["mean_moves"] == pytest.approx(moves.mean()) and ours[0]["max_moves"] == moves.max()
    assert [p["name"] for p in figures["peers"]] == [p.name for p in CUBE_PEERS]
    assert {p["name"]: p["mean_ms"] for p in figures["peers"]}["min2phase (Java)"] == 7.96
    installed = importlib.util.find_spec("kociemba") is not None
    assert figures["kociemba_installed"] == installed == any(r["kind"] != "this run" for r in figures["rows"])


def grid_words(rows: list[str]) -> list[str]:
    """The runs of 2+ letters of a grid, across then down (independent of the fill's own slot code)."""
    columns = ["".join(col) for col in zip(*rows)]
    return [w for line in rows + columns for w in line.split("#") if len(w) >= 2]


def test_the_crossword_benchmark_fills_are_valid(run, wordnet_phrases):
    root, _ = run
    figures = json.loads((root / "results/report/benchmarks/crossword.json").read_text())
    assert figures["filled"] == [True, True] and figures["node_budget"] == 100_000
    words = set(lexicon_words(root, "english")) | wordnet_phrases  # the tables add WordNet's phrases
    pattern = FRAME.split()
    for grid in figures["grid"]:
        assert [[ch == "#" for ch in row] for row in grid] == [[ch == "#" for ch in row] for row in pattern]
        found = grid_words(grid)
        assert len(found) == 4 and len(set(found)) == 4 and set(found) <= words, grid
    assert all(0 < n <= figures["node_budget"] for n in figures["nodes"])


def test_the_cube_benchmark_fails_on_a_wrong_answer(tmp_path):
    from puzzlesearch.cube.model.cubie import SOLVED, parse_moves
    from puzzlesearch.errors import PuzzleError
    from puzzlesearch.kinds import CUBE_SOLVES as CUBE_SOLVES_KIND
    from puzzlesearch.manifest import write_result_parquet
    from puzzlesearch.report.bench import run_cube

    cube = SOLVED.apply(parse_moves("R U F2"))
    row = {"cube": cube.to_text(), "moves": 3, "milliseconds": 1.0, "stopped_by": "complete"}
    for name, solution in (("good", "F2 U' R'"), ("bad", "F2 U R'")):  # as `cube solve --out` writes them
        df = pl.DataFrame([dict(row, solution=solution)])
        write_result_parquet(df, tmp_path / f"{name}.parquet", CUBE_SOLVES_KIND, {}, {"solver": "a"})
    assert run_cube(["a"], [str(tmp_path / "good.parquet")])["rows"][0]["max_moves"] == 3
    with pytest.raises(PuzzleError, match="does not solve"):
        run_cube(["a"], [str(tmp_path / "bad.parquet")])


def test_the_kociemba_baseline_verifies_each_answer(monkeypatch):
    import sys
    import types

    from puzzlesearch.baselines.cube_peers import kociemba_solves
    from puzzlesearch.cube.model.cubie import SOLVED, parse_moves
    from puzzlesearch.cube.model.facelets import to_facelets
    from puzzlesearch.cube.solve import UnverifiedSolution

    cube = SOLVED.apply(parse_moves("R U F2"))
    answers = {to_facelets(cube): "F2 U' R'"}  # a stand-in for the C package: its answer format
    monkeypatch.setitem(sys.modules, "kociemba", types.SimpleNamespace(solve=lambda facelets: answers[facelets]))
    moves, ms = kociemba_solves([cube, cube])
    assert moves == [3, 3] and len(ms) == 2
    answers[to_facelets(cube)] = "F2 U R'"
    with pytest.raises(UnverifiedSolution):
        kociemba_solves([cube])


def test_a_fill_with_a_foreign_word_is_refused():
    from puzzlesearch.crossword.model import Alphabet
    from puzzlesearch.errors import PuzzleError
    from puzzlesearch.report.bench import check_fill

    alphabet = Alphabet("abcdefghijklmnopqrstuvwxyz", "ltr")
    rows = ["tear", "a##e", "n##n", "girt"]
    grid = np.array([[0 if ch == "#" else ord(ch) - 96 for ch in row] for row in rows], dtype=np.int8)
    pattern = np.where(grid == 0, 0, -1)

    class Fill:  # the one field check_fill reads
        pass

    Fill.grid = grid
    check_fill(pattern, Fill, alphabet, {"tear", "tang", "rent", "girt"}, "fill")
    with pytest.raises(PuzzleError, match="not a valid fill"):
        check_fill(pattern, Fill, alphabet, {"tear", "tang", "rent"}, "fill")


def test_the_crossword_benchmark_runs_on_the_default_english_tables(config, project, wordnet_phrases):
    """The default run's crossword benchmark (bench13, the default fill settings, 100k nodes) on the real
    English tables: its fills hold WordNet phrases, which the lexicon lacks (the run of 7f0a5c4 stopped
    on TULIPTREE)."""
    from pathlib import Path

    from puzzlesearch.crossword.fill import FillSettings
    from puzzlesearch.crossword.tables import open_tables
    from puzzlesearch.lexicon import open_lexicon
    from puzzlesearch.lexicon.artifacts import WORDS_FILE
    from puzzlesearch.report.bench import run_crossword

    settings = FillSettings()
    tables = open_tables("en", config, project, settings.min_frequency, min_score=settings.min_score)
    words = open_lexicon("default", config, project).dir / WORDS_FILE
    pattern = Path(__file__).resolve().parents[2] / "workflow/crossword/patterns/bench13.txt"
    out = run_crossword(tables.clues_path.with_name("tables.npz"), words, pattern, settings, 100_000)
    found = {w for grid in out["grid"] for w in grid_words(grid)}
    from puzzlesearch.lexicon import constructors

    lexicon = set(pl.read_parquet(words)["word"].to_list())
    listed = set(constructors.open_list().scores())  # the default English tables merge the constructors' list
    assert any(out["filled"]) and found <= lexicon | wordnet_phrases | listed
    assert found - lexicon  # phrases among the entries: the case the benchmark's own check must accept


# ---------------------------------------------------------------- the figures' numbers


def seeds_frame() -> pl.DataFrame:
    """A made-up stack of two seed tables."""
    return pl.DataFrame(
        {
            "seed": [0, 0, 0, 0, 1, 1, 1],
            "score": [5, 9, 7, 12, 3, 3, 8],
            "words": [1] * 7,
            "seconds": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7],
            "boards_scored": [10, 20, 30, 40, 5, 15, 25],
        }
    )


def test_progress_is_the_running_max_in_finding_order():
    from puzzlesearch.report.data import progress_curves

    curves = progress_curves(seeds_frame().sample(fraction=1.0, shuffle=True, seed=3))
    assert curves[0][0].tolist() == [10, 20, 30, 40] and curves[0][2].tolist() == [5, 9, 9, 12]
    assert curves[1][2].tolist() == [3, 3, 8]


def test_histogram_counts_equal_numpy():
    from puzzlesearch.report.data import score_histograms

    seeds = seeds_frame()
    edges, counts = score_histograms(seeds)
    assert edges[0] == 3 and edges[-1] == 12
    for seed in (0, 1):
        scores = seeds.filter(pl.col("seed") == seed)["score"].to_numpy()
        assert counts[seed].tolist() == np.histogram(scores, edges)[0].tolist()
    assert sum(c.sum() for c in counts.values()) == seeds.height


def test_board_figure_shows_the_board_letters():
    from puzzlesearch.report import plots
    from puzzlesearch.report.data import board_letters

    fig = plots.draw_board(board_letters("qatsrine", 2, 4), "t")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts == ["Qu", "A", "T", "S", "R", "I", "N", "E"]


def test_arabic_grid_is_drawn_right_to_left():
    from puzzlesearch.crossword.io import to_ipuz
    from puzzlesearch.crossword.model import Alphabet, Language
    from puzzlesearch.report import plots
    from puzzlesearch.report.data import ipuz_cells

    letters = "ابتثجح"
    lang = Language("ar", "arabic", Alphabet(letters, "rtl"), letters)
    grid = np.array([[1, 2, 0], [3, 4, 5], [0, 6, 1]], dtype=np.int8)  # reading order: column 0 = first letter
    cells, numbers = ipuz_cells(to_ipuz(grid, lang))
    assert cells[0] == ["#", letters[1], letters[0]]  # page order: the first letter at the right
    assert numbers[0][2] == 1 and numbers[0][0] == 0  # clue 1 starts at the right edge
    fig = plots.draw_crossword(cells, numbers, "t", rtl=True)
    drawn = [t.get_text() for t in fig.axes[0].texts]
    assert [ch for ch in drawn if ch in letters] == [ch for row in cells for ch in row if ch != "#"]


def test_crossword_trace_ends_at_the_result(run):
    """A progressive search traces its best cost from pops 0; a pattern fill is one point, the filled grid."""
    root, _ = run
    strategies, stops = set(), set()
    for path in sorted(root.glob("results/crossword/*/5/*_seed*.json")):
        summary = json.loads(path.read_text())
        trace, row = summary["trace"], summary["row"]
        assert trace["pops"] == sorted(trace["pops"])
        assert all(a > b for a, b in zip(trace["cost"], trace["cost"][1:-1]))  # a point per new best
        assert trace["cost"][-1] == row["cost"] and trace["pops"][-1] == row["pops"]
        if row["strategy"] == "pattern":
            assert trace["cost"] == [0] and row["pops"] > 0  # the one filled pattern, after its fill nodes
        else:
            assert trace["pops"][0] == 0
        strategies.add(row["strategy"])
        stops.add(row["stopped_by"])
    assert "pattern" in strategies and len(strategies) == 2  # en by patterns, num by progressive search
    assert stops == {"cost"}  # only cost-0 grids are written


def test_bee_table_lists_the_best_puzzles():
    from puzzlesearch.report import plots
    from puzzlesearch.report.data import bee_top, in_window

    puzzles = pl.DataFrame(
        {
            "rank": [2, 1, 3],
            "letters": ["ABCDEFG", "AEGINRT", "BCDEFGH"],
            "center": ["A", "R", "B"],
            "points": [50, 75, 10],
            "words": [30, 19, 60],
            "pangrams": [1, 1, 2],
            "mask": [0, 0, 0],
        }
    )
    top = bee_top(puzzles, 2)
    assert top["letters"].to_list() == ["AEGINRT", "ABCDEFG"]
    page = plots.bee_table_html(top, "t")
    assert "AEGIN<b>R</b>T" in page and "BCDEFGH" not in page
    assert in_window(puzzles) == 1


def test_report_command_errors_are_one_line(tmp_path):
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "puzzlesearch",
            "report",
            "bee",
            "--lexicon",
            "x",
            "--puzzles",
            str(tmp_path / "missing.parquet"),
            "--top-out",
            str(tmp_path / "t.html"),
            "--points-out",
            str(tmp_path / "p.png"),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "missing.parquet" in out.stderr
    assert not (tmp_path / "t.html").exists()
