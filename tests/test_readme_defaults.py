"""The README's config tables state the schema defaults (the schema is the only source; the README must not drift)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from puzzlesearch.settings import section_defaults

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = re.compile(r"^### Config \(`(\w+):`")
ROW = re.compile(r"^\| `([\w.]+)` \| `?([^|`]*)`? \|")


def readme_defaults() -> list[tuple[str, str, str]]:
    """(section, dotted key, default cell) of every row of the README's config tables."""
    rows, section = [], None
    for line in README.read_text().splitlines():
        if line.startswith("#"):
            match = SECTION.match(line)
            section = match.group(1) if match else None
        elif section and (match := ROW.match(line)):
            rows.append((section, match.group(1), match.group(2).strip()))
    return rows


def lookup(section: str, key: str):
    value = section_defaults(section)
    for part in key.split("."):
        value = value[part]
    return value


def test_readme_config_tables_match_the_schema_defaults():
    rows = readme_defaults()
    assert len(rows) > 30, "the README's config tables were not found"
    wrong = []
    for section, key, cell in rows:
        try:
            stated = yaml.safe_load(cell)
        except yaml.YAMLError:
            stated = cell
        if stated != lookup(section, key):
            wrong.append(f"{section}.{key}: README says {cell!r}, schema default {lookup(section, key)!r}")
    assert not wrong, "\n".join(wrong)
