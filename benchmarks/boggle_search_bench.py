"""Boggle long-run search benchmark: how often a method reaches the best-known 5x5 board, and record runs.

    python benchmarks/boggle_search_bench.py consistency --wordlist enable2k --seeds 0-9 --cpu-minutes 20
    python benchmarks/boggle_search_bench.py consistency --wordlist yawl --seeds 0-9 --cpu-minutes 30 --jobs 2
    python benchmarks/boggle_search_bench.py record --wordlist yawl --seed 100 --cpu-minutes 600 \\
        --checkpoint /tmp/yawl-100.json          # kill it or Ctrl-C, rerun the same line: it continues
    python benchmarks/boggle_search_bench.py records --wordlist yawl --from run1.json run2.json

consistency: one seed per job (`--jobs`, forked workers, one core each), each stopped once it
reaches the list's best-known 5x5 score (BEST_KNOWN, the peer's published bests) or after
--cpu-minutes of its own CPU time; prints per seed whether and when (CPU seconds, boards,
climbs) it got there, boards per CPU second, and the count of seeds that reached it.
record: one long seed with a checkpoint (resumable), printing the best distinct boards found.
records: merge the boards of --json files of these runs (and the published best) into
benchmarks/boggle_records.csv, the best RECORDS_KEPT distinct boards per list and shape,
each scored again by the slow reference scorer (boggle/reference.py) first: a board whose
reference score differs from the search's is never written.
The search settings are the schema's defaults for --method (boggle.anneal / boggle.ils /
boggle.pool_size), changed with --set KEY=VALUE (e.g. --set anneal.exclude=zqxjkw
--set anneal.run_steps=200000). Methods ils and anneal keep a checkpoint per seed.
Word lists are read from ../shared/wordlists by path; the lexicon artifacts are built once
into the project's artifact store.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.boggle.model import Shape, canonical, encode_boards, parse_board  # noqa: E402
from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score  # noqa: E402
from puzzlesearch.boggle.score import Scorer  # noqa: E402
from puzzlesearch.boggle.search import CHECKPOINT_KIND, CHECKPOINTED, METHODS, Budget, run_search  # noqa: E402
from puzzlesearch.boggle.settings import SearchSettings  # noqa: E402
from puzzlesearch.boggle.spaces import FreeSpace  # noqa: E402
from puzzlesearch.io import atomic_path  # noqa: E402
from puzzlesearch.lexicon import open_lexicon  # noqa: E402
from puzzlesearch.manifest import read_verified  # noqa: E402
from puzzlesearch.parallel import forked_map  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402
from puzzlesearch.settings import parse_sets  # noqa: E402

SHARED = ROOT.parent / "shared"
RECORDS = ROOT / "benchmarks" / "boggle_records.csv"
RECORD_COLUMNS = ["wordlist", "shape", "board", "score", "words", "found_by"]
RECORDS_KEPT = 10
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
    if settings.method in CHECKPOINTED:
        options = {**options, "checkpoint": checkpoint, "job": {"lexicon": scorer.lexicon.get("source_sha256")}}
    result = run_search(scorer, FreeSpace(shape), settings.method, seed, budget, progress=60.0, **options)
    rows = result.rows()
    best = rows[0] if rows else {"board": "", "score": -1, "seconds": 0.0, "boards_scored": 0}
    return {
        "seed": seed,
        "method": settings.method,
        "date": datetime.date.today().isoformat(),
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


def record_rows(args, shape: Shape) -> list[dict]:
    """The record file's rows with the boards of the --from files and the published best, checked and trimmed."""
    rows = list(csv.DictReader(RECORDS.open(newline=""))) if RECORDS.exists() else []
    for path in args.sources:
        for run in runs_in(path):
            label = f"{run['method']} seed {run['seed']} ({run.get('date', 'undated')})"
            rows += [
                {"wordlist": args.wordlist, "shape": str(shape), "board": b, "score": s, "found_by": label}
                for b, s in run["top"]
            ]
    if args.wordlist in BEST_KNOWN and str(shape) == "5x5":
        board, score = BEST_KNOWN[args.wordlist]
        rows.append(
            {"wordlist": args.wordlist, "shape": "5x5", "board": board, "score": score, "found_by": "published"}
        )
    mine = [r for r in rows if (r["wordlist"], r["shape"]) == (args.wordlist, str(shape))]
    others = [r for r in rows if r not in mine]
    best: dict[bytes, dict] = {}
    for row in sorted(mine, key=lambda r: (-int(r["score"]), r["found_by"] == "published")):
        key = canonical(encode_boards([row["board"]], shape), shape).tobytes()
        best.setdefault(key, row)  # a board we found is credited to us, not to `published`
    kept = sorted(best.values(), key=lambda r: (-int(r["score"]), r["board"]))[:RECORDS_KEPT]
    words = boggle_words((SHARED / "wordlists" / f"{args.wordlist}.txt").read_text().split())
    prefix_set = prefixes(words)
    for row in kept:
        score, count = reference_score(parse_board(row["board"], shape.rows, shape.cols), words, prefix_set=prefix_set)
        if score != int(row["score"]):
            sys.exit(f"{row['board']}: the search said {row['score']}, the reference scorer {score}; nothing written")
        row.update(score=score, words=count)
    return others + kept


def runs_in(path) -> list[dict]:
    """The runs of a --json file, or of a search checkpoint (its best boards so far)."""
    data = json.loads(Path(path).read_text())
    if isinstance(data, list):
        return data
    state = read_verified(path, CHECKPOINT_KIND)[0]["state"]  # checked against its manifest entry
    top = sorted(((r["score"], b) for b, r in state["found"].items()), reverse=True)[:RECORDS_KEPT]
    date = datetime.date.fromtimestamp(Path(path).stat().st_mtime).isoformat()
    settings = data["manifest"]["settings"]
    return [{"method": settings["method"], "seed": settings["seed"], "date": date, "top": [(b, s) for s, b in top]}]


def write_records(rows: list[dict]) -> None:
    """benchmarks/boggle_records.csv, written atomically, sorted by list, shape and score."""
    rows = sorted(rows, key=lambda r: (r["wordlist"], r["shape"], -int(r["score"]), r["board"]))
    with atomic_path(RECORDS) as tmp, open(tmp, "w", newline="") as f:
        out = csv.DictWriter(f, RECORD_COLUMNS, lineterminator="\n")
        out.writeheader()
        out.writerows({k: r[k] for k in RECORD_COLUMNS} for r in rows)


def seed_range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["consistency", "record", "records"])
    ap.add_argument("--wordlist", choices=sorted(BEST_KNOWN), default="enable2k")
    ap.add_argument("--shape", default="5x5")
    ap.add_argument("--method", default="anneal", choices=list(METHODS))
    ap.add_argument("--seeds", default="0-1", help="consistency: seeds LO-HI")
    ap.add_argument("--seed", type=int, default=100, help="record: the seed")
    ap.add_argument("--cpu-minutes", type=float, default=5.0, help="CPU cap per seed")
    ap.add_argument("--jobs", type=int, default=1, help="seeds run at once (one core each)")
    ap.add_argument("--checkpoint", help="record: checkpoint file (resumed when it exists)")
    ap.add_argument("--checkpoint-dir", help="consistency: one checkpoint per seed here (resumed when it exists)")
    ap.add_argument("--set", action="append", metavar="KEY=VALUE", help="change a search setting")
    ap.add_argument("--json", help="also write the per-seed summaries to this JSON file")
    ap.add_argument(
        "--from", dest="sources", nargs="*", default=[], help="records: --json files or checkpoints of earlier runs"
    )
    args = ap.parse_args()
    setup_logging()
    shape = Shape.parse(args.shape)
    if args.what == "records":
        rows = record_rows(args, shape)
        write_records(rows)
        print(f"{RECORDS}: {len(rows)} rows")
        return 0
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
            f"({row['boards_per_cpu_s']:,}/CPU s), {row['climbs']} {'runs' if row['method'] == 'anneal' else 'climbs'}, "
            f"{row['restarts']} restarts, "
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
