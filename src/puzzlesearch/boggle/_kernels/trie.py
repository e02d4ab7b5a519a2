"""numba kernels: expand the minimal Boggle DAWG into the scorer's trie (boggle.trie).

The DAWG arrays are puzzlesearch.lexicon.dawg's (mask, first_edge, terminal, edge_target,
edge_rank); the trie's layout is described in boggle/trie.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.bits import popcount as _popcount

WORD_BIT = 26  # nodes[n] >> WORD_BIT & 1: a word ends at n


@njit(cache=True)
def count_trie_nodes(mask, first_edge, edge_target, max_depth):
    """Nodes of the trie of the DAWG's words (one per prefix, the root included)."""
    st_edge = np.zeros(max_depth + 2, dtype=np.int64)
    st_end = np.zeros(max_depth + 2, dtype=np.int64)
    total = 1
    depth = 0
    st_edge[0] = first_edge[0]
    st_end[0] = first_edge[0] + _popcount(mask[0])
    while depth >= 0:
        e = st_edge[depth]
        if e < st_end[depth]:
            st_edge[depth] = e + 1
            t = edge_target[e]
            total += 1
            depth += 1
            st_edge[depth] = first_edge[t]
            st_end[depth] = first_edge[t] + _popcount(mask[t])
        else:
            depth -= 1
    return total


@njit(cache=True)
def fill_trie(mask, first_edge, terminal, edge_target, edge_rank, nodes, rank):
    """Breadth-first trie of a DAWG: nodes (packed words) and rank (word ranks, -1 none)."""
    n = nodes.shape[0]
    dawg_node = np.zeros(n, dtype=np.int32)  # the queue: trie node i is DAWG node dawg_node[i]
    prefix_rank = np.zeros(n, dtype=np.int64)  # words before the prefix of trie node i
    following = 1
    for i in range(n):
        d = dawg_node[i]
        r = prefix_rank[i]
        m = np.int64(mask[d])
        word = np.int64(terminal[d] != 0)
        nodes[i] = m | (word << WORD_BIT) | (np.int64(following) << 32)
        rank[i] = r if word else -1
        e = first_edge[d]
        for k in range(_popcount(m)):
            dawg_node[following] = edge_target[e + k]
            prefix_rank[following] = r + edge_rank[e + k]
            following += 1
