"""The cubie model, parsing, validation and notation, against published facts."""

from __future__ import annotations

import random

import pytest
from cube_testing import read_tsv

from puzzlesearch.cube.io import format_moves, merge_moves
from puzzlesearch.cube.model.constants import MOVE_NAMES, SOLVED_TEXT
from puzzlesearch.cube.model.cubie import (
    MOVE_CUBES,
    SOLVED,
    parse_cube,
    parse_cubies,
    parse_moves,
    random_cube,
)
from puzzlesearch.errors import PuzzleError

# Published on Rokicki's contest page (see ../shared/cube/SOURCES.md).
U_TURN = "UR UB UL UF DF DR DB DL FR FL BR BL URB UBL ULF UFR DRF DFL DLB DBR"
CONTEST_SCRAMBLE = "F- U+ F- D- L- D- F- U- L2 D-"
CONTEST_CUBE = "RU LF UB DR DL BL UL FU BD RF BR FD LDF LBD FUL RFD UFR RDB UBL RBU"
CONTEST_ANSWER = "D+ L2 U+ F+ D+ L+ D+ F+ U- F+"


def test_quarter_turn_u_matches_the_contest_page():
    assert SOLVED.apply(parse_moves("U")).to_text() == U_TURN
    assert SOLVED.to_text() == SOLVED_TEXT


def test_contest_example_and_its_published_answer():
    cube = SOLVED.apply(parse_moves(CONTEST_SCRAMBLE))
    assert cube.to_text() == CONTEST_CUBE
    assert parse_cubies(CONTEST_CUBE).apply(parse_moves(CONTEST_ANSWER)).is_solved


def test_compact_scrambles_are_moves_not_cubies():
    """Spaces in scrambles are optional: one word of face letters is a scramble."""
    assert parse_cube("F-U+F-D-L-D-F-U-L2D-").to_text() == CONTEST_CUBE  # the published example
    for text, undo in (("RUF", "F' U' R'"), ("RU", "U' R'"), ("R U2F'", "F U2 R'")):
        cube = parse_cube(text)
        assert not cube.is_solved and cube.apply(parse_moves(undo)).is_solved, text
        assert not cube.apply(parse_moves(undo)[1:]).is_solved, text


def test_every_move_has_order_four_and_an_inverse():
    for m, cube in enumerate(MOVE_CUBES):
        assert not cube.is_solved
        assert SOLVED.apply([m] * 4).is_solved
        assert (cube * cube.inverse()).is_solved
        inverse = 3 * (m // 3) + 2 - m % 3
        assert SOLVED.apply([m, inverse]).is_solved, MOVE_NAMES[m]


def test_reference_answers_solve_the_shared_cubes(cube_data):
    """The kociemba C answers (checked by another simulator) solve our parsed cubes."""
    for name in ("random_1000", "rokicki_style_100"):
        lines = (cube_data / f"{name}.txt").read_text().splitlines()
        for row in read_tsv(cube_data / f"{name}_kociemba.tsv"):
            cube = parse_cubies(lines[int(row["line"]) - 1])
            moves = parse_moves(row["kociemba_c_maxdepth24_solution"])
            assert len(moves) == int(row["length_htm"])
            assert cube.apply(moves).is_solved, row["line"]


def test_scrambles_give_the_rokicki_lines(cube_data):
    lines = (cube_data / "rokicki_style_100.txt").read_text().splitlines()
    rows = [r for r in read_tsv(cube_data / "rokicki_style_100_scrambles.tsv") if r["kind"] != "random"]
    assert len(rows) == 54
    for row in rows:
        cube = parse_cube(row["scramble_applied_to_solved"])
        assert cube.to_text() == lines[int(row["line"]) - 1]


def test_round_trips():
    rng = random.Random(5)
    for _ in range(200):
        cube = random_cube(rng)
        assert parse_cubies(cube.to_text()) == cube
        assert parse_cubies(cube.to_text().lower()) == cube
        moves = [rng.randrange(18) for _ in range(25)]
        for style in ("standard", "contest"):
            assert parse_moves(format_moves(moves, style)) == moves
    assert format_moves(parse_moves("R U2 F'"), "contest") == "R1U2F3"
    assert parse_moves("F3R1U3") == parse_moves("F' R U'") == parse_moves("f- r+ u3")
    assert parse_moves("D+ L2 U-") == parse_moves("D L2 U'")


def test_merge_moves():
    def merged(text):
        return format_moves(merge_moves(parse_moves(text)))

    assert merged("R R") == "R2"
    assert merged("R R'") == ""
    assert merged("U D U'") == "D"
    assert merged("R2 L R2") == "L"
    assert merged("F U2 U F'") == "F U' F'"


@pytest.mark.parametrize(
    "text, fragment",
    [
        (" ".join(SOLVED_TEXT.split()[:19]), "19 tokens, expected 20"),
        (SOLVED_TEXT + " UF", "21 tokens"),
        (SOLVED_TEXT.replace("UB ", "UU ", 1), "token 3 'UU'"),
        (SOLVED_TEXT.replace("UB ", "UBL ", 1), "token 3 'UBL' (edge position UB) is not an edge"),
        (SOLVED_TEXT.replace("DLB", "DLX"), "token 19 'DLX' has 'X'"),
        (SOLVED_TEXT.replace("DLB", "DBL"), "token 19 'DBL'"),
        (SOLVED_TEXT.replace("UR UB", "UF UB", 1), "edge cubie UF appears 2 times (tokens 1 and 2); missing: UR"),
        (SOLVED_TEXT.replace("UBL", "UFR"), "corner cubie UFR appears 2 times (tokens 13 and 15); missing: UBL"),
        (SOLVED_TEXT.replace("UF ", "FU ", 1), "edge flips sum to 1, must be even"),
        (SOLVED_TEXT.replace("UFR", "FRU"), "corner twists sum to 2, must be 0 mod 3"),
        (SOLVED_TEXT.replace("UF UR", "UR UF", 1), "edge permutation is odd but corner permutation is even"),
        (SOLVED_TEXT.replace("UFR URB", "URB UFR", 1), "edge permutation is even but corner permutation is odd"),
        ("R U2 X", "move 'X' at character 6"),
        ("R U2 Fx", "move 'Fx' at character 6"),
        ("RUFx", "move 'RUFx' at character 1 is not a face turn"),
        (" ".join(SOLVED_TEXT.split()[:18] + ["DL", "DBR"]), "token 19 'DL' (corner position DLB) is not a corner"),
        (" ".join(SOLVED_TEXT.split()[:19]).lower(), "19 tokens, expected 20"),
        (SOLVED_TEXT.replace("UF ", "U ", 1), "token 1 'U' (edge position UF) is not an edge"),
        ("", "empty cube"),
        # lower case is a wide turn in standard notation (r = Rw): refused, never read as R
        ("ru", "move 'r' at character 1: lower-case face letters are wide turns"),
        ("R U f2", "move 'f' at character 5"),
        ("f-u+f-d-l-d-f-u-l2d-", "(f = Fw, two layers)"),
        # 54 facelets: wrong centres, wrong colour counts, an impossible corner
        ("R" + "U" * 53, "the centres (facelets 5, 14, 23, 32, 41, 50) read UUUUUU"),
        (
            "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBU",
            "each colour must appear 9 times, found 10 'U', 8 'B'",
        ),
        ("UUUUUUUUFRRRRRRRRRUFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB", "facelet string (read as cubies"),
    ],
)
def test_validation_errors_name_the_problem(text, fragment):
    with pytest.raises(PuzzleError) as err:
        parse_cube(text)
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)


def test_random_cubes_are_seeded():
    a = [random_cube(random.Random(7)).to_text() for _ in range(2)]
    assert a[0] == a[1]
    assert random_cube(random.Random(8)).to_text() != a[0]


@pytest.mark.parametrize(
    "move, facelets",
    [
        ("", "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"),
        # worked out by hand on the standard URFDLB layout (the turned face's ring moves clockwise)
        ("R", "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"),
        ("U", "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB"),
        ("F", "UUUUUULLLURRURRURRFFFFFFFFFRRRDDDDDDLLDLLDLLDBBBBBBBBB"),
    ],
)
def test_facelets_of_single_turns(move, facelets):
    from puzzlesearch.cube.model.cubie import SOLVED
    from puzzlesearch.cube.model.facelets import to_facelets

    assert to_facelets(parse_cube(move) if move else SOLVED) == facelets


def test_facelets_round_trip_and_kociemba_example():
    """54-facelet input is the inverse of to_facelets; the kociemba package's README example parses."""
    from puzzlesearch.cube.model.cubie import from_facelets
    from puzzlesearch.cube.model.facelets import to_facelets

    rng = random.Random(12)
    for _ in range(300):
        cube = random_cube(rng)
        assert parse_cube(to_facelets(cube)) == cube
    # github.com/muodov/kociemba README: this cube's answer is "D2 R' D' F2 B D R2 D2 R' F2 D' F2 U' B2 L2 U2 D R2 U"
    example = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"
    answer = "D2 R' D' F2 B D R2 D2 R' F2 D' F2 U' B2 L2 U2 D R2 U"
    assert from_facelets(example).apply(parse_moves(answer)).is_solved


def test_numba_check_of_a_solution_agrees_with_the_cubie_model():
    """solve.verify (numba, _kernels/cubies.py) and CubieCube.apply (pure Python): the same verdict.

    Half the cases are real solutions (the inverse of the scramble), half random sequences,
    and some answers one move short or one wrong move from a solution.
    """
    from puzzlesearch.cube.solve import UnverifiedSolution, verify

    rng = random.Random(2026)
    inverse = [3 * (m // 3) + 2 - m % 3 for m in range(len(MOVE_CUBES))]
    verdicts = []
    for i in range(600):
        scramble = [rng.randrange(len(MOVE_CUBES)) for _ in range(rng.randrange(1, 25))]
        cube = SOLVED.apply(scramble) if i % 3 else random_cube(rng)
        answer = [inverse[m] for m in reversed(scramble)]
        if i % 4 == 1:
            answer = answer[:-1]
        elif i % 4 == 2:
            answer[rng.randrange(len(answer))] = rng.randrange(len(MOVE_CUBES))
        want = cube.apply(answer).is_solved
        try:
            verify(cube, answer)
            got = True
        except UnverifiedSolution:
            got = False
        assert got == want, (cube.to_text(), answer)
        verdicts.append(want)
    assert 100 < sum(verdicts) < 500  # both verdicts are exercised
