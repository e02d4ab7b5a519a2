# Crosswords: languages, patterns, settings, quality files and targets of crossword.smk.
# Included by workflow/rules/common.smk; only functions and values, no rules.


# ---------------------------------------------------------------- crossword (crossword.smk)
# Each job gets only its step's settings (crossword/settings.py) as `--settings JSON`.
from puzzlesearch.crossword.settings import FillSettings, GenerateSettings, TableSettings, LANG_ALPHABET
from puzzlesearch.lexicon.sources import BUILTIN_ENGLISH

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
            fail(
                f"config key crossword.fill.patterns: {out[stem]} and {path} would both write "
                f"results/crossword/fill/{stem}.*"
            )
        out[stem] = path
    return out


CW_LEXICON = {lang: crossword_lexicon(lang) for lang in CW["langs"]}
CW_PATTERNS = crossword_patterns()
if CW_PATTERNS:
    CW_LEXICON.setdefault(CW["fill"]["lang"], crossword_lexicon(CW["fill"]["lang"]))
CW_FILL_SETTINGS = FillSettings.from_config({k: v for k, v in CW["fill"].items() if k not in FillSettings.RULE_KEYS})


def crossword_tables(lexicon):
    """Path of a lexicon's crossword tables."""
    return f"results/crossword/tables/{lexicon}/tables.npz"


def crossword_job_tables(wildcards):
    """The tables of a (lang, ...) job."""
    if wildcards.lang not in CW_LEXICON:
        CW_LEXICON[wildcards.lang] = crossword_lexicon(wildcards.lang)
    return crossword_tables(CW_LEXICON[wildcards.lang])


def crossword_targets():
    """The crossword stage's default outputs: ranked puzzles per (lang, size), each pattern's fill."""
    return [
        *expand("results/crossword/{lang}/{size}/puzzles.parquet", lang=CW["langs"], size=CW["sizes"]),
        *expand("results/crossword/fill/{pattern}.ipuz", pattern=list(CW_PATTERNS)),
    ]


# ---- Crossword clues
# Word quality and clues of the crossword tables (crossword/quality.py, crossword/clues.py).
CW_TABLE_SETTINGS = TableSettings.from_config(CW)


CW_CONSTRUCTORS_LIST = "results/lexicon/constructors/constructors.parquet"  # the Spread the Wordlist (blacksquare)


def crossword_constructors_list(wildcards):
    """The constructors' list a lexicon's tables merge: the built-in English lexicon (builtin:en) with
    crossword.quality.constructors on; none otherwise (a user's own word list stays theirs alone)."""
    if wildcards.lexicon == CW_NUMERIC:  # the numeric tables take no word list
        return []
    if CW_TABLE_SETTINGS.constructors and lexicon_spec(wildcards.lexicon).source == BUILTIN_ENGLISH:
        return [CW_CONSTRUCTORS_LIST]
    return []


def crossword_constructors_flag(wildcards, input):
    """The value of `--constructors`: the list's file when the tables merge it, else '' (none)."""
    return input.constructors[0] if input.constructors else ""


def crossword_quality_files():
    """The user's files the word tables' quality depends on: a configured blocklist and word;score file (the
    shipped blocklist and function words are code of the tables' kind: kind_files)."""
    for key in ("blocklist", "scores"):
        path = CW["quality"][key]
        if path and not Path(path).is_file():
            fail(f"config key crossword.quality.{key}: {path}: no such file")
    blocklist, scores = CW["quality"]["blocklist"], CW["quality"]["scores"]
    return [path for path in (blocklist, scores) if path]
