"""`puzzlesearch cube ...`: solve cubes, build the tables, make random test sets.

`cube solve` runs in one of two modes:
  interactive  settings from config.yaml `cube:` (if run in a project), then --set, then the
               budget flags; tables from --tables DIR (verified, never built) or the artifact
               store (built there on first use).
  pipeline     `--settings JSON --tables DIR|manifest.parquet --file CUBES --out TABLE`: a pure
               function of those; a solve that reaches the time cap fails the job.
The modes, exit codes and shared flags are puzzlesearch.cli_common's. The solvers and tables
(numba, polars) are imported inside the commands that use them, so `puzzlesearch --help`
and a bad command line stay fast.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace

from puzzlesearch import kinds
from puzzlesearch.cli_common import (
    EXIT_INTERRUPTED,
    add_set_flag,
    add_settings_flag,
    interactive_settings,
    load_config,
    pipeline_mode,
)
from puzzlesearch.cube.io import format_moves, parse_line, read_cubes
from puzzlesearch.cube.model.cubie import random_cube
from puzzlesearch.cube.settings import SECTION, STEP_SETTINGS, SolveSettings
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_text
from puzzlesearch.parallel import cap_jobs
from puzzlesearch.progress import log
from puzzlesearch.settings import section_schema

# Budget flags: flag -> (config section, key); solver None = the chosen solver's section.
BUDGET_FLAGS = {
    "--target-length": ("twophase", "target_length"),
    "--node-budget": ("twophase", "node_budget"),
    "--phase2-max": ("twophase", "phase2_max"),
    "--pre-moves": ("twophase", "pre_moves"),
    "--threads": ("twophase", "threads"),
    "--max-length": ("twophase", "max_length"),
    "--metric": (None, "metric"),
    "--time-limit": (None, "time_limit"),
}
METRIC_SOLVERS = ("twophase", "optimal")  # the solvers with a `metric` setting (--metric)
ALREADY_SOLVED = "already solved (0 moves)"
SOLVES_KIND = kinds.CUBE_SOLVES  # the manifest entry kind of a solve table (--out)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `cube` command group."""
    parser = sub.add_parser("cube", help="Rubik's cube: Thistlethwaite and two-phase solvers")
    cmds = parser.add_subparsers(dest="cube_command", metavar="ACTION", required=True)
    _register_solve(cmds)
    _register_tables(cmds)


def _register_solve(cmds) -> None:
    """`cube solve` and its flags."""
    p = cmds.add_parser("solve", help='solve cubes (20 cubie tokens, 54 facelets, or a scramble like "R U2 F\'")')
    p.add_argument("cubes", nargs="*", metavar="CUBE", help="one cube per argument (quote it)")
    p.add_argument("--file", help="a file with one cube per line ('#' comments allowed)")
    p.add_argument(
        "--solver",
        choices=("thistlethwaite", "twophase", "optimal"),
        default="twophase",
        help="optimal: shortest solutions by IDA* over a large pruning table (config cube.optimal.*)",
    )
    p.add_argument(
        "--format",
        choices=("standard", "contest"),
        default=None,
        help="standard: R U2 F' ; contest: R1U2F3 (default: config cube.format)",
    )
    p.add_argument(
        "--tables",
        help="table folder or its manifest.parquet (verified, never built; "
        "default: the artifact store, built there on first use)",
    )
    p.add_argument("--out", help="write a Parquet table (cube, solution, moves, milliseconds, stopped_by) here")
    p.add_argument("--testset", help="(pipeline) the test set's name, recorded in the table's manifest entry")
    p.add_argument("--target-length", type=int, help="two-phase: stop at a solution this short")
    p.add_argument("--node-budget", type=int, help="two-phase: nodes searched after a first solution")
    p.add_argument("--phase2-max", type=int, help="two-phase: longest phase 2 tried")
    p.add_argument(
        "--pre-moves", type=int, metavar="N", help="two-phase: also search after pre-move sequences of up to N moves"
    )
    p.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="two-phase: search each cube on N threads (its six directions split; answers can vary between runs)",
    )
    p.add_argument(
        "--max-length",
        type=int,
        metavar="N",
        help="two-phase: stop at the first solution of at most N moves (20 always exists; 0: off)",
    )
    p.add_argument(
        "--metric",
        choices=("htm", "qtm"),
        help="two-phase and optimal: count a half turn 1 (htm) or 2 (qtm, quarter-turn metric); "
        "qtm lengths are printed",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="seconds per cube at most, a safety cap (config cube.<solver>.time_limit)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="solve the cubes in N processes (tables shared; output in input order)",
    )
    add_set_flag(p, "override a config `cube:` key, e.g. twophase.node_budget=200000 (repeatable)")
    add_settings_flag(
        p,
        "(pipeline) the solver step's settings as JSON; then --tables, "
        "--file and --out are required and config.yaml is not read",
    )
    p.set_defaults(func=cmd_solve)


def _register_tables(cmds) -> None:
    """`cube random`, the table builders and `cube manifest` (mostly pipeline steps)."""
    p = cmds.add_parser("random", help="(pipeline) write N uniformly random cubes from a seed")
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_random)

    p = cmds.add_parser("build-tables", help="build every move and pruning table (default: into the artifact store)")
    p.add_argument("--dir", help="table folder to build into (default: the artifact store)")
    p.add_argument(
        "--optimal",
        action="store_true",
        help="also the store's full optimal table, the one of config cube.optimal.coset_table (large: 7.55 GB, "
        "~7 min on 2 cores, ~7.6 GB peak): --solver optimal's",
    )
    p.set_defaults(func=cmd_build_tables)

    p = cmds.add_parser("build-move-tables", help="(pipeline) build the move tables and their manifests")
    p.add_argument("--out-dir", required=True, help="folder to write move_*.npy, cperm_*.npy and .json into")
    p.set_defaults(func=cmd_build_move_tables)

    p = cmds.add_parser("build-prune-table", help="(pipeline) BFS one pruning table")
    p.add_argument("name")
    p.add_argument("--tables", required=True, help="folder of the move tables (verified)")
    p.add_argument("--out", required=True, help="prune_<name>.npy to write (its .json manifest beside it)")
    p.set_defaults(func=cmd_build_prune_table)

    p = cmds.add_parser("build-next-table", help="(pipeline) two-phase's phase-1 move-mask table from prune_tp1_sym")
    p.add_argument(
        "--tables", required=True, help="folder of the move tables, symmetry look-ups and tp1_sym (verified)"
    )
    p.add_argument("--out", required=True, help="next_tp1.npy to write (its .json manifest beside it)")
    p.set_defaults(func=cmd_build_next_table)

    p = cmds.add_parser("build-optimal-table", help="build the optimal solver's pruning table (full: tens of minutes)")
    p.add_argument("variant", help="full, small or tiny (config cube.optimal.table)")
    p.add_argument(
        "--out-dir", required=True, help="folder to write optimal_<variant>.npy, _classes.npz and .json into"
    )
    p.set_defaults(func=cmd_build_optimal_table)

    p = cmds.add_parser(
        "build-optimal-bound", help="derive the optimal solver's bound table (inverse look-ups) from its big table"
    )
    p.add_argument("variant", help="full, small or tiny (config cube.optimal.table)")
    p.add_argument(
        "--tables", required=True, help="the big table's folder (verified); the bound table is written there"
    )
    p.set_defaults(func=cmd_build_optimal_bound)

    p = cmds.add_parser(
        "build-optimal-coset",
        help="build the optimal solver's second table, corner classes x edges (full: ~2.5 GB, large: ~7.55 GB)",
    )
    p.add_argument(
        "variant",
        help="full, large or tiny (full or large go with cube.optimal.table full, by cube.optimal.coset_table; "
        "tiny with small and tiny)",
    )
    p.add_argument("--out-dir", required=True, help="folder to write coset_<variant>.npy, _classes.npz and .json into")
    p.set_defaults(func=cmd_build_optimal_coset)

    p = cmds.add_parser("manifest", help="(pipeline) write manifest.parquet from the verified table manifests")
    p.add_argument("--tables", required=True, help="the table folder")
    p.add_argument("--out", required=True, help="the Parquet file to write")
    p.set_defaults(func=cmd_manifest)


# ------------------------------------------------------------------ settings


def _given_flags(args) -> dict[str, object]:
    """The budget flags given on the command line: flag -> value."""
    return {
        flag: getattr(args, flag[2:].replace("-", "_"))
        for flag in BUDGET_FLAGS
        if getattr(args, flag[2:].replace("-", "_")) is not None
    }


def _settings(args) -> tuple[bool, SolveSettings]:
    """(pipeline mode?, the settings): the step's --settings JSON (no config, no flags), else config
    `cube:` (in a project), then --set, --format and the budget flags."""
    paths = {"--tables": args.tables, "--file": args.file, "--out": args.out, "--testset": args.testset}
    interactive = {**_given_flags(args), "--set": args.set, "--format": args.format}
    if pipeline_mode(args, paths, interactive, pipeline_only=("--testset",)):
        return True, STEP_SETTINGS[args.solver].from_json(args.settings)
    settings, _config, _root = interactive_settings(
        args, SECTION, SolveSettings.from_config, {("--format", "format"): args.format}
    )
    if args.metric is not None and args.solver not in METRIC_SOLVERS:
        raise PuzzleError(
            f"--metric {args.metric}: only the {' and '.join(METRIC_SOLVERS)} solvers take a metric, not {args.solver}"
        )
    for flag, value in _given_flags(args).items():
        section, key = BUDGET_FLAGS[flag]
        if section is not None and section != args.solver:
            raise PuzzleError(f"{flag} is a {section} setting: use it with --solver {section}")
        settings = settings.with_flag(flag, section or args.solver, key, value)
    return False, settings


# ------------------------------------------------------------------ solve


def _read_input(args) -> list:
    """The cubes of the arguments, then of --file (each error names its argument or line)."""
    if not args.cubes and not args.file:
        raise PuzzleError("give a cube (20 tokens, 54 facelets or a scramble) or --file FILE")
    cubes = [parse_line(text, f"cube {k}" if len(args.cubes) > 1 else "") for k, text in enumerate(args.cubes, 1)]
    if args.file:
        from_file = [parse_line(text, f"{args.file} line {n}") for n, text in read_cubes(args.file)]
        if not from_file:
            raise PuzzleError(f"{args.file} has no cube lines")
        cubes += from_file
    return cubes


def _open_tables(args, settings, n_cubes: int, pipeline: bool):
    """--tables (verified, never built), else the artifact store's tables; for a few cubes the large
    ones are mapped from the page cache rather than read (optimal: maps_tables, the others: mapped_for,
    but not in a pipeline job: its milliseconds per cube are the report's benchmark figures)."""
    if args.solver == "optimal":
        from puzzlesearch.cube.solvers.optimal import maps_tables, search_tables

        options = settings.options("optimal")
        return search_tables(args.tables, options.table, options.coset_table, maps_tables(n_cubes))
    from puzzlesearch.cube.tables.phases import Tables, mapped_for, store_tables

    if args.solver == "twophase":
        from puzzlesearch.cube.solvers.twophase import warm_up_twophase

        warm_up_twophase()  # the search compiles beside the tables' build or load
    mapped = mapped_for(n_cubes) and not pipeline
    return Tables(args.tables, mapped) if args.tables else store_tables(mapped)


def _jobs(args, tables) -> int:
    """--jobs, but 1 while the full optimal tables are still to be built (each worker would build
    and load its own ~6 GB copy)."""
    if args.jobs > 1 and args.solver == "optimal":
        from puzzlesearch.cube.solvers.optimal import FirstUseTables

        if not isinstance(tables, FirstUseTables):
            return args.jobs
        log("cube", "--jobs: the full optimal tables are not built yet, so the cubes are solved one at a time")
        return 1
    return args.jobs


def _print_row(row: dict) -> None:
    """One solved cube on stdout, at once (a later Ctrl-C keeps what was printed)."""
    text = ALREADY_SOLVED if row["stopped_by"] == "solved" else row["solution"]
    print(f"{text}  ({row['qtm']} qtm)" if "qtm" in row else text, flush=True)


def _log_row(row: dict) -> None:
    """One optimal solve on the log at once (a search takes seconds to minutes)."""
    qtm = f" ({row['qtm']} qtm)" if "qtm" in row else ""
    log(
        "cube",
        f"optimal: {row['moves']} moves{qtm}, {row['nodes']:,} nodes, {row['milliseconds'] / 1000:.1f} s: "
        f"{row['solution']}",
    )


def _report_time_stops(run, args, settings) -> None:
    """Interactive runs: name the cubes whose search the time cap ended (best so far kept)."""
    stopped = [i for i, row in enumerate(run.rows, 1) if row["stopped_by"] == "time"]
    if stopped:
        limit = settings.options(args.solver).time_limit
        log(
            "cube",
            f"{len(stopped)} cube(s) stopped by the time limit of {limit:g} s (cube "
            f"{', '.join(map(str, stopped[:10]))}): the best solution found so far is given; "
            f"raise --time-limit for its full node budget",
        )


def cmd_solve(args) -> int:
    """Print one verified solution per cube (or write --out as Parquet); Ctrl-C keeps what was solved."""
    from puzzlesearch.cube.solve import solve_many
    from puzzlesearch.manifest import write_result_parquet

    pipeline, settings = _settings(args)
    if args.jobs < 1:
        raise PuzzleError(f"--jobs must be at least 1, got {args.jobs}")
    cubes = _read_input(args)
    format_moves([], settings.format)  # reject an unknown style before the work
    tables = _open_tables(args, settings, len(cubes), pipeline)
    jobs = cap_jobs(_jobs(args, tables), "cube")
    options = settings.options(args.solver)
    if args.solver == "optimal" and jobs == 1:  # one search at a time: a long one logs its depth bounds
        options = replace(options, progress=True)
    run = solve_many(
        cubes,
        tables,
        args.solver,
        settings.format,
        options,
        strict_time=pipeline,
        jobs=jobs,
        on_row=_log_row if args.out and args.solver == "optimal" else None if args.out else _print_row,
    )
    if not pipeline:
        _report_time_stops(run, args, settings)
    if args.out and not (pipeline and run.interrupted):
        built = {"solver": args.solver, "testset": args.testset, "cubes": len(cubes), "solved": len(run.rows)}
        write_result_parquet(run.frame(), args.out, SOLVES_KIND, settings.to_dict(), built)
    if run.interrupted:
        kept = (
            f"written to {args.out}" if args.out and not pipeline else "printed above" if not args.out else "not kept"
        )
        print(
            f"puzzlesearch: interrupted after {len(run.rows)} of {len(cubes)} cubes (the solved ones are {kept})",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return 0


# ------------------------------------------------------------------ tables and test sets


def cmd_random(args) -> int:
    """Write `count` random cubes (20-token lines) drawn with random.Random(seed)."""
    most = section_schema(SECTION)["properties"]["testsets"]["additionalProperties"]["oneOf"][1]["properties"]
    most = most["random"]["maximum"]  # a generated test set's size bound (cube.testsets.*.random)
    if not 1 <= args.count <= most:
        raise PuzzleError(f"--count {args.count}: expected 1 to {most} cubes (the bound of cube.testsets.*.random)")
    rng = random.Random(args.seed)
    write_text("".join(random_cube(rng).to_text() + "\n" for _ in range(args.count)), args.out)
    return 0


def cmd_build_tables(args) -> int:
    """Build every table into --dir, or into the artifact store; print the folder."""
    from puzzlesearch.cube.tables.phases import build_all, store_tables

    if args.dir:
        build_all(args.dir)
        print(args.dir)
    else:
        print(store_tables().dir)
    if args.optimal:
        from puzzlesearch.cube.solvers.optimal import store_search_tables

        # built in the store unless there (its folder is logged while building): the configured table
        config, _root = load_config(args.config)
        store_search_tables("full", SolveSettings.from_config(config[SECTION]).options("optimal").coset_table)
    return 0


def cmd_build_move_tables(args) -> int:
    from puzzlesearch.cube.tables.phases import build_move_tables

    build_move_tables(args.out_dir)
    return 0


def cmd_build_prune_table(args) -> int:
    from puzzlesearch.cube.tables.phases import PRUNE_SPECS, build_prune_table, table_dir_of

    if args.name not in PRUNE_SPECS:
        raise PuzzleError(f"unknown pruning table {args.name!r}: one of {', '.join(PRUNE_SPECS)}")
    build_prune_table(args.name, table_dir_of(args.tables), args.out)
    return 0


def cmd_build_next_table(args) -> int:
    from puzzlesearch.cube.tables.phases import build_next_table, table_dir_of

    build_next_table(table_dir_of(args.tables), args.out)
    return 0


def cmd_build_optimal_table(args) -> int:
    """Build one optimal table variant (and its manifest) into --out-dir."""
    from puzzlesearch.cube.tables.big import build_table

    build_table(args.variant, args.out_dir)
    return 0


def cmd_build_optimal_bound(args) -> int:
    """Derive a big table's bound table into the big table's folder."""
    from puzzlesearch.cube.tables.big import load_table, table_dir_of
    from puzzlesearch.cube.tables.bound import build_bound

    build_bound(load_table(args.tables, args.variant), table_dir_of(args.tables))
    return 0


def cmd_build_optimal_coset(args) -> int:
    """Build one coset table variant (and its manifest) into --out-dir."""
    from puzzlesearch.cube.tables.coset import build_table

    build_table(args.variant, args.out_dir)
    return 0


def cmd_manifest(args) -> int:
    from puzzlesearch.cube.tables.phases import table_dir_of, write_manifest

    write_manifest(table_dir_of(args.tables), args.out)
    return 0
