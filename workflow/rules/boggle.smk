# Boggle stage: seeded board searches, a ranking merged over seeds, and a neighbourhood
# scan certifying the best boards. The logic is in src/puzzlesearch/boggle/; settings
# helpers and default targets in common.smk.
#   results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet   one search job
#   results/boggle/{lexicon}/{shape}/{mode}/best.parquet          merged, symmetry-reduced
#   results/boggle/{lexicon}/{shape}/{mode}/scan.parquet|.json    the best boards' neighbourhoods
# Measured (default config): search 20-55 s, rank 2 s, scan 5 s per board (distance 2).


localrules:
    boggle_rank,  # a gather: merges the seed tables


wildcard_constraints:
    shape=r"[2-6]x[2-6]",
    mode=r"free|dice",
    seed=r"\d+",


rule boggle_search:
    input:
        unpack(boggle_inputs),
        code=BOGGLE_CODE,
    output:
        "results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet",
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/seed{seed}.log",
    benchmark:
        "benchmarks/boggle/{lexicon}/{shape}/{mode}/seed{seed}.tsv"
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=cap_minutes(BOGGLE["seconds"]),  # the job fails at its time cap anyway
    params:
        settings=lambda w: boggle_step(SearchSettings, w.shape, w.mode),
    shell:
        "puzzlesearch boggle search --settings {params.settings:q} --words {input.words:q} --dawg {input.dawg:q}"
        " --shape {wildcards.shape:q} --mode {wildcards.mode:q} --seed {wildcards.seed:q}"
        " --out {output:q} 2> {log:q}"


rule boggle_rank:
    input:
        unpack(boggle_inputs),
        seeds=boggle_seeds,
        code=BOGGLE_CODE,
    output:
        "results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/rank.log",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        settings=lambda w: boggle_step(RankSettings, w.shape, w.mode),
    shell:
        "puzzlesearch boggle rank --settings {params.settings:q} --words {input.words:q} --dawg {input.dawg:q}"
        " --shape {wildcards.shape:q} --out {output:q} {input.seeds:q} 2> {log:q}"


rule boggle_scan:
    input:
        unpack(boggle_inputs),
        best="results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
        code=BOGGLE_CODE,
    output:
        top="results/boggle/{lexicon}/{shape}/{mode}/scan.parquet",
        summary="results/boggle/{lexicon}/{shape}/{mode}/scan.json",
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/scan.log",
    benchmark:
        "benchmarks/boggle/{lexicon}/{shape}/{mode}/scan.tsv"
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES + BOGGLE["scan"]["boards"],  # a minute per scanned board
    params:
        settings=lambda w: boggle_step(ScanSettings, w.shape, w.mode),
        expect=lambda w: boggle_search_expect(w.shape, w.mode, "search"),
    shell:
        "puzzlesearch boggle scan --settings {params.settings:q} --words {input.words:q} --dawg {input.dawg:q}"
        " --from {input.best:q} --expect {params.expect:q} --shape {wildcards.shape:q} --mode {wildcards.mode:q}"
        " --out {output.top:q} --summary {output.summary:q} > /dev/null 2> {log:q}"
