"""The Boggle trie: the scorer's layout, built in memory from the minimal Boggle DAWG.

The DAWG stays the lexicon artifact (small, content-keyed); the trie is derived from it
when a Scorer is made (about 0.1 s for ENABLE2K's 173k Boggle words, 389k trie nodes).
Unlike the DAWG, the trie has one node per prefix, so a word found on a board is stamped
at its own node: no rank sums, no separate per-word arrays.

Layout (nodes in breadth-first order, so the hot top levels are contiguous; the
children of a node are consecutive nodes, in letter order):
    nodes[n]  int64  mask (bits 0-25: letters with a child) | 1 << 26 when a word ends
                     at n | first_child << 32; the child for letter x is
                     first_child + popcount(mask & ((1 << x) - 1))
    rank[n]   int32  DAWG rank of the word ending at n (-1 when none): listing words
8 bytes a node (3 MB for ENABLE2K) keeps the walk in cache, which beats a 26-entry child
table per node (a 50 MB table for the same trie) on this hardware.
The scorer's per-node word table `word_table(...)` is (stamp, word length) int32 pairs
(8 bytes a node: the stamps stay in cache better than int64 (stamp, points) pairs).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from puzzlesearch.boggle._kernels.trie import count_trie_nodes, fill_trie
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.dawg import Dawg

MAX_NODES = 2**31 - 1  # first_child is stored in 32 bits; ranks are int32


@dataclass(frozen=True)
class BoggleTrie:
    """The scorer's trie (packed nodes and word ranks) of one Boggle DAWG."""

    nodes: np.ndarray
    rank: np.ndarray
    build_seconds: float = 0.0

    @property
    def n_nodes(self) -> int:
        return int(self.nodes.shape[0])

    @classmethod
    def from_dawg(cls, dawg: Dawg) -> BoggleTrie:
        """Expand a Boggle DAWG into the trie (numba; linear in the trie's size)."""
        start = time.perf_counter()
        max_depth = dawg.longest_path()  # the walk's stack depth (Dawg.check refused cycles)
        n = count_trie_nodes(dawg.mask, dawg.first_edge, dawg.edge_target, max_depth)
        if n > MAX_NODES:
            raise PuzzleError(f"Boggle trie of {dawg.n_words} words needs {n} nodes; at most {MAX_NODES} fit")
        nodes = np.zeros(n, dtype=np.int64)
        rank = np.zeros(n, dtype=np.int32)
        fill_trie(dawg.mask, dawg.first_edge, dawg.terminal, dawg.edge_target, dawg.edge_rank, nodes, rank)
        return cls(nodes, rank, time.perf_counter() - start)

    def word_table(self, word_length: np.ndarray, n_points: int) -> np.ndarray:
        """(n_nodes, 2) int32: column 0 stamps (zero), column 1 the length of the word ending
        there, capped at n_points - 1 (the index into a points table of n_points entries)."""
        table = np.zeros((self.n_nodes, 2), dtype=np.int32)
        words = np.flatnonzero(self.rank >= 0)
        table[words, 1] = np.minimum(word_length[self.rank[words]], n_points - 1)
        return table
