"""Helpers for pipeline tests: a throw-away copy of the project, snakemake runs, dry-run plans."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]
TARGETS = ["results/lexicon/tiny/words.parquet", "results/lexicon/tiny/dawg.npz",
           "results/lexicon/tiny/boggle_dawg.npz"]


def snakemake(root: Path, *args: str, env: dict | None = None, cores: str = "1") -> subprocess.CompletedProcess:
    """Run snakemake in `root` (output captured)."""
    return subprocess.run([*SNAKEMAKE, "--cores", cores, *args], cwd=root, capture_output=True, text=True,
                          env=None if env is None else {**os.environ, **env})


def planned_rules(root: Path, *targets: str, config: list[str] | None = None) -> list[str]:
    """Rule names a dry run would execute for `targets` (empty when nothing is to be done)."""
    out = snakemake(root, "-n", *(targets or TARGETS), *(["--config", *config] if config else []))
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout + out.stderr
    return sorted(line.split()[-1].rstrip(":") for line in text.splitlines()
                  if line.startswith(("rule ", "localrule ")))


def copy_project(root: Path) -> Path:
    """Copy Snakefile, workflow/ and src/ into root, with a config naming a tiny word list."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(PROJECT / "Snakefile", root)
    shutil.copytree(PROJECT / "workflow", root / "workflow", symlinks=True)
    shutil.copytree(PROJECT / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    if (PROJECT / "profiles").is_dir():
        shutil.copytree(PROJECT / "profiles", root / "profiles")
    (root / "tiny.txt").write_text("cat\r\ncats\r\ndog\r\nDogs\r\nqueen\r\n")
    config = (PROJECT / "config.yaml").read_text()
    config = config.replace("lexicons:\n", "lexicons:\n  tiny: tiny.txt\n", 1)
    (root / "config.yaml").write_text(config)
    return root
