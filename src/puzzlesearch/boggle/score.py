"""Scoring boards for Python callers: a Scorer holds a lexicon's Boggle DAWG and stamps."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from puzzlesearch.boggle import kernels
from puzzlesearch.boggle.model import DEFAULT_POINTS, Board, Shape, cell_pairs, neighbours, points_table
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.dawg import Dawg

STAMP_LIMIT = 2**31 - 2**24  # reset the stamps well before int32 overflows


@dataclass(frozen=True, order=True)
class WordScore:
    """One word found on a board and its points."""

    word: str
    points: int


class Scorer:
    """Scores boards of any shape against one Boggle DAWG and points table."""

    def __init__(self, dawg: Dawg, points=DEFAULT_POINTS, words=None):
        if dawg.word_length is None:
            raise PuzzleError("the scorer needs a Boggle DAWG (boggle_dawg.npz, with word_length)")
        self.dawg = dawg
        self.words = words  # optional list: word_id -> real word (for listing)
        max_len = int(dawg.word_length.max()) if dawg.n_words else 3
        self.points = points_table(points, max(max_len, 8))
        nodes, edges = kernels.pack_dawg(dawg.mask, dawg.first_edge, dawg.terminal,
                                         dawg.edge_target, dawg.edge_rank)
        self.arrays = (nodes, edges, np.ascontiguousarray(dawg.word_length, dtype=np.int16))
        self.stamps = np.zeros(max(dawg.n_words, 1), dtype=np.int32)
        self.stamp = 1

    @classmethod
    def for_lexicon(cls, lex, points=DEFAULT_POINTS) -> "Scorer":
        """A scorer over an opened Lexicon's Boggle DAWG (words listed from its word table)."""
        return cls(lex.boggle_dawg, points, words=lex.words["word"].to_list())

    def _stamps(self, n: int) -> int:
        """Reserve n stamp values; returns the first."""
        if self.stamp + n >= STAMP_LIMIT:
            self.stamps[:] = 0
            self.stamp = 1
        first = self.stamp
        self.stamp += n
        return first

    def score(self, board: Board) -> int:
        """Points of one board."""
        return int(self.score_array(board.array[None, :], board.shape)[0][0])

    def score_array(self, boards: np.ndarray, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
        """(scores, word counts) of a 2-D uint8 array of boards of one shape."""
        boards = np.ascontiguousarray(boards, dtype=np.uint8)
        if boards.ndim != 2 or boards.shape[1] != shape.cells:
            raise PuzzleError(f"boards array {boards.shape} does not hold {shape} boards")
        nbr, nbr_n = neighbours(shape)
        scores = np.zeros(len(boards), dtype=np.int32)
        counts = np.zeros(len(boards), dtype=np.int32)
        kernels.score_batch(boards, nbr, nbr_n, self.arrays, self.points, self.stamps,
                            self._stamps(len(boards)), scores, counts)
        return scores, counts

    def scores(self, boards: np.ndarray, shape: Shape) -> np.ndarray:
        """Scores of a 2-D uint8 array of boards."""
        return self.score_array(boards, shape)[0]

    def ranks(self, board: Board) -> tuple[int, np.ndarray]:
        """(score, DAWG ranks of the distinct words) of one board."""
        nbr, nbr_n = neighbours(board.shape)
        found = np.zeros(self.stamps.shape[0], dtype=np.int32)
        score, n = kernels.score_words(board.array, nbr, nbr_n, self.arrays, self.points,
                                       self.stamps, self._stamps(1), found)
        return int(score), np.sort(found[:n])

    def words_of(self, board: Board) -> list[WordScore]:
        """The distinct words of a board with their points, sorted by word."""
        _, ranks = self.ranks(board)
        lengths = self.dawg.word_length[ranks]
        if self.words is not None and self.dawg.word_id is not None:
            texts = [self.words[int(i)] for i in self.dawg.word_id[ranks]]
        else:
            texts = [self.dawg.word(int(r)).replace("q", "qu") for r in ranks]
        return sorted(WordScore(t, int(self.points[ln])) for t, ln in zip(texts, lengths))

    def neighbourhood(self, board: np.ndarray, shape: Shape, letters: np.ndarray,
                      swaps: bool = True, doubles: bool = False):
        """Scores of single changes (cells x letters), swaps (pairs) and double changes."""
        board = np.ascontiguousarray(board, dtype=np.uint8)
        letters = np.ascontiguousarray(letters, dtype=np.uint8)
        pairs = cell_pairs(shape.cells)
        nbr, nbr_n = neighbours(shape)
        L = len(letters)
        singles = np.zeros((shape.cells, L), dtype=np.int32)
        sw = np.zeros(len(pairs) if swaps else 0, dtype=np.int32)
        db = np.zeros((len(pairs), L, L) if doubles else (0, L, L), dtype=np.int32)
        n = shape.cells * L + len(sw) + db.size
        kernels.score_changes(board, letters, pairs, nbr, nbr_n, self.arrays, self.points,
                              self.stamps, self._stamps(n), singles, sw, db)
        return singles, sw, db
