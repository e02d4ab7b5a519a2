"""Helpers for pipeline tests: a throw-away copy of the project, snakemake runs, dry-run plans."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]
PUZZLESEARCH = [sys.executable, "-m", "puzzlesearch"]  # this checkout's (the editable install)
TARGETS = [
    "results/lexicon/tiny/words.parquet",
    "results/lexicon/tiny/dawg.npz",
    "results/lexicon/tiny/boggle_dawg.npz",
]


def snakemake(root: Path, *args: str, env: dict | None = None, cores: str = "1") -> subprocess.CompletedProcess:
    """Run snakemake in `root` (output captured)."""
    return subprocess.run(
        [*SNAKEMAKE, "--cores", cores, *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=None if env is None else {**os.environ, **env},
    )


def planned_rules(root: Path, *targets: str, config: list[str] | None = None) -> list[str]:
    """Rule names a dry run would execute for `targets` (empty when nothing is to be done)."""
    out = snakemake(root, "-n", *(targets or TARGETS), *(["--config", *config] if config else []))
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout + out.stderr
    return sorted(
        line.split()[-1].rstrip(":") for line in text.splitlines() if line.startswith(("rule ", "localrule "))
    )


def share_numba_cache(root: Path) -> None:
    """Let the copy's src/ use this checkout's numba cache: each copied package folder's __pycache__
    is a link to the checkout's.

    copytree keeps the sources' mtimes, and numba keys its cache on the source's mtime and size
    and the function's bytecode, not its path: the copy's jobs load the checkout's kernels, and a
    kernel one copy compiles (the first time, on a fresh clone) is there for every other copy and
    for the checkout, instead of being compiled again in each. numba and Python replace a cache
    file (temp file + rename), never write into one; a copy that edits a source (a test of
    reruns) only makes Python rewrite that module's .pyc.
    """
    for folder in sorted({path.parent for path in (PROJECT / "src").glob("**/*.py")}):
        cache = folder / "__pycache__"
        cache.mkdir(exist_ok=True)
        link = root / cache.relative_to(PROJECT)
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.exists():
            link.symlink_to(cache, target_is_directory=True)


def copy_project(root: Path) -> Path:
    """Copy Snakefile, workflow/ and src/ into root, with a config naming a tiny word list."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(PROJECT / "Snakefile", root)
    shutil.copytree(PROJECT / "workflow", root / "workflow", symlinks=True)
    shutil.copytree(PROJECT / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    share_numba_cache(root)
    if (PROJECT / "profiles").is_dir():
        shutil.copytree(PROJECT / "profiles", root / "profiles")
    (root / "tiny.txt").write_text("cat\r\ncats\r\ndog\r\nDogs\r\nqueen\r\n")
    config = (PROJECT / "config.yaml").read_text()
    config = config.replace("lexicons:\n", "lexicons:\n  tiny: tiny.txt\n", 1)
    (root / "config.yaml").write_text(config)
    return root


def seed_cube_tables(root: Path, folder: str, built: Path, skip: tuple[str, ...] = ()) -> list[str]:
    """Copy a built cube table folder's tables (.npy and .json, not manifest.parquet) into root/folder.

    For pipeline tests about something else than building the tables: their build jobs take
    tens of CPU seconds (prune_tp1_sym alone about 17 s), and `built` (the session's store
    tables, the `cube_tables` fixture) holds byte-identical ones. The copies are new files
    (mtime now), the prune tables after the tables they are built from, so Snakemake finds
    them up to date (no metadata: only mtimes count; next_tp1 is copied after prune_tp1_sym)
    and runs the steps after them (the
    folder's manifest.parquet, the solves) on them. `skip`: file stems to leave for the run.
    Returns the stems copied.
    """
    target = root / folder
    target.mkdir(parents=True, exist_ok=True)
    stems = sorted({p.stem for p in Path(built).glob("*.npy")} - set(skip))
    # the move and symmetry tables first, then the prune tables, then next_tp1 (built from prune_tp1_sym)
    stems.sort(key=lambda stem: 2 if stem.startswith("next_") else int(stem.startswith("prune_")))
    for stem in stems:
        for ext in (".npy", ".json"):
            shutil.copyfile(Path(built) / f"{stem}{ext}", target / f"{stem}{ext}")
    return stems


def build_some_cube_tables(root: Path, folder: str, built: Path, config: list[str]) -> list[str]:
    """Let the rules build the move tables and one small prune table (th1) into root/folder,
    then seed the other prune tables from `built` (seed_cube_tables); return the seeded stems.

    The table rules really run on `folder` (paths, quoting), without paying the big builds."""
    from puzzlesearch.cube.tables.phases import move_table_files, prune_file

    here = [str(p) for p in move_table_files(folder)] + [str(prune_file(folder, "th1"))]
    out = snakemake(root, *here, "--config", *config, cores="2")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert all((root / p).is_file() for p in here)
    return seed_cube_tables(root, folder, built, skip=tuple(Path(p).stem for p in here))


# ---------------------------------------------------------------- robustness helpers (issue 11)

SHARED = PROJECT.parent / "shared"
ENABLE2K = SHARED / "wordlists" / "enable2k.txt"
LEXICON_FILES = ("words.parquet", "dawg.npz", "boggle_dawg.npz")
POLL_SECONDS = 0.05


def lexicon_targets(name: str) -> list[str]:
    """The pipeline outputs of one lexicon (word table and both DAWGs)."""
    return [f"results/lexicon/{name}/{f}" for f in LEXICON_FILES]


def start_snakemake(root: Path, *args: str, cores: str = "2") -> subprocess.Popen:
    """Start snakemake in `root` in its own process group (output to root/snakemake.out)."""
    with open(root / "snakemake.out", "w") as out:  # the child keeps its own copy of the handle
        return subprocess.Popen(
            [*SNAKEMAKE, "--cores", cores, *args],
            cwd=root,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )


def wait_for(predicate, timeout: float, what: str):
    """Poll `predicate()` until it returns something truthy (returned); AssertionError after `timeout` s."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(POLL_SECONDS)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def running_job(proc: subprocess.Popen, needle: str):
    """The psutil.Process of a descendant of `proc` whose command line contains `needle`, or None."""
    import psutil

    try:
        children = psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return None
    for child in children:
        try:
            if child.name().startswith("python") and needle in " ".join(child.cmdline()):
                return child
        except psutil.NoSuchProcess:
            continue
    return None


def file_hashes(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, tuple[str, int]]:
    """relative path -> (sha256, mtime_ns) of every file under `folder` (paths starting with `skip` left out)."""
    from puzzlesearch.manifest import file_sha256

    out = {}
    for path in sorted(folder.rglob("*")):
        rel_path = path.relative_to(folder).as_posix()
        if path.is_file() and not rel_path.startswith(skip):
            out[rel_path] = (file_sha256(path), path.stat().st_mtime_ns)
    return out
