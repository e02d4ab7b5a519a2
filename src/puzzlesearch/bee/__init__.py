"""Spelling Bee: every honeycomb scored and ranked from a bitmask -> points table.

Read model -> tables -> search -> (wordlist, hints, schedule, page) -> io -> cli; the numba
kernels are private, in `_kernels/`:
- `model`: the settings (TableRules for the mask table, BeeRules for all of config section
  `bee:`, WordListRules, ScheduleRules), letter masks, Puzzle and its parsing.
- `tables`: words.parquet -> one row per letter mask (masks.parquet) -> dense MaskTable.
- `search`: candidate sets, ranking every (letters, center); the words of one puzzle.
- `wordlist`: the Bee word list (common words, each with a commonness score).
- `hints`: the hints page of a puzzle (first letter x length grid, two-letter starts).
- `schedule`: N distinct puzzles drawn from the pool, with ranks and hints.
- `page`: the self-contained playable page and hints page of a scheduled puzzle.
- `io`: the artifacts under results/bee/{lexicon}/, their manifests, verified loads.
- `cli`: `puzzlesearch bee ...`, interactive (show, top, ...) and pipeline (build-...) commands.
- `_kernels/masks`: numba: the dense mask index, scoring each letter set through its 2^7 subsets.
"""
