# Boggle proofs (branch and bound over board classes): which boards of a shape score at
# least boggle.proof.min_score. Not in the default run; build one with e.g.
#   snakemake --cores 2 results/boggle/enable2k/proof/3x3/certificate.json
# or every configured one (boggle.lexicons x boggle.proof.shapes) with `snakemake boggle_proofs`.
# The class list is split into boggle.proof.shards shards, one job each (a killed run
# redoes only the shards that were running); the gather checks every shard and writes
#   results/boggle/{lexicon}/proof/{shape}/boards.parquet     every board >= min_score
#   results/boggle/{lexicon}/proof/{shape}/classes.parquet    class statistics
#   results/boggle/{lexicon}/proof/{shape}/certificate.json   what was proved (complete?)
# Measured: 3x3 ENABLE2K >= 500, 677 CPU seconds in all (8 shards of ~84 CPU s, peak RSS 300 MB).


localrules:
    boggle_proofs,


wildcard_constraints:
    shard=r"\d+",


rule boggle_proof_shard:
    input:
        unpack(boggle_inputs),
        code=BOGGLE_CODE,
    output:
        table="results/boggle/{lexicon}/proof/{shape}/shards/shard{shard}.parquet",
        manifest="results/boggle/{lexicon}/proof/{shape}/shards/shard{shard}.json",
    log:
        "logs/boggle/{lexicon}/proof/{shape}/shard{shard}.log",
    benchmark:
        "benchmarks/boggle/{lexicon}/proof/{shape}/shard{shard}.tsv"
    threads: 1
    resources:
        mem_mb=PROOF_MEM_MB,
        runtime=cap_minutes(BOGGLE["proof"]["seconds"]),  # the job fails at its time cap anyway
    params:
        settings=lambda w: boggle_proof_settings(w.shape),
    shell:
        "puzzlesearch boggle prove-shard --settings {params.settings:q} --words {input.words:q}"
        " --dawg {input.dawg:q} --shape {wildcards.shape:q} --shard {wildcards.shard:q}"
        " --out {output.table:q} 2> {log:q}"


rule boggle_proof_gather:
    input:
        unpack(boggle_inputs),
        shards=boggle_proof_shards,
        code=BOGGLE_CODE,
    output:
        boards="results/boggle/{lexicon}/proof/{shape}/boards.parquet",
        classes="results/boggle/{lexicon}/proof/{shape}/classes.parquet",
        certificate="results/boggle/{lexicon}/proof/{shape}/certificate.json",
    log:
        "logs/boggle/{lexicon}/proof/{shape}/gather.log",
    threads: 1
    resources:
        mem_mb=PROOF_MEM_MB,
        runtime=STARTUP_MINUTES,
    params:
        settings=lambda w: boggle_proof_settings(w.shape),
        tables=boggle_proof_tables,
    shell:
        "puzzlesearch boggle prove-gather --settings {params.settings:q} --words {input.words:q}"
        " --dawg {input.dawg:q} --shape {wildcards.shape:q} --boards {output.boards:q}"
        " --classes {output.classes:q} --certificate {output.certificate:q} {params.tables:q} 2> {log:q}"


rule boggle_proofs:
    input:
        boggle_proof_targets(),
