"""Partitions of the letters per cell kind, and the canonical class list of a proof.

A partition splits a-z into buckets ('q' is the Qu face). A board partition gives each
cell kind (corner, edge, centre) its own partition, as the published prover does: the
coarse default gives the corners 2 buckets and the other cells 3. A top-level class of
a proof gives every cell one bucket of its kind's partition; it is numbered by its code,
the mixed-radix number of its bucket digits (cell 0, row-major, most significant).

A board symmetry maps corners to corners, edges to edges and the centre cells among
themselves, so the image of a class is a class; a class is canonical when its code is
the smallest of its images, and the canonical class list (ascending codes) holds one
class per symmetry orbit. The list is enumerated by blocks (`ClassSpace.codes`): the
last cells' digits and their image codes are tabulated once, and each block adds the
images of its first cells' digits, so the 1,068,363 canonical 4x4 classes come out of
8.5M codes in well under a second. Its length comes from Burnside's lemma without any
enumeration (`ClassSpace.count`), which is what the pipeline uses at DAG time.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from puzzlesearch.boggle.model import LETTERS, Shape, symmetries
from puzzlesearch.boggle.proof.classes import BoardClass
from puzzlesearch.errors import PuzzleError

CELL_KINDS = ("corner", "edge", "centre")
BLOCK = 1 << 18  # codes of the tabulated last cells (a block of the enumeration)


@dataclass(frozen=True)
class Partition:
    """Buckets of letters covering a-z, each letter in exactly one bucket."""

    buckets: tuple[str, ...]

    @classmethod
    def parse(cls, text: str, where: str = "partition") -> Partition:
        """'aeiou bdfgjqvwxz lnrsy chkmpt' -> Partition; a missing or repeated letter is an error."""
        if not isinstance(text, str):
            raise PuzzleError(f"{where} {text!r}: expected letter buckets separated by spaces")
        buckets = tuple(text.lower().split())
        if not buckets:
            raise PuzzleError(f"{where} {text!r}: no buckets")
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
        return cls(buckets)

    def __str__(self) -> str:
        return " ".join(self.buckets)

    def __len__(self) -> int:
        return len(self.buckets)

    @functools.cached_property
    def bucket_of(self) -> np.ndarray:
        """Bucket index of each letter index 0..25."""
        out = np.empty(len(LETTERS), dtype=np.int64)
        for i, bucket in enumerate(self.buckets):
            for ch in bucket:
                out[LETTERS.index(ch)] = i
        return out


def cell_kind(shape: Shape, cell: int) -> str:
    """'corner', 'edge' or 'centre' (inner) of a cell."""
    r, c = divmod(cell, shape.cols)
    on_row_edge, on_col_edge = r in (0, shape.rows - 1), c in (0, shape.cols - 1)
    if on_row_edge and on_col_edge:
        return "corner"
    return "edge" if on_row_edge or on_col_edge else "centre"


@dataclass(frozen=True)
class BoardPartition:
    """One partition per cell kind."""

    corner: Partition
    edge: Partition
    centre: Partition

    @classmethod
    def parse(cls, spec, where: str = "partition") -> BoardPartition:
        """A string (one partition for all cells) or {corner, edge, centre} -> BoardPartition."""
        if isinstance(spec, BoardPartition):
            return spec
        if isinstance(spec, str):
            one = Partition.parse(spec, where)
            return cls(one, one, one)
        if not isinstance(spec, dict) or set(spec) != set(CELL_KINDS):
            raise PuzzleError(
                f"{where} {spec!r}: expected letter buckets (every cell) or a mapping with keys {', '.join(CELL_KINDS)}"
            )
        return cls(*(Partition.parse(spec[kind], f"{where}.{kind}") for kind in CELL_KINDS))

    def kind(self, kind: str) -> Partition:
        return getattr(self, kind)

    def spec(self):
        """The settings form: one string when every kind has the same partition, else a mapping."""
        if self.corner == self.edge == self.centre:
            return str(self.corner)
        return {kind: str(self.kind(kind)) for kind in CELL_KINDS}

    def __str__(self) -> str:
        spec = self.spec()
        return spec if isinstance(spec, str) else ", ".join(f"{k}: {v}" for k, v in spec.items())

    def for_cells(self, shape: Shape) -> tuple[Partition, ...]:
        """The partition of each cell of a shape."""
        return tuple(self.kind(cell_kind(shape, i)) for i in range(shape.cells))


class ClassSpace:
    """The top-level classes of one shape and board partition, and their canonical list."""

    def __init__(self, shape: Shape, partition: BoardPartition):
        self.shape = shape
        self.partition = partition
        self.cell_partitions = partition.for_cells(shape)
        self.radices = np.array([len(p) for p in self.cell_partitions], dtype=np.int64)
        n = shape.cells
        self.total = math.prod(int(k) for k in self.radices)
        if self.total >= 2**62:
            raise PuzzleError(f"partition {partition} on a {shape} board: too many classes to number")
        self.weights = np.array([math.prod(int(k) for k in self.radices[i + 1 :]) for i in range(n)], dtype=np.int64)
        self.perms = symmetries(shape)
        kinds = np.array([CELL_KINDS.index(cell_kind(shape, i)) for i in range(n)])
        for p in self.perms:
            if not (kinds[p] == kinds).all():  # a guard: every symmetry keeps cell kinds
                raise PuzzleError(f"a symmetry of {shape} moves a cell to another kind")
        # image code of a class = digits @ image_weights[:, g] (cell j's digit moves to inv_g[j])
        self.image_weights = np.stack([self.weights[np.argsort(p)] for p in self.perms], axis=1)

    # ------------------------------------------------------------ numbering

    def digits(self, codes) -> np.ndarray:
        """Bucket digits (rows of cells) of class codes."""
        codes = np.asarray(codes, dtype=np.int64)
        return (codes[..., None] // self.weights) % self.radices

    def code(self, digits) -> int:
        return int(np.asarray(digits, dtype=np.int64) @ self.weights)

    def board_class(self, code: int) -> BoardClass:
        """The class of a code: each cell's bucket of its kind's partition."""
        cells = tuple(
            tuple(LETTERS.index(ch) for ch in part.buckets[int(d)])
            for part, d in zip(self.cell_partitions, self.digits(code))
        )
        return BoardClass(self.shape, cells)

    def canonical_code(self, code: int) -> int:
        """The smallest image of a class under the symmetries."""
        return int((self.digits(code) @ self.image_weights).min())

    def class_of_board(self, letters) -> int:
        """The canonical class code holding a board (letter indices) or one of its symmetric images."""
        letters = np.asarray(letters, dtype=np.int64)
        digits = [part.bucket_of[letter] for part, letter in zip(self.cell_partitions, letters)]
        return self.canonical_code(self.code(digits))

    # ------------------------------------------------------------ the canonical list

    def count(self) -> int:
        """Length of the canonical class list, by Burnside's lemma (orbits = mean fixed classes)."""
        fixed = 0
        for p in self.perms:
            seen = np.zeros(len(p), dtype=bool)
            classes = 1
            for start in range(len(p)):
                if not seen[start]:
                    classes *= int(self.radices[start])
                    cell = start
                    while not seen[cell]:
                        seen[cell] = True
                        cell = int(p[cell])
            fixed += classes
        return fixed // len(self.perms)

    @functools.cached_property
    def _low(self) -> tuple[int, np.ndarray, np.ndarray]:
        """(cells in the table, their codes, their image codes) of the last cells."""
        n, low = self.shape.cells, 0
        while low < n and math.prod(int(k) for k in self.radices[n - low - 1 :]) <= BLOCK:
            low += 1
        size = math.prod(int(k) for k in self.radices[n - low :])
        codes = np.arange(size, dtype=np.int64)
        digits = (codes[:, None] // self.weights[n - low :]) % self.radices[n - low :]
        return low, codes, digits @ self.image_weights[n - low :]

    def blocks(self):
        """(first code, canonical codes) of each block of consecutive codes, in order."""
        n = self.shape.cells
        low, low_codes, low_images = self._low
        step = len(low_codes)
        high_weights = self.image_weights[: n - low]
        for block in range(self.total // step):
            first = block * step
            high_images = self.digits(first)[: n - low] @ high_weights
            keep = ((low_images + high_images) >= (low_codes + first)[:, None]).all(axis=1)
            yield first, low_codes[keep] + first

    def codes(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Codes of the canonical classes at positions [start, stop) of the list."""
        stop = self.count() if stop is None else stop
        out, seen = [], 0
        for _first, codes in self.blocks():
            if seen + len(codes) > start:
                out.append(codes[max(0, start - seen) : stop - seen])
            seen += len(codes)
            if seen >= stop:
                break
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)

    def position(self, code: int) -> int:
        """Position of a canonical class code in the list."""
        if self.canonical_code(code) != code:
            raise PuzzleError(
                f"class code {code} is not canonical (its canonical image is {self.canonical_code(code)})"
            )
        seen = 0
        for first, codes in self.blocks():
            if first + len(self._low[1]) > code:
                return seen + int(np.searchsorted(codes, code))
            seen += len(codes)
        raise PuzzleError(f"class code {code}: out of range 0..{self.total - 1}")


def shard_range(count: int, shard: int, shards: int) -> tuple[int, int]:
    """Positions [a, b) of the canonical list held by one shard (consecutive, sizes differ by <= 1)."""
    if not 0 <= shard < shards:
        raise PuzzleError(f"shard {shard}: must be 0..{shards - 1} (shards {shards})")
    return count * shard // shards, count * (shard + 1) // shards
