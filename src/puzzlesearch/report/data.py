"""The numbers behind each report figure: pure functions of the pipeline's result files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch import kinds, manifest
from puzzlesearch.errors import PuzzleError

QU_FACE = "q"  # the Boggle board text writes the Qu face as q
HISTOGRAM_BINS = 30  # at most this many score bins (fewer when the scores span less)
BEE_TOP = 20  # rows of the Spelling Bee top table
BEE_WINDOW = (20, 50)  # word counts NYT editors publish (about 20-50 words)
BENCH_ROOT = "benchmarks"  # Snakemake's benchmark files live under this folder


def read_table(path: str | Path, kind: str, expect: dict | None = None) -> pl.DataFrame:
    """A Parquet table of `kind` (kinds.py), read through the one checked reader: its manifest (inside the
    file or beside it, as the kind declares), checksums and `expect`ed settings first; one line otherwise."""
    return manifest.read_verified(path, kind, expect)[0]


def read_result_table(path: str | Path, kind: str, expect: dict | None = None) -> pl.DataFrame:
    """A result table (its manifest entry inside it) of `kind`: the same checked reader."""
    return read_table(path, kind, expect)


def boggle_identity(shape, words_path: str | Path | None) -> dict:
    """What a Boggle table of this report must have been built with: the shape, and the lexicon of words_path."""
    expect = {"shape": str(shape)}
    if words_path is not None:
        from puzzlesearch.lexicon.artifacts import words_settings

        expect["lexicon"] = words_settings(words_path)
    return expect


def read_manifest_json(path: str | Path, kind: str) -> dict:
    """An artifact manifest read as data (a crossword summary): of `kind`, its checksum present and checked."""
    return manifest.read_manifest(path, kind)


def need_columns(df: pl.DataFrame, columns, what: str) -> None:
    """Fail with one line when a table lacks a column a figure uses."""
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise PuzzleError(f"{what}: no column {', '.join(missing)} (rebuild it with snakemake)")


# ---------------------------------------------------------------- Boggle

SEED_COLUMNS = ("seed", "score", "words", "seconds", "boards_scored")


def seed_tables(paths, expect: dict | None = None) -> pl.DataFrame:
    """The seed tables of one (lexicon, shape, mode), stacked: seed, score, words, seconds, boards_scored."""
    frames = []
    for path in paths:
        df = read_table(path, kinds.BOGGLE_SEED, expect)
        need_columns(df, SEED_COLUMNS, f"Boggle seed table {path}")
        frames.append(df.select(SEED_COLUMNS))
    if not frames:
        raise PuzzleError("no Boggle seed tables given")
    return pl.concat(frames)


def check_ranked_from(best_path: str | Path, seed_paths) -> None:
    """ArtifactError unless the ranking was built from exactly these seed tables (their identities), so its
    figures and the seeds' curves describe one run."""
    built = manifest.read_verified(best_path, kinds.BOGGLE_BEST)[1]["built"]
    given = sorted(manifest.entry_sha256(manifest.read_verified(p, kinds.BOGGLE_SEED)[1]) for p in seed_paths)
    if built.get("inputs") != given:
        raise manifest.damaged(best_path, "not ranked from the seed tables given (another run's ranking or seeds?)")


def progress_curves(seeds: pl.DataFrame) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """seed -> (boards scored, seconds, best score so far): running max of the kept boards in finding order."""
    out = {}
    for seed in sorted(seeds["seed"].unique().to_list()):
        rows = seeds.filter(pl.col("seed") == seed).sort(
            "boards_scored", "seconds", "score", descending=[False, False, True]
        )
        out[int(seed)] = (
            rows["boards_scored"].to_numpy(),
            rows["seconds"].to_numpy(),
            np.maximum.accumulate(rows["score"].to_numpy()),
        )
    return out


def score_histograms(seeds: pl.DataFrame) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """(bin edges shared by all seeds, seed -> counts of the final pool's scores per bin)."""
    scores = seeds["score"].to_numpy()
    span = int(scores.max() - scores.min()) + 1 if len(scores) else 1
    edges = np.histogram_bin_edges(scores, bins=min(HISTOGRAM_BINS, span))
    counts = {}
    for seed in sorted(seeds["seed"].unique().to_list()):
        counts[int(seed)] = np.histogram(seeds.filter(pl.col("seed") == seed)["score"].to_numpy(), edges)[0]
    return edges, counts


def board_letters(board: str, rows: int, cols: int) -> list[list[str]]:
    """A board text as rows of faces as printed on the dice ('Qu' for q)."""
    if len(board) != rows * cols:
        raise PuzzleError(f"board {board!r} has {len(board)} letters, not {rows}x{cols}")
    faces = ["Qu" if ch == QU_FACE else ch.upper() for ch in board]
    return [faces[r * cols : (r + 1) * cols] for r in range(rows)]


def best_board(best: pl.DataFrame) -> dict:
    """The top row of a Boggle ranking: board, score, n_words."""
    need_columns(best, ("board", "score", "n_words"), "Boggle ranking")
    if best.is_empty():
        raise PuzzleError("Boggle ranking is empty")
    row = best.row(0, named=True)
    return {"board": row["board"], "score": int(row["score"]), "n_words": int(row["n_words"])}


def read_boggle_scan(path: str | Path, expect: dict | None = None) -> dict:
    """A Boggle scan summary (scan.json): its result entry required and checked (one line naming the file)."""
    return manifest.read_verified(path, kinds.BOGGLE_SCAN_SUMMARY, expect)[0]


def scan_rows(summary: dict) -> list[dict]:
    """The scanned boards of a scan summary (scan.json), in its order."""
    keys = ("board", "score", "neighbours", "better", "equal", "best_neighbour_score", "local_optimum")
    return [{k: b.get(k) for k in keys} for b in summary.get("boards", [])]


# ---------------------------------------------------------------- Spelling Bee


def bee_top(puzzles: pl.DataFrame, n: int = BEE_TOP) -> pl.DataFrame:
    """The n best puzzles (the table is ranked best first)."""
    need_columns(puzzles, ("rank", "letters", "center", "points", "words", "pangrams"), "Spelling Bee puzzles")
    return puzzles.sort("rank").head(n).select("rank", "letters", "center", "points", "words", "pangrams")


def read_bee_schedule(path: str | Path, expect: dict | None = None) -> tuple[pl.DataFrame, dict]:
    """The Bee schedule table and the settings that drew it (from schedule.json beside it, `expect`ed), both checked."""
    table, meta = manifest.read_verified(path, kinds.BEE_SCHEDULE, expect)
    return table, meta["manifest"]["settings"]


def check_bee_lexicon(path: str | Path, words_path: str | Path | None) -> None:
    """ArtifactError unless the Bee table's manifest records `words_path`'s sha256 (its lexicon's words; None: not checked)."""
    from puzzlesearch.bee.io import check_built_from

    check_built_from(Path(path), manifest.read_manifest(Path(path).with_suffix(".json")), words_path)


def in_window(puzzles: pl.DataFrame, window=BEE_WINDOW) -> int:
    """How many puzzles have a word count inside the editors' window."""
    return puzzles.filter(pl.col("words").is_between(*window)).height


# ---------------------------------------------------------------- Rubik's cube


def read_cube_solves(path: str | Path, solver: str, testset: str | None = None) -> pl.DataFrame:
    """A cube solve table, checked: its entry says it is `solver`'s (and `testset`'s when given), not another's."""
    expect = {"solver": solver} if testset is None else {"solver": solver, "testset": testset}
    return read_table(path, kinds.CUBE_SOLVES, expect)


def cube_solves(solvers, paths, testset: str | None = None) -> dict[str, pl.DataFrame]:
    """solver -> its solve table (moves, milliseconds), in the order given, each checked to be that solver's."""
    if len(solvers) != len(paths):
        raise PuzzleError(f"{len(solvers)} solver names for {len(paths)} solve tables")
    out = {}
    for solver, path in zip(solvers, paths):
        df = read_cube_solves(path, solver, testset)
        need_columns(df, ("moves", "milliseconds"), f"cube solves {path}")
        out[solver] = df
    return out


def move_counts(moves: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Number of solutions of each length lo..hi."""
    return np.bincount(np.asarray(moves, dtype=np.int64) - lo, minlength=hi - lo + 1)[: hi - lo + 1]


def table_sizes(manifest: pl.DataFrame) -> pl.DataFrame:
    """Cube tables by size: table, kind, bytes, build_seconds (largest first)."""
    need_columns(manifest, ("table", "kind", "bytes", "build_seconds"), "cube table manifest")
    return manifest.select("table", "kind", "bytes", "build_seconds").sort("bytes", descending=True)


# ---------------------------------------------------------------- Crossword


def best_puzzle_file(puzzles: pl.DataFrame, files) -> Path:
    """The .ipuz among `files` of the rank-1 row of a crossword puzzles table."""
    need_columns(puzzles, ("rank", "file"), "crossword puzzles")
    name = puzzles.sort("rank")["file"][0]
    for path in files:
        if Path(path).name == name:
            return Path(path)
    raise PuzzleError(f"crossword puzzles: the best puzzle {name} is not among the given --ipuz files")


def ipuz_cells(doc: dict) -> tuple[list[list[str]], list[list[int]]]:
    """(letters, clue numbers) per cell of an ipuz crossword, in page order ('#' = black)."""
    block = doc.get("block", "#")
    letters = [[str(c) for c in row] for row in doc["solution"]]
    numbers = [[c if isinstance(c, int) and c != block else 0 for c in row] for row in doc["puzzle"]]
    return [["#" if c == block else c for c in row] for row in letters], numbers


def search_trace(summary: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pops, seconds, best cost) of a crossword search, from its per-seed summary."""
    trace = summary.get("trace") or {}
    if not trace.get("pops"):
        raise PuzzleError("crossword summary has no search trace (rebuild it with snakemake)")
    return (
        np.asarray(trace["pops"]),
        np.asarray(trace["seconds"], dtype=float),
        np.asarray(trace["cost"], dtype=float),
    )


# ---------------------------------------------------------------- benchmarks


def job_name(path: str | Path) -> str:
    """A benchmark file's job: its path under benchmarks/ without .tsv."""
    parts = Path(path).with_suffix("").parts
    return "/".join(parts[parts.index(BENCH_ROOT) + 1 :] if BENCH_ROOT in parts else parts[-2:])


def benchmarks(paths) -> pl.DataFrame:
    """Snakemake benchmark files (one run each): job, stage, seconds, cpu_seconds, max_rss_mb."""
    rows = []
    for path in paths:
        try:
            df = pl.read_csv(path, separator="\t", null_values=["-", "NA"])
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise PuzzleError(f"benchmark {path}: cannot read ({str(exc).splitlines()[0]})") from None
        need_columns(df, ("s", "max_rss", "cpu_time"), f"benchmark {path}")
        name = job_name(path)
        rows.append(
            {
                "job": name,
                "stage": name.split("/")[0],
                "seconds": float(df["s"].mean()),
                "cpu_seconds": float(df["cpu_time"].fill_null(0).mean()),
                "max_rss_mb": float(df["max_rss"].fill_null(0).mean()),
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "job": pl.String,
            "stage": pl.String,
            "seconds": pl.Float64,
            "cpu_seconds": pl.Float64,
            "max_rss_mb": pl.Float64,
        },
    )
