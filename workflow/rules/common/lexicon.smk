# Lexicons: configured word lists, their artifacts' paths, the lexicon stage's targets.
# Included by workflow/rules/common.smk; only functions and values, no rules.


try:
    LEXICONS = specs_from_config(config)
except PuzzleError as _error:
    fail(_error)


def lexicon_spec(name, key="lexicons"):
    """The LexiconSpec of a configured lexicon (`key` names the config key that asks for it)."""
    if name not in LEXICONS:
        fail(f"config key {key}: lexicon {name!r} is not in `lexicons:` ({', '.join(sorted(LEXICONS))})")
    return LEXICONS[name]


def lexicon_source(wildcards):
    """The word-list file behind a lexicon (the packaged file for builtins), relative when inside the project."""
    return rel(source_file(lexicon_spec(wildcards.name).source))


def latin_lexicons():
    """Names of configured lexicons over a-z (these get DAWGs and Boggle/Bee stages)."""
    return [n for n, s in LEXICONS.items() if s.alphabet == "latin"]


def checked_lexicons(names, key, alphabet="latin"):
    """Configured lexicon names of one alphabet; a one-line error names the config key otherwise."""
    for name in names:
        if lexicon_spec(name, key).alphabet != alphabet:
            fail(f"config key {key}: {name!r} is not a {alphabet} lexicon")
    return list(names)


def lexicon_words(lexicon):
    """Path of a lexicon's word table (input for later stages)."""
    return f"results/lexicon/{lexicon}/words.parquet"


def lexicon_dawg(lexicon, kind="dawg"):
    """Path of a lexicon's DAWG ('dawg' or 'boggle_dawg')."""
    return f"results/lexicon/{lexicon}/{kind}.npz"


def lexicon_targets():
    """The lexicon stage's default outputs: every word table, both DAWGs of each latin lexicon."""
    return [
        *expand("results/lexicon/{name}/words.parquet", name=list(LEXICONS)),
        *expand("results/lexicon/{name}/{kind}.npz", name=latin_lexicons(), kind=["dawg", "boggle_dawg"]),
    ]
