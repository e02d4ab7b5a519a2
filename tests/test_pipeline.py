"""The Snakemake pipeline on a throw-away copy of the project: build, no-op rerun, rebuilds."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]

SNAKEMAKE = [sys.executable, "-m", "snakemake"]
TARGETS = ["results/lexicon/tiny/words.parquet", "results/lexicon/tiny/dawg.npz",
           "results/lexicon/tiny/boggle_dawg.npz"]


def planned_rules(root: Path) -> list[str]:
    """Rule names a dry run would execute (empty when nothing is to be done)."""
    out = snakemake(root, "-n", *TARGETS)
    assert out.returncode == 0, out.stderr
    text = out.stdout + out.stderr
    return sorted(line.split()[-1].rstrip(":") for line in text.splitlines()
                  if line.startswith(("rule ", "localrule ")))


def snakemake(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*SNAKEMAKE, "--cores", "1", *args], cwd=root, capture_output=True, text=True,
                          env=None if env is None else {**os.environ, **env})


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of Snakefile, workflow/ and src/ with a config naming a tiny word list."""
    return copy_project(tmp_path_factory.mktemp("project"))


def copy_project(root: Path) -> Path:
    """Copy Snakefile, workflow/ and src/ into root, with a config naming a tiny word list."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(PROJECT / "Snakefile", root)
    shutil.copytree(PROJECT / "workflow", root / "workflow")
    shutil.copytree(PROJECT / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (root / "tiny.txt").write_text("cat\r\ncats\r\ndog\r\nDogs\r\nqueen\r\n")
    config = (PROJECT / "config.yaml").read_text()
    config = config.replace("lexicons:\n", "lexicons:\n  tiny: tiny.txt\n", 1)
    (root / "config.yaml").write_text(config)
    return root


def test_build_then_nothing_to_do_then_exact_rebuilds(project):
    out = snakemake(project, *TARGETS)
    assert out.returncode == 0, out.stderr
    for target in TARGETS:
        assert (project / target).exists()
    assert (project / "logs/lexicon/tiny/words.log").exists()
    assert planned_rules(project) == []

    # Changing the word list rebuilds the table and both DAWGs.
    (project / "tiny.txt").write_text("cat\r\ncats\r\ndog\r\nemu\r\n")
    assert planned_rules(project) == ["lexicon_dawg", "lexicon_dawg", "lexicon_words"]
    assert snakemake(project, *TARGETS).returncode == 0
    assert planned_rules(project) == []

    # Changing the DAWG code rebuilds the DAWGs only.
    dawg_py = project / "src/puzzlesearch/lexicon/dawg.py"
    dawg_py.write_text(dawg_py.read_text() + "\n# edited\n")
    assert planned_rules(project) == ["lexicon_dawg", "lexicon_dawg"]


def test_config_error_names_the_key(project):
    bad = project / "bad.yaml"
    bad.write_text((project / "config.yaml").read_text().replace("min_length: 2", "min_length: 0"))
    out = snakemake(project, "-n", "--configfile", str(bad))
    assert out.returncode != 0
    assert "lexicon.min_length" in out.stdout + out.stderr


def test_nested_config_override_reaches_the_plan(project):
    # `--config boggle='{seeds: 3}'`: Snakemake hands the nested 3 over as a string
    out = snakemake(project, "-n", "results/boggle/tiny/4x4/free/best.parquet",
                    "--config", "boggle={lexicons: [tiny], seeds: 3}")
    assert out.returncode == 0, out.stdout + out.stderr
    seeds = {line.split("seed")[-1] for line in (out.stdout + out.stderr).splitlines()
             if "output: results/boggle/tiny/4x4/free/seed" in line}
    assert seeds == {"0.parquet", "1.parquet", "2.parquet"}


def test_every_cached_rule_hashes_its_wildcards():
    # Snakemake's output-cache key ignores wildcards: a cached rule must pass them as params.
    for smk in sorted((PROJECT / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"(?m)^rule ", smk.read_text())[1:]:
            if re.search(r"(?m)^\s+cache: True", block):
                assert "wildcards=cache_key" in block, f"{smk.name}: rule {block.split(':')[0]}"


def test_output_cache_serves_a_second_checkout(tmp_path):
    from puzzlesearch.lexicon import Dawg

    env = {"SNAKEMAKE_OUTPUT_CACHE": str(tmp_path / "cache")}
    (tmp_path / "cache").mkdir()
    first, second = copy_project(tmp_path / "one"), copy_project(tmp_path / "two")
    for root in (first, second):
        out = snakemake(root, *TARGETS, "--cache", env=env)  # --cache takes optional rule names: after the targets
        assert out.returncode == 0, out.stdout + out.stderr
    dawg, boggle = (second / "results/lexicon/tiny/dawg.npz", second / "results/lexicon/tiny/boggle_dawg.npz")
    assert dawg.is_symlink() and boggle.is_symlink()  # served from the cache, not rebuilt
    assert dawg.resolve() != boggle.resolve()
    assert Dawg.load(dawg).words() == ["cat", "cats", "dog", "queen"]
    assert Dawg.load(boggle).words() == ["cat", "cats", "dog", "qeen"]  # 'q' is the Qu face
    assert planned_rules(second) == []


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


def test_bee_puzzle_only_rules_rerun_the_puzzles_not_the_mask_table(tmp_path):
    root = copy_project(tmp_path / "p")
    target = "results/bee/tiny/puzzles.parquet"
    assert snakemake(root, target, "--config", "bee={lexicons: [tiny]}").returncode == 0

    def plan(bee: str) -> list[str]:
        out = snakemake(root, "-n", target, "--config", bee)
        assert out.returncode == 0, out.stderr
        return sorted(line.split()[-1].rstrip(":") for line in (out.stdout + out.stderr).splitlines()
                      if line.startswith(("rule ", "localrule ")))

    assert plan("bee={lexicons: [tiny]}") == []
    assert plan("bee={lexicons: [tiny], min_words: 20, score_by: words}") == ["bee_puzzles"]
    assert plan("bee={lexicons: [tiny], min_length: 3}") == ["bee_masks", "bee_puzzles"]
