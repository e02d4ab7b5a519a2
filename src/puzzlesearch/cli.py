"""The `puzzlesearch` console command.

Each puzzle package registers its own sub-command from `puzzlesearch.<name>.cli`
(a `register(subparsers)` function that sets `func` on its parsers).
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import sys

import yaml

from puzzlesearch import __version__
from puzzlesearch.cli_common import EXIT_ERROR, EXIT_INTERRUPTED
from puzzlesearch.config import FALLBACK_LEXICONS, load_config
from puzzlesearch.errors import PuzzleError
from puzzlesearch.progress import setup_logging
from puzzlesearch.settings import validate_config

# Sub-command packages, in --help order. A package without a cli module is skipped.
COMMAND_PACKAGES = ("lexicon", "boggle", "bee", "crossword", "cube", "report")
GLOBAL_VALUE_FLAGS = ("--config",)  # top-level flags that take a value
INT64_MAX = 2**63 - 1  # integer flags beyond it would overflow a table column or a kernel
NON_EMPTY = (
    "out",
    "summary",
    "lexicon",
    "points",
    "config",
    "settings",
    "words_path",
    "dawg",
    "tables",
    "ipuz",
    "html",
)
NON_NEGATIVE = ("seed",)  # a negative seed is no seed (numpy refuses it deep in a search)
FILE_OUTPUTS = ("out", "summary", "ipuz", "html")  # a value ending in '/' is a folder, refused ...
FOLDER_HELP = ("folder", "{out}/")  # ... unless the flag's help says it takes a folder


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line (sub-commands inherit it)."""

    def error(self, message: str):
        command = self.prog.removeprefix("puzzlesearch").strip()
        where = f"{command}: " if command else ""
        self.exit(EXIT_ERROR, f"puzzlesearch: error: {where}{message} (see {self.prog} --help)\n")


def requested_packages(argv: list[str]) -> tuple[str, ...]:
    """The command packages a command line needs: its command's alone, or all of them (help, typos)."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in GLOBAL_VALUE_FLAGS:
            i += 2
            continue
        if arg.startswith("-"):
            i += 1
            continue
        if arg == "config":  # built in: needs no package
            return ()
        return (arg,) if arg in COMMAND_PACKAGES else COMMAND_PACKAGES
    return COMMAND_PACKAGES


def build_parser(packages: tuple[str, ...] = COMMAND_PACKAGES) -> argparse.ArgumentParser:
    """The argument parser with the sub-commands of `packages` (start-up imports only those)."""
    parser = OneLineParser(prog="puzzlesearch", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"puzzlesearch {__version__}")
    parser.add_argument("--config", help="config file (default: config.yaml of this project)")
    parser.add_argument("-v", "--verbose", action="store_true", help="more log lines")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("config", help="print the effective config (config.yaml with the schema defaults) as YAML")
    p.add_argument(
        "--defaults",
        action="store_true",
        help="print only the schema defaults, with the built-in lexicons (no config.yaml is read)",
    )
    p.set_defaults(func=cmd_config)
    for name in packages:
        try:
            module = importlib.import_module(f"puzzlesearch.{name}.cli")
        except ModuleNotFoundError as exc:
            if exc.name in (f"puzzlesearch.{name}", f"puzzlesearch.{name}.cli"):
                continue
            raise
        module.register(sub)
    return parser


def _actions(parser: argparse.ArgumentParser, args: argparse.Namespace):
    """The actions of a parser and of the sub-command parsers `args` chose (the command run)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                yield from _actions(chosen, args)
        else:
            yield action


def check_flag_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """PuzzleError for values no command can use: integers beyond int64, a negative seed, empty paths, a folder for a file output."""
    actions = {a.dest: a for a in _actions(parser, args) if a.option_strings}
    for dest, value in vars(args).items():
        action = actions.get(dest)
        if action is None:
            continue
        flag = max(action.option_strings, key=len)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, int) and not isinstance(item, bool) and abs(item) > INT64_MAX:
                raise PuzzleError(f"{flag} {item}: too large (at most {INT64_MAX})")
            if dest in NON_NEGATIVE and isinstance(item, int) and item < 0:
                raise PuzzleError(f"{flag} {item}: must be 0 or more")
            if dest in NON_EMPTY and isinstance(item, str) and not item.strip():
                raise PuzzleError(f"{flag} {item!r}: empty; give a value (or leave the flag out)")
            if dest in FILE_OUTPUTS and isinstance(item, str) and item.endswith("/"):
                if not any(word in (action.help or "") for word in FOLDER_HELP):
                    raise PuzzleError(f"{flag} {item}: a folder; give a file path")


def cmd_config(args) -> int:
    """Print the effective config, or the schema defaults, as YAML."""
    if args.defaults:  # `lexicons` has no schema default: the built-in lists used outside a project
        config = validate_config({"lexicons": dict(FALLBACK_LEXICONS)}, "schema defaults")
    else:
        config, _root = load_config(args.config)
    print(yaml.safe_dump(config, sort_keys=False, allow_unicode=True, default_flow_style=None), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; user mistakes print one line and exit EXIT_ERROR (2)."""
    if argv is None:  # the program itself (not a test calling main): at exit, the interpreter's last garbage
        atexit.register(gc.freeze)  # collection would walk every object numba made (~0.4 CPU s); the OS frees them
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(requested_packages(argv))
    args = parser.parse_args(argv)
    setup_logging(args.verbose)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_ERROR
    try:
        check_flag_values(parser, args)
        return int(args.func(args) or 0)
    except PuzzleError as exc:
        print(f"puzzlesearch: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return 0
    except MemoryError as exc:  # a command that names no setting for it: still one line
        detail = (str(exc).strip().splitlines() or ["no detail"])[0]
        print(
            f"puzzlesearch: error: out of memory ({detail}); lower the sizes this command's settings ask for "
            "(see its --help) or free memory",
            file=sys.stderr,
        )
        return EXIT_ERROR
    except OSError as exc:  # unreadable or unwritable files: the user's to fix
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"puzzlesearch: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("puzzlesearch: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
