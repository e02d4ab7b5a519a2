"""numba kernels: the compact arena of orderly sum/choice trees (boggle.proof.tree).

Every node of every tree lives in one flat int32 array `mem`, allocated by bumping
`state[TOP]`; a node is the offset of its first word:

    sum node     mem[o] = bound, mem[o + 1] = points, mem[o + 2], mem[o + 3] = the low and
                 high 32 bits of its children's positions (a bit set), mem[o + 4 ...] =
                 its choice children, ascending position (one per set bit)
    choice node  mem[o] = bound, mem[o + 1] = position | letters << POS_BITS,
                 mem[o + 2 ...] = its sum children, one per set bit of `letters`
                 (the child for choice j is at popcount(letters & ((1 << j) - 1)))

so a sum node takes 16 bytes and a choice node 8, plus 4 per child. Cells are stored by
their position in the split order (cell order[p] has position p), which puts the next
cell to force first among a sum node's children; the position set lets a merge of two
sum nodes see which children they share without reading any child. Point-only leaves
(a sum node with points 1..SHARED_LEAVES and no children) are shared: the arena starts
with one of each, so most word ends cost no memory. A mark (state[TOP], state[LIVE]) taken before forcing a cell and restored after
its subtree is done frees everything built in between; nothing is ever modified after
it is written, so trees share subtrees freely.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzlesearch.bits import popcount as _popcount

SUM_HEADER = 4  # words before a sum node's children
CHOICE_HEADER = 2  # words before a choice node's children
BOUND, INFO, MASK_LO, MASK_HI = 0, 1, 2, 3  # header words (INFO: sum points; choice position | letters)
POS_BITS = 6  # choice node: the cell's position (< 64) in the low bits of INFO, letters above
POS_MASK = (1 << POS_BITS) - 1
LETTERS_MASK = (1 << 26) - 1  # letter choices of a cell (26 letters)
LOW32 = (1 << 32) - 1
MAX_BOUND = 2**31 - 1  # bounds and points are int32 words
SHARED_LEAVES = 128  # shared point-only leaves: points 1..SHARED_LEAVES
SHARED_WORDS = SUM_HEADER * SHARED_LEAVES  # the arena's first words hold them
# state words
TOP, LIVE, PEAK_TOP, PEAK_LIVE, MADE, STAMP = range(6)
N_STATE = 8
# outcomes of an allocation
FULL = -1  # mem is too small: the caller grows it and runs again
CAPPED = -2  # more live nodes than the cap allows


class Arena(NamedTuple):
    """The node words and the allocation counters (state[TOP] words in use, ...)."""

    mem: np.ndarray  # int32 node words
    state: np.ndarray  # int64: TOP, LIVE (nodes since the class began, less those reset), peaks, MADE (all made)


def new_arena(words: int) -> Arena:
    """An arena of `words` int32 words holding only the shared leaves."""
    mem = np.zeros(max(words, 2 * SHARED_WORDS), dtype=np.int32)
    for p in range(1, SHARED_LEAVES + 1):
        mem[leaf(p) + BOUND] = p
        mem[leaf(p) + INFO] = p
    state = np.zeros(N_STATE, dtype=np.int64)
    state[TOP] = state[PEAK_TOP] = SHARED_WORDS
    return Arena(mem, state)


def grown(arena: Arena, words: int) -> Arena:
    """A bigger arena with the same content and counters."""
    mem = np.zeros(words, dtype=np.int32)
    top = int(arena.state[TOP])
    mem[:top] = arena.mem[:top]
    return Arena(mem, arena.state)


@njit(cache=True, inline="always")
def leaf(points):
    """Offset of the shared leaf of `points` (1..SHARED_LEAVES)."""
    return SUM_HEADER * (points - 1)


@njit(cache=True, inline="always")
def begin_class(state):
    """Forget every tree: only the shared leaves stay."""
    state[TOP] = SHARED_WORDS
    state[LIVE] = 0
    state[PEAK_TOP] = SHARED_WORDS
    state[PEAK_LIVE] = 0
    state[MADE] = 0


@njit(cache=True, inline="always")
def alloc(mem, state, words, max_live):
    """Offset of a new node of `words` words (header and children), or FULL / CAPPED."""
    o = state[TOP]
    end = o + words
    if end > mem.shape[0]:
        return FULL
    live = state[LIVE] + 1
    if live > max_live:
        return CAPPED
    state[TOP] = end
    state[LIVE] = live
    state[MADE] += 1
    if end > state[PEAK_TOP]:
        state[PEAK_TOP] = end
    if live > state[PEAK_LIVE]:
        state[PEAK_LIVE] = live
    return o


@njit(cache=True, inline="always")
def points_of(mem, o):
    return np.int64(mem[o + INFO])


@njit(cache=True, inline="always")
def mask_of(mem, o):
    """Positions of a sum node's choice children (a bit set)."""
    return (np.int64(mem[o + MASK_LO]) & LOW32) | (np.int64(mem[o + MASK_HI]) << 32)


@njit(cache=True, inline="always")
def count_of(mem, o):
    """Choice children of a sum node."""
    return _popcount(mask_of(mem, o))


@njit(cache=True, inline="always")
def pos_of(mem, o):
    """Split-order position of a choice node's cell."""
    return mem[o + INFO] & POS_MASK


@njit(cache=True, inline="always")
def letters_of(mem, o):
    """Bit set of the letter choices a choice node has children for."""
    return (mem[o + INFO] >> POS_BITS) & LETTERS_MASK


@njit(cache=True, inline="always")
def child_for(mem, o, j):
    """The sum child of choice node o for letter choice j, or -1."""
    bits = (mem[o + INFO] >> POS_BITS) & LETTERS_MASK
    if not (bits >> j) & 1:
        return -1
    return mem[o + CHOICE_HEADER + _popcount(bits & ((1 << j) - 1))]


@njit(cache=True, inline="always")
def set_sum(mem, o, points, mask):
    mem[o + INFO] = points
    mem[o + MASK_LO] = mask & LOW32
    mem[o + MASK_HI] = mask >> 32


@njit(cache=True, inline="always")
def set_choice(mem, o, pos, letters):
    mem[o + INFO] = pos | (letters << POS_BITS)
