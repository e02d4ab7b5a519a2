"""Cube solver benchmark: move counts and ms/cube of both solvers, all solutions verified.

    python benchmarks/cube_bench.py [--cubes ../shared/cube/random_1000.txt] [--limit N]
                                    [--tables results/cube/tables] [--solver twophase ...]
                                    [--max-length 20]

Two-phase runs twice: in its default mode (schema budgets) and with --max-length N (stop
at the first solution of at most N moves; default 20), both on the same cubes.

Tables: --tables DIR (verified, never built), else the artifact store's (built there once).

Timings on a shared machine are noisy, so each solver's median is also printed as a ratio
to baselines measured in the same process: the `kociemba` C package (Kociemba's two-phase
solver; `pip install -e '.[bench]'`) on the same cubes, its answers verified by our cubie
model too, and, always, applying a ~21-move answer with the pure-Python cubie model (the
verification step every solution goes through).

Batch mode (issue 28): `--batch 10000 [--seed 28] [--peer /work/peers/rob-twophase]` draws
that many random cubes from the seed and times our two-phase loop in this process, tables
loaded: CPU ms per cube at --max-length 20 (every solution verified, <= 20 moves) and the
mean length at a 10 ms budget per cube (the two-phase time cap, wall clock, best so far),
each with the default pre-moves and, as the same run's baseline, without (pre_moves 0); and
the 10 ms budget on both cores (threads 2; its wall time a cube is printed too); and, on the
first 1,000 cubes, the CPU time behind rob-twophase's README figure (18.56 moves at 10 ms with
12 threads: 120 CPU ms a cube) on all of this machine's cores (2 cores: 2 threads x 60 ms).
With --peer, rob-twophase's `bench` runs on the same cubes (written as 54-facelet lines to
its bench.cubes in a scratch folder) with `-t 1 -l 20 -m 1000`, `-t 1 -l -1 -m 10` and, on
both cores, `-t 2 -l -1 -m 10`;
its CPU time over the bench loop is read from /proc, and the ratio is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.cube.model.cubie import parse_cubies, parse_moves, random_cube  # noqa: E402
from puzzlesearch.cube.model.facelets import to_facelets  # noqa: E402
from puzzlesearch.cube.settings import TwoPhaseOptions  # noqa: E402
from puzzlesearch.cube.solve import solve_cube, warm_up  # noqa: E402
from puzzlesearch.cube.tables.phases import Tables, store_tables  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402

SHARED = ROOT.parent / "shared" / "cube"
BENCH_SOLVERS = ("thistlethwaite", "twophase")
MAX_LENGTH = 20  # the batch mode's --max-length (God's number)  # the optimal solver has its own pipeline target


def load_cubes(path: str | None, limit: int | None):
    """The benchmark cubes: a file, else ../shared random_1000, else 1000 seeded random cubes."""
    p = Path(path) if path else SHARED / "random_1000.txt"
    if p.exists():
        cubes = [parse_cubies(line) for line in p.read_text().splitlines() if line.strip()]
        source = str(p)
    else:
        rng = random.Random(17706)
        cubes = [random_cube(rng) for _ in range(1000)]
        source = "1000 random cubes, seed 17706"
    return cubes[:limit] if limit else cubes, source


def baseline_ms(cubes) -> float:
    """Median ms to apply a fixed 21-move sequence to a cube with the Python model."""
    seq = parse_moves("D3 F3 R1 U3 L1 D2 F3 U1 D3 F1 R1 U2 B2 R2 U3 R2 B2 R2 D2 B2 L2")
    times = []
    for cube in cubes:
        t0 = time.perf_counter()
        _ = cube.apply(seq).is_solved
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def kociemba_baseline(cubes):
    """(moves, ms) per cube of the `kociemba` C package, each answer verified; None if absent."""
    from puzzlesearch.baselines.cube_peers import kociemba_solves

    return kociemba_solves(cubes)


# ------------------------------------------------------------------ batch mode: in process, beside rob-twophase

BATCH_SEED = 28  # the fixed cube set of the batch benchmark: random.Random(BATCH_SEED)
BUDGET_MS = 10.0  # the budget mode's time per cube
# rob-twophase's README gives 18.56 moves at 10 ms a cube with 12 threads (-t 12 -s 2): that CPU
# time, 12 x 10 ms, is also given to ours on this machine's cores, on the first EQUAL_CPU_CUBES cubes
PEER_README_THREADS = 12
EQUAL_CPU_CUBES = 1000
PEER_TABLE = "twophase-ht.tbl"  # rob-twophase's tables, built by its first start in its folder


def batch_cubes(count: int, seed: int = BATCH_SEED):
    """`count` uniformly random cubes drawn with random.Random(seed)."""
    rng = random.Random(seed)
    return [random_cube(rng) for _ in range(count)]


def timed_loop(cubes, tables, options) -> tuple[list[int], float, list[str]]:
    """(lengths, CPU ms per cube, stops) of two-phase solves in this process; each solution verified."""
    lengths, stops = [], []
    c0 = time.process_time()
    for cube in cubes:
        s = solve_cube(cube, tables, "twophase", options)  # raises unless the moves solve the cube
        lengths.append(len(s.moves))
        stops.append(s.stopped_by)
    return lengths, (time.process_time() - c0) * 1000 / len(cubes), stops


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_peer(peer: Path, workdir: Path, flags: list[str]) -> dict:
    """rob-twophase's `bench` on workdir/bench.cubes: its printed averages and the loop's CPU ms per cube.

    Its own 'Avg. Time' averages whole milliseconds (an int vector truncates each cube's time),
    so the CPU time of the bench loop is read from /proc around it.
    """
    for name in ("twophase", PEER_TABLE):
        link = workdir / name
        if not link.exists():
            link.symlink_to(peer / name)
    proc = subprocess.Popen(
        ["./twophase", *flags], cwd=workdir, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    out: dict = {}
    try:
        for line in proc.stdout:
            if line.startswith("Ready!") and "cpu0" not in out:
                proc.stdin.write("bench\n")
                proc.stdin.flush()
            elif line.startswith("Benchmarking"):
                out["cpu0"] = _cpu_seconds(proc.pid)
            elif line.startswith(("Failed:", "Avg. Time:", "Avg. Moves:")):
                key, value = line.split(":", 1)
                out[key] = value.strip()
                if key == "Avg. Moves":
                    out["cpu1"] = _cpu_seconds(proc.pid)
                    break
    finally:
        proc.kill()
        proc.wait()
    return out


def batch(args) -> int:
    """Our two-phase loop (with and without pre-moves) and rob-twophase on the same seeded cubes, same run."""
    cubes = batch_cubes(args.batch, args.seed)
    tables = Tables(args.tables) if args.tables else store_tables()
    limit20 = TwoPhaseOptions(max_length=MAX_LENGTH)
    budget = TwoPhaseOptions(target_length=0, node_budget=10**12, time_limit=BUDGET_MS / 1000)
    classic = {o: dataclasses.replace(o, pre_moves=0) for o in (limit20, budget)}  # the baseline: six directions
    both_cores = dataclasses.replace(budget, threads=2)
    for options in (limit20, budget, *classic.values(), both_cores):
        warm_up(tables, "twophase", options)
        timed_loop(cubes[:3], tables, options)  # compile for real cubes, touch the table pages
    print(f"{len(cubes)} random cubes, seed {args.seed}; load average {os.getloadavg()[0]:.1f} (2 cores)")
    times = {}
    for options in (limit20, classic[limit20]):
        lengths, times[options], _ = timed_loop(cubes, tables, options)
        assert max(lengths) <= MAX_LENGTH, "a --max-length 20 solution is longer than 20 moves"
        print(
            f"ours  --max-length {MAX_LENGTH}, pre-moves {options.pre_moves}: {times[options]:.3f} CPU ms a cube, "
            f"mean {statistics.mean(lengths):.3f} moves, all {len(cubes)} verified and <= {MAX_LENGTH}"
        )
    ms = times[limit20]
    print(f"ours  pre-moves {limit20.pre_moves} / none: {ms / times[classic[limit20]]:.2f} of the time")
    for options in (budget, classic[budget], both_cores):
        w0 = time.perf_counter()
        blengths, bms, stops = timed_loop(cubes, tables, options)
        wall = (time.perf_counter() - w0) * 1000 / len(cubes)
        print(
            f"ours  {BUDGET_MS:g} ms budget, pre-moves {options.pre_moves}, threads {options.threads}: mean "
            f"{statistics.mean(blengths):.3f} moves ({bms:.2f} CPU ms, {wall:.2f} ms wall a cube; "
            f"{stops.count('time')} ended by the wall-clock cap, the rest by the search), all verified"
        )
    cores = os.cpu_count() or 1  # (all of them: CPU time is what is matched)
    equal = dataclasses.replace(budget, threads=cores, time_limit=BUDGET_MS * PEER_README_THREADS / cores / 1000)
    warm_up(tables, "twophase", equal)
    elengths, ems, _ = timed_loop(cubes[:EQUAL_CPU_CUBES], tables, equal)
    print(
        f"ours  {BUDGET_MS * PEER_README_THREADS:g} CPU ms a cube (rob-twophase's README: {PEER_README_THREADS} threads x "
        f"{BUDGET_MS:g} ms, 18.56 moves): threads {cores}, {equal.time_limit * 1000:g} ms cap, the first "
        f"{len(elengths)} cubes: mean {statistics.mean(elengths):.3f} moves ({ems:.1f} CPU ms a cube), all verified"
    )
    if not args.peer:
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "bench.cubes").write_text("".join(to_facelets(c) + "\n" for c in cubes))
        for name, flags, ours in (
            (f"--max-length {MAX_LENGTH}", ["-t", "1", "-l", str(MAX_LENGTH), "-m", "1000"], ms),
            (f"{BUDGET_MS:g} ms budget", ["-t", "1", "-l", "-1", "-m", f"{BUDGET_MS:g}"], None),
            (f"{BUDGET_MS:g} ms budget, both cores", ["-t", "2", "-l", "-1", "-m", f"{BUDGET_MS:g}"], None),
        ):
            r = run_peer(Path(args.peer), work, flags)
            peer_ms = (r["cpu1"] - r["cpu0"]) * 1000 / len(cubes)
            ratio = "" if ours is None else f"; ours / peer = {ours / peer_ms:.2f}"
            print(
                f"rob-twophase {name} ({' '.join(flags)}): {peer_ms:.3f} CPU ms a cube (its Avg. Time "
                f"{r['Avg. Time']}), Avg. Moves {r['Avg. Moves']}, failed {r['Failed']}{ratio}"
            )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cubes")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--tables", help="table folder (default: the artifact store)")
    ap.add_argument("--solver", nargs="+", choices=BENCH_SOLVERS, default=list(BENCH_SOLVERS))
    ap.add_argument("--max-length", type=int, default=20, help="two-phase's second run (0: skip it)")
    ap.add_argument("--batch", type=int, metavar="N", help="batch mode: N seeded random cubes, two-phase only")
    ap.add_argument("--seed", type=int, default=BATCH_SEED, help="batch mode: the cubes' seed")
    ap.add_argument("--peer", help="batch mode: rob-twophase's built folder (twophase, twophase-ht.tbl)")
    args = ap.parse_args()
    setup_logging()
    if args.batch:
        return batch(args)
    cubes, source = load_cubes(args.cubes, args.limit)
    t0 = time.perf_counter()
    tables = Tables(args.tables) if args.tables else store_tables()
    manifest = pl.read_parquet(tables.dir / "manifest.parquet")
    print(f"cubes: {len(cubes)} from {source}")
    print("tables (build seconds from the manifest):")
    for r in manifest.filter(pl.col("kind") == "prune").iter_rows(named=True):
        print(
            f"  {r['table']:<18} {r['entries']:>10,} entries {r['bytes'] / 1e6:7.2f} MB"
            f"  reached {r['reached']:>10,}  max depth {r['max_depth']:>2}  built in {r['build_seconds']:.3f} s"
        )
    moves = manifest.filter(pl.col("kind") != "prune")  # the corner tables' one build step counted once
    print(
        f"  move tables and lookups: {moves.height} files, {moves['bytes'].sum() / 1e6:.2f} MB,"
        f" built in {moves['build_seconds'].sum():.2f} s (the sum of the build steps)"
    )
    for solver in args.solver:
        warm_up(tables, solver)
        if solver == "twophase":  # touch every table page and compile for real cubes, outside the timings
            for cube in cubes[:3]:
                solve_cube(cube, tables, solver)
    print(f"load + numba warm-up: {time.perf_counter() - t0:.2f} s")
    base = baseline_ms(cubes)
    print(f"baseline (apply 21 moves in Python): median {base:.4f} ms")
    c0 = time.process_time()
    ref_run = kociemba_baseline(cubes)
    ref_cpu = (time.process_time() - c0) * 1000 / len(cubes)  # this process's CPU time (its C code runs in it)
    if ref_run is None:
        print("baseline kociemba C package: not installed (pip install -e '.[bench]')")
    else:
        ref_med = statistics.median(ref_run[1])
        print(
            f"baseline kociemba C package (same cubes, this run): {len(cubes)} verified; mean "
            f"{statistics.mean(ref_run[0]):.3f} moves (max {max(ref_run[0])}); median {ref_med:.2f} ms,"
            f" mean {statistics.mean(ref_run[1]):.2f} ms, max {max(ref_run[1]):.1f} ms; CPU mean {ref_cpu:.2f} ms"
            " (incl. facelet conversion and verification)"
        )
    runs = [(solver, None) for solver in args.solver]
    if "twophase" in args.solver and args.max_length:
        runs.append(("twophase", TwoPhaseOptions(max_length=args.max_length)))
    for solver, options in runs:
        lengths, times, cpu = [], [], []
        for cube in cubes:
            c0 = time.process_time()
            s = solve_cube(cube, tables, solver, options)  # schema-default budgets; raises unless verified
            cpu.append((time.process_time() - c0) * 1000)
            lengths.append(len(s.moves))
            times.append(s.milliseconds)
        med = statistics.median(times)
        name = solver if options is None else f"{solver} --max-length {options.max_length}"
        within = (
            "" if options is None else f" {sum(n <= options.max_length for n in lengths)}/{len(lengths)} within it;"
        )
        print(
            f"{name}: {len(cubes)} verified;{within} mean {statistics.mean(lengths):.3f} moves"
            f" (min {min(lengths)}, max {max(lengths)}); median {med:.2f} ms, mean {statistics.mean(times):.2f} ms,"
            f" p95 {sorted(times)[int(0.95 * len(times))]:.2f} ms, max {max(times):.1f} ms;"
            f" CPU mean {statistics.mean(cpu):.2f} ms, median {statistics.median(cpu):.2f} ms;"
            f" median / baseline = {med / base:.0f}x"
            + ("" if ref_run is None else f"; median / kociemba median = {med / ref_med:.2f}")
        )
    ref = SHARED / "random_1000_kociemba.tsv"
    if not args.cubes and not args.limit and ref.exists():
        df = pl.read_csv(ref, separator="\t")
        print(f"reference file (kociemba C package): mean {df['length_htm'].mean():.3f} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
