"""Settings at their limits (issue 30): huge counts, NaN and infinities, 1e308, as real processes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
SNAKEMAKE = PROJECT / ".venv" / "bin" / "snakemake"


def run(*argv, timeout: float = 120) -> subprocess.CompletedProcess:
    """A real process in the project folder (its config.yaml)."""
    return subprocess.run([str(a) for a in argv], cwd=PROJECT, capture_output=True, text=True, timeout=timeout)


def one_line_error(out: subprocess.CompletedProcess) -> str:
    """The single `puzzlesearch: error:` line of a failed run (no traceback)."""
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode != 0, out.stderr[-2000:]
    assert "Traceback" not in out.stderr and len(lines) == 1, out.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("section", ["boggle", "crossword"])
def test_a_huge_seed_count_is_one_line_not_a_dag_of_24_gb(section):
    out = run(SNAKEMAKE, "-n", "--config", f"{section}={{seeds: 99999999999999999999}}", timeout=60)
    line = one_line_error(out)
    assert f"{section}.seeds" in line and "maximum" in line, line


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", ".NaN"])
def test_non_finite_float_settings_are_refused(value):
    out = run(PUZZLESEARCH, "crossword", "generate", "--size", "5", "--set", f"length_bias={value}")
    line = one_line_error(out)
    assert "crossword.length_bias" in line, line


def test_nan_in_a_pipeline_settings_json_is_refused():
    settings = '{"seconds": NaN}'  # Python's json reads NaN
    out = run(PUZZLESEARCH, "boggle", "search", "--settings", settings, "--words", "w", "--dawg", "d", "--out", "o")
    line = one_line_error(out)
    assert "nan" in line.lower(), line


def test_nan_through_snakemake_config_is_refused():
    out = run(SNAKEMAKE, "-n", "--config", "crossword={focus: .nan}", timeout=60)
    line = one_line_error(out)
    assert "crossword.focus" in line and "finite" in line, line


def test_1e308_is_read_as_a_number():
    out = run(PUZZLESEARCH, "crossword", "generate", "--size", "5", "--set", "length_bias=1e308")
    line = one_line_error(out)
    assert "crossword.length_bias" in line and "maximum" in line and "type" not in line, line


@pytest.mark.parametrize("setting", ["pangram_bonus=1000000000000000000", "short_points=200000000000000000"])
def test_bee_points_that_would_wrap_int64_are_refused(setting, tmp_path):
    """Issue 30 case 1: such points printed 5553255926290450150 for AEGINRT/N; now the schema's maximum refuses them."""
    out = subprocess.run(
        [str(PUZZLESEARCH), "bee", "show", "AEGINRT", "--center", "N", "--set", setting],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    line = one_line_error(out)
    assert f"bee.{setting.split('=')[0]}" in line and "maximum" in line, line
