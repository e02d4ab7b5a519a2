"""numba kernel of the optimal solver's bound table: exact distances near solved, 4 bits an entry.

The bound table holds, per entry of the 2-bit mod-3 table (optimal_kernels), a distance that
reads as a plain lower bound without the parent's distance: the exact distance for every
entry within near_depth of solved, else the smallest distance above near_depth with the
entry's residue mod 3 (full: 9, 10 or 11; exact but for the 0.3% of entries at 12 and 13).
This is what a look-up needs when the position is not one move from its parent's (the
inverse position, or a turn put in front): the mod-3 chain cannot be used there. Entry i
sits in byte i >> 1, low nibble first.

The near entries are found level by level from solved: level d+1 is every neighbour of
level d whose mod-3 entry is (d+1) % 3 (a neighbour is at d-1, d or d+1), with its twins
under the class's self-symmetries, as in optimal_kernels.prune_pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.cube.optimal_kernels import N_MOVES, get_entry

UNKNOWN = 15  # a bound-table nibble not yet written


@njit(cache=True, inline="always")
def get_bound(out, i):
    """Entry i of a bound table (4 bits)."""
    return (out[i >> 1] >> ((i & 1) << 2)) & 15


@njit(cache=True, inline="always")
def _is_near(out, i):
    return get_bound(out, i) != UNKNOWN


@njit(cache=True, inline="always")
def _set(out, i, v):
    sh = (i & 1) << 2
    out[i >> 1] = (out[i >> 1] & np.uint8(~(15 << sh) & 255)) | np.uint8(v << sh)


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
def fill_bounds(table, out, sym_data, coord_moves, n_flip, near_depth, far):
    """Write every entry of `out` (nibbles, all UNKNOWN): the exact distance up to near_depth,
    else far[entry mod 3]; the number of entries per near level."""
    rep, classidx, symidx, stab, twist_conj = sym_data
    move_flip, move_slice, move_twist = coord_moves
    n_twist = move_twist.shape[0]
    n_sym = twist_conj.shape[1]
    n_entries = rep.shape[0] * n_twist
    counts = np.zeros(near_depth + 1, dtype=np.int64)
    cur = np.empty(1024, dtype=np.int64)
    nc = 0
    c0 = classidx[0]
    t0 = twist_conj[0, symidx[0]]
    for s in range(n_sym):
        if s == 0 or (stab[c0] >> s) & 1:
            i = c0 * n_twist + twist_conj[t0, s]
            if not _is_near(out, i):
                _set(out, i, 0)
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
                            _set(out, i, d + 1)
                            nxt, nn = _push(nxt, nn, i)
        counts[d + 1] = nn
        cur, nc = nxt, nn
    for i in range(n_entries):
        if get_bound(out, i) == UNKNOWN:
            _set(out, i, far[get_entry(table, i)])
    return counts
