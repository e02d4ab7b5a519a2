"""Search results as tables: one seed's boards, and the ranking merged over seeds.

seed{n}.parquet  board (canonical text), score, words (count), seed, method, mode,
                 seconds / boards_scored (when first seen), restart, local_optimum
                 (the end of a climb: no one-move neighbour scores more), state (dice
                 mode: die in each slot, then face up in each slot; null in free mode),
                 stopped_by (the budget that ended the run: boards, time, interrupted, target)
best.parquet     board, score, n_words, words (list of the words), found_by (seeds),
                 n_seeds, first_seconds, first_seed, local_optimum (any seed), state
                 (of the first finder)

Each table carries its manifest entry in the Parquet metadata (manifest.write_result_parquet):
the step's settings, what built it (seed, shape, mode, the lexicon's source sha256 and
options, the seeds ranked) and its data's sha256. Readers check it, and that it is the
table they asked for: seed{n}.parquet must be seed n's, every table of the same shape,
points and lexicon.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from puzzlesearch import kinds
from puzzlesearch.boggle.model import Shape, canonical, decode_boards, encode_boards, parse_board
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.boggle.search import Result
from puzzlesearch.errors import PuzzleError
from puzzlesearch.manifest import damaged, entry_sha256, read_result_parquet, write_result_parquet

SEED_KIND, BEST_KIND = kinds.BOGGLE_SEED, kinds.BOGGLE_BEST
SEED_FILE = re.compile(r"^seed(\d+)\.parquet$")  # the pipeline's name of seed n's table

SEED_SCHEMA = {
    "board": pl.Utf8,
    "score": pl.Int64,
    "words": pl.Int32,
    "seed": pl.Int64,
    "method": pl.Utf8,
    "mode": pl.Utf8,
    "seconds": pl.Float64,
    "boards_scored": pl.Int64,
    "restart": pl.Int32,
    "local_optimum": pl.Boolean,
    "state": pl.List(pl.Int16),
    "stopped_by": pl.Utf8,
}
# Columns that tables written by earlier versions may lack, and their fill value.
_OPTIONAL = {"state": None, "local_optimum": False, "stopped_by": None}


def built_by(scorer: Scorer, shape: Shape, **more) -> dict:
    """What a table was built from: the shape, the lexicon (source sha256 and options) and `more`."""
    return {"shape": str(shape), "lexicon": scorer.lexicon, **more}


def expected(scorer: Scorer, shape: Shape | None, points) -> dict:
    """What a reader expects of a table it reads: its scorer's lexicon and points (and shape, if known)."""
    want = {"lexicon": scorer.lexicon, "points": list(points)}
    return want if shape is None else {**want, "shape": str(shape)}


def seed_lineage(paths) -> dict:
    """What a ranking is built from, for its manifest: each seed table's identity (manifest.entry_sha256, sorted)
    and the search settings they share (a reader can then tell this run's ranking from another run's)."""
    entries = [read_result_parquet(path, SEED_KIND)[1] for path in paths]
    settings = [e["settings"] for e in entries]
    if any(s != settings[0] for s in settings):
        raise PuzzleError("the seed tables were searched with different settings (tables of different runs?)")
    return {"inputs": sorted(entry_sha256(e) for e in entries), "search": settings[0] if settings else {}}


def write_table(table: pl.DataFrame, path, kind: str, settings: dict, built: dict) -> None:
    """A seed table or ranking with its manifest entry (settings, what built it, data sha256)."""
    write_result_parquet(table, path, kind, settings, built)


def read_table(path, kind: str = BEST_KIND, expect: dict | None = None) -> pl.DataFrame:
    """A seed table or ranking, its manifest entry and checksum checked (seed{n}.parquet must be seed n's)."""
    return _read(path, kind, expect)[0]


def _read(path, kind: str, expect: dict | None) -> tuple[pl.DataFrame, dict]:
    """(table, what built it) of a checked seed table or ranking."""
    want = dict(expect or {})
    if kind == SEED_KIND and (match := SEED_FILE.match(Path(path).name)):
        want["seed"] = int(match.group(1))
    table, entry = read_result_parquet(path, kind, want)
    built = entry["built"]
    if kind == SEED_KIND and table.height and table["seed"].unique().to_list() != [built.get("seed")]:
        raise damaged(path, f"rows of another seed than its manifest's {built.get('seed')}")
    return table, built


def seed_table(result: Result, scorer: Scorer, shape: Shape, seed: int) -> pl.DataFrame:
    """One search run's boards, best first, with word counts."""
    rows = result.rows()
    if rows:
        boards = encode_boards([r["board"] for r in rows], shape)
        _, counts = scorer.score_array(boards, shape)
    else:
        counts = []
    data = [
        {
            **r,
            "words": int(c),
            "seed": seed,
            "method": result.method,
            "mode": result.mode,
            "stopped_by": result.stopped_by or None,
        }
        for r, c in zip(rows, counts)
    ]
    return pl.DataFrame(data, schema=SEED_SCHEMA)


def rank_tables(paths, shape: Shape, scorer: Scorer | None = None, keep: int = 100, expect=None) -> pl.DataFrame:
    """Merge seed tables (each checked to be of `expect`, and each seed once): boards equal under symmetry become one row, best first."""
    frames, seen = [], {}
    for path in paths:
        frame, built = _read(path, SEED_KIND, expect)
        seed = built.get("seed")
        if seed in seen:
            raise PuzzleError(f"{path} and {seen[seed]} both hold seed {seed}'s boards (a copied file?)")
        seen[seed] = path
        frame = frame.with_columns(
            [
                pl.lit(value, dtype=SEED_SCHEMA[name]).alias(name)
                for name, value in _OPTIONAL.items()
                if name not in frame.columns
            ]
        )
        missing = [c for c in SEED_SCHEMA if c not in frame.columns]
        if missing:
            raise PuzzleError(f"{path}: not a Boggle seed table (no column {missing[0]!r})")
        frames.append(frame.select(SEED_SCHEMA.keys()).cast(SEED_SCHEMA))
    seeds = pl.concat(frames) if frames else pl.DataFrame(schema=SEED_SCHEMA)
    if seeds.height:
        cells = encode_boards(seeds["board"].to_list(), shape)
        seeds = seeds.with_columns(board=pl.Series(decode_boards(canonical(cells, shape))))
    best = (
        seeds.sort(["seconds", "seed"])
        .group_by("board", maintain_order=True)
        .agg(
            pl.col("score").max(),
            pl.col("words").max().alias("n_words"),
            pl.col("seed").unique().sort().alias("found_by"),
            pl.col("seconds").min().alias("first_seconds"),
            pl.col("seed").first().alias("first_seed"),
            pl.col("local_optimum").any(),
            pl.col("state").first(),
        )
        .with_columns(n_seeds=pl.col("found_by").list.len())
        .sort(["score", "board"], descending=[True, False])
        .head(keep)
    )
    words = []
    for text in best["board"].to_list():
        if scorer is None:
            words.append(None)
        else:
            words.append([w.word for w in scorer.words_of(parse_board(text, shape.rows, shape.cols))])
    best = best.with_columns(words=pl.Series(words, dtype=pl.List(pl.Utf8)))
    return best.select(
        "board",
        "score",
        "n_words",
        "words",
        "found_by",
        "n_seeds",
        "first_seconds",
        "first_seed",
        "local_optimum",
        "state",
    )
