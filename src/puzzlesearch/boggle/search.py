"""Searching for high-scoring boards: pool search and pool hill climbing.

Vocabulary (a search runs in a space of boggle/spaces.py: `FreeSpace` or `DiceSpace`):
- `Found`: the best distinct boards seen, keyed by their canonical form under the board's
  symmetries, with the time and board count when first seen.
- `pool_search` (seed 000's method): a pool of the best distinct boards; every round
  each pool board makes random mutants (change one cell, swap two cells); the pool keeps
  the best distinct boards; restart from random boards when the best stalls.
- `hill_climb`: a pool of the best distinct boards (about 500 in the published method);
  every pool board not yet expanded has ALL its one-move neighbours scored, the pool keeps
  the best distinct boards; when every pool board is expanded the pool is a local
  optimum: record it and restart from random boards. Neighbours that change one cell are
  scored incrementally around their pool board (Scorer.score_near: same scores, about
  1.5x the boards per second of full scoring on 4x4 ENABLE2K).
- A climb that ends by itself (not cut by the budget) has its best board checked against
  every one-move neighbour; when none scores more it is recorded as a `local_optimum`
  (the boards the neighbourhood scan then certifies at distance 2).
Both are seeded (numpy Generator) and stop on a time or board budget or Ctrl-C.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.boggle.model import LETTERS, canonical
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log

METHODS = ("pool", "hill")
STOP_REASONS = ("boards", "time", "interrupted", "target")  # the seed table's stopped_by
INCREMENTAL_CELLS = 1  # hill climbing: neighbours changing one cell are scored incrementally


# ---------------------------------------------------------------------------- bookkeeping


@dataclass
class Budget:
    """When to stop: boards scored (0 = no limit), a safety cap in seconds (0 = none), or Ctrl-C."""

    seconds: float = 20.0
    max_boards: int = 0
    target: int = 0  # stop once a board scores at least this (0 = never)
    cpu: bool = False  # count this process's CPU seconds instead of wall seconds
    start: float = -1.0
    boards: int = 0
    best: int = -1
    interrupted: bool = False

    def __post_init__(self) -> None:
        if self.start < 0:
            self.start = self.clock()

    def clock(self) -> float:
        return time.process_time() if self.cpu else time.perf_counter()

    def elapsed(self) -> float:
        """Seconds spent (wall, or CPU when `cpu`)."""
        return self.clock() - self.start

    def done(self) -> bool:
        """True once any budget is spent (the reason is `stopped_by()`)."""
        return self.stopped_by() is not None

    def stopped_by(self) -> str | None:
        """Which budget ended the run: interrupted, target, boards or time (None: not yet).

        The board budget is checked before the clock, so a run that spent its boards
        reports `boards` however long it took: only a run the clock cut short says `time`.
        """
        if self.interrupted:
            return "interrupted"
        if self.target and self.best >= self.target:
            return "target"
        if self.max_boards and self.boards >= self.max_boards:
            return "boards"
        if self.seconds and self.elapsed() >= self.seconds:
            return "time"
        return None


@dataclass
class Found:
    """The best distinct boards seen so far (canonical key -> record)."""

    keep: int = 100
    records: dict = field(default_factory=dict)

    def floor(self) -> int:
        """The score a board must beat to enter (when full)."""
        if len(self.records) < self.keep:
            return -1
        return min(r["score"] for r in self.records.values())

    def add(
        self, keys: list[bytes], scores: np.ndarray, budget: Budget, restart: int, states: np.ndarray | None = None
    ) -> None:
        """Record boards (canonical keys) better than the floor; `states` are kept (dice)."""
        floor = self.floor()
        changed = False
        for i, (key, score) in enumerate(zip(keys, scores)):
            score = int(score)
            if score <= floor or key in self.records:
                continue
            self.records[key] = {
                "score": score,
                "seconds": round(budget.elapsed(), 3),
                "boards_scored": budget.boards,
                "restart": restart,
                "local_optimum": False,
                "state": None if states is None else states[i].tolist(),
            }
            budget.best = max(budget.best, score)
            changed = True
        if changed and len(self.records) > self.keep:
            order = sorted(self.records.items(), key=lambda kv: (-kv[1]["score"], kv[0]))
            self.records = dict(order[: self.keep])

    def mark_local_optimum(
        self, key: bytes, score: int, budget: Budget, restart: int, states: np.ndarray | None = None
    ) -> None:
        """Record a board whose one-move neighbours all score less or the same."""
        self.add([key], np.array([score]), budget, restart, states)
        if key in self.records:
            self.records[key]["local_optimum"] = True

    def best(self) -> tuple[bytes, int] | None:
        if not self.records:
            return None
        key, rec = min(self.records.items(), key=lambda kv: (-kv[1]["score"], kv[0]))
        return key, rec["score"]


@dataclass
class Result:
    """What a search run found."""

    found: Found
    budget: Budget
    restarts: int
    method: str
    mode: str
    stopped_by: str = ""  # which budget ended the run (STOP_REASONS), set by run_search

    def rows(self) -> list[dict]:
        """One dict per found board, best first."""
        order = sorted(self.found.records.items(), key=lambda kv: (-kv[1]["score"], kv[0]))
        return [{"board": key.decode(), **rec} for key, rec in order]


class _Progress:
    """Log a line every `every` seconds: best so far and boards/s."""

    def __init__(self, every: float = 5.0):
        self.every = every
        self.last = time.perf_counter()
        self.last_boards = 0

    def maybe(self, budget: Budget, found: Found, restarts: int, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < self.every:
            return
        rate = (budget.boards - self.last_boards) / max(now - self.last, 1e-9)
        best = found.best()
        text = f"{best[0].decode()} {best[1]}" if best else "-"
        log(
            "boggle",
            f"{budget.elapsed():7.1f}s best {text}, {budget.boards} boards ({rate:,.0f}/s), {restarts} restarts",
        )
        self.last, self.last_boards = now, budget.boards


class _Evaluator:
    """Score states and key them canonically, counting boards against the budget."""

    def __init__(self, scorer: Scorer, space, budget: Budget):
        self.scorer, self.space, self.budget = scorer, space, budget

    def __call__(
        self, states: np.ndarray, chunk: int = 2048, parents: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(scores, boards) of the states, in chunks; stops early when the budget is spent.

        With `parents` (states the given ones are one move from), boards one cell away
        from their parent are scored incrementally around it (same scores, less work).
        """
        boards = self.space.letters(states)
        if parents is not None:
            bases = self.space.letters(parents)
            base_of = nearest_base(boards, bases)
        parts = []
        for lo in range(0, len(boards), chunk):
            if parts and self.budget.done():
                break
            part = boards[lo : lo + chunk]
            if parents is None:
                parts.append(self.scorer.scores(part, self.space.shape))
            else:
                near = self.scorer.score_near(
                    bases, base_of[lo : lo + chunk], part, self.space.shape, INCREMENTAL_CELLS
                )
                parts.append(near[0])
            self.budget.boards += len(part)
        scores = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return scores, boards[: len(scores)]

    def keys(self, boards: np.ndarray) -> list[bytes]:
        canon = canonical(boards, self.space.shape)
        table = np.frombuffer(LETTERS.encode(), dtype=np.uint8)
        text = table[canon]
        return [row.tobytes() for row in text]


def nearest_base(boards: np.ndarray, bases: np.ndarray) -> np.ndarray:
    """For each board, the index of the base board it differs from in the fewest cells."""
    out = np.empty(len(boards), dtype=np.int64)
    for lo in range(0, len(boards), 4096):
        part = boards[lo : lo + 4096]
        out[lo : lo + len(part)] = (part[:, None, :] != bases[None, :, :]).sum(axis=2).argmin(axis=1)
    return out


def _end_of_climb(ev: _Evaluator, found: Found, states, scores, keys, restart: int) -> None:
    """Check the best board of a finished climb against all its one-move neighbours."""
    kids = ev.space.neighbours(states[:1])
    ev.budget.boards += len(kids)
    boards, shape = ev.space.letters(kids), ev.space.shape
    near = ev.scorer.score_near(ev.space.letters(states[:1]), np.zeros(len(kids), np.int64), boards, shape)[0]
    if int(near.max()) <= int(scores[0]):
        found.mark_local_optimum(keys[0], int(scores[0]), ev.budget, restart, _dice(ev.space, states[:1]))


def _dice(space, states):
    """States worth keeping in the tables: dice arrangements (free states are the boards)."""
    return states if space.mode == "dice" else None


def _top_distinct(states, scores, keys, size):
    """The best `size` distinct boards: (states, scores, keys), best first, ties by key."""
    order = sorted(range(len(keys)), key=lambda i: (-int(scores[i]), keys[i]))
    seen, pick = set(), []
    for i in order:
        if keys[i] not in seen:
            seen.add(keys[i])
            pick.append(i)
            if len(pick) == size:
                break
    pick = np.asarray(pick, dtype=np.int64)
    return states[pick], np.asarray(scores)[pick], [keys[i] for i in pick]


# ---------------------------------------------------------------------------- searches


def pool_search(
    scorer: Scorer,
    space,
    seed: int,
    budget: Budget,
    pool_size: int = 50,
    mutants: int = 4,
    patience: int = 200,
    keep: int = 100,
    progress: float = 5.0,
) -> Result:
    """Seed 000's pool search: mutate pool boards, keep the best distinct, restart on stall."""
    rng = np.random.default_rng(seed)
    ev = _Evaluator(scorer, space, budget)
    found, restarts, report = Found(keep), 0, _Progress(progress)
    try:
        while not budget.done():
            states = space.random(rng, pool_size)
            scores, boards = ev(states)
            keys = ev.keys(boards)
            states, scores, keys = _top_distinct(states, scores, keys, pool_size)
            best, stall = int(scores[0]), 0
            while not budget.done() and stall < patience:
                parents = np.repeat(states, mutants, axis=0)
                kids = space.mutate(parents, rng)
                extra = rng.random(len(kids)) < 0.3  # sometimes two moves
                kids[extra] = space.mutate(kids[extra], rng)
                kscores, kboards = ev(kids)
                kids = kids[: len(kscores)]
                kkeys = ev.keys(kboards)
                found.add(kkeys, kscores, budget, restarts, _dice(space, kids))
                states, scores, keys = _top_distinct(
                    np.concatenate([states, kids]), np.concatenate([scores, kscores]), keys + kkeys, pool_size
                )
                if scores[0] > best:
                    best, stall = int(scores[0]), 0
                else:
                    stall += 1
                report.maybe(budget, found, restarts)
            found.add(keys, scores, budget, restarts, _dice(space, states))
            if stall >= patience:
                _end_of_climb(ev, found, states, scores, keys, restarts)
            restarts += not budget.done()
    except KeyboardInterrupt:
        budget.interrupted = True
    report.maybe(budget, found, restarts, force=True)
    return Result(found, budget, restarts, "pool", space.mode)


def hill_climb(
    scorer: Scorer,
    space,
    seed: int,
    budget: Budget,
    pool_size: int = 500,
    batch: int = 16,
    keep: int = 100,
    progress: float = 5.0,
) -> Result:
    """Pool hill climbing: expand every neighbour of each pool board; restart at a local optimum.

    Pool boards are expanded best first, `batch` at a time.
    """
    rng = np.random.default_rng(seed)
    ev = _Evaluator(scorer, space, budget)
    found, restarts, report = Found(keep), 0, _Progress(progress)
    try:
        while not budget.done():
            states = space.random(rng, pool_size)
            scores, boards = ev(states)
            keys = ev.keys(boards)
            states, scores, keys = _top_distinct(states, scores, keys, pool_size)
            expanded: set[bytes] = set()
            seen: set[bytes] = set(keys)  # boards scored in this climb: never scored twice
            finished = False
            while not budget.done():
                todo = [i for i, k in enumerate(keys) if k not in expanded][:batch]
                if not todo:
                    finished = True  # every pool board expanded: a local optimum of the pool
                    break
                kids = space.neighbours(states[todo])
                expanded.update(keys[i] for i in todo)
                kkeys = ev.keys(space.letters(kids))
                fresh = []
                for i, k in enumerate(kkeys):
                    if k not in seen:
                        seen.add(k)
                        fresh.append(i)
                kids = kids[fresh]
                kkeys = [kkeys[i] for i in fresh]
                kscores, kboards = ev(kids, parents=states[todo])
                kids = kids[: len(kscores)]  # fewer when the budget ran out mid-way
                floor = int(scores[-1]) if len(scores) >= pool_size else -1
                good = np.flatnonzero(kscores >= floor)
                kids, kscores = kids[good], kscores[good]
                kkeys = [kkeys[i] for i in good]
                found.add(kkeys, kscores, budget, restarts, _dice(space, kids))
                states, scores, keys = _top_distinct(
                    np.concatenate([states, kids]), np.concatenate([scores, kscores]), keys + kkeys, pool_size
                )
                report.maybe(budget, found, restarts)
            found.add(keys, scores, budget, restarts, _dice(space, states))
            if finished:
                _end_of_climb(ev, found, states, scores, keys, restarts)
            restarts += not budget.done()
    except KeyboardInterrupt:
        budget.interrupted = True
    report.maybe(budget, found, restarts, force=True)
    return Result(found, budget, restarts, "hill", space.mode)


def run_search(scorer: Scorer, space, method: str, seed: int, budget: Budget, **options) -> Result:
    """Run one search method ('pool' or 'hill')."""
    searches = {"pool": pool_search, "hill": hill_climb}
    if method in searches:
        result = searches[method](scorer, space, seed, budget, **options)
        result.stopped_by = budget.stopped_by() or "boards"
        return result
    raise PuzzleError(f"boggle search method {method!r}: not one of {', '.join(METHODS)}")
