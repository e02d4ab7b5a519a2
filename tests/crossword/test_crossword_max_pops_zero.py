"""`crossword generate --max-pops 0` is the schema's "no limit", as a real process (issue 30)."""

from __future__ import annotations

import subprocess
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"


def generate(tmp_path: Path, max_pops: str) -> subprocess.CompletedProcess:
    """A 5x5 English puzzle outside any project, the time budget as the only other bound."""
    argv = [PUZZLESEARCH, "crossword", "generate", "--size", "5", "--max-pops", max_pops, "--time-budget", "20"]
    return subprocess.run(
        [*map(str, argv), "--out", str(tmp_path / "out")], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )


def test_max_pops_zero_means_no_limit(tmp_path):
    out = generate(tmp_path, "0")
    assert out.returncode == 0, out.stderr[-2000:]
    assert (tmp_path / "out" / "puzzles.parquet").is_file()


def test_a_negative_max_pops_is_one_line(tmp_path):
    out = generate(tmp_path, "-1")
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode == 2 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert "--max-pops -1" in lines[0] and "minimum" in lines[0], lines[0]
