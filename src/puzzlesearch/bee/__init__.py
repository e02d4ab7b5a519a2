"""Spelling Bee: every honeycomb scored and ranked from a bitmask -> points table.

Read model -> tables -> search -> io -> cli (the numba kernels are private, in `_kernels/`):
- `model`: the settings TableRules (mask table) and BeeRules (all of config section `bee:`),
  letter masks, Puzzle and its parsing.
- `tables`: words.parquet -> one row per letter mask (masks.parquet) -> dense MaskTable.
- `search`: candidate sets, ranking every (letters, center); the words of one puzzle.
- `io`: the artifacts under results/bee/{lexicon}/, their manifests, verified loads.
- `cli`: `puzzlesearch bee show|top` (interactive) and `build-masks|build-puzzles` (pipeline).
- `_kernels/masks`: numba: the dense mask index, scoring each letter set through its 2^7 subsets.
"""
