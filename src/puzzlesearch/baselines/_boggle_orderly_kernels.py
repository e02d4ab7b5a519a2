"""numba kernels (baseline, replaced by boggle/proof/_kernels/): the 2025 "orderly tree" upper bound on a class.

A board class gives each cell a set of letters: `letters[cell, j]` for j < `n_letters[cell]`
(letter indices, 16 = the "Qu" face). The orderly tree is a sum/choice tree:

- a sum node holds points and choice children, at most one per cell;
- a choice node (one cell) holds at most one sum child per letter choice j of the cell.

Every path on the class that spells a word adds the word's points at the end of its
choices (cell, j) sorted into the split order (root -> choice(first cell) -> sum(j) ->
choice(next cell) ...), so forcing the cells in split order only ever merges the tops of
subtrees. A word is counted once per set of (cell, letter) choices: the end node of a
choice set remembers which DAWG ranks it already counted. Bounds: sum node = points +
sum of children, choice node = max over its letters; any board of the class scores at
most the root's bound.

The tree is one int64 array, a row per node (one cache line); a child always has a
larger row than its parent. Columns:
    KIND      0 = sum, 1 = choice;  CELL;  POINTS (sum nodes);  PARENT
    BASE      the node's slots: sum node slots[BASE + cell] = its choice child for the
              cell, choice node slots[BASE + j] = its sum child for letter choice j, as
              handles row | slot base << 32 (-1: none)
    LINK      sum node: first choice child (then SIBLING ...), to iterate children
    WORDS     sum node: its list of counted word ranks (word_rank / word_next)
The branch and bound (`orderly_search`) walks the cells in split order with one stack of
pending choice nodes per cell (the published "orderly bound"): forcing cell c to letter j
replaces every choice node of c on its stack by its child j, whose points are banked and
whose choice children are pushed; the bound of the sub-class is the banked points plus
the bounds on the stacks of the cells not yet forced.

The DAWG is the tuple (nodes, edges, word_length) of `pack_dawg` words:
node = mask | terminal << 26 | first_edge << 32, edge = target | rank << 32.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlesearch.bits import popcount as _popcount
from puzzlesearch.boggle.proof._kernels.build import frame_next, next_neighbour

MASK_BITS = (1 << 26) - 1
TERMINAL_BIT = 26
LOW32 = (1 << 32) - 1
SUM, CHOICE = 0, 1
# columns of the tree array (one row per node, one cache line)
KIND, CELL, BASE, POINTS, PARENT, LINK, SIBLING, WORDS = range(8)
N_COLUMNS = 8
MAX_CHOICES = 32  # letter choices per cell (26 letters fit)
EMPTY = -1


def pack_dawg(mask, first_edge, terminal, edge_target, edge_rank):
    """(nodes, edges) int64 words of a DAWG's arrays (one load per step)."""
    nodes = mask.astype(np.int64) | (terminal.astype(np.int64) << TERMINAL_BIT) | (first_edge.astype(np.int64) << 32)
    edges = edge_target.astype(np.int64) | (edge_rank.astype(np.int64) << 32)
    return nodes, edges


@njit(cache=True, inline="always")
def _new_node(tree, n, kind_, cell_, parent_, base_):
    tree[n, KIND] = kind_
    tree[n, CELL] = cell_
    tree[n, BASE] = base_
    tree[n, POINTS] = 0
    tree[n, PARENT] = parent_
    tree[n, LINK] = -1
    tree[n, SIBLING] = -1
    tree[n, WORDS] = -1


@njit(cache=True, inline="always")
def _add_word(tree, store, counts, path_cells, path_j, depth, order_pos, n_letters, rank, pts, pos, idx):
    """Add one word (its path's cells and choices) to the tree; False when an array is full.

    counts = [nodes, slots, word entries] in use. Every node owns slots (a sum node one
    per cell, a choice node one per letter choice) holding its children as handles
    row | slot base << 32, so walking down the tree reads only the slots array.
    """
    slots, word_rank, word_next = store
    cap = tree.shape[0]
    n_cells = order_pos.shape[0]
    # the path's cells sorted into split order (insertion sort: at most 36 cells)
    for d in range(depth):
        p = order_pos[path_cells[d]]
        e = d
        while e > 0 and pos[e - 1] > p:
            pos[e] = pos[e - 1]
            idx[e] = idx[e - 1]
            e -= 1
        pos[e] = p
        idx[e] = d
    node = 0
    node_base = 0
    for e in range(depth):
        c = path_cells[idx[e]]
        j = path_j[idx[e]]
        h = slots[node_base + c]
        if h < 0:
            n = counts[0]
            b = counts[1]
            if n + 2 > cap or b + n_letters[c] + n_cells > slots.shape[0]:
                return False
            _new_node(tree, n, CHOICE, c, node, b)
            tree[n, SIBLING] = tree[node, LINK]
            tree[node, LINK] = n
            slots[b : b + n_letters[c]] = -1
            counts[1] = b + n_letters[c]
            counts[0] = n + 1
            h = n | (b << 32)
            slots[node_base + c] = h
        ch_row = h & LOW32
        ch_base = h >> 32
        h = slots[ch_base + j]
        if h < 0:
            n = counts[0]
            b = counts[1]
            if n + 1 > cap or b + n_cells > slots.shape[0]:
                return False
            _new_node(tree, n, SUM, c, ch_row, b)
            slots[b : b + n_cells] = -1
            counts[1] = b + n_cells
            counts[0] = n + 1
            h = n | (b << 32)
            slots[ch_base + j] = h
        node = h & LOW32
        node_base = h >> 32
    w = tree[node, WORDS]  # count the word once per choice set
    while w >= 0:
        if word_rank[w] == rank:
            return True
        w = word_next[w]
    w = counts[2]
    if w >= word_rank.shape[0]:
        return False
    word_rank[w] = rank
    word_next[w] = tree[node, WORDS]
    tree[node, WORDS] = w
    counts[2] = w + 1
    tree[node, POINTS] += pts
    return True


@njit(cache=True)
def build_tree(letters, n_letters, nbr, nbr_n, order_pos, dawg, points, tree, store):
    """Build the orderly tree of a class into `tree`; (ok, nodes, word paths).

    tree: an int64 array (capacity, N_COLUMNS), one row per node; store = (slots,
    word_rank, word_next); ok False: an array is full, retry with bigger ones (nothing
    needs clearing between classes).
    """
    nodes, edges, word_length = dawg
    n = letters.shape[0]
    cell_mask, letter_j, near = _class_masks(letters, n_letters, nbr, nbr_n)
    st_cell = np.zeros(n, dtype=np.int64)
    st_j = np.zeros(n, dtype=np.int64)
    st_node = np.zeros(n, dtype=np.int64)
    st_rank = np.zeros(n, dtype=np.int64)
    st_k = np.zeros(n, dtype=np.int64)  # current neighbour
    st_bits = np.zeros(n, dtype=np.int64)  # its letters still to try (with an edge from st_node)
    counts = np.zeros(3, dtype=np.int64)
    pos = np.zeros(n, dtype=np.int64)
    idx = np.zeros(n, dtype=np.int64)
    _new_node(tree, 0, SUM, -1, -1, 0)
    store[0][:n] = -1
    counts[0] = 1
    counts[1] = n
    n_paths = 0
    root = nodes[0]
    for s in range(n):
        bits0 = root & cell_mask[s]
        while bits0:
            low = bits0 & -bits0
            bits0 ^= low
            letter = _popcount(low - 1)
            ew = edges[(root >> 32) + _popcount(root & MASK_BITS & (low - 1))]
            nw = nodes[ew & LOW32]
            if not (nw & near[s]):
                continue
            st_cell[0] = s
            st_j[0] = letter_j[s, letter]
            st_node[0] = nw
            st_rank[0] = ew >> 32
            st_k[0] = -1
            st_bits[0] = 0
            used = np.int64(1) << s
            depth = 0
            while depth >= 0:
                nb, bits = frame_next(depth, st_cell, st_node, st_k, st_bits, used, nbr, nbr_n, cell_mask)
                if nb < 0:
                    used &= ~(np.int64(1) << st_cell[depth])
                    depth -= 1
                    continue
                pw = st_node[depth]
                low = bits & -bits
                st_bits[depth] = bits ^ low
                letter = _popcount(low - 1)
                ew = edges[(pw >> 32) + _popcount(pw & MASK_BITS & (low - 1))]
                r = st_rank[depth] + (ew >> 32)
                nw = nodes[ew & LOW32]
                jj = letter_j[nb, letter]
                if (nw >> TERMINAL_BIT) & 1 and points[word_length[r]] > 0:
                    n_paths += 1
                    st_cell[depth + 1] = nb
                    st_j[depth + 1] = jj
                    if not _add_word(
                        tree,
                        store,
                        counts,
                        st_cell,
                        st_j,
                        depth + 2,
                        order_pos,
                        n_letters,
                        r,
                        points[word_length[r]],
                        pos,
                        idx,
                    ):
                        return False, counts[0], n_paths
                if nw & near[nb]:  # a longer word may follow
                    depth += 1
                    st_cell[depth] = nb
                    st_j[depth] = jj
                    st_node[depth] = nw
                    st_rank[depth] = r
                    st_k[depth] = -1
                    st_bits[depth] = 0
                    used |= np.int64(1) << nb
    return True, counts[0], n_paths


@njit(cache=True)
def _class_masks(letters, n_letters, nbr, nbr_n):
    """(cell_mask, letter_j, near): letters per cell, choice index of a letter, letters next to a cell."""
    n = letters.shape[0]
    cell_mask = np.zeros(n, dtype=np.int64)
    letter_j = np.zeros((n, 32), dtype=np.int64)
    for c in range(n):
        for j in range(n_letters[c]):
            cell_mask[c] |= np.int64(1) << letters[c, j]
            letter_j[c, letters[c, j]] = j
    near = np.zeros(n, dtype=np.int64)
    for c in range(n):
        for k in range(nbr_n[c]):
            near[c] |= cell_mask[nbr[c, k]]
    return cell_mask, letter_j, near


@njit(cache=True)
def max_nomark(letters, n_letters, nbr, nbr_n, dawg, points):
    """The max/no-mark bound (2009) of a class: no tree, no de-duplication.

    Along every path each cell takes its best letter independently: a path node is worth
    its word's points plus, for each unused neighbour, the best of that neighbour's letters.
    """
    nodes, edges, word_length = dawg
    n = letters.shape[0]
    cell_mask, letter_j, near = _class_masks(letters, n_letters, nbr, nbr_n)
    st_cell = np.zeros(n, dtype=np.int64)
    st_node = np.zeros(n, dtype=np.int64)
    st_rank = np.zeros(n, dtype=np.int64)
    st_k = np.zeros(n, dtype=np.int64)
    st_bits = np.zeros(n, dtype=np.int64)
    acc = np.zeros(n, dtype=np.int64)  # a frame's points: its word + best of each finished neighbour
    best = np.zeros(n, dtype=np.int64)  # best letter so far of the frame's current neighbour
    total = 0
    root = nodes[0]
    for s in range(n):
        top = 0
        bits0 = root & cell_mask[s]
        while bits0:
            low = bits0 & -bits0
            bits0 ^= low
            ew = edges[(root >> 32) + _popcount(root & MASK_BITS & (low - 1))]
            nw = nodes[ew & LOW32]
            if not (nw & near[s]):
                continue
            st_cell[0] = s
            st_node[0] = nw
            st_rank[0] = ew >> 32
            st_k[0] = -1
            st_bits[0] = 0
            acc[0] = 0
            best[0] = 0
            used = np.int64(1) << s
            depth = 0
            value = 0
            while depth >= 0:
                c = st_cell[depth]
                bits = st_bits[depth]
                pw = st_node[depth]
                if bits == 0:
                    acc[depth] += best[depth]  # the previous neighbour is finished
                    best[depth] = 0
                    k, bits = next_neighbour(st_k[depth], c, used, pw, nbr, nbr_n, cell_mask)
                    st_k[depth] = k
                    if k >= nbr_n[c]:
                        used &= ~(np.int64(1) << c)
                        value = acc[depth]
                        depth -= 1
                        if depth >= 0 and value > best[depth]:
                            best[depth] = value
                        continue
                nb = nbr[c, st_k[depth]]
                low = bits & -bits
                st_bits[depth] = bits ^ low
                ew = edges[(pw >> 32) + _popcount(pw & MASK_BITS & (low - 1))]
                r = st_rank[depth] + (ew >> 32)
                nw = nodes[ew & LOW32]
                pts = points[word_length[r]] if (nw >> TERMINAL_BIT) & 1 else 0
                if nw & near[nb]:
                    depth += 1
                    st_cell[depth] = nb
                    st_node[depth] = nw
                    st_rank[depth] = r
                    st_k[depth] = -1
                    st_bits[depth] = 0
                    acc[depth] = pts
                    best[depth] = 0
                    used |= np.int64(1) << nb
                elif pts > best[depth]:
                    best[depth] = pts
            if value > top:
                top = value
        total += top
    return total


@njit(cache=True)
def finish_tree(tree, n_nodes):
    """Bounds of a built tree: sum node = points + children, choice node = max of children."""
    bound = np.zeros(n_nodes, dtype=np.int64)
    for i in range(n_nodes):
        if tree[i, KIND] == SUM:
            bound[i] = tree[i, POINTS]
    for i in range(n_nodes - 1, 0, -1):  # children before parents
        p = tree[i, PARENT]
        if tree[i, KIND] == CHOICE:
            bound[p] += bound[i]
        elif bound[i] > bound[p]:
            bound[p] = bound[i]
    return bound


@njit(cache=True)
def _open_sum_node(tree, s, bound, stack, top, sums):
    """Push a sum node's choice children on their cells' stacks (adding their bounds)."""
    ch = tree[s, LINK]
    while ch >= 0:
        c = tree[ch, CELL]
        stack[top[c]] = ch
        top[c] += 1
        sums[c] += bound[ch]
        ch = tree[ch, SIBLING]


@njit(cache=True)
def orderly_search(tree, n_nodes, bound, slots, n_letters, order, min_score, boards, leaf_bounds, max_visits):
    """Branch and bound over the class in split order; (leaves, visits, complete).

    Every board of the class that may score >= min_score is written to boards[i] as
    letter choices per cell (leaf_bounds[i] its bound); boards outside the list score
    less. `leaves` > len(boards) means the arrays were too small (retry bigger);
    complete is False when `max_visits` sub-classes were evaluated before the end.
    """
    n = order.shape[0]
    # per-cell stacks of pending choice nodes: cell c owns stack[start[c]:start[c + 1]]
    count = np.zeros(n + 1, dtype=np.int64)
    for i in range(n_nodes):
        if tree[i, KIND] == CHOICE:
            count[tree[i, CELL] + 1] += 1
    start = np.cumsum(count)
    stack = np.zeros(max(start[n], 1), dtype=np.int64)
    top = start[:n].copy()
    sums = np.zeros(n, dtype=np.int64)
    saved_top = np.zeros((n + 1, n), dtype=np.int64)
    saved_sums = np.zeros((n + 1, n), dtype=np.int64)
    base = np.zeros(n + 1, dtype=np.int64)
    next_j = np.zeros(n + 1, dtype=np.int64)
    chosen = np.zeros(n, dtype=np.int64)
    _open_sum_node(tree, 0, bound, stack, top, sums)  # the root: push its choice children
    visits = 1
    leaves = 0
    if bound[0] < min_score:
        return leaves, visits, True
    saved_top[0] = top
    saved_sums[0] = sums
    base[0] = tree[0, POINTS]
    next_j[0] = 0
    level = 0
    while level >= 0:
        c = order[level]
        j = next_j[level]
        if j >= n_letters[c]:
            level -= 1
            continue
        if visits >= max_visits:
            return leaves, visits, False
        next_j[level] = j + 1
        top[:] = saved_top[level]
        sums[:] = saved_sums[level]
        pts = base[level]
        for e in range(start[c], saved_top[level, c]):
            s = slots[tree[stack[e], BASE] + j]
            if s < 0:
                continue
            s &= LOW32
            pts += tree[s, POINTS]
            _open_sum_node(tree, s, bound, stack, top, sums)
        visits += 1
        chosen[c] = j
        b = pts
        for k in range(level + 1, n):
            b += sums[order[k]]
        if b < min_score:
            continue
        if level == n - 1:
            if leaves < boards.shape[0]:
                boards[leaves] = chosen
                leaf_bounds[leaves] = b
            leaves += 1
            continue
        level += 1
        saved_top[level] = top
        saved_sums[level] = sums
        base[level] = pts
        next_j[level] = 0
    return leaves, visits, True
