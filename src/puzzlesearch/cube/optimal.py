"""Optimal solver: IDA* in the full cube group, bounded by a symmetry-reduced pruning table.

The table (optimal_tables) gives the exact distance of a cube's (flip, E-slice edges,
twist) projection. Each node looks it up in the three axis orientations: the position
conjugated by the identity, by URF3 and by URF3^2 (each puts another axis on U-D), so
the bound is the largest of the three distances. A node is solved when all three are 0,
every slice's edges sit sorted at home and the corner permutation is solved. Iterative
deepening makes the first solution found a shortest one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from puzzlesearch.cube.cubie import CubieCube
from puzzlesearch.cube.optimal_tables import SLICE_SORTED, OptimalTable
from puzzlesearch.cube.settings import OptimalOptions
from puzzlesearch.errors import PuzzleError

__all__ = ["OptimalOptions", "OptimalResult", "axis_coords", "search"]

MAX_LENGTH = 20  # God's number: every cube is solved within it


@dataclass(frozen=True)
class OptimalResult:
    """One search: the moves (a shortest solution), nodes generated, what stopped it, seconds."""

    moves: tuple[int, ...]
    nodes: int
    stop: str
    seconds: float
    bound: int  # the last depth bound searched


def axis_coords(cube: CubieCube) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(flip, sorted slice, twist) of the cube conjugated to put each of the 3 axes on U-D."""
    from puzzlesearch.cube.coords import FLIP, TWIST
    from puzzlesearch.cube.symmetry import SYM_MULT, URF3, conjugate

    axes = (0, URF3, int(SYM_MULT[URF3, URF3]))
    cubes = [conjugate(cube, s) for s in axes]
    fl = np.array([FLIP.of(c) for c in cubes], dtype=np.int64)
    ss = np.array([SLICE_SORTED.of(c) for c in cubes], dtype=np.int64)
    tw = np.array([TWIST.of(c) for c in cubes], dtype=np.int64)
    return fl, ss, tw


def search(cube: CubieCube, table: OptimalTable, options: OptimalOptions) -> OptimalResult:
    """A shortest solution, or a result whose stop says which budget ended the search."""
    from puzzlesearch.cube.coords import CPERM
    from puzzlesearch.cube.optimal_kernels import STOP_NAMES, ida_search

    fl, ss, tw = axis_coords(cube)
    t0 = time.perf_counter()
    moves, nodes, stop, bound = ida_search(
        table.search_data(),
        fl,
        ss,
        tw,
        CPERM.of(cube),
        options.node_budget,
        options.time_limit,
        MAX_LENGTH,
        options.axes,
    )
    seconds = time.perf_counter() - t0
    if bound < 0 and not len(moves):
        raise PuzzleError(
            f"optimal table {table.variant} gives no distance for this cube (damaged table?); "
            f"rebuild it: puzzlesearch cube build-optimal-table {table.variant}"
        )
    return OptimalResult(tuple(int(m) for m in moves), int(nodes), STOP_NAMES[stop], seconds, int(bound))


def budget_message(result: OptimalResult, options: OptimalOptions) -> str:
    """The one-line error of a search that ended before proving a shortest solution."""
    if result.stop == "time":
        limit, key = f"time cap of {options.time_limit:g} s", "cube.optimal.time_limit (--time-limit)"
    else:
        limit, key = f"node budget of {options.node_budget:,}", "cube.optimal.node_budget"
    return (
        f"optimal search reached its {limit} at depth bound {result.bound} "
        f"({result.nodes:,} nodes, no solution that short): raise config key {key}"
    )
