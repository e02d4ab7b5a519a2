# Spelling Bee stage: words.parquet -> masks.parquet (bitmask -> points table, cacheable)
# -> puzzles.parquet (every valid letters/center pair, best first); each with a .json manifest.
# Settings (BEE_RULES) and default targets: common.smk. Measured: masks 2 s, puzzles 2-5 s.


rule bee_masks:
    input:
        words=lambda w: lexicon_words(w.lexicon),
        manifest=lambda w: lexicon_words(w.lexicon).replace(".parquet", ".json"),
        code=kind_files("bee-masks"),
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
        words=lambda w: lexicon_words(w.lexicon),
        code=kind_files("bee-puzzles"),
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
        " --words {input.words:q} --out {output.puzzles:q} 2> {log:q}"


# The Bee word list (bee/wordlist.py): every word the installed sources or the lexicon know
# that the acceptance model (bee/acceptance.py; parameters bee/data/acceptance.json, fitted
# on published NYT puzzles by `puzzlesearch bee fit-wordlist`) accepts, off the blocklists. ~40 s.
rule bee_wordlist:
    input:
        words=lambda w: lexicon_words(w.lexicon),
        manifest=lambda w: lexicon_words(w.lexicon).replace(".parquet", ".json"),
        code=kind_files("bee-wordlist"),
    output:
        wordlist="results/bee/{lexicon}/wordlist.parquet",
        manifest="results/bee/{lexicon}/wordlist.json",
    log:
        "logs/bee/{lexicon}/wordlist.log",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        settings=BEE_WORDLIST_RULES.to_json(),
    shell:
        "puzzlesearch bee build-wordlist --settings {params.settings:q} --words {input.words:q}"
        " --out {output.wordlist:q} 2> {log:q}"


# The schedule (bee/schedule.py): bee.schedule_days distinct puzzles in the word window,
# drawn with bee.schedule_seed, with their playable and hints pages. ~2 s.
rule bee_schedule:
    input:
        wordlist="results/bee/{lexicon}/wordlist.parquet",
        manifest="results/bee/{lexicon}/wordlist.json",
        words=lambda w: lexicon_words(w.lexicon),
        code=kind_files("bee-schedule"),
    output:
        schedule="results/bee/{lexicon}/schedule.parquet",
        manifest="results/bee/{lexicon}/schedule.json",
        pages=directory("results/bee/{lexicon}/pages"),
    log:
        "logs/bee/{lexicon}/schedule.log",
    threads: 1
    resources:
        mem_mb=MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        settings=BEE_SCHEDULE_RULES.to_json(),
    shell:
        "puzzlesearch bee schedule --settings {params.settings:q} --wordlist {input.wordlist:q}"
        " --words {input.words:q} --out {output.schedule:q} --pages {output.pages:q} 2> {log:q}"
