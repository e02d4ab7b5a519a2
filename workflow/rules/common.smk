# The workflow's Python: helpers shared by every stage, then per stage its settings, input
# functions and `<stage>_targets()` (the default outputs), collected by `default_targets()`.
# The stage files (lexicon.smk, boggle.smk, ...) hold only rules: Snakemake's linter wants
# functions out of rule files.
#
# Quoting: every value that reaches a shell command is quoted, either with Snakemake's
# `:q` format ({input.words:q}, {params.settings:q}, {wildcards.seed:q}) or through q().
#
# Resources: the rules declare threads (1: the numba kernels are single-threaded) and
# `resources:` mem_mb / runtime (minutes), sized from measured peak memory and wall time
# of the default config with headroom; searches with a time cap get runtime from the cap
# (cap_minutes), so a cluster never kills a job the pipeline would let finish.
import math
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
# Every shell command starts with this prefix: bash strict mode (Snakemake's own default
# prefix) and a shell function `puzzlesearch` running PS, so rules call `puzzlesearch ...`
# as a user would and no shell command uses a variable from outside its rule. Braces are
# doubled because Snakemake formats the prefix once.
SHELL_PREFIX = f'set -euo pipefail; puzzlesearch() {{ {PS} "$@"; }}; '
shell.prefix(SHELL_PREFIX.replace("{", "{{").replace("}", "}}"))

# Resources (see the header). Measured peak RSS of every job, default config and the
# 173k-word ENABLE list alike: 125-320 MB (interpreter, polars, numba, one lexicon's
# tables); wall time 1-8 s for builds and gathers, 20-55 s per Boggle search.
MEM_MB = 1000  # every job: 3x the largest measured peak
STARTUP_MINUTES = 5  # a job's fixed cost (imports, numba cache, tables), with headroom
SECONDS_PER_MINUTE = 60


def cap_minutes(seconds, count=1):
    """Cluster runtime (minutes) of a job of `count` steps, each bounded by a safety cap of `seconds`."""
    return STARTUP_MINUTES + math.ceil(count * seconds / SECONDS_PER_MINUTE)


wildcard_constraints:
    name=r"[A-Za-z0-9_-]+",
    lexicon=r"[A-Za-z0-9_-]+",


def lib_files(*names):
    """Library files (or whole sub-packages), relative paths: edits rebuild the outputs."""
    out = [str(SRC / "puzzlesearch" / f) for f in ("io.py", "errors.py", "settings.py", "manifest.py", "bits.py")]
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


# ---------------------------------------------------------------- lexicon (lexicon.smk)


def lexicon_targets():
    """The lexicon stage's default outputs: every word table, both DAWGs of each latin lexicon."""
    return [
        *expand("results/lexicon/{name}/words.parquet", name=list(LEXICONS)),
        *expand("results/lexicon/{name}/{kind}.npz", name=latin_lexicons(), kind=["dawg", "boggle_dawg"]),
    ]


# ---------------------------------------------------------------- Boggle (boggle.smk)
# Each rule passes its step's settings object (puzzlesearch.boggle.settings) as
# `--settings JSON`, with the job's own dice set resolved here: a 4x4 job does not rerun
# when the 5x5 dice set changes, a search job not when a scan key changes.
from puzzlesearch.boggle.settings import RankSettings, ScanSettings, SearchSettings

BOGGLE = config["boggle"]
BOGGLE_CODE = lib_files("boggle", "lexicon/dawg.py", "lexicon/artifacts.py")


def boggle_step(cls, shape, mode):
    """The settings JSON of one job; a config mistake (e.g. no dice set) is one line."""
    try:
        return cls.for_job(BOGGLE, shape, mode).to_json()
    except PuzzleError as error:
        fail(error)


def boggle_seeds(wildcards):
    """The seed tables a ranking merges."""
    return expand(
        "results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet",
        lexicon=wildcards.lexicon,
        shape=wildcards.shape,
        mode=wildcards.mode,
        seed=range(BOGGLE["seeds"]),
    )


def boggle_inputs(wildcards):
    """The lexicon files every boggle step reads."""
    return {"words": lexicon_words(wildcards.lexicon), "dawg": lexicon_dawg(wildcards.lexicon, "boggle_dawg")}


BOGGLE_LEXICONS = checked_lexicons(BOGGLE["lexicons"], "boggle.lexicons")
for _shape in BOGGLE["shapes"]:  # the configured jobs' settings, checked before anything runs
    for _mode in BOGGLE["modes"]:
        boggle_step(SearchSettings, _shape, _mode)


def boggle_targets():
    """The Boggle stage's default outputs: each ranking, and its scan when scans are on."""
    tables = ["best.parquet", "scan.json"] if BOGGLE["scan"]["boards"] > 0 else ["best.parquet"]
    return expand(
        "results/boggle/{lexicon}/{shape}/{mode}/{table}",
        lexicon=BOGGLE_LEXICONS,
        shape=BOGGLE["shapes"],
        mode=BOGGLE["modes"],
        table=tables,
    )


# ---------------------------------------------------------------- Spelling Bee (bee.smk)
# bee_masks gets TableRules (only the keys the mask table depends on), bee_puzzles gets
# BeeRules (every bee key but `lexicons`), each as `--settings JSON`; so changing a
# puzzle-only key (limits, score_by, require_pangram) reruns bee_puzzles only.
# bee_wordlist gets WordListRules, bee_schedule ScheduleRules (the schedule and its pages).
from puzzlesearch.bee.model import BeeRules, ScheduleRules, WordListRules

try:
    BEE_RULES = BeeRules.from_config(config["bee"])
    BEE_WORDLIST_RULES = WordListRules.from_config(config["bee"])
    BEE_SCHEDULE_RULES = ScheduleRules.from_config(config["bee"])
except PuzzleError as _error:  # e.g. max_words below min_words: one line naming the key
    fail(_error)
BEE_LEXICONS = checked_lexicons(config["bee"]["lexicons"] or latin_lexicons(), "bee.lexicons")
BEE_WORDLIST_DATA = [
    str(SRC / "puzzlesearch" / f)
    for f in ("bee/data/blocklist.txt", "crossword/data/blocklist.txt", "crossword/data/function_words.txt")
]
BEE_PAGE_TEMPLATE = str(SRC / "puzzlesearch" / "bee" / "page_template.html")


def bee_targets():
    """The Spelling Bee stage's default outputs: mask, puzzle, word-list and schedule tables per lexicon."""
    return expand(
        "results/bee/{lexicon}/{table}.parquet",
        lexicon=BEE_LEXICONS,
        table=["masks", "puzzles", "wordlist", "schedule"],
    )


# ---------------------------------------------------------------- crossword (crossword.smk)
# Each job gets only its step's settings (crossword/settings.py) as `--settings JSON`.
from puzzlesearch.crossword.settings import FillSettings, GenerateSettings, TableSettings, LANG_ALPHABET

CW = config["crossword"]
CW_NUMERIC = "numeric"  # the pseudo-lexicon of products x*y


def crossword_lexicon(lang):
    """The lexicon (checked: configured, right alphabet) behind a language's tables."""
    if lang == "num":
        return CW_NUMERIC
    key = f"crossword.lexicons.{lang}"
    name = CW["lexicons"][lang]
    return checked_lexicons([name], key, LANG_ALPHABET[lang])[0]


def crossword_patterns():
    """pattern stem -> file of crossword.fill.patterns (one-line errors: missing file, same stem twice)."""
    out = {}
    for path in CW["fill"]["patterns"]:
        if not Path(path).is_file():
            fail(f"config key crossword.fill.patterns: {path}: no such file")
        stem = Path(path).stem
        if stem in out:
            fail(
                f"config key crossword.fill.patterns: {out[stem]} and {path} would both write "
                f"results/crossword/fill/{stem}.*"
            )
        out[stem] = path
    return out


CW_LEXICON = {lang: crossword_lexicon(lang) for lang in CW["langs"]}
CW_PATTERNS = crossword_patterns()
if CW_PATTERNS:
    CW_LEXICON.setdefault(CW["fill"]["lang"], crossword_lexicon(CW["fill"]["lang"]))
CW_FILL_SETTINGS = FillSettings.from_config({k: v for k, v in CW["fill"].items() if k not in FillSettings.RULE_KEYS})


def crossword_tables(lexicon):
    """Path of a lexicon's crossword tables."""
    return f"results/crossword/tables/{lexicon}/tables.npz"


def crossword_job_tables(wildcards):
    """The tables of a (lang, ...) job."""
    if wildcards.lang not in CW_LEXICON:
        CW_LEXICON[wildcards.lang] = crossword_lexicon(wildcards.lang)
    return crossword_tables(CW_LEXICON[wildcards.lang])


def crossword_targets():
    """The crossword stage's default outputs: ranked puzzles per (lang, size), each pattern's fill."""
    return [
        *expand("results/crossword/{lang}/{size}/puzzles.parquet", lang=CW["langs"], size=CW["sizes"]),
        *expand("results/crossword/fill/{pattern}.ipuz", pattern=list(CW_PATTERNS)),
    ]


# ---------------------------------------------------------------- Rubik's cube (cube.smk)
from puzzlesearch.cube import tables as cube_code  # which source files shape each table
from puzzlesearch.cube.settings import step_settings_json
from puzzlesearch.cube.tables.phases import PRUNE_SPECS, SUMMARY, move_file, move_table_files

CUBE = config["cube"]
CUBE_TABLES = CUBE["tables"].rstrip("/")
CUBE_SETS = CUBE["testsets"]
CUBE_RANDOM_SETS = [n for n, v in CUBE_SETS.items() if isinstance(v, dict)]
CUBE_TABLE_CODE = list(cube_code.MOVE_TABLE_CODE)
CUBE_PRUNE_CODE = list(cube_code.PRUNE_TABLE_CODE)
CUBE_SOLVERS = ("thistlethwaite", "twophase")
CUBE_SOLVE_SETTINGS = {solver: step_settings_json(solver, CUBE) for solver in CUBE_SOLVERS}

for _name in CUBE["default_testsets"]:
    if _name not in CUBE_SETS:
        fail(
            f"config key cube.default_testsets: test set {_name!r} is not in cube.testsets "
            f"({', '.join(sorted(CUBE_SETS))})"
        )


def cube_move_outputs():
    """Every file the move-table job writes (.npy and its .json manifest), by name."""
    out = {}
    for p in move_table_files(CUBE_TABLES):
        out[f"{p.stem}_npy"] = str(p)
        out[f"{p.stem}_json"] = str(p.with_suffix(".json"))
    return out


def cube_testset_file(wildcards):
    """The cube file of a test set: generated under results/, or the configured path."""
    spec = CUBE_SETS.get(wildcards.testset)
    if spec is None:
        fail(f"cube test set {wildcards.testset!r} is not in config cube.testsets ({', '.join(sorted(CUBE_SETS))})")
    if isinstance(spec, dict):
        return f"results/cube/testsets/{wildcards.testset}.txt"
    return rel(spec)


def cube_count(testset):
    """Number of cubes in a test set (lines of a configured file; 0 when it does not exist yet)."""
    spec = CUBE_SETS[testset]
    if isinstance(spec, dict):
        return spec["random"]
    path = Path(spec)
    return sum(1 for line in path.open() if line.strip()) if path.is_file() else 0


def cube_solve_minutes(wildcards):
    """Cluster runtime of a solve job: the solver's per-cube time cap times the cubes in the set."""
    return cap_minutes(CUBE[wildcards.solver]["time_limit"], cube_count(wildcards.testset))


def cube_targets():
    """The cube stage's default outputs: the table manifest and each default solve."""
    return [
        f"{CUBE_TABLES}/{SUMMARY}",
        *expand("results/cube/{solver}/{testset}.parquet", solver=CUBE["solvers"], testset=CUBE["default_testsets"]),
    ]


# ---------------------------------------------------------------- all stages


def default_targets():
    """Everything a plain `snakemake` builds: each stage's default outputs (report.smk adds report_targets)."""
    report_targets = globals().get("report_targets", list)
    return [
        *lexicon_targets(),
        *boggle_targets(),
        *bee_targets(),
        *crossword_targets(),
        *cube_targets(),
        *report_targets(),
    ]


# ---- Crossword clues
# Word quality and clues of the crossword tables (crossword/quality.py, crossword/clues.py).
CW_TABLE_SETTINGS = TableSettings.from_config(CW)
CW_DATA = SRC / "puzzlesearch" / "crossword" / "data"


def crossword_quality_files():
    """Files the word tables' quality depends on: the blocklist (configured, else shipped) and the function words."""
    blocklist = CW["quality"]["blocklist"]
    if blocklist and not Path(blocklist).is_file():
        fail(f"config key crossword.quality.blocklist: {blocklist}: no such file")
    return [blocklist or str(CW_DATA / "blocklist.txt"), str(CW_DATA / "function_words.txt")]


# ---- Cube optimal (cube_optimal.smk)
CUBE_OPT = CUBE["optimal"]
CUBE_OPT_DIR = "results/cube/optimal"
CUBE_OPT_SETTINGS = step_settings_json("optimal", CUBE)
CUBE_OPT_CODE = list(cube_code.BIG_CODE)
CUBE_OPT_BOUND_CODE = list(cube_code.BOUND_CODE)
CUBE_OPT_COSET_CODE = list(cube_code.COSET_CODE)
CUBE_OPT_COSET_MEM_MB = {"full": 9000, "tiny": MEM_MB}  # full: table, BFS bitmaps, near levels, bound copy: ~7.5 GB
CUBE_OPT_COSET_MINUTES = {"full": 120, "tiny": STARTUP_MINUTES}  # full: ~20 min on 2 cores
CUBE_OPT_MEM_MB = {"full": 3000, "small": MEM_MB, "tiny": MEM_MB}  # full: ~1.1 GB measured peak
# full: big table + coset table and its bound copy, ~6.1 GB
CUBE_OPT_SOLVE_MEM_MB = {"full": 7000, "small": MEM_MB, "tiny": MEM_MB}
CUBE_OPT_BOUND_MEM_MB = {"full": 4000, "small": MEM_MB, "tiny": MEM_MB}  # full: ~2.3 GB measured peak
CUBE_OPT_BUILD_MINUTES = {"full": 120, "small": 10, "tiny": STARTUP_MINUTES}


def cube_optimal_table(variant=None):
    """The manifest (.json) of an optimal table variant (default: config cube.optimal.table)."""
    variant = variant or CUBE_OPT["table"]
    return f"{CUBE_OPT_DIR}/table_{variant}/optimal_{variant}.json"


def cube_optimal_bound(variant=None):
    """The manifest (.json) of an optimal table variant's bound table (the solver's inverse look-ups)."""
    variant = variant or CUBE_OPT["table"]
    return f"{CUBE_OPT_DIR}/table_{variant}/optimal_{variant}_bound.json"


def cube_optimal_coset(variant=None):
    """The manifest (.json) of the coset table that goes with an optimal table variant (in its folder)."""
    variant = variant or CUBE_OPT["table"]
    coset = "full" if variant == "full" else "tiny"
    return f"{CUBE_OPT_DIR}/table_{variant}/coset_{coset}.json"


def cube_optimal_subset_source(wildcards):
    """The full test set a `<testset>_first<n>` subset is cut from."""
    return cube_testset_file(wildcards)


def cube_optimal_minutes(wildcards):
    """Cluster runtime of an optimal solve job: the per-cube time cap times the cubes."""
    return cap_minutes(CUBE_OPT["time_limit"], int(wildcards.n))


def cube_optimal_targets(wildcards=None):
    """The non-default target cube_optimal_all: the first cubes of the configured test set, solved optimally
    (the test set is checked only when this target is asked for: other runs may define other test sets)."""
    if CUBE_OPT["testset"] not in CUBE_SETS:
        fail(
            f"config key cube.optimal.testset: test set {CUBE_OPT['testset']!r} is not in cube.testsets "
            f"({', '.join(sorted(CUBE_SETS))})"
        )
    return [f"{CUBE_OPT_DIR}/{CUBE_OPT['testset']}_first{CUBE_OPT['first']}.parquet"]


# ---- Boggle proofs (boggle_proof.smk): not in default_targets(); `snakemake boggle_proofs`
# builds boggle.lexicons x boggle.proof.shapes, or ask for one certificate.json.
# A proof's shards are ranges of its canonical class list (boggle.proof.shards per shape);
# their resources come from boggle.proof.cost (measured per class, see shard_resources):
# runtime = 2 x (3 min + classes x p99 + max CPU s per class), mem_mb = 1.5 x peak, both
# times the attempt; a shard stops itself before its runtime ends and keeps its progress,
# so a retry (--retries) or a rerun continues. The class count is Burnside's (no listing
# of classes at DAG time).
from puzzlesearch.boggle.proof.settings import ProofSettings, for_shape, sample_settings, shard_resources


def boggle_proof_settings(shape):
    """The settings JSON of a proof's jobs (one shape's values); a config mistake is one line."""
    try:
        return ProofSettings.for_job(BOGGLE, shape).to_json()
    except PuzzleError as error:
        fail(error)


def boggle_proof_shard_count(shape):
    """boggle.proof.shards of a shape."""
    try:
        return for_shape(BOGGLE["proof"]["shards"], shape, "shards")
    except PuzzleError as error:
        fail(error)


def boggle_proof_runtime(wildcards, attempt):
    """Minutes of one shard job (from the cost table; more on a retry)."""
    return shard_resources(BOGGLE["proof"], wildcards.shape, attempt)["runtime"]


def boggle_proof_mem_mb(wildcards, attempt):
    """MB of one shard job (from the cost table; more on a retry)."""
    return shard_resources(BOGGLE["proof"], wildcards.shape, attempt)["mem_mb"]


def boggle_proof_shards(wildcards):
    """Every shard table of a proof and its manifest."""
    return expand(
        "results/boggle/{lexicon}/proof/{shape}/shards/shard{shard}.{ext}",
        lexicon=wildcards.lexicon,
        shape=wildcards.shape,
        shard=range(boggle_proof_shard_count(wildcards.shape)),
        ext=["parquet", "json"],
    )


def boggle_proof_tables(wildcards):
    """The shard tables (Parquet) a gather merges, in shard order."""
    return [path for path in boggle_proof_shards(wildcards) if path.endswith(".parquet")]


def boggle_proof_sample_args(wildcards):
    """--classes, --seed and --board flags of a shape's sample (boggle.proof.sample)."""
    sample = sample_settings(BOGGLE)
    boards = sample["boards"].get(wildcards.shape, [])
    flags = ["--classes", sample["classes"], "--seed", sample["seed"]]
    return [str(x) for x in flags + [x for b in boards for x in ("--board", b)]]


def boggle_proof_sample_runtime(wildcards, attempt):
    """Minutes of a sample job: its classes at the p99 cost, plus the boards' classes at the max."""
    sample = sample_settings(BOGGLE)
    cost = for_shape(BOGGLE["proof"]["cost"], wildcards.shape, "cost")
    boards = len(sample["boards"].get(wildcards.shape, []))
    seconds = sample["classes"] * cost["seconds_p99"] + (boards + 1) * cost["seconds_max"]
    return attempt * 2 * cap_minutes(seconds)


def boggle_proof_targets():
    """The certificates of every configured proof (the `boggle_proofs` target)."""
    return expand(
        "results/boggle/{lexicon}/proof/{shape}/certificate.json",
        lexicon=BOGGLE_LEXICONS,
        shape=BOGGLE["proof"]["shapes"],
    )
