# Lexicon stage: word table, then the minimal DAWGs (plain words and Boggle keys).
# Both rules are cacheable between workflows (`cache: True`); Snakemake forbids a
# `benchmark:` on cached rules, so build seconds are recorded in the .json manifests.
# Functions and default targets: common.smk.


rule lexicon_words:
    input:
        source=lexicon_source,
        code=kind_files("lexicon-words"),
    output:
        words="results/lexicon/{name}/words.parquet",
        manifest="results/lexicon/{name}/words.json",
    log:
        "logs/lexicon/{name}/words.log",
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
        settings=lambda w: lexicon_spec(w.name).options.to_json(),
        label=lambda w: lexicon_spec(w.name).source,
    shell:
        "puzzlesearch lexicon build-words --settings {params.settings:q} --name {wildcards.name:q}"
        " --label {params.label:q} --source {input.source:q} --out {output.words:q} 2> {log:q}"


rule lexicon_dawg:
    input:
        words="results/lexicon/{name}/words.parquet",
        manifest="results/lexicon/{name}/words.json",
        code=kind_files("dawg", "boggle_dawg"),
    output:
        npz="results/lexicon/{name}/{kind}.npz",
        manifest="results/lexicon/{name}/{kind}.json",
    log:
        "logs/lexicon/{name}/{kind}.log",
    wildcard_constraints:
        kind="dawg|boggle_dawg",
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
    shell:
        "puzzlesearch lexicon build-dawg --words {input.words:q} --kind {wildcards.kind:q} --out {output.npz:q} 2> {log:q}"
