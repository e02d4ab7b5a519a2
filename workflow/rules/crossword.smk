# Crossword stage: per-lexicon tables (cached), progressive-search generation per
# (lang, size) ranked in puzzles.parquet with .ipuz/.html per puzzle, and the fixed-pattern
# fill of the configured pattern files. Logic lives in src/puzzlesearch/crossword/.

CW = config["crossword"]
CW_LEXICON = {"en": CW["lexicons"]["en"], "ar": CW["lexicons"]["ar"], "num": "numeric"}
CW_PATTERNS = {Path(p).stem: p for p in CW["fill"]["patterns"]}

wildcard_constraints:
    lang="en|ar|num",
    size=r"\d+",


def crossword_tables(lexicon):
    """Path of a lexicon's crossword tables."""
    return f"results/crossword/tables/{lexicon}/tables.npz"


def crossword_tables_words(wildcards):
    """words.parquet behind the tables (none for the numeric pseudo-lexicon)."""
    return [] if wildcards.lexicon == "numeric" else [lexicon_words(wildcards.lexicon)]


def crossword_tables_args(wildcards):
    """build-tables options of a lexicon."""
    if wildcards.lexicon == "numeric":
        return f"--max-factor {CW['numeric']['max_factor']}"
    spec = lexicon_spec(wildcards.lexicon)
    return f"--words {lexicon_words(wildcards.lexicon)} --alphabet {spec.alphabet}"


rule crossword_tables:
    input:
        words=crossword_tables_words,
        code=lib_files("crossword/tables.py", "crossword/kernels.py", "crossword/model.py"),
    output:
        npz="results/crossword/tables/{lexicon}/tables.npz",
        meta="results/crossword/tables/{lexicon}/tables.json",
    params:
        wildcards=cache_key,
        args=crossword_tables_args,
    log:
        "logs/crossword/tables/{lexicon}.log",
    cache: True
    shell:
        "{PS} crossword build-tables --lexicon {wildcards.lexicon} {params.args}"
        " --out results/crossword/tables/{wildcards.lexicon} 2> {log}"


rule crossword_generate:
    input:
        tables=lambda w: crossword_tables(CW_LEXICON[w.lang]),
        code=lib_files("crossword"),
    output:
        table="results/crossword/{lang}/{size}/puzzles.parquet",
        ipuz=expand("results/crossword/{{lang}}/{{size}}/{{lang}}_{{size}}_seed{seed}.ipuz", seed=range(CW["seeds"])),
        html=expand("results/crossword/{{lang}}/{{size}}/{{lang}}_{{size}}_seed{seed}.html", seed=range(CW["seeds"])),
    params:
        seeds=CW["seeds"],
        settings={k: CW[k] for k in ("max_across", "max_down", "queue", "mutants", "strategy", "focus",
                                     "length_bias", "time_budget", "max_pops", "stall_pops", "min_frequency", "numeric")},
    log:
        "logs/crossword/generate_{lang}_{size}.log",
    benchmark:
        "benchmarks/crossword/generate_{lang}_{size}.tsv"
    shell:
        "{PS} crossword generate --lang {wildcards.lang} --size {wildcards.size} --seed 0"
        " --seeds {params.seeds} --quiet --out results/crossword/{wildcards.lang}/{wildcards.size} 2> {log}"


rule crossword_fill:
    input:
        pattern=lambda w: CW_PATTERNS[w.pattern],
        tables=crossword_tables(CW_LEXICON[CW["fill"]["lang"]]),
        code=lib_files("crossword"),
    output:
        ipuz="results/crossword/fill/{pattern}.ipuz",
        html="results/crossword/fill/{pattern}.html",
        json="results/crossword/fill/{pattern}.json",
    params:
        lang=CW["fill"]["lang"],
        settings=CW["fill"],
    log:
        "logs/crossword/fill_{pattern}.log",
    benchmark:
        "benchmarks/crossword/fill_{pattern}.tsv"
    shell:
        "{PS} crossword fill --pattern {input.pattern} --lang {params.lang} --out results/crossword/fill"
        " > {log} 2>&1"


DEFAULT_TARGETS += expand("results/crossword/{lang}/{size}/puzzles.parquet", lang=CW["langs"], size=CW["sizes"])
DEFAULT_TARGETS += expand("results/crossword/fill/{pattern}.ipuz", pattern=list(CW_PATTERNS))
