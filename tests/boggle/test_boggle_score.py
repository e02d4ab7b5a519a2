"""Boggle scorer: published scores, the brute-force reference, the trie layout, incremental scoring."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from puzzlesearch.boggle._kernels.scorer import MIN_ORDERED, locality_order
from puzzlesearch.boggle._kernels.trie import WORD_BIT
from puzzlesearch.boggle.model import (
    Board,
    Shape,
    cell_pairs,
    parse_board,
    symmetries,
)
from puzzlesearch.boggle.reference import reference_score, reference_words
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.boggle.trie import BoggleTrie
from puzzlesearch.errors import PuzzleError

# Letters weighted like good boards, so random boards hold many words; q (Qu) included.
LETTER_POOL = np.frombuffer(b"aaaeeeeiiioorrrssssttttnnnlllddpgcbmhuykq", dtype=np.uint8) - 97


def published_rows():
    from tests.conftest import SHARED

    path = SHARED / "facts" / "boggle_scores.csv"
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


# ---------------------------------------------------------------- scorer: published facts


@pytest.mark.parametrize("row", published_rows(), ids=lambda r: f"{r['board']}-{r['wordlist']}")
def test_published_scores(shared_lexicon, row):
    lex = shared_lexicon(row["wordlist"].removesuffix(".txt"))
    board = parse_board(row["board"], int(row["rows"]), int(row["cols"]))
    scores, counts = Scorer.for_lexicon(lex).score_array(board.array[None, :], board.shape)
    assert (int(scores[0]), int(counts[0])) == (int(row["score"]), int(row["words"]))


# ---------------------------------------------------------------- scorer: brute force


@pytest.mark.parametrize(
    "shape, n",
    [
        (Shape(3, 3), 40),
        (Shape(3, 4), 25),
        (Shape(2, 2), 10),
        (Shape(2, 5), 10),
        (Shape(4, 4), 3),
        (Shape(6, 2), 5),
        (Shape(5, 5), 2),
        (Shape(6, 6), 1),
    ],
)
def test_matches_brute_force(scorer, reference, shape, n):
    words, pre = reference
    rng = np.random.default_rng(shape.cells)
    boards = LETTER_POOL[rng.integers(0, len(LETTER_POOL), size=(n, shape.cells))].astype(np.uint8)
    boards[0, 0] = 16  # a Qu cell
    scores, counts = scorer.score_array(boards, shape)
    for cells, s, c in zip(boards, scores, counts):
        board = Board(shape.rows, shape.cols, tuple(int(x) for x in cells))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)
    assert counts.sum() > 2 * n  # the boards really hold words


def test_batch_in_locality_order_matches_brute_force(scorer, reference):
    """A batch big enough to be walked in locality order (_kernels/scorer.py MIN_ORDERED): near-duplicate
    3x3 boards, shuffled, each scored like the brute-force walk at its own row."""
    words, pre = reference
    rng = np.random.default_rng(12)
    shape = Shape(3, 3)
    n = MIN_ORDERED + 44
    boards = np.repeat(parse_board("streaedlp").array[None, :], n, axis=0)
    cells = rng.integers(0, shape.cells, (n, 2))
    boards[np.arange(n)[:, None], cells] = rng.integers(0, 26, (n, 2))
    assert not np.array_equal(locality_order(boards), np.arange(n))  # really walked out of order
    scores, counts = scorer.score_array(boards, shape)
    for cells_, s, c in zip(boards, scores, counts):
        board = Board(shape.rows, shape.cols, tuple(int(x) for x in cells_))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)
    assert len(set(scores.tolist())) > 20  # the rows really differ


def test_words_listing_matches_brute_force(scorer, reference):
    words, pre = reference
    board = parse_board("qaicdrneetasnnil")
    listed = scorer.words_of(board)
    assert {w.word for w in listed} == reference_words(board, words, pre)
    assert sum(w.points for w in listed) == scorer.score(board) == 1391


def test_custom_points_table(enable2k, reference):
    flat = Scorer.for_lexicon(enable2k, points=[0, 0, 0, 1])
    scores, counts = flat.score_array(parse_board("perslatgsineters").array[None, :], Shape(4, 4))
    assert scores[0] == counts[0] == 1045
    words, pre = reference
    steep = [0, 0, 0, 1, 2, 4, 7, 12, 20, 33]  # every length its own value, 9+ letters 33
    for text in ("perslatgsineters", "qaicdrneetasnnil", "plseairtnsed"):
        board = parse_board(text, rows=4)
        assert (
            Scorer.for_lexicon(enable2k, steep).score(board)
            == reference_score(board, words, points=steep, prefix_set=pre)[0]
        )


def test_score_invariant_under_symmetry(scorer):
    for text, shape in (("perslatgsineters", Shape(4, 4)), ("plseairtnsed", Shape(4, 3))):
        cells = parse_board(text, shape.rows, shape.cols).array
        moved = cells[symmetries(shape)]
        assert len(set(scorer.scores(moved, shape).tolist())) == 1


def test_neighbourhood_kernel_matches_direct_scoring(scorer):
    shape = Shape(3, 3)
    cells = parse_board("streaedlp").array
    letters = np.arange(26, dtype=np.uint8)
    singles, swaps, doubles = scorer.neighbourhood(cells, shape, letters, swaps=True, doubles=True)
    rng = np.random.default_rng(5)
    pairs = cell_pairs(9)
    for _ in range(30):
        i, a = rng.integers(9), rng.integers(26)
        b = cells.copy()
        b[i] = a
        assert singles[i, a] == scorer.scores(b[None, :], shape)[0]
        p = rng.integers(len(pairs))
        b = cells.copy()
        b[pairs[p]] = b[pairs[p][::-1]]
        assert swaps[p] == scorer.scores(b[None, :], shape)[0]
        c = rng.integers(26)
        b = cells.copy()
        b[pairs[p, 0]] = a
        b[pairs[p, 1]] = c
        expect = -1 if a == cells[pairs[p, 0]] or c == cells[pairs[p, 1]] else scorer.scores(b[None, :], shape)[0]
        assert doubles[p, a, c] == expect
    # streaedlp is the proven 3x3 optimum, so no neighbour beats it
    assert max(singles.max(), swaps.max(), doubles.max()) == 545


# ---------------------------------------------------------------- scorer: trie layout, incremental


def test_trie_has_one_node_per_prefix_and_its_word_ranks():
    from puzzlesearch.lexicon.dawg import build_dawg

    keys = sorted(["ate", "eat", "eats", "east", "tea", "teas", "seat", "sea", "qat", "qest"])  # qest: "quest"
    dawg = build_dawg(keys)
    trie = BoggleTrie.from_dawg(dawg)
    prefixes_of = {k[:i] for k in keys for i in range(len(k) + 1)}
    assert trie.n_nodes == len(prefixes_of)  # a trie: one node per distinct prefix

    def walk(key):
        node = 0
        for ch in key:
            word, x = int(trie.nodes[node]), ord(ch) - 97
            assert (word >> x) & 1, key
            node = (word >> 32) + bin(word & ((1 << x) - 1)).count("1")
        return node

    for key in prefixes_of:
        node = walk(key)
        is_word = key in keys
        assert bool((int(trie.nodes[node]) >> WORD_BIT) & 1) == is_word
        assert int(trie.rank[node]) == (sorted(keys).index(key) if is_word else -1)


@pytest.mark.parametrize("shape, n, qu", [(Shape(4, 4), 12, 3), (Shape(5, 5), 3, 4), (Shape(3, 3), 60, 2)])
def test_trie_kernel_matches_brute_force_with_qu(scorer, reference, shape, n, qu):
    words, pre = reference
    rng = np.random.default_rng(100 + shape.cells)
    boards = LETTER_POOL[rng.integers(0, len(LETTER_POOL), size=(n, shape.cells))].astype(np.uint8)
    for row in boards:
        row[rng.choice(shape.cells, qu, replace=False)[: rng.integers(1, qu + 1)]] = 16  # 1..qu Qu cells
    scores, counts = scorer.score_array(boards, shape)
    for cells, s, c in zip(boards, scores, counts):
        board = Board(shape.rows, shape.cols, tuple(int(x) for x in cells))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)
    assert counts.sum() > 3 * n  # the boards really hold words


def random_deviations(base: np.ndarray, n: int, most: int, rng) -> np.ndarray:
    """n copies of base, each with 0..most random cells set to random letters (Qu included)."""
    boards = np.repeat(base[None, :], n, axis=0)
    for row, k in zip(boards, rng.integers(0, most + 1, n)):
        row[rng.choice(len(base), k, replace=False)] = rng.integers(0, 26, k)
    return boards


@pytest.mark.parametrize(
    "text, rows, cols, n",
    [
        ("perslatgsineters", 4, 4, 600),
        ("streaedlp", 3, 3, 600),
        ("plseairtnsed", 4, 3, 400),
        ("serqseltaniasetrpdecsiesr", 5, 5, 100),
    ],
)
def test_incremental_scoring_equals_full_rescoring(scorer, text, rows, cols, n):
    shape = Shape(rows, cols)
    base = parse_board(text, rows, cols).array
    boards = random_deviations(base, n, 6, np.random.default_rng(len(text)))
    full = scorer.score_array(boards, shape)
    fast = scorer.score_deviations(base, boards, shape)
    assert np.array_equal(full[0], fast[0]) and np.array_equal(full[1], fast[1])
    again = scorer.score_deviations(base, boards[::-1], shape, max_changed=2)  # other order, some in full
    assert np.array_equal(full[0][::-1], again[0])


def random_run(base: np.ndarray, n: int, rng) -> np.ndarray:
    """A proof-like run: each board changes 1-3 cells of the one before, now and then 8 (a new base)."""
    boards = np.empty((n, len(base)), dtype=np.uint8)
    board = base.copy()
    for i in range(n):
        k = 8 if rng.random() < 0.05 else int(rng.integers(1, 4))
        board[rng.choice(len(base), k, replace=False)] = rng.integers(0, 26, k)
        boards[i] = board
    return boards


@pytest.mark.parametrize("text, rows, cols", [("perslatgsineters", 4, 4), ("plseairtnsed", 4, 3)])
def test_a_run_of_alike_boards_scores_as_each_board_in_full(scorer, text, rows, cols):
    shape = Shape(rows, cols)
    boards = random_run(parse_board(text, rows, cols).array, 800, np.random.default_rng(rows * cols))
    full = scorer.scores(boards, shape)
    for changed in (0, 1, 2, 3):  # every board its own base .. few bases
        assert np.array_equal(scorer.score_run(boards, shape, changed), full)
    assert np.array_equal(scorer.score_run(boards[::-1], shape), full[::-1])


def test_a_run_of_alike_boards_matches_brute_force(scorer, reference):
    words, pre = reference
    boards = random_run(parse_board("perslatgsineters").array, 5, np.random.default_rng(7))
    for cells, s in zip(boards, scorer.score_run(boards, Shape(4, 4))):
        assert int(s) == reference_score(Board(4, 4, tuple(int(x) for x in cells)), words, prefix_set=pre)[0]


def test_incremental_scoring_matches_brute_force(scorer, reference):
    words, pre = reference
    base = parse_board("perslatgsineters").array
    boards = random_deviations(base, 6, 3, np.random.default_rng(12))
    boards[0] = base
    scores, counts = scorer.score_deviations(base, boards, Shape(4, 4))
    assert (int(scores[0]), int(counts[0])) == (3625, 1045)  # the published score of the base
    for cells, s, c in zip(boards, scores, counts):
        board = Board(4, 4, tuple(int(x) for x in cells))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)


def test_letters_out_of_range_are_refused(scorer):
    with pytest.raises(PuzzleError, match="letter index 26"):
        scorer.scores(np.full((1, 9), 26, dtype=np.uint8), Shape(3, 3))
