"""Unconstrained crossword generation by progressive search.

1. Initial grids: a black-cell strategy lays out a pattern and fills every across slot
   with a random lexicon word of its length (one-letter slots get a filler letter):
   - `fill1` (row pass): rows left to right; a cell whose column already has a vertical
     run of max_down letters is black; between those, words of random lengths
     (<= max_across) each followed by a black cell.
   - `fill2` (column pass): each column is cut into vertical words of random lengths
     (<= max_down) separated by black cells; across runs longer than max_across are
     then cut by extra black cells (which only shortens vertical words).
2. Progressive search (kernels.progressive_search): a bounded queue of the Q cheapest
   grids; pop the cheapest, make NB mutants (one across word replaced by another word of
   the same length), keep those that fit in the queue; stop at cost 0 or the budget.
The cost f = unknown vertical letters + 0.2 x scrambled vertical letters (kernels.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from puzzlesearch.crossword import kernels
from puzzlesearch.crossword.model import Language, runs
from puzzlesearch.crossword.tables import WordTables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log

STRATEGIES = ("fill1", "fill2")
CHUNK_POPS = 256  # pops per kernel call between time checks
MIN_SIZE, MAX_SIZE = 3, 40  # grid sides (as in workflow/schemas/crossword.schema.yaml)


@dataclass(frozen=True)
class SearchSettings:
    """Knobs of the progressive search (config section `crossword`)."""

    size: int = 12
    max_across: int = 8  # longest across word
    max_down: int = 4  # longest vertical word (fill1: forced black; fill2: cut lengths)
    queue: int = 64  # Q: grids kept in the queue
    mutants: int = 16  # NB: mutants per pop
    strategy: str = "fill1"
    focus: float = 0.9  # probability a mutation hits an across word crossing a costly down word
    time_budget: float = 10.0  # seconds per puzzle
    max_pops: int = 0  # 0 = no limit (then only the time budget stops a search)
    length_bias: float = 1.0  # word lengths are drawn with weight length**length_bias
    stall_pops: int = 2000  # restart from new initial grids after this many pops without gain (0 = never)

    def check(self) -> None:
        """PuzzleError naming the bad setting."""
        if self.strategy not in STRATEGIES:
            raise PuzzleError(f"crossword.strategy: {self.strategy!r} is not one of {', '.join(STRATEGIES)}")
        for key in ("size", "max_across", "max_down", "queue", "mutants"):
            if getattr(self, key) < 1:
                raise PuzzleError(f"crossword.{key}: must be at least 1 (got {getattr(self, key)})")
        if not self.time_budget > 0:
            raise PuzzleError(f"crossword.time_budget: must be greater than 0 seconds (got {self.time_budget:g})")
        if not 0.0 <= self.focus <= 1.0:
            raise PuzzleError(f"crossword.focus: must be between 0 and 1 (got {self.focus})")


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
    settings: SearchSettings = field(repr=False, default_factory=SearchSettings)

    @property
    def cost(self) -> float:
        return self.cost5 / 5

    @property
    def black_cells(self) -> int:
        return int((self.grid == 0).sum())


# ---------------------------------------------------------------- initial grids

class _Filler:
    """Random words and lengths for the initial grids."""

    def __init__(self, tables: WordTables, language: Language, size: int, rng: np.random.Generator,
                 length_bias: float = 1.0):
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


def initial_fill1(f: _Filler, s: SearchSettings) -> np.ndarray:
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
            grid[r, c:c + length] = f.word(length)
            c += length + 1  # the cell after a word is black (or forced, or the edge)
        run = np.where(grid[r] != 0, run + 1, 0)
    return grid


def initial_fill2(f: _Filler, s: SearchSettings) -> np.ndarray:
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
                grid[r, c:c + length] = f.word(length)
                c += length + 1
    return grid


INITIAL = {"fill1": initial_fill1, "fill2": initial_fill2}


def across_slots(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(slots as rows of (row, col, length), cell -> slot index with -1 for black)."""
    n_rows, n_cols = grid.shape
    out, cell_slot = [], np.full(grid.shape, -1, dtype=np.int32)
    for r in range(n_rows):
        for c, length in runs(grid[r] != 0):
            cell_slot[r, c:c + length] = len(out)
            out.append((r, c, length))
    return np.array(out, dtype=np.int64).reshape(-1, 3), cell_slot


# ---------------------------------------------------------------- the search

def generate(tables: WordTables, language: Language, settings: SearchSettings, seed: int = 0,
             progress: bool = True) -> Generated:
    """One grid by progressive search from `settings.queue` random initial grids."""
    settings.check()
    n = settings.size
    rng = np.random.default_rng(seed)
    filler = _Filler(tables, language, n, rng, settings.length_bias)
    if not any(filler.has_words(L) for L in range(2, min(n, settings.max_across) + 1)):
        raise PuzzleError(f"lexicon {tables.name!r} has no words of length 2..{min(n, settings.max_across)}")
    make = INITIAL[settings.strategy]
    args = tables.kernel_args()
    kernels.grid_cost(np.zeros((2, 2), dtype=np.int8), *args)  # load the kernels before the timer
    t0 = time.perf_counter()
    n_pat = settings.queue
    qgrid = np.zeros((n_pat, n, n), dtype=np.int8)
    slot_row = np.zeros((n_pat, n * n), dtype=np.int64)
    slot_col = np.zeros_like(slot_row)
    slot_len = np.zeros_like(slot_row)
    n_slots = np.zeros(n_pat, dtype=np.int64)
    cell_slot = np.zeros((n_pat, n, n), dtype=np.int32)
    qcost = np.zeros(n_pat, dtype=np.int64)
    qkey = np.zeros(n_pat, dtype=np.int64)

    def fresh_queue() -> None:
        """Q new random initial grids (each with its own black pattern)."""
        for p in range(n_pat):
            grid = make(filler, settings)
            qgrid[p] = grid
            sl, cs = across_slots(grid)
            k = len(sl)
            slot_row[p, :k], slot_col[p, :k], slot_len[p, :k] = sl[:, 0], sl[:, 1], sl[:, 2]
            n_slots[p], cell_slot[p] = k, cs
            qcost[p] = kernels.grid_cost(grid, *args)[0]
            qkey[p] = kernels.grid_key(grid)

    fresh_queue()
    qpat = np.arange(n_pat, dtype=np.int64)
    best = int(np.argmin(qcost))
    best_grid = qgrid[best].copy()
    best_info = np.array([qcost[best], best], dtype=np.int64)
    len_start, len_count = filler.start, filler.count
    fillers = filler.fillers
    kernels.seed_rng(seed)
    warm = time.perf_counter()
    kernels.progressive_search(  # zero pops: loads (or compiles) the kernel outside the timer
        qgrid, qcost, qpat, qkey, n_pat, best_grid, best_info, slot_row, slot_col, slot_len, n_slots,
        cell_slot, *args, len_start, len_count, fillers, settings.mutants, settings.focus, 0)
    t0 += time.perf_counter() - warm  # kernel loading is not search time
    qn, pops, last_log = n_pat, 0, t0
    restarts, last_gain, last_best = 0, 0, best_info[0]
    while best_info[0] > 0:
        if settings.max_pops and pops >= settings.max_pops:
            break
        if qn == 0 or (settings.stall_pops and pops - last_gain >= settings.stall_pops):
            fresh_queue()  # stagnation: start again from new initial grids, keep the best grid
            qn, restarts, last_gain = n_pat, restarts + 1, pops
            qpat[:] = np.arange(n_pat)
            i = int(np.argmin(qcost))
            if qcost[i] < best_info[0]:
                best_grid[:, :] = qgrid[i]
                best_info[0], best_info[1] = qcost[i], i
            continue
        chunk = CHUNK_POPS if not settings.max_pops else min(CHUNK_POPS, settings.max_pops - pops)
        qn, done = kernels.progressive_search(
            qgrid, qcost, qpat, qkey, qn, best_grid, best_info,
            slot_row, slot_col, slot_len, n_slots, cell_slot, *args,
            len_start, len_count, fillers, settings.mutants, settings.focus, chunk)
        pops += done
        if best_info[0] < last_best:
            last_best, last_gain = best_info[0], pops
        now = time.perf_counter()
        if now - t0 >= settings.time_budget:
            break
        if progress and now - last_log > 5:
            log("crossword", f"seed {seed}: {pops} pops, {restarts} restarts, best cost {best_info[0] / 5:.1f}")
            last_log = now
    seconds = time.perf_counter() - t0
    stats = kernels.grid_cost(best_grid, *args)
    assert stats[0] == best_info[0], "incremental and full cost disagree"
    return Generated(best_grid, language, seed, int(stats[0]), int(stats[1]), int(stats[2]),
                     int(stats[3]), int(stats[4]), int(stats[5]), pops, seconds, restarts, settings)


# ---------------------------------------------------------------- config and languages

def settings_from_config(section: dict, size: int) -> SearchSettings:
    """SearchSettings from the `crossword:` config section for one grid size."""
    if not MIN_SIZE <= int(size) <= MAX_SIZE:
        raise PuzzleError(f"--size {size}: expected a grid size from {MIN_SIZE} to {MAX_SIZE}")
    return SearchSettings(size=int(size), max_across=min(int(section["max_across"]), int(size)),
                          max_down=int(section["max_down"]), queue=int(section["queue"]),
                          mutants=int(section["mutants"]), strategy=section["strategy"],
                          focus=float(section["focus"]), time_budget=float(section["time_budget"]),
                          max_pops=int(section["max_pops"]), length_bias=float(section["length_bias"]),
                          stall_pops=int(section["stall_pops"]))


def open_language(code: str, config: dict, root, min_frequency: int | None = None,
                  lexicon: str | None = None) -> tuple[WordTables, Language]:
    """The tables (with the frequency floor) and the Language of en, ar or num."""
    from puzzlesearch.crossword.model import NUMERIC_FILLERS
    from puzzlesearch.crossword.tables import NUMERIC, open_tables

    section = config["crossword"]
    if code not in ("en", "ar", "num"):
        raise PuzzleError(f"--lang {code!r}: expected en, ar or num")
    if min_frequency is None:
        min_frequency = int(section["min_frequency"].get(code, 0))
    if min_frequency < 0:
        raise PuzzleError(f"frequency floor must be >= 0 (got {min_frequency})")
    if code == "num":
        tables = open_tables(NUMERIC, config, root, min_frequency)
        return tables, Language("num", NUMERIC, tables.alphabet, NUMERIC_FILLERS)
    name = lexicon or section["lexicons"][code]
    tables = open_tables(name, config, root, min_frequency)
    return tables, Language(code, tables.name, tables.alphabet, tables.alphabet.letters)
