"""Crossword fill start-up: the CPU seconds a `crossword fill` process spends before its search starts.

    python benchmarks/crossword_startup.py [--pattern american15/easy.txt] [--repeats 5] [--old-rev REV]

Every run is a `puzzlesearch crossword fill` process of its own, with the constructors' list on
(crossword.quality.constructors: true, the rest of the project's config.yaml as is), on tables
already in the artifact store (PUZZLESEARCH_STORE, or --store; a variant's first run, not timed,
builds what is missing: a few CPU minutes with the list). Per variant, over --repeats runs (min and
median, CPU seconds, user + system):
- ready: the process's CPU when the fill's search starts (its first Schedule), plus its children's
  (the compile-ahead child, when one runs);
- whole: the whole process from outside (search, clues read and files written, exit included).
Variants, in the same run:
- current: this tree;
- no precomputed data: this tree with the fill's word data derived at start-up as before version 7
  of the tables (puzzlesearch.baselines.crossword_startup: the sibling lists grouped in Python from
  clues.parquet's stems, the position bits from a one-hot array);
- old (--old-rev REV): the source of git revision REV (git archive into a folder under the system's
  temporary folder, kept with its own numba cache, so only its first run compiles), e.g. the
  revision before this work; its tables are of its own version (built on its first run);
- kernels only: a process that imports the fill and loads its kernels from numba's cache over
  stand-ins, nothing else (python, numpy, numba: what no change to the tables can cut);
- numpy and numba imported: the interpreter with the two imports and nothing run (numba's own floor;
  its first call of a cached kernel adds about 0.5 s more: its typing and target registries);
- blacksquare (PyPI, the peer): import, its copy of the list at the same floor, a 15x15 grid with
  the pattern's black cells: ready to fill (the whole process).
The ratio is each variant's median `ready` over the current one's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from puzzlesearch.config import load_config
from puzzlesearch.crossword.settings import FillSettings

PROJECT = Path(__file__).resolve().parents[1]
PATTERNS = PROJECT / "workflow" / "crossword" / "patterns"

# One fill process: marks the CPU at the search's start, runs the CLI as the program does (sys.argv).
DRIVER = r"""
import json, resource, sys, time
variant, argv = sys.argv[1], sys.argv[2:]
import puzzlesearch.crossword.fill as F
if variant == "no precomputed data":
    from puzzlesearch.baselines import crossword_startup as old
    F.sibling_rows, F.word_bits = old.sibling_rows_from_stems, old.word_bits_onehot
ready = {}
class Marked(F.Schedule):
    def __init__(self, *a, **k):
        ready.setdefault("cpu", time.process_time())
        super().__init__(*a, **k)
F.Schedule = Marked
from puzzlesearch.cli import main
sys.argv = ["puzzlesearch", *argv]
code = main()
import multiprocessing
for child in multiprocessing.active_children():
    child.join()
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"code": code, "self": ready.get("cpu"), "children": kids.ru_utime + kids.ru_stime}))
sys.exit(code)
"""

KERNELS_ONLY = r"""
import json, time
from puzzlesearch.crossword.fill import _warm_up, stand_in_fill, trail_attempts
struct, words, weights = stand_in_fill()
_warm_up(trail_attempts, words, weights)
print(json.dumps({"code": 0, "self": time.process_time(), "children": 0.0}))
"""

IMPORTS_ONLY = r"""
import json, time
import numpy, numba
print(json.dumps({"code": 0, "self": time.process_time(), "children": 0.0}))
"""

PEER = r"""
import json, sys
from blacksquare import BLACK, DEFAULT_WORDLIST, Crossword
floor, rows = float(sys.argv[1]), [r for r in open(sys.argv[2]).read().splitlines() if r.strip() and r[0] != ";"]
xw = Crossword(num_rows=len(rows), num_cols=len(rows[0]), word_list=DEFAULT_WORDLIST.score_filter(floor - 1e-3))
for r, row in enumerate(rows):
    for c, ch in enumerate(row):
        if ch == "#":
            xw[r, c] = BLACK
print(json.dumps({"code": 0, "self": None, "children": 0.0}))
"""


def run_once(argv: list[str], env: dict) -> tuple[dict, float]:
    """(the process's JSON line, its whole CPU seconds with its children) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])} ...: exit {out.returncode}\n{out.stderr[-3000:]}")
    whole = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out.stdout.strip().splitlines()[-1]), whole


def measure(argv: list[str], env: dict, repeats: int) -> dict:
    """ready and whole CPU seconds of `repeats` runs, after one untimed run (builds, compiles)."""
    run_once(argv, env)
    ready, whole = [], []
    for _ in range(repeats):
        line, cpu = run_once(argv, env)
        whole.append(cpu)
        ready.append(cpu if line["self"] is None else line["self"] + line["children"])
    return {"ready": ready, "whole": whole}


def old_tree(rev: str) -> Path:
    """The source of git revision `rev` in a folder kept under the temporary folder (made on first use)."""
    sha = subprocess.run(["git", "rev-parse", rev], cwd=PROJECT, capture_output=True, text=True, check=True)
    folder = Path(tempfile.gettempdir()) / f"puzzlesearch-startup-{sha.stdout.strip()[:12]}"
    if not (folder / "src" / "puzzlesearch").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", rev, "src"], cwd=PROJECT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def constructors_config(folder: Path) -> Path:
    """The project's config.yaml with crossword.quality.constructors: true, written into `folder`."""
    config = yaml.safe_load((PROJECT / "config.yaml").read_text()) or {}
    config.setdefault("crossword", {}).setdefault("quality", {})["constructors"] = True
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def line(label: str, fig: dict, base: float | None) -> str:
    """One variant's figures (min / median) and its ratio to the current tree's median `ready`."""
    ready, whole = fig["ready"], fig["whole"]
    ratio = f"  x{statistics.median(ready) / base:.1f} of current" if base else ""
    return (
        f"  {label:28s} ready {min(ready):5.2f} / {statistics.median(ready):5.2f}   "
        f"whole {min(whole):5.2f} / {statistics.median(whole):5.2f}{ratio}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pattern", default="american15/easy.txt", help="under workflow/crossword/patterns")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--old-rev", help="also time the source of this git revision (e.g. the one before a change)")
    ap.add_argument("--store", help="artifact store (default: PUZZLESEARCH_STORE or the user's)")
    ap.add_argument("--no-peer", action="store_true", help="leave out blacksquare")
    args = ap.parse_args()
    env = dict(os.environ)
    if args.store:
        env["PUZZLESEARCH_STORE"] = args.store
    work = Path(tempfile.mkdtemp(prefix="cwstart"))
    config = constructors_config(work)
    min_score = FillSettings.from_config(load_config(config)[0]["crossword"]["fill"]).min_score
    pattern = PATTERNS / args.pattern
    fill = ["crossword", "fill", "--pattern", str(pattern), "--out", str(work / "out")]
    cli = [sys.executable, "-c", DRIVER]
    print(
        f"crossword fill start-up: {args.pattern}, the constructors' list on, min_score {min_score}; "
        f"CPU seconds (user + system), min / median of {args.repeats} runs"
    )
    current = measure([*cli, "current", "--config", str(config), *fill], env, args.repeats)
    print(line("current", current, None), flush=True)
    base = statistics.median(current["ready"])
    derived = measure([*cli, "no precomputed data", "--config", str(config), *fill], env, args.repeats)
    print(line("no precomputed data", derived, base), flush=True)
    if args.old_rev:
        tree = old_tree(args.old_rev)
        old_env = {**env, "PYTHONPATH": str(tree / "src"), "NUMBA_CACHE_DIR": str(tree / "numba-cache")}
        old = measure([*cli, "old", "--config", str(config), *fill], old_env, args.repeats)
        print(line(f"old ({args.old_rev})", old, base), flush=True)
    kernels = measure([sys.executable, "-c", KERNELS_ONLY], env, args.repeats)
    print(line("kernels only", kernels, base), flush=True)
    imports = measure([sys.executable, "-c", IMPORTS_ONLY], env, args.repeats)
    print(line("numpy and numba imported", imports, base), flush=True)
    if not args.no_peer:
        from importlib.metadata import version

        peer = measure([sys.executable, "-c", PEER, str(min_score / 100), str(pattern)], env, args.repeats)
        print(line(f"blacksquare {version('blacksquare')}", peer, base), flush=True)


if __name__ == "__main__":
    main()
