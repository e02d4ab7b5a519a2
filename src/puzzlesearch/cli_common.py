"""What every puzzle's command line shares: the two modes, the exit codes, the common flags.

A command that runs a pipeline step works in one of two modes:

- pipeline (`--settings JSON`, what the Snakemake rules run): the step's settings object
  as JSON plus explicit input and output paths; config.yaml is never read, nothing is
  built, and a flag that would change a setting is refused. `pipeline_mode` checks the
  flags and says which mode a command line is in.
- interactive (no `--settings`): the settings of config.yaml's section (the project's
  config.yaml found upward from the working folder, or `--config FILE`), then the
  `--set KEY=VALUE` overrides, then the command's own flags; `interactive_settings` applies
  them in that order. Inputs come from the artifact store (built there on first use), the
  lexicon from `--lexicon` or config key default_lexicon (`lexicon_name`).

Exit codes: 0 done; EXIT_ERROR for a user mistake, printed as one line without a
traceback; EXIT_INTERRUPTED after Ctrl-C, keeping only what is complete.

A package CLI adds the shared flags with `add_lexicon_flag`, `add_set_flag` and
`add_settings_flag`, then in a command:

    if pipeline_mode(args, {"--words": args.words, "--out": args.out}, {"--set": args.set}):
        settings = StepSettings.from_json(args.settings)
    else:
        settings, config, root = interactive_settings(args, "bee", StepSettings.from_config)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from puzzlesearch.config import load_config
from puzzlesearch.errors import ConfigError, PuzzleError

EXIT_ERROR = 2  # a user mistake (bad input, config, file or usage): one line on stderr
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT): what is complete is kept, the rest is not written

LEXICON_HELP = "a lexicon name from config.yaml or a word-list path (default: config key default_lexicon)"
SET_HELP = "override a setting for this run (repeatable)"
SETTINGS_HELP = "(pipeline) the step's settings as JSON; config.yaml is not read"


def add_lexicon_flag(p: argparse.ArgumentParser, help: str = LEXICON_HELP) -> None:
    """Add `--lexicon NAME_OR_PATH` (interactive: the lexicon to open from the store)."""
    p.add_argument("--lexicon", help=help)


def add_set_flag(p: argparse.ArgumentParser, help: str = SET_HELP) -> None:
    """Add the repeatable `--set KEY=VALUE` (interactive: overrides of config.yaml's section)."""
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=help)


def add_settings_flag(p: argparse.ArgumentParser, help: str = SETTINGS_HELP, required: bool = False) -> None:
    """Add `--settings JSON` (pipeline: the step's settings object)."""
    p.add_argument("--settings", required=required, help=help)


EXPECT_HELP = (
    "(pipeline) JSON object of values the input's manifest must record (the settings it was built with); "
    "an input built otherwise is refused"
)


def add_expect_flag(p: argparse.ArgumentParser, help: str = EXPECT_HELP) -> None:
    """Add `--expect JSON` (pipeline: what the consumed input must have been built with)."""
    p.add_argument("--expect", help=help)


def expect_of(args: argparse.Namespace) -> dict:
    """The `--expect` JSON as a dict ({} when not given); one line naming the flag when it is not an object."""
    import json

    text = getattr(args, "expect", None)
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise PuzzleError(f"--expect: not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise PuzzleError("--expect: a JSON object of the values the input must record")
    return value


def given(value: Any) -> bool:
    """True when a flag was given: not None, False, an empty list or an empty string (0 counts)."""
    return value is not None and value is not False and value != [] and value != ""


def pipeline_mode(
    args: argparse.Namespace,
    paths: dict[str, Any],
    interactive: dict[str, Any],
    pipeline_only: tuple[str, ...] = (),
) -> bool:
    """True with --settings (then every flag of `paths` is required and no `interactive` flag may be given).

    Without --settings: False, and the flags named in `pipeline_only` (keys of `paths`)
    are refused. Dicts map a flag as typed (`--words`) to its value in `args`.
    """
    if args.settings is None:
        for flag in pipeline_only:
            if given(paths[flag]):
                raise PuzzleError(f"{flag} is a pipeline flag: only with --settings (interactive: see --help)")
        return False
    for flag, value in interactive.items():
        if given(value):
            raise PuzzleError(f"{flag} cannot be combined with --settings (the settings JSON holds every value)")
    missing = [flag for flag, value in paths.items() if not given(value)]
    if missing:
        raise PuzzleError(f"--settings (pipeline mode) needs {', '.join(missing)}")
    return True


def with_flags(settings, flags: dict[tuple[str, str], Any]):
    """Settings with flag values applied one by one ((flag, key) -> value; None = not given); an error names the flag."""
    for (flag, key), value in flags.items():
        if value is None:
            continue
        try:
            settings = settings.replace(**{key: value})
        except ConfigError as exc:
            raise ConfigError(f"{flag} {value}: {exc}".replace("config key ", "")) from None
    return settings


def interactive_settings(
    args: argparse.Namespace,
    section: str,
    make: Callable[[dict], Any],
    flags: dict[tuple[str, str], Any] | None = None,
) -> tuple[Any, dict, Path | None]:
    """(settings, config, project root): `make(config[section])`, then args.set, then the flags."""
    config, root = load_config(args.config)
    settings = make(config[section]).with_sets(args.set)
    return with_flags(settings, flags or {}), config, root


def out_file(path: str | Path, flag: str = "--out") -> Path:
    """An output file path as given; refused when empty, an existing folder or ending in a slash (a folder meant)."""
    text = str(path)
    if not text.strip():
        raise PuzzleError(f"{flag} '': give a file path")
    if text.endswith(("/", "\\")) or Path(text).is_dir():
        raise PuzzleError(f"{flag} {text}: a folder; give a file path (e.g. {text.rstrip('/')}/out.parquet)")
    return Path(text)


def lexicon_name(args: argparse.Namespace, config: dict) -> str:
    """The lexicon of an interactive command: --lexicon, else config key default_lexicon."""
    return args.lexicon or config["default_lexicon"]
