"""Boggle: exact fast scoring of boards, the search for the best ones, proofs of the best.

Read model -> trie -> score -> spaces -> search -> rank / scan -> settings -> cli:
- `model`: shapes, boards, neighbours, symmetries and canonical forms, points table, dice sets.
- `trie`: the scorer's table, a trie expanded from the lexicon's minimal Boggle DAWG.
- `score`: `Scorer` for Python callers (scores, words with points, incremental scoring).
- `reference`: slow brute-force scorer, the tests' independent reference (the slow twin).
- `spaces`: search spaces, free letters (`FreeSpace`) or dice (`DiceSpace`), and their moves.
- `search`: budgets, the best boards found, pool search and pool hill climbing.
- `rank`: seed tables (Parquet) and the ranking merged over seeds (symmetric boards merged).
- `scan`: exhaustive neighbourhood scans certifying local optima.
- `settings`: one settings object per pipeline step (search, rank, scan).
- `cli_args`, `cli`: the `puzzlesearch boggle` commands (score, search, rank, scan).
- `_kernels/`: the private numba kernels (trie build, scorer, canonical forms).
- `proof/`: proofs of the best board by branch and bound (`boggle prove ...`).
The scorer these kernels replaced is `puzzlesearch.baselines.boggle_dawg` (benchmarks only).
"""
