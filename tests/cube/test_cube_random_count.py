"""`cube random --count` is bounded like a configured test set before anything is drawn (issue 30 case 9), as real processes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"


def random_cubes(tmp_path: Path, count: str) -> subprocess.CompletedProcess:
    """`cube random` into tmp_path/cubes.txt."""
    argv = [str(PUZZLESEARCH), "cube", "random", "--count", count, "--out", str(tmp_path / "cubes.txt")]
    return subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("count", ["10000000000", "99999999999999999999999", "0"])
def test_a_count_out_of_bounds_is_one_line_and_writes_nothing(tmp_path, count):
    out = random_cubes(tmp_path, count)
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode == 2 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert f"--count {count}" in lines[0], lines[0]
    assert not (tmp_path / "cubes.txt").exists()


def test_a_count_within_bounds_writes_that_many_cubes(tmp_path):
    out = random_cubes(tmp_path, "5")
    assert out.returncode == 0, out.stderr
    lines = (tmp_path / "cubes.txt").read_text().splitlines()
    assert len(lines) == 5 and all(len(line.split()) == 20 for line in lines)
