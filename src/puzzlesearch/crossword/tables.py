"""Per-lexicon crossword tables: words by length as code arrays, word and anagram hash sets.

    tables.npz    the arrays below
    clues.parquet word, length, frequency, score, clue ('' when none) of every table word
    tables.json   the manifest of both (sha256, array shapes, the settings that built them)
                  plus the alphabet, counts, the clue source and build seconds

The pipeline's are results/crossword/tables/{lexicon}/ (`crossword build-tables`, from
explicit paths); interactive commands get theirs from the artifact store
(`open_tables`), keyed by the word table's sha256, the options and the code.
Word quality (quality.py, clues.py): blocklisted words are left out; for English, words
that WordNet has only as names/abbreviations or not at all are left out unless
crossword.quality.names; `score` (0-100) rates each word by frequency and clue.
Rows of `codes` are sorted by (length, score descending, frequency descending, word), so
the words of length L are rows len_start[L]:len_start[L+1] and those with score >= a floor
are a prefix of that range. `sig_*` are the anagram signatures (letters sorted) with the
best frequency among their words; `word_sig` is each word's signature. `sib_*` list per row
the other rows that share a form with it (SEES and SEE; `sibling_lists`, from the stems of
clues.parquet): the fill's rule of no two forms of one word, built here once rather than at
each fill's start. The pseudo-lexicon
`numeric` is built from products x*y (clue 'x*y'). The floors (frequency, score) are
applied when the tables are opened (`WordTables`), so one artifact serves every floor;
when both are set, the rows of each length are reordered so the eligible words stay a
prefix. Loaders verify the manifest (the sha256 of every file) and range-check every array a
kernel indexes (`load_tables`); the arrays are mapped from the verified file, not copied; the
hash tables are walked (every row found at its word) before their first look-up, which a
fill never makes (`WordTables.check_hashes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from puzzlesearch import kinds, manifest, store
from puzzlesearch.crossword._kernels import cost as cost_kernels
from puzzlesearch.crossword._kernels.cost import CostWords
from puzzlesearch.crossword.model import DIGITS, NUMERIC_FILLERS, Alphabet, Language
from puzzlesearch.crossword.settings import LANG_ALPHABET, LANGS, TableSettings
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_npz, write_parquet
from puzzlesearch.lexicon import constructors, wordinfo
from puzzlesearch.lexicon.artifacts import WORDS_FILE, lexicon_from_files, open_lexicon
from puzzlesearch.lexicon.model import ALPHABETS
from puzzlesearch.lexicon.sources import BUILTIN_ENGLISH
from puzzlesearch.lexicon.wordinfo import zipf_reader
from puzzlesearch.progress import Timer, log

if TYPE_CHECKING:  # polars, the clue writer and WordNet are imported where tables are built or clues read:
    import polars as pl  # opening the tables for a fill needs none of them

NUMERIC = "numeric"  # the pseudo-lexicon of products x*y
TABLES_VERSION = 7  # 6: the clued array; 7: the sibling lists sib_start, sib_rows
TABLES_KIND = kinds.CROSSWORD_TABLES
TABLES_FILE, TABLES_MANIFEST, CLUES_FILE = "tables.npz", "tables.json", "clues.parquet"


# ---------------------------------------------------------------- numeric words


def numeric_words(max_factor: int) -> pl.DataFrame:
    """Products z = x*y (2 <= x <= y <= max_factor) as words; frequency = factor pairs; clue 'x*y' of the
    most balanced pair (the largest x), as clues.numeric_clue gives it."""
    import polars as pl

    if max_factor < 2:
        raise PuzzleError(f"crossword.numeric.max_factor must be at least 2 (got {max_factor})")
    x, y = np.triu_indices(max_factor - 1)
    z = (x + 2) * (y + 2)
    values, inverse, counts = np.unique(z, return_inverse=True, return_counts=True)
    best_x = np.zeros(len(values), dtype=np.int64)
    np.maximum.at(best_x, inverse.ravel(), x + 2)
    words = values.astype(str).tolist()
    clue = [f"{a}*{v // a}" for a, v in zip(best_x.tolist(), values.tolist())]
    return pl.DataFrame(
        {"word": words, "length": [len(w) for w in words], "frequency": counts.astype(np.int64), "clue": clue}
    )


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


def sort_words(words: pl.DataFrame) -> pl.DataFrame:
    """The table's row order: length, score descending, frequency descending, word."""
    import polars as pl

    from puzzlesearch.crossword import quality

    if "score" not in words.columns:  # no clues known: the score is the frequency percentile
        freq = words["frequency"].fill_null(0).to_numpy()
        words = words.with_columns(pl.Series("score", quality.word_scores(freq, np.zeros(len(freq), bool), 0)))
    return words.with_columns(pl.col("length").cast(pl.Int64), pl.col("frequency").fill_null(0)).sort(
        ["length", "score", "frequency", "word"], descending=[False, True, True, False]
    )


def build_arrays(words: pl.DataFrame, letters: str) -> dict[str, np.ndarray]:
    """Every table array from a frame with word, length, frequency (and score), in `sort_words` order."""
    words = sort_words(words)
    codes, lengths = encode_words(words["word"].to_list(), letters)
    frequency = words["frequency"].to_numpy().astype(np.int64)
    score = words["score"].to_numpy().astype(np.int16)
    clued = (
        (words["clue"] != "").to_numpy().astype(np.int8) if "clue" in words.columns else np.zeros(len(score), np.int8)
    )
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
    stems = words["stems"].to_list() if "stems" in words.columns else None
    sib_start, sib_rows = sibling_lists(words["word"].to_list(), stems)
    return {
        "codes": np.ascontiguousarray(codes),
        "lengths": lengths,
        "frequency": frequency,
        "score": score,
        "clued": clued,
        "word_sig": inverse.astype(np.int32),
        "len_start": len_start,
        "word_table": cost_kernels.build_table(codes, lengths, table_size(len(lengths))),
        "sig_codes": sigs,
        "sig_lengths": sig_lengths,
        "sig_freq": sig_freq,
        "sig_table": cost_kernels.build_table(sigs, sig_lengths, table_size(len(sig_lengths))),
        "sib_start": sib_start,
        "sib_rows": sib_rows,
    }


def sibling_lists(words: list[str], stems: list[str] | None) -> tuple[np.ndarray, np.ndarray]:
    """(sib_start (n + 1), sib_rows) int32: the rows sharing a form with row r (clues.stem_keys of its word and
    stems) are sib_rows[sib_start[r] : sib_start[r + 1]], ascending; none for every row without `stems`."""
    n = len(words)
    if not stems or not any(stems):
        return np.zeros(n + 1, dtype=np.int32), np.zeros(0, dtype=np.int32)
    from puzzlesearch.crossword.clues import stem_keys

    key_of: dict[str, int] = {}
    row_key = [
        (r, key_of.setdefault(k, len(key_of))) for r, w in enumerate(words) for k in stem_keys(w, stems[r] or "")
    ]
    row, key = np.array(row_key, dtype=np.int64).reshape(-1, 2).T
    order = np.lexsort((row, key))
    row, key = row[order], key[order]
    group_start = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    group_size = np.diff(np.r_[group_start, len(key)])
    # every (row, other row) pair within a group: row i of a group of size g pairs with the g rows of its group
    size = np.repeat(group_size, group_size)
    first = np.repeat(group_start, group_size)
    a = np.repeat(row, size)
    b = row[np.repeat(first, size) + np.arange(len(a)) - np.repeat(np.cumsum(size) - size, size)]
    pairs = np.unique(a[a != b] * n + b[a != b])
    start = np.zeros(n + 1, dtype=np.int32)
    start[1:] = np.cumsum(np.bincount(pairs // n, minlength=n))
    return start, (pairs % n).astype(np.int32)


def with_extra_words(words: pl.DataFrame, extra: list[str]) -> pl.DataFrame:
    """The words plus `extra` (frequency 0)."""
    import polars as pl

    if not extra:
        return words
    added = pl.DataFrame({"word": extra, "length": [len(w) for w in extra], "frequency": [0] * len(extra)})
    return pl.concat([words, added], how="vertical_relaxed")


def scored_words(
    words: pl.DataFrame, alphabet: str, settings: TableSettings, listed: ScoredList | None = None
) -> tuple[pl.DataFrame, dict]:
    """The table words with score, clue, class (and English zipf): blocklist and (English) names/abbreviations out.

    `listed`: a scored word list (the constructors' list, or a user's word;score file given as the
    lexicon): its words are added (or, with `listed.replace`, are the only words) and its scores
    replace ours; the user's crossword.quality.scores file overrides both."""
    import polars as pl

    from puzzlesearch.crossword import clues, quality

    blocked = wordinfo.read_blocklist(settings.blocklist)
    overrides = wordinfo.read_score_file(settings.scores) if settings.scores else {}
    listed_scores = listed.scores if listed is not None else {}
    if listed is not None and listed.replace:
        words = with_extra_words(words.clear(), sorted(set(listed_scores) - blocked))
    known = set(words["word"].to_list())
    # words of the scored list and of the user's score file that the lexicon lacks
    words = with_extra_words(words, sorted((set(listed_scores) | set(overrides)) - known - blocked))
    if alphabet == "latin":
        replace = listed is not None and listed.replace  # a user's list: no phrase added to it
        words = with_phrases(words, wordinfo.load_wordnet() if settings.phrases else None, blocked, add=not replace)
    before = words.height
    words = words.filter(~pl.col("word").is_in(sorted(blocked)))
    n_blocked = before - words.height
    source = clues.ClueSource(alphabet)
    classes, clue_text = source.classify_and_clue(words["word"].to_list())
    words = words.with_columns(
        pl.Series("class", classes, dtype=pl.Utf8),
        pl.Series("clue", clue_text, dtype=pl.Utf8),
        pl.Series("stems", source.stems(words["word"].to_list()), dtype=pl.Utf8),
    )
    n_names = int((words["class"] != wordinfo.COMMON).sum())
    if not settings.names:
        kept = sorted(set(overrides) | set(listed_scores))  # a scored list's judgement keeps its names
        words = words.filter((pl.col("class") == wordinfo.COMMON) | pl.col("word").is_in(kept))
    clued = (words["clue"] != "").to_numpy()
    if alphabet == "latin":
        zipf_of = zipf_reader()
        zipf = np.array(
            [
                zipf_of(w) if p is None else zipf_of(p) - quality.PHRASE_ZIPF_PENALTY
                for w, p in zip(words["word"], words["phrase"])
            ],
            dtype=float,
        )
        common = (words["class"] == wordinfo.COMMON).to_numpy() & ~np.array(
            [wordinfo.is_abbreviation(w) for w in words["word"]], dtype=bool
        )
        score = quality.english_scores(zipf, words["length"].to_numpy(), common, clued, settings.unclued_max)
        words = words.with_columns(pl.Series("zipf", zipf))
        frequency_source = f"wordfreq {version('wordfreq')} (en, Zipf)"
    else:
        score = quality.word_scores(words["frequency"].fill_null(0).to_numpy(), clued, settings.clue_weight)
        frequency_source = "the lexicon's frequency percentile"
    for scores in (listed_scores, overrides):  # the list's scores, then the user's file
        if scores:
            score = np.array([scores.get(w, s) for w, s in zip(words["word"].to_list(), score)], dtype=np.int16)
    words = words.with_columns(pl.Series("score", score, dtype=pl.Int16))
    meta = {
        "clue_source": source.name,
        "score_source": frequency_source,
        "blocked_words": n_blocked,
        "blocklist": settings.blocklist or f"(shipped) lexicon/data/{wordinfo.BLOCKLIST_FILE}",
        "score_file": settings.scores,
        "score_file_words": len(overrides),
        "names_or_absent": n_names,
        "names_dropped": 0 if settings.names else n_names,
        "phrases": int(words["phrase"].is_not_null().sum()) if "phrase" in words.columns else 0,
        "scored_list": listed.source if listed is not None else "",
        "scored_list_words": len(listed_scores),
        "scored_list_replaces": bool(listed is not None and listed.replace),
    }
    if words.height == 0:
        raise PuzzleError(
            "the word list has no word over the alphabet after the blocklist and the names filter"
            + (f" ({listed.source})" if listed is not None else "")
        )
    return words, meta


@dataclass(frozen=True)
class ScoredList:
    """A scored word list for the tables: word -> 0-100 score; `replace`: its words are the only ones."""

    scores: dict
    source: str
    replace: bool = False

    def with_replace(self) -> ScoredList:
        """The same list as the only words."""
        return ScoredList(self.scores, self.source, True)


def with_phrases(
    words: pl.DataFrame, wordnet: wordinfo.WordNet | None, blocked: frozenset, add: bool = True
) -> pl.DataFrame:
    """The words plus a `phrase` column (null for words) and WordNet's tagged phrases (upintheair: 'up in
    the air') of the lexicon's lengths that no word spells already and that hold no blocklisted word
    (none when wordnet is None: crossword.quality.phrases off). A word that spells such a phrase
    (ABOVETHEFOLD of a scored list) gets the phrase, so its word breaks are kept; `add` False: no
    phrase is added."""
    import polars as pl

    if wordnet is None:
        return words.with_columns(pl.lit(None, dtype=pl.Utf8).alias("phrase"))
    spelled = [wordnet.phrase_of(w) for w in words["word"].to_list()]
    words = words.with_columns(
        pl.Series("phrase", [p.replace(wordinfo.PHRASE_JOIN, " ") if p else None for p in spelled], dtype=pl.Utf8)
    )
    if not add:
        return words
    have = set(words["word"].to_list())
    longest = int(words["length"].max() or 0)
    rows = [
        (w, wordnet.phrases[w])
        for w in wordnet.phrase_words()
        if w not in have
        and wordinfo.MIN_STEM <= len(w) <= longest
        and not blocked.intersection(wordnet.phrases[w].split(wordinfo.PHRASE_JOIN))
    ]
    phrases = pl.DataFrame(
        {
            "word": [w for w, _ in rows],
            "length": [len(w) for w, _ in rows],
            "frequency": [0] * len(rows),
            "phrase": [p.replace(wordinfo.PHRASE_JOIN, " ") for _, p in rows],
        }
    )
    return pl.concat([words, phrases], how="vertical_relaxed")


def numeric_scored(settings: TableSettings) -> tuple[pl.DataFrame, dict]:
    """The numeric words with their 'x*y' clues and scores (every word is clued)."""
    import polars as pl

    from puzzlesearch.crossword import quality

    pairs = (settings.max_factor - 1) * settings.max_factor // 2
    log("crossword", f"numeric tables: the {pairs} products x*y of 2..{settings.max_factor} (max_factor)")
    words = numeric_words(settings.max_factor)
    score = quality.word_scores(words["frequency"].to_numpy(), np.ones(words.height, bool), settings.clue_weight)
    words = words.with_columns(pl.Series("score", score, dtype=pl.Int16))
    return words, {"clue_source": "products x*y"}


def clue_frame(words: pl.DataFrame) -> pl.DataFrame:
    """The scored word list: word, length, frequency, score, clue (English also zipf, class, stems, phrase) in table row order."""
    import polars as pl

    extra = [c for c in ("zipf", "class", "stems", "phrase") if c in words.columns]
    return sort_words(words).select(
        "word", pl.col("length").cast(pl.Int16), "frequency", pl.col("score").cast(pl.Int16), "clue", *extra
    )


def build_tables(
    out_npz: str | Path,
    words_path: str | Path | None = None,
    settings: TableSettings | None = None,
    listed: ScoredList | None = None,
) -> dict:
    """Write tables.npz, clues.parquet and their manifest tables.json: a lexicon's words.parquet (with a
    scored list's words and scores), a scored list alone (English: `listed.replace`), or `numeric`."""
    import polars as pl

    out_npz = Path(out_npz)
    settings = settings or TableSettings()
    listed_used = {"scored_list": listed.source, "replace": listed.replace} if listed is not None else {}
    with Timer() as t:
        if words_path is None and listed is None:
            letters, direction, name = DIGITS, "ltr", NUMERIC
            words, quality_meta = numeric_scored(settings)
            used = {"lexicon": NUMERIC, **settings.to_dict()}
        elif words_path is None:
            letters, direction, name = ALPHABETS["latin"], "ltr", Path(listed.source).stem
            empty = pl.DataFrame(schema={"word": pl.Utf8, "length": pl.Int64, "frequency": pl.Int64})
            words, quality_meta = scored_words(empty, "latin", settings, listed.with_replace())
            used = {"lexicon": "scored list", "alphabet": "latin", **listed_used, **settings.to_dict()}
        else:
            lex = lexicon_from_files(words_path)
            letters, name = ALPHABETS[lex.spec.alphabet], lex.name
            direction = "rtl" if lex.spec.alphabet == "arabic" else "ltr"
            words, quality_meta = scored_words(
                lex.words.select("word", "length", "frequency"), lex.spec.alphabet, settings, listed
            )
            used = {
                "lexicon": "words",
                "alphabet": lex.spec.alphabet,
                "words_sha256": manifest.file_sha256(words_path),
                **listed_used,
                **settings.to_dict(),
            }
        arrays = build_arrays(words, letters)
        clues_df = clue_frame(words)
    lengths = arrays["lengths"]
    clued = int((clues_df["clue"] != "").sum())
    meta = {
        "version": TABLES_VERSION,
        "lexicon": name,
        "letters": letters,
        "direction": direction,
        "words": int(len(lengths)),
        "signatures": int(len(arrays["sig_lengths"])),
        "words_by_length": {str(int(L)): int(n) for L, n in zip(*np.unique(lengths, return_counts=True))},
        "max_factor": settings.max_factor if words_path is None else None,
        "clued_words": clued,
        "clue_share": round(clued / max(len(lengths), 1), 4),
        **quality_meta,
        "build_seconds": round(t.seconds, 3),
    }
    write_npz(out_npz, **arrays)
    clues_path = out_npz.with_name(CLUES_FILE)
    write_parquet(clues_df, clues_path)
    manifest.write_manifest(out_npz.with_name(TABLES_MANIFEST), [out_npz, clues_path], TABLES_KIND, used, meta)
    log(
        "crossword",
        f"tables for {name}: {meta['words']} words ({clued} clued, {meta['clue_share']:.1%}; clues: "
        f"{meta['clue_source']}), {meta['signatures']} anagram signatures in {t.seconds:.2f}s -> {out_npz}",
    )
    return meta


# ---------------------------------------------------------------- opening


@dataclass
class WordTables:
    """A lexicon's crossword tables with a frequency floor and a score floor applied."""

    name: str
    alphabet: Alphabet
    arrays: dict
    min_frequency: int = 0
    meta: dict = field(default_factory=dict)  # the manifest's meta (lexicon, max_factor, ...)
    min_score: int = 0
    clues_path: Path | None = None  # clues.parquet beside tables.npz
    min_entry: int = 0  # shortest eligible word (English 3 by default: no 2-letter entries)
    clued_only: bool = False  # only words with a clue are eligible (generation: a puzzle fully clued)
    path: Path | None = None  # the tables.npz they were read from (named by a damaged hash table's error)

    def __post_init__(self) -> None:
        """Reorder the rows of each length (when both floors cut) so eligible words are a prefix."""
        self.arrays = eligible_first(self.arrays, self.word_ok)
        self.__dict__.pop("word_ok", None)

    @property
    def max_factor(self) -> int:
        """The numeric tables' max_factor (clues x*y), else the default."""
        return int(self.meta.get("max_factor") or TableSettings().max_factor)

    @property
    def codes(self) -> np.ndarray:
        return self.arrays["codes"]

    @cached_property
    def fill_bits(self) -> dict:
        """Per word length, the fill's position bits (crossword.fill.word_bits), kept once computed."""
        return {}

    @cached_property
    def fill_siblings(self) -> dict:
        """The fill's sibling rows (crossword.fill.sibling_rows), kept once computed."""
        return {}

    def check_hashes(self) -> None:
        """Walk the hash tables once (ArtifactError when a row is not found at its word or a look-up would not
        end): before the first look-up (kernel_args, contains, score), not at load, as a fill makes none."""
        if self.__dict__.get("hashes_checked"):
            return
        a, path = self.arrays, self.path or Path(TABLES_FILE)
        _check_hash_table(path, "word_table", a["word_table"], a["codes"], a["lengths"])
        _check_hash_table(path, "sig_table", a["sig_table"], a["sig_codes"], a["sig_lengths"])
        self.__dict__["hashes_checked"] = True

    @property
    def width(self) -> int:
        """The longest word length."""
        return self.codes.shape[1]

    @cached_property
    def word_ok(self) -> np.ndarray:
        """Per word row: frequency, score and length at or above the floors."""
        a = self.arrays
        ok = (a["frequency"] >= self.min_frequency) & (a["score"] >= self.min_score) & (a["lengths"] >= self.min_entry)
        return ok & (a["clued"] != 0) if self.clued_only else ok

    @cached_property
    def sig_ok(self) -> np.ndarray:
        """Per anagram signature: some eligible word has it."""
        ok = np.zeros(len(self.arrays["sig_lengths"]), dtype=bool)
        ok[self.arrays["word_sig"][self.word_ok]] = True
        return ok

    @cached_property
    def clue_map(self) -> dict[str, str]:
        """word -> clue of every table word with one (from clues.parquet)."""
        return clue_column(self.clues_path, "clue")

    @cached_property
    def stem_map(self) -> dict[str, str]:
        """word -> its base forms ('|'-joined, clues.stem_keys) of every table word that has some (English)."""
        return clue_column(self.clues_path, "stems")

    @cached_property
    def phrase_map(self) -> dict[str, str]:
        """entry -> its phrase with spaces ('at a loss') of every table entry from WordNet's phrases (English)."""
        return clue_column(self.clues_path, "phrase")

    def enumeration(self, word: str) -> str:
        """The word lengths of an entry as solvers read them: "6", or "2,1,4" for the phrase AT A LOSS."""
        phrase = self.phrase_map.get(word)
        return ",".join(str(len(t)) for t in phrase.split()) if phrase else str(len(word))

    def clue(self, word: str) -> str:
        """The clue of a word ('' when it has none or is not a table word)."""
        return self.clue_map.get(word, "")

    def score(self, word: str) -> int:
        """The 0-100 score of a table word (0 when it is not one, whatever the floors)."""
        try:
            q = self.alphabet.encode(word)
        except (PuzzleError, KeyError, ValueError):
            return 0
        self.check_hashes()
        row = cost_kernels.find(self.arrays["word_table"], self.codes, self.arrays["lengths"], q, len(q))
        return int(self.arrays["score"][row]) if row >= 0 else 0

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

    def kernel_args(self) -> CostWords:
        """The arrays the cost kernel takes."""
        self.check_hashes()
        a = self.arrays
        return CostWords(
            a["codes"],
            a["lengths"],
            self.word_ok,
            a["word_table"],
            a["sig_codes"],
            a["sig_lengths"],
            self.sig_ok,
            a["sig_table"],
        )

    def words_of_length(self, length: int) -> list[str]:
        """Eligible words of a length, most frequent first."""
        a, b = self.len_range(length)
        rows = np.nonzero(self.word_ok[a:b])[0] + a
        return [self.alphabet.decode(self.codes[r, :length]) for r in rows]

    def contains(self, word: str) -> bool:
        """Is `word` an eligible word (at or above the floor)?"""
        q = self.alphabet.encode(word)
        self.check_hashes()
        row = cost_kernels.find(self.arrays["word_table"], self.codes, self.arrays["lengths"], q, len(q))
        return row >= 0 and bool(self.word_ok[row])


def clue_column(clues_path: Path | None, column: str) -> dict[str, str]:
    """word -> its value in a clues.parquet column, for the words that have one ({} without the file or,
    for tables built before it, the column)."""
    import polars as pl  # here: the clues are read when a puzzle is written, after the search

    if clues_path is None or column not in pl.read_parquet_schema(clues_path):
        return {}
    df = manifest.load_parquet(clues_path, ["word", column])
    return {w: v for w, v in zip(df["word"].to_list(), df[column].to_list()) if v}


def eligible_first(arrays: dict, ok: np.ndarray) -> dict:
    """The arrays with each length's rows stably reordered eligible-first (as is when already so)."""
    starts = arrays["len_start"]
    order = np.arange(len(ok))
    moved = False
    for a, b in zip(starts[:-1], starts[1:]):
        seg = ok[a:b]
        n = int(seg.sum())
        if n and not seg[:n].all():
            order[a:b] = a + np.argsort(~seg, kind="stable")
            moved = True
    if not moved:
        return arrays
    out = dict(arrays)
    for key in ("codes", "lengths", "frequency", "score", "clued", "word_sig"):
        out[key] = np.ascontiguousarray(arrays[key][order])
    new_row = np.empty_like(order)
    new_row[order] = np.arange(len(order))
    table = arrays["word_table"]
    out["word_table"] = np.where(table >= 0, new_row[np.maximum(table, 0)], table).astype(table.dtype)
    out["sib_start"], out["sib_rows"] = renumber_lists(arrays["sib_start"], arrays["sib_rows"], new_row)
    return out


def renumber_lists(start: np.ndarray, rows: np.ndarray, new_row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row lists (rows[start[r] : start[r + 1]] of row r, ascending) with every row r renumbered new_row[r]."""
    owner = np.repeat(new_row, np.diff(start))
    rows = new_row[rows]
    order = np.lexsort((rows, owner))
    out = np.zeros_like(start)
    out[1:] = np.cumsum(np.bincount(owner, minlength=len(new_row)))
    return out, rows[order].astype(rows.dtype)


def load_tables(
    npz_path: str | Path,
    min_frequency: int = 0,
    name: str | None = None,
    min_score: int = 0,
    min_entry: int = 0,
    clued_only: bool = False,
) -> WordTables:
    """Open a verified tables.npz (manifest tables.json and clues.parquet beside it) with the floors."""
    npz_path = Path(npz_path)
    if npz_path.is_dir():
        npz_path = npz_path / TABLES_FILE
    meta = manifest.verify(npz_path.with_name(TABLES_MANIFEST), TABLES_KIND, [npz_path.name])
    if meta.get("version") != TABLES_VERSION or not isinstance(meta.get("letters"), str) or not meta["letters"]:
        raise manifest.damaged(npz_path, f"tables of another version (want {TABLES_VERSION})")
    arrays = manifest.load_npz(npz_path, meta, mapped=True)
    missing = sorted(set(ARRAY_NAMES) - set(arrays))
    if missing:
        raise manifest.damaged(npz_path, f"array {missing[0]!r} is missing")
    check_arrays(npz_path, arrays, len(meta["letters"]))
    manifest.verify(npz_path.with_name(TABLES_MANIFEST), TABLES_KIND, [CLUES_FILE])
    alphabet = Alphabet(meta["letters"], "rtl" if meta.get("direction") == "rtl" else "ltr")
    return WordTables(
        name or str(meta.get("lexicon", npz_path.parent.name)),
        alphabet,
        arrays,
        int(min_frequency),
        meta,
        int(min_score),
        npz_path.with_name(CLUES_FILE),
        int(min_entry),
        bool(clued_only),
        npz_path,
    )


ARRAY_NAMES = (
    "codes",
    "lengths",
    "frequency",
    "score",
    "clued",
    "word_sig",
    "len_start",
    "word_table",
    "sig_codes",
    "sig_lengths",
    "sig_freq",
    "sig_table",
    "sib_start",
    "sib_rows",
)


def _hash_table_ok(table: np.ndarray, rows: int) -> bool:
    """A hash table's size is a power of two with room for every row."""
    size = len(table)
    return size >= max(rows, 1) and size & (size - 1) == 0


def check_arrays(path: Path, a: dict, n_letters: int) -> None:
    """ArtifactError unless every index a kernel takes from the tables is in range (the hash tables are walked
    before their first look-up: WordTables.check_hashes)."""
    n, width = a["codes"].shape if a["codes"].ndim == 2 else (-1, -1)
    n_sig = len(a["sig_lengths"])
    same = (
        len(a["lengths"]) == n
        and len(a["frequency"]) == n
        and len(a["score"]) == n
        and len(a["clued"]) == n
        and len(a["word_sig"]) == n
        and a["sig_codes"].ndim == 2
        and a["sig_codes"].shape[0] == n_sig
        and len(a["sig_freq"]) == n_sig
        and len(a["len_start"]) == width + 2
        and len(a["sib_start"]) == n + 1
        and _hash_table_ok(a["word_table"], n)
        and _hash_table_ok(a["sig_table"], n_sig)
    )
    if not same:
        raise manifest.damaged(path, "array shapes do not fit together")
    manifest.check_range(path, "codes", a["codes"], 0, n_letters)
    manifest.check_range(path, "sig_codes", a["sig_codes"], 0, n_letters)
    manifest.check_range(path, "lengths", a["lengths"], 1, width)
    manifest.check_range(path, "sig_lengths", a["sig_lengths"], 1, a["sig_codes"].shape[1])
    manifest.check_range(path, "len_start", a["len_start"], 0, n)
    manifest.check_range(path, "word_table", a["word_table"], -1, n - 1)
    manifest.check_range(path, "sig_table", a["sig_table"], -1, n_sig - 1)
    manifest.check_range(path, "word_sig", a["word_sig"], 0, n_sig - 1)
    manifest.check_range(path, "score", a["score"], 0, 100)
    manifest.check_range(path, "clued", a["clued"], 0, 1)
    counts = np.diff(a["len_start"])
    if (counts < 0).any() or not np.array_equal(np.repeat(np.arange(width + 1), counts), a["lengths"]):
        raise manifest.damaged(path, "array 'len_start' does not match the word lengths")
    manifest.check_range(path, "sib_rows", a["sib_rows"], 0, n - 1)
    sib_start = a["sib_start"]
    if sib_start[0] != 0 or sib_start[-1] != len(a["sib_rows"]) or (np.diff(sib_start) < 0).any():
        raise manifest.damaged(path, "array 'sib_start' does not delimit the lists of 'sib_rows'")


def _check_hash_table(path: Path, name: str, table: np.ndarray, codes: np.ndarray, lengths: np.ndarray) -> None:
    """ArtifactError unless the hash table has an empty slot (a look-up ends) and finds every row at its own word."""
    if (table < 0).sum() == 0 or (table >= 0).sum() != len(codes):
        raise manifest.damaged(path, f"array {name!r} is not a hash table of the {len(codes)} rows")
    row = cost_kernels.first_missing_row(table, codes, lengths)
    if row >= 0:
        raise manifest.damaged(path, f"array {name!r} does not find row {row} (a damaged or crafted table)")


def code_sha256() -> str:
    """Hash of the code that shapes the tables (kinds.py; store keys change with it)."""
    return kinds.code_sha256(kinds.CROSSWORD_TABLES)


def _blocklist_sha256(settings: TableSettings) -> str:
    """sha256 of the blocklist file the settings name (the shipped one for ''), and of the score file."""
    wordinfo.read_blocklist(settings.blocklist)  # one-line error when unreadable
    digest = manifest.file_sha256(settings.blocklist or wordinfo.default_blocklist_path())
    if settings.scores:
        wordinfo.read_score_file(settings.scores)
        digest += manifest.file_sha256(settings.scores)
    return digest


def open_tables(
    lang: str,
    config: dict,
    root: str | Path | None,
    min_frequency: int = 0,
    lexicon: str | None = None,
    min_score: int = 0,
    min_entry: int = 0,
    clued_only: bool = False,
) -> WordTables:
    """A language's tables from the artifact store, built on first use (interactive commands)."""
    section = config["crossword"]
    settings = TableSettings.from_config(section)
    for key in ("blocklist", "scores"):  # files relative to the project
        path = getattr(settings, key)
        if path and root is not None and not Path(path).is_absolute():
            settings = settings.replace(**{key: str(Path(root) / path)})
    if lang == "num":
        key = store.content_key(kind=TABLES_KIND, settings=settings.to_dict(), code=code_sha256())
        folder = store.ensure(
            TABLES_KIND,
            key,
            lambda tmp: build_tables(tmp / TABLES_FILE, None, settings),
            f"numeric crossword tables (max_factor {settings.max_factor})",
        )
        return load_tables(folder / TABLES_FILE, min_frequency, None, min_score, min_entry, clued_only)
    if lexicon and score_file(lexicon):  # a word;score file: its words and scores replace the language's
        if lang != "en":
            raise PuzzleError(f"--lexicon {lexicon}: a word;score file is an English (a-z) list, not --lang {lang}")
        listed = read_scored_list(lexicon, replace=True)
        folder = _stored_tables(
            settings,
            lambda tmp: build_tables(tmp / TABLES_FILE, None, settings, listed),
            f"crossword tables of the word;score list {lexicon}",
            list_sha256=manifest.file_sha256(lexicon),
        )
        return load_tables(folder / TABLES_FILE, min_frequency, Path(lexicon).stem, min_score, min_entry, clued_only)
    lex = open_lexicon(lexicon or section["lexicons"][lang], config, root, alphabet=LANG_ALPHABET[lang])
    words_sha = lex.stats["manifest"]["files"][WORDS_FILE]["sha256"]
    listed, list_key = None, {}
    if lang == "en" and settings.constructors and lex.spec.source == BUILTIN_ENGLISH:
        listed, list_key = constructors_scored_list()  # a user's own word list stays theirs alone
    folder = _stored_tables(
        settings,
        lambda tmp: build_tables(tmp / TABLES_FILE, lex.dir / WORDS_FILE, settings, listed and listed()),
        f"crossword tables of lexicon {lex.name}" + (f" and the {constructors.LIST_NAME}" if listed else ""),
        words_sha256=words_sha,
        alphabet=lex.spec.alphabet,
        **list_key,
    )
    return load_tables(folder / TABLES_FILE, min_frequency, lex.name, min_score, min_entry, clued_only)


def _stored_tables(settings: TableSettings, build, what: str, **sources) -> Path:
    """The store folder of tables built from `sources` with these settings (built there by build(tmp) on first
    use): keyed by the sources, the settings, the blocklist and the code that shapes the tables."""
    key = store.content_key(
        kind=TABLES_KIND,
        settings=settings.to_dict(),
        blocklist_sha256=_blocklist_sha256(settings),
        code=code_sha256(),
        **sources,
    )
    return store.ensure(TABLES_KIND, key, build, what)


def constructors_scored_list():
    """(a function giving the constructors' list as a ScoredList, the store-key parts naming the installed list):
    the list is opened only when tables are built."""
    parts = constructors.installed_key()

    def listed() -> ScoredList:
        cl = constructors.open_list()
        return ScoredList(cl.scores(), cl.meta["source"])

    return listed, {"constructors_list": parts}


def constructors_file_list(path: str | Path) -> ScoredList:
    """The constructors' list of a verified constructors.parquet (the pipeline's explicit input)."""
    cl = constructors.load(Path(path).parent)
    return ScoredList(cl.scores(), cl.meta["source"])


def score_file(path: str) -> bool:
    """Whether `path` is a file of word;score lines (its first line that is not blank or a comment has a ';')."""
    p = Path(path)
    if not p.is_file():
        return False
    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                line = line.split("#")[0].strip()
                if line:
                    return wordinfo.SCORE_SEPARATOR in line
    except OSError:
        return False
    return False


def read_scored_list(path: str | Path, replace: bool = False) -> ScoredList:
    """The words and scores of a word;score file, entries folded to a-z (ABOVE THE FOLD: abovethefold);
    one line naming a bad line."""
    scores: dict[str, int] = {}
    for word, score in wordinfo.read_score_file(path, f"--lexicon {path}").items():
        folded = "".join(ch for ch in word if not ch.isspace() and ch not in "-'")
        if folded.isascii() and folded.isalpha():
            scores[folded] = max(scores.get(folded, 0), score)
    if not scores:
        raise PuzzleError(f"--lexicon {path}: no word;score line with a word of the letters a-z")
    return ScoredList(scores, str(path), replace)


def language_of(lang: str, tables: WordTables) -> Language:
    """The Language of en, ar or num over these tables; refuses tables of another alphabet."""
    if lang not in LANGS:
        raise PuzzleError(f"--lang {lang!r}: expected one of {', '.join(LANGS)}")
    want = DIGITS if lang == "num" else ALPHABETS[LANG_ALPHABET[lang]]
    if tables.alphabet.letters != want:
        kind = "numeric" if lang == "num" else LANG_ALPHABET[lang]
        raise PuzzleError(f"--lang {lang}: the tables of {tables.name!r} are not over the {kind} alphabet")
    fillers = NUMERIC_FILLERS if lang == "num" else tables.alphabet.letters
    return Language(lang, tables.name, tables.alphabet, fillers)


def open_language(
    lang: str,
    config: dict,
    root: str | Path | None,
    min_frequency: int | None = None,
    lexicon: str | None = None,
    min_score: int | None = None,
    min_entry: int = 0,
    clued_only: bool = False,
) -> tuple[WordTables, Language]:
    """The tables (with the frequency and score floors, default the config's for the language) and the Language."""
    if lang not in LANGS:
        raise PuzzleError(f"--lang {lang!r}: expected one of {', '.join(LANGS)}")
    if lang == "num" and lexicon:
        raise PuzzleError("--lexicon: numeric puzzles use the products x*y, not a word list")
    if min_frequency is None:
        min_frequency = int(config["crossword"]["min_frequency"].get(lang, 0))
    if min_frequency < 0:
        raise PuzzleError(f"--min-frequency {min_frequency}: must be >= 0")
    if min_score is None:
        min_score = int((config["crossword"].get("min_score") or {}).get(lang, 0))
    if not 0 <= min_score <= 100:
        raise PuzzleError(f"--min-score {min_score}: must be in 0..100")
    tables = open_tables(lang, config, root, min_frequency, lexicon, min_score, min_entry, clued_only)
    return tables, language_of(lang, tables)
