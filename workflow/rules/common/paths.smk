# Paths and quoting: q(), rel(), fail(), the `puzzlesearch` shell prefix, library files as rule inputs, cache keys.
# Included by workflow/rules/common.smk; only functions and values, no rules.
from puzzlesearch import kinds as puzzlesearch_kinds


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
# Every shell command starts with this prefix: bash strict mode (Snakemake's own default
# prefix) and a shell function `puzzlesearch` running PS, so rules call `puzzlesearch ...`
# as a user would and no shell command uses a variable from outside its rule. Braces are
# doubled because Snakemake formats the prefix once.
SHELL_PREFIX = f'set -euo pipefail; puzzlesearch() {{ {PS} "$@"; }}; '
shell.prefix(SHELL_PREFIX.replace("{", "{{").replace("}", "}}"))


wildcard_constraints:
    name=r"[A-Za-z0-9_-]+",
    lexicon=r"[A-Za-z0-9_-]+",


def kind_files(*kinds):
    """The library files that shape these artifact kinds (declared in src/puzzlesearch/kinds.py), as
    relative paths: a rule's `code=` input, so editing one reruns exactly the rules it shapes."""
    return [str(p) for p in puzzlesearch_kinds.source_files(*kinds, root=SRC / "puzzlesearch")]


def cache_key(wildcards):
    """A cached rule's wildcards, given as a param (`params: wildcards=cache_key`).

    Snakemake's output-cache hash covers the unformatted shell command, the params and
    the input contents, not the wildcards: without this, jobs of one rule with the same
    inputs (dawg / boggle_dawg, prune_th1 / prune_th2) would share one cache entry.
    """
    return dict(wildcards.items())
