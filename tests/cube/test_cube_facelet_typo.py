"""A facelet string with a letter too many or too few is a typo, not a scramble (issue 30, case 5), as real processes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
# The facelets of R U2 F' D L2 B (54 letters, URFDLB order).
FACELETS = "LRFDUUBRRBLLDRBUFLRDDBFFDLFFDRFDLBUUUBUULLDRRDUFRBFBBL"


@pytest.mark.parametrize("text", [FACELETS[:53], FACELETS + "U", FACELETS[:40]])
def test_a_facelet_typo_is_one_line(tmp_path, text):
    out = subprocess.run(
        [str(PUZZLESEARCH), "cube", "solve", text], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode == 2 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert f"{len(text)} face letters" in lines[0] and "54" in lines[0], lines[0]
    assert not out.stdout.strip()
