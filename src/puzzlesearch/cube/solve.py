"""Solve cubes with a chosen solver; every solution is checked by applying it to the cube."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable

import polars as pl

from puzzlesearch.cube import thistlethwaite, twophase
from puzzlesearch.cube.cubie import CubieCube
from puzzlesearch.cube.io import format_moves
from puzzlesearch.cube.tables import Tables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log

SOLVERS = ("thistlethwaite", "twophase")


@dataclass(frozen=True)
class Solution:
    """One solved cube: the input, the moves, the time spent."""

    cube: CubieCube
    moves: tuple[int, ...]
    milliseconds: float


class UnverifiedSolution(AssertionError):
    """A solver returned moves that do not solve the cube (a bug, never a user error)."""


def verify(cube: CubieCube, moves) -> None:
    """Raise unless `moves` take `cube` to solved."""
    if not cube.apply(moves).is_solved:
        raise UnverifiedSolution(f"moves {format_moves(moves)} do not solve {cube}")


def solve_cube(cube: CubieCube, tables: Tables, solver: str = "thistlethwaite",
               options: twophase.TwoPhaseOptions = twophase.TwoPhaseOptions()) -> Solution:
    """Solve and verify one cube."""
    t0 = time.perf_counter()
    if solver == "thistlethwaite":
        moves = thistlethwaite.solve(cube, tables)
    elif solver == "twophase":
        moves = twophase.solve(cube, tables, options)
    else:
        raise ValueError(f"unknown solver {solver!r}")
    ms = (time.perf_counter() - t0) * 1000
    verify(cube, moves)
    return Solution(cube, tuple(moves), ms)


def warm_up(tables: Tables, solver: str, options=twophase.TwoPhaseOptions()) -> None:
    """Compile the numba kernels and load the tables (so timings measure search only)."""
    from puzzlesearch.cube.cubie import MOVE_CUBES, SOLVED

    solve_cube(SOLVED * MOVE_CUBES[7] * MOVE_CUBES[1] * MOVE_CUBES[5], tables, solver, options)


def solve_many(cubes: Iterable[CubieCube], tables: Tables, solver: str, style: str = "standard",
               options=twophase.TwoPhaseOptions(), every: int = 100) -> pl.DataFrame:
    """A table (cube, solution, moves, milliseconds), one row per cube, all verified."""
    warm_up(tables, solver, options)
    rows = []
    for i, cube in enumerate(cubes, 1):
        try:
            s = solve_cube(cube, tables, solver, options)
        except PuzzleError as exc:
            raise PuzzleError(f"cube {i}: {exc}") from None
        rows.append({"cube": cube.to_text(), "solution": format_moves(s.moves, style),
                     "moves": len(s.moves), "milliseconds": round(s.milliseconds, 3)})
        if i % every == 0:
            log("cube", f"{solver}: {i} cubes solved")
    return pl.DataFrame(rows, schema={"cube": pl.String, "solution": pl.String,
                                      "moves": pl.Int32, "milliseconds": pl.Float64})
