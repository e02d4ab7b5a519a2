"""Boggle settings objects, pipeline mode (--settings) and one-line errors for bad input."""

from __future__ import annotations

import polars as pl
import pytest

from puzzlesearch.boggle.model import (
    parse_board,
)
from puzzlesearch.boggle.reference import reference_score
from puzzlesearch.boggle.settings import RankSettings, ScanSettings, SearchSettings
from puzzlesearch.errors import PuzzleError

# ---------------------------------------------------------------- settings, pipeline mode, input gaps

HUGE_POINTS = [0, 0, 0, 10**9, 2 * 10**9, 3 * 10**9, 5 * 10**9, 11 * 10**9]  # int32 would overflow


def run_cli(*args, env=None, cwd=None):
    """`python -m puzzlesearch ARGS` as a real process (output captured)."""
    import os
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "puzzlesearch", *map(str, args)],
        capture_output=True,
        text=True,
        env=None if env is None else {**os.environ, **env},
        cwd=cwd,
    )


def assert_one_line_error(proc, *needles):
    """Exit 2, one `puzzlesearch: error:` line (the last; log lines may come before), naming every needle."""
    lines = proc.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("puzzlesearch: error:")]
    assert proc.returncode == 2, proc.stderr
    assert len(errors) == 1 and lines[-1] == errors[0], proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])


@pytest.fixture(scope="module")
def pipeline_files(enable2k, tmp_path_factory):
    """Copies of enable2k's words.parquet/.json and boggle_dawg.npz/.json: a pipeline lexicon folder."""
    import shutil

    folder = tmp_path_factory.mktemp("lexicon") / "enable2k"
    folder.mkdir()
    for name in ("words.parquet", "words.json", "boggle_dawg.npz", "boggle_dawg.json"):
        shutil.copy(enable2k.dir / name, folder / name)
    return folder


def pipeline_args(folder, settings, *extra):
    return [
        "boggle",
        *extra[:1],
        "--settings",
        settings.to_json(),
        "--words",
        folder / "words.parquet",
        "--dawg",
        folder / "boggle_dawg.npz",
        *extra[1:],
    ]


def test_settings_come_from_the_schema_and_hold_one_jobs_dice():
    from puzzlesearch.settings import section_defaults

    defaults = section_defaults("boggle")
    search = SearchSettings()
    assert {k: getattr(search, k) for k in SearchSettings.keys() if k != "dice"} == {
        k: defaults[k] for k in SearchSettings.keys() if k != "dice"
    }
    assert search.seconds >= 600 and search.max_boards > 0  # time is a safety cap, boards the bound
    assert RankSettings().keep == defaults["keep"] and ScanSettings().scan == defaults["scan"]
    section = {**defaults, "dice": {"4x4": "classic", "5x5": "big"}}
    four = SearchSettings.for_job(section, "4x4", "dice")
    assert four.dice == "classic" and SearchSettings.for_job(section, "4x4", "free").dice is None
    other = {**section, "dice": {"4x4": "classic", "5x5": ["abcdef"] * 25}}  # the 5x5 set changes
    assert SearchSettings.for_job(other, "4x4", "dice").to_json() == four.to_json()
    assert SearchSettings.from_json(four.to_json()) == four
    with pytest.raises(PuzzleError, match="boggle.dice.3x3"):
        SearchSettings.for_job(section, "3x3", "dice")
    with pytest.raises(PuzzleError, match="boggle.seconds"):
        SearchSettings(seconds=float("nan"))


INPUT_GAPS = [
    (["search", "--shape", "3x3", "--seconds", "nan"], ["--seconds nan"]),
    (["search", "--shape", "3x3", "--max-boards", "-1"], ["--max-boards -1"]),
    (["search", "--shape", "3x3", "--keep", "-3"], ["--keep -3"]),
    (["search", "--shape", "3x3", "--pool-size", "-5"], ["--pool-size -5"]),
    (["search", "--shape", "3x3", "--mode", "dice", "--dice", "classic"], ["--dice classic", "16 dice", "exactly 9"]),
    (["search", "--shape", "3x3", "--mode", "dice", "--dice", ",".join(["abcdef"] * 8)], ["8 dice", "exactly 9"]),
    (["search", "--set", "keep=[1"], ["--set 'keep=[1'"]),
    (["search", "--set", "nope=1"], ["--set 'nope=1'"]),
    (["rank", "x.parquet", "--out", "y.parquet", "--set", "keep=-1"], ["boggle.keep"]),
    (["scan", "streaedlp", "--set", "scan.distance=3"], ["boggle.scan.distance"]),
    (["score", "streaedlp", "--points", "0,0,0,-1"], ["--points"]),
    (["score", "streaedlp", "--points", "0,0,0,1000000000000000000"], ["--points"]),
]


def test_input_gaps_are_one_line_errors(tmp_path):
    import subprocess
    import sys

    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "puzzlesearch", "boggle", *args],
            cwd=tmp_path,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for args, _ in INPUT_GAPS
    ]
    for proc, (args, needles) in zip(procs, INPUT_GAPS):  # started together: the cases run in parallel
        out, err = proc.communicate(timeout=120)
        assert_one_line_error(subprocess.CompletedProcess(args, proc.returncode, out, err), *needles)


def test_huge_points_agree_everywhere_with_brute_force(enable2k, reference, pipeline_files, tmp_path):

    words, pre = reference
    points = ",".join(map(str, HUGE_POINTS))
    board = parse_board("perslatgsineters")
    expect = reference_score(board, words, points=HUGE_POINTS, prefix_set=pre)[0]
    assert expect > 2**31  # would overflow int32
    out = run_cli("boggle", "score", board, "--lexicon", enable2k.spec.source, "--points", points)
    assert out.returncode == 0, out.stderr
    assert f"score {expect}\t" in out.stdout

    seed = tmp_path / "seed0.parquet"
    search = SearchSettings().replace(points=HUGE_POINTS, max_boards=3000, pool_size=20, keep=5)
    out = run_cli(*pipeline_args(pipeline_files, search, "search", "--shape", "3x3", "--out", seed))
    assert out.returncode == 0, out.stderr
    table = pl.read_parquet(seed)
    assert table["score"].dtype == pl.Int64 and table["stopped_by"].to_list() == ["boards"] * table.height
    for text, score in zip(table["board"], table["score"]):
        assert score == reference_score(parse_board(text), words, HUGE_POINTS, pre)[0], text
    best = tmp_path / "best.parquet"
    rank = RankSettings().replace(points=HUGE_POINTS)
    out = run_cli(*pipeline_args(pipeline_files, rank, "rank", "--shape", "3x3", "--out", best, seed))
    assert out.returncode == 0, out.stderr
    assert pl.read_parquet(best)["score"].to_list() == table["score"].to_list()
    scan = ScanSettings().replace(points=HUGE_POINTS, scan={"boards": 1, "distance": 1, "swaps": False, "keep": 3})
    top, summary = tmp_path / "scan.parquet", tmp_path / "scan.json"
    out = run_cli(
        *pipeline_args(
            pipeline_files, scan, "scan", "--from", best, "--shape", "3x3", "--out", top, "--summary", summary
        )
    )
    assert out.returncode == 0, out.stderr
    neighbours = pl.read_parquet(top)
    assert neighbours["center_score"][0] == table["score"][0]
    for text, score in zip(neighbours["board"], neighbours["score"]):
        assert score == reference_score(parse_board(text), words, HUGE_POINTS, pre)[0], text


def test_pipeline_search_fails_when_the_time_cap_stops_it(pipeline_files, tmp_path):
    out_file = tmp_path / "seed.parquet"
    capped = SearchSettings().replace(seconds=0.5, max_boards=10**9)
    out = run_cli(*pipeline_args(pipeline_files, capped, "search", "--shape", "4x4", "--out", out_file))
    assert_one_line_error(out, "boggle.seconds", "boggle.max_boards")
    assert not out_file.exists()
    unbounded = SearchSettings().replace(max_boards=0)
    out = run_cli(*pipeline_args(pipeline_files, unbounded, "search", "--out", out_file))
    assert_one_line_error(out, "boggle.max_boards is 0")
    out = run_cli(*pipeline_args(pipeline_files, SearchSettings(), "search", "--seconds", "5", "--out", out_file))
    assert_one_line_error(out, "--seconds")
    out = run_cli(
        "boggle", "search", "--settings", "{}", "--words", pipeline_files / "words.parquet", "--out", out_file
    )
    assert_one_line_error(out, "--dawg")
    out = run_cli(*pipeline_args(pipeline_files, SearchSettings(), "search", "--mode", "dice", "--out", out_file))
    assert_one_line_error(out, "dice")
    assert not out_file.exists()


def flip_byte(path, offset_fraction=0.5):
    """Flip the bits of one byte in the middle of a file."""
    data = bytearray(path.read_bytes())
    data[int(len(data) * offset_fraction)] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("name", ["boggle_dawg.npz", "words.parquet"])
def test_damaged_pipeline_input_is_one_line(pipeline_files, tmp_path, name):
    import shutil

    folder = tmp_path / "lex"
    shutil.copytree(pipeline_files, folder)
    flip_byte(folder / name)
    settings = SearchSettings().replace(max_boards=100)
    out = run_cli(*pipeline_args(folder, settings, "search", "--shape", "3x3", "--out", tmp_path / "s.parquet"))
    assert_one_line_error(out, str(folder / name), "checksum")
    assert not (tmp_path / "s.parquet").exists()


def test_dawg_of_another_word_table_is_refused(pipeline_files, tmp_path):
    import shutil

    folder = tmp_path / "lex"
    shutil.copytree(pipeline_files, folder)
    words = pl.read_parquet(folder / "words.parquet").head(1000)
    words.write_parquet(folder / "words.parquet")  # a consistent words.json for another table
    from puzzlesearch.manifest import read_manifest, write_manifest

    meta = read_manifest(folder / "words.json")
    write_manifest(
        folder / "words.json",
        [folder / "words.parquet"],
        "lexicon-words",
        meta["manifest"]["settings"],
        {k: v for k, v in meta.items() if k != "manifest"},
    )
    out = run_cli(
        *pipeline_args(folder, SearchSettings().replace(max_boards=100), "search", "--out", tmp_path / "s.parquet")
    )
    assert_one_line_error(out, "boggle_dawg.npz", "another word table")


@pytest.mark.parametrize("name", ["boggle_dawg.npz", "words.parquet"])
def test_damaged_store_artifact_is_one_line(tmp_path, name):
    store = tmp_path / "store"
    wordlist = tmp_path / "mini.txt"
    wordlist.write_text("cat\ncats\nact\nacts\nscat\ntacs\n")
    env = {"PUZZLESEARCH_STORE": str(store)}
    ok = run_cli("boggle", "score", "catsxxxxx", "--lexicon", wordlist, env=env, cwd=tmp_path)
    assert ok.returncode == 0 and "score " in ok.stdout, ok.stderr
    (path,) = store.glob(f"lexicon/*/{name}")
    flip_byte(path)
    out = run_cli("boggle", "score", "catsxxxxx", "--lexicon", wordlist, env=env, cwd=tmp_path)
    assert_one_line_error(out, str(path))
