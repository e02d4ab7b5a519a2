"""Bee word list benchmark: the acceptance model against the published NYT answers (issue 60).

    python benchmarks/bee_wordlist_bench.py [--answers ../shared/facts/nyt_bee_2018_2021.tsv] [--no-refit]

Prints, each measured in this run:
  1. the by-year cross-validation (fit on three years, threshold chosen inside them, judged on
     the fourth): recall, precision, share of puzzles within 25% of the published count, our
     counts' median/p10/p90 beside the published; with --no-refit the table stored in the
     shipped bee/data/acceptance.json instead (the refit takes 3-8 min). A refit is compared
     with the shipped parameters (same threshold, coefficients within 1e-6).
  2. the word list of the builtin English lexicon (`default`) built with the shipped
     parameters, timed (target < 60 s), and its in-sample figures on every published puzzle
     (in-sample: the shipped model was fitted on them), beside the old rule (WordNet common
     words with Zipf >= 2.5) as the baseline;
  3. the generator's puzzles from that list (NYT rules: 7 letters, no S, a pangram): the
     word-count distribution of every valid puzzle and of the schedule's window (20-50 words),
     beside the published (median 37, p10 24, p90 59); and the default schedule drawn from it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.bee.acceptance import default_facts, load_model
from puzzlesearch.bee.fitting import fit, make_pairs, read_published, score
from puzzlesearch.bee.schedule import make_schedule
from puzzlesearch.bee.search import rank_puzzles
from puzzlesearch.bee.settings import BeeRules, ScheduleRules, WordListRules
from puzzlesearch.bee.tables import build_table
from puzzlesearch.bee.wordlist import build_wordlist
from puzzlesearch.config import validate_config
from puzzlesearch.lexicon import open_lexicon
from puzzlesearch.lexicon.wordinfo import COMMON

PROJECT = Path(__file__).resolve().parents[1]
ANSWERS = PROJECT.parent / "shared" / "facts" / "nyt_bee_2018_2021.tsv"
OLD_MIN_ZIPF = 2.5  # the hand-tuned rule the model replaces


def cv_table(rows: list[dict], published: dict) -> None:
    """Print the by-year table."""
    print(f"{'test year':>9}  {'thr':>4}  {'recall':>6}  {'precision':>9}  {'within 25%':>10}  ours median/p10/p90")
    for r in rows:
        print(
            f"{r['test_year']:>9}  {r['threshold']:4.2f}  {r['recall']:6.3f}  {r['precision']:9.3f}  "
            f"{r['within_25pct']:10.3f}  {r['median']:.0f}/{r['p10']:.0f}/{r['p90']:.0f}"
        )
    mean = {k: np.mean([r[k] for r in rows]) for k in ("recall", "precision", "within_25pct")}
    print(f"{'mean':>9}  {'':4}  {mean['recall']:6.3f}  {mean['precision']:9.3f}  {mean['within_25pct']:10.3f}")
    print(f"published counts: median {published['median']:.0f}, p10 {published['p10']:.0f}, p90 {published['p90']:.0f}")


def in_sample(label: str, words: list[str], puzzles, seconds: float | None = None) -> None:
    """Recall, precision, within-25% of a word list on every published puzzle."""
    pairs = make_pairs(puzzles, words)
    s = score(pairs, np.ones(len(pairs.words), dtype=bool), sorted({p.year for p in puzzles}))
    r = s.row()
    took = f" built in {seconds:.1f} s;" if seconds is not None else ""
    print(
        f"{label}: {len(words)} words;{took} recall {r['recall']:.3f}, precision {r['precision']:.3f}, "
        f"within 25% {r['within_25pct']:.3f}, counts median/p10/p90 {r['median']:.0f}/{r['p10']:.0f}/{r['p90']:.0f}"
    )


def distribution(label: str, counts: np.ndarray) -> None:
    """Median, p10, p90 of puzzle word counts."""
    q = np.percentile(counts, [50, 10, 90])
    print(f"{label}: {len(counts)} puzzles, words median {q[0]:.0f}, p10 {q[1]:.0f}, p90 {q[2]:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", default=str(ANSWERS))
    parser.add_argument("--no-refit", action="store_true", help="print the shipped CV table instead of refitting")
    args = parser.parse_args()
    puzzles = read_published(args.answers)
    facts = default_facts()
    shipped = load_model(facts=facts)  # acceptance.json, or acceptance-without-scowl.json when SCOWL is absent
    print(f"sources: {facts.describe()}; parameters {facts.params_file}")

    print("1. cross-validation by year")
    if args.no_refit:
        model = shipped
        print(f"   (stored in the shipped bee/data/{facts.params_file})")
    else:
        t = time.perf_counter()
        model = fit(args.answers, facts, puzzles)
        same = (
            model.threshold == shipped.threshold
            and np.allclose(model.coef, shipped.coef, atol=1e-6)
            and abs(model.intercept - shipped.intercept) < 1e-6
        )
        print(f"   refit in {time.perf_counter() - t:.0f} s; same as the shipped parameters: {same}")
    cv_table(model.info["cross_validation"], model.info["fitted_on"]["published_counts"])

    print("\n2. the word list of the builtin English lexicon")
    with tempfile.TemporaryDirectory() as tmp:
        lex = open_lexicon("default", validate_config({"lexicons": {"default": "builtin:en"}}), Path(tmp))
        t = time.perf_counter()
        wordlist, counts = build_wordlist(lex.words, WordListRules(), facts, shipped)
        seconds = time.perf_counter() - t
    print(f"   candidates {counts}")
    in_sample("   model (in-sample)", wordlist["word"].to_list(), puzzles, seconds)
    old = [
        w
        for w in facts.candidates()
        if WordListRules().fits(w)
        and w not in facts.blocklist
        and facts.zipf.get(w, 0.0) >= OLD_MIN_ZIPF
        and facts.wordnet.word_class(w) == COMMON
    ]
    in_sample(f"   old rule (WordNet common, Zipf >= {OLD_MIN_ZIPF})", old, puzzles)

    print("\n3. the generator's puzzles from the word list (7 letters, no S, a pangram)")
    rules = BeeRules()
    masks, table = build_table(wordlist.with_columns(frequency=pl.lit(None, dtype=pl.Int64)), rules)
    every = rank_puzzles(table, masks, rules)["words"].to_numpy()
    distribution("   every valid puzzle", every)
    window = every[(every >= 20) & (every <= 50)]
    distribution("   the schedule's window (20-50 words)", window)
    distribution("   published 2018-2021", np.array([len(p.answers) for p in puzzles]))
    t = time.perf_counter()
    days, pool = make_schedule(wordlist, ScheduleRules())
    counts = [d.hints.words for d in days]
    print(
        f"   the default schedule ({len(days)} days, seed {ScheduleRules().schedule_seed}): drawn from {pool} "
        f"puzzles in {time.perf_counter() - t:.0f} s; words {counts} (mean {np.mean(counts):.1f}); "
        f"difficulty {min(d.difficulty for d in days):.0f}-{max(d.difficulty for d in days):.0f}"
    )


if __name__ == "__main__":
    main()
