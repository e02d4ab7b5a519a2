"""Boggle proofs: board classes, the orderly bound and its branch and bound, shards.

Independent facts: brute force over every board of small shapes on tiny lexicons (the
prover's list of boards >= S), brute force over small classes (a bound below a class's
true best board is a bug), the published orderly bound of one ENABLE2K class (1,231,
332k tree nodes), and symmetry orbits counted directly.
"""

from __future__ import annotations

import itertools
import logging

import numpy as np
import polars as pl
import pytest

from puzzlesearch.boggle.model import LETTERS, Shape, symmetries
from puzzlesearch.boggle.proof.bounds import OrderlyBounder, boggle_words, py_max_nomark, py_orderly_search
from puzzlesearch.boggle.proof.classes import (
    BoardClass,
    Partition,
    canonical_board,
    canonical_classes,
    class_count,
    split_order,
)
from puzzlesearch.boggle.proof.prove import Prover, gather, load_shards, shard_meta, write_shard
from puzzlesearch.boggle.proof.settings import ProofSettings
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.cli import main
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.dawg import build_dawg

POINTS = [0, 0, 0, 1, 1, 2, 3, 5, 11]
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


def settings(partition: str, min_score: int, shards: int = 1) -> ProofSettings:
    return ProofSettings.from_dict({"partition": partition, "min_score": min_score, "shards": shards})


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


# ---------------------------------------------------------------- classes


def test_partition_parse_and_errors():
    p = Partition.parse("aeiou bdfgjqvwxz lnrsy chkmpt")
    assert len(p) == 4 and sorted("".join(p.buckets)) == list(LETTERS)
    with pytest.raises(PuzzleError, match="'c' is in no bucket"):
        Partition.parse("aeiou bdfgjqvwxz lnrsy hkmpt")
    with pytest.raises(PuzzleError, match="'a' is in two buckets"):
        Partition.parse("aeiou bdfgjqvwxz lnrsy chkmpta")
    with pytest.raises(PuzzleError, match="not a letter"):
        Partition.parse("aeiou bdfgjqvwxz lnrsy chkmpt 1")


@pytest.mark.parametrize(
    "shape,buckets",
    [
        (Shape(2, 2), "abcdefgh ijklmnopq rstuvwxyz"),
        (Shape(2, 3), "abcdefgh ijklmnopq rstuvwxyz"),
        (Shape(3, 3), "abcdefghijklm nopqrstuvwxyz"),
    ],
)
def test_canonical_classes_are_one_per_symmetry_orbit(shape, buckets):
    partition = Partition.parse(buckets)
    kept = canonical_classes(shape, partition)
    orbits = {
        min(tuple(np.array(d)[p]) for p in symmetries(shape))
        for d in itertools.product(range(len(partition)), repeat=shape.cells)
    }
    weights = [len(partition) ** (shape.cells - 1 - i) for i in range(shape.cells)]
    assert sorted(sum(w * x for w, x in zip(weights, o)) for o in orbits) == kept.tolist()
    assert class_count(shape, partition) == len(partition) ** shape.cells


def test_split_order_is_centre_first():
    assert split_order(Shape(3, 3)).tolist() == [4, 5, 3, 1, 7, 0, 2, 6, 8]
    order = split_order(Shape(3, 4))
    assert sorted(order.tolist()) == list(range(12)) and set(order[:2].tolist()) == {5, 6}


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


@pytest.mark.parametrize(
    "shape,alive,partition,min_score",
    [
        (Shape(2, 2), "aesq", "ae sq bcdfghijklmnoprtuvwxyz", 3),
        (Shape(2, 3), "aesq", "ae sq bcdfghijklmnoprtuvwxyz", 20),
        (Shape(3, 3), "aes", "ae s bcdfghijklmnopqrtuvwxyz", 55),
    ],
)
def test_prover_lists_exactly_the_boards_brute_force_finds(shape, alive, partition, min_score):
    words = random_words(alive, 40, seed=3)
    scorer = make_scorer(words)
    want = brute_force(scorer, shape, alive + DEAD, min_score)
    assert want, "the test needs some boards >= min_score"
    prover = Prover(scorer, shape, settings(partition, min_score))
    table = prover.run_shard(0, 1).table
    boards, classes, cert = gather(table, settings(partition, min_score), shape, {"name": "test"})
    got = dict(zip(boards["board"], boards["score"]))
    assert dead_mapped(got, alive, shape) == want
    assert all(
        scorer.scores(np.array([[LETTERS.index(c) for c in b]], np.uint8), shape)[0] == s for b, s in got.items()
    )
    assert cert["complete"] and cert["classes_done"] == classes.height == len(prover.classes())
    assert cert["best"]["score"] == max(want.values())
    assert cert["classes_skipped_by_symmetry"] == class_count(shape, prover.partition) - classes.height > 0


def test_sharded_run_equals_unsharded(tmp_path):
    shape, partition, min_score = Shape(2, 3), "ae sq bcdfghijklmnoprtuvwxyz", 6
    scorer = make_scorer(random_words("aesq", 40, seed=5))
    one = Prover(scorer, shape, settings(partition, min_score)).run_shard(0, 1).table
    three = settings(partition, min_score, shards=3)
    prover = Prover(scorer, shape, three)
    paths = []
    for shard in (2, 0, 1):
        path = tmp_path / f"shard{shard}.parquet"
        write_shard(prover.run_shard(shard, 3), path, shard_meta(three, shape, shard, 3, "sha"))
        paths.append(path)
    merged = load_shards(paths, three, shape, "sha")
    cols = ["code", "bound", "tree_nodes", "visits", "outcome", "boards", "scores"]
    assert merged.select(cols).equals(one.sort("code").select(cols))
    assert merged.height == len(prover.classes())
    with pytest.raises(PuzzleError, match="shard 0 of 3 is missing"):
        load_shards(paths[:1] + paths[2:], three, shape, "sha")
    with pytest.raises(PuzzleError, match="another proof"):
        load_shards(paths, three, shape, "other-lexicon")


def test_caps_leave_classes_undone_and_say_so():
    shape, partition = Shape(2, 3), "ae sq bcdfghijklmnoprtuvwxyz"
    scorer = make_scorer(random_words("aesq", 40, seed=5))
    capped = ProofSettings.from_dict({"partition": partition, "min_score": 2, "max_visits": 2})
    table = Prover(scorer, shape, capped).run_shard(0, 1).table
    _, _, cert = gather(table, capped, shape, {"name": "test"})
    assert cert["classes_capped"] > 0 and not cert["complete"]
    assert cert["max_bound_remaining"] == int(table.filter(pl.col("outcome") == "capped")["bound"].max())


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


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--shape", "3y3"], "3y3"),
        (["--shape", "3x3", "--min-score", "0"], "--min-score"),
        (["--shape", "3x3", "--partition", "aeiou bdfgjqvwxz lnrsy hkmpt"], "'c' is in no bucket"),
        (["--shape", "3x3", "--partition", "aeiou bdfgjqvwxz lnrsy chkmpta"], "'a' is in two buckets"),
        (["--shape", "4x4"], "boggle.proof.min_score.4x4"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys, extra, needle):
    cfg = write_project(tmp_path, ["sea", "tea"])
    assert main(cfg + ["prove", "--lexicon", "tiny", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("puzzlesearch: error:") and needle in err[0], err
