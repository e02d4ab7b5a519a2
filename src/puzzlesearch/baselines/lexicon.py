"""The minimal DAWG's baseline: a plain dict-of-dicts trie, its node count and build time."""

from __future__ import annotations

import time


def trie_size(words: list[str]) -> tuple[int, int, float]:
    """Baseline: nodes and word-end nodes of a plain dict-of-dicts trie, and seconds to build it."""
    start = time.perf_counter()
    root: dict = {}
    nodes, ends = 1, 0
    for word in words:
        node = root
        for ch in word:
            if ch not in node:
                node[ch] = {}
                nodes += 1
            node = node[ch]
        if "" not in node:
            node[""] = True  # the word-end mark (no node)
            ends += 1
    return nodes, ends, time.perf_counter() - start
