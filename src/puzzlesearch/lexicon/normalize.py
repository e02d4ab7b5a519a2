"""The word table: one row per distinct normalized word, sorted, with drop statistics."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import polars as pl

from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.model import BOGGLE_MIN_LENGTH, LexiconSpec, boggle_key, letter_mask
from puzzlesearch.lexicon.sources import Entry, read_entries

MAX_WORD_LENGTH = 2**15 - 1  # the word table's length column is Int16
MAX_FREQUENCY = 2**63 - 1  # its frequency column is Int64
# Why an entry is not in the table (keys of WordTable.dropped).
DROP_REASONS = ("non_letters", "capitalised", "too_short", "duplicates")

WORDS_SCHEMA = {
    "word_id": pl.UInt32,
    "word": pl.String,
    "length": pl.Int16,
    "mask": pl.UInt32,
    "distinct": pl.Int16,
    "boggle": pl.String,
    "frequency": pl.Int64,
}


@dataclass
class WordTable:
    """The normalized words (a polars DataFrame) and why entries were dropped."""

    words: pl.DataFrame
    entries: int
    dropped: dict = field(default_factory=dict)
    boggle_dropped: dict = field(default_factory=dict)

    def stats(self) -> dict:
        """Counts for stats.json: entries read, kept, dropped by reason."""
        return {
            "entries": self.entries,
            "words": self.words.height,
            "dropped": dict(self.dropped),
            "dropped_total": sum(self.dropped.values()),
            "boggle_words": int(self.words["boggle"].is_not_null().sum()),
            "boggle_dropped": dict(self.boggle_dropped),
            "with_frequency": int(self.words["frequency"].is_not_null().sum()),
        }


def normalize(spec: LexiconSpec, entries: list[Entry] | None = None, source_path=None) -> WordTable:
    """Normalize a source's entries (or those of the file `source_path`) into the sorted word table."""
    if entries is None:
        entries = list(read_entries(str(source_path) if source_path is not None else spec.source))
    letters = set(spec.letters)
    lower_all = spec.case == "lower" or (
        spec.case == "auto" and not any(ch.islower() for e in entries for ch in e.text)
    )
    dropped = Counter({reason: 0 for reason in DROP_REASONS})
    freq: dict[str, int | None] = {}
    for entry in entries:
        _check_fits(entry)
        text = entry.text.lower() if lower_all else entry.text
        if text != text.lower():
            dropped["capitalised"] += 1
            continue
        if not text or any(ch not in letters for ch in text):
            dropped["non_letters"] += 1
            continue
        if len(text) < spec.min_length:
            dropped["too_short"] += 1
            continue
        if text in freq:
            dropped["duplicates"] += 1
            if entry.frequency is not None:
                freq[text] = (freq[text] or 0) + entry.frequency
                _check_fits(Entry(text, freq[text], entry.line))
            continue
        freq[text] = entry.frequency
    return _table(spec, freq, len(entries), dict(dropped))


def _check_fits(entry: Entry) -> None:
    """PuzzleError naming the line when a word or its frequency does not fit the word table's columns."""
    if len(entry.text) > MAX_WORD_LENGTH:
        raise PuzzleError(
            f"word list line {entry.line}: a word of {len(entry.text)} letters (at most {MAX_WORD_LENGTH})"
        )
    if entry.frequency is not None and entry.frequency > MAX_FREQUENCY:
        raise PuzzleError(
            f"word list line {entry.line}: frequency {entry.frequency} (at most {MAX_FREQUENCY}, summed over duplicates)"
        )


def _table(spec: LexiconSpec, freq: dict, entries: int, dropped: dict) -> WordTable:
    words = sorted(freq)
    latin = spec.alphabet == "latin"
    keys = [boggle_key(w) if latin else None for w in words]
    boggle_dropped = {"bad_qu": 0, "too_short": 0}
    for k in keys:
        if latin and k is None:
            boggle_dropped["bad_qu"] += 1
    for i, w in enumerate(words):
        if keys[i] is not None and len(w) < BOGGLE_MIN_LENGTH:
            keys[i] = None
            boggle_dropped["too_short"] += 1
    df = pl.DataFrame(
        {
            "word_id": range(len(words)),
            "word": words,
            "length": [len(w) for w in words],
            "mask": [letter_mask(w) if latin else None for w in words],
            "distinct": [len(set(w)) for w in words],
            "boggle": keys,
            "frequency": [freq[w] for w in words],
        },
        schema=WORDS_SCHEMA,
    )
    return WordTable(df, entries, dropped, boggle_dropped)
