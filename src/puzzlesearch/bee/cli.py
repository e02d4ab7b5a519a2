"""`puzzlesearch bee ...`: show one puzzle, rank all puzzles, build the pipeline tables.

Interactive commands (`show`, `top`) take the rules from config.yaml's `bee:` section
(load_config) with `--set KEY=VALUE` overrides, and the lexicon from the artifact store.
Pipeline commands (`build-masks`, `build-puzzles`) take `--settings JSON` and explicit
paths, and never read config.yaml.
"""

from __future__ import annotations

import argparse
import json

from puzzlesearch.bee.io import build_masks_file, build_puzzles_file
from puzzlesearch.bee.model import BeeRules, TableRules, parse_puzzle
from puzzlesearch.bee.search import puzzle_words, rank_puzzles
from puzzlesearch.bee.tables import build_table
from puzzlesearch.errors import PuzzleError

# Keys whose values are text: `--set exclude=no` means the letters N and O, not YAML false.
TEXT_KEYS = ("exclude", "score_by")
QUOTES = ("'", '"')


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bee` command group."""
    parser = sub.add_parser("bee", help="Spelling Bee: score and rank honeycomb puzzles")
    cmds = parser.add_subparsers(dest="bee_command", metavar="ACTION", required=True)

    p = cmds.add_parser("show", help="the words of one puzzle, pangrams marked, and its total")
    p.add_argument("letters", help="the puzzle's letters, e.g. AEGINRT")
    p.add_argument("--center", required=True, help="the center letter, one of LETTERS")
    _common(p)
    p.set_defaults(func=cmd_show)

    p = cmds.add_parser("top", help="the best puzzles under the configured rules")
    p.add_argument("-n", type=int, default=10, help="how many puzzles (default 10)")
    _common(p)
    p.set_defaults(func=cmd_top)

    p = cmds.add_parser("build-masks", help="(pipeline) words.parquet -> masks.parquet + masks.json")
    p.add_argument("--settings", required=True, help="the mask-table rules as JSON (TableRules keys)")
    p.add_argument("--words", required=True, help="a lexicon's words.parquet (words.json beside it)")
    p.add_argument("--out", required=True, help="masks.parquet to write (masks.json beside it)")
    p.set_defaults(func=cmd_build_masks)

    p = cmds.add_parser("build-puzzles", help="(pipeline) masks.parquet -> puzzles.parquet + puzzles.json")
    p.add_argument("--settings", required=True, help="every bee rule as JSON (BeeRules keys)")
    p.add_argument("--masks", required=True, help="masks.parquet (masks.json beside it)")
    p.add_argument("--out", required=True, help="puzzles.parquet to write (puzzles.json beside it)")
    p.set_defaults(func=cmd_build_puzzles)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lexicon", help="a lexicon name from config.yaml or a word-list path (default: config key default_lexicon)"
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"override a bee rule for this run ({', '.join(BeeRules.keys())})",
    )


def text_sets(items: list[str]) -> list[str]:
    """`--set` items with the values of text keys quoted, so YAML keeps them as text."""
    out = []
    for item in items:
        key, eq, value = item.partition("=")
        if eq and key.strip() in TEXT_KEYS and not value.strip().startswith(QUOTES):
            item = f"{key}={json.dumps(value.strip())}"
        out.append(item)
    return out


def rules_from_args(config: dict, overrides: list[str]) -> BeeRules:
    """The configured rules with `--set KEY=VALUE` overrides applied."""
    return BeeRules.from_config(config.get("bee")).with_sets(text_sets(overrides))


def _config(args):
    from puzzlesearch.config import load_config

    config, root = load_config(args.config)
    return config, root, rules_from_args(config, args.set)


def _lexicon(args, config, root):
    from puzzlesearch.lexicon import open_lexicon

    return open_lexicon(args.lexicon or config.get("default_lexicon", "default"), config, root, alphabet="latin")


def cmd_show(args) -> int:
    """Print the words of one puzzle (pangrams marked with *) and the totals."""
    config, root, rules = _config(args)
    puzzle = parse_puzzle(args.letters, args.center, rules)
    lex = _lexicon(args, config, root)
    words = puzzle_words(lex.words, puzzle, rules)
    print(f"{puzzle} ({lex.name})")
    for row in words.iter_rows(named=True):
        mark = " *" if row["pangram"] else ""
        print(f"{row['points']:4d}  {row['word']}{mark}")
    points, n, pangrams = int(words["points"].sum()), words.height, int(words["pangram"].sum())
    print(f"total: {n} words, {points} points, {pangrams} pangram{'' if pangrams == 1 else 's'} (* = pangram)")
    if rules.require_pangram and not pangrams:
        print("note: no pangram, so not a valid puzzle under the rules (bee.require_pangram)")
    if not rules.within_limits(points, n):
        print("note: outside the configured limits (bee.min_words/max_words/min_points/max_points)")
    return 0


def cmd_top(args) -> int:
    """Print the N best puzzles (computed now from the lexicon and the rules)."""
    if args.n < 1:
        raise PuzzleError(f"-n {args.n}: expected a positive number")
    config, root, rules = _config(args)
    lex = _lexicon(args, config, root)
    masks, table = build_table(lex.words, rules)
    puzzles = rank_puzzles(table, masks, rules)
    print(f"{lex.name}: {puzzles.height} puzzles, ranked by {rules.score_by}")
    print(f"{'rank':>4}  {'letters':<{rules.size}}  center  {'points':>6}  {'words':>5}  pangrams")
    for r in puzzles.head(args.n).iter_rows(named=True):
        print(
            f"{r['rank']:4d}  {r['letters']}  {r['center']:^6}  {r['points']:6d}  {r['words']:5d}  {r['pangrams']:8d}"
        )
    return 0


def cmd_build_masks(args) -> int:
    """Write masks.parquet and masks.json for the pipeline."""
    build_masks_file(args.words, args.out, TableRules.from_json(args.settings))
    return 0


def cmd_build_puzzles(args) -> int:
    """Write puzzles.parquet and puzzles.json for the pipeline."""
    build_puzzles_file(args.masks, args.out, BeeRules.from_json(args.settings))
    return 0
