"""Boggle rules in a throw-away copy of the project."""

from __future__ import annotations

from pipeline_util import copy_project, planned_rules, snakemake


def test_nested_config_override_reaches_the_plan(tmp_path):
    project = copy_project(tmp_path / "p")
    # `--config boggle='{seeds: 3}'`: Snakemake hands the nested 3 over as a string
    out = snakemake(
        project, "-n", "results/boggle/tiny/4x4/free/best.parquet", "--config", "boggle={lexicons: [tiny], seeds: 3}"
    )
    assert out.returncode == 0, out.stdout + out.stderr
    seeds = {
        line.split("seed")[-1]
        for line in (out.stdout + out.stderr).splitlines()
        if "output: results/boggle/tiny/4x4/free/seed" in line
    }
    assert seeds == {"0.parquet", "1.parquet", "2.parquet"}


def test_boggle_rules_run_on_a_rectangular_shape(tmp_path):
    import json

    import polars as pl

    root = copy_project(tmp_path / "p")
    target = "results/boggle/tiny/3x4/free/scan.json"
    out = snakemake(
        root,
        target,
        "--config",
        "boggle={lexicons: [tiny], shapes: [3x4], seeds: 2, max_boards: 4000, pool_size: 10, "
        "scan: {boards: 1, distance: 1}}",
    )
    assert out.returncode == 0, out.stdout + out.stderr
    best = pl.read_parquet(root / "results/boggle/tiny/3x4/free/best.parquet")
    assert best["score"][0] > 0 and {"local_optimum", "found_by", "words"} <= set(best.columns)
    verdict = json.loads((root / target).read_text())["boards"][0]
    assert verdict["board"] == best["board"][0]
    assert verdict["neighbours"] > 12 * 25  # every single change, and swaps (scan.swaps defaults to true)
    assert sorted(p.name for p in (root / "results/boggle/tiny/3x4/free").iterdir()) == [
        "best.parquet",
        "scan.json",
        "scan.parquet",
        "seed0.parquet",
        "seed1.parquet",
    ]


def boggle_error(out):
    """The one `puzzlesearch: error:` line of a failed snakemake run (asserting no traceback)."""
    text = out.stdout + out.stderr
    assert out.returncode != 0 and "Traceback" not in text, text
    errors = [line for line in text.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(errors) == 1, text
    return errors[0]


def test_config_errors_are_one_line(tmp_path):
    project = copy_project(tmp_path / "p")
    error = boggle_error(snakemake(project, "-n", "--config", "boggle={lexicons: [tiny, nope]}"))
    assert "boggle.lexicons" in error and "'nope'" in error
    error = boggle_error(
        snakemake(project, "-n", "--config", "boggle={lexicons: [tiny], shapes: [3x3], modes: [dice]}")
    )
    assert "boggle.dice.3x3" in error
    error = boggle_error(
        snakemake(project, "-n", "--config", "boggle={lexicons: [tiny], modes: [dice], dice: {4x4: big}}")
    )
    assert "boggle.dice.4x4" in error and "25 dice" in error
    # a target outside the configured shapes: the same line when its job is planned
    error = boggle_error(snakemake(project, "-n", "results/boggle/tiny/2x2/dice/best.parquet"))
    assert "boggle.dice.2x2" in error


def test_a_job_reruns_only_for_its_own_settings(tmp_path):
    project = copy_project(tmp_path / "p")
    target = "results/boggle/tiny/4x4/dice/best.parquet"
    base = "lexicons: [tiny], modes: [dice], max_boards: 2000, pool_size: 10"
    out = snakemake(project, target, "--config", f"boggle={{{base}}}")
    assert out.returncode == 0, out.stdout + out.stderr
    assert (project / "logs/boggle/tiny/4x4/dice/seed0.log").exists()
    assert pl_column(project / target, "score")[0] >= 0
    big = ", ".join(["aaaaaa"] * 25)
    other_5x5 = f"boggle={{{base}, dice: {{4x4: classic, 5x5: [{big}]}}, scan: {{keep: 7}}, seconds: 3000}}"
    assert planned_rules(project, target, config=[other_5x5]) == ["boggle_rank", "boggle_search", "boggle_search"]
    other_5x5 = f"boggle={{{base}, dice: {{4x4: classic, 5x5: [{big}]}}, scan: {{keep: 7}}}}"
    assert planned_rules(project, target, config=[other_5x5]) == []  # not this job's settings


def pl_column(path, name):
    import polars as pl

    return pl.read_parquet(path)[name].to_list()


def test_search_results_do_not_depend_on_machine_load(enable2k, tmp_path):
    import subprocess
    import sys

    from puzzlesearch.boggle.settings import SearchSettings

    settings = SearchSettings().replace(max_boards=20_000, pool_size=30, keep=20)
    cmd = [
        sys.executable,
        "-m",
        "puzzlesearch",
        "boggle",
        "search",
        "--settings",
        settings.to_json(),
        "--words",
        str(enable2k.dir / "words.parquet"),
        "--dawg",
        str(enable2k.dir / "boggle_dawg.npz"),
        "--shape",
        "4x4",
        "--seed",
        "5",
    ]
    idle = subprocess.run([*cmd, "--out", str(tmp_path / "idle.parquet")], capture_output=True, text=True)
    assert idle.returncode == 0, idle.stderr
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        busy = subprocess.run([*cmd, "--out", str(tmp_path / "busy.parquet")], capture_output=True, text=True)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert busy.returncode == 0, busy.stderr
    for column in ("board", "score", "words", "boards_scored", "local_optimum", "stopped_by"):
        assert pl_column(tmp_path / "idle.parquet", column) == pl_column(tmp_path / "busy.parquet", column), column
    assert set(pl_column(tmp_path / "idle.parquet", "stopped_by")) == {"boards"}
