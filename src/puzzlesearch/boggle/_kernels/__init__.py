"""Private numba kernels of the Boggle package (plain arrays in, plain arrays out).

- `trie`: build the scorer's trie from the Boggle DAWG (`count_trie_nodes`, `fill_trie`).
- `scorer`: score boards over that trie (`TrieArrays`), batches, incremental deviations.
- `symmetry`: canonical forms of boards under the board's symmetries.

Python callers use `boggle.trie`, `boggle.score` and `boggle.model` instead. The scorer
these kernels replaced (DAWG with ranks) is `puzzlesearch.baselines.boggle_dawg`.
"""
