"""Boggle's replaced scorer kernel (DAWG with ranks), kept as the benchmark's same-run baseline.

benchmarks/boggle_bench.py times the current trie kernels (boggle/_kernels/scorer.py)
against this one on the same boards; the Scorer no longer uses it. The DAWG is passed as the tuple
    dawg = (nodes, edges, word_length)
of packed int64 words made by `pack_dawg` from puzzlesearch.lexicon.dawg's arrays:
node = mask | terminal << 26 | first_edge << 32, edge = target | rank << 32.
Words are de-duplicated with per-word stamps (`stamps[rank] == stamp`: already counted).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.bits import popcount as _popcount

MAX_DEPTH = 37  # 36 cells + 1
MASK_BITS = (1 << 26) - 1  # packed node word: letters with an edge
TERMINAL_BIT = 26  # packed node word: a word ends here
LOW32 = (1 << 32) - 1


@njit(cache=True)
def _score(board, nbr, nbr_n, dawg, points, stamps, stamp, work, found):
    """(score, words) of one board; ranks of new words go to `found` when it has room."""
    nodes, edges, word_length = dawg
    st_cell = work[0]
    st_node = work[1]  # packed node word of the path's last cell
    st_rank = work[2]
    st_k = work[3]
    near = work[4]  # near[cell]: letters on the cell's neighbours (prunes dead ends)
    record = found.shape[0] > 0
    score = 0
    nwords = 0
    n = board.shape[0]
    for c in range(n):
        bits = np.int64(0)
        for k in range(nbr_n[c]):
            bits |= np.int64(1) << np.int64(board[nbr[c, k]])
        near[c] = bits
    root = nodes[0]
    for s in range(n):
        letter = np.int64(board[s])
        m = root & MASK_BITS
        if not (m >> letter) & 1:
            continue
        ew = edges[(root >> 32) + _popcount(m & ((np.int64(1) << letter) - 1))]
        rank = ew >> 32
        nw = nodes[ew & LOW32]
        if (nw >> TERMINAL_BIT) & 1 and stamps[rank] != stamp:  # (no 1-cell words in a Boggle DAWG)
            stamps[rank] = stamp
            score += points[word_length[rank]]
            if record:
                found[nwords] = rank
            nwords += 1
        if not (nw & near[s]):
            continue
        depth = 0
        st_cell[0] = s
        st_node[0] = nw
        st_rank[0] = rank
        st_k[0] = 0
        used = np.int64(1) << s
        while depth >= 0:
            c = st_cell[depth]
            k = st_k[depth]
            if k < nbr_n[c]:
                st_k[depth] = k + 1
                nb = nbr[c, k]
                bit = np.int64(1) << nb
                if used & bit:
                    continue
                pw = st_node[depth]
                m = pw & MASK_BITS
                letter = np.int64(board[nb])
                if not (m >> letter) & 1:
                    continue
                ew = edges[(pw >> 32) + _popcount(m & ((np.int64(1) << letter) - 1))]
                r = st_rank[depth] + (ew >> 32)
                nw = nodes[ew & LOW32]
                if (nw >> TERMINAL_BIT) & 1 and stamps[r] != stamp:
                    stamps[r] = stamp
                    score += points[word_length[r]]
                    if record:
                        found[nwords] = r
                    nwords += 1
                if nw & near[nb]:
                    depth += 1
                    st_cell[depth] = nb
                    st_node[depth] = nw
                    st_rank[depth] = r
                    st_k[depth] = 0
                    used |= bit
            else:
                used &= ~(np.int64(1) << c)
                depth -= 1
    return score, nwords


def pack_dawg(mask, first_edge, terminal, edge_target, edge_rank):
    """(nodes, edges) int64 words: node = mask | terminal << 26 | first_edge << 32,
    edge = target | rank << 32 (one load per step instead of five)."""
    nodes = mask.astype(np.int64) | (terminal.astype(np.int64) << TERMINAL_BIT) | (first_edge.astype(np.int64) << 32)
    edges = edge_target.astype(np.int64) | (edge_rank.astype(np.int64) << 32)
    return nodes, edges


@njit(cache=True)
def new_work():
    """Scratch stacks for `_score` (allocated once per call of a batch kernel)."""
    return np.zeros((5, MAX_DEPTH), dtype=np.int64)


@njit(cache=True)
def score_batch(boards, nbr, nbr_n, dawg, points, stamps, stamp0, scores, counts):
    """Score every row of `boards` (stamps stamp0, stamp0 + 1, ...) into scores, counts."""
    work = new_work()
    none = np.zeros(0, dtype=np.int32)
    for i in range(boards.shape[0]):
        s, w = _score(boards[i], nbr, nbr_n, dawg, points, stamps, stamp0 + i, work, none)
        scores[i] = s
        counts[i] = w
