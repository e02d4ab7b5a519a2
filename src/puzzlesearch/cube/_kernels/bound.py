"""numba kernel of the optimal solver's bound table: mark the entries near solved.

The bound table is the 2-bit mod-3 big table (_kernels/big_table.py) with every entry at distance
<= near_depth overwritten by 3. What is left reads as a plain lower bound, without the
parent's distance: 0 -> 9 (9 or 12), 1 -> 10 (10 or 13), 2 -> 11, 3 -> 0 (near solved).
This is what a look-up of the inverse position needs: its distance is not within one move
of its parent's, so the mod-3 chain cannot be used there.

The near entries are found level by level from solved: level d+1 is every neighbour of
level d whose mod-3 entry is (d+1) % 3 (a neighbour is at d-1, d or d+1), with its twins
under the class's self-symmetries, as in _kernels/big_table.py prune_pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube._kernels.common import EMPTY, get_entry
from puzzlesearch.cube.model.constants import N_MOVES

NEAR = EMPTY  # a bound-table entry near solved (lower bound 0): the 2 bits of an empty entry


@njit(cache=True, inline="always")
def _is_near(out, i):
    return ((out[i >> 2] >> ((i & 3) << 1)) & 3) == NEAR


@njit(cache=True, inline="always")
def _set_near(out, i):
    out[i >> 2] |= np.uint8(NEAR << ((i & 3) << 1))


@njit(cache=True)
def _push(buf, n, x):
    """Append x to buf (grown by doubling); returns (buf, n)."""
    if n == buf.shape[0]:
        bigger = np.empty(2 * buf.shape[0], dtype=buf.dtype)
        bigger[:n] = buf[:n]
        buf = bigger
    buf[n] = x
    return buf, n + 1


@njit(cache=True)
def mark_near(table, out, sym_data, coord_moves, n_flip, near_depth):
    """Set every entry of `out` (a copy of `table`) at distance <= near_depth to NEAR; counts per level."""
    rep, classidx, symidx, stab, twist_conj = sym_data
    move_flip, move_slice, move_twist = coord_moves
    n_twist = move_twist.shape[0]
    n_sym = twist_conj.shape[1]
    counts = np.zeros(near_depth + 1, dtype=np.int64)
    cur = np.empty(1024, dtype=np.int64)
    nc = 0
    c0 = classidx[0]
    t0 = twist_conj[0, symidx[0]]
    for s in range(n_sym):
        if s == 0 or (stab[c0] >> s) & 1:
            i = c0 * n_twist + twist_conj[t0, s]
            if not _is_near(out, i):
                _set_near(out, i)
                cur, nc = _push(cur, nc, i)
    counts[0] = nc
    for d in range(near_depth):
        want = (d + 1) % 3
        nxt = np.empty(max(1024, 16 * nc), dtype=np.int64)
        nn = 0
        for k in range(nc):
            c, t = cur[k] // n_twist, cur[k] % n_twist
            fs = rep[c]
            fl, sl = fs % n_flip, fs // n_flip
            for m in range(N_MOVES):
                fs2 = move_slice[sl, m] * n_flip + move_flip[fl, m]
                c2, s2 = classidx[fs2], symidx[fs2]
                t2 = twist_conj[move_twist[t, m], s2]
                base2 = c2 * n_twist
                if get_entry(table, base2 + t2) != want or _is_near(out, base2 + t2):
                    continue
                st = stab[c2]
                for s in range(n_sym):
                    if s == 0 or (st >> s) & 1:
                        i = base2 + twist_conj[t2, s]
                        if not _is_near(out, i):
                            _set_near(out, i)
                            nxt, nn = _push(nxt, nn, i)
        counts[d + 1] = nn
        cur, nc = nxt, nn
    return counts
