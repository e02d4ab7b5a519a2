"""Baseline (replaced): the orderly-tree bound of a class from the root and its depth-first branch and bound.

The proof engine is now boggle/proof/tree.py (force/merge on a compact arena); this module
and its kernels (_boggle_orderly_kernels.py) stay only as the oracle of its tests and the
baseline of benchmarks. `OrderlyBounder` runs the numba kernels over a Boggle DAWG; the
functions `py_orderly_search` and `py_max_nomark` are slow pure-Python versions over a
plain word list, written from the definitions, for tests on small lexicons:

- orderly tree (2025): words' choice sets sorted into the split order, a word counted
  once per set of (cell, letter) choices; sum node = points + children, choice = max.
- max/no-mark (2009): a depth-first walk of the class where each cell on a path takes
  its best letter independently and words are never de-duplicated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from puzzlesearch.baselines import _boggle_orderly_kernels as bk
from puzzlesearch.boggle.model import Shape, neighbours, points_table
from puzzlesearch.boggle.proof.classes import BoardClass, split_order

START_NODES = 1 << 16
START_LEAVES = 1 << 10


@dataclass
class ClassBound:
    """The orderly branch and bound of one class."""

    bound: int  # the orderly-tree bound of the whole class
    tree_nodes: int  # sum + choice nodes
    word_paths: int  # paths spelling a word (before de-duplication)
    visits: int  # sub-classes whose bound was computed
    boards: np.ndarray  # (n, cells) uint8 letters: every board whose bound is >= min_score
    leaf_bounds: np.ndarray
    complete: bool  # False: a cap stopped it (tree nodes or visits)


class OrderlyBounder:
    """Orderly bounds and branch and bound over one Boggle DAWG, shape and points table."""

    def __init__(self, dawg, shape: Shape, points, order=None, max_nodes: int = 50_000_000):
        self.shape = shape
        self.order = np.asarray(split_order(shape) if order is None else order, dtype=np.int64)
        self.order_pos = np.argsort(self.order).astype(np.int64)
        self.nbr, self.nbr_n = neighbours(shape)
        nodes, edges = bk.pack_dawg(dawg.mask, dawg.first_edge, dawg.terminal, dawg.edge_target, dawg.edge_rank)
        self.dawg = (nodes, edges, np.ascontiguousarray(dawg.word_length, dtype=np.int64))
        max_len = int(dawg.word_length.max()) if dawg.n_words else 3
        self.points = points_table(points, max(max_len, 8))
        self.max_nodes = max_nodes
        self._alloc(START_NODES, START_NODES * 4, START_NODES)

    def _alloc(self, nodes: int, slots: int, words: int) -> None:
        """Node and store arrays, reused by every class (only grown)."""
        self.tree_arrays = np.empty((nodes, bk.N_COLUMNS), np.int64)
        self.store = (np.empty(slots, np.int64), np.empty(words, np.int64), np.empty(words, np.int64))

    def tree(self, cls: BoardClass):
        """(tree arrays, nodes, word paths) of a class, or None when over max_nodes."""
        letters, n_letters = cls.arrays()
        while True:
            ok, n_nodes, paths = bk.build_tree(
                letters,
                n_letters,
                self.nbr,
                self.nbr_n,
                self.order_pos,
                self.dawg,
                self.points,
                self.tree_arrays,
                self.store,
            )
            if ok:
                return self.tree_arrays, n_nodes, paths
            nodes, slots, words = (len(self.tree_arrays), len(self.store[0]), len(self.store[1]))
            if nodes >= self.max_nodes and n_nodes + 2 > nodes:
                return None
            self._alloc(min(nodes * 2, max(self.max_nodes, START_NODES)), slots * 2, max(words, 2 * paths))

    def bound(self, cls: BoardClass) -> tuple[int, int]:
        """(orderly bound, tree nodes) of a class; bound -1 when the tree is over max_nodes."""
        built = self.tree(cls)
        if built is None:
            return -1, self.max_nodes
        tree, n_nodes, _ = built
        return int(bk.finish_tree(tree, n_nodes)[0]), n_nodes

    def max_nomark(self, cls: BoardClass) -> int:
        """The max/no-mark bound (2009) of a class (looser than the orderly bound; for comparison)."""
        letters, n_letters = cls.arrays()
        return int(bk.max_nomark(letters, n_letters, self.nbr, self.nbr_n, self.dawg, self.points))

    def search(self, cls: BoardClass, min_score: int, max_visits: int = 2**62) -> ClassBound:
        """Branch and bound of a class: every board that may score >= min_score."""
        letters, n_letters = cls.arrays()
        empty = np.zeros((0, self.shape.cells), np.uint8)
        built = self.tree(cls)
        if built is None:
            return ClassBound(-1, self.max_nodes, 0, 0, empty, np.zeros(0, np.int64), False)
        tree, n_nodes, paths = built
        bound = bk.finish_tree(tree, n_nodes)
        room = START_LEAVES
        while True:
            choices = np.zeros((room, self.shape.cells), np.int64)
            leaf_bounds = np.zeros(room, np.int64)
            leaves, visits, complete = bk.orderly_search(
                tree, n_nodes, bound, self.store[0], n_letters, self.order, min_score, choices, leaf_bounds, max_visits
            )
            if leaves <= room:
                break
            room = 1 << int(leaves).bit_length()
        choices = choices[:leaves]
        boards = letters[np.arange(self.shape.cells)[None, :], choices].astype(np.uint8)
        return ClassBound(int(bound[0]), n_nodes, paths, visits, boards, leaf_bounds[:leaves].copy(), complete)


# ---------------------------------------------------------------- pure-Python twins (tests)


def boggle_words(words) -> list[tuple[str, int]]:
    """(Boggle key, real length) of each word: 'qu' -> 'q', words with another 'q' dropped."""
    out = []
    for w in words:
        w = w.lower()
        key = w.replace("qu", "q")
        if "q" in w and w.count("q") != w.count("qu"):
            continue
        out.append((key, len(w)))
    return out


def _trie(words) -> dict:
    """A dict trie of Boggle keys; the key None at a node holds the real length of its word."""
    root: dict = {}
    for key, length in boggle_words(words):
        node = root
        for ch in key:
            node = node.setdefault(ch, {})
        node[None] = length
    return root


def _paths(cls: BoardClass, trie: dict):
    """Every path of the class spelling a word: (word key, real length, [(cell, letter), ...])."""
    from puzzlesearch.boggle.model import LETTERS

    nbr, nbr_n = neighbours(cls.shape)
    out = []

    def walk(cell, node, path, used, word):
        for letter in cls.cells[cell]:
            ch = LETTERS[letter]
            if ch not in node:
                continue
            child = node[ch]
            step = [*path, (cell, letter)]
            if None in child:
                out.append((word + ch, child[None], step))
            for k in range(nbr_n[cell]):
                nb = int(nbr[cell, k])
                if not used >> nb & 1:
                    walk(nb, child, step, used | 1 << nb, word + ch)

    for s in range(cls.shape.cells):
        walk(s, trie, [], 1 << s, "")
    return out


class _PyNode:
    """A sum node: points and choice children {cell: {letter: _PyNode}}."""

    def __init__(self):
        self.points = 0
        self.words: set[str] = set()
        self.choices: dict[int, dict[int, _PyNode]] = {}

    def bound(self) -> int:
        return self.points + sum(max(s.bound() for s in kids.values()) for kids in self.choices.values())

    def count(self) -> int:
        return 1 + sum(1 + sum(s.count() for s in kids.values()) for kids in self.choices.values())


def py_orderly_tree(cls: BoardClass, words, points=None, order=None) -> _PyNode:
    """The orderly tree of a class, built from a word list (pure Python)."""
    table = points_table(points) if points is not None else points_table()
    order = list(split_order(cls.shape) if order is None else order)
    pos = {c: i for i, c in enumerate(order)}
    root = _PyNode()
    for word, length, path in _paths(cls, _trie(words)):
        pts = int(table[min(length, len(table) - 1)])
        if pts == 0:
            continue
        node = root
        for cell, letter in sorted(path, key=lambda p: pos[p[0]]):
            node = node.choices.setdefault(cell, {}).setdefault(letter, _PyNode())
        if word not in node.words:
            node.words.add(word)
            node.points += pts
    return root


def py_orderly_search(cls: BoardClass, words, min_score: int, points=None, order=None):
    """(root bound, tree nodes, visits, {board: bound}) of the orderly branch and bound (pure Python)."""
    order = list(split_order(cls.shape) if order is None else order)
    root = py_orderly_tree(cls, words, points, order)
    n = cls.shape.cells
    found: dict[tuple, int] = {}
    visits = 1

    def rec(level, pts, stacks, chosen):
        nonlocal visits
        cell = order[level]
        for letter in cls.cells[cell]:
            new = {c: list(s) for c, s in stacks.items() if c != cell}
            p = pts
            for kids in stacks.get(cell, []):
                child = kids.get(letter)
                if child is None:
                    continue
                p += child.points
                for c, grand in child.choices.items():
                    new.setdefault(c, []).append(grand)
            visits += 1
            b = p + sum(max(s.bound() for s in kids.values()) for c in order[level + 1 :] for kids in new.get(c, []))
            if b < min_score:
                continue
            pick = {**chosen, cell: letter}
            if level == n - 1:
                found[tuple(pick[c] for c in range(n))] = b
            else:
                rec(level + 1, p, new, pick)

    stacks = {c: [kids] for c, kids in root.choices.items()}
    if root.bound() >= min_score:
        rec(0, root.points, stacks, {})
    return root.bound(), root.count(), visits, found


def py_max_nomark(cls: BoardClass, words, points=None) -> int:
    """The max/no-mark bound (2009): best letter per path cell, words never de-duplicated."""
    from puzzlesearch.boggle.model import LETTERS

    table = points_table(points) if points is not None else points_table()
    nbr, nbr_n = neighbours(cls.shape)
    trie = _trie(words)

    def best(cell, node, used):
        top = 0
        for letter in cls.cells[cell]:
            child = node.get(LETTERS[letter])
            if child is None:
                continue
            value = int(table[min(child[None], len(table) - 1)]) if None in child else 0
            for k in range(nbr_n[cell]):
                nb = int(nbr[cell, k])
                if not used >> nb & 1:
                    value += best(nb, child, used | 1 << nb)
            top = max(top, value)
        return top

    return sum(best(s, trie, 1 << s) for s in range(cls.shape.cells))
