"""Coordinates: numbers for the parts of a cube state that a phase cares about.

Each `Coord` maps cubie arrays (shape (n, 8) or (n, 12)) to integers and back (a
representative for every value), vectorized with numpy. Move tables are built from these
(`coord_move_table`); the searches only ever see the integers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from math import factorial

import numpy as np

from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.cubie import MOVE_CO, MOVE_CP, MOVE_EO, MOVE_EP

Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # cp, co, ep, eo; (n, k) int64


def solved_arrays(n: int) -> Arrays:
    """n copies of the solved cube."""
    cp = np.tile(np.arange(K.N_CORNERS), (n, 1))
    ep = np.tile(np.arange(K.N_EDGES), (n, 1))
    return cp, np.zeros_like(cp), ep, np.zeros_like(ep)


def apply_move(arrays: Arrays, m: int) -> Arrays:
    """Every state in `arrays` followed by move m."""
    cp, co, ep, eo = arrays
    c, e = MOVE_CP[m], MOVE_EP[m]
    return cp[:, c], (co[:, c] + MOVE_CO[m]) % 3, ep[:, e], (eo[:, e] + MOVE_EO[m]) % 2


# ------------------------------------------------------------------ helpers: ranks


def perm_rank(p: np.ndarray) -> np.ndarray:
    """Lexicographic rank of each row of p (rows are permutations of 0..n-1)."""
    n = p.shape[1]
    rank = np.zeros(p.shape[0], dtype=np.int64)
    for i in range(n - 1):
        smaller = (p[:, i + 1 :] < p[:, i : i + 1]).sum(axis=1)
        rank += smaller * factorial(n - 1 - i)
    return rank


def all_perms(n: int) -> np.ndarray:
    """Every permutation of 0..n-1, row r has rank r."""
    return np.array(list(itertools.permutations(range(n))), dtype=np.int64)


def relabel(values: np.ndarray, labels: tuple[int, ...]) -> np.ndarray:
    """Replace labels[k] by k (values must all be in labels)."""
    lut = np.full(max(K.N_EDGES, K.N_CORNERS), -1, dtype=np.int64)
    lut[list(labels)] = np.arange(len(labels))
    out = lut[values]
    if (out < 0).any():
        raise ValueError("state outside the coordinate's subgroup")
    return out


_MASKS = np.array([m for m in range(1 << K.N_EDGES) if bin(m).count("1") == 4][::-1], dtype=np.int64)
EDGE_MASK_RANK = np.full(1 << K.N_EDGES, -1, dtype=np.int64)  # bits of 4 edge positions -> slice coordinate
EDGE_MASK_RANK[_MASKS] = np.arange(len(_MASKS))  # 0xF00 (the E slice at home) has rank 0
_CMASKS = np.array([m for m in range(1 << K.N_CORNERS) if bin(m).count("1") == 4], dtype=np.int64)
CORNER_MASK_RANK = np.full(1 << K.N_CORNERS, -1, dtype=np.int64)  # bits of 4 corner positions -> ctop
CORNER_MASK_RANK[_CMASKS] = np.arange(len(_CMASKS))  # 0x0F (the U corners at home) has rank 0
U_CORNERS = (0, 1, 2, 3)  # UFR URB UBL ULF

# ------------------------------------------------------------------ the coordinates


@dataclass(frozen=True)
class Coord:
    """A coordinate: its size, the cube -> number map and a representative per number."""

    name: str
    size: int
    encode: Callable[[Arrays], np.ndarray]
    decode: Callable[[], Arrays]  # representatives of 0 .. size-1, in order
    moves: tuple[int, ...] = K.ALL_MOVES  # moves that keep the states where it is defined

    def of(self, cube) -> int:
        """The coordinate of one CubieCube."""
        return int(self.encode(cube.arrays())[0])


def _flip_encode(a: Arrays) -> np.ndarray:
    return (a[3][:, :-1] << np.arange(K.N_EDGES - 1)).sum(axis=1)


def _flip_decode() -> Arrays:
    cp, co, ep, _ = solved_arrays(K.N_FLIP)
    bits = (np.arange(K.N_FLIP)[:, None] >> np.arange(K.N_EDGES - 1)) & 1
    eo = np.concatenate([bits, bits.sum(axis=1, keepdims=True) % 2], axis=1)
    return cp, co, ep, eo


_POW3 = 3 ** np.arange(K.N_CORNERS - 1)


def _twist_encode(a: Arrays) -> np.ndarray:
    return (a[1][:, :-1] * _POW3).sum(axis=1)


def _twist_decode() -> Arrays:
    cp, _, ep, eo = solved_arrays(K.N_TWIST)
    digits = (np.arange(K.N_TWIST)[:, None] // _POW3) % 3
    co = np.concatenate([digits, (-digits.sum(axis=1, keepdims=True)) % 3], axis=1)
    return cp, co, ep, eo


def _slice_coord(name: str, edges: tuple[int, ...]) -> Coord:
    """Which 4 positions hold the 4 `edges` (in any order): 495 values."""
    member = np.zeros(K.N_EDGES, dtype=bool)
    member[list(edges)] = True

    def encode(a: Arrays) -> np.ndarray:
        return EDGE_MASK_RANK[(member[a[2]] << np.arange(K.N_EDGES)).sum(axis=1)]

    def decode() -> Arrays:
        cp, co, ep, eo = solved_arrays(K.N_SLICE)
        inside = (_MASKS[:, None] >> np.arange(K.N_EDGES)) & 1
        others = [e for e in range(K.N_EDGES) if e not in edges]
        for r, row in enumerate(inside):
            ep[r, row == 1] = edges
            ep[r, row == 0] = others
        return cp, co, ep, eo

    return Coord(name, K.N_SLICE, encode, decode)


def _cperm_decode() -> Arrays:
    cp, co, ep, eo = solved_arrays(K.N_CPERM)
    return all_perms(K.N_CORNERS), co, ep, eo


def _udedge_decode() -> Arrays:
    cp, co, ep, eo = solved_arrays(K.N_UDEDGE)
    ep[:, :8] = all_perms(8)
    return cp, co, ep, eo


def _sliceperm_decode() -> Arrays:
    cp, co, ep, eo = solved_arrays(K.N_SLICE_PERM)
    ep[:, 8:] = 8 + all_perms(4)
    return cp, co, ep, eo


_SLICES = (K.M_SLICE, K.S_SLICE, K.E_SLICE)


def _edgeslices_encode(a: Arrays) -> np.ndarray:
    ep = a[2]
    ranks = [perm_rank(relabel(ep[:, list(s)], s)) for s in _SLICES]
    return (ranks[0] * K.N_SLICE_PERM + ranks[1]) * K.N_SLICE_PERM + ranks[2]


def _edgeslices_decode() -> Arrays:
    cp, co, ep, eo = solved_arrays(K.N_EDGE_SLICES)
    p4 = all_perms(4)
    idx = np.arange(K.N_EDGE_SLICES)
    digits = (idx // K.N_SLICE_PERM**2, (idx // K.N_SLICE_PERM) % K.N_SLICE_PERM, idx % K.N_SLICE_PERM)
    for s, d in zip(_SLICES, digits):
        ep[:, list(s)] = np.array(s)[p4[d]]
    return cp, co, ep, eo


def _none_decode() -> Arrays:
    return solved_arrays(1)


def _ss_encode(a: Arrays) -> np.ndarray:
    """E-slice positions * 24 + order of the 4 E edges in those positions (0 = solved)."""
    ep = a[2]
    where = np.argsort(ep < 8, axis=1, kind="stable")[:, :4]  # positions of E edges, in order
    order = np.take_along_axis(ep, where, axis=1) - 8
    return ESLICE.encode(a) * K.N_SLICE_PERM + perm_rank(order)


def _ss_decode() -> Arrays:
    """A representative of every sorted-slice value (no flips or twists)."""
    cp, co, ep, eo = (np.repeat(x, K.N_SLICE_PERM, axis=0) for x in ESLICE.decode())
    perms = np.tile(all_perms(4), (K.N_SLICE, 1))
    ep = ep.copy()
    rows, cols = np.nonzero(ep >= 8)
    ep[rows, cols] = 8 + perms.reshape(-1)
    return cp, co, ep, eo


def _ctop_encode(a: Arrays) -> np.ndarray:
    return CORNER_MASK_RANK[((a[0] < len(U_CORNERS)) << np.arange(K.N_CORNERS)).sum(axis=1)]


def _ctop_decode() -> Arrays:
    cp, co, ep, eo = solved_arrays(len(_CMASKS))
    inside = (_CMASKS[:, None] >> np.arange(K.N_CORNERS)) & 1
    for r, row in enumerate(inside):
        cp[r, row == 1] = U_CORNERS
        cp[r, row == 0] = [c for c in range(K.N_CORNERS) if c not in U_CORNERS]
    return cp, co, ep, eo


FLIP = Coord("flip", K.N_FLIP, _flip_encode, _flip_decode)
TWIST = Coord("twist", K.N_TWIST, _twist_encode, _twist_decode)
ESLICE = _slice_coord("eslice", K.E_SLICE)
MSLICE = _slice_coord("mslice", K.M_SLICE)
CPERM = Coord("cperm", K.N_CPERM, lambda a: perm_rank(a[0]), _cperm_decode)
UDEDGE = Coord("udedge", K.N_UDEDGE, lambda a: perm_rank(relabel(a[2][:, :8], K.UD_EDGES)), _udedge_decode, K.G2_MOVES)
SLICEPERM = Coord(
    "sliceperm", K.N_SLICE_PERM, lambda a: perm_rank(relabel(a[2][:, 8:], K.E_SLICE)), _sliceperm_decode, K.G2_MOVES
)
EDGESLICES = Coord("edgeslices", K.N_EDGE_SLICES, _edgeslices_encode, _edgeslices_decode, K.G3_MOVES)
NONE = Coord("none", 1, lambda a: np.zeros(a[0].shape[0], dtype=np.int64), _none_decode)
# The optimal solver's: the E slice with its edges' order (the big table), which 4 positions
# hold the U corners (70 values: the coset table).
SLICE_SORTED = Coord("slice_sorted", K.N_SLICE_SORTED, _ss_encode, _ss_decode)
CTOP = Coord("ctop", len(_CMASKS), _ctop_encode, _ctop_decode)

# Coordinates with a move table computed from cubie representatives.
BASIC_COORDS = {c.name: c for c in (FLIP, TWIST, ESLICE, MSLICE, CPERM, UDEDGE, SLICEPERM, EDGESLICES, NONE)}
# Coordinates derived from the corner permutation by lookup (see tables.corner_classes):
# "cclass" = the class H.p of the corner permutation under half turns (420 values),
# "chalf"  = the index of a corner permutation inside H (96 values; -1 outside).
DERIVED_COORDS = {"cclass": K.N_CORNER_CLASS, "chalf": K.N_CORNER_HALF}


def coord_move_table(coord: Coord) -> np.ndarray:
    """(size x 18) int32: the coordinate of each representative after each allowed move (-1: not allowed)."""
    reps = coord.decode()
    table = np.full((coord.size, K.N_MOVES), -1, dtype=np.int32)
    for m in coord.moves:
        table[:, m] = coord.encode(apply_move(reps, m))
    return table
