"""Spelling Bee benchmark: ENABLE2K, S excluded, on one core.

    python benchmarks/bee_bench.py [--wordlist ../shared/wordlists/enable2k.txt] [--repeat 5]

Times (best of --repeat, after a warm-up that compiles/loads the numba kernels):
  table    words.parquet -> masks.parquet rows -> dense MaskTable      (target < 1 s)
  puzzles  mask table -> every valid (letters, center) scored, ranked  (target < 1 s)
next to a simple pure-Python baseline run in the same process (Norvig's pytudes method:
a dict letter-set -> points, then the 2^7 subsets of each pangram set), with the ratio.
Both methods must agree on every puzzle. Prints the top 5 against the published enable1 best.
"""

from __future__ import annotations

import os

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # one core: set before polars/numba load
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from puzzlesearch.baselines.bee import (  # noqa: E402
    baseline_puzzles,
    baseline_table,
    best_of,
    fast_puzzles,
    fast_rows,
    fast_table,
)
from puzzlesearch.bee.settings import BeeRules  # noqa: E402
from puzzlesearch.lexicon import open_lexicon  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]
PUBLISHED = ("AEGINRT", "R", 537, 3898)  # enable1, ../shared/facts/README.md


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", default=str(PROJECT.parent / "shared" / "wordlists" / "enable2k.txt"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rules = BeeRules()  # NYT rules, S excluded, a pangram required
    with tempfile.TemporaryDirectory() as tmp:
        lex = open_lexicon(args.wordlist, config={"lexicons": {}}, root=tmp)
        words_path = lex.dir / "words.parquet"
        print(
            f"{lex.name}: {lex.words.height} words; one core (POLARS_MAX_THREADS="
            f"{os.environ['POLARS_MAX_THREADS']}, NUMBA_NUM_THREADS={os.environ['NUMBA_NUM_THREADS']})"
        )

        t = time.perf_counter()
        masks, table = fast_table(words_path, rules)  # warm-up: numba compile or cache load
        fast_puzzles(masks, table, rules)
        print(f"warm-up (numba compile/cache load, first run): {time.perf_counter() - t:.2f} s")

        t_table, (masks, table) = best_of(args.repeat, lambda: fast_table(words_path, rules))
        t_puz, puzzles = best_of(args.repeat, lambda: fast_puzzles(masks, table, rules))
        every = BeeRules(require_pangram=False)
        e_masks, e_table = fast_table(words_path, every)
        t_every, every_puzzles = best_of(args.repeat, lambda: fast_puzzles(e_masks, e_table, every))
        b_table, (bp, bc) = best_of(1, lambda: baseline_table(words_path, rules))
        b_puz, base = best_of(1, lambda: baseline_puzzles(bp, bc, rules))

    agree = fast_rows(puzzles) == base
    print(
        f"{int(masks['words'].sum())} playable words -> {masks.height} masks "
        f"({int(masks['pangram'].sum())} pangram sets) -> {puzzles.height} puzzles"
    )
    print(f"{'step':<9}{'numba+polars':>14}{'baseline (Python)':>20}{'ratio':>9}{'target':>10}")
    for name, fast, slow in (("table", t_table, b_table), ("puzzles", t_puz, b_puz)):
        verdict = "ok" if fast < 1.0 else "MISSED"
        print(f"{name:<9}{fast:>12.3f} s{slow:>18.3f} s{slow / fast:>8.0f}x{'< 1 s ' + verdict:>12}")
    print(
        f"(no baseline) every 7-letter set without S, pangram or not: {every_puzzles.height} puzzles in {t_every:.3f} s"
    )
    print(f"baseline and numba agree on all {len(base)} puzzles: {agree}")
    print("top 5:")
    for r in puzzles.head(5).iter_rows(named=True):
        print(
            f"  {r['rank']}. {r['letters']} center {r['center']}: {r['words']} words, "
            f"{r['points']} points, {r['pangrams']} pangrams"
        )
    best = puzzles.row(0, named=True)
    letters, center, n, p = PUBLISHED
    print(
        f"published (enable1): {letters} center {center}: {n} words, {p} points; ENABLE2K gives "
        f"{best['letters']}/{best['center']} {best['words']} words ({best['words'] - n:+d}), "
        f"{best['points']} points ({best['points'] - p:+d})"
    )
    if not agree:
        raise SystemExit("baseline and numba results differ")


if __name__ == "__main__":
    main()
