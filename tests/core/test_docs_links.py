"""Every relative link in the README, docs/*.md and benchmarks/RESULTS.md resolves, and every repository path they name exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PROJECT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
PAGES = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md")), PROJECT / "benchmarks" / "RESULTS.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^(```|~~~)")
# Repository folders whose paths the pages name in backticks; results/, logs/ and ../shared are outputs or optional.
TRACKED = ("src/", "tests/", "workflow/", "benchmarks/", "profiles/", "docs/", ".ci/")
OUTPUTS = re.compile(r"^benchmarks/(?!cpp/)[^/]+/")  # Snakemake `benchmark:` files, not committed


def prose(path: Path) -> str:
    """The page without its fenced code blocks (examples, diagrams)."""
    kept, fenced = [], False
    for line in path.read_text().splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return "\n".join(kept)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown page (repeated headings get -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    for line in prose(path).splitlines():
        if match := re.match(r"^#{1,6} (.+)$", line):
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            seen.setdefault(f"{base}-{count}" if count else base, 1)
    return set(seen)


def test_slug_follows_github():
    assert slug("Config (`boggle:` in config.yaml; schema `x.yaml`)") == "config-boggle-in-configyaml-schema-xyaml"
    assert slug("Rubik's cube") == "rubiks-cube"
    assert slug("Boggle proof 3x3 at 500, idle machine (2026-11-23, 11:05)") == (
        "boggle-proof-3x3-at-500-idle-machine-2026-11-23-1105"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(PROJECT)))
def test_relative_links_resolve(page):
    assert page.is_file(), f"{page} is missing"
    broken = []
    for target in LINK.findall(prose(page)):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        file, _, fragment = target.partition("#")
        resolved = (page.parent / file).resolve() if file else page
        if not resolved.exists():
            broken.append(f"{target}: no file {resolved.relative_to(PROJECT)}")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: no heading with anchor #{fragment}")
    assert not broken, f"{page.name}:\n" + "\n".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(PROJECT)))
def test_named_repository_paths_exist(page):
    missing = []
    for code in CODE.findall(prose(page)):
        for word in code.split():
            path = word.rstrip(".,;:)")
            if not path.startswith(TRACKED) or OUTPUTS.match(path) or re.search(r"[{}<>*|\[]|\.\.\.", path):
                continue
            if not (PROJECT / path).exists():
                missing.append(path)
    assert not missing, f"{page.name} names paths that do not exist: " + ", ".join(sorted(set(missing)))


README_CELL_MAX = 300  # characters: a results cell is today's figure and a link, the history lives in RESULTS.md


def test_readme_table_cells_are_short():
    rows = [line for line in (PROJECT / "README.md").read_text().splitlines() if line.startswith("|")]
    long = [c.strip()[:80] for line in rows for c in line.split("|") if len(c) > README_CELL_MAX]
    assert not long, f"README table cells over {README_CELL_MAX} characters: {long}"
