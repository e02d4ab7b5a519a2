"""Baselines the benchmarks, the report and the oracle tests measure against: one implementation each.

- `lexicon`: a plain dict-of-dicts trie, the baseline of the minimal DAWG (lexicon/dawg.py);
- `bee`: the numba + polars mask table and ranking (bee/) and a pure-Python baseline of it
  (Norvig's pytudes method);
- `cube_peers`: the published figures of peer two-phase solvers and the `kociemba` C
  package timed on given cubes, the baselines of cube/'s two-phase solver.
- `boggle_orderly` (kernels in `_boggle_orderly_kernels`): the replaced Boggle proof engine,
  the orderly bound from the root and its stack branch and bound, the oracle of
  boggle/proof/tree.py's tests.

The crossword fill's plain baseline (below) is still here until it moves to its own module.
"""

from __future__ import annotations

# ---------------------------------------------------------------- Crossword: the fill and its plain baseline

# The baseline fill: no frequency weight, no restart noise, no last-conflict (dom/wdeg slot order and
# Luby node limits kept); the same node budget and seed as the fill it is compared with.
BASELINE_FILL = {"freq_weight": 0.0, "noise": 0.0, "last_conflict": False}


def fill_with(pattern, tables, settings, baseline: bool, seed: int = 0):
    """One fill of a pattern, the default knobs or the baseline's (None when the budget ends it unfilled)."""
    import dataclasses

    from puzzlesearch.crossword.fill import NoFill, fill

    knobs = dict(BASELINE_FILL) if baseline else {}
    last_conflict = knobs.pop("last_conflict", True)
    try:
        return fill(
            pattern, tables, dataclasses.replace(settings, **knobs), seed, progress=False, last_conflict=last_conflict
        )
    except NoFill:
        return None
