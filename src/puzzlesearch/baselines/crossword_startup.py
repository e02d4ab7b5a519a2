"""Baseline: how a crossword fill derived its word data at start-up before the tables carried it.

`sibling_rows_from_stems` made the fill's sibling lists (the rows sharing a form with each
eligible row: SEES and SEE) by decoding every eligible word and grouping the stem keys of
clues.parquet's `stems` column in Python (about 3 CPU s for the 230,000 eligible words of the
English tables with the constructors' list); the tables now hold the lists of all rows
(crossword.tables.sibling_lists) and the fill cuts them to its floors
(crossword.fill.sibling_rows). `word_bits_onehot` made the position bitsets from a one-hot
array of every (position, letter, word) (crossword.fill.position_bits sets the bits directly).

benchmarks/crossword_startup.py times them beside the current path, and the tests check
the current path against them; nothing in the product calls them.
"""

from __future__ import annotations

import numpy as np

from puzzlesearch.crossword.clues import stem_keys
from puzzlesearch.crossword.fill import NO_SIBLINGS, LengthBits
from puzzlesearch.crossword.tables import WordTables


def sibling_rows_from_stems(tables: WordTables) -> tuple[np.ndarray, np.ndarray]:
    """(sib_start, sib_rows) of the eligible rows, from the stems column (NO_SIBLINGS without stems)."""
    if not tables.stem_map:
        return NO_SIBLINGS
    lengths = tables.arrays["lengths"]
    groups: dict[str, list[int]] = {}
    keys_of: dict[int, set[str]] = {}
    for r in np.nonzero(tables.word_ok)[0].tolist():
        word = tables.alphabet.decode(tables.codes[r, : lengths[r]])
        keys_of[r] = stem_keys(word, tables.stem_map.get(word, ""))
        for k in keys_of[r]:
            groups.setdefault(k, []).append(r)
    counts = np.zeros(len(lengths) + 1, dtype=np.int64)
    lists = {}
    for r, keys in keys_of.items():
        sib = sorted({x for k in keys for x in groups[k]} - {r})
        if sib:
            lists[r] = sib
            counts[r + 1] = len(sib)
    start = np.cumsum(counts)
    rows = np.zeros(int(start[-1]), dtype=np.int64)
    for r, sib in lists.items():
        rows[start[r] : start[r] + len(sib)] = sib
    return start, rows


def word_bits_onehot(tables: WordTables, lengths: list[int]) -> dict[int, LengthBits]:
    """Per length, its LengthBits from a one-hot (position, letter, word) array packed to bits."""
    out = {}
    k = tables.alphabet.size
    for L in lengths:
        a, b = tables.len_range(L)
        n = int(tables.word_ok[a:b].sum())
        nw = max(1, -(-n // 64))
        if n == 0:
            out[L] = LengthBits(a, 0, np.zeros((L, k + 1, nw), dtype=np.uint64))
            continue
        codes = tables.codes[a : a + n, :L]
        onehot = codes.T[:, None, :] == np.arange(k + 1, dtype=codes.dtype)[None, :, None]  # (L, k+1, n)
        packed = np.packbits(onehot, axis=2, bitorder="little")
        padded = np.zeros((L, k + 1, nw * 8), dtype=np.uint8)
        padded[:, :, : packed.shape[2]] = packed
        out[L] = LengthBits(a, n, padded.view("<u8").astype(np.uint64))
    return out
