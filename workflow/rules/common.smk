# Helpers shared by every stage. Stages append their default outputs to DEFAULT_TARGETS.
#
# Quoting: every value that reaches a shell command is quoted, either with Snakemake's
# `:q` format ({input.words:q}, {params.settings:q}, {wildcards.seed:q}) or through q().
import os
import shlex
import sys
from pathlib import Path

from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.artifacts import specs_from_config
from puzzlesearch.lexicon.sources import is_builtin, source_file


def q(*values):
    """Shell-quote values (shlex.quote) and join them with spaces."""
    return " ".join(shlex.quote(str(v)) for v in values)


def rel(path):
    """`path` relative to the working folder when it lies inside it (a moved checkout reruns nothing)."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def fail(message):
    """Stop the workflow with one line (a user mistake in the config), no traceback."""
    sys.exit(f"puzzlesearch: error: {message}")


# The console command: the Python running Snakemake, with this checkout's src/ first on the
# path, so the code Snakemake tracks as rule input is the code that runs.
SRC = Path(rel(Path(workflow.basedir) / "src"))
PS = f"PYTHONPATH={q(SRC)}${{PYTHONPATH:+:$PYTHONPATH}} {q(sys.executable)} -m puzzlesearch"
DEFAULT_TARGETS = []


wildcard_constraints:
    name=r"[A-Za-z0-9_-]+",
    lexicon=r"[A-Za-z0-9_-]+",


def lib_files(*names):
    """Library files (or whole sub-packages), relative paths: edits rebuild the outputs."""
    out = [str(SRC / "puzzlesearch" / f) for f in ("io.py", "errors.py", "settings.py", "manifest.py")]
    for name in names:
        path = SRC / "puzzlesearch" / name
        out += sorted(str(p) for p in path.rglob("*.py")) if path.is_dir() else [str(path)]
    return out


try:
    LEXICONS = specs_from_config(config)
except PuzzleError as _error:
    fail(_error)


def cache_key(wildcards):
    """A cached rule's wildcards, given as a param (`params: wildcards=cache_key`).

    Snakemake's output-cache hash covers the unformatted shell command, the params and
    the input contents, not the wildcards: without this, jobs of one rule with the same
    inputs (dawg / boggle_dawg, prune_th1 / prune_th2) would share one cache entry.
    """
    return dict(wildcards.items())


def lexicon_spec(name, key="lexicons"):
    """The LexiconSpec of a configured lexicon (`key` names the config key that asks for it)."""
    if name not in LEXICONS:
        fail(f"config key {key}: lexicon {name!r} is not in `lexicons:` ({', '.join(sorted(LEXICONS))})")
    return LEXICONS[name]


def lexicon_source(wildcards):
    """The word-list file behind a lexicon (the packaged file for builtins), relative when inside the project."""
    return rel(source_file(lexicon_spec(wildcards.name).source))


def latin_lexicons():
    """Names of configured lexicons over a-z (these get DAWGs and Boggle/Bee stages)."""
    return [n for n, s in LEXICONS.items() if s.alphabet == "latin"]


def checked_lexicons(names, key, alphabet="latin"):
    """Configured lexicon names of one alphabet; a one-line error names the config key otherwise."""
    for name in names:
        if lexicon_spec(name, key).alphabet != alphabet:
            fail(f"config key {key}: {name!r} is not a {alphabet} lexicon")
    return list(names)


def lexicon_words(lexicon):
    """Path of a lexicon's word table (input for later stages)."""
    return f"results/lexicon/{lexicon}/words.parquet"


def lexicon_dawg(lexicon, kind="dawg"):
    """Path of a lexicon's DAWG ('dawg' or 'boggle_dawg')."""
    return f"results/lexicon/{lexicon}/{kind}.npz"
