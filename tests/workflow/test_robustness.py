"""Robustness under real use (issue 11): killed runs, concurrent runs and dry runs, same-named
word lists, the CLI beside a pipeline, moved checkouts, a non-editable install, damaged files.

Real processes only (snakemake and the puzzlesearch CLI as subprocesses); answers are
checked against ../shared/facts and the brute-force scorer puzzlesearch.boggle.reference.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from pipeline_util import (
    ENABLE2K,
    LEXICON_FILES,
    PROJECT,
    SHARED,
    SNAKEMAKE,
    copy_project,
    file_hashes,
    lexicon_targets,
    planned_rules,
    running_job,
    snakemake,
    start_snakemake,
    wait_for,
)

from puzzlesearch import manifest
from puzzlesearch.boggle.model import parse_board
from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score, reference_words
from puzzlesearch.store import STORE_ENV

BOARD = "perslatgsineters"
ENABLE2K_FACT = (3625, 1045)  # proven optimal 4x4 for ENABLE2K (../shared/facts/boggle_scores.csv)
LEXICON = "default"  # the pipeline runs below override lexicon `default` with ENABLE2K
TARGETS = lexicon_targets(LEXICON)
MANIFESTS = {"words.parquet": "words.json", "dawg.npz": "dawg.json", "boggle_dawg.npz": "boggle_dawg.json"}
JOB_START_TIMEOUT = 120  # seconds to wait for a job of a started run to appear (a safety cap: 4 workers on 2 cores)
RUN_TIMEOUT = 240  # seconds for one pipeline or CLI run (a safety cap: about 60 s on a busy CI machine)
SEARCH_SHAPE, SEARCH_BOARDS = "3x3", 100  # a tiny pipeline search (it must stop before it starts)
MIN_SETUPTOOLS = 68  # pyproject.toml's build-system requirement
USAGE_ERROR = 2  # the CLI's exit code for user mistakes and damaged artifacts

pytestmark = pytest.mark.skipif(not ENABLE2K.is_file(), reason=f"{SHARED} is absent (word lists)")


def job_of(proc: subprocess.Popen, root: Path, needle: str):
    """Wait for a running job of `proc` whose command holds `needle` (fail at once if the run ended)."""

    def find():
        if proc.poll() is not None:
            raise AssertionError(
                f"the run ended (exit {proc.returncode}) before a {needle} job:\n"
                + (root / "snakemake.out").read_text()[-3000:]
            )
        return running_job(proc, needle)

    return wait_for(find, JOB_START_TIMEOUT, f"a {needle} job")


def override() -> list[str]:
    """--config values that make lexicon `default` the ENABLE2K list."""
    return [f"lexicons={{{LEXICON}: {ENABLE2K}}}"]


def run_pipeline(root: Path, *extra: str) -> None:
    """Build the ENABLE2K lexicon targets (and `extra` targets) in `root` (assert success)."""
    out = snakemake(root, *TARGETS, *extra, "--config", *override(), cores="2")
    assert out.returncode == 0, out.stdout + out.stderr


def verify_outputs(root: Path) -> None:
    """Every lexicon output matches its manifest and is the whole ENABLE2K list."""
    folder = root / "results" / "lexicon" / LEXICON
    for data, meta in MANIFESTS.items():
        manifest.verify(folder / meta, names=[data])
    n_words = sum(1 for line in ENABLE2K.read_text().splitlines() if line.strip())
    assert pl.read_parquet(folder / "words.parquet").height == n_words


def contents(root: Path) -> dict:
    """The data of the lexicon outputs (tables and arrays; build times and zip dates left out)."""
    folder = root / "results" / "lexicon" / LEXICON
    out = {"words": pl.read_parquet(folder / "words.parquet").to_dict(as_series=False)}
    for name in ("dawg", "boggle_dawg"):
        with np.load(folder / f"{name}.npz") as data:
            out[name] = {k: data[k].tolist() for k in data.files}
        out[f"{name}.settings"] = json.loads((folder / f"{name}.json").read_text())["manifest"]["settings"]
    out["words.settings"] = json.loads((folder / "words.json").read_text())["manifest"]["settings"]
    return out


def cli(*args: str, cwd: Path, env: dict | None = None, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess:
    """Run `python -m puzzlesearch ARGS` (output captured)."""
    return subprocess.run(
        [sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout
    )


def score_line(text: str) -> tuple[int, int]:
    """(score, words) from a `boggle score` line."""
    match = re.search(r"score (\d+)\s+words (\d+)", text)
    assert match, text
    return int(match[1]), int(match[2])


def reference(board_text: str, words) -> tuple[int, int]:
    """(score, words) of a board by the brute-force scorer."""
    return reference_score(parse_board(board_text), boggle_words(words))


def word_file_words(path: Path) -> list[str]:
    """The words of a plain one-word-a-line list (ENABLE2K and YAWL are lower-case a-z)."""
    return [w.strip() for w in path.read_text().splitlines() if w.strip()]


@pytest.fixture()
def started():
    """start(root, *args): a background snakemake run, killed with its jobs if the test ends first."""
    procs = []

    def start(root: Path, *args: str) -> subprocess.Popen:
        procs.append(start_snakemake(root, *args))
        return procs[-1]

    yield start
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A project copy after a pipeline run with lexicon `default` = ENABLE2K."""
    root = copy_project(tmp_path_factory.mktemp("built"))
    run_pipeline(root, *lexicon_targets("tiny"))  # tiny: a word list inside the checkout
    verify_outputs(root)
    return root


# ---------------------------------------------------------------- the default profile


def test_default_profile_is_used_and_takes_the_cores_of_the_machine(tmp_path):
    import yaml

    profile = yaml.safe_load((PROJECT / "profiles" / "default" / "config.yaml").read_text())
    assert profile["cores"] == "all" and profile["rerun-incomplete"] is True
    root = copy_project(tmp_path / "p")
    out = subprocess.run([*SNAKEMAKE, "-n", *lexicon_targets("tiny")], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr  # no --cores given: the profile supplies it
    assert "profiles/default" in out.stdout + out.stderr


# ---------------------------------------------------------------- kill -9, then rerun


@pytest.mark.slow
def test_kill_a_job_then_snakemake_then_rerun(tmp_path, started):
    root = copy_project(tmp_path / "p")
    # 1. kill -9 of one running job (the word table): the workflow fails and removes its outputs
    proc = started(root, *TARGETS, "--config", *override())
    job_of(proc, root, "build-words").kill()
    assert proc.wait(timeout=RUN_TIMEOUT) != 0, (root / "snakemake.out").read_text()
    # 2. kill -9 of snakemake and its jobs (a power cut) while the DAWG jobs run
    proc = started(root, *TARGETS, "--config", *override())
    job_of(proc, root, "build-dawg")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not all((root / t).exists() for t in TARGETS), "killed too late: nothing was mid-run"
    unlock = snakemake(root, "--unlock")  # the dead run's lock: what snakemake's message says to do
    assert unlock.returncode == 0, unlock.stdout + unlock.stderr
    # 3. the rerun (the profile's rerun-incomplete) rebuilds what the killed jobs left, verified
    run_pipeline(root)
    verify_outputs(root)
    assert planned_rules(root, *TARGETS, config=override()) == []


# ---------------------------------------------------------------- a dry run beside a live run


@pytest.mark.slow
def test_dry_run_with_other_config_changes_nothing_of_a_live_run(tmp_path, built, started):
    root = copy_project(tmp_path / "p")
    proc = started(root, *TARGETS, "--config", *override())
    job_of(proc, root, "build-words")
    other = ["lexicon={min_length: 5}", "crossword={strategy: fill2}", f"lexicons={{{LEXICON}: builtin:en}}"]
    dry = snakemake(root, "-n", *TARGETS, "--config", *other)
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert proc.wait(timeout=RUN_TIMEOUT) == 0, (root / "snakemake.out").read_text()
    assert not (root / ".puzzlesearch-config.yaml").exists()  # no side channel to the jobs
    verify_outputs(root)
    assert contents(root) == contents(built)  # same as a run nobody disturbed
    assert planned_rules(root, *TARGETS, config=override()) == []


# ---------------------------------------------------------------- same-named word lists


def test_same_named_lists_concurrently(tmp_path):
    yawl = SHARED / "wordlists" / "yawl.txt"
    lists = {"a": ENABLE2K, "b": yawl}
    for folder, source in lists.items():
        (tmp_path / folder).mkdir()
        shutil.copy(source, tmp_path / folder / "words.txt")
    env = {**os.environ, STORE_ENV: str(tmp_path / "store")}  # an empty store: both build now
    procs = {
        f: subprocess.Popen(
            [sys.executable, "-m", "puzzlesearch", "boggle", "score", BOARD, "--words", "--lexicon", f"{f}/words.txt"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for f in lists
    }
    outs = {f: p.communicate(timeout=RUN_TIMEOUT) for f, p in procs.items()}
    for f, p in procs.items():
        assert p.returncode == 0, outs[f][1]
    assert score_line(outs["a"][0]) == enable2k_fact()
    for f, source in lists.items():  # scores and --words lists of the brute-force scorer
        words = boggle_words(word_file_words(source))
        known = prefixes(words)
        assert score_line(outs[f][0]) == reference_score(parse_board(BOARD), words, prefix_set=known)
        listed = {line.split()[0] for line in outs[f][0].splitlines() if line.startswith("  ")}
        assert listed == reference_words(parse_board(BOARD), words, known)
    assert len(store_folders(tmp_path / "store")) == len(lists)  # one folder per content, not per name


def store_folders(store: Path) -> list[Path]:
    """The lexicon artifact folders of a store (lock files and temporary folders left out)."""
    return [p for p in (store / "lexicon").iterdir() if p.is_dir() and not p.name.startswith(".")]


def enable2k_fact() -> tuple[int, int]:
    """(score, words) of BOARD for ENABLE2K from ../shared/facts, else the known figure."""
    facts = SHARED / "facts" / "boggle_scores.csv"
    if facts.is_file():
        for row in csv.DictReader(facts.open()):
            if row["board"] == BOARD and row["wordlist"] == "enable2k.txt":
                return int(row["score"]), int(row["words"])
    return ENABLE2K_FACT


# ---------------------------------------------------------------- the CLI beside the pipeline


def test_cli_after_override_run_leaves_pipeline_files(built):
    before = file_hashes(built / "results", skip=("store",))
    env = {k: v for k, v in os.environ.items() if k != STORE_ENV}  # the project's own store
    env["PYTHONPATH"] = str(built / "src")
    info = cli("lexicon", "info", LEXICON, cwd=built, env=env)
    assert info.returncode == 0, info.stderr
    assert json.loads(info.stdout)["source"] == "builtin:en"  # config.yaml's default, not the override
    score = cli("boggle", "score", BOARD, cwd=built, env=env)
    assert score.returncode == 0, score.stderr
    store_words = list((built / "results" / "store" / "lexicon").glob("*/words.parquet"))
    assert len(store_words) == 1  # built into the project's store ...
    words = pl.read_parquet(store_words[0], columns=["word"])["word"].to_list()
    assert score_line(score.stdout) == reference(BOARD, words)
    assert file_hashes(built / "results", skip=("store",)) == before  # ... and nothing else touched
    assert planned_rules(built, *TARGETS, config=override()) == []


def test_moved_checkout_reruns_nothing(built, tmp_path):
    copy = tmp_path / "checkout"
    shutil.copytree(built, copy, symlinks=True)
    moved = tmp_path / "moved checkout"
    shutil.move(copy, moved)
    assert planned_rules(moved, *TARGETS, *lexicon_targets("tiny"), config=override()) == []


# ---------------------------------------------------------------- damaged artifacts


def damage(path: Path, how: str) -> None:
    """Flip one byte in the middle of `path`, or cut it in half."""
    data = bytearray(path.read_bytes())
    if how == "flip":
        data[len(data) // 2] ^= 0xFF
    else:
        data = data[: len(data) // 2]
    path.write_bytes(bytes(data))


def assert_one_line_error(out: subprocess.CompletedProcess, path: Path) -> None:
    """Exit 2, one stderr line naming the file, no traceback."""
    lines = out.stderr.strip().splitlines()
    assert out.returncode == USAGE_ERROR, out.stderr
    assert "Traceback" not in out.stderr
    assert len(lines) == 1 and lines[0].startswith("puzzlesearch: error:"), out.stderr
    assert str(path) in lines[0] or path.name in lines[0], lines[0]


@pytest.fixture(scope="module")
def small_list(tmp_path_factory) -> Path:
    """A word list of the words of BOARD in ENABLE2K (a quick lexicon to build)."""
    folder = tmp_path_factory.mktemp("small")
    words = sorted(reference_words(parse_board(BOARD), boggle_words(word_file_words(ENABLE2K))))
    (folder / "small.txt").write_text("\n".join(words) + "\n")
    return folder / "small.txt"


@pytest.fixture(scope="module")
def small_store(small_list, tmp_path_factory) -> Path:
    """An artifact store holding the lexicon of `small_list`, built by the CLI on first use."""
    store = tmp_path_factory.mktemp("small_store") / "store"
    env = {**os.environ, STORE_ENV: str(store)}
    out = cli("lexicon", "info", str(small_list), cwd=small_list.parent, env=env)
    assert out.returncode == 0, out.stderr
    return store


# file damaged -> the command that reads it
STORE_READERS = {
    "words.parquet": ("lexicon", "info"),
    "dawg.npz": ("lexicon", "info"),
    "boggle_dawg.npz": ("boggle", "score", BOARD, "--lexicon"),
}


@pytest.mark.parametrize("how", ["flip", "truncate"])
@pytest.mark.parametrize("name", LEXICON_FILES)
def test_damaged_store_artifact_is_one_line(small_list, small_store, tmp_path, name, how):
    shutil.copytree(small_store, tmp_path / "store")
    env = {**os.environ, STORE_ENV: str(tmp_path / "store")}
    cwd = small_list.parent
    [folder] = store_folders(tmp_path / "store")
    damage(folder / name, how)
    assert_one_line_error(cli(*STORE_READERS[name], str(small_list), cwd=cwd, env=env), folder / name)


@pytest.mark.parametrize("how", ["flip", "truncate"])
def test_damaged_pipeline_words_is_one_line(built, tmp_path, how):
    folder = tmp_path / "lexicon"
    shutil.copytree(built / "results" / "lexicon" / LEXICON, folder)
    damage(folder / "words.parquet", how)
    out = cli(
        "lexicon",
        "build-dawg",
        "--words",
        str(folder / "words.parquet"),
        "--out",
        str(tmp_path / "d.npz"),
        cwd=tmp_path,
    )
    assert_one_line_error(out, folder / "words.parquet")
    assert not (tmp_path / "d.npz").exists()  # no partial output


@pytest.mark.parametrize("how", ["flip", "truncate"])
@pytest.mark.parametrize("name", ["dawg.npz", "boggle_dawg.npz"])
def test_damaged_pipeline_dawg_names_the_file(built, tmp_path, name, how):
    folder = tmp_path / "lexicon"
    shutil.copytree(built / "results" / "lexicon" / LEXICON, folder)
    damage(folder / name, how)
    code = (
        "import sys\nfrom puzzlesearch.lexicon.artifacts import lexicon_from_files\n"
        "from puzzlesearch.manifest import ArtifactError\n"
        f"lex = lexicon_from_files({str(folder / 'words.parquet')!r})\n"
        "try:\n    lex.dawg, lex.boggle_dawg\nexcept ArtifactError as e:\n    sys.exit(str(e))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert str(folder / name) in out.stderr


@pytest.mark.parametrize("how", ["flip", "truncate"])
def test_damaged_pipeline_boggle_dawg_stops_a_search(built, tmp_path, how):
    from puzzlesearch.boggle.settings import SearchSettings

    folder = tmp_path / "lexicon"
    shutil.copytree(built / "results" / "lexicon" / LEXICON, folder)
    damage(folder / "boggle_dawg.npz", how)
    settings = SearchSettings.for_job(None, SEARCH_SHAPE, "free").replace(max_boards=SEARCH_BOARDS).to_json()
    out = cli(
        "boggle",
        "search",
        "--settings",
        settings,
        "--words",
        str(folder / "words.parquet"),
        "--dawg",
        str(folder / "boggle_dawg.npz"),
        "--shape",
        SEARCH_SHAPE,
        "--mode",
        "free",
        "--seed",
        "0",
        "--out",
        str(tmp_path / "seed0.parquet"),
        cwd=tmp_path,
    )
    assert_one_line_error(out, folder / "boggle_dawg.npz")
    assert not (tmp_path / "seed0.parquet").exists()


# ---------------------------------------------------------------- a non-editable install


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """`pip install --no-deps --target DIR` of a copy of the project (a plain, non-editable install)."""
    tmp = tmp_path_factory.mktemp("install")
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(PROJECT / name, source)
    shutil.copytree(PROJECT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    target = tmp / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)]
    if build_tools_installed():  # offline: build with the venv's setuptools (the test extras have it)
        pip.insert(4, "--no-build-isolation")
    out = subprocess.run(pip, capture_output=True, text=True, timeout=RUN_TIMEOUT * 3)
    assert out.returncode == 0, out.stdout + out.stderr
    return target


def build_tools_installed() -> bool:
    """setuptools >= MIN_SETUPTOOLS and wheel are importable here (pip needs no download)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        major = int(version("setuptools").split(".")[0])
        version("wheel")
    except PackageNotFoundError:
        return False
    return major >= MIN_SETUPTOOLS


@pytest.fixture()
def outside(tmp_path) -> Path:
    """A folder outside any project, below a folder holding an unrelated (invalid) config.yaml."""
    (tmp_path / "config.yaml").write_text("lexicons: 42\nboggle: {seeds: -1}\n")
    cwd = tmp_path / "work"
    cwd.mkdir()
    return cwd


def installed_env(site: Path, tmp: Path) -> dict:
    """Environment running the installed package: PYTHONPATH=site, user folders under tmp, no test store."""
    env = {k: v for k, v in os.environ.items() if k != STORE_ENV}
    env.update(
        PYTHONPATH=str(site), XDG_CACHE_HOME=str(tmp / "cache"), XDG_DATA_HOME=str(tmp / "data"), HOME=str(tmp / "home")
    )
    return env


@pytest.mark.slow
def test_non_editable_install_boggle_outside_a_project(installed, outside):
    env = installed_env(installed, outside.parent)
    where = subprocess.run(
        [sys.executable, "-c", "import puzzlesearch; print(puzzlesearch.__file__)"],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(installed), where.stdout + where.stderr
    assert sorted((installed / "puzzlesearch" / "schemas").glob("*.schema.yaml"))  # package data

    out = cli("boggle", "score", BOARD, cwd=outside, env=env)
    assert out.returncode == 0, out.stderr
    [words] = (outside.parent / "cache").rglob("words.parquet")  # the user cache folder
    builtin = pl.read_parquet(words, columns=["word"])["word"].to_list()
    assert score_line(out.stdout) == reference(BOARD, builtin)
    assert list(outside.iterdir()) == []  # nothing written to the current folder
    assert sorted(p.name for p in outside.parent.iterdir()) == ["cache", "config.yaml", "work"]


@pytest.mark.slow
def test_non_editable_install_cube_outside_a_project(installed, outside, cube_tables):
    from puzzlesearch.cube.model.cubie import parse_cube, parse_moves

    env = installed_env(installed, outside.parent)
    # The user cache gets the session store's cube tables (hard links, same content key: the installed
    # package hashes the same code), so the installed copy loads, verifies and solves with them without a
    # second ~40 CPU s build (the build into a store: the session's `cube_tables`); a key mismatch only builds.
    entry = Path(cube_tables.dir)  # the store folder of the session's build (other workers may build beside it)
    cache_store = outside.parent / "cache" / "puzzlesearch"
    shutil.copytree(entry, cache_store / entry.relative_to(os.environ[STORE_ENV]), copy_function=os.link)
    # compiles the kernels of a second copy of the package: minutes on a busy machine
    out = cli("cube", "solve", "R U", cwd=outside, env=env, timeout=RUN_TIMEOUT * 3)
    assert "building" not in out.stderr, out.stderr  # the linked tables were found
    assert out.returncode == 0, out.stderr
    moves = " ".join(re.findall(r"\b[URFDLB][2']?(?=\s|$)", out.stdout.strip().splitlines()[-1]))
    assert moves, out.stdout
    assert parse_cube("R U").apply(parse_moves(moves)).is_solved, out.stdout
    assert list(outside.iterdir()) == []
    assert "results" not in {p.name for p in outside.parent.iterdir()}
