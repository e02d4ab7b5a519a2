"""Crossword benchmark: generation (12x12 English, max vertical word 4) and 15x15 pattern fill.

    python benchmarks/crossword_bench.py [--seeds 10] [--patterns 6] [--fill-floor 0]

Prints figures and ratios against baselines run in the same process:
- generation: the progressive search with focused mutations vs the seed's uniform
  mutations (focus 0), same seeds and budget;
- cost kernel: numba grid_cost vs a plain-Python evaluation of the same grids;
- fill: seconds per pattern with the default fill (frequency-weighted word order, noisy
  restarts, last-conflict) vs a plain baseline on the same patterns and budget: no
  frequency weight, no restart noise, no last-conflict (dom/wdeg slot order and Luby
  node limits kept, since the time budget is checked between attempts); both from
  puzzlesearch.baselines.fill_with (the report's crossword benchmark uses the same code).
  --fill-nodes N bounds each fill by N search nodes instead of time.
Runs on one core (numba kernels are single-threaded). Timings exclude kernel loading.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.baselines import fill_with
from puzzlesearch.config import validate_config
from puzzlesearch.crossword import kernels
from puzzlesearch.crossword.fill import FillSettings, american_pattern
from puzzlesearch.crossword.model import Language, runs
from puzzlesearch.crossword.search import generate
from puzzlesearch.crossword.settings import GenerateSettings as SearchSettings
from puzzlesearch.crossword.tables import open_tables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon import open_lexicon

PROJECT = Path(__file__).resolve().parents[1]


def python_cost(grid, alphabet, known, anagrams):
    """Plain-Python f x 5 of a grid (the baseline of the cost kernel)."""
    total = 0
    for c in range(grid.shape[1]):
        for start, n in runs(grid[:, c] != 0):
            if n < 2:
                continue
            w = alphabet.decode(grid[start : start + n, c])
            if w not in known:
                total += n if "".join(sorted(w)) in anagrams else 5 * n
    return total


def run_generation(tables, lang, seeds, budget, focus):
    """(solved seeds, median seconds, all seconds) for the 12x12, max-down-4 setting."""
    secs, solved = [], 0
    for seed in range(seeds):
        g = generate(
            tables,
            lang,
            SearchSettings(size=12, max_down=4, time_budget=budget, focus=focus, max_pops=0),
            seed,
            progress=False,
        )
        solved += g.cost5 == 0
        secs.append(g.seconds)
    return solved, statistics.median(secs), secs


NO_NODE_LIMIT = 10**15  # without --fill-nodes the benchmark compares time-budgeted fills


def run_fill(patterns, tables, budget, label, baseline=False, nodes=None):
    """Fill each pattern (the fill, or the baseline of puzzlesearch.baselines); print one line each; seconds (inf when not filled)."""
    settings = FillSettings(time_budget=budget, max_nodes=nodes or NO_NODE_LIMIT)
    secs = []
    for seed, pattern in patterns:
        blacks = int((pattern == 0).sum())
        r = fill_with(pattern, tables, settings, baseline)
        if r is None:
            secs.append(float("inf"))
            print(f"  {label} pattern {seed} ({blacks} black): not filled within the budget")
            continue
        secs.append(r.seconds)
        print(
            f"  {label} pattern {seed} ({blacks} black, {blacks / pattern.size:.1%}): {r.seconds:.2f}s, "
            f"{r.nodes} nodes, {r.restarts} restarts, quality {r.quality:.2f}"
        )
    return secs


def median_text(secs: list[float], budget: float) -> str:
    """The median in seconds, or '> budget' when over the budget."""
    med = statistics.median(secs)
    return f"{med:.2f}s" if math.isfinite(med) else f"> {budget:g}s"


def ratio(base: float, fast: float, budget: float) -> str:
    """base / fast as text; a bound when the baseline median hit the budget."""
    if math.isinf(fast):
        return "n/a (median fill over the budget)"
    if math.isinf(base):
        return f"> {budget / fast:.1f}x"
    return f"{base / fast:.1f}x"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--budget", type=float, default=10.0, help="seconds per generated puzzle")
    ap.add_argument("--patterns", type=int, default=6)
    ap.add_argument("--gen-floor", type=int, default=0, help="frequency floor of generated words")
    ap.add_argument("--fill-floor", type=int, default=0, help="frequency floor of fill words")
    ap.add_argument("--fill-budget", type=float, default=30.0, help="seconds per fill (a cap when --fill-nodes)")
    ap.add_argument("--fill-nodes", type=int, help="node budget per fill: bound the fills by work, not time")
    ap.add_argument("--max-word", type=int, default=9, help="longest slot of the random patterns")
    ap.add_argument("--root", help="project root holding results/ (default: a temporary folder)")
    args = ap.parse_args()
    root = Path(args.root) if args.root else Path(tempfile.mkdtemp(prefix="cwbench"))
    if args.root is None:
        (root / "workflow").symlink_to(PROJECT / "workflow")
    config = validate_config({"lexicons": {"default": "builtin:en"}}, root)
    tables = open_tables("en", config, root, args.gen_floor)
    lang = Language("en", tables.name, tables.alphabet, tables.alphabet.letters)
    generate(tables, lang, SearchSettings(size=6, time_budget=1, max_pops=100), 0, progress=False)  # load kernels

    # cost kernel vs plain Python on the same random grids
    rng = np.random.default_rng(0)
    grids = []
    for _ in range(2000):
        g = rng.integers(1, 27, size=(12, 12)).astype(np.int8)
        g[rng.random((12, 12)) < 0.25] = 0
        grids.append(g)
    words = (
        open_lexicon("default", config, root)
        .words.filter(pl.col("frequency").fill_null(0) >= args.gen_floor)["word"]
        .to_list()
    )
    known = set(words)
    anagrams = {"".join(sorted(w)) for w in words}
    karg = tables.kernel_args()
    t = time.perf_counter()
    fast = [int(kernels.grid_cost(g, *karg)[0]) for g in grids]
    t_kernel = time.perf_counter() - t
    t = time.perf_counter()
    slow = [python_cost(g, tables.alphabet, known, anagrams) for g in grids]
    t_python = time.perf_counter() - t
    assert fast == slow
    print(
        f"cost of 2000 random 12x12 grids: numba {t_kernel * 1e3:.1f} ms, plain Python "
        f"{t_python * 1e3:.1f} ms, ratio {t_python / t_kernel:.1f}x"
    )

    solved, med, secs = run_generation(tables, lang, args.seeds, args.budget, focus=0.9)
    print(
        f"generate 12x12 en (floor {args.gen_floor}), max down 4, focused mutations: cost 0 in {solved}/{args.seeds} seeds, "
        f"median {med:.3f}s, max {max(secs):.3f}s (target: >= 9/10, median < 2s)"
    )
    b_solved, b_med, b_secs = run_generation(tables, lang, args.seeds, args.budget, focus=0.0)
    print(
        f"baseline (seed's uniform mutations, focus 0): cost 0 in {b_solved}/{args.seeds}, "
        f"median {b_med:.3f}s; ratio baseline/focused median {b_med / med:.1f}x"
    )

    ftables = open_tables("en", config, root, args.fill_floor)
    patterns, seed = [], 0
    while len(patterns) < args.patterns and seed < 10 * args.patterns:
        try:
            patterns.append((seed, american_pattern(15, 0.16, seed, max_word=args.max_word, tries=50)))
        except PuzzleError:
            pass  # no such pattern from this seed
        seed += 1
    secs = run_fill(patterns, ftables, args.fill_budget, "fill", nodes=args.fill_nodes)
    b_secs = run_fill(patterns, ftables, args.fill_budget, "baseline", baseline=True, nodes=args.fill_nodes)
    med, b_med = statistics.median(secs), statistics.median(b_secs)
    n = len(patterns)
    print(
        f"fill 15x15 ~16% black, floor {args.fill_floor}, max slot {args.max_word}: filled "
        f"{sum(map(math.isfinite, secs))}/{n}, median {median_text(secs, args.fill_budget)} (target < 10s)"
    )
    print(
        f"baseline fill (no frequency weight, no restart noise, no last-conflict): filled "
        f"{sum(map(math.isfinite, b_secs))}/{n}, median {median_text(b_secs, args.fill_budget)}; "
        f"ratio baseline/fill median {ratio(b_med, med, args.fill_budget)}"
    )


if __name__ == "__main__":
    main()
