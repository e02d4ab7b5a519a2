"""Baseline: the crossword fill's previous search kernel, `fill_bits` (replaced by crossword/_kernels/fill.py).

The same search as the current kernel (the same seed visits the same nodes and gives the
same fill), calling the current kernel's steps the two have in common (slot order, candidate
scores, placing a word, the propagation queue, backtracking; imported from there), with
dearer nodes: every level keeps a full copy of the domains (backtracking drops a level),
popcounts are shift-and-mask sums, a domain is filtered by the fewer of a cell's allowed or
excluded letters over every word, a slot's letter support is read off its words up to 256
words, else by scanning its domain per (position, letter) with no hint, the value order is
sorted by np.argsort, and level 0's arc consistency is redone in every attempt. The bundles
are the current kernel's (Struct, WordBits, Work, ...; _kernels/fill.py), plus this
kernel's per-level State.

`fill` runs crossword.fill's orchestration (restarts, budgets, the result) on this kernel:
benchmarks/crossword_bench.py --engine-seeds and the oracle test comparing nodes and fills
use it; nothing in the product does.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzlesearch.crossword._kernels.fill import (
    ONE,
    ZERO,
    _backtrack,
    _drop_word,
    _full_mask,
    _merge,
    _narrow,
    _new_work,
    _next_slot,
    _place,
    _pop,
    _score_candidates,
    _sibling_bit,
    _siblings_of,
    _take_dirty,
    _to_support,
    _wake_crossings,
    _wipe_out,
)
from puzzlesearch.crossword.fill import Filled, fill_using
from puzzlesearch.crossword.settings import FillSettings

M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
SH1, SH2, SH4, SH56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)


class State(NamedTuple):
    """One level of the search: the domains, each cell's allowed letters, each slot's domain
    size and its explanation (the levels that may have narrowed it); one copy per level."""

    dom: np.ndarray
    cell_mask: np.ndarray
    count: np.ndarray
    why: np.ndarray


class OrderScratch(NamedTuple):
    """The value order's arrays: ln n, crossing counts, scores, the candidates of every level."""

    log_of: np.ndarray
    counts: np.ndarray
    scores: np.ndarray
    cand: np.ndarray


def copy_attempts(struct, words, weights, start, fail_count, out_word):
    """The attempts of a fill on fill_bits (crossword.fill.fill_using): level 0 redone in each."""
    return lambda run: fill_bits(struct, words, weights, start, fail_count, out_word, run)


def fill(
    pattern: np.ndarray,
    tables,
    settings: FillSettings = FillSettings(),
    seed: int = 0,
    progress: bool = True,
    last_conflict: bool = True,
) -> Filled:
    """crossword.fill.fill on this kernel: the same fill, nodes and restarts, slower."""
    return fill_using(copy_attempts, pattern, tables, settings, seed, progress, last_conflict)


@njit(cache=True)
def popcount64(x):
    """Number of set bits of a uint64."""
    x = x - ((x >> SH1) & M1)
    x = (x & M2) + ((x >> SH2) & M2)
    x = (x + (x >> SH4)) & M4
    return np.int64((x * H01) >> SH56)


@njit(cache=True)
def bits_count(bits, off, nw):
    """Popcount of bits[off:off + nw]."""
    n = 0
    for j in range(nw):
        x = bits[off + j]
        if x:
            n += popcount64(x)
    return n


@njit(cache=True)
def and_count(a, a_off, b, b_off, nw):
    """Popcount of a[a_off:a_off + nw] & b[b_off:b_off + nw]."""
    n = 0
    for j in range(nw):
        x = a[a_off + j] & b[b_off + j]
        if x:
            n += popcount64(x)
    return n


@njit(cache=True)
def bits_list(bits, off, nw, out):
    """Write the indices of the set bits of bits[off:off + nw] to out; return how many."""
    n = 0
    for j in range(nw):
        x = bits[off + j]
        while x:
            low = x & (~x + ONE)
            out[n] = j * 64 + popcount64(low - ONE)
            n += 1
            x ^= low
    return n


@njit(cache=True)
def match_count(pos_bits, pb, n, n_letters, length, cell_masks, full, scratch):
    """Number of the n words of a length whose letter at each position p is in cell_masks[p]."""
    nw = (n + 63) // 64
    for j in range(nw):
        scratch[j] = ~ZERO
    if n % 64:
        scratch[nw - 1] = (ONE << np.uint64(n % 64)) - ONE
    for p in range(length):
        m = cell_masks[p]
        if m == full:
            continue
        for j in range(nw):
            acc = ZERO
            for c in range(1, n_letters + 1):
                if (m >> c) & 1:
                    acc |= pos_bits[pb + (p * (n_letters + 1) + c) * nw + j]
            scratch[j] &= acc
    n = 0
    for j in range(nw):
        n += popcount64(scratch[j])
    return n


@njit(cache=True)
def _filter_domain(s, state, dirty, struct, words):
    """AND slot s's domain with the letters allowed in its dirty cells."""
    slot_len, slot_cells, _, _ = struct
    slot_pb, pos_bits, n_letters = words.slot_pb, words.pos_bits, words.n_letters
    dom, cell_mask, _, _ = state
    full = _full_mask(n_letters)
    off, nw, stride, d = _take_dirty(s, dirty, words)
    for p in range(slot_len[s]):
        m = cell_mask[slot_cells[s, p]]
        if m == full or not (d >> p) & 1:  # a clean cell, or one allowing every letter
            continue
        base = slot_pb[s] + p * stride
        if (m & (m - 1)) == 0:  # one letter
            c = 0
            while not (m >> c) & 1:
                c += 1
            b = base + c * nw
            for j in range(nw):
                dom[off + j] &= pos_bits[b + j]
            continue
        out = full & ~m  # filter by the fewer of the allowed or the excluded letters
        k_in = 0
        k_out = 0
        for c in range(1, n_letters + 1):
            if (m >> c) & 1:
                k_in += 1
            elif (out >> c) & 1:
                k_out += 1
        for j in range(nw):
            x = dom[off + j]
            if not x:
                continue
            acc = ZERO
            if k_in <= k_out:
                for c in range(1, n_letters + 1):
                    if (m >> c) & 1:
                        acc |= pos_bits[base + c * nw + j]
                dom[off + j] = x & acc
            else:
                for c in range(1, n_letters + 1):
                    if (out >> c) & 1:
                        acc |= pos_bits[base + c * nw + j]
                dom[off + j] = x & ~acc


@njit(cache=True)
def _support(s, todo, state, struct, words, support):
    """support[p] = the letters at position p of slot s's words, for the positions in todo."""
    slot_len, slot_cells, _, _ = struct
    slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, n_letters, _, _ = words
    dom, cell_mask, count, _ = state
    length = slot_len[s]
    nw = slot_nw[s]
    off = slot_off[s]
    if count[s] <= 256:
        row0 = slot_row0[s]
        for j in range(nw):
            x = dom[off + j]
            while x:
                low = x & (~x + ONE)
                i = j * 64 + popcount64(low - ONE)
                x ^= low
                for p in range(length):
                    if (todo >> p) & 1:
                        support[p] |= np.int64(1) << np.int64(codes[row0 + i, p])
        return
    stride = (n_letters + 1) * nw
    for p in range(length):
        if not (todo >> p) & 1:
            continue
        m = cell_mask[slot_cells[s, p]]
        base = slot_pb[s] + p * stride
        for c in range(1, n_letters + 1):
            if not (m >> c) & 1:
                continue
            b = base + c * nw
            for j in range(nw):
                if dom[off + j] & pos_bits[b + j]:
                    support[p] |= np.int64(1) << c
                    break


@njit(cache=True)
def _revise(s, state, work, struct, words, support, removed):
    """Filter slot s's domain by its dirty cells; narrow its cells to supported letters.

    Returns -1 if the domain empties, else a bit mask of the positions whose cell lost letters.
    `removed`: the shared _narrow's record of lost letters (this kernel's filter does not read it)."""
    dom, cell_mask, count, _ = state
    _filter_domain(s, state, work.dirty, struct, words)
    n = bits_count(dom, words.slot_off[s], words.slot_nw[s])
    todo = _to_support(s, n, count, work.force, cell_mask, struct.slot_cells, struct.slot_len[s], support)
    if todo <= 0:
        return todo
    _support(s, todo, state, struct, words, support)
    return _narrow(s, todo, support, cell_mask, struct, work.dirty, removed)


@njit(cache=True)
def _propagate_bits(qlen, state, work, struct, words, removed):
    """Arc consistency from the slots in queue[:qlen]; return the slot that emptied or -1."""
    support = np.zeros(struct.slot_cells.shape[1], dtype=np.int64)
    head = 0
    while qlen > 0:
        s, head, qlen = _pop(work, head, qlen)
        changed = _revise(s, state, work, struct, words, support, removed)
        if changed < 0:
            return _wipe_out(s, work, head, qlen)
        if changed > 0:
            qlen = _wake_crossings(s, changed, head, qlen, struct, work, state.why)
    return -1


@njit(cache=True)
def _assign_bits(s, i, level, state, work, struct, words, removed):
    """Give slot s its word bit i (the decision of search level `level`), take that word
    from same-length slots and its siblings from every slot, propagate; return the slot whose
    domain emptied, or -1."""
    slot_len, slot_row0, slot_off = struct.slot_len, words.slot_row0, words.slot_off
    dom, cell_mask, count, why = state
    lw, lbit, jw, bit, qlen = _place(s, i, level, dom, cell_mask, count, why, work, struct, words, removed)
    for t in range(slot_len.shape[0]):  # no repeats
        if t != s and slot_len[t] == slot_len[s] and slot_row0[t] == slot_row0[s] and dom[slot_off[t] + jw] & bit:
            qlen = _drop_word(t, slot_off[t], jw, bit, lw, lbit, qlen, dom, count, why, work)
            if qlen < 0:
                return t
    lo, hi = _siblings_of(s, i, words)
    for a in range(lo, hi):  # no other form of the word
        for t in range(slot_len.shape[0]):
            sj, sbit = _sibling_bit(words.sib_rows[a], t, words)
            if t != s and sj >= 0 and dom[slot_off[t] + sj] & sbit:
                qlen = _drop_word(t, slot_off[t], sj, sbit, lw, lbit, qlen, dom, count, why, work)
                if qlen < 0:
                    return t
    return _propagate_bits(qlen, state, work, struct, words, removed)


@njit(cache=True)
def _order_bits(s, state, assigned, struct, words, weights, noise, scratch, start):
    """Write slot s's candidate word bits, best first, to cand[start:]; return how many.

    The scores of the current kernel's _score_candidates; scratch: OrderScratch."""
    slot_len, slot_cells, cross, cross_pos = struct
    slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, n_letters, _, _ = words
    log_of, counts, scores, cand = scratch
    dom, cell_mask, _, _ = state
    length = slot_len[s]
    for p in range(length):
        counts[p, :] = 1
        t = cross[s, p]
        if t < 0 or assigned[t]:
            continue
        q = cross_pos[s, p]
        m = cell_mask[slot_cells[s, p]]
        nw = slot_nw[t]
        base = slot_pb[t] + q * (n_letters + 1) * nw
        for c in range(1, n_letters + 1):
            if (m >> c) & 1:
                counts[p, c] = and_count(dom, slot_off[t], pos_bits, base + c * nw, nw)
            else:
                counts[p, c] = 0
    n = bits_list(dom, slot_off[s], slot_nw[s], cand[start:])
    k = _score_candidates(slot_row0[s], length, n, start, codes, weights, noise, log_of, counts, cand, scores)
    order = np.argsort(scores[:k], kind="mergesort")
    cand[start : start + k] = cand[start : start + k][order]
    return k


@njit(cache=True)
def _read_words(state, struct, words, out_word):
    """out_word[s] = the word row of each slot's single remaining word."""
    slot_row0, slot_off, slot_nw = words.slot_row0, words.slot_off, words.slot_nw
    dom = state.dom
    idx = np.zeros(1, dtype=np.int64)
    for s in range(struct.slot_len.shape[0]):
        bits_list(dom, slot_off[s], slot_nw[s], idx)
        out_word[s] = slot_row0[s] + idx[0]


@njit(cache=True)
def _level_explanation(s, state, struct, acc):
    """acc = why the domain of slot s is what it is at this level: its explanation and
    those of its crossing slots (whose letters filtered its candidates)."""
    cross = struct.cross
    why = state.why
    acc[:] = why[s]
    for p in range(struct.slot_len[s]):
        t = cross[s, p]
        if t >= 0:
            _merge(acc, why[t])


@njit(cache=True)
def fill_bits(struct, words, weights, start, fail_count, out_word, run):
    """Backtracking fill on bitset domains: most-constrained slot first (fewest words per
    past failure), best words first, arc consistency after every choice, and (use_cbj)
    conflict-directed backjumping: a slot that runs out of words sends the search back to
    the deepest level among the explanations of its failures, not merely one level up.

    start: the initial domains and cell masks (Start); run: the attempt (Run). Returns (status,
    nodes, failed slot): status 1 = filled (out_word[s] = word row of slot s), 0 = proved
    impossible, -1 = node limit reached.
    `noise` > 0 randomises the word order a little (restarts); `use_lc`: after a dead end
    branch on the failed slot first (last-conflict); fail_count (failures per slot) is
    updated and kept.
    """
    dom0, cell_mask0 = start
    np.random.seed(run.seed)
    slot_len, _, cross, _ = struct
    n_slots = slot_len.shape[0]
    levels = n_slots + 2
    n_lw = (levels + 63) // 64
    dom = np.empty((levels, dom0.shape[0]), dtype=np.uint64)
    mask = np.empty((levels, cell_mask0.shape[0]), dtype=np.int64)
    count = np.zeros((levels, n_slots), dtype=np.int64)
    why = np.zeros((levels, n_slots, n_lw), dtype=np.uint64)
    acc = np.zeros((levels, n_lw), dtype=np.uint64)  # conflict set of each level's slot
    dom[0, :] = dom0
    mask[0, :] = cell_mask0
    count[0, :] = -1
    work = _new_work(slot_len, fail_count)
    assigned = work.assigned
    removed = np.full((n_slots, struct.slot_cells.shape[1]), -1, dtype=np.int64)  # the shared helpers' record
    failed = _propagate_bits(n_slots, State(dom[0], mask[0], count[0], why[0]), work, struct, words, removed)
    if failed >= 0:
        return 0, 0, failed
    slot_nw = words.slot_nw
    max_dom = 1
    for s in range(n_slots):
        max_dom = max(max_dom, count[0, s])
    lv_slot = np.zeros(levels, dtype=np.int64)
    lv_start = np.zeros(levels, dtype=np.int64)
    lv_n = np.zeros(levels, dtype=np.int64)
    lv_next = np.zeros(levels, dtype=np.int64)
    total = np.sum(slot_nw) * 64 + 64
    scratch = OrderScratch(
        np.log(np.arange(max_dom + 1).astype(np.float64) + 1e-300),
        np.ones((struct.slot_cells.shape[1], words.n_letters + 1), dtype=np.int64),
        np.zeros(total, dtype=np.float64),
        np.zeros(total, dtype=np.int64),
    )
    cand = scratch.cand
    nodes, level, last_conflict = 0, 0, -1
    descend = True
    while True:
        if descend:  # choose the level's slot and order its words
            best, last_conflict = _next_slot(count[level], work, slot_len, last_conflict, cross)
            state = State(dom[level], mask[level], count[level], why[level])
            if best < 0:
                _read_words(state, struct, words, out_word)
                return 1, nodes, -1
            lv_slot[level] = best
            lv_start[level] = lv_start[level - 1] + lv_n[level - 1] if level > 0 else 0
            lv_n[level] = _order_bits(
                best, state, assigned, struct, words, weights, run.noise, scratch, lv_start[level]
            )
            lv_next[level] = 0
            assigned[best] = 1
            _level_explanation(best, state, struct, acc[level])
        s = lv_slot[level]
        wiped = 0
        while wiped >= 0 and lv_next[level] < lv_n[level]:  # its next word, on a copy of the level
            if nodes >= run.node_limit:
                return -1, nodes, -1
            nodes += 1
            dom[level + 1, :] = dom[level]
            mask[level + 1, :] = mask[level]
            count[level + 1, :] = count[level]
            why[level + 1, :, :] = why[level]
            child = State(dom[level + 1], mask[level + 1], count[level + 1], why[level + 1])
            wiped = _assign_bits(s, cand[lv_start[level] + lv_next[level]], level, child, work, struct, words, removed)
            lv_next[level] += 1
            if wiped >= 0:
                _merge(acc[level], why[level + 1, wiped])
        if wiped < 0:  # placed: the next level
            level += 1
            descend = True
            continue
        target, last_conflict = _backtrack(s, level, last_conflict, run, acc, assigned, lv_slot)
        if target < 0:
            return 0, nodes, -1
        level = target
        descend = False
