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


@njit(cache=True)
def run_cost(q, n, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table):
    """Cost units of one vertical word q[:n] (q is scratch: it gets sorted)."""
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
def grid_cost(grid, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table):
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
                cost = run_cost(q, n, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table)
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
def _slot_delta(grid, r, c0, n, new, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table, q):
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
        delta -= run_cost(q, m, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table)
        for k in range(m):
            q[k] = grid[top + k, c]
        q[r - top] = new[i]
        delta += run_cost(q, m, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table)
    return delta


@njit(cache=True)
def _bad_cells(grid, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table, q, out):
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
            if (
                n >= 2
                and run_cost(q, n, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table) > 0
            ):
                for i in range(n):
                    out[k] = (r + i) * n_cols + c
                    k += 1
            r += n
    return k


@njit(cache=True)
def progressive_search(
    qgrid,
    qcost,
    qpat,
    qkey,
    qn,
    best_grid,
    best_info,
    slot_row,
    slot_col,
    slot_len,
    n_slots,
    cell_slot,
    codes,
    lengths,
    word_ok,
    word_table,
    sig_codes,
    sig_lengths,
    sig_ok,
    sig_table,
    len_start,
    len_count,
    fillers,
    n_mutants,
    focus,
    max_pops,
):
    """Run up to max_pops pops of the progressive search; return (queue size, pops done).

    The queue holds qn grids (capacity qgrid.shape[0]) with their cost, pattern index
    and hash. A pop removes the cheapest grid and makes n_mutants mutants of it: one
    horizontal slot gets a random other word of its length (with probability `focus`
    the slot is one crossing a costly vertical word). A mutant enters the queue when
    there is room or it beats the worst queued grid and is not already queued.
    best_grid/best_info ([cost5, pattern]) track the cheapest grid ever seen; the search
    stops as soon as a cost-0 grid is found.
    """
    capacity = qgrid.shape[0]
    n_rows, n_cols = qgrid.shape[1], qgrid.shape[2]
    q = np.zeros(n_rows, dtype=np.int8)
    bad = np.zeros(n_rows * n_cols, dtype=np.int64)
    new = np.zeros(n_cols, dtype=np.int8)
    parent = np.zeros((n_rows, n_cols), dtype=np.int8)
    pops = 0
    while pops < max_pops and qn > 0 and best_info[0] > 0:
        pops += 1
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
        n_bad = _bad_cells(
            parent, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table, q, bad
        )
        for _ in range(n_mutants):
            if n_bad > 0 and np.random.random() < focus:
                cell = bad[np.random.randint(n_bad)]
                s = cell_slot[pat, cell // n_cols, cell % n_cols]
            else:
                s = np.random.randint(n_slots[pat])
            r, c0, n = slot_row[pat, s], slot_col[pat, s], slot_len[pat, s]
            if n == 1:
                new[0] = fillers[np.random.randint(fillers.shape[0])]
            else:
                cnt = len_count[n]
                if cnt == 0:
                    continue
                row = len_start[n] + np.random.randint(cnt)
                for i in range(n):
                    new[i] = codes[row, i]
            same = True
            for i in range(n):
                if parent[r, c0 + i] != new[i]:
                    same = False
                    break
            if same:
                continue
            cost = p_cost + _slot_delta(
                parent, r, c0, n, new, codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table, q
            )
            # insert the mutant (built in place of a queue row)
            if qn < capacity:
                slot = qn
            else:
                slot = 0
                for i in range(1, qn):
                    if qcost[i] > qcost[slot]:
                        slot = i
                if cost >= qcost[slot]:
                    continue
            old = parent[r, c0 : c0 + n].copy()
            parent[r, c0 : c0 + n] = new[:n]
            key = grid_key(parent)
            dup = False
            for i in range(qn):
                if qkey[i] == key and qcost[i] == cost:
                    dup = True
                    break
            if not dup:
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
            parent[r, c0 : c0 + n] = old
            if best_info[0] == 0:
                break
    return qn, pops


# Slots s have cells slot_cells[s, :slot_len[s]] (flat cell numbers) and the crossing slot
# at each position cross[s, p] (-1 for an unchecked cell) with its position cross_pos[s, p].
# A cell's allowed letters are an int64 bit mask (bit = letter code 1..k).
#
# Word sets are bitsets (uint64 words, bit i of word i // 64): a slot's domain is a bitset
# over the eligible words of its length (bit i = word row slot_row0[s] + i; rows of a
# length are sorted by frequency, so lower bits are more frequent words), stored at
# dom[slot_off[s] : slot_off[s] + slot_nw[s]]. pos_bits holds, per slot length, position p
# and letter c, the bitset of the words with letter c at p:
# pos_bits[slot_pb[s] + (p * (n_letters + 1) + c) * slot_nw[s] + j]. A slot's candidates
# are the AND over its cells of the OR of their letters' bitsets; counts are popcounts.
# The search keeps one copy of (domains, cell masks, counts) per level: backtracking is
# dropping a level.

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
def _revise(
    s,
    dom,
    cell_mask,
    count,
    dirty,
    force,
    slot_len,
    slot_cells,
    slot_row0,
    slot_off,
    slot_nw,
    slot_pb,
    pos_bits,
    codes,
    n_letters,
    full,
    support,
):
    """Filter slot s's domain by its dirty cells; narrow its cells to supported letters.

    Returns -1 if the domain empties, else a bit mask of the positions whose cell lost letters."""
    length = slot_len[s]
    nw = slot_nw[s]
    off = slot_off[s]
    pb = slot_pb[s]
    stride = (n_letters + 1) * nw
    d = dirty[s]
    dirty[s] = 0
    for p in range(length):
        if not (d >> p) & 1:
            continue
        m = cell_mask[slot_cells[s, p]]
        if m == full:
            continue
        base = pb + p * stride
        single = (m & (m - 1)) == 0
        if single:
            c = 0
            while not (m >> c) & 1:
                c += 1
            b = base + c * nw
            for j in range(nw):
                dom[off + j] &= pos_bits[b + j]
        else:
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
    n = bits_count(dom, off, nw)
    if n == 0:
        count[s] = 0
        force[s] = False
        return -1
    if n == count[s] and not force[s]:
        return 0
    force[s] = False
    count[s] = n
    # supported letters per position (only cells still holding several letters)
    changed = 0
    todo = 0
    for p in range(length):
        m = cell_mask[slot_cells[s, p]]
        support[p] = 0
        if (m & (m - 1)) != 0:
            todo |= 1 << p
    if todo == 0:
        return 0
    if n <= 256:
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
    else:
        for p in range(length):
            if not (todo >> p) & 1:
                continue
            m = cell_mask[slot_cells[s, p]]
            base = pb + p * stride
            for c in range(1, n_letters + 1):
                if not (m >> c) & 1:
                    continue
                b = base + c * nw
                for j in range(nw):
                    if dom[off + j] & pos_bits[b + j]:
                        support[p] |= np.int64(1) << c
                        break
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
def _propagate_bits(
    queue,
    qlen,
    inq,
    dom,
    cell_mask,
    count,
    dirty,
    force,
    slot_len,
    slot_cells,
    cross,
    cross_pos,
    slot_row0,
    slot_off,
    slot_nw,
    slot_pb,
    pos_bits,
    codes,
    n_letters,
    full,
    assigned,
    fail_count,
):
    """Arc consistency from the slots in queue[:qlen]; return the slot that emptied or -1."""
    n_slots = slot_len.shape[0]
    support = np.zeros(slot_cells.shape[1], dtype=np.int64)
    head = 0
    while qlen > 0:
        s = queue[head]
        head = (head + 1) % n_slots
        qlen -= 1
        inq[s] = False
        changed = _revise(
            s,
            dom,
            cell_mask,
            count,
            dirty,
            force,
            slot_len,
            slot_cells,
            slot_row0,
            slot_off,
            slot_nw,
            slot_pb,
            pos_bits,
            codes,
            n_letters,
            full,
            support,
        )
        if changed < 0:
            fail_count[s] += 1
            while qlen > 0:
                t = queue[head]
                inq[t] = False
                dirty[t] = 0
                force[t] = False
                head = (head + 1) % n_slots
                qlen -= 1
            return s
        if changed == 0:
            continue
        for p in range(slot_len[s]):
            if (changed >> p) & 1:
                t = cross[s, p]
                if t >= 0:
                    dirty[t] |= np.int64(1) << cross_pos[s, p]
                    if not inq[t]:
                        inq[t] = True
                        queue[(head + qlen) % n_slots] = t
                        qlen += 1
    return -1


@njit(cache=True)
def _assign_bits(
    s,
    i,
    dom,
    cell_mask,
    count,
    dirty,
    force,
    queue,
    inq,
    slot_len,
    slot_cells,
    cross,
    cross_pos,
    slot_row0,
    slot_off,
    slot_nw,
    slot_pb,
    pos_bits,
    codes,
    n_letters,
    full,
    assigned,
    fail_count,
):
    """Give slot s its word bit i, take that word from same-length slots, propagate; ok?"""
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
                if not inq[t]:
                    inq[t] = True
                    queue[qlen] = t
                    qlen += 1
    for t in range(slot_len.shape[0]):  # no repeats
        if t == s or slot_len[t] != slot_len[s] or slot_row0[t] != slot_row0[s]:
            continue
        if dom[slot_off[t] + jw] & bit:
            dom[slot_off[t] + jw] ^= bit
            if count[t] == 1:
                fail_count[t] += 1
                for k in range(qlen):
                    inq[queue[k]] = False
                    dirty[queue[k]] = 0
                    force[queue[k]] = False
                return False
            force[t] = True
            if not inq[t]:
                inq[t] = True
                queue[qlen] = t
                qlen += 1
    return (
        _propagate_bits(
            queue,
            qlen,
            inq,
            dom,
            cell_mask,
            count,
            dirty,
            force,
            slot_len,
            slot_cells,
            cross,
            cross_pos,
            slot_row0,
            slot_off,
            slot_nw,
            slot_pb,
            pos_bits,
            codes,
            n_letters,
            full,
            assigned,
            fail_count,
        )
        < 0
    )


@njit(cache=True)
def _order_bits(
    s,
    dom,
    cell_mask,
    slot_len,
    slot_cells,
    cross,
    cross_pos,
    slot_row0,
    slot_off,
    slot_nw,
    slot_pb,
    pos_bits,
    codes,
    n_letters,
    assigned,
    log_freq,
    freq_weight,
    noise,
    log_of,
    counts,
    scores,
    cand,
    start,
):
    """Write slot s's candidate word bits, best first, to cand[start:]; return how many.

    Score: freq_weight x ln(frequency) + sum over unassigned crossings of ln(words of the
    crossing that agree with the candidate's letter there)."""
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
        sc = freq_weight * log_freq[row]
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


@njit(cache=True)
def fill_bits(
    slot_len,
    slot_cells,
    cross,
    cross_pos,
    slot_row0,
    slot_off,
    slot_nw,
    slot_pb,
    pos_bits,
    codes,
    log_freq,
    freq_weight,
    n_letters,
    dom0,
    cell_mask0,
    fail_count,
    node_limit,
    noise,
    seed,
    out_word,
    use_lc,
):
    """Backtracking fill on bitset domains: most-constrained slot first (fewest words per
    past failure), best words first, arc consistency after every choice.

    Returns (status, nodes, failed slot): status 1 = filled (out_word[s] = word row of slot
    s), 0 = proved impossible, -1 = node limit reached. `noise` > 0 randomises the word
    order a little (restarts); fail_count (failures per slot) is updated and kept.
    """
    np.random.seed(seed)
    n_slots = slot_len.shape[0]
    n_cells = cell_mask0.shape[0]
    full = np.int64((np.int64(1) << np.int64(n_letters + 1)) - 2)
    levels = n_slots + 2
    dom = np.empty((levels, dom0.shape[0]), dtype=np.uint64)
    mask = np.empty((levels, n_cells), dtype=np.int64)
    count = np.zeros((levels, n_slots), dtype=np.int64)
    dom[0, :] = dom0
    mask[0, :] = cell_mask0
    assigned = np.zeros(n_slots, dtype=np.int64)
    queue = np.zeros(n_slots, dtype=np.int64)
    inq = np.zeros(n_slots, dtype=np.bool_)
    dirty = np.zeros(n_slots, dtype=np.int64)
    force = np.zeros(n_slots, dtype=np.bool_)
    for s in range(n_slots):
        queue[s] = s
        inq[s] = True
        dirty[s] = (np.int64(1) << slot_len[s]) - 1
        force[s] = True
        count[0, s] = -1
    failed = _propagate_bits(
        queue,
        n_slots,
        inq,
        dom[0],
        mask[0],
        count[0],
        dirty,
        force,
        slot_len,
        slot_cells,
        cross,
        cross_pos,
        slot_row0,
        slot_off,
        slot_nw,
        slot_pb,
        pos_bits,
        codes,
        n_letters,
        full,
        assigned,
        fail_count,
    )
    if failed >= 0:
        return 0, 0, failed
    total = 0
    max_dom = 1
    for s in range(n_slots):
        total += slot_nw[s] * 64
        max_dom = max(max_dom, count[0, s])
    lv_slot = np.zeros(levels, dtype=np.int64)
    lv_start = np.zeros(levels, dtype=np.int64)
    lv_n = np.zeros(levels, dtype=np.int64)
    lv_next = np.zeros(levels, dtype=np.int64)
    cand = np.zeros(total + 64, dtype=np.int64)
    scores = np.zeros(total + 64, dtype=np.float64)
    counts = np.ones((slot_cells.shape[1], n_letters + 1), dtype=np.int64)
    log_of = np.log(np.arange(max_dom + 1).astype(np.float64) + 1e-300)
    nodes = 0
    level = 0
    descend = True
    last_conflict = -1
    while True:
        if descend:
            if last_conflict >= 0 and assigned[last_conflict]:
                last_conflict = -1
            best = -1
            best_key = 0.0
            if last_conflict >= 0 and not assigned[last_conflict]:
                best = last_conflict  # the slot that just failed again first (last-conflict)
            for s in range(n_slots):
                if assigned[s] or last_conflict >= 0:
                    continue
                key = count[level, s] / (1.0 + fail_count[s])
                if count[level, s] == 1:
                    key = -1.0  # forced slots first
                if best < 0 or key < best_key or (key == best_key and slot_len[s] > slot_len[best]):
                    best = s
                    best_key = key
            if best < 0:
                for s in range(n_slots):
                    idx = np.zeros(1, dtype=np.int64)
                    bits_list(dom[level], slot_off[s], slot_nw[s], idx)
                    out_word[s] = slot_row0[s] + idx[0]
                return 1, nodes, -1
            start = lv_start[level - 1] + lv_n[level - 1] if level > 0 else 0
            size = _order_bits(
                best,
                dom[level],
                mask[level],
                slot_len,
                slot_cells,
                cross,
                cross_pos,
                slot_row0,
                slot_off,
                slot_nw,
                slot_pb,
                pos_bits,
                codes,
                n_letters,
                assigned,
                log_freq,
                freq_weight,
                noise,
                log_of,
                counts,
                scores,
                cand,
                start,
            )
            lv_slot[level] = best
            lv_start[level] = start
            lv_n[level] = size
            lv_next[level] = 0
            assigned[best] = 1
        s = lv_slot[level]
        placed = False
        while lv_next[level] < lv_n[level]:
            i = cand[lv_start[level] + lv_next[level]]
            lv_next[level] += 1
            nodes += 1
            dom[level + 1, :] = dom[level]
            mask[level + 1, :] = mask[level]
            count[level + 1, :] = count[level]
            if _assign_bits(
                s,
                i,
                dom[level + 1],
                mask[level + 1],
                count[level + 1],
                dirty,
                force,
                queue,
                inq,
                slot_len,
                slot_cells,
                cross,
                cross_pos,
                slot_row0,
                slot_off,
                slot_nw,
                slot_pb,
                pos_bits,
                codes,
                n_letters,
                full,
                assigned,
                fail_count,
            ):
                placed = True
                break
            if nodes >= node_limit:
                return -1, nodes, -1
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
        level -= 1
        descend = False
