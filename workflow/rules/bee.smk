# Spelling Bee stage: words.parquet -> masks.parquet (bitmask -> points table, cacheable)
# -> puzzles.parquet (every valid letters/center pair, best first); each with a .json manifest.
# Settings (BEE_RULES) and default targets: common.smk. Measured: masks 2 s, puzzles 2-5 s.


rule bee_masks:
    input:
        words=lambda w: lexicon_words(w.lexicon),
        manifest=lambda w: lexicon_words(w.lexicon).replace(".parquet", ".json"),
        code=lib_files("bee/model.py", "bee/tables.py", "bee/_kernels", "bee/io.py", "lexicon/artifacts.py"),
    output:
        masks="results/bee/{lexicon}/masks.parquet",
        manifest="results/bee/{lexicon}/masks.json",
    log:
        "logs/bee/{lexicon}/masks.log",
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
        settings=BEE_RULES.table_rules().to_json(),
    shell:
        "puzzlesearch bee build-masks --settings {params.settings:q} --words {input.words:q}"
        " --out {output.masks:q} 2> {log:q}"


rule bee_puzzles:
    input:
        masks="results/bee/{lexicon}/masks.parquet",
        manifest="results/bee/{lexicon}/masks.json",
        code=lib_files("bee"),
    output:
        puzzles="results/bee/{lexicon}/puzzles.parquet",
        manifest="results/bee/{lexicon}/puzzles.json",
    log:
        "logs/bee/{lexicon}/puzzles.log",
    benchmark:
        "benchmarks/bee/{lexicon}/puzzles.tsv"
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        settings=BEE_RULES.to_json(),
    shell:
        "puzzlesearch bee build-puzzles --settings {params.settings:q} --masks {input.masks:q}"
        " --out {output.puzzles:q} 2> {log:q}"
