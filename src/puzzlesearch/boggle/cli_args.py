"""Boggle's own flags and settings helpers, shared by the play and the proof commands.

The two modes (pipeline `--settings` versus interactive config.yaml, `--set`, flags), the
exit codes and the shared flags are puzzlesearch.cli_common's; this module adds what is
Boggle's: `--points`, `--rows/--cols`, the pipeline inputs `--words` / `--dawg`, the
settings of one job (shape, mode) and the Scorer of either mode.
"""

from __future__ import annotations

from pathlib import Path

from puzzlesearch import cli_common
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.cli_common import add_lexicon_flag, add_set_flag, add_settings_flag, lexicon_name
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon import open_lexicon

TOP_PRINTED = 5  # rows of a table printed to stdout


def lexicon_flags(p) -> None:
    """`--lexicon` and `--points` (interactive)."""
    add_lexicon_flag(p)
    p.add_argument(
        "--points",
        help="points by word length, comma-separated, the last for longer "
        "words (default: boggle.points, 0,0,0,1,1,2,3,5,11)",
    )


def shape_flags(p) -> None:
    """`--rows` and `--cols` of a board given as text."""
    p.add_argument("--rows", type=int, help="board rows (inferred for square boards)")
    p.add_argument("--cols", type=int, help="board columns (inferred for square boards)")


def step_flags(p) -> None:
    """Flags of a pipeline step: interactive ones, and the pipeline's settings and inputs."""
    lexicon_flags(p)
    add_set_flag(p, help="override a boggle setting of this step (interactive), e.g. --set max_boards=50000")
    add_settings_flag(p)
    p.add_argument("--words", dest="words_path", help="(pipeline, with --settings) the lexicon's words.parquet")
    p.add_argument("--dawg", help="(pipeline, with --settings) the lexicon's boggle_dawg.npz")


# ---------------------------------------------------------------- settings and scorer


def parse_points(text: str) -> list[int]:
    """`--points 0,0,0,1,...` -> a list of integers (an error names the flag)."""
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise PuzzleError(f"--points {text!r}: expected comma-separated integers") from None


def pipeline_mode(args, step_flags: dict | None = None) -> bool:
    """Pipeline mode (--settings, with --words, --dawg and --out) or interactive; refuse flags of the other mode.

    `step_flags` (flag -> value, None = not given) are the step's own setting flags, refused
    with --settings like --lexicon, --points, --set and --config.
    """
    return cli_common.pipeline_mode(
        args,
        {"--words": args.words_path, "--dawg": args.dawg, "--out": getattr(args, "out", None)},
        {
            "--lexicon": args.lexicon,
            "--points": args.points,
            "--set": args.set,
            "--config": args.config,
            **(step_flags or {}),
        },
        pipeline_only=("--words", "--dawg"),
    )


def interactive_settings(args, cls, shape, mode: str, flags: dict):
    """Settings of one job from config.yaml's boggle section, then --set, then --points and the flags; and the config."""
    if args.points:
        flags = {("--points", "points"): parse_points(args.points), **flags}
    return cli_common.interactive_settings(args, "boggle", lambda section: cls.for_job(section, shape, mode), flags)


def scorer_for(args, settings, config=None, root=None):
    """(lexicon name, Scorer): pipeline files, or the store's lexicon (built on first use)."""
    if args.settings is not None:
        return Path(args.words_path).parent.name, Scorer.from_files(args.words_path, args.dawg, settings.points)
    lex = open_lexicon(lexicon_name(args, config), config, root, alphabet="latin")
    return lex.name, Scorer.for_lexicon(lex, settings.points)
