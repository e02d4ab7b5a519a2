"""Searching for high-scoring boards: pool search, pool hill climbing, iterated local search.

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
- `iterated_local_search` (ils): climb (the pool hill climb with a small pool; 1 = steepest
  ascent) to a local optimum, kick it by a few random moves, climb again, keep the result
  when it scores at least as much; restart from random boards after `patience` kicks
  without a better board. Letters may be left out (the peer's 5x5 runs drop z q x j k w).
  It saves its state between climbs to a checkpoint file and resumes from it.
- A climb that ends by itself (not cut by the budget) has its best board checked against
  every one-move neighbour; when none scores more it is recorded as a `local_optimum`
  (the boards the neighbourhood scan then certifies at distance 2).
All are seeded (numpy Generator) and stop on a time or board budget or Ctrl-C.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from puzzlesearch import kinds
from puzzlesearch.boggle._kernels import anneal as anneal_kernels
from puzzlesearch.boggle.model import LETTERS, canonical, neighbour_masks
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.boggle.settings import SearchSettings
from puzzlesearch.boggle.spaces import FreeSpace
from puzzlesearch.errors import PuzzleError
from puzzlesearch.manifest import ArtifactError, read_verified, write_result_json
from puzzlesearch.progress import log

METHODS = ("pool", "hill", "ils", "anneal")
CHECKPOINTED = ("ils", "anneal")  # methods that save their state to --checkpoint and resume from it
CHECKPOINT_KIND = kinds.BOGGLE_SEARCH_CHECKPOINT
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
    climbs: int = 0  # ils: climbs completed (over every resumed run)
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

    climbs = -1  # ils: climbs completed so far (shown when set); anneal: runs
    unit = "climbs"

    def maybe(self, budget: Budget, found: Found, restarts: int, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < self.every:
            return
        rate = (budget.boards - self.last_boards) / max(now - self.last, 1e-9)
        best = found.best()
        text = f"{best[0].decode()} {best[1]}" if best else "-"
        more = f", {self.climbs} {self.unit}" if self.climbs >= 0 else ""
        log(
            "boggle",
            f"{budget.elapsed():7.1f}s best {text}, {budget.boards} boards ({rate:,.0f}/s), {restarts} restarts{more}",
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


# ---------------------------------------------------------------------------- climbs


class Pool(NamedTuple):
    """Distinct boards, best first: search states, scores and canonical keys."""

    states: np.ndarray
    scores: np.ndarray
    keys: list


def _scored_pool(ev: _Evaluator, states: np.ndarray, size: int) -> Pool:
    """The best `size` distinct boards of `states`, scored."""
    scores, boards = ev(states)
    states = states[: len(scores)]
    return Pool(*_top_distinct(states, scores, ev.keys(boards), size))


def _mutation_rounds(ev, found, rng, pool: Pool, restart: int, report, mutants: int, patience: int):
    """Pool search from `pool` until `patience` rounds bring no new best: (pool, ended by itself)."""
    space, budget, size = ev.space, ev.budget, len(pool.keys)
    best, stall = int(pool.scores[0]), 0
    while not budget.done() and stall < patience:
        parents = np.repeat(pool.states, mutants, axis=0)
        kids = space.mutate(parents, rng)
        extra = rng.random(len(kids)) < 0.3  # sometimes two moves
        kids[extra] = space.mutate(kids[extra], rng)
        kscores, kboards = ev(kids)
        kids = kids[: len(kscores)]
        kkeys = ev.keys(kboards)
        found.add(kkeys, kscores, budget, restart, _dice(space, kids))
        pool = Pool(
            *_top_distinct(
                np.concatenate([pool.states, kids]), np.concatenate([pool.scores, kscores]), pool.keys + kkeys, size
            )
        )
        if pool.scores[0] > best:
            best, stall = int(pool.scores[0]), 0
        else:
            stall += 1
        report.maybe(budget, found, restart)
    return pool, stall >= patience


def _climb(ev, found, pool: Pool, size: int, restart: int, report, batch: int = 16, swaps: bool = True):
    """Pool hill climbing from `pool` until every pool board is expanded: (pool, ended by itself).

    Pool boards are expanded best first, `batch` at a time; every one-move neighbour of an
    expanded board (cell changes, and swaps of two cells with `swaps`) is scored
    (incrementally around it) unless this climb scored it already.
    """
    space, budget = ev.space, ev.budget
    expanded: set[bytes] = set()
    seen: set[bytes] = set(pool.keys)  # boards scored in this climb: never scored twice
    while not budget.done():
        todo = [i for i, k in enumerate(pool.keys) if k not in expanded][:batch]
        if not todo:
            return pool, True  # every pool board expanded: a local optimum of the pool
        kids = space.neighbours(pool.states[todo], swaps)
        expanded.update(pool.keys[i] for i in todo)
        kkeys = ev.keys(space.letters(kids))
        fresh = []
        for i, k in enumerate(kkeys):
            if k not in seen:
                seen.add(k)
                fresh.append(i)
        kids = kids[fresh]
        kkeys = [kkeys[i] for i in fresh]
        kscores, _ = ev(kids, parents=pool.states[todo])
        kids = kids[: len(kscores)]  # fewer when the budget ran out mid-way
        floor = int(pool.scores[-1]) if len(pool.scores) >= size else -1
        good = np.flatnonzero(kscores >= floor)
        kids, kscores = kids[good], kscores[good]
        kkeys = [kkeys[i] for i in good]
        found.add(kkeys, kscores, budget, restart, _dice(space, kids))
        pool = Pool(
            *_top_distinct(
                np.concatenate([pool.states, kids]), np.concatenate([pool.scores, kscores]), pool.keys + kkeys, size
            )
        )
        report.maybe(budget, found, restart)
    return pool, False


def _restart_loop(ev: _Evaluator, found: Found, rng, size: int, climb, report) -> int:
    """Climb from `size` random boards, record the climb's pool, restart; until the budget or Ctrl-C: restarts."""
    budget, restarts = ev.budget, 0
    try:
        while not budget.done():
            pool, finished = climb(_scored_pool(ev, ev.space.random(rng, size), size), restarts)
            found.add(pool.keys, pool.scores, budget, restarts, _dice(ev.space, pool.states))
            if finished:
                _end_of_climb(ev, found, pool.states, pool.scores, pool.keys, restarts)
            restarts += not budget.done()
    except KeyboardInterrupt:
        budget.interrupted = True
    report.maybe(budget, found, restarts, force=True)
    return restarts


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
    ev, found, report = _Evaluator(scorer, space, budget), Found(keep), _Progress(progress)

    def climb(pool, restart):
        return _mutation_rounds(ev, found, rng, pool, restart, report, mutants, patience)

    restarts = _restart_loop(ev, found, rng, pool_size, climb, report)
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
    """Pool hill climbing: expand every neighbour of each pool board; restart at a local optimum."""
    rng = np.random.default_rng(seed)
    ev, found, report = _Evaluator(scorer, space, budget), Found(keep), _Progress(progress)

    def climb(pool, restart):
        return _climb(ev, found, pool, pool_size, restart, report, batch)

    restarts = _restart_loop(ev, found, rng, pool_size, climb, report)
    return Result(found, budget, restarts, "hill", space.mode)


# ---------------------------------------------------------------------------- iterated local search


@dataclass
class IlsState:
    """Where an iterated local search is between two climbs (all a checkpoint holds)."""

    rng: dict  # the numpy bit generator's state
    boards: int = 0  # boards scored so far (the board budget counts every run)
    seconds: float = 0.0  # seconds spent so far (wall, or CPU with Budget.cpu)
    climbs: int = 0
    restarts: int = 0
    stall: int = 0  # kicks since the incumbent last improved
    incumbent: list | None = None  # the state climbs are kicked from (None: start from random)
    incumbent_score: int = -1
    found: dict = field(default_factory=dict)  # Found.records with text keys


def restricted_space(space, exclude: str):
    """A free space without the letters of `exclude` (the same space when empty or in dice mode)."""
    if not exclude or space.mode != "free":
        return space
    allowed = [i for i, ch in enumerate(LETTERS) if ch not in set(exclude)]
    return FreeSpace(space.shape, np.array(allowed, dtype=np.uint8))


def kick(space, state: np.ndarray, rng, moves: int, copies: int) -> np.ndarray:
    """`copies` states, each `moves` random moves (cell changes or swaps) away from `state`."""
    out = np.repeat(state[None, :], copies, axis=0)
    for _ in range(moves):
        out = space.mutate(out, rng)
    return out


class _Checkpoint:
    """The search's state at climb boundaries, written atomically (at most every `every` seconds) and read back."""

    def __init__(self, path, job: dict, every: float, state_class=None, added: dict | None = None):
        self.path, self.job, self.every = (Path(path) if path else None), job, every
        self.state_class = state_class or IlsState
        self.added = added or {}  # option -> the value that behaves as files written before it existed
        self.last = time.perf_counter()
        self.state: IlsState | None = None

    def load(self) -> IlsState | None:
        """The saved state when the file exists (checked to be this job's), else None."""
        if self.path is None or not self.path.exists():
            return None
        expect = dict(self.job)
        for key in sorted(set(self.added) - set(_recorded_settings(self.path))):
            if expect.get(key) != self.added[key]:
                raise PuzzleError(
                    f"{self.path}: written before the option {key} existed (as {key} = {self.added[key]!r}); "
                    f"resume it with --set {self.job['method']}.{key}={self.added[key]!r}, or give another --checkpoint "
                    "to start a new search"
                )
            expect.pop(key, None)
        try:
            data, _ = read_verified(self.path, CHECKPOINT_KIND, expect)
        except ArtifactError as e:
            raise PuzzleError(
                f"{self.path}: {getattr(e, 'why', e)}; the file is kept: resume it with the settings of its own job, "
                "or give another --checkpoint to start a new search"
            ) from None
        return self.state_class(**data["state"])

    def keep(self, state: IlsState, force: bool = False) -> None:
        """Remember the state; write it when `every` seconds have passed (or `force`)."""
        self.state = state
        if self.path is not None and (force or time.perf_counter() - self.last >= self.every):
            write_result_json({"state": asdict(state)}, self.path, CHECKPOINT_KIND, self.job, {})
            self.last = time.perf_counter()


def _recorded_settings(path: Path) -> dict:
    """The settings named in a checkpoint's manifest entry ({} when unreadable: the full check then says why)."""
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))["manifest"]["settings"]
    except (OSError, ValueError, UnicodeDecodeError, KeyError, TypeError):
        return {}
    return settings if isinstance(settings, dict) else {}


def _found_from(records: dict) -> dict:
    """The found boards of a checkpoint (text keys) as `Found.records` (byte keys)."""
    return {k.encode(): dict(v) for k, v in records.items()}


def _found_to(found: Found) -> dict:
    """`Found.records` as a checkpoint holds them (text keys)."""
    return {k.decode(): dict(v) for k, v in found.records.items()}


def _snapshot(rng, budget: Budget, found: Found, run: dict) -> IlsState:
    return IlsState(
        rng=rng.bit_generator.state,
        boards=budget.boards,
        seconds=round(budget.elapsed(), 3),
        found=_found_to(found),
        **run,
    )


def iterated_local_search(
    scorer: Scorer,
    space,
    seed: int,
    budget: Budget,
    *,
    pool_size: int,
    kick_moves: int,
    patience: int,
    exclude: str,
    swaps: bool,
    keep: int,
    checkpoint_seconds: float,
    batch: int = 16,
    progress: float = 5.0,
    checkpoint: str | Path | None = None,
    job: dict | None = None,
) -> Result:
    """Iterated local search: climb, kick the incumbent by `kick_moves` random moves, climb again, accept by score.

    A climb is the pool hill climb (`pool_size` boards; 1 = steepest ascent; cell changes
    only unless `swaps`, as a swap is scored in full, not incrementally) from `pool_size` kicked copies of the incumbent; its best board becomes the incumbent when it
    scores at least as much. After `patience` kicks without a better incumbent the search
    restarts from random boards. With `checkpoint`, the state between climbs is saved there
    (every `checkpoint_seconds`, on Ctrl-C and at the end) and a run finding the file
    continues from it: the same boards as one uninterrupted run with the same budget.
    """
    space = restricted_space(space, exclude)
    ev, found, report = _Evaluator(scorer, space, budget), Found(keep), _Progress(progress)
    rng = np.random.default_rng(seed)
    job = {
        "method": "ils",
        "seed": seed,
        "shape": str(space.shape),
        "mode": space.mode,
        "pool_size": pool_size,
        "kick_moves": kick_moves,
        "patience": patience,
        "exclude": exclude,
        "swaps": swaps,
        **(job or {}),
    }
    saver = _Checkpoint(checkpoint, job, checkpoint_seconds)
    state = saver.load()
    if state is None:
        state = IlsState(rng=rng.bit_generator.state)
    else:
        rng.bit_generator.state = state.rng
        budget.boards, budget.start = state.boards, budget.clock() - state.seconds
        found.records = _found_from(state.found)
        budget.best = max([r["score"] for r in found.records.values()], default=-1)
        log("boggle", f"resuming from {checkpoint}: {state.climbs} climbs, {state.boards} boards")
    run = {k: getattr(state, k) for k in ("climbs", "restarts", "stall", "incumbent", "incumbent_score")}
    report.climbs = run["climbs"]
    saver.state = state
    try:
        while not budget.done():
            if run["incumbent"] is None or run["stall"] >= patience:
                run["restarts"] += run["incumbent"] is not None
                run["incumbent"], run["incumbent_score"], run["stall"] = None, -1, 0
                start = space.random(rng, pool_size)
            else:
                start = kick(space, np.array(run["incumbent"], dtype=np.uint8), rng, kick_moves, pool_size)
            pool = _scored_pool(ev, start, pool_size)
            pool, finished = _climb(ev, found, pool, pool_size, run["restarts"], report, batch, swaps)
            if not finished:
                break  # the budget ran out mid-climb: resume from the last boundary
            found.add(pool.keys, pool.scores, budget, run["restarts"], _dice(space, pool.states))
            run["climbs"] += 1
            score = int(pool.scores[0])
            if score > run["incumbent_score"]:
                _end_of_climb(ev, found, pool.states, pool.scores, pool.keys, run["restarts"])
                run["stall"] = 0
            else:
                run["stall"] += 1
            if score >= run["incumbent_score"]:
                run["incumbent"], run["incumbent_score"] = pool.states[0].tolist(), score
            saver.keep(_snapshot(rng, budget, found, run))
            report.climbs = run["climbs"]
            report.maybe(budget, found, run["restarts"])
    except KeyboardInterrupt:
        budget.interrupted = True
    saver.keep(saver.state, force=True)
    report.maybe(budget, found, run["restarts"], force=True)
    return Result(found, budget, run["restarts"], "ils", space.mode, climbs=run["climbs"])


# ---------------------------------------------------------------------------- simulated annealing

CHUNK_STEPS = 10_000  # anneal: steps per kernel call (about 1-2 s on 5x5); calls end at multiples of it


@dataclass
class AnnealState:
    """Where an annealing search is between two kernel calls (all a checkpoint holds)."""

    rng: int  # the kernel's xorshift64* state
    board: list  # the current board (a fresh random one when `ints` says step 0)
    best: list  # the run's best board
    ints: list  # AnnealArrays.ints: score, best score, boards when reached, step in run, boards
    runs: int = 0  # runs completed
    boards: int = 0
    seconds: float = 0.0
    found: dict = field(default_factory=dict)


def _anneal_arrays(state: AnnealState, allowed: np.ndarray) -> anneal_kernels.AnnealArrays:
    return anneal_kernels.AnnealArrays(
        np.array(state.board, dtype=np.uint8),
        np.array(state.best, dtype=np.uint8),
        allowed,
        np.array([state.rng], dtype=np.uint64),
        np.array([*state.ints, *[0] * (anneal_kernels.N_INTS - len(state.ints))], dtype=np.int64),  # older files: 5
    )


def _anneal_state(arrays, runs: int, budget: Budget, found: Found) -> AnnealState:
    return AnnealState(
        rng=int(arrays.rng[0]),
        board=arrays.board.tolist(),
        best=arrays.best.tolist(),
        ints=arrays.ints.tolist(),
        runs=runs,
        boards=budget.boards,
        seconds=round(budget.elapsed(), 3),
        found=_found_to(found),
    )


def _fresh_run(arrays) -> None:
    """Start the next run: step 0 on a random board."""
    arrays.ints[:] = 0
    anneal_kernels.random_board(arrays)


def _add_run_best(found: Found, arrays, shape, budget: Budget, run: int) -> None:
    """Record the run's best board, with the board count when the run reached it."""
    key = np.frombuffer(LETTERS.encode(), dtype=np.uint8)[canonical(arrays.best[None, :], shape)[0]].tobytes()
    new = key not in found.records
    found.add([key], arrays.ints[anneal_kernels.BEST_SCORE : anneal_kernels.BEST_SCORE + 1], budget, run)
    if new and key in found.records:
        found.records[key]["boards_scored"] = int(arrays.ints[anneal_kernels.BEST_AT])


def _polish(ev: _Evaluator, found: Found, best: np.ndarray, run: int, report) -> bool:
    """Steepest ascent (cell changes and swaps) from a run's best board, flagged when a local optimum: ended by itself."""
    pool = _scored_pool(ev, best[None, :].copy(), 1)
    pool, finished = _climb(ev, found, pool, 1, run, report, batch=1, swaps=True)
    found.add(pool.keys, pool.scores, ev.budget, run)
    if finished:
        _end_of_climb(ev, found, pool.states, pool.scores, pool.keys, run)
    return finished


def simulated_annealing(
    scorer: Scorer,
    space,
    seed: int,
    budget: Budget,
    *,
    run_steps: int,
    t0: float,
    t_end: float,
    stall: float,
    swap_p: float,
    exclude: str,
    polish: bool,
    keep: int,
    checkpoint_seconds: float,
    progress: float = 5.0,
    checkpoint: str | Path | None = None,
    job: dict | None = None,
    chunk: int = CHUNK_STEPS,
) -> Result:
    """Simulated annealing: runs of `run_steps` single moves from random boards, cooling t0 -> t_end.

    A run ends early when `stall` x run_steps steps pass without a new run best (0: never).

    Each step changes one cell or swaps two (`swap_p`), scores the board in full and keeps
    it by the Metropolis rule (boggle/_kernels/anneal.py); a run's best board enters
    `found` at the end of every kernel call (calls end at multiples of `chunk` boards) and,
    with `polish`, is climbed by steepest ascent when the run ends (a polish cut by the
    budget is redone, with the run's last kernel call, by a resumed search). Free mode only. With
    `checkpoint`, the state between kernel calls is saved there (every
    `checkpoint_seconds`, on Ctrl-C and at the end) and a run finding the file continues
    from it: the same boards as one uninterrupted run with the same board budget.
    """
    if space.mode != "free":
        raise PuzzleError(f"boggle search method anneal: free mode only (this search is in {space.mode} mode)")
    space = restricted_space(space, exclude)
    ev, found, report = _Evaluator(scorer, space, budget), Found(keep), _Progress(progress)
    report.unit = "runs"
    job = {
        "method": "anneal",
        "seed": seed,
        "shape": str(space.shape),
        "mode": space.mode,
        "run_steps": run_steps,
        "t0": t0,
        "t_end": t_end,
        "stall": stall,
        "swap_p": swap_p,
        "exclude": exclude,
        "polish": polish,
        **(job or {}),
    }
    saver = _Checkpoint(checkpoint, job, checkpoint_seconds, AnnealState, added={"stall": 0})
    state = saver.load()
    if state is None:
        start = int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]) or 1
        state = AnnealState(
            rng=start, board=[0] * space.shape.cells, best=[0] * space.shape.cells, ints=[0] * anneal_kernels.N_INTS
        )
        arrays = _anneal_arrays(state, space.letters_allowed)
        _fresh_run(arrays)
    else:
        arrays = _anneal_arrays(state, space.letters_allowed)
        budget.boards, budget.start = state.boards, budget.clock() - state.seconds
        found.records = _found_from(state.found)
        budget.best = max([r["score"] for r in found.records.values()], default=-1)
        log("boggle", f"resuming from {checkpoint}: {state.runs} runs, {state.boards} boards")
    runs = state.runs
    saver.state = _anneal_state(arrays, runs, budget, found)
    nbm, log_ratio = neighbour_masks(space.shape), float(np.log(t0 / t_end))
    stall_steps = round(stall * run_steps)
    try:
        while not budget.done():
            steps = chunk - budget.boards % chunk
            if budget.max_boards:
                steps = min(steps, budget.max_boards - budget.boards)
            arrays.ints[anneal_kernels.BOARDS] = budget.boards
            stamp = scorer._stamps(steps)
            anneal_kernels.anneal(
                arrays, nbm, scorer.arrays, stamp, steps, run_steps, t0, log_ratio, swap_p, stall_steps
            )
            budget.boards = int(arrays.ints[anneal_kernels.BOARDS])
            if budget.boards % chunk and arrays.ints[anneal_kernels.STEP] < run_steps:  # cut by the board budget
                saver.keep(_anneal_state(arrays, runs, budget, found))  # without this call's best, as at a chunk's end
                _add_run_best(found, arrays, space.shape, budget, runs)
                break
            _add_run_best(found, arrays, space.shape, budget, runs)
            if arrays.ints[anneal_kernels.STEP] >= run_steps:
                if polish and not _polish(ev, found, arrays.best, runs, report):
                    break  # the budget ran out mid-polish: a resumed search redoes it from the last state saved
                runs += 1
                _fresh_run(arrays)
            saver.keep(_anneal_state(arrays, runs, budget, found))
            report.climbs = runs
            report.maybe(budget, found, runs)
    except KeyboardInterrupt:
        budget.interrupted = True
    saver.keep(saver.state, force=True)
    report.maybe(budget, found, runs, force=True)
    return Result(found, budget, runs, "anneal", space.mode, climbs=runs)


def run_search(scorer: Scorer, space, method: str, seed: int, budget: Budget, **options) -> Result:
    """Run one search method ('pool', 'hill', 'ils' or 'anneal'); options not given take the schema's defaults."""
    searches = {"pool": pool_search, "hill": hill_climb, "ils": iterated_local_search, "anneal": simulated_annealing}
    if method in searches:
        options = {**SearchSettings.from_dict({"method": method}).options(), **options}
        result = searches[method](scorer, space, seed, budget, **options)
        result.stopped_by = budget.stopped_by() or "boards"
        return result
    raise PuzzleError(f"boggle search method {method!r}: not one of {', '.join(METHODS)}")
