"""Bee artifacts: written from explicit paths, each with a manifest, verified on load.

    results/bee/{lexicon}/masks.parquet    one row per distinct letter mask (tables.MASKS_SCHEMA)
    results/bee/{lexicon}/masks.json       its manifest: sha256, the table rules, the words' sha256, counts
    results/bee/{lexicon}/puzzles.parquet  every valid (letters, center), best first
    results/bee/{lexicon}/puzzles.json     its manifest: sha256, every rule, the masks' sha256, the top puzzles
    results/bee/{lexicon}/wordlist.parquet the Bee word list (wordlist.WORDLIST_SCHEMA): `probability`, commonness `zipf`
    results/bee/{lexicon}/wordlist.json    its manifest: sha256, rules, sources, the parameter file's sha256, counts
    results/bee/{lexicon}/schedule.parquet the schedule, one puzzle a day (schedule.SCHEDULE_SCHEMA)
    results/bee/{lexicon}/schedule.json    its manifest: sha256, rules, rank names, the word list's sha256
    results/bee/{lexicon}/pages/           index.html, day-NNN.html (playable), hints-NNN.html, and
                                           the marker naming `bee schedule` (puzzlesearch.io.OUTPUT_MARKER)

`build_masks_file` reads a verified words.parquet (lexicon.artifacts.read_words);
`build_puzzles_file` verifies masks.parquet against masks.json, checks that it was built
with the same table rules from the lexicon's words.parquet it is given (the sha256 the
manifest records), and range-checks it before the scoring kernel indexes with it; the
schedule checks its word list the same way.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch import kinds, manifest
from puzzlesearch.bee.acceptance import (
    PARAMS_FILE,
    PARAMS_FILE_WITHOUT_SCOWL,
    default_facts,
    load_model,
    shipped_params_path,
)
from puzzlesearch.bee.model import N_LETTERS
from puzzlesearch.bee.page import pages
from puzzlesearch.bee.schedule import make_schedule, schedule_frame
from puzzlesearch.bee.search import rank_puzzles
from puzzlesearch.bee.settings import BeeRules, ScheduleRules, TableRules, WordListRules
from puzzlesearch.bee.tables import MASKS_SCHEMA, MaskTable, mask_frame
from puzzlesearch.bee.wordlist import WORDLIST_SCHEMA, build_wordlist
from puzzlesearch.io import prepare_output_dir, replace_output_dir, write_parquet
from puzzlesearch.lexicon.artifacts import read_words
from puzzlesearch.progress import Timer, log

TOP_IN_META = 10
MASKS_KIND, PUZZLES_KIND = kinds.BEE_MASKS, kinds.BEE_PUZZLES
WORDLIST_KIND, SCHEDULE_KIND = kinds.BEE_WORDLIST, kinds.BEE_SCHEDULE
BOUNDARY_SAMPLE = 20  # accepted words of the lowest probability, listed in the manifest
ALL_LETTERS = (1 << N_LETTERS) - 1


def manifest_path(parquet_path: str | Path) -> Path:
    """The manifest beside a bee table (masks.json beside masks.parquet)."""
    return Path(parquet_path).with_suffix(".json")


def check_built_from(path: Path, meta: dict, words_path: str | Path | None) -> None:
    """ArtifactError unless the table's manifest records the sha256 of `words_path` (None: not checked)."""
    if words_path is None:
        return
    recorded = meta["manifest"]["settings"].get("words_sha256")
    if recorded != manifest.file_sha256(words_path):
        raise manifest.damaged(path, f"it was not built from {words_path} (another lexicon's word table)")


def built_from(path: str | Path) -> str | None:
    """The words sha256 a verified table's manifest records (None when it records none)."""
    return manifest.read_manifest(manifest_path(Path(path)))["manifest"]["settings"].get("words_sha256")


def read_masks(path: str | Path, rules: TableRules, words_path: str | Path | None = None) -> pl.DataFrame:
    """masks.parquet, verified against masks.json, built with `rules` (from words_path), range-checked."""
    path = Path(path)
    masks, meta = manifest.read_verified(path, MASKS_KIND, rules.to_dict(), section="bee")
    check_built_from(path, meta, words_path)
    check_masks(path, masks, rules.size)
    return masks


def check_masks(path: Path, masks: pl.DataFrame, size: int) -> None:
    """ArtifactError unless the table has the bee schema and every mask fits the kernels."""
    if dict(masks.schema) != MASKS_SCHEMA:
        raise manifest.damaged(path, "not a bee mask table (columns or types differ)")
    mask = masks["mask"].to_numpy()
    manifest.check_range(path, "mask", mask, 1, ALL_LETTERS)
    distinct = np.bitwise_count(mask.astype(np.uint32))
    manifest.check_range(path, "letters per mask", distinct, 1, size)
    if not (
        np.array_equal(distinct, masks["distinct"].to_numpy())
        and np.array_equal(distinct == size, masks["pangram"].to_numpy())
    ):
        raise manifest.damaged(path, "columns 'distinct'/'pangram' do not match the masks")
    manifest.check_range(path, "words", masks["words"].to_numpy(), 1, np.iinfo(np.int32).max)
    manifest.check_range(path, "points", masks["points"].to_numpy(), 0, np.iinfo(np.int64).max)


def build_masks_file(words_path, out_path, rules: TableRules) -> dict:
    """Write masks.parquet and its manifest masks.json from a verified words.parquet."""
    words_path, out_path = Path(words_path), Path(out_path)
    words = read_words(words_path)
    with Timer() as t:
        masks = mask_frame(words, rules)
    meta = {
        "words_in_lexicon": words.height,
        "words": int(masks["words"].sum() or 0),
        "masks": masks.height,
        "pangram_masks": int(masks["pangram"].sum()),
        "points": int(masks["points"].sum() or 0),
        "build_seconds": round(t.seconds, 3),
        "source": str(words_path),
    }
    write_parquet(masks, out_path)
    settings = {**rules.to_dict(), "words_sha256": manifest.file_sha256(words_path)}
    manifest.write_manifest(manifest_path(out_path), [out_path], MASKS_KIND, settings, meta)
    log(
        "bee",
        f"{words_path}: {meta['words']} playable words of {words.height} -> "
        f"{meta['masks']} masks ({meta['pangram_masks']} pangram masks) in {t.seconds:.2f}s",
    )
    return meta


def build_puzzles_file(masks_path, out_path, rules: BeeRules, words_path=None) -> dict:
    """Write puzzles.parquet and its manifest puzzles.json from a verified masks.parquet (built from words_path)."""
    masks_path, out_path = Path(masks_path), Path(out_path)
    masks = read_masks(masks_path, rules.table_rules(), words_path)
    with Timer() as t:
        table = MaskTable.from_frame(masks, rules.size)
        puzzles = rank_puzzles(table, masks, rules)
    top = puzzles.head(TOP_IN_META).to_dicts()
    meta = {
        "puzzles": puzzles.height,
        "letter_sets": puzzles["letters"].n_unique(),
        "seconds": round(t.seconds, 3),
        "top": top,
        "source": str(masks_path),
    }
    write_parquet(puzzles, out_path)
    settings = {
        **rules.to_dict(),
        "masks_sha256": manifest.file_sha256(masks_path),
        "words_sha256": built_from(masks_path),  # the lexicon's words, checked by the report
    }
    manifest.write_manifest(manifest_path(out_path), [out_path], PUZZLES_KIND, settings, meta)
    best = (
        f"; best {top[0]['letters']}/{top[0]['center']} {top[0]['points']} points, {top[0]['words']} words"
        if top
        else ""
    )
    log("bee", f"{out_path}: {puzzles.height} puzzles in {t.seconds:.2f}s{best}")
    return meta


def build_wordlist_file(words_path, out_path, rules: WordListRules, params_path=None) -> dict:
    """Write wordlist.parquet and its manifest wordlist.json from a verified words.parquet and the acceptance parameters."""
    words_path, out_path = Path(words_path), Path(out_path)
    words = read_words(words_path)
    with Timer() as t:
        facts = default_facts()
        params_path = Path(params_path) if params_path else shipped_params_path(facts.params_file)
        model = load_model(params_path)
        log("bee", f"{words_path}: judging every known word by the acceptance model {params_path.name} (about 40 s)")
        wordlist, counts = build_wordlist(words, rules, facts, model)
    boundary = wordlist.sort(["probability", "word"]).head(BOUNDARY_SAMPLE)["word"].to_list()
    meta = {
        "words_in_lexicon": words.height,
        "words": wordlist.height,
        "counts": counts,
        "threshold": model.threshold,
        "sources": facts.describe(),
        "at_the_threshold": boundary,
        "cross_validation": model.info.get("cross_validation"),
        "build_seconds": round(t.seconds, 3),
        "source": str(words_path),
    }
    write_parquet(wordlist, out_path)
    settings = {
        **rules.to_dict(),
        "words_sha256": manifest.file_sha256(words_path),
        "params_sha256": manifest.file_sha256(params_path),
    }
    manifest.write_manifest(manifest_path(out_path), [out_path], WORDLIST_KIND, settings, meta)
    log(
        "bee",
        f"{out_path}: {wordlist.height} words of {counts['candidates']} candidates ({counts}) in {t.seconds:.1f}s",
    )
    return meta


WORDLIST_FILE = "wordlist.parquet"  # in the artifact store (interactive commands) and results/bee/{lexicon}/


def open_wordlist(lex, rules: WordListRules) -> pl.DataFrame:
    """A lexicon's Bee word list from the artifact store, built there on first use (about 40 s): keyed by
    the lexicon's words, the rules, the shipped parameters, the installed sources and the code."""
    from puzzlesearch import store
    from puzzlesearch.bee.acceptance import sources_key
    from puzzlesearch.lexicon.artifacts import WORDS_FILE

    words_path = lex.dir / WORDS_FILE
    params = [shipped_params_path(name) for name in (PARAMS_FILE, PARAMS_FILE_WITHOUT_SCOWL)]  # the build picks one
    parts = {
        "kind": WORDLIST_KIND,
        "words_sha256": manifest.file_sha256(words_path),
        "settings": rules.to_dict(),
        "params_sha256": [manifest.file_sha256(p) for p in params],
        "sources": sources_key(),
        "code": kinds.code_sha256(WORDLIST_KIND),
    }
    folder = store.ensure(
        WORDLIST_KIND,
        store.content_key(**parts),
        lambda tmp: build_wordlist_file(words_path, tmp / WORDLIST_FILE, rules),
        f"the Bee word list of lexicon {lex.name} (the acceptance model judges every known word: about 40 s)",
        parts,
    )
    return read_wordlist(folder / WORDLIST_FILE, words_path, rules)


def read_wordlist(path: str | Path, words_path: str | Path | None = None, rules=None) -> pl.DataFrame:
    """wordlist.parquet, verified against wordlist.json (built from words_path), with the word-list schema.

    `rules` (e.g. the ScheduleRules of a run): the word list must have been built with the
    same value of each word-list key they have (min_length, min_zipf), else an ArtifactError naming it.
    """
    path = Path(path)
    meta = manifest.verify(manifest_path(path), WORDLIST_KIND, [path.name])
    check_built_from(path, meta, words_path)
    if rules is not None:
        built = meta["manifest"]["settings"]
        for key in (k for k in WordListRules.keys() if hasattr(rules, k)):
            if built.get(key) != getattr(rules, key):
                raise manifest.damaged(
                    path, f"built with bee.{key} = {built.get(key)!r}, the settings ask for {getattr(rules, key)!r}"
                )
    wordlist = manifest.load_parquet(path)
    if dict(wordlist.schema) != WORDLIST_SCHEMA:
        raise manifest.damaged(path, "not a Bee word list (columns or types differ)")
    return wordlist


PAGES_WRITER = "bee schedule"  # the marker of the pages folder (puzzlesearch.io.OUTPUT_MARKER)


def write_pages(folder: Path, files: dict[str, str]) -> None:
    """Replace `folder` by the pages, all at once; only a new, empty or earlier pages folder is replaced."""
    replace_output_dir(folder, PAGES_WRITER, files)


def build_schedule_file(wordlist_path, out_path, pages_dir, rules: ScheduleRules, words_path=None) -> dict:
    """Write schedule.parquet, schedule.json and the pages from a verified wordlist.parquet (built from words_path)."""
    wordlist_path, out_path = Path(wordlist_path), Path(out_path)
    prepare_output_dir(pages_dir, PAGES_WRITER, replaced=True)  # before anything is read or written
    wordlist = read_wordlist(wordlist_path, words_path, rules)
    with Timer() as t:
        puzzles, pool = make_schedule(wordlist, rules, strict=False)
        table = schedule_frame(puzzles)
    names = [r.name for r in rules.rank_list()]
    meta = {
        "days": table.height,
        "pool": pool,
        "words": table["words"].to_list(),
        "difficulty": table["difficulty"].to_list(),
        "rank_names": names,
        "rounding": "threshold = percent x maximum points / 100, rounded half up to whole points",
        "seconds": round(t.seconds, 3),
        "source": str(wordlist_path),
    }
    write_pages(Path(pages_dir), pages(puzzles, names, rules.min_length, rules.schedule_seed))
    write_parquet(table, out_path)
    settings = {
        **rules.to_dict(),
        "wordlist_sha256": manifest.file_sha256(wordlist_path),
        "words_sha256": built_from(wordlist_path),  # the lexicon's words, checked by the report
    }
    manifest.write_manifest(manifest_path(out_path), [out_path], SCHEDULE_KIND, settings, meta)
    log(
        "bee",
        f"{out_path}: {table.height} puzzles drawn from {pool} (words {min(meta['words'], default=0)}-"
        f"{max(meta['words'], default=0)}) "
        f"in {t.seconds:.2f}s; pages in {pages_dir}",
    )
    return meta
