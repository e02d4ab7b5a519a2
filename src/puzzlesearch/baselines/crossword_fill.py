"""Numba kernels: word hash sets, the grid cost, the progressive-search mutation loop, the
bitset fill search.

Plain arrays in, plain arrays out. Conventions (see model.py): grids are int8 letter
codes, 0 = black. Word tables are `codes` (n, W) int8 rows padded with 0 and `lengths`;
a hash table is an int32 array of row numbers (-1 = empty), size a power of two, open
addressing with linear probing. Costs are integers in units of 0.2 letter:
cost5 = 5 x unknown letters + 1 x scrambled letters, so f = cost5 / 5.
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNKNOWN_WEIGHT = 5  # a letter of an unknown vertical word costs 1 = 5 units
SCRAMBLED_WEIGHT = 1  # a letter of an anagram of a word costs 0.2 = 1 unit


# ---------------------------------------------------------------- hash sets


@njit(cache=True)
def word_hash(q, n):
    """Hash of the first n codes of q (int64, wrapping arithmetic)."""
    h = np.int64(n) * np.int64(0x9E3779B1)
    for i in range(n):
        h = (h ^ np.int64(q[i] + 1)) * np.int64(0x100000001B3)
    h ^= h >> np.int64(29)
    return h


@njit(cache=True)
def build_table(codes, lengths, size):
    """Hash table (int32, -1 empty) of the rows of `codes`; size a power of two."""
    table = np.full(size, -1, dtype=np.int32)
    mask = size - 1
    for row in range(codes.shape[0]):
        k = word_hash(codes[row], lengths[row]) & mask
        while table[k] >= 0:
            k = (k + 1) & mask
        table[k] = row
    return table


@njit(cache=True)
def find(table, codes, lengths, q, n):
    """Row of the word q[:n] in a hash table, or -1."""
    mask = table.shape[0] - 1
    k = word_hash(q, n) & mask
    while True:
        row = table[k]
        if row < 0:
            return -1
        if lengths[row] == n:
            same = True
            for i in range(n):
                if codes[row, i] != q[i]:
                    same = False
                    break
            if same:
                return row
        k = (k + 1) & mask


@njit(cache=True)
def sort_small(q, n):
    """Insertion sort of q[:n] in place (words are short)."""
    for i in range(1, n):
        v = q[i]
        j = i - 1
        while j >= 0 and q[j] > v:
            q[j + 1] = q[j]
            j -= 1
        q[j + 1] = v


# ---------------------------------------------------------------- cost
#
# `words` = (codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table):
# the word rows, their hash table and the eligible flags, and the same for the anagram
# signatures (WordTables.kernel_args()).


@njit(cache=True)
def run_cost(q, n, words):
    """Cost units of one vertical word q[:n] (q is scratch: it gets sorted)."""
    codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table = words
    if n < 2:
        return 0
    row = find(word_table, codes, lengths, q, n)
    if row >= 0 and word_ok[row]:
        return 0
    sort_small(q, n)
    sid = find(sig_table, sig_codes, sig_lengths, q, n)
    if sid >= 0 and sig_ok[sid]:
        return SCRAMBLED_WEIGHT * n
    return UNKNOWN_WEIGHT * n


@njit(cache=True)
def column_run(grid, r, c):
    """(start row, length) of the vertical run through white cell (r, c)."""
    top = r
    while top > 0 and grid[top - 1, c] != 0:
        top -= 1
    bottom = r
    n_rows = grid.shape[0]
    while bottom + 1 < n_rows and grid[bottom + 1, c] != 0:
        bottom += 1
    return top, bottom - top + 1


@njit(cache=True)
def grid_cost(grid, words):
    """(cost5, unknown letters, scrambled letters, unknown words, scrambled words, words)."""
    n_rows, n_cols = grid.shape
    q = np.zeros(n_rows, dtype=np.int8)
    out = np.zeros(6, dtype=np.int64)
    for c in range(n_cols):
        r = 0
        while r < n_rows:
            if grid[r, c] == 0:
                r += 1
                continue
            n = 0
            while r + n < n_rows and grid[r + n, c] != 0:
                q[n] = grid[r + n, c]
                n += 1
            if n >= 2:
                cost = run_cost(q, n, words)
                out[0] += cost
                out[5] += 1
                if cost == UNKNOWN_WEIGHT * n:
                    out[1] += n
                    out[3] += 1
                elif cost > 0:
                    out[2] += n
                    out[4] += 1
            r += n
    return out


# ---------------------------------------------------------------- progressive search
#
# progressive_search takes its arrays in tuples:
#   queue = (qgrid, qcost, qpat, qkey): capacity qgrid.shape[0] grids with their cost,
#       pattern index and hash;
#   best = (best_grid, best_info): the cheapest grid seen and [cost5, pattern];
#   layouts = (slot_row, slot_col, slot_len, n_slots, cell_slot): per pattern index, the
#       across slots (row, first column, length), their number and each cell's slot;
#   words: as for the cost above;
#   draw = (len_start, len_count, fillers): the eligible word rows of each length and the
#       letters of one-letter slots.


@njit(cache=True)
def seed_rng(seed):
    """Seed numba's own random generator (separate from numpy's)."""
    np.random.seed(seed)


@njit(cache=True)
def grid_key(grid):
    """A 64-bit hash of a grid (to keep duplicates out of the queue)."""
    h = np.int64(1469598103934665603)
    for v in grid.ravel():
        h = (h ^ np.int64(v + 1)) * np.int64(0x100000001B3)
    return h


@njit(cache=True)
def _slot_delta(grid, r, c0, n, new, words, q):
    """Cost change when row r, columns c0..c0+n-1 get the letters new[:n]."""
    delta = 0
    for i in range(n):
        c = c0 + i
        if grid[r, c] == new[i]:
            continue
        top, m = column_run(grid, r, c)
        if m < 2:
            continue
        for k in range(m):
            q[k] = grid[top + k, c]
        delta -= run_cost(q, m, words)
        for k in range(m):
            q[k] = grid[top + k, c]
        q[r - top] = new[i]
        delta += run_cost(q, m, words)
    return delta


@njit(cache=True)
def _bad_cells(grid, words, q, out):
    """Fill out[:k] with flat indices of cells in costly vertical words; return k."""
    n_rows, n_cols = grid.shape
    k = 0
    for c in range(n_cols):
        r = 0
        while r < n_rows:
            if grid[r, c] == 0:
                r += 1
                continue
            n = 0
            while r + n < n_rows and grid[r + n, c] != 0:
                q[n] = grid[r + n, c]
                n += 1
            if n >= 2 and run_cost(q, n, words) > 0:
                for i in range(n):
                    out[k] = (r + i) * n_cols + c
                    k += 1
            r += n
    return k


@njit(cache=True)
def _pop_cheapest(queue, qn, parent):
    """Copy the cheapest queued grid to parent and remove it: (cost, pattern, queue size)."""
    qgrid, qcost, qpat, qkey = queue
    i_best = 0
    for i in range(1, qn):
        if qcost[i] < qcost[i_best]:
            i_best = i
    parent[:, :] = qgrid[i_best]
    p_cost = qcost[i_best]
    pat = qpat[i_best]
    qn -= 1
    if i_best != qn:
        qgrid[i_best] = qgrid[qn]
        qcost[i_best] = qcost[qn]
        qpat[i_best] = qpat[qn]
        qkey[i_best] = qkey[qn]
    return p_cost, pat, qn


@njit(cache=True)
def _draw_word(n, words, draw, new):
    """new[:n] = a random eligible word of length n (a filler letter for n = 1); ok?"""
    codes = words[0]
    len_start, len_count, fillers = draw
    if n == 1:
        new[0] = fillers[np.random.randint(fillers.shape[0])]
        return True
    cnt = len_count[n]
    if cnt == 0:
        return False
    row = len_start[n] + np.random.randint(cnt)
    for i in range(n):
        new[i] = codes[row, i]
    return True


@njit(cache=True)
def _insert(queue, qn, best, parent, cost, pat):
    """Queue the grid `parent` unless it is already queued or worse than a full queue's
    worst (the caller checked room); track the best. Returns the queue size."""
    qgrid, qcost, qpat, qkey = queue
    best_grid, best_info = best
    if qn < qgrid.shape[0]:
        slot = qn
    else:
        slot = 0
        for i in range(1, qn):
            if qcost[i] > qcost[slot]:
                slot = i
        if cost >= qcost[slot]:
            return qn
    key = grid_key(parent)
    for i in range(qn):
        if qkey[i] == key and qcost[i] == cost:
            return qn
    qgrid[slot] = parent
    qcost[slot] = cost
    qpat[slot] = pat
    qkey[slot] = key
    if slot == qn:
        qn += 1
    if cost < best_info[0]:
        best_info[0] = cost
        best_info[1] = pat
        best_grid[:, :] = parent
    return qn


@njit(cache=True)
def progressive_search(queue, qn, best, layouts, words, draw, n_mutants, focus, max_pops):
    """Run up to max_pops pops of the progressive search; return (queue size, pops done).

    The queue holds qn grids. A pop removes the cheapest grid and makes n_mutants mutants
    of it: one horizontal slot gets a random other word of its length (with probability
    `focus` the slot is one crossing a costly vertical word). A mutant enters the queue
    when there is room or it beats the worst queued grid and is not already queued.
    best tracks the cheapest grid ever seen; the search stops as soon as a cost-0 grid is
    found. The tuples are described above.
    """
    qgrid = queue[0]
    best_info = best[1]
    slot_row, slot_col, slot_len, n_slots, cell_slot = layouts
    capacity = qgrid.shape[0]
    n_rows, n_cols = qgrid.shape[1], qgrid.shape[2]
    q = np.zeros(n_rows, dtype=np.int8)
    bad = np.zeros(n_rows * n_cols, dtype=np.int64)
    new = np.zeros(n_cols, dtype=np.int8)
    parent = np.zeros((n_rows, n_cols), dtype=np.int8)
    pops = 0
    while pops < max_pops and qn > 0 and best_info[0] > 0:
        pops += 1
        p_cost, pat, qn = _pop_cheapest(queue, qn, parent)
        n_bad = _bad_cells(parent, words, q, bad)
        for _ in range(n_mutants):
            if n_bad > 0 and np.random.random() < focus:
                cell = bad[np.random.randint(n_bad)]
                s = cell_slot[pat, cell // n_cols, cell % n_cols]
            else:
                s = np.random.randint(n_slots[pat])
            r, c0, n = slot_row[pat, s], slot_col[pat, s], slot_len[pat, s]
            if not _draw_word(n, words, draw, new):
                continue
            same = True
            for i in range(n):
                if parent[r, c0 + i] != new[i]:
                    same = False
                    break
            if same:
                continue
            cost = p_cost + _slot_delta(parent, r, c0, n, new, words, q)
            if qn >= capacity and cost >= _worst_cost(queue[1], qn):
                continue
            old = parent[r, c0 : c0 + n].copy()
            parent[r, c0 : c0 + n] = new[:n]
            qn = _insert(queue, qn, best, parent, cost, pat)
            parent[r, c0 : c0 + n] = old
            if best_info[0] == 0:
                break
    return qn, pops


@njit(cache=True)
def _worst_cost(qcost, qn):
    """The highest cost among the qn queued grids."""
    worst = qcost[0]
    for i in range(1, qn):
        if qcost[i] > worst:
            worst = qcost[i]
    return worst


# ---------------------------------------------------------------- bitset fill
#
# The fill kernels take their arrays in four tuples:
#   struct = (slot_len, slot_cells, cross, cross_pos): slot s has cells
#       slot_cells[s, :slot_len[s]] (flat cell numbers) and at position p the crossing slot
#       cross[s, p] (-1 for an unchecked cell) at its position cross_pos[s, p].
#   words = (slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, n_letters): word sets
#       are bitsets (uint64 words, bit i in word i // 64); a slot's domain is a bitset over
#       the eligible words of its length (bit i = word row slot_row0[s] + i; rows of a length
#       are sorted best first, so lower bits are better words), stored at
#       dom[slot_off[s] : slot_off[s] + slot_nw[s]]. pos_bits holds, per slot length,
#       position p and letter c, the bitset of the words with letter c at p:
#       pos_bits[slot_pb[s] + (p * (n_letters + 1) + c) * slot_nw[s] + j].
#   state = (dom, cell_mask, count, why): one level of the search: the domains, each
#       cell's allowed letters (int64 bit mask, bit = letter code 1..n_letters), each
#       slot's domain size (popcount) and its explanation why[s]: a bitset over search
#       levels (uint64 words) holding the levels whose assignments may have narrowed the
#       slot's domain (conflict-directed backjumping). The search keeps one state per
#       level: backtracking is dropping a level.
#   work = (queue, inq, dirty, force, assigned, fail_count): the propagation queue and
#       per-slot flags (dirty = bit mask of positions whose cell changed), which slots are
#       assigned, and failures per slot (dom/wdeg weights, kept across restarts).
# A slot's candidates are the AND over its cells of the OR of their letters' bitsets.

ONE = np.uint64(1)
ZERO = np.uint64(0)
M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
SH1, SH2, SH4, SH56, SH6 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56), np.uint64(6)
M63 = np.uint64(63)


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
def _full_mask(n_letters):
    """The cell mask allowing every letter (bits 1..n_letters)."""
    return np.int64((np.int64(1) << np.int64(n_letters + 1)) - 2)


@njit(cache=True)
def _filter_domain(s, state, dirty, struct, words):
    """AND slot s's domain with the letters allowed in its dirty cells."""
    slot_len, slot_cells, _, _ = struct
    _, slot_off, slot_nw, slot_pb, pos_bits, _, n_letters = words
    dom, cell_mask, _, _ = state
    full = _full_mask(n_letters)
    nw = slot_nw[s]
    off = slot_off[s]
    stride = (n_letters + 1) * nw
    d = dirty[s]
    dirty[s] = 0
    for p in range(slot_len[s]):
        if not (d >> p) & 1:
            continue
        m = cell_mask[slot_cells[s, p]]
        if m == full:
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
    slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, n_letters = words
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
def _revise(s, state, work, struct, words, support):
    """Filter slot s's domain by its dirty cells; narrow its cells to supported letters.

    Returns -1 if the domain empties, else a bit mask of the positions whose cell lost letters."""
    slot_len, slot_cells, _, _ = struct
    _, slot_off, slot_nw, _, _, _, _ = words
    dom, cell_mask, count, _ = state
    _, _, dirty, force, _, _ = work
    _filter_domain(s, state, dirty, struct, words)
    n = bits_count(dom, slot_off[s], slot_nw[s])
    if n == 0:
        count[s] = 0
        force[s] = False
        return -1
    if n == count[s] and not force[s]:
        return 0
    force[s] = False
    count[s] = n
    length = slot_len[s]
    todo = 0  # positions whose cell still holds several letters
    for p in range(length):
        m = cell_mask[slot_cells[s, p]]
        support[p] = 0
        if (m & (m - 1)) != 0:
            todo |= 1 << p
    if todo == 0:
        return 0
    _support(s, todo, state, struct, words, support)
    changed = 0
    for p in range(length):
        if not (todo >> p) & 1:
            continue
        cell = slot_cells[s, p]
        new = cell_mask[cell] & support[p]
        if new != cell_mask[cell]:
            cell_mask[cell] = new
            changed |= 1 << p
    return changed


@njit(cache=True)
def _clear_queue(work, head, qlen):
    """Empty the propagation queue (after a wipe-out)."""
    queue, inq, dirty, force, _, _ = work
    n_slots = queue.shape[0]
    while qlen > 0:
        t = queue[head]
        inq[t] = False
        dirty[t] = 0
        force[t] = False
        head = (head + 1) % n_slots
        qlen -= 1


@njit(cache=True)
def _propagate_bits(qlen, state, work, struct, words):
    """Arc consistency from the slots in queue[:qlen]; return the slot that emptied or -1."""
    slot_len, slot_cells, cross, cross_pos = struct
    queue, inq, dirty, _, _, fail_count = work
    why = state[3]
    n_slots = slot_len.shape[0]
    support = np.zeros(slot_cells.shape[1], dtype=np.int64)
    head = 0
    while qlen > 0:
        s = queue[head]
        head = (head + 1) % n_slots
        qlen -= 1
        inq[s] = False
        changed = _revise(s, state, work, struct, words, support)
        if changed < 0:
            fail_count[s] += 1
            _clear_queue(work, head, qlen)
            return s
        if changed == 0:
            continue
        for p in range(slot_len[s]):
            if (changed >> p) & 1:
                t = cross[s, p]
                if t >= 0:
                    dirty[t] |= np.int64(1) << cross_pos[s, p]
                    why[t, :] |= why[s]  # t's narrowing follows from s's
                    if not inq[t]:
                        inq[t] = True
                        queue[(head + qlen) % n_slots] = t
                        qlen += 1
    return -1


@njit(cache=True)
def _assign_bits(s, i, level, state, work, struct, words):
    """Give slot s its word bit i (the decision of search level `level`), take that word
    from same-length slots, propagate; return the slot whose domain emptied, or -1."""
    slot_len, slot_cells, cross, cross_pos = struct
    slot_row0, slot_off, slot_nw, _, _, codes, _ = words
    dom, cell_mask, count, why = state
    queue, inq, dirty, force, _, fail_count = work
    lw = level >> 6
    lbit = ONE << np.uint64(level & 63)
    why[s, :] = ZERO
    why[s, lw] = lbit
    off, nw = slot_off[s], slot_nw[s]
    for j in range(nw):
        dom[off + j] = ZERO
    jw = i >> 6
    bit = ONE << np.uint64(i & 63)
    dom[off + jw] = bit
    count[s] = 1
    row = slot_row0[s] + i
    qlen = 0
    for p in range(slot_len[s]):  # the word's letters fix the cells
        cell = slot_cells[s, p]
        m = np.int64(1) << np.int64(codes[row, p])
        if cell_mask[cell] != m:
            cell_mask[cell] = m
            t = cross[s, p]
            if t >= 0:
                dirty[t] |= np.int64(1) << cross_pos[s, p]
                why[t, lw] |= lbit
                if not inq[t]:
                    inq[t] = True
                    queue[qlen] = t
                    qlen += 1
    for t in range(slot_len.shape[0]):  # no repeats
        if t == s or slot_len[t] != slot_len[s] or slot_row0[t] != slot_row0[s]:
            continue
        if dom[slot_off[t] + jw] & bit:
            dom[slot_off[t] + jw] ^= bit
            why[t, lw] |= lbit
            if count[t] == 1:
                fail_count[t] += 1
                _clear_queue(work, 0, qlen)
                return t
            force[t] = True
            if not inq[t]:
                inq[t] = True
                queue[qlen] = t
                qlen += 1
    return _propagate_bits(qlen, state, work, struct, words)


@njit(cache=True)
def _order_bits(s, state, assigned, struct, words, weights, noise, scratch, start):
    """Write slot s's candidate word bits, best first, to cand[start:]; return how many.

    Score: weight x word_weight + sum over unassigned crossings of ln(words of the crossing
    that agree with the candidate's letter there). weights = (word_weight, weight);
    scratch = (log_of, counts, scores, cand)."""
    slot_len, slot_cells, cross, cross_pos = struct
    slot_row0, slot_off, slot_nw, slot_pb, pos_bits, codes, n_letters = words
    word_weight, weight = weights
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
    row0 = slot_row0[s]
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
    order = np.argsort(scores[:k], kind="mergesort")
    cand[start : start + k] = cand[start : start + k][order]
    return k


FAIL_POWER = 0.5  # slot order: words / (1 + failures)^FAIL_POWER (1.0: 1.16x the mean nodes on medium; Nov 23)


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
    _, _, _, _, assigned, fail_count = work
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
def _read_words(state, struct, words, out_word):
    """out_word[s] = the word row of each slot's single remaining word."""
    slot_row0, slot_off, slot_nw, _, _, _, _ = words
    dom = state[0]
    idx = np.zeros(1, dtype=np.int64)
    for s in range(struct[0].shape[0]):
        bits_list(dom, slot_off[s], slot_nw[s], idx)
        out_word[s] = slot_row0[s] + idx[0]


@njit(cache=True)
def _new_work(slot_len, fail_count):
    """The work tuple with every slot queued, dirty and forced (the first propagation)."""
    n_slots = slot_len.shape[0]
    queue = np.arange(n_slots).astype(np.int64)
    inq = np.ones(n_slots, dtype=np.bool_)
    dirty = np.zeros(n_slots, dtype=np.int64)
    for s in range(n_slots):
        dirty[s] = (np.int64(1) << slot_len[s]) - 1
    force = np.ones(n_slots, dtype=np.bool_)
    assigned = np.zeros(n_slots, dtype=np.int64)
    return (queue, inq, dirty, force, assigned, fail_count)


@njit(cache=True)
def _merge(acc, bits):
    """acc |= bits (level bitsets)."""
    for j in range(acc.shape[0]):
        acc[j] |= bits[j]


@njit(cache=True)
def _level_explanation(s, state, struct, acc):
    """acc = why the domain of slot s is what it is at this level: its explanation and
    those of its crossing slots (whose letters filtered its candidates)."""
    _, _, cross, _ = struct
    why = state[3]
    acc[:] = why[s]
    for p in range(struct[0][s]):
        t = cross[s, p]
        if t >= 0:
            _merge(acc, why[t])


@njit(cache=True)
def _backjump_level(acc, level):
    """The deepest level below `level` in the conflict set acc (-1: none, no fill exists)."""
    for lv in range(level - 1, -1, -1):
        if (acc[lv >> 6] >> np.uint64(lv & 63)) & ONE:
            return lv
    return -1


@njit(cache=True)
def fill_bits(struct, words, weights, start, fail_count, out_word, run):
    """Backtracking fill on bitset domains: most-constrained slot first (fewest words per
    past failure), best words first, arc consistency after every choice, and (use_cbj)
    conflict-directed backjumping: a slot that runs out of words sends the search back to
    the deepest level among the explanations of its failures, not merely one level up.

    start = (dom0, cell_mask0): the initial domains and cell masks; run = (node_limit,
    noise, seed, use_lc, use_cbj). Returns (status, nodes, failed slot): status 1 = filled
    (out_word[s] = word row of slot s), 0 = proved impossible, -1 = node limit reached.
    `noise` > 0 randomises the word order a little (restarts); `use_lc`: after a dead end
    branch on the failed slot first (last-conflict); fail_count (failures per slot) is
    updated and kept.
    """
    node_limit, noise, seed, use_lc, use_cbj = run
    dom0, cell_mask0 = start
    np.random.seed(seed)
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
    assigned = work[4]
    failed = _propagate_bits(n_slots, (dom[0], mask[0], count[0], why[0]), work, struct, words)
    if failed >= 0:
        return 0, 0, failed
    slot_nw = words[2]
    max_dom = 1
    for s in range(n_slots):
        max_dom = max(max_dom, count[0, s])
    lv_slot = np.zeros(levels, dtype=np.int64)
    lv_start = np.zeros(levels, dtype=np.int64)
    lv_n = np.zeros(levels, dtype=np.int64)
    lv_next = np.zeros(levels, dtype=np.int64)
    total = np.sum(slot_nw) * 64 + 64
    scratch = (
        np.log(np.arange(max_dom + 1).astype(np.float64) + 1e-300),
        np.ones((struct[1].shape[1], words[6] + 1), dtype=np.int64),
        np.zeros(total, dtype=np.float64),
        np.zeros(total, dtype=np.int64),
    )
    cand = scratch[3]
    nodes = 0
    level = 0
    descend = True
    last_conflict = -1
    while True:
        if descend:
            if last_conflict >= 0 and assigned[last_conflict]:
                last_conflict = -1
            best = _choose_slot(count[level], work, slot_len, last_conflict, cross)
            state = (dom[level], mask[level], count[level], why[level])
            if best < 0:
                _read_words(state, struct, words, out_word)
                return 1, nodes, -1
            first = lv_start[level - 1] + lv_n[level - 1] if level > 0 else 0
            lv_slot[level] = best
            lv_start[level] = first
            lv_n[level] = _order_bits(best, state, assigned, struct, words, weights, noise, scratch, first)
            lv_next[level] = 0
            assigned[best] = 1
            _level_explanation(best, state, struct, acc[level])
        s = lv_slot[level]
        placed = False
        while lv_next[level] < lv_n[level]:
            if nodes >= node_limit:
                return -1, nodes, -1
            i = cand[lv_start[level] + lv_next[level]]
            lv_next[level] += 1
            nodes += 1
            dom[level + 1, :] = dom[level]
            mask[level + 1, :] = mask[level]
            count[level + 1, :] = count[level]
            why[level + 1, :, :] = why[level]
            wiped = _assign_bits(
                s, i, level, (dom[level + 1], mask[level + 1], count[level + 1], why[level + 1]), work, struct, words
            )
            if wiped < 0:
                placed = True
                break
            _merge(acc[level], why[level + 1, wiped])
        if placed:
            if s == last_conflict:
                last_conflict = -1
            level += 1
            descend = True
            continue
        assigned[s] = 0
        if use_lc:
            last_conflict = s
        if level == 0:
            return 0, nodes, -1
        target = level - 1
        if use_cbj:
            target = _backjump_level(acc[level], level)
            if target < 0:
                return 0, nodes, -1  # the conflict involves no decision: no fill exists
            for lv in range(target + 1, level):
                assigned[lv_slot[lv]] = 0
            _merge(acc[target], acc[level])
            acc[target, target >> 6] &= ~(ONE << np.uint64(target & 63))
        level = target
        descend = False
