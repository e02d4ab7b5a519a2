"""Unconstrained crossword generation by progressive search.

1. Initial grids: a black-cell strategy lays out a pattern and fills every across slot
   with a random lexicon word of its length (one-letter slots get a filler letter):
   - `fill1` (row pass): rows left to right; a cell whose column already has a vertical
     run of max_down letters is black; between those, words of random lengths
     (<= max_across) each followed by a black cell.
   - `fill2` (column pass): each column is cut into vertical words of random lengths
     (<= max_down) separated by black cells; across runs longer than max_across are
     then cut by extra black cells (which only shortens vertical words).
2. Progressive search (_kernels/progressive.py): a bounded queue of the Q cheapest
   grids; pop the cheapest, make NB mutants (one across word replaced by another word of
   the same length), keep those that fit in the queue; stop at cost 0, after max_pops pops, or at the time cap.
The cost f = unknown vertical letters + 0.2 x scrambled vertical letters (_kernels/cost.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.crossword._kernels.cost import grid_cost
from puzzlesearch.crossword._kernels.progressive import (
    INFO_COST,
    INFO_PATTERN,
    Best,
    Draw,
    Layouts,
    Queue,
    grid_key,
    progressive_search,
    seed_rng,
)
from puzzlesearch.crossword.fill import NoFill, PatternDeadline, american_pattern, fill
from puzzlesearch.crossword.model import DOWN, Language, runs, slots, without_lone_letters
from puzzlesearch.crossword.settings import FillSettings, GenerateSettings
from puzzlesearch.crossword.tables import WordTables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.jit import compile_lock
from puzzlesearch.progress import log

CHUNK_POPS = 256  # at most this many pops per kernel call between time (and stall) checks ...
CHUNK_WORK = 1 << 20  # ... and at most this many mutant cells (mutants x size^2): fewer pops when a pop is big.
# The chunk depends on the settings only, never on the clock: the stall restarts happen
# between calls, so a chunk sized by time would make the grids depend on the machine's speed.
PATTERN = "pattern"  # the strategy: random symmetric patterns filled by the fixed-pattern fill
PATTERN_SEED_STRIDE = 100_003  # pattern k of seed s is made with seed s x stride + k (distinct per seed)
STOP_COST, STOP_POPS, STOP_TIME = "cost", "pops", "time"  # what ended a search (Generated.stopped_by)
PROGRESS_SECONDS = 5  # seconds between progress log lines
ATTEMPT_NODES = 1  # the least a pattern attempt counts against max_pops (a fill refused at 0 nodes too)


@dataclass
class Generated:
    """One generated grid and how it was found."""

    grid: np.ndarray
    language: Language
    seed: int
    cost5: int  # cost in units of 0.2 letter (f = cost5 / 5)
    unknown_letters: int
    scrambled_letters: int
    unknown_words: int
    scrambled_words: int
    down_words: int
    pops: int
    seconds: float
    restarts: int = 0
    settings: GenerateSettings = field(repr=False, default_factory=GenerateSettings)
    stopped_by: str = STOP_COST  # cost (a cost-0 grid), pops (max_pops) or time (the time_budget cap)
    trace: list = field(repr=False, default_factory=list)  # (pops, seconds, cost5) at start and each new best

    @property
    def cost(self) -> float:
        return self.cost5 / 5

    @property
    def black_cells(self) -> int:
        return int((self.grid == 0).sum())


# ---------------------------------------------------------------- initial grids


class _Filler:
    """Random words and lengths for the initial grids."""

    def __init__(
        self, tables: WordTables, language: Language, size: int, rng: np.random.Generator, length_bias: float = 1.0
    ):
        self.rng = rng
        self.length_bias = length_bias
        self.codes = tables.codes
        self.start, self.count = tables.len_arrays(size)
        self.fillers = language.alphabet.encode(language.fillers)

    def has_words(self, length: int) -> bool:
        return length == 1 or (length < len(self.count) and self.count[length] > 0)

    def length(self, room: int, longest: int) -> int:
        """A random usable word length <= min(room, longest) (1 always usable)."""
        choices = np.array([n for n in range(1, min(room, longest) + 1) if self.has_words(n)])
        weights = choices.astype(float) ** self.length_bias
        return int(self.rng.choice(choices, p=weights / weights.sum()))

    def word(self, length: int) -> np.ndarray:
        """Codes of a random eligible word of a length (a filler letter for length 1)."""
        if length == 1:
            return self.fillers[self.rng.integers(len(self.fillers))][None]
        row = self.start[length] + self.rng.integers(self.count[length])
        return self.codes[row, :length]


def initial_fill1(f: _Filler, s: GenerateSettings) -> np.ndarray:
    """Row pass: words of random lengths, black where a vertical run reached max_down."""
    n = s.size
    grid = np.zeros((n, n), dtype=np.int8)
    run = np.zeros(n, dtype=int)
    for r in range(n):
        forced = run >= s.max_down
        c = 0
        while c < n:
            if forced[c]:
                c += 1
                continue
            room = 0
            while c + room < n and not forced[c + room]:
                room += 1
            length = f.length(room, s.max_across)
            grid[r, c : c + length] = f.word(length)
            c += length + 1  # the cell after a word is black (or forced, or the edge)
        run = np.where(grid[r] != 0, run + 1, 0)
    return grid


def initial_fill2(f: _Filler, s: GenerateSettings) -> np.ndarray:
    """Column pass: vertical word lengths choose the black cells; long rows are cut."""
    n = s.size
    white = np.ones((n, n), dtype=bool)
    for c in range(n):
        r = 0
        while r < n:
            r += int(f.rng.integers(1, min(s.max_down, n - r) + 1))
            if r < n:
                white[r, c] = False
                r += 1
    grid = np.zeros((n, n), dtype=np.int8)
    for r in range(n):
        for start, room in runs(white[r]):
            c, end = start, start + room
            while c < end:
                length = f.length(end - c, s.max_across)
                grid[r, c : c + length] = f.word(length)
                c += length + 1
    return grid


INITIAL = {"fill1": initial_fill1, "fill2": initial_fill2}  # the progressive search's strategies


def across_slots(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(slots as rows of (row, col, length), cell -> slot index with -1 for black)."""
    n_rows, n_cols = grid.shape
    out, cell_slot = [], np.full(grid.shape, -1, dtype=np.int32)
    for r in range(n_rows):
        for c, length in runs(grid[r] != 0):
            cell_slot[r, c : c + length] = len(out)
            out.append((r, c, length))
    return np.array(out, dtype=np.int64).reshape(-1, 3), cell_slot


# ---------------------------------------------------------------- the search


def require_valid(g: Generated) -> None:
    """PuzzleError (one line, naming the setting to raise) unless the grid has cost 0: never publish a non-word."""
    if g.cost5 == 0:
        return
    n = g.settings.size
    raise PuzzleError(
        f"crossword {g.language.code} {n}x{n} seed {g.seed}: no grid of cost 0 within "
        f"crossword.max_pops={g.settings.max_pops} pops (best cost {g.cost:g}: {g.unknown_words} unknown, "
        f"{g.scrambled_words} scrambled down words; stopped by {g.stopped_by}); nothing written: raise "
        "crossword.max_pops (--max-pops)" + (" and crossword.time_budget" if g.stopped_by == STOP_TIME else "")
    )


def fits_style(pattern: np.ndarray, settings: GenerateSettings) -> bool:
    """Does a pattern (0 black) have at most the style's entries (`max_entries`; 0 = any number)."""
    return not settings.max_entries or len(slots(pattern != 0, min_length=2)) <= settings.max_entries


def generate_from_patterns(
    tables: WordTables, language: Language, settings: GenerateSettings, seed: int = 0, progress: bool = True
) -> Generated:
    """One American-style grid: random symmetric patterns (every entry >= min_entry letters,
    connected, none longer than max_across), each filled by the fixed-pattern fill with at most
    pattern_nodes nodes, until one fills.

    Every attempt counts against max_pops: its fill nodes, and at least ATTEMPT_NODES (a fill
    refused at 0 nodes, say for a length without words, counts too), so the work budget ends
    every search. The time cap runs on the wall clock from the start (kernel loading excluded),
    the patterns' making included. Every entry is an eligible word by construction (cost 0).
    PuzzleError (naming the settings) when the work budget or the time cap is spent first."""
    n = settings.size
    _, count = tables.len_arrays(n)
    lengths = range(settings.min_entry, min(n, settings.max_across) + 1)
    if not any(count[L] for L in lengths):
        raise PuzzleError(
            f"crossword {language.code} {n}x{n}: lexicon {tables.name!r} has no eligible word of "
            f"{settings.min_entry} to {min(n, settings.max_across)} letters at min_score {settings.min_score}"
            + (" with a clue" if tables.clued_only else "")
        )
    _load_fill_kernels(tables)
    t0 = time.perf_counter()
    deadline = t0 + settings.time_budget
    spent, tried, last_log = 0, 0, t0

    def give_up(key: str, value: str) -> PuzzleError:
        return PuzzleError(
            f"crossword {language.code} {n}x{n} seed {seed}: no pattern filled within {key}="
            f"{value} ({tried} patterns, {spent} fill nodes, min_score {settings.min_score}); nothing written: "
            f"raise {key}"
        )

    while True:
        left = settings.max_pops - spent if settings.max_pops else settings.pattern_nodes
        budget = max(1, min(settings.pattern_nodes, left))
        try:
            pattern = american_pattern(
                n,
                settings.black_fraction,
                seed * PATTERN_SEED_STRIDE + tried,
                settings.min_entry,
                settings.max_across,
                deadline=deadline,
            )
        except PatternDeadline:
            raise give_up("crossword.time_budget", f"{settings.time_budget:g}s") from None
        if not fits_style(pattern, settings):
            spent, tried = spent + ATTEMPT_NODES, tried + 1  # too many entries for the style: not filled
            if settings.max_pops and spent >= settings.max_pops:
                raise give_up("crossword.max_pops", f"{settings.max_pops} fill nodes")
            continue
        fill_settings = FillSettings(
            min_frequency=settings.min_frequency,
            min_score=settings.min_score,
            min_entry=settings.min_entry,
            max_nodes=budget,
            first_nodes=min(FillSettings.first_nodes, budget),
            time_budget=max(deadline - time.perf_counter(), 1e-3),
        )
        try:
            filled = fill(pattern, tables, fill_settings, seed, progress=False)
        except NoFill as exc:
            spent, tried = spent + max(exc.nodes, ATTEMPT_NODES), tried + 1
            now = time.perf_counter()
            if progress and now - last_log >= PROGRESS_SECONDS:
                log("crossword", f"seed {seed}: {tried} patterns not filled ({spent} nodes, {now - t0:.1f}s)")
                last_log = now
            if settings.max_pops and spent >= settings.max_pops:
                raise give_up("crossword.max_pops", f"{settings.max_pops} fill nodes") from None
            if now >= deadline:
                raise give_up("crossword.time_budget", f"{settings.time_budget:g}s") from None
            continue
        spent += filled.nodes
        down = sum(s.direction == DOWN for s in slots(filled.grid != 0))
        seconds = time.perf_counter() - t0
        # the trace of a pattern search is its one result: a pattern is filled (cost 0) or not tried further
        trace = [(spent, seconds, 0)]
        return Generated(filled.grid, language, seed, 0, 0, 0, 0, 0, down, spent, seconds, tried, settings, trace=trace)


def _load_fill_kernels(tables: WordTables) -> None:
    """Load (or compile) the fill's kernels on a small pattern before the clock starts (a pattern the words
    cannot fill ends at once: then the first real fill loads them)."""
    try:
        fill(np.full((3, 3), -1, dtype=np.int8), tables, FillSettings(max_nodes=1, first_nodes=1), 0, progress=False)
    except PuzzleError:
        pass


@dataclass
class _GridQueue:
    """The progressive search's queue: Q grids of n x n, their across-slot layouts, costs, keys and pattern numbers."""

    grid: np.ndarray
    slot_row: np.ndarray
    slot_col: np.ndarray
    slot_len: np.ndarray
    n_slots: np.ndarray
    cell_slot: np.ndarray
    cost: np.ndarray
    key: np.ndarray
    pattern: np.ndarray

    @classmethod
    def empty(cls, q: int, n: int) -> _GridQueue:
        """A queue of q zero grids of n x n."""
        slot_row = np.zeros((q, n * n), dtype=np.int64)
        return cls(
            np.zeros((q, n, n), dtype=np.int8),
            slot_row,
            np.zeros_like(slot_row),
            np.zeros_like(slot_row),
            np.zeros(q, dtype=np.int64),
            np.zeros((q, n, n), dtype=np.int32),
            np.zeros(q, dtype=np.int64),
            np.zeros(q, dtype=np.int64),
            np.arange(q, dtype=np.int64),
        )

    def refill(self, make, words, capped) -> int:
        """New initial grids from make() in every place: how many, fewer once capped() (the first always)."""
        q = len(self.grid)
        for p in range(q):
            if p and capped():
                return p
            grid = make()
            self.grid[p] = grid
            sl, cs = across_slots(grid)
            k = len(sl)
            self.slot_row[p, :k], self.slot_col[p, :k], self.slot_len[p, :k] = sl[:, 0], sl[:, 1], sl[:, 2]
            self.n_slots[p], self.cell_slot[p] = k, cs
            self.cost[p] = grid_cost(grid, words).cost5
            self.key[p] = grid_key(grid)
        return q

    def search(self, qn: int, best: Best, words, draw: Draw, settings: GenerateSettings, pops: int) -> tuple[int, int]:
        """The kernel for at most `pops` pops from the first qn grids: (queue length, pops done)."""
        layouts = Layouts(self.slot_row, self.slot_col, self.slot_len, self.n_slots, self.cell_slot)
        queue = Queue(self.grid, self.cost, self.pattern, self.key)
        return progressive_search(queue, qn, best, layouts, words, draw, settings.mutants, settings.focus, pops)


def generate(
    tables: WordTables, language: Language, settings: GenerateSettings, seed: int = 0, progress: bool = True
) -> Generated:
    """One grid by progressive search from `settings.queue` random initial grids (or by patterns).

    The search stops at cost 0, after settings.max_pops pops, or at the time_budget cap
    (checked between kernel calls of at most CHUNK_POPS pops and CHUNK_WORK mutant cells,
    and between the initial grids of a queue); `stopped_by` records which.
    """
    settings = settings.clipped()
    if settings.strategy == PATTERN:
        return generate_from_patterns(tables, language, settings, seed, progress)
    n = settings.size
    rng = np.random.default_rng(seed)
    filler = _Filler(tables, language, n, rng, settings.length_bias)
    if not any(filler.has_words(L) for L in range(2, min(n, settings.max_across) + 1)):
        raise PuzzleError(f"lexicon {tables.name!r} has no words of length 2..{min(n, settings.max_across)}")
    make = INITIAL[settings.strategy]
    words = tables.kernel_args()
    grid_cost(np.zeros((2, 2), dtype=np.int8), words)  # load the kernels before the timer
    t0 = time.perf_counter()
    n_pat = settings.queue
    queue = _GridQueue.empty(n_pat, n)
    made = queue.refill(lambda: make(filler, settings), words, lambda: time.perf_counter() - t0 >= settings.time_budget)
    qgrid, qcost, qpat = queue.grid, queue.cost, queue.pattern
    best = int(np.argmin(qcost[:made]))
    best_grid = qgrid[best].copy()
    best_info = np.array([qcost[best], best], dtype=np.int64)
    draw = Draw(filler.start, filler.count, filler.fillers)
    seed_rng(seed)

    def fresh_queue() -> int:
        """Q new random initial grids (each with its own black pattern): how many, fewer once the time cap is spent."""
        return queue.refill(
            lambda: make(filler, settings), words, lambda: time.perf_counter() - t0 >= settings.time_budget
        )

    def search(qn: int, pops: int) -> tuple[int, int]:
        """Run the kernel for at most `pops` pops from a queue of qn grids: (queue length, pops done)."""
        return queue.search(qn, Best(best_grid, best_info), words, draw, settings, pops)

    warm = time.perf_counter()
    with compile_lock("puzzlesearch.crossword.generate"):  # one process of a machine compiles it
        search(n_pat, 0)  # zero pops: loads (or compiles) the kernel outside the timer
    t0 += time.perf_counter() - warm  # kernel loading is not search time
    qn, pops, last_log = made, 0, t0
    restarts, last_gain, last_best = 0, 0, best_info[INFO_COST]
    stopped_by = STOP_COST if made == n_pat or best_info[INFO_COST] == 0 else STOP_TIME
    trace = [(0, 0.0, int(best_info[INFO_COST]))]  # the best cost over the search (read only, results unchanged)
    pops_per_call = int(min(max(CHUNK_WORK // (settings.mutants * n * n), 1), CHUNK_POPS))
    while best_info[INFO_COST] > 0 and stopped_by != STOP_TIME:
        if settings.max_pops and pops >= settings.max_pops:
            stopped_by = STOP_POPS
            break
        if qn == 0 or (settings.stall_pops and pops - last_gain >= settings.stall_pops):
            made = fresh_queue()  # stagnation: start again from new initial grids, keep the best grid
            qn, restarts, last_gain = made, restarts + 1, pops
            qpat[:] = np.arange(n_pat)
            i = int(np.argmin(qcost[:made]))
            if qcost[i] < best_info[INFO_COST]:
                best_grid[:, :] = qgrid[i]
                best_info[INFO_COST], best_info[INFO_PATTERN] = qcost[i], i
                trace.append((pops, time.perf_counter() - t0, int(best_info[INFO_COST])))
            if made < n_pat and best_info[INFO_COST] > 0:
                stopped_by = STOP_TIME  # the cap came while the new grids were made
            continue
        chunk = pops_per_call if not settings.max_pops else min(pops_per_call, settings.max_pops - pops)
        qn, done = search(qn, chunk)
        pops += done
        now = time.perf_counter()
        if best_info[INFO_COST] < last_best:
            last_best, last_gain = best_info[INFO_COST], pops
            trace.append((pops, now - t0, int(best_info[INFO_COST])))
        if (
            best_info[INFO_COST] > 0
            and now - t0 >= settings.time_budget
            and not (settings.max_pops and pops >= settings.max_pops)
        ):
            stopped_by = STOP_TIME
            break
        if progress and now - last_log > PROGRESS_SECONDS:
            log("crossword", f"seed {seed}: {pops} pops, {restarts} restarts, best cost {best_info[INFO_COST] / 5:.1f}")
            last_log = now
    seconds = time.perf_counter() - t0
    if trace[-1][0] != pops:
        trace.append((pops, seconds, int(best_info[INFO_COST])))  # where the search stopped
    return _generated(best_grid, best_info, words, language, seed, pops, seconds, restarts, settings, stopped_by, trace)


def _generated(best_grid, best_info, words, language, seed, pops, seconds, restarts, settings, stopped_by, trace):
    """The search's result: the best grid, its cost checked in full against the incremental one, and the stats."""
    stats = grid_cost(best_grid, words)
    assert stats.cost5 == best_info[INFO_COST], "incremental and full cost disagree"
    return Generated(
        without_lone_letters(best_grid),  # every white cell in an entry (the cost does not change)
        language,
        seed,
        int(stats.cost5),
        int(stats.unknown_letters),
        int(stats.scrambled_letters),
        int(stats.unknown_words),
        int(stats.scrambled_words),
        int(stats.words),
        pops,
        seconds,
        restarts,
        settings,
        stopped_by,
        trace,
    )
