"""Kociemba's two-phase algorithm: G0 -> G2 = <U,D,R2,L2,F2,B2> -> solved, in six directions with pre-moves.

Phase 1 (twist, flip, E-slice positions) is guided by an exact distance table over the
classes of (E slice, flip) under the 16 symmetries that keep the U-D axis, times the twist
(tables/phases.py `tp1_sym`), read through its move-mask form `next_tp1`: a node's entry
says how each move changes the distance, so only useful children are made; phase 2 (corner permutation, U/D-edge permutation, E-edge
permutation) by the largest of three tables: corner permutation classes under the same
symmetries x U/D edges (`tp2_sym`), corners x E edges and U/D edges x E edges; that bound
is checked before a phase 2 starts, so most phase-1 solutions end there. As in
Kociemba's and Chen Shuang's (min2phase) solvers the search runs on six versions of the
cube at once (interleaved on one thread): the cube turned so that each of the three axes
is the U-D axis, and the inverses of those three, for each phase-1 length in turn.

Two modes:
  default     keep looking for shorter totals until a solution reaches `target_length`
              (after a few nodes) or the node budget is spent after a first solution;
  max_length  (config cube.twophase.max_length, --max-length N) stop at the first solution
              of at most N moves, however long it takes (N = 20 is always reachable).
Pre-moves (cube.twophase.pre_moves, min2phase's pre-scramble): each direction is also searched
after every sequence q of up to that many moves (its first a quarter turn off the U-D axis),
and a solution of that cube, followed by q, solves the direction's cube; the kernel counts q
in the phase-1 length, so these starts join the rounds in order of length.
Lengths are in the metric cube.twophase.metric (--metric): htm (a move counts 1) or qtm (a half
turn counts 2; God's number 26): the search order stays the same, a solution is kept when it
is shorter in the metric, and a QTM max_length below 26 may not be reachable.
The time limit stops either in any case (with the best solution so far, or an error).
"""

from __future__ import annotations

import functools
import os
import queue
import threading
from typing import NamedTuple

import numpy as np

from puzzlesearch.cube._kernels.bundles import AxisSyms, CubieMoves, Phase1, Phase2, PreMoves, Starts, TwoPhaseLimits
from puzzlesearch.cube._kernels.cubies import direction_starts
from puzzlesearch.cube._kernels.phase_next import select_table
from puzzlesearch.cube._kernels.phases import FSMOVE_SYM_AT, twophase_sym_search
from puzzlesearch.cube.io import merge_moves, metric_length, move_cost
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.constants import STOP_NAMES, Stop
from puzzlesearch.cube.model.coords import EDGE_MASK_RANK
from puzzlesearch.cube.model.cubie import MOVE_EP, SOLVED, CubieCube
from puzzlesearch.cube.model.symmetry import (
    AXIS_SYMS,
    MOVE_CONJ,
    N_SYM_UD,
    SYM_INV,
    SYM_MASK,
    SYM_MULT,
    SYM_SHIFT,
    SYMMETRIES,
    conjugate,
)
from puzzlesearch.cube.settings import TwoPhaseOptions
from puzzlesearch.cube.tables.phases import Tables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.jit import call_kernel, compile_ahead, compile_once

__all__ = ["DIRECTIONS", "TwoPhaseOptions", "search", "solve"]

# (symmetry, inverse?) of each search direction: the identity, U-D turned to R-L and to F-B.
DIRECTIONS = tuple((s, inverse) for inverse in (False, True) for s in AXIS_SYMS)
UD_MOVE_CONJ = np.ascontiguousarray(MOVE_CONJ[:N_SYM_UD])  # the class look-ups' symmetries


def _phase1_masks() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(face_map, mirror, select, after) of Phase1: how the U-D symmetries map faces and turns, move masks."""
    n_faces = K.N_MOVES // 3
    face_map = UD_MOVE_CONJ[:, ::3] // 3
    mirror = (UD_MOVE_CONJ[:, 0] % 3 == 2).astype(np.int64)
    for p in range(3):  # every symmetry moves whole faces, reversing all turns or none
        want = 3 * face_map + np.where(mirror[:, None] == 1, 2 - p, p)
        if (UD_MOVE_CONJ[:, p::3] != want).any():
            raise AssertionError("a U-D symmetry does not map faces to faces")
    after = np.zeros(K.N_MOVES + 1, dtype=np.int64)
    after[0] = (1 << K.N_MOVES) - 1
    for prev in range(K.N_MOVES):
        f, g = prev // 3, np.arange(K.N_MOVES) // 3
        ok = (g != f) & ~((g % (n_faces // 2) == f % (n_faces // 2)) & (g < f))
        after[prev + 1] = int((ok.astype(np.int64) << np.arange(K.N_MOVES)).sum())
    return np.ascontiguousarray(face_map), mirror, select_table(), after


PHASE1_MASKS = _phase1_masks()
UD_SYM_MULT = np.ascontiguousarray(SYM_MULT[:N_SYM_UD, :N_SYM_UD])
CACHE_LINE = 64  # bytes: an fsmove row and a corner move row fill one each (the kernel prefetches it once)


def _line_aligned(n_rows: int, dtype) -> np.ndarray:
    """Zeros, (n_rows x one cache line of dtype), each row one cache line aligned to it."""
    n = n_rows * CACHE_LINE
    raw = np.zeros(n + CACHE_LINE, dtype=np.uint8)
    skip = -raw.ctypes.data % CACHE_LINE
    return raw[skip : skip + n].view(dtype).reshape(n_rows, CACHE_LINE // np.dtype(dtype).itemsize)


def fsmove_of(tables: Tables) -> tuple[np.ndarray, np.ndarray]:
    """Each flip x slice class representative's moves, one 64-byte-aligned cache line a class, as two
    views of one table: (classes x 32) uint16, the class after move m in column m (m < 18), and
    (classes x 64) uint8, the symmetry that takes it there in byte FSMOVE_SYM_AT + m. Derived from
    the verified sym_fsclass, sym_fsrep and move tables once per Tables (min2phase's FlipSliceMove;
    ~50 ms)."""
    return tables.derived("fsmove", _fsmove)


def _fsmove(tables: Tables) -> tuple[np.ndarray, np.ndarray]:
    fsclass, reps = tables.sym("sym_fsclass"), tables.sym("sym_fsrep").astype(np.int64)
    flip, eslice = tables.move("flip"), tables.move("eslice")
    fl, sl = reps % K.N_FLIP, reps // K.N_FLIP
    moved = fsclass[eslice[sl].astype(np.int64) * K.N_FLIP + flip[fl]].astype(np.int64)  # (classes, 18)
    if len(reps) > np.iinfo(np.uint16).max + 1:
        raise AssertionError(f"{len(reps):,} flip x slice classes do not fit 16 bits")
    syms = _line_aligned(len(reps), np.uint8)
    classes = syms.view(np.uint16)
    classes[:, : K.N_MOVES] = moved >> SYM_SHIFT
    syms[:, FSMOVE_SYM_AT : FSMOVE_SYM_AT + K.N_MOVES] = moved & SYM_MASK
    return classes, syms


UNBOUNDED_NODES = 2**62  # max_length mode: only the length (and the time cap) ends the search
QTM_LONGEST = 2  # QTM: a move counts at most 2, so the longest total searched doubles


def solve(cube: CubieCube, tables: Tables, options: TwoPhaseOptions = TwoPhaseOptions()) -> list[int]:
    """A solution (move numbers)."""
    moves, _nodes, _stop = search(cube, tables, options)
    return moves


def direction_cube(cube: CubieCube, s: int, inverse: bool) -> CubieCube:
    """The cube a direction searches: (the inverse of) `cube`, conjugated by symmetry s."""
    return conjugate(cube.inverse() if inverse else cube, s)


INVERSE_MOVE = np.array([3 * (m // 3) + 2 - m % 3 for m in range(K.N_MOVES)], dtype=np.int64)


def back_to_cube(moves, s: int, inverse: bool) -> list[int]:
    """A solution of direction_cube(cube, s, inverse) turned into a solution of `cube`."""
    out = MOVE_CONJ[SYM_INV[s]][np.asarray(moves, dtype=np.int64)]
    if inverse:
        out = INVERSE_MOVE[out[::-1]]
    return out.tolist()


def _axis_syms() -> AxisSyms:
    """The cubie action of AXIS_SYMS for direction_starts."""
    syms = [SYMMETRIES[s] for s in AXIS_SYMS]
    rows = lambda f: np.array([f(sym) for sym in syms], dtype=np.int64)  # noqa: E731
    return AxisSyms(
        rows(lambda s: s.corner_map),
        rows(lambda s: s.corner_offset),
        rows(lambda s: np.argsort(s.corner_map)),
        rows(lambda s: s.edge_map),
        rows(lambda s: s.edge_offset),
        rows(lambda s: np.argsort(s.edge_map)),
        rows(lambda s: -1 if s.mirror else 1),
    )


AXIS_DATA = _axis_syms()

# The pre-move next to phase 2: a quarter turn off the U-D axis, one of each face's two (the other, and
# any G2 move, is this one after a phase-2 move: phase 2 finds those).
FIRST_PRE_MOVES = tuple(3 * K.FACES.index(f) for f in "RFLB")


class PreMoveSet(NamedTuple):
    """A pre-move depth's sequences (first the empty one), the kernel's PreMoves, and each sequence's
    cube SOLVED.apply(q) as CubieMoves rows (direction_starts)."""

    sequences: tuple[tuple[int, ...], ...]
    kernel: PreMoves
    cubes: CubieMoves


def _pre_sequences(max_moves: int) -> list[tuple[int, ...]]:
    """Every pre-move sequence of up to max_moves moves (first the empty one), in the order they follow phase 2."""
    seqs, layer = [()], [(m,) for m in FIRST_PRE_MOVES]
    after = PHASE1_MASKS[-1]  # after[prev + 1]: the moves that may follow prev (their bits set)
    for _ in range(max_moves):
        seqs += layer
        layer = [q + (m,) for q in layer for m in range(K.N_MOVES) if after[q[-1] + 1] >> m & 1]
    return seqs


@functools.cache
def pre_move_set(max_moves: int) -> PreMoveSet:
    """The pre-move sequences of up to max_moves moves (settings: cube.twophase.pre_moves), made once."""
    seqs = _pre_sequences(max_moves)
    moves = np.full((len(seqs), max(max_moves, 1)), -1, dtype=np.int64)
    for i, q in enumerate(seqs):
        moves[i, : len(q)] = q
    cubes = [SOLVED.apply(q) for q in seqs]
    rows = lambda f: np.array([f(c) for c in cubes], dtype=np.int64)  # noqa: E731
    cubies = CubieMoves(rows(lambda c: c.cp), rows(lambda c: c.co), rows(lambda c: c.ep), rows(lambda c: c.eo))
    return PreMoveSet(tuple(seqs), PreMoves(moves, np.array([len(q) for q in seqs], dtype=np.int64)), cubies)


def _starts(cube: CubieCube, pre: PreMoveSet) -> Starts:
    """The kernel's start coordinates of each direction after each pre-move sequence (rows: direction
    DIRECTIONS[row // P] after pre.sequences[row % P]), in one kernel call."""
    n = len(DIRECTIONS) * len(pre.sequences)
    starts = Starts(
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty((n, K.N_CORNERS), np.int64),
        np.empty((n, K.N_EDGES), np.int64),
    )
    cp, co, ep, eo = (np.array(x, dtype=np.int64) for x in (cube.cp, cube.co, cube.ep, cube.eo))
    direction_starts(cp, co, ep, eo, AXIS_DATA, pre.cubes, EDGE_MASK_RANK, starts)
    return starts


def kernel_tables(tables: Tables) -> tuple[Phase1, Phase2]:
    """The phase-1 and phase-2 bundles of twophase_sym_search (made once per Tables)."""
    return tables.derived("twophase_bundles", _kernel_tables)


# The move and conjugation tables the phase-1 nodes read, in 16 bits: a node's reads then stay in
# cache more often; the corner rows are padded to one 64-byte line each, so a child's corner row
# takes one prefetch (benchmarks/RESULTS.md, 2026-11-29).
NARROW_TWIST, NARROW_SLICE, NARROW_CPERM = np.int16, np.int16, np.uint16


def _narrow(table: np.ndarray, dtype) -> np.ndarray:
    """A verified table's values in a narrower integer type (they are checked to fit)."""
    info = np.iinfo(dtype)
    if table.size and (table.min() < info.min or table.max() > info.max):
        raise AssertionError(f"table values {table.min()}..{table.max()} do not fit {info.dtype}")
    return table.astype(dtype)


def _line_rows(table: np.ndarray, dtype) -> np.ndarray:
    """A move table in `dtype`, each row padded to one cache line and aligned to it (padding: 0)."""
    narrow = _narrow(table, dtype)
    width = CACHE_LINE // narrow.itemsize
    if narrow.shape[1] > width:
        raise AssertionError(f"rows of {narrow.shape[1]} {narrow.dtype} entries do not fit a cache line")
    rows = _line_aligned(narrow.shape[0], dtype)
    rows[:, : narrow.shape[1]] = narrow
    return rows


def _kernel_tables(tables: Tables) -> tuple[Phase1, Phase2]:
    p1 = Phase1(
        _narrow(tables.move("twist"), NARROW_TWIST),
        _narrow(tables.move("slice_sorted"), NARROW_SLICE),
        tables.sym("sym_fsclass"),
        *fsmove_of(tables),
        UD_SYM_MULT,
        _narrow(tables.sym("sym_twistconj"), NARROW_TWIST),
        tables.next(),
        UD_MOVE_CONJ,
        *PHASE1_MASKS,
    )
    p2 = Phase2(
        _line_rows(tables.move("cperm"), NARROW_CPERM),
        tables.move("udedge"),
        tables.move("sliceperm"),
        tables.prune("tp2_corner"),
        tables.prune("tp2_edge"),
        MOVE_EP,
        np.array(K.G2_MOVES, dtype=np.int64),
        tables.sym("sym_cpclass"),
        tables.sym("sym_udconj"),
        tables.prune("tp2_sym"),
    )
    return p1, p2


def stand_in_kernel_tables() -> tuple[Phase1, Phase2]:
    """Phase1 and Phase2 of the loaded tables' types over one-entry stand-ins (the constant tables
    real), to compile the search before the tables exist; tests check the types against real ones."""
    table = np.zeros((1, 1), dtype=np.int32)  # move tables and the 2-d symmetry look-ups
    twist, sslice, cperm = (np.zeros((1, 1), dtype=t) for t in (NARROW_TWIST, NARROW_SLICE, NARROW_CPERM))
    fsmove, fsmove_sym = np.zeros((1, 1), dtype=np.uint16), np.zeros((1, 1), dtype=np.uint8)
    lookup = np.zeros(1, dtype=np.int32)  # the 1-d symmetry look-ups
    prune = np.zeros(1, dtype=np.int8)
    next_tp1 = np.zeros(1, np.uint32)
    p1 = Phase1(twist, sslice, lookup, fsmove, fsmove_sym, UD_SYM_MULT, twist, next_tp1, UD_MOVE_CONJ, *PHASE1_MASKS)
    p2 = Phase2(cperm, table, table, prune, prune, MOVE_EP, np.array(K.G2_MOVES, dtype=np.int64), lookup, table, prune)
    return p1, p2


def warm_up_twophase() -> None:
    """Compile the two-phase search in a forked process while this one builds or loads its tables.

    Its first compile takes ~8 CPU s; the child compiles it for the real tables' types
    (stand_in_kernel_tables) and leaves it in numba's cache for this process's first search
    (jit.compile_ahead).
    """
    compile_ahead(twophase_sym_search, _compile_stand_in)


def _compile_stand_in() -> None:
    """What warm_up_twophase's child compiles."""
    p1, p2 = stand_in_kernel_tables()
    pre = pre_move_set(TwoPhaseOptions().pre_moves)
    shared = np.zeros(1, dtype=np.int64)
    compile_once(twophase_sym_search, _starts(SOLVED, pre), pre.kernel, p1, p2, limits(TwoPhaseOptions()), 0.0, shared)


def move_costs(metric: str) -> np.ndarray:
    """The kernel's cost of each of the 18 moves in a metric."""
    return np.array([move_cost(m, metric) for m in range(K.N_MOVES)], dtype=np.int64)


@functools.lru_cache(maxsize=64)
def limits(options: TwoPhaseOptions) -> TwoPhaseLimits:
    """The kernel's limits: max_length, target_length, phase2_max, node_budget, min_nodes, move costs
    (lengths in options.metric: QTM searches totals up to QTM_LONGEST times the HTM ones)."""
    cost = move_costs(options.metric)
    if options.max_length:
        n = int(options.max_length)
        return TwoPhaseLimits(n, n, int(options.phase2_max), UNBOUNDED_NODES, 0, cost)
    longest = options.search_length * (QTM_LONGEST if options.metric == "qtm" else 1)
    values = (longest, options.target_length, options.phase2_max, options.node_budget, options.min_nodes)
    return TwoPhaseLimits(*(int(v) for v in values), cost)


def search(cube: CubieCube, tables: Tables, options: TwoPhaseOptions) -> tuple[list[int], int, str]:
    """(solution, nodes visited, what stopped it: complete/target/nodes/time).

    On options.threads threads the shortest of their answers (the first thread's on a tie),
    their nodes summed, and what stopped the search that found it.

    The empty list only for the solved cube; PuzzleError when out of time (or, with
    max_length, when no solution that short exists within phase2_max) with no solution.
    """
    if cube.is_solved:
        return [], 0, STOP_NAMES[Stop.COMPLETE]
    p1, p2 = kernel_tables(tables)
    pre = pre_move_set(options.pre_moves)
    starts, lim = _starts(cube, pre), limits(options)
    shared = np.array([lim.max_length + 1], dtype=np.int64)  # the best total of the searches on all threads
    args = (starts, pre.kernel, p1, p2, lim, float(options.time_limit), shared)
    if not twophase_sym_search.overloads:  # (typing the arguments costs more than a solve: once only; not
        # `.signatures`, which rebuilds its list at ~11 us a call)
        compile_once(twophase_sym_search, *args)  # waits for warm_up_twophase's child, if compiling
    runs = _on_threads(args, options.threads, len(pre.sequences))  # (one thread: this one only)
    nodes = sum(int(result[2]) for _rows, result in runs)
    answers = []  # (length in the metric, run, moves, stop) of each run that found one
    for i, (rows, (moves, k, _nodes, stop, _leaves, _phase2)) in enumerate(runs):
        if len(moves):
            row = int(rows[int(k)])
            s, inverse = DIRECTIONS[row // len(pre.sequences)]
            moves = [*moves.tolist(), *pre.sequences[row % len(pre.sequences)]]  # phase 1, phase 2, the pre-moves
            moves = merge_moves(back_to_cube(moves, s, inverse))
            answers.append((metric_length(moves, options.metric), i, moves, stop))
    if not answers:
        out_of_time = any(result[3] == Stop.TIME for _rows, result in runs)
        raise PuzzleError(no_solution_message(options, nodes, out_of_time))
    _length, _run, moves, stop = min(answers)
    return moves, nodes, STOP_NAMES[stop]


def _on_threads(args, n_threads: int, n_pre: int) -> list[tuple[np.ndarray, tuple]]:
    """twophase_sym_search on n_threads threads at once (nogil), each on the rows of its share of the
    six directions, all sharing args' best total; (rows, result) of each. Share 0 runs on this thread
    (call_kernel: a second Ctrl-C inside the kernel's clock is a KeyboardInterrupt, not a traceback),
    the others on the waiting worker threads (_WORKERS)."""
    starts, rest = args[0], args[1:]
    shares = _shares(len(DIRECTIONS), n_pre, n_threads)
    jobs = [_WORKERS.submit(twophase_sym_search, Starts(*(a[rows] for a in starts)), *rest) for rows in shares[1:]]
    own = starts if len(shares) == 1 else Starts(*(a[shares[0]] for a in starts))  # (one share: all the rows)
    first = call_kernel(twophase_sym_search, own, *rest)
    return list(zip(shares, [first, *(job.result() for job in jobs)]))


class _Job:
    """One call handed to a worker thread: its result, or the exception it raised, once done."""

    def __init__(self, call) -> None:
        self.call, self.done = call, threading.Event()
        self.value, self.error = None, None

    def result(self):
        """Wait for the call; its result (or raise its exception here)."""
        self.done.wait()
        if self.error is not None:
            raise self.error
        return self.value


class _WorkerThreads:
    """Daemon threads that wait for calls, started on first use and kept: a new thread for every
    cube started its search ~0.5 ms late (measured: 10.97 ms wall a cube at a 10 ms cap on 2
    threads). Daemons end with the process, so Ctrl-C never waits for a search on a worker."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)  # a forked child (--jobs) has none of the threads

    def _reset(self) -> None:
        self.calls: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.busy = 0  # calls handed over and not yet done
        self.lock = threading.Lock()

    def submit(self, fn, *args) -> _Job:
        """Run fn(*args) on a waiting worker (one more is started when every one is busy)."""
        job = _Job(lambda: fn(*args))
        with self.lock:
            self.busy += 1
            if self.busy > len(self.threads):
                thread = threading.Thread(target=self._serve, daemon=True, name="twophase-worker")
                self.threads.append(thread)
                thread.start()
        self.calls.put(job)
        return job

    def _serve(self) -> None:
        while True:
            job = self.calls.get()
            try:
                job.value = job.call()
            except BaseException as exc:  # handed to the waiting thread
                job.error = exc
            finally:
                with self.lock:
                    self.busy -= 1
                job.done.set()


_WORKERS = _WorkerThreads()


@functools.cache
def _shares(n_base: int, n_pre: int, n_threads: int) -> tuple[np.ndarray, ...]:
    """The start rows of each thread: direction b (its n_pre rows) goes to thread b % n_threads."""
    shares = [[b * n_pre + p for b in range(t, n_base, n_threads) for p in range(n_pre)] for t in range(n_threads)]
    return tuple(np.array(rows, dtype=np.int64) for rows in shares if rows)


def no_solution_message(options: TwoPhaseOptions, nodes: int, out_of_time: bool) -> str:
    """The one-line error for a search that found nothing."""
    wanted = f"no solution of at most {options.max_length} moves" if options.max_length else "no solution"
    if out_of_time:
        return (
            f"two-phase search found {wanted} within its time limit of {options.time_limit:g} s "
            f"({nodes:,} nodes, phase 2 at most {options.phase2_max} moves): raise --time-limit "
            f"(config cube.twophase.time_limit) or --phase2-max"
        )
    return (
        f"two-phase search found {wanted} with phase 2 at most {options.phase2_max} moves "
        f"({nodes:,} nodes): raise --phase2-max (config cube.twophase.phase2_max) or --max-length"
    )
