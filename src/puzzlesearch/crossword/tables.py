"""Per-lexicon crossword tables: words by length as code arrays, word and anagram hash sets.

    results/crossword/tables/{lexicon}/tables.npz   the arrays below
    results/crossword/tables/{lexicon}/tables.json  alphabet, counts, source hash, build seconds

Rows of `codes` are sorted by (length, frequency descending, word), so the words of
length L are rows len_start[L]:len_start[L+1] and those with frequency >= a floor are a
prefix of that range. `sig_*` are the anagram signatures (letters sorted) with the best
frequency among their words. The pseudo-lexicon `numeric` is built from products x*y.
The frequency floor is applied when the tables are opened (`WordTables.view`), so one
artifact serves every floor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.crossword import kernels
from puzzlesearch.crossword.model import DIGITS, Alphabet
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_json, write_npz
from puzzlesearch.lexicon.artifacts import file_sha256
from puzzlesearch.lexicon.model import ALPHABETS
from puzzlesearch.progress import Timer, log

NUMERIC = "numeric"  # the pseudo-lexicon of products x*y
TABLES_VERSION = 2


def tables_dir(lexicon: str, root: str | Path = ".") -> Path:
    """results/crossword/tables/{lexicon} under the project root."""
    return Path(root) / "results" / "crossword" / "tables" / lexicon


# ---------------------------------------------------------------- numeric words

def numeric_words(max_factor: int) -> pl.DataFrame:
    """Products z = x*y (2 <= x <= y <= max_factor) as words; frequency = factor pairs."""
    if max_factor < 2:
        raise PuzzleError(f"crossword.numeric.max_factor must be at least 2 (got {max_factor})")
    x, y = np.triu_indices(max_factor - 1)
    z = (x + 2) * (y + 2)
    values, counts = np.unique(z, return_counts=True)
    words = [str(v) for v in values]
    return pl.DataFrame({"word": words, "length": [len(w) for w in words],
                         "frequency": counts.astype(np.int64)})


def numeric_clue(word: str, max_factor: int) -> str:
    """The clue 'x*y' of a product: the most balanced factor pair within range."""
    z = int(word)
    for x in range(int(z ** 0.5), 1, -1):
        if z % x == 0 and z // x <= max_factor:
            return f"{x}*{z // x}"
    raise PuzzleError(f"{word} is not a product x*y with 2 <= x <= y <= {max_factor}")


# ---------------------------------------------------------------- building

def encode_words(words: list[str], letters: str) -> tuple[np.ndarray, np.ndarray]:
    """(codes (n, W) int8 padded with 0, lengths int16) of words over `letters`."""
    width = max((len(w) for w in words), default=1)
    arr = np.array(words, dtype=f"<U{width}").view(np.uint32).reshape(len(words), width)
    points = np.array([ord(ch) for ch in letters], dtype=np.uint32)
    order = np.argsort(points)
    pos = np.searchsorted(points[order], arr)
    pos = np.clip(pos, 0, len(points) - 1)
    codes = (order[pos] + 1).astype(np.int8)
    valid = points[order[pos]] == arr
    codes[arr == 0] = 0
    bad = ~valid & (arr != 0)
    if bad.any():
        row = int(np.nonzero(bad.any(axis=1))[0][0])
        raise PuzzleError(f"word {words[row]!r} has a letter outside the alphabet {letters!r}")
    lengths = np.array([len(w) for w in words], dtype=np.int16)
    return codes, lengths


def table_size(n: int) -> int:
    """A power of two at least twice n (load factor <= 1/2)."""
    size = 1
    while size < 2 * max(n, 1):
        size *= 2
    return size


def build_arrays(words: pl.DataFrame, letters: str) -> dict[str, np.ndarray]:
    """Every table array from a frame with word, length, frequency."""
    words = (words.select("word", pl.col("length").cast(pl.Int64), pl.col("frequency").fill_null(0))
             .sort(["length", "frequency", "word"], descending=[False, True, False]))
    codes, lengths = encode_words(words["word"].to_list(), letters)
    frequency = words["frequency"].to_numpy().astype(np.int64)
    width = codes.shape[1]
    len_start = np.searchsorted(lengths, np.arange(width + 2)).astype(np.int64)
    # anagram signatures: letters sorted, padding (0) moved to the end
    sorted_codes = np.sort(np.where(codes == 0, 127, codes), axis=1)
    sorted_codes[sorted_codes == 127] = 0
    sigs, inverse = np.unique(sorted_codes, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    sig_freq = np.zeros(len(sigs), dtype=np.int64)
    np.maximum.at(sig_freq, inverse, frequency)
    sig_lengths = (sigs != 0).sum(axis=1).astype(np.int16)
    sigs = np.ascontiguousarray(sigs.astype(np.int8))
    return {
        "codes": np.ascontiguousarray(codes), "lengths": lengths, "frequency": frequency,
        "len_start": len_start,
        "word_table": kernels.build_table(codes, lengths, table_size(len(lengths))),
        "sig_codes": sigs, "sig_lengths": sig_lengths, "sig_freq": sig_freq,
        "sig_table": kernels.build_table(sigs, sig_lengths, table_size(len(sig_lengths))),
    }


def build_tables(lexicon: str, out_dir: str | Path, words_path: str | Path | None = None,
                 alphabet: str = "latin", max_factor: int = 99) -> dict:
    """Write tables.npz and tables.json for a lexicon's words.parquet (or `numeric`)."""
    out_dir = Path(out_dir)
    with Timer() as t:
        if lexicon == NUMERIC:
            words, letters, source = numeric_words(max_factor), DIGITS, {"max_factor": max_factor}
            direction = "ltr"
        else:
            if words_path is None or not Path(words_path).exists():
                raise PuzzleError(f"lexicon {lexicon!r}: word table {words_path} is missing")
            words = pl.read_parquet(words_path, columns=["word", "length", "frequency"])
            letters = ALPHABETS[alphabet]
            source = {"words_path": str(words_path), "words_sha256": file_sha256(words_path)}
            direction = "rtl" if alphabet == "arabic" else "ltr"
        arrays = build_arrays(words, letters)
    lengths = arrays["lengths"]
    meta = {"version": TABLES_VERSION, "lexicon": lexicon, "letters": letters, "direction": direction,
            "words": int(len(lengths)), "signatures": int(len(arrays["sig_lengths"])),
            "words_by_length": {int(L): int(n) for L, n in zip(*np.unique(lengths, return_counts=True))},
            "build_seconds": round(t.seconds, 3), **source}
    write_npz(out_dir / "tables.npz", **arrays)
    write_json(meta, out_dir / "tables.json")
    log("crossword", f"tables for {lexicon}: {meta['words']} words, {meta['signatures']} anagram "
        f"signatures in {t.seconds:.2f}s -> {out_dir}")
    return meta


# ---------------------------------------------------------------- opening

@dataclass
class WordTables:
    """A lexicon's crossword tables, with a frequency floor applied (`view`)."""

    name: str
    alphabet: Alphabet
    arrays: dict
    min_frequency: int = 0

    @property
    def codes(self) -> np.ndarray:
        return self.arrays["codes"]

    @property
    def width(self) -> int:
        """The longest word length."""
        return self.codes.shape[1]

    @cached_property
    def word_ok(self) -> np.ndarray:
        """Per word row: frequency at or above the floor."""
        return self.arrays["frequency"] >= self.min_frequency

    @cached_property
    def sig_ok(self) -> np.ndarray:
        """Per anagram signature: some word with it is at or above the floor."""
        return self.arrays["sig_freq"] >= self.min_frequency

    def len_range(self, length: int) -> tuple[int, int]:
        """Rows [start, end) of all words of a length."""
        ls = self.arrays["len_start"]
        if length < 1 or length + 1 >= len(ls):
            return 0, 0
        return int(ls[length]), int(ls[length + 1])

    def len_arrays(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """(len_start, len_count) indexed by length 0..size: eligible words are a prefix."""
        start = np.zeros(size + 1, dtype=np.int64)
        count = np.zeros(size + 1, dtype=np.int64)
        for L in range(2, size + 1):
            a, b = self.len_range(L)
            start[L] = a
            count[L] = int(self.word_ok[a:b].sum())
        return start, count

    def kernel_args(self) -> tuple:
        """The arrays the cost kernel takes, in order."""
        a = self.arrays
        return (a["codes"], a["lengths"], self.word_ok, a["word_table"],
                a["sig_codes"], a["sig_lengths"], self.sig_ok, a["sig_table"])

    def words_of_length(self, length: int) -> list[str]:
        """Eligible words of a length, most frequent first."""
        a, b = self.len_range(length)
        rows = np.nonzero(self.word_ok[a:b])[0] + a
        return [self.alphabet.decode(self.codes[r, :length]) for r in rows]

    def contains(self, word: str) -> bool:
        """Is `word` an eligible word (at or above the floor)?"""
        q = self.alphabet.encode(word)
        row = kernels.find(self.arrays["word_table"], self.codes, self.arrays["lengths"], q, len(q))
        return row >= 0 and bool(self.word_ok[row])


def load_tables(path_dir: str | Path, name: str, min_frequency: int = 0) -> WordTables:
    """Open tables.npz/.json of a folder with a frequency floor."""
    folder = Path(path_dir)
    meta = json.loads((folder / "tables.json").read_text())
    with np.load(folder / "tables.npz") as data:
        arrays = {k: data[k] for k in data.files}
    return WordTables(name, Alphabet(meta["letters"], meta["direction"]), arrays, int(min_frequency))


def _fresh(folder: Path, source: dict) -> bool:
    try:
        meta = json.loads((folder / "tables.json").read_text())
    except (OSError, ValueError):
        return False
    if not (folder / "tables.npz").exists() or meta.get("version") != TABLES_VERSION:
        return False
    return all(meta.get(k) == v for k, v in source.items())


def open_tables(lexicon: str, config: dict, root: str | Path, min_frequency: int = 0) -> WordTables:
    """A lexicon's tables, built on first use (the same files as the pipeline rule)."""
    folder = tables_dir(lexicon, root)
    if lexicon == NUMERIC:
        max_factor = int(config["crossword"]["numeric"]["max_factor"])
        if not _fresh(folder, {"max_factor": max_factor}):
            build_tables(NUMERIC, folder, max_factor=max_factor)
    else:
        from puzzlesearch.lexicon import open_lexicon

        lex = open_lexicon(lexicon, config, root)
        folder = tables_dir(lex.name, root)
        words = lex.dir / "words.parquet"
        if not _fresh(folder, {"words_sha256": file_sha256(words)}):
            build_tables(lex.name, folder, words, lex.spec.alphabet)
        lexicon = lex.name
    return load_tables(folder, lexicon, min_frequency)
