"""Boggle rules in a throw-away copy of the project."""

from __future__ import annotations

import pytest

from pipeline_util import PROJECT, TARGETS, copy_project, planned_rules, snakemake


def test_nested_config_override_reaches_the_plan(tmp_path):
    project = copy_project(tmp_path / "p")
    # `--config boggle='{seeds: 3}'`: Snakemake hands the nested 3 over as a string
    out = snakemake(project, "-n", "results/boggle/tiny/4x4/free/best.parquet",
                    "--config", "boggle={lexicons: [tiny], seeds: 3}")
    assert out.returncode == 0, out.stdout + out.stderr
    seeds = {line.split("seed")[-1] for line in (out.stdout + out.stderr).splitlines()
             if "output: results/boggle/tiny/4x4/free/seed" in line}
    assert seeds == {"0.parquet", "1.parquet", "2.parquet"}


def test_boggle_rules_run_on_a_rectangular_shape(tmp_path):
    import json

    import polars as pl

    root = copy_project(tmp_path / "p")
    target = "results/boggle/tiny/3x4/free/scan.json"
    out = snakemake(root, target, "--config",
                    "boggle={lexicons: [tiny], shapes: [3x4], seeds: 2, max_boards: 4000, pool_size: 10, "
                    "scan: {boards: 1, distance: 1}}")
    assert out.returncode == 0, out.stdout + out.stderr
    best = pl.read_parquet(root / "results/boggle/tiny/3x4/free/best.parquet")
    assert best["score"][0] > 0 and {"local_optimum", "found_by", "words"} <= set(best.columns)
    verdict = json.loads((root / target).read_text())["boards"][0]
    assert verdict["board"] == best["board"][0]
    assert verdict["neighbours"] > 12 * 25  # every single change, and swaps (scan.swaps defaults to true)
    assert sorted(p.name for p in (root / "results/boggle/tiny/3x4/free").iterdir()) == [
        "best.parquet", "scan.json", "scan.parquet", "seed0.parquet", "seed1.parquet"]


