"""The force/merge engine of boggle.proof.tree against independent facts.

- brute force: every board of small classes scored exactly (a bound below a class's best
  board is a bug; the branch and bound must keep every board >= S);
- the replaced orderly-tree kernels (baselines) as the oracle of the root bound, and of the
  whole search when nothing is forced (switchover at infinity gives their exact visits);
- the pure-Python twins (py_tree, py_search: written from the definitions over a word list);
- published ENABLE2K figures: the class of the paper (bound 1,231, 332k nodes), streaedlp 545.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from puzzlesearch.baselines.boggle_orderly import OrderlyBounder, py_orderly_search
from puzzlesearch.boggle.model import LETTERS, Shape
from puzzlesearch.boggle.proof import tree as tree_mod
from puzzlesearch.boggle.proof.classes import BoardClass, canonical_board
from puzzlesearch.boggle.proof.partition import BoardPartition, ClassSpace
from puzzlesearch.boggle.proof.tree import NODE_CAP, VISIT_CAP, TreeBounder, TreeOptions, py_search, py_tree
from puzzlesearch.boggle.score import Scorer
from tests.boggle.test_proof import POINTS, make_scorer, random_class, random_words

FORCE_ALL = TreeOptions(switchover_ratio=0.0, switchover_cells=0)  # force every cell
NEVER_FORCE = TreeOptions(switchover_ratio=1e18)  # the stack bound from the root (the old search)
OPTIONS = [FORCE_ALL, TreeOptions(), TreeOptions(switchover_ratio=1.2, switchover_cells=2), NEVER_FORCE]
FEWEST = TreeOptions(split_order="centre_fewest_letters")  # a split order per class (the 4x4 default)
COARSE = ("aeiosuy", "bcdfghjklmnpqrtvwxz")  # the published 3x3 buckets
PUBLISHED_CLASS = "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz"  # orderly bound 1,231


@pytest.fixture(scope="module")
def small_lexicon():
    words = random_words("aesrtq", 160, seed=7)
    return words, make_scorer(words)


@pytest.fixture(scope="module")
def enable_scorer(enable2k):
    return Scorer.for_lexicon(enable2k)


def board_set(boards) -> set[tuple[int, ...]]:
    return {tuple(int(x) for x in b) for b in boards}


def test_root_bound_is_the_orderly_bound_and_holds(small_lexicon):
    words, scorer = small_lexicon
    rng = np.random.default_rng(11)
    for shape in (Shape(2, 2), Shape(2, 3), Shape(3, 3)):
        engine = TreeBounder(scorer, shape)
        oracle = OrderlyBounder(scorer.dawg, shape, POINTS)
        for _ in range(8):
            cls = random_class(rng, shape, "aesrtq")
            best = int(scorer.scores(np.array(list(cls.boards()), np.uint8), shape).max())
            bound, nodes = engine.bound(cls)
            assert (bound, nodes) == oracle.bound(cls)
            assert bound == py_tree(cls, words).bound == py_orderly_search(cls, words, 1)[0]
            assert bound >= best, (str(cls), bound, best)


@pytest.mark.parametrize(
    "options", [*OPTIONS, FEWEST], ids=["force-all", "default", "ratio1.2", "never-force", "fewest-first"]
)
def test_search_equals_its_python_twin_and_keeps_every_board(small_lexicon, options):
    words, scorer = small_lexicon
    rng = np.random.default_rng(5)
    for shape in (Shape(2, 2), Shape(2, 3), Shape(3, 3)):
        engine = TreeBounder(scorer, shape, options)
        for _ in range(6):
            cls = random_class(rng, shape, "aesrtq")
            boards = np.array(list(cls.boards()), dtype=np.uint8)
            exact = scorer.scores(boards, shape)
            min_score = max(1, int(exact.max()) - 3)
            res = engine.search(cls, min_score)
            assert res.complete
            got = {tuple(int(x) for x in b): int(v) for b, v in zip(res.boards, res.leaf_bounds)}
            assert board_set(boards[exact >= min_score]) <= set(got)
            assert all(v >= min_score for v in got.values())
            bound, visits, found = py_search(cls, words, min_score, options)
            assert (bound, visits, found) == (res.bound, res.visits, got)


def test_never_forcing_is_the_old_orderly_search(small_lexicon):
    _, scorer = small_lexicon
    rng = np.random.default_rng(3)
    for shape in (Shape(2, 3), Shape(3, 3)):
        engine = TreeBounder(scorer, shape, NEVER_FORCE)
        oracle = OrderlyBounder(scorer.dawg, shape, POINTS)
        for _ in range(6):
            cls = random_class(rng, shape, "aesrtq")
            res, old = engine.search(cls, 4), oracle.search(cls, 4)
            assert (res.bound, res.tree_nodes, res.visits) == (old.bound, old.tree_nodes, old.visits)
            assert sorted(zip(map(tuple, res.boards.tolist()), res.leaf_bounds.tolist())) == sorted(
                zip(map(tuple, old.boards.tolist()), old.leaf_bounds.tolist())
            )


@pytest.mark.parametrize(
    "shape,alive,buckets,min_score",
    [
        (Shape(2, 2), "aesq", ("ae", "sq", "b"), 3),
        (Shape(2, 3), "aesq", ("ae", "sq", "b"), 20),
        (Shape(3, 3), "aes", ("ae", "s", "b"), 55),
    ],
)
@pytest.mark.parametrize("options", [*OPTIONS[:3], FEWEST], ids=["force-all", "default", "ratio1.2", "fewest-first"])
def test_every_class_keeps_exactly_the_boards_brute_force_finds(shape, alive, buckets, min_score, options):
    """Over the canonical classes of the buckets ('b' stands for the letters no word uses)."""
    scorer = make_scorer(random_words(alive, 40, seed=3))
    idx = [LETTERS.index(c) for c in alive + "b"]
    every = np.array(list(itertools.product(idx, repeat=shape.cells)), dtype=np.uint8)
    exact = scorer.scores(every, shape)
    want = {canonical_board(b, shape) for b in every[exact >= min_score]}
    assert want
    engine = TreeBounder(scorer, shape, options)
    numbering = " ".join([*buckets[:-1], "".join(c for c in LETTERS if c not in alive)])  # same bucket count
    space = ClassSpace(shape, BoardPartition.parse(numbering))
    got = set()
    for code in space.codes():
        digits = space.digits(int(code))
        res = engine.search(BoardClass.parse(" ".join(buckets[d] for d in digits), shape), min_score)
        assert res.complete
        scores = scorer.scores(res.boards, shape) if len(res.boards) else []
        got |= {canonical_board(b, shape) for b, s in zip(res.boards, scores) if s >= min_score}
    assert got == want


def test_growing_buffers_gives_the_same_result(small_lexicon, monkeypatch):
    _, scorer = small_lexicon
    shape = Shape(3, 3)
    cls = BoardClass.parse("aest rsq aet saq ert asq tre aes rst", shape)
    want = TreeBounder(scorer, shape, FORCE_ALL).search(cls, 5)
    for name, value in (("START_WORDS", 300), ("START_ROOM", 1), ("START_FOUND", 1), ("START_PATHS", 4)):
        monkeypatch.setattr(tree_mod, name, value)
    res = TreeBounder(scorer, shape, FORCE_ALL).search(cls, 5)
    assert (res.bound, res.visits) == (want.bound, want.visits) and len(want.boards) > 1
    assert board_set(res.boards) == board_set(want.boards)


def assert_same_search(res, want) -> None:
    """The same bound, visits, forces, stack bounds, and boards with their bounds."""
    assert (res.bound, res.visits, res.forces, res.bound_runs) == (
        want.bound,
        want.visits,
        want.forces,
        want.bound_runs,
    )
    assert sorted(zip(map(tuple, res.boards.tolist()), res.leaf_bounds.tolist())) == sorted(
        zip(map(tuple, want.boards.tolist()), want.leaf_bounds.tolist())
    )


@pytest.mark.parametrize("options", OPTIONS[:3], ids=["force-all", "default", "ratio1.2"])
def test_a_full_arena_or_stack_grows_and_the_search_goes_on(small_lexicon, monkeypatch, options):
    # A tiny arena and one entry per bound stack: the search stops each time one is full,
    # the engine grows it and the search resumes there (one start), with the same bound,
    # visits, forces and boards as a search that never ran out of room.
    _, scorer = small_lexicon
    shape = Shape(3, 3)
    cls = BoardClass.parse("aest rsq aet saq ert asq tre aes rst", shape)
    want = TreeBounder(scorer, shape, options).search(cls, 5)
    monkeypatch.setattr(tree_mod, "START_WORDS", 1)
    monkeypatch.setattr(tree_mod, "START_ROOM", 1)
    monkeypatch.setattr(tree_mod, "START_FOUND", 1 << 20)  # (a full found buffer starts again without pauses)
    grown = tree_mod.ak.grown
    monkeypatch.setattr(tree_mod.ak, "grown", lambda arena, words: grown(arena, len(arena.mem) + 64))  # little slack
    kernel = tree_mod.fk.search
    calls = []

    def counting(*args):
        r = kernel(*args)
        calls.append((not args[5], r))  # args[5]: resume
        return r

    monkeypatch.setattr(tree_mod.fk, "search", counting)
    res = TreeBounder(scorer, shape, options).search(cls, 5)
    outcomes = [r for _, r in calls]
    assert tree_mod.fk.ARENA_FULL in outcomes and sum(start for start, _ in calls) == 1
    assert (tree_mod.fk.STACK_FULL in outcomes) == (options is not FORCE_ALL)  # force-all has no stack bound
    assert_same_search(res, want)


def test_a_paused_search_grows_its_found_buffer_without_starting_again(small_lexicon, monkeypatch):
    # With room for one board and a pause after every sub-class, the buffer grows at the
    # pauses and the search goes on: the same boards as one run, and no sub-class visited twice.
    _, scorer = small_lexicon
    shape = Shape(3, 3)
    cls = BoardClass.parse("aest rsq aet saq ert asq tre aes rst", shape)
    want = TreeBounder(scorer, shape, FORCE_ALL).search(cls, 5)
    monkeypatch.setattr(tree_mod, "START_FOUND", 1)
    monkeypatch.setattr(tree_mod._Pacer, "next_pause", lambda self, visits: int(visits) + 1)
    kernel = tree_mod.fk.search
    starts = []

    def counting(*args):
        starts.append(not args[5])  # args[5]: resume
        return kernel(*args)

    monkeypatch.setattr(tree_mod.fk, "search", counting)
    engine = TreeBounder(scorer, shape, FORCE_ALL)
    res = engine.search(cls, 5, progress=lambda visits, covered: None)
    assert len(want.boards) > 1 and board_set(res.boards) == board_set(want.boards)
    assert (res.bound, res.visits) == (want.bound, want.visits)
    assert len(starts) > len(want.boards) and sum(starts) == 1  # many pauses, one start: never from scratch again


@pytest.mark.parametrize("options", OPTIONS, ids=["force-all", "default", "ratio1.2", "never-force"])
def test_pausing_after_every_visit_changes_nothing(small_lexicon, monkeypatch, options):
    # A search that returns to Python after each sub-class (for progress and Ctrl-C), in the
    # force loop and inside stack bounds, and goes on from where it stopped: the same bound,
    # visits and boards as one run through.
    _, scorer = small_lexicon
    shape = Shape(3, 3)
    cls = BoardClass.parse("aest rsq aet saq ert asq tre aes rst", shape)
    want = TreeBounder(scorer, shape, options).search(cls, 5)
    monkeypatch.setattr(tree_mod._Pacer, "next_pause", lambda self, visits: int(visits) + 1)
    seen = []
    res = TreeBounder(scorer, shape, options).search(cls, 5, progress=lambda v, c: seen.append((v, c)))
    assert_same_search(res, want)
    assert len(seen) > 10 and seen == sorted(seen)  # visits and the share passed only grow
    assert all(0 <= c < 1 for _, c in seen)
    assert want.forces > 10 or (options is NEVER_FORCE and want.forces == 0 and seen[-1][1] > 0.5)


def test_pacer_adapts_only_after_a_pause():
    # A search restarted after a full arena or stack returns at once: that must not stretch
    # the visits between pauses (it did, up to 2**30: minutes without a progress line).
    pacer = tree_mod._Pacer()
    first = pacer.next_pause(0)
    assert pacer.next_pause(5) == 5 + first  # a restart: the same step
    pacer.paused()  # a pause right away: the step grows, within its bounds
    assert first < pacer.next_pause(0) <= 1 << 30


def test_caps(small_lexicon):
    words, scorer = small_lexicon
    shape = Shape(3, 3)
    cls = BoardClass.parse("aest rsq aet saq ert asq tre aes rst", shape)
    full = TreeBounder(scorer, shape, FORCE_ALL).search(cls, 5)
    # a tree over the node cap: bound unknown, not done
    over = TreeBounder(scorer, shape, TreeOptions(max_tree_nodes=10)).search(cls, 5)
    assert (over.status, over.bound) == (NODE_CAP, -1)
    # room for the tree but not for all forced trees: those sub-classes use the stacks, same boards
    room = TreeBounder(scorer, shape, NEVER_FORCE).search(cls, 5).peak_nodes + 20  # the tree and a little more
    capped = TreeBounder(scorer, shape, TreeOptions(0.0, 0, max_tree_nodes=room)).search(cls, 5)
    assert capped.complete and capped.capped_forces > 0 and capped.peak_nodes <= room
    assert board_set(capped.boards) == board_set(full.boards)
    visits = TreeBounder(scorer, shape, FORCE_ALL).search(cls, 5, max_visits=10)
    assert visits.status == VISIT_CAP and not visits.complete


# ---------------------------------------------------------------- ENABLE2K


def test_published_class_bound_and_its_best_board(enable_scorer):
    shape = Shape(3, 3)
    cls = BoardClass.parse(PUBLISHED_CLASS, shape)
    engine = TreeBounder(enable_scorer, shape)
    bound, nodes = engine.bound(cls)
    assert bound == 1231 and 332_000 <= nodes < 333_000  # published: 1,231, 332k nodes
    res = engine.search(cls, 500)
    scores = enable_scorer.scores(res.boards, shape)
    assert max(scores) == 545  # streaedlp
    old = OrderlyBounder(enable_scorer.dawg, shape, POINTS).search(cls, 500)
    old_scores = enable_scorer.scores(old.boards, shape)
    assert board_set(res.boards[scores >= 500]) == board_set(old.boards[old_scores >= 500])
    assert res.visits < old.visits  # forcing prunes more


def test_merged_bounds_are_tighter_one_level_down(enable_scorer):
    """Forcing the centre of the paper's class: merged bound <= stack bound <= root, and >= the best board."""
    shape = Shape(3, 3)
    cls = BoardClass.parse(PUBLISHED_CLASS, shape)
    engine = TreeBounder(enable_scorer, shape)
    root = engine.bound(cls)[0]
    split = engine.split_bounds(cls)  # the centre (cell 4) is the first cell in split order
    assert len(split) == len(cls.cells[4])
    for x, (merged, stack) in zip(cls.cells[4], split):
        sub = BoardClass(shape, cls.cells[:4] + ((x,),) + cls.cells[5:])
        assert stack == engine.bound(sub)[0]  # the stack bound is the sub-class's own orderly bound
        assert merged <= stack <= root
    assert all(merged < stack for merged, stack in split)
    e = cls.cells[4].index(LETTERS.index("e"))
    assert split[e] == (1080, 1187)  # the paper reports 1,099 against 1,230 for its tree
    sub = BoardClass(shape, cls.cells[:4] + ((LETTERS.index("e"),),) + cls.cells[5:])
    best = int(enable_scorer.scores(np.array(list(sub.boards()), np.uint8), shape).max())
    assert best <= split[e][0]


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(3, 4)])
def test_root_bound_equals_the_oracle_on_random_enable2k_classes(enable_scorer, shape):
    rng = np.random.default_rng(17)
    engine = TreeBounder(enable_scorer, shape)
    oracle = OrderlyBounder(enable_scorer.dawg, shape, POINTS)
    for _ in range(6 if shape.cells == 9 else 3):
        cells = []
        for _ in range(shape.cells):
            bucket = COARSE[int(rng.integers(2))]
            size = int(rng.integers(1, 1 + (len(bucket) if shape.cells == 9 else 4)))
            cells.append("".join(rng.choice(list(bucket), size, replace=False)))
        cls = BoardClass.parse(" ".join(cells), shape)
        assert engine.bound(cls) == oracle.bound(cls), str(cls)
