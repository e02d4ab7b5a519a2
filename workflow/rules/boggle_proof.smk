# Boggle proofs (branch and bound over board classes): which boards of a shape score at
# least boggle.proof.min_score. Not in the default run; build one with e.g.
#   snakemake --cores 2 --configfile workflow/configs/enable2k.yaml \
#       results/boggle/enable2k/proof/3x4/certificate.json
# or every configured one (boggle.lexicons x boggle.proof.shapes) with `snakemake boggle_proofs`.
# The canonical class list (boggle.proof.partition of the shape, one class per symmetry
# orbit) is cut into boggle.proof.shards ranges, one job each. A shard job saves its done
# classes in shards/shard{i}.progress.json (not a declared output, so Snakemake keeps it
# when the job fails or is killed) and a rerun continues from there; its table is written
# only when complete. The gather checks every shard (the ranges asked for, every class
# once, same settings and lexicon) and writes
#   results/boggle/{lexicon}/proof/{shape}/boards.parquet     every board >= min_score
#   results/boggle/{lexicon}/proof/{shape}/classes.parquet    class statistics
#   results/boggle/{lexicon}/proof/{shape}/certificate.json   what was proved (complete?)
# results/boggle/{lexicon}/proof/{shape}/sample.json proves boggle.proof.sample.classes
# classes drawn at random (seeded) and the classes of the published best boards, and
# projects the CPU-hours of the whole proof (4x4: the figure to plan a cluster run with).


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
        mem_mb=boggle_proof_mem_mb,
        runtime=boggle_proof_runtime,
    params:
        settings=lambda w: boggle_proof_settings(w.shape),
    shell:
        "puzzlesearch boggle prove-shard --settings {params.settings:q} --words {input.words:q}"
        " --dawg {input.dawg:q} --shape {wildcards.shape:q} --shard {wildcards.shard:q}"
        " --stop-after-minutes {resources.runtime:q} --out {output.table:q} 2> {log:q}"


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
        mem_mb=4 * MEM_MB,  # 4x4: 1M class rows
        runtime=2 * STARTUP_MINUTES,
    params:
        settings=lambda w: boggle_proof_settings(w.shape),
        tables=boggle_proof_tables,
    shell:
        "puzzlesearch boggle prove-gather --settings {params.settings:q} --words {input.words:q}"
        " --dawg {input.dawg:q} --shape {wildcards.shape:q} --boards {output.boards:q}"
        " --classes {output.classes:q} --certificate {output.certificate:q} {params.tables:q} 2> {log:q}"


rule boggle_proof_sample:
    input:
        unpack(boggle_inputs),
        code=BOGGLE_CODE,
    output:
        table="results/boggle/{lexicon}/proof/{shape}/sample.parquet",
        summary="results/boggle/{lexicon}/proof/{shape}/sample.json",
    log:
        "logs/boggle/{lexicon}/proof/{shape}/sample.log",
    threads: workflow.cores  # classes in parallel processes (--jobs); rows in the order drawn
    resources:
        mem_mb=boggle_proof_sample_mem_mb,
        runtime=boggle_proof_sample_runtime,
    params:
        settings=lambda w: boggle_proof_settings(w.shape),
        sample=boggle_proof_sample_args,
        folder=lambda w, output: Path(output.summary).parent,
    shell:
        "puzzlesearch boggle prove-sample --settings {params.settings:q} --words {input.words:q}"
        " --dawg {input.dawg:q} --shape {wildcards.shape:q} {params.sample:q} --jobs {threads:q}"
        " --out {params.folder:q}"
        " 2> {log:q}"


rule boggle_proofs:
    input:
        boggle_proof_targets(),
