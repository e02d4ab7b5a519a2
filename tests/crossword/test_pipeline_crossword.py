"""Crossword rules in a throw-away copy of the project: one job per seed, quoting, config errors."""

from __future__ import annotations

import json

import polars as pl
import pytest
from pipeline_util import copy_project, planned_rules, snakemake

NUM_TABLE = "results/crossword/num/4/puzzles.parquet"
NUM_CONFIG = "crossword={sizes: [4], seeds: 4, max_pops: 200}"
SPACED_PATTERN = "my patterns/it's small.txt"  # a space and a quote in the path
FILL_TARGET = "results/crossword/fill/it's small.ipuz"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A project copy where 4 numeric seeds and the fill of a spaced pattern path were run."""
    root = copy_project(tmp_path_factory.mktemp("cw") / "p")
    (root / "my patterns").mkdir()
    (root / SPACED_PATTERN).write_text("...\n")
    with open(root / "config.yaml", "a") as fh:
        fh.write(
            f'crossword:\n  lexicons: {{en: tiny}}\n  fill: {{patterns: ["{SPACED_PATTERN}"], min_frequency: 0}}\n'
        )
    out = snakemake(root, NUM_TABLE, FILL_TARGET, "--config", NUM_CONFIG, cores="2")
    assert out.returncode == 0, out.stdout + out.stderr
    return root


def test_raising_seeds_adds_exactly_the_new_seed_jobs(built):
    df = pl.read_parquet(built / NUM_TABLE)
    assert sorted(df["seed"].to_list()) == [0, 1, 2, 3] and df["rank"].to_list() == [1, 2, 3, 4]
    assert set(df["stopped_by"]) <= {"cost", "pops"}
    assert planned_rules(built, NUM_TABLE, config=[NUM_CONFIG]) == []
    more = NUM_CONFIG.replace("seeds: 4", "seeds: 12")
    new_jobs = ["crossword_gather"] + ["crossword_puz"] * 8 + ["crossword_puzzle"] * 8  # .puz: one job per puzzle
    assert planned_rules(built, NUM_TABLE, config=[more]) == new_jobs
    # a key the puzzles do not use (the fill's) reruns nothing of generation
    assert planned_rules(built, NUM_TABLE, config=[NUM_CONFIG.replace("}", ", fill: {noise: 0.5}}")]) == []


def test_a_pattern_path_with_a_space_and_a_quote_is_filled(built):
    summary = json.loads((built / "results/crossword/fill/it's small.json").read_text())
    assert summary["stopped_by"] == "filled" and summary["slots"] == 1
    assert summary["words"] == [summary["grid"]] and summary["grid"] in {"cat", "dog"}  # tiny's 3-letter words
    assert (built / FILL_TARGET).is_file()


def one_line_error(out) -> str:
    """The single 'puzzlesearch: error' line of a failed snakemake run."""
    text = out.stdout + out.stderr
    lines = [line for line in text.splitlines() if "puzzlesearch: error" in line]
    assert out.returncode != 0 and len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def test_config_errors_are_one_line(built):
    line = one_line_error(snakemake(built, "-n", NUM_TABLE, "--config", "crossword={lexicons: {en: nosuch}}"))
    assert "crossword.lexicons.en" in line and "nosuch" in line
    line = one_line_error(snakemake(built, "-n", NUM_TABLE, "--config", "crossword={lexicons: {en: arabic}}"))
    assert "crossword.lexicons.en" in line and "latin" in line
    line = one_line_error(
        snakemake(built, "-n", NUM_TABLE, "--config", "crossword={fill: {patterns: [missing/none.txt]}}")
    )
    assert "crossword.fill.patterns" in line and "missing/none.txt" in line
