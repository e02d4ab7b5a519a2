"""Shell quoting of the pipeline (issue 11, point 5): every value that reaches a shell command
is quoted, so names with spaces, quotes, `;` and `$()` are plain data, never commands.

A static check of every rule's shell string, then real pipeline runs on such names.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import polars as pl
import pytest
from pipeline_util import PROJECT, build_some_cube_tables, copy_project, snakemake

pytestmark = pytest.mark.slow  # a long file (pipeline runs, byte flips, pages): not in -m "not slow"

RULES = sorted((PROJECT / "workflow" / "rules").glob("*.smk"))
UNQUOTED_OK = {"PS"}  # the command itself: built with q() in common.smk
HOSTILE = "it's a list;$(touch PWNED).txt"  # a space, a quote, `;` and `$()`
CANARY = "PWNED"
STRING_START = re.compile(r"""^\s*[rRbBuU]?("|')""")
SQUARE = ["cat", "ore", "wee", "cow", "are", "tee"]  # rows cat/ore/wee, columns cow/are/tee
SQUARE_COUNT = 1000  # a frequency above crossword.fill.min_frequency
PS_LINE = re.compile(r"^PS\s*=")


def shell_strings(text: str) -> list[tuple[int, str]]:
    """(line number, shell command) of every `shell:` directive (adjacent literals joined)."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        head = re.match(r"^(\s*)shell:\s*(.*)$", line)
        if not head:
            continue
        parts = [head[2]] if head[2] else []
        j = i + 1
        while not parts and j < len(lines) and not lines[j].strip():
            j += 1
        if not head[2]:
            while j < len(lines) and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) > len(head[1]):
                parts.append(lines[j].strip())
                j += 1
        out.append((i + 1, literal(" ".join(parts), i + 1)))
    return out


def literal(source: str, lineno: int) -> str:
    """The value of a (concatenated) plain string literal; f-strings and expressions are refused."""
    source = source.strip().rstrip(",")
    assert STRING_START.match(source), f"line {lineno}: shell is not a plain string literal: {source[:60]}"
    try:
        value = ast.literal_eval(source)
    except (ValueError, SyntaxError):
        raise AssertionError(f"line {lineno}: shell is not a plain string literal (f-string?): {source[:60]}") from None
    assert isinstance(value, str)
    return value


def unquoted_fields(command: str) -> list[str]:
    """Placeholders of a shell command without the `:q` format (besides UNQUOTED_OK)."""
    bad = []
    for _, field, spec, conversion in string.Formatter().parse(command):
        if field is None:
            continue
        if field in UNQUOTED_OK:
            continue
        if spec != "q" or conversion:
            bad.append("{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
    return bad


def test_the_parser_sees_quoting():
    assert unquoted_fields("{PS} a --x {input.x:q} {output:q} 2> {log:q} ${{HOME}}") == []
    assert unquoted_fields("{PS} a --dir {params.dir} > {log}") == ["{params.dir}", "{log}"]
    text = 'rule r:\n    shell:\n        "{PS} a {input:q}"\n        " b {params.p}"\n\n'
    assert shell_strings(text) == [(2, "{PS} a {input:q} b {params.p}")]


@pytest.mark.parametrize("smk", RULES, ids=[p.name for p in RULES])
def test_every_shell_placeholder_is_quoted(smk):
    text = smk.read_text()
    for lineno, command in shell_strings(text):
        assert unquoted_fields(command) == [], f"{smk.name} line {lineno}: {command}"


def test_the_command_prefix_quotes_its_paths():
    common = (PROJECT / "workflow" / "rules" / "common" / "paths.smk").read_text()
    [line] = [line for line in common.splitlines() if PS_LINE.match(line)]
    assert "q(SRC)" in line and "q(sys.executable)" in line


# ---------------------------------------------------------------- real runs with hostile names


def no_canary(folder: Path) -> None:
    """No file named CANARY was created under `folder` or here (the hostile name did not run as a command)."""
    assert not list(folder.rglob(CANARY)), f"{CANARY} created under {folder}"
    assert not (Path.cwd() / CANARY).exists(), f"{CANARY} created in {Path.cwd()}"


def run(root: Path, *args: str) -> None:
    """snakemake ARGS in root; assert success."""
    out = snakemake(root, *args, cores="2")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]


def add_lexicon(root: Path, name: str, source: str) -> None:
    """Add `name: source` to the lexicons of the project's config.yaml."""
    config = root / "config.yaml"
    value = source.replace("\\", "\\\\").replace('"', '\\"')
    config.write_text(config.read_text().replace("lexicons:\n", f'lexicons:\n  {name}: "{value}"\n', 1))


def test_word_list_with_hostile_name_builds(tmp_path):
    root = copy_project(tmp_path / "project's dir")  # the checkout's own path has a quote and a space
    words = ["alpha", "beta", "gamma"]
    (root / HOSTILE).write_text("\n".join(words) + "\n")
    add_lexicon(root, "hostile", HOSTILE)
    run(root, "results/lexicon/hostile/words.parquet", "results/lexicon/hostile/dawg.npz")
    no_canary(tmp_path)
    table = pl.read_parquet(root / "results/lexicon/hostile/words.parquet")
    assert sorted(table["word"].to_list()) == words


def test_cube_tables_and_test_set_paths_are_data(tmp_path, cube_tables):
    root = copy_project(tmp_path / "p")
    tables = f"results/cube/t;touch {CANARY};"  # a table folder that is a command if unquoted
    (root / "my cubes").mkdir()
    scrambles = ["R U", "F2 L' D"]
    (root / "my cubes" / "set one.txt").write_text("\n".join(scrambles) + "\n")  # a test set path with a space
    config = [
        f'cube={{tables: "{tables}", testsets: {{spaced: "my cubes/set one.txt"}}, '
        "default_testsets: [spaced], solvers: [twophase]}"
    ]
    # The move tables and one small prune table are built at the hostile path by the rules;
    # the other prune tables (tens of CPU seconds, the same bytes) come from the session's store.
    build_some_cube_tables(root, tables, cube_tables.dir, config)
    no_canary(tmp_path)
    run(root, "results/cube/twophase/spaced.parquet", "--config", *config)
    no_canary(tmp_path)
    assert any((root / tables).glob("*.npy")), "no table under the configured folder"
    table = pl.read_parquet(root / "results/cube/twophase/spaced.parquet")
    assert table.height == len(scrambles)
    from puzzlesearch.cube.model.cubie import parse_cube, parse_moves

    for scramble, solution in zip(scrambles, table["solution"].to_list()):
        moves = " ".join(re.findall(r"\b[URFDLB][2']?(?=\s|$)", solution))
        assert parse_cube(scramble).apply(parse_moves(moves)).is_solved, (scramble, solution)


def test_crossword_pattern_path_with_space(tmp_path):
    root = copy_project(tmp_path / "p")
    (root / "my patterns").mkdir()
    pattern = "...\n...\n...\n"  # a 3x3 word square: three across and three down words
    (root / "my patterns" / "square three.txt").write_text(pattern)
    (root / "square.txt").write_text("".join(f"{w} {SQUARE_COUNT}\n" for w in SQUARE))  # a small, quick lexicon
    add_lexicon(root, "square", "square.txt")
    config = ['crossword={lexicons: {en: square}, fill: {patterns: ["my patterns/square three.txt"], min_score: 0}}']
    run(root, "--until", "crossword_fill", "--config", *config)
    no_canary(tmp_path)
    filled = [p for p in (root / "results/crossword/fill").glob("*.ipuz")]
    assert len(filled) == 1 and "square" in filled[0].name, filled
