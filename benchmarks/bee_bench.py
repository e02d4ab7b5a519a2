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
import itertools  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import polars as pl  # noqa: E402

from puzzlesearch.bee.model import BeeRules  # noqa: E402
from puzzlesearch.bee.search import rank_puzzles  # noqa: E402
from puzzlesearch.bee.tables import MaskTable, mask_frame  # noqa: E402
from puzzlesearch.lexicon import open_lexicon  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]
PUBLISHED = ("AEGINRT", "R", 537, 3898)  # enable1, ../shared/facts/README.md


def best_of(repeat, fn):
    """(best seconds, last result) of `repeat` calls."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def fast_table(words_path, rules):
    words = pl.read_parquet(words_path)
    masks = mask_frame(words, rules)
    return masks, MaskTable.from_frame(masks, rules.size)


def fast_puzzles(masks, table, rules):
    return rank_puzzles(table, masks, rules)


def baseline_table(words_path, rules):
    """Pure Python: letter set -> points and word count, one word at a time."""
    points, counts = Counter(), Counter()
    excluded = set(rules.exclude)
    for w in pl.read_parquet(words_path, columns=["word"])["word"].to_list():
        letters = frozenset(w)
        if len(w) < rules.min_length or len(letters) > rules.size or letters & excluded:
            continue
        pts = rules.short_points if len(w) <= rules.short_length else len(w)
        points[letters] += pts + (rules.pangram_bonus if len(letters) == rules.size else 0)
        counts[letters] += 1
    return points, counts


def baseline_puzzles(points, counts, rules):
    """Pure Python: for each pangram set, sum its 2^7 subsets per center; sort."""
    out = []
    for letters in (s for s in points if len(s) == rules.size):
        letters_sorted = sorted(letters)
        subsets = [frozenset(c) for k in range(1, rules.size + 1) for c in itertools.combinations(letters_sorted, k)]
        subsets = [s for s in subsets if s in points]
        for center in letters_sorted:
            p = sum(points[s] for s in subsets if center in s)
            n = sum(counts[s] for s in subsets if center in s)
            out.append((-p, -n, "".join(letters_sorted).upper(), center.upper(), p, n, counts[letters]))
    out.sort()
    return [(r[2], r[3], r[4], r[5], r[6]) for r in out]


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

    fast_rows = puzzles.select("letters", "center", "points", "words", "pangrams").rows()
    agree = fast_rows == base
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
