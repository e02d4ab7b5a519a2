"""`puzzlesearch boggle ...`: score boards, search, rank seeds, scan neighbourhoods."""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import log


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `boggle` command group."""
    parser = sub.add_parser("boggle", help="Boggle: score boards, search for the best ones")
    cmds = parser.add_subparsers(dest="boggle_command", metavar="ACTION", required=True)

    def common(p, shape=True):
        p.add_argument("--lexicon", help="a name from config.yaml or a word-list path (default: default_lexicon)")
        p.add_argument("--points", help="points by word length, comma-separated, the last for longer "
                       "words (default: boggle.points, 0,0,0,1,1,2,3,5,11)")
        if shape:
            p.add_argument("--rows", type=int, help="board rows (inferred for square boards)")
            p.add_argument("--cols", type=int, help="board columns (inferred for square boards)")

    p = cmds.add_parser("score", help="score boards: points and word count (and the words)")
    p.add_argument("boards", nargs="+", metavar="BOARD", help="letters row by row, q = Qu, e.g. perslatgsineters")
    p.add_argument("--words", action="store_true", help="also list the words with their points")
    common(p)
    p.set_defaults(func=cmd_score)

    p = cmds.add_parser("search", help="search for high-scoring boards (one seed)")
    common(p, shape=False)
    p.add_argument("--shape", default="4x4", help="ROWSxCOLS (default 4x4)")
    p.add_argument("--mode", choices=["free", "dice"], default="free")
    p.add_argument("--dice", help="dice mode: a set name (classic, big) or comma-separated dice "
                   "(default: boggle.dice for the shape)")
    p.add_argument("--method", choices=["hill", "pool"], help="default: boggle.method")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seconds", type=float, help="time budget (default: boggle.seconds)")
    p.add_argument("--max-boards", type=int, help="board budget, 0 = none (default: boggle.max_boards)")
    p.add_argument("--pool-size", type=int, help="hill climber's pool (default: boggle.pool_size)")
    p.add_argument("--keep", type=int, help="boards to keep (default: boggle.keep)")
    p.add_argument("--out", help="write the boards found to this Parquet file")
    p.set_defaults(func=cmd_search)

    p = cmds.add_parser("rank", help="merge seed tables into best.parquet (boards equal under symmetry merged)")
    p.add_argument("seeds", nargs="+", metavar="SEED_PARQUET")
    common(p, shape=False)
    p.add_argument("--shape", default="4x4")
    p.add_argument("--keep", type=int, help="rows to keep (default: boggle.keep)")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_rank)

    p = cmds.add_parser("scan", help="score every board at distance 1 and 2 (and swaps): is it a local optimum?")
    p.add_argument("boards", nargs="*", metavar="BOARD")
    common(p)
    p.add_argument("--shape", help="ROWSxCOLS (instead of --rows/--cols)")
    p.add_argument("--from", dest="from_table", help="scan the best boards of this best.parquet "
                   "(boards the search found to be local optima first)")
    p.add_argument("--mode", choices=["free", "dice"], default="free",
                   help="free: Hamming neighbourhood; dice: arrangements one/two moves away (needs --from)")
    p.add_argument("--dice", help="dice mode: the dice set of the search (default: boggle.dice for the shape)")
    p.add_argument("--boards", dest="n_boards", type=int, help="how many boards of --from (default: boggle.scan.boards)")
    p.add_argument("--distance", type=int, choices=[1, 2], help="default: boggle.scan.distance")
    p.add_argument("--swaps", action=argparse.BooleanOptionalAction, default=None, help="default: boggle.scan.swaps")
    p.add_argument("--keep", type=int, help="best neighbours kept per board (default: boggle.scan.keep)")
    p.add_argument("--out", help="write the best neighbours to this Parquet file")
    p.add_argument("--summary", help="write the per-board verdicts to this JSON file")
    p.set_defaults(func=cmd_scan)


def _section(config: dict) -> dict:
    """The boggle config section with defaults, also outside a project folder."""
    section = config.get("boggle")
    if section and "points" in section:
        return section  # validated against workflow/schemas/boggle.schema.yaml
    import yaml

    from puzzlesearch.config import DefaultingValidator

    schema_path = Path(__file__).resolve().parents[3] / "workflow" / "schemas" / "boggle.schema.yaml"
    if not schema_path.exists():
        raise PuzzleError(f"config key boggle: no defaults ({schema_path} is missing)")
    filled = {"boggle": dict(section or {})}
    DefaultingValidator(yaml.safe_load(schema_path.read_text())).validate(filled)
    return filled["boggle"]


def _setup(args):
    """(boggle config section, Lexicon, Scorer) for a command."""
    from puzzlesearch.boggle.score import Scorer
    from puzzlesearch.config import load_config
    from puzzlesearch.lexicon import open_lexicon

    config, root = load_config(args.config)
    section = _section(config)
    lex = open_lexicon(args.lexicon or config["default_lexicon"], config, root, alphabet="latin")
    points = section["points"]
    if getattr(args, "points", None):
        try:
            points = [int(p) for p in args.points.split(",")]
        except ValueError:
            raise PuzzleError(f"--points {args.points!r}: expected comma-separated integers") from None
    return section, lex, Scorer.for_lexicon(lex, points)


def cmd_score(args) -> int:
    """Print each board's score and word count (and words)."""
    from puzzlesearch.boggle.model import parse_board

    boards = [parse_board(text, args.rows, args.cols) for text in args.boards]  # check all first
    _, _, scorer = _setup(args)
    for board in boards:
        score, ranks = scorer.ranks(board)
        print(f"{board}\t{board.shape}\tscore {score}\twords {len(ranks)}")
        if args.words:
            for w in scorer.words_of(board):
                print(f"  {w.word}\t{w.points}")
    return 0


def cmd_search(args) -> int:
    """Run one seeded search; print the best boards, write them to --out."""
    from puzzlesearch.boggle.model import Shape
    from puzzlesearch.boggle.rank import seed_table
    from puzzlesearch.boggle.search import Budget, make_space, run_search
    from puzzlesearch.io import write_parquet

    shape = Shape.parse(args.shape)
    section, lex, scorer = _setup(args)
    dice = section["dice"].get(str(shape))
    if args.dice:
        dice = args.dice if "," not in args.dice else args.dice.split(",")
    space = make_space(shape, args.mode, dice)
    method = args.method or section["method"]
    keep = args.keep or section["keep"]
    budget = Budget(seconds=args.seconds if args.seconds is not None else section["seconds"],
                    max_boards=args.max_boards if args.max_boards is not None else section["max_boards"])
    if method == "hill":
        options = {"pool_size": args.pool_size or section["pool_size"], "keep": keep}
    else:
        options = {**section["pool_search"], "keep": keep}
        if args.pool_size:
            options["pool_size"] = args.pool_size
    if budget.seconds <= 0 and budget.max_boards <= 0:
        raise PuzzleError("search: give a time budget (--seconds > 0) or a board budget (--max-boards > 0)")
    log("boggle", f"search {lex.name} {shape} {args.mode} method={method} seed={args.seed} "
        f"seconds={budget.seconds} max_boards={budget.max_boards} {options}")
    result = run_search(scorer, space, method, args.seed, budget, **options)
    table = seed_table(result, scorer, shape, args.seed)
    if args.out:
        write_parquet(table, args.out)
    stop = "interrupted" if budget.interrupted else "budget spent"
    log("boggle", f"{stop}: {budget.boards} boards in {budget.elapsed():.1f}s, {result.restarts} restarts")
    for row in table.head(5).iter_rows(named=True):
        print(f"{row['board']}\t{row['score']}\twords {row['words']}\tfirst at {row['seconds']}s")
    return 130 if budget.interrupted else 0  # stopped by Ctrl-C: what was found is written, not complete


def cmd_rank(args) -> int:
    """Merge seed tables into one ranking."""
    from puzzlesearch.boggle.model import Shape
    from puzzlesearch.boggle.rank import rank_tables
    from puzzlesearch.io import write_parquet

    shape = Shape.parse(args.shape)
    section, lex, scorer = _setup(args)
    best = rank_tables(args.seeds, shape, scorer, args.keep or section["keep"])
    write_parquet(best, args.out)
    for row in best.head(5).iter_rows(named=True):
        print(f"{row['board']}\t{row['score']}\twords {row['n_words']}\tseeds {row['found_by']}")
    return 0


def cmd_scan(args) -> int:
    """Scan boards' neighbourhoods; print and write whether each is a local optimum."""
    from puzzlesearch.boggle.model import parse_board
    from puzzlesearch.boggle.scan import SCAN_SCHEMA, scan_board
    from puzzlesearch.io import write_json, write_parquet

    texts = list(args.boards)
    rows, cols = args.rows, args.cols
    if args.shape:
        from puzzlesearch.boggle.model import Shape

        shape = Shape.parse(args.shape)
        rows, cols = shape.rows, shape.cols
    if args.from_table:
        if not Path(args.from_table).exists():
            raise PuzzleError(f"--from {args.from_table}: no such file")
    if not texts and not args.from_table:
        raise PuzzleError("scan: give BOARD arguments or --from best.parquet")
    if args.mode == "dice" and (texts or not args.from_table):
        raise PuzzleError("scan --mode dice: give --from best.parquet (its dice arrangements), not BOARD")
    section, lex, scorer = _setup(args)
    opts = section["scan"]
    states = []
    if args.from_table:
        n = args.n_boards if args.n_boards is not None else opts["boards"]
        from puzzlesearch.boggle.rank import read_table

        table = read_table(args.from_table)
        if "board" not in table.columns:
            raise PuzzleError(f"--from {args.from_table}: no column 'board' (expected a best.parquet)")
        if "local_optimum" in table.columns:  # certify the search's local optima first
            table = table.sort("local_optimum", descending=True, maintain_order=True)
        table = table.head(n)
        texts += table["board"].to_list()
        if args.mode == "dice":
            if "state" not in table.columns or table["state"].is_null().any():
                raise PuzzleError(f"--from {args.from_table}: no dice arrangements (column state); a free-mode table?")
            states = table["state"].to_list()
    boards = [parse_board(t, rows, cols) for t in texts]
    distance = args.distance or opts["distance"]
    swaps = opts["swaps"] if args.swaps is None else args.swaps
    space = None
    if args.mode == "dice" and boards:
        from puzzlesearch.boggle.search import make_space

        dice = section["dice"].get(str(boards[0].shape))
        if args.dice:
            dice = args.dice if "," not in args.dice else args.dice.split(",")
        space = make_space(boards[0].shape, "dice", dice)
    results = []
    for k, board in enumerate(boards):
        if space is not None:
            from puzzlesearch.boggle.scan import scan_state

            res = scan_state(scorer, space, states[k], distance, args.keep or opts["keep"])
        else:
            res = scan_board(scorer, board, distance, swaps, args.keep or opts["keep"])
        verdict = "local optimum" if res.local_optimum else f"NOT a local optimum ({res.better} better)"
        log("boggle", f"scan {board}: {res.neighbours} neighbours, best {res.best_score}")
        print(f"{board}\t{res.score}\tbest neighbour {res.best_score}\t{verdict}")
        results.append(res)
    if args.out:
        frames = [r.top for r in results]
        write_parquet(pl.concat(frames) if frames else pl.DataFrame(schema=SCAN_SCHEMA), args.out)
    if args.summary:
        write_json({"lexicon": lex.name, "mode": args.mode, "distance": distance, "swaps": swaps,
                    "boards": [r.summary() for r in results]}, args.summary)
    return 0
