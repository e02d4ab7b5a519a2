"""The orderly tree of a board class, and its force/merge branch and bound.

A board class gives each cell a letter set. Its orderly tree (2025) is a sum/choice tree:
every path of the class that spells a word adds the word's points at the end of its
(cell, letter) choices sorted into the split order, a word counted once per set of
choices; sum node = points + children, choice node = max over its letters. Any board of
the class scores at most the root's bound.

`TreeBounder` builds the tree by sorting word-path records (numba, `_kernels/build.py`)
into a compact arena (`_kernels/arena.py`: int32 words, 16 bytes a sum node and 8 a
choice node plus 4 a child, shared point-only leaves; ~14-17 bytes a live node measured
on 3x3 and 3x4 classes), then runs the branch and bound of `_kernels/force.py`: it
forces cells in split order by merging subtrees (no rebuild; merged bounds are tighter
than the stack bound) while a sub-class's bound is at least `switchover_ratio` x
min_score and more than `switchover_cells` cells are left, then switches to the
depth-first stack bound on the current tree. A merge is skipped when the sum of its
parts' bounds (its cap) is below min_score (the sub-class is dropped) or below the
switchover score (the sub-class is bounded by the stacks of the unmerged tree). Its
result lists every board of the class whose bound reaches min_score (the caller scores
them exactly).

Options (`TreeOptions`, the fields the proof settings pass on):
    switchover_ratio   force while bound >= ratio x min_score (default 1.6; 0: always force)
    switchover_cells   switch over once this many cells or fewer are unforced (default 4)
    max_tree_nodes     live (allocated) nodes of one class, its tree and the forced trees
                       above it; a class whose tree is bigger is `node cap` (bound unknown,
                       -1); a force that would pass it bounds that sub-class with the stacks
    max_visits         sub-classes whose bound is computed; past it a class is `visit cap`

The pure-Python twins at the end (`py_tree`, `py_search`) work from a plain word list
and follow the same definitions, for tests on small lexicons.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from puzzlesearch.boggle.model import LETTERS, Shape, neighbours, points_table
from puzzlesearch.boggle.proof._kernels import arena as ak
from puzzlesearch.boggle.proof._kernels import build as bk
from puzzlesearch.boggle.proof._kernels import force as fk
from puzzlesearch.boggle.proof.classes import CENTRE, BoardClass, class_split_order, split_order
from puzzlesearch.errors import PuzzleError

DONE, NODE_CAP, VISIT_CAP = "done", "node cap", "visit cap"
START_PATHS = 1 << 16
START_WORDS = 1 << 24  # arena words (64 MB; pages are touched only when used)
START_FOUND = 1 << 14  # boards a search records before its buffer grows (24 bytes each on 4x4)
START_ROOM = 64  # bound stack entries per position
BYTES_PER_WORD = 4
NEVER = 2**62  # a switchover score no bound reaches: never force


@dataclass(frozen=True)
class TreeOptions:
    """Settings of the force/merge branch and bound (see the module docstring)."""

    switchover_ratio: float = 1.6
    switchover_cells: int = 4
    max_tree_nodes: int = 50_000_000
    max_visits: int = 2**62
    split_order: str = (
        CENTRE  # classes.SPLIT_ORDER_RULES: the shape's order, or per class (fewest letters first in a ring)
    )

    def switch_score(self, min_score: int) -> int:
        """Sub-classes with a bound below this are bounded by the stacks, not forced."""
        score = self.switchover_ratio * min_score
        return NEVER if not score < NEVER else math.ceil(score)


@dataclass
class TreeSearch:
    """The branch and bound of one class."""

    bound: int  # the orderly bound of the whole class (-1: its tree is over max_tree_nodes)
    tree_nodes: int  # nodes of the class's tree (sum + choice)
    word_paths: int  # word paths collected (before the dedupe)
    visits: int  # sub-classes whose bound was computed
    boards: np.ndarray  # (n, cells) uint8 letters: every board whose bound is >= min_score
    leaf_bounds: np.ndarray  # their bounds
    status: str  # DONE, NODE_CAP or VISIT_CAP
    forces: int = 0  # sub-classes made by forcing a cell
    bound_runs: int = 0  # stack bounds run (switchovers)
    capped_forces: int = 0  # forces given up at max_tree_nodes (bounded by the stacks instead)
    nodes_made: int = 0  # every node written (the tree and the forced trees)
    peak_nodes: int = 0  # most live nodes at once
    peak_bytes: int = 0  # most arena bytes in use at once

    @property
    def complete(self) -> bool:
        return self.status == DONE


class TreeBounder:
    """Orderly trees and their force/merge branch and bound over one Scorer's trie and shape."""

    def __init__(self, scorer, shape: Shape, options: TreeOptions | None = None, order=None):
        self.shape = shape
        self.options = options or TreeOptions()
        self.fixed_order = order is not None  # else the options' rule, per class (_use_order)
        self.order = np.asarray(split_order(shape) if order is None else order, dtype=np.int64)
        self.order_pos = np.argsort(self.order).astype(np.int64)
        self.nbr, self.nbr_n = neighbours(shape)
        rank = scorer.trie.rank
        lengths = np.minimum(scorer.dawg.word_length[np.maximum(rank, 0)], len(scorer.points) - 1)
        node_points = np.where(rank >= 0, scorer.points[lengths], 0).astype(np.int32)
        self.trie = bk.Trie(scorer.trie.nodes, node_points)
        self.stamps = np.zeros(len(node_points), dtype=np.int64)
        self.arena = ak.new_arena(START_WORDS)
        self.work = fk.new_work(shape.cells, START_ROOM)
        self.build_work = bk.new_build_work(shape.cells)
        self._paths = None
        self._found = None

    # ------------------------------------------------------------ the tree

    def layout(self, cls: BoardClass) -> bk.Layout:
        """Per-cell letter masks and the key fields of a class."""
        n = self.shape.cells
        cell_mask = np.zeros(n, dtype=np.int64)
        letter_j = np.zeros((n, len(LETTERS)), dtype=np.int64)
        for c, letters in enumerate(cls.cells):
            for j, x in enumerate(letters):
                cell_mask[c] |= 1 << x
                letter_j[c, x] = j
        near = np.array([np.bitwise_or.reduce(cell_mask[self.nbr[c, : self.nbr_n[c]]]) for c in range(n)])
        key_word, key_shift, key_mask = (np.zeros(n, dtype=np.int64) for _ in range(3))
        word, free = 0, bk.KEY_BITS
        for p, c in enumerate(self.order):
            width = len(cls.cells[c]).bit_length()  # values 1..letters
            if width > free:
                word, free = word + 1, bk.KEY_BITS
            free -= width
            key_word[p], key_shift[p], key_mask[p] = word, free, (1 << width) - 1
        pos = self.order_pos
        return bk.Layout(cell_mask, near, letter_j, pos, self.nbr, self.nbr_n, key_word, key_shift, key_mask)

    def _path_buffers(self, n: int, key_words: int) -> tuple[bk.Paths, bk.Paths]:
        """Two record buffers of at least n records (reused, only grown)."""
        have = self._paths
        if have is None or have[0].used.shape[0] < n or have[0].keys.shape[1] != key_words:
            size = max(n, START_PATHS, 0 if have is None else have[0].used.shape[0])
            self._paths = tuple(
                bk.Paths(np.zeros((size, key_words), np.int64), np.zeros(size, np.int64), np.zeros(size, np.int32))
                for _ in range(2)
            )
        return self._paths

    def _collect(self, cls: BoardClass) -> tuple[bk.Layout, bk.Paths, int]:
        """(layout, sorted records, their number) of a class's word paths."""
        layout = self.layout(cls)
        key_words = int(layout.key_word.max()) + 1
        a, b = self._path_buffers(0, key_words)
        n = bk.collect_paths(layout, self.trie, a, self.build_work)
        if n > a.used.shape[0]:
            a, b = self._path_buffers(2 * n, key_words)
            bk.collect_paths(layout, self.trie, a, self.build_work)
        return layout, (b if bk.sort_paths(a, b, n, self.build_work) else a), n

    def _use_order(self, cls: BoardClass) -> None:
        """Split `cls` in its order under the options' rule (unless the engine was given one order)."""
        if self.fixed_order or self.options.split_order == CENTRE:
            return
        self.order = class_split_order(cls, self.options.split_order)
        self.order_pos = np.argsort(self.order).astype(np.int64)

    def _build(self, cls: BoardClass) -> tuple[int, int, int]:
        """(root, tree nodes, word paths) of a class in a fresh arena, in its split order; root < 0: over a cap."""
        self._use_order(cls)
        layout, paths, n = self._collect(cls)
        max_live = self.options.max_tree_nodes
        while True:
            ak.begin_class(self.arena.state)
            root, nodes = bk.build_tree(
                paths, n, layout, self.trie, self.stamps, self.arena.mem, self.arena.state, max_live, self.build_work
            )
            if root == bk.TOO_MANY_POINTS:
                raise PuzzleError(f"class {cls}: a bound over {ak.MAX_BOUND} points does not fit the arena")
            if root != ak.FULL:
                return root, nodes, n
            self.arena = ak.grown(self.arena, 2 * len(self.arena.mem))

    def bound(self, cls: BoardClass) -> tuple[int, int]:
        """(orderly bound, tree nodes) of a class; bound -1 when the tree is over max_tree_nodes."""
        root, nodes, _ = self._build(cls)
        if root < 0:
            return -1, nodes
        return int(self.arena.mem[root + ak.BOUND]), nodes

    def split_bounds(self, cls: BoardClass) -> list[tuple[int, int]]:
        """(merged bound, stack bound) of each letter of the first cell in split order, forced.

        The merged bound is the root of the letter's merged tree; the stack bound is what the
        stack search computes for the same sub-class (its points plus every pending choice).
        """
        root, _, _ = self._build(cls)
        if root < 0:
            raise PuzzleError(f"class {cls}: its tree is over max_tree_nodes={self.options.max_tree_nodes}")
        mem, state = self.arena.mem, self.arena.state
        kids = [int(c) for c in mem[root + ak.SUM_HEADER : root + ak.SUM_HEADER + ak.count_of(mem, root)]]
        first = kids[0] if kids and ak.pos_of(mem, kids[0]) == 0 else -1
        rest = sum(int(mem[c + ak.BOUND]) for c in kids if c != first)
        out = []
        for j in range(len(cls.cells[self.order[0]])):
            mark = int(state[ak.TOP]), int(state[ak.LIVE])
            merged = fk.force(mem, state, root, 0, j, self.options.max_tree_nodes, self.work)
            if merged < 0:
                raise PuzzleError(f"class {cls}: forcing its first cell needs more than the arena holds")
            s = ak.child_for(mem, first, j) if first >= 0 else -1
            stack = ak.points_of(mem, root) + rest
            if s >= 0:
                stack += int(mem[s + ak.BOUND])  # its points and the bounds of its choice children
            out.append((int(mem[merged + ak.BOUND]), stack))
            state[ak.TOP], state[ak.LIVE] = mark
        return out

    # ------------------------------------------------------------ the branch and bound

    def search(self, cls: BoardClass, min_score: int, max_visits: int | None = None, progress=None) -> TreeSearch:
        """Every board of the class whose bound reaches min_score (force/merge, then stacks).

        progress(visits, covered): called about every PAUSE_SECONDS while the forces run, with
        the sub-classes visited and the share of the class's boards the search has passed.
        """
        opts = self.options
        cells = self.shape.cells
        root, nodes, paths = self._build(cls)
        empty = np.zeros((0, cells), np.uint8)
        if root < 0:
            return TreeSearch(-1, nodes, paths, 0, empty, np.zeros(0, np.int64), NODE_CAP)
        n_letters = np.array([len(cls.cells[c]) for c in self.order], dtype=np.int64)
        visits_cap = opts.max_visits if max_visits is None else max_visits
        counts = np.zeros(5, dtype=np.int64)
        build_top = int(self.arena.state[ak.TOP])
        build_live = int(self.arena.state[ak.LIVE])
        pacer = _Pacer() if progress is not None else None
        limits = fk.Limits(
            min_score=int(min_score),
            switch_score=int(opts.switch_score(min_score)),
            switch_cells=int(opts.switchover_cells),
            max_live=int(opts.max_tree_nodes),
            max_visits=int(visits_cap),
            pause_visits=NEVER,
        )
        resume = False
        while True:
            if not resume:
                found = self._found_buffer(cells)
            limits = limits._replace(pause_visits=pacer.next_pause(counts[0]) if pacer else NEVER)
            r = fk.search(self.arena.mem, self.arena.state, root, n_letters, limits, resume, counts, found, self.work)
            resume = r == fk.PAUSED
            if resume:
                pacer.paused()
                if len(found.bounds) < 2 * counts[1] <= 2 * len(found.bounds):  # half full, nothing lost yet
                    found = self._grown_found(found, int(counts[1]))  # grown here, not by a search from scratch
                progress(int(counts[0]), covered_share(self.work, n_letters))
                continue
            if r == fk.ARENA_FULL:  # grown and resumed: the force that did not fit is done again
                self.arena = ak.grown(self.arena, 2 * len(self.arena.mem))
                resume = True
                continue
            if r == fk.STACK_FULL:  # grown and resumed (started again if the kernel has no place to resume)
                self.work = fk.grown_work(self.work, 2 * len(self.work.stack) // cells)
                resume = bool(self.work.stack_at[0] >= 0)
                if not resume:
                    self.arena.state[ak.TOP] = build_top
                    self.arena.state[ak.LIVE] = build_live
                continue
            self.arena.state[ak.TOP] = build_top
            self.arena.state[ak.LIVE] = build_live
            if counts[1] > len(found.bounds):
                self._found = None
                self._found_buffer(cells, 2 * int(counts[1]))
            else:
                break
        k = int(counts[1])
        choices = found.choices[:k].astype(np.int64)
        letters, _ = cls.arrays()
        boards = np.zeros((k, cells), np.uint8)
        boards[:, self.order] = letters[self.order[None, :], choices]
        state = self.arena.state
        return TreeSearch(
            bound=int(self.arena.mem[root + ak.BOUND]),
            tree_nodes=nodes,
            word_paths=paths,
            visits=int(counts[0]),
            boards=boards,
            leaf_bounds=found.bounds[:k].copy(),
            status=VISIT_CAP if r == fk.VISIT_CAP else DONE,
            forces=int(counts[2]),
            bound_runs=int(counts[3]),
            capped_forces=int(counts[4]),
            nodes_made=int(state[ak.MADE]),
            peak_nodes=int(state[ak.PEAK_LIVE]),
            peak_bytes=int(state[ak.PEAK_TOP]) * BYTES_PER_WORD,
        )

    def _grown_found(self, found: fk.Found, k: int) -> fk.Found:
        """A found buffer twice the size holding the first k boards of `found` (a paused search goes on in it)."""
        size = 2 * len(found.bounds)
        grown = fk.Found(np.zeros((size, found.choices.shape[1]), np.int8), np.zeros(size, np.int64))
        grown.choices[:k] = found.choices[:k]
        grown.bounds[:k] = found.bounds[:k]
        self._found = grown
        return grown

    def _found_buffer(self, cells: int, size: int = 0) -> fk.Found:
        """The engine's found buffer, of at least `size` boards (START_FOUND when 0)."""
        size = size or START_FOUND
        if self._found is None or len(self._found.bounds) < size:
            self._found = fk.Found(np.zeros((size, cells), np.int8), np.zeros(size, np.int64))
        return self._found


PAUSE_SECONDS = 1.0  # a long search returns to Python about this often (progress, Ctrl-C)
FIRST_PAUSE_VISITS = 1 << 14


class _Pacer:
    """Visits between a search's pauses, adapted so that a pause comes about every PAUSE_SECONDS."""

    def __init__(self):
        self.step = FIRST_PAUSE_VISITS
        self.start = time.perf_counter()

    def next_pause(self, visits: int) -> int:
        """The visit count at which a search called now pauses."""
        self.start = time.perf_counter()
        return int(visits) + self.step

    def paused(self) -> None:
        """Scale the step to the time the call took to pause (only then: a restart after a full arena says nothing)."""
        elapsed = time.perf_counter() - self.start
        self.step = int(min(max(self.step * PAUSE_SECONDS / max(elapsed, 1e-3), 1 << 8), 1 << 30))


def covered_share(work: fk.Work, n_letters: np.ndarray) -> float:
    """The share of a class's boards a paused search has passed (its letter choices done, level by level)."""
    share, width = 0.0, 1.0
    level0, at = int(work.stack_at[0]), int(work.stack_at[1])
    if level0 < 0:  # paused in the force loop: the letters before each level's next are done
        level = int(work.at[0])
        for lev in range(level + 1):
            width /= int(n_letters[lev])
            done = int(work.level_j[lev]) - (1 if lev < level else 0)  # levels above: their current letter is open
            share += done * width
        return share
    for lev in range(at + 1):  # paused in a stack bound: forced letters above level0, its own below
        width /= int(n_letters[lev])
        if lev < level0:
            done = int(work.chosen[lev])
        else:
            done = int(work.next_j[lev]) - (1 if lev < at else 0)
        share += done * width
    return share


# ---------------------------------------------------------------- pure-Python twins (tests)


@dataclass(frozen=True)
class PySum:
    """A sum node: points, bound and choice children (ascending position)."""

    points: int
    bound: int
    children: tuple[PyChoice, ...]


@dataclass(frozen=True)
class PyChoice:
    """A choice node of the cell at split position `pos`: sum children by letter choice."""

    pos: int
    bound: int
    kids: dict[int, PySum]


def _sum(points: int, children) -> PySum:
    children = tuple(sorted(children, key=lambda c: c.pos))
    return PySum(points, points + sum(c.bound for c in children), children)


def _choice(pos: int, kids: dict[int, PySum]) -> PyChoice:
    return PyChoice(pos, max(s.bound for s in kids.values()), dict(sorted(kids.items())))


def py_word_paths(cls: BoardClass, words, points=None, order=None) -> set[tuple[tuple, str, int]]:
    """{(choices sorted by position as (pos, j) pairs, word, points)} of every word path of a class."""
    table = points_table(points) if points is not None else points_table()
    order = list(split_order(cls.shape) if order is None else order)
    pos = {c: i for i, c in enumerate(order)}
    lengths = {}
    for w in words:
        w = w.lower()
        if w.count("q") == w.count("qu"):
            lengths[w.replace("qu", "q")] = len(w)
    prefixes = {k[:i] for k in lengths for i in range(1, len(k) + 1)}
    nbr, nbr_n = neighbours(cls.shape)
    out = set()

    def walk(cell, text, path, used):
        for j, x in enumerate(cls.cells[cell]):
            word = text + LETTERS[x]
            if word not in prefixes:
                continue
            step = (*path, (pos[cell], j))
            pts = int(table[min(lengths.get(word, 0), len(table) - 1)])
            if pts > 0:
                out.add((tuple(sorted(step)), word, pts))
            for nb in nbr[cell, : nbr_n[cell]]:
                if not used >> int(nb) & 1:
                    walk(int(nb), word, step, used | 1 << int(nb))

    for s in range(cls.shape.cells):
        walk(s, "", (), 1 << s)
    return out


def py_tree(cls: BoardClass, words, points=None, order=None) -> PySum:
    """The orderly tree of a class from a word list (records grouped by their next choice)."""

    def build(records) -> PySum:
        ends = sum(pts for choices, _, pts in records if not choices)
        by_pos: dict[int, dict[int, list]] = {}
        for choices, word, pts in records:
            if choices:
                (p, j), rest = choices[0], choices[1:]
                by_pos.setdefault(p, {}).setdefault(j, []).append((rest, word, pts))
        return _sum(ends, [_choice(p, {j: build(r) for j, r in kids.items()}) for p, kids in by_pos.items()])

    return build(list(py_word_paths(cls, words, points, order)))


def py_merge(a: PySum, children, points: int) -> PySum:
    """Sum node a merged with another sum node's (children, points)."""
    mine = {c.pos: c for c in a.children}
    for c in children:
        other = mine.get(c.pos)
        if other is None:
            mine[c.pos] = c
        else:
            kids = dict(other.kids)
            for j, s in c.kids.items():
                kids[j] = py_merge(kids[j], s.children, s.points) if j in kids else s
            mine[c.pos] = _choice(c.pos, kids)
    return _sum(a.points + points, mine.values())


def py_force(t: PySum, level: int, j: int) -> PySum:
    """The tree of sub-class t with position `level` forced to letter choice j."""
    if not t.children or t.children[0].pos != level:
        return t
    first, rest = t.children[0], t.children[1:]
    if j in first.kids:
        return py_merge(first.kids[j], rest, t.points)
    return _sum(t.points, rest)


def py_search(cls: BoardClass, words, min_score: int, options: TreeOptions, points=None, order=None):
    """(root bound, visits, {board: bound}) of the force/merge branch and bound (no node cap), in the options' split order."""
    order = list(class_split_order(cls, options.split_order) if order is None else order)
    n = len(order)
    n_letters = [len(cls.cells[c]) for c in order]
    switch = options.switch_score(min_score)
    root = py_tree(cls, words, points, order)
    found: dict[tuple, int] = {}
    visits = 1
    chosen = [0] * n

    def record(bound):
        board = [0] * n
        for p, c in enumerate(order):
            board[c] = cls.cells[c][chosen[p]]
        found[tuple(board)] = bound

    def stacks_from(level, points_, stacks, j_lo=0, j_hi=None):
        nonlocal visits
        for j in range(j_lo, n_letters[level] if j_hi is None else j_hi):
            new = {p: list(s) for p, s in stacks.items() if p > level}
            pts = points_
            for c in stacks.get(level, []):
                if j in c.kids:
                    s = c.kids[j]
                    pts += s.points
                    for g in s.children:
                        new.setdefault(g.pos, []).append(g)
            visits += 1
            chosen[level] = j
            b = pts + sum(c.bound for s in new.values() for c in s)
            if b < min_score:
                continue
            if level == n - 1:
                record(b)
            else:
                stacks_from(level + 1, pts, new)

    def stack_bound(t, level, j_lo=0, j_hi=None):
        stacks: dict[int, list] = {}
        for c in t.children:
            stacks.setdefault(c.pos, []).append(c)
        stacks_from(level, t.points, stacks, j_lo, j_hi)

    def force_cap(t, level, j):
        if not t.children or t.children[0].pos != level:
            return t.bound
        first = t.children[0]
        return t.bound - first.bound + (first.kids[j].bound if j in first.kids else 0)

    def force_from(t, level):
        nonlocal visits
        for j in range(n_letters[level]):
            cap = force_cap(t, level, j)
            if cap < min_score:  # no merge can reach min_score
                visits += 1
                continue
            if cap < switch:  # the merge would be bounded by the stacks anyway: bound t's stacks instead
                stack_bound(t, level, j, j + 1)
                continue
            child = py_force(t, level, j)
            visits += 1
            chosen[level] = j
            if child.bound < min_score:
                continue
            if level + 1 == n:
                record(child.bound)
            elif child.bound < switch or n - level - 1 <= options.switchover_cells:
                stack_bound(child, level + 1)
            else:
                force_from(child, level + 1)

    if root.bound >= min_score:
        if root.bound < switch or n <= options.switchover_cells:
            stack_bound(root, 0)
        else:
            force_from(root, 0)
    return root.bound, visits, found
