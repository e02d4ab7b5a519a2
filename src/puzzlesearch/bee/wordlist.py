"""The Bee word list: the words a daily Spelling Bee accepts, each with the model's probability.

The candidates are every word the installed sources know (wordfreq's English list,
pyspellchecker's English list, WordNet 3.0's lemmas, Debian's SCOWL up to size 80 when
installed) plus the lexicon's own words
(words.parquet) that some puzzle could hold: a-z, at least `min_length` letters, at most
`size` distinct letters, none of `exclude` (the NYT's S). A candidate is kept when

1. it is on no blocklist (the shared lexicon/data/blocklist.txt plus bee/data/blocklist.txt), and
2. the acceptance model (bee/acceptance.py, parameters in bee/data/acceptance.json, or
   acceptance-without-scowl.json when SCOWL is not installed, fitted on 1,203 published NYT
   puzzles of 2018-2021) gives it a probability at least the parameters' threshold (chosen
   by cross-validation by year).

Columns: the word, its length, letter mask and distinct letters, the lexicon's count
(`frequency`, null for a word the lexicon lacks), the wordfreq Zipf frequency (`zipf`, the
schedule's commonness) and `probability`. The manifest records the parameter file's sha256.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import polars as pl

from puzzlesearch.bee.acceptance import Model, WordFacts, design
from puzzlesearch.bee.model import letters_mask
from puzzlesearch.bee.settings import WordListRules
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.wordinfo import parse_word_file, read_blocklist

BEE_BLOCKLIST = "blocklist.txt"  # in puzzlesearch/bee/data, added to the shared blocklist
WORDLIST_SCHEMA = {
    "word": pl.String,
    "length": pl.Int16,
    "mask": pl.UInt32,
    "distinct": pl.Int16,
    "frequency": pl.Int64,  # the lexicon's count (null when it has none or lacks the word)
    "zipf": pl.Float64,  # commonness: wordfreq Zipf frequency (0 when wordfreq lacks the word)
    "probability": pl.Float64,  # the acceptance model's p(accepted)
}


def bee_blocklist() -> frozenset[str]:
    """The shared blocklist (lexicon/data/blocklist.txt) plus the Bee's own additions."""
    extra = resources.files("puzzlesearch.bee").joinpath("data", BEE_BLOCKLIST).read_text("utf-8")
    return read_blocklist() | parse_word_file(extra)


def build_wordlist(
    words: pl.DataFrame, rules: WordListRules, facts: WordFacts, model: Model
) -> tuple[pl.DataFrame, dict]:
    """The Bee word list (WORDLIST_SCHEMA, alphabetical) and its counts: candidates, blocklisted, below the threshold."""
    if words.height and words["mask"].null_count():
        raise PuzzleError("the Bee word list needs a latin (a-z) lexicon; this one has words outside a-z")
    lexicon = dict(zip(words["word"].to_list(), words["frequency"].to_list()))
    candidates = [w for w in facts.candidates(lexicon) if rules.fits(w)]
    blocked = np.array([w in facts.blocklist for w in candidates], dtype=bool)
    names, x = design(candidates, facts)
    probability = model.probability(names, x)
    keep = (probability >= model.threshold) & ~blocked
    kept = [w for w, k in zip(candidates, keep) if k]
    table = pl.DataFrame(
        {
            "word": kept,
            "length": [len(w) for w in kept],
            "mask": [letters_mask(w) for w in kept],
            "distinct": [len(set(w)) for w in kept],
            "frequency": [lexicon.get(w) for w in kept],
            "zipf": [facts.zipf.get(w, 0.0) for w in kept],
            "probability": probability[keep],
        },
        schema=WORDLIST_SCHEMA,
    )
    counts = {
        "candidates": len(candidates),
        "blocklist": int(blocked.sum()),
        "below_threshold": int(((probability < model.threshold) & ~blocked).sum()),
        "from_the_lexicon": int(table["frequency"].is_not_null().sum()) if table.height else 0,
    }
    return table, counts
