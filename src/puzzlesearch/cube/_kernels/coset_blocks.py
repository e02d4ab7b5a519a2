"""numba kernel of the large coset table's backward levels, blocks of 256 entries (one 64-byte line) at a time.

In the large layout (tables/coset.py) a column is t = a * 256 + b: a the sorted E slice, b the
flips of the 8 positions that hold U/D-layer edges. For one row c, move m and column part a,
the 256 entries (a, 0..255) have their neighbours in one block of one row: (c2, a2), and b
goes to P(b) ^ y, P a permutation of b's 8 bits and y a constant, both fixed by (a // 24, m,
u) (BlockMoves, made and checked in tables/coset.py). So a backward level can test a whole
block with word operations: read the neighbour block's entries equal to the current depth
as a mask, move the mask's bits by y and P, and set the block's empty entries it hits.
_backward_row in _kernels/coset.py is the per-entry twin (tests compare the two).

A block is 8 words of 32 entries, entry e of a word in bits 2e, 2e+1; a mask keeps a bit at
2e (the "pair lanes"). So bits 0-4 of an entry's index move inside a word, bits 5-7 pick
the word.

BlockMoves is declared here, not in bfs_bundles.py: that module is part of every 2-bit
table's content key (tables/__init__.py), this one only of the coset tables'.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from puzzlesearch.bits import popcount
from puzzlesearch.cube._kernels.coset import neighbour_row
from puzzlesearch.cube.model.constants import N_MOVES

BLOCK_ENTRIES = 256  # the flips of the 8 U/D-layer positions: one column part a
WORD_ENTRIES = 32  # 2-bit entries in a 64-bit word
BLOCK_WORDS = BLOCK_ENTRIES // WORD_ENTRIES
LANE_BITS = 5  # index bits that move inside a word (32 entries)
INDEX_BITS = 8  # bits of b
NO_SWAP = -1
EVEN = np.uint64(0x5555555555555555)  # bit 2e of every entry e: the pair lanes


class BlockMoves(NamedTuple):
    """How a block's index b moves to its neighbour's, per (a // a_div, m, u): b -> P(b) ^ xor[g, m, u].

    P is applied as the index-bit swaps swaps[g, m, u, :] in order (i * 8 + j, i < j; NO_SWAP
    pads). low[k]: the lanes of entries whose index bit k is 0; pair[i, j]: of those whose bit i
    is 1 and bit j is 0 (k, i, j < LANE_BITS).
    """

    xor: np.ndarray  # uint8 (groups, 18, 16)
    swaps: np.ndarray  # int8 (groups, 18, 16, INDEX_BITS - 1)
    after: np.ndarray  # int32 (groups, 18): a move's group of a's after it (its a2 // a_div)
    a_div: int
    low: np.ndarray  # uint64 (LANE_BITS,)
    pair: np.ndarray  # uint64 (LANE_BITS, LANE_BITS)


def lane_masks() -> tuple[np.ndarray, np.ndarray]:
    """(low, pair) of BlockMoves: the lane masks of the index-bit operations."""
    low = np.zeros(LANE_BITS, dtype=np.uint64)
    pair = np.zeros((LANE_BITS, LANE_BITS), dtype=np.uint64)
    for e in range(WORD_ENTRIES):
        lane = np.uint64(1) << np.uint64(2 * e)
        for k in range(LANE_BITS):
            if not (e >> k) & 1:
                low[k] |= lane
            for j in range(LANE_BITS):
                if (e >> k) & 1 and not (e >> j) & 1:
                    pair[k, j] |= lane
    return low, pair


@njit(cache=True, inline="always")
def _xor_index(v, y, bm):
    """Entry c of each block <- its entry c ^ y (v[w, r]: word w of block r, in pair lanes)."""
    n = v.shape[1]
    flat = v.reshape(-1)
    for k in range(LANE_BITS):
        if (y >> k) & 1:
            s = np.uint64(2 << k)
            low = bm.low[k]
            for i in range(flat.shape[0]):
                x = flat[i]
                flat[i] = ((x >> s) & low) | ((x & low) << s)
    for k in range(LANE_BITS, INDEX_BITS):
        if (y >> k) & 1:
            d = 1 << (k - LANE_BITS)
            for w in range(BLOCK_WORDS):
                if not w & d:
                    for r in range(n):
                        v[w, r], v[w | d, r] = v[w | d, r], v[w, r]


@njit(cache=True, inline="always")
def _swap_index_bits(v, i, j, bm):
    """Entry b of each block <- its entry b with bits i and j exchanged (i < j)."""
    n = v.shape[1]
    if j < LANE_BITS:  # both inside a word
        delta = np.uint64((2 << j) - (2 << i))
        mask = bm.pair[i, j]
        flat = v.reshape(-1)
        for k in range(flat.shape[0]):
            x = flat[k]
            t = ((x >> delta) ^ x) & mask
            flat[k] = x ^ t ^ (t << delta)
    elif i < LANE_BITS:  # bit i inside a word, bit j picks it
        s = np.uint64(2 << i)
        low = bm.low[i]
        d = 1 << (j - LANE_BITS)
        for w in range(BLOCK_WORDS):
            if not w & d:
                for r in range(n):
                    lo, hi = v[w, r], v[w | d, r]
                    t = ((lo >> s) ^ hi) & low
                    v[w | d, r] = hi ^ t
                    v[w, r] = lo ^ (t << s)
    else:  # both pick the word
        di, dj = 1 << (i - LANE_BITS), 1 << (j - LANE_BITS)
        for w in range(BLOCK_WORDS):
            if w & di and not w & dj:
                o = w ^ di ^ dj
                for r in range(n):
                    v[w, r], v[o, r] = v[o, r], v[w, r]


@njit(cache=True, inline="always")
def move_mask(v, g, m, u, bm):
    """Neighbour blocks' masks (indexed by their b2) turned into these blocks' (indexed by b), in place;
    v[w, r]: word w of block r, the blocks of one group g of column parts (one block move for all)."""
    _xor_index(v, np.int64(bm.xor[g, m, u]), bm)
    for k in range(INDEX_BITS - 1):
        p = bm.swaps[g, m, u, k]
        if p == NO_SWAP:
            break
        _swap_index_bits(v, p >> 3, p & 7, bm)


@njit(cache=True, inline="always")
def _empty_lanes(x):
    """The lanes of a word's EMPTY (3) entries."""
    return x & (x >> np.uint64(1)) & EVEN


@njit(cache=True, inline="always")
def _equal_lanes(x, pattern):
    """The lanes of a word's entries equal to the value pattern repeats (pattern = value * EVEN)."""
    z = x ^ pattern
    return ~(z | (z >> np.uint64(1))) & EVEN


@njit(cache=True)
def _backward_row_blocks(words, c, cur, nxt, classes, corner_moves, cols, row_words, bm, v):
    """Row c's empty entries with a neighbour at the current depth set to the next; how many.

    A group of blocks at a time: the a_div column parts with the same E-slice positions share one
    block move, and their neighbours are a_div blocks side by side (one group of the neighbour row),
    so the masks of the whole group move together, each step one loop over all their words.
    v: BLOCK_WORDS x a_div scratch.
    """
    n_a = cols.move_slice.shape[0]
    n_div = bm.a_div
    base = np.int64(c) * row_words
    left = 0
    for i in range(base, base + n_a * BLOCK_WORDS):
        left += popcount(_empty_lanes(words[i]))
    pattern = np.uint64(cur) * EVEN
    setter = np.uint64(3 ^ nxt)  # EMPTY ^ setter = nxt
    found = 0
    for m in range(N_MOVES):
        if left == 0:
            break
        c2, u = neighbour_row(classes, corner_moves, classes.rep[c], m)
        base2 = np.int64(c2) * row_words
        for g in range(n_a // n_div):
            at = base + np.int64(g) * n_div * BLOCK_WORDS
            empty = np.uint64(0)
            for i in range(n_div * BLOCK_WORDS):
                empty |= _empty_lanes(words[at + i])
            if empty == 0:
                continue
            for r in range(n_div):
                a = g * n_div + r
                at2 = base2 + np.int64(cols.slice_conj[cols.move_slice[a, m], u]) * BLOCK_WORDS
                for w in range(BLOCK_WORDS):
                    v[w, r] = _equal_lanes(words[at2 + w], pattern)
            move_mask(v, g, m, u, bm)
            for r in range(n_div):
                for w in range(BLOCK_WORDS):
                    i = at + r * BLOCK_WORDS + w
                    hit = v[w, r] & _empty_lanes(words[i])
                    if hit:
                        words[i] ^= hit * setter
                        k = popcount(hit)
                        found += k
                        left -= k
    return found


@njit(cache=True, parallel=True)
def backward_pass_blocks(words, depth, classes, corner_moves, cols, stride, bm, first, last):
    """backward_pass (_kernels/coset.py) for the large layout, a block of 256 entries at a time: rows first..last-1.

    words: the table viewed as uint64 (a row is stride // WORD_ENTRIES words); bm: BlockMoves.
    A thread writes only its own rows; it reads others' for the value `depth`, which neither an
    empty nor a newly set entry has. Returns the number of entries set.
    """
    row_words = stride // WORD_ENTRIES
    cur, nxt = depth % 3, (depth + 1) % 3
    done = 0
    for c in prange(first, last):
        v = np.empty((BLOCK_WORDS, bm.a_div), dtype=np.uint64)
        done += _backward_row_blocks(words, c, cur, nxt, classes, corner_moves, cols, row_words, bm, v)
    return done
