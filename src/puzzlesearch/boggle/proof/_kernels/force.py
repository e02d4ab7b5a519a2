"""numba kernels: force/merge branch and bound over orderly trees in the arena (arena.py).

Cells are forced in split order. The root of a tree whose positions < L are forced
has its choice children at positions >= L, so the one for position L (if any) comes
first. Forcing position L to letter choice j gives the tree of the sub-class:

    merge(child_j of that choice node, the root's other children, the root's points)

where merging two sum nodes adds their points and merges their children lists (by
position); two choice nodes of one cell merge letter by letter (a letter only one side
has is shared, not copied). Only the nodes on paths both trees share are new, written
to the arena above a mark that is reset once the sub-class is done. The new root's
bound (sum = points + children, choice = max) is the merged bound: tighter than the
stack bound below because a cell's choice nodes from different words now share one max.

`search` forces depth-first while a sub-class's bound is at least `switch_score` and
more than `switch_cells` cells are unforced; below that it runs `orderly_bound`, the
stack-based depth-first bound over the current tree (one stack of pending choice nodes
per position: forcing position L to j replaces each of its choice nodes by child j,
banks that child's points and pushes its choice children). Before merging, `force_cap`
(the parts' bounds summed, an upper bound of the merged one) is checked: below
min_score the sub-class is dropped, below `switch_score` it is bounded by the stacks
of the unmerged tree (the merged one would go to the stacks too: a looser bound and
more visits, but no copying; measured 7% less search time on 4x4 classes, 12% on 3x4).
`orderly_bound` sums a letter's bound before pushing anything (most visits are
pruned). A merge frame that opens prefetches the children both sides share, so that their
loads overlap instead of following one another (5% less CPU on three 4x4 classes; the same
for the stack entries gained nothing). Both write every board
whose bound is >= min_score (its letter choices by position) to `Found`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzlesearch.bits import lowest_bit as _lowest_bit
from puzzlesearch.bits import popcount as _popcount
from puzzlesearch.bits import prefetch as _prefetch
from puzzlesearch.boggle.proof._kernels.arena import (
    BOUND,
    CAPPED,
    CHOICE_HEADER,
    FULL,
    LIVE,
    SHARED_LEAVES,
    SUM_HEADER,
    TOP,
    alloc,
    child_for,
    count_of,
    leaf,
    letters_of,
    mask_of,
    points_of,
    pos_of,
    set_choice,
    set_sum,
)

SUM, CHOICE = 0, 1
PUSHED = -10  # _start_*: a frame was pushed (its node is not finished yet)
# outcomes of a search
DONE, VISIT_CAP, ARENA_FULL, STACK_FULL, PAUSED = 0, 1, 2, 3, 4


class Work(NamedTuple):
    """Scratch arrays of the merge frames, the bound stacks and the force levels."""

    # merge frames (depth <= 2 * positions + 2)
    m_kind: np.ndarray
    m_out: np.ndarray
    m_a: np.ndarray
    m_b: np.ndarray  # sum frame: offset of b's children list; choice frame: b's node
    m_nb: np.ndarray
    m_ia: np.ndarray
    m_ib: np.ndarray
    m_oi: np.ndarray
    m_acc: np.ndarray
    m_bits: np.ndarray
    # orderly bound: position p's stack is stack[p * room : (p + 1) * room]
    stack: np.ndarray  # int32
    top: np.ndarray
    sums: np.ndarray
    saved_top: np.ndarray  # (positions + 1, positions)
    saved_sums: np.ndarray
    base: np.ndarray
    next_j: np.ndarray
    end_j: np.ndarray
    chosen: np.ndarray  # letter choice by position of the current sub-class
    rest: np.ndarray  # by level: its points plus the pending bounds of the later positions
    # force levels
    roots: np.ndarray
    mark_top: np.ndarray
    mark_live: np.ndarray
    level_j: np.ndarray
    at: np.ndarray  # [the force level a PAUSED search continues at]
    stack_at: np.ndarray  # [level0, level] of the stack bound it continues first (level0 -1: none)


class Limits(NamedTuple):
    """The scalar settings of one search (all int64, so the kernel compiles once)."""

    min_score: int  # boards below it are dropped
    switch_score: int  # sub-classes with a bound below it go to the stack bound, not forced
    switch_cells: int  # ... and so do those with at most this many cells unforced
    max_live: int  # live arena nodes a force may reach (more: CAPPED)
    max_visits: int  # sub-classes visited before VISIT_CAP
    pause_visits: int  # sub-classes visited before PAUSED (the search continues with `resume`)


class Found(NamedTuple):
    """Boards whose bound reaches min_score: letter choices by position, and the bound."""

    choices: np.ndarray  # int8[capacity, positions]
    bounds: np.ndarray  # int64[capacity]


def new_work(positions: int, room: int) -> Work:
    """Scratch arrays for trees of `positions` cells; `room` entries per bound stack."""
    depth = 2 * positions + 4
    frames = [np.zeros(depth, dtype=np.int64) for _ in range(10)]
    levels = positions + 1
    return Work(
        *frames,
        np.zeros(positions * room, dtype=np.int32),
        np.zeros(positions, dtype=np.int64),
        np.zeros(positions, dtype=np.int64),
        np.zeros((levels, positions), dtype=np.int64),
        np.zeros((levels, positions), dtype=np.int64),
        *[np.zeros(levels, dtype=np.int64) for _ in range(5)],
        *[np.zeros(levels, dtype=np.int64) for _ in range(4)],
        np.zeros(1, dtype=np.int64),
        np.full(2, -1, dtype=np.int64),
    )


def grown_work(w: Work, room: int) -> Work:
    """The same scratch with `room` entries per bound stack: the stacks' entries and marks move with them."""
    positions = w.top.shape[0]
    old = w.stack.shape[0] // positions
    shift = np.arange(positions, dtype=np.int64) * (room - old)  # position p's stack starts p * room
    stack = np.zeros(positions * room, dtype=np.int32)
    for p in range(positions):
        stack[p * room : p * room + old] = w.stack[p * old : (p + 1) * old]
    return w._replace(stack=stack, top=w.top + shift, saved_top=w.saved_top + shift[None, :])


# ---------------------------------------------------------------- merge


@njit(cache=True, inline="always")
def _interleave(mem, bits, mine, ia, ib, oi):
    """Write two disjoint children lists (bit sets `mine` and bits ^ mine, lists at ia and ib) in bit order at oi."""
    while bits:
        low = bits & -bits
        bits ^= low
        if mine & low:
            mem[oi] = mem[ia]
            ia += 1
        else:
            mem[oi] = mem[ib]
            ib += 1
        oi += 1


@njit(cache=True, inline="always")
def _push_frame(w, d, kind, o, a, b, nb, bits, acc):
    """Merge frame d: node o being written from a and b (sum: b's children list and position set nb)."""
    w.m_kind[d] = kind
    w.m_out[d] = o
    w.m_a[d] = a
    w.m_b[d] = b
    w.m_nb[d] = nb
    w.m_ia[d] = 0
    w.m_ib[d] = 0
    w.m_oi[d] = 0
    w.m_acc[d] = acc
    w.m_bits[d] = bits


@njit(cache=True, inline="always")
def _start_sum(mem, state, a, bk, mb, b_bound, bp, max_live, w, d):
    """Open the merge of sum node a with another's (children at bk, position set mb, bound, points).

    Returns a finished node (when no position is shared, or a shared leaf), PUSHED (frame d
    holds it) or FULL / CAPPED. The bound is exact without reading unshared children:
    bound(a) + bound(b), less the shared children's bounds, plus their merges' bounds.
    """
    ma = mask_of(mem, a)
    m = ma | mb
    points = points_of(mem, a) + bp
    if m == 0 and 1 <= points <= SHARED_LEAVES:
        return leaf(points)
    o = alloc(mem, state, SUM_HEADER + _popcount(m), max_live)
    if o < 0:
        return o
    set_sum(mem, o, points, m)
    acc = np.int64(mem[a + BOUND]) + b_bound
    if ma & mb == 0:  # interleave the two children lists
        _interleave(mem, m, ma, a + SUM_HEADER, bk, o + SUM_HEADER)
        mem[o + BOUND] = acc
        return o
    shared = ma & mb
    while shared:  # the merge reads every shared pair: start their loads together
        low = shared & -shared
        shared ^= low
        _prefetch(mem, mem[a + SUM_HEADER + _popcount(ma & (low - 1))])
        _prefetch(mem, mem[bk + _popcount(mb & (low - 1))])
    _push_frame(w, d, SUM, o, a, bk, mb, m, acc)
    return PUSHED


@njit(cache=True, inline="always")
def _start_choice(mem, state, ca, cb, max_live, w, d):
    """Open the merge of two choice nodes of one cell: a finished node (no letter shared), PUSHED or FULL / CAPPED."""
    la = letters_of(mem, ca)
    lb = letters_of(mem, cb)
    bits = la | lb
    o = alloc(mem, state, CHOICE_HEADER + _popcount(bits), max_live)
    if o < 0:
        return o
    set_choice(mem, o, pos_of(mem, ca), bits)
    if la & lb == 0:  # interleave; the max of the two maxes
        _interleave(mem, bits, la, ca + CHOICE_HEADER, cb + CHOICE_HEADER, o + CHOICE_HEADER)
        mem[o + BOUND] = max(mem[ca + BOUND], mem[cb + BOUND])
        return o
    shared = la & lb
    while shared:  # the sum children both sides have: start their loads together
        low = shared & -shared
        shared ^= low
        _prefetch(mem, mem[ca + CHOICE_HEADER + _popcount(la & (low - 1))])
        _prefetch(mem, mem[cb + CHOICE_HEADER + _popcount(lb & (low - 1))])
    _push_frame(w, d, CHOICE, o, ca, cb, 0, bits, 0)
    return PUSHED


@njit(cache=True, inline="always")
def _hand_up(mem, w, d, o):
    """Node o is finished: enter it as the next child of frame d (its parent), its bound into d's."""
    oi = w.m_oi[d]
    if w.m_kind[d] == SUM:
        mem[w.m_out[d] + SUM_HEADER + oi] = o
        w.m_acc[d] += mem[o + BOUND]
    else:
        mem[w.m_out[d] + CHOICE_HEADER + oi] = o
        if mem[o + BOUND] > w.m_acc[d]:
            w.m_acc[d] = mem[o + BOUND]
    w.m_oi[d] = oi + 1


@njit(cache=True, _nrt=False)
def merge(mem, state, a, bk, mb, b_bound, bp, max_live, w):
    """A new sum node: sum node a merged with another's (children at bk, position set mb, bound, points).

    Returns its offset, or FULL / CAPPED (nothing usable was built; reset the mark).
    """
    r = _start_sum(mem, state, a, bk, mb, b_bound, bp, max_live, w, 0)
    if r != PUSHED:
        return r
    d = 0
    while True:
        o = w.m_out[d]
        pushed = False
        bits = w.m_bits[d]
        oi = w.m_oi[d]
        acc = w.m_acc[d]
        if w.m_kind[d] == SUM:
            a = w.m_a[d]
            bk = w.m_b[d]
            ma = mask_of(mem, a)
            mb = w.m_nb[d]
            ia = w.m_ia[d]
            ib = w.m_ib[d]
            while bits:
                low = bits & -bits
                bits ^= low
                if ma & low and mb & low:
                    ca = mem[a + SUM_HEADER + ia]
                    cb = mem[bk + ib]
                    ia += 1
                    ib += 1
                    acc -= np.int64(mem[ca + BOUND]) + mem[cb + BOUND]
                    w.m_bits[d] = bits
                    w.m_ia[d] = ia
                    w.m_ib[d] = ib
                    w.m_oi[d] = oi
                    w.m_acc[d] = acc
                    r = _start_choice(mem, state, ca, cb, max_live, w, d + 1)
                    if r == PUSHED:
                        pushed = True
                        break
                    if r < 0:
                        return r
                    child = r
                    acc += mem[child + BOUND]
                elif ma & low:
                    child = mem[a + SUM_HEADER + ia]
                    ia += 1
                else:
                    child = mem[bk + ib]
                    ib += 1
                mem[o + SUM_HEADER + oi] = child
                oi += 1
            if pushed:
                d += 1
                continue
            mem[o + BOUND] = acc
        else:
            ca = w.m_a[d]
            cb = w.m_b[d]
            while bits:
                j = _lowest_bit(bits)
                bits &= bits - 1
                x = child_for(mem, ca, j)
                y = child_for(mem, cb, j)
                if x >= 0 and y >= 0:
                    w.m_bits[d] = bits
                    w.m_oi[d] = oi
                    w.m_acc[d] = acc
                    r = _start_sum(
                        mem,
                        state,
                        x,
                        y + SUM_HEADER,
                        mask_of(mem, y),
                        mem[y + BOUND],
                        points_of(mem, y),
                        max_live,
                        w,
                        d + 1,
                    )
                    if r == PUSHED:
                        pushed = True
                        break
                    if r < 0:
                        return r
                    child = r
                else:
                    child = x if x >= 0 else y
                mem[o + CHOICE_HEADER + oi] = child
                oi += 1
                if mem[child + BOUND] > acc:
                    acc = mem[child + BOUND]
            if pushed:
                d += 1
                continue
            mem[o + BOUND] = acc
        if d == 0:  # node o is finished: the merged node
            return o
        d -= 1
        _hand_up(mem, w, d, o)


@njit(cache=True, _nrt=False)
def force(mem, state, t, level, j, max_live, w):
    """The tree of sub-class `t` with position `level` forced to letter choice j (or FULL / CAPPED)."""
    mt = mask_of(mem, t)
    if mt == 0 or _lowest_bit(mt) != level:
        return t  # no word uses the cell: every letter leaves the tree as it is
    first = mem[t + SUM_HEADER]
    rest = mt & (mt - 1)
    rest_bound = np.int64(mem[t + BOUND]) - mem[first + BOUND]
    points = points_of(mem, t)
    x = child_for(mem, first, j)
    if x >= 0:
        return merge(mem, state, x, t + SUM_HEADER + 1, rest, rest_bound, points, max_live, w)
    if rest == 0 and 1 <= points <= SHARED_LEAVES:
        return leaf(points)
    n = _popcount(rest)
    o = alloc(mem, state, SUM_HEADER + n, max_live)
    if o < 0:
        return o
    set_sum(mem, o, points, rest)
    for i in range(n):
        mem[o + SUM_HEADER + i] = mem[t + SUM_HEADER + 1 + i]
    mem[o + BOUND] = rest_bound
    return o


@njit(cache=True, inline="always")
def force_cap(mem, t, level, j):
    """An upper bound of force(t, level, j) without building it: a merge's bound is at most the sum of its parts'."""
    mt = mask_of(mem, t)
    if mt == 0 or _lowest_bit(mt) != level:
        return np.int64(mem[t + BOUND])
    first = mem[t + SUM_HEADER]
    cap = np.int64(mem[t + BOUND]) - mem[first + BOUND]
    x = child_for(mem, first, j)
    if x >= 0:
        cap += mem[x + BOUND]
    return cap


# ---------------------------------------------------------------- the orderly bound (stacks)


@njit(cache=True, inline="always")
def _push_children(mem, s, w, room):
    """Push sum node s's choice children on their positions' stacks; False when a stack is full."""
    for i in range(count_of(mem, s)):
        c = mem[s + SUM_HEADER + i]
        p = pos_of(mem, c)
        t = w.top[p]
        if t >= (p + 1) * room:
            return False
        w.stack[t] = c
        w.top[p] = t + 1
        w.sums[p] += mem[c + BOUND]
    return True


@njit(cache=True, inline="always")
def _record(found, n_found, chosen, n, bound):
    if n_found < found.bounds.shape[0]:
        for p in range(n):
            found.choices[n_found, p] = chosen[p]
        found.bounds[n_found] = bound
    return n_found + 1


@njit(cache=True, inline="always")
def _enter_level(w, level, points, n):
    """Save the stacks for `level` (just pushed) and its rest: points + pending bounds past it."""
    rest = points
    for p in range(level, n):
        w.saved_top[level, p] = w.top[p]
        w.saved_sums[level, p] = w.sums[p]
        if p > level:
            rest += w.sums[p]
    w.base[level] = points
    w.rest[level] = rest


@njit(cache=True, _nrt=False)
def orderly_bound(mem, t, level0, j_lo, j_hi, n_letters, limits, counts, found, w):
    """Depth-first stack bound of tree t from position level0 (letters j_lo..j_hi-1 there).

    A letter's bound is the level's rest plus the bounds of the sum nodes it picks (a sum
    node's bound is its points and its children's bounds, all at later positions), so a
    sub-class below min_score is dropped before anything is pushed.
    counts = [visits, boards found] (updated). Returns DONE, VISIT_CAP, STACK_FULL or PAUSED
    (see stack_search).
    """
    n = n_letters.shape[0]
    room = w.stack.shape[0] // n
    for p in range(level0, n):
        w.top[p] = p * room
        w.sums[p] = 0
    if not _push_children(mem, t, w, room):  # cannot happen: one child per position, stacks empty
        w.stack_at[0] = -1  # no place to resume: the caller starts again
        return STACK_FULL
    _enter_level(w, level0, points_of(mem, t), n)
    w.next_j[level0] = j_lo
    w.end_j[level0] = j_hi
    return stack_search(mem, level0, level0, n_letters, limits, counts, found, w)


@njit(cache=True, _nrt=False)
def stack_search(mem, level0, level, n_letters, limits, counts, found, w):
    """The depth-first loop of orderly_bound, at `level` of a stack bound begun at level0.

    Everything it needs between visits is in `w`, so once `limits.pause_visits` sub-classes
    are visited it returns PAUSED with w.stack_at = [level0, level], and a call with those
    goes on as if it had not stopped.
    """
    n = n_letters.shape[0]
    min_score = limits.min_score
    room = w.stack.shape[0] // n
    visits = counts[0]
    n_found = counts[1]
    while level >= level0:
        j = w.next_j[level]
        if j >= w.end_j[level]:
            level -= 1
            continue
        if visits >= limits.max_visits:
            counts[0] = visits
            counts[1] = n_found
            return VISIT_CAP
        if visits >= limits.pause_visits:
            counts[0] = visits
            counts[1] = n_found
            w.stack_at[0] = level0
            w.stack_at[1] = level
            return PAUSED
        w.next_j[level] = j + 1
        lo = level * room
        hi = w.saved_top[level, level]
        b = w.rest[level]
        for e in range(lo, hi):
            s = child_for(mem, w.stack[e], j)
            if s >= 0:
                b += mem[s + BOUND]
        visits += 1
        w.chosen[level] = j
        if b < min_score:
            continue
        if level == n - 1:
            n_found = _record(found, n_found, w.chosen, n, b)
            continue
        for p in range(level + 1, n):
            w.top[p] = w.saved_top[level, p]
            w.sums[p] = w.saved_sums[level, p]
        points = w.base[level]
        for e in range(lo, hi):
            s = child_for(mem, w.stack[e], j)
            if s < 0:
                continue
            points += points_of(mem, s)
            if not _push_children(mem, s, w, room):  # grow the stacks (grown_work), then resume
                w.next_j[level] = j  # this letter is visited again
                counts[0] = visits - 1
                counts[1] = n_found
                w.stack_at[0] = level0
                w.stack_at[1] = level
                return STACK_FULL
        level += 1
        _enter_level(w, level, points, n)
        w.next_j[level] = 0
        w.end_j[level] = n_letters[level]
    counts[0] = visits
    counts[1] = n_found
    return DONE


# ---------------------------------------------------------------- force, then switch over


@njit(cache=True, inline="always")
def _begin(mem, state, root, n_letters, limits, resume, counts, found, w):
    """(status, force level) where `search` starts: its paused place (a paused stack bound finished
    first), or level 0 at `root`; level -1 when the root alone decides (pruned, or bounded by the stacks)."""
    n = n_letters.shape[0]
    if resume:
        level = w.at[0]
        if w.stack_at[0] >= 0:  # paused inside a stack bound: finish it first
            level0 = w.stack_at[0]
            w.stack_at[0] = -1
            r = stack_search(mem, level0, w.stack_at[1], n_letters, limits, counts, found, w)
            if r != DONE:
                return r, level
        return DONE, level
    w.stack_at[0] = -1
    counts[:] = 0
    counts[0] = 1
    if mem[root + BOUND] < limits.min_score:
        return DONE, -1
    if mem[root + BOUND] < limits.switch_score or n <= limits.switch_cells:
        counts[3] += 1
        w.at[0] = -1  # no force level to go back to
        return orderly_bound(mem, root, 0, 0, n_letters[0], n_letters, limits, counts, found, w), -1
    w.roots[0] = root
    w.mark_top[0] = state[TOP]
    w.mark_live[0] = state[LIVE]
    w.level_j[0] = 0
    return DONE, 0


@njit(cache=True, _nrt=False)
def search(mem, state, root, n_letters, limits, resume, counts, found, w):
    """Branch and bound of the tree at `root` (no position forced yet).

    counts = [visits, boards found, forces, bound runs, capped forces] (filled). Returns
    DONE, VISIT_CAP, ARENA_FULL, STACK_FULL or PAUSED: once `pause_visits` sub-classes are
    visited (in the force loop or inside a stack bound), the search stops where it is (its
    place in `w`, the arena as it is) and a call with `resume` true and the same arrays goes
    on from there, as if it had not stopped. ARENA_FULL and STACK_FULL stop the same way
    (the force or the letter that did not fit is done again): the caller grows mem
    (arena.grown) or the stacks (grown_work) and resumes; after a STACK_FULL with
    w.stack_at[0] < 0 it starts again instead.
    """
    n = n_letters.shape[0]
    min_score = limits.min_score
    switch_score = limits.switch_score
    switch_cells = limits.switch_cells
    max_live = limits.max_live
    r, level = _begin(mem, state, root, n_letters, limits, resume, counts, found, w)
    if r != DONE or level < 0:
        return r
    while level >= 0:
        state[TOP] = w.mark_top[level]
        state[LIVE] = w.mark_live[level]
        j = w.level_j[level]
        if j >= n_letters[level]:
            level -= 1
            continue
        if counts[0] >= limits.max_visits:
            return VISIT_CAP
        if counts[0] >= limits.pause_visits:
            w.at[0] = level
            return PAUSED
        t = w.roots[level]
        cap = force_cap(mem, t, level, j)
        if cap < min_score:  # the merge could only be lower: skip it
            w.level_j[level] = j + 1
            counts[0] += 1
            continue
        if cap < switch_score:
            w.level_j[level] = j + 1
            counts[3] += 1
            r = orderly_bound(mem, t, level, j, j + 1, n_letters, limits, counts, found, w)
            if r != DONE:
                w.at[0] = level  # PAUSED: the force loop goes on here after the stack bound
                return r
            continue
        child = force(mem, state, t, level, j, max_live, w)
        if child == FULL:  # grow mem (the words below state[TOP] kept), then resume: j is forced again
            w.at[0] = level
            w.stack_at[0] = -1
            return ARENA_FULL
        if child == CAPPED:  # too many nodes: bound the rest of this level with the stacks
            state[TOP] = w.mark_top[level]
            state[LIVE] = w.mark_live[level]
            counts[3] += 1
            counts[4] += 1
            w.level_j[level] = n_letters[level]
            r = orderly_bound(mem, t, level, j, n_letters[level], n_letters, limits, counts, found, w)
            if r != DONE:
                w.at[0] = level  # PAUSED: the force loop goes on here after the stack bound
                return r
            continue
        w.level_j[level] = j + 1
        counts[0] += 1
        counts[2] += 1
        w.chosen[level] = j
        b = mem[child + BOUND]
        if b < min_score:
            continue
        nxt = level + 1
        if nxt == n:
            counts[1] = _record(found, counts[1], w.chosen, n, b)
            continue
        if b < switch_score or n - nxt <= switch_cells:
            counts[3] += 1
            r = orderly_bound(mem, child, nxt, 0, n_letters[nxt], n_letters, limits, counts, found, w)
            if r != DONE:
                w.at[0] = level  # PAUSED: the force loop goes on here after the stack bound
                return r
            continue
        level = nxt
        w.roots[level] = child
        w.mark_top[level] = state[TOP]
        w.mark_live[level] = state[LIVE]
        w.level_j[level] = 0
    return DONE
