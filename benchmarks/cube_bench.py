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
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.cube.model.cubie import parse_cubies, parse_moves, random_cube  # noqa: E402
from puzzlesearch.cube.settings import TwoPhaseOptions  # noqa: E402
from puzzlesearch.cube.solve import solve_cube, warm_up  # noqa: E402
from puzzlesearch.cube.tables.phases import Tables, store_tables  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402

SHARED = ROOT.parent / "shared" / "cube"
BENCH_SOLVERS = ("thistlethwaite", "twophase")  # the optimal solver has its own pipeline target


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cubes")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--tables", help="table folder (default: the artifact store)")
    ap.add_argument("--solver", nargs="+", choices=BENCH_SOLVERS, default=list(BENCH_SOLVERS))
    ap.add_argument("--max-length", type=int, default=20, help="two-phase's second run (0: skip it)")
    args = ap.parse_args()
    setup_logging()
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
