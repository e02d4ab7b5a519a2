"""Boggle benchmarks: scorer speed (with a baseline in the same process) and search success.

    python benchmarks/boggle_bench.py                    # scorer figures only
    python benchmarks/boggle_bench.py --seeds 10 --seconds 60 --five 120
    python benchmarks/boggle_bench.py --uniform 100000 --deviations 20000 --boards 0   # quick

Issue 12 sets (ENABLE2K, one thread, exactly these generators):
- uniform: `np.random.default_rng(808813).integers(0, 26, (1_000_000, 16))` (letter 16 is Qu);
- deviations: 200,000 two-cell deviations of perslatgsineters, `deviation_boards`: seeded
  rng `np.random.default_rng(808813)`; per board a first cell uniform in 0..15, a second
  cell uniform among the 15 others, and each of the two cells set to a letter uniform
  among the 25 letters other than its own (every board is at Hamming distance 2).
Each set is scored by the trie kernel (the Scorer), by the previous DAWG-with-ranks kernel
(puzzlesearch.baselines.boggle_dawg) in the same process, and by a same-run C++ baseline
(benchmarks/cpp/boggle_ref.cpp: plain trie, 26-entry child tables, stamp de-dup, used
cells as a bit mask, neighbour lists fixed per board size at compile time), compiled with
`g++ -O3 -march=native` into a temporary folder (skipped with a message when g++ is
missing). All three print the total score, which must agree. These figures are full-board
scoring (every board walked in full); the trie kernel walks a batch in locality order
(boggle/_kernels/scorer.py locality_order: rows sorted by their letters, so near-duplicate boards follow
each other and their trie nodes stay in cache), and the DAWG kernel is also timed on
boards pre-sorted into that order, to show how much of the ratio the order gives; the deviation set is also scored INCREMENTALLY (Scorer.score_deviations, on its
own line, said so). Rates are boards per CPU second of the scoring process (the machine is
shared) and per wall second; the goal is also given as a ratio against the DAWG kernel,
from the issue's figures (C++ / DAWG of that run x 1.5), since same-run ratios survive
a loaded machine better than absolute rates.

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
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.baselines import boggle_dawg  # noqa: E402
from puzzlesearch.boggle._kernels.scorer import locality_order  # noqa: E402
from puzzlesearch.boggle.model import Board, Shape, neighbours, parse_board  # noqa: E402
from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score  # noqa: E402
from puzzlesearch.boggle.score import Scorer  # noqa: E402
from puzzlesearch.boggle.search import Budget, run_search  # noqa: E402
from puzzlesearch.boggle.spaces import FreeSpace  # noqa: E402
from puzzlesearch.boggle.trie import BoggleTrie  # noqa: E402
from puzzlesearch.lexicon import open_lexicon  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402

BEST_4X4, BEST_4X4_SCORE = "perslatgsineters", 3625
ISSUE_SEED = 808813
CPP_SOURCE = Path(__file__).resolve().parent / "cpp" / "boggle_ref.cpp"
CPP_FLAGS = ["-O3", "-march=native", "-std=c++17"]
# Published figures of issue 12 (this machine, one thread): best public C++ scorer, boards/s.
ISSUE_CPP = {"uniform": 192_000, "deviations": 33_600}  # uniform: the top of 177-192k
ISSUE_DAWG = {"uniform": 155_000, "deviations": 20_300}  # the DAWG kernel in that run (low end)


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


def uniform_boards(n: int) -> np.ndarray:
    """Issue 12's uniform set: n random 4x4 boards, letters 0..25 (16 = Qu)."""
    return np.random.default_rng(ISSUE_SEED).integers(0, 26, (n, 16)).astype(np.uint8)


def deviation_boards(n: int, base: str = BEST_4X4) -> np.ndarray:
    """Issue 12's deviation set: n boards, each `base` with two distinct cells changed.

    Cells: the first uniform in 0..15, the second uniform among the other 15; letters: each
    changed cell gets a letter uniform among the 25 letters other than its own.
    """
    rng = np.random.default_rng(ISSUE_SEED)
    cells = parse_board(base).array
    boards = np.repeat(cells[None, :], n, axis=0)
    first = rng.integers(0, 16, n)
    second = (first + rng.integers(1, 16, n)) % 16
    rows = np.arange(n)
    for cell in (first, second):
        boards[rows, cell] = (boards[rows, cell].astype(np.int64) + rng.integers(1, 26, n)) % 26
    return boards


def timed(fn, repeat: int):
    """(result, best wall seconds, best CPU seconds) of fn() over `repeat` runs."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        best_wall = min(best_wall, time.perf_counter() - w)
        best_cpu = min(best_cpu, time.process_time() - c)
    return out, best_wall, max(best_cpu, 1e-9)


def dawg_kernel(lex, scorer):
    """fn(boards) -> scores: the previous kernel (DAWG with ranks) over the same lexicon."""
    d = lex.boggle_dawg
    nodes, edges = boggle_dawg.pack_dawg(d.mask, d.first_edge, d.terminal, d.edge_target, d.edge_rank)
    arrays = (nodes, edges, np.ascontiguousarray(d.word_length, dtype=np.int16))
    stamps = np.zeros(max(d.n_words, 1), dtype=np.int32)
    nbr, nbr_n = neighbours(Shape(4, 4))
    first = [1]

    def score(boards):
        scores = np.zeros(len(boards), dtype=np.int64)
        counts = np.zeros(len(boards), dtype=np.int32)
        if first[0] + len(boards) >= 2**31 - 1:
            stamps[:] = 0
            first[0] = 1
        boggle_dawg.score_batch(boards, nbr, nbr_n, arrays, scorer.points, stamps, first[0], scores, counts)
        first[0] += len(boards)
        return scores

    return score


def build_cpp(folder: Path) -> Path | None:
    """benchmarks/cpp/boggle_ref.cpp compiled into folder, or None (with a message) without g++."""
    gxx = shutil.which("g++")
    if gxx is None:
        print("  C++ baseline skipped: g++ is not installed")
        return None
    exe = folder / "boggle_ref"
    proc = subprocess.run([gxx, *CPP_FLAGS, "-o", str(exe), str(CPP_SOURCE)], capture_output=True, text=True)
    if proc.returncode:
        print(f"  C++ baseline skipped: g++ failed: {proc.stderr.strip()[:300]}")
        return None
    return exe


def run_cpp(exe: Path, wordlist: str, boards: np.ndarray, folder: Path, repeat: int):
    """(total score, best wall s, best CPU s) of the C++ baseline on boards (trie build not timed)."""
    path = folder / "boards.u8"
    np.ascontiguousarray(boards, dtype=np.uint8).tofile(path)
    best = None
    for _ in range(repeat):
        out = subprocess.run([str(exe), wordlist, "4", "4", str(path)], capture_output=True, text=True, check=True)
        fields = dict(item.split("=") for item in out.stdout.split())
        run = (int(fields["total_score"]), float(fields["wall_s"]), float(fields["cpu_s"]))
        best = run if best is None else (run[0], min(best[1], run[1]), min(best[2], run[2]))
    return best


def bench_issue_sets(lex, args):
    """Issue 12's two sets: trie kernel vs the previous DAWG kernel vs the C++ baseline."""
    t = time.perf_counter()
    scorer = Scorer.for_lexicon(lex)
    made = time.perf_counter() - t
    shape = Shape(4, 4)
    cpu = time.process_time()
    again = BoggleTrie.from_dawg(lex.boggle_dawg)  # kernels loaded: the build alone
    cpu = time.process_time() - cpu
    print(
        f"issue 12 sets, ENABLE2K, one thread: trie {again.n_nodes:,} nodes "
        f"({again.nodes.nbytes / 1e6:.1f} MB + word table {scorer.arrays.words.nbytes / 1e6:.1f} MB), "
        f"built in memory from the DAWG in {again.build_seconds:.3f} s wall, {cpu:.3f} s cpu "
        f"(first Scorer, numba cache load included: {made:.2f} s)"
    )
    old = dawg_kernel(lex, scorer)
    sets = [("uniform", uniform_boards(args.uniform)), ("deviations", deviation_boards(args.deviations))]
    with tempfile.TemporaryDirectory(prefix="boggle-bench-") as tmp:
        exe = build_cpp(Path(tmp))
        for name, boards in sets:
            if not len(boards):
                continue
            scorer.scores(boards[:64], shape)  # compile / warm up
            old(boards[:64])
            new, new_wall, new_cpu = timed(lambda b=boards: scorer.scores(b, shape), args.repeat)
            prev, old_wall, old_cpu = timed(lambda b=boards: old(b), args.repeat)
            n = len(boards)
            total = int(new.sum())
            print(f"  {name}: {n:,} boards, mean score {total / n:,.1f}")
            print(
                f"    trie kernel (Scorer)   {n / new_cpu:>10,.0f}/s cpu {n / new_wall:>10,.0f}/s wall  total {total:,}"
            )
            same = "same total" if int(prev.sum()) == total else f"TOTAL DIFFERS: {int(prev.sum()):,}"
            print(
                f"    previous DAWG kernel   {n / old_cpu:>10,.0f}/s cpu {n / old_wall:>10,.0f}/s wall  {same}"
                f"  -> trie/DAWG {old_cpu / new_cpu:.2f}x cpu, {old_wall / new_wall:.2f}x wall"
            )
            ordered = boards[locality_order(boards)]
            old(ordered[:64])
            prev_o, o_wall, o_cpu = timed(lambda b=ordered: old(b), args.repeat)
            same = "same total" if int(prev_o.sum()) == total else f"TOTAL DIFFERS: {int(prev_o.sum()):,}"
            print(
                f"    DAWG kernel, boards pre-sorted into the trie kernel's locality order (sort not timed)\n"
                f"                           {n / o_cpu:>10,.0f}/s cpu {n / o_wall:>10,.0f}/s wall  {same}"
                f"  -> trie/this {o_cpu / new_cpu:.2f}x cpu"
            )
            if exe is not None:
                ctotal, c_wall, c_cpu = run_cpp(exe, args.wordlist, boards, Path(tmp), args.repeat)
                same = "same total" if ctotal == total else f"TOTAL DIFFERS: {ctotal:,}"
                print(
                    f"    C++ baseline (g++)     {n / c_cpu:>10,.0f}/s cpu {n / c_wall:>10,.0f}/s wall  {same}"
                    f"  -> trie/C++ {c_cpu / new_cpu:.2f}x cpu, {c_wall / new_wall:.2f}x wall (goal 1.50x)"
                )
            if name == "deviations":
                base = parse_board(BEST_4X4).array
                scorer.score_deviations(base, boards[:64], shape)  # compile / warm up
                (inc, _), inc_wall, inc_cpu = timed(
                    lambda b=boards, c=base: scorer.score_deviations(c, b, shape), args.repeat
                )
                same = "same total" if int(inc.sum()) == total else f"TOTAL DIFFERS: {int(inc.sum()):,}"
                print(
                    f"    INCREMENTAL (score_deviations: boards grouped by changed cells, the unchanged part walked "
                    f"once per group)\n                           {n / inc_cpu:>10,.0f}/s cpu {n / inc_wall:>10,.0f}/s wall"
                    f"  {same}  -> {old_cpu / inc_cpu:.2f}x the DAWG kernel, {new_cpu / inc_cpu:.2f}x full trie"
                )
            target = 1.5 * ISSUE_CPP[name]
            goal = 1.5 * ISSUE_CPP[name] / ISSUE_DAWG[name]
            print(
                f"    issue's figures: C++ {ISSUE_CPP[name]:,}/s, DAWG kernel {ISSUE_DAWG[name]:,}/s -> goal "
                f"{target:,.0f}/s = {goal:.2f}x the DAWG kernel; full trie here {old_cpu / new_cpu:.2f}x (cpu)"
            )


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
    parser.add_argument("--uniform", type=int, default=1_000_000, help="issue 12 uniform 4x4 boards (0 = skip)")
    parser.add_argument("--deviations", type=int, default=200_000, help="issue 12 two-cell deviations (0 = skip)")
    parser.add_argument("--repeat", type=int, default=1, help="time each issue 12 run this often, keep the best")
    parser.add_argument(
        "--boards", type=int, default=200_000, help="random 4x4 boards (5x5: half, good: a tenth; 0 = skip)"
    )
    parser.add_argument("--baseline", type=int, default=300, help="boards for the pure-Python baseline")
    parser.add_argument("--seeds", type=int, default=0, help="search seeds (0 = skip the search benchmark)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU-time limit per seed")
    parser.add_argument("--pool", type=int, default=200, help="hill climber's pool size")
    parser.add_argument("--five", type=float, default=0.0, help="seconds of 5x5 search (0 = skip)")
    args = parser.parse_args()
    setup_logging()
    lex = open_lexicon("enable2k", config={"lexicons": {"enable2k": args.wordlist}}, root=args.root)
    bench_issue_sets(lex, args)
    if args.boards:
        bench_scorer(lex, args)
    if args.seeds:
        bench_search(lex, args)
    if args.five:
        bench_five(lex, args)


if __name__ == "__main__":
    main()
