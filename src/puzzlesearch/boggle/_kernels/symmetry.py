"""numba kernel: canonical forms of boards under the board's symmetries (model.canonical)."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def canonical_boards(boards, perms, out):
    """out[i] = the lexicographically smallest of boards[i] moved by each permutation."""
    n = boards.shape[1]
    for i in range(boards.shape[0]):
        best = 0
        for t in range(1, perms.shape[0]):
            for k in range(n):
                x = boards[i, perms[t, k]]
                y = boards[i, perms[best, k]]
                if x != y:
                    if x < y:
                        best = t
                    break
        for k in range(n):
            out[i, k] = boards[i, perms[best, k]]
