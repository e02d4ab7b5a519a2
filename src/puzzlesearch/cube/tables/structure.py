"""Structural checks of a loaded cube table: what the kernels assume beyond each entry's range.

A table whose manifest was rewritten to match it passes the checksum, and entries in range
can still be wrong: a move table column that is no longer a permutation, or a distance
table that is no longer a BFS distance, makes a search endless, wrong or non-optimal. Each
check here raises the loaders' one-line error (manifest.damaged) naming the file.

What the kernels assume, and what is checked (numpy, or the numba kernel
_kernels/table_checks.py):
  move tables         every move the coordinate has is a permutation undone by its inverse
                      move (3 * face + 2 - power), -1 exactly where it has no such move: full
  conjugations        symmetry 0 is the identity, s then SYM_INV[s] gives back the entry: full
  class lookups       the representative of each class maps to it with symmetry 0, and
                      symmetry 0 fixes it (representatives, self-symmetries): full. Whether
                      every raw value is in the right class needs the conjugation of all raw
                      values (as costly as the build): not checked
  distance tables     the goal at 0 and no other 0, every neighbour within one step, a neighbour
                      one nearer unless at the goal or the cap, unreached entries closed:
                      every entry of the pair tables (numba, makes them exact BFS distances),
                      a seeded sample of the symmetry-reduced ones (141 and 112 MB: a full
                      pass is seconds) and of the optimal corner table (88 MB)
  packed mod-3 tables solved entry 0, no EMPTY entry: a seeded sample (the full tables are GBs)
  move-mask table     (next_tp1) each move's distance change is its neighbour's distance minus
                      the entry's, a neighbour one nearer unless at the goal, the goal alone 0:
                      a seeded sample (564 MB)
"""

from __future__ import annotations

import numpy as np

from puzzlesearch import manifest
from puzzlesearch.cube.model import constants as K
from puzzlesearch.cube.model.symmetry import SYM_INV, SYM_MASK, SYM_SHIFT

INVERSE_MOVE = np.array([3 * (m // 3) + 2 - m % 3 for m in range(K.N_MOVES)], dtype=np.int64)
SAMPLE = 1 << 14  # entries of a sampled check (a few ms per table)
SEED = 20260101  # the samples are the same on every load
EMPTY = 3  # a packed table's unreached 2-bit entry


def _sample(size: int, n: int = SAMPLE, always=()) -> np.ndarray:
    """Seeded sample of indices below size (every index when there are few), plus `always`."""
    if size <= n:
        return np.arange(size, dtype=np.int64)
    picked = np.random.default_rng(SEED).integers(0, size, n, dtype=np.int64)
    return np.unique(np.concatenate([picked, np.asarray(always, dtype=np.int64)]))


def move_table(path, name: str, table: np.ndarray, moves) -> None:
    """Each move of `moves` a permutation undone by its inverse move; -1 in the other columns only."""
    defined = np.zeros(K.N_MOVES, dtype=bool)
    defined[list(moves)] = True
    if (table[:, ~defined] != -1).any():
        raise manifest.damaged(path, f"array {name!r} has a move the coordinate does not have")
    cols = np.flatnonzero(defined)
    moved = table[:, cols]
    if (moved < 0).any():
        raise manifest.damaged(path, f"array {name!r} has -1 for a move the coordinate has")
    back = table[moved, INVERSE_MOVE[cols]]
    bad = np.argwhere(back != np.arange(table.shape[0])[:, None])
    if len(bad):
        c, k = bad[0]
        m = int(cols[k])
        raise manifest.damaged(
            path,
            f"array {name!r}: move {K.MOVE_NAMES[m]} of entry {c} is not undone by "
            f"{K.MOVE_NAMES[INVERSE_MOVE[m]]} (a move is not a permutation)",
        )


def conjugation(path, name: str, conj: np.ndarray) -> None:
    """Symmetry 0 the identity; conjugating by s then by its inverse gives the entry back."""
    n = conj.shape[0]
    if (conj[:, 0] != np.arange(n)).any():
        raise manifest.damaged(path, f"array {name!r}: symmetry 0 (the identity) changes an entry")
    back = conj[conj, SYM_INV[: conj.shape[1]]]
    if (back != np.arange(n)[:, None]).any():
        raise manifest.damaged(path, f"array {name!r}: a conjugation is not undone by the inverse symmetry")


def class_lookup(path, name: str, class_sym: np.ndarray, reps: np.ndarray, selfsym: np.ndarray) -> None:
    """Each class's representative maps to that class with symmetry 0, which fixes it."""
    if (class_sym[reps] != np.arange(len(reps), dtype=np.int64) << SYM_SHIFT).any():
        raise manifest.damaged(path, f"array {name!r}: a class representative is not in its class")
    if not (selfsym & 1).all():
        raise manifest.damaged(path, f"array {name!r}: the identity does not fix a class representative")


def sym_classes(path, rep: np.ndarray, classidx: np.ndarray, symidx: np.ndarray, stab: np.ndarray) -> None:
    """The optimal tables' classes file: as class_lookup (class and symmetry in two arrays)."""
    if (classidx[rep] != np.arange(len(rep))).any() or (symidx[rep] != 0).any():
        raise manifest.damaged(path, "a class representative is not in its class")
    if not (stab & 1).all():
        raise manifest.damaged(path, "the identity does not fix a class representative")


def _distance_fault(path, name: str, at: int, d: int) -> manifest.ArtifactError:
    return manifest.damaged(
        path, f"array {name!r}: entry {at} (depth {d}) disagrees with its neighbours (not a BFS distance)"
    )


def pair_distances(path, name: str, dist, move_a, move_b, n_b: int, moves, goal: int, sample: bool = False) -> None:
    """A distance table over a * n_b + b (Thistlethwaite, two-phase pair tables, the corner table).

    Every entry (sample=False: exact BFS distances), or a seeded sample of them.
    """
    from puzzlesearch.cube._kernels.table_checks import pair_distance_fault  # numba on a load of these only

    if int(dist[goal]) != 0:
        raise manifest.damaged(path, f"array {name!r}: the goal's entry {goal} is {int(dist[goal])}, not 0")
    indices = _sample(dist.size, always=(goal,)) if sample else np.zeros(0, dtype=np.int64)  # empty: every entry
    at = int(pair_distance_fault(dist, move_a, move_b, n_b, np.asarray(moves, dtype=np.int64), np.int64(goal), indices))
    if at >= 0:
        raise _distance_fault(path, name, at, int(dist[at]))


def sym_distances(path, name: str, dist, mv: tuple, class_sym, reps, t_conj, moves, cap: int) -> None:
    """A symmetry-reduced distance table over class * n_t + t (tp1_sym, tp2_sym): a seeded sample.

    mv: move tables of the raw pair (a, b) and of t, the raw pair being b * n_a + a; entries of
    cap (> 0) stand for "at least cap", so they need no nearer neighbour.
    """
    move_a, move_b, move_t = mv
    n_a, n_t = move_a.shape[0], move_t.shape[0]
    goal = int(class_sym[0] >> SYM_SHIFT) * n_t  # raw 0 and t 0: the solved cube
    if int(dist[goal]) != 0:
        raise manifest.damaged(path, f"array {name!r}: the goal's entry {goal} is {int(dist[goal])}, not 0")
    idx = _sample(dist.size, always=(goal,))
    raw = reps[idx // n_t].astype(np.int64)
    a, b, t = (raw % n_a)[:, None], (raw // n_a)[:, None], (idx % n_t)[:, None]
    ms = np.asarray(moves, dtype=np.int64)
    cs = class_sym[move_b[b, ms].astype(np.int64) * n_a + move_a[a, ms]].astype(np.int64)
    e = dist[(cs >> SYM_SHIFT) * n_t + t_conj[move_t[t, ms], cs & SYM_MASK]].astype(np.int64)
    d = dist[idx].astype(np.int64)[:, None]
    top = cap if cap > 0 else np.iinfo(np.int64).max
    bad = np.where(d >= 0, (e < 0) | (np.abs(e - d) > 1), e >= 0).any(axis=1)
    bad |= ((d > 0) & (d < top)).ravel() & ~(e == d - 1).any(axis=1)
    bad |= (d == 0).ravel() & (idx != goal)
    if bad.any():
        at = int(idx[np.argmax(bad)])
        raise _distance_fault(path, name, at, int(dist[at]))


def packed_entries(path, name: str, table: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """The 2-bit entries at `indices` of a packed table."""
    return (table[indices >> 2] >> ((indices & 3) << 1).astype(np.uint8)) & 3


def packed_distances(path, name: str, table: np.ndarray, solved: int, entries: np.ndarray) -> None:
    """A packed mod-3 table (optimal big and coset tables): the solved entry 0, no EMPTY entry in a sample.

    entries: the indices that are positions (a seeded sample is taken from them); a full
    pass over a GB table would add about as much as its checksum, so it is sampled.
    """
    if int(packed_entries(path, name, table, np.array([solved]))[0]) != 0:
        raise manifest.damaged(path, f"array {name!r}: the solved entry is not 0")
    if (packed_entries(path, name, table, entries) == EMPTY).any():
        raise manifest.damaged(path, f"array {name!r}: an entry was never reached (not a finished BFS)")


def sample_of(size: int) -> np.ndarray:
    """A seeded sample of entry indices below size."""
    return _sample(size)


def next_entries(path, name: str, table, mv: tuple, class_sym, reps, t_conj) -> None:
    """The phase-1 move-mask table next_tp1 (_kernels/phase_next.py): a seeded sample.

    Each sampled entry's per-move distance change must be its neighbour's distance (read from
    the table itself) minus its own, a non-zero distance needs a neighbour one nearer and only
    the goal is 0: together the BFS shape of the distances and masks that agree with them.
    mv: the move tables of flip, E slice and twist (the raw pair slice * n_flip + flip).
    """
    from puzzlesearch.cube._kernels.phase_next import AWAY_BIT, N_POWERS, NEXT_DIST_SHIFT, NIBBLE_BITS, NIBBLE_MASK

    move_a, move_b, move_t = mv
    n_a, n_t = move_a.shape[0], move_t.shape[0]
    goal = int(class_sym[0] >> SYM_SHIFT) * n_t
    idx = _sample(table.size, always=(goal,))
    raw = reps[idx // n_t].astype(np.int64)
    a, b, t = (raw % n_a)[:, None], (raw // n_a)[:, None], (idx % n_t)[:, None]
    ms = np.arange(K.N_MOVES, dtype=np.int64)
    cs = class_sym[move_b[b, ms].astype(np.int64) * n_a + move_a[a, ms]].astype(np.int64)
    child = table[(cs >> SYM_SHIFT) * n_t + t_conj[move_t[t, ms], cs & SYM_MASK]].astype(np.int64) >> NEXT_DIST_SHIFT
    e = table[idx].astype(np.int64)[:, None]
    d = e >> NEXT_DIST_SHIFT
    nib = (e >> (NIBBLE_BITS * (ms // N_POWERS))) & NIBBLE_MASK
    delta = ((nib >> (ms % N_POWERS)) & 1) + (nib >> AWAY_BIT) - 1
    bad = (child - d != delta).any(axis=1)
    bad |= (d > 0).ravel() & ~(delta == -1).any(axis=1)
    bad |= (d == 0).ravel() & (idx != goal)
    if bad.any():
        at = int(idx[np.argmax(bad)])
        raise manifest.damaged(
            path, f"array {name!r}: entry {at} disagrees with its neighbours (not BFS distances and their moves)"
        )
