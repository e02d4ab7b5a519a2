"""Board classes for proofs: a letter set per cell, the split order, canonical boards.

A board class gives each cell one letter set; the proof's top-level classes (one bucket
of a partition per cell) and their canonical list under symmetry are in partition.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from puzzlesearch.boggle.model import LETTERS, Shape, symmetries
from puzzlesearch.errors import PuzzleError


@dataclass(frozen=True)
class BoardClass:
    """One letter set per cell (letter indices), row-major."""

    shape: Shape
    cells: tuple[tuple[int, ...], ...]

    @classmethod
    def parse(cls, text: str, shape: Shape) -> BoardClass:
        """'lnrsy aeiou ...' (one letter set per cell, space-separated) -> BoardClass."""
        sets = str(text).lower().split()
        if len(sets) != shape.cells:
            raise PuzzleError(f"board class {text!r}: {len(sets)} letter sets, a {shape} board needs {shape.cells}")
        cells = []
        for s in sets:
            for ch in s:
                if ch not in LETTERS:
                    raise PuzzleError(f"board class {text!r}: {ch!r} is not a letter a-z")
            cells.append(tuple(sorted({LETTERS.index(ch) for ch in s})))
        return cls(shape, tuple(cells))

    def __str__(self) -> str:
        return " ".join("".join(LETTERS[c] for c in cell) for cell in self.cells)

    @property
    def size(self) -> int:
        """Number of boards in the class."""
        return int(np.prod([len(c) for c in self.cells], dtype=object))

    def boards(self) -> Iterator[tuple[int, ...]]:
        """Every board of the class (small classes only: tests, brute force)."""
        import itertools

        return itertools.product(*self.cells)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(letters[cell, j], n_letters[cell]) int64 arrays for the kernels (-1 padding)."""
        width = max(len(c) for c in self.cells)
        letters = np.full((len(self.cells), width), -1, dtype=np.int64)
        for i, cell in enumerate(self.cells):
            letters[i, : len(cell)] = cell
        return letters, np.array([len(c) for c in self.cells], dtype=np.int64)


# The published 3x3 order (centre, the middles of the sides, the corners): its orderly bound
# of the class "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz" is 1,231.
PUBLISHED_SPLIT_ORDERS = {(3, 3): (4, 5, 3, 1, 7, 0, 2, 6, 8)}


def split_order(shape: Shape) -> np.ndarray:
    """Cells in the order they are split: nearest the centre first (the published order for 3x3)."""
    if (shape.rows, shape.cols) in PUBLISHED_SPLIT_ORDERS:
        return np.array(PUBLISHED_SPLIT_ORDERS[shape.rows, shape.cols], dtype=np.int64)
    cr, cc = (shape.rows - 1) / 2, (shape.cols - 1) / 2
    cells = range(shape.cells)
    key = [((r - cr) ** 2 + (c - cc) ** 2, r * shape.cols + c) for r, c in (divmod(i, shape.cols) for i in cells)]
    return np.array([cell for _, cell in sorted(key)], dtype=np.int64)


CENTRE, CENTRE_FEWEST = "centre", "centre_fewest_letters"  # split order rules (boggle.proof.split_order)
SPLIT_ORDER_RULES = (CENTRE, CENTRE_FEWEST)


def class_split_order(cls: BoardClass, rule: str = CENTRE) -> np.ndarray:
    """A class's split order: the shape's (CENTRE), or, for CENTRE_FEWEST, the cells at each
    distance from the centre (a ring) reordered by their letter count, fewest first (then as
    the shape's order has them): a cell with few letters makes few sub-classes when forced.
    """
    base = split_order(cls.shape)
    if rule == CENTRE:
        return base
    if rule != CENTRE_FEWEST:
        raise PuzzleError(f"split order {rule!r}: expected one of {', '.join(SPLIT_ORDER_RULES)}")
    shape = cls.shape
    cr, cc = (shape.rows - 1) / 2, (shape.cols - 1) / 2
    ring = {c: (c // shape.cols - cr) ** 2 + (c % shape.cols - cc) ** 2 for c in range(shape.cells)}
    rank = {int(c): i for i, c in enumerate(base)}
    return np.array(sorted(rank, key=lambda c: (ring[c], len(cls.cells[c]), rank[c])), dtype=np.int64)


def canonical_board(cells, shape: Shape) -> str:
    """The smallest text of a board's symmetric images."""
    arr = np.asarray(cells)
    return min("".join(LETTERS[int(c)] for c in arr[p]) for p in symmetries(shape))
