"""Spelling Bee vocabulary: letters, letter masks, a puzzle (letters + center), rank thresholds.

A puzzle is `size` (7) distinct letters, one of them the center. A word counts when it
has at least `min_length` letters, uses only the puzzle's letters (repeats allowed) and
contains the center. Points: a word of at most `short_length` letters earns
`short_points`, a longer word one point per letter; a pangram (a word using every letter
of the puzzle) earns `pangram_bonus` more.

The rules are settings classes in bee/settings.py (config section `bee:`).

Ranks: a solver's rank is the highest rank whose threshold their points reach; a rank's
threshold is `percent` of the puzzle's maximum points rounded half up to whole points
(`rank_thresholds`), so Queen Bee (100%) is the maximum itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from puzzlesearch.errors import PuzzleError

if TYPE_CHECKING:  # annotations only: the settings module imports this one
    from puzzlesearch.bee.settings import Rank, TableRules

LETTERS = "abcdefghijklmnopqrstuvwxyz"
N_LETTERS = len(LETTERS)
Mask = int  # 26-bit letter set, bit 0 = 'a'


def rank_thresholds(max_points: int, ranks: list[Rank]) -> list[int]:
    """Points needed for each rank: percent of the maximum, rounded half up (exact arithmetic)."""
    return [int(Fraction(str(r.percent)) * max_points / 100 + Fraction(1, 2)) for r in ranks]


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


def parse_puzzle(letters: str, center: str | None, rules: TableRules) -> Puzzle:
    """A Puzzle from user text, e.g. ('AEGINRT', 'R'); PuzzleError names the bad token."""
    text = letters.strip().lower()
    if len(text) != rules.size or any(ch not in LETTERS for ch in text):
        raise PuzzleError(f"letters {letters!r}: expected {rules.size} letters a-z")
    if len(set(text)) != len(text):
        dup = next(ch for ch in text if text.count(ch) > 1)
        raise PuzzleError(f"letters {letters!r}: letter {dup.upper()!r} appears twice")
    banned = sorted(set(text) & set(rules.exclude))
    if banned:
        raise PuzzleError(
            f"letters {letters!r}: letter {banned[0].upper()!r} is excluded "
            f"(config key bee.exclude = {rules.exclude!r})"
        )
    if center is None or len(center.strip()) != 1:
        raise PuzzleError(f"--center {center!r}: expected one letter of {letters!r}")
    c = center.strip().lower()
    if c not in text:
        raise PuzzleError(f"--center {center!r}: not one of the letters {letters!r}")
    return Puzzle(letters_mask(text), c)
