"""Flags and settings shared by the boggle commands (play and proofs): lexicon flags, modes.

Two modes for a step:
- pipeline (`--settings JSON`): the step's settings object plus explicit inputs and `--out`;
- interactive: config.yaml's boggle section, then `--set KEY=VALUE`, then the flags.
"""

from __future__ import annotations

from pathlib import Path

from puzzlesearch.boggle.score import Scorer
from puzzlesearch.config import load_config
from puzzlesearch.errors import ConfigError, PuzzleError
from puzzlesearch.lexicon import open_lexicon

EXIT_INTERRUPTED = 130  # Ctrl-C: what was found is written (interactive), not complete
TOP_PRINTED = 5  # rows of a table printed to stdout


def lexicon_flags(p) -> None:
    p.add_argument("--lexicon", help="a name from config.yaml or a word-list path (default: default_lexicon)")
    p.add_argument(
        "--points",
        help="points by word length, comma-separated, the last for longer "
        "words (default: boggle.points, 0,0,0,1,1,2,3,5,11)",
    )


def shape_flags(p) -> None:
    p.add_argument("--rows", type=int, help="board rows (inferred for square boards)")
    p.add_argument("--cols", type=int, help="board columns (inferred for square boards)")


def step_flags(p) -> None:
    """Flags of a pipeline step: interactive ones, and the pipeline's settings and inputs."""
    lexicon_flags(p)
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a boggle setting of this step (interactive), e.g. --set max_boards=50000",
    )
    p.add_argument("--settings", help="(pipeline) the step's settings as JSON; config.yaml is not read")
    p.add_argument("--words", dest="words_path", help="(pipeline, with --settings) the lexicon's words.parquet")
    p.add_argument("--dawg", help="(pipeline, with --settings) the lexicon's boggle_dawg.npz")


# ---------------------------------------------------------------- settings and scorer


def parse_points(text: str) -> list[int]:
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise PuzzleError(f"--points {text!r}: expected comma-separated integers") from None


def with_flags(settings, flags: dict):
    """Apply flag values (None = not given) one by one; an error names the flag."""
    for (flag, key), value in flags.items():
        if value is None:
            continue
        try:
            settings = settings.replace(**{key: value})
        except ConfigError as exc:
            raise ConfigError(f"{flag} {value}: {exc}".replace("config key ", "")) from None
    return settings


def pipeline_mode(args) -> bool:
    """Pipeline mode (--settings) or interactive; refuse flags of the other mode."""
    if args.settings is None:
        for flag, value in (("--words", args.words_path), ("--dawg", args.dawg)):
            if value is not None:
                raise PuzzleError(f"{flag}: a pipeline input, only with --settings (interactive: --lexicon)")
        return False
    for flag, value in (
        ("--lexicon", args.lexicon),
        ("--points", args.points),
        ("--set", args.set or None),
        ("--config", args.config),
    ):
        if value is not None:
            raise PuzzleError(f"{flag}: not with --settings (the pipeline passes every setting in the JSON)")
    for flag, value in (("--words", args.words_path), ("--dawg", args.dawg), ("--out", getattr(args, "out", ""))):
        if not value:
            raise PuzzleError(f"{flag}: required with --settings (explicit input and output paths)")
    return True


def interactive_settings(args, cls, shape, mode: str, flags: dict):
    """Settings from config.yaml's boggle section, then --set, then the flags; and the config."""
    config, root = load_config(args.config)
    settings = cls.for_job(config["boggle"], shape, mode).with_sets(args.set)
    if args.points:
        flags = {("--points", "points"): parse_points(args.points), **flags}
    return with_flags(settings, flags), config, root


def scorer_for(args, settings, config=None, root=None):
    """(lexicon name, Scorer): pipeline files, or the store's lexicon (built on first use)."""
    if args.settings is not None:
        return Path(args.words_path).parent.name, Scorer.from_files(args.words_path, args.dawg, settings.points)
    lex = open_lexicon(args.lexicon or config["default_lexicon"], config, root, alphabet="latin")
    return lex.name, Scorer.for_lexicon(lex, settings.points)
