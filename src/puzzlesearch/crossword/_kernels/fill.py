"""Numba kernels of the fixed-pattern fill (fill.py): the bitset search with an undo trail.

Slots' word sets are bitsets; the arrays come in the NamedTuples below (Struct, WordBits,
State, Work, ...). The same search as the kernel it replaced
(puzzlesearch.baselines.crossword_fill.fill_bits: the same seed visits the same nodes and
gives the same fill; it calls this module's steps the two have in common: the slot order
`_choose_slot` (words per sqrt(1 + failures) per (1 + open crossings)), the candidate
scores, placing a word, the propagation queue, backtracking and backjumping), with cheaper
nodes:
- popcounts and bit scans are single instructions (puzzlesearch.bits);
- a domain is filtered at a changed cell by the fewest letters of: the cell's allowed
  letters, its excluded letters, or the letters it lost since the slot's last filter at
  that cell (recorded where the cell narrows, `_note_removed`): mostly one to three letters;
- a slot's letter support is read from its remaining words when they are few, else per
  (position, letter) by testing the domain word that held one last time, then scanning
  only the domain words that are non-zero and hold such a word at all (a bit per domain
  word: the non-zero summary and `_letter_words`), stopping at the first hit;
- the crossing counts of the value order ("for each cell, how many words of the crossing
  slot keep each letter") come from one pass over the crossing's non-zero domain words,
  or from its words when they are few;
- the search state of a level is copied slot by slot only for the slots it touches: a
  level holds the domains it changed (`trail`), so a node copies the cell masks, counts
  and explanations (a few hundred integers), not every domain;
- level 0 (arc consistency on the full domains) is computed once per fill
  (`start_state`) and every buffer is allocated once (`new_buffers`), not per restart;
- the search loop (`_fill_loop`) is one function over inlined helpers, compiled without
  numba's reference counting (`_nrt=False`; nothing in it allocates).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzlesearch.bits import lowest_bit, popcount
from puzzlesearch.jit import compile_once

ONE = np.uint64(1)
ZERO = np.uint64(0)
FAIL_POWER = 0.5  # slot order: words / (1 + failures)^FAIL_POWER (1.0: 1.16x the mean nodes on medium; Nov 23)
SORT_RUN = 16  # the stable sort of _order: runs sorted by insertion, then merged
# Domain words a (position, letter) test is expected to read; below that cost a slot's letters are read off
# its words (speed only, same nodes: 2, 4, 8, 16, 32 gave 30, 33, 34, 35, 33k nodes/s on medium seeds 0-99).
SCAN_WORDS = 16


# ---------------------------------------------------------------- the bundles


class Struct(NamedTuple):
    """The pattern: slot s has cells slot_cells[s, :slot_len[s]] (flat cell numbers) and at
    position p the crossing slot cross[s, p] (-1 for an unchecked cell) at its position cross_pos[s, p]."""

    slot_len: np.ndarray
    slot_cells: np.ndarray
    cross: np.ndarray
    cross_pos: np.ndarray


class WordBits(NamedTuple):
    """Word sets as bitsets (uint64 words, bit i in word i // 64).

    A slot's domain is a bitset over the eligible words of its length (bit i = word row
    slot_row0[s] + i; rows of a length are sorted best first, so lower bits are better
    words), stored at dom[slot_off[s] : slot_off[s] + slot_nw[s]]. pos_bits holds, per slot
    length, position p and letter c, the bitset of the words with letter c at p:
    pos_bits[slot_pb[s] + (p * (n_letters + 1) + c) * slot_nw[s] + j]. A slot's candidates
    are the AND over its cells of the OR of their letters' bitsets. The word rows that may not
    share a grid with word row r (its siblings: other forms of the same word, SEE and SEES)
    are sib_rows[sib_start[r] : sib_start[r + 1]] (none for rows past sib_start's end)."""

    slot_row0: np.ndarray
    slot_off: np.ndarray
    slot_nw: np.ndarray
    slot_pb: np.ndarray
    pos_bits: np.ndarray
    codes: np.ndarray  # the tables' word rows (int8 letter codes)
    n_letters: int
    sib_start: np.ndarray
    sib_rows: np.ndarray


class Weights(NamedTuple):
    """The value order: weight x word_weight[row] + the crossings' log counts."""

    word_weight: np.ndarray
    weight: float


class Start(NamedTuple):
    """The initial domains and each cell's allowed letters (int64 bit mask, bit = letter code 1..n_letters)."""

    dom: np.ndarray
    cell_mask: np.ndarray


class Run(NamedTuple):
    """One attempt: its node limit, the word order's noise and seed, last-conflict and backjumping on or off."""

    node_limit: int
    noise: float
    seed: int
    use_lc: bool
    use_cbj: bool


class Work(NamedTuple):
    """The propagation queue and per-slot flags (dirty = bit mask of positions whose cell
    changed), which slots are assigned, and failures per slot (dom/wdeg weights, kept across restarts)."""

    queue: np.ndarray
    inq: np.ndarray
    dirty: np.ndarray
    force: np.ndarray
    assigned: np.ndarray
    fail_count: np.ndarray


class Trail(NamedTuple):
    """Saved domains: entry n is slot slot[n], its words bits[off[n] : off[n + 1]]; top[0] entries."""

    slot: np.ndarray
    off: np.ndarray
    bits: np.ndarray
    top: np.ndarray


class State(NamedTuple):
    """One level of the search: the domains (one array, restored from the trail), the cell
    masks, each slot's domain size (popcount) and its explanation why[s]: a bitset over search
    levels (uint64 words) holding the levels whose assignments may have narrowed the slot's
    domain (conflict-directed backjumping); `saved[s]`: the level that saved slot s on the trail."""

    dom: np.ndarray
    cell_mask: np.ndarray
    count: np.ndarray
    why: np.ndarray
    trail: Trail
    saved: np.ndarray


class Scratch(NamedTuple):
    """Work arrays of propagation and ordering, kept across the search."""

    support: np.ndarray  # per position: the letters some word still has there
    nz: np.ndarray  # a domain's non-zero words
    letters: np.ndarray  # the letters of a cell mask
    residue: np.ndarray  # (slot, position, letter): the domain word that held such a word last time
    found: np.ndarray  # a domain's word bits
    removed: np.ndarray  # (slot, position): letters lost since its last filter (-1 unknown)
    has: np.ndarray  # (slot, position, letter): a bit per domain word holding such a word (_letter_words)
    summary: np.ndarray  # a domain's non-zero words, one bit each


class Ordering(NamedTuple):
    """The value order's arrays: crossing counts, scores, the candidates of every level, the sort's buffers."""

    counts: np.ndarray
    scores: np.ndarray
    cand: np.ndarray
    tmp_scores: np.ndarray
    tmp_cand: np.ndarray


class Levels(NamedTuple):
    """Per search level: its slot, its first candidate in Ordering.cand, how many, how many tried, its trail mark."""

    slot: np.ndarray
    start: np.ndarray
    n: np.ndarray
    tried: np.ndarray
    mark: np.ndarray


class Buffers(NamedTuple):
    """Every array of a fill's search, allocated once (new_buffers) and reused by its restarts."""

    dom0: np.ndarray  # level 0's domains (start_state)
    dom: np.ndarray  # the working domains
    mask: np.ndarray  # (level, cell)
    count: np.ndarray  # (level, slot)
    why: np.ndarray  # (level, slot, level word)
    acc: np.ndarray  # (level, level word): the conflict set of each level's slot
    trail: Trail
    saved: np.ndarray
    levels: Levels
    scratch: Scratch
    order: Ordering


# ---------------------------------------------------------------- helpers shared with the baseline


@njit(cache=True)
def _full_mask(n_letters):
    """The cell mask allowing every letter (bits 1..n_letters)."""
    return np.int64((np.int64(1) << np.int64(n_letters + 1)) - 2)


@njit(cache=True)
def _clear_queue(work, head, qlen):
    """Empty the propagation queue (after a wipe-out)."""
    queue, inq, dirty, force = work.queue, work.inq, work.dirty, work.force
    n_slots = queue.shape[0]
    while qlen > 0:
        t = queue[head]
        inq[t] = False
        dirty[t] = 0
        force[t] = False
        head = (head + 1) % n_slots
        qlen -= 1


@njit(cache=True)
def _open_crossings(s, assigned, slot_len, cross):
    """How many crossings of slot s are not assigned yet (its dynamic degree)."""
    n = 0
    for p in range(slot_len[s]):
        t = cross[s, p]
        if t >= 0 and not assigned[t]:
            n += 1
    return n


@njit(cache=True)
def _choose_slot(count, work, slot_len, last_conflict, cross):
    """The next slot: the last-conflict slot if set, else a forced one, else the fewest
    words per sqrt(1 + past failures) per (1 + open crossings) (dom/wdeg with the dynamic
    degree; ties: the longer slot); -1 when every slot is assigned."""
    assigned, fail_count = work.assigned, work.fail_count
    if last_conflict >= 0 and not assigned[last_conflict]:
        return last_conflict
    best = -1
    best_key = 0.0
    for s in range(slot_len.shape[0]):
        if assigned[s]:
            continue
        if count[s] == 1:
            key = -1.0  # forced slots first
        else:
            key = count[s] / (1.0 + fail_count[s]) ** FAIL_POWER / (1.0 + _open_crossings(s, assigned, slot_len, cross))
        if best < 0 or key < best_key or (key == best_key and slot_len[s] > slot_len[best]):
            best = s
            best_key = key
    return best


@njit(cache=True)
def _new_work(slot_len, fail_count):
    """The Work with every slot queued, dirty and forced (the first propagation)."""
    n_slots = slot_len.shape[0]
    queue = np.arange(n_slots).astype(np.int64)
    inq = np.ones(n_slots, dtype=np.bool_)
    dirty = np.zeros(n_slots, dtype=np.int64)
    for s in range(n_slots):
        dirty[s] = (np.int64(1) << slot_len[s]) - 1
    force = np.ones(n_slots, dtype=np.bool_)
    assigned = np.zeros(n_slots, dtype=np.int64)
    return Work(queue, inq, dirty, force, assigned, fail_count)


@njit(cache=True)
def _merge(acc, bits):
    """acc |= bits (level bitsets)."""
    for j in range(acc.shape[0]):
        acc[j] |= bits[j]


@njit(cache=True)
def _backjump_level(acc, level):
    """The deepest level below `level` in the conflict set acc (-1: none, no fill exists)."""
    for lv in range(level - 1, -1, -1):
        if (acc[lv >> 6] >> np.uint64(lv & 63)) & ONE:
            return lv
    return -1


@njit(cache=True, inline="always")
def _score_candidates(row0, length, n, start, codes, weights, noise, log_of, counts, cand, scores):
    """Keep the candidates cand[start:start + n] (word bits over rows from row0) that leave every
    crossing a word, compacted in place, with their scores negated in scores[:k]; return k.

    Score: weight x word_weight + sum over positions p of ln(counts[p, the candidate's letter])
    (the words of the crossing there that agree; 1 where no open crossing), plus noise x an
    exponential draw when noise > 0."""
    word_weight, weight = weights
    k = 0
    for idx in range(n):
        i = cand[start + idx]
        row = row0 + i
        sc = weight * word_weight[row]
        ok = True
        for p in range(length):
            cnt = counts[p, codes[row, p]]
            if cnt == 0:
                ok = False
                break
            sc += log_of[min(cnt, log_of.shape[0] - 1)]
        if ok:
            if noise > 0:
                sc += noise * np.random.exponential()
            cand[start + k] = i
            scores[k] = -sc
            k += 1
    return k


@njit(cache=True, inline="always")
def _take_dirty(s, dirty, words):
    """(first domain word, domain words, pos_bits words per position, dirty positions) of slot s,
    whose dirty mask is cleared (its filter is under way)."""
    nw = words.slot_nw[s]
    d = dirty[s]
    dirty[s] = 0
    return words.slot_off[s], nw, (words.n_letters + 1) * nw, d


@njit(cache=True, inline="always")
def _to_support(s, n, count, force, cell_mask, slot_cells, length, support):
    """After a filter left n words in slot s's domain: -1 if none (the slot fails), 0 if nothing
    changed (and the slot is not forced) or every cell holds one letter, else the bit mask of the
    positions whose cell still holds several letters (their support[p] cleared)."""
    if n == 0:
        count[s] = 0
        force[s] = False
        return -1
    if n == count[s] and not force[s]:
        return 0
    force[s] = False
    count[s] = n
    todo = 0
    for p in range(length):
        m = cell_mask[slot_cells[s, p]]
        support[p] = 0
        if (m & (m - 1)) != 0:
            todo |= 1 << p
    return todo


@njit(cache=True, inline="always")
def _narrow(s, todo, support, cell_mask, struct, dirty, removed):
    """Narrow slot s's cells at the positions in todo to their supported letters (the letters a
    crossing's cell loses are noted for its next filter); return the positions whose cell changed."""
    slot_cells, cross, cross_pos = struct.slot_cells, struct.cross, struct.cross_pos
    changed = 0
    for p in range(struct.slot_len[s]):
        if not (todo >> p) & 1:
            continue
        cell = slot_cells[s, p]
        new = cell_mask[cell] & support[p]
        if new != cell_mask[cell]:
            if cross[s, p] >= 0:
                _note_removed(cross[s, p], cross_pos[s, p], cell_mask[cell] & ~new, dirty, removed)
            cell_mask[cell] = new
            changed |= 1 << p
    return changed


@njit(cache=True, inline="always")
def _pop(work, head, qlen):
    """Take the slot at the head of the propagation queue: (slot, new head, new length)."""
    s = work.queue[head]
    work.inq[s] = False
    return s, (head + 1) % work.queue.shape[0], qlen - 1


@njit(cache=True, inline="always")
def _wipe_out(s, work, head, qlen):
    """Slot s has no word left: count its failure, empty the queue; return s."""
    work.fail_count[s] += 1
    _clear_queue(work, head, qlen)
    return s


@njit(cache=True, inline="always")
def _wake_crossings(s, changed, head, qlen, struct, work, why):
    """Queue the crossings of slot s at its changed positions (their cells dirty, their
    explanations joined with s's); return the queue length."""
    slot_len, cross, cross_pos = struct.slot_len, struct.cross, struct.cross_pos
    queue, inq, dirty = work.queue, work.inq, work.dirty
    n_slots = slot_len.shape[0]
    for p in range(slot_len[s]):
        if (changed >> p) & 1:
            t = cross[s, p]
            if t >= 0:
                dirty[t] |= np.int64(1) << cross_pos[s, p]
                _merge(why[t], why[s])  # t's narrowing follows from s's
                if not inq[t]:
                    inq[t] = True
                    queue[(head + qlen) % n_slots] = t
                    qlen += 1
    return qlen


@njit(cache=True, inline="always")
def _place(s, i, level, dom, cell_mask, count, why, work, struct, words, removed):
    """Slot s takes word bit i, the decision of search level `level`: its domain is that word,
    explained by the level; its letters fix the cells, whose crossings are queued (queue[:qlen]).
    Returns (level word, level bit, domain word of i, bit of i, qlen)."""
    slot_cells, cross, cross_pos = struct.slot_cells, struct.cross, struct.cross_pos
    lw = level >> 6
    lbit = ONE << np.uint64(level & 63)
    why[s, :] = ZERO
    why[s, lw] = lbit
    off, nw = words.slot_off[s], words.slot_nw[s]
    for j in range(nw):
        dom[off + j] = ZERO
    jw = i >> 6
    bit = ONE << np.uint64(i & 63)
    dom[off + jw] = bit
    count[s] = 1
    row = words.slot_row0[s] + i
    qlen = 0
    for p in range(struct.slot_len[s]):  # the word's letters fix the cells
        cell = slot_cells[s, p]
        m = np.int64(1) << np.int64(words.codes[row, p])
        if cell_mask[cell] != m:
            t = cross[s, p]
            if t >= 0:
                _note_removed(t, cross_pos[s, p], cell_mask[cell] & ~m, work.dirty, removed)  # before t is dirty
                work.dirty[t] |= np.int64(1) << cross_pos[s, p]
                why[t, lw] |= lbit
                qlen = _enqueue(t, qlen, work)
            cell_mask[cell] = m
    return lw, lbit, jw, bit, qlen


@njit(cache=True, inline="always")
def _enqueue(t, qlen, work):
    """Queue slot t at queue[qlen] unless it is queued; return the queue length."""
    if not work.inq[t]:
        work.inq[t] = True
        work.queue[qlen] = t
        qlen += 1
    return qlen


@njit(cache=True, inline="always")
def _drop_word(t, off, jw, bit, lw, lbit, qlen, dom, count, why, work):
    """Take the placed word (bit `bit` of domain word jw) from same-length slot t (domain at off),
    explained by the decision's level; return the queue length with t queued, or -1 if t had no
    other word (the queue emptied)."""
    dom[off + jw] ^= bit
    why[t, lw] |= lbit
    if count[t] == 1:
        work.fail_count[t] += 1
        _clear_queue(work, 0, qlen)
        return -1
    work.force[t] = True
    return _enqueue(t, qlen, work)


@njit(cache=True, inline="always")
def _sibling_bit(r, t, words):
    """(domain word, bit) of word row r in slot t's domain, or (-1, 0) when r is not of t's length."""
    b = r - words.slot_row0[t]
    if b < 0 or b >= 64 * words.slot_nw[t]:
        return -1, ZERO
    return b >> 6, ONE << np.uint64(b & 63)


@njit(cache=True, inline="always")
def _siblings_of(s, i, words):
    """The range of sib_rows holding the siblings of slot s's word bit i."""
    row = words.slot_row0[s] + i
    if row + 1 >= words.sib_start.shape[0]:
        return 0, 0
    return words.sib_start[row], words.sib_start[row + 1]


@njit(cache=True, inline="always")
def _next_slot(count, work, slot_len, last_conflict, cross):
    """(the slot to fill at a level with these domain sizes, the last-conflict slot, cleared once assigned)."""
    if last_conflict >= 0 and work.assigned[last_conflict]:
        last_conflict = -1
    return _choose_slot(count, work, slot_len, last_conflict, cross), last_conflict


@njit(cache=True, inline="always")
def _backtrack(s, level, last_conflict, run, acc, assigned, lv_slot):
    """Slot s (level `level`) ran out of words: the level to resume, or -1 when no fill exists (the
    conflict involves no decision), and the last-conflict slot. With backjumping (run.use_cbj) the
    target is the deepest level in the conflict set, which it inherits; the levels skipped are unassigned."""
    assigned[s] = 0
    if run.use_lc:
        last_conflict = s
    if level == 0:
        return -1, last_conflict
    target = level - 1
    if run.use_cbj:
        target = _backjump_level(acc[level], level)
        if target < 0:
            return -1, last_conflict
        for lv in range(target + 1, level):
            assigned[lv_slot[lv]] = 0
        _merge(acc[target], acc[level])
        acc[target, target >> 6] &= ~(ONE << np.uint64(target & 63))
    return target, last_conflict


@njit(cache=True, inline="always")
def _copy(dst, src):
    """dst[:] = src for 1-d arrays of one length (a loop: no temporary, none of numba's reference counting)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def _count_nonzero(bits, off, nw, out, summary):
    """out[:k] = the indices j < nw with bits[off + j] != 0, and their bits in summary (bit j % 64
    of summary[j // 64]); return (popcount of the words, k)."""
    n = 0
    k = 0
    for w in range((nw + 63) >> 6):
        summary[w] = ZERO
    for j in range(nw):
        x = bits[off + j]
        if x:
            n += popcount(x)
            out[k] = j
            k += 1
            summary[j >> 6] |= ONE << np.uint64(j & 63)
    return n, k


@njit(cache=True, inline="always")
def _nonzero_words(bits, off, nw, out):
    """out[:k] = the indices j < nw with bits[off + j] != 0; return k."""
    k = 0
    for j in range(nw):
        if bits[off + j]:
            out[k] = j
            k += 1
    return k


@njit(cache=True, inline="always")
def _domain_words(dom, off, nz, k, out):
    """out[:n] = the word bits set in the non-zero domain words nz[:k] (from dom[off]); return n."""
    n = 0
    for a in range(k):
        j = nz[a]
        x = dom[off + j]
        while x:
            out[n] = j * 64 + lowest_bit(x)
            x &= x - ONE
            n += 1
    return n


@njit(cache=True, inline="always")
def _letters_of(mask, n_letters, out):
    """out[:k] = the letter codes in a cell mask, ascending; return k (one step per letter present)."""
    k = 0
    x = mask & _full_mask(n_letters)
    while x:
        out[k] = lowest_bit(x)
        x &= x - 1
        k += 1
    return k


@njit(cache=True, inline="always")
def _note_removed(t, q, gone, dirty, removed):
    """Cell q of slot t lost the letters `gone`: add them to what its next filter removes
    (a clean cell starts a new record: its domain agrees with the letters it had)."""
    if (dirty[t] >> q) & 1:
        removed[t, q] |= gone
    else:
        removed[t, q] = gone


@njit(cache=True, inline="always")
def _filter_domain(s, dom, cell_mask, dirty, struct, words, letters, removed):
    """AND slot s's domain with the letters allowed in its dirty cells.

    A cell is filtered by the fewest letters of: its allowed letters (kept), its excluded
    letters, or the letters it lost since its last filter (removed[s, p]; -1 unknown)."""
    slot_len, slot_cells, _, _ = struct
    slot_pb, pos_bits, n_letters = words.slot_pb, words.pos_bits, words.n_letters
    full = _full_mask(n_letters)
    off, nw, stride, d = _take_dirty(s, dirty, words)
    for p in range(slot_len[s]):
        if not (d >> p) & 1:
            continue
        m = cell_mask[slot_cells[s, p]]
        if m == full:
            continue
        base = slot_pb[s] + p * stride
        if (m & (m - 1)) == 0:  # one letter
            b = base + lowest_bit(m) * nw
            for j in range(nw):
                dom[off + j] &= pos_bits[b + j]
            continue
        k_in = popcount(m)
        gone = removed[s, p]
        keep = False
        if gone >= 0 and popcount(gone) <= min(k_in, n_letters - k_in):
            k_in = _letters_of(gone, n_letters, letters)
        elif k_in <= n_letters - k_in:
            k_in = _letters_of(m, n_letters, letters)
            keep = True
        else:
            k_in = _letters_of(full & ~m, n_letters, letters)
        if not keep:  # one branch-free pass per removed letter
            for i in range(k_in):
                b = base + letters[i] * nw
                for j in range(nw):
                    dom[off + j] &= ~pos_bits[b + j]
            continue
        for j in range(nw):
            x = dom[off + j]
            if not x:
                continue
            acc = ZERO
            for i in range(k_in):
                acc |= pos_bits[base + letters[i] * nw + j]
            dom[off + j] = x & acc


@njit(cache=True, inline="always")
def _support(s, n, k, todo, dom, cell_mask, struct, words, scratch):
    """support[p] = the letters at position p of slot s's n words, for the positions in todo.

    Few words: read their letters. Else per (position, letter) test the 64-bit domain word
    that held such a word last time (`residue`, a hint kept across the search), then scan
    the non-zero domain words to the first hit."""
    slot_len, slot_cells, _, _ = struct
    slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, n_letters, _, _ = words
    support, nz, letters, residue, found = scratch.support, scratch.nz, scratch.letters, scratch.residue, scratch.found
    summary = scratch.summary
    length = slot_len[s]
    nw = slot_nw[s]
    off = slot_off[s]
    n_todo = 0
    scan = 0  # domain words the letter tests are expected to read
    for p in range(length):
        if (todo >> p) & 1:
            n_todo += 1
            scan += popcount(cell_mask[slot_cells[s, p]]) * min(k, SCAN_WORDS)
    if n * n_todo <= scan:  # read the letters off the words
        row0 = slot_row0[s]
        for a in range(_domain_words(dom, off, nz, k, found)):
            row = row0 + found[a]
            for p in range(length):
                if (todo >> p) & 1:
                    support[p] |= np.int64(1) << np.int64(codes[row, p])
        return
    stride = (n_letters + 1) * nw
    for p in range(length):
        if not (todo >> p) & 1:
            continue
        base = slot_pb[s] + p * stride
        n_in = _letters_of(cell_mask[slot_cells[s, p]], n_letters, letters)
        for i in range(n_in):
            c = letters[i]
            b = base + c * nw
            r = residue[s, p, c]  # where this letter had a word last time
            if dom[off + r] & pos_bits[b + r]:
                support[p] |= np.int64(1) << c
                continue
            has = scratch.has[s, p, c]  # the domain words worth testing: non-zero, and with c at p somewhere
            for w in range((nw + 63) >> 6):
                y = summary[w] & has[w]
                hit = -1
                while y:
                    j = (w << 6) + lowest_bit(y)
                    if dom[off + j] & pos_bits[b + j]:
                        hit = j
                        break
                    y &= y - ONE
                if hit >= 0:
                    support[p] |= np.int64(1) << c
                    residue[s, p, c] = hit
                    break


@njit(cache=True, inline="always")
def _save(s, level, dom, words, trail, saved):
    """Keep slot s's domain on the trail before its first change at this level."""
    if saved[s] == level:
        return
    slot_off, slot_nw = words.slot_off, words.slot_nw
    t_slot, t_off, t_bits, top = trail
    n = top[0]
    t_slot[n] = s
    t_off[n + 1] = t_off[n] + slot_nw[s]
    off = slot_off[s]
    base = t_off[n]
    for j in range(slot_nw[s]):
        t_bits[base + j] = dom[off + j]
    top[0] = n + 1
    saved[s] = level


@njit(cache=True, inline="always")
def _undo(mark, dom, words, trail, saved):
    """Restore the domains saved since trail entry `mark`."""
    slot_off, slot_nw = words.slot_off, words.slot_nw
    t_slot, t_off, t_bits, top = trail
    n = top[0]
    while n > mark:
        n -= 1
        s = t_slot[n]
        off = slot_off[s]
        base = t_off[n]
        for j in range(slot_nw[s]):
            dom[off + j] = t_bits[base + j]
        saved[s] = -1
    top[0] = mark


@njit(cache=True, inline="always")
def _revise(s, level, state, work, struct, words, scratch):
    """Filter slot s's domain by its dirty cells; narrow its cells to supported letters.

    Returns -1 if the domain empties, else a bit mask of the positions whose cell lost letters."""
    slot_len, slot_cells = struct.slot_len, struct.slot_cells
    slot_off, slot_nw = words.slot_off, words.slot_nw
    dom, cell_mask, count, trail, saved = state.dom, state.cell_mask, state.count, state.trail, state.saved
    dirty, force = work.dirty, work.force
    support = scratch.support
    _save(s, level, dom, words, trail, saved)
    _filter_domain(s, dom, cell_mask, dirty, struct, words, scratch.letters, scratch.removed)
    n, k = _count_nonzero(dom, slot_off[s], slot_nw[s], scratch.nz, scratch.summary)  # listed in scratch.nz
    todo = _to_support(s, n, count, force, cell_mask, slot_cells, slot_len[s], support)
    if todo <= 0:
        return todo
    _support(s, n, k, todo, dom, cell_mask, struct, words, scratch)
    return _narrow(s, todo, support, cell_mask, struct, dirty, scratch.removed)


@njit(cache=True, inline="always")
def _propagate(qlen, level, state, work, struct, words, scratch):
    """Arc consistency from the slots in queue[:qlen]; return the slot that emptied or -1."""
    head = 0
    while qlen > 0:
        s, head, qlen = _pop(work, head, qlen)
        changed = _revise(s, level, state, work, struct, words, scratch)
        if changed < 0:
            return _wipe_out(s, work, head, qlen)
        if changed > 0:
            qlen = _wake_crossings(s, changed, head, qlen, struct, work, state.why)
    return -1


@njit(cache=True, inline="always")
def _assign(s, i, level, state, work, struct, words, scratch):
    """Give slot s its word bit i (the decision of search level `level`), take that word
    from same-length slots and its siblings from every slot, propagate; return the slot whose
    domain emptied, or -1."""
    slot_len, slot_row0, slot_off = struct.slot_len, words.slot_row0, words.slot_off
    dom, count, why, trail, saved = state.dom, state.count, state.why, state.trail, state.saved
    _save(s, level, dom, words, trail, saved)
    lw, lbit, jw, bit, qlen = _place(
        s, i, level, dom, state.cell_mask, count, why, work, struct, words, scratch.removed
    )
    for t in range(slot_len.shape[0]):  # no repeats
        if t == s or slot_len[t] != slot_len[s] or slot_row0[t] != slot_row0[s]:
            continue
        if dom[slot_off[t] + jw] & bit:
            _save(t, level, dom, words, trail, saved)
            qlen = _drop_word(t, slot_off[t], jw, bit, lw, lbit, qlen, dom, count, why, work)
            if qlen < 0:
                return t
    lo, hi = _siblings_of(s, i, words)
    for a in range(lo, hi):  # no other form of the word (SEE, then not SEES)
        for t in range(slot_len.shape[0]):
            sj, sbit = _sibling_bit(words.sib_rows[a], t, words)
            if t != s and sj >= 0 and dom[slot_off[t] + sj] & sbit:
                _save(t, level, dom, words, trail, saved)
                qlen = _drop_word(t, slot_off[t], sj, sbit, lw, lbit, qlen, dom, count, why, work)
                if qlen < 0:
                    return t
    return _propagate(qlen, level, state, work, struct, words, scratch)


@njit(cache=True, inline="always")
def _crossing_counts(t, q, m, dom, count, words, counts_p, nz, letters, found):
    """counts_p[c] = the words of crossing slot t with letter c at its position q, for
    the letters c of cell mask m (0 for the others)."""
    slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, n_letters, _, _ = words
    counts_p[:] = 0
    nw = slot_nw[t]
    off = slot_off[t]
    k = _nonzero_words(dom, off, nw, nz)
    n_in = _letters_of(m, n_letters, letters)
    if count[t] <= n_in * k:  # read the letters off the words
        row0 = slot_row0[t]
        for a in range(_domain_words(dom, off, nz, k, found)):
            counts_p[codes[row0 + found[a], q]] += 1
        for c in range(n_letters + 1):
            if not (m >> c) & 1:
                counts_p[c] = 0
        return
    base = slot_pb[t] + q * (n_letters + 1) * nw
    for a in range(k):
        j = nz[a]
        x = dom[off + j]
        for i in range(n_in):
            c = letters[i]
            y = x & pos_bits[base + c * nw + j]
            if y:
                counts_p[c] += popcount(y)


@njit(cache=True, inline="always")
def _order(s, state, assigned, struct, words, weights, noise, log_of, order, start, scratch):
    """Write slot s's candidate word bits, best first, to order.cand[start:]; return how many.

    The scores of _score_candidates (log_of[n] = ln n), sorted stably."""
    slot_len, slot_cells, cross, cross_pos = struct
    slot_off, slot_nw = words.slot_off, words.slot_nw
    counts, scores, cand = order.counts, order.scores, order.cand
    dom, cell_mask, count = state.dom, state.cell_mask, state.count
    nz, letters, found = scratch.nz, scratch.letters, scratch.found
    length = slot_len[s]
    for p in range(length):
        t = cross[s, p]
        if t < 0 or assigned[t]:
            counts[p, :] = 1
            continue
        m = cell_mask[slot_cells[s, p]]
        _crossing_counts(t, cross_pos[s, p], m, dom, count, words, counts[p], nz, letters, found)
    n = 0
    off = slot_off[s]
    for j in range(slot_nw[s]):
        x = dom[off + j]
        while x:
            cand[start + n] = j * 64 + lowest_bit(x)
            x &= x - ONE
            n += 1
    k = _score_candidates(
        words.slot_row0[s], length, n, start, words.codes, weights, noise, log_of, counts, cand, scores
    )
    if k > 1:
        _sort_stable(scores, cand, start, k, order.tmp_scores, order.tmp_cand)
    return k


@njit(cache=True, inline="always")
def _sort_stable(scores, cand, start, k, tmp_s, tmp_c):
    """Sort scores[:k] ascending, moving cand[start:start + k] along; stable, so the order is
    np.argsort(kind="mergesort")'s, with no allocation (runs of SORT_RUN by insertion, then merges)."""
    for lo in range(0, k, SORT_RUN):
        for i in range(lo + 1, min(lo + SORT_RUN, k)):
            v, c = scores[i], cand[start + i]
            j = i - 1
            while j >= lo and scores[j] > v:
                scores[j + 1], cand[start + j + 1] = scores[j], cand[start + j]
                j -= 1
            scores[j + 1], cand[start + j + 1] = v, c
    width = SORT_RUN
    while width < k:
        for lo in range(0, k - width, 2 * width):
            mid, hi = lo + width, min(lo + 2 * width, k)
            i, j = lo, mid
            for o in range(lo, hi):
                if j >= hi or (i < mid and scores[i] <= scores[j]):  # ties from the left: stable
                    tmp_s[o], tmp_c[o] = scores[i], cand[start + i]
                    i += 1
                else:
                    tmp_s[o], tmp_c[o] = scores[j], cand[start + j]
                    j += 1
            for o in range(lo, hi):
                scores[o], cand[start + o] = tmp_s[o], tmp_c[o]
        width *= 2


@njit(cache=True)
def _read_words(dom, struct, words, out_word):
    """out_word[s] = the word row of each slot's single remaining word."""
    slot_row0, slot_off, slot_nw = words.slot_row0, words.slot_off, words.slot_nw
    for s in range(struct.slot_len.shape[0]):
        for j in range(slot_nw[s]):
            x = dom[slot_off[s] + j]
            if x:
                out_word[s] = slot_row0[s] + j * 64 + lowest_bit(x)
                break


@njit(cache=True, inline="always")
def _level_explanation(s, why, cross, length, acc):
    """acc = why the domain of slot s is what it is at this level: its explanation and
    those of its crossing slots (whose letters filtered its candidates)."""
    _copy(acc, why[s])
    for p in range(length):
        t = cross[s, p]
        if t >= 0:
            _merge(acc, why[t])


@njit(cache=True)
def _letter_words(struct, words, n_sw):
    """has[s, p, c] = a bit per 64-bit word of slot s's domain holding a word with letter c at p."""
    slot_len, slot_cells = struct.slot_len, struct.slot_cells
    slot_nw, slot_pb, pos_bits, n_letters = words.slot_nw, words.slot_pb, words.pos_bits, words.n_letters
    has = np.zeros((slot_len.shape[0], slot_cells.shape[1], n_letters + 1, n_sw), dtype=np.uint64)
    for s in range(slot_len.shape[0]):
        nw = slot_nw[s]
        for p in range(slot_len[s]):
            for c in range(n_letters + 1):
                b = slot_pb[s] + (p * (n_letters + 1) + c) * nw
                for j in range(nw):
                    if pos_bits[b + j]:
                        has[s, p, c, j >> 6] |= ONE << np.uint64(j & 63)
    return has


@njit(cache=True)
def new_buffers(struct, words, n_cells):
    """The Buffers of a fill's search, allocated once per fill and reused by its restarts."""
    slot_len, slot_cells = struct.slot_len, struct.slot_cells
    slot_nw, n_letters = words.slot_nw, words.n_letters
    n_slots = slot_len.shape[0]
    levels = n_slots + 2
    n_lw = (levels + 63) // 64
    total_nw = int(np.sum(slot_nw))
    width = slot_cells.shape[1]
    max_nw = 1
    for s in range(n_slots):
        max_nw = max(max_nw, slot_nw[s])
    trail = Trail(  # per entry a slot and its saved domain; a level saves a slot at most once
        np.zeros(levels * n_slots + 1, dtype=np.int64),
        np.zeros(levels * n_slots + 2, dtype=np.int64),
        np.zeros(levels * total_nw + 1, dtype=np.uint64),
        np.zeros(1, dtype=np.int64),
    )
    lv = Levels(
        np.zeros(levels, dtype=np.int64),
        np.zeros(levels, dtype=np.int64),
        np.zeros(levels, dtype=np.int64),
        np.zeros(levels, dtype=np.int64),
        np.zeros(levels, dtype=np.int64),
    )
    scratch = Scratch(
        np.zeros(width, dtype=np.int64),
        np.zeros(max_nw, dtype=np.int64),
        np.zeros(n_letters + 1, dtype=np.int64),
        np.zeros((n_slots, width, n_letters + 1), dtype=np.int64),
        np.zeros(max_nw * 64, dtype=np.int64),
        np.full((n_slots, width), -1, dtype=np.int64),
        _letter_words(struct, words, (max_nw + 63) >> 6),
        np.zeros((max_nw + 63) >> 6, dtype=np.uint64),
    )
    total = total_nw * 64 + 64
    order = Ordering(
        np.ones((width, n_letters + 1), dtype=np.int64),
        np.zeros(total, dtype=np.float64),
        np.zeros(total, dtype=np.int64),
        np.zeros(max_nw * 64, dtype=np.float64),
        np.zeros(max_nw * 64, dtype=np.int64),
    )
    return Buffers(
        np.zeros(total_nw, dtype=np.uint64),
        np.zeros(total_nw, dtype=np.uint64),
        np.zeros((levels, n_cells), dtype=np.int64),
        np.zeros((levels, n_slots), dtype=np.int64),
        np.zeros((levels, n_slots, n_lw), dtype=np.uint64),
        np.zeros((levels, n_lw), dtype=np.uint64),
        trail,
        np.full(n_slots, -1, dtype=np.int64),
        lv,
        scratch,
        order,
    )


@njit(cache=True)
def start_state(struct, words, start, buffers, fail_count):
    """Level 0 of every restart: arc consistency on the Start domains and cell masks into
    buffers.dom0; return the slot that emptied (no fill exists) or -1."""
    mask, count, why, trail, saved, scratch = (
        buffers.mask,
        buffers.count,
        buffers.why,
        buffers.trail,
        buffers.saved,
        buffers.scratch,
    )
    n_slots = struct.slot_len.shape[0]
    buffers.dom0[:] = start.dom
    mask[0, :] = start.cell_mask
    count[0, :] = -1
    why[0] = ZERO
    saved[:] = -1
    trail.top[0] = 0
    work = _new_work(struct.slot_len, fail_count)
    scratch.removed[:] = -1  # every cell dirty, its lost letters unknown
    level0 = State(buffers.dom0, mask[0], count[0], why[0], trail, saved)
    failed = _propagate(n_slots, -2, level0, work, struct, words, scratch)
    trail.top[0] = 0  # level 0's domains are the base: never undone
    saved[:] = -1
    return failed


@njit(cache=True)
def _search_work(n_slots, fail_count):
    """The Work of a search from level 0: nothing queued or assigned."""
    queue = np.zeros(n_slots, dtype=np.int64)
    inq = np.zeros(n_slots, dtype=np.bool_)
    dirty = np.zeros(n_slots, dtype=np.int64)
    force = np.zeros(n_slots, dtype=np.bool_)
    assigned = np.zeros(n_slots, dtype=np.int64)
    return Work(queue, inq, dirty, force, assigned, fail_count)


def fill_search(struct, words, weights, buffers, fail_count, out_word, run):
    """One attempt (Run) of the search from the level 0 of start_state, on one domain array
    with an undo trail (module docstring); the same results as the baseline's fill_bits.

    Returns (status, nodes, failed slot): status 1 = filled (out_word[s] = word row of slot
    s), 0 = proved impossible, -1 = node limit reached. Plain Python around the compiled
    loop (_fill_loop): compiled as well, it cost ~2.5 s of the fill's first compile.
    """
    args = fill_loop_args(struct, words, weights, buffers, fail_count, out_word, run)
    compile_once(_fill_loop, *args)  # ~20 CPU s the first time: one process of a machine compiles it
    return _fill_loop(*args)


def fill_loop_args(struct, words, weights, buffers, fail_count, out_word, run) -> tuple:
    """_fill_loop's arguments: the given bundles, the log table of the domain sizes and a fresh Work."""
    n_slots = struct.slot_len.shape[0]
    return (
        struct,
        words,
        weights,
        buffers,
        _log_table(buffers.count),
        _search_work(n_slots, fail_count),
        out_word,
        run,
    )


def compile_fill_loop(struct, words, weights, buffers, fail_count, out_word, run) -> None:
    """Compile (or load from numba's cache) the search loop for these bundles' types; searches
    nothing (the bundles may be stand-ins: fill.py warm_up_fill)."""
    compile_once(_fill_loop, *fill_loop_args(struct, words, weights, buffers, fail_count, out_word, run))


def search_loop():
    """The compiled search loop (jit.compile_ahead compiles it ahead of the first attempt)."""
    return _fill_loop


@njit(cache=True)
def _log_table(count):
    """ln(k) for k = 0 .. the largest level-0 domain (count[0]); ln 0 as ln 1e-300."""
    max_dom = 1
    for s in range(count.shape[1]):
        max_dom = max(max_dom, count[0, s])
    return np.log(np.arange(max_dom + 1).astype(np.float64) + 1e-300)


@njit(cache=True, _nrt=False)
def _fill_loop(struct, words, weights, buffers, log_of, work, out_word, run):
    """The search of fill_search over preallocated arrays, compiled without numba's reference
    counting (_nrt=False): its bundles are unpacked per node, and the increments and decrements
    cost more than the node; allocating here is a compile error, so nothing can leak."""
    node_limit, noise = run.node_limit, run.noise
    np.random.seed(run.seed)
    slot_len, cross = struct.slot_len, struct.cross
    mask, count, why, acc, trail, saved = (
        buffers.mask,
        buffers.count,
        buffers.why,
        buffers.acc,
        buffers.trail,
        buffers.saved,
    )
    scratch, order = buffers.scratch, buffers.order
    dom = buffers.dom
    _copy(dom, buffers.dom0)
    trail.top[0] = 0
    saved[:] = -1
    lv_slot, lv_start, lv_n, lv_tried, lv_mark = buffers.levels
    cand = order.cand
    assigned = work.assigned
    nodes = 0
    level = 0
    descend = True
    last_conflict = -1
    while True:
        if descend:
            best, last_conflict = _next_slot(count[level], work, slot_len, last_conflict, cross)
            state = State(dom, mask[level], count[level], why[level], trail, saved)
            if best < 0:
                _read_words(dom, struct, words, out_word)
                return 1, nodes, -1
            first = lv_start[level - 1] + lv_n[level - 1] if level > 0 else 0
            lv_slot[level] = best
            lv_start[level] = first
            lv_n[level] = _order(best, state, assigned, struct, words, weights, noise, log_of, order, first, scratch)
            lv_tried[level] = 0
            lv_mark[level] = trail.top[0]
            assigned[best] = 1
            _level_explanation(best, why[level], cross, slot_len[best], acc[level])
        s = lv_slot[level]
        placed = False
        while lv_tried[level] < lv_n[level]:
            if nodes >= node_limit:
                return -1, nodes, -1
            i = cand[lv_start[level] + lv_tried[level]]
            lv_tried[level] += 1
            nodes += 1
            _undo(lv_mark[level], dom, words, trail, saved)
            _copy(mask[level + 1], mask[level])
            _copy(count[level + 1], count[level])
            for t in range(why.shape[1]):
                _copy(why[level + 1, t], why[level, t])
            child = State(dom, mask[level + 1], count[level + 1], why[level + 1], trail, saved)
            wiped = _assign(s, i, level, child, work, struct, words, scratch)
            if wiped < 0:
                placed = True
                break
            _merge(acc[level], why[level + 1, wiped])
        if placed:  # (the last-conflict slot, if s, is cleared at the next level: s is assigned)
            level += 1
            descend = True
            continue
        _undo(lv_mark[level], dom, words, trail, saved)
        target, last_conflict = _backtrack(s, level, last_conflict, run, acc, assigned, lv_slot)
        if target < 0:
            return 0, nodes, -1  # proved: no fill exists
        _undo(lv_mark[target + 1], dom, words, trail, saved)
        level = target
        descend = False
