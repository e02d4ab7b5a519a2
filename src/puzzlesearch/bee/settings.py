"""Spelling Bee settings (config section `bee:`; defaults and bounds only in schemas/bee.schema.yaml).

`TableRules`: the keys the mask table depends on (step bee_masks); `BeeRules`: those plus the
keys that only select and order puzzles (step bee_puzzles), so a change to a puzzle-only key
reruns only bee_puzzles. `WordListRules` shape the Bee word list (step bee_wordlist) and
`ScheduleRules` the schedule of puzzles people play (step bee_schedule), with its `Rank`s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from puzzlesearch.bee.model import N_LETTERS, Mask, letters_mask
from puzzlesearch.errors import ConfigError
from puzzlesearch.settings import Settings, default

SECTION = "bee"


def _bad(key: str, why: str) -> ConfigError:
    """The one-line error for a bad bee rule."""
    return ConfigError(f"config key {SECTION}.{key}: {why}")


@dataclass(frozen=True)
class TableRules(Settings):
    """The rules that shape the mask table: which words count and their points."""

    SECTION: ClassVar[str] = SECTION
    TEXT_KEYS: ClassVar[tuple[str, ...]] = ("exclude",)  # `--set exclude=no`: the letters N and O
    size: int = default(SECTION, "size")  # letters in a puzzle
    min_length: int = default(SECTION, "min_length")
    short_length: int = default(SECTION, "short_length")  # words of at most this many letters earn short_points
    short_points: int = default(SECTION, "short_points")
    pangram_bonus: int = default(SECTION, "pangram_bonus")
    exclude: str = default(SECTION, "exclude")  # letters never used in a puzzle
    min_frequency: int = default(SECTION, "min_frequency")  # applied when the lexicon has frequencies; 0: off

    def check(self) -> None:
        """The excluded letters must leave at least `size` letters."""
        if N_LETTERS - len(set(self.exclude)) < self.size:
            raise _bad("exclude", f"excluding {self.exclude!r} leaves fewer than {self.size} letters")

    @property
    def exclude_mask(self) -> Mask:
        """Mask of the excluded letters."""
        return letters_mask(self.exclude)


@dataclass(frozen=True)
class BeeRules(TableRules):
    """Every bee rule: the table's plus the ones that select and order puzzles."""

    TEXT_KEYS: ClassVar[tuple[str, ...]] = ("exclude", "score_by")
    require_pangram: bool = default(SECTION, "require_pangram")
    min_words: int = default(SECTION, "min_words")
    max_words: int = default(SECTION, "max_words")  # 0: no limit
    min_points: int = default(SECTION, "min_points")
    max_points: int = default(SECTION, "max_points")  # 0: no limit
    score_by: str = default(SECTION, "score_by")  # rank puzzles by "points" or by "words" (count)

    def check(self) -> None:
        """Table rules, then each max at least its min (0 = no limit)."""
        super().check()
        for what in ("words", "points"):
            lo, hi = getattr(self, f"min_{what}"), getattr(self, f"max_{what}")
            if hi and hi < lo:
                raise _bad(f"max_{what}", f"{hi} is below min_{what} {lo} (0 = no limit)")

    def table_rules(self) -> TableRules:
        """Only the rules the mask table depends on."""
        return TableRules.from_dict({k: getattr(self, k) for k in TableRules.keys()})

    def within_limits(self, points: int, words: int) -> bool:
        """True when a puzzle with these totals passes the min/max word and point limits."""
        return (
            words >= self.min_words
            and points >= self.min_points
            and (self.max_words == 0 or words <= self.max_words)
            and (self.max_points == 0 or points <= self.max_points)
        )


@dataclass(frozen=True)
class WordListRules(Settings):
    """The Bee word list: which words a puzzle could hold (the acceptance rule itself is the fitted parameter file)."""

    SECTION: ClassVar[str] = SECTION
    TEXT_KEYS: ClassVar[tuple[str, ...]] = ("exclude",)
    min_length: int = default(SECTION, "min_length")
    size: int = default(SECTION, "size")  # a word of more distinct letters fits no puzzle
    exclude: str = default(SECTION, "exclude")  # a word with one of these letters fits no puzzle

    def fits(self, word: str) -> bool:
        """True when some puzzle could hold the word: long enough, few enough letters, none excluded."""
        return len(word) >= self.min_length and len(set(word)) <= self.size and not set(word) & set(self.exclude)


@dataclass(frozen=True)
class Rank:
    """A rank of the game and its share of the maximum points, in percent."""

    name: str
    percent: float


@dataclass(frozen=True)
class ScheduleRules(TableRules):
    """The schedule: the table rules, the pangram rule, the draw, the ranks, the difficulty."""

    TEXT_KEYS: ClassVar[tuple[str, ...]] = ("exclude",)
    require_pangram: bool = default(SECTION, "require_pangram")
    schedule_days: int = default(SECTION, "schedule_days")
    schedule_seed: int = default(SECTION, "schedule_seed")
    schedule_min_words: int = default(SECTION, "schedule_min_words")
    schedule_max_words: int = default(SECTION, "schedule_max_words")
    ranks: list = default(SECTION, "ranks")
    min_zipf: float = default(SECTION, "min_zipf")  # rarity 1 in the difficulty at and below this Zipf
    difficulty_count_weight: float = default(SECTION, "difficulty_count_weight")
    difficulty_common_zipf: float = default(SECTION, "difficulty_common_zipf")
    schedule_min_difficulty: float = default(SECTION, "schedule_min_difficulty")
    schedule_max_difficulty: float = default(SECTION, "schedule_max_difficulty")

    def check(self) -> None:
        """Table rules, windows with max >= min, ranks from 0 up to 100 percent."""
        super().check()
        if self.schedule_max_words < self.schedule_min_words:
            raise _bad(
                "schedule_max_words", f"{self.schedule_max_words} is below schedule_min_words {self.schedule_min_words}"
            )
        shares = [r["percent"] for r in self.ranks]
        if shares[0] != 0 or shares[-1] != 100 or any(b <= a for a, b in zip(shares, shares[1:])):
            raise _bad("ranks", f"percents must rise from 0 to 100, got {shares}")
        if self.schedule_max_difficulty < self.schedule_min_difficulty:
            raise _bad(
                "schedule_max_difficulty",
                f"{self.schedule_max_difficulty} is below schedule_min_difficulty {self.schedule_min_difficulty}",
            )
        if self.difficulty_common_zipf <= self.min_zipf:
            raise _bad(
                "difficulty_common_zipf", f"{self.difficulty_common_zipf} must be above min_zipf {self.min_zipf}"
            )

    def rank_list(self) -> list[Rank]:
        """The ranks, lowest first."""
        return [Rank(r["name"], r["percent"]) for r in self.ranks]

    def puzzle_rules(self) -> BeeRules:
        """BeeRules selecting the letter sets of the schedule's window (no frequency filter)."""
        keys = {k: getattr(self, k) for k in TableRules.keys()} | {"min_frequency": 0}
        return BeeRules.from_dict(
            keys
            | {
                "require_pangram": self.require_pangram,
                "min_words": self.schedule_min_words,
                "max_words": self.schedule_max_words,
            }
        )
