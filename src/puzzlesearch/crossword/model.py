"""Crossword vocabulary: letters as codes, grids, slots, languages.

A grid is a 2-D int8 array of letter codes: 0 is a black cell, 1..K are the letters of
the alphabet in order (`Alphabet.letters[code - 1]`). Grids are stored in *reading order*:
for a right-to-left language (Arabic) column 0 is the rightmost column on the page, so
the search never needs to know the direction; only io.py mirrors for display.

A slot is a maximal run of white cells in a row (across) or a column (down). Runs of
length 1 are "one-letter slots": allowed, never checked against the lexicon.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from puzzlesearch.errors import PuzzleError

BLACK = 0
BLACK_CHAR = "#"
EMPTY_CHAR = "."
DIRECTION_KEY = "org.puzzlesearch.direction"  # .ipuz extension: a right-to-left grid's reading direction
ACROSS, DOWN = "across", "down"
DIGITS = "0123456789"
NUMERIC_FILLERS = "123456789"  # one-letter slots of numeric puzzles


@dataclass(frozen=True)
class Alphabet:
    """The letters of a language in code order, and its writing direction."""

    letters: str
    direction: str = "ltr"  # "rtl" for Arabic

    @property
    def size(self) -> int:
        return len(self.letters)

    def encode(self, word: str) -> np.ndarray:
        """Letter codes (1..K) of a word; PuzzleError on a letter outside the alphabet."""
        index = {ch: i + 1 for i, ch in enumerate(self.letters)}
        try:
            return np.array([index[ch] for ch in word], dtype=np.int8)
        except KeyError as exc:
            raise PuzzleError(f"letter {exc.args[0]!r} in {word!r} is not in the alphabet") from None

    def decode(self, codes) -> str:
        """The word spelled by letter codes (0 prints as the black-cell character)."""
        return "".join(self.letters[c - 1] if c > 0 else BLACK_CHAR for c in codes)


@dataclass(frozen=True)
class Language:
    """A crossword language: a code (en, ar, num), its lexicon name, and its alphabet."""

    code: str
    lexicon: str
    alphabet: Alphabet
    fillers: str  # letters allowed in one-letter slots

    @property
    def rtl(self) -> bool:
        return self.alphabet.direction == "rtl"

    @property
    def numeric(self) -> bool:
        return self.code == "num"


@dataclass(frozen=True)
class Slot:
    """A run of white cells: direction, start cell, length, and its clue number."""

    direction: str
    row: int
    col: int
    length: int
    number: int = 0

    def cells(self) -> list[tuple[int, int]]:
        """The (row, col) cells of the slot in reading order."""
        if self.direction == ACROSS:
            return [(self.row, self.col + i) for i in range(self.length)]
        return [(self.row + i, self.col) for i in range(self.length)]

    @property
    def name(self) -> str:
        """'12-Across' style name (the start cell when unnumbered)."""
        if self.number:
            return f"{self.number}-{self.direction.capitalize()}"
        return f"{self.direction} at row {self.row + 1} col {self.col + 1}"


def runs(line) -> list[tuple[int, int]]:
    """(start, length) of the maximal white runs in a 1-D row of codes or booleans."""
    out, start = [], None
    for i, v in enumerate(list(line) + [0]):
        if v and start is None:
            start = i
        elif not v and start is not None:
            out.append((start, i - start))
            start = None
    return out


def run_lengths(white: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(across, down) length of the white run through each cell (0 on black cells)."""
    white = np.asarray(white, dtype=bool)
    across, down = np.zeros(white.shape, dtype=int), np.zeros(white.shape, dtype=int)
    for r in range(white.shape[0]):
        for start, length in runs(white[r]):
            across[r, start : start + length] = length
    for c in range(white.shape[1]):
        for start, length in runs(white[:, c]):
            down[start : start + length, c] = length
    return across, down


def lone_cells(grid: np.ndarray) -> np.ndarray:
    """White cells in no entry: their across and down runs are both one cell."""
    across, down = run_lengths(np.asarray(grid) != BLACK)
    return (across == 1) & (down == 1)


def without_lone_letters(grid: np.ndarray) -> np.ndarray:
    """The grid with its lone letters made black (no entry changes: their neighbours are all black)."""
    out = np.array(grid, copy=True)
    out[lone_cells(out)] = BLACK
    return out


def slots(white: np.ndarray, min_length: int = 2) -> list[Slot]:
    """The numbered slots of a white-cell mask (min_length=1 keeps one-letter runs).

    Numbering is the usual one: scan cells in reading order; a cell that starts an
    across or a down slot of at least two letters gets the next number.
    """
    white = np.asarray(white, dtype=bool)
    n_rows, n_cols = white.shape
    found, number = [], 0
    for r in range(n_rows):
        for c in range(n_cols):
            if not white[r, c]:
                continue
            starts_a = c == 0 or not white[r, c - 1]
            starts_d = r == 0 or not white[r - 1, c]
            len_a = _run_length(white[r, c:]) if starts_a else 0
            len_d = _run_length(white[r:, c]) if starts_d else 0
            numbered = len_a >= 2 or len_d >= 2
            number += numbered
            for direction, length in ((ACROSS, len_a), (DOWN, len_d)):
                if length >= min_length and length >= 1:
                    found.append(Slot(direction, r, c, length, number if length >= 2 else 0))
    return found


def _run_length(line) -> int:
    n = 0
    for v in line:
        if not v:
            break
        n += 1
    return n


def grid_text(grid: np.ndarray, alphabet: Alphabet, mirror: bool | None = None) -> str:
    """The grid as lines of letters and '#' (mirrored for right-to-left languages)."""
    mirror = alphabet.direction == "rtl" if mirror is None else mirror
    lines = []
    for row in np.asarray(grid):
        cells = [alphabet.letters[c - 1] if c > 0 else BLACK_CHAR for c in row]
        lines.append("".join(cells[::-1] if mirror else cells))
    return "\n".join(lines)


def slot_word(grid: np.ndarray, slot: Slot, alphabet: Alphabet) -> str:
    """The letters in a slot, in reading order."""
    return alphabet.decode([grid[r, c] for r, c in slot.cells()])


THEME_DIRECTIONS = {"a": ACROSS, "across": ACROSS, "d": DOWN, "down": DOWN}


@dataclass(frozen=True)
class PuzzleText:
    """What a puzzle shows beside its grid: each answer's clue and word lengths, a title, notes.

    `clue`: an answer's clue ('' when none; WordTables.clue). `enumeration`: an answer's word
    lengths as shown after its clue ("2,1,4" for a phrase; WordTables.enumeration), by default
    its length. The writers (io.to_ipuz, page.to_page, io.write_puzzle) take one of these.
    """

    clue: Callable[[str], str] | None = None
    enumeration: Callable[[str], str] | None = None
    title: str = ""
    notes: str = ""

    def clue_of(self, answer: str) -> str:
        """The answer's clue ('' without a clue source)."""
        return self.clue(answer) if self.clue else ""

    def enumeration_of(self, answer: str) -> str:
        """The word lengths shown after the answer's clue."""
        return self.enumeration(answer) if self.enumeration else str(len(answer))


@dataclass(frozen=True)
class ThemeEntry:
    """A word the user fixes in a pattern: its first cell (1-based, reading order), direction and text."""

    row: int
    col: int
    direction: str
    word: str
    text: str  # as given (for messages)

    @classmethod
    def parse(cls, text: str) -> ThemeEntry:
        """ThemeEntry of 'ROW,COL,DIR,WORD' (DIR A/across or D/down); PuzzleError naming the flag otherwise."""
        parts = [p.strip() for p in text.split(",")]
        bad = f"--theme {text!r}: expected ROW,COL,DIR,WORD (row and column from 1, DIR A or D), e.g. 1,1,A,CRANE"
        if len(parts) != 4 or not all(parts) or parts[2].lower() not in THEME_DIRECTIONS:
            raise PuzzleError(bad)
        try:
            row, col = int(parts[0]), int(parts[1])
        except ValueError:
            raise PuzzleError(bad) from None
        return cls(row, col, THEME_DIRECTIONS[parts[2].lower()], parts[3].lower(), text)

    def slot(self) -> Slot:
        """The slot the word fills (0-based start)."""
        return Slot(self.direction, self.row - 1, self.col - 1, len(self.word))


def place_theme(pattern: np.ndarray, entries: list[ThemeEntry], alphabet: Alphabet) -> np.ndarray:
    """The pattern (0 black, -1 empty, >0 given) with each theme word written in as given letters.

    Each word must fill one whole slot (black or the edge before and after it), on white
    cells, agreeing with the letters already given (the pattern's and earlier entries').
    """
    grid = pattern.copy()
    n_rows, n_cols = grid.shape
    for entry in entries:
        where = f"--theme {entry.text!r}"
        try:
            codes = alphabet.encode(entry.word)
        except PuzzleError as exc:
            raise PuzzleError(f"{where}: {exc}") from None
        cells = entry.slot().cells()
        dr, dc = (0, 1) if entry.direction == ACROSS else (1, 0)
        before, after = (cells[0][0] - dr, cells[0][1] - dc), (cells[-1][0] + dr, cells[-1][1] + dc)

        def white(r: int, c: int) -> bool:
            return 0 <= r < n_rows and 0 <= c < n_cols and grid[r, c] != BLACK

        if not all(0 <= r < n_rows and 0 <= c < n_cols for r, c in cells):
            raise PuzzleError(f"{where}: runs off the {n_rows}x{n_cols} grid")
        for (r, c), code in zip(cells, codes):
            if grid[r, c] == BLACK:
                raise PuzzleError(f"{where}: row {r + 1} column {c + 1} is a black cell")
            if grid[r, c] > 0 and grid[r, c] != code:
                given = alphabet.decode([int(grid[r, c])])
                raise PuzzleError(f"{where}: row {r + 1} column {c + 1} already holds {given!r}")
            grid[r, c] = code
        if white(*before) or white(*after):
            raise PuzzleError(
                f"{where}: the word must fill a whole {entry.direction} slot (black or the edge at both ends)"
            )
    return grid
