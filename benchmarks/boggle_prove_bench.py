"""Boggle proof benchmark: per-class cost of the branch and bound on a random sample of classes.

    python benchmarks/boggle_prove_bench.py                          # 3x4 ENABLE2K >= 1500, 200 classes
    python benchmarks/boggle_prove_bench.py --shape 3x3 --min-score 500 --classes 1000

A full proof bounds every top-level class (classes.py: one partition bucket per cell,
symmetric classes skipped), so its cost is (classes) x (mean CPU seconds per class). This
samples classes uniformly (seeded) from the class list, proves each exactly as a shard
job does (prove.Prover.prove_class: orderly tree, branch and bound, exact scores), and
prints the mean CPU seconds per class with its standard error, the projected CPU-hours
of the whole proof, and the ratio against the published 2025 C++ figure (3x3 70 s,
3x4 5h54m, one core). The machine is shared: CPU seconds (time.process_time) are the
measure, and the published class "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou
bdfgjvwxz" (orderly bound 1,231, 332k nodes, 0.05 s in C++) is timed in the same run as
a per-node speed baseline.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.boggle.model import Shape  # noqa: E402
from puzzlesearch.boggle.proof.bounds import OrderlyBounder  # noqa: E402
from puzzlesearch.boggle.proof.classes import DEFAULT_PARTITION, BoardClass  # noqa: E402
from puzzlesearch.boggle.proof.prove import Prover  # noqa: E402
from puzzlesearch.boggle.proof.settings import ProofSettings  # noqa: E402
from puzzlesearch.boggle.score import Scorer  # noqa: E402
from puzzlesearch.lexicon import open_lexicon  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402

PUBLISHED_SECONDS = {"3x3": 70.0, "3x4": 5 * 3600 + 54 * 60}  # 2025 C++, one core
PUBLISHED_CLASS = "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz"
PUBLISHED_CLASS_SECONDS, PUBLISHED_CLASS_NODES = 0.05, 332_000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default=str(ROOT.parent / "shared" / "wordlists" / "enable2k.txt"))
    ap.add_argument("--shape", default="3x4")
    ap.add_argument("--min-score", type=int, default=1500)
    ap.add_argument("--partition", default=DEFAULT_PARTITION)
    ap.add_argument("--classes", type=int, default=200, help="classes sampled")
    ap.add_argument("--seed", type=int, default=20250221)
    ap.add_argument("--max-tree-nodes", type=int, default=20_000_000)
    args = ap.parse_args()
    setup_logging()

    shape = Shape.parse(args.shape)
    lex = open_lexicon("enable2k", {"lexicons": {"enable2k": args.lexicon}}, ROOT)
    scorer = Scorer.for_lexicon(lex)
    settings = ProofSettings.from_dict(
        {"partition": args.partition, "min_score": args.min_score, "max_tree_nodes": args.max_tree_nodes}
    )
    prover = Prover(scorer, shape, settings)

    # same-run baseline: the published 3x3 class
    base = OrderlyBounder(scorer.dawg, Shape(3, 3), settings.points)
    cls = BoardClass.parse(PUBLISHED_CLASS, Shape(3, 3))
    base.bound(cls)  # compile
    t0 = time.process_time()
    bound, nodes = base.bound(cls)
    base_s = time.process_time() - t0
    print(
        f"baseline class (3x3): orderly bound {bound} (published 1,231), {nodes} nodes, {base_s:.3f} CPU s "
        f"(published C++ {PUBLISHED_CLASS_SECONDS} s: ratio {base_s / PUBLISHED_CLASS_SECONDS:.2f}x)"
    )

    t0 = time.process_time()
    codes = prover.classes()
    list_s = time.process_time() - t0
    rng = np.random.default_rng(args.seed)
    sample = rng.choice(codes, min(args.classes, len(codes)), replace=False)
    print(f"{shape} >= {args.min_score}: {len(codes)} classes after symmetry (listed in {list_s:.1f} CPU s)")
    prover.prove_class(int(sample[0]))  # compile outside the timing
    rows = []
    t_all = time.process_time()
    for i, code in enumerate(sample):
        rows.append(prover.prove_class(int(code)))
        if (i + 1) % 50 == 0:
            print(f"  {i + 1}/{len(sample)} classes, {time.process_time() - t_all:.1f} CPU s", flush=True)
    cost = np.array([r["seconds"] for r in rows])
    mean, se = cost.mean(), cost.std(ddof=1) / np.sqrt(len(cost)) if len(cost) > 1 else 0.0
    total_h = mean * len(codes) / 3600
    outcomes = Counter(r["outcome"] for r in rows)
    found = sorted({(s, b) for r in rows for b, s in zip(r["boards"], r["scores"])}, reverse=True)
    nodes = np.array([r["tree_nodes"] for r in rows])
    print(
        f"sample: {len(rows)} classes, outcomes {dict(outcomes)}, tree nodes mean {nodes.mean():,.0f} "
        f"max {nodes.max():,}, visits mean {np.mean([r['visits'] for r in rows]):,.0f}"
    )
    print(f"per class: {mean * 1000:.1f} ms CPU (standard error {se * 1000:.1f} ms, max {cost.max():.2f} s)")
    low, high = (mean - 2 * se) * len(codes) / 3600, (mean + 2 * se) * len(codes) / 3600
    print(f"projected whole proof: {total_h:.2f} CPU-hours (about {low:.2f}..{high:.2f} at 2 standard errors)")
    published = PUBLISHED_SECONDS.get(str(shape))
    if published:
        print(f"published 2025 C++: {published / 3600:.2f} CPU-hours one core; ratio {total_h * 3600 / published:.1f}x")
    for score, board in found[:5]:
        print(f"  found {board} {score}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
