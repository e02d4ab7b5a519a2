"""Helpers for the cube tests (a uniquely named module, importable from any test folder)."""

from __future__ import annotations


def read_tsv(path) -> list[dict[str, str]]:
    """Rows of a tab-separated file with a header line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line]
