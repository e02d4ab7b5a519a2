"""Numba kernels: word hash sets, the grid cost, the progressive-search mutation loop.

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
                cost = run_cost(q, n, codes, lengths, word_ok, word_table,
                                sig_codes, sig_lengths, sig_ok, sig_table)
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
def _slot_delta(grid, r, c0, n, new, codes, lengths, word_ok, word_table,
                sig_codes, sig_lengths, sig_ok, sig_table, q):
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
            if n >= 2 and run_cost(q, n, codes, lengths, word_ok, word_table,
                                   sig_codes, sig_lengths, sig_ok, sig_table) > 0:
                for i in range(n):
                    out[k] = (r + i) * n_cols + c
                    k += 1
            r += n
    return k


@njit(cache=True)
def progressive_search(qgrid, qcost, qpat, qkey, qn, best_grid, best_info,
                       slot_row, slot_col, slot_len, n_slots, cell_slot,
                       codes, lengths, word_ok, word_table, sig_codes, sig_lengths, sig_ok, sig_table,
                       len_start, len_count, fillers, n_mutants, focus, max_pops):
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
        n_bad = _bad_cells(parent, codes, lengths, word_ok, word_table, sig_codes, sig_lengths,
                           sig_ok, sig_table, q, bad)
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
            cost = p_cost + _slot_delta(parent, r, c0, n, new, codes, lengths, word_ok, word_table,
                                        sig_codes, sig_lengths, sig_ok, sig_table, q)
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
            old = parent[r, c0:c0 + n].copy()
            parent[r, c0:c0 + n] = new[:n]
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
            parent[r, c0:c0 + n] = old
            if best_info[0] == 0:
                break
    return qn, pops


# ---------------------------------------------------------------- fixed-pattern fill
# Slots s have cells slot_cells[s, :slot_len[s]] (flat cell numbers) and the crossing slot
# at each position cross[s, p] (-1 for an unchecked cell). A cell's allowed letters are a
# bit mask (bit = letter code). Slot domains are sparse sets in dom_buf: the live words of
# slot s are dom_buf[dom_start[s] : dom_start[s] + dom_size[s]] (word rows, lower row =
# more frequent); removing swaps a word past the live end, so restoring a size restores
# the set. Every change goes on a trail (kind, index, old value) for backtracking.

T_SIZE, T_MASK, T_ASSIGNED = 0, 1, 2


@njit(cache=True)
def _undo(trail_kind, trail_idx, trail_val, trail_n, mark, dom_size, cell_mask, assigned):
    """Undo trail entries down to `mark`; return the new trail length."""
    while trail_n > mark:
        trail_n -= 1
        k, i, v = trail_kind[trail_n], trail_idx[trail_n], trail_val[trail_n]
        if k == T_SIZE:
            dom_size[i] = v
        elif k == T_MASK:
            cell_mask[i] = v
        else:
            assigned[i] = v
    return trail_n


@njit(cache=True)
def _propagate(queue, qlen, inq, dirty, force, slot_len, slot_cells, cross, cross_pos, codes, dom_buf,
               dom_start, dom_size, cell_mask, trail_kind, trail_idx, trail_val, trail_n, fail_count):
    """Arc consistency from the slots in queue[:qlen]; return (ok, trail length, failed slot).

    Invariant: the words of a slot agree with its cell masks except at the positions in
    dirty[s] (a bit mask; cells whose mask shrank since). Processing a slot filters at
    those positions only; when its domain shrank (or force[s]) the letters its words
    support are collected, stopping as soon as every cell mask is fully supported, and
    cell masks that lose letters make the crossing slots dirty there.
    """
    head = 0
    n_slots = slot_len.shape[0]
    support = np.zeros(slot_cells.shape[1], dtype=np.int64)
    masks = np.zeros(slot_cells.shape[1], dtype=np.int64)
    check = np.zeros(slot_cells.shape[1], dtype=np.int64)
    while qlen > 0:
        s = queue[head]
        head = (head + 1) % n_slots
        qlen -= 1
        inq[s] = False
        positions = dirty[s]
        forced = force[s]
        dirty[s] = 0
        force[s] = False
        length = slot_len[s]
        base = dom_start[s]
        size = dom_size[s]
        n_check = 0
        for p in range(length):
            masks[p] = cell_mask[slot_cells[s, p]]
            if (positions >> p) & 1:
                check[n_check] = p
                n_check += 1
        if n_check > 0:
            i = 0
            while i < size:  # drop words with a letter a crossing no longer allows
                w = dom_buf[base + i]
                ok = True
                for j in range(n_check):
                    p = check[j]
                    if not (masks[p] >> np.int64(codes[w, p])) & 1:
                        ok = False
                        break
                if ok:
                    i += 1
                else:
                    size -= 1
                    dom_buf[base + i] = dom_buf[base + size]
                    dom_buf[base + size] = w
        if size != dom_size[s]:
            trail_kind[trail_n], trail_idx[trail_n], trail_val[trail_n] = T_SIZE, s, dom_size[s]
            trail_n += 1
            dom_size[s] = size
            forced = True
        if size == 0:
            fail_count[s] += 1
            while qlen > 0:  # empty the queue
                t = queue[head]
                inq[t] = False
                dirty[t] = 0
                force[t] = False
                head = (head + 1) % n_slots
                qlen -= 1
            return False, trail_n, s
        if not forced:
            continue
        unsaturated = length
        for p in range(length):
            support[p] = 0
        for i in range(size):
            w = dom_buf[base + i]
            for p in range(length):
                bit = np.int64(1) << np.int64(codes[w, p])
                if not support[p] & bit:
                    support[p] |= bit
                    if support[p] == masks[p]:
                        unsaturated -= 1
            if unsaturated == 0:
                break
        if unsaturated == 0:
            continue
        for p in range(length):
            c = slot_cells[s, p]
            new = cell_mask[c] & support[p]
            if new != cell_mask[c]:
                trail_kind[trail_n], trail_idx[trail_n], trail_val[trail_n] = T_MASK, c, cell_mask[c]
                trail_n += 1
                cell_mask[c] = new
                t = cross[s, p]
                if t >= 0:
                    dirty[t] |= np.int64(1) << cross_pos[s, p]
                    if not inq[t]:
                        inq[t] = True
                        queue[(head + qlen) % n_slots] = t
                        qlen += 1
    return True, trail_n, -1


@njit(cache=True)
def _assign(s, w, slot_len, slot_cells, cross, cross_pos, codes, dom_buf, dom_start, dom_size, cell_mask,
            assigned, trail_kind, trail_idx, trail_val, trail_n, fail_count, queue, inq, dirty, force):
    """Give slot s the word row w, remove w from same-length slots, propagate."""
    base = dom_start[s]
    for i in range(dom_size[s]):
        if dom_buf[base + i] == w:
            dom_buf[base + i] = dom_buf[base]
            dom_buf[base] = w
            break
    trail_kind[trail_n], trail_idx[trail_n], trail_val[trail_n] = T_SIZE, s, dom_size[s]
    trail_n += 1
    dom_size[s] = 1
    trail_kind[trail_n], trail_idx[trail_n], trail_val[trail_n] = T_ASSIGNED, s, assigned[s]
    trail_n += 1
    assigned[s] = 1
    n_slots = slot_len.shape[0]
    qlen = 1
    queue[0] = s
    inq[s] = True
    force[s] = True
    for t in range(n_slots):  # no repeats
        if t == s or assigned[t] or slot_len[t] != slot_len[s]:
            continue
        tb = dom_start[t]
        size = dom_size[t]
        for i in range(size):
            if dom_buf[tb + i] == w:
                dom_buf[tb + i] = dom_buf[tb + size - 1]
                dom_buf[tb + size - 1] = w
                trail_kind[trail_n], trail_idx[trail_n], trail_val[trail_n] = T_SIZE, t, size
                trail_n += 1
                dom_size[t] = size - 1
                if size - 1 == 0:
                    fail_count[t] += 1
                    for k in range(qlen):
                        inq[queue[k]] = False
                        dirty[queue[k]] = 0
                        force[queue[k]] = False
                    return False, trail_n
                if not inq[t]:
                    inq[t] = True
                    queue[qlen] = t
                    qlen += 1
                force[t] = True
                break
    ok, trail_n, _ = _propagate(queue, qlen, inq, dirty, force, slot_len, slot_cells, cross, cross_pos, codes,
                                dom_buf, dom_start, dom_size, cell_mask, trail_kind, trail_idx, trail_val,
                                trail_n, fail_count)
    return ok, trail_n


@njit(cache=True)
def _order_candidates(s, slot_len, cross, cross_pos, codes, log_freq, freq_weight, dom_buf, dom_start,
                      dom_size, counts, scores, noise, cand, start, log_of):
    """Write slot s's candidate words, best first, to cand[start:]; return how many."""
    length = slot_len[s]
    for p in range(length):
        counts[p, :] = 0
        t = cross[s, p]
        if t < 0:
            continue
        q = cross_pos[s, p]
        tb = dom_start[t]
        for i in range(dom_size[t]):
            counts[p, codes[dom_buf[tb + i], q]] += 1
    base = dom_start[s]
    n = 0
    for i in range(dom_size[s]):
        w = dom_buf[base + i]
        sc = freq_weight * log_freq[w]
        ok = True
        for p in range(length):
            if cross[s, p] < 0:
                continue
            k = counts[p, codes[w, p]]
            if k == 0:
                ok = False
                break
            sc += log_of[k]
        if ok:
            if noise > 0:
                sc += noise * np.random.exponential()
            cand[start + n] = w
            scores[n] = -sc
            n += 1
    order = np.argsort(scores[:n], kind="mergesort")
    cand[start:start + n] = cand[start:start + n][order]
    return n


@njit(cache=True)
def fill_search(slot_len, slot_cells, cross, cross_pos, codes, log_freq, freq_weight, n_letters,
                dom_buf, dom_start, dom_size, cell_mask, fail_count, node_limit, noise, seed):
    """Backtracking fill: most-constrained slot first, best words first, arc consistency.

    A candidate word's score is freq_weight x ln(frequency) + sum over its crossings of
    ln(words of the crossing slot that agree with it there): frequent words that leave
    the crossings the most choices come first; words leaving a crossing none are skipped.

    Modifies the state arrays in place. Returns (status, nodes, failed slot): status 1 =
    filled (each slot's word is dom_buf[dom_start[s]]), 0 = proved impossible, -1 = node
    limit reached. `noise` > 0 randomises the word order a little (for restarts).
    """
    np.random.seed(seed)
    n_slots = slot_len.shape[0]
    # Along one search path a cell mask shrinks at most n_letters times, a slot's size is
    # recorded once per time it is queued (after a mask change or an assignment), so the
    # trail never holds more than 2 x cells x letters + slots x (slots + 3) entries.
    cap = 4 * (cell_mask.shape[0] * (n_letters + 2) + n_slots * (n_slots + 4)) + 4096
    trail_kind = np.empty(cap, dtype=np.int8)
    trail_idx = np.empty(cap, dtype=np.int64)
    trail_val = np.empty(cap, dtype=np.int64)
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
    ok, trail_n, failed = _propagate(queue, n_slots, inq, dirty, force, slot_len, slot_cells, cross, cross_pos,
                                     codes, dom_buf, dom_start, dom_size, cell_mask, trail_kind, trail_idx,
                                     trail_val, 0, fail_count)
    if not ok:
        return 0, 0, failed
    lv_slot = np.zeros(n_slots + 1, dtype=np.int64)
    lv_mark = np.zeros(n_slots + 1, dtype=np.int64)
    lv_start = np.zeros(n_slots + 1, dtype=np.int64)
    lv_n = np.zeros(n_slots + 1, dtype=np.int64)
    lv_next = np.zeros(n_slots + 1, dtype=np.int64)
    cand = np.zeros(dom_buf.shape[0] + 1, dtype=np.int64)
    counts = np.zeros((slot_cells.shape[1], n_letters + 1), dtype=np.int64)
    scores = np.zeros(dom_buf.shape[0] + 1, dtype=np.float64)
    max_dom = 1
    for s in range(n_slots):
        max_dom = max(max_dom, dom_size[s])
    log_of = np.log(np.arange(max_dom + 1).astype(np.float64) + 1e-300)
    nodes = 0
    level = 0
    descend = True
    while True:
        if descend:
            # choose the unassigned slot with the fewest words per past failure (dom/wdeg;
            # fail_count survives restarts, so later attempts start with the hard slots)
            best = -1
            best_key = 0.0
            for s in range(n_slots):
                if assigned[s]:
                    continue
                key = dom_size[s] / (1.0 + fail_count[s])
                if dom_size[s] == 1:
                    key = -1.0  # forced slots first
                if best < 0 or key < best_key or (key == best_key and slot_len[s] > slot_len[best]):
                    best = s
                    best_key = key
            if best < 0:
                return 1, nodes, -1
            start = lv_start[level - 1] + lv_n[level - 1] if level > 0 else 0
            size = _order_candidates(best, slot_len, cross, cross_pos, codes, log_freq, freq_weight,
                                     dom_buf, dom_start, dom_size, counts, scores, noise, cand, start, log_of)
            lv_slot[level] = best
            lv_mark[level] = trail_n
            lv_start[level] = start
            lv_n[level] = size
            lv_next[level] = 0
        # try the next candidate at this level
        s = lv_slot[level]
        placed = False
        while lv_next[level] < lv_n[level]:
            w = cand[lv_start[level] + lv_next[level]]
            lv_next[level] += 1
            trail_n = _undo(trail_kind, trail_idx, trail_val, trail_n, lv_mark[level], dom_size, cell_mask, assigned)
            nodes += 1
            ok, trail_n = _assign(s, w, slot_len, slot_cells, cross, cross_pos, codes, dom_buf, dom_start,
                                  dom_size, cell_mask, assigned, trail_kind, trail_idx, trail_val, trail_n,
                                  fail_count, queue, inq, dirty, force)
            if ok:
                placed = True
                break
            if nodes >= node_limit:
                return -1, nodes, -1
        if placed:
            level += 1
            descend = True
            continue
        trail_n = _undo(trail_kind, trail_idx, trail_val, trail_n, lv_mark[level], dom_size, cell_mask, assigned)
        if level == 0:
            return 0, nodes, -1
        level -= 1
        descend = False
