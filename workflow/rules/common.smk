# Helpers shared by every stage. Stages append their default outputs to DEFAULT_TARGETS.
import sys
from pathlib import Path

from puzzlesearch.config import write_effective_config
from puzzlesearch.lexicon.artifacts import specs_from_config
from puzzlesearch.lexicon.sources import is_builtin, source_file

# The console command, run with the same Python as Snakemake (no venv activation needed),
# reading the workflow's effective config (config.yaml plus any --config / --configfile).
EFFECTIVE_CONFIG = write_effective_config(config, workflow.basedir)
PS = f'"{sys.executable}" -m puzzlesearch --config {EFFECTIVE_CONFIG.name}'
SRC = Path(workflow.basedir) / "src" / "puzzlesearch"
DEFAULT_TARGETS = []

wildcard_constraints:
    name=r"[A-Za-z0-9_-]+",
    lexicon=r"[A-Za-z0-9_-]+",


def lib_files(*names):
    """Library files (or whole sub-packages) an output depends on: edits rebuild it."""
    out = [str(SRC / "io.py"), str(SRC / "errors.py")]
    for name in names:
        path = SRC / name
        out += sorted(str(p) for p in path.rglob("*.py")) if path.is_dir() else [str(path)]
    return out


LEXICONS = specs_from_config(config)


def cache_key(wildcards):
    """A cached rule's wildcards, given as a param (`params: wildcards=cache_key`).

    Snakemake's output-cache hash covers the unformatted shell command, the params and
    the input contents, not the wildcards: without this, jobs of one rule with the same
    inputs (dawg / boggle_dawg, prune_th1 / prune_th2) would share one cache entry.
    """
    return dict(wildcards.items())


def lexicon_spec(name):
    """The LexiconSpec of a configured lexicon."""
    try:
        return LEXICONS[name]
    except KeyError:
        raise ValueError(f"lexicon {name!r} is not in config.yaml lexicons: {sorted(LEXICONS)}")


def lexicon_source(wildcards):
    """The word-list file behind a lexicon (the packaged file for builtins)."""
    return str(source_file(lexicon_spec(wildcards.name).source))


def latin_lexicons():
    """Names of configured lexicons over a-z (these get DAWGs and Boggle/Bee stages)."""
    return [n for n, s in LEXICONS.items() if s.alphabet == "latin"]


def lexicon_words(lexicon):
    """Path of a lexicon's word table (input for later stages)."""
    return f"results/lexicon/{lexicon}/words.parquet"


def lexicon_dawg(lexicon, kind="dawg"):
    """Path of a lexicon's DAWG ('dawg' or 'boggle_dawg')."""
    return f"results/lexicon/{lexicon}/{kind}.npz"
