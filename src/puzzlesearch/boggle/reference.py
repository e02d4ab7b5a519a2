"""A slow, independent reference scorer: walk every path, look words up in a Python set.

It shares nothing with the DAWG kernels (only the board model), so tests can compare
the two on random boards.
"""

from __future__ import annotations

import re

from puzzlesearch.boggle.model import DEFAULT_POINTS, LETTERS, QU, Board, neighbours

_BOGGLE_WORD = re.compile(r"^(?:[a-pr-z]|qu)+$")


def boggle_words(words) -> set[str]:
    """The words a board can hold: a-z only, 3+ letters, every q followed by u."""
    return {w for w in words if len(w) >= 3 and _BOGGLE_WORD.match(w)}


def prefixes(words) -> set[str]:
    """Every prefix of every word (the empty prefix included)."""
    return {w[:i] for w in words for i in range(len(w) + 1)}


def reference_words(board: Board, words: set[str], prefix_set: set[str] | None = None) -> set[str]:
    """Distinct words found on `board` by depth-first search over all paths."""
    if prefix_set is None:
        prefix_set = prefixes(words)
    nbr, count = neighbours(board.shape)
    faces = ["qu" if c == QU else LETTERS[c] for c in board.cells]
    found: set[str] = set()

    def walk(cell: int, text: str, used: frozenset) -> None:
        if text not in prefix_set:
            return
        if text in words:
            found.add(text)
        for k in range(count[cell]):
            nb = int(nbr[cell, k])
            if nb not in used:
                walk(nb, text + faces[nb], used | {nb})

    for start in range(len(faces)):
        walk(start, faces[start], frozenset([start]))
    return found


def reference_score(
    board: Board, words: set[str], points=DEFAULT_POINTS, prefix_set: set[str] | None = None
) -> tuple[int, int]:
    """(score, word count) of a board by brute force."""
    found = reference_words(board, words, prefix_set)
    table = list(points)
    score = sum(table[min(len(w), len(table) - 1)] for w in found)
    return score, len(found)
