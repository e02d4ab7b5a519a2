"""Boggle long-run search benchmark: how often a method reaches the best-known 5x5 board, and record runs.

    python benchmarks/boggle_search_bench.py consistency --wordlist enable2k --seeds 0-9 --cpu-minutes 20
    python benchmarks/boggle_search_bench.py consistency --wordlist yawl --seeds 0-9 --cpu-minutes 30 --jobs 2
    python benchmarks/boggle_search_bench.py record --wordlist yawl --seed 100 --cpu-minutes 600 \\
        --checkpoint /tmp/yawl-100.json          # kill it or Ctrl-C, rerun the same line: it continues

consistency: one seed per job (`--jobs`, forked workers, one core each), each stopped once it
reaches the list's best-known 5x5 score (BEST_KNOWN, the peer's published bests) or after
--cpu-minutes of its own CPU time; prints per seed whether and when (CPU seconds, boards,
climbs) it got there, boards per CPU second, and the count of seeds that reached it.
record: one long seed with a checkpoint (resumable), printing the best distinct boards found.
The search settings are the schema's defaults for --method (boggle.ils / boggle.pool_size),
changed with --set KEY=VALUE (e.g. --set ils.kick_moves=4 --set ils.exclude=zqxjkw).
Word lists are read from ../shared/wordlists by path; the lexicon artifacts are built once
into the project's artifact store.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.boggle.model import Shape  # noqa: E402
from puzzlesearch.boggle.score import Scorer  # noqa: E402
from puzzlesearch.boggle.search import Budget, run_search  # noqa: E402
from puzzlesearch.boggle.settings import SearchSettings  # noqa: E402
from puzzlesearch.boggle.spaces import FreeSpace  # noqa: E402
from puzzlesearch.lexicon import open_lexicon  # noqa: E402
from puzzlesearch.parallel import forked_map  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402
from puzzlesearch.settings import parse_sets  # noqa: E402

SHARED = ROOT.parent / "shared"
# Best-known 5x5 boards (danvk/hybrid-boggle results/hillclimb-5x5.*.txt; our scorer agrees).
BEST_KNOWN = {
    "enable2k": ("ligdrmanesietildsracsepes", 10406),
    "yawl": ("degosrsniceitalstrepuopsd", 13625),
}


def scorer_for(wordlist: str) -> Scorer:
    """The Scorer of ../shared/wordlists/<wordlist>.txt (artifacts built into the store once)."""
    path = SHARED / "wordlists" / f"{wordlist}.txt"
    if not path.is_file():
        sys.exit(f"{path}: no such file (the shared word lists live in ../shared)")
    return Scorer.for_lexicon(open_lexicon(wordlist, config={"lexicons": {wordlist: str(path)}}, root=ROOT))


def settings_of(args) -> SearchSettings:
    """The schema's search settings with --method and the --set changes."""
    changes = parse_sets(args.set or [], SearchSettings.keys())
    data = {"method": args.method, "max_boards": 0}  # the CPU cap bounds a benchmark seed
    for key, value in changes.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    return SearchSettings.from_dict(data)


def one_seed(job):
    """Search one seed on one core until the target or the CPU cap: a summary dict."""
    scorer, shape, settings, seed, seconds, target, checkpoint = job
    budget = Budget(seconds=seconds, max_boards=settings.max_boards, target=target, cpu=True)
    options = settings.options()
    if settings.method == "ils":
        options = {**options, "checkpoint": checkpoint, "job": {"lexicon": scorer.lexicon.get("source_sha256")}}
    result = run_search(scorer, FreeSpace(shape), settings.method, seed, budget, progress=60.0, **options)
    rows = result.rows()
    best = rows[0] if rows else {"board": "", "score": -1, "seconds": 0.0, "boards_scored": 0}
    return {
        "seed": seed,
        "best": best["board"],
        "score": best["score"],
        "reached": bool(target) and best["score"] >= target,
        "first_cpu_s": best["seconds"],
        "first_boards": best["boards_scored"],
        "cpu_s": round(budget.elapsed(), 1),
        "boards": budget.boards,
        "boards_per_cpu_s": round(budget.boards / max(budget.elapsed(), 1e-9)),
        "climbs": result.climbs,
        "restarts": result.restarts,
        "stopped_by": result.stopped_by,
        "top": [(r["board"], r["score"]) for r in rows[:10]],
    }


def seed_range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["consistency", "record"])
    ap.add_argument("--wordlist", choices=sorted(BEST_KNOWN), default="enable2k")
    ap.add_argument("--shape", default="5x5")
    ap.add_argument("--method", default="ils", choices=["ils", "hill", "pool"])
    ap.add_argument("--seeds", default="0-1", help="consistency: seeds LO-HI")
    ap.add_argument("--seed", type=int, default=100, help="record: the seed")
    ap.add_argument("--cpu-minutes", type=float, default=5.0, help="CPU cap per seed")
    ap.add_argument("--jobs", type=int, default=1, help="seeds run at once (one core each)")
    ap.add_argument("--checkpoint", help="record: checkpoint file (resumed when it exists)")
    ap.add_argument("--checkpoint-dir", help="consistency: one checkpoint per seed here (resumed when it exists)")
    ap.add_argument("--set", action="append", metavar="KEY=VALUE", help="change a search setting")
    ap.add_argument("--json", help="also write the per-seed summaries to this JSON file")
    args = ap.parse_args()
    setup_logging()
    shape = Shape.parse(args.shape)
    settings = settings_of(args)
    scorer = scorer_for(args.wordlist)
    seconds = args.cpu_minutes * 60
    best_board, best_score = BEST_KNOWN[args.wordlist] if str(shape) == "5x5" else ("", 0)
    print(f"{args.what}: {args.wordlist} {shape} {settings.method} {settings.options()}")
    if args.what == "consistency":
        seeds = seed_range(args.seeds)
        print(
            f"target {best_score} ({best_board}); {len(seeds)} seeds x <= {args.cpu_minutes} CPU-min, {args.jobs} jobs"
        )
        folder = Path(args.checkpoint_dir) if args.checkpoint_dir else None
        if folder:
            folder.mkdir(parents=True, exist_ok=True)
        jobs = [
            (scorer, shape, settings, s, seconds, best_score, folder and folder / f"{args.wordlist}-{shape}-{s}.json")
            for s in seeds
        ]
    else:
        print(f"record run, seed {args.seed}, <= {args.cpu_minutes} CPU-min, checkpoint {args.checkpoint}")
        jobs = [(scorer, shape, settings, args.seed, seconds, 0, args.checkpoint)]
    out = []
    started = time.perf_counter()
    for row in forked_map(one_seed, jobs, args.jobs):
        out.append(row)
        print(
            f"seed {row['seed']}: best {row['best']} {row['score']} "
            f"({'reached' if row['reached'] else 'not reached'}) first at {row['first_cpu_s']} CPU s / "
            f"{row['first_boards']:,} boards; ran {row['cpu_s']} CPU s, {row['boards']:,} boards "
            f"({row['boards_per_cpu_s']:,}/CPU s), {row['climbs']} climbs, {row['restarts']} restarts, "
            f"stopped by {row['stopped_by']}",
            flush=True,
        )
    if args.what == "consistency":
        reached = [r for r in out if r["reached"]]
        times = sorted(r["first_cpu_s"] for r in reached)
        print(
            f"reached {best_score}: {len(reached)}/{len(out)} seeds; CPU s to reach: {times}; "
            f"total CPU s {sum(r['cpu_s'] for r in out):.0f}; wall {time.perf_counter() - started:.0f} s"
        )
    else:
        for board, score in out[0]["top"]:
            print(f"  {board}\t{score}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
