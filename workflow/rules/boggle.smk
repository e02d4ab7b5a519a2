# Boggle stage: seeded board searches, a ranking merged over seeds, and a neighbourhood
# scan certifying the best boards. The logic is in src/puzzlesearch/boggle/.
#   results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet   one search job
#   results/boggle/{lexicon}/{shape}/{mode}/best.parquet          merged, symmetry-reduced
#   results/boggle/{lexicon}/{shape}/{mode}/scan.parquet|.json    the best boards' neighbourhoods

BOGGLE = config["boggle"]


wildcard_constraints:
    shape=r"[2-6]x[2-6]",
    mode=r"free|dice",
    seed=r"\d+",


def boggle_lexicons():
    """Lexicons of the boggle section, checked against `lexicons:` (latin only)."""
    for name in BOGGLE["lexicons"]:
        if lexicon_spec(name).alphabet != "latin":
            raise ValueError(f"config key boggle.lexicons: {name!r} is not a latin (a-z) lexicon")
    return BOGGLE["lexicons"]


def boggle_points():
    """The points table as the CLI's --points value."""
    return ",".join(str(p) for p in BOGGLE["points"])


def boggle_dice(wildcards):
    """The dice option of a search job ('' in free mode)."""
    if wildcards.mode != "dice":
        return ""
    dice = BOGGLE["dice"].get(wildcards.shape)
    if dice is None:
        raise ValueError(f"config key boggle.dice: no dice set for shape {wildcards.shape}")
    return f"--dice {dice if isinstance(dice, str) else ','.join(dice)}"


def boggle_seeds(wildcards):
    """The seed tables a ranking merges."""
    return expand("results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet",
                  lexicon=wildcards.lexicon, shape=wildcards.shape, mode=wildcards.mode,
                  seed=range(BOGGLE["seeds"]))


rule boggle_search:
    input:
        dawg=lambda w: lexicon_dawg(w.lexicon, "boggle_dawg"),
        words=lambda w: lexicon_words(w.lexicon),
        code=lib_files("boggle"),
    output:
        "results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet",
    params:
        method=BOGGLE["method"],
        seconds=BOGGLE["seconds"],
        max_boards=BOGGLE["max_boards"],
        pool_size=BOGGLE["pool_size"],
        keep=BOGGLE["keep"],
        points=boggle_points(),
        dice=boggle_dice,
        pool_search=BOGGLE["pool_search"],  # read from config.yaml by the command
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/seed{seed}.log",
    benchmark:
        "benchmarks/boggle/{lexicon}/{shape}/{mode}/seed{seed}.tsv"
    shell:
        "{PS} boggle search --lexicon {wildcards.lexicon} --shape {wildcards.shape}"
        " --mode {wildcards.mode} {params.dice} --seed {wildcards.seed} --method {params.method}"
        " --seconds {params.seconds} --max-boards {params.max_boards} --pool-size {params.pool_size}"
        " --keep {params.keep} --points {params.points} --out {output} 2> {log}"


rule boggle_rank:
    input:
        seeds=boggle_seeds,
        dawg=lambda w: lexicon_dawg(w.lexicon, "boggle_dawg"),
        code=lib_files("boggle"),
    output:
        "results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
    params:
        keep=BOGGLE["keep"],
        points=boggle_points(),
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/rank.log",
    shell:
        "{PS} boggle rank {input.seeds} --lexicon {wildcards.lexicon} --shape {wildcards.shape}"
        " --keep {params.keep} --points {params.points} --out {output} 2> {log}"


rule boggle_scan:
    input:
        best="results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
        dawg=lambda w: lexicon_dawg(w.lexicon, "boggle_dawg"),
        code=lib_files("boggle"),
    output:
        top="results/boggle/{lexicon}/{shape}/{mode}/scan.parquet",
        summary="results/boggle/{lexicon}/{shape}/{mode}/scan.json",
    params:
        boards=BOGGLE["scan"]["boards"],
        distance=BOGGLE["scan"]["distance"],
        swaps="--swaps" if BOGGLE["scan"]["swaps"] else "--no-swaps",
        keep=BOGGLE["scan"]["keep"],
        points=boggle_points(),
        dice=boggle_dice,
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/scan.log",
    benchmark:
        "benchmarks/boggle/{lexicon}/{shape}/{mode}/scan.tsv"
    shell:
        "{PS} boggle scan --from {input.best} --shape {wildcards.shape} --boards {params.boards}"
        " --mode {wildcards.mode} {params.dice}"
        " --distance {params.distance} {params.swaps} --keep {params.keep} --lexicon {wildcards.lexicon}"
        " --points {params.points} --out {output.top} --summary {output.summary} > /dev/null 2> {log}"


DEFAULT_TARGETS += expand(
    "results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
    lexicon=boggle_lexicons(), shape=BOGGLE["shapes"], mode=BOGGLE["modes"],
)
if BOGGLE["scan"]["boards"] > 0:
    DEFAULT_TARGETS += expand(
        "results/boggle/{lexicon}/{shape}/{mode}/scan.json",
        lexicon=boggle_lexicons(), shape=BOGGLE["shapes"], mode=BOGGLE["modes"],
    )
