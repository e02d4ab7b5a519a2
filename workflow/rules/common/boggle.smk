# Boggle: settings, inputs and targets of the search/rank/scan rules (boggle.smk) and the proofs (boggle_proof.smk).
# Included by workflow/rules/common.smk; only functions and values, no rules.


# ---------------------------------------------------------------- Boggle (boggle.smk)
# Each rule passes its step's settings object (puzzlesearch.boggle.settings) as
# `--settings JSON`, with the job's own dice set resolved here: a 4x4 job does not rerun
# when the 5x5 dice set changes, a search job not when a scan key changes.
from puzzlesearch.boggle.settings import RankSettings, ScanSettings, SearchSettings

BOGGLE = config["boggle"]
BOGGLE_CODE = kind_files("boggle-seed", "boggle-best", "boggle-scan", "boggle-proof-shard", "boggle-proof")


def boggle_step(cls, shape, mode):
    """The settings JSON of one job; a config mistake (e.g. no dice set) is one line."""
    try:
        return cls.for_job(BOGGLE, shape, mode).to_json()
    except PuzzleError as error:
        fail(error)


def boggle_search_expect(shape, mode, key=None):
    """The --expect JSON of a consumer of this job's seed tables (their search settings), under `key` if given."""
    settings = json.loads(boggle_step(SearchSettings, shape, mode))
    return json.dumps({key: settings} if key else settings, sort_keys=True)


def boggle_seeds(wildcards):
    """The seed tables a ranking merges."""
    return expand(
        "results/boggle/{lexicon}/{shape}/{mode}/seed{seed}.parquet",
        lexicon=wildcards.lexicon,
        shape=wildcards.shape,
        mode=wildcards.mode,
        seed=range(BOGGLE["seeds"]),
    )


def boggle_inputs(wildcards):
    """The lexicon files every boggle step reads."""
    return {"words": lexicon_words(wildcards.lexicon), "dawg": lexicon_dawg(wildcards.lexicon, "boggle_dawg")}


BOGGLE_LEXICONS = checked_lexicons(BOGGLE["lexicons"], "boggle.lexicons")
for _shape in BOGGLE["shapes"]:  # the configured jobs' settings, checked before anything runs
    for _mode in BOGGLE["modes"]:
        boggle_step(SearchSettings, _shape, _mode)


def boggle_targets():
    """The Boggle stage's default outputs: each ranking, and its scan when scans are on."""
    tables = ["best.parquet", "scan.json"] if BOGGLE["scan"]["boards"] > 0 else ["best.parquet"]
    return expand(
        "results/boggle/{lexicon}/{shape}/{mode}/{table}",
        lexicon=BOGGLE_LEXICONS,
        shape=BOGGLE["shapes"],
        mode=BOGGLE["modes"],
        table=tables,
    )


# ---- Boggle proofs (boggle_proof.smk): not in default_targets(); `snakemake boggle_proofs`
# builds boggle.lexicons x boggle.proof.shapes, or ask for one certificate.json.
# A proof's shards are ranges of its canonical class list (boggle.proof.shards per shape);
# their resources come from boggle.proof.cost (measured per class, see shard_resources):
# runtime = 2 x (3 min + classes x p99 + max CPU s per class), mem_mb = 1.5 x peak, both
# times the attempt; a shard stops itself before its runtime ends and keeps its progress,
# so a retry (--retries) or a rerun continues. The class count is Burnside's (no listing
# of classes at DAG time).
from puzzlesearch.boggle.proof.settings import ProofSettings, for_shape, sample_settings, shard_resources


def boggle_proof_settings(shape):
    """The settings JSON of a proof's jobs (one shape's values); a config mistake is one line."""
    try:
        return ProofSettings.for_job(BOGGLE, shape).capped_shards(shape).to_json()
    except PuzzleError as error:
        fail(error)


def boggle_proof_shard_count(shape):
    """boggle.proof.shards of a shape, at most its number of classes."""
    try:
        return ProofSettings.for_job(BOGGLE, shape).capped_shards(shape).shards
    except PuzzleError as error:
        fail(error)


def boggle_proof_runtime(wildcards, attempt):
    """Minutes of one shard job (from the cost table; more on a retry)."""
    return shard_resources(BOGGLE["proof"], wildcards.shape, attempt)["runtime"]


def boggle_proof_mem_mb(wildcards, attempt):
    """MB of one shard job (from the cost table; more on a retry)."""
    return shard_resources(BOGGLE["proof"], wildcards.shape, attempt)["mem_mb"]


def boggle_proof_sample_mem_mb(wildcards, threads, attempt):
    """MB of a sample job: one shard job's for each of its worker processes."""
    return threads * boggle_proof_mem_mb(wildcards, attempt)


def boggle_proof_shards(wildcards):
    """Every shard table of a proof and its manifest."""
    return expand(
        "results/boggle/{lexicon}/proof/{shape}/shards/shard{shard}.{ext}",
        lexicon=wildcards.lexicon,
        shape=wildcards.shape,
        shard=range(boggle_proof_shard_count(wildcards.shape)),
        ext=["parquet", "json"],
    )


def boggle_proof_tables(wildcards):
    """The shard tables (Parquet) a gather merges, in shard order."""
    return [path for path in boggle_proof_shards(wildcards) if path.endswith(".parquet")]


def boggle_proof_sample_args(wildcards):
    """--classes, --seed and --board flags of a shape's sample (boggle.proof.sample)."""
    sample = sample_settings(BOGGLE)
    boards = sample["boards"].get(wildcards.shape, [])
    flags = ["--classes", sample["classes"], "--seed", sample["seed"]]
    return [str(x) for x in flags + [x for b in boards for x in ("--board", b)]]


def boggle_proof_sample_runtime(wildcards, attempt):
    """Minutes of a sample job: its classes at the p99 cost, plus the boards' classes at the max."""
    sample = sample_settings(BOGGLE)
    cost = for_shape(BOGGLE["proof"]["cost"], wildcards.shape, "cost")
    boards = len(sample["boards"].get(wildcards.shape, []))
    seconds = sample["classes"] * cost["seconds_p99"] + (boards + 1) * cost["seconds_max"]
    return attempt * 2 * cap_minutes(seconds)


def boggle_proof_targets():
    """The certificates of every configured proof (the `boggle_proofs` target)."""
    return expand(
        "results/boggle/{lexicon}/proof/{shape}/certificate.json",
        lexicon=BOGGLE_LEXICONS,
        shape=BOGGLE["proof"]["shapes"],
    )
