"""Two equal fills write byte-identical .ipuz and .puz files (no wall-clock seconds in them; issue 30)."""

from __future__ import annotations

import subprocess
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
PATTERN = PROJECT / "workflow" / "crossword" / "patterns" / "bench13.txt"


def test_equal_fills_write_equal_bytes(tmp_path):
    for name in ("a", "b"):
        argv = [PUZZLESEARCH, "crossword", "fill", "--pattern", PATTERN, "--max-nodes", "200000"]
        out = subprocess.run(
            [*map(str, argv), "--out", str(tmp_path / name)], cwd=tmp_path, capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0, out.stderr[-2000:]
    for suffix in (".ipuz", ".puz"):
        a, b = (tmp_path / name / f"bench13{suffix}" for name in ("a", "b"))
        assert a.read_bytes() == b.read_bytes(), suffix
