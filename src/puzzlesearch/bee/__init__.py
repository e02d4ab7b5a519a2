"""Spelling Bee: every honeycomb scored and ranked from a bitmask -> points table.

Read model -> tables -> kernels -> search -> io -> cli:
- `model`: the settings TableRules (mask table) and BeeRules (all of config section `bee:`),
  letter masks, Puzzle and its parsing.
- `tables`: words.parquet -> one row per letter mask (masks.parquet) -> dense MaskTable.
- `kernels`: numba: dense mask index, scoring each letter set through its 2^7 subsets.
- `search`: candidate sets, ranking every (letters, center); the words of one puzzle.
- `io`: the artifacts under results/bee/{lexicon}/, their manifests, verified loads.
"""
