"""Rubik's cube two-phase baselines: peer solvers' published figures, and the `kociemba` C package.

`CUBE_PEERS` are published constants, not measured by this project's runs;
`kociemba_solves` times the `kociemba` C package (the optional `bench` extra) on given
cubes and verifies each answer with this project's cubie model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class CubePeer:
    """A peer two-phase solver's published figures (None: not published)."""

    name: str
    median_ms: float | None
    mean_ms: float | None
    mean_moves: float | None
    max_moves: int | None
    source: str


# Published constants, not measured by this project's runs (the kociemba row was measured once with
# benchmarks/cube_bench.py on ../shared/cube/random_1000.txt; benchmarks/RESULTS.md, Rubik's cube).
CUBE_PEERS = (
    CubePeer(
        "kociemba C package",
        11.0,
        None,
        20.76,
        22,
        "benchmarks/RESULTS.md (cube_bench.py, random_1000, this machine, Nov 2026)",
    ),
    CubePeer("min2phase (Java)", None, 7.96, None, 20, "min2phase README: <= 20 moves, 7.96 ms/cube mean, 1 MB tables"),
    CubePeer(
        "Kociemba's Python solver, 1 s/cube budget",
        None,
        1000.0,
        19.27,
        None,
        "RubiksCube-TwophaseSolver README: mean 19.27 moves at 1 s/cube (CPython)",
    ),
)
KOCIEMBA_LIVE = "kociemba C package (this run)"


def kociemba_solves(cubes) -> tuple[list[int], list[float]] | None:
    """(moves, ms) per cube of the `kociemba` C package, each answer verified by our cubie model; None if absent."""
    try:
        import kociemba
    except ImportError:
        return None
    from puzzlesearch.cube.model.cubie import parse_moves
    from puzzlesearch.cube.model.facelets import to_facelets
    from puzzlesearch.cube.solve import verify

    lengths, times = [], []
    kociemba.solve(to_facelets(cubes[0]))  # load its tables outside the timings
    for cube in cubes:
        facelets = to_facelets(cube)
        t0 = time.perf_counter()
        answer = kociemba.solve(facelets)
        times.append((time.perf_counter() - t0) * 1000)
        moves = parse_moves(answer)
        verify(cube, moves)
        lengths.append(len(moves))
    return lengths, times
