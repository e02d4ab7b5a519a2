"""Boggle result tables carry a manifest entry that every reader checks (issue 30, case 2), as real processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from byte_flips import positions

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
WORDS = PROJECT.parent / "shared" / "wordlists" / "english0.txt"


def run(*argv, cwd: Path) -> subprocess.CompletedProcess:
    """puzzlesearch as a real process with a store of its own, outside any project."""
    env = {**os.environ, "PUZZLESEARCH_STORE": str(cwd / "store")}
    return subprocess.run(
        [str(PUZZLESEARCH), *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def one_line_error(out: subprocess.CompletedProcess) -> str:
    """The single `puzzlesearch: error:` line of a failed run (no traceback)."""
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(lines) == 1, out.stderr[-2000:]
    return lines[0]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Two seed tables and their ranking of a 3x3 search over a real word list."""
    if not WORDS.is_file():
        pytest.skip(f"{WORDS} not present")
    folder = tmp_path_factory.mktemp("boggle_results")
    shutil.copy(WORDS, folder / "words.txt")
    common = ["--lexicon", "words.txt", "--shape", "3x3", "--max-boards", "2000", "--pool-size", "10", "--keep", "8"]
    for seed in (0, 1):
        out = run("boggle", "search", *common, "--seed", seed, "--out", f"seed{seed}.parquet", cwd=folder)
        assert out.returncode == 0, out.stderr
    out = run(
        "boggle", "rank", "--lexicon", "words.txt", "--shape", "3x3", "--out", "best.parquet", "seed0.parquet",
        "seed1.parquet", cwd=folder,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return folder


def flip_positions(folder: Path, names: tuple[str, ...]) -> str:
    """A line of script source setting POSITIONS: each file's flipped bytes (byte_flips' rule: every byte of a
    small file, a seeded sample and both ends of a larger one)."""
    return f"POSITIONS = { ({name: positions((folder / name).stat().st_size) for name in names})!r}\n"


def rank(folder: Path, *seeds: str) -> subprocess.CompletedProcess:
    """`boggle rank` of seed tables in `folder` into other.parquet."""
    return run(
        "boggle", "rank", "--lexicon", "words.txt", "--shape", "3x3", "--out", "other.parquet", *seeds, cwd=folder
    )


def test_a_flipped_byte_in_a_seed_table_is_an_error(tables, tmp_path):
    folder = tmp_path / "f"
    shutil.copytree(tables, folder, ignore=shutil.ignore_patterns("store"))
    os.symlink(tables / "store", folder / "store")
    data = bytearray((folder / "seed0.parquet").read_bytes())
    data[84] ^= 0xFF
    (folder / "seed0.parquet").write_bytes(bytes(data))
    assert "seed0.parquet" in one_line_error(rank(folder, "seed0.parquet", "seed1.parquet"))
    assert not (folder / "other.parquet").exists()


def test_a_swapped_seed_table_is_an_error(tables, tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    os.symlink(tables / "store", folder / "store")
    shutil.copy(tables / "words.txt", folder / "words.txt")
    shutil.copy(tables / "seed1.parquet", folder / "seed0.parquet")  # seed 1's table under seed 0's name
    shutil.copy(tables / "seed1.parquet", folder / "seed1.parquet")
    line = one_line_error(rank(folder, "seed0.parquet", "seed1.parquet"))
    assert "seed0.parquet" in line and "seed" in line, line
    shutil.copy(tables / "seed1.parquet", folder / "copy.parquet")  # the same seed twice under any names
    line = one_line_error(rank(folder, "seed1.parquet", "copy.parquet"))
    assert "seed 1" in line, line


def test_a_ranking_of_other_points_is_refused_by_scan(tables):
    out = run(
        "boggle", "scan", "--lexicon", "words.txt", "--points", "0,0,0,1,1,2,3,5,12", "--from", "best.parquet",
        "--shape", "3x3", "--boards", "1", "--distance", "1", cwd=tables,
    )  # fmt: skip
    line = one_line_error(out)
    assert "best.parquet" in line and "points" in line, line


def test_scan_json_records_what_built_it(tables):
    out = run(
        "boggle", "scan", "--lexicon", "words.txt", "--from", "best.parquet", "--shape", "3x3", "--boards", "1",
        "--distance", "1", "--keep", "3", "--out", "scan.parquet", "--summary", "scan.json", cwd=tables,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    check = (
        "import sys; from puzzlesearch.manifest import read_result_json, read_result_parquet\n"
        "summary = read_result_json('scan.json', 'boggle-scan-summary', {'shape': '3x3'})\n"
        "table, entry = read_result_parquet('scan.parquet', 'boggle-scan', {'shape': '3x3'})\n"
        "assert summary['boards'] and table.height and entry['built']['boards'], (summary, entry)\n"
        "text = open('scan.json').read().replace('\"swaps\": true', '\"swaps\": false')\n"
        "open('scan-changed.json', 'w').write(text)\n"
        "try:\n    read_result_json('scan-changed.json', 'boggle-scan-summary')\n"
        "except Exception as exc:\n    print(exc)\nelse:\n    sys.exit('a changed scan.json was read')\n"
    )
    done = subprocess.run([sys.executable, "-c", check], cwd=tables, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "checksum" in done.stdout, done.stdout + done.stderr


def test_every_flipped_byte_of_a_result_is_caught_or_harmless(tables):
    """Flip each byte of seed0.parquet and best.parquet in turn (a sample of a larger file, byte_flips.positions):
    the reader errors or returns the same table."""
    script = (
        "import sys\n"
        "from puzzlesearch.errors import PuzzleError\n"
        "from puzzlesearch.boggle.rank import read_table, SEED_KIND, BEST_KIND\n"
        "silent = 0\n"
        "for name, kind in (('seed0.parquet', SEED_KIND), ('best.parquet', BEST_KIND)):\n"
        "    good = open(name, 'rb').read()\n"
        "    want = read_table(name, kind)\n"
        "    for i in POSITIONS[name]:\n"
        "        bad = bytearray(good); bad[i] ^= 0xFF\n"
        "        open('flip-' + name, 'wb').write(bytes(bad))\n"
        "        try:\n"
        "            got = read_table('flip-' + name, kind)\n"
        "        except PuzzleError:\n"
        "            continue\n"
        "        silent += not got.equals(want)\n"
        "print(silent)\n"
    )
    folder = tables
    script = flip_positions(folder, ("seed0.parquet", "best.parquet")) + script
    done = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0 and done.stdout.split() == ["0"], done.stdout + done.stderr[-3000:]


def test_a_flipped_byte_that_makes_polars_panic_is_one_line_and_nothing_on_stderr(tables, tmp_path, monkeypatch):
    """A damaged table on which polars' Rust threads panic: the CLI gives its one line, and the panic
    lines polars prints (with RUST_BACKTRACE=1, a backtrace too) never reach stderr."""
    from puzzlesearch.boggle.rank import BEST_KIND, read_table
    from puzzlesearch.errors import PuzzleError

    good = (tables / "best.parquet").read_bytes()
    flip = tmp_path / "best.parquet"
    for i in range(len(good)):
        bad = bytearray(good)
        bad[i] ^= 0xFF
        flip.write_bytes(bytes(bad))
        try:
            read_table(flip, BEST_KIND)
        except PuzzleError as exc:
            if "PanicException" in str(exc):
                break
    else:
        pytest.fail("no flipped byte of best.parquet made polars panic")
    folder = tmp_path / "r"
    shutil.copytree(tables, folder, ignore=shutil.ignore_patterns("store"))
    os.symlink(tables / "store", folder / "store")
    shutil.copy(flip, folder / "best.parquet")
    monkeypatch.setenv("RUST_BACKTRACE", "1")
    out = run(
        "boggle", "scan", "--lexicon", "words.txt", "--from", "best.parquet", "--shape", "3x3", "--boards", "1",
        cwd=folder,
    )  # fmt: skip
    line = one_line_error(out)
    assert "best.parquet" in line and "Parquet" in line
    assert out.stderr.strip() == line, out.stderr[-2000:]  # nothing but the one line: no panic lines


def test_every_flipped_byte_is_caught_or_harmless_in_the_report_too(tables):
    """The report's readers of the seed tables and the ranking: an error or the same table on every flip."""
    script = (
        "from puzzlesearch.errors import PuzzleError\n"
        "from puzzlesearch.boggle.rank import SEED_KIND, BEST_KIND\n"
        "from puzzlesearch.report import data\n"
        "from puzzlesearch import kinds\n"
        "assert (kinds.BOGGLE_SEED, kinds.BOGGLE_BEST) == (SEED_KIND, BEST_KIND)\n"
        "readers = {'seed0.parquet': lambda p: data.seed_tables([p]),\n"
        "           'best.parquet': lambda p: data.read_table(p, kinds.BOGGLE_BEST)}\n"
        "silent = detected = 0\n"
        "for name, read in readers.items():\n"
        "    good = open(name, 'rb').read()\n"
        "    want = read(name)\n"
        "    for i in POSITIONS[name]:\n"
        "        bad = bytearray(good); bad[i] ^= 0xFF\n"
        "        open('rflip-' + name, 'wb').write(bytes(bad))\n"
        "        try:\n"
        "            got = read('rflip-' + name)\n"
        "        except PuzzleError:\n"
        "            detected += 1\n"
        "            continue\n"
        "        silent += not got.equals(want)\n"
        "print(silent, detected > 0)\n"
    )
    script = flip_positions(tables, ("seed0.parquet", "best.parquet")) + script
    done = subprocess.run([sys.executable, "-c", script], cwd=tables, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0 and done.stdout.split() == ["0", "True"], done.stdout + done.stderr[-3000:]


def test_the_report_checks_the_tables_it_draws(tables, tmp_path):
    """`report boggle` and `report boggle-scan` refuse a ranking or scan summary changed after it was written."""
    import json

    import polars as pl

    from puzzlesearch.manifest import RESULT_KEY

    folder = tmp_path / "r"
    shutil.copytree(tables, folder, ignore=shutil.ignore_patterns("store"))
    os.symlink(tables / "store", folder / "store")
    out = run(
        "boggle", "scan", "--lexicon", "words.txt", "--from", "best.parquet", "--shape", "3x3", "--boards", "1",
        "--distance", "1", "--keep", "3", "--summary", "scan.json", cwd=folder,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    summary = json.loads((folder / "scan.json").read_text())
    summary["boards"][0]["score"] += 1
    (folder / "scan.json").write_text(json.dumps(summary))
    out = run("report", "boggle-scan", "--title", "t", "--summary", "scan.json", "--out", "s.svg", cwd=folder)
    assert "scan.json" in one_line_error(out)

    entry = pl.read_parquet_metadata(folder / "best.parquet")[RESULT_KEY]
    best = pl.read_parquet(folder / "best.parquet")
    best.with_columns(score=pl.col("score") + 1).write_parquet(folder / "best.parquet", metadata={RESULT_KEY: entry})
    outs = ["--board-out", "b.svg", "--progress-out", "p.svg", "--histogram-out", "h.svg"]
    out = run(
        "report", "boggle", "--lexicon", "words", "--shape", "3x3", "--mode", "free", "--best", "best.parquet",
        "--seeds", "seed0.parquet", "seed1.parquet", *outs, cwd=folder,
    )  # fmt: skip
    assert "best.parquet" in one_line_error(out)


def test_the_report_refuses_tables_of_another_shape_mode_or_lexicon(tables, tmp_path):
    """`report boggle` checks that the ranking and seed tables were built for its shape, mode and lexicon."""
    import json

    folder = tmp_path / "r"
    shutil.copytree(tables, folder, ignore=shutil.ignore_patterns("store"))
    os.symlink(tables / "store", folder / "store")
    (folder / "other.txt").write_text("\n".join(["tea", "eat", "ate", "tear", "rate"]) + "\n")
    words = {
        name: Path(json.loads(run("lexicon", "info", f"{name}.txt", cwd=folder).stdout)["dir"]) / "words.parquet"
        for name in ("words", "other")
    }
    outs = ["--board-out", "b.svg", "--progress-out", "p.svg", "--histogram-out", "h.svg"]

    def report(shape="3x3", mode="free", lexicon="words"):
        return run(
            "report", "boggle", "--lexicon", lexicon, "--shape", shape, "--mode", mode, "--best", "best.parquet",
            "--seeds", "seed0.parquet", "seed1.parquet", "--words", words[lexicon], *outs, cwd=folder,
        )  # fmt: skip

    assert report().returncode == 0
    assert "built with shape = '3x3', expected '4x4'" in one_line_error(report(shape="4x4"))
    assert "seed0.parquet" in one_line_error(report(mode="dice"))
    line = one_line_error(report(lexicon="other"))
    assert "best.parquet" in line and "built with lexicon" in line


SCAN_READERS = """
from puzzlesearch.manifest import read_result_json, read_result_parquet
from puzzlesearch.report import data
from puzzlesearch.report.summary import _boggle


def scan_table(work):  # scan.parquet through the checked reader of result tables
    table, entry = read_result_parquet(work / "scan.parquet", "boggle-scan", {"shape": "3x3"})
    return table, entry


def scan_summary(work):  # scan.json as `boggle scan` writes it
    return read_result_json(work / "scan.json", "boggle-scan-summary", {"shape": "3x3"})


def report_scan(work):  # `report boggle-scan`: the rows of its figure
    return data.scan_rows(data.read_boggle_scan(work / "scan.json"))


def run_summary(work):  # the end-of-run summary's Boggle line (best.parquet with scan.json beside it)
    return _boggle(work)
"""


@pytest.fixture(scope="module")
def scanned(tables, tmp_path_factory):
    """scan.parquet and scan.json of the ranking's best board, laid out as the pipeline writes them."""
    folder = tmp_path_factory.mktemp("boggle_scan")
    results = folder / "results" / "boggle" / "w" / "3x3" / "free"
    results.mkdir(parents=True)
    shutil.copy(tables / "words.txt", folder / "words.txt")
    shutil.copy(tables / "best.parquet", results / "best.parquet")
    out = run(
        "boggle", "scan", "--lexicon", "words.txt", "--from", str(results / "best.parquet"), "--shape", "3x3",
        "--boards", "1", "--distance", "1", "--keep", "3", "--out", "scan.parquet", "--summary", "scan.json",
        cwd=folder,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    for name in ("scan.parquet", "scan.json"):
        shutil.copy(folder / name, results / name)
    return folder


@pytest.mark.parametrize(
    "cases",
    [
        [("scan.parquet", "scan_table")],
        [
            ("scan.json", "scan_summary"),
            ("scan.json", "report_scan"),
            ("results/boggle/w/3x3/free/scan.json", "run_summary"),
        ],
    ],
    ids=["scan.parquet", "scan.json"],
)
def test_no_flipped_byte_of_a_scan_file_changes_what_is_read(scanned, cases):
    sys.path.insert(0, str(PROJECT / "tests"))
    from byte_flips import assert_no_silent_change, flip_files

    assert_no_silent_change(flip_files(scanned, SCAN_READERS, cases))
