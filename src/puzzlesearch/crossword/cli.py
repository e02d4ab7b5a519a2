"""`puzzlesearch crossword ...`: generate grids, fill patterns, build tables, gather tables.

Two modes (the same for generate and fill):
- interactive (no --settings): settings from the project's config.yaml section plus the
  flags and `--set KEY=VALUE`; tables from the artifact store (built on first use);
  files under --out, by default <cli output root>/crossword/... (never the pipeline's
  results/crossword/).
- pipeline (--settings JSON, from a rule): explicit --tables input and explicit output
  paths; config.yaml is not read and nothing else is built. A search that hits its time
  cap fails with one line naming the config key (its result would depend on machine load).
The modes, exit codes and shared flags are puzzlesearch.cli_common's. Each command imports
the crossword modules it runs when it runs: registering the commands loads no numba or polars.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from puzzlesearch.cli_common import (
    add_lexicon_flag,
    add_set_flag,
    add_settings_flag,
    interactive_settings,
    pipeline_mode,
)
from puzzlesearch.crossword.settings import FillSettings, GenerateSettings, TableSettings
from puzzlesearch.errors import PuzzleError
from puzzlesearch.settings import section_schema

LANGS = ("en", "ar", "num")
GENERATE_OUT = ("crossword",)  # under store.cli_output_root(), then {lang}/{size}
FILL_OUT = ("crossword", "fill")
PATTERN_BLACK, PATTERN_MAX_WORD = 0.16, 9
PATTERN_SIZE = 15
GENERATE_FLAGS = ("strategy", "time_budget", "max_pops", "max_down", "max_across", "min_frequency")  # -> settings keys
FILL_FLAGS = ("time_budget", "max_nodes", "min_frequency")
PIPELINE_PATHS = ("--tables", "--ipuz", "--html", "--summary")  # what a pipeline job names explicitly
LEXICON_HELP = (
    "word list (config name or file) instead of the language's; a file of word;score lines (English) "
    "replaces the list and its scores"
)
THEMELESS = "themeless"
STYLES = ("standard", THEMELESS)
GENERATE_CLUED_ONLY = True  # generated puzzles use clued entries only (fill may place unclued ones and lists them)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `crossword` command group."""
    parser = sub.add_parser("crossword", help="crosswords: progressive-search generation, pattern fill")
    cmds = parser.add_subparsers(dest="crossword_command", metavar="ACTION", required=True)
    _register_generate(cmds)
    _register_fill(cmds)

    p = cmds.add_parser("pattern", help="print a random symmetric American-style pattern")
    p.add_argument("--size", type=int, default=PATTERN_SIZE, help="grid side (the bounds of crossword.sizes)")
    p.add_argument("--black", type=float, default=PATTERN_BLACK, help="fraction of black cells")
    p.add_argument("--max-word", type=int, default=PATTERN_MAX_WORD)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="write the pattern to this file")
    p.set_defaults(func=cmd_pattern)

    p = cmds.add_parser("build-tables", help="(pipeline) crossword tables of a lexicon's words.parquet, or numeric")
    p.add_argument("--settings", required=True, help="TableSettings JSON (max_factor of --numeric)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--words", help="words.parquet of the lexicon (words.json beside it)")
    src.add_argument("--numeric", action="store_true", help="the numeric pseudo-lexicon (products x*y)")
    p.add_argument(
        "--constructors",
        help="constructors.parquet (build-list) merged into an English lexicon's tables, with its scores",
    )
    p.add_argument("--out", required=True, help="tables.npz to write (its manifest tables.json goes beside it)")
    p.set_defaults(func=cmd_build_tables)

    p = cmds.add_parser("build-list", help="(pipeline) the Spread the Wordlist, read through blacksquare, as Parquet")
    p.add_argument("--out", required=True, help="constructors.parquet to write (manifest constructors.json beside it)")
    p.set_defaults(func=cmd_build_list)

    p = cmds.add_parser("gather", help="(pipeline) rank per-seed puzzle summaries into puzzles.parquet")
    p.add_argument("--summaries", nargs="+", required=True, help="per-seed .json summaries")
    p.add_argument("--out", required=True, help="puzzles.parquet to write (manifest puzzles.json beside it)")
    p.set_defaults(func=cmd_gather)

    p = cmds.add_parser("puz", help="convert a crossword .ipuz to Across Lite .puz (not Arabic: Latin-1 only)")
    p.add_argument("--ipuz", required=True, help=".ipuz file to read")
    p.add_argument("--out", required=True, help=".puz file to write")
    p.set_defaults(func=cmd_puz)


def _pipeline_args(p: argparse.ArgumentParser) -> None:
    """The pipeline mode's flags: settings JSON, tables input, explicit outputs."""
    add_settings_flag(p, "(pipeline) settings JSON; needs --tables, --ipuz, --html, --summary")
    p.add_argument("--tables", help="(pipeline) tables.npz (tables.json beside it)")
    p.add_argument("--ipuz", help="(pipeline) .ipuz file to write")
    p.add_argument("--html", help="(pipeline) .html file to write")
    p.add_argument("--summary", help="(pipeline) .json summary to write")


def _register_generate(cmds) -> None:
    p = cmds.add_parser("generate", help="generate grids (prints them, writes .ipuz/.html)")
    p.add_argument("--lang", choices=LANGS, default="en")
    p.add_argument("--size", type=int, help="grid size (default: first of crossword.sizes)")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--seeds", type=int, default=1, help="number of seeds (puzzles)")
    p.add_argument("--strategy", choices=("pattern", "fill1", "fill2"))
    p.add_argument(
        "--style",
        choices=STYLES,
        help="themeless: 180-degree symmetric patterns of at most crossword.themeless.max_entries entries "
        "(a themeless 15x15: --size 15)",
    )
    p.add_argument("--max-pops", type=int, help="pops per puzzle (the work budget; crossword.max_pops)")
    p.add_argument("--time-budget", type=float, help="seconds per puzzle (safety cap; crossword.time_budget)")
    p.add_argument("--max-down", type=int, help="longest vertical word")
    p.add_argument("--max-across", type=int, help="longest horizontal word")
    p.add_argument("--min-frequency", type=int, help="frequency floor of the word list")
    add_lexicon_flag(p, LEXICON_HELP)
    add_set_flag(p, "any generation setting")
    p.add_argument(
        "--out",
        help="folder for puzzles.parquet and the puzzle files (default: <project>/results/cli/crossword/{lang}/{size})",
    )
    p.add_argument("--quiet", action="store_true", help="do not print the grids and paths")
    _pipeline_args(p)
    p.set_defaults(func=cmd_generate)


def _register_fill(cmds) -> None:
    p = cmds.add_parser("fill", help="fill a fixed pattern ('#' black, '.' empty, letters given)")
    p.add_argument("--pattern", required=True, help="pattern file")
    p.add_argument("--lang", choices=("en", "ar"), default="en")
    add_lexicon_flag(p, LEXICON_HELP)
    p.add_argument("--min-frequency", type=int, help="frequency floor (crossword.fill.min_frequency)")
    p.add_argument("--max-nodes", type=int, help="node budget (crossword.fill.max_nodes)")
    p.add_argument("--time-budget", type=float, help="seconds, a safety cap (crossword.fill.time_budget)")
    add_set_flag(p, "any fill setting")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--theme",
        action="append",
        default=[],
        metavar="ROW,COL,DIR,WORD",
        help="a word kept fixed (repeatable): its first cell (row and column from 1, in reading order), "
        "A(cross) or D(own); it fills a whole slot and must be in the word list",
    )
    p.add_argument(
        "--out", help="write {out}/{pattern name}.ipuz/.html/.json (default: <project>/results/cli/crossword/fill)"
    )
    _pipeline_args(p)
    p.set_defaults(func=cmd_fill)


# ---------------------------------------------------------------- helpers


def _report(paths: list[Path], quiet: bool = False) -> None:
    """Print the paths written (one per line), unless quiet."""
    if not quiet:
        for path in paths:
            print(f"# wrote {path}")


def _check_budget(flag: str, value: float | None) -> None:
    """--time-budget / --max-pops / --max-nodes must be positive numbers when given."""
    if value is not None and not value > 0:
        raise PuzzleError(f"{flag} {value:g}: must be greater than 0")


def size_bounds() -> tuple[int, int]:
    """The grid-size bounds of the schema (crossword.sizes items)."""
    items = section_schema("crossword")["properties"]["sizes"]["items"]
    return int(items["minimum"]), int(items["maximum"])


def _check_size(size: int | None) -> None:
    """--size within the schema's bounds."""
    lo, hi = size_bounds()
    if size is not None and not lo <= size <= hi:
        raise PuzzleError(f"--size {size}: expected a grid size from {lo} to {hi} (the bounds of crossword.sizes)")


def _pipeline_mode(args, interactive_flags: tuple[str, ...]) -> bool:
    """True with --settings (then --tables and the outputs are required, the interactive flags refused)."""
    paths = {flag: getattr(args, flag[2:]) for flag in PIPELINE_PATHS}
    interactive = {"--" + flag: getattr(args, flag.replace("-", "_")) for flag in interactive_flags}
    return pipeline_mode(args, paths, interactive, pipeline_only=PIPELINE_PATHS)


def _pipeline_tables(args, settings, clued_only: bool = False):
    """The tables of --tables (verified) with the settings' floors, and the Language of --lang over them."""
    from puzzlesearch.crossword.tables import language_of, load_tables

    tables = load_tables(args.tables, settings.min_frequency, None, settings.min_score, settings.min_entry, clued_only)
    return tables, language_of(args.lang, tables)


# ---------------------------------------------------------------- generate


def _generate_settings(args):
    """Interactive generation settings (the config section, then --set, then the flags), the config and root."""
    _check_size(args.size)
    for flag in ("time_budget",):  # --max-pops 0 is the schema's "no limit" (bounds checked there)
        _check_budget("--" + flag.replace("_", "-"), getattr(args, flag))
    if args.min_frequency is not None and args.min_frequency < 0:
        raise PuzzleError(f"--min-frequency {args.min_frequency}: must be >= 0")

    def make(section: dict) -> GenerateSettings:
        size = args.size if args.size is not None else section["sizes"][0]
        settings = GenerateSettings.for_job(section, args.lang, size)
        return settings.themeless(section) if args.style == THEMELESS else settings

    flags = {(f"--{key.replace('_', '-')}", key): getattr(args, key) for key in GENERATE_FLAGS}
    settings, config, root = interactive_settings(args, "crossword", make, flags)
    return settings.clipped(), config, root


def _log_generated(g) -> None:
    from puzzlesearch.progress import log

    n = g.settings.size
    log(
        "crossword",
        f"{g.language.code} {n}x{n} seed {g.seed}: cost {g.cost:g} "
        f"({g.unknown_words} unknown, {g.scrambled_words} scrambled of {g.down_words} down words), "
        f"{g.black_cells} black, {g.pops} pops, {g.seconds:.2f}s, stopped by {g.stopped_by}",
    )


def _warm_up_fill(strategy: str = "pattern") -> None:
    """Start compiling the fill's search loop beside the word tables' loading (fill.warm_up_fill),
    when the fixed-pattern fill is what this command runs."""
    from puzzlesearch.crossword.fill import warm_up_fill
    from puzzlesearch.crossword.search import PATTERN

    if strategy == PATTERN:
        warm_up_fill()


def cmd_generate(args) -> int:
    """Generate puzzles: one seed from --settings/--tables (pipeline), or consecutive seeds (interactive)."""
    if args.settings is not None and args.seeds != 1:
        raise PuzzleError("--seeds: a pipeline job (--settings) makes one puzzle, the one of --seed")
    if _pipeline_mode(
        args,
        (
            "size",
            "strategy",
            "max-pops",
            "time-budget",
            "max-down",
            "max-across",
            "min-frequency",
            "style",
            "lexicon",
            "set",
            "out",
        ),
    ):
        return _generate_pipeline(args)
    from puzzlesearch import store
    from puzzlesearch.crossword import search
    from puzzlesearch.crossword.io import puzzle_stem, show, write_generated_with_clues, write_ranked
    from puzzlesearch.crossword.tables import open_language

    settings, config, root = _generate_settings(args)
    if args.seeds < 1:
        raise PuzzleError(f"--seeds {args.seeds}: must be at least 1")
    _warm_up_fill(settings.strategy)
    tables, language = open_language(
        args.lang,
        config,
        root,
        settings.min_frequency,
        args.lexicon,
        settings.min_score,
        settings.min_entry,
        clued_only=GENERATE_CLUED_ONLY,
    )
    out = Path(args.out) if args.out else store.cli_output_root().joinpath(*GENERATE_OUT, args.lang, str(settings.size))
    rows = []
    for seed in range(args.seed, args.seed + args.seeds):
        g = search.generate(tables, language, settings, seed)
        _log_generated(g)
        if not args.quiet:
            print(
                f"# {args.lang} {settings.size}x{settings.size} seed {seed} cost {g.cost:g} "
                f"({g.pops} pops, stopped by {g.stopped_by})"
            )
            print(show(g.grid, language))
        search.require_valid(g)  # cost > 0: one line naming the budget, nothing written for this seed
        stem = out / puzzle_stem(g)
        written, row = write_generated_with_clues(
            g, tables, f"{stem}.ipuz", f"{stem}.html", puz_path=f"{stem}.puz", low_score=settings.low_score
        )
        _report(written, args.quiet)
        rows.append(row)
    _report(write_ranked(rows, out / "puzzles.parquet")[:1], args.quiet)
    return 0


def _generate_pipeline(args) -> int:
    """One puzzle from --settings and --tables into --ipuz/--html/--summary; fails at the time cap."""
    from puzzlesearch.crossword import search
    from puzzlesearch.crossword.io import write_generated_with_clues
    from puzzlesearch.crossword.search import STOP_TIME

    settings = GenerateSettings.from_json(args.settings)
    _warm_up_fill(settings.strategy)
    tables, language = _pipeline_tables(args, settings, GENERATE_CLUED_ONLY)
    g = search.generate(tables, language, settings, args.seed)
    _log_generated(g)
    if g.stopped_by == STOP_TIME:
        raise PuzzleError(
            f"crossword {args.lang} {settings.size}x{settings.size} seed {args.seed}: stopped at the "
            f"time cap crossword.time_budget={settings.time_budget:g}s after {g.pops} of "
            f"crossword.max_pops={settings.max_pops} pops (the result would depend on machine "
            "load); raise crossword.time_budget or lower crossword.max_pops"
        )
    search.require_valid(g)
    write_generated_with_clues(
        g, tables, args.ipuz, args.html, args.summary, getattr(args, "puz", None), settings.low_score
    )
    return 0


def cmd_puz(args) -> int:
    """Write the .puz of an .ipuz (one-line error for Arabic: .puz is Latin-1, left to right)."""
    from puzzlesearch.crossword.puzfile import ipuz_to_puz

    ipuz_to_puz(args.ipuz, args.out)
    return 0


def cmd_gather(args) -> int:
    """puzzles.parquet (ranked) from verified per-seed summaries."""
    from puzzlesearch.crossword.io import read_rows, write_ranked

    write_ranked(read_rows(args.summaries), args.out)
    return 0


# ---------------------------------------------------------------- fill


def _fill_settings(args):
    """Interactive fill settings (config `crossword.fill`, then --set, then the flags), the config and root."""
    _check_budget("--time-budget", args.time_budget)
    _check_budget("--max-nodes", args.max_nodes)
    if args.min_frequency is not None and args.min_frequency < 0:
        raise PuzzleError(f"--min-frequency {args.min_frequency}: must be >= 0")
    flags = {(f"--{key.replace('_', '-')}", key): getattr(args, key) for key in FILL_FLAGS}
    return interactive_settings(args, "crossword", lambda section: FillSettings.from_config(section["fill"]), flags)


def _print_fill(result, language) -> None:
    from puzzlesearch.crossword.io import show

    print(show(result.grid, language))
    print(
        f"# filled {len(result.words)} slots in {result.seconds:.2f}s ({result.nodes} nodes, "
        f"{result.restarts} restarts); quality {result.quality:.2f} (mean log10 frequency), "
        f"rarest word frequency {result.min_frequency}; entry {result.entry_kind} mean {result.mean_entry:.1f}, "
        f"lowest {result.min_entry:.0f}"
    )


def cmd_fill(args) -> int:
    """Fill a pattern file; print the grid and write .ipuz/.html/.json."""
    from puzzlesearch.crossword import fill as fillmod
    from puzzlesearch.crossword.io import read_pattern, write_filled
    from puzzlesearch.crossword.model import ThemeEntry, place_theme, slot_word

    _warm_up_fill()
    if _pipeline_mode(args, ("lexicon", "min-frequency", "max-nodes", "time-budget", "set", "out", "theme")):
        settings = FillSettings.from_json(args.settings)
        tables, language = _pipeline_tables(args, settings)
        pattern = read_pattern(args.pattern, tables.alphabet)
        result = fillmod.fill(pattern, tables, settings, args.seed)
        write_filled(
            result,
            language,
            args.ipuz,
            args.html,
            args.summary,
            settings,
            clue=tables.clue,
            enumeration=tables.enumeration,
        )
        return 0
    from puzzlesearch import store
    from puzzlesearch.crossword.io import pattern_text
    from puzzlesearch.crossword.tables import open_language

    settings, config, root = _fill_settings(args)
    themes = [ThemeEntry.parse(text) for text in args.theme]
    pattern_text(args.pattern)  # an unreadable pattern is refused before the word tables are built
    tables, language = open_language(
        args.lang, config, root, settings.min_frequency, args.lexicon, settings.min_score, settings.min_entry
    )
    pattern = place_theme(read_pattern(args.pattern, tables.alphabet), themes, tables.alphabet)
    for theme in themes:
        if not tables.contains(theme.word):
            raise PuzzleError(
                f"--theme {theme.text!r}: {theme.word!r} is not in the {args.lang} word list at the floors "
                f"(crossword.fill.min_score {settings.min_score}, min_frequency {settings.min_frequency})"
            )
    result = fillmod.fill(pattern, tables, settings, args.seed)
    for theme in themes:  # the fill keeps given letters; checked before anything is written
        if slot_word(result.grid, theme.slot(), tables.alphabet) != theme.word:
            raise PuzzleError(f"--theme {theme.text!r}: the fill did not keep the word (a bug; nothing written)")
    _print_fill(result, language)
    clued = sum(1 for w in result.words if tables.clue(w))
    print(f"# {clued} of {len(result.words)} entries clued")
    unclued = [w.upper() for w in result.words if not tables.clue(w)]
    if unclued:
        print(f"# without a clue (write one): {', '.join(unclued)}")
    out = Path(args.out) if args.out else store.cli_output_root().joinpath(*FILL_OUT)
    stem = out / Path(args.pattern).stem
    _report(
        write_filled(
            result,
            language,
            f"{stem}.ipuz",
            f"{stem}.html",
            f"{stem}.json",
            settings,
            f"{stem}.puz",
            tables.clue,
            tables.enumeration,
        )
    )
    return 0


# ---------------------------------------------------------------- pattern, tables


def cmd_pattern(args) -> int:
    """Print (or write) a random symmetric pattern."""
    from puzzlesearch.crossword.fill import american_pattern, pattern_text
    from puzzlesearch.io import write_text

    _check_size(args.size)
    text = pattern_text(american_pattern(args.size, args.black, args.seed, max_word=args.max_word))
    if args.out:
        write_text(text, args.out)
    else:
        print(text, end="")
    return 0


def cmd_build_tables(args) -> int:
    """Write tables.npz and its manifest tables.json (pipeline: explicit paths, --settings)."""
    from puzzlesearch.crossword.tables import build_tables

    settings = TableSettings.from_json(args.settings)
    if args.words is not None and not Path(args.words).is_file():
        raise PuzzleError(f"--words {args.words}: no such file (build the lexicon first)")
    listed = None
    if args.constructors:  # '' (the pipeline's value when the list is off): none
        from puzzlesearch.crossword.tables import constructors_file_list

        if args.numeric:
            raise PuzzleError("--constructors: the numeric tables take no word list")
        listed = constructors_file_list(args.constructors)
    build_tables(args.out, None if args.numeric else args.words, settings, listed)
    return 0


def cmd_build_list(args) -> int:
    """Write constructors.parquet and constructors.json (pipeline: an explicit path)."""
    from puzzlesearch.lexicon import constructors

    out = Path(args.out)
    if out.name != constructors.LIST_FILE:
        raise PuzzleError(f"--out {out}: name the file {constructors.LIST_FILE} (its manifest goes beside it)")
    constructors.build(out.parent)
    return 0
