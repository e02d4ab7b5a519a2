"""`puzzlesearch report ...`: the report's figures, each from explicit result files to explicit outputs.

The workflow's report rules (workflow/rules/report.smk) call these; they read only the
files given and write only the outputs named (.png or .svg by suffix). `report summary`
prints the end-of-run summary of a project's results.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import polars as pl

from puzzlesearch import kinds, manifest
from puzzlesearch.cli_common import add_expect_flag, expect_of
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import atomic_path, write_text
from puzzlesearch.report import bench, data
from puzzlesearch.report.summary import summary_lines

# A command imports `plots` (matplotlib) and the puzzle packages it needs when it runs
# (function-local imports), so `puzzlesearch --help` and the other commands load neither.

TRUE_RTL = ("ar",)  # crossword languages written right to left


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `report` command group."""
    parser = sub.add_parser("report", help="figures and tables of the results (for snakemake --report)")
    cmds = parser.add_subparsers(dest="report_command", metavar="WHAT", required=True)
    _register_figures(cmds)
    _register_benchmarks(cmds)
    p = cmds.add_parser("summary", help="print the best result per puzzle and where its file is")
    p.add_argument("--root", default=".", help="project folder (default: here)")
    p.set_defaults(func=cmd_summary)


def _register_figures(cmds) -> None:
    """The figures of each stage's results (`report boggle`, `bee`, `cube-solves`, `crossword` ...)."""
    p = cmds.add_parser("boggle", help="best board, best score over time per seed, score histogram")
    p.add_argument("--lexicon", required=True)
    p.add_argument("--shape", required=True, help="RxC")
    p.add_argument("--mode", required=True)
    p.add_argument("--best", required=True, help="best.parquet (the ranking)")
    p.add_argument("--seeds", nargs="+", required=True, help="seed tables seed*.parquet")
    p.add_argument("--words", help="the lexicon's words.parquet the tables must have been built from")
    add_expect_flag(p, "(pipeline) JSON object: the search settings the seed tables must record")
    p.add_argument("--board-out", required=True)
    p.add_argument("--progress-out", required=True)
    p.add_argument("--histogram-out", required=True)
    p.set_defaults(func=cmd_boggle)

    p = cmds.add_parser("boggle-scan", help="the scanned boards: neighbours, best neighbour")
    p.add_argument("--title", required=True)
    p.add_argument("--summary", required=True, help="scan.json")
    add_expect_flag(p, "(pipeline) JSON object: the scan settings scan.json must record")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_boggle_scan)

    p = cmds.add_parser("bee", help="top puzzles (HTML table), points vs words")
    p.add_argument("--lexicon", required=True)
    p.add_argument("--puzzles", required=True, help="puzzles.parquet")
    p.add_argument("--words", help="the lexicon's words.parquet the puzzles must have been built from")
    p.add_argument("--top-out", required=True, help=".html table to write")
    p.add_argument("--points-out", required=True)
    p.set_defaults(func=cmd_bee)

    p = cmds.add_parser("bee-schedule", help="the Bee schedule: word counts and difficulty by day")
    p.add_argument("--lexicon", required=True)
    p.add_argument("--schedule", required=True, help="schedule.parquet (schedule.json beside it)")
    p.add_argument("--words", help="the lexicon's words.parquet the schedule must have been built from")
    add_expect_flag(p, "(pipeline) JSON object: the schedule settings schedule.json must record")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_bee_schedule)

    p = cmds.add_parser("cube-solves", help="move counts and time per cube, per solver")
    p.add_argument("--testset", required=True)
    p.add_argument("--solvers", nargs="+", required=True, help="solver names, in the order of --solves")
    p.add_argument("--solves", nargs="+", required=True, help="solve tables (one per solver)")
    p.add_argument("--moves-out", required=True)
    p.add_argument("--times-out", required=True)
    p.set_defaults(func=cmd_cube_solves)

    p = cmds.add_parser("cube-tables", help="size and build time of every cube table")
    p.add_argument("--manifest", required=True, help="the tables' manifest.parquet")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_cube_tables)

    p = cmds.add_parser("crossword", help="best grid drawn, best cost over the search per seed")
    p.add_argument("--lang", required=True)
    p.add_argument("--size", required=True, type=int)
    p.add_argument("--puzzles", required=True, help="puzzles.parquet (the ranking)")
    p.add_argument("--ipuz", nargs="+", required=True, help="the per-seed .ipuz files")
    p.add_argument("--summaries", nargs="+", required=True, help="the per-seed .json summaries")
    p.add_argument("--grid-out", required=True)
    p.add_argument("--trace-out", required=True)
    p.set_defaults(func=cmd_crossword)


def _register_benchmarks(cmds) -> None:
    """The benchmark figures (`report bench-*`) and the benchmark-times table."""
    p = cmds.add_parser("bench-boggle", help="time the numba Boggle scorer against the pure-Python reference")
    p.add_argument("--words", required=True, help="words.parquet")
    p.add_argument("--dawg", required=True, help="boggle_dawg.npz")
    p.add_argument("--boards", type=int, required=True, help="boards each scorer scores (the work bound)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help=".tsv to write")
    p.set_defaults(func=cmd_bench_boggle)

    for name, what in (("lexicon", "the minimal DAWG against a plain trie"), ("bee", "the numba Bee against Python")):
        p = cmds.add_parser(f"bench-{name}", help=f"build {what} on one word table; figures and a plot")
        p.add_argument("--lexicon", required=True, help="the lexicon's name (for the title)")
        p.add_argument("--words", required=True, help="words.parquet (the fixed work)")
        p.add_argument("--json-out", required=True, help="the figures (.json)")
        p.add_argument("--out", required=True, help="the plot (.png or .svg)")
        p.set_defaults(func=cmd_bench_figures, bench=name)

    p = cmds.add_parser(
        "bench-cube", help="our cube solvers beside published two-phase solvers (and kociemba if installed)"
    )
    p.add_argument("--testset", required=True)
    p.add_argument("--solvers", nargs="+", required=True, help="solver names, in the order of --solves")
    p.add_argument("--solves", nargs="+", required=True, help="solve tables (one per solver)")
    p.add_argument("--json-out", required=True, help="the figures (.json)")
    p.add_argument("--out", required=True, help="the plot (.png or .svg)")
    p.set_defaults(func=cmd_bench_cube)

    p = cmds.add_parser(
        "bench-crossword", help="fill one pattern with the fill and the baseline fill, same node budget"
    )
    p.add_argument("--settings", required=True, help="the crossword.fill settings (JSON)")
    p.add_argument("--tables", required=True, help="the fill language's tables.npz")
    p.add_argument(
        "--words",
        required=True,
        help="the same lexicon's words.parquet (checks every fill word; the tables' phrases count too)",
    )
    p.add_argument("--lang", required=True)
    p.add_argument("--pattern", required=True, help="the pattern file")
    p.add_argument("--nodes", type=int, required=True, help="node budget of each fill (the work bound)")
    p.add_argument("--json-out", required=True, help="the figures (.json)")
    p.add_argument("--out", required=True, help="the plot (.png or .svg)")
    p.set_defaults(func=cmd_bench_crossword)

    p = cmds.add_parser("benchmarks", help="seconds per benchmarked job, and the scorer baseline")
    p.add_argument("--tsv", nargs="+", required=True, help="Snakemake benchmark files")
    p.add_argument("--baseline", help="the bench-boggle .tsv")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_benchmarks)


def cmd_boggle(args) -> int:
    """Best board, progress per seed and score histogram of one Boggle ranking."""
    from puzzlesearch.boggle.model import Shape
    from puzzlesearch.report import plots

    shape = Shape.parse(args.shape)
    name = f"{args.lexicon} {args.shape} {args.mode}"
    expect = data.boggle_identity(shape, args.words)
    best = data.best_board(data.read_table(args.best, kinds.BOGGLE_BEST, expect))
    seeds = data.seed_tables(args.seeds, {**expect, "mode": args.mode, **expect_of(args)})
    data.check_ranked_from(args.best, args.seeds)
    title = f"Boggle {name}: {best['board']} scores {best['score']} ({best['n_words']} words)"
    plots.save(plots.draw_board(data.board_letters(best["board"], shape.rows, shape.cols), title), args.board_out)
    plots.save(
        plots.draw_progress(data.progress_curves(seeds), f"Boggle {name}: best score over time"), args.progress_out
    )
    edges, counts = data.score_histograms(seeds)
    plots.save(plots.draw_histogram(edges, counts, f"Boggle {name}: scores of the final pools"), args.histogram_out)
    return 0


def cmd_boggle_scan(args) -> int:
    """The scan summary as a figure."""
    from puzzlesearch.report import plots

    rows = data.scan_rows(data.read_boggle_scan(args.summary, expect_of(args)))
    plots.save(plots.draw_scan(rows, args.title), args.out)
    return 0


def cmd_bee(args) -> int:
    """The top puzzles table and the points-vs-words figure."""
    from puzzlesearch.report import plots

    puzzles = data.read_table(args.puzzles, kinds.BEE_PUZZLES)
    data.check_bee_lexicon(args.puzzles, args.words)
    top = data.bee_top(puzzles)
    write_text(
        plots.bee_table_html(top, f"Spelling Bee {args.lexicon}: the {top.height} best puzzles of {puzzles.height}"),
        args.top_out,
    )
    title = f"Spelling Bee {args.lexicon}: {puzzles.height} puzzles, {data.in_window(puzzles)} in the editors' window"
    plots.save(plots.draw_bee_points(puzzles, data.BEE_WINDOW, title), args.points_out)
    return 0


def cmd_bee_schedule(args) -> int:
    """Word counts and difficulty of the Bee schedule's puzzles by day."""
    from puzzlesearch.report import plots

    schedule, rules = data.read_bee_schedule(args.schedule, expect_of(args))
    data.check_bee_lexicon(args.schedule, args.words)
    window = (rules["schedule_min_words"], rules["schedule_max_words"])
    title = f"Spelling Bee {args.lexicon}: {schedule.height} scheduled puzzles (seed {rules['schedule_seed']})"
    plots.save(plots.draw_bee_schedule(schedule, window, title), args.out)
    return 0


def cmd_cube_solves(args) -> int:
    """Move-count distribution and time per cube of each solver on one test set."""
    from puzzlesearch.report import plots

    solves = data.cube_solves(args.solvers, args.solves, args.testset)
    n = max(df.height for df in solves.values())
    plots.save(
        plots.draw_cube_moves(solves, f"Rubik's cube {args.testset} ({n} cubes): solution lengths"), args.moves_out
    )
    plots.save(plots.draw_cube_times(solves, f"Rubik's cube {args.testset}: time per cube"), args.times_out)
    return 0


def cmd_cube_tables(args) -> int:
    """The cube tables' sizes."""
    from puzzlesearch.report import plots

    tables = data.table_sizes(data.read_table(args.manifest, kinds.CUBE_TABLE_MANIFEST))
    total = tables["bytes"].sum() / 1e6
    plots.save(plots.draw_cube_tables(tables, f"Rubik's cube tables: {tables.height} tables, {total:.1f} MB"), args.out)
    return 0


def cmd_crossword(args) -> int:
    """The best grid of one (lang, size) and the search traces of its seeds."""
    from puzzlesearch.report import plots

    puzzles = data.read_table(args.puzzles, kinds.CROSSWORD_PUZZLES)
    best = puzzles.sort("rank").row(0, named=True)
    doc = manifest.read_verified(data.best_puzzle_file(puzzles, args.ipuz), kinds.CROSSWORD_PUZZLE)[0]
    letters, numbers = data.ipuz_cells(doc)
    title = (
        f"Crossword {args.lang} {args.size}x{args.size}, seed {best['seed']}: cost {best['cost']:g}, "
        f"{best['across_words'] + best['down_words']} words"
    )
    plots.save(plots.draw_crossword(letters, numbers, title, rtl=args.lang in TRUE_RTL), args.grid_out)
    traces = {}
    for path in args.summaries:
        summary = data.read_manifest_json(path, kinds.CROSSWORD_PUZZLE)
        traces[summary.get("row", {}).get("seed", len(traces))] = data.search_trace(summary)
    plots.save(
        plots.draw_trace(
            dict(sorted(traces.items())), f"Crossword {args.lang} {args.size}x{args.size}: best cost during the search"
        ),
        args.trace_out,
    )
    return 0


def cmd_bench_boggle(args) -> int:
    """Run the bounded scorer benchmark and write its table."""
    table = bench.run(args.words, args.dawg, args.boards, args.seed)

    with atomic_path(args.out) as tmp:
        table.write_csv(tmp, separator="\t")
    return 0


def cmd_bench_figures(args) -> int:
    """Run one bounded baseline benchmark (it fails when both methods disagree); write its figures and plot."""
    from puzzlesearch.report import plots

    if args.bench == "lexicon":
        figures = bench.run_lexicon(args.words)
        title = f"Lexicon {args.lexicon}: {figures['words']:,} words, minimal DAWG vs plain trie"
        fig = plots.draw_bench_lexicon(figures, title)
    else:
        figures = bench.run_bee(args.words)
        sec = figures["seconds"]
        speedup = sum(sec[bench.BEE_PYTHON]) / max(sum(sec[bench.BEE_NUMBA]), 1e-9)
        title = (
            f"Spelling Bee {args.lexicon}: {figures['puzzles']:,} puzzles, numba {speedup:,.0f}x the Python baseline"
        )
        fig = plots.draw_bench_bee(figures, title)
    write_text(json.dumps(figures, indent=1) + "\n", args.json_out)
    plots.save(fig, args.out)
    return 0


def cmd_bench_cube(args) -> int:
    """Our solvers' figures (every answer verified) beside the peers'; figures and plot."""
    from puzzlesearch.report import plots

    figures = bench.run_cube(args.solvers, args.solves, args.testset)
    live = "kociemba timed here" if figures["kociemba_installed"] else "kociemba package not installed"
    title = f"Rubik's cube {args.testset} ({figures['cubes']} cubes, all verified) vs published solvers; {live}"
    write_text(json.dumps(figures, indent=1) + "\n", args.json_out)
    plots.save(plots.draw_bench_cube(figures, title), args.out)
    return 0


def cmd_bench_crossword(args) -> int:
    """Both fills of the benchmark pattern (each verified); figures and plot."""
    from puzzlesearch.crossword.settings import FillSettings
    from puzzlesearch.crossword.tables import language_of, load_tables
    from puzzlesearch.report import plots

    settings = FillSettings.from_json(args.settings)
    language_of(args.lang, load_tables(args.tables, settings.min_frequency))  # the right alphabet, else one line
    figures = bench.run_crossword(args.tables, args.words, args.pattern, settings, args.nodes)
    rows, cols = figures["shape"]
    title = (
        f"Crossword fill {args.lang}, pattern {Path(args.pattern).stem} ({rows}x{cols}, {figures['black']} black): "
        f"budget {args.nodes:,} nodes each, floor {settings.min_frequency}"
    )
    write_text(json.dumps(figures, indent=1) + "\n", args.json_out)
    plots.save(plots.draw_bench_crossword(figures, title), args.out)
    return 0


def cmd_benchmarks(args) -> int:
    """The benchmark figure."""
    from puzzlesearch.report import plots

    jobs = data.benchmarks(args.tsv)
    baseline = (
        pl.read_csv(args.baseline, separator="\t")
        if args.baseline
        else pl.DataFrame({"method": [], "boards": [], "boards_per_second": []})
    )
    if args.baseline:
        data.need_columns(baseline, ("method", "boards", "boards_per_second"), f"baseline {args.baseline}")
    total = jobs["seconds"].sum()
    plots.save(
        plots.draw_benchmarks(jobs, baseline, f"Benchmarks: {jobs.height} jobs, {total:.0f} s wall in all"), args.out
    )
    return 0


def cmd_summary(args) -> int:
    """Print the summary of a project's results."""
    if not (Path(args.root) / "results").is_dir():
        raise PuzzleError(f"--root {args.root}: no results/ folder (run snakemake first)")
    print("\n".join(summary_lines(args.root)))
    return 0
