"""Boggle board model: board text, shapes, neighbours, symmetries, dice; a bad board on the command line."""

from __future__ import annotations

import pytest

from puzzlesearch.boggle.model import (
    Shape,
    decode_boards,
    encode_boards,
    neighbours,
    parse_board,
    parse_dice,
    symmetries,
)
from puzzlesearch.cli import main
from puzzlesearch.errors import PuzzleError

# ---------------------------------------------------------------- model


def test_parse_and_format_board():
    b = parse_board("PERS/latg sine\tters")
    assert (b.rows, b.cols, str(b)) == (4, 4, "perslatgsineters")
    assert parse_board("plseairtnsed", rows=4).shape == Shape(4, 3)
    assert parse_board("abcdef", cols=2).shape == Shape(3, 2)
    assert decode_boards(encode_boards(["streaedlp"], Shape(3, 3))) == ["streaedlp"]


@pytest.mark.parametrize(
    "text, rows, cols, message",
    [
        ("perslatgsinete1s", None, None, "character '1' at position 15"),
        ("perslatgsineter", None, None, "15 letters"),
        ("plseairtnsed", 5, 3, "a 5x3 board needs 15"),
        ("abcdefg", 1, 7, "sides must be 2..6"),
        ("", None, None, "empty"),
        ("ab-cd", None, None, "character '-'"),
    ],
)
def test_bad_board_text(text, rows, cols, message):
    with pytest.raises(PuzzleError, match=message):
        parse_board(text, rows, cols)


def test_cli_bad_board_is_one_line(capsys):
    assert main(["boggle", "score", "abc!"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'!'" in err[0]


def test_neighbours_and_symmetries():
    nbr, count = neighbours(Shape(3, 4))
    assert count.tolist() == [3, 5, 5, 3, 5, 8, 8, 5, 3, 5, 5, 3]
    assert sorted(nbr[0, :3]) == [1, 4, 5]
    assert len(symmetries(Shape(4, 4))) == 8 and len(symmetries(Shape(3, 4))) == 4
    for shape in (Shape(4, 4), Shape(3, 4), Shape(2, 5)):
        for p in symmetries(shape):  # a symmetry maps adjacent cells to adjacent cells
            adj = {(i, int(j)) for i in range(shape.cells) for j in nbr_of(shape, i)}
            assert {(int(p[i]), int(p[j])) for i, j in adj} == adj


def nbr_of(shape, i):
    nbr, count = neighbours(shape)
    return nbr[i, : count[i]]


def test_dice_parsing():
    dice = parse_dice("classic")
    assert dice.shape == (16, 6) and "".join(chr(97 + c) for c in dice[10]) == "himnqu"
    with pytest.raises(PuzzleError, match="die 2"):
        parse_dice(["abcdef", "abc"])
    with pytest.raises(PuzzleError, match="dice set 'nope'"):
        parse_dice("nope")
