"""Kociemba's two-phase algorithm: G0 -> G2 = <U,D,R2,L2,F2,B2> -> solved.

Phase 1 (flip, twist, E-slice positions) is bounded by the larger of two pruning tables,
phase 2 (corner permutation, U/D-edge permutation, E-edge permutation) likewise. The search
keeps looking for shorter totals until a solution reaches `target_length` or the node
budget is spent; the time limit stops it in any case (with the best solution so far, or an
error if there is none).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from puzzlesearch.cube import constants as K
from puzzlesearch.cube.cubie import MOVE_CP, MOVE_EP, CubieCube
from puzzlesearch.cube.io import merge_moves
from puzzlesearch.cube.kernels import twophase_search
from puzzlesearch.cube.tables import Tables
from puzzlesearch.errors import PuzzleError


@dataclass(frozen=True)
class TwoPhaseOptions:
    """Search budget: target_length moves (after min_nodes), node_budget nodes once solved, time_limit s."""

    max_length: int = 30
    target_length: int = 21
    phase2_max: int = 10
    node_budget: int = 1_000_000
    min_nodes: int = 50_000
    time_limit: float = 10.0


def solve(cube: CubieCube, tables: Tables, options: TwoPhaseOptions = TwoPhaseOptions()) -> list[int]:
    """A solution (move numbers)."""
    moves, _nodes = search(cube, tables, options)
    return moves


def search(cube: CubieCube, tables: Tables, options: TwoPhaseOptions) -> tuple[list[int], int]:
    """(solution, nodes visited); the empty list only for the solved cube; PuzzleError when out of time."""
    t = tables
    p1 = np.array(K.ALL_MOVES, dtype=np.int64)
    p2 = np.array(K.G2_MOVES, dtype=np.int64)
    max_length = options.max_length
    while True:
        moves, nodes, out_of_time = twophase_search(
            t.coord("twist", cube), t.coord("flip", cube), t.coord("eslice", cube),
            np.array(cube.cp, dtype=np.int64), np.array(cube.ep, dtype=np.int64),
            t.move("twist"), t.move("flip"), t.move("eslice"), t.prune("tp1_twist"), t.prune("tp1_flip"),
            t.move("cperm"), t.move("udedge"), t.move("sliceperm"), t.prune("tp2_corner"), t.prune("tp2_edge"),
            MOVE_CP, MOVE_EP, p1, p2,
            max_length, options.target_length, options.phase2_max, options.node_budget, options.min_nodes,
            options.time_limit,
        )
        if len(moves) or cube.is_solved:
            return merge_moves([int(m) for m in moves]), int(nodes)
        if out_of_time:
            raise PuzzleError(out_of_time_message(options, int(nodes)))
        max_length += 5  # not reached: phase 1 <= 12 and phase 2 <= 18 moves, or the time limit ends it


def out_of_time_message(options: TwoPhaseOptions, nodes: int) -> str:
    """The one-line error for a search that found nothing within its time limit."""
    return (
        f"two-phase search found no solution within its time limit of {options.time_limit:g} s "
        f"({nodes:,} nodes, phase 2 at most {options.phase2_max} moves): raise --time-limit "
        f"(config cube.twophase.time_limit) or --phase2-max"
    )
