# Crossword stage: per-lexicon tables (cached), one job per generated puzzle
# (lang, size, seed) gathered into a ranked puzzles.parquet per (lang, size), and the
# fixed-pattern fill of the configured pattern files. Logic: src/puzzlesearch/crossword/;
# settings helpers and default targets: common.smk.
# Measured (default config): tables 2-7 s, a puzzle 2-4 s (one 34 s), gather 1 s, fill 19 s.
# The cluster profiles put the per-seed puzzle jobs in a group (`groups:` and
# `group-components:` in profiles/slurm), so several seeds go in one submission.


localrules:
    crossword_gather,
    crossword_puz,
    crossword_fill_puz,


wildcard_constraints:
    lang="en|ar|num",
    size=r"\d+",
    seed=r"\d+",


rule crossword_constructors_list:
    input:
        code=kind_files("constructors-list"),
    output:
        words=CW_CONSTRUCTORS_LIST,
        manifest=CW_CONSTRUCTORS_LIST.replace(".parquet", ".json"),
    log:
        "logs/lexicon/constructors.log",
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
    shell:
        "puzzlesearch crossword build-list --out {output.words:q} 2> {log:q}"


rule crossword_tables:
    input:
        words=lambda w: lexicon_words(w.lexicon),
        manifest=lambda w: lexicon_words(w.lexicon).replace("words.parquet", "words.json"),
        constructors=crossword_constructors_list,
        quality=crossword_quality_files(),
        code=kind_files("crossword-tables"),
    output:
        npz="results/crossword/tables/{lexicon}/tables.npz",
        clues="results/crossword/tables/{lexicon}/clues.parquet",
        manifest="results/crossword/tables/{lexicon}/tables.json",
    log:
        "logs/crossword/tables/{lexicon}.log",
    wildcard_constraints:
        lexicon=rf"(?!{CW_NUMERIC}$)[A-Za-z0-9_-]+",
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
        settings=CW_TABLE_SETTINGS.to_json(),  # quality keys (blocklist, names, clue_weight); max_factor unused
        constructors=crossword_constructors_flag,
    shell:
        "puzzlesearch crossword build-tables --settings {params.settings:q} --words {input.words:q}"
        " --constructors={params.constructors:q} --out {output.npz:q} 2> {log:q}"


rule crossword_numeric_tables:
    input:
        code=kind_files("crossword-tables"),
    output:
        npz=f"results/crossword/tables/{CW_NUMERIC}/tables.npz",
        clues=f"results/crossword/tables/{CW_NUMERIC}/clues.parquet",
        manifest=f"results/crossword/tables/{CW_NUMERIC}/tables.json",
    log:
        f"logs/crossword/tables/{CW_NUMERIC}.log",
    cache: True
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        wildcards=cache_key,
        settings=CW_TABLE_SETTINGS.to_json(),
    shell:
        "puzzlesearch crossword build-tables --settings {params.settings:q} --numeric"
        " --out {output.npz:q} 2> {log:q}"


rule crossword_puzzle:
    input:
        tables=crossword_job_tables,
        code=kind_files("crossword-puzzle"),
    output:
        ipuz="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.ipuz",
        html="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.html",  # the playable page
        summary="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.json",
    log:
        "logs/crossword/generate_{lang}_{size}_seed{seed}.log",
    benchmark:
        "benchmarks/crossword/generate_{lang}_{size}_seed{seed}.tsv"
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=cap_minutes(CW["time_budget"]),  # fails at its time cap anyway
    params:
        settings=lambda w: GenerateSettings.for_job(CW, w.lang, int(w.size)).to_json(),
    shell:
        "puzzlesearch crossword generate --settings {params.settings:q} --tables {input.tables:q}"
        " --lang {wildcards.lang:q} --seed {wildcards.seed:q} --ipuz {output.ipuz:q} --html {output.html:q}"
        " --summary {output.summary:q} 2> {log:q}"


# Across Lite .puz of a generated puzzle: Latin-1 letters only, so English and numeric (no Arabic).
rule crossword_puz:
    input:
        ipuz="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.ipuz",
        code=kind_files("crossword-puzzle"),
    output:
        puz="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.puz",
    log:
        "logs/crossword/puz_{lang}_{size}_seed{seed}.log",
    wildcard_constraints:
        lang="en|num",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    shell:
        "puzzlesearch crossword puz --ipuz {input.ipuz:q} --out {output.puz:q} 2> {log:q}"


rule crossword_gather:
    input:
        summaries=expand(
            "results/crossword/{{lang}}/{{size}}/{{lang}}_{{size}}_seed{seed}.json", seed=range(CW["seeds"])
        ),
        puz=lambda w: (
            expand("results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.puz", seed=range(CW["seeds"]), **w)
            if w.lang in ("en", "num")
            else []
        ),
        code=kind_files("crossword-puzzles"),
    output:
        table="results/crossword/{lang}/{size}/puzzles.parquet",
        manifest="results/crossword/{lang}/{size}/puzzles.json",
    log:
        "logs/crossword/gather_{lang}_{size}.log",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    shell:
        "puzzlesearch crossword gather --summaries {input.summaries:q} --out {output.table:q} 2> {log:q}"


rule crossword_fill:
    input:
        pattern=lambda w: CW_PATTERNS[w.pattern],
        tables=crossword_tables(CW_LEXICON.get(CW["fill"]["lang"], "")) if CW_PATTERNS else [],
        code=kind_files("crossword-fill"),
    output:
        ipuz="results/crossword/fill/{pattern}.ipuz",
        html="results/crossword/fill/{pattern}.html",
        summary="results/crossword/fill/{pattern}.json",
    log:
        "logs/crossword/fill_{pattern}.log",
    benchmark:
        "benchmarks/crossword/fill_{pattern}.tsv"
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=cap_minutes(CW["fill"]["time_budget"]),
    params:
        lang=CW["fill"]["lang"],
        settings=CW_FILL_SETTINGS.to_json(),
    shell:
        "puzzlesearch crossword fill --settings {params.settings:q} --tables {input.tables:q} --pattern {input.pattern:q}"
        " --lang {params.lang:q} --ipuz {output.ipuz:q} --html {output.html:q} --summary {output.summary:q}"
        " > {log:q} 2>&1"


# Across Lite .puz of a filled pattern (crossword.fill.lang en; an Arabic fill has none and this job refuses it).
rule crossword_fill_puz:
    input:
        ipuz="results/crossword/fill/{pattern}.ipuz",
        code=kind_files("crossword-fill"),
    output:
        puz="results/crossword/fill/{pattern}.puz",
    log:
        "logs/crossword/fill_puz_{pattern}.log",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    shell:
        "puzzlesearch crossword puz --ipuz {input.ipuz:q} --out {output.puz:q} 2> {log:q}"
