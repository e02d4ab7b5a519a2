"""Spelling Bee rules in a throw-away copy of the project."""

from __future__ import annotations

import polars as pl
import pytest
from pipeline_util import copy_project, snakemake


def test_bee_puzzle_only_rules_rerun_the_puzzles_not_the_mask_table(tmp_path):
    root = copy_project(tmp_path / "p")
    target = "results/bee/tiny/puzzles.parquet"
    assert snakemake(root, target, "--config", "bee={lexicons: [tiny]}").returncode == 0

    def plan(bee: str) -> list[str]:
        out = snakemake(root, "-n", target, "--config", bee)
        assert out.returncode == 0, out.stderr
        return sorted(
            line.split()[-1].rstrip(":")
            for line in (out.stdout + out.stderr).splitlines()
            if line.startswith(("rule ", "localrule "))
        )

    assert plan("bee={lexicons: [tiny]}") == []
    assert plan("bee={lexicons: [tiny], min_words: 20, score_by: words}") == ["bee_puzzles"]
    assert plan("bee={lexicons: [tiny], min_length: 3}") == ["bee_masks", "bee_puzzles"]


def test_bee_schedule_without_puzzles_in_its_window_is_empty_not_an_error(tmp_path):
    # The Bee word list takes its candidates from the installed sources too (bee/acceptance.py),
    # so even the tiny lexicon has puzzles: a word-count window no puzzle reaches leaves none.
    root = copy_project(tmp_path / "p")
    target = "results/bee/tiny/schedule.parquet"
    window = "bee={lexicons: [tiny], schedule_min_words: 90000, schedule_max_words: 100000}"
    out = snakemake(root, target, "--config", window)
    assert out.returncode == 0, out.stderr
    assert pl.read_parquet(root / target).height == 0
    assert (root / "results/bee/tiny/pages/index.html").is_file()
    assert "schedule of 0 days, not 30" in (root / "logs/bee/tiny/schedule.log").read_text()


@pytest.fixture(scope="module")
def dry_project(tmp_path_factory):
    """One project copy for dry runs."""
    return copy_project(tmp_path_factory.mktemp("p"))


@pytest.mark.parametrize(
    "bee, needle",
    [
        ("bee={max_words: 5, min_words: 20}", "bee.max_words"),
        ("bee={lexicons: [nosuch]}", "bee.lexicons: lexicon 'nosuch'"),
        ("bee={lexicons: [arabic]}", "bee.lexicons: 'arabic' is not a latin lexicon"),
        ("bee={size: 12}", "bee.size"),
    ],
)
def test_bee_config_errors_are_one_line(dry_project, bee, needle):
    out = snakemake(dry_project, "-n", "--config", bee)
    err = out.stderr.strip()
    assert out.returncode != 0
    assert "Traceback" not in out.stdout + out.stderr
    assert err.splitlines()[-1].startswith("puzzlesearch: error:") and needle in err.splitlines()[-1], err
    assert len([line for line in err.splitlines() if "error" in line.lower()]) == 1, err
