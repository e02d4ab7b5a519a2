"""`puzzlesearch lexicon ...`: build and inspect lexicon artifacts.

`info` and `lookup` open a lexicon of the project's config.yaml (or a word-list path) from
the artifact store; `build-words` and `build-dawg` are pipeline steps with explicit paths
(the two modes: puzzlesearch.cli_common).
"""

from __future__ import annotations

import argparse
import json

from puzzlesearch.cli_common import add_settings_flag
from puzzlesearch.config import load_config
from puzzlesearch.lexicon.artifacts import DAWG_KINDS, build_dawg_file, build_words, lexicon_info, open_lexicon
from puzzlesearch.lexicon.model import LexiconOptions, LexiconSpec


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `lexicon` command group."""
    parser = sub.add_parser("lexicon", help="word lists: build, inspect, look up")
    cmds = parser.add_subparsers(dest="lexicon_command", metavar="ACTION", required=True)

    p = cmds.add_parser("info", help="counts, drop reasons and DAWG size of a lexicon")
    p.add_argument("lexicon", help="a name from config.yaml or a path to a word-list file")
    p.set_defaults(func=cmd_info)

    p = cmds.add_parser("lookup", help="is each WORD in the lexicon, and its rank")
    p.add_argument("lexicon")
    p.add_argument("words", nargs="+", metavar="WORD")
    p.set_defaults(func=cmd_lookup)

    p = cmds.add_parser("build-words", help="(pipeline) normalize a word list into words.parquet + words.json")
    add_settings_flag(p, "normalization settings as JSON (config `lexicon:` keys)", required=True)
    p.add_argument("--name", required=True, help="the lexicon's name (for the log and the manifest)")
    p.add_argument("--label", help="the source as configured (e.g. builtin:en; default: --source)")
    p.add_argument("--source", required=True, help="the word-list file")
    p.add_argument("--out", required=True, help="words.parquet to write (words.json beside it)")
    p.set_defaults(func=cmd_build_words)

    p = cmds.add_parser("build-dawg", help="(pipeline) build a DAWG .npz (and its .json manifest) from words.parquet")
    p.add_argument("--words", required=True)
    p.add_argument("--kind", choices=DAWG_KINDS, default="dawg")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_build_dawg)


def _open(args):
    """The lexicon named by the command line, from the artifact store (built on first use)."""
    config, root = load_config(args.config)
    return open_lexicon(args.lexicon, config, root)


def cmd_info(args) -> int:
    """Print a lexicon's statistics as JSON."""
    print(json.dumps(lexicon_info(_open(args)), indent=2, sort_keys=True))
    return 0


def cmd_lookup(args) -> int:
    """Print 'word rank' or 'word -' (not a word) per argument; exit 1 if any is missing."""
    lex = _open(args)
    dawg = lex.dawg
    missing = 0
    for word in args.words:
        rank = dawg.index(word.lower())
        missing += rank < 0
        print(f"{word}\t{rank if rank >= 0 else '-'}")
    return 1 if missing else 0


def cmd_build_words(args) -> int:
    """Write words.parquet and its manifest for one source."""
    spec = LexiconSpec(args.name, args.label or args.source, LexiconOptions.from_json(args.settings))
    build_words(spec, args.source, args.out)
    return 0


def cmd_build_dawg(args) -> int:
    """Write a DAWG .npz and its .json manifest."""
    build_dawg_file(args.words, args.out, args.kind)
    return 0
