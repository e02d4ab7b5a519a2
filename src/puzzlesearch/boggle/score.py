"""Scoring boards for Python callers: a Scorer holds a lexicon's Boggle DAWG and stamps.

Scores are int64 everywhere (kernels, tables), so any points table the schema allows
(entries up to 10**12) adds up without overflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlesearch.boggle import kernels
from puzzlesearch.boggle.model import DEFAULT_POINTS, Board, Shape, cell_pairs, neighbours, points_table
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.artifacts import WORDS_MANIFEST, read_words
from puzzlesearch.lexicon.dawg import Dawg
from puzzlesearch.manifest import damaged, file_sha256, verify

BOGGLE_DAWG_KIND = "boggle_dawg"

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
        nodes, edges = kernels.pack_dawg(dawg.mask, dawg.first_edge, dawg.terminal, dawg.edge_target, dawg.edge_rank)
        self.arrays = (nodes, edges, np.ascontiguousarray(dawg.word_length, dtype=np.int16))
        self.stamps = np.zeros(max(dawg.n_words, 1), dtype=np.int32)
        self.stamp = 1

    @classmethod
    def for_lexicon(cls, lex, points=DEFAULT_POINTS) -> Scorer:
        """A scorer over an opened Lexicon's Boggle DAWG (words listed from its word table)."""
        return cls(lex.boggle_dawg, points, words=lex.words["word"].to_list())

    @classmethod
    def from_files(cls, words_path: str | Path, dawg_path: str | Path, points=DEFAULT_POINTS) -> Scorer:
        """A scorer over explicit pipeline files (words.parquet, boggle_dawg.npz), each verified."""
        return cls(
            load_boggle_dawg(words_path, dawg_path), points, words=read_words(words_path, ["word"])["word"].to_list()
        )

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
        scores = np.zeros(len(boards), dtype=np.int64)
        counts = np.zeros(len(boards), dtype=np.int32)
        kernels.score_batch(
            boards, nbr, nbr_n, self.arrays, self.points, self.stamps, self._stamps(len(boards)), scores, counts
        )
        return scores, counts

    def scores(self, boards: np.ndarray, shape: Shape) -> np.ndarray:
        """Scores of a 2-D uint8 array of boards."""
        return self.score_array(boards, shape)[0]

    def ranks(self, board: Board) -> tuple[int, np.ndarray]:
        """(score, DAWG ranks of the distinct words) of one board."""
        nbr, nbr_n = neighbours(board.shape)
        found = np.zeros(self.stamps.shape[0], dtype=np.int32)
        score, n = kernels.score_words(
            board.array, nbr, nbr_n, self.arrays, self.points, self.stamps, self._stamps(1), found
        )
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

    def neighbourhood(
        self, board: np.ndarray, shape: Shape, letters: np.ndarray, swaps: bool = True, doubles: bool = False
    ):
        """Scores of single changes (cells x letters), swaps (pairs) and double changes."""
        board = np.ascontiguousarray(board, dtype=np.uint8)
        letters = np.ascontiguousarray(letters, dtype=np.uint8)
        pairs = cell_pairs(shape.cells)
        nbr, nbr_n = neighbours(shape)
        L = len(letters)
        singles = np.zeros((shape.cells, L), dtype=np.int64)
        sw = np.zeros(len(pairs) if swaps else 0, dtype=np.int64)
        db = np.zeros((len(pairs), L, L) if doubles else (0, L, L), dtype=np.int64)
        n = shape.cells * L + len(sw) + db.size
        kernels.score_changes(
            board, letters, pairs, nbr, nbr_n, self.arrays, self.points, self.stamps, self._stamps(n), singles, sw, db
        )
        return singles, sw, db


def load_boggle_dawg(words_path: str | Path, dawg_path: str | Path) -> Dawg:
    """boggle_dawg.npz verified against its manifest and built from exactly `words_path`."""
    words_path, dawg_path = Path(words_path), Path(dawg_path)
    for path, flag in ((words_path, "--words"), (dawg_path, "--dawg")):
        if not path.is_file():
            raise PuzzleError(f"{flag} {path}: no such file (build it with snakemake first)")
    words_meta = verify(words_path.with_name(WORDS_MANIFEST), "lexicon-words", [words_path.name])
    meta = verify(dawg_path.with_suffix(".json"), BOGGLE_DAWG_KIND, [dawg_path.name])
    if meta["manifest"]["settings"].get("words_sha256") != file_sha256(words_path):
        raise damaged(dawg_path, f"built from another word table than {words_path}")
    dawg = Dawg.load(dawg_path, meta)
    n_words = words_meta.get("words", 0)
    if dawg.word_length is None or (dawg.n_words and int(dawg.word_id.max()) >= n_words):
        raise damaged(dawg_path, f"not a Boggle DAWG of the {n_words} words of {words_path.name}")
    return dawg
