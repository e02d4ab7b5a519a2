"""The facelet layer: a cube as its 54 stickers (Kociemba's URFDLB string).

Faces in the order U R F D L B, each read row by row as seen from outside with U up
(for U: B edge at the top; for D: F edge at the top), 9 facelets each, so the solved cube
is "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB". This is the input format of
Kociemba's solvers (e.g. the `kociemba` package), used by the benchmark as a reference.

The layer below the cubies: it reads and writes the 20-token cubie text, and model/cubie.py
turns that into a cube (`from_facelets`).
"""

from __future__ import annotations

from puzzlesearch.cube.model.constants import CORNER_NAMES, EDGE_NAMES, FACES
from puzzlesearch.errors import PuzzleError

N_FACELETS = 54


def _at(face: str, n: int) -> int:
    """Index of facelet n (1..9) of a face in the 54-character string."""
    return FACES.index(face) * 9 + n - 1


# Which facelet of each face a cubie position shows (Kociemba's cornerFacelet/edgeFacelet).
_POSITION_FACELETS = {
    frozenset("UR"): {"U": _at("U", 6), "R": _at("R", 2)},
    frozenset("UF"): {"U": _at("U", 8), "F": _at("F", 2)},
    frozenset("UL"): {"U": _at("U", 4), "L": _at("L", 2)},
    frozenset("UB"): {"U": _at("U", 2), "B": _at("B", 2)},
    frozenset("DR"): {"D": _at("D", 6), "R": _at("R", 8)},
    frozenset("DF"): {"D": _at("D", 2), "F": _at("F", 8)},
    frozenset("DL"): {"D": _at("D", 4), "L": _at("L", 8)},
    frozenset("DB"): {"D": _at("D", 8), "B": _at("B", 8)},
    frozenset("FR"): {"F": _at("F", 6), "R": _at("R", 4)},
    frozenset("FL"): {"F": _at("F", 4), "L": _at("L", 6)},
    frozenset("BL"): {"B": _at("B", 6), "L": _at("L", 4)},
    frozenset("BR"): {"B": _at("B", 4), "R": _at("R", 6)},
    frozenset("URF"): {"U": _at("U", 9), "R": _at("R", 1), "F": _at("F", 3)},
    frozenset("UFL"): {"U": _at("U", 7), "F": _at("F", 1), "L": _at("L", 3)},
    frozenset("ULB"): {"U": _at("U", 1), "L": _at("L", 1), "B": _at("B", 3)},
    frozenset("UBR"): {"U": _at("U", 3), "B": _at("B", 1), "R": _at("R", 3)},
    frozenset("DFR"): {"D": _at("D", 3), "F": _at("F", 9), "R": _at("R", 7)},
    frozenset("DLF"): {"D": _at("D", 1), "L": _at("L", 9), "F": _at("F", 7)},
    frozenset("DBL"): {"D": _at("D", 7), "B": _at("B", 9), "L": _at("L", 7)},
    frozenset("DRB"): {"D": _at("D", 9), "R": _at("R", 9), "B": _at("B", 7)},
}


def to_facelets(cube) -> str:
    """The 54-facelet URFDLB string of a cube (a CubieCube: anything with the 20-token to_text())."""
    stickers = ["?"] * N_FACELETS
    for face in FACES:  # centres
        stickers[_at(face, 5)] = face
    for position, token in zip(EDGE_NAMES + CORNER_NAMES, cube.to_text().split()):
        where = _POSITION_FACELETS[frozenset(position)]
        for face, colour in zip(position, token):  # the token names colours in the position's order
            stickers[where[face]] = colour
    return "".join(stickers)


def is_facelet_text(text: str) -> bool:
    """True for one word of 54 upper-case letters URFDLB (a facelet string).

    A 54-move compact scramble with no turn suffixes would read as facelets too; give such
    a scramble with spaces.
    """
    word = text.strip()
    return len(word) == N_FACELETS and set(word) <= set(FACES)


def facelet_tokens(text: str) -> str:
    """The 20-token cubie text of a 54-facelet URFDLB string (centres and colour counts checked)."""
    word = text.strip()
    centres = "".join(word[_at(face, 5)] for face in FACES)
    if centres != FACES:
        raise PuzzleError(
            f"facelet string: the centres (facelets 5, 14, 23, 32, 41, 50) read {centres}, "
            f"expected {FACES} (faces in the order U R F D L B)"
        )
    counts = {face: word.count(face) for face in FACES}
    wrong = [f"{n} {face!r}" for face, n in counts.items() if n != N_FACELETS // len(FACES)]
    if wrong:
        raise PuzzleError(f"facelet string: each colour must appear 9 times, found {', '.join(wrong)}")
    tokens = [
        "".join(word[_POSITION_FACELETS[frozenset(pos)][face]] for face in pos) for pos in EDGE_NAMES + CORNER_NAMES
    ]
    return " ".join(tokens)
