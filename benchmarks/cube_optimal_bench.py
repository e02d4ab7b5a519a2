"""Optimal solver benchmark: lengths, nodes and CPU time per cube, every answer verified.

    python benchmarks/cube_optimal_bench.py [--table results/cube/optimal/table_full]
        [--variant full] [--cubes ../shared/cube/random_1000.txt] [--first 20]
        [--baseline 4] [--superflip] [--out rows.tsv]

Tables: --table DIR (verified, never built), else the artifact store's (built there once,
tens of minutes for `full`).

Printed: per cube the optimal length, nodes, CPU seconds (time.process_time) and nodes/s;
the length distribution beside the published one for random cubes (16: 2.7%, 17: 26.7%,
18: 67.0%, 19: 3.3%; mean 17.7) and Kociemba's Python optimal solver (794 MB table,
37-1,167 s per random cube under PyPy, mean 17.80 over 10 cubes, 2.5M nodes/s).
Same-run baseline (--baseline N): N 13-move scrambles solved with the table looked up in the
three axis orientations and in the U-D one only: the ratio of nodes and of CPU time.
--superflip: the optional long check, the superflip must need exactly 20 moves.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.cube.cubie import SOLVED, parse_cube, parse_moves  # noqa: E402
from puzzlesearch.cube.io import format_moves  # noqa: E402
from puzzlesearch.cube.optimal_tables import load_table, store_table  # noqa: E402
from puzzlesearch.cube.settings import OptimalOptions  # noqa: E402
from puzzlesearch.cube.solve import solve_cube, warm_up  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402

SHARED = ROOT.parent / "shared" / "cube"
PUBLISHED_SHARE = {16: 2.7, 17: 26.7, 18: 67.0, 19: 3.3}  # % of random cubes by optimal length
PUBLISHED_MEAN = 17.7
KOCIEMBA_PYPY = "Kociemba's Python optimal solver under PyPy: 37-1,167 s per cube, 2.5M nodes/s"
SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"  # 20 moves; optimal is 20 (Reid 1995)
BASELINE_LENGTH = 13


def solve_timed(cube, table, options):
    """(solution, CPU seconds) of one verified optimal solve."""
    c0 = time.process_time()
    solution = solve_cube(cube, table, "optimal", options)
    return solution, time.process_time() - c0


def run_random(table, options, cubes, out):
    """Solve each cube, printing a line per cube; returns the rows."""
    rows = []
    for i, cube in enumerate(cubes, 1):
        s, cpu = solve_timed(cube, table, options)
        rate = s.nodes / cpu if cpu > 0 else 0.0
        rows.append({"cube": i, "moves": len(s.moves), "nodes": s.nodes, "cpu_s": cpu, "wall_s": s.milliseconds / 1000})
        print(
            f"cube {i:3d}: {len(s.moves)} moves  {s.nodes:>15,} nodes  {cpu:8.1f} s CPU  "
            f"{s.milliseconds / 1000:8.1f} s wall  {rate / 1e6:5.2f}M nodes/s  {format_moves(s.moves)}",
            flush=True,
        )
        if out:
            with open(out, "a") as fh:
                fh.write("\t".join(str(rows[-1][k]) for k in rows[-1]) + "\n")
    return rows


def summary(rows) -> None:
    """Length distribution vs the published one, times and node rates."""
    n = len(rows)
    if not n:
        return
    lengths = [r["moves"] for r in rows]
    cpu = [r["cpu_s"] for r in rows]
    print(f"\n{n} cubes: mean length {statistics.mean(lengths):.2f} (published {PUBLISHED_MEAN})")
    for length in sorted(set(lengths) | set(PUBLISHED_SHARE)):
        share = 100 * lengths.count(length) / n
        print(
            f"  {length}: {lengths.count(length):3d} cubes  {share:5.1f}%   published {PUBLISHED_SHARE.get(length, 0):5.1f}%"
        )
    rate = sum(r["nodes"] for r in rows) / max(sum(cpu), 1e-9)
    print(
        f"CPU s per cube: median {statistics.median(cpu):.1f}, mean {statistics.mean(cpu):.1f}, "
        f"min {min(cpu):.1f}, max {max(cpu):.1f}; {rate / 1e6:.2f}M nodes/s over all"
    )
    print(f"peer: {KOCIEMBA_PYPY}")


def run_baseline(table, options, count: int) -> None:
    """Three-axis vs U-D-only look-ups on the same scrambles: ratios of nodes and CPU time."""
    rng = random.Random(1413)
    totals = {3: [0, 0.0], 1: [0, 0.0]}
    for _ in range(count):
        moves = []
        while len(moves) < BASELINE_LENGTH:
            m = rng.randrange(18)
            if not moves or (m // 3 != moves[-1] // 3 and m // 3 + 3 != moves[-1] // 3):
                moves.append(m)
        cube = SOLVED.apply(moves)
        lengths = set()
        for axes in (3, 1):
            s, cpu = solve_timed(cube, table, replace(options, axes=axes))
            totals[axes][0] += s.nodes
            totals[axes][1] += cpu
            lengths.add(len(s.moves))
        if len(lengths) != 1:
            raise AssertionError(f"the two searches disagree on the optimal length: {lengths}")
    (n3, c3), (n1, c1) = totals[3], totals[1]
    print(
        f"\nbaseline ({count} scrambles of {BASELINE_LENGTH} moves, same run): three axes {n3:,} nodes "
        f"{c3:.2f} s CPU; U-D axis only {n1:,} nodes {c1:.2f} s CPU: "
        f"{n1 / max(n3, 1):.1f}x fewer nodes, {c1 / max(c3, 1e-9):.1f}x less CPU with three axes"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", help="optimal table folder (default: the artifact store)")
    parser.add_argument("--variant", default="full", choices=("full", "small", "tiny"))
    parser.add_argument("--cubes", default=str(SHARED / "random_1000.txt"))
    parser.add_argument("--first", type=int, default=20, help="solve the first N cubes of --cubes (0: none)")
    parser.add_argument("--baseline", type=int, default=4, help="scrambles for the 1-axis baseline (0: skip)")
    parser.add_argument("--superflip", action="store_true", help="also solve the superflip (optimal: 20 moves)")
    parser.add_argument("--time-limit", type=float, default=3600.0)
    parser.add_argument("--out", help="append one TSV row per cube here")
    args = parser.parse_args()
    setup_logging()
    t0 = time.perf_counter()
    table = load_table(args.table, args.variant) if args.table else store_table(args.variant)
    print(f"table {args.variant}: loaded and verified in {time.perf_counter() - t0:.1f} s", flush=True)
    options = OptimalOptions(table=args.variant, time_limit=args.time_limit)
    warm_up(table, "optimal", options)
    if args.baseline:
        run_baseline(table, options, args.baseline)
    if args.first:
        lines = [ln for ln in Path(args.cubes).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
        print(f"\nthe first {args.first} cubes of {args.cubes}", flush=True)
        summary(run_random(table, options, [parse_cube(ln) for ln in lines[: args.first]], args.out))
    if args.superflip:
        s, cpu = solve_timed(SOLVED.apply(parse_moves(SUPERFLIP)), table, options)
        print(f"\nsuperflip: {len(s.moves)} moves (optimal 20), {s.nodes:,} nodes, {cpu:.1f} s CPU")
        if len(s.moves) != 20:
            raise AssertionError("the superflip needs exactly 20 moves")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
