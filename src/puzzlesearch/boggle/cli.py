"""`puzzlesearch boggle ...`: score boards, search, rank seeds, scan neighbourhoods.

Two modes for search, rank and scan:
- pipeline (`--settings JSON`, what the Snakemake rules run): the step's settings object
  as JSON plus explicit `--words` / `--dawg` inputs (verified against their manifests)
  and an explicit `--out`; config.yaml is never read and nothing is built.
- interactive (no --settings): settings from config.yaml's boggle section, then
  `--set KEY=VALUE`, then the flags; the lexicon (`--lexicon`) from the artifact store.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

from puzzlesearch.boggle.cli_args import (
    TOP_PRINTED,
    interactive_settings,
    lexicon_flags,
    parse_points,
    pipeline_mode,
    scorer_for,
    shape_flags,
    step_flags,
)
from puzzlesearch.boggle.model import Shape, parse_board
from puzzlesearch.boggle.proof import cli as proof_cli
from puzzlesearch.boggle.rank import (
    BEST_KIND,
    SEED_KIND,
    built_by,
    expected,
    rank_tables,
    read_table,
    seed_lineage,
    seed_table,
    write_table,
)
from puzzlesearch.boggle.scan import SCAN_KIND, SCAN_SCHEMA, SCAN_SUMMARY_KIND, scan_board, scan_state
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.boggle.search import CHECKPOINTED, METHODS, Budget, run_search
from puzzlesearch.boggle.settings import RankSettings, ScanSettings, SearchSettings, check_dice, dice_for
from puzzlesearch.boggle.spaces import make_space
from puzzlesearch.cli_common import EXIT_INTERRUPTED, add_expect_flag, expect_of, lexicon_name, out_file, with_flags
from puzzlesearch.config import load_config
from puzzlesearch.errors import ConfigError, PuzzleError
from puzzlesearch.lexicon import open_lexicon
from puzzlesearch.manifest import write_result_json
from puzzlesearch.progress import log


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `boggle` command group."""
    parser = sub.add_parser("boggle", help="Boggle: score boards, search for the best ones")
    cmds = parser.add_subparsers(dest="boggle_command", metavar="ACTION", required=True)

    p = cmds.add_parser("score", help="score boards: points and word count (and the words)")
    p.add_argument("boards", nargs="+", metavar="BOARD", help="letters row by row, q = Qu, e.g. perslatgsineters")
    p.add_argument("--words", action="store_true", help="also list the words with their points")
    lexicon_flags(p)
    shape_flags(p)
    p.set_defaults(func=cmd_score)

    p = cmds.add_parser("search", help="search for high-scoring boards (one seed)")
    step_flags(p)
    p.add_argument("--shape", default="4x4", help="ROWSxCOLS (default 4x4)")
    p.add_argument("--mode", choices=["free", "dice"], default="free")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--dice",
        help="dice mode: a set name (classic, big) or comma-separated dice, one per cell "
        "(default: boggle.dice for the shape)",
    )
    p.add_argument("--method", choices=list(METHODS), help="default: boggle.method")
    p.add_argument("--seconds", type=float, help="safety cap in seconds (default: boggle.seconds)")
    p.add_argument("--max-boards", type=int, help="board budget, 0 = none (default: boggle.max_boards)")
    p.add_argument(
        "--pool-size",
        type=int,
        help="the method's pool (default: boggle.pool_size, boggle.pool_search.pool_size for --method pool)",
    )
    p.add_argument("--keep", type=int, help="boards to keep (default: boggle.keep)")
    p.add_argument("--out", help="write the boards found to this Parquet file (required with --settings)")
    p.add_argument(
        "--checkpoint",
        help="methods ils and anneal: save the search's state to this file and continue from it when it exists "
        "(Ctrl-C exits 130 keeping it; the budget counts every run)",
    )
    p.set_defaults(func=cmd_search)

    p = cmds.add_parser("rank", help="merge seed tables into best.parquet (boards equal under symmetry merged)")
    p.add_argument("seeds", nargs="+", metavar="SEED_PARQUET")
    step_flags(p)
    p.add_argument("--shape", default="4x4")
    p.add_argument("--keep", type=int, help="rows to keep (default: boggle.keep)")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_rank)

    p = cmds.add_parser("scan", help="score every board at distance 1 and 2 (and swaps): is it a local optimum?")
    p.add_argument("boards", nargs="*", metavar="BOARD")
    step_flags(p)
    shape_flags(p)
    p.add_argument("--shape", help="ROWSxCOLS (instead of --rows/--cols)")
    p.add_argument(
        "--from",
        dest="from_table",
        help="scan the best boards of this best.parquet (boards the search found to be local optima first)",
    )
    add_expect_flag(
        p, "(pipeline) JSON object of values --from's manifest must record, e.g. its seeds' search settings"
    )
    p.add_argument(
        "--mode",
        choices=["free", "dice"],
        default="free",
        help="free: Hamming neighbourhood; dice: arrangements one/two moves away (needs --from)",
    )
    p.add_argument("--dice", help="dice mode: the dice set of the search (default: boggle.dice for the shape)")
    p.add_argument(
        "--boards", dest="n_boards", type=int, help="how many boards of --from (default: boggle.scan.boards)"
    )
    p.add_argument("--distance", type=int, choices=[1, 2], help="default: boggle.scan.distance")
    p.add_argument("--swaps", action=argparse.BooleanOptionalAction, default=None, help="default: boggle.scan.swaps")
    p.add_argument("--keep", type=int, help="best neighbours kept per board (default: boggle.scan.keep)")
    p.add_argument("--out", help="write the best neighbours to this Parquet file")
    p.add_argument("--summary", help="write the per-board verdicts to this JSON file")
    p.set_defaults(func=cmd_scan)
    proof_cli.register(cmds)


def _dice_flag(args, shape, mode: str):
    """The --dice value as a set name or a list of dice (checked against the shape)."""
    if not args.dice:
        return None
    if mode != "dice":
        raise PuzzleError("--dice: only with --mode dice")
    dice = args.dice if "," not in args.dice else [d.strip() for d in args.dice.split(",")]
    check_dice(dice, shape, f"--dice {args.dice}")
    return dice


def _job_dice(settings, shape, mode: str, where: str):
    """The settings' dice set, checked to fit the job's mode and shape."""
    if mode != "dice":
        return None
    if settings.dice is None:
        raise PuzzleError(f"{where}: dice mode needs a dice set (key dice) for shape {shape}")
    check_dice(settings.dice, shape, f"{where} dice")
    return settings.dice


# ---------------------------------------------------------------- commands


def cmd_score(args) -> int:
    """Print each board's score and word count (and words)."""

    boards = [parse_board(text, args.rows, args.cols) for text in args.boards]  # check all first
    config, root = load_config(args.config)
    settings = RankSettings.from_config(config["boggle"])
    if args.points:
        settings = with_flags(settings, {("--points", "points"): parse_points(args.points)})
    lex = open_lexicon(lexicon_name(args, config), config, root, alphabet="latin")
    scorer = Scorer.for_lexicon(lex, settings.points)
    for board in boards:
        score, ranks = scorer.ranks(board)
        print(f"{board}\t{board.shape}\tscore {score}\twords {len(ranks)}")
        if args.words:
            for w in scorer.words_of(board):
                print(f"  {w.word}\t{w.points}")
    return 0


def _search_settings(args, shape):
    """(SearchSettings, config, root) of a search command in either mode."""
    own = ("dice", "method", "seconds", "max_boards", "pool_size", "keep")
    if pipeline_mode(args, {f"--{flag.replace('_', '-')}": getattr(args, flag) for flag in own}):
        settings = SearchSettings.from_json(args.settings)
        if settings.max_boards == 0:
            raise PuzzleError(
                "--settings: boggle.max_boards is 0 (no board budget); a pipeline search needs one "
                "so that its result does not depend on machine load"
            )
        _job_dice(settings, shape, args.mode, "--settings")
        return settings, None, None
    dice = _dice_flag(args, shape, args.mode)
    flags = {
        ("--method", "method"): args.method,
        ("--seconds", "seconds"): args.seconds,
        ("--max-boards", "max_boards"): args.max_boards,
        ("--keep", "keep"): args.keep,
        ("--dice", "dice"): dice,
    }
    mode = "free" if dice is not None else args.mode  # --dice replaces the configured set
    settings, config, root = interactive_settings(args, SearchSettings, shape, mode, flags)
    if args.pool_size is not None:
        key = "pool_size" if settings.method == "hill" else "pool_search"
        value = args.pool_size if key == "pool_size" else {**settings.pool_search, "pool_size": args.pool_size}
        try:
            settings = settings.replace(**{key: value})
        except ConfigError as exc:
            raise ConfigError(f"--pool-size {args.pool_size}: {exc}".replace("config key ", "")) from None
    return settings, config, root


def cmd_search(args) -> int:
    """Run one seeded search; print the best boards, write them to --out."""

    shape = Shape.parse(args.shape)
    if args.seed < 0:
        raise PuzzleError(f"--seed {args.seed}: must be 0 or more")
    settings, config, root = _search_settings(args, shape)
    name, scorer = scorer_for(args, settings, config, root)
    space = make_space(shape, args.mode, settings.dice if args.mode == "dice" else None)
    budget = Budget(seconds=settings.seconds, max_boards=settings.max_boards)
    options = settings.options()
    if args.checkpoint and settings.method not in CHECKPOINTED:
        raise PuzzleError(f"--checkpoint: only with method ils or anneal (this search is {settings.method})")
    if settings.method in CHECKPOINTED:
        job = {"lexicon": scorer.lexicon.get("source_sha256", name), "points": settings.points, "dice": settings.dice}
        options = {**options, "checkpoint": args.checkpoint, "job": job}
    log(
        "boggle",
        f"search {name} {shape} {args.mode} method={settings.method} seed={args.seed} "
        f"seconds={budget.seconds} max_boards={budget.max_boards} {settings.options()}",
    )
    result = run_search(scorer, space, settings.method, args.seed, budget, **options)
    log(
        "boggle",
        f"stopped by {result.stopped_by}: {budget.boards} boards in {budget.elapsed():.1f}s, "
        f"{result.restarts} restarts",
    )
    if args.settings is not None and result.stopped_by == "time":
        raise PuzzleError(
            f"search stopped by the time cap boggle.seconds={settings.seconds} after "
            f"{budget.boards} of boggle.max_boards={settings.max_boards} boards (a busy machine?); "
            "raise boggle.seconds or lower boggle.max_boards so the board budget ends the search"
        )
    if args.settings is not None and budget.interrupted:
        return EXIT_INTERRUPTED  # a pipeline job writes only complete results
    table = seed_table(result, scorer, shape, args.seed)
    if args.out:
        built = built_by(scorer, shape, seed=args.seed, mode=args.mode)
        write_table(table, out_file(args.out), SEED_KIND, settings.to_dict(), built)
    for row in table.head(TOP_PRINTED).iter_rows(named=True):
        print(f"{row['board']}\t{row['score']}\twords {row['words']}\tfirst at {row['seconds']}s")
    return EXIT_INTERRUPTED if budget.interrupted else 0


def cmd_rank(args) -> int:
    """Merge seed tables into one ranking."""

    shape = Shape.parse(args.shape)
    if pipeline_mode(args, {"--keep": args.keep}):
        settings, config, root = RankSettings.from_json(args.settings), None, None
    else:
        settings, config, root = interactive_settings(
            args, RankSettings, shape, "free", {("--keep", "keep"): args.keep}
        )
    _, scorer = scorer_for(args, settings, config, root)
    best = rank_tables(args.seeds, shape, scorer, settings.keep, expected(scorer, shape, settings.points))
    built = built_by(scorer, shape, **seed_lineage(args.seeds))
    write_table(best, out_file(args.out), BEST_KIND, settings.to_dict(), built)
    for row in best.head(TOP_PRINTED).iter_rows(named=True):
        print(f"{row['board']}\t{row['score']}\twords {row['n_words']}\tseeds {row['found_by']}")
    return 0


def _scan_settings(args, shape):
    """(ScanSettings, config, root) of a scan command in either mode (dice resolved later)."""
    own = {"--dice": args.dice, "--boards": args.n_boards, "--distance": args.distance, "--keep": args.keep}
    own["--no-swaps" if args.swaps is False else "--swaps"] = None if args.swaps is None else True  # False is given
    if pipeline_mode(args, own):
        return ScanSettings.from_json(args.settings), None, None
    settings, config, root = interactive_settings(args, ScanSettings, shape or "4x4", "free", {})
    scan = dict(settings.scan)
    for key, value in (
        ("boards", args.n_boards),
        ("distance", args.distance),
        ("swaps", args.swaps),
        ("keep", args.keep),
    ):
        if value is not None:
            scan[key] = value
            try:
                settings = settings.replace(scan=dict(scan))
            except ConfigError as exc:
                raise ConfigError(f"--{key} {value}: {exc}".replace("config key ", "")) from None
    return settings, config, root


def _scan_boards(args, scan: dict, shape, expect: dict):
    """(board texts, dice states) to scan: the BOARD arguments and the top of --from (a ranking of `expect`)."""
    texts, states = list(args.boards), []
    if args.from_table and not Path(args.from_table).exists():
        raise PuzzleError(f"--from {args.from_table}: no such file")
    if not texts and not args.from_table:
        raise PuzzleError("scan: give BOARD arguments or --from best.parquet")
    if args.mode == "dice" and (texts or not args.from_table):
        raise PuzzleError("scan --mode dice: give --from best.parquet (its dice arrangements), not BOARD")
    if args.from_table:
        table = read_table(args.from_table, BEST_KIND, expect)
        if "board" not in table.columns:
            raise PuzzleError(f"--from {args.from_table}: no column 'board' (expected a best.parquet)")
        if "local_optimum" in table.columns:  # certify the search's local optima first
            table = table.sort("local_optimum", descending=True, maintain_order=True)
        table = table.head(scan["boards"])
        texts += table["board"].to_list()
        if args.mode == "dice":
            if "state" not in table.columns or table["state"].is_null().any():
                raise PuzzleError(f"--from {args.from_table}: no dice arrangements (column state); a free-mode table?")
            states = table["state"].to_list()
    return texts, states


def cmd_scan(args) -> int:
    """Scan boards' neighbourhoods; print and write whether each is a local optimum."""

    rows, cols = args.rows, args.cols
    shape = Shape.parse(args.shape) if args.shape else None
    if shape is not None:
        rows, cols = shape.rows, shape.cols
    settings, config, root = _scan_settings(args, shape)
    name, scorer = scorer_for(args, settings, config, root)
    expect = {**expected(scorer, shape, settings.points), **expect_of(args)}
    texts, states = _scan_boards(args, settings.scan, shape, expect)
    boards = [parse_board(t, rows, cols) for t in texts]
    space = None
    if args.mode == "dice" and boards:
        shape = boards[0].shape
        if args.settings is not None:
            dice = _job_dice(settings, shape, "dice", "--settings")
        else:
            dice = _dice_flag(args, shape, "dice") or dice_for(config["boggle"], shape, "dice")
        space = make_space(shape, "dice", dice)
    scan, results = settings.scan, []
    for k, board in enumerate(boards):
        if space is not None:
            res = scan_state(scorer, space, states[k], scan["distance"], scan["keep"])
        else:
            res = scan_board(scorer, board, scan["distance"], scan["swaps"], scan["keep"])
        verdict = "local optimum" if res.local_optimum else f"NOT a local optimum ({res.better} better)"
        log("boggle", f"scan {board}: {res.neighbours} neighbours, best {res.best_score}")
        print(f"{board}\t{res.score}\tbest neighbour {res.best_score}\t{verdict}")
        results.append(res)
    built = built_by(scorer, boards[0].shape if boards else shape, mode=args.mode, boards=texts)
    if args.out:
        frames = [r.top for r in results]
        top = pl.concat(frames) if frames else pl.DataFrame(schema=SCAN_SCHEMA)
        write_table(top, out_file(args.out), SCAN_KIND, settings.to_dict(), built)
    if args.summary:
        summary = {
            "lexicon": name,
            "mode": args.mode,
            "distance": scan["distance"],
            "swaps": scan["swaps"],
            "boards": [r.summary() for r in results],
        }
        write_result_json(summary, out_file(args.summary), SCAN_SUMMARY_KIND, settings.to_dict(), built)
    return 0
