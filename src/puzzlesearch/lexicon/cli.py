"""`puzzlesearch lexicon ...`: build and inspect lexicon artifacts."""

from __future__ import annotations

import argparse
import json

from puzzlesearch.lexicon.artifacts import DAWG_KINDS, build_dawg_file, build_words, open_lexicon
from puzzlesearch.lexicon.model import CASE_POLICIES, ALPHABETS, LexiconSpec


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

    p = cmds.add_parser("build-words", help="(pipeline) normalize a source into words.parquet")
    p.add_argument("--name", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--alphabet", choices=sorted(ALPHABETS), default="latin")
    p.add_argument("--case", choices=CASE_POLICIES, default="auto")
    p.add_argument("--min-length", type=int, default=2)
    p.add_argument("--out-dir", required=True)
    p.set_defaults(func=cmd_build_words)

    p = cmds.add_parser("build-dawg", help="(pipeline) build a DAWG .npz from words.parquet")
    p.add_argument("words")
    p.add_argument("--kind", choices=DAWG_KINDS, default="dawg")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_build_dawg)


def _open(args):
    from puzzlesearch.config import load_config

    config, root = load_config(args.config)
    return open_lexicon(args.lexicon, config, root)


def cmd_info(args) -> int:
    """Print a lexicon's statistics as JSON."""
    lex = _open(args)
    info = {"name": lex.name, "source": lex.spec.source, "dir": str(lex.dir), **lex.stats}
    if lex.spec.alphabet == "latin":
        for kind in DAWG_KINDS:
            d = getattr(lex, kind)
            info[kind] = {"nodes": d.n_nodes, "edges": d.n_edges, "words": d.n_words, "bytes": d.nbytes}
    print(json.dumps(info, indent=2, sort_keys=True))
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
    """Write words.parquet and stats.json for one source."""
    spec = LexiconSpec(args.name, args.source, args.alphabet, args.case, args.min_length)
    build_words(spec, args.out_dir)
    return 0


def cmd_build_dawg(args) -> int:
    """Write a DAWG .npz and its .json metadata."""
    build_dawg_file(args.words, args.out, args.kind)
    return 0
