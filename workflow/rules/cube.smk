# Rubik's cube stage: move tables -> BFS pruning tables (cacheable; each table's .json is
# its manifest: sha256, shape, dtype, build seconds; Snakemake forbids `benchmark:` on
# cached rules) -> manifest.parquet; test sets (generated from a seed, or a configured
# file); solves per solver and test set, each job given only its solver's settings.
# Helpers and default targets: common.smk. Measured: tables 1-3 s each (the two-phase
# symmetry tables tp1_sym, 141 MB, and tp2_sym, 112 MB: 10-30 s each; next_tp1, 564 MB, from
# tp1_sym: 10-15 s), a solve of 100
# cubes 2-12 s; the table directory is derived from the rule's own files (no shared-fs prefix).


localrules:
    cube_manifest,
    cube_random_testset,


rule cube_move_tables:
    input:
        code=kind_files("cube-tables"),
    output:
        **cube_move_outputs(),
    log:
        "logs/cube/move_tables.log",
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    # the folder comes from the outputs in the shell (not a param), so the cache key does not depend on it
    params:
        wildcards=cache_key,
    shell:
        'puzzlesearch cube build-move-tables --out-dir "$(dirname {output.move_flip_npy:q})" 2> {log:q}'


rule cube_prune_table:
    input:
        moves=[str(p) for p in move_table_files(CUBE_TABLES)],
        flip=str(move_file(Path(CUBE_TABLES), "flip")),  # one of `moves`, named: the shell takes the folder from it
        code=kind_files("cube-tables"),
    output:
        npy=f"{CUBE_TABLES}/prune_{{table}}.npy",
        meta=f"{CUBE_TABLES}/prune_{{table}}.json",
    log:
        "logs/cube/prune_{table}.log",
    wildcard_constraints:
        table="|".join(PRUNE_SPECS),
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
    shell:
        'puzzlesearch cube build-prune-table {wildcards.table:q} --tables "$(dirname {input.flip:q})"'
        " --out {output.npy:q} 2> {log:q}"


rule cube_next_table:
    input:
        moves=[str(p) for p in move_table_files(CUBE_TABLES)],
        exact=f"{CUBE_TABLES}/prune_{NEXT_FROM}.npy",
        exact_meta=f"{CUBE_TABLES}/prune_{NEXT_FROM}.json",
        code=kind_files("cube-tables"),
    output:
        npy=str(next_file(CUBE_TABLES)),
        meta=str(next_file(CUBE_TABLES).with_suffix(".json")),
    log:
        "logs/cube/next_table.log",
    cache: True
    threads: 1
    resources:
        mem_mb=CUBE_TWOPHASE_MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
    shell:
        'puzzlesearch cube build-next-table --tables "$(dirname {input.exact:q})" --out {output.npy:q} 2> {log:q}'


rule cube_manifest:
    input:
        moves=list(cube_move_outputs().values()),
        prune=expand(f"{CUBE_TABLES}/prune_{{table}}.{{ext}}", table=list(PRUNE_SPECS), ext=["npy", "json"]),
        next=[str(next_file(CUBE_TABLES)), str(next_file(CUBE_TABLES).with_suffix(".json"))],
        code=kind_files("cube-table-manifest"),
    output:
        f"{CUBE_TABLES}/{SUMMARY}",
    log:
        "logs/cube/manifest.log",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        dir=lambda w, output: str(Path(output[0]).parent),
    shell:
        "puzzlesearch cube manifest --tables {params.dir:q} --out {output:q} 2> {log:q}"


rule cube_random_testset:
    output:
        "results/cube/testsets/{testset}.txt",
    log:
        "logs/cube/testset_{testset}.log",
    wildcard_constraints:
        testset="|".join(CUBE_RANDOM_SETS) or "^$",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        n=lambda w: CUBE_SETS[w.testset]["random"],
        seed=lambda w: CUBE_SETS[w.testset].get("seed", 0),
    shell:
        "puzzlesearch cube random --count {params.n:q} --seed {params.seed:q} --out {output:q} 2> {log:q}"


rule cube_solve:
    input:
        cubes=cube_testset_file,
        tables=f"{CUBE_TABLES}/{SUMMARY}",
        code=kind_files("cube-solves"),
    output:
        "results/cube/{solver}/{testset}.parquet",
    log:
        "logs/cube/{solver}/{testset}.log",
    benchmark:
        "benchmarks/cube/{solver}/{testset}.tsv"
    wildcard_constraints:
        solver="|".join(CUBE_SOLVERS),
        testset="|".join(CUBE_SETS),
    threads: 1
    resources:
        mem_mb=lambda w: CUBE_SOLVE_MEM_MB[w.solver],
        runtime=cube_solve_minutes,  # the per-cube time cap times the cubes
    params:
        settings=lambda w: CUBE_SOLVE_SETTINGS[w.solver],
    shell:
        "puzzlesearch cube solve --settings {params.settings:q} --solver {wildcards.solver:q}"
        " --tables {input.tables:q} --file {input.cubes:q} --testset {wildcards.testset:q} --out {output:q}"
        " 2> {log:q}"
