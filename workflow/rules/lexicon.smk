# Lexicon stage: word table, then the minimal DAWGs (plain words and Boggle keys).
# Both rules are cacheable between workflows (`cache: True`); Snakemake forbids a
# `benchmark:` on cached rules, so build seconds are recorded in stats.json / {kind}.json.


rule lexicon_words:
    input:
        source=lexicon_source,
        code=lib_files("lexicon/model.py", "lexicon/sources.py", "lexicon/normalize.py"),
    output:
        words="results/lexicon/{name}/words.parquet",
        stats="results/lexicon/{name}/stats.json",
    params:
        wildcards=cache_key,
        source=lambda w: lexicon_spec(w.name).source,
        alphabet=lambda w: lexicon_spec(w.name).alphabet,
        case=lambda w: lexicon_spec(w.name).case,
        min_length=lambda w: lexicon_spec(w.name).min_length,
    log:
        "logs/lexicon/{name}/words.log",
    cache: True
    shell:
        "{PS} lexicon build-words --name {wildcards.name} --source '{params.source}'"
        " --alphabet {params.alphabet} --case {params.case} --min-length {params.min_length}"
        " --out-dir results/lexicon/{wildcards.name} 2>&1 | tee {log}"


rule lexicon_dawg:
    input:
        words="results/lexicon/{name}/words.parquet",
        code=lib_files("lexicon/dawg.py", "lexicon/artifacts.py"),
    output:
        npz="results/lexicon/{name}/{kind}.npz",
        meta="results/lexicon/{name}/{kind}.json",
    wildcard_constraints:
        kind="dawg|boggle_dawg",
    params:
        wildcards=cache_key,
    log:
        "logs/lexicon/{name}/{kind}.log",
    cache: True
    shell:
        "{PS} lexicon build-dawg {input.words} --kind {wildcards.kind} --out {output.npz} 2> {log}"


DEFAULT_TARGETS += expand("results/lexicon/{name}/words.parquet", name=list(LEXICONS))
DEFAULT_TARGETS += expand(
    "results/lexicon/{name}/{kind}.npz", name=latin_lexicons(), kind=["dawg", "boggle_dawg"]
)
