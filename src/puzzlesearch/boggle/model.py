"""Boggle vocabulary: board shapes, boards, neighbours, symmetries, points, dice.

A board is R x C cells (2 <= R, C <= 6), written row by row as letters a-z; the letter
`q` is the "Qu" face (one cell, two letters of a word). Cells hold letter indices 0..25
(0 = 'a') in a uint8 array. Rows may be separated by '/' or spaces: "pers/latg/sine/ters".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import numpy as np

from puzzlesearch.errors import PuzzleError

LETTERS = "abcdefghijklmnopqrstuvwxyz"
N_LETTERS = 26
QU = LETTERS.index("q")  # 16: the letter index of the "Qu" face (one cell, two letters of a word)
MIN_SIDE, MAX_SIDE = 2, 6
MAX_CELLS = MAX_SIDE * MAX_SIDE  # 36 cells: a used-cell set fits one int64 bit mask

# Points by word length (real letters, "qu" counts 2): index = length, the last entry
# applies to every longer word. Classic table: 3-4 letters 1, 5: 2, 6: 3, 7: 5, 8+: 11.
DEFAULT_POINTS = (0, 0, 0, 1, 1, 2, 3, 5, 11)
MAX_POINTS = 10**12  # per word (the schema's bound): a board's int64 score cannot overflow

# The 16 classic Boggle dice (seed 000's list); 'q' is the "Qu" face.
CLASSIC_DICE = (
    "aaeegn",
    "elrtty",
    "aoottw",
    "abbjoo",
    "ehrtvw",
    "cimotu",
    "distty",
    "eiosst",
    "delrvy",
    "achops",
    "himnqu",
    "eeinsu",
    "eeghnw",
    "affkps",
    "hlnnrz",
    "deilrx",
)
# The 25 dice of Big Boggle (5x5) as given in the Stanford CS106B Boggle assignment
# (its BIG_BOGGLE_CUBES table, copied into many public course repositories); other
# published lists differ in a die or two. 'q' is the "Qu" face.
BIG_BOGGLE_DICE = (
    "aaafrs",
    "aaeeee",
    "aafirs",
    "adennn",
    "aeeeem",
    "aeegmu",
    "aegmnn",
    "afirsy",
    "bjkqxz",
    "ccnstw",
    "ceiilt",
    "ceilpt",
    "ceipst",
    "ddlnor",
    "ddhnot",
    "dhhlor",
    "dhlnor",
    "eiiitt",
    "emottt",
    "ensssu",
    "fiprsy",
    "gorrvw",
    "hiprry",
    "nootuw",
    "ooottu",
)
DICE_SETS = {"classic": CLASSIC_DICE, "big": BIG_BOGGLE_DICE}


@dataclass(frozen=True)
class Shape:
    """A board shape: rows x cols cells."""

    rows: int
    cols: int

    def __post_init__(self) -> None:
        for side in (self.rows, self.cols):
            if not MIN_SIDE <= side <= MAX_SIDE:
                raise PuzzleError(f"board shape {self.rows}x{self.cols}: sides must be {MIN_SIDE}..{MAX_SIDE}")

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    @classmethod
    def parse(cls, text: str) -> Shape:
        """'4x4' -> Shape(4, 4)."""
        m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", str(text))
        if not m:
            raise PuzzleError(f"board shape {text!r}: expected ROWSxCOLS, e.g. 4x4")
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def for_length(cls, n: int) -> Shape:
        """The square shape with n cells; an error for other lengths."""
        side = int(round(n**0.5))
        if side * side != n or not MIN_SIDE <= side <= MAX_SIDE:
            raise PuzzleError(f"board has {n} letters: not a square board (4, 9, 16, 25, 36); give --rows and --cols")
        return cls(side, side)


@dataclass(frozen=True)
class Board:
    """A Boggle board: shape and cells (letter indices, row-major)."""

    rows: int
    cols: int
    cells: tuple[int, ...]

    @property
    def shape(self) -> Shape:
        return Shape(self.rows, self.cols)

    @property
    def array(self) -> np.ndarray:
        """The cells as a uint8 array."""
        return np.asarray(self.cells, dtype=np.uint8)

    def __str__(self) -> str:
        return format_cells(self.cells)


def parse_board(text: str, rows: int | None = None, cols: int | None = None) -> Board:
    """Board text (row-major letters, 'q' = Qu, rows optionally split by '/' or spaces)."""
    raw = str(text).strip()
    parts = [p for p in re.split(r"[/\s]+", raw) if p]
    letters = "".join(parts).lower()
    for i, ch in enumerate(letters):
        if ch not in LETTERS:
            raise PuzzleError(f"board {raw!r}: character {ch!r} at position {i + 1} is not a letter a-z")
    if not letters:
        raise PuzzleError("board is empty")
    if len(parts) > 1 and len({len(p) for p in parts}) > 1:
        lengths = "/".join(str(len(p)) for p in parts)
        raise PuzzleError(f"board {raw!r}: rows of different lengths ({lengths} letters)")
    if rows is None and cols is None and len(parts) > 1:
        rows, cols = len(parts), len(parts[0])
    if rows is None and cols is None:
        shape = Shape.for_length(len(letters))
    else:
        if rows is None:
            rows = len(letters) // cols if cols else 0
        if cols is None:
            cols = len(letters) // rows if rows else 0
        shape = Shape(rows, cols)
    if len(letters) != shape.cells:
        raise PuzzleError(f"board {raw!r} has {len(letters)} letters; a {shape} board needs {shape.cells}")
    return Board(shape.rows, shape.cols, tuple(LETTERS.index(ch) for ch in letters))


def format_cells(cells) -> str:
    """Letter indices -> board text ('q' stands for Qu)."""
    return "".join(LETTERS[int(c)] for c in cells)


def encode_boards(texts, shape: Shape) -> np.ndarray:
    """Many board texts of one shape -> a 2-D uint8 array."""
    return np.array([parse_board(t, shape.rows, shape.cols).cells for t in texts], dtype=np.uint8).reshape(
        -1, shape.cells
    )


def decode_boards(boards: np.ndarray) -> list[str]:
    """A 2-D uint8 array of boards -> board texts."""
    table = np.frombuffer(LETTERS.encode(), dtype=np.uint8)
    return [row.tobytes().decode() for row in table[np.asarray(boards)]]


@cache
def neighbours(shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """(nbr, count): nbr[cell, k] for k < count[cell] are the (up to 8) adjacent cells."""
    nbr = np.full((shape.cells, 8), -1, dtype=np.int32)
    count = np.zeros(shape.cells, dtype=np.int32)
    for r in range(shape.rows):
        for c in range(shape.cols):
            cell = r * shape.cols + c
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < shape.rows and 0 <= cc < shape.cols:
                        nbr[cell, count[cell]] = rr * shape.cols + cc
                        count[cell] += 1
    nbr.setflags(write=False)
    count.setflags(write=False)
    return nbr, count


@cache
def neighbour_masks(shape: Shape) -> np.ndarray:
    """masks[cell]: bit j set when cell j is adjacent to cell (int64, one per cell)."""
    nbr, count = neighbours(shape)
    masks = np.zeros(shape.cells, dtype=np.int64)
    for cell in range(shape.cells):
        for j in nbr[cell, : count[cell]]:
            masks[cell] |= np.int64(1) << np.int64(j)
    masks.setflags(write=False)
    return masks


@cache
def symmetries(shape: Shape) -> np.ndarray:
    """Cell permutations p (board[p] is the moved board): 8 for square boards, 4 otherwise."""
    R, C = shape.rows, shape.cols
    grid = np.arange(R * C).reshape(R, C)
    maps = [grid, grid[::-1, :], grid[:, ::-1], grid[::-1, ::-1]]
    if shape.square:
        maps += [m.T for m in maps]
    perms = np.array([m.reshape(-1) for m in maps], dtype=np.int32)
    perms.setflags(write=False)
    return perms


def canonical(boards: np.ndarray, shape: Shape) -> np.ndarray:
    """Each board's smallest form under the shape's symmetries."""
    boards = np.ascontiguousarray(boards, dtype=np.uint8)
    out = np.empty_like(boards)
    from puzzlesearch.boggle._kernels.symmetry import canonical_boards  # here: the model imports no numba

    canonical_boards(boards, symmetries(shape), out)
    return out


@cache
def cell_pairs(n_cells: int) -> np.ndarray:
    """All pairs (i, j), i < j, of cells, in a fixed order."""
    pairs = np.array([(i, j) for i in range(n_cells) for j in range(i + 1, n_cells)], dtype=np.int32)
    pairs.setflags(write=False)
    return pairs.reshape(-1, 2)


def points_table(points=DEFAULT_POINTS, max_length: int = 64) -> np.ndarray:
    """Points by word length as an int64 array of max_length + 1 entries."""
    points = [int(p) for p in points]
    if not points or any(not 0 <= p <= MAX_POINTS for p in points):
        raise PuzzleError(f"points table {points}: needs at least one entry, each 0..{MAX_POINTS}")
    out = np.zeros(max_length + 1, dtype=np.int64)
    for length in range(max_length + 1):
        out[length] = points[min(length, len(points) - 1)]
    out[:3] = 0  # Boggle words have at least 3 letters
    return out


def parse_dice(dice) -> np.ndarray:
    """Dice as strings of faces ('q' = Qu) or a set name -> (n_dice, faces) uint8 array."""
    if isinstance(dice, str):
        if dice not in DICE_SETS:
            raise PuzzleError(f"dice set {dice!r}: not one of {sorted(DICE_SETS)} (or give a list of dice)")
        dice = DICE_SETS[dice]
    dice = [str(d).strip().lower() for d in dice]
    if not dice:
        raise PuzzleError("dice set is empty")
    n_faces = len(dice[0])
    for i, die in enumerate(dice):
        if len(die) != n_faces:
            raise PuzzleError(f"die {i + 1} {die!r} has {len(die)} faces; the first has {n_faces}")
        for ch in die:
            if ch not in LETTERS:
                raise PuzzleError(f"die {i + 1} {die!r}: face {ch!r} is not a letter a-z")
    return np.array([[LETTERS.index(ch) for ch in die] for die in dice], dtype=np.uint8)
