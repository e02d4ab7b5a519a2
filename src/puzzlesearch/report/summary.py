"""The short summary printed at the end of a successful `snakemake` run (its `onsuccess:` handler).

Per puzzle: the best result and the file that holds it. It reads only result files that
exist (any it cannot read is named in one line) and never raises: a summary must not
turn a successful run into a failed one.
"""

from __future__ import annotations

from pathlib import Path

from puzzlesearch import kinds
from puzzlesearch.report.data import (
    read_boggle_scan,
    read_cube_solves,
    read_table,
)

HEADER = "puzzlesearch results (best per puzzle; files relative to the project folder):"
REPORT_HINT = "pictures: snakemake --report report.html   (or report.zip)"


def _rel(path: Path, root: Path) -> str:
    """`path` relative to the project folder."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _boggle(root: Path) -> list[str]:
    """One line per Boggle ranking: best board, score, words, scan verdict."""
    out = []
    for path in sorted(root.glob("results/boggle/*/*/*/best.parquet")):
        lexicon, shape, mode = path.parts[-4:-1]
        row = read_table(path, kinds.BOGGLE_BEST).select("board", "score", "n_words").row(0, named=True)
        line = (
            f"  Boggle {lexicon} {shape} {mode}: {row['board']} scores {row['score']} "
            f"({row['n_words']} words)  {_rel(path, root)}"
        )
        scan = path.with_name("scan.json")
        if scan.is_file():
            boards = read_boggle_scan(scan).get("boards") or [{}]
            if boards[0].get("board") == row["board"]:
                verdict = (
                    "a local optimum"
                    if boards[0].get("local_optimum")
                    else f"a neighbour scores {boards[0].get('best_neighbour_score')}"
                )
                line += f"  (scan: {verdict})"
        out.append(line)
    return out


def _bee(root: Path) -> list[str]:
    """One line per lexicon: the top Spelling Bee puzzle."""
    out = []
    for path in sorted(root.glob("results/bee/*/puzzles.parquet")):
        df = read_table(path, kinds.BEE_PUZZLES).select("rank", "letters", "center", "points", "words")
        if df.is_empty():
            out.append(f"  Spelling Bee {path.parent.name}: no puzzle meets the rules  {_rel(path, root)}")
            continue
        row = df.sort("rank").row(0, named=True)
        out.append(
            f"  Spelling Bee {path.parent.name}: {row['letters']} center {row['center']}, "
            f"{row['points']} points, {row['words']} words ({df.height} puzzles)  {_rel(path, root)}"
        )
    return out


def _cube(root: Path) -> list[str]:
    """One line per solver and test set: cubes, mean and max moves, median time."""
    out = []
    for path in sorted(root.glob("results/cube/*/*.parquet")):
        if path.parent.name in ("tables", "testsets"):
            continue
        df = read_cube_solves(path, path.parent.name, path.stem).select("moves", "milliseconds")
        if df.is_empty():
            continue
        out.append(
            f"  Rubik's cube {path.parent.name} on {path.stem}: {df.height} cubes, "
            f"mean {df['moves'].mean():.2f} moves (max {df['moves'].max()}), "
            f"median {df['milliseconds'].median():.1f} ms  {_rel(path, root)}"
        )
    return out


def _crossword(root: Path) -> list[str]:
    """One line per (language, size): the best grid's cost and its page."""
    out = []
    for path in sorted(root.glob("results/crossword/*/*/puzzles.parquet")):
        row = read_table(path, kinds.CROSSWORD_PUZZLES).sort("rank").row(0, named=True)
        page = path.with_name(Path(row["file"]).with_suffix(".html").name)
        out.append(
            f"  Crossword {row['lang']} {row['size']}x{row['size']}: cost {row['cost']:g}, "
            f"{row['across_words'] + row['down_words']} words, seed {row['seed']}  {_rel(page, root)}"
        )
    for path in sorted(root.glob("results/crossword/fill/*.ipuz")):
        out.append(f"  Crossword fill {path.stem}  {_rel(path.with_suffix('.html'), root)}")
    return out


SECTIONS = (_boggle, _bee, _cube, _crossword)


def summary_lines(root: str | Path = ".") -> list[str]:
    """The summary of the results under `root` (the project folder), one line per result."""
    root = Path(root).resolve()
    lines = [HEADER]
    for section in SECTIONS:
        try:
            lines += section(root)
        except Exception as exc:  # noqa: BLE001 - a summary never fails the run
            lines.append(
                f"  ({section.__name__.strip('_')}: could not read a result file: "
                f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
            )
    if (root / "results" / "report").is_dir():
        lines.append(REPORT_HINT)
    return lines


def print_summary(root: str | Path = ".") -> None:
    """Print the summary; never raises (called from the workflow's onsuccess handler)."""
    try:
        print("\n".join(summary_lines(root)), flush=True)
    except Exception as exc:  # noqa: BLE001
        print(f"puzzlesearch: no summary ({exc})", flush=True)
