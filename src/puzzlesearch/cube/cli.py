"""`puzzlesearch cube ...`: solve cubes, build the tables, make random test sets."""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from puzzlesearch.errors import PuzzleError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `cube` command group."""
    parser = sub.add_parser("cube", help="Rubik's cube: Thistlethwaite and two-phase solvers")
    cmds = parser.add_subparsers(dest="cube_command", metavar="ACTION", required=True)

    p = cmds.add_parser("solve", help="solve cubes (20 cubie tokens or a scramble like \"R U2 F'\")")
    p.add_argument("cubes", nargs="*", metavar="CUBE", help="one cube per argument (quote it)")
    p.add_argument("--file", help="a file with one cube per line ('#' comments allowed)")
    p.add_argument("--solver", choices=("thistlethwaite", "twophase"), default="twophase")
    p.add_argument("--format", choices=("standard", "contest"), default=None,
                   help="standard: R U2 F' ; contest: R1U2F3 (default: config cube.format)")
    p.add_argument("--tables", help="table folder (default: config cube.tables; built if missing)")
    p.add_argument("--out", help="write a Parquet table (cube, solution, moves, milliseconds) here")
    p.add_argument("--target-length", type=int, help="two-phase: stop at a solution this short")
    p.add_argument("--node-budget", type=int, help="two-phase: nodes searched after a first solution")
    p.add_argument("--phase2-max", type=int, help="two-phase: longest phase 2 tried")
    p.add_argument("--time-limit", type=float, metavar="SECONDS",
                   help="two-phase: seconds per cube at most (then the best so far, or an error)")
    p.set_defaults(func=cmd_solve)

    p = cmds.add_parser("random", help="(pipeline) write N uniformly random cubes from a seed")
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_random)

    p = cmds.add_parser("build-tables", help="build every move and pruning table and the manifest")
    p.add_argument("--dir", help="table folder (default: config cube.tables)")
    p.set_defaults(func=cmd_build_tables)

    p = cmds.add_parser("build-move-tables", help="(pipeline) build the move tables")
    p.add_argument("--dir", required=True)
    p.set_defaults(func=cmd_build_move_tables)

    p = cmds.add_parser("build-prune-table", help="(pipeline) BFS one pruning table")
    p.add_argument("name")
    p.add_argument("--dir", required=True)
    p.set_defaults(func=cmd_build_prune_table)

    p = cmds.add_parser("manifest", help="(pipeline) write manifest.parquet from the table metadata")
    p.add_argument("--dir", required=True)
    p.set_defaults(func=cmd_manifest)


def _config(args):
    from puzzlesearch.config import load_config

    config, root = load_config(args.config)
    return config["cube"], root


def _table_dir(args, section, root) -> Path:
    """--tables/--dir as given (relative to the working folder), else config cube.tables."""
    given = getattr(args, "tables", None) or getattr(args, "dir", None)
    if given:
        return Path(given)
    path = Path(section["tables"])
    return path if path.is_absolute() else root / path


def _twophase_rules(root: Path) -> dict:
    """key -> JSON schema of config cube.twophase (the budget flags share its bounds)."""
    import yaml

    from puzzlesearch.config import SCHEMA_DIR, schema_root

    schema = yaml.safe_load((schema_root(root, Path.cwd()) / SCHEMA_DIR / "cube.schema.yaml").read_text())
    return schema["properties"]["cube"]["properties"]["twophase"]["properties"]


def _check_flag(flag: str, value, rule: dict) -> None:
    """PuzzleError naming the flag unless value is within the schema rule's bounds."""
    lo, hi, above = rule.get("minimum"), rule.get("maximum"), rule.get("exclusiveMinimum")
    if (math.isnan(value) or (lo is not None and value < lo) or (hi is not None and value > hi)
            or (above is not None and value <= above)):
        bounds = [f"at least {lo}" if lo is not None else "", f"more than {above}" if above is not None else "",
                  f"at most {hi}" if hi is not None else ""]
        raise PuzzleError(f"{flag} must be {' and '.join(b for b in bounds if b)}, got {value:g}")


def _twophase_options(args, section: dict, root: Path):
    """TwoPhaseOptions from config cube.twophase, overridden by the flags given (checked first)."""
    from puzzlesearch.cube.twophase import TwoPhaseOptions

    values = dict(section["twophase"])
    for key, rule in _twophase_rules(root).items():
        given = getattr(args, key, None)
        if given is not None:
            _check_flag("--" + key.replace("_", "-"), given, rule)
            values[key] = given
    return TwoPhaseOptions(**values)


def cmd_solve(args) -> int:
    """Print one verified solution per cube (and write --out as Parquet)."""
    from puzzlesearch.cube.io import format_moves, parse_line, read_cubes
    from puzzlesearch.cube.solve import solve_many
    from puzzlesearch.cube.tables import Tables
    from puzzlesearch.io import write_parquet

    section, root = _config(args)
    options = _twophase_options(args, section, root)
    if not args.cubes and not args.file:
        raise PuzzleError("give a cube (20 tokens or a scramble) or --file FILE")
    cubes = [parse_line(text, f"cube {k}" if len(args.cubes) > 1 else "") for k, text in enumerate(args.cubes, 1)]
    if args.file:
        from_file = [parse_line(text, f"{args.file} line {n}") for n, text in read_cubes(args.file)]
        if not from_file:
            raise PuzzleError(f"{args.file} has no cube lines")
        cubes += from_file
    style = args.format or section["format"]
    format_moves([], style)  # reject an unknown style before the work
    tables = Tables(_table_dir(args, section, root))
    df = solve_many(cubes, tables, args.solver, style, options)
    if args.out:
        write_parquet(df, args.out)
    else:
        for solution in df["solution"]:
            print(solution)
    return 0


def cmd_random(args) -> int:
    """Write `count` random cubes (20-token lines) drawn with random.Random(seed)."""
    from puzzlesearch.cube.cubie import random_cube
    from puzzlesearch.io import write_text

    if args.count < 1:
        raise PuzzleError(f"--count must be at least 1, got {args.count}")
    rng = random.Random(args.seed)
    write_text("".join(random_cube(rng).to_text() + "\n" for _ in range(args.count)), args.out)
    return 0


def cmd_build_tables(args) -> int:
    from puzzlesearch.cube.tables import build_all

    section, root = _config(args)
    build_all(_table_dir(args, section, root))
    return 0


def cmd_build_move_tables(args) -> int:
    from puzzlesearch.cube.tables import build_move_tables

    build_move_tables(args.dir)
    return 0


def cmd_build_prune_table(args) -> int:
    from puzzlesearch.cube.tables import PRUNE_SPECS, build_prune_table

    if args.name not in PRUNE_SPECS:
        raise PuzzleError(f"unknown pruning table {args.name!r}: one of {', '.join(PRUNE_SPECS)}")
    build_prune_table(args.name, args.dir)
    return 0


def cmd_manifest(args) -> int:
    from puzzlesearch.cube.tables import write_manifest

    write_manifest(args.dir)
    return 0
