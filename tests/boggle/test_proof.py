"""Boggle proofs: board classes, the orderly bound and its branch and bound, shards.

Independent facts: brute force over every board of small shapes on tiny lexicons (the
prover's list of boards >= S), brute force over small classes (a bound below a class's
true best board is a bug), the published orderly bound of one ENABLE2K class (1,231,
332k tree nodes), and symmetry orbits counted directly.
"""

from __future__ import annotations

import csv
import itertools
import json
import logging
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from puzzlesearch.baselines.boggle_orderly import OrderlyBounder, boggle_words, py_max_nomark, py_orderly_search
from puzzlesearch.boggle.model import LETTERS, Shape, symmetries
from puzzlesearch.boggle.proof import prove as prove_module
from puzzlesearch.boggle.proof.classes import BoardClass, canonical_board, split_order
from puzzlesearch.boggle.proof.partition import BoardPartition, ClassSpace, Partition, cell_kind, shard_range
from puzzlesearch.boggle.proof.prove import Prover, board_class_run, gather, load_shards, prove_shard, sample_codes
from puzzlesearch.boggle.proof.settings import ProofSettings, shard_resources
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.cli import main
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.dawg import build_dawg
from puzzlesearch.settings import section_defaults

POINTS = [0, 0, 0, 1, 1, 2, 3, 5, 11]
COARSE2 = "aeiosuy bcdfghjklmnpqrtvwxz"  # the published prover's corner buckets
COARSE3 = "aeijou bcdfgmpqvwxz hklnrsty"  # and those of its other cells
ALL = "abcdefghijklmnopqrstuvwxyz"  # one bucket
DEAD = "b"  # stands for every letter no word uses (they are interchangeable)


def random_words(letters: str, n: int, seed: int) -> list[str]:
    """n distinct random words of 3-7 letters over `letters` ('q' written as 'qu')."""
    rng = np.random.default_rng(seed)
    keys = set()
    while len(keys) < n:
        length = int(rng.integers(3, 8))
        keys.add("".join(rng.choice(list(letters), length)))
    return sorted(k.replace("q", "qu") for k in keys)


def make_scorer(words) -> Scorer:
    """A Scorer over an in-memory Boggle DAWG of `words` (built like boggle_dawg.npz)."""
    rows = sorted((key, length) for key, length in boggle_words(words) if length >= 3)
    dawg = build_dawg([k for k, _ in rows])
    dawg.word_id = np.arange(len(rows), dtype=np.int32)
    dawg.word_length = np.array([n for _, n in rows], dtype=np.int16)
    return Scorer(dawg, POINTS)


def settings(partition, min_score: int, shards: int = 1, **extra) -> ProofSettings:
    return ProofSettings.from_dict({"partition": partition, "min_score": min_score, "shards": shards, **extra})


def brute_force(scorer: Scorer, shape: Shape, letters: str, min_score: int) -> dict[str, int]:
    """Canonical board -> score of every board over `letters` scoring >= min_score."""
    idx = [LETTERS.index(c) for c in letters]
    boards = np.array(list(itertools.product(idx, repeat=shape.cells)), dtype=np.uint8)
    scores = scorer.scores(boards, shape)
    return {canonical_board(b, shape): int(s) for b, s in zip(boards[scores >= min_score], scores[scores >= min_score])}


def dead_mapped(found: dict[str, int], alive: str, shape: Shape) -> dict[str, int]:
    """Boards with every letter outside `alive` written as DEAD, canonical again."""
    out = {}
    for board, score in found.items():
        text = "".join(c if c in alive else DEAD for c in board)
        out[canonical_board([LETTERS.index(c) for c in text], shape)] = score
    return out


# ---------------------------------------------------------------- partitions and classes


def test_partition_parse_and_errors():
    p = Partition.parse("aeiou bdfgjqvwxz lnrsy chkmpt")
    assert len(p) == 4 and sorted("".join(p.buckets)) == list(LETTERS)
    with pytest.raises(PuzzleError, match="'c' is in no bucket"):
        Partition.parse("aeiou bdfgjqvwxz lnrsy hkmpt")
    with pytest.raises(PuzzleError, match="'a' is in two buckets"):
        Partition.parse("aeiou bdfgjqvwxz lnrsy chkmpta")
    with pytest.raises(PuzzleError, match="not a letter"):
        Partition.parse("aeiou bdfgjqvwxz lnrsy chkmpt 1")
    board = BoardPartition.parse({"corner": COARSE2, "edge": COARSE3, "centre": COARSE3})
    assert len(board.corner) == 2 and len(board.edge) == len(board.centre) == 3
    assert BoardPartition.parse(COARSE2).spec() == COARSE2 and isinstance(board.spec(), dict)
    with pytest.raises(PuzzleError, match=r"partition.edge .*'x' is in no bucket"):
        BoardPartition.parse({"corner": COARSE2, "edge": COARSE3.replace("x", ""), "centre": COARSE3})
    with pytest.raises(PuzzleError, match="keys corner, edge, centre"):
        BoardPartition.parse({"corner": COARSE2, "edge": COARSE3})


def test_cell_kinds_and_symmetries_keep_them():
    for shape, want in [
        (Shape(3, 3), (4, 4, 1)),
        (Shape(3, 4), (4, 6, 2)),
        (Shape(4, 4), (4, 8, 4)),
        (Shape(2, 3), (4, 2, 0)),
    ]:
        kinds = [cell_kind(shape, i) for i in range(shape.cells)]
        assert tuple(kinds.count(k) for k in ("corner", "edge", "centre")) == want
        for p in symmetries(shape):
            assert [kinds[int(i)] for i in p] == kinds


def orbit_codes(shape: Shape, partition: BoardPartition) -> list[int]:
    """Smallest code of every symmetry orbit of classes, by brute force over all digit tuples."""
    radices = [len(p) for p in partition.for_cells(shape)]
    weights = [int(np.prod(radices[i + 1 :])) for i in range(shape.cells)]
    out = set()
    for digits in itertools.product(*(range(k) for k in radices)):
        d = np.array(digits)
        out.add(min(sum(w * int(x) for w, x in zip(weights, d[p])) for p in symmetries(shape)))
    return sorted(out)


@pytest.mark.parametrize(
    "shape,partition",
    [
        (Shape(2, 2), "abcdefgh ijklmnopq rstuvwxyz"),
        (
            Shape(2, 3),
            {"corner": "abcdefghijklm nopqrstuvwxyz", "edge": "abcdefgh ijklmnopq rstuvwxyz", "centre": "a-z"},
        ),
        (Shape(3, 3), "abcdefghijklm nopqrstuvwxyz"),
        (
            Shape(3, 3),
            {"corner": "abcdefghijklm nopqrstuvwxyz", "edge": "abcdefgh ijklmnopq rstuvwxyz", "centre": "a-z"},
        ),
        (
            Shape(3, 4),
            {"corner": "abcdefghijklm nopqrstuvwxyz", "edge": "abcdefgh ijklmnopq rstuvwxyz", "centre": "a-z"},
        ),
        (
            Shape(4, 3),
            {"corner": "abcdefghijklm nopqrstuvwxyz", "edge": "abcdefghijklm nopqrstuvwxyz", "centre": "a-z"},
        ),
    ],
)
def test_canonical_classes_are_one_per_symmetry_orbit(shape, partition):
    if isinstance(partition, dict):
        partition = {k: (ALL if v == "a-z" else v) for k, v in partition.items()}
    space = ClassSpace(shape, BoardPartition.parse(partition))
    want = orbit_codes(shape, space.partition)
    assert space.codes().tolist() == want
    assert space.count() == len(want)  # Burnside's count, no enumeration
    assert space.total == int(np.prod(space.radices)) > len(want)
    for shards in (1, 3, 7, len(want) + 2):  # ranges cover every class once, in order
        parts = [space.codes(*shard_range(len(want), s, shards)) for s in range(shards)]
        assert np.concatenate(parts).tolist() == want
        assert max(map(len, parts)) - min(map(len, parts)) <= 1
    assert [space.position(c) for c in want[::7]] == list(range(0, len(want), 7))


def test_class_counts_match_the_published_prover():
    # danvk/hybrid-boggle's canonical class counts (its own symmetry code): 3x3 with
    # 'aeiosuy bcdfghjklmnpqrtvwxz' everywhere 102; its 3x4 and 4x4 runs (corners 2 buckets,
    # other cells 3) 27,135 and 1,068,363; our old 4-bucket partition 34,960 / 4,212,736
    coarse = {"corner": COARSE2, "edge": COARSE3, "centre": COARSE3}
    old = "aeiou bdfgjqvwxz lnrsy chkmpt"
    for shape, partition, want in [
        (Shape(3, 3), COARSE2, 102),
        (Shape(3, 4), coarse, 27_135),
        (Shape(4, 3), coarse, 27_135),
        (Shape(4, 4), coarse, 1_068_363),
        (Shape(3, 3), old, 34_960),
        (Shape(3, 4), old, 4_212_736),
    ]:
        space = ClassSpace(shape, BoardPartition.parse(partition))
        assert space.count() == want, (shape, partition)
    assert len(ClassSpace(Shape(4, 4), BoardPartition.parse(coarse)).codes()) == 1_068_363


def test_the_schema_defaults_are_the_coarse_partitions():
    # 3x3: two buckets everywhere; 3x4: two on corners and edges, three on the centre cells;
    # 4x4: the published prover's (corners 2, other cells 3)
    proof = section_defaults("boggle")["proof"]
    defaults = {s: ProofSettings.for_job({"proof": proof}, s).partition for s in ("3x3", "3x4", "4x4")}
    assert defaults == {
        "3x3": COARSE2,
        "3x4": {"corner": COARSE2, "edge": COARSE2, "centre": COARSE3},
        "4x4": {"corner": COARSE2, "edge": COARSE3, "centre": COARSE3},
    }


def test_default_3x4_classes_are_the_orbits_of_the_bucket_colourings():
    # brute force: every bucket colouring of the 3x4 cells (corners and edges 2 buckets, the two
    # centre cells 3) up to the board's symmetries
    shape = Shape(3, 4)
    centre = {5, 6}
    sym = symmetries(shape)
    choices = [range(3) if c in centre else range(2) for c in range(shape.cells)]
    boards = np.array(list(itertools.product(*choices)))
    orbits = {min(tuple(b[p]) for p in sym) for b in boards}
    partition = {"corner": COARSE2, "edge": COARSE2, "centre": COARSE3}
    space = ClassSpace(shape, BoardPartition.parse(partition))
    assert space.count() == len(space.codes()) == len(orbits) == 2_496


@pytest.mark.parametrize("shape,letters", [(Shape(2, 3), "aeqsz"), (Shape(3, 3), "azs"), (Shape(3, 4), "azt")])
def test_every_board_is_in_exactly_one_canonical_class(shape, letters):
    partition = BoardPartition.parse({"corner": COARSE2, "edge": COARSE3, "centre": COARSE3})
    space = ClassSpace(shape, partition)
    canonical = space.codes()
    # the class of every symmetric image of every board: each cell's bucket holding its letter
    idx = np.array([LETTERS.index(c) for c in letters])
    boards = idx[np.array(list(itertools.product(range(len(idx)), repeat=shape.cells)))]
    images = boards[:, symmetries(shape)]  # (boards, symmetries, cells)
    radices = [len(p) for p in partition.for_cells(shape)]
    digits = np.zeros(images.shape, dtype=np.int64)
    for cell, part in enumerate(partition.for_cells(shape)):
        for bucket, letters_in in enumerate(part.buckets):
            digits[..., cell][np.isin(images[..., cell], [LETTERS.index(ch) for ch in letters_in])] = bucket
    weights = np.array([int(np.prod(radices[i + 1 :])) for i in range(shape.cells)])
    codes = digits @ weights
    held = np.where(np.isin(codes, canonical), codes, -1)
    held.sort(axis=1)
    distinct = (held[:, 1:] != held[:, :-1]).sum(axis=1) + 1 - (held[:, 0] == -1)
    assert (distinct == 1).all()  # exactly one canonical class holds an image of each board
    for board, row in zip(boards[:: max(1, len(boards) // 50)], held[:: max(1, len(boards) // 50)]):
        assert space.class_of_board(board) == row[-1]


def test_split_order_is_centre_first():
    assert split_order(Shape(3, 3)).tolist() == [4, 5, 3, 1, 7, 0, 2, 6, 8]
    order = split_order(Shape(3, 4))
    assert sorted(order.tolist()) == list(range(12)) and set(order[:2].tolist()) == {5, 6}


def test_class_split_order_puts_the_fewest_letters_first_within_each_ring():
    from puzzlesearch.boggle.proof.classes import CENTRE, CENTRE_FEWEST, class_split_order

    shape = Shape(4, 4)
    # rings of a 4x4 board, nearest the centre first: 5 6 9 10 | 1 2 4 7 8 11 13 14 | 0 3 12 15
    assert split_order(shape).tolist() == [5, 6, 9, 10, 1, 2, 4, 7, 8, 11, 13, 14, 0, 3, 12, 15]
    sizes = {5: "abc", 6: "ab", 9: "abc", 10: "a", 2: "abcd", 13: "a", 0: "ab"}
    cls = BoardClass.parse(" ".join(sizes.get(c, "abc") for c in range(16)), shape)
    assert class_split_order(cls, CENTRE).tolist() == split_order(shape).tolist()
    assert class_split_order(cls, CENTRE_FEWEST).tolist() == [10, 6, 5, 9, 13, 1, 4, 7, 8, 11, 14, 2, 0, 3, 12, 15]
    with pytest.raises(PuzzleError, match="split order"):
        class_split_order(cls, "spiral")


def test_shard_resources_come_from_the_cost_table():
    proof = section_defaults("boggle")["proof"]
    res = shard_resources(proof, "4x4")
    assert res["classes"] == -(-1_068_363 // proof["shards"]["4x4"])
    cost = proof["cost"]["4x4"]
    assert res["runtime"] * 60 >= 2 * (res["classes"] * cost["seconds_p99"] + cost["seconds_max"])
    assert res["mem_mb"] >= cost["peak_mb"]
    again = shard_resources(proof, "4x4", attempt=2)
    assert again["runtime"] >= 2 * res["runtime"] - 1 and again["mem_mb"] == 2 * res["mem_mb"]


# ---------------------------------------------------------------- bounds


@pytest.fixture(scope="module")
def small_lexicon():
    words = random_words("aesrtq", 160, seed=7)
    return words, make_scorer(words)


def random_class(rng, shape: Shape, letters: str) -> BoardClass:
    cells = []
    for _ in range(shape.cells):
        size = int(rng.integers(1, 4))
        cells.append("".join(rng.choice(list(letters), size, replace=False)))
    return BoardClass.parse(" ".join(cells), shape)


def test_bounds_hold_and_the_python_twin_agrees(small_lexicon):
    words, scorer = small_lexicon
    rng = np.random.default_rng(11)
    for shape in (Shape(2, 2), Shape(2, 3), Shape(3, 3)):
        bounder = OrderlyBounder(scorer.dawg, shape, POINTS)
        for _ in range(6):
            cls = random_class(rng, shape, "aesrtq")
            boards = np.array(list(cls.boards()), dtype=np.uint8)
            exact = scorer.scores(boards, shape)
            best = int(exact.max())
            bound, nodes = bounder.bound(cls)
            assert bound >= best, (str(cls), bound, best)  # below the true best: a bug
            assert py_max_nomark(cls, words) == bounder.max_nomark(cls) >= best
            # the branch and bound keeps every board reaching S (here: the best and the runners-up)
            min_score = max(1, best - 2)
            res = bounder.search(cls, min_score)
            kept = {tuple(b) for b in res.boards}
            assert {tuple(b) for b in boards[exact >= min_score]} <= kept
            # the pure-Python twin: same tree, same bound, same sub-classes and boards
            py_bound, py_nodes, py_visits, py_found = py_orderly_search(cls, words, min_score)
            assert (py_bound, py_nodes, py_visits) == (bound, nodes, res.visits)
            assert py_found == {tuple(int(x) for x in b): int(v) for b, v in zip(res.boards, res.leaf_bounds)}


def test_a_word_is_counted_once_per_set_of_cells():
    # 'aaa' is found on three a-cells in 6 orders: one set of cells, one point
    scorer = make_scorer(["aaa"])
    shape = Shape(2, 2)
    cls = BoardClass.parse("a a a b", shape)
    assert OrderlyBounder(scorer.dawg, shape, POINTS).bound(cls)[0] == 1
    # four a-cells: 4 sets of 3 cells, the board scores 1 (the orderly bound counts sets)
    cls = BoardClass.parse("a a a a", shape)
    assert OrderlyBounder(scorer.dawg, shape, POINTS).bound(cls)[0] == 4
    assert scorer.scores(np.zeros((1, 4), np.uint8), shape)[0] == 1


# ---------------------------------------------------------------- the prover


PER_KIND = {
    "corner": "ae sq bcdfghijklmnoprtuvwxyz",
    "edge": "aes q bcdfghijklmnoprtuvwxyz",
    "centre": "aesq " + "bcdfghijklmnoprtuvwxyz",
}


class OrderlyOracle:
    """The replaced orderly engine (baselines/) as a prover engine: the oracle of the tree engine."""

    def __init__(self, scorer, shape):
        self.bounder = OrderlyBounder(scorer.dawg, shape, POINTS)

    def search(self, cls, min_score, progress=None):
        return self.bounder.search(cls, min_score)


@pytest.mark.parametrize("engine", ["tree", "orderly"])
@pytest.mark.parametrize(
    "shape,alive,partition,min_score",
    [
        (Shape(2, 2), "aesq", "ae sq bcdfghijklmnoprtuvwxyz", 3),
        (Shape(2, 3), "aesq", "ae sq bcdfghijklmnoprtuvwxyz", 20),
        (Shape(2, 3), "aesq", PER_KIND, 20),
        (Shape(3, 3), "aes", "ae s bcdfghijklmnopqrtuvwxyz", 55),
        (Shape(3, 3), "aes", PER_KIND, 55),
    ],
)
def test_prover_lists_exactly_the_boards_brute_force_finds(shape, alive, partition, min_score, engine):
    words = random_words(alive, 40, seed=3)
    scorer = make_scorer(words)
    want = brute_force(scorer, shape, alive + DEAD, min_score)
    assert want, "the test needs some boards >= min_score"
    chosen = settings(partition, min_score, switchover_ratio=1.2)
    prover = Prover(scorer, shape, chosen, OrderlyOracle(scorer, shape) if engine == "orderly" else None)
    table = prover.run(prover.classes(), "test").table
    boards, classes, cert = gather(table, chosen, shape, {"name": "test"})
    got = dict(zip(boards["board"], boards["score"]))
    assert dead_mapped(got, alive, shape) == want
    assert all(
        scorer.scores(np.array([[LETTERS.index(c) for c in b]], np.uint8), shape)[0] == s for b, s in got.items()
    )
    assert cert["complete"] and cert["classes_done"] == classes.height == cert["classes_total"] == prover.space.count()
    assert cert["best"]["score"] == max(want.values()) and cert["max_bound_remaining"] is None
    assert cert["classes_before_symmetry"] > cert["classes_total"]


def test_leaves_scored_a_few_at_a_time_give_the_boards_brute_force_finds(monkeypatch):
    shape, alive, min_score = Shape(2, 3), "aesq", 20
    scorer = make_scorer(random_words(alive, 40, seed=3))
    monkeypatch.setattr(prove_module, "EXACT_CHUNK", 3)  # many kernel calls per class
    chosen = settings(PER_KIND, min_score, switchover_ratio=1.2)
    prover = Prover(scorer, shape, chosen)
    table = prover.run(prover.classes(), "test").table
    assert table["leaves"].max() > 3 * prove_module.EXACT_CHUNK
    boards = gather(table, chosen, shape, {"name": "test"})[0]
    assert dead_mapped(dict(zip(boards["board"], boards["score"])), alive, shape) == brute_force(
        scorer, shape, alive + DEAD, min_score
    )


def small_proof(shards: int = 3, **extra):
    """(shape, settings, scorer) of a small 2x3 proof."""
    shape = Shape(2, 3)
    return (
        shape,
        settings("ae sq bcdfghijklmnoprtuvwxyz", 6, shards, **extra),
        make_scorer(random_words("aesq", 40, seed=5)),
    )


COMPARED = ["code", "class", "bound", "tree_nodes", "visits", "leaves", "outcome", "boards", "scores"]


def test_a_long_class_logs_its_place_in_the_class_list(monkeypatch, caplog):
    # Progress lines of a long class name it by its place in the canonical list (looked up
    # only when a line is logged). Every pause logs here: the search forces every sub-class.
    from puzzlesearch.boggle.proof import prove as prove_mod
    from puzzlesearch.boggle.proof import tree as tree_mod

    shape, three, scorer = small_proof(switchover_ratio=0)
    prover = Prover(scorer, shape, three)
    monkeypatch.setattr(prove_mod, "LOG_EVERY_SECONDS", 0)
    monkeypatch.setattr(tree_mod._Pacer, "next_pause", lambda self, visits: int(visits) + 1)
    codes = prover.classes()
    logged = []
    with caplog.at_level(logging.INFO):
        for place in range(len(codes) - 1, -1, -7):  # from the end of the list: the label is not a count
            caplog.clear()
            row = prover.prove_class(int(codes[place]))
            lines = [r.getMessage() for r in caplog.records if "sub-classes visited" in r.getMessage()]
            assert all(line.startswith(f"boggle: class #{place}: ") for line in lines), lines
            if lines:
                logged.append(place)
                assert int(lines[-1].split(": ")[2].split()[0].replace(",", "")) <= row["visits"]
    assert len(logged) >= 3


def test_sharded_run_equals_unsharded_and_the_gather_checks_the_shards(tmp_path):
    shape, three, scorer = small_proof()
    prover = Prover(scorer, shape, three)
    one = prover.run(prover.classes(), "all").table
    paths = [tmp_path / f"shard{shard}.parquet" for shard in range(3)]
    for shard in (2, 0, 1):
        assert prove_shard(prover, shard, 3, paths[shard], "sha").complete
    assert not list(tmp_path.glob("*progress*")) and not list(tmp_path.glob(".*lock"))
    merged = load_shards(paths, three, shape, "sha")
    assert merged.select(COMPARED).equals(one.select(COMPARED))
    for bad, needle in [
        (paths[:1] + paths[2:], "holds shard 2, expected shard 1"),
        (paths[:2], "shard 2 of 3 is missing"),
        ([paths[0], paths[0], paths[2]], "shard 0 given twice"),
        ([paths[1], paths[0], paths[2]], "holds shard 1, expected shard 0"),
    ]:
        with pytest.raises(PuzzleError, match=needle) as err:
            load_shards(bad, three, shape, "sha")
        assert "\n" not in str(err.value)
    with pytest.raises(PuzzleError, match="another proof \\(lexicon_sha256 differs"):
        load_shards(paths, three, shape, "other-lexicon")
    four = settings("ae sq bcdfghijklmnoprtuvwxyz", 6, 4)
    with pytest.raises(PuzzleError, match="another proof \\((range|shards) differs"):
        load_shards(paths + paths[:1], four, shape, "sha")
    paths[1].write_bytes(paths[1].read_bytes()[:-8])
    with pytest.raises(PuzzleError, match="size .* bytes"):
        load_shards(paths, three, shape, "sha")


def test_certificate_fields(tmp_path):
    shape, three, scorer = small_proof()
    prover = Prover(scorer, shape, three)
    table = prover.run(prover.classes(), "all").table
    lexicon = {"name": "tiny", "words_sha256": "abc"}
    boards, _classes, cert = gather(table, three, shape, lexicon)
    assert cert["lexicon"] == lexicon and cert["partition"] == "ae sq bcdfghijklmnoprtuvwxyz"
    assert cert["min_score"] == 6 and cert["shards"] == 3 and cert["complete"]
    assert cert["classes_total"] == cert["classes_done"] == prover.space.count()
    assert cert["max_bound_remaining"] is None and cert["engine"]["name"]
    assert cert["boards_at_least_min_score"] == boards.height
    # half the classes stopped: incomplete, and the largest bound left is unknown
    half = pl.concat(
        [
            table.head(table.height // 2),
            table.tail(table.height - table.height // 2).with_columns(
                pl.lit("stopped").alias("outcome"), pl.lit(-1).cast(pl.Int64).alias("bound")
            ),
        ]
    )
    _, _, part = gather(half, three, shape, lexicon)
    assert (
        not part["complete"] and part["classes_done"] == table.height // 2 and part["max_bound_remaining"] == "unknown"
    )


def test_caps_leave_classes_undone_and_say_so():
    shape, partition = Shape(2, 3), "ae sq bcdfghijklmnoprtuvwxyz"
    scorer = make_scorer(random_words("aesq", 40, seed=5))
    capped = ProofSettings.from_dict({"partition": partition, "min_score": 2, "max_visits": 2})
    prover = Prover(scorer, shape, capped)
    table = prover.run(prover.classes(), "capped").table
    _, _, cert = gather(table, capped, shape, {"name": "test"})
    assert cert["classes_capped"] > 0 and not cert["complete"]
    assert cert["max_bound_remaining"] == int(table.filter(pl.col("outcome") == "capped")["bound"].max())


class CountingEngine:
    """An engine that counts its searches and may pause before each (so a test can kill it mid-run)."""

    def __init__(self, inner, pause: float = 0.0):
        self.inner, self.pause, self.calls = inner, pause, 0

    def search(self, cls, min_score, progress=None):
        self.calls += 1
        time.sleep(self.pause)
        return self.inner.search(cls, min_score, progress=progress)


KILLED_SHARD = """
import sys
sys.path.insert(0, {tests!r})
from test_proof import CountingEngine, Prover, prove_shard, small_proof
from puzzlesearch.boggle.proof.prove import make_engine
shape, three, scorer = small_proof(shards=1, checkpoint_seconds=0)
prover = Prover(scorer, shape, three)
prover.engine = CountingEngine(make_engine(scorer, shape, three), pause=0.05)
prove_shard(prover, 0, 1, {out!r}, "sha")
"""


def test_a_shard_killed_mid_run_continues_from_its_progress(tmp_path):
    out = tmp_path / "shard0.parquet"
    progress = tmp_path / "shard0.progress.json"
    script = KILLED_SHARD.format(tests=str(Path(__file__).parent), out=str(out))
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    saved = 0
    while saved < 20 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if progress.exists():
            saved = len(json.loads(progress.read_text())["rows"])
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not out.exists() and progress.exists(), "the run must be killed before it ends"
    saved = len(json.loads(progress.read_text())["rows"])
    shape, one, scorer = small_proof(shards=1, checkpoint_seconds=0)
    prover = Prover(scorer, shape, one)
    total = prover.space.count()
    assert 20 <= saved < total
    prover.engine = CountingEngine(prover.engine)
    assert prove_shard(prover, 0, 1, out, "sha").complete
    assert prover.engine.calls == total - saved  # the classes done before are not run again
    assert not progress.exists()
    whole = Prover(scorer, shape, one).run(prover.classes(), "whole").table
    assert load_shards([out], one, shape, "sha").select(COMPARED).equals(whole.select(COMPARED))


def test_a_progress_file_of_other_settings_is_not_used(tmp_path):
    shape, one, scorer = small_proof(shards=1)
    prover = Prover(scorer, shape, one)
    progress = tmp_path / "shard0.progress.json"
    progress.write_text(json.dumps({"kind": "boggle-proof-progress", "meta": {"shape": "2x3"}, "rows": []}))
    prover.engine = CountingEngine(prover.engine)
    assert prove_shard(prover, 0, 1, tmp_path / "shard0.parquet", "sha").complete
    assert prover.engine.calls == prover.space.count()


# ---------------------------------------------------------------- published figures (ENABLE2K)


PUBLISHED_CLASS = "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz"


def test_published_orderly_bound_of_one_class(enable2k):
    scorer = Scorer.for_lexicon(enable2k)
    shape = Shape(3, 3)
    cls = BoardClass.parse(PUBLISHED_CLASS, shape)
    bound, nodes = OrderlyBounder(scorer.dawg, shape, POINTS).bound(cls)
    assert bound == 1231  # published: 1,231 (332k nodes); max/no-mark 9,359, sum/union 106,383
    assert 332_000 <= nodes < 333_000
    assert OrderlyBounder(scorer.dawg, shape, POINTS).max_nomark(cls) == 9359  # published max/no-mark
    res = OrderlyBounder(scorer.dawg, shape, POINTS).search(cls, 545)
    assert [int(s) for s in scorer.scores(res.boards, shape) if s >= 545] == [545]  # streaedlp's class


def published_scores(shared_dir) -> dict[str, int]:
    """Board (row-major) -> score of the ENABLE2K facts, 3x4 boards also in their 3-row form."""
    out = {}
    with open(shared_dir / "facts" / "boggle_scores.csv") as fh:
        for row in csv.DictReader(line for line in fh if not line.startswith("#")):
            if row["wordlist"] != "enable2k.txt":
                continue
            rows, cols, board = int(row["rows"]), int(row["cols"]), row["board"]
            out[board] = int(row["score"])
            grid = [board[r * cols : (r + 1) * cols] for r in range(rows)]
            out["".join("".join(g[c] for g in grid) for c in range(cols))] = int(row["score"])  # transposed
    return out


FINE = "aeiou bdfgjqvwxz lnrsy chkmpt"  # small classes: the suite's cost stays low


@pytest.mark.parametrize(
    "shape,board,partition", [(Shape(3, 3), "streaedlp", None), (Shape(3, 4), "perslatesind", FINE)]
)
def test_published_best_board_comes_out_of_its_class(scorer, shared_dir, shape, board, partition):
    score = published_scores(shared_dir)[board]  # 545 and 1651 (proven optimal, hybrid-boggle)
    section = {"proof": {**section_defaults("boggle")["proof"], "min_score": {str(shape): score}}}
    if partition:
        section["proof"]["partition"] = {str(shape): partition}
    prover = Prover(scorer, shape, ProofSettings.for_job(section, shape))
    run = board_class_run(prover, board)
    found = {b["board"]: b["score"] for b in run["boards_found"]}
    assert found.get(canonical_board([LETTERS.index(c) for c in board], shape)) == score
    assert run["outcome"] == "searched" and run["bound"] >= score and max(found.values()) == score


# ---------------------------------------------------------------- command line


def write_project(tmp_path, words) -> list[str]:
    (tmp_path / "words.txt").write_text("\n".join(words) + "\n")
    (tmp_path / "config.yaml").write_text("lexicons:\n  tiny: words.txt\n")
    return ["--config", str(tmp_path / "config.yaml"), "boggle"]


def test_cli_prove_writes_and_resumes(tmp_path, capsys, caplog):
    cfg = write_project(tmp_path, random_words("aesq", 40, seed=3))
    out = tmp_path / "proof"
    args = cfg + ["prove", "--shape", "2x2", "--lexicon", "tiny", "--min-score", "3", "--shards", "2"]
    args += ["--partition", "ae sq bcdfghijklmnoprtuvwxyz", "--out", str(out)]
    assert main(args) == 0
    first = capsys.readouterr()
    cert = __import__("json").loads((out / "certificate.json").read_text())
    assert cert["complete"] and cert["min_score"] == 3 and cert["lexicon"]["words_sha256"]
    boards = pl.read_parquet(out / "boards.parquet")
    assert boards.height == cert["boards_at_least_min_score"] > 0 and (boards["score"] >= 3).all()
    caplog.clear()
    log = logging.getLogger("puzzlesearch")  # its own handler and propagate=False once the CLI ran
    log.addHandler(caplog.handler)
    try:
        with caplog.at_level("INFO", logger="puzzlesearch"):
            assert main(args) == 0
    finally:
        log.removeHandler(caplog.handler)
    again = capsys.readouterr()
    assert caplog.text.count("done before, reused") == 2 and again.out == first.out


def test_sample_draws_classes_uniformly_with_its_seed():
    space = ClassSpace(Shape(4, 4), BoardPartition.parse({"corner": COARSE2, "edge": COARSE3, "centre": COARSE3}))
    first, again, other = (sample_codes(space, 300, seed) for seed in (2025, 2025, 7))
    assert first.tolist() == again.tolist() and first.tolist() != other.tolist()
    assert len(set(first.tolist())) == 300 and not (np.diff(first) > 0).all()  # in the order drawn
    assert all(space.canonical_code(int(c)) == c for c in first[:20])
    positions = np.array([space.position(int(c)) for c in first[::30]])
    assert 0.2 < positions.mean() / space.count() < 0.8  # spread over the list, not its start


def test_cli_prove_sample(tmp_path, capsys):
    cfg = write_project(tmp_path, random_words("aesq", 40, seed=3))
    out = tmp_path / "sample"
    args = cfg + ["prove-sample", "--shape", "2x3", "--lexicon", "tiny", "--min-score", "6", "--classes", "5"]
    args += ["--partition", "ae sq bcdfghijklmnoprtuvwxyz", "--board", "saeqes", "--out", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    summary = json.loads((out / "sample.json").read_text())
    table = pl.read_parquet(out / "sample.parquet")
    assert summary["classes_sampled"] == summary["classes_run"] == table.height == 5
    cpu = summary["cpu_seconds"]
    assert cpu["median"] <= cpu["p99"] <= cpu["max"] and summary["peak_rss_mb"] > 0
    assert summary["projected_cpu_hours"] == round(cpu["mean"] * summary["classes_total"] / 3600, 3)
    (run,) = summary["classes_of_boards"]
    assert run["board"] == "saeqes" and 0 <= run["position"] < summary["classes_total"]
    assert "projected CPU-hours for all classes" in printed and "class of saeqes" in printed
    assert not (out / "sample.progress.json").exists()


def test_prove_sample_with_two_jobs_gives_the_rows_of_one(tmp_path, capsys):
    # Forked workers: the same classes in the same order with the same bounds, visits and boards.
    cfg = write_project(tmp_path, random_words("aesq", 40, seed=3))
    base = cfg + ["prove-sample", "--shape", "2x3", "--lexicon", "tiny", "--min-score", "6", "--classes", "12"]
    base += ["--partition", "ae sq bcdfghijklmnoprtuvwxyz"]
    tables = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        assert main(base + ["--jobs", jobs, "--out", str(out)]) == 0
        tables.append(pl.read_parquet(out / "sample.parquet").drop("seconds"))
    capsys.readouterr()
    assert tables[0].height == 12 and tables[0].equals(tables[1])
    assert (tables[0]["outcome"] != "stopped").all()


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--shape", "3y3"], "3y3"),
        (["--shape", "3x3", "--min-score", "0"], "--min-score"),
        (["--shape", "3x3", "--partition", "aeiou bdfgjqvwxz lnrsy hkmpt"], "'c' is in no bucket"),
        (["--shape", "3x3", "--partition", "aeiou bdfgjqvwxz lnrsy chkmpta"], "'a' is in two buckets"),
        (["--shape", "5x5"], "boggle.proof.min_score.5x5"),
        (["--shape", "3x3", "--jobs", "0"], "--jobs 0"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys, extra, needle):
    cfg = write_project(tmp_path, ["sea", "tea"])
    assert main(cfg + ["prove", "--lexicon", "tiny", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("puzzlesearch: error:") and needle in err[0], err
