"""The cluster path (issue 13): profiles/fakecluster runs jobs through
snakemake-executor-plugin-cluster-generic, each as a job script started in the background by
the profile's submit script, as a batch system would. A small target (two Boggle seeds and
their ranking, both DAWGs of a lexicon, four crossword puzzles and their gather) built that
way must equal the same target built locally; the submissions must carry the resources the
rules declare (or the command line sets), local rules must not be submitted, and the
per-seed puzzle jobs of one group must go in one submission.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from pipeline_util import copy_project, start_snakemake

BOGGLE_CAP_SECONDS = 120  # boggle.seconds: the search's safety cap, far above its real time
PUZZLE_SEEDS = 4  # = group-components of crossword_puzzles in the profile: one submission
CONFIG = [
    f"boggle={{lexicons: [tiny], seeds: 2, max_boards: 2000, seconds: {BOGGLE_CAP_SECONDS}, scan: {{boards: 0}}}}",
    f"crossword={{seeds: {PUZZLE_SEEDS}, max_pops: 2000}}",
]
BOGGLE = "results/boggle/tiny/4x4/free"
PUZZLES = "results/crossword/num/4/puzzles.parquet"
DAWGS = ["results/lexicon/tiny/dawg.npz", "results/lexicon/tiny/boggle_dawg.npz"]
TARGETS = [f"{BOGGLE}/best.parquet", *DAWGS, PUZZLES]
SEARCH_MB = 777  # set for boggle_search on the cluster run's command line
RUN_TIMEOUT = 300  # seconds; both runs take well under a minute
FAKECLUSTER = ".snakemake/fakecluster"
SUBMISSION_FIELDS = ["id", "name", "rule", "threads", "mem_mb", "runtime"]
LOCAL_RULES = {"boggle_rank", "crossword_gather"}
SECONDS_PER_MINUTE = 60


def finish(proc: subprocess.Popen, root: Path) -> None:
    """Wait for a snakemake started by start_snakemake; fail with its output unless it succeeded."""
    code = proc.wait(timeout=RUN_TIMEOUT)
    assert code == 0, (root / "snakemake.out").read_text()[-5000:]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    """(local project, fake-cluster project), the same target built in each (concurrently)."""
    base = tmp_path_factory.mktemp("cluster")
    local, cluster = copy_project(base / "local"), copy_project(base / "cluster")
    procs = [
        start_snakemake(local, *TARGETS, "--config", *CONFIG),
        start_snakemake(
            cluster,
            "--profile",
            "profiles/fakecluster",
            *TARGETS,
            "--config",
            *CONFIG,
            "--set-resources",
            f"boggle_search:mem_mb={SEARCH_MB}",
        ),
    ]
    for proc, root in zip(procs, (local, cluster)):
        finish(proc, root)
    return local, cluster


def submissions(root: Path) -> list[dict]:
    """The fake cluster's submissions.tsv, one dict per submitted job."""
    lines = (root / FAKECLUSTER / "submissions.tsv").read_text().splitlines()
    return [dict(zip(SUBMISSION_FIELDS, line.split("\t"), strict=True)) for line in lines]


def job_properties(root: Path, job_id: str) -> dict:
    """The `# properties = {...}` JSON Snakemake wrote into a submitted job script."""
    for line in (root / FAKECLUSTER / f"{job_id}.sh").read_text().splitlines():
        if line.startswith("# properties = "):
            return json.loads(line.removeprefix("# properties = "))
    raise AssertionError(f"job {job_id}: no properties line in its job script")


def without_timings(frame: pl.DataFrame) -> pl.DataFrame:
    """A result table without its wall-clock columns (the only load-dependent values)."""
    return frame.drop([c for c in frame.columns if c.endswith("seconds")])


def test_cluster_results_equal_local_results(runs):
    local, cluster = runs
    for table in [f"{BOGGLE}/best.parquet", f"{BOGGLE}/seed0.parquet", f"{BOGGLE}/seed1.parquet", PUZZLES]:
        a, b = (without_timings(pl.read_parquet(root / table)) for root in runs)
        assert a.height > 0, table
        assert a.equals(b), f"{table} differs between the local and the cluster run"
    for dawg in DAWGS:
        with np.load(local / dawg) as a, np.load(cluster / dawg) as b:
            assert sorted(a.files) == sorted(b.files)
            for name in a.files:
                assert np.array_equal(a[name], b[name]), f"{dawg}: array {name} differs"


def test_submissions_carry_the_rules_resources(runs):
    _, cluster = runs
    jobs = submissions(cluster)
    searches = [j for j in jobs if j["rule"] == "boggle_search"]
    assert len(searches) == 2
    for job in searches:
        assert int(job["mem_mb"]) == SEARCH_MB  # --set-resources reached the submit command
        assert int(job["runtime"]) * SECONDS_PER_MINUTE >= BOGGLE_CAP_SECONDS  # never killed before its own cap
        assert int(job["threads"]) == 1
    assert len([j for j in jobs if j["rule"] == "lexicon_dawg"]) == len(DAWGS)
    for job in jobs:  # the job script got what the submit command got, and the job succeeded
        props = job_properties(cluster, job["id"])
        assert props["resources"]["mem_mb"] == int(job["mem_mb"]), job
        assert props["resources"]["runtime"] == int(job["runtime"]), job
        assert (cluster / FAKECLUSTER / f"{job['id']}.exit").read_text().strip() == "0", job


def test_local_rules_are_not_submitted(runs):
    _, cluster = runs
    submitted = {j["rule"] for j in submissions(cluster)}
    assert not submitted & LOCAL_RULES
    assert (cluster / f"{BOGGLE}/best.parquet").is_file() and (cluster / PUZZLES).is_file()


def test_puzzle_group_is_one_submission(runs):
    _, cluster = runs
    jobs = submissions(cluster)
    assert not [j for j in jobs if j["rule"] == "crossword_puzzle"]  # no puzzle went alone
    [group] = [j for j in jobs if j["rule"] == "GROUP"]
    props = job_properties(cluster, group["id"])
    assert props["type"] == "group" and props["groupid"] == "crossword_puzzles"
    outputs = {Path(p).name for p in props["output"]}
    assert outputs >= {f"num_4_seed{seed}.json" for seed in range(PUZZLE_SEEDS)}
