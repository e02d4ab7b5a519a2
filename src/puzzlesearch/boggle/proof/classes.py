"""Board classes for proofs: a partition of the letters, classes of boards, symmetry.

A partition splits a-z into buckets ("aeiou bdfgjqvwxz lnrsy chkmpt"; 'q' is the Qu
face). A board class gives each cell one letter set; the proof's top-level classes give
each cell one bucket (buckets ** cells classes), and a class is kept only when it is the
smallest of its images under the board symmetries (its code, bucket digits row by row,
is minimal), so the boards of the skipped classes are symmetric images of kept ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from puzzlesearch.boggle.model import LETTERS, Shape, symmetries
from puzzlesearch.errors import PuzzleError

DEFAULT_PARTITION = "aeiou bdfgjqvwxz lnrsy chkmpt"
CHUNK = 1 << 20  # classes enumerated per numpy step


@dataclass(frozen=True)
class Partition:
    """Buckets of letters covering a-z, each letter in exactly one bucket."""

    buckets: tuple[str, ...]

    @classmethod
    def parse(cls, text: str, where: str = "partition") -> Partition:
        """'aeiou bdfgjqvwxz lnrsy chkmpt' -> Partition; a missing or repeated letter is an error."""
        buckets = tuple(str(text).lower().split())
        seen: dict[str, int] = {}
        for i, bucket in enumerate(buckets):
            for ch in bucket:
                if ch not in LETTERS:
                    raise PuzzleError(f"{where} {text!r}: {ch!r} is not a letter a-z")
                if ch in seen:
                    raise PuzzleError(f"{where} {text!r}: letter {ch!r} is in two buckets ({seen[ch] + 1} and {i + 1})")
                seen[ch] = i
        missing = [ch for ch in LETTERS if ch not in seen]
        if missing:
            raise PuzzleError(f"{where} {text!r}: letter {missing[0]!r} is in no bucket (every a-z letter needs one)")
        if len(buckets) < 1:
            raise PuzzleError(f"{where} {text!r}: no buckets")
        return cls(buckets)

    def __str__(self) -> str:
        return " ".join(self.buckets)

    def __len__(self) -> int:
        return len(self.buckets)


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

    @classmethod
    def from_digits(cls, digits, partition: Partition, shape: Shape) -> BoardClass:
        """The class giving cell i the bucket digits[i]."""
        return cls(shape, tuple(tuple(LETTERS.index(ch) for ch in partition.buckets[int(d)]) for d in digits))

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


def class_count(shape: Shape, partition: Partition) -> int:
    """Top-level classes before symmetry: buckets ** cells."""
    return len(partition) ** shape.cells


def _digits(codes: np.ndarray, k: int, n: int) -> np.ndarray:
    """Class codes -> bucket digits, most significant (cell 0) first."""
    out = np.empty((len(codes), n), dtype=np.int64)
    rest = codes.copy()
    for i in range(n - 1, -1, -1):
        out[:, i] = rest % k
        rest //= k
    return out


def canonical_classes(shape: Shape, partition: Partition) -> np.ndarray:
    """Codes of the top-level classes kept (the smallest of their symmetric images), ascending."""
    k, n = len(partition), shape.cells
    total = class_count(shape, partition)
    if total > 2**62:
        raise PuzzleError(f"{len(partition)} buckets on a {shape} board: too many classes to list")
    weights = np.array([k ** (n - 1 - i) for i in range(n)], dtype=np.int64)
    perms = symmetries(shape)
    kept = []
    for lo in range(0, total, CHUNK):
        codes = np.arange(lo, min(total, lo + CHUNK), dtype=np.int64)
        digits = _digits(codes, k, n)
        ok = np.ones(len(codes), dtype=bool)
        for p in perms[1:]:
            ok &= digits[:, p] @ weights >= codes
        kept.append(codes[ok])
    return np.concatenate(kept)


def class_digits(code: int, shape: Shape, partition: Partition) -> np.ndarray:
    """Bucket digits of one class code."""
    return _digits(np.array([code], dtype=np.int64), len(partition), shape.cells)[0]


def shard_codes(codes: np.ndarray, shard: int, shards: int) -> np.ndarray:
    """The classes of one shard: every `shards`-th class from position `shard` (balances cost)."""
    if not 0 <= shard < shards:
        raise PuzzleError(f"--shard {shard}: must be 0..{shards - 1}")
    return codes[shard::shards]


def canonical_board(cells, shape: Shape) -> str:
    """The smallest text of a board's symmetric images."""
    arr = np.asarray(cells)
    return min("".join(LETTERS[int(c)] for c in arr[p]) for p in symmetries(shape))
