"""Fitting the Bee acceptance model on published puzzles, cross-validated by year.

The published file has one puzzle a line, `date<TAB>letters<TAB>center<TAB>answers`
(../shared/facts/nyt_bee_2018_2021.tsv). Each puzzle gives pairs (puzzle, candidate): every
candidate its letters allow (only its letters, the center used, 4+ letters), labelled by
whether the puzzle accepted it. For each year, a model fitted on the other years is judged
on that year: recall (published answers we accept), precision (our words the puzzle
accepted) and the share of puzzles whose word count is within 25% of the published count.
The threshold is never chosen on the judged year: inside the training years, by leaving
each out in turn, it is the lowest whose pooled precision reaches TARGET_PRECISION.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlesearch import manifest
from puzzlesearch.bee.acceptance import (
    L2,
    MIN_CANDIDATE,
    TARGET_PRECISION,
    THRESHOLDS,
    WITHIN,
    Model,
    WordFacts,
    design,
    fit_logistic,
    sigmoid,
)
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log

PUZZLE_SIZE = 7
DATE = re.compile(r"\d{8}")


@dataclass(frozen=True)
class Published:
    """A published puzzle: its date (YYYYMMDD), letters, center and accepted answers."""

    date: str
    letters: str
    center: str
    answers: tuple[str, ...]

    @property
    def year(self) -> int:
        return int(self.date[:4])


def read_published(path: str | Path) -> list[Published]:
    """The puzzles of a published-answers file; PuzzleError names the first bad line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(f"{path}: cannot read the published answers ({getattr(e, 'strerror', None) or e})") from None
    out = [parse_line(path, n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not out:
        raise PuzzleError(f"{path}: no puzzles (expected date<TAB>letters<TAB>center<TAB>answers lines)")
    return out


def parse_line(path: Path, n: int, line: str) -> Published:
    """One `date letters center answers` line, checked."""
    parts = line.rstrip("\r").split("\t")
    bad = f"{path}:{n}: "
    if len(parts) != 4:
        raise PuzzleError(bad + "expected date<TAB>letters<TAB>center<TAB>answers")
    date, letters, center, answers = (part.strip().lower() for part in parts)
    words = tuple(answers.split())
    if not DATE.fullmatch(date):
        raise PuzzleError(bad + f"date {date!r}: expected YYYYMMDD")
    if (
        len(letters) != PUZZLE_SIZE
        or len(set(letters)) != PUZZLE_SIZE
        or not letters.isascii()
        or not letters.isalpha()
    ):
        raise PuzzleError(bad + f"letters {letters!r}: expected {PUZZLE_SIZE} distinct letters a-z")
    if len(center) != 1 or center not in letters:
        raise PuzzleError(bad + f"center {center!r}: expected one of {letters!r}")
    for w in words:
        if len(w) < MIN_CANDIDATE or set(w) - set(letters) or center not in w:
            raise PuzzleError(bad + f"answer {w!r} does not fit the puzzle {letters}/{center}")
    return Published(date, letters, center, words)


def letter_masks(words: list[str]) -> np.ndarray:
    """26-bit letter masks of a-z words."""
    return np.array([sum(1 << (ord(c) - 97) for c in set(w)) for w in words], dtype=np.int64)


@dataclass(frozen=True)
class Pairs:
    """Every (puzzle, candidate) a published puzzle allows, with its label."""

    puzzle: np.ndarray  # index into the puzzles
    word: np.ndarray  # index into `words`
    accepted: np.ndarray  # bool
    words: list[str]  # the candidates some puzzle allows
    published: np.ndarray  # answers per puzzle (all of them, also those no source knows)
    year: np.ndarray  # per puzzle

    def counts(self, years) -> tuple[np.ndarray, np.ndarray]:
        """(accepted, rejected) counts per candidate in the puzzles of `years`."""
        pick = np.isin(self.year[self.puzzle], list(years))
        n = len(self.words)
        pos = np.bincount(self.word[pick], weights=self.accepted[pick], minlength=n)
        neg = np.bincount(self.word[pick], weights=~self.accepted[pick], minlength=n)
        return pos, neg


def make_pairs(puzzles: list[Published], candidates: list[str]) -> Pairs:
    """The pairs of the published puzzles over the candidates (only those some puzzle allows are kept)."""
    masks = letter_masks(candidates)
    chunks = []
    for p in puzzles:
        pm, cm = int(letter_masks([p.letters])[0]), 1 << (ord(p.center) - 97)
        chunks.append(np.nonzero(((masks & ~pm) == 0) & ((masks & cm) != 0))[0])
    used = np.unique(np.concatenate(chunks)) if chunks else np.zeros(0, dtype=np.int64)
    words = [candidates[i] for i in used]
    where = {w: i for i, w in enumerate(words)}
    puzzle, word, accepted = [], [], []
    for k, (p, sel) in enumerate(zip(puzzles, chunks)):
        answers = set(p.answers)
        puzzle.append(np.full(len(sel), k))
        word.append(np.array([where[candidates[i]] for i in sel], dtype=np.int64))
        accepted.append(np.array([candidates[i] in answers for i in sel], dtype=bool))
    cat = lambda parts, t: np.concatenate(parts).astype(t) if parts else np.zeros(0, dtype=t)  # noqa: E731
    return Pairs(
        cat(puzzle, np.int64),
        cat(word, np.int64),
        cat(accepted, bool),
        words,
        np.array([len(p.answers) for p in puzzles], dtype=np.int64),
        np.array([p.year for p in puzzles], dtype=np.int64),
    )


@dataclass(frozen=True)
class Score:
    """How a word list does on some published puzzles."""

    recall: float
    precision: float
    within: float  # share of puzzles whose count is within WITHIN of the published count
    tp: int
    ours: int
    published: int
    counts: np.ndarray  # our word count per puzzle judged

    def row(self) -> dict:
        """Rounded figures plus our counts' median, p10 and p90."""
        q = np.percentile(self.counts, [50, 10, 90]) if len(self.counts) else [0, 0, 0]
        return {
            "recall": round(self.recall, 4),
            "precision": round(self.precision, 4),
            "within_25pct": round(self.within, 4),
            "puzzles": len(self.counts),
            "median": float(q[0]),
            "p10": float(q[1]),
            "p90": float(q[2]),
        }


def score(pairs: Pairs, keep: np.ndarray, years) -> Score:
    """Recall, precision and the within-25% share of the word list `keep` (bool per candidate) on `years`."""
    pick = np.isin(pairs.year[pairs.puzzle], list(years))
    ours_pair = keep[pairs.word[pick]]
    tp = int((ours_pair & pairs.accepted[pick]).sum())
    judged = np.nonzero(np.isin(pairs.year, list(years)))[0]
    counts = np.bincount(pairs.puzzle[pick], weights=ours_pair, minlength=len(pairs.year))[judged]
    published = pairs.published[judged]
    return Score(
        tp / max(int(published.sum()), 1),
        tp / max(int(ours_pair.sum()), 1),
        float(np.mean(np.abs(counts - published) <= WITHIN * published)) if len(judged) else 0.0,
        tp,
        int(ours_pair.sum()),
        int(published.sum()),
        counts,
    )


class Folds:
    """p(accepted) per candidate of the model fitted on a set of years, each set fitted once."""

    def __init__(self, x: np.ndarray, pairs: Pairs, l2: float = L2):
        self.x, self.pairs, self.l2, self.done = x, pairs, l2, {}

    def probability(self, years) -> np.ndarray:
        """p(accepted) of the model fitted on the puzzles of `years`."""
        key = tuple(sorted(years))
        if key not in self.done:
            mean, scale, coef, intercept = fit_logistic(self.x, *self.pairs.counts(key), l2=self.l2)
            self.done[key] = sigmoid(intercept + ((self.x - mean) / scale) @ coef)
        return self.done[key]


def choose_threshold(folds: Folds, pairs: Pairs, years, blocked: np.ndarray) -> float:
    """The lowest threshold whose leave-one-year-out precision (pooled over `years`) reaches TARGET_PRECISION."""
    probs = {y: folds.probability([t for t in years if t != y]) for y in years}

    def pooled(t):
        scores = [score(pairs, (probs[y] >= t) & ~blocked, [y]) for y in years]
        return sum(s.tp for s in scores) / max(sum(s.ours for s in scores), 1)

    return next((t for t in THRESHOLDS if pooled(t) >= TARGET_PRECISION), THRESHOLDS[-1])


def fit(published_path: str | Path, facts: WordFacts, puzzles: list[Published] | None = None) -> Model:
    """The acceptance model fitted on every published year (the puzzles of the file), with its by-year CV table."""
    puzzles = puzzles if puzzles is not None else read_published(published_path)
    years = sorted({p.year for p in puzzles})
    if len(years) < 3:
        raise PuzzleError(f"{published_path}: cross-validation by year needs puzzles of 3 or more years, got {years}")
    log("bee", f"{published_path}: {len(puzzles)} puzzles of {years[0]}-{years[-1]}; pairing with the candidates")
    pairs = make_pairs(puzzles, facts.candidates())
    names, x = design(pairs.words, facts)
    blocked = np.array([w in facts.blocklist for w in pairs.words], dtype=bool)
    folds, table = Folds(x, pairs), []
    for y in years:
        train = [t for t in years if t != y]
        threshold = choose_threshold(folds, pairs, train, blocked)
        keep = (folds.probability(train) >= threshold) & ~blocked
        table.append({"test_year": y, "threshold": threshold, **score(pairs, keep, [y]).row()})
        log("bee", f"cross-validation, fit on {train}, test {y}: {table[-1]}")
    threshold = choose_threshold(folds, pairs, years, blocked)
    mean, scale, coef, intercept = fit_logistic(x, *pairs.counts(years))
    published = pairs.published
    info = {
        "fitted_on": {
            "file": Path(published_path).name,
            "sha256": manifest.file_sha256(published_path),
            "puzzles": len(puzzles),
            "dates": [min(p.date for p in puzzles), max(p.date for p in puzzles)],
            "pairs": int(len(pairs.word)),
            "candidates_in_pairs": len(pairs.words),
            "published_counts": {
                k: float(v) for k, v in zip(("median", "p10", "p90"), np.percentile(published, [50, 10, 90]))
            },
        },
        "cross_validation": table,
        "rule": f"threshold: the lowest whose leave-one-year-out precision reaches {TARGET_PRECISION}; ridge l2 {L2}",
        "sources": facts.describe(),
    }
    return Model(tuple(names), mean, scale, coef, intercept, threshold, info)
