"""Boggle benchmarks: scorer speed (with a baseline in the same process) and search success.

    python benchmarks/boggle_bench.py                    # scorer figures only
    python benchmarks/boggle_bench.py --seeds 10 --seconds 60 --five 120

Scorer: random 4x4 and 5x5 boards (uniform letters) and "good" boards (every single
deviation of perslatgsineters and a sample of its double deviations) scored on one thread
with ENABLE2K; the baseline is the pure-Python path walk over a set of words and prefixes
(puzzlesearch.boggle.reference), timed on a subset of the same boards.
Search: pool hill climbing from random starts on ENABLE2K 4x4 free letters, one seed at a
time; how many seeds reach perslatgsineters (3625), and when. 5x5: best score in --five s.
Search budgets count this process's CPU seconds (the machine is shared), not wall seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.boggle.model import Board, Shape, parse_board  # noqa: E402
from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score  # noqa: E402
from puzzlesearch.boggle.score import Scorer  # noqa: E402
from puzzlesearch.boggle.search import Budget, FreeSpace, run_search  # noqa: E402
from puzzlesearch.lexicon import open_lexicon  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402

BEST_4X4, BEST_4X4_SCORE = "perslatgsineters", 3625


def rate(fn, n):
    """(boards per wall second, boards per CPU second) of fn() scoring n boards."""
    w, c = time.perf_counter(), time.process_time()
    fn()
    return n / (time.perf_counter() - w), n / max(time.process_time() - c, 1e-9)


def good_boards(rng, count):
    """Single deviations of the best 4x4 board, then random double deviations."""
    base = parse_board(BEST_4X4).array
    space = FreeSpace(Shape(4, 4))
    singles = space.neighbours(base[None, :])
    doubles = space.mutate(space.mutate(np.repeat(base[None, :], count, axis=0), rng), rng)
    return np.concatenate([singles, doubles])[:count]


def bench_scorer(lex, args):
    scorer = Scorer.for_lexicon(lex)
    words = boggle_words(lex.words["word"].to_list())
    pre = prefixes(words)
    rng = np.random.default_rng(0)
    cases = [
        ("random 4x4", Shape(4, 4), rng.integers(0, 26, size=(args.boards, 16), dtype=np.uint8)),
        ("random 5x5", Shape(5, 5), rng.integers(0, 26, size=(args.boards // 2, 25), dtype=np.uint8)),
        ("good 4x4 (deviations of perslatgsineters)", Shape(4, 4), good_boards(rng, args.boards // 10)),
    ]
    print(f"scorer, one thread, ENABLE2K ({lex.boggle_dawg.n_words} Boggle words, {lex.boggle_dawg.n_nodes} nodes)")
    for name, shape, boards in cases:
        scorer.scores(boards[:8], shape)  # compile / warm up
        fast_wall, fast_cpu = rate(lambda boards=boards, shape=shape: scorer.scores(boards, shape), len(boards))
        few = boards[: args.baseline]
        objs = [Board(shape.rows, shape.cols, tuple(int(x) for x in b)) for b in few]
        base_wall, base_cpu = rate(
            lambda objs=objs: [reference_score(b, words, prefix_set=pre) for b in objs], len(objs)
        )
        mean = float(scorer.scores(boards[:1000], shape).mean())
        print(
            f"  {name:44s} {len(boards):>7} boards  {fast_wall:>10,.0f}/s wall  {fast_cpu:>10,.0f}/s cpu"
            f"  | baseline (pure Python, {len(objs)} boards) {base_cpu:>8,.0f}/s cpu"
            f"  | ratio {fast_cpu / base_cpu:6.0f}x  (mean score {mean:.0f})"
        )


def bench_search(lex, args):
    scorer = Scorer.for_lexicon(lex)
    space = FreeSpace(Shape(4, 4))
    print(
        f"search: hill climbing, pool {args.pool}, ENABLE2K 4x4 free letters, "
        f"{args.seeds} seeds x at most {args.seconds:.0f} CPU s, target {BEST_4X4} {BEST_4X4_SCORE}"
    )
    reached = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        budget = Budget(seconds=args.seconds, target=BEST_4X4_SCORE, cpu=True)
        cpu = time.process_time()
        result = run_search(scorer, space, "hill", seed, budget, pool_size=args.pool, keep=20, progress=1e9)
        best = result.rows()[0]
        ok = best["score"] >= BEST_4X4_SCORE
        reached += [ok]
        reached_text = f"reached at {best['seconds']:.1f} s cpu" if ok else "not reached"
        print(
            f"  seed {seed:2d}: best {best['board']} {best['score']:5d}  "
            f"{reached_text:24s} "
            f"{budget.boards:>9,} boards, {time.process_time() - cpu:6.1f} s cpu, {result.restarts} restarts"
        )
    print(f"  reached the optimum: {sum(reached)} of {len(reached)} seeds")


def bench_five(lex, args):
    scorer = Scorer.for_lexicon(lex)
    space = FreeSpace(Shape(5, 5))
    budget = Budget(seconds=args.five, cpu=True)
    result = run_search(scorer, space, "hill", 0, budget, pool_size=args.pool, keep=5, progress=30)
    best = result.rows()[0]
    print(
        f"5x5: hill climbing {args.five:.0f} CPU s, one thread: best {best['board']} {best['score']} "
        f"(first at {best['seconds']:.0f} s), {budget.boards:,} boards, {result.restarts} restarts"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", default=str(ROOT.parent / "shared" / "wordlists" / "enable2k.txt"))
    parser.add_argument(
        "--root",
        default=str(ROOT),
        help="folder a relative --wordlist is read from "
        "(the lexicon is built into the artifact store, $PUZZLESEARCH_STORE)",
    )
    parser.add_argument("--boards", type=int, default=200_000, help="random 4x4 boards (5x5: half, good: a tenth)")
    parser.add_argument("--baseline", type=int, default=300, help="boards for the pure-Python baseline")
    parser.add_argument("--seeds", type=int, default=0, help="search seeds (0 = skip the search benchmark)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU-time limit per seed")
    parser.add_argument("--pool", type=int, default=200, help="hill climber's pool size")
    parser.add_argument("--five", type=float, default=0.0, help="seconds of 5x5 search (0 = skip)")
    args = parser.parse_args()
    setup_logging()
    lex = open_lexicon("enable2k", config={"lexicons": {"enable2k": args.wordlist}}, root=args.root)
    bench_scorer(lex, args)
    if args.seeds:
        bench_search(lex, args)
    if args.five:
        bench_five(lex, args)


if __name__ == "__main__":
    main()
