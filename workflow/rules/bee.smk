# Spelling Bee stage: words.parquet -> masks.parquet (bitmask -> points table, cacheable)
# -> puzzles.parquet (every valid letters/center pair, best first); each with a .json manifest.
# Settings: bee_masks gets TableRules (only the keys the mask table depends on), bee_puzzles
# gets BeeRules (every bee key but `lexicons`), each as `--settings JSON`; so changing a
# puzzle-only key (limits, score_by, require_pangram) reruns bee_puzzles only.
from puzzlesearch.bee.model import BeeRules


try:
    BEE_RULES = BeeRules.from_config(config["bee"])
except PuzzleError as _error:  # e.g. max_words below min_words: one line naming the key
    fail(_error)
BEE_LEXICONS = checked_lexicons(config["bee"]["lexicons"] or latin_lexicons(), "bee.lexicons")


rule bee_masks:
    input:
        words=lambda w: lexicon_words(w.lexicon),
        manifest=lambda w: lexicon_words(w.lexicon).replace(".parquet", ".json"),
        code=lib_files("bee/model.py", "bee/tables.py", "bee/kernels.py", "bee/io.py", "lexicon/artifacts.py"),
    output:
        masks="results/bee/{lexicon}/masks.parquet",
        manifest="results/bee/{lexicon}/masks.json",
    params:
        wildcards=cache_key,
        settings=BEE_RULES.table_rules().to_json(),
    log:
        "logs/bee/{lexicon}/masks.log",
    cache: True
    shell:
        "{PS} bee build-masks --settings {params.settings:q} --words {input.words:q}"
        " --out {output.masks:q} 2> {log:q}"


rule bee_puzzles:
    input:
        masks="results/bee/{lexicon}/masks.parquet",
        manifest="results/bee/{lexicon}/masks.json",
        code=lib_files("bee"),
    output:
        puzzles="results/bee/{lexicon}/puzzles.parquet",
        manifest="results/bee/{lexicon}/puzzles.json",
    params:
        settings=BEE_RULES.to_json(),
    log:
        "logs/bee/{lexicon}/puzzles.log",
    benchmark:
        "benchmarks/bee/{lexicon}/puzzles.tsv"
    shell:
        "{PS} bee build-puzzles --settings {params.settings:q} --masks {input.masks:q}"
        " --out {output.puzzles:q} 2> {log:q}"


DEFAULT_TARGETS += expand(
    "results/bee/{lexicon}/{table}.parquet", lexicon=BEE_LEXICONS, table=["masks", "puzzles"]
)
