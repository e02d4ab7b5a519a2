"""numba kernels of two-phase's phase-1 move-mask table (`next_tp1`): built from tp1_sym, read by the search.

One uint32 entry per tp1_sym entry (flip x E-slice class * N_TWIST + conjugated twist):
the exact phase-1 distance d in the top byte (NEXT_DIST_SHIFT), and below it one 4-bit
nibble per face (face f at bits 4f..4f+3) saying how each of the face's three moves (power
p at bit p) changes the distance of the class representative's state. The three children of
one face are one move apart from each other, so their distances differ by at most 1 and
never hold both d - 1 and d + 1: the nibble's AWAY_BIT says which of the two can occur, and
bit p is then delta + 1 - away (delta in {-1, 0, 1}). A search node reads its own entry once
and knows every child's exact distance without looking the children up (the rob-twophase /
cube20src idea); the moves of a raw state are turned into the representative's by the
symmetry of its class look-up (MOVE_CONJ[s, m]).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube.model.constants import N_FLIP, N_MOVES, N_TWIST
from puzzlesearch.cube.model.symmetry import SYM_MASK, SYM_SHIFT

NEXT_DIST_SHIFT = 24  # the exact distance sits above the six face nibbles
NIBBLE_BITS = 4  # bits per face
AWAY_BIT = 3  # in a nibble: 1 when a move of the face goes one farther (none goes nearer)
N_POWERS = 3  # moves per face: power 0, 1 (half turn), 2
N_FACES = N_MOVES // N_POWERS
NIBBLE_MASK = (1 << NIBBLE_BITS) - 1
MOVES_MASK = (1 << N_POWERS) - 1  # the nibble's per-power bits


SLACK_ROWS = 3  # select rows: slack -1 (only nearer children), 0 (not farther), >= 1 (all)


def select_table() -> np.ndarray:
    """select[slack row, nibble]: the powers (bit p) of a face whose children fit the slack.

    slack = moves left after the child - the node's distance: the child's distance change
    may be at most slack (-1: it must be one nearer; 0: not farther; >= 1: any).
    """
    table = np.zeros((SLACK_ROWS, NIBBLE_MASK + 1), dtype=np.int64)
    for nib in range(NIBBLE_MASK + 1):
        away = nib >> AWAY_BIT
        for p in range(N_POWERS):
            delta = ((nib >> p) & 1) + away - 1
            for row in range(SLACK_ROWS):
                if delta <= row - 1:
                    table[row, nib] |= 1 << p
    return table


@njit(cache=True, inline="always")
def fitting_moves(entry, sym, slack, p1):
    """Bits of the raw moves whose children fit the slack, from the node's entry (p1: Phase1)."""
    sel = p1.select[min(slack, SLACK_ROWS - 2) + 1]
    mirror = p1.mirror[sym]
    mask = 0
    for f in range(N_FACES):
        bits = sel[(entry >> (NIBBLE_BITS * p1.face_map[sym, f])) & NIBBLE_MASK]
        if mirror:  # the symmetry reverses the turns: power p is the representative's 2 - p
            bits = ((bits & 1) << 2) | (bits & 2) | (bits >> 2)
        mask |= bits << (N_POWERS * f)
    return mask


@njit(cache=True, inline="always")
def child_delta(entry, cm):
    """How move cm (of the representative's state) changes the distance: -1, 0 or 1."""
    nib = (entry >> (NIBBLE_BITS * (cm // N_POWERS))) & NIBBLE_MASK
    return ((nib >> (cm % N_POWERS)) & 1) + (nib >> AWAY_BIT) - 1


@njit(cache=True)
def build_next(exact, fsrep, fsclass, twistconj, move_flip, move_slice, move_twist):
    """The next_tp1 entries (uint32, size of exact) from the exact class table tp1_sym.

    For each class, the 18 children of its representative's flip x slice are looked up once
    (class and symmetry), then every twist reads its children in the 18 rows of `exact`
    (2187 bytes each: they stay in cache). Returns -1 in place of an entry whose children
    break the BFS shape (a distance step larger than 1), which the caller reports.
    """
    n_class = fsrep.shape[0]
    out = np.empty(n_class * N_TWIST, dtype=np.uint32)
    child = np.empty((N_MOVES, N_TWIST), dtype=np.int64)
    for c in range(n_class):
        raw = fsrep[c]
        fl, sl = raw % N_FLIP, raw // N_FLIP
        for m in range(N_MOVES):
            cs = fsclass[move_slice[sl, m] * N_FLIP + move_flip[fl, m]]
            base, s = (cs >> SYM_SHIFT) * N_TWIST, cs & SYM_MASK
            for t in range(N_TWIST):
                child[m, t] = exact[base + twistconj[move_twist[t, m], s]]
        for t in range(N_TWIST):
            d = np.int64(exact[c * N_TWIST + t])
            entry = np.uint32(d) << NEXT_DIST_SHIFT
            for f in range(N_FACES):
                away = 0
                near = 0
                for p in range(N_POWERS):
                    delta = child[N_POWERS * f + p, t] - d
                    if delta > 1 or delta < -1 or d < 0:
                        return out[:0], c * N_TWIST + t
                    away |= delta > 0
                    near |= delta < 0
                if away and near:
                    return out[:0], c * N_TWIST + t
                nib = away << AWAY_BIT
                for p in range(N_POWERS):
                    nib |= (child[N_POWERS * f + p, t] - d + 1 - away) << p
                entry |= np.uint32(nib) << (NIBBLE_BITS * f)
            out[c * N_TWIST + t] = entry
    return out, -1
