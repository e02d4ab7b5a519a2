# Rubik's cube stage: move tables -> BFS pruning tables (cacheable, build seconds in their
# .json metadata; Snakemake forbids `benchmark:` on cached rules) -> manifest.parquet;
# test sets (generated from a seed, or a configured file); solves per solver and test set.
from puzzlesearch.cube.tables import MOVE_TABLES, PRUNE_SPECS, move_table_files

CUBE = config["cube"]
CUBE_TABLES = CUBE["tables"].rstrip("/")
CUBE_SETS = CUBE["testsets"]
CUBE_RANDOM_SETS = [n for n, v in CUBE_SETS.items() if isinstance(v, dict)]
CUBE_TABLE_CODE = ["cube/constants.py", "cube/cubie.py", "cube/coords.py", "cube/tables.py"]

for _name in CUBE["default_testsets"]:
    if _name not in CUBE_SETS:
        raise ValueError(f"config key cube.default_testsets: {_name!r} is not in cube.testsets {sorted(CUBE_SETS)}")


def cube_move_outputs():
    """Every file the move-table job writes (.npy and its .json metadata), by name."""
    out = {}
    for p in move_table_files(CUBE_TABLES):
        out[f"{p.stem}_npy"] = str(p)
        out[f"{p.stem}_json"] = str(p.with_suffix(".json"))
    return out


def cube_testset_file(wildcards):
    """The cube file of a test set: generated under results/, or the configured path."""
    spec = CUBE_SETS.get(wildcards.testset)
    if spec is None:
        raise ValueError(f"cube test set {wildcards.testset!r} is not in config cube.testsets {sorted(CUBE_SETS)}")
    if isinstance(spec, dict):
        return f"results/cube/testsets/{wildcards.testset}.txt"
    return spec


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
        "{PS} cube build-move-tables --dir {params.dir} 2> {log}"


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
        "{PS} cube build-prune-table {wildcards.table} --dir {params.dir} 2> {log}"


rule cube_manifest:
    input:
        moves=list(cube_move_outputs().values()),
        prune=expand(f"{CUBE_TABLES}/prune_{{table}}.{{ext}}", table=list(PRUNE_SPECS), ext=["npy", "json"]),
        code=lib_files("cube/tables.py"),
    output:
        f"{CUBE_TABLES}/manifest.parquet",
    params:
        dir=CUBE_TABLES,
    log:
        "logs/cube/manifest.log",
    shell:
        "{PS} cube manifest --dir {params.dir} 2> {log}"


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
        "{PS} cube random --count {params.n} --seed {params.seed} --out {output} 2> {log}"


rule cube_solve:
    input:
        cubes=cube_testset_file,
        tables=f"{CUBE_TABLES}/manifest.parquet",
        code=lib_files("cube"),
    output:
        "results/cube/{solver}/{testset}.parquet",
    wildcard_constraints:
        solver="thistlethwaite|twophase",
        testset="|".join(CUBE_SETS),
    params:
        fmt=CUBE["format"],
        target=CUBE["twophase"]["target_length"],
        budget=CUBE["twophase"]["node_budget"],
        p2max=CUBE["twophase"]["phase2_max"],
        seconds=CUBE["twophase"]["time_limit"],
        tables=CUBE_TABLES,
    log:
        "logs/cube/{solver}/{testset}.log",
    benchmark:
        "benchmarks/cube/{solver}/{testset}.tsv"
    shell:
        "{PS} cube solve --file {input.cubes} --solver {wildcards.solver} --format {params.fmt}"
        " --tables {params.tables} --target-length {params.target} --node-budget {params.budget}"
        " --phase2-max {params.p2max} --time-limit {params.seconds} --out {output} 2> {log}"


DEFAULT_TARGETS += [f"{CUBE_TABLES}/manifest.parquet"]
DEFAULT_TARGETS += expand(
    "results/cube/{solver}/{testset}.parquet", solver=CUBE["solvers"], testset=CUBE["default_testsets"]
)
