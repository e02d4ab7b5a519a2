"""Exhaustive neighbourhood scan (seed 002's "double deviations"): certify a local optimum.

Free letters (`scan_board`): every board at Hamming distance 1 (one cell changed to any
other letter) and, when asked, distance 2 (two cells changed) and every swap of two cells
is scored. Dice (`scan_state`): every arrangement one and two moves away (turn a die,
swap two dice). The board is a local optimum of that neighbourhood when none scores higher.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from puzzlesearch import kinds
from puzzlesearch.boggle.model import LETTERS, N_LETTERS, Board, canonical, cell_pairs, format_cells
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.errors import PuzzleError

SCAN_KIND, SCAN_SUMMARY_KIND = kinds.BOGGLE_SCAN, kinds.BOGGLE_SCAN_SUMMARY  # result kinds of scan.parquet, scan.json
SCAN_SCHEMA = {
    "center": pl.Utf8,
    "center_score": pl.Int64,
    "board": pl.Utf8,
    "score": pl.Int64,
    "distance": pl.Int8,
    "move": pl.Utf8,
}


@dataclass
class ScanResult:
    """What the scan of one board found."""

    board: str
    score: int
    neighbours: int  # boards scored
    best_score: int  # best neighbour score
    better: int  # neighbours scoring more than the board
    equal: int  # neighbours (other boards) scoring the same
    top: pl.DataFrame  # the best distinct neighbours

    @property
    def local_optimum(self) -> bool:
        return self.better == 0

    def summary(self) -> dict:
        return {
            "board": self.board,
            "score": self.score,
            "neighbours": self.neighbours,
            "best_neighbour_score": self.best_score,
            "better": self.better,
            "equal": self.equal,
            "local_optimum": self.local_optimum,
        }


def _moves(board: np.ndarray, singles, swaps, doubles, pairs):
    """Flat (score, kind, i, a, j, b) arrays over all real neighbours."""
    n, L = singles.shape
    out = []
    ii, aa = np.meshgrid(np.arange(n), np.arange(L), indexing="ij")
    real = aa != board[ii]
    out.append((singles[real], np.full(real.sum(), 1), ii[real], aa[real], ii[real] * 0 - 1, aa[real] * 0 - 1))
    if len(swaps):
        real = board[pairs[:, 0]] != board[pairs[:, 1]]
        p = np.flatnonzero(real)
        out.append((swaps[p], np.full(len(p), 0), pairs[p, 0], p * 0 - 1, pairs[p, 1], p * 0 - 1))
    if doubles.size:
        pp, a, b = np.nonzero(doubles >= 0)
        out.append((doubles[pp, a, b], np.full(len(pp), 2), pairs[pp, 0], a, pairs[pp, 1], b))
    return [np.concatenate(col) for col in zip(*out)]


def _move_text(board, kind, i, a, j, b) -> str:
    if kind == 0:
        return f"swap {i},{j}"
    text = f"{i}:{LETTERS[board[i]]}>{LETTERS[a]}"
    if kind == 2:
        text += f" {j}:{LETTERS[board[j]]}>{LETTERS[b]}"
    return text


def scan_board(scorer: Scorer, board: Board, distance: int = 2, swaps: bool = True, keep: int = 50) -> ScanResult:
    """Score the whole neighbourhood of `board`; keep the best `keep` distinct neighbours."""
    if distance not in (1, 2):
        raise PuzzleError(f"scan distance {distance}: must be 1 or 2")
    shape = board.shape
    cells = board.array
    score = scorer.score(board)
    letters = np.arange(N_LETTERS, dtype=np.uint8)
    pairs = cell_pairs(shape.cells)
    singles, sw, db = scorer.neighbourhood(cells, shape, letters, swaps=swaps, doubles=distance == 2)
    scores, kinds, ii, aa, jj, bb = _moves(cells, singles, sw, db, pairs)
    center_key = canonical(cells[None, :], shape)[0].tobytes()
    order = np.argsort(-scores, kind="stable")
    rows, seen = [], {center_key}
    better = int((scores > score).sum())
    equal = 0  # counted in full only for a local optimum
    for t in order:
        if len(rows) >= keep and (scores[t] < score or better):
            break
        b = cells.copy()
        kind, i, j = int(kinds[t]), int(ii[t]), int(jj[t])
        if kind == 0:
            b[i], b[j] = b[j], b[i]
        else:
            b[i] = aa[t]
            if kind == 2:
                b[j] = bb[t]
        key = canonical(b[None, :], shape)[0].tobytes()
        if key in seen:
            continue
        seen.add(key)
        if scores[t] == score:
            equal += 1
        if len(rows) < keep:
            rows.append(
                {
                    "center": str(board),
                    "center_score": score,
                    "board": format_cells(b),
                    "score": int(scores[t]),
                    "distance": 1 if kind == 1 else 2,
                    "move": _move_text(cells, kind, i, int(aa[t]), j, int(bb[t])),
                }
            )
    top = pl.DataFrame(rows, schema=SCAN_SCHEMA)
    return ScanResult(str(board), score, int(len(scores)), int(scores.max()) if len(scores) else -1, better, equal, top)


def scan_state(scorer: Scorer, space, state, distance: int = 2, keep: int = 50) -> ScanResult:
    """Score every distinct board one (and two) moves from a search state (e.g. dice)."""
    if distance not in (1, 2):
        raise PuzzleError(f"scan distance {distance}: must be 1 or 2")
    shape = space.shape
    state = np.asarray(state, dtype=np.uint8)[None, :]
    center = space.letters(state)[0]
    score = int(scorer.scores(center[None, :], shape)[0])
    levels = [space.neighbours(state)]
    if distance == 2:
        levels.append(space.neighbours(levels[0]))
    boards = np.concatenate([space.letters(lv) for lv in levels])
    dist = np.concatenate([np.full(len(lv), d + 1, dtype=np.int8) for d, lv in enumerate(levels)])
    keys = [row.tobytes() for row in canonical(boards, shape)]
    center_key = canonical(center[None, :], shape)[0].tobytes()
    center_text = format_cells(np.frombuffer(center_key, dtype=np.uint8))
    first: dict[bytes, int] = {}
    for i, k in enumerate(keys):
        if k != center_key and k not in first:
            first[k] = i
    pick = np.fromiter(first.values(), dtype=np.int64, count=len(first))
    scores = scorer.scores(boards[pick], shape) if len(pick) else np.zeros(0, dtype=np.int64)
    order = np.argsort(-scores, kind="stable")[:keep]
    rows = [
        {
            "center": center_text,
            "center_score": score,
            "board": format_cells(boards[pick[t]]),
            "score": int(scores[t]),
            "distance": int(dist[pick[t]]),
            "move": space.mode,
        }
        for t in order
    ]
    return ScanResult(
        center_text,
        score,
        int(len(pick)),
        int(scores.max()) if len(scores) else -1,
        int((scores > score).sum()),
        int((scores == score).sum()),
        pl.DataFrame(rows, schema=SCAN_SCHEMA),
    )
