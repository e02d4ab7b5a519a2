# Rubik's cube: tables, test sets, settings and targets of cube.smk and cube_optimal.smk.
# Included by workflow/rules/common.smk; only functions and values, no rules.


# ---------------------------------------------------------------- Rubik's cube (cube.smk)
from puzzlesearch.cube.settings import step_settings_json
from puzzlesearch.cube.tables.phases import NEXT_FROM, PRUNE_SPECS, SUMMARY, move_file, move_table_files, next_file

CUBE = config["cube"]
CUBE_TABLES = CUBE["tables"].rstrip("/")
CUBE_SETS = CUBE["testsets"]
CUBE_RANDOM_SETS = [n for n, v in CUBE_SETS.items() if isinstance(v, dict)]
CUBE_SOLVERS = ("thistlethwaite", "twophase")
CUBE_SOLVE_SETTINGS = {solver: step_settings_json(solver, CUBE) for solver in CUBE_SOLVERS}
# next_tp1 (564 MB) with tp2_sym (112 MB): a two-phase solve peaks at ~0.86 GB, the next_tp1 build about as much
CUBE_TWOPHASE_MEM_MB = 2600
CUBE_SOLVE_MEM_MB = {"thistlethwaite": MEM_MB, "twophase": CUBE_TWOPHASE_MEM_MB}

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


# ---- Cube optimal (cube_optimal.smk)
CUBE_OPT = CUBE["optimal"]
CUBE_OPT_DIR = "results/cube/optimal"
CUBE_OPT_SETTINGS = step_settings_json("optimal", CUBE)
# full: table, near levels, bound copy: ~7.5 GB; large: the table alone, ~7.6 GB (on any number of threads)
CUBE_OPT_COSET_MEM_MB = {"full": 9000, "large": 9000, "tiny": MEM_MB}
CUBE_OPT_COSET_MINUTES = {"full": 120, "large": 60, "tiny": STARTUP_MINUTES}  # ~20 and ~7 min on 2 cores
CUBE_OPT_MEM_MB = {"full": 3000, "small": MEM_MB, "tiny": MEM_MB}  # full: ~1.1 GB measured peak
# full: the coset table alone (no big table): full and its bound copy ~5.1 GB, large ~7.6 GB
CUBE_OPT_SOLVE_MEM_MB = {"full": 6000 if CUBE_OPT["coset_table"] == "full" else 9000, "small": MEM_MB, "tiny": MEM_MB}
CUBE_OPT_BOUND_MEM_MB = {"full": 4000, "small": MEM_MB, "tiny": MEM_MB}  # full: ~2.3 GB measured peak
CUBE_OPT_BUILD_MINUTES = {"full": 120, "small": 10, "tiny": STARTUP_MINUTES}


def cube_optimal_coset(variant=None):
    """The manifest (.json) of the coset table that goes with an optimal table variant (in its folder)."""
    variant = variant or CUBE_OPT["table"]
    coset = CUBE_OPT["coset_table"] if variant == "full" else "tiny"
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
