"""Thistlethwaite's algorithm: G0 -> G1 -> G2 -> G3 -> solved, each phase optimal by IDA*.

G1 = <U,D,L,R,F2,B2>, G2 = <U,D,L2,R2,F2,B2>, G3 = <U2,D2,L2,R2,F2,B2>. Each phase's
pruning table holds exact coset distances, so IDA* walks straight down. Among the first
moves of a phase, those on the face the previous phase ended with are tried first, so
that the merge at the boundary saves a move when an optimal phase allows it.
"""

from __future__ import annotations

import time

import numpy as np

from puzzlesearch.cube._kernels.phases import ida_phase
from puzzlesearch.cube.io import merge_moves
from puzzlesearch.cube.model.constants import Stop
from puzzlesearch.cube.model.cubie import CubieCube
from puzzlesearch.cube.settings import ThistlethwaiteOptions
from puzzlesearch.cube.tables.phases import COORD_SIZES, PRUNE_SPECS, Tables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.jit import call_kernel

PHASES = ("th1", "th2", "th3", "th4")
MAX_PHASE_DEPTH = 15


def _moves_preferring(moves: tuple[int, ...], face: int) -> np.ndarray:
    """The phase's moves with those on `face` first."""
    return np.array(sorted(moves, key=lambda m: m // 3 != face), dtype=np.int64)


def solve_phases(
    cube: CubieCube, tables: Tables, options: ThistlethwaiteOptions = ThistlethwaiteOptions()
) -> list[list[int]]:
    """The optimal move sequence of each phase, in order (PuzzleError past the time limit)."""
    phases: list[list[int]] = []
    last_face = -1
    deadline = time.perf_counter() + options.time_limit
    for name in PHASES:
        spec = PRUNE_SPECS[name]
        a, b = tables.coord(spec.a, cube), tables.coord(spec.b, cube)
        left = deadline - time.perf_counter()
        moves, stop = call_kernel(  # (a Ctrl-C inside the kernel's clock: KeyboardInterrupt)
            ida_phase,
            a,
            b,
            tables.move(spec.a),
            tables.move(spec.b),
            tables.prune(name),
            COORD_SIZES[spec.b],
            _moves_preferring(spec.moves, last_face),
            MAX_PHASE_DEPTH,
            left,
        )
        if stop == Stop.TIME or left <= 0:
            raise PuzzleError(out_of_time_message(options, name))
        if len(moves) and moves[0] < 0:
            raise AssertionError(f"phase {name} found no solution: tables are inconsistent")
        seq = [int(m) for m in moves]
        phases.append(seq)
        cube = cube.apply(seq)
        if seq:
            last_face = seq[-1] // 3
    return phases


def solve(cube: CubieCube, tables: Tables, options: ThistlethwaiteOptions = ThistlethwaiteOptions()) -> list[int]:
    """A solution (move numbers), phase boundaries merged."""
    return merge_moves([m for seq in solve_phases(cube, tables, options) for m in seq])


def out_of_time_message(options: ThistlethwaiteOptions, phase: str) -> str:
    """The one-line error for a Thistlethwaite solve that passed its time limit."""
    return (
        f"Thistlethwaite search passed its time limit of {options.time_limit:g} s in phase {phase[-1]} "
        f"(it normally takes milliseconds: a busy machine, or damaged tables?): raise --time-limit "
        f"(config cube.thistlethwaite.time_limit)"
    )
