"""The 48 symmetries of the cube at the cubie level, and symmetry classes of coordinates.

A symmetry is a map of space that maps the cube onto itself (24 rotations, 24 with a
mirror); conjugating a cube state by it re-orients the whole cube and renames the colours,
so the result is a legal state with the same distance from solved. Here a symmetry is a
signed 3x3 permutation matrix acting on face normals (R = +x, F = -y, U = +z); the cubie
action is derived from how it maps face letters, so it shares the conventions of `cubie`:

    conj(c, s)[g(p)] = g(c[p]), twist  sgn * co[p] + a(p) - a(cp[p])  (mod 3)
                                flip   eo[p] + a(p) - a(ep[p])          (mod 2)

with g the position map, a(p) where the image of position p's first face letter sits in
the name of g(p), and sgn = -1 for mirrors (they reverse the twist direction).

Numbering: symmetry 0 is the identity; 0..15 are the 16 that keep the U-D axis (D4h, the
two-phase group G2 maps to itself under them: `N_SYM_UD`), 16..47 the rest. `URF3` is
the 120-degree rotation about the URF-DBL diagonal (U -> R -> F -> U), which turns a
phase-1 search about the U-D axis into one about the R-L or F-B axis.

Conventions: conjugate(conjugate(c, a), b) == conjugate(c, SYM_MULT[a, b]);
conjugate(c * d, s) == conjugate(c, s) * conjugate(d, s); conjugate(MOVE_CUBES[m], s) ==
MOVE_CUBES[MOVE_CONJ[s, m]] (tests/cube/test_cube_symmetry.py checks all three).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.coords import Arrays, Coord
from puzzlesearch.cube.model.cubie import MOVE_CUBES, CubieCube

__all__ = [
    "AXIS_SYMS",
    "MOVE_CONJ",
    "N_SYM",
    "N_SYM_UD",
    "SYM_MASK",
    "SYM_SHIFT",
    "SYMMETRIES",
    "SYM_INV",
    "SYM_MULT",
    "URF3",
    "SymClasses",
    "Symmetry",
    "conjugate",
    "conjugate_arrays",
    "coord_conjugation",
    "flipslice_conjugation",
    "sym_classes",
]

N_SYM = 48
N_SYM_UD = 16
SYM_SHIFT = 4  # a class lookup holds class << SYM_SHIFT | symmetry (one of the first 16)
SYM_MASK = (1 << SYM_SHIFT) - 1
NORMALS = {"R": (1, 0, 0), "L": (-1, 0, 0), "B": (0, 1, 0), "F": (0, -1, 0), "U": (0, 0, 1), "D": (0, 0, -1)}
_FACE_OF = {v: k for k, v in NORMALS.items()}


@dataclass(frozen=True)
class Symmetry:
    """One symmetry: its matrix, face map, and cubie action (position maps, orientation offsets)."""

    index: int
    matrix: np.ndarray  # 3x3 signed permutation matrix
    faces: str  # image of each face of "URFDLB"
    mirror: bool  # True: reverses orientation (a reflection)
    corner_map: np.ndarray  # position p -> g(p) (also cubie c -> g(c))
    corner_offset: np.ndarray  # a(p), 0..2
    edge_map: np.ndarray
    edge_offset: np.ndarray  # a(p), 0..1

    @property
    def keeps_ud_axis(self) -> bool:
        return self.faces[0] in "UD"


def _face_image(matrix: np.ndarray, face: str) -> str:
    """The face the symmetry sends `face` to."""
    return _FACE_OF[tuple(int(x) for x in matrix @ np.array(NORMALS[face]))]


def _position_action(matrix: np.ndarray, names: list[str]) -> tuple[np.ndarray, np.ndarray, int]:
    """(position map, orientation offsets, orientation sign) on the cubies named `names`."""
    by_set = {frozenset(n): i for i, n in enumerate(names)}
    n_ori = len(names[0])
    pmap, offset, signs = np.zeros(len(names), np.int64), np.zeros(len(names), np.int64), set()
    for p, name in enumerate(names):
        image = [_face_image(matrix, f) for f in name]
        q = by_set[frozenset(image)]
        kappa = [names[q].index(f) for f in image]  # where each letter's image sits in the new name
        pmap[p], offset[p] = q, kappa[0]
        if n_ori == 3:
            signs.add((kappa[1] - kappa[0]) % 3)
    if len(signs) > 1:
        raise AssertionError("corner names do not share one handedness")
    return pmap, offset, (1 if signs == {1} or not signs else -1)


def _all_symmetries() -> list[Symmetry]:
    """The 48 symmetries, the identity first, then the U-D axis keepers, then the rest."""
    mats = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=np.int64)
            for row, (col, sign) in enumerate(zip(perm, signs)):
                m[row, col] = sign
            mats.append(m)
    faces_of = ["".join(_face_image(m, f) for f in K.FACES) for m in mats]
    order = sorted(range(48), key=lambda i: (faces_of[i] != K.FACES, faces_of[i][0] not in "UD", faces_of[i]))
    out = []
    for k, i in enumerate(order):
        m = mats[i]
        cmap, coff, sign = _position_action(m, K.CORNER_NAMES)
        emap, eoff, _ = _position_action(m, K.EDGE_NAMES)
        mirror = round(np.linalg.det(m)) < 0
        if mirror != (sign < 0):
            raise AssertionError("mirror symmetries must reverse the corner twist")
        out.append(Symmetry(k, m, faces_of[i], mirror, cmap, coff, emap, eoff))
    return out


SYMMETRIES = _all_symmetries()


def conjugate_arrays(arrays: Arrays, s: int) -> Arrays:
    """Every state of `arrays` (cp, co, ep, eo; shape (n, 8) / (n, 12)) conjugated by symmetry s."""
    sym = SYMMETRIES[s]
    cp, co, ep, eo = arrays
    cinv, einv = np.argsort(sym.corner_map), np.argsort(sym.edge_map)
    sign = -1 if sym.mirror else 1
    a, b = sym.corner_offset, sym.edge_offset
    new_cp = sym.corner_map[cp][:, cinv]
    new_co = ((sign * co + a[None, :] - a[cp]) % 3)[:, cinv]
    new_ep = sym.edge_map[ep][:, einv]
    new_eo = ((eo + b[None, :] - b[ep]) % 2)[:, einv]
    return new_cp, new_co, new_ep, new_eo


def conjugate(cube: CubieCube, s: int) -> CubieCube:
    """One cube conjugated by symmetry s (same distance from solved)."""
    cp, co, ep, eo = (tuple(int(x) for x in arr[0]) for arr in conjugate_arrays(cube.arrays(), s))
    return CubieCube(cp, co, ep, eo)


def _matrix_index() -> dict[bytes, int]:
    return {s.matrix.tobytes(): s.index for s in SYMMETRIES}


def _mult_table() -> np.ndarray:
    """SYM_MULT[a, b]: conjugating by a, then by b (the matrix product b @ a)."""
    index = _matrix_index()
    return np.array(
        [[index[(sb.matrix @ sa.matrix).tobytes()] for sb in SYMMETRIES] for sa in SYMMETRIES], dtype=np.int64
    )


SYM_MULT = _mult_table()
SYM_INV = np.array([int(np.flatnonzero(SYM_MULT[a] == 0)[0]) for a in range(N_SYM)], dtype=np.int64)
URF3 = next(s.index for s in SYMMETRIES if s.faces[:3] == "RFU")  # U -> R, R -> F, F -> U
AXIS_SYMS = (0, URF3, int(SYM_MULT[URF3, URF3]))  # put the U-D, then the R-L, then the F-B axis on U-D


def _move_conj_table() -> np.ndarray:
    """MOVE_CONJ[s, m]: the move that conjugating move m by s gives."""
    table = np.zeros((N_SYM, K.N_MOVES), dtype=np.int64)
    for s in range(N_SYM):
        for m, move in enumerate(MOVE_CUBES):
            table[s, m] = MOVE_CUBES.index(conjugate(move, s))
    return table


MOVE_CONJ = _move_conj_table()

# ------------------------------------------------------------------ coordinates and classes


def coord_conjugation(coord: Coord, syms: int = N_SYM_UD) -> np.ndarray:
    """(size x syms) int32: the coordinate of each representative conjugated by each symmetry.

    Only meaningful when the conjugate's coordinate does not depend on which representative
    is taken (twist, corner or U/D-edge permutation, E-slice positions under the first 16).
    """
    reps = coord.decode()
    return np.stack([coord.encode(conjugate_arrays(reps, s)) for s in range(syms)], axis=1).astype(np.int32)


def flipslice_conjugation(flip: Coord, eslice: Coord, syms: int = N_SYM_UD) -> np.ndarray:
    """(495 * 2048 x syms) int32 conjugation table of the pair coordinate slice * 2048 + flip.

    Under a U-D axis symmetry the flip of a conjugate is the flip permuted by the symmetry
    XOR an offset that depends only on where the E-slice edges are, so the table is
    flip_conj[flip] ^ offset[slice] with the offset read off each slice representative.
    """
    flip_conj = coord_conjugation(flip, syms)  # int32 throughout: the result has 16 million entries
    slice_conj = coord_conjugation(eslice, syms)
    reps = eslice.decode()  # edges of the E slice placed, no flips
    offset = np.stack([flip.encode(conjugate_arrays(reps, s)) for s in range(syms)], axis=1).astype(np.int32)
    table = flip_conj[None, :, :] ^ offset[:, None, :]  # (slice, flip, sym)
    table += slice_conj[:, None, :] * np.int32(flip.size)
    return table.reshape(eslice.size * flip.size, syms)


@dataclass(frozen=True)
class SymClasses:
    """Symmetry classes of a coordinate: the class of each raw value and the symmetry to its representative.

    conj(raw, sym_of[raw]) == reps[class_of[raw]]; reps are the smallest raw value of each class
    (in increasing order); selfsym[c] has bit s set when symmetry s maps reps[c] to itself.
    """

    class_of: np.ndarray
    sym_of: np.ndarray
    reps: np.ndarray
    selfsym: np.ndarray

    @property
    def n_classes(self) -> int:
        return len(self.reps)


def sym_classes(conj: np.ndarray) -> SymClasses:
    """Classes of a raw coordinate from its conjugation table (raw x syms, conj[:, 0] the identity)."""
    rep_raw = conj.min(axis=1)
    sym_of = conj.argmin(axis=1).astype(np.int32)
    reps = np.unique(rep_raw)
    class_of = np.searchsorted(reps, rep_raw).astype(np.int32)
    fixed = conj[reps] == reps[:, None]
    selfsym = (fixed.astype(np.int64) << np.arange(conj.shape[1])).sum(axis=1).astype(np.int32)
    return SymClasses(class_of, sym_of, reps.astype(np.int32), selfsym)
