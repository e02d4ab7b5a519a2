"""Spelling Bee vocabulary: the rules, letter masks, a puzzle (letters + center).

A puzzle is `size` (7) distinct letters, one of them the center. A word counts when it
has at least `min_length` letters, uses only the puzzle's letters (repeats allowed) and
contains the center. Points: a word of at most `short_length` letters earns
`short_points`, a longer word one point per letter; a pangram (a word using every letter
of the puzzle) earns `pangram_bonus` more.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields

from puzzlesearch.errors import ConfigError, PuzzleError

LETTERS = "abcdefghijklmnopqrstuvwxyz"
N_LETTERS = len(LETTERS)
MIN_SIZE, MAX_SIZE = 4, 9  # puzzle sizes the kernels support (2^size subsets per set)
SCORE_BY = ("points", "words")
# The rules that shape the mask table (which words count, their points); the others
# (require_pangram, limits, score_by) only select and order the puzzles.
TABLE_RULES = ("size", "min_length", "short_length", "short_points", "pangram_bonus", "exclude",
               "min_frequency")

Mask = int  # 26-bit letter set, bit 0 = 'a'


@dataclass(frozen=True)
class BeeRules:
    """The scoring and validity rules (config.yaml section `bee:`)."""

    size: int = 7  # letters in a puzzle
    min_length: int = 4
    short_length: int = 4  # words of at most this many letters earn short_points
    short_points: int = 1
    pangram_bonus: int = 7
    exclude: str = "s"  # letters never used in a puzzle
    require_pangram: bool = True
    min_words: int = 0
    max_words: int = 0  # 0: no limit
    min_points: int = 0
    max_points: int = 0  # 0: no limit
    min_frequency: int = 0  # applied when the lexicon has frequencies; 0: off
    score_by: str = "points"  # rank puzzles by "points" or by "words" (count)

    def __post_init__(self) -> None:
        check_rules(self)

    @classmethod
    def from_config(cls, section: dict | None) -> "BeeRules":
        """The rules from a `bee:` config section (unknown keys such as `lexicons` ignored)."""
        section = section or {}
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in section.items() if k in names})

    @classmethod
    def from_json(cls, text: str) -> "BeeRules":
        """The rules from a JSON object (the pipeline passes them this way)."""
        try:
            data = json.loads(text)
        except ValueError:
            raise ConfigError(f"--rules: not a JSON object: {text[:60]!r}") from None
        if not isinstance(data, dict):
            raise ConfigError("--rules: expected a JSON object of bee rules")
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise ConfigError(f"--rules: unknown bee rule {unknown[0]!r}")
        return cls(**data)

    def to_json(self) -> str:
        """The rules as one line of JSON with sorted keys."""
        return json.dumps(asdict(self), sort_keys=True)

    def table_rules(self) -> "BeeRules":
        """Only the rules the mask table depends on (the puzzle-only rules at their defaults)."""
        return BeeRules(**{k: getattr(self, k) for k in TABLE_RULES})

    @property
    def exclude_mask(self) -> Mask:
        """Mask of the excluded letters."""
        return letters_mask(self.exclude)

    def word_points(self, word: str) -> int:
        """Points of one word for a puzzle whose letters are exactly `set(word)` or more."""
        base = self.short_points if len(word) <= self.short_length else len(word)
        return base + (self.pangram_bonus if len(set(word)) == self.size else 0)

    def within_limits(self, points: int, words: int) -> bool:
        """True when a puzzle with these totals passes the min/max word and point limits."""
        return (words >= self.min_words and points >= self.min_points
                and (self.max_words == 0 or words <= self.max_words)
                and (self.max_points == 0 or points <= self.max_points))


def check_rules(rules: BeeRules) -> None:
    """Raise ConfigError naming the first bad key of `rules`."""
    def bad(key, why):
        raise ConfigError(f"config key bee.{key}: {why}")

    for f in fields(rules):
        value = getattr(rules, f.name)
        want = {"str": str, "bool": bool}.get(f.type, int)
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            bad(f.name, f"expected {want.__name__}, got {value!r}")
    if not MIN_SIZE <= rules.size <= MAX_SIZE:
        bad("size", f"{rules.size} is not in {MIN_SIZE}..{MAX_SIZE}")
    for key in ("min_length", "short_length", "short_points", "pangram_bonus", "min_words",
                "max_words", "min_points", "max_points", "min_frequency"):
        if getattr(rules, key) < 0:
            bad(key, f"{getattr(rules, key)} is negative")
    if rules.min_length < 1:
        bad("min_length", "must be at least 1")
    if any(ch not in LETTERS for ch in rules.exclude):
        bad("exclude", f"{rules.exclude!r} must be lowercase letters a-z")
    if N_LETTERS - len(set(rules.exclude)) < rules.size:
        bad("exclude", f"excluding {rules.exclude!r} leaves fewer than {rules.size} letters")
    if rules.score_by not in SCORE_BY:
        bad("score_by", f"{rules.score_by!r} is not one of {', '.join(SCORE_BY)}")
    if rules.max_words and rules.max_words < rules.min_words:
        bad("max_words", f"{rules.max_words} is below min_words {rules.min_words}")
    if rules.max_points and rules.max_points < rules.min_points:
        bad("max_points", f"{rules.max_points} is below min_points {rules.min_points}")


def letters_mask(letters: str) -> Mask:
    """26-bit mask of lowercase letters a-z (bit 0 = 'a')."""
    mask = 0
    for ch in letters:
        mask |= 1 << (ord(ch) - 97)
    return mask


def mask_letters(mask: Mask) -> str:
    """The letters of a mask in alphabetical order, lowercase."""
    return "".join(ch for i, ch in enumerate(LETTERS) if mask >> i & 1)


@dataclass(frozen=True)
class Puzzle:
    """A honeycomb: a set of letters and its center letter."""

    letters: Mask
    center: str

    @property
    def center_mask(self) -> Mask:
        return letters_mask(self.center)

    def __str__(self) -> str:
        return f"{mask_letters(self.letters).upper()}/{self.center.upper()}"

    def accepts(self, word: str, rules: BeeRules) -> bool:
        """True when `word` counts for this puzzle (by letters, not by mask)."""
        letters = set(mask_letters(self.letters))
        return len(word) >= rules.min_length and self.center in word and set(word) <= letters


def parse_puzzle(letters: str, center: str | None, rules: BeeRules) -> Puzzle:
    """A Puzzle from user text, e.g. ('AEGINRT', 'R'); PuzzleError names the bad token."""
    text = letters.strip().lower()
    if len(text) != rules.size or any(ch not in LETTERS for ch in text):
        raise PuzzleError(f"letters {letters!r}: expected {rules.size} letters a-z")
    if len(set(text)) != len(text):
        dup = next(ch for ch in text if text.count(ch) > 1)
        raise PuzzleError(f"letters {letters!r}: letter {dup.upper()!r} appears twice")
    banned = sorted(set(text) & set(rules.exclude))
    if banned:
        raise PuzzleError(f"letters {letters!r}: letter {banned[0].upper()!r} is excluded "
                          f"(config key bee.exclude = {rules.exclude!r})")
    if center is None or len(center.strip()) != 1:
        raise PuzzleError(f"--center {center!r}: expected one letter of {letters!r}")
    c = center.strip().lower()
    if c not in text:
        raise PuzzleError(f"--center {center!r}: not one of the letters {letters!r}")
    return Puzzle(letters_mask(text), c)
