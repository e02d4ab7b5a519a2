"""The `puzzlesearch` console command.

Each puzzle package registers its own sub-command from `puzzlesearch.<name>.cli`
(a `register(subparsers)` function that sets `func` on its parsers).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from puzzlesearch import __version__
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import setup_logging

# Sub-command packages, in --help order. A package without a cli module is skipped.
COMMAND_PACKAGES = ("lexicon", "boggle", "bee", "crossword", "cube")


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line (sub-commands inherit it)."""

    def error(self, message: str):
        command = self.prog.removeprefix("puzzlesearch").strip()
        where = f"{command}: " if command else ""
        self.exit(2, f"puzzlesearch: error: {where}{message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available sub-command."""
    parser = OneLineParser(prog="puzzlesearch", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"puzzlesearch {__version__}")
    parser.add_argument("--config", help="config file (default: config.yaml of this project)")
    parser.add_argument("-v", "--verbose", action="store_true", help="more log lines")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_PACKAGES:
        try:
            module = importlib.import_module(f"puzzlesearch.{name}.cli")
        except ModuleNotFoundError as exc:
            if exc.name in (f"puzzlesearch.{name}", f"puzzlesearch.{name}.cli"):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; user mistakes print one line and exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    setup_logging(args.verbose)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except PuzzleError as exc:
        print(f"puzzlesearch: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # unreadable or unwritable files: the user's to fix
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"puzzlesearch: error:{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("puzzlesearch: interrupted", file=sys.stderr)
        return 130
