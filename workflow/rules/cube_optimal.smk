# Rubik's cube, optimal solver (non-default: `snakemake cube_optimal_all`): the coset table of
# cube.optimal.coset_table, large (nxopt's EO2 x EP2, 7.55 GB, read as bounds in all six views;
# the default) or full (corner classes x flip x E-slice, ~2.5 GB and a bound copy) -> the first
# N cubes of a test set solved optimally (every answer verified; nodes and milliseconds per cube
# in the Parquet table). The search reads only the coset table; the big pruning table (flip x
# sorted E slice classes x twist, 2 bits an entry) and its bound table (its entries read as lower
# bounds without a parent) stay as targets of their own, for searches without a coset table.
# Helpers: common.smk (`# ---- Cube optimal`). Measured: coset large 1,234 s on 2 cores, 7.65 GB
# peak, the table alone on any number of threads (coset full ~1,080 s, ~7.5 GB); the big table
# 1,027 s on one core, ~1.2 GB peak; a solve loads the 7.55 GB table and runs ~2.5 M nodes/s
# (benchmarks/RESULTS.md: median per random cube).


localrules:
    cube_optimal_all,
    cube_optimal_subset,


rule cube_optimal_all:
    input:
        cube_optimal_targets,


rule cube_optimal_table:
    input:
        code=kind_files("cube-optimal-table"),
    output:
        npy=f"{CUBE_OPT_DIR}/table_{{variant}}/optimal_{{variant}}.npy",
        classes=f"{CUBE_OPT_DIR}/table_{{variant}}/optimal_{{variant}}_classes.npz",
        meta=f"{CUBE_OPT_DIR}/table_{{variant}}/optimal_{{variant}}.json",
    log:
        "logs/cube/optimal_table_{variant}.log",
    wildcard_constraints:
        variant="full|small|tiny",
    cache: True
    threads: 1
    resources:
        mem_mb=lambda w: CUBE_OPT_MEM_MB[w.variant],
        runtime=lambda w: CUBE_OPT_BUILD_MINUTES[w.variant],
    params:
        wildcards=cache_key,
        dir=lambda w, output: str(Path(output.npy).parent),
    shell:
        "puzzlesearch cube build-optimal-table {wildcards.variant:q} --out-dir {params.dir:q} 2> {log:q}"


rule cube_optimal_bound:
    input:
        table=f"{CUBE_OPT_DIR}/table_{{variant}}/optimal_{{variant}}.json",
        code=kind_files("cube-optimal-bound"),
    output:
        npy=f"{CUBE_OPT_DIR}/table_{{variant}}/optimal_{{variant}}_bound.npy",
        meta=f"{CUBE_OPT_DIR}/table_{{variant}}/optimal_{{variant}}_bound.json",
    log:
        "logs/cube/optimal_bound_{variant}.log",
    wildcard_constraints:
        variant="full|small|tiny",
    threads: 1
    resources:
        mem_mb=lambda w: CUBE_OPT_BOUND_MEM_MB[w.variant],
        runtime=STARTUP_MINUTES,
    shell:
        "puzzlesearch cube build-optimal-bound {wildcards.variant:q} --tables {input.table:q} 2> {log:q}"


rule cube_optimal_coset:
    input:
        code=kind_files("cube-optimal-coset"),
    output:
        npy=f"{CUBE_OPT_DIR}/table_{{variant}}/coset_{{coset}}.npy",
        classes=f"{CUBE_OPT_DIR}/table_{{variant}}/coset_{{coset}}_classes.npz",
        meta=f"{CUBE_OPT_DIR}/table_{{variant}}/coset_{{coset}}.json",
    log:
        "logs/cube/optimal_coset_{variant}_{coset}.log",
    wildcard_constraints:
        variant="full|small|tiny",
        coset="full|large|tiny",
    cache: True
    threads: workflow.cores  # BFS levels in parallel over rows; the memory is the table's on any number
    resources:
        mem_mb=lambda w: CUBE_OPT_COSET_MEM_MB[w.coset],
        runtime=lambda w: CUBE_OPT_COSET_MINUTES[w.coset],
    params:
        wildcards=cache_key,
        dir=lambda w, output: str(Path(output.npy).parent),
    shell:
        "NUMBA_NUM_THREADS={threads:q} puzzlesearch cube build-optimal-coset {wildcards.coset:q} --out-dir {params.dir:q} 2> {log:q}"


rule cube_optimal_subset:
    input:
        cube_optimal_subset_source,
    output:
        "results/cube/testsets/{testset}_first{n}.txt",
    log:
        "logs/cube/testset_{testset}_first{n}.log",
    wildcard_constraints:
        testset="|".join(CUBE_SETS),
        n=r"\d+",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    shell:
        "head -n {wildcards.n:q} {input:q} > {output:q} 2> {log:q}"


rule cube_optimal_solve:
    input:
        cubes="results/cube/testsets/{testset}_first{n}.txt",
        coset=cube_optimal_coset(),  # the search's one table (its folder is --tables)
        code=kind_files("cube-solves"),
    output:
        f"{CUBE_OPT_DIR}/{{testset}}_first{{n}}.parquet",
    log:
        "logs/cube/optimal/{testset}_first{n}.log",
    benchmark:
        "benchmarks/cube/optimal/{testset}_first{n}.tsv"
    wildcard_constraints:
        testset="|".join(CUBE_SETS),
        n=r"\d+",
    threads: workflow.cores  # cubes in parallel processes (--jobs), tables shared; rows in input order
    resources:
        mem_mb=CUBE_OPT_SOLVE_MEM_MB[CUBE_OPT["table"]],
        runtime=cube_optimal_minutes,
    params:
        settings=CUBE_OPT_SETTINGS,
        testset=lambda w: f"{w.testset}_first{w.n}",  # the name the table's manifest entry records
    shell:
        "puzzlesearch cube solve --settings {params.settings:q} --solver optimal --jobs {threads:q}"
        " --tables {input.coset:q} --file {input.cubes:q} --testset {params.testset:q} --out {output:q}"
        " 2> {log:q}"
