"""Minimal DAWG with word numbering, stored as flat numpy arrays.

Construction: Daciuk, Mihov, Watson & Watson (2000), incremental on sorted input.

Array layout (all in `dawg.npz`; node 0 is the root):
- `mask[n]`      uint32  bit c set when node n has an edge for letter c (bit 0 = 'a')
- `first_edge[n]` int32  index of node n's first edge; its edges follow in letter order,
                         so the edge for letter c is first_edge[n] + popcount(mask[n] & ((1<<c)-1))
- `terminal[n]`  uint8   1 when a word ends at n
- `count[n]`     int32   number of words in the right language of n (words below it)
- `edge_target[e]` int32 node an edge leads to
- `edge_letter[e]` uint8 letter index of the edge
- `edge_rank[e]`  int32  words numbered before this edge at its source node:
                         terminal[source] + sum(count[target] of earlier sibling edges)

The rank of an accepted word (its index in sorted order) is the sum of `edge_rank` along
its path: a scorer keeps one stamp per rank to de-duplicate found words.
The Boggle DAWG (`boggle_dawg.npz`) is built over Boggle keys, where letter 'q' is the
"Qu" face; it also stores `word_id[rank]` (row of words.parquet) and `word_length[rank]`
(letters of the real word, so "qu" counts 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_npz
from puzzlesearch.lexicon.model import LATIN
from puzzlesearch.manifest import check_range, damaged, load_npz, verify

ARRAY_NAMES = ("mask", "first_edge", "terminal", "count", "edge_target", "edge_letter", "edge_rank")


class _Node:
    __slots__ = ("final", "edges", "id")

    def __init__(self) -> None:
        self.final = False
        self.edges: dict[int, _Node] = {}
        self.id = -1

    def key(self) -> tuple:
        return (self.final, tuple((c, n.id) for c, n in self.edges.items()))


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _build_nodes(words: list[str], alphabet: str) -> tuple[_Node, list[_Node]]:
    """Daciuk's incremental algorithm; returns the root and nodes in registration order."""
    index = {ch: i for i, ch in enumerate(alphabet)}
    root = _Node()
    register: dict[tuple, _Node] = {}
    order: list[_Node] = []
    unchecked: list[tuple[_Node, int, _Node]] = []

    def minimize(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            key = child.key()
            twin = register.get(key)
            if twin is not None:
                parent.edges[letter] = twin
            else:
                child.id = len(order)
                order.append(child)
                register[key] = child

    previous = ""
    for word in words:
        if word <= previous and previous:
            raise PuzzleError(f"DAWG input not sorted and distinct at {previous!r} -> {word!r}")
        common = _common_prefix(word, previous)
        minimize(common)
        node = unchecked[-1][2] if unchecked else root
        for ch in word[common:]:
            try:
                letter = index[ch]
            except KeyError:
                raise PuzzleError(f"DAWG input word {word!r} has {ch!r}, not in the alphabet") from None
            nxt = _Node()
            node.edges[letter] = nxt
            unchecked.append((node, letter, nxt))
            node = nxt
        node.final = True
        previous = word
    minimize(0)
    root.id = len(order)
    order.append(root)
    return root, order


@dataclass
class Dawg:
    """A minimal DAWG as flat arrays, with lookups for Python callers."""

    mask: np.ndarray
    first_edge: np.ndarray
    terminal: np.ndarray
    count: np.ndarray
    edge_target: np.ndarray
    edge_letter: np.ndarray
    edge_rank: np.ndarray
    alphabet: str = LATIN
    word_id: np.ndarray | None = None
    word_length: np.ndarray | None = None

    @property
    def n_nodes(self) -> int:
        """Number of nodes (states)."""
        return int(self.mask.shape[0])

    @property
    def n_edges(self) -> int:
        """Number of edges (transitions)."""
        return int(self.edge_target.shape[0])

    @property
    def n_words(self) -> int:
        """Number of words accepted."""
        return int(self.count[0])

    @property
    def nbytes(self) -> int:
        """Bytes of all arrays."""
        return sum(a.nbytes for a in self.arrays().values())

    def arrays(self) -> dict[str, np.ndarray]:
        """All arrays by name (the .npz contents)."""
        out = {name: getattr(self, name) for name in ARRAY_NAMES}
        if self.word_id is not None:
            out["word_id"] = self.word_id
            out["word_length"] = self.word_length
        return out

    def child(self, node: int, letter: int) -> int:
        """The node reached from `node` by letter index `letter`, or -1."""
        m = int(self.mask[node])
        if not (m >> letter) & 1:
            return -1
        return int(self.edge_target[self.first_edge[node] + bin(m & ((1 << letter) - 1)).count("1")])

    def _walk(self, word: str) -> tuple[int, int]:
        """(node, rank so far) after reading `word`, node -1 if it falls off."""
        node, rank = 0, 0
        for ch in word:
            letter = self.alphabet.find(ch)
            if letter < 0:
                return -1, 0
            m = int(self.mask[node])
            if not (m >> letter) & 1:
                return -1, 0
            e = int(self.first_edge[node]) + bin(m & ((1 << letter) - 1)).count("1")
            rank += int(self.edge_rank[e])
            node = int(self.edge_target[e])
        return node, rank

    def index(self, word: str) -> int:
        """The word's rank in sorted order, or -1 when it is not a word."""
        node, rank = self._walk(word)
        return rank if node >= 0 and self.terminal[node] else -1

    def __contains__(self, word: str) -> bool:
        return self.index(word) >= 0

    def is_prefix(self, prefix: str) -> bool:
        """True when some word starts with `prefix`."""
        return self._walk(prefix)[0] >= 0

    def word(self, rank: int) -> str:
        """The word with the given rank (inverse of `index`)."""
        if not 0 <= rank < self.n_words:
            raise IndexError(rank)
        node, out = 0, []
        while True:
            if self.terminal[node]:
                if rank == 0:
                    return "".join(out)
            start = int(self.first_edge[node])
            k = bin(int(self.mask[node])).count("1")
            for e in range(start + k - 1, start - 1, -1):
                if self.edge_rank[e] <= rank:
                    rank -= int(self.edge_rank[e])
                    out.append(self.alphabet[self.edge_letter[e]])
                    node = int(self.edge_target[e])
                    break

    def words(self) -> list[str]:
        """Every accepted word in sorted order (depth-first walk)."""
        out: list[str] = []
        stack = [(0, "")]
        while stack:
            node, prefix = stack.pop()
            if self.terminal[node]:
                out.append(prefix)
            start = int(self.first_edge[node])
            k = bin(int(self.mask[node])).count("1")
            for e in range(start + k - 1, start - 1, -1):
                stack.append((int(self.edge_target[e]), prefix + self.alphabet[self.edge_letter[e]]))
        return out

    def save(self, path: str | Path) -> None:
        """Write the arrays to an .npz file atomically."""
        write_npz(path, alphabet=np.array(self.alphabet), **self.arrays())

    @classmethod
    def load(cls, path: str | Path, manifest: dict | None = None) -> Dawg:
        """Read a DAWG written by `save` (arrays checked against `manifest` and `check`)."""
        if manifest is None:
            manifest = verify(Path(path).with_suffix(".json"), names=[Path(path).name])
        arrays = load_npz(path, manifest)
        missing = [name for name in ("alphabet", *ARRAY_NAMES) if name not in arrays]
        if missing:
            raise damaged(path, f"no array {missing[0]!r} (not a DAWG file?)")
        alphabet = str(arrays.pop("alphabet"))
        dawg = cls(alphabet=alphabet, **arrays)
        dawg.check(path)
        return dawg

    def degrees(self) -> np.ndarray:
        """Edges of each node (int64): the bits set in its mask."""
        if self.n_nodes < 4096:
            return np.array([int(m).bit_count() for m in self.mask], dtype=np.int64)
        return np.unpackbits(self.mask.astype("<u4").view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1).astype(np.int64)

    def walked_edges(self) -> tuple[np.ndarray, np.ndarray]:
        """(source, target) of every edge a walk follows: node n's are first_edge[n] .. + its degree."""
        degree = self.degrees()
        source = np.repeat(np.arange(self.n_nodes, dtype=np.int64), degree)
        start = np.cumsum(degree) - degree
        index = np.arange(len(source), dtype=np.int64) - np.repeat(start, degree) + np.repeat(self.first_edge, degree)
        return source, self.edge_target[index].astype(np.int64)

    def longest_path(self, path: str | Path = "DAWG") -> int:
        """Edges on the DAWG's longest path; ArtifactError when its edges form a cycle (a walk would never end).

        Peels the nodes no remaining edge enters, level by level (Kahn's order): every node is
        peeled exactly when the graph is acyclic, and the levels are the longest path plus one.
        """
        source, target = self.walked_edges()
        indegree = np.bincount(target, minlength=self.n_nodes)
        left = np.ones(self.n_nodes, dtype=bool)
        levels = 0
        while (level := left & (indegree == 0)).any():
            left &= ~level
            indegree -= np.bincount(target[level[source]], minlength=self.n_nodes)
            levels += 1
        if left.any():
            raise damaged(path, f"edges form a cycle through node {int(np.flatnonzero(left)[0])} (not a DAWG)")
        return max(levels - 1, 0)

    def check(self, path: str | Path = "DAWG") -> None:
        """Range- and structure-check the arrays, so a kernel walking them never reads out of bounds or loops."""
        n, e = self.n_nodes, self.n_edges
        if n == 0 or len(self.first_edge) != n or len(self.terminal) != n or len(self.count) != n:
            raise damaged(path, "node arrays of different lengths")
        if len(self.edge_letter) != e or len(self.edge_rank) != e:
            raise damaged(path, "edge arrays of different lengths")
        degree = self.degrees()
        check_range(path, "first_edge", self.first_edge, 0, e)
        if np.any(self.first_edge.astype(np.int64) + degree > e):
            raise damaged(path, "array 'first_edge' points past the edges")
        check_range(path, "edge_target", self.edge_target, 0, n - 1)
        check_range(path, "edge_letter", self.edge_letter, 0, len(self.alphabet) - 1)
        check_range(path, "count", self.count, 0, 2**31 - 1)
        check_range(path, "edge_rank", self.edge_rank, 0, max(self.n_words - 1, 0))
        if self.mask.size and int(self.mask.max()) >> len(self.alphabet):
            raise damaged(path, "array 'mask' has letters outside the alphabet")
        if self.word_id is not None:
            if len(self.word_id) != self.n_words or len(self.word_length) != self.n_words:
                raise damaged(path, "word_id/word_length do not have one entry per word")
            check_range(path, "word_id", self.word_id, 0, 2**31 - 1)
            check_range(path, "word_length", self.word_length, 1, 32767)
        self._check_structure(path)

    def _check_structure(self, path: str | Path) -> None:
        """No cycle; counts and edge ranks add up over the edges (so a word's rank stays below n_words)."""
        self.longest_path(path)
        source, target = self.walked_edges()
        own = self.terminal.astype(np.int64)
        below = self.count[target].astype(np.int64)
        total = own.copy()
        np.add.at(total, source, below)
        if not np.array_equal(total, self.count.astype(np.int64)):
            raise damaged(path, "array 'count' does not add up over the edges (not a DAWG)")
        degree = self.degrees()
        before = np.cumsum(below) - below  # words below the earlier edges, over all nodes
        group = np.repeat(np.cumsum(degree) - degree, degree)  # each edge's first sibling
        expected = own[source] + before - before[group] if len(source) else before
        index = np.arange(len(source), dtype=np.int64) - group + np.repeat(self.first_edge, degree)
        if not np.array_equal(self.edge_rank[index].astype(np.int64), expected):
            raise damaged(path, "array 'edge_rank' does not number the words in order (not a DAWG)")


def build_dawg(words, alphabet: str = LATIN) -> Dawg:
    """Build the minimal DAWG of sorted, distinct `words` over `alphabet`."""
    words = list(words)
    if len(alphabet) > 32:
        raise PuzzleError(f"DAWG alphabet has {len(alphabet)} letters; at most 32 fit the mask")
    root, order = _build_nodes(words, alphabet)
    # Array order: breadth-first from the root, so node 0 is the root.
    position = {id(root): 0}
    bfs = [root]
    for node in bfs:
        for child in node.edges.values():
            if id(child) not in position:
                position[id(child)] = len(bfs)
                bfs.append(child)
    n = len(bfs)
    count = np.zeros(n, dtype=np.int64)
    for node in order:  # registration order lists children before parents
        count[position[id(node)]] = node.final + sum(count[position[id(c)]] for c in node.edges.values())
    mask = np.zeros(n, dtype=np.uint32)
    first_edge = np.zeros(n, dtype=np.int32)
    terminal = np.zeros(n, dtype=np.uint8)
    targets, letters, ranks = [], [], []
    for i, node in enumerate(bfs):
        first_edge[i] = len(targets)
        terminal[i] = node.final
        skip = int(node.final)
        for letter in sorted(node.edges):
            child = position[id(node.edges[letter])]
            mask[i] |= np.uint32(1 << letter)
            targets.append(child)
            letters.append(letter)
            ranks.append(skip)
            skip += int(count[child])
    if count[0] >= 2**31:
        raise PuzzleError("too many words for 32-bit ranks")
    return Dawg(
        mask=mask,
        first_edge=first_edge,
        terminal=terminal,
        count=count.astype(np.int32),
        edge_target=np.asarray(targets, dtype=np.int32),
        edge_letter=np.asarray(letters, dtype=np.uint8),
        edge_rank=np.asarray(ranks, dtype=np.int32),
        alphabet=alphabet,
    )
