"""Fixed-pattern fill: every slot of a given pattern gets a distinct lexicon word.

Constraint propagation with backtracking (the kernel _kernels/fill.py; the kernel it
replaced, puzzlesearch.baselines.crossword_fill, is the benchmarks'): each slot has a domain
of words (its length, at or above the tables' frequency and score floors, given letters
respected) kept as a bitset over the words of its length, narrowed by ANDing per
(position, letter) bitsets; each cell a set of allowed letters; arc consistency between
crossing slots; the slot with the fewest words (popcount) per sqrt(1 + past failures) per
(1 + crossings not yet filled) is filled next, with its best words (word weight, that
leave the crossings the most choices) first.
A slot that runs out of words backjumps (conflict-directed, `backjump`) to the deepest
decision that explains its failures. Restarts with a little randomness and Luby-sequence
node limits run until the node budget max_nodes (time_budget is only a safety cap); between
them complete searches with doubling limits and their own slot-order weights take about
`proof_share` of the nodes (`Schedule`). An attempt that ends without a fill within its limit
was complete: it proves the pattern impossible at those floors.

Word weight and entry quality: the tables' 0-100 word `score` when they have one,
else log10 frequency (`entry_kind`). Seed 0's first attempt takes the best words in
order; other seeds perturb it (same seed, same grid). Fill quality is reported as the
mean log10 frequency (`quality`) and the mean and lowest entry quality. Slots are the
runs of 2+ white cells (a one-letter run is unchecked in that direction). A white cell in
no slot stays white: its given letter is kept; left empty it is an error.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from puzzlesearch.crossword._kernels import fill as kernel
from puzzlesearch.crossword._kernels.fill import Run, Start, Struct, Weights, WordBits
from puzzlesearch.crossword.model import Slot, runs, slots
from puzzlesearch.crossword.settings import FillSettings
from puzzlesearch.crossword.tables import WordTables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.jit import compile_ahead, compile_lock, compile_once
from puzzlesearch.progress import log

# The attempts of one fill on a search kernel: (struct, words, weights, start, fail_count, out_word) -> a
# function Run -> (status, nodes, failed slot) (trail_attempts; a baseline passes its own to fill_using).
Attempts = Callable[..., Callable[[Run], tuple[int, int, int]]]


class NoFill(PuzzleError):
    """No fill found; names the hardest slot. `proved`: the search was complete (no fill
    exists at these floors), else a budget ended it; `nodes` searched."""

    def __init__(self, message: str, proved: bool = False, nodes: int = 0, seconds: float = 0.0):
        super().__init__(message)
        self.proved = proved
        self.nodes = nodes
        self.seconds = seconds  # search time, kernel loading (compilation) excluded


@dataclass
class Filled:
    """A filled pattern."""

    grid: np.ndarray
    slots: list[Slot]
    words: list[str]
    quality: float  # mean log10(frequency) of the entries
    min_frequency: int
    nodes: int
    restarts: int
    seconds: float
    stopped_by: str = "filled"  # a fill ends only when filled; the budgets end it with NoFill
    mean_entry: float = 0.0  # mean entry quality (entry_kind: word score, else log10 frequency)
    min_entry: float = 0.0  # the lowest entry quality
    entry_kind: str = "log10 frequency"


def _structure(white: np.ndarray, slot_list: list[Slot]):
    """(slot_len, slot_cells, cross) arrays of a slot list."""
    n_cols = white.shape[1]
    width = max(s.length for s in slot_list)
    slot_len = np.array([s.length for s in slot_list], dtype=np.int64)
    slot_cells = np.zeros((len(slot_list), width), dtype=np.int64)
    owner = {}
    for i, s in enumerate(slot_list):
        for p, (r, c) in enumerate(s.cells()):
            slot_cells[i, p] = r * n_cols + c
            owner.setdefault(r * n_cols + c, []).append(i)
    cross = np.full((len(slot_list), width), -1, dtype=np.int64)
    cross_pos = np.zeros((len(slot_list), width), dtype=np.int64)
    for i, s in enumerate(slot_list):
        for p in range(s.length):
            cell = int(slot_cells[i, p])
            others = [j for j in owner[cell] if j != i]
            if others:
                cross[i, p] = others[0]
                cross_pos[i, p] = list(slot_cells[others[0], : slot_len[others[0]]]).index(cell)
    return slot_len, slot_cells, cross, cross_pos


def fill(
    pattern: np.ndarray,
    tables: WordTables,
    settings: FillSettings = FillSettings(),
    seed: int = 0,
    progress: bool = True,
    last_conflict: bool = True,
) -> Filled:
    """Fill a pattern (0 black, -1 empty, >0 given letter); NoFill names the hardest slot.

    Restarts run until settings.max_nodes nodes (the work budget: the same seed gives the
    same fill on any machine) or the time_budget cap; either ends in NoFill naming its key.
    `last_conflict`: in even attempts, after a dead end branch on the failed slot first.
    """
    return fill_using(trail_attempts, pattern, tables, settings, seed, progress, last_conflict)


def fill_using(
    attempts: Attempts,
    pattern: np.ndarray,
    tables: WordTables,
    settings: FillSettings,
    seed: int,
    progress: bool,
    last_conflict: bool,
) -> Filled:
    """`fill` with the attempts of a given search kernel (fill passes trail_attempts)."""
    pattern = np.asarray(pattern)
    white, slot_list, lone = _checked_slots(pattern, tables)
    k = tables.alphabet.size
    slot_len, slot_cells, cross, cross_pos = _structure(white, slot_list)
    word_weight = entry_weights(tables)
    full = np.int64((1 << (k + 1)) - 2)  # bits 1..k
    cell_mask = np.where(pattern.ravel() > 0, np.int64(1) << pattern.ravel().clip(0).astype(np.int64), full).astype(
        np.int64
    )
    bits = word_bits(tables, sorted({s.length for s in slot_list}))
    for s in slot_list:
        if bits[s.length].n == 0:
            short = f" (shorter than min_entry={tables.min_entry})" if s.length < tables.min_entry else ""
            raise NoFill(
                f"no fill found: slot {s.name} ({s.length} letters) has no word of that length "
                f"in lexicon {tables.name!r}{short}",
                proved=True,
            )
    slot_row0, slot_off, slot_nw, slot_pb, pos_bits, dom0 = _bit_layout(slot_list, bits)
    fail_count = np.zeros(len(slot_list), dtype=np.int64)
    out_word = np.zeros(len(slot_list), dtype=np.int64)
    codes = tables.codes
    struct = Struct(slot_len, slot_cells, cross, cross_pos)
    sib_start, sib_rows = sibling_rows(tables) if settings.distinct_stems else NO_SIBLINGS
    words = WordBits(slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, k, sib_start, sib_rows)
    stems = len(sib_rows) > 0  # the rule is in force (its name goes into the errors)
    weights = Weights(word_weight, float(settings.freq_weight))
    start = Start(dom0, cell_mask)
    _warm_up(attempts, words, weights)
    t0 = time.perf_counter()
    search = attempts(struct, words, weights, start, fail_count, out_word)
    prove = None  # the proofs' attempts, made at the first: they learn their slot order apart from the restarts
    plan = Schedule(settings, seed, last_conflict)
    next_log = PROGRESS_SECONDS
    while True:
        run = plan.next_run()
        if plan.proof and prove is None:
            prove = attempts(struct, words, weights, start, np.zeros_like(fail_count), out_word)
        status, nodes, failed = (prove if plan.proof else search)(run)
        plan.spent(nodes)
        if status == 1:
            break
        if status == 0:
            hard = slot_list[failed] if failed >= 0 else slot_list[int(np.argmax(fail_count))]
            raise NoFill(
                f"no fill found: the pattern cannot be filled with lexicon {tables.name!r}{_floors(tables)}"
                f"{' and no two forms of one word' if stems else ''} "
                f"(a complete search, {plan.nodes} nodes; hardest slot {hard.name}, {hard.length} letters); "
                f"lower crossword.fill.min_score{', set crossword.fill.distinct_stems: false' if stems else ''} "
                "or change the pattern",
                proved=True,
                nodes=plan.nodes,
                seconds=time.perf_counter() - t0,
            )
        elapsed = time.perf_counter() - t0
        hard = slot_list[int(np.argmax(fail_count))]
        _check_budgets(plan, settings, elapsed, hard, stems)
        if progress and elapsed >= next_log:
            next_log = elapsed + PROGRESS_SECONDS
            log(
                "crossword",
                f"fill: {plan.nodes} of {settings.max_nodes} nodes, {plan.attempts} attempts ({plan.proofs} complete "
                f"searches), {elapsed:.1f}s; hardest slot so far {hard.name}",
            )
    seconds = time.perf_counter() - t0
    if settings.distinct_stems:
        check_distinct_stems(out_word, tables)
    return _filled(pattern, lone, slot_list, out_word, tables, plan, seconds)


def _checked_slots(pattern: np.ndarray, tables: WordTables) -> tuple[np.ndarray, list, list]:
    """(white cells, slots of 2+ cells, lone cells) of a pattern, or one PuzzleError line naming what is wrong."""
    white = pattern != 0
    slot_list = slots(white, min_length=2)
    if not slot_list:
        raise PuzzleError("pattern has no slot of two or more cells")
    lone = lone_cells(white, slot_list)
    empty = [(r, c) for r, c in lone if pattern[r, c] < 0]
    if empty:
        raise PuzzleError(
            f"pattern: the empty cell at {_cell_name(*empty[0], pattern.shape[1], tables)} is not in "
            "any word of 2+ letters (make it '#' or give its letter)"
        )
    if tables.alphabet.size > MAX_MASK_LETTERS:
        raise PuzzleError(f"alphabet of {tables.alphabet.size} letters is too large for letter masks")
    return white, slot_list, lone


def _check_budgets(plan, settings: FillSettings, elapsed: float, hard, stems: bool) -> None:
    """NoFill once the node budget or the time cap is spent (naming the key to raise and the hardest slot)."""
    if plan.nodes >= settings.max_nodes:
        raise NoFill(
            f"no fill found within crossword.fill.max_nodes={settings.max_nodes} nodes "
            f"({plan.attempts} attempts, {elapsed:.1f}s; hardest slot {hard.name}, {hard.length} letters)"
            f"{'; raise it or set crossword.fill.distinct_stems: false (no two forms of one word)' if stems else ''}",
            nodes=plan.nodes,
            seconds=elapsed,
        )
    if elapsed >= settings.time_budget:
        raise NoFill(
            f"no fill found: stopped at the time cap crossword.fill.time_budget="
            f"{settings.time_budget:g}s after {plan.nodes} of {settings.max_nodes} nodes "
            f"(hardest slot {hard.name}); raise crossword.fill.time_budget or lower max_nodes",
            nodes=plan.nodes,
            seconds=elapsed,
        )


def _filled(pattern, lone, slot_list, out_word, tables: WordTables, plan, seconds: float) -> Filled:
    """The filled grid, its words and their quality, decoded from the chosen rows (one per slot)."""
    codes = tables.codes
    grid = np.zeros(pattern.shape, dtype=np.int8)
    for r, c in lone:  # given letters outside every slot stay as given
        grid[r, c] = pattern[r, c]
    words = []
    for i, s in enumerate(slot_list):
        w = int(out_word[i])
        for p, (r, c) in enumerate(s.cells()):
            grid[r, c] = codes[w, p]
        words.append(tables.alphabet.decode(codes[w, : s.length]))
    freqs = tables.arrays["frequency"][out_word]
    entry = entry_quality(tables)[out_word]
    quality = float(np.mean(np.log10(np.maximum(freqs, 1))))
    return Filled(
        grid,
        slot_list,
        words,
        quality,
        int(freqs.min()),
        plan.nodes,
        plan.attempts - 1,  # restarts: every attempt after the first, the proofs included
        seconds,
        mean_entry=float(entry.mean()),
        min_entry=float(entry.min()),
        entry_kind=entry_kind(tables),
    )


# A proof's word-order noise: low, since more noise makes its search (and its proof) larger (seeds 1, 2 of the
# open pattern at score 50: proved within 1M nodes at 0.1, not at 0.3), not 0, so seeds still give different fills.
PROOF_NOISE = 0.1
PROGRESS_SECONDS = 2.0  # a progress line at most this often
MAX_MASK_LETTERS = 62  # letters of an alphabet that fit a letter mask (bits 1..k of an int64)
PROOF_SEED_STRIDE = 1_000_003  # a proof's word-order seed: the fill's seed + this x its number (restarts take seed + i)
SCORE_WEIGHT = 0.15  # word weight per score point: scores 0-100 span about what ln(frequency) spans
# A constructors' scored list (the Spread the Wordlist, a word;score file) weighs its scores more: its few
# levels (the list's 20/40/60/80/100) are editors' judgements, and at 0.5 the four American patterns and the
# generated themeless ones fill with mean entry scores 0.4-1.9 higher at the list's 40 in the same time or
# less (benchmarks/RESULTS.md, 2026-12-07 evening). Our own scores keep 0.15: 0.5 doubled the medium pattern's time.
LISTED_SCORE_WEIGHT = 0.5


def has_scores(tables: WordTables) -> bool:
    """Whether the tables score their words (a `score` array that is not one constant)."""
    score = tables.arrays.get("score")
    return score is not None and len(score) > 0 and int(score.min()) != int(score.max())


def entry_kind(tables: WordTables) -> str:
    """What an entry's quality is measured in: the word score when the tables have one."""
    return "score" if has_scores(tables) else "log10 frequency"


def entry_quality(tables: WordTables) -> np.ndarray:
    """Per word row: its quality (score 0-100, else log10 frequency)."""
    if has_scores(tables):
        return tables.arrays["score"].astype(np.float64)
    return np.log10(np.maximum(tables.arrays["frequency"], 1).astype(np.float64))


def entry_weights(tables: WordTables) -> np.ndarray:
    """Per word row: its weight in the word order (a score x its weight, else ln frequency)."""
    if has_scores(tables):
        weight = LISTED_SCORE_WEIGHT if tables.meta.get("scored_list") else SCORE_WEIGHT
        return weight * tables.arrays["score"].astype(np.float64)
    return np.log(np.maximum(tables.arrays["frequency"], 1).astype(np.float64))


def lone_cells(white: np.ndarray, slot_list: list[Slot]) -> list[tuple[int, int]]:
    """White cells that are in no slot of the list (row-major order)."""
    covered = {cell for s in slot_list for cell in s.cells()}
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(white)) if (r, c) not in covered]


def _cell_name(r: int, c: int, n_cols: int, tables: WordTables) -> str:
    """'row R column C' of a reading-order cell, the column counted as in the pattern file (page order)."""
    rtl = tables.alphabet.direction == "rtl"
    return f"row {r + 1} column {n_cols - c if rtl else c + 1}" + (" (from the left)" if rtl else "")


def _floors(tables: WordTables) -> str:
    """' at score >= S' (and frequency) for the floors the tables apply, '' when none."""
    parts = [f"score >= {tables.min_score}"] if tables.min_score else []
    parts += [f"frequency >= {tables.min_frequency}"] if tables.min_frequency else []
    return f" at {' and '.join(parts)}" if parts else ""


class Schedule:
    """The attempts of one fill: restarts with noise and Luby node limits (first_nodes x 1 1 2 1 1 2
    4 ...), and between them complete searches ("proofs": noise PROOF_NOISE, limits first_nodes x 1 2 4
    ...) given about proof_share of the nodes, so that a pattern with no fill at these floors ends proved
    (a search that runs out of words within its limit) instead of at the budget. All by node counts:
    the same seed makes the same attempts on any machine."""

    def __init__(self, settings: FillSettings, seed: int, last_conflict: bool):
        self.settings, self.seed, self.last_conflict = settings, seed, last_conflict
        self.nodes = 0  # over all attempts
        self.proof_nodes = 0  # over the proofs
        self.attempts = 0
        self.restarts = 0
        self.proof_limit = settings.first_nodes
        self.proof = False  # whether the attempt under way is a proof
        self.proofs = 0

    def _proof_due(self) -> bool:
        """Whether the proofs, with the next one, stay within their share of all nodes."""
        share = self.settings.proof_share
        restart_nodes = self.nodes - self.proof_nodes
        return share > 0 and (self.proof_nodes + self.proof_limit) * (1 - share) <= restart_nodes * share

    def next_run(self) -> Run:
        """The next attempt's Run (its limit cut to the budget left)."""
        s = self.settings
        left = s.max_nodes - self.nodes
        self.attempts += 1
        self.proof = self.restarts > 0 and self._proof_due()
        if self.proof:
            noise = PROOF_NOISE if self.seed else 0.0  # seed 0: the best words first here too
            proof_seed = self.seed + PROOF_SEED_STRIDE * (self.proofs + 1)  # not a restart's seed
            self.proofs += 1
            return Run(
                int(min(self.proof_limit, left)), float(noise), int(proof_seed), self.last_conflict, bool(s.backjump)
            )
        r = self.restarts
        self.restarts += 1
        noise = s.noise if r or self.seed else 0.0  # seed 0's first attempt: the best words first
        limit = s.first_nodes * luby(r + 1)
        return Run(
            int(min(limit, left)), float(noise), int(self.seed + r), self.last_conflict and r % 2 == 0, bool(s.backjump)
        )

    def spent(self, nodes: int) -> None:
        """Count an attempt's nodes."""
        self.nodes += nodes
        if self.proof:
            self.proof_nodes += nodes
            self.proof_limit *= 2


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby restart sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if (1 << k) - 1 == i:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


class LengthBits(NamedTuple):
    """The eligible words of one length as bitsets: bit i of pos_bits[p, c] (uint64 words, shape
    (L, k + 1, ceil(n / 64))) says whether word row first + i has letter c at position p."""

    first: int  # the first word row of the length
    n: int  # eligible words (a prefix of the length's rows)
    pos_bits: np.ndarray


NO_SIBLINGS = (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64))  # WordBits.sib_*: no word has one


def sibling_rows(tables: WordTables) -> tuple[np.ndarray, np.ndarray]:
    """(sib_start, sib_rows) of WordBits: per eligible word row, the eligible rows sharing a form with
    it (clues.stem_keys: SEES and SEE, SAT and SIT), cut once per tables from the sibling lists of all
    rows that the tables hold (tables.sibling_lists); NO_SIBLINGS when no row has one."""
    if "siblings" not in tables.fill_siblings:
        start, rows = tables.arrays["sib_start"], tables.arrays["sib_rows"]
        tables.fill_siblings["siblings"] = eligible_lists(start, rows, tables.word_ok) if len(rows) else NO_SIBLINGS
    return tables.fill_siblings["siblings"]


def eligible_lists(start: np.ndarray, rows: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row lists (rows[start[r] : start[r + 1]] of row r) cut to the rows with `ok`, as int64 arrays:
    an ineligible row lists none and is listed by none."""
    owner = np.repeat(np.arange(len(ok)), np.diff(start))
    keep = ok[owner] & ok[rows]
    out = np.zeros(len(ok) + 1, dtype=np.int64)
    out[1:] = np.cumsum(np.bincount(owner[keep], minlength=len(ok)))
    return out, rows[keep].astype(np.int64)


def check_distinct_stems(out_word: np.ndarray, tables: WordTables) -> None:
    """Raise (a bug, never a user error) if two entries of a fill are forms of one word (siblings in the
    tables' lists of all rows, not the fill's cut of them)."""
    start, rows = tables.arrays["sib_start"], tables.arrays["sib_rows"]
    placed = {int(r) for r in out_word}
    for r in sorted(placed):
        clash = placed.intersection(rows[start[r] : start[r + 1]].tolist())
        if clash:
            words = [tables.alphabet.decode(tables.codes[x, : tables.arrays["lengths"][x]]) for x in (r, min(clash))]
            raise AssertionError(f"the fill holds {words[0]!r} and {words[1]!r}, forms of one word")


def word_bits(tables: WordTables, lengths: list[int]) -> dict[int, LengthBits]:
    """Per length, its LengthBits (kept on the tables for later fills)."""
    out = {}
    k = tables.alphabet.size
    for L in lengths:
        if L in tables.fill_bits:  # computed by an earlier fill with these tables
            out[L] = tables.fill_bits[L]
            continue
        a, b = tables.len_range(L)
        n = int(tables.word_ok[a:b].sum())  # eligible words are a prefix (frequency order)
        nw = max(1, -(-n // 64))
        if n == 0:  # no word (the code array may even be narrower than L): fill() reports the slot
            out[L] = LengthBits(a, 0, np.zeros((L, k + 1, nw), dtype=np.uint64))
            continue
        pos_bits = position_bits(tables.codes[a : a + n, :L], k, nw)
        pos_bits.setflags(write=False)  # shared by every later fill with these tables
        out[L] = tables.fill_bits[L] = LengthBits(a, n, pos_bits)
    return out


def position_bits(codes: np.ndarray, k: int, nw: int) -> np.ndarray:
    """(L, k + 1, nw) uint64 for the n words of codes (n, L): bit i of [p, c] set when codes[i, p] == c.

    Built a byte at a time: word i is bit i % 8 of byte i // 8, and the words of one bit (every 8th
    word) fall in distinct bytes, so each of the 8 passes sets its bits with one indexed OR."""
    L = codes.shape[1]
    stride = nw * 8  # bytes per (position, letter)
    out = np.zeros((L, k + 1, stride), dtype=np.uint8)
    flat = out.reshape(-1)
    plane = (np.arange(L, dtype=np.int64) * (k + 1) * stride)[None, :]
    for bit in range(8):
        sub = codes[bit::8].astype(np.int64)
        flat[(plane + sub * stride + np.arange(len(sub), dtype=np.int64)[:, None]).ravel()] |= np.uint8(1 << bit)
    return out.view("<u8").astype(np.uint64, copy=False)


def _bit_layout(slot_list: list[Slot], bits: dict):
    """Per-slot offsets into the domain array and pos_bits, and the full initial domains."""
    lengths = sorted(bits)
    pb_start, blocks, pos = {}, [], 0
    for L in lengths:
        pb_start[L] = pos
        blocks.append(bits[L].pos_bits.ravel())
        pos += bits[L].pos_bits.size
    pos_bits = np.concatenate(blocks)
    slot_row0 = np.array([bits[s.length].first for s in slot_list], dtype=np.int64)
    slot_nw = np.array([bits[s.length].pos_bits.shape[2] for s in slot_list], dtype=np.int64)
    slot_pb = np.array([pb_start[s.length] for s in slot_list], dtype=np.int64)
    slot_off = np.concatenate([[0], np.cumsum(slot_nw)[:-1]]).astype(np.int64)
    dom0 = np.zeros(int(slot_nw.sum()), dtype=np.uint64)
    for s, off in zip(slot_list, slot_off):
        n = bits[s.length].n
        dom0[off : off + n // 64] = np.uint64(0xFFFFFFFFFFFFFFFF)
        if n % 64:
            dom0[off + n // 64] = np.uint64((1 << (n % 64)) - 1)
    return slot_row0, slot_off, slot_nw, slot_pb, pos_bits, dom0


def trail_attempts(struct: Struct, words: WordBits, weights: Weights, start: Start, fail_count, out_word):
    """The attempts of a fill on the kernel: a function Run -> (status, nodes, failed slot).

    Level 0's arc consistency runs once (kernel.start_state) and its buffers serve every restart."""
    buffers = kernel.new_buffers(struct, words, start.cell_mask.shape[0])
    failed = kernel.start_state(struct, words, start, buffers, fail_count)
    if failed >= 0:
        return lambda run: (0, 0, failed)
    return lambda run: kernel.fill_search(struct, words, weights, buffers, fail_count, out_word, run)


def warm_up_fill() -> None:
    """Compile the fill's search loop in a forked process while this one opens or builds its word tables.

    Its first compile takes ~20 CPU s; the child compiles it for the real bundles' types
    (stand_in_fill) and leaves it in numba's cache for this process's first attempt
    (jit.compile_ahead); meanwhile this process compiles the rest (_warm_up).
    """
    compile_ahead(kernel.search_loop(), _compile_stand_in)


def stand_in_fill(n_letters: int = 26) -> tuple[Struct, WordBits, Weights]:
    """A fill's Struct, WordBits and Weights of the real ones' types over empty stand-ins (to
    compile the search before the word tables exist; tests check the types against a real fill's)."""
    i1 = np.zeros(0, dtype=np.int64)
    i2 = np.zeros((0, 1), dtype=np.int64)
    words = WordBits(
        i1, i1, i1, i1, np.zeros(1, dtype=np.uint64), np.zeros((1, 1), dtype=np.int8), n_letters, *NO_SIBLINGS
    )
    return Struct(i1, i2, i2, i2), words, Weights(np.zeros(1, dtype=np.float64), 0.0)


def _compile_stand_in() -> None:
    """What warm_up_fill's child compiles."""
    struct, words, weights = stand_in_fill()
    compile_once(kernel.new_buffers, struct, words, 1)  # (children starting together compile it once)
    buffers = kernel.new_buffers(struct, words, 1)
    i1 = np.zeros(0, dtype=np.int64)
    kernel.compile_fill_loop(struct, words, weights, buffers, i1, i1.copy(), Run(1, 0.0, 0, True, True))


def _warm_up(attempts: Attempts, words: WordBits, weights: Weights) -> None:
    """Load (or compile) the fill kernels on an empty problem, outside the timer."""
    i1 = np.zeros(0, dtype=np.int64)
    i2 = np.zeros((0, 1), dtype=np.int64)
    empty_words = words._replace(slot_row0=i1, slot_off=i1, slot_nw=i1, slot_pb=i1)
    start = Start(np.zeros(0, dtype=np.uint64), np.zeros(1, dtype=np.int64))
    with compile_lock("puzzlesearch.crossword.fill"):  # one process of a machine compiles them
        attempts(Struct(i1, i2, i2, i2), empty_words, weights, start, i1.copy(), i1.copy())(Run(1, 0.0, 0, True, True))


# ---------------------------------------------------------------- patterns


class PatternDeadline(PuzzleError):
    """The wall-clock deadline passed while a random pattern was being made."""


def american_pattern(
    size: int = 15,
    black_fraction: float = 0.16,
    seed: int = 0,
    min_word: int = 3,
    max_word: int = 9,
    tries: int = 200,
    deadline: float | None = None,
) -> np.ndarray:
    """A random American-style pattern: 180-degree symmetric, all words >= min_word letters,
    white cells connected, about black_fraction black cells; 0 black, -1 empty.

    Black pairs go first into runs longer than max_word, then anywhere. `deadline` (a
    time.perf_counter() value): PatternDeadline once it passes (checked at every black pair)."""
    if size < min_word:
        raise PuzzleError(
            f"--size {size}: a pattern with words of at least {min_word} letters needs a size of at least {min_word}"
        )
    if max_word < min_word:
        raise PuzzleError(f"--max-word {max_word}: must be at least {min_word}")
    if not 0 <= black_fraction < 1:
        raise PuzzleError(f"--black {black_fraction:g}: expected a fraction from 0 to below 1")
    rng = np.random.default_rng(seed)
    target = int(round(black_fraction * size * size))
    for _ in range(tries):
        white = np.ones((size, size), dtype=bool)
        for _ in range(40 * size):
            if deadline is not None and time.perf_counter() >= deadline:
                raise PatternDeadline(f"no {size}x{size} pattern made before the time cap")
            long_cells = _long_run_cells(white, max_word)
            if not long_cells and (~white).sum() >= target:
                break
            if long_cells:
                r, c = long_cells[int(rng.integers(len(long_cells)))]
            else:
                r, c = int(rng.integers(size)), int(rng.integers(size))
            if not white[r, c]:
                continue
            trial = white.copy()
            trial[r, c] = trial[size - 1 - r, size - 1 - c] = False
            if not _short_runs(trial, min_word):
                white = trial
        blacks = int((~white).sum())
        if (
            abs(blacks - target) <= 2
            and _longest(white) <= max_word
            and not _short_runs(white, min_word)
            and _connected(white)
        ):
            return np.where(white, -1, 0).astype(np.int8)
    raise PuzzleError(f"no {size}x{size} pattern with {black_fraction:.0%} black cells found")


def _long_run_cells(white: np.ndarray, max_word: int) -> list[tuple[int, int]]:
    """Cells inside runs longer than max_word (candidates for a black cell)."""
    out = []
    for transpose in (False, True):
        w = white.T if transpose else white
        for i, line in enumerate(w):
            for start, length in runs(line):
                if length > max_word:
                    cells = [(i, j) for j in range(start, start + length)]
                    out += [(b, a) if transpose else (a, b) for a, b in cells]
    return out


def _runs_of(white: np.ndarray):
    """Lengths of every white run, rows then columns."""
    for line in list(white) + list(white.T):
        n = 0
        for v in list(line) + [False]:
            if v:
                n += 1
            else:
                if n:
                    yield n
                n = 0


def _short_runs(white: np.ndarray, min_word: int) -> bool:
    """Whether some white run is shorter than min_word."""
    return any(n < min_word for n in _runs_of(white))


def _longest(white: np.ndarray) -> int:
    """Length of the longest white run (0 when none)."""
    return max(_runs_of(white), default=0)


def _connected(white: np.ndarray) -> bool:
    """Whether the white cells form one orthogonally connected region."""
    cells = list(zip(*np.nonzero(white)))
    if not cells:
        return False
    seen, stack = {cells[0]}, [cells[0]]
    while stack:
        r, c = stack.pop()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nb = (r + dr, c + dc)
            if 0 <= nb[0] < white.shape[0] and 0 <= nb[1] < white.shape[1] and white[nb] and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(cells)


def pattern_text(pattern: np.ndarray) -> str:
    """A pattern as lines of '#' and '.'."""
    return "\n".join("".join("#" if v == 0 else "." for v in row) for row in pattern) + "\n"
