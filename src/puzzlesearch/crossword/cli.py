"""`puzzlesearch crossword ...`: generate grids, fill patterns, build tables."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from puzzlesearch.errors import PuzzleError

LANGS = ("en", "ar", "num")
# Default --out folders (under the project root), apart from the pipeline's results/crossword/{lang}/{size}
# and results/crossword/fill so that a one-off command never overwrites Snakemake's outputs.
GENERATE_OUT = "results/crossword/cli/{lang}/{size}"
FILL_OUT = "results/crossword/cli/fill"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `crossword` command group."""
    parser = sub.add_parser("crossword", help="crosswords: progressive-search generation, pattern fill")
    cmds = parser.add_subparsers(dest="crossword_command", metavar="ACTION", required=True)

    p = cmds.add_parser("generate", help="generate grids (prints them, writes .ipuz/.html)")
    p.add_argument("--lang", choices=LANGS, default="en")
    p.add_argument("--size", type=int, help="grid size (default: first of crossword.sizes)")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--seeds", type=int, default=1, help="number of seeds (puzzles)")
    p.add_argument("--strategy", choices=("fill1", "fill2"))
    p.add_argument("--time-budget", type=float, help="seconds per puzzle")
    p.add_argument("--max-down", type=int, help="longest vertical word")
    p.add_argument("--max-across", type=int, help="longest horizontal word")
    p.add_argument("--min-frequency", type=int, help="frequency floor of the word list")
    p.add_argument("--lexicon", help="word list (config name or file) instead of the language's")
    p.add_argument("--out", help=f"folder for puzzles.parquet and the puzzle files (default: {GENERATE_OUT})")
    p.add_argument("--quiet", action="store_true", help="do not print the grids and paths")
    p.set_defaults(func=cmd_generate)

    p = cmds.add_parser("fill", help="fill a fixed pattern ('#' black, '.' empty, letters given)")
    p.add_argument("--pattern", required=True, help="pattern file")
    p.add_argument("--lang", choices=("en", "ar"), default="en")
    p.add_argument("--lexicon", help="word list (config name or file) instead of the language's")
    p.add_argument("--min-frequency", type=int, help="frequency floor (default crossword.fill.min_frequency)")
    p.add_argument("--time-budget", type=float, help="seconds (default crossword.fill.time_budget)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help=f"write {{out}}/{{pattern name}}.ipuz/.html/.json (default: {FILL_OUT})")
    p.set_defaults(func=cmd_fill)

    p = cmds.add_parser("pattern", help="print a random symmetric American-style pattern")
    p.add_argument("--size", type=int, default=15, help="grid side (at least 3)")
    p.add_argument("--black", type=float, default=0.16, help="fraction of black cells")
    p.add_argument("--max-word", type=int, default=9)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="write the pattern to this file")
    p.set_defaults(func=cmd_pattern)

    p = cmds.add_parser("build-tables", help="(pipeline) crossword tables of a lexicon")
    p.add_argument("--lexicon", required=True, help="lexicon name, or 'numeric'")
    p.add_argument("--words", help="words.parquet of the lexicon")
    p.add_argument("--alphabet", default="latin")
    p.add_argument("--max-factor", type=int, default=99)
    p.add_argument("--out", required=True, help="output folder")
    p.set_defaults(func=cmd_build_tables)


def _config(args):
    from puzzlesearch.config import load_config

    return load_config(args.config)


def _out_dir(given: str | None, default: str, root: Path) -> Path:
    """--out as given (relative to the working folder), else the default under the project root."""
    return Path(given) if given else Path(root) / default


def _time_budget(value: float | None, default: float) -> float:
    """--time-budget, or the config's when not given; PuzzleError unless > 0."""
    if value is None:
        return float(default)
    if not value > 0:
        raise PuzzleError(f"--time-budget {value:g}: must be greater than 0 seconds")
    return value


def _report(paths: list[Path], quiet: bool = False) -> None:
    """Print the paths written (one per line), unless quiet."""
    if not quiet:
        for path in paths:
            print(f"# wrote {path}")


def cmd_generate(args) -> int:
    """Generate puzzles for consecutive seeds; print them and write files under --out (or the default)."""
    from puzzlesearch.crossword import search
    from puzzlesearch.crossword.io import puzzles_frame, show, write_generated
    from puzzlesearch.io import write_parquet
    from puzzlesearch.progress import log

    config, root = _config(args)
    section = config["crossword"]
    settings = search.settings_from_config(section, args.size if args.size is not None else section["sizes"][0])
    overrides = {"strategy": args.strategy, "time_budget": _time_budget(args.time_budget, settings.time_budget),
                 "max_down": args.max_down, "max_across": args.max_across}
    settings = replace(settings, **{k: v for k, v in overrides.items() if v is not None})
    settings.check()
    if args.seeds < 1:
        raise PuzzleError(f"--seeds must be at least 1 (got {args.seeds})")
    out = _out_dir(args.out, GENERATE_OUT.format(lang=args.lang, size=settings.size), root)
    tables, language = search.open_language(args.lang, config, root, args.min_frequency, args.lexicon)
    results = []
    for seed in range(args.seed, args.seed + args.seeds):
        g = search.generate(tables, language, settings, seed)
        log("crossword", f"{args.lang} {settings.size}x{settings.size} seed {seed}: cost {g.cost:g} "
            f"({g.unknown_words} unknown, {g.scrambled_words} scrambled of {g.down_words} down words), "
            f"{g.black_cells} black, {g.pops} pops, {g.seconds:.2f}s")
        if not args.quiet:
            print(f"# {args.lang} {settings.size}x{settings.size} seed {seed} cost {g.cost:g}")
            print(show(g.grid, language))
        results.append(g)
        _report(write_generated(g, out, section), args.quiet)
    write_parquet(puzzles_frame(results, section), out / "puzzles.parquet")
    _report([out / "puzzles.parquet"], args.quiet)
    return 0


def cmd_fill(args) -> int:
    """Fill a pattern file; print the grid and write files under --out (or the default)."""
    from puzzlesearch.crossword import fill as fillmod
    from puzzlesearch.crossword import search
    from puzzlesearch.crossword.io import read_pattern, show, write_filled

    config, root = _config(args)
    section = config["crossword"]
    fsec = section["fill"]
    floor = fsec["min_frequency"] if args.min_frequency is None else args.min_frequency
    budget = _time_budget(args.time_budget, fsec["time_budget"])
    tables, language = search.open_language(args.lang, config, root, floor, args.lexicon)
    pattern = read_pattern(args.pattern, tables.alphabet)
    settings = fillmod.FillSettings(time_budget=budget,
                                    first_nodes=fsec["first_nodes"], noise=fsec["noise"],
                                    freq_weight=fsec["freq_weight"], seed=args.seed)
    result = fillmod.fill(pattern, tables, settings)
    print(show(result.grid, language))
    print(f"# filled {len(result.words)} slots in {result.seconds:.2f}s ({result.nodes} nodes, "
          f"{result.restarts} restarts); quality {result.quality:.2f} (mean log10 frequency), "
          f"rarest word frequency {result.min_frequency}")
    out = _out_dir(args.out, FILL_OUT, root)
    _report(write_filled(result, language, out / Path(args.pattern).stem, floor))
    return 0


def cmd_pattern(args) -> int:
    """Print (or write) a random symmetric pattern."""
    from puzzlesearch.crossword.fill import american_pattern, pattern_text
    from puzzlesearch.io import write_text

    text = pattern_text(american_pattern(args.size, args.black, args.seed, max_word=args.max_word))
    if args.out:
        write_text(text, args.out)
    else:
        print(text, end="")
    return 0


def cmd_build_tables(args) -> int:
    """Write tables.npz/.json for a lexicon."""
    from puzzlesearch.crossword.tables import build_tables

    build_tables(args.lexicon, args.out, args.words, args.alphabet, args.max_factor)
    return 0
