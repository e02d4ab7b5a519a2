"""The config tables of the README and docs/*.md state the schema defaults (the schema is the only source; the docs must not drift)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from puzzlesearch.settings import section_defaults

PROJECT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
DOCS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
SECTIONS = ("lexicon", "boggle", "bee", "crossword", "cube")
SECTION = re.compile(r"^#+ Config \(`(\w+):`")
ROW = re.compile(r"^\| `([\w.]+)` \| `?([^|`]*)`? \|")


def config_rows() -> list[tuple[str, str, str, str]]:
    """(file, section, dotted key, default cell) of every row of the config tables in the README and docs."""
    rows = []
    for path in DOCS:
        section = None
        for line in path.read_text().splitlines():
            if line.startswith("#"):
                match = SECTION.match(line)
                section = match.group(1) if match else None
            elif section and (match := ROW.match(line)):
                rows.append((path.name, section, match.group(1), match.group(2).strip()))
    return rows


MISSING = object()


def lookup(section: str, key: str):
    """The schema default of a dotted key, or MISSING when the schema has no such key."""
    value = section_defaults(section)
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def test_config_tables_match_the_schema_defaults():
    rows = config_rows()
    assert len(rows) > 30, "the config tables were not found in README.md or docs/*.md"
    wrong = []
    for name, section, key, cell in rows:
        try:
            stated = yaml.safe_load(cell)
        except yaml.YAMLError:
            stated = cell
        default = lookup(section, key)
        if default is MISSING:
            wrong.append(f"{name}: {section}.{key}: no such key in the schema")
        elif stated != default:
            wrong.append(f"{name}: {section}.{key}: says {cell!r}, schema default {default!r}")
    assert not wrong, "\n".join(wrong)


def test_every_section_has_a_config_table_naming_each_top_level_key():
    documented = {(section, key.split(".")[0]) for _, section, key, _ in config_rows()}
    missing = [
        f"{section}.{key}"
        for section in SECTIONS
        for key in section_defaults(section)
        if (section, key) not in documented
    ]
    assert not missing, "keys without a row in any config table: " + ", ".join(missing)
