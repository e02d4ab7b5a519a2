"""Word quality for crosswords: a blocklist, a 0-100 score per word, fill quality per puzzle.

English (the scored word list, `english_scores`), from offline sources installed with the project:

    score = 50 + 25 x (Zipf - extra - 2.5), clipped to 0..100, then capped:
            at NAME_MAX (20) for a name, an abbreviation or a word WordNet lacks,
            at `unclued_max` (40) for a word without a clue

where Zipf is the word's own wordfreq frequency (log10 occurrences per billion words:
'the' 7.7, 'aloe' 3.1, 'clavus' 1.5, 'algins' 0), so an inflection is judged by its own
use; `extra` is 1.5, 1.0, 0.5 for 2-, 3-, 4-letter words (short strings are often
abbreviations or names in running text). A floor of 50 (Zipf 2.5; 3.5 for 3 letters)
keeps common, clued dictionary words. A user file of
`word;score` lines (the constructors' format, `crossword.quality.scores`) overrides scores
and adds words.

Other alphabets (Arabic; numeric) have no such frequency source installed:

    score = (100 - clue_weight) x frequency percentile + clue_weight x (has a clue)

The frequency percentile is the word's mid-rank among the table's words (ties share it),
so the score does not depend on the scale of a list's frequencies. A word without a clue
scores at most 100 - clue_weight: a score floor above that keeps only clued words, and
any floor prefers them (the `clue_weight` setting; 0 turns the preference off).

The blocklist (offensive words) is a text file, one or more words a line, '#' comments:
by default the shipped lexicon/data/blocklist.txt, or the file of `crossword.quality.blocklist`.
Blocklisted words are left out of the tables, so no grid can contain them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.wordinfo import (  # noqa: F401 (re-exported: word files live in the lexicon)
    BLOCKLIST_FILE,
    MAX_SCORE,
    SCORE_SEPARATOR,
    default_blocklist_path,
    parse_score_file,
    parse_word_file,
    read_blocklist,
    read_score_file,
)

ZIPF_AT_50 = 2.5  # the wordfreq Zipf frequency that scores 50 (the default English floor)
POINTS_PER_ZIPF = 25  # so Zipf 4.5 scores 100 and Zipf 0.5 scores 0
# wordfreq estimates a phrase from its words alone (1/f = sum of 1/f_i), which overrates rare pairs
# ("eccentric person" 3.6, "ice cream" 4.5); a phrase counts as ten times rarer than that estimate.
PHRASE_ZIPF_PENALTY = 1.0
NAME_MAX = 20  # the highest score of a name, an abbreviation or a word WordNet lacks
# Short letter strings are often abbreviations or names in running text (ani, obi, lat: Zipf 3.1-3.4),
# so their Zipf overstates how well readers know them as words: they need this much more.
SHORT_ZIPF_EXTRA = {2: 1.5, 3: 1.0, 4: 0.5}


def frequency_percentile(frequency: np.ndarray) -> np.ndarray:
    """Mid-rank percentile (0..1) of each frequency among all of them (ties share a value)."""
    frequency = np.asarray(frequency, dtype=np.int64)
    if len(frequency) == 0:
        return np.zeros(0)
    ordered = np.sort(frequency)
    below = np.searchsorted(ordered, frequency, side="left")
    upto = np.searchsorted(ordered, frequency, side="right")
    return (below + upto) / (2.0 * len(frequency))


def word_scores(frequency: np.ndarray, clued: np.ndarray, clue_weight: int) -> np.ndarray:
    """0-100 score per word: frequency percentile and clue availability (weight clue_weight)."""
    if not 0 <= clue_weight <= MAX_SCORE:
        raise PuzzleError(f"config key crossword.quality.clue_weight: {clue_weight} is not in 0..{MAX_SCORE}")
    pct = frequency_percentile(frequency)
    score = (MAX_SCORE - clue_weight) * pct + clue_weight * np.asarray(clued, dtype=bool)
    return np.clip(np.rint(score), 0, MAX_SCORE).astype(np.int16)


def english_scores(
    zipf: np.ndarray, lengths: np.ndarray, common: np.ndarray, clued: np.ndarray, unclued_max: int
) -> np.ndarray:
    """0-100 score per English word from its Zipf frequency (short words need more), capped for
    non-words and unclued words."""
    extra = np.array([SHORT_ZIPF_EXTRA.get(int(n), 0.0) for n in lengths], dtype=float)
    base = 50 + (np.asarray(zipf, dtype=float) - extra - ZIPF_AT_50) * POINTS_PER_ZIPF
    cap = np.where(np.asarray(common, dtype=bool), MAX_SCORE, NAME_MAX)
    cap = np.where(np.asarray(clued, dtype=bool), cap, np.minimum(cap, unclued_max))
    return np.clip(np.rint(np.minimum(base, cap)), 0, MAX_SCORE).astype(np.int16)


@dataclass(frozen=True)
class FillQuality:
    """A puzzle's entries: clue coverage and score statistics."""

    entries: int
    clued: int
    mean_score: float
    min_score: int
    low_entries: int  # entries scoring below the threshold (non-words score 0)
    low_score: int  # the threshold

    @property
    def clue_share(self) -> float:
        return self.clued / self.entries if self.entries else 0.0

    def row(self) -> dict:
        """Columns of the puzzles table."""
        return {
            "entries": self.entries,
            "clued_entries": self.clued,
            "unclued_entries": self.entries - self.clued,
            "clue_share": round(self.clue_share, 4),
            "mean_score": round(self.mean_score, 2),
            "min_score": self.min_score,
            "low_entries": self.low_entries,
            "low_score": self.low_score,
        }


def fill_quality(scores: list[int], clues: list[str], low_score: int) -> FillQuality:
    """Quality of a puzzle from its entries' scores (0 for non-words) and clues ('' = none)."""
    n = len(scores)
    return FillQuality(
        entries=n,
        clued=sum(1 for c in clues if c),
        mean_score=float(np.mean(scores)) if n else 0.0,
        min_score=int(min(scores)) if n else 0,
        low_entries=sum(1 for s in scores if s < low_score),
        low_score=low_score,
    )


RANK_ORDER = (  # column, descending: a valid grid first, then fewer weak entries, more clues, better words
    ("cost", False),
    ("low_entries", False),
    ("clue_share", True),
    ("mean_score", True),
    ("pops", False),
    ("seed", False),
)


def rank_puzzles(rows: list[dict]):
    """The ranked puzzles table: by cost, then fill quality (RANK_ORDER), reproducible (no timing)."""
    import polars as pl  # here: a fill's start-up imports this module, and needs no polars

    overrides = {"puz": pl.String} if rows and "puz" in rows[0] else None  # puz: null for Arabic
    df = pl.DataFrame(rows, schema_overrides=overrides)
    keys = [(c, d) for c, d in RANK_ORDER if c in df.columns]
    df = df.sort([c for c, _ in keys], descending=[d for _, d in keys])
    return df.with_columns(pl.int_range(1, df.height + 1, dtype=pl.Int32).alias("rank")).select(
        "rank", pl.exclude("rank")
    )
