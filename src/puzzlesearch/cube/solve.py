"""Solve cubes with a chosen solver; every solution is checked by applying it to the cube."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl

from puzzlesearch.cube._kernels.cubies import solves
from puzzlesearch.cube.io import format_moves, metric_length
from puzzlesearch.cube.model.constants import STOP_NAMES, Stop
from puzzlesearch.cube.model.cubie import MOVE_CUBES, SOLVED, CubieCube
from puzzlesearch.cube.settings import SOLVERS, OptimalOptions, ThistlethwaiteOptions, TwoPhaseOptions
from puzzlesearch.cube.solvers import optimal, thistlethwaite, twophase
from puzzlesearch.cube.tables.phases import Tables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.parallel import forked_map
from puzzlesearch.progress import log

__all__ = ["SOLVERS", "Solution", "solve_cube", "solve_many", "verify", "warm_up"]

STOP_SOLVED = "solved"  # stopped_by of a cube that was already solved
STOP_COMPLETE, STOP_TIME = STOP_NAMES[Stop.COMPLETE], STOP_NAMES[Stop.TIME]
COLUMNS = {
    "cube": pl.String,
    "solution": pl.String,
    "moves": pl.Int32,
    "milliseconds": pl.Float64,
    "stopped_by": pl.String,
}
CONFIG_KEYS = {
    "thistlethwaite": "cube.thistlethwaite.time_limit",
    "twophase": "cube.twophase.time_limit",
    "optimal": "cube.optimal.time_limit",
}
NODES_COLUMN = {"nodes": pl.Int64}  # rows of solvers that count nodes (optimal)
QTM_COLUMN = {"qtm": pl.Int32}  # rows of a --metric qtm solve: the solution's quarter-turn length


@dataclass(frozen=True)
class Solution:
    """One solved cube: the input, the moves, the time spent, the budget that ended the search."""

    cube: CubieCube
    moves: tuple[int, ...]
    milliseconds: float
    stopped_by: str = STOP_COMPLETE
    nodes: int | None = None  # nodes generated (the optimal solver records them)


class UnverifiedSolution(AssertionError):
    """A solver returned moves that do not solve the cube (a bug, never a user error)."""


CUBIE_MOVES = optimal.cubie_moves()  # the 18 moves on cubies, as the kernels take them


def verify(cube: CubieCube, moves) -> None:
    """Raise unless `moves` take `cube` to solved (applied to its cubies in numba: _kernels/cubies.py `solves`)."""
    arrays = (np.array(x, dtype=np.int64) for x in (cube.cp, cube.co, cube.ep, cube.eo))
    if not solves(*arrays, np.array(moves, dtype=np.int64).reshape(-1), CUBIE_MOVES):
        raise UnverifiedSolution(f"moves {format_moves(moves)} do not solve {cube}")


def default_options(solver: str):
    """The schema-default options of a solver."""
    if solver == "optimal":
        return OptimalOptions()
    return TwoPhaseOptions() if solver == "twophase" else ThistlethwaiteOptions()


def solve_cube(cube: CubieCube, tables: Tables, solver: str = "thistlethwaite", options=None) -> Solution:
    """Solve and verify one cube (`options`: the solver's TwoPhaseOptions / ThistlethwaiteOptions)."""
    options = options or default_options(solver)
    t0 = time.perf_counter()
    nodes = None
    if solver == "optimal":
        moves, nodes, stop = _optimal(cube, tables, options)
    elif solver == "thistlethwaite":
        moves, stop = thistlethwaite.solve(cube, tables, options), STOP_COMPLETE
    elif solver == "twophase":
        moves, _nodes, stop = twophase.search(cube, tables, options)
    else:
        raise ValueError(f"unknown solver {solver!r}")
    ms = (time.perf_counter() - t0) * 1000
    verify(cube, moves)
    return Solution(cube, tuple(moves), ms, STOP_SOLVED if cube.is_solved else stop, nodes)


def _optimal(cube: CubieCube, table, options) -> tuple[tuple[int, ...], int, str]:
    """(moves, nodes, stop) of an optimal search (`table`: an OptimalTable); a spent budget is an error."""
    result = optimal.search(cube, table, options)
    if result.stop != STOP_COMPLETE:
        raise PuzzleError(optimal.budget_message(result, options))
    return result.moves, result.nodes, result.stop


WARM_UP_SECONDS = 3600.0  # the warm-up compiles and verifies: not under the per-cube cap


def warm_up(tables: Tables, solver: str, options=None) -> None:
    """Compile the numba kernels and load the tables (so timings measure search only)."""
    options = replace(options or default_options(solver), time_limit=WARM_UP_SECONDS)
    solve_cube(SOLVED * MOVE_CUBES[7] * MOVE_CUBES[1] * MOVE_CUBES[5], tables, solver, options)


def time_cap_message(solver: str, index: int, options) -> str:
    """The pipeline's one-line error for a solve that reached the time cap."""
    return (
        f"cube {index}: the {solver} search reached its time cap of {options.time_limit:g} s before its "
        f"work budget, so its answer would depend on machine load: raise config key {CONFIG_KEYS[solver]} "
        f"(or run with fewer cores)"
    )


@dataclass
class SolveRun:
    """Rows solved so far (kept when the run is interrupted)."""

    rows: list[dict] = field(default_factory=list)
    interrupted: bool = False

    def frame(self) -> pl.DataFrame:
        """The rows as a table (cube, solution, moves, milliseconds, stopped_by)."""
        first = self.rows[0] if self.rows else {}
        extra = {**(NODES_COLUMN if "nodes" in first else {}), **(QTM_COLUMN if "qtm" in first else {})}
        return pl.DataFrame(self.rows, schema={**COLUMNS, **extra})


@contextlib.contextmanager
def _ctrl_c_flag(run: SolveRun):
    """While solving, Ctrl-C (SIGINT) sets run.interrupted; the loop stops between cubes.

    A flag rather than KeyboardInterrupt, so a numba kernel is never interrupted inside
    (the cube being solved finishes first, within its time cap); a second Ctrl-C stops at once.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(_signum, _frame):
        if run.interrupted:  # a second Ctrl-C: stop at once
            raise KeyboardInterrupt
        run.interrupted = True
        log("cube", "Ctrl-C: the cube being solved finishes first (Ctrl-C again stops at once)")

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _row(cube: CubieCube, s: Solution, style: str, metric: str = "htm") -> dict:
    """One result row (cube, solution, moves, milliseconds, stopped_by[, nodes][, qtm])."""
    row = {
        "cube": cube.to_text(),
        "solution": format_moves(s.moves, style),
        "moves": len(s.moves),
        "milliseconds": round(s.milliseconds, 3),
        "stopped_by": s.stopped_by,
    }
    if s.nodes is not None:
        row["nodes"] = s.nodes
    if metric == "qtm":
        row["qtm"] = metric_length(s.moves, "qtm")
    return row


def solve_many(
    cubes: Iterable[CubieCube],
    tables: Tables,
    solver: str,
    style: str = "standard",
    options=None,
    every: int = 100,
    strict_time: bool = False,
    on_row: Callable[[dict], None] | None = None,
    jobs: int = 1,
) -> SolveRun:
    """Solve and verify every cube; Ctrl-C stops the run and keeps the rows solved so far.

    strict_time (pipeline mode): a solve that reached the time cap is an error naming the
    config key, so a load-dependent answer is never kept. jobs > 1: the cubes are solved in
    that many forked processes (tables loaded once, shared), rows kept in input order.
    """
    options = options or default_options(solver)
    warm_up(tables, solver, options)
    run = SolveRun()
    results = _results(list(cubes), tables, solver, style, options, jobs, run)
    with _ctrl_c_flag(run):
        for i, result in enumerate(results, 1):
            if isinstance(result, str):
                raise PuzzleError(f"cube {i}: {result}")
            row, stop = result
            if strict_time and stop == STOP_TIME:
                raise PuzzleError(time_cap_message(solver, i, options))
            run.rows.append(row)
            if on_row:
                on_row(row)
            if i % every == 0:
                log("cube", f"{solver}: {i} cubes solved")
            if run.interrupted:
                break
    return run


def _solve_one(cube: CubieCube, tables, solver: str, style: str, options) -> tuple[dict, str] | str:
    """(row, stop) of one cube, or the one-line message of a PuzzleError."""
    try:
        s = solve_cube(cube, tables, solver, options)
    except PuzzleError as exc:
        return str(exc)
    return _row(cube, s, style, getattr(options, "metric", "htm")), s.stopped_by


def _results(cubes, tables, solver, style, options, jobs: int, run: SolveRun):
    """Each cube's _solve_one result in input order (ending early once Ctrl-C stopped a parallel run)."""
    return forked_map(
        lambda cube: _solve_one(cube, tables, solver, style, options), cubes, jobs, lambda: run.interrupted
    )
