"""Lexicon benchmark: normalize + minimal DAWG for a word list, against a plain trie baseline.

    python benchmarks/lexicon_bench.py [../shared/wordlists/enable2k.txt]

Prints entries, words, DAWG nodes/edges/bytes and seconds, and the same figures for a
plain (unminimized) trie built in the same process, with the ratios.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from puzzlesearch.baselines.lexicon import trie_size
from puzzlesearch.lexicon import LexiconSpec, build_dawg
from puzzlesearch.lexicon.normalize import normalize

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "enable2k.txt"


def main(path: str) -> None:
    start = time.perf_counter()
    table = normalize(LexiconSpec("bench", path))
    t_norm = time.perf_counter() - start
    words = table.words["word"].to_list()
    start = time.perf_counter()
    dawg = build_dawg(words)
    t_dawg = time.perf_counter() - start
    keys = sorted(k for k in table.words["boggle"].to_list() if k is not None)
    start = time.perf_counter()
    bdawg = build_dawg(keys)
    t_bdawg = time.perf_counter() - start
    trie_nodes, _, t_trie = trie_size(words)
    print(f"{path}: {table.entries} entries -> {len(words)} words, normalized in {t_norm:.2f}s")
    print(f"DAWG:        {dawg.n_nodes} nodes, {dawg.n_edges} edges, {dawg.nbytes} bytes, {t_dawg:.2f}s")
    print(f"Boggle DAWG: {bdawg.n_nodes} nodes, {bdawg.n_edges} edges, {len(keys)} keys, {t_bdawg:.2f}s")
    print(f"baseline plain trie: {trie_nodes} nodes, {t_trie:.2f}s")
    print(
        f"ratio: DAWG has {trie_nodes / dawg.n_nodes:.1f}x fewer nodes than the trie; "
        f"build takes {t_dawg / t_trie:.1f}x the trie's time"
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(DEFAULT))
