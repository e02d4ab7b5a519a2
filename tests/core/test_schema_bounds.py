"""Every numeric setting in every schema has a maximum; points and scores cannot overflow int64 in a sum."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

SCHEMAS = Path(__file__).resolve().parents[2] / "src" / "puzzlesearch" / "schemas"
NUMERIC = {"integer", "number"}
INT64_SUM_LIMIT = 2**62
# Points of one word or one puzzle bonus: a sum over up to 10**7 words (a big lexicon) stays below 2**62.
MAX_WORDS = 10**7
POINT_KEYS = {"points", "short_points", "pangram_bonus"}
# Totals compared with such sums: below 2**62 themselves.
TOTAL_KEYS = {"min_points", "max_points", "min_score"}


def schema_files() -> list[Path]:
    """Every schema shipped in the package."""
    files = sorted(SCHEMAS.glob("*.schema.yaml"))
    assert len(files) >= 5, files
    return files


def numeric_nodes(node, path=()):
    """(dotted path, subschema) of every numeric subschema (YAML anchors and merges resolved)."""
    if isinstance(node, dict):
        kind = node.get("type")
        kinds = set(kind) if isinstance(kind, list) else {kind}
        if kinds & NUMERIC and "enum" not in node and "const" not in node:
            yield ".".join(path), node
        for key, value in node.items():
            if key not in ("default", "examples", "description"):
                yield from numeric_nodes(value, (*path, str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from numeric_nodes(value, (*path, str(i)))


def setting_name(path: str) -> str:
    """The config key a numeric subschema belongs to (the last name that is not schema vocabulary)."""
    vocabulary = {"properties", "items", "additionalProperties", "oneOf", "anyOf", "allOf"}
    parts = [p for p in path.split(".") if p not in vocabulary and not p.isdigit()]
    return parts[-1] if parts else path


def upper(node: dict) -> float:
    """The schema's upper bound of a numeric subschema (inf when it has none)."""
    return min(node.get("maximum", float("inf")), node.get("exclusiveMaximum", float("inf")))


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_every_numeric_setting_has_a_maximum(path):
    nodes = list(numeric_nodes(yaml.safe_load(path.read_text())))
    missing = [where for where, node in nodes if upper(node) == float("inf")]
    assert not missing, f"{path.name}: numeric settings without a maximum: {missing}"


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_points_cannot_overflow_a_sum(path):
    for where, node in numeric_nodes(yaml.safe_load(path.read_text())):
        name = setting_name(where)
        if name in POINT_KEYS:
            assert upper(node) * MAX_WORDS < INT64_SUM_LIMIT, f"{path.name}: {where} allows {upper(node)}"
        if name in TOTAL_KEYS:
            assert upper(node) < INT64_SUM_LIMIT, f"{path.name}: {where} allows {upper(node)}"


def test_the_walk_finds_the_known_settings():
    """The walk sees nested, array-item and anchored settings (so an empty result is not a pass)."""
    found = {
        (path.name, setting_name(where))
        for path in schema_files()
        for where, _ in numeric_nodes(yaml.safe_load(path.read_text()))
    }
    for expected in [
        ("boggle.schema.yaml", "seeds"),
        ("boggle.schema.yaml", "points"),
        ("boggle.schema.yaml", "peak_mb"),
        ("bee.schema.yaml", "pangram_bonus"),
        ("crossword.schema.yaml", "mutants"),
        ("crossword.schema.yaml", "sizes"),
        ("cube.schema.yaml", "random"),
        ("config.schema.yaml", "min_length"),
    ]:
        assert expected in found, expected
