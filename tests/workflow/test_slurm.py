"""A real Slurm (issue 26): `snakemake --profile profiles/slurm` through
snakemake-executor-plugin-slurm against the single-node Slurm of
profiles/slurm/local-cluster.sh (Debian's slurm-wlm and munge; CI starts it).

A 3x3 Boggle proof (its shards and gather) and the lexicon jobs it needs (the word table and
the Boggle DAWG) built on Slurm must equal the same targets built locally,
and every job must have gone through Slurm (its own records, `squeue`, say COMPLETED).
Each board the proof lists is scored again by the brute-force reference scorer. A shard
cancelled with `scancel` while it runs is redone (the profile's retry) and the proof comes
out the same; a shard that asks for too little memory is killed by Slurm and the run
fails, saying so.

The proof runs on a small lexicon (the 2,710 ENABLE2K words over the letters aeilnrst,
3x3 >= 400: 50 boards in 102 classes, ~13 CPU s with the prover of this commit) so the
module stays at a few minutes on two cores; the full ENABLE2K proof is for the benchmark.
Skipped when no Slurm node is up, unless PUZZLESEARCH_REQUIRE_SLURM=1 (CI): then a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from pipeline_util import ENABLE2K, PROJECT, copy_project, start_snakemake, wait_for

from puzzlesearch.boggle.model import parse_board
from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score

REQUIRE = os.environ.get("PUZZLESEARCH_REQUIRE_SLURM") == "1"
LOCAL_CLUSTER = PROJECT / "profiles" / "slurm" / "local-cluster.sh"
UP_STATES = {"idle", "mixed", "allocated", "completing"}

LETTERS = "aeilnrst"
LEXICON = LETTERS  # the lexicon's name in the config
MIN_SCORE = 400
SHARDS = 4
CONFIG = [
    f"lexicons={{{LEXICON}: {LEXICON}.txt}}",
    f"boggle={{lexicons: [{LEXICON}], proof: {{min_score: {{3x3: {MIN_SCORE}}}, shards: {{3x3: {SHARDS}}}}}}}",
]
PROOF = f"results/boggle/{LEXICON}/proof/3x3"
PROOF_FILES = [f"{PROOF}/{name}" for name in ("boards.parquet", "classes.parquet", "certificate.json")]
LEXICON_TABLES = [f"results/lexicon/{LEXICON}/{name}" for name in ("words.parquet", "boggle_dawg.npz")]
TARGETS = [f"{PROOF}/certificate.json", *LEXICON_TABLES]
SLURM_RULES = {"lexicon_words": 1, "lexicon_dawg": 1, "boggle_proof_shard": SHARDS}
# Status polling for short test jobs (the profile's 20 s suit real clusters); the profile is unchanged.
FAST_POLL = ["--slurm-init-seconds-before-status-checks", "2", "--seconds-between-status-checks", "2"]
SLURM = ["--profile", "profiles/slurm", *FAST_POLL]
RUN_TIMEOUT = 600  # seconds; a run takes 1-2 minutes
TOO_LITTLE_MB = 50  # less than the Python of a job needs to start
BYTES_PER_MB = 1024 * 1024


def slurm_down_reason() -> str | None:
    """Why no Slurm node takes jobs here (None when one does)."""
    if not shutil.which("sinfo"):
        return f"Slurm is not installed (sinfo missing); see {LOCAL_CLUSTER.relative_to(PROJECT)}"
    out = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True)
    states = set(out.stdout.split())
    if out.returncode != 0 or not states & UP_STATES:
        detail = (out.stderr.strip() or ", ".join(sorted(states)) or "no nodes").splitlines()[0]
        return f"no Slurm node is up ({detail}); start one: {LOCAL_CLUSTER.relative_to(PROJECT)} start"
    return None


@pytest.fixture(scope="module", autouse=True)
def slurm_up():
    """Skip the module without a running Slurm, or fail when PUZZLESEARCH_REQUIRE_SLURM=1."""
    reason = slurm_down_reason()
    if reason and REQUIRE:
        pytest.fail(f"PUZZLESEARCH_REQUIRE_SLURM=1 but {reason}")
    if reason:
        pytest.skip(reason)


def slurm_jobs(root: Path) -> list[dict]:
    """The Slurm jobs submitted from `root` (squeue keeps ended ones for MinJobAge): id, state, rule."""
    out = subprocess.run(
        ["squeue", "--states=all", "-h", "-o", "%i|%T|%k|%Z"], capture_output=True, text=True, check=True
    )
    jobs = []
    for line in out.stdout.splitlines():
        job_id, state, comment, workdir = line.split("|", 3)
        if Path(workdir) == root:  # the plugin's comment: rule_<rule>_wildcards_<values>
            rule = comment.removeprefix("rule_").split("_wildcards_")[0]
            jobs.append({"id": job_id, "state": state, "rule": rule, "comment": comment})
    return sorted(jobs, key=lambda job: int(job["id"]))


def add_lexicon(root: Path) -> Path:
    """A project copy with the small lexicon: the ENABLE2K words over LETTERS."""
    copy_project(root)
    words = [w for w in ENABLE2K.read_text().split() if len(w) >= 3 and set(w) <= set(LETTERS)]
    (root / f"{LEXICON}.txt").write_text("\n".join(words) + "\n")
    return root


def run(root: Path, *args: str) -> tuple[int, str]:
    """Run snakemake in `root` to the end: (exit code, output)."""
    proc = start_snakemake(root, *args, "--config", *CONFIG)
    code = proc.wait(timeout=RUN_TIMEOUT)
    return code, (root / "snakemake.out").read_text()


def without_timings(value):
    """A certificate without its CPU times and the checksums of the table and manifest that hold them."""
    if isinstance(value, dict):
        skip = ("classes.parquet", "manifest_sha256")
        return {k: without_timings(v) for k, v in value.items() if "seconds" not in k and k not in skip}
    return value


def table(root: Path, path: str) -> pl.DataFrame:
    """A result table without its timing columns (the only load-dependent values)."""
    frame = pl.read_parquet(root / path)
    return frame.drop([c for c in frame.columns if "seconds" in c])


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    """(local project, Slurm project): the same targets built in each (at the same time)."""
    if not ENABLE2K.is_file():  # (the tests' convention: skip without ../shared, even where Slurm is required)
        pytest.skip(f"{ENABLE2K.parent.parent} is absent (word lists)")
    base = tmp_path_factory.mktemp("slurm")
    local, slurm = add_lexicon(base / "local"), add_lexicon(base / "slurm")
    procs = [
        start_snakemake(local, *TARGETS, "--config", *CONFIG),
        start_snakemake(slurm, *SLURM, *TARGETS, "--config", *CONFIG),
    ]
    for proc, root in zip(procs, (local, slurm)):
        code = proc.wait(timeout=RUN_TIMEOUT)
        assert code == 0, (root / "snakemake.out").read_text()[-6000:]
    return local, slurm


def test_every_job_ran_on_slurm(runs):
    _, slurm = runs
    jobs = slurm_jobs(slurm)
    ran = {rule: [j for j in jobs if j["rule"] == rule] for rule in SLURM_RULES}
    for rule, count in SLURM_RULES.items():
        assert len(ran[rule]) == count, (rule, jobs)
    assert [j for j in jobs if j["rule"] == "boggle_proof_gather"], jobs
    assert {j["state"] for j in jobs} == {"COMPLETED"}, jobs


def test_slurm_results_equal_local_results(runs):
    local, slurm = runs
    for path in [PROOF_FILES[0], PROOF_FILES[1], LEXICON_TABLES[0]]:
        a, b = table(local, path), table(slurm, path)
        assert a.height > 0, path
        assert a.equals(b), f"{path} differs between the local and the Slurm run"
    for path in LEXICON_TABLES[1:]:
        with np.load(local / path) as a, np.load(slurm / path) as b:
            assert sorted(a.files) == sorted(b.files), path
            for name in a.files:
                assert np.array_equal(a[name], b[name]), f"{path}: array {name} differs"
    certificates = [json.loads((root / PROOF_FILES[2]).read_text()) for root in runs]
    assert certificates[0]["complete"] is True
    assert without_timings(certificates[0]) == without_timings(certificates[1])


def test_proof_boards_score_what_they_say(runs):
    _, slurm = runs
    words = boggle_words((slurm / f"{LEXICON}.txt").read_text().split())
    prefix_set = prefixes(words)
    boards = pl.read_parquet(slurm / PROOF_FILES[0])
    assert boards.height > 0 and boards["score"].min() >= MIN_SCORE
    for board, score in boards.iter_rows():
        assert reference_score(parse_board(board, 3, 3), words, prefix_set=prefix_set)[0] == score, board
    certificate = json.loads((slurm / PROOF_FILES[2]).read_text())
    assert certificate["best"] == {"board": boards["board"][0], "score": boards["score"][0]}


def proof_copy(runs, root: Path, remove: list[str]) -> Path:
    """A copy of the Slurm project (results and Snakemake's records) without the files `remove`."""
    shutil.copytree(runs[1], root, symlinks=True)
    for path in remove:
        target = root / path
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
    return root


def test_cancelled_shard_is_redone(runs, tmp_path):
    shard, log = f"{PROOF}/shards/shard0", f"logs/boggle/{LEXICON}/proof/3x3/shard0.log"
    root = proof_copy(runs, tmp_path / "cancel", [f"{shard}.parquet", f"{shard}.json", log, *PROOF_FILES])
    proc = start_snakemake(root, *SLURM, f"{PROOF}/certificate.json", "--config", *CONFIG)
    log = root / log

    def shard0_running():
        running = [j for j in slurm_jobs(root) if j["state"] == "RUNNING" and j["comment"].endswith("_3x3_0")]
        return running and log.exists() and running[0]  # its shell command has started

    job = wait_for(shard0_running, RUN_TIMEOUT, "shard 0 running on Slurm")
    subprocess.run(["scancel", job["id"]], check=True)
    code = proc.wait(timeout=RUN_TIMEOUT)
    output = (root / "snakemake.out").read_text()
    assert code == 0, output[-6000:]
    assert f"SLURM-job '{job['id']}' failed, SLURM status is: 'CANCELLED'" in output
    shard0 = [j for j in slurm_jobs(root) if j["comment"] == job["comment"]]
    assert [j["state"] for j in shard0] == ["CANCELLED", "COMPLETED"], shard0
    for path in PROOF_FILES[:2]:
        assert table(root, path).equals(table(runs[0], path)), path
    certificates = [json.loads((r / PROOF_FILES[2]).read_text()) for r in (root, runs[0])]
    assert without_timings(certificates[0]) == without_timings(certificates[1])


def test_too_little_memory_fails_naming_it(runs, tmp_path):
    shard = f"{PROOF}/shards/shard0"
    root = proof_copy(runs, tmp_path / "memory", [f"{shard}.parquet", f"{shard}.json", *PROOF_FILES])
    too_little = f"boggle_proof_shard:mem_mb={TOO_LITTLE_MB}"
    code, output = run(root, *SLURM, f"{shard}.parquet", "--set-resources", too_little, "--retries", "0")
    assert code != 0
    assert "Error in rule boggle_proof_shard" in output
    assert "Exceeded job memory limit" in output  # slurmstepd's words, in the job's Slurm log
    assert f"> {TOO_LITTLE_MB * BYTES_PER_MB})" in output  # the limit Slurm enforced is the requested mem_mb
    jobs = [j for j in slurm_jobs(root) if j["rule"] == "boggle_proof_shard"]
    assert len(jobs) == 1 and jobs[0]["state"] in {"FAILED", "OUT_OF_MEMORY"}, jobs
    assert not (root / f"{shard}.parquet").exists()
