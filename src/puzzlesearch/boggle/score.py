"""Scoring boards for Python callers: a Scorer holds a lexicon's Boggle trie and stamps.

The lexicon artifact is the minimal Boggle DAWG; the Scorer expands it into the trie the
kernels walk (boggle/trie.py, built in memory in about 0.02-0.06 s for ENABLE2K).
Scores are int64 everywhere (kernels, tables), so any points table the schema allows
(entries up to 10**11, over at most ~10**7 words) adds up without overflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from puzzlesearch import kinds
from puzzlesearch.boggle._kernels import scorer as kernels
from puzzlesearch.boggle._kernels.scorer import TrieArrays
from puzzlesearch.boggle.model import DEFAULT_POINTS, N_LETTERS, Board, Shape, cell_pairs, neighbour_masks, points_table
from puzzlesearch.boggle.trie import BoggleTrie
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.artifacts import WORDS_MANIFEST, read_words, words_settings
from puzzlesearch.lexicon.dawg import Dawg
from puzzlesearch.manifest import damaged, file_sha256, verify

BOGGLE_DAWG_KIND = kinds.BOGGLE_DAWG

MAX_CHANGED = 4  # score_deviations: boards with more changed cells are scored in full
RUN_CHANGED = 4  # score_run: a board more than this many cells from its base starts a new base (measured, see below)
STAMP_LIMIT = 2**31 - 2**24  # reset the stamps (int32) well before they overflow


@dataclass(frozen=True, order=True)
class WordScore:
    """One word found on a board and its points."""

    word: str
    points: int


class Scorer:
    """Scores boards of any shape against one Boggle DAWG (walked as its trie) and points table."""

    def __init__(self, dawg: Dawg, points=DEFAULT_POINTS, words=None):
        if dawg.word_length is None:
            raise PuzzleError("the scorer needs a Boggle DAWG (boggle_dawg.npz, with word_length)")
        self.dawg = dawg
        self.words = words  # optional list: word_id -> real word (for listing)
        self.lexicon: dict = {}  # the word table's source sha256 and options (recorded in result tables)
        max_len = int(dawg.word_length.max()) if dawg.n_words else 3
        self.points = points_table(points, max(max_len, 8))
        self.trie = BoggleTrie.from_dawg(dawg)
        self.arrays = TrieArrays(self.trie.nodes, self.trie.word_table(dawg.word_length, len(self.points)), self.points)
        self.stamp = 1

    @classmethod
    def for_lexicon(cls, lex, points=DEFAULT_POINTS) -> Scorer:
        """A scorer over an opened Lexicon's Boggle DAWG (words listed from its word table)."""
        scorer = cls(lex.boggle_dawg, points, words=lex.words["word"].to_list())
        scorer.lexicon = lex.stats["manifest"]["settings"]
        return scorer

    @classmethod
    def from_files(cls, words_path: str | Path, dawg_path: str | Path, points=DEFAULT_POINTS) -> Scorer:
        """A scorer over explicit pipeline files (words.parquet, boggle_dawg.npz), each verified."""
        scorer = cls(
            load_boggle_dawg(words_path, dawg_path), points, words=read_words(words_path, ["word"])["word"].to_list()
        )
        scorer.lexicon = words_settings(words_path)
        return scorer

    def _stamps(self, n: int) -> int:
        """Reserve n stamp values; returns the first."""
        if self.stamp + n >= STAMP_LIMIT:
            self.arrays.words[:, 0] = 0
            self.stamp = 1
        first = self.stamp
        self.stamp += n
        return first

    def score(self, board: Board) -> int:
        """Points of one board."""
        return int(self.score_array(board.array[None, :], board.shape)[0][0])

    @staticmethod
    def _checked(boards: np.ndarray, shape: Shape) -> np.ndarray:
        """Boards as a contiguous 2-D uint8 array of the shape, letters 0..25 (an error otherwise)."""
        boards = np.ascontiguousarray(boards, dtype=np.uint8)
        if boards.ndim != 2 or boards.shape[1] != shape.cells:
            raise PuzzleError(f"boards array {boards.shape} does not hold {shape} boards")
        if boards.size and int(boards.max()) >= N_LETTERS:
            raise PuzzleError(f"boards array holds letter index {int(boards.max())}; letters are 0..{N_LETTERS - 1}")
        return boards

    def score_array(self, boards: np.ndarray, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
        """(scores, word counts) of a 2-D uint8 array of boards of one shape."""
        boards = self._checked(boards, shape)
        scores = np.zeros(len(boards), dtype=np.int64)
        counts = np.zeros(len(boards), dtype=np.int32)
        kernels.score_batch(boards, neighbour_masks(shape), self.arrays, self._stamps(len(boards)), scores, counts)
        return scores, counts

    def scores(self, boards: np.ndarray, shape: Shape) -> np.ndarray:
        """Scores of a 2-D uint8 array of boards."""
        return self.score_array(boards, shape)[0]

    def score_deviations(
        self, base: np.ndarray, boards: np.ndarray, shape: Shape, max_changed: int = MAX_CHANGED
    ) -> tuple[np.ndarray, np.ndarray]:
        """(scores, word counts) of boards near one `base` board, scored incrementally (exact)."""
        base = self._checked(np.asarray(base)[None, :], shape)
        return self.score_near(base, np.zeros(len(boards), dtype=np.int64), boards, shape, max_changed)

    def score_run(self, boards: np.ndarray, shape: Shape, max_changed: int = RUN_CHANGED) -> np.ndarray:
        """Scores of boards listed so that neighbours are alike (a proof's leaves), scored incrementally (exact).

        Each board is scored against the last board chosen as a base (kernels.run_bases):
        Measured on two 4x4 classes' leaves (ENABLE2K), time against scoring each in full at
        2, 3, 4 cells from the base: 418k leaves 0.38, 0.40, 0.43; 400k leaves of a class
        whose neighbouring leaves differ more 0.88, 0.74, 0.67.
        """
        boards = self._checked(boards, shape)
        base_at = np.zeros(len(boards), dtype=np.int64)
        base_of = np.zeros(len(boards), dtype=np.int64)
        n_bases = kernels.run_bases(boards, max_changed, base_at, base_of)
        return self.score_near(boards[base_at[:n_bases]], base_of, boards, shape, max_changed)[0]

    def score_near(
        self, bases: np.ndarray, base_of: np.ndarray, boards: np.ndarray, shape: Shape, max_changed: int = MAX_CHANGED
    ) -> tuple[np.ndarray, np.ndarray]:
        """(scores, word counts) of boards[i] near bases[base_of[i]], scored incrementally (exact).

        Boards are grouped by base and by the cells where they differ from it; per group
        the words on paths avoiding those cells are found once, and each board walks only
        the paths through its changed cells (kernels.score_deviations). Boards with more
        than `max_changed` changed cells are scored in full.
        """
        bases = self._checked(bases, shape)
        boards = self._checked(boards, shape)
        base_of = np.ascontiguousarray(base_of, dtype=np.int64)
        if len(base_of) != len(boards) or (len(base_of) and not 0 <= base_of.min() <= base_of.max() < len(bases)):
            raise PuzzleError(f"base_of: {len(base_of)} indices into {len(bases)} bases for {len(boards)} boards")
        differ = boards != bases[base_of]
        changed = (differ * (np.int64(1) << np.arange(shape.cells, dtype=np.int64))[None, :]).sum(axis=1)
        near = np.flatnonzero(differ.sum(axis=1) <= max_changed)
        scores = np.zeros(len(boards), dtype=np.int64)
        counts = np.zeros(len(boards), dtype=np.int32)
        if len(near) < len(boards):
            far = np.setdiff1d(np.arange(len(boards)), near)
            scores[far], counts[far] = self.score_array(boards[far], shape)
        order = near[np.lexsort((changed[near], base_of[near]))]
        first = self._stamps(3 * len(boards) + 64)  # boards + at most 2 per group; resets near the limit
        kernels.score_deviations(
            bases, base_of, boards, order, changed, neighbour_masks(shape), self.arrays, first, scores, counts
        )
        return scores, counts

    def ranks(self, board: Board) -> tuple[int, np.ndarray]:
        """(score, DAWG ranks of the distinct words) of one board."""
        found = np.zeros(max(self.dawg.n_words, 1), dtype=np.int64)
        score, n = kernels.score_words(board.array, neighbour_masks(board.shape), self.arrays, self._stamps(1), found)
        return int(score), np.sort(self.trie.rank[found[:n]])

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
        """Scores of single changes (cells x letters), swaps (pairs) and double changes.

        singles[i, a]    board with cell i set to letters[a]
        swaps[p]         board with cells pairs[p] swapped (when `swaps`)
        doubles[p, a, b] board with cells pairs[p] set to letters[a], letters[b] (when
                         `doubles`); -1 where a letter equals the board's own (not distance 2).
        All are scored incrementally around the board (score_deviations).
        """
        board = self._checked(np.asarray(board)[None, :], shape)[0]
        letters = np.ascontiguousarray(letters, dtype=np.uint8)
        pairs = cell_pairs(shape.cells)
        n, L, P = shape.cells, len(letters), len(pairs)
        single = np.repeat(board[None, :], n * L, axis=0).reshape(n, L, n)
        single[np.arange(n), :, np.arange(n)] = letters[None, :]
        parts = [single.reshape(-1, n)]
        if swaps:
            sw = np.repeat(board[None, :], P, axis=0)
            rows = np.arange(P)
            sw[rows, pairs[:, 0]], sw[rows, pairs[:, 1]] = board[pairs[:, 1]], board[pairs[:, 0]]
            parts.append(sw)
        real = np.zeros((P if doubles else 0, L, L), dtype=bool)
        if doubles:
            real = (letters[None, :, None] != board[pairs[:, 0]][:, None, None]) & (
                letters[None, None, :] != board[pairs[:, 1]][:, None, None]
            )
            p, a, b = np.nonzero(real)
            db = np.repeat(board[None, :], len(p), axis=0)
            db[np.arange(len(p)), pairs[p, 0]] = letters[a]
            db[np.arange(len(p)), pairs[p, 1]] = letters[b]
            parts.append(db)
        scores = self.score_deviations(board, np.concatenate(parts), shape)[0]
        singles = scores[: n * L].reshape(n, L)
        sw_scores = scores[n * L : n * L + P] if swaps else np.zeros(0, dtype=np.int64)
        dbl = np.full(real.shape, -1, dtype=np.int64)
        dbl[real] = scores[n * L + len(sw_scores) :]
        return singles, sw_scores, dbl


def load_boggle_dawg(words_path: str | Path, dawg_path: str | Path) -> Dawg:
    """boggle_dawg.npz verified against its manifest and built from exactly `words_path`."""
    words_path, dawg_path = Path(words_path), Path(dawg_path)
    for path, flag in ((words_path, "--words"), (dawg_path, "--dawg")):
        if not path.is_file():
            raise PuzzleError(f"{flag} {path}: no such file (build it with snakemake first)")
    words_meta = verify(words_path.with_name(WORDS_MANIFEST), kinds.LEXICON_WORDS, [words_path.name])
    meta = verify(dawg_path.with_suffix(".json"), BOGGLE_DAWG_KIND, [dawg_path.name])
    if meta["manifest"]["settings"].get("words_sha256") != file_sha256(words_path):
        raise damaged(dawg_path, f"built from another word table than {words_path}")
    dawg = Dawg.load(dawg_path, meta)
    n_words = words_meta.get("words", 0)
    if dawg.word_length is None or (dawg.n_words and int(dawg.word_id.max()) >= n_words):
        raise damaged(dawg_path, f"not a Boggle DAWG of the {n_words} words of {words_path.name}")
    return dawg
