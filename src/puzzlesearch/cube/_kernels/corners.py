"""numba kernel of the optimal solver's corner table: a BFS over (corner permutation, twist).

The table holds the exact distance to solved of every corner state in the corner group
(one byte an entry, UNSET = not reached yet); index = cperm * n_twist + twist. The move set
is closed under inverses, so a level can be filled forward (expand the last level) or
backward (test each unset entry for a neighbour on the last level), whichever scans less.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube.model.constants import N_MOVES

UNSET = 255
MAX_LEVELS = 32


@njit(cache=True)
def corner_bfs(move_cperm, move_twist, table):
    """Fill `table` (uint8, n_cperm * n_twist) with exact distances; returns entries per depth."""
    n_twist = move_twist.shape[0]
    n = table.shape[0]
    table[:] = UNSET
    table[0] = 0
    counts = np.zeros(MAX_LEVELS, dtype=np.int64)
    counts[0] = 1
    filled, depth = 1, 0
    while filled < n and depth + 1 < MAX_LEVELS:
        backward = 2 * filled > n
        new = 0
        nxt = np.uint8(depth + 1)
        for i in range(n):
            v = table[i]
            if backward:
                if v != UNSET:
                    continue
                c, t = i // n_twist, i % n_twist
                for m in range(N_MOVES):
                    if table[move_cperm[c, m] * n_twist + move_twist[t, m]] == depth:
                        table[i] = nxt
                        new += 1
                        break
            elif v == depth:
                c, t = i // n_twist, i % n_twist
                for m in range(N_MOVES):
                    j = move_cperm[c, m] * n_twist + move_twist[t, m]
                    if table[j] == UNSET:
                        table[j] = nxt
                        new += 1
        if new == 0:
            break
        depth += 1
        counts[depth] = new
        filled += new
    return counts[: depth + 1].copy()
