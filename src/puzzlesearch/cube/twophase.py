"""Kociemba's two-phase algorithm: G0 -> G2 = <U,D,R2,L2,F2,B2> -> solved.

Phase 1 (flip, twist, E-slice positions) is bounded by the larger of two pruning tables,
phase 2 (corner permutation, U/D-edge permutation, E-edge permutation) likewise. The search
keeps looking for shorter totals until a solution reaches `target_length` or the node
budget is spent; the time limit stops it in any case (with the best solution so far, or an
error if there is none).
"""

from __future__ import annotations

import numpy as np

from puzzlesearch.cube import constants as K
from puzzlesearch.cube.cubie import MOVE_CP, MOVE_EP, CubieCube
from puzzlesearch.cube.io import merge_moves
from puzzlesearch.cube.kernels import STOP_NAMES, STOP_TIME, twophase_search
from puzzlesearch.cube.settings import TwoPhaseOptions
from puzzlesearch.cube.tables import Tables
from puzzlesearch.errors import PuzzleError

__all__ = ["TwoPhaseOptions", "search", "solve"]


def solve(cube: CubieCube, tables: Tables, options: TwoPhaseOptions = TwoPhaseOptions()) -> list[int]:
    """A solution (move numbers)."""
    moves, _nodes, _stop = search(cube, tables, options)
    return moves


def search(cube: CubieCube, tables: Tables, options: TwoPhaseOptions) -> tuple[list[int], int, str]:
    """(solution, nodes visited, what stopped it: complete/target/nodes/time).

    The empty list only for the solved cube; PuzzleError when out of time with no solution.
    """
    t = tables
    p1 = np.array(K.ALL_MOVES, dtype=np.int64)
    p2 = np.array(K.G2_MOVES, dtype=np.int64)
    max_length = options.max_length
    while True:
        moves, nodes, stop = twophase_search(
            t.coord("twist", cube),
            t.coord("flip", cube),
            t.coord("eslice", cube),
            np.array(cube.cp, dtype=np.int64),
            np.array(cube.ep, dtype=np.int64),
            t.move("twist"),
            t.move("flip"),
            t.move("eslice"),
            t.prune("tp1_twist"),
            t.prune("tp1_flip"),
            t.move("cperm"),
            t.move("udedge"),
            t.move("sliceperm"),
            t.prune("tp2_corner"),
            t.prune("tp2_edge"),
            MOVE_CP,
            MOVE_EP,
            p1,
            p2,
            max_length,
            options.target_length,
            options.phase2_max,
            options.node_budget,
            options.min_nodes,
            options.time_limit,
        )
        if len(moves) or cube.is_solved:
            return merge_moves([int(m) for m in moves]), int(nodes), STOP_NAMES[stop]
        if stop == STOP_TIME:
            raise PuzzleError(out_of_time_message(options, int(nodes)))
        max_length += 5  # not reached: phase 1 <= 12 and phase 2 <= 18 moves, or the time limit ends it


def out_of_time_message(options: TwoPhaseOptions, nodes: int) -> str:
    """The one-line error for a search that found nothing within its time limit."""
    return (
        f"two-phase search found no solution within its time limit of {options.time_limit:g} s "
        f"({nodes:,} nodes, phase 2 at most {options.phase2_max} moves): raise --time-limit "
        f"(config cube.twophase.time_limit) or --phase2-max"
    )
