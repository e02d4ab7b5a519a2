"""The schedule: N distinct puzzles people would play, like a calendar, with ranks and hints.

1. The pool: every (letters, center) of the Bee word list that follows the rules (7
   letters, no excluded letter, a pangram) and has `schedule_min_words` to
   `schedule_max_words` answers, found by the mask table (search.rank_puzzles).
2. The draw: the pool's letter sets (sorted alphabetically) shuffled by numpy's PCG64
   generator seeded by `schedule_seed`; each set gives the first of its in-window centers
   (shuffled too) whose difficulty is in `schedule_min_difficulty`..`schedule_max_difficulty`,
   until `schedule_days` puzzles. Same word list, rules and seed: the same schedule.
3. Each puzzle: its answers (a scan of the word list), points, pangrams, rank thresholds
   (model.rank_thresholds), the hints (hints.py) and a difficulty score 0-100:

       rarity(word) = clip((difficulty_common_zipf - zipf) / (difficulty_common_zipf - min_zipf), 0, 1)
       difficulty = 100 * ((1 - w) * sum(points * rarity) / sum(points)
                           + w * (schedule_max_words - words) / (schedule_max_words - schedule_min_words))

   with w = difficulty_count_weight: rarer answers (weighted by their points) and fewer
   answers make a harder puzzle.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import polars as pl

from puzzlesearch.bee.hints import Hints, make_hints
from puzzlesearch.bee.model import Puzzle, letters_mask, mask_letters, rank_thresholds
from puzzlesearch.bee.search import puzzle_words, rank_puzzles
from puzzlesearch.bee.settings import ScheduleRules
from puzzlesearch.bee.tables import build_table
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log

LOG_EVERY_SECONDS = 30.0

SCHEDULE_SCHEMA = {
    "day": pl.UInt32,  # 1 = the first puzzle
    "letters": pl.String,  # uppercase, alphabetical: "ACILNOT"
    "center": pl.String,
    "words": pl.Int32,
    "points": pl.Int64,
    "pangrams": pl.Int32,
    "perfect_pangrams": pl.Int32,
    "difficulty": pl.Float64,
    "mean_zipf": pl.Float64,
    "answers": pl.List(pl.String),  # alphabetical
    "pangram_words": pl.List(pl.String),
    "thresholds": pl.List(pl.Int64),  # points of each rank (names: the rules' ranks), lowest first
    "hint_grid": pl.String,  # JSON: first letter -> length -> count
    "hint_two_letters": pl.String,  # "AB-3 AC-1 ..."
}


@dataclass(frozen=True)
class ScheduledPuzzle:
    """One day's puzzle: the honeycomb, its answers with points, totals, ranks, hints."""

    day: int
    puzzle: Puzzle
    answers: pl.DataFrame  # word, points, pangram, zipf (alphabetical)
    thresholds: list[int]
    difficulty: float
    hints: Hints

    @property
    def letters(self) -> str:
        return mask_letters(self.puzzle.letters).upper()

    @property
    def points(self) -> int:
        return int(self.answers["points"].sum())

    def row(self) -> dict:
        """The puzzle's row of schedule.parquet."""
        pangram_words = self.answers.filter(pl.col("pangram"))["word"].to_list()
        return {
            "day": self.day,
            "letters": self.letters,
            "center": self.puzzle.center.upper(),
            "words": self.answers.height,
            "points": self.points,
            "pangrams": len(pangram_words),
            "perfect_pangrams": self.hints.perfect_pangrams,
            "difficulty": self.difficulty,
            "mean_zipf": round(float(self.answers["zipf"].mean()), 3),
            "answers": self.answers["word"].to_list(),
            "pangram_words": pangram_words,
            "thresholds": self.thresholds,
            "hint_grid": self.hints.grid_json(),
            "hint_two_letters": self.hints.two_letters_text(),
        }


def puzzle_pool(wordlist: pl.DataFrame, rules: ScheduleRules) -> pl.DataFrame:
    """Every (letters, center) within the rules and the word window (search.PUZZLES_SCHEMA)."""
    selection = rules.puzzle_rules()
    masks, table = build_table(wordlist, selection.table_rules())
    return rank_puzzles(table, masks, selection)


def shuffled_sets(pool: pl.DataFrame, seed: int) -> Iterator[tuple[str, list[str]]]:
    """The pool's letter sets in a seeded random order, each with its in-window centers in a seeded random order."""
    centers = pool.group_by("letters").agg(pl.col("center").sort()).sort("letters")
    sets, options = centers["letters"].to_list(), centers["center"].to_list()
    rng = np.random.default_rng(seed)
    for i in rng.permutation(len(sets)):
        yield sets[int(i)], [options[int(i)][int(j)] for j in rng.permutation(len(options[int(i)]))]


def _too_few(found: int, days: int, why: str, strict: bool) -> int:
    """The days a schedule can have when only `found` letter sets qualify: a PuzzleError if strict, else a log line."""
    if strict:
        raise PuzzleError(f"--days {days}: only {found} letter sets {why}")
    log("bee", f"schedule of {found} days, not {days}: only {found} letter sets {why}")
    return found


def difficulty(answers: pl.DataFrame, rules: ScheduleRules) -> float:
    """Difficulty 0-100 from the answers' rarity (points-weighted) and their count (see the module doc)."""
    span = rules.difficulty_common_zipf - rules.min_zipf
    rarity = ((rules.difficulty_common_zipf - answers["zipf"].to_numpy()) / span).clip(0, 1)
    points = answers["points"].to_numpy()
    rare = float((points * rarity).sum() / points.sum())
    window = rules.schedule_max_words - rules.schedule_min_words
    few = (rules.schedule_max_words - answers.height) / window if window else 0.0
    w = rules.difficulty_count_weight
    return round(100 * ((1 - w) * rare + w * min(max(few, 0.0), 1.0)), 2)


def scheduled_puzzle(
    day: int, letters: str, center: str, wordlist: pl.DataFrame, rules: ScheduleRules, answers=None
) -> ScheduledPuzzle:
    """One day's puzzle with its answers (found here unless given), thresholds, difficulty and hints."""
    puzzle = Puzzle(letters_mask(letters.lower()), center.lower())
    if answers is None:
        answers = puzzle_answers(puzzle, wordlist, rules)
    points = int(answers["points"].sum())
    pangram_words = answers.filter(pl.col("pangram"))["word"].to_list()
    return ScheduledPuzzle(
        day=day,
        puzzle=puzzle,
        answers=answers,
        thresholds=rank_thresholds(points, rules.rank_list()),
        difficulty=difficulty(answers, rules),
        hints=make_hints(answers["word"].to_list(), points, pangram_words, letters, center),
    )


def puzzle_answers(puzzle: Puzzle, wordlist: pl.DataFrame, rules: ScheduleRules) -> pl.DataFrame:
    """The answers of one puzzle, alphabetical."""
    return puzzle_words(wordlist, puzzle, rules).sort("word")


def make_schedule(
    wordlist: pl.DataFrame, rules: ScheduleRules, strict: bool = True
) -> tuple[list[ScheduledPuzzle], int]:
    """The schedule's puzzles, and the number of puzzles in the pool it was drawn from.

    The letter sets come in a seeded random order (shuffled_sets); each gives the first of
    its centers (in a seeded random order) whose difficulty lies in the schedule's window,
    or nothing. Fewer qualifying sets than days: a PuzzleError if `strict`, else all of
    them (the pipeline's schedule of a small lexicon: shorter, with a log line). Same word
    list, rules and seed: the same schedule. The work is bounded by the pool (each
    puzzle's answers are found at most once).
    """
    pool = puzzle_pool(wordlist, rules)
    days = rules.schedule_days
    n_sets = pool["letters"].n_unique()
    words_window = "lower bee.schedule_days or widen bee.schedule_min_words/schedule_max_words"
    if days > n_sets:
        days = _too_few(n_sets, days, f"have a puzzle within the rules and the word window ({words_window})", strict)
    low, high = rules.schedule_min_difficulty, rules.schedule_max_difficulty
    puzzles: list[ScheduledPuzzle] = []
    tried, last = 0, time.perf_counter()
    for letters, centers in shuffled_sets(pool, rules.schedule_seed):
        if len(puzzles) == days:
            break
        for center in centers:
            answers = puzzle_answers(Puzzle(letters_mask(letters.lower()), center.lower()), wordlist, rules)
            tried += 1
            if low <= difficulty(answers, rules) <= high:
                puzzles.append(scheduled_puzzle(len(puzzles) + 1, letters, center, wordlist, rules, answers))
                break
        if time.perf_counter() - last >= LOG_EVERY_SECONDS:
            last = time.perf_counter()
            log("bee", f"schedule: {len(puzzles)}/{days} days, {tried:,} of {pool.height:,} puzzles tried")
    if len(puzzles) < days:
        _too_few(
            len(puzzles),
            days,
            f"have a puzzle of difficulty {low:g}-{high:g} "
            f"(widen bee.schedule_min_difficulty/schedule_max_difficulty, or {words_window})",
            strict,
        )
    return puzzles, pool.height


def schedule_frame(puzzles: list[ScheduledPuzzle]) -> pl.DataFrame:
    """schedule.parquet: one row per day."""
    return pl.DataFrame([p.row() for p in puzzles], schema=SCHEDULE_SCHEMA)
