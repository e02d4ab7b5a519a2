"""The house rules, checked on the source: each artifact kind lists the code that shapes it, and the
packages import each other only downwards (word knowledge below the puzzles, kernels private,
baselines only for tests and benchmarks). Each check is also shown to fail on a planted violation."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from puzzlesearch import kinds

PACKAGE = kinds.PACKAGE_DIR
PUZZLES = ("bee", "boggle", "crossword", "cube")


def module_file(name: str, root: Path = PACKAGE) -> Path | None:
    """The file of a puzzlesearch module (a .py file or a package's __init__.py), None if there is none."""
    path = root.joinpath(*name.split(".")[1:])
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """The dotted name of a module file under root."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(("puzzlesearch", *parts[: -1 if parts[-1] == "__init__" else None]))


@cache
def imports_of(path: Path, root: Path = PACKAGE) -> frozenset[str]:
    """The puzzlesearch modules a file imports anywhere in it (function-level imports too), with their parents."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "puzzlesearch"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] != "puzzlesearch":
                continue
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names if module_file(f"{base}.{a.name}", root)}
    for mod in list(out):  # importing a.b.c runs a/__init__ and a/b/__init__
        parts = mod.split(".")
        out |= {".".join(parts[:i]) for i in range(2, len(parts))}
    return frozenset(m for m in out if module_file(m, root))


def closure(module: str, root: Path = PACKAGE) -> set[Path]:
    """Every module file a module reaches through its imports, itself included."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        mod = todo.pop()
        if mod not in seen and (path := module_file(mod, root)) is not None:
            seen.add(mod)
            todo += imports_of(path, root)
    return {module_file(m, root) for m in seen}


def uncovered(kind: kinds.Kind, root: Path = PACKAGE) -> list[str]:
    """The modules a kind's writer reaches that none of its code entries (or CORE, INERT) covers."""
    module, _, function = kind.writer.partition(":")
    path = module_file(f"puzzlesearch.{module}", root)
    assert path is not None, f"{kind.name}: writer module {module} not found"
    assert function in {n.name for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.FunctionDef)}, (
        f"{kind.name}: no function {function} in {module}"
    )
    covered = {p.resolve() for p in kinds.source_files(kind.name, root=root)}
    covered |= {(root / p).resolve() for p in (*kinds.INERT, *kind.unshaped)}
    return sorted(
        str(p.relative_to(root)) for p in closure(f"puzzlesearch.{module}", root) if p.resolve() not in covered
    )


@pytest.mark.parametrize("name", sorted(kinds.KINDS))
def test_each_kind_lists_every_module_its_writer_imports(name):
    assert uncovered(kinds.KINDS[name]) == [], f"add these to kinds.py's {name!r} code"


def test_kind_check_catches_a_module_missing_from_its_kind(tmp_path):
    # a copy of the package where the Bee's word list imports a new module that no kind lists
    import shutil

    root = tmp_path / "puzzlesearch"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "newwords.py").write_text("WORDS = ()\n")
    wordlist = root / "bee" / "wordlist.py"
    wordlist.write_text(wordlist.read_text() + "\nfrom puzzlesearch.newwords import WORDS  # noqa\n")
    assert uncovered(kinds.KINDS[kinds.BEE_WORDLIST], root) == ["newwords.py"]
    assert uncovered(kinds.KINDS[kinds.BEE_WORDLIST]) == []


def test_code_hash_follows_every_listed_file():
    files = kinds.source_files(kinds.BEE_WORDLIST)
    names = {str(p.relative_to(PACKAGE)) for p in files}
    assert {"lexicon/wordinfo.py", "lexicon/data/blocklist.txt", "bee/data/blocklist.txt", "manifest.py"} <= names
    assert all(p.is_file() for p in files)
    assert len(kinds.code_sha256(kinds.BEE_WORDLIST)) == 64
    with pytest.raises(KeyError, match="unknown artifact kind"):
        kinds.kind("bee-wordlists")


# ---------------------------------------------------------------- package boundaries


def violations(root: Path = PACKAGE) -> list[str]:
    """Imports that break the house rules, as 'importer -> imported: rule'."""
    out = []
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        here = module_name(path, root).split(".")
        for mod in sorted(imports_of(path, root)):
            there = mod.split(".")
            where = f"{'.'.join(here)} -> {mod}"
            if len(here) > 1 and here[1] in PUZZLES and len(there) > 1 and there[1] in PUZZLES and here[1] != there[1]:
                out.append(f"{where}: a puzzle imports another puzzle (shared knowledge belongs in lexicon/)")
            if "_kernels" in there and there[: there.index("_kernels")] != here[: there.index("_kernels")]:
                out.append(f"{where}: another package's private kernels")
            if len(there) > 1 and there[1] == "baselines" and (len(here) < 2 or here[1] != "baselines"):
                out.append(f"{where}: baselines are for tests and benchmarks only")
            if len(here) > 1 and here[1] == "lexicon" and len(there) > 1 and there[1] in PUZZLES:
                out.append(f"{where}: the lexicon sits below the puzzles")
    return out


# What the house still allows, each with its reason: the report and the puzzlesearch command sit above
# every package (the report's benchmark figures time the baselines beside the current code); a baseline
# (a replaced kernel) shares the unchanged private helpers of the kernel that replaced it.
ALLOWED = ("puzzlesearch.report.", "puzzlesearch.cli ", "puzzlesearch.baselines.")


def test_packages_import_only_downwards():
    found = [v for v in violations() if not v.startswith(ALLOWED)]
    assert found == []


def test_boundary_check_catches_a_planted_violation(tmp_path):
    import shutil

    root = tmp_path / "puzzlesearch"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    wordlist = root / "bee" / "wordlist.py"
    wordlist.write_text(wordlist.read_text() + "\nfrom puzzlesearch.crossword.clues import tidy  # noqa\n")
    scan = root / "boggle" / "scan.py"
    scan.write_text(scan.read_text() + "\nfrom puzzlesearch.baselines import boggle_dawg  # noqa\n")
    found = [v for v in violations(root) if not v.startswith(ALLOWED)]
    assert any(v.startswith("puzzlesearch.bee.wordlist -> puzzlesearch.crossword") for v in found)
    assert any(v.startswith("puzzlesearch.boggle.scan -> puzzlesearch.baselines") for v in found)


MAX_FUNCTION_LINES = 100  # a function longer than this is split by what it does (baselines/ keep their history)


def long_functions(root: Path = PACKAGE) -> list[str]:
    """Functions over MAX_FUNCTION_LINES lines outside baselines/, as 'module.function (lines)'."""
    out = []
    for path in sorted(root.rglob("*.py")):
        if "baselines" in path.relative_to(root).parts or "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    out.append(f"{module_name(path, root)}.{node.name} ({lines})")
    return out


def test_no_function_over_100_lines_outside_baselines(tmp_path):
    assert long_functions() == []
    planted = tmp_path / "puzzlesearch"
    planted.mkdir()
    (planted / "big.py").write_text("def big():\n" + "    x = 1\n" * MAX_FUNCTION_LINES)
    assert long_functions(planted) == ["puzzlesearch.big.big (101)"]
