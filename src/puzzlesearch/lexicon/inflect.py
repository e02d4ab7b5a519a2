"""A small English inflector: regular rules, and WordNet's exception lists read in reverse for irregulars.

WordNet's morphy lists map inflected forms to base forms (noun.exc: mice mouse; verb.exc: ran run,
stopped stop; adj.exc: biggest big, better good). Read backwards they give the irregular and
consonant-doubling forms of a base; the regular rules give the rest:

    PLURAL       cat -> cats, box -> boxes, city -> cities, fireman -> firemen
    THIRD        guide -> guides, go -> goes, carry -> carries        (3rd person singular)
    PAST         guide -> guided, carry -> carried, stop -> stopped (verb.exc), run -> ran (verb.exc)
    PARTICIPLE   as PAST, but an irregular participle where verb.exc has one (go -> gone, take -> taken)
    ING          guide -> guiding, see -> seeing, die -> dying, stop -> stopping (verb.exc)
    COMPARATIVE  fast -> faster, nice -> nicer, happy -> happier, big -> bigger (adj.exc), good -> better
    SUPERLATIVE  fast -> fastest, ..., big -> biggest, good -> best

A phrase inflects its first word when a verb (give up -> gives up), its last when a noun (ice cream
-> ice creams). An adjective of three or more syllables (or two not ending in -y, -le, -er, -ow)
takes "more"/"most" (more careful, most careful). `form_of` names the inflection of a word given
its base (the reverse direction), for an exception list entry or a morphy rule's hint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PLURAL, THIRD, PAST, PARTICIPLE, ING = "plural", "third", "past", "participle", "ing"
COMPARATIVE, SUPERLATIVE = "comparative", "superlative"
FORM_POS = {
    PLURAL: "noun",
    THIRD: "verb",
    PAST: "verb",
    PARTICIPLE: "verb",
    ING: "verb",
    COMPARATIVE: "adj",
    SUPERLATIVE: "adj",
}
# morphy's hints (lexicon.wordinfo.MORPHY) -> the form they name; exception hints are judged by `form_of`
HINT_FORMS = {
    "plural": PLURAL,
    "verb, -s form": THIRD,
    "past tense": PAST,
    "-ing form": ING,
    "comparative": COMPARATIVE,
    "superlative": SUPERLATIVE,
}
IRREGULAR_SUPERLATIVES = frozenset(("best", "worst", "most", "least", "eldest", "farthest", "furthest"))
PARTICIPLE_ENDINGS = ("en", "wn", "rn", "ne")  # gone, taken, shown, torn, done (ran, went: past)
THIRD_PERSON = {"be": "is", "have": "has", "do": "does", "go": "goes"}
BE_FORMS = {"be": {PAST: "was", PARTICIPLE: "been", THIRD: "is", ING: "being"}}  # verb.exc lists am, are, is, ...
MAN_EXCEPTIONS = frozenset(("human", "german", "roman", "shaman", "talisman", "caiman", "ottoman"))
SHORT_ADJECTIVE_ENDINGS = ("y", "le", "er", "ow")  # two-syllable adjectives that take -er/-est (happy, simple)

_VOWELS = "aeiou"
_SIBILANT = re.compile(r"(s|x|z|ch|sh)$")
_CONSONANT_Y = re.compile(r"[^aeiou]y$")
_SYLLABLE = re.compile(r"[aeiouy]+")


def syllables(word: str) -> int:
    """A rough syllable count: vowel groups, a silent final e not counted (at least 1)."""
    n = len(_SYLLABLE.findall(word))
    if word.endswith("e") and not word.endswith(("le", "ee", "ye")) and n > 1:
        n -= 1
    return max(1, n)


def plural_or_third(word: str) -> str:
    """The -s form of a noun or verb by the regular rules (boxes, cities, guides)."""
    if _SIBILANT.search(word):
        return word + "es"
    if _CONSONANT_Y.search(word):
        return word[:-1] + "ies"
    return word + "s"


def regular(word: str, form: str) -> str:
    """`word` in `form` by the regular rules alone."""
    if form == PLURAL:
        if word.endswith("man") and word not in MAN_EXCEPTIONS and len(word) > 3:
            return word[:-3] + "men"
        return plural_or_third(word)
    if form == THIRD:
        return THIRD_PERSON.get(word) or (word + "es" if word.endswith("o") else plural_or_third(word))
    if form in (PAST, PARTICIPLE):
        if word.endswith("e"):
            return word + "d"
        return word[:-1] + "ied" if _CONSONANT_Y.search(word) else word + "ed"
    if form == ING:
        if word.endswith("ie"):
            return word[:-2] + "ying"
        if word.endswith("e") and not word.endswith(("ee", "ye", "oe")) and len(word) > 2:
            return word[:-1] + "ing"
        return word + "ing"
    if form in (COMPARATIVE, SUPERLATIVE):
        end = "r" if form == COMPARATIVE else "st"
        if word.endswith("e"):
            return word + end
        stem = word[:-1] + "i" if _CONSONANT_Y.search(word) else word
        return stem + "e" + end
    raise ValueError(f"unknown form {form!r}")


def form_of(word: str, base: str, pos: str) -> str | None:
    """The form an exception-list entry `word` of `base` is (mice mouse: PLURAL; gone go: PARTICIPLE)."""
    if pos == "noun":
        return PLURAL
    if pos == "adj":
        if word.endswith("est") or word in IRREGULAR_SUPERLATIVES:
            return SUPERLATIVE
        return COMPARATIVE
    if pos != "verb":
        return None
    if word.endswith("ing"):
        return ING
    if word == THIRD_PERSON.get(base) or word == plural_or_third(base):
        return THIRD
    if word == BE_FORMS.get(base, {}).get(PAST) or word == base.replace("i", "u", 1) != base:
        return PAST if base == "be" else PARTICIPLE  # was; sung, begun, drunk (sang, began: past)
    return PARTICIPLE if word.endswith(PARTICIPLE_ENDINGS) and not word.endswith("ed") else PAST


@dataclass(frozen=True)
class Inflector:
    """Irregular forms from WordNet's exception lists, regular rules for the rest."""

    irregular: dict  # (base, form) -> inflected form (the first the lists give)

    @classmethod
    def from_exceptions(cls, exceptions: dict[str, dict[str, list[str]]]) -> Inflector:
        """Reverse WordNet's exception lists (pos -> inflected -> bases) into (base, form) -> inflected."""
        irregular: dict[tuple[str, str], str] = {}
        for pos in ("noun", "verb", "adj"):
            for word, bases in exceptions.get(pos, {}).items():
                for base in bases:
                    form = form_of(word, base, pos)
                    if form is not None and word != base and word.isalpha() and base.isalpha():
                        irregular.setdefault((base, form), word)
        for base, form in list(irregular):  # one irregular past serves both (taught, stopped; ran)
            other = {PAST: PARTICIPLE, PARTICIPLE: PAST}.get(form)
            if other and (base, other) not in irregular:
                word = irregular[base, form]
                irregular[base, other] = word if form == PAST or word.endswith("ed") else regular(base, other)
        return cls(irregular)

    def word(self, word: str, form: str) -> str | None:
        """One word in `form`; None for an adjective that would need more/most."""
        found = BE_FORMS.get(word, {}).get(form) or self.irregular.get((word, form))
        if found:
            return found
        if form in (COMPARATIVE, SUPERLATIVE):
            n = syllables(word)
            if n >= 3 or (n == 2 and not word.endswith(SHORT_ADJECTIVE_ENDINGS)):
                return None
        return regular(word, form)

    def inflect(self, lemma: str, form: str | None) -> str | None:
        """A lemma (words joined by spaces or '_') in `form`: verbs inflect their first word, nouns their
        last; adjectives of many syllables take more/most; None when it cannot be said."""
        words = lemma.replace("_", " ").split()
        if not words or form is None:
            return " ".join(words) or None
        if FORM_POS[form] == "verb":
            head = self.word(words[0], form)
            return " ".join([head, *words[1:]]) if head else None
        if FORM_POS[form] == "noun":
            head = self.word(words[-1], form)
            return " ".join([*words[:-1], head]) if head else None
        if len(words) == 1:
            one = self.word(words[0], form)
            if one:
                return one
        return ("more " if form == COMPARATIVE else "most ") + " ".join(words)
