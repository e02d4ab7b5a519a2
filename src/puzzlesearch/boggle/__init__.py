"""Boggle: exact fast scoring of boards and the search for the best ones.

Read model -> kernels -> score -> search -> rank / scan -> cli:
- `model`: shapes, boards, neighbours, symmetries, points table, dice sets.
- `kernels`: numba scorer over the Boggle DAWG (per-word stamps), batch and neighbourhoods.
- `score`: `Scorer` for Python callers (scores, words with points).
- `reference`: slow brute-force scorer, the tests' independent reference.
- `search`: search spaces (free letters, dice), pool search, pool hill climbing.
- `rank`: seed tables and the ranking merged over seeds (symmetric boards merged).
- `scan`: exhaustive neighbourhood scans certifying local optima.
"""
