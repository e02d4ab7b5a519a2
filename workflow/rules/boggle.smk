# Boggle stage: seeded board searches, a ranking merged over seeds, and a neighbourhood
# scan certifying the best boards. The logic is in src/puzzlesearch/boggle/.
#   results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet   one search job
#   results/boggle/{lexicon}/{shape}/{mode}/best.parquet          merged, symmetry-reduced
#   results/boggle/{lexicon}/{shape}/{mode}/scan.parquet|.json    the best boards' neighbourhoods
# Each rule passes its step's settings object (puzzlesearch.boggle.settings) as
# `--settings JSON`, with the job's own dice set resolved here: a 4x4 job does not rerun
# when the 5x5 dice set changes, a search job not when a scan key changes.

from puzzlesearch.boggle.settings import RankSettings, ScanSettings, SearchSettings

BOGGLE = config["boggle"]
BOGGLE_CODE = lib_files("boggle", "lexicon/dawg.py", "lexicon/artifacts.py")


wildcard_constraints:
    shape=r"[2-6]x[2-6]",
    mode=r"free|dice",
    seed=r"\d+",


def boggle_step(cls, shape, mode):
    """The settings JSON of one job; a config mistake (e.g. no dice set) is one line."""
    try:
        return cls.for_job(BOGGLE, shape, mode).to_json()
    except PuzzleError as error:
        fail(error)


def boggle_seeds(wildcards):
    """The seed tables a ranking merges."""
    return expand("results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet",
                  lexicon=wildcards.lexicon, shape=wildcards.shape, mode=wildcards.mode,
                  seed=range(BOGGLE["seeds"]))


def boggle_inputs(wildcards):
    """The lexicon files every boggle step reads."""
    return {"words": lexicon_words(wildcards.lexicon), "dawg": lexicon_dawg(wildcards.lexicon, "boggle_dawg")}


BOGGLE_LEXICONS = checked_lexicons(BOGGLE["lexicons"], "boggle.lexicons")
for _shape in BOGGLE["shapes"]:  # the configured jobs' settings, checked before anything runs
    for _mode in BOGGLE["modes"]:
        boggle_step(SearchSettings, _shape, _mode)


rule boggle_search:
    input:
        unpack(boggle_inputs),
        code=BOGGLE_CODE,
    output:
        "results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet",
    params:
        settings=lambda w: boggle_step(SearchSettings, w.shape, w.mode),
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/seed{seed}.log",
    benchmark:
        "benchmarks/boggle/{lexicon}/{shape}/{mode}/seed{seed}.tsv"
    shell:
        "{PS} boggle search --settings {params.settings:q} --words {input.words:q} --dawg {input.dawg:q}"
        " --shape {wildcards.shape:q} --mode {wildcards.mode:q} --seed {wildcards.seed:q}"
        " --out {output:q} 2> {log:q}"


rule boggle_rank:
    input:
        unpack(boggle_inputs),
        seeds=boggle_seeds,
        code=BOGGLE_CODE,
    output:
        "results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
    params:
        settings=lambda w: boggle_step(RankSettings, w.shape, w.mode),
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/rank.log",
    shell:
        "{PS} boggle rank --settings {params.settings:q} --words {input.words:q} --dawg {input.dawg:q}"
        " --shape {wildcards.shape:q} --out {output:q} {input.seeds:q} 2> {log:q}"


rule boggle_scan:
    input:
        unpack(boggle_inputs),
        best="results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
        code=BOGGLE_CODE,
    output:
        top="results/boggle/{lexicon}/{shape}/{mode}/scan.parquet",
        summary="results/boggle/{lexicon}/{shape}/{mode}/scan.json",
    params:
        settings=lambda w: boggle_step(ScanSettings, w.shape, w.mode),
    log:
        "logs/boggle/{lexicon}/{shape}/{mode}/scan.log",
    benchmark:
        "benchmarks/boggle/{lexicon}/{shape}/{mode}/scan.tsv"
    shell:
        "{PS} boggle scan --settings {params.settings:q} --words {input.words:q} --dawg {input.dawg:q}"
        " --from {input.best:q} --shape {wildcards.shape:q} --mode {wildcards.mode:q}"
        " --out {output.top:q} --summary {output.summary:q} > /dev/null 2> {log:q}"


DEFAULT_TARGETS += expand(
    "results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
    lexicon=BOGGLE_LEXICONS, shape=BOGGLE["shapes"], mode=BOGGLE["modes"],
)
if BOGGLE["scan"]["boards"] > 0:
    DEFAULT_TARGETS += expand(
        "results/boggle/{lexicon}/{shape}/{mode}/scan.json",
        lexicon=BOGGLE_LEXICONS, shape=BOGGLE["shapes"], mode=BOGGLE["modes"],
    )
