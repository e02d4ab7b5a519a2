# Crossword stage: per-lexicon tables (cached), one job per generated puzzle
# (lang, size, seed) gathered into a ranked puzzles.parquet per (lang, size), and the
# fixed-pattern fill of the configured pattern files. Logic: src/puzzlesearch/crossword/.
# Each job gets only its step's settings (crossword/settings.py) as `--settings JSON`.
from puzzlesearch.crossword.settings import FillSettings, GenerateSettings, TableSettings, LANG_ALPHABET

CW = config["crossword"]
CW_NUMERIC = "numeric"  # the pseudo-lexicon of products x*y


def crossword_lexicon(lang):
    """The lexicon (checked: configured, right alphabet) behind a language's tables."""
    if lang == "num":
        return CW_NUMERIC
    key = f"crossword.lexicons.{lang}"
    name = CW["lexicons"][lang]
    return checked_lexicons([name], key, LANG_ALPHABET[lang])[0]


def crossword_patterns():
    """pattern stem -> file of crossword.fill.patterns (one-line errors: missing file, same stem twice)."""
    out = {}
    for path in CW["fill"]["patterns"]:
        if not Path(path).is_file():
            fail(f"config key crossword.fill.patterns: {path}: no such file")
        stem = Path(path).stem
        if stem in out:
            fail(f"config key crossword.fill.patterns: {out[stem]} and {path} would both write "
                 f"results/crossword/fill/{stem}.*")
        out[stem] = path
    return out


CW_LEXICON = {lang: crossword_lexicon(lang) for lang in CW["langs"]}
CW_PATTERNS = crossword_patterns()
if CW_PATTERNS:
    CW_LEXICON.setdefault(CW["fill"]["lang"], crossword_lexicon(CW["fill"]["lang"]))
CW_FILL_SETTINGS = FillSettings.from_config({k: v for k, v in CW["fill"].items() if k not in FillSettings.RULE_KEYS})

wildcard_constraints:
    lang="en|ar|num",
    size=r"\d+",
    seed=r"\d+",


def crossword_tables(lexicon):
    """Path of a lexicon's crossword tables."""
    return f"results/crossword/tables/{lexicon}/tables.npz"


def crossword_job_tables(wildcards):
    """The tables of a (lang, ...) job."""
    if wildcards.lang not in CW_LEXICON:
        CW_LEXICON[wildcards.lang] = crossword_lexicon(wildcards.lang)
    return crossword_tables(CW_LEXICON[wildcards.lang])


rule crossword_tables:
    input:
        words=lambda w: lexicon_words(w.lexicon),
        manifest=lambda w: lexicon_words(w.lexicon).replace("words.parquet", "words.json"),
        code=lib_files("crossword/tables.py", "crossword/kernels.py", "crossword/model.py",
                       "crossword/settings.py", "lexicon/artifacts.py"),
    output:
        npz="results/crossword/tables/{lexicon}/tables.npz",
        manifest="results/crossword/tables/{lexicon}/tables.json",
    wildcard_constraints:
        lexicon=rf"(?!{CW_NUMERIC}$)[A-Za-z0-9_-]+",
    params:
        wildcards=cache_key,
        settings=TableSettings().to_json(),  # word tables take no settings (max_factor is numeric only)
    log:
        "logs/crossword/tables/{lexicon}.log",
    cache: True
    shell:
        "{PS} crossword build-tables --settings {params.settings:q} --words {input.words:q}"
        " --out {output.npz:q} 2> {log:q}"


rule crossword_numeric_tables:
    input:
        code=lib_files("crossword/tables.py", "crossword/kernels.py", "crossword/model.py",
                       "crossword/settings.py"),
    output:
        npz=f"results/crossword/tables/{CW_NUMERIC}/tables.npz",
        manifest=f"results/crossword/tables/{CW_NUMERIC}/tables.json",
    params:
        wildcards=cache_key,
        settings=TableSettings.from_config(CW).to_json(),
    log:
        f"logs/crossword/tables/{CW_NUMERIC}.log",
    cache: True
    shell:
        "{PS} crossword build-tables --settings {params.settings:q} --numeric"
        " --out {output.npz:q} 2> {log:q}"


rule crossword_puzzle:
    input:
        tables=crossword_job_tables,
        code=lib_files("crossword"),
    output:
        ipuz="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.ipuz",
        html="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.html",
        summary="results/crossword/{lang}/{size}/{lang}_{size}_seed{seed}.json",
    params:
        settings=lambda w: GenerateSettings.for_job(CW, w.lang, int(w.size)).to_json(),
    log:
        "logs/crossword/generate_{lang}_{size}_seed{seed}.log",
    benchmark:
        "benchmarks/crossword/generate_{lang}_{size}_seed{seed}.tsv"
    shell:
        "{PS} crossword generate --settings {params.settings:q} --tables {input.tables:q}"
        " --lang {wildcards.lang:q} --seed {wildcards.seed:q} --ipuz {output.ipuz:q} --html {output.html:q}"
        " --summary {output.summary:q} 2> {log:q}"


rule crossword_gather:
    input:
        summaries=expand("results/crossword/{{lang}}/{{size}}/{{lang}}_{{size}}_seed{seed}.json",
                         seed=range(CW["seeds"])),
        code=lib_files("crossword/io.py", "crossword/cli.py"),
    output:
        table="results/crossword/{lang}/{size}/puzzles.parquet",
        manifest="results/crossword/{lang}/{size}/puzzles.json",
    log:
        "logs/crossword/gather_{lang}_{size}.log",
    shell:
        "{PS} crossword gather --summaries {input.summaries:q} --out {output.table:q} 2> {log:q}"


rule crossword_fill:
    input:
        pattern=lambda w: CW_PATTERNS[w.pattern],
        tables=crossword_tables(CW_LEXICON.get(CW["fill"]["lang"], "")) if CW_PATTERNS else [],
        code=lib_files("crossword"),
    output:
        ipuz="results/crossword/fill/{pattern}.ipuz",
        html="results/crossword/fill/{pattern}.html",
        summary="results/crossword/fill/{pattern}.json",
    params:
        lang=CW["fill"]["lang"],
        settings=CW_FILL_SETTINGS.to_json(),
    log:
        "logs/crossword/fill_{pattern}.log",
    benchmark:
        "benchmarks/crossword/fill_{pattern}.tsv"
    shell:
        "{PS} crossword fill --settings {params.settings:q} --tables {input.tables:q} --pattern {input.pattern:q}"
        " --lang {params.lang:q} --ipuz {output.ipuz:q} --html {output.html:q} --summary {output.summary:q}"
        " > {log:q} 2>&1"


DEFAULT_TARGETS += expand("results/crossword/{lang}/{size}/puzzles.parquet", lang=CW["langs"], size=CW["sizes"])
DEFAULT_TARGETS += expand("results/crossword/fill/{pattern}.ipuz", pattern=list(CW_PATTERNS))
