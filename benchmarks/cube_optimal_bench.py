"""Optimal solver benchmark: lengths, nodes and CPU time per cube, every answer verified.

    python benchmarks/cube_optimal_bench.py [--table results/cube/optimal/table_full]
        [--variant full] [--cubes ../shared/cube/random_1000.txt] [--first 20]
        [--bound DIR] [--coset DIR] [--coset-table large] [--baseline 4] [--baseline-length 15] [--node-budget N] [--superflip] [--out rows.tsv]
        [--peer /work/peers/nxopt]

Tables: --table DIR (verified, never built), else the artifact store's (built there once,
tens of minutes for `full`). Without baselines (--baseline 0) only the coset table is loaded, as
`cube solve` does: `--table DIR --baseline 0` needs only coset_large (or coset_full) in DIR.

Printed: per cube the optimal length, nodes, CPU seconds (time.process_time) and nodes/s;
the length distribution beside the published one for random cubes (16: 2.7%, 17: 26.7%,
18: 67.0%, 19: 3.3%; mean 17.7) and Kociemba's Python optimal solver (794 MB table,
37-1,167 s per random cube under PyPy, mean 17.80 over 10 cubes, 2.5M nodes/s).
The solver looks the big table up in the three axis views of the position and (with the
bound table, --bound DIR or the store's, built from the big table in about a minute) of its
inverse. Same-run baseline (--baseline N): N scrambles solved by the replaced move-by-move
kernel (three axes), the batched kernel without and with the inverse look-ups, and with the
axis rules (the (x,x,x) -> x+1 rule, next-move axes ruled out by the inverse views): nodes and
CPU time of each and their ratios (answers must agree).
--superflip: the optional long check, the superflip must need exactly 20 moves.

--peer DIR: Rokicki's nxopt (github.com/rokicki/cube20src) solves the same cubes in the same run,
one thread, with its EO2 x EP2 table (the subgroup of our coset_large, 7.8 GB), after ours. Build
it outside the project: `apt install texlive-binaries` (ctangle), then in a copy of cube20src
`CWEBINPUTS=. ctangle cubepos.w; CWEBINPUTS=. ctangle nxopt.w; g++ -O3 -march=native -std=c++11
-DHALF -DTHREADS -DEO2 -DEP2 -o nxopt22 nxopt.cpp cubepos.cpp -lpthread`; its first run builds
nxopth22b.dat (`./nxopt22 -t 2 - < /dev/null`: 14.5 min on 2 cores, 7.6 GB peak). It reads the
cube file's lines (Reid's notation) itself; printed: its length and its own time per cube (wall
seconds of one thread, on an otherwise idle machine its CPU time), the lengths checked equal.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.baselines import cube_optimal_moves  # noqa: E402
from puzzlesearch.cube.io import format_moves  # noqa: E402
from puzzlesearch.cube.model.cubie import SOLVED, parse_cube, parse_moves  # noqa: E402
from puzzlesearch.cube.settings import OptimalOptions  # noqa: E402
from puzzlesearch.cube.solve import solve_cube, verify, warm_up  # noqa: E402
from puzzlesearch.cube.solvers.optimal import SearchTables, search  # noqa: E402
from puzzlesearch.cube.tables import coset as coset_tables  # noqa: E402
from puzzlesearch.cube.tables.big import load_table, store_table  # noqa: E402
from puzzlesearch.cube.tables.bound import load_bound, manifest_path, store_bound  # noqa: E402
from puzzlesearch.progress import setup_logging  # noqa: E402

SHARED = ROOT.parent / "shared" / "cube"
PUBLISHED_SHARE = {16: 2.7, 17: 26.7, 18: 67.0, 19: 3.3}  # % of random cubes by optimal length
PUBLISHED_MEAN = 17.7
KOCIEMBA_PYPY = "Kociemba's Python optimal solver under PyPy: 37-1,167 s per cube, 2.5M nodes/s"
SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"  # 20 moves; optimal is 20 (Reid 1995)


def solve_timed(cube, table, options):
    """(solution, CPU seconds) of one verified optimal solve."""
    c0 = time.process_time()
    solution = solve_cube(cube, table, "optimal", options)
    return solution, time.process_time() - c0


def run_random(tables, options, cubes, out):
    """Solve each cube (a spent --node-budget is reported, not an error), a line per cube; returns the rows."""
    rows = []
    for i, cube in enumerate(cubes, 1):
        c0 = time.process_time()
        r = search(cube, tables, options)
        cpu = time.process_time() - c0
        rate = r.nodes / cpu if cpu > 0 else 0.0
        if r.stop == "complete" and not cube.apply(r.moves).is_solved:
            raise AssertionError(f"cube {i}: {format_moves(r.moves)} does not solve it")
        row = {"cube": i, "moves": len(r.moves), "nodes": r.nodes, "cpu_s": cpu, "stop": r.stop, "bound": r.bound}
        rows.append(row)
        found = format_moves(r.moves) if r.stop == "complete" else f"budget spent ({r.stop}) at depth bound {r.bound}"
        print(
            f"cube {i:3d}: {len(r.moves)} moves  {r.nodes:>15,} nodes  {cpu:8.1f} s CPU  "
            f"{rate / 1e6:5.2f}M nodes/s  {found}",
            flush=True,
        )
        if out:
            with open(out, "a") as fh:
                fh.write("\t".join(str(v) for v in row.values()) + "\n")
    return rows


def summary(rows) -> None:
    """Length distribution vs the published one, times and node rates."""
    spent = [r for r in rows if r["stop"] != "complete"]
    if spent:
        print(f"\n{len(spent)} cubes spent their budget (counted below at their budget: medians are lower bounds)")
    n = len(rows)
    if not n:
        return
    lengths = [r["moves"] for r in rows if r["stop"] == "complete"] or [0]
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


NXOPT = "nxopt22"  # the peer's binary in --peer DIR (its table nxopth22b.dat beside it)
NXOPT_SOLVED = re.compile(r"^Solved (\d+) in (\d+) .* time ([\d.e+-]+)$")


def run_nxopt(peer: Path, lines: list[str]) -> list[tuple[int, float]]:
    """nxopt's (length, seconds) per cube, one thread, the cubes on its standard input."""
    if not (peer / NXOPT).is_file() or not (peer / "nxopth22b.dat").is_file():
        raise SystemExit(f"cube_optimal_bench: {peer} has no {NXOPT} and nxopth22b.dat (see --peer in the docstring)")
    proc = subprocess.run(
        [f"./{NXOPT}", "-t", "1", "-"],
        cwd=peer,
        input="".join(ln + "\n" for ln in lines),
        capture_output=True,
        text=True,
    )
    found = {}
    for line in proc.stdout.splitlines():
        m = NXOPT_SOLVED.match(line)
        if m:
            found[int(m.group(1))] = (int(m.group(2)), float(m.group(3)))
    if proc.returncode != 0 or len(found) != len(lines):
        raise SystemExit(
            f"cube_optimal_bench: nxopt answered {len(found)} of {len(lines)} cubes (exit {proc.returncode})"
        )
    return [found[i] for i in range(1, len(lines) + 1)]


def peer_summary(rows, peer_rows) -> None:
    """nxopt beside ours, cube by cube: lengths must agree; medians, means and their ratio."""
    print(f"\nnxopt ({NXOPT}, one thread, the same cubes)")
    for r, (length, secs) in zip(rows, peer_rows):
        mark = "" if length == r["moves"] else "   LENGTHS DIFFER"
        print(f"cube {r['cube']:3d}: {length} moves  {secs:8.1f} s   ours {r['cpu_s']:8.1f} s CPU{mark}")
    if any(length != r["moves"] for r, (length, _) in zip(rows, peer_rows)):
        raise AssertionError("nxopt and ours disagree on an optimal length")
    ours, theirs = [r["cpu_s"] for r in rows], [s for _, s in peer_rows]
    print(
        f"median: ours {statistics.median(ours):.1f} s, nxopt {statistics.median(theirs):.1f} s "
        f"(ours / nxopt {statistics.median(ours) / statistics.median(theirs):.2f}); "
        f"mean: ours {statistics.mean(ours):.1f} s, nxopt {statistics.mean(theirs):.1f} s"
    )


OLD_KERNEL = "moves (old, 3 axes)"  # the replaced kernel (baselines/cube_optimal_moves.py): the ratios' reference
BASELINES = {  # name -> options changes of the current kernel
    "batched, 3 axes": {"inverse": False, "axis_rules": False, "coset": False},
    "batched, 3 axes + inverse": {"axis_rules": False, "coset": False},
    "+ inverse + axis rules": {"coset": False},
    "+ coset table (3 axes)": {},
}


def solve_old_timed(cube, tables, options):
    """(moves, nodes, CPU seconds) of one verified solve by the replaced kernel."""
    c0 = time.process_time()
    result = cube_optimal_moves.search(cube, tables, options)
    cpu = time.process_time() - c0
    verify(cube, result.moves)
    return result.moves, result.nodes, cpu


def run_baseline(tables, options, count: int, length: int) -> None:
    """Kernels and look-ups on the same scrambles: nodes and CPU time, ratios against the old kernel."""
    rng = random.Random(1413)
    totals = {name: [0, 0.0] for name in (OLD_KERNEL, *BASELINES)}
    for i in range(count):
        moves = []
        while len(moves) < length:
            m = rng.randrange(18)
            if not moves or (m // 3 != moves[-1] // 3 and m // 3 + 3 != moves[-1] // 3):
                moves.append(m)
        cube = SOLVED.apply(moves)
        answers = set()
        runs = {OLD_KERNEL: solve_old_timed(cube, tables, options)}
        for name, change in BASELINES.items():
            s, cpu = solve_timed(cube, tables, replace(options, **change))
            runs[name] = s.moves, s.nodes, cpu
        for name, (moves, nodes, cpu) in runs.items():
            totals[name][0] += nodes
            totals[name][1] += cpu
            answers.add(len(moves))
            print(f"  scramble {i + 1} {name:28s} {len(moves)} moves {nodes:>13,} nodes {cpu:7.2f} s CPU", flush=True)
        if len(answers) != 1:
            raise AssertionError(f"the searches disagree on the optimal length: {answers}")
    n0, c0 = totals[OLD_KERNEL]
    print(f"\nbaseline ({count} scrambles of {length} moves, same run):")
    for name, (n, c) in totals.items():
        print(
            f"  {name:28s} {n:>14,} nodes {c:8.2f} s CPU  {n / max(c, 1e-9) / 1e6:5.2f}M nodes/s  "
            f"{n0 / max(n, 1):5.2f}x fewer nodes, {c0 / max(c, 1e-9):5.2f}x less CPU than the old kernel"
        )


def open_tables(args):
    """The coset table (--coset DIR, the table folder, or the store's): the search's only table, as in
    `cube solve`. With kernel baselines (--baseline N) also the big table (--table or the store's) and
    its bound table (--bound, the table folder, or the store's), which they read."""
    cv = coset_tables.variant_for(args.variant, args.coset_table)
    if args.coset or (args.table and coset_tables.present(args.table, cv)):
        coset = coset_tables.load_table(args.coset or args.table, cv)
    else:
        coset = coset_tables.store_table(cv)
    if not args.baseline:
        return SearchTables(None, coset=coset)
    table = load_table(args.table, args.variant) if args.table else store_table(args.variant)
    if args.bound or (args.table and manifest_path(args.table, args.variant).exists()):
        bound = load_bound(args.bound or args.table, table)
    else:
        bound = store_bound(table, table.sha256)
    return SearchTables(table, bound, coset=coset)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", help="optimal table folder (default: the artifact store)")
    parser.add_argument("--variant", default="full", choices=("full", "small", "tiny"))
    parser.add_argument("--cubes", default=str(SHARED / "random_1000.txt"))
    parser.add_argument("--first", type=int, default=20, help="solve the first N cubes of --cubes (0: none)")
    parser.add_argument("--bound", help="bound table folder (default: the table folder's, else the store's)")
    parser.add_argument("--coset", help="coset table folder (default: the table folder's, else the store's)")
    parser.add_argument(
        "--coset-table",
        default=OptimalOptions().coset_table,
        choices=("full", "large"),
        help="with --variant full (default: the schema's cube.optimal.coset_table)",
    )
    parser.add_argument("--baseline", type=int, default=4, help="scrambles for the kernel baselines (0: skip)")
    parser.add_argument("--baseline-length", type=int, default=15, help="moves of each baseline scramble")
    parser.add_argument("--node-budget", type=int, default=200_000_000_000, help="nodes per random cube at most")
    parser.add_argument("--superflip", action="store_true", help="also solve the superflip (optimal: 20 moves)")
    parser.add_argument("--time-limit", type=float, default=3600.0)
    parser.add_argument("--out", help="append one TSV row per cube here")
    parser.add_argument("--peer", help="nxopt's built folder (nxopt22, nxopth22b.dat): solve the same cubes there too")
    args = parser.parse_args()
    setup_logging()
    t0 = time.perf_counter()
    table = open_tables(args)
    coset = f"coset_{coset_tables.variant_for(args.variant, args.coset_table)}"
    loaded = f"{args.variant} + bound + {coset}" if args.baseline else coset
    print(f"tables {loaded}: loaded and verified in {time.perf_counter() - t0:.1f} s", flush=True)
    options = OptimalOptions(
        table=args.variant, coset_table=args.coset_table, time_limit=args.time_limit, node_budget=args.node_budget
    )
    warm_up(table, "optimal", options)
    if args.baseline:
        for change in BASELINES.values():
            warm_up(table, "optimal", replace(options, **change))
        solve_old_timed(SOLVED.apply(parse_moves("R U2 F")), table, options)  # compiles the replaced kernel
        run_baseline(table, options, args.baseline, args.baseline_length)
    if args.first:
        lines = [ln for ln in Path(args.cubes).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
        print(f"\nthe first {args.first} cubes of {args.cubes}", flush=True)
        rows = run_random(table, options, [parse_cube(ln) for ln in lines[: args.first]], args.out)
        summary(rows)
        if args.peer:
            peer_summary(rows, run_nxopt(Path(args.peer), lines[: args.first]))
    if args.superflip:
        s, cpu = solve_timed(SOLVED.apply(parse_moves(SUPERFLIP)), table, options)
        print(f"\nsuperflip: {len(s.moves)} moves (optimal 20), {s.nodes:,} nodes, {cpu:.1f} s CPU")
        if len(s.moves) != 20:
            raise AssertionError("the superflip needs exactly 20 moves")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
