"""Bee artifacts: where they live and how they are written.

    results/bee/{lexicon}/masks.parquet    one row per distinct letter mask (tables.MASKS_SCHEMA)
    results/bee/{lexicon}/masks.json       words and masks counted, rules, build seconds
    results/bee/{lexicon}/puzzles.parquet  every valid (letters, center), best first
    results/bee/{lexicon}/puzzles.json     counts, rules, seconds, the top puzzles
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from puzzlesearch.bee.model import BeeRules
from puzzlesearch.bee.search import rank_puzzles
from puzzlesearch.bee.tables import MASKS_SCHEMA, MaskTable, mask_frame
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_json, write_parquet
from puzzlesearch.progress import Timer, log

TOP_IN_META = 10


def bee_dir(lexicon: str, root: str | Path = ".") -> Path:
    """results/bee/{lexicon} under the project root."""
    return Path(root) / "results" / "bee" / lexicon


def read_words(path: str | Path) -> pl.DataFrame:
    """words.parquet, or a one-line error."""
    path = Path(path)
    if not path.exists():
        raise PuzzleError(f"{path}: no such word table (build the lexicon first)")
    return pl.read_parquet(path)


def read_masks(path: str | Path) -> pl.DataFrame:
    """masks.parquet, checked against its schema."""
    path = Path(path)
    if not path.exists():
        raise PuzzleError(f"{path}: no such mask table")
    masks = pl.read_parquet(path)
    missing = [c for c in MASKS_SCHEMA if c not in masks.columns]
    if missing:
        raise PuzzleError(f"{path}: not a bee mask table (no column {missing[0]!r})")
    return masks


def build_masks_file(words_path, out_path, rules: BeeRules) -> dict:
    """Write masks.parquet (+ .json) from words.parquet; log words and masks counted."""
    words = read_words(words_path)
    with Timer() as t:
        masks = mask_frame(words, rules)
    meta = {"words_in_lexicon": words.height, "words": int(masks["words"].sum() or 0),
            "masks": masks.height, "pangram_masks": int(masks["pangram"].sum()),
            "points": int(masks["points"].sum() or 0), "build_seconds": round(t.seconds, 3),
            "rules": rules.__dict__, "source": str(words_path)}
    write_parquet(masks, out_path)
    write_json(meta, Path(out_path).with_suffix(".json"))
    log("bee", f"{words_path}: {meta['words']} playable words of {words.height} -> "
        f"{meta['masks']} masks ({meta['pangram_masks']} pangram masks) in {t.seconds:.2f}s")
    return meta


def build_puzzles_file(masks_path, out_path, rules: BeeRules) -> dict:
    """Write puzzles.parquet (+ .json) from masks.parquet."""
    masks = read_masks(masks_path)
    with Timer() as t:
        table = MaskTable.from_frame(masks, rules.size)
        puzzles = rank_puzzles(table, masks, rules)
    top = puzzles.head(TOP_IN_META).to_dicts()
    meta = {"puzzles": puzzles.height, "letter_sets": puzzles["letters"].n_unique(),
            "seconds": round(t.seconds, 3), "rules": rules.__dict__, "top": top,
            "source": str(masks_path)}
    write_parquet(puzzles, out_path)
    write_json(meta, Path(out_path).with_suffix(".json"))
    best = f"; best {top[0]['letters']}/{top[0]['center']} {top[0]['points']} points, " \
           f"{top[0]['words']} words" if top else ""
    log("bee", f"{out_path}: {puzzles.height} puzzles in {t.seconds:.2f}s{best}")
    return meta
