# Spelling Bee stage: words.parquet -> masks.parquet (bitmask -> points table, cacheable)
# -> puzzles.parquet (every valid letters/center pair, best first).
# The rules (config section `bee:`) are passed as JSON params: the mask table gets only the
# rules it depends on, so changing a puzzle-only rule (limits, score_by) reruns bee_puzzles only.
import shlex

from puzzlesearch.bee.model import BeeRules


def bee_rules_json(table=False):
    """The bee rules from config (only the mask table's when `table`) as one shell-quoted JSON argument."""
    rules = BeeRules.from_config({k: v for k, v in config["bee"].items() if k != "lexicons"})
    return shlex.quote((rules.table_rules() if table else rules).to_json())


def bee_lexicons():
    """Lexicons of the default run: config bee.lexicons, else every latin lexicon."""
    names = config["bee"]["lexicons"] or latin_lexicons()
    for name in names:
        if lexicon_spec(name).alphabet != "latin":
            raise ValueError(f"config key bee.lexicons: {name!r} is not a latin (a-z) lexicon")
    return names


BEE_RULES = bee_rules_json()
BEE_TABLE_RULES = bee_rules_json(table=True)


rule bee_masks:
    input:
        words=lambda w: lexicon_words(w.lexicon),
        code=lib_files("bee/model.py", "bee/tables.py", "bee/kernels.py", "bee/io.py"),
    output:
        masks="results/bee/{lexicon}/masks.parquet",
        meta="results/bee/{lexicon}/masks.json",
    params:
        wildcards=cache_key,
        rules=BEE_TABLE_RULES,
    log:
        "logs/bee/{lexicon}/masks.log",
    cache: True
    shell:
        "{PS} bee build-masks --words {input.words} --rules {params.rules}"
        " --out {output.masks} 2> {log}"


rule bee_puzzles:
    input:
        masks="results/bee/{lexicon}/masks.parquet",
        code=lib_files("bee"),
    output:
        puzzles="results/bee/{lexicon}/puzzles.parquet",
        meta="results/bee/{lexicon}/puzzles.json",
    params:
        rules=BEE_RULES,
    log:
        "logs/bee/{lexicon}/puzzles.log",
    benchmark:
        "benchmarks/bee/{lexicon}/puzzles.tsv"
    shell:
        "{PS} bee build-puzzles --masks {input.masks} --rules {params.rules}"
        " --out {output.puzzles} 2> {log}"


DEFAULT_TARGETS += expand(
    "results/bee/{lexicon}/{table}.parquet", lexicon=bee_lexicons(), table=["masks", "puzzles"]
)
