"""Both solvers: every answer is applied to its cube; phase structure; short cubes stay short."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from cube_testing import read_tsv

from puzzlesearch.cube.io import format_moves
from puzzlesearch.cube.model.constants import G1_MOVES, G2_MOVES, G3_MOVES, MOVE_NAMES
from puzzlesearch.cube.model.cubie import MOVE_CUBES, SOLVED, parse_cube, parse_cubies, parse_moves, random_cube
from puzzlesearch.cube.solve import solve_cube, warm_up
from puzzlesearch.cube.solvers import thistlethwaite
from puzzlesearch.cube.solvers.twophase import TwoPhaseOptions
from puzzlesearch.errors import PuzzleError

SOLVERS = ("thistlethwaite", "twophase")
SUPERFLIP = "FU RU BU LU FD RD BD LD RF LF RB LB UFR URB UBL ULF DRF DFL DLB DBR"
CONTEST_CUBE = "RU LF UB DR DL BL UL FU BD RF BR FD LDF LBD FUL RFD UFR RDB UBL RBU"


def solves(cube, text: str) -> bool:
    """Independent check: parse the printed answer and apply it."""
    return cube.apply(parse_moves(text)).is_solved


@pytest.mark.parametrize("solver", SOLVERS)
def test_random_cubes(cube_tables, solver):
    rng = random.Random(2024)
    for _ in range(25):
        cube = random_cube(rng)
        s = solve_cube(cube, cube_tables, solver)
        assert solves(cube, format_moves(s.moves)) and solves(cube, format_moves(s.moves, "contest"))
        assert len(s.moves) <= (45 if solver == "thistlethwaite" else 30)


@pytest.mark.parametrize("solver", SOLVERS)
def test_rokicki_style_lines(cube_tables, cube_data, solver):
    lines = (cube_data / "rokicki_style_100.txt").read_text().splitlines()
    kinds = [r["kind"] for r in read_tsv(cube_data / "rokicki_style_100_scrambles.tsv")]
    for line, kind in zip(lines, kinds):
        cube = parse_cubies(line)
        s = solve_cube(cube, cube_tables, solver)
        assert solves(cube, format_moves(s.moves)), line
        if solver == "twophase" and kind != "random":
            assert len(s.moves) <= int(kind[0]), (kind, line)  # at most the scramble's length


def test_special_cubes(cube_tables, cube_data):
    for row in read_tsv(cube_data / "special.tsv"):
        cube = parse_cubies(row["cube"])
        for solver in SOLVERS:
            s = solve_cube(cube, cube_tables, solver)
            assert solves(cube, format_moves(s.moves)), (row["name"], solver)
            if row["optimal_htm"].isdigit():
                assert len(s.moves) >= int(row["optimal_htm"])  # nobody beats an optimum


def test_superflip_and_contest_example(cube_tables):
    """Superflip's optimum is 20 HTM; the contest example has a published 10-move answer."""
    superflip = parse_cubies(SUPERFLIP)
    assert all(eo == 1 for eo in superflip.eo) and superflip.ep == SOLVED.ep
    for solver in SOLVERS:
        s = solve_cube(superflip, cube_tables, solver)
        assert solves(superflip, format_moves(s.moves)) and len(s.moves) >= 20
    cube = parse_cubies(CONTEST_CUBE)
    s = solve_cube(cube, cube_tables, "twophase")
    answer = format_moves(s.moves, "contest")
    assert solves(cube, answer) and len(s.moves) <= 10
    assert parse_moves(answer) == list(s.moves)


def test_single_moves_take_one_move_with_twophase(cube_tables):
    for m, move in enumerate(MOVE_CUBES):
        s = solve_cube(SOLVED * move, cube_tables, "twophase")
        assert len(s.moves) == 1 and (move * MOVE_CUBES[s.moves[0]]).is_solved, MOVE_NAMES[m]


def test_solved_cube_needs_no_moves(cube_tables):
    for solver in SOLVERS:
        assert solve_cube(SOLVED, cube_tables, solver).moves == ()


def test_thistlethwaite_phases_use_their_groups(cube_tables):
    """Phase k uses only G(k-1) moves and ends in G(k): checked on the cubie arrays."""
    rng = random.Random(99)
    allowed = (range(18), G1_MOVES, G2_MOVES, G3_MOVES)
    maxima = (7, 10, 13, 15)  # the BFS maxima of the four phase tables
    for _ in range(40):
        cube = random_cube(rng)
        phases = thistlethwaite.solve_phases(cube, cube_tables)
        for k, seq in enumerate(phases):
            assert set(seq) <= set(allowed[k]) and len(seq) <= maxima[k]
        after1 = cube.apply(phases[0])
        assert not any(after1.eo)  # G1: edges oriented
        after2 = after1.apply(phases[1])
        assert not any(after2.co) and set(after2.ep[8:]) == {8, 9, 10, 11}  # G2
        after3 = after2.apply(phases[2])
        assert all(after3.ep[i] % 2 == i % 2 for i in range(8))  # M and S edges in their slices
        assert after3.apply(phases[3]).is_solved


def test_scramble_input_is_accepted(cube_tables):
    cube = parse_cube("R U2 F' D L2 B")
    for solver in SOLVERS:
        assert solves(cube, format_moves(solve_cube(cube, cube_tables, solver).moves))


def test_time_limit_ends_a_search_that_finds_nothing(cube_tables):
    """phase2_max 1 leaves almost no two-phase solutions: the time limit must end the search."""
    cube = random_cube(random.Random(5))
    warm_up(cube_tables, "twophase")  # numba compilation is not search time
    t0 = time.perf_counter()
    with pytest.raises(PuzzleError) as err:
        solve_cube(cube, cube_tables, "twophase", TwoPhaseOptions(phase2_max=1, time_limit=0.3))
    assert time.perf_counter() - t0 < 3.0
    message = str(err.value)
    assert "time limit of 0.3 s" in message and "--time-limit" in message and "\n" not in message


def test_time_limit_keeps_the_best_solution_so_far(cube_tables):
    """With no length or node budget to stop it, the time limit returns the best found."""
    cube = random_cube(random.Random(6))
    options = TwoPhaseOptions(target_length=0, node_budget=10**15, time_limit=0.3)
    warm_up(cube_tables, "twophase")
    t0 = time.perf_counter()
    s = solve_cube(cube, cube_tables, "twophase", options)
    assert time.perf_counter() - t0 < 3.0
    assert solves(cube, format_moves(s.moves)) and len(s.moves) <= 30


def test_max_length_20_holds_on_random_cubes(cube_tables):
    """--max-length 20: every answer has at most 20 moves (God's number makes 20 always possible)."""
    rng = random.Random(2026)
    options = TwoPhaseOptions(max_length=20)
    for _ in range(30):
        cube = random_cube(rng)
        s = solve_cube(cube, cube_tables, "twophase", options)
        assert solves(cube, format_moves(s.moves)) and len(s.moves) <= 20
        assert s.stopped_by == "target"


def test_max_length_below_what_phase2_max_allows_is_one_line(cube_tables):
    """A length no search within phase2_max can reach ends with one line naming the keys (no time cap needed)."""
    cube = random_cube(random.Random(7))
    with pytest.raises(PuzzleError) as err:
        solve_cube(cube, cube_tables, "twophase", TwoPhaseOptions(max_length=8, phase2_max=1, time_limit=60))
    message = str(err.value)
    assert "no solution of at most 8 moves" in message and "--phase2-max" in message and "\n" not in message


def test_every_direction_maps_its_solution_back(cube_tables):
    """Each of the six search directions (three axes, and the inverse) gives a verified answer for the cube itself."""
    from puzzlesearch.cube.solvers.twophase import DIRECTIONS, back_to_cube, direction_cube

    rng = random.Random(12)
    for s, inverse in DIRECTIONS:
        cube = random_cube(rng)
        turned = direction_cube(cube, s, inverse)
        answer = solve_cube(turned, cube_tables, "twophase").moves
        assert turned.apply(answer).is_solved
        assert cube.apply(back_to_cube(answer, s, inverse)).is_solved


def test_start_coordinates_of_every_direction_agree_with_the_model():
    """The numba start coordinates (_kernels/cubies.py) of each direction after each pre-move sequence:
    those of the model's product SOLVED.apply(pre-moves) * direction_cube."""
    from puzzlesearch.cube.model.coords import FLIP, SLICE_SORTED, TWIST
    from puzzlesearch.cube.solvers.twophase import DIRECTIONS, _starts, direction_cube, pre_move_set

    rng = random.Random(28)
    for depth, n_cubes in ((0, 50), (1, 20), (2, 3)):
        seqs = pre_move_set(depth).sequences
        for _ in range(n_cubes):
            cube = random_cube(rng)
            starts = _starts(cube, pre_move_set(depth))
            assert len(starts.twist) == len(DIRECTIONS) * len(seqs)
            for row in range(len(starts.twist)):
                s, inverse = DIRECTIONS[row // len(seqs)]
                turned = SOLVED.apply(seqs[row % len(seqs)]) * direction_cube(cube, s, inverse)
                assert (starts.twist[row], starts.flip[row]) == (TWIST.of(turned), FLIP.of(turned))
                assert starts.sslice[row] == SLICE_SORTED.of(turned)
                assert tuple(starts.cp[row]) == turned.cp and tuple(starts.ep[row]) == turned.ep


def test_pre_move_sequences_by_brute_force():
    """The pre-move sequences of up to 2 moves: all sequences of 18 moves whose first is R, F, L or B
    (clockwise quarter turns, off the U-D axis) and whose second neither turns the same face nor is
    the lower of two opposite faces (U-D, R-L, F-B commute: one order is enough); the empty one first."""
    from puzzlesearch.cube.solvers.twophase import pre_move_set

    first = [MOVE_NAMES.index(f) for f in "RFLB"]
    one = [(m,) for m in first]
    two = [(a, b) for a in first for b in range(18) if b // 3 != a // 3 and not (b // 3 % 3 == a // 3 % 3 and b < a)]
    assert pre_move_set(0).sequences == ((),)
    assert pre_move_set(1).sequences == ((), *one)
    assert sorted(pre_move_set(2).sequences) == sorted([(), *one, *two]) and len(two) == 4 * 15 - 2 * 3
    assert all(q[0] not in G2_MOVES for q in pre_move_set(2).sequences[1:])


def test_pre_moves_follow_phase_two(cube_tables):
    """A direction's pre-moves q end its solutions: a solution X of Q * D (Q = SOLVED.apply(q)) makes X + q
    a solution of D."""
    from puzzlesearch.cube.solvers.twophase import pre_move_set

    rng = random.Random(5)
    for q in pre_move_set(2).sequences[1:12]:
        d = random_cube(rng)
        x = solve_cube(SOLVED.apply(q) * d, cube_tables, "twophase").moves
        assert d.apply([*x, *q]).is_solved


def test_pre_move_directions_win_and_map_back(cube_tables):
    """At a node budget some answers come from directions with pre-moves; every answer solves its cube
    (mapped back by solvers/twophase.py's search); with no pre-moves none can."""
    from puzzlesearch.cube.settings import TwoPhaseOptions
    from puzzlesearch.cube.solvers import twophase

    p1, p2 = twophase.kernel_tables(cube_tables)
    for depth in (0, 1, 2):
        options = TwoPhaseOptions(target_length=0, node_budget=100_000, time_limit=60.0, pre_moves=depth)
        pre = twophase.pre_move_set(depth)
        rng = random.Random(41)
        winners = []
        for _ in range(10):
            cube = random_cube(rng)
            lim = twophase.limits(options)
            shared = np.array([lim.max_length + 1])
            args = (twophase._starts(cube, pre), pre.kernel, p1, p2, lim, 60.0, shared)
            winners.append(int(twophase.twophase_sym_search(*args)[1]) % len(pre.sequences))
            moves, _nodes, _stop = twophase.search(cube, cube_tables, options)
            assert cube.apply(moves).is_solved
        assert any(winners) == (depth > 0), (depth, winners)


def test_threads_share_the_directions_and_the_best_length(cube_tables):
    """A complete search (target 0, no budget: it ends when phase 1 reaches the best total) finds the
    same shortest length on 1, 2 and 3 threads: the shared best only prunes totals that cannot win.
    (Without pre-moves, where the kernel's total is the printed length: a pre-move can merge with
    phase 2's last move, so two answers of one total may print different lengths.) Every answer
    solves its cube; --max-length 20 on 2 threads, with pre-moves, stays within 20."""
    from puzzlesearch.cube.settings import TwoPhaseOptions
    from puzzlesearch.cube.solvers import twophase

    rng = random.Random(77)
    for _ in range(4):
        cube = SOLVED.apply([rng.randrange(18) for _ in range(11)])
        lengths = set()
        for threads in (1, 2, 3):
            options = TwoPhaseOptions(
                target_length=0, node_budget=10**12, time_limit=120.0, pre_moves=0, threads=threads
            )
            moves, _nodes, stop = twophase.search(cube, cube_tables, options)
            assert cube.apply(moves).is_solved and stop == "complete"
            lengths.add(len(moves))
        assert len(lengths) == 1, lengths
    options = TwoPhaseOptions(max_length=20, threads=2)
    for _ in range(20):
        cube = random_cube(rng)
        moves = twophase.search(cube, cube_tables, options)[0]
        assert cube.apply(moves).is_solved and len(moves) <= 20


def test_threads_work_in_a_forked_child(cube_tables):
    """A child forked after a threaded solve (as --jobs forks) starts worker threads of its own:
    its threaded solve finishes and solves the cube (the parent's workers are not in the child)."""
    import os
    import select

    options = TwoPhaseOptions(max_length=20, threads=3)
    cubes = [random_cube(random.Random(seed)) for seed in range(3)]
    assert cubes[0].apply(solve_cube(cubes[0], cube_tables, "twophase", options).moves).is_solved
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report each answer's check, then leave without pytest's clean-up
        code = 1
        try:
            ok = [c.apply(solve_cube(c, cube_tables, "twophase", options).moves).is_solved for c in cubes]
            os.write(write_end, ("ok" if all(ok) else "unsolved").encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    ready, _, _ = select.select([read_end], [], [], 120)
    if not ready:
        os.kill(pid, 9)
    answer = os.read(read_end, 16).decode() if ready else "no answer in 120 s (a worker that never runs)"
    os.waitpid(pid, 0)
    os.close(read_end)
    assert answer == "ok"


def test_the_two_phase_warm_up_compiles_for_the_real_tables_types(cube_tables):
    """warm_up_twophase compiles the search in a child over stand-ins before the tables exist; the
    search finds that compile in numba's cache only if the bundles have the real tables' types."""
    import numba

    from puzzlesearch.cube.solvers import twophase

    real = twophase.kernel_tables(cube_tables)
    stand_in = twophase.stand_in_kernel_tables()
    assert [numba.typeof(b) for b in stand_in] == [numba.typeof(b) for b in real]
