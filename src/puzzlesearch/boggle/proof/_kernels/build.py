"""numba kernels: the orderly tree of a board class, built by sorting its word paths.

1. `collect_paths` walks the class over the Boggle trie (boggle/trie.py) and writes one
   record per path that spells a word worth points: its choice key, the set of cell
   positions it uses and the trie node of the word (its identity). The key holds one
   field per split position p (value j + 1 for letter choice j of cell order[p], 0 when
   the path does not use the cell); position 0 is the most significant field, and the
   fields fill int64 words from bit 62 down (keys stay non-negative).
2. `sort_paths` sorts the records by key (least significant digit radix sort, 11-bit
   digits; digits equal in every record are skipped).
3. `build_tree` makes the tree in one pass over sorted ranges. Records sharing the fields
   of positions < p0 form a range; those with no position >= p0 come first and are the
   word ends of the range's sum node: all have the same key (one set of (cell, letter)
   choices), so each distinct word among them counts once (the dedupe: a stamp per trie
   node). The rest group by their next position p (groups in decreasing p), each group a
   choice node of cell p whose runs of equal field p are its sum children. Nodes are
   written after their children (post-order) into the arena (arena.py); sum bound =
   points + children, choice bound = max of children.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzlesearch.bits import lowest_bit as _lowest_bit
from puzzlesearch.bits import popcount as _popcount
from puzzlesearch.boggle.proof._kernels.arena import (
    BOUND,
    CAPPED,
    CHOICE_HEADER,
    FULL,
    MAX_BOUND,
    SHARED_LEAVES,
    STAMP,
    SUM_HEADER,
    alloc,
    leaf,
    pos_of,
    set_choice,
    set_sum,
)

LETTER_BITS = 26  # trie node word: letters with a child in bits 0-25
WORD_BIT = 26  # ... a word ends at the node
KEY_BITS = 63  # bits of a key word (the sign bit stays clear)
DIGIT_BITS = 11  # radix sort digit
DIGITS = (KEY_BITS + DIGIT_BITS - 1) // DIGIT_BITS
RADIX = 1 << DIGIT_BITS
SUM, CHOICE = 0, 1
MAX_CHILDREN = 64  # children of one node (36 cells, 26 letters)
TOO_MANY_POINTS = -3  # build outcome: a bound does not fit a node
MAX_KEY_WORDS = 4  # 36 cells of up to 5 bits need 3 words of 63 bits


class Layout(NamedTuple):
    """How a class's paths become keys: per cell and per split position."""

    cell_mask: np.ndarray  # int64[cell]: the cell's letters as a bit set
    near: np.ndarray  # int64[cell]: letters of the cell's neighbours
    letter_j: np.ndarray  # int64[cell, 26]: choice index of a letter in the cell
    pos: np.ndarray  # int64[cell]: split position
    nbr: np.ndarray  # int32[cell, 8] neighbours (model.neighbours)
    nbr_n: np.ndarray  # int32[cell]
    key_word: np.ndarray  # int64[position]: the key word holding the position's field
    key_shift: np.ndarray  # int64[position]: the field's lowest bit
    key_mask: np.ndarray  # int64[position]: the field's mask (after the shift)


class Paths(NamedTuple):
    """Records of word paths (one buffer of a pair: the radix sort moves them between two)."""

    keys: np.ndarray  # int64[capacity, key words]
    used: np.ndarray  # int64[capacity]: bit p set when the path uses position p
    word: np.ndarray  # int32[capacity]: trie node of the word


class BuildWork(NamedTuple):
    """Scratch arrays of the walk, the sort and the build (made once per bounder)."""

    st_cell: np.ndarray  # walk stack (depth <= cells)
    st_node: np.ndarray
    st_k: np.ndarray
    st_bits: np.ndarray
    st_used: np.ndarray
    st_key: np.ndarray  # (cells, MAX_KEY_WORDS)
    hist: np.ndarray  # (MAX_KEY_WORDS * DIGITS, RADIX) radix histograms
    start: np.ndarray  # (RADIX,)
    kind: np.ndarray  # build frames (depth <= 2 * cells + 3)
    hi: np.ndarray
    pos: np.ndarray
    cur: np.ndarray
    acc: np.ndarray
    pts: np.ndarray
    cnt: np.ndarray
    bits: np.ndarray
    kids: np.ndarray  # (depth, MAX_CHILDREN)


def new_build_work(cells: int) -> BuildWork:
    """Scratch arrays for classes of `cells` cells."""
    depth = 2 * cells + 3
    return BuildWork(
        *[np.zeros(cells, dtype=np.int64) for _ in range(5)],
        np.zeros((cells, MAX_KEY_WORDS), dtype=np.int64),
        np.zeros((MAX_KEY_WORDS * DIGITS, RADIX), dtype=np.int64),
        np.zeros(RADIX, dtype=np.int64),
        *[np.zeros(depth, dtype=np.int64) for _ in range(8)],
        np.zeros((depth, MAX_CHILDREN), dtype=np.int64),
    )


class Trie(NamedTuple):
    """The Boggle trie's packed nodes and each node's word points (0: no word)."""

    nodes: np.ndarray  # int64 mask | word << 26 | first_child << 32
    points: np.ndarray  # int32 points of the word ending at a node


@njit(cache=True, inline="always")
def _child(word, letter):
    """Trie node index of a node word's child for `letter` (present in its mask)."""
    return (word >> 32) + _popcount(word & ((np.int64(1) << letter) - 1))


@njit(cache=True, inline="always")
def next_neighbour(k, c, cells, pw, nbr, nbr_n, cell_mask):
    """(k, bits): the first neighbour index after k of cell c off the path `cells` with a letter
    that continues node word pw, and those letters; k = nbr_n[c] (bits 0) when none is left."""
    k += 1
    while k < nbr_n[c]:
        nb = nbr[c, k]
        if not (cells >> nb) & 1:
            bits = pw & cell_mask[nb]
            if bits:
                return k, bits
        k += 1
    return k, pw & 0


@njit(cache=True, inline="always")
def frame_next(depth, st_cell, st_node, st_k, st_bits, cells, nbr, nbr_n, cell_mask):
    """(neighbour, letters) the path-walk frame at `depth` tries next: its current neighbour while
    letters are left, else the next one with letters (st_k, st_bits updated); neighbour -1 when none is."""
    c = st_cell[depth]
    bits = st_bits[depth]
    if bits == 0:
        k, bits = next_neighbour(st_k[depth], c, cells, st_node[depth], nbr, nbr_n, cell_mask)
        st_k[depth] = k
        if k >= nbr_n[c]:
            return -1, bits
    return nbr[c, st_k[depth]], bits


@njit(cache=True, _nrt=False)
def collect_paths(layout, trie, paths, work):
    """Write the records of every word path of the class; returns their number.

    When the number exceeds the buffer, only the count is exact (grow and run again).
    """
    nodes = trie.nodes
    n = layout.pos.shape[0]
    cap = paths.used.shape[0]
    n_words = paths.keys.shape[1]
    st_cell = work.st_cell
    st_node = work.st_node  # the node word reached at this depth
    st_k = work.st_k  # current neighbour
    st_bits = work.st_bits  # its letters still to try
    st_used = work.st_used  # positions on the path
    st_key = work.st_key
    count = 0
    root = nodes[0]
    for s in range(n):
        bits0 = root & layout.cell_mask[s]
        while bits0:
            x = _lowest_bit(bits0)
            bits0 &= bits0 - 1
            nw = nodes[_child(root, x)]
            if not (nw & layout.near[s]):
                continue  # one-letter words score nothing
            p = layout.pos[s]
            st_cell[0] = s
            st_node[0] = nw
            st_k[0] = -1
            st_bits[0] = 0
            st_used[0] = np.int64(1) << p
            for i in range(n_words):
                st_key[0, i] = 0
            st_key[0, layout.key_word[p]] = (layout.letter_j[s, x] + 1) << layout.key_shift[p]
            cells = np.int64(1) << s
            depth = 0
            while depth >= 0:
                nb, bits = frame_next(
                    depth, st_cell, st_node, st_k, st_bits, cells, layout.nbr, layout.nbr_n, layout.cell_mask
                )
                if nb < 0:
                    cells &= ~(np.int64(1) << st_cell[depth])
                    depth -= 1
                    continue
                pw = st_node[depth]
                x = _lowest_bit(bits)
                st_bits[depth] = bits & (bits - 1)
                ni = _child(pw, x)
                nw = nodes[ni]
                p = layout.pos[nb]
                field = (layout.letter_j[nb, x] + 1) << layout.key_shift[p]
                w = layout.key_word[p]
                if (nw >> WORD_BIT) & 1 and trie.points[ni] > 0:
                    if count < cap:
                        for i in range(n_words):
                            paths.keys[count, i] = st_key[depth, i]
                        paths.keys[count, w] |= field
                        paths.used[count] = st_used[depth] | (np.int64(1) << p)
                        paths.word[count] = ni
                    count += 1
                if nw & layout.near[nb]:  # a longer word may follow
                    d = depth + 1
                    st_cell[d] = nb
                    st_node[d] = nw
                    st_k[d] = -1
                    st_bits[d] = 0
                    st_used[d] = st_used[depth] | (np.int64(1) << p)
                    for i in range(n_words):
                        st_key[d, i] = st_key[depth, i]
                    st_key[d, w] |= field
                    cells |= np.int64(1) << nb
                    depth = d
    return count


@njit(cache=True, _nrt=False)
def sort_paths(a, b, n, work):
    """Sort the first n records of buffer a by key (radix, via b); True when the result is in b."""
    n_words = a.keys.shape[1]
    hist = work.hist
    start = work.start
    for i in range(n_words * DIGITS):
        for v in range(RADIX):
            hist[i, v] = 0
    for i in range(n):
        for w in range(n_words):
            k = a.keys[i, w]
            for d in range(DIGITS):
                hist[w * DIGITS + d, (k >> (d * DIGIT_BITS)) & (RADIX - 1)] += 1
    src, dst = a, b
    in_b = False
    for w in range(n_words - 1, -1, -1):
        for d in range(DIGITS):
            row = w * DIGITS + d
            total = 0
            single = False
            for v in range(RADIX):
                start[v] = total
                total += hist[row, v]
                single |= hist[row, v] == n
            if single:
                continue  # every record has this digit
            shift = d * DIGIT_BITS
            for i in range(n):
                v = (src.keys[i, w] >> shift) & (RADIX - 1)
                t = start[v]
                start[v] = t + 1
                for ww in range(n_words):
                    dst.keys[t, ww] = src.keys[i, ww]
                dst.used[t] = src.used[i]
                dst.word[t] = src.word[i]
            src, dst = dst, src
            in_b = not in_b
    return in_b


@njit(cache=True, inline="always")
def _next_pos(used, p0):
    """The first position >= p0 a record uses (it has one)."""
    return p0 + _lowest_bit(used >> p0)


@njit(cache=True, inline="always")
def _field(paths, i, layout, p):
    return (paths.keys[i, layout.key_word[p]] >> layout.key_shift[p]) & layout.key_mask[p]


@njit(cache=True, inline="always")
def _gallop(values, c, hi, mask, limit):
    """The first g in (c, hi] with values[g] & mask > limit (hi if none); the predicate
    holds from some point on, so: gallop from c, then bisect."""
    lo = c
    step = 1
    g = c + 1
    while g < hi and values[g] & mask <= limit:
        lo = g
        step *= 2
        g = c + step
    if g > hi:
        g = hi
    while g - lo > 1:
        mid = (lo + g) // 2
        if values[mid] & mask > limit:
            g = mid
        else:
            lo = mid
    return g


@njit(cache=True, inline="always")
def _word_ends(paths, trie, stamps, state, c, g, p):
    """(first record after them, their points) of the word ends that open records c..g of a new sum node
    below position p (they come first in the range); each word counts once (a fresh stamp)."""
    state[STAMP] += 1
    stamp = state[STAMP]
    total = 0
    e = c
    while e < g and (paths.used[e] >> (p + 1)) == 0:
        word = paths.word[e]
        if stamps[word] != stamp:
            stamps[word] = stamp
            total += trie.points[word]
        e += 1
    return e, total


@njit(cache=True, _nrt=False)
def build_tree(paths, n, layout, trie, stamps, mem, state, max_live, work):
    """Build the tree of n sorted records into the arena; (root, nodes made).

    root is FULL (mem too small), CAPPED (over max_live nodes) or TOO_MANY_POINTS
    (a bound over arena.MAX_BOUND) when the tree could not be built.
    """
    kind = work.kind
    hi = work.hi
    pos = work.pos  # sum: first position of its children; choice: its cell
    cur = work.cur
    acc = work.acc  # sum: bound so far; choice: max so far
    pts = work.pts
    cnt = work.cnt
    bits = work.bits
    kids = work.kids
    made = 0
    d = 0
    kind[0] = SUM
    hi[0] = n
    pos[0] = 0
    cur[0] = 0
    pts[0] = 0
    acc[0] = 0
    cnt[0] = 0
    while True:
        c = cur[d]
        if c < hi[d]:  # open the next child
            if kind[d] == SUM:
                p0 = pos[d]
                p = _next_pos(paths.used[c], p0)
                # next positions decrease along the range: the group ends at the first record
                # using a position in [p0, p) (galloping, then bisection)
                before = ((np.int64(1) << p) - 1) ^ ((np.int64(1) << p0) - 1)
                g = _gallop(paths.used, c, hi[d], before, 0)
                cur[d] = g
                d += 1
                kind[d] = CHOICE
                hi[d] = g
                pos[d] = p
                cur[d] = c
                acc[d] = 0
                cnt[d] = 0
                bits[d] = 0
            else:
                p = pos[d]
                kw = layout.key_word[p]
                # fields at p increase along the range: the run of value v ends at the first
                # key above v's upper end (galloping, then bisection)
                top = ((_field(paths, c, layout, p) + 1) << layout.key_shift[p]) - 1
                above = paths.keys[c, kw] | top  # keys in the run are <= above
                g = _gallop(paths.keys[:, kw], c, hi[d], np.int64(-1), above)
                v = _field(paths, c, layout, p)
                cur[d] = g
                bits[d] |= np.int64(1) << (v - 1)
                d += 1
                kind[d] = SUM
                hi[d] = g
                pos[d] = p + 1
                cnt[d] = 0
                e, total = _word_ends(paths, trie, stamps, state, c, g, p)
                cur[d] = e
                pts[d] = total
                acc[d] = total
            continue
        # every child is done: write the node
        m = cnt[d]
        made += 1
        if kind[d] == SUM:
            if acc[d] > MAX_BOUND:
                return TOO_MANY_POINTS, made
            if m == 0 and 1 <= pts[d] <= SHARED_LEAVES and d > 0:
                node = leaf(pts[d])
            else:
                node = alloc(mem, state, SUM_HEADER + m, max_live)
                if node < 0:
                    return node, made
                mask = np.int64(0)
                for i in range(m):  # children came in decreasing position
                    child = kids[d, m - 1 - i]
                    mem[node + SUM_HEADER + i] = child
                    mask |= np.int64(1) << pos_of(mem, child)
                set_sum(mem, node, pts[d], mask)
        else:
            node = alloc(mem, state, CHOICE_HEADER + m, max_live)
            if node < 0:
                return node, made
            set_choice(mem, node, pos[d], bits[d])
            for i in range(m):
                mem[node + CHOICE_HEADER + i] = kids[d, i]
        mem[node + BOUND] = acc[d]
        if d == 0:
            return node, made
        d -= 1
        kids[d, cnt[d]] = node
        cnt[d] += 1
        if kind[d] == SUM:
            acc[d] += acc[d + 1]
        elif acc[d + 1] > acc[d]:
            acc[d] = acc[d + 1]


__all__ = ["CAPPED", "FULL", "BuildWork", "Layout", "Paths", "Trie", "build_tree", "collect_paths", "sort_paths"]
