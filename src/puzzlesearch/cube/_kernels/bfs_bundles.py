"""The bundles the cube's BFS kernels take (the tables' builds): typing.NamedTuples, declared once.

Kept apart from bundles.py (the searches'), so that a change to a search's bundle does not
change the code that shapes a table (its store key and workflow inputs: tables/__init__.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class SymClassArrays(NamedTuple):
    """Classes of a pair coordinate x under the 16 U-D symmetries (tables/big.py, tables/coset.py).

    symidx[x] = u with conj(x, u) = rep[classidx[x]]; stab[c] has bit s set when s fixes rep[c].
    """

    rep: np.ndarray  # int32 (classes,)
    classidx: np.ndarray  # int32 (values,)
    symidx: np.ndarray  # uint8 (values,)
    stab: np.ndarray  # uint16 (classes,)

    def arrays(self) -> dict[str, np.ndarray]:
        """The four arrays by name (the classes file's layout)."""
        return self._asdict()


class SymData(NamedTuple):
    """The big table's classes (flip x slice) and the twist conjugation (BFS and bound kernels)."""

    rep: np.ndarray
    classidx: np.ndarray
    symidx: np.ndarray
    stab: np.ndarray
    twist_conj: np.ndarray  # twist x 16


class CoordMoves(NamedTuple):
    """Move tables (size x 18) of the big table's coordinates: flip, the table's slice, twist."""

    flip: np.ndarray
    slice: np.ndarray
    twist: np.ndarray


class CornerMoves(NamedTuple):
    """Move tables of the coset table's row coordinate: U-corner positions and twist."""

    ctop: np.ndarray
    twist: np.ndarray


class Columns(NamedTuple):
    """The coset table's columns (E-slice positions x flip): moved and conjugated from small tables."""

    move_slice: np.ndarray
    move_flip: np.ndarray
    slice_conj: np.ndarray
    flip_conj: np.ndarray
    flip_offset: np.ndarray  # 495 x 16: the flip change of a conjugate, by where the E edges are
    n_flip: int  # 1: a table without the flip


class SymLayer(NamedTuple):
    """A symmetry-reduced BFS's tables (_kernels/phase_bfs.py bfs_sym_distances)."""

    move_a: np.ndarray
    move_b: np.ndarray
    move_t: np.ndarray
    classsym: np.ndarray  # raw -> class << SYM_SHIFT | symmetry
    reps: np.ndarray
    selfsym: np.ndarray
    t_conj: np.ndarray
    moves: np.ndarray
