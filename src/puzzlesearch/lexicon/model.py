"""Lexicon vocabulary: specs, alphabets, letter masks and Boggle keys."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from puzzlesearch.settings import Settings, default

LATIN = "abcdefghijklmnopqrstuvwxyz"
# Arabic letters U+0621..U+063A and U+0641..U+064A (hamza forms included, no tatweel,
# no diacritics). Words with anything else are dropped as non-letters.
ARABIC = "".join(chr(c) for c in range(0x0621, 0x063B)) + "".join(chr(c) for c in range(0x0641, 0x064B))
ALPHABETS = {"latin": LATIN, "arabic": ARABIC}
CASE_POLICIES = ("auto", "lower", "strict")

BOGGLE_MIN_LENGTH = 3
_BAD_QU = re.compile(r"q(?!u)")


@dataclass(frozen=True)
class LexiconOptions(Settings):
    """How a word list is normalized (config `lexicon:` defaults, a lexicon's own mapping)."""

    SECTION: ClassVar[str] = "lexicon"
    alphabet: str = default("lexicon", "alphabet")
    case: str = default("lexicon", "case")  # auto: lowercase all-caps lists, else drop capitalised entries
    min_length: int = default("lexicon", "min_length")


@dataclass(frozen=True)
class LexiconSpec:
    """A named word list and how to normalize it."""

    name: str
    source: str  # a file path, or "builtin:en" / "builtin:ar"
    options: LexiconOptions = field(default_factory=LexiconOptions)

    @property
    def alphabet(self) -> str:
        return self.options.alphabet

    @property
    def case(self) -> str:
        return self.options.case

    @property
    def min_length(self) -> int:
        return self.options.min_length

    @property
    def letters(self) -> str:
        """The alphabet's letters in sort order."""
        return ALPHABETS[self.alphabet]

    def with_source(self, source: str) -> LexiconSpec:
        return LexiconSpec(self.name, source, self.options)


def letter_mask(word: str) -> int:
    """26-bit mask of the letters a-z in `word` (bit 0 is 'a')."""
    mask = 0
    for ch in word:
        mask |= 1 << (ord(ch) - 97)
    return mask


def boggle_key(word: str) -> str | None:
    """The word as Boggle cells: 'qu' -> 'q'; None when a 'q' is not followed by 'u'.

    The Boggle DAWG is built over these keys, so its letter 'q' means the "Qu" face.
    The map keeps sort order and is one-to-one on words whose every q is followed by u.
    """
    if _BAD_QU.search(word):
        return None
    return word.replace("qu", "q")
