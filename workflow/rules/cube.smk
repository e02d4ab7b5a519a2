# Rubik's cube stage: move tables -> BFS pruning tables (cacheable; each table's .json is
# its manifest: sha256, shape, dtype, build seconds; Snakemake forbids `benchmark:` on
# cached rules) -> manifest.parquet; test sets (generated from a seed, or a configured
# file); solves per solver and test set, each job given only its solver's settings.
from puzzlesearch.cube.settings import step_settings_json
from puzzlesearch.cube.tables import PRUNE_SPECS, SUMMARY, move_table_files

CUBE = config["cube"]
CUBE_TABLES = CUBE["tables"].rstrip("/")
CUBE_SETS = CUBE["testsets"]
CUBE_RANDOM_SETS = [n for n, v in CUBE_SETS.items() if isinstance(v, dict)]
CUBE_TABLE_CODE = ["cube/constants.py", "cube/cubie.py", "cube/coords.py", "cube/tables.py"]
CUBE_SOLVE_SETTINGS = {solver: step_settings_json(solver, CUBE) for solver in ("thistlethwaite", "twophase")}

for _name in CUBE["default_testsets"]:
    if _name not in CUBE_SETS:
        fail(f"config key cube.default_testsets: test set {_name!r} is not in cube.testsets "
             f"({', '.join(sorted(CUBE_SETS))})")


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


rule cube_move_tables:
    input:
        code=lib_files(*CUBE_TABLE_CODE),
    output:
        **cube_move_outputs(),
    params:
        wildcards=cache_key,
        dir=CUBE_TABLES,
    log:
        "logs/cube/move_tables.log",
    cache: True
    shell:
        "{PS} cube build-move-tables --out-dir {params.dir:q} 2> {log:q}"


rule cube_prune_table:
    input:
        moves=[str(p) for p in move_table_files(CUBE_TABLES)],
        code=lib_files(*CUBE_TABLE_CODE, "cube/kernels.py"),
    output:
        npy=f"{CUBE_TABLES}/prune_{{table}}.npy",
        meta=f"{CUBE_TABLES}/prune_{{table}}.json",
    wildcard_constraints:
        table="|".join(PRUNE_SPECS),
    params:
        wildcards=cache_key,
        dir=CUBE_TABLES,
    log:
        "logs/cube/prune_{table}.log",
    cache: True
    shell:
        "{PS} cube build-prune-table {wildcards.table:q} --tables {params.dir:q} --out {output.npy:q} 2> {log:q}"


rule cube_manifest:
    input:
        moves=list(cube_move_outputs().values()),
        prune=expand(f"{CUBE_TABLES}/prune_{{table}}.{{ext}}", table=list(PRUNE_SPECS), ext=["npy", "json"]),
        code=lib_files("cube/tables.py"),
    output:
        f"{CUBE_TABLES}/{SUMMARY}",
    params:
        dir=CUBE_TABLES,
    log:
        "logs/cube/manifest.log",
    shell:
        "{PS} cube manifest --tables {params.dir:q} --out {output:q} 2> {log:q}"


rule cube_random_testset:
    output:
        "results/cube/testsets/{testset}.txt",
    wildcard_constraints:
        testset="|".join(CUBE_RANDOM_SETS) or "^$",
    params:
        n=lambda w: CUBE_SETS[w.testset]["random"],
        seed=lambda w: CUBE_SETS[w.testset].get("seed", 0),
    log:
        "logs/cube/testset_{testset}.log",
    shell:
        "{PS} cube random --count {params.n:q} --seed {params.seed:q} --out {output:q} 2> {log:q}"


rule cube_solve:
    input:
        cubes=cube_testset_file,
        tables=f"{CUBE_TABLES}/{SUMMARY}",
        code=lib_files("cube"),
    output:
        "results/cube/{solver}/{testset}.parquet",
    wildcard_constraints:
        solver="thistlethwaite|twophase",
        testset="|".join(CUBE_SETS),
    params:
        settings=lambda w: CUBE_SOLVE_SETTINGS[w.solver],
    log:
        "logs/cube/{solver}/{testset}.log",
    benchmark:
        "benchmarks/cube/{solver}/{testset}.tsv"
    shell:
        "{PS} cube solve --settings {params.settings:q} --solver {wildcards.solver:q}"
        " --tables {input.tables:q} --file {input.cubes:q} --out {output:q} 2> {log:q}"


DEFAULT_TARGETS += [f"{CUBE_TABLES}/{SUMMARY}"]
DEFAULT_TARGETS += expand(
    "results/cube/{solver}/{testset}.parquet", solver=CUBE["solvers"], testset=CUBE["default_testsets"]
)
