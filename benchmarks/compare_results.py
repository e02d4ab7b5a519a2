"""Compare two results/ trees, for a change that must not alter outputs (a refactor).

Parquet files by data (columns, types and values; timing columns left out), JSON files by content
without timing and provenance keys (seconds, sha256, code, paths ...), every other file (NumPy
tables, pages, .ipuz, .puz, figures) by bytes. The store and results/cli are left out.

    python benchmarks/compare_results.py BEFORE/results AFTER/results

Prints how many files are the same, which differ, and which are only on one side.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import polars as pl

VOLATILE = (
    "seconds", "time", "elapsed", "sha256", "manifest", "code", "source", "wall", "cpu", "started",
    "date", "built", "trace", "rss", "path", "blocklist", "word_classes", "frequency",
)  # fmt: skip
TIMING_COLUMNS = ("seconds", "time", "ms", "milliseconds")
SKIPPED_FOLDERS = ("store", "cli")


def stripped(value):
    """JSON content without the keys that name times, checksums or provenance."""
    if isinstance(value, dict):
        return {k: stripped(v) for k, v in value.items() if not any(t in k.lower() for t in VOLATILE)}
    if isinstance(value, list):
        return [stripped(v) for v in value]
    return value


def digest(text: str) -> str:
    """sha256 of a text."""
    return hashlib.sha256(text.encode()).hexdigest()


def identity(path: Path) -> str:
    """What must stay the same of one output file."""
    if path.suffix == ".parquet":
        df = pl.read_parquet(path)
        df = df.drop([c for c in df.columns if any(t in c.lower() for t in TIMING_COLUMNS)])
        data = {"columns": df.columns, "types": [str(t) for t in df.dtypes], "values": df.to_dict(as_series=False)}
        return digest(json.dumps(data, default=str, sort_keys=True))
    if path.suffix == ".json":
        try:
            return digest(json.dumps(stripped(json.loads(path.read_text())), sort_keys=True, default=str))
        except ValueError:
            pass
    return hashlib.sha256(path.read_bytes()).hexdigest()


def files(root: Path) -> set[Path]:
    """The output files under root, relative to it."""
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file() and not set(p.parts) & set(SKIPPED_FOLDERS)}


def main(before: Path, after: Path) -> int:
    """Print the comparison; exit 1 when any file differs or is on one side only."""
    a, b = files(before), files(after)
    differ = [str(r) for r in sorted(a & b) if identity(before / r) != identity(after / r)]
    print(f"same {len(a & b) - len(differ)}, differ {len(differ)}, only before {len(a - b)}, only after {len(b - a)}")
    for name in differ:
        print("  differ", name)
    for name in sorted(a - b):
        print("  only before", name)
    for name in sorted(b - a):
        print("  only after", name)
    return 1 if differ or a != b else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
