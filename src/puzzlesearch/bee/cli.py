"""`puzzlesearch bee ...`: show one puzzle, rank all puzzles, a schedule, build the pipeline tables.

Interactive commands (`show`, `top`, `schedule` without --settings) take the rules from config.yaml's `bee:` section with
`--set KEY=VALUE` overrides, and the lexicon from the artifact store. Pipeline commands
(`build-masks`, `build-puzzles`, `build-wordlist`, `schedule --settings`) take `--settings
JSON` and explicit paths, and never read config.yaml (the two modes: puzzlesearch.cli_common).
"""

from __future__ import annotations

import argparse
import dataclasses

from puzzlesearch.bee.acceptance import SCOWL_DIR, default_facts
from puzzlesearch.bee.io import (
    build_masks_file,
    build_puzzles_file,
    build_schedule_file,
    build_wordlist_file,
    open_wordlist,
)
from puzzlesearch.bee.model import parse_puzzle
from puzzlesearch.bee.schedule import make_schedule
from puzzlesearch.bee.search import puzzle_words, rank_puzzles
from puzzlesearch.bee.settings import BeeRules, ScheduleRules, TableRules, WordListRules
from puzzlesearch.bee.tables import build_table
from puzzlesearch.cli_common import (
    add_lexicon_flag,
    add_set_flag,
    add_settings_flag,
    interactive_settings,
    lexicon_name,
    pipeline_mode,
)
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon import open_lexicon
from puzzlesearch.progress import log


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bee` command group."""
    parser = sub.add_parser("bee", help="Spelling Bee: score and rank honeycomb puzzles")
    cmds = parser.add_subparsers(dest="bee_command", metavar="ACTION", required=True)

    p = cmds.add_parser("show", help="the words of one puzzle, pangrams marked, and its total")
    p.add_argument("letters", help="the puzzle's letters, e.g. AEGINRT")
    p.add_argument("--center", required=True, help="the center letter, one of LETTERS")
    p.add_argument(
        "--all-words",
        action="store_true",
        help="every word of the lexicon that fits (default: the Bee word list, the words a daily Bee accepts)",
    )
    _common(p)
    p.set_defaults(func=cmd_show)

    p = cmds.add_parser("top", help="the best puzzles under the configured rules")
    p.add_argument("-n", type=int, default=10, help="how many puzzles (default 10)")
    _common(p)
    p.set_defaults(func=cmd_top)

    p = cmds.add_parser("schedule", help="N distinct puzzles people would play, one a day (deterministic for a seed)")
    p.add_argument("--days", type=int, help="puzzles in the schedule (config key bee.schedule_days)")
    p.add_argument("--seed", type=int, help="seed of the draw (config key bee.schedule_seed)")
    p.add_argument(
        "--difficulty",
        metavar="LOW,HIGH",
        help="only puzzles of this difficulty 0-100, e.g. 0,40 (config keys bee.schedule_min/max_difficulty)",
    )
    _common(p, ScheduleRules)
    add_settings_flag(p, "(pipeline) the schedule rules as JSON (ScheduleRules keys); with --wordlist, --out, --pages")
    p.add_argument("--wordlist", help="(pipeline) wordlist.parquet (wordlist.json beside it)")
    p.add_argument("--words", help="(pipeline) the lexicon's words.parquet the word list must have been built from")
    p.add_argument("--out", help="(pipeline) schedule.parquet to write (schedule.json beside it)")
    p.add_argument(
        "--pages", help="(pipeline) folder of the pages to write: new, empty, or pages written before (replaced)"
    )
    p.set_defaults(func=cmd_schedule)

    p = cmds.add_parser("build-wordlist", help="(pipeline) words.parquet -> wordlist.parquet + wordlist.json")
    add_settings_flag(p, "the word-list rules as JSON (WordListRules keys)", required=True)
    p.add_argument("--words", required=True, help="a lexicon's words.parquet (words.json beside it)")
    p.add_argument("--out", required=True, help="wordlist.parquet to write (wordlist.json beside it)")
    p.add_argument(
        "--params",
        help="acceptance parameters (default: the shipped bee/data/acceptance.json, or acceptance-without-scowl.json without SCOWL)",
    )
    p.set_defaults(func=cmd_build_wordlist)

    p = cmds.add_parser(
        "fit-wordlist",
        help="fit the word list's acceptance model on published puzzles, cross-validated by year (about 3 min)",
    )
    p.add_argument("--answers", required=True, help="published puzzles: date<TAB>letters<TAB>center<TAB>answers lines")
    p.add_argument(
        "--out", required=True, help="parameter file to write (ships as src/puzzlesearch/bee/data/acceptance.json)"
    )
    p.add_argument(
        "--without-scowl",
        action="store_true",
        help="fit without Debian's SCOWL (ships as src/puzzlesearch/bee/data/acceptance-without-scowl.json)",
    )
    p.set_defaults(func=cmd_fit_wordlist)

    p = cmds.add_parser("build-masks", help="(pipeline) words.parquet -> masks.parquet + masks.json")
    add_settings_flag(p, "the mask-table rules as JSON (TableRules keys)", required=True)
    p.add_argument("--words", required=True, help="a lexicon's words.parquet (words.json beside it)")
    p.add_argument("--out", required=True, help="masks.parquet to write (masks.json beside it)")
    p.set_defaults(func=cmd_build_masks)

    p = cmds.add_parser("build-puzzles", help="(pipeline) masks.parquet -> puzzles.parquet + puzzles.json")
    add_settings_flag(p, "every bee rule as JSON (BeeRules keys)", required=True)
    p.add_argument("--masks", required=True, help="masks.parquet (masks.json beside it)")
    p.add_argument("--words", required=True, help="the lexicon's words.parquet the masks must have been built from")
    p.add_argument("--out", required=True, help="puzzles.parquet to write (puzzles.json beside it)")
    p.set_defaults(func=cmd_build_puzzles)


def _common(p: argparse.ArgumentParser, settings=BeeRules) -> None:
    """The interactive flags: --lexicon and --set."""
    add_lexicon_flag(p)
    add_set_flag(p, f"override a bee rule for this run ({', '.join(settings.keys())})")


def _lexicon(args, config, root):
    """The lexicon of --lexicon or default_lexicon, from the artifact store."""
    return open_lexicon(lexicon_name(args, config), config, root, alphabet="latin")


def cmd_show(args) -> int:
    """Print the words of one puzzle (pangrams marked with *) and the totals."""
    rules, config, root = interactive_settings(args, "bee", BeeRules.from_config)
    puzzle = parse_puzzle(args.letters, args.center, rules)
    lex = _lexicon(args, config, root)
    if args.all_words:
        words = puzzle_words(lex.words, puzzle, rules)
        print(f"{puzzle} ({lex.name}, every word)")
    else:
        list_rules = WordListRules.from_config(config["bee"]).replace(min_length=rules.min_length)
        words = puzzle_words(open_wordlist(lex, list_rules), puzzle, rules)
        print(f"{puzzle} ({lex.name}, the Bee word list)")
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
    rules, config, root = interactive_settings(args, "bee", BeeRules.from_config)
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
    build_puzzles_file(args.masks, args.out, BeeRules.from_json(args.settings), args.words)
    return 0


def cmd_schedule(args) -> int:
    """Print a schedule (interactive) or write schedule.parquet and the pages (pipeline)."""
    paths = {"--wordlist": args.wordlist, "--words": args.words, "--out": args.out, "--pages": args.pages}
    flags = {
        "--set": args.set,
        "--lexicon": args.lexicon,
        "--days": args.days,
        "--seed": args.seed,
        "--difficulty": args.difficulty,
    }
    if pipeline_mode(args, paths, flags, pipeline_only=tuple(paths)):
        build_schedule_file(args.wordlist, args.out, args.pages, ScheduleRules.from_json(args.settings), args.words)
        return 0
    low, high = _difficulty_window(args.difficulty)
    rules, config, root = interactive_settings(
        args,
        "bee",
        ScheduleRules.from_config,
        {
            ("--days", "schedule_days"): args.days,
            ("--seed", "schedule_seed"): args.seed,
            ("--difficulty", "schedule_min_difficulty"): low,
            ("--difficulty", "schedule_max_difficulty"): high,
        },
    )
    lex = _lexicon(args, config, root)
    list_rules = WordListRules.from_config(config["bee"]).replace(min_length=rules.min_length)
    wordlist = open_wordlist(lex, list_rules)  # built once into the artifact store
    puzzles, pool = make_schedule(wordlist, rules)
    print(
        f"{lex.name}: {wordlist.height} words in the Bee list; {len(puzzles)} puzzles of {pool} (seed {rules.schedule_seed})"
    )
    print(f"{'day':>4}  letters  center  words  points  pangrams  difficulty  genius")
    genius = next((i for i, r in enumerate(rules.rank_list()) if r.name == "Genius"), -2)
    for p in puzzles:
        print(
            f"{p.day:4d}  {p.letters}  {p.puzzle.center.upper():^6}  {p.hints.words:5d}  {p.points:6d}  "
            f"{p.hints.pangrams:8d}  {p.difficulty:10.1f}  {p.thresholds[genius]:6d}"
        )
    return 0


def _difficulty_window(text: str | None) -> tuple[float | None, float | None]:
    """(low, high) of `--difficulty LOW,HIGH`, or (None, None) without the flag."""
    if text is None:
        return None, None
    parts = text.split(",")
    try:
        low, high = (float(x) for x in parts) if len(parts) == 2 else (None, None)
    except ValueError:
        low = high = None
    if low is None or high is None or not (0 <= low <= high <= 100):
        raise PuzzleError(f"--difficulty {text!r}: give LOW,HIGH with 0 <= LOW <= HIGH <= 100, e.g. 0,40")
    return low, high


def cmd_build_wordlist(args) -> int:
    """Write wordlist.parquet and wordlist.json for the pipeline."""
    build_wordlist_file(args.words, args.out, WordListRules.from_json(args.settings), args.params)
    return 0


def cmd_fit_wordlist(args) -> int:
    """Fit the acceptance model on published answers and write its parameter file."""
    from puzzlesearch.bee.fitting import fit, read_published
    from puzzlesearch.io import write_text

    puzzles = read_published(args.answers)  # a bad file fails before the sources load
    log("bee", f"fitting the Bee acceptance model on {args.answers}: 11 fits, cross-validated by year (about 3 min)")
    facts = default_facts()
    if args.without_scowl:
        facts = dataclasses.replace(facts, scowl=None)
    elif facts.scowl is None:
        raise PuzzleError(f"{SCOWL_DIR} is absent: install Debian's scowl, or fit the fallback with --without-scowl")
    model = fit(args.answers, facts, puzzles)
    write_text(model.to_json(), args.out)
    print(f"{'test year':>9}  threshold  recall  precision  within 25%  median  p10  p90")
    for r in model.info["cross_validation"]:
        print(
            f"{r['test_year']:>9}  {r['threshold']:9.2f}  {r['recall']:6.3f}  {r['precision']:9.3f}  "
            f"{r['within_25pct']:10.3f}  {r['median']:6.0f}  {r['p10']:3.0f}  {r['p90']:3.0f}"
        )
    print(f"{args.out}: {len(model.features)} features, threshold {model.threshold:.2f}")
    return 0
