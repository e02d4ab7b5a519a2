# Report stage: figures and tables of every puzzle's results, for `snakemake --report`.
# Each rule calls one `puzzlesearch report ...` command with explicit inputs and outputs;
# every output is a report() item with a caption (workflow/report/*.rst), a category per
# puzzle and labels per lexicon/shape/language. The file lists come from
# puzzlesearch.report.targets (the same config the stage files read):
#   results/report/boggle/{lexicon}/{shape}/{mode}/{board,progress,histogram,scan}.png
#   results/report/bee/{lexicon}/{top.html,points.png,schedule.png}
#   results/report/cube/tables.png, results/report/cube/{testset}/{moves,times}.png
#   results/report/crossword/{lang}/{size}/{grid,trace}.png
#   results/report/benchmarks/{boggle_scorer.tsv,jobs.png}
#   results/report/benchmarks/{lexicon,bee}.{json,png}: fixed-work baselines (DAWG vs trie, numba vs Python)
#   results/report/benchmarks/cube.{json,png}: our cube solvers vs published two-phase solvers
#   results/report/benchmarks/crossword.{json,png}: the fill vs the baseline fill, one pattern, one node budget
# report_targets() (all of them) is part of the default targets.
from puzzlesearch.report import targets as report_paths

REPORT_CODE = kind_files("report-figure")
REPORT_MB = 1000  # peak memory of a figure job (polars + matplotlib): about 200 MB
REPORT_MINUTES = 5  # a figure job takes seconds; each benchmark baseline a few seconds of work
BENCH_CODE = kind_files("report-bench")
report_targets = lambda: report_paths.report_targets(config)
CW_BENCH_LANG = report_paths.crossword_bench_lang(config) or "en"
CW_BENCH_LEXICON = crossword_lexicon(CW_BENCH_LANG) if report_paths.crossword_bench_lang(config) else "none"


rule report_boggle:
    input:
        best="results/boggle/{lexicon}/{shape}/{mode}/best.parquet",
        seeds=lambda w: report_paths.boggle_seed_tables(config, w.lexicon, w.shape, w.mode),
        words=lambda w: lexicon_words(w.lexicon),
        code=REPORT_CODE,
    output:
        board=report(
            "results/report/boggle/{lexicon}/{shape}/{mode}/board.png",
            caption="../report/boggle_board.rst",
            category="Boggle",
            subcategory="{lexicon}",
            labels={"shape": "{shape}", "mode": "{mode}", "figure": "best board"},
        ),
        progress=report(
            "results/report/boggle/{lexicon}/{shape}/{mode}/progress.png",
            caption="../report/boggle_progress.rst",
            category="Boggle",
            subcategory="{lexicon}",
            labels={"shape": "{shape}", "mode": "{mode}", "figure": "best score over the search"},
        ),
        histogram=report(
            "results/report/boggle/{lexicon}/{shape}/{mode}/histogram.png",
            caption="../report/boggle_histogram.rst",
            category="Boggle",
            subcategory="{lexicon}",
            labels={"shape": "{shape}", "mode": "{mode}", "figure": "score histogram"},
        ),
    log:
        "logs/report/boggle/{lexicon}/{shape}/{mode}.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        expect=lambda w: boggle_search_expect(w.shape, w.mode),
    shell:
        "puzzlesearch report boggle --lexicon {wildcards.lexicon:q} --shape {wildcards.shape:q} --mode {wildcards.mode:q}"
        " --best {input.best:q} --seeds {input.seeds:q} --words {input.words:q} --expect {params.expect:q}"
        " --board-out {output.board:q}"
        " --progress-out {output.progress:q} --histogram-out {output.histogram:q} 2> {log:q}"


rule report_boggle_scan:
    input:
        summary="results/boggle/{lexicon}/{shape}/{mode}/scan.json",
        code=REPORT_CODE,
    output:
        report(
            "results/report/boggle/{lexicon}/{shape}/{mode}/scan.png",
            caption="../report/boggle_scan.rst",
            category="Boggle",
            subcategory="{lexicon}",
            labels={"shape": "{shape}", "mode": "{mode}", "figure": "neighbourhood scan"},
        ),
    log:
        "logs/report/boggle/{lexicon}/{shape}/{mode}_scan.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        title=lambda w: f"Boggle {w.lexicon} {w.shape} {w.mode}: neighbourhood scan of the best boards",
        expect=lambda w: boggle_step(ScanSettings, w.shape, w.mode),
    shell:
        "puzzlesearch report boggle-scan --title {params.title:q} --summary {input.summary:q} --expect {params.expect:q}"
        " --out {output:q} 2> {log:q}"


rule report_bee:
    input:
        puzzles="results/bee/{lexicon}/puzzles.parquet",
        words=lambda wc: lexicon_words(wc.lexicon),
        code=REPORT_CODE,
    output:
        top=report(
            "results/report/bee/{lexicon}/top.html",
            caption="../report/bee_top.rst",
            category="Spelling Bee",
            subcategory="{lexicon}",
            labels={"lexicon": "{lexicon}", "figure": "top puzzles"},
        ),
        points=report(
            "results/report/bee/{lexicon}/points.png",
            caption="../report/bee_points.rst",
            category="Spelling Bee",
            subcategory="{lexicon}",
            labels={"lexicon": "{lexicon}", "figure": "points vs words"},
        ),
    log:
        "logs/report/bee/{lexicon}.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    shell:
        "puzzlesearch report bee --lexicon {wildcards.lexicon:q} --puzzles {input.puzzles:q}"
        " --words {input.words:q} --top-out {output.top:q} --points-out {output.points:q} 2> {log:q}"


rule report_bee_schedule:
    input:
        schedule="results/bee/{lexicon}/schedule.parquet",
        manifest="results/bee/{lexicon}/schedule.json",
        words=lambda wc: lexicon_words(wc.lexicon),
        code=REPORT_CODE,
    output:
        report(
            "results/report/bee/{lexicon}/schedule.png",
            caption="../report/bee_schedule.rst",
            category="Spelling Bee",
            subcategory="{lexicon}",
            labels={"lexicon": "{lexicon}", "figure": "schedule: words and difficulty"},
        ),
    log:
        "logs/report/bee/{lexicon}_schedule.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        expect=BEE_SCHEDULE_RULES.to_json(),
    shell:
        "puzzlesearch report bee-schedule --lexicon {wildcards.lexicon:q} --schedule {input.schedule:q}"
        " --words {input.words:q} --expect {params.expect:q} --out {output:q} 2> {log:q}"


rule report_cube_solves:
    input:
        solves=lambda w: report_paths.cube_solve_tables(config, w.testset),
        code=REPORT_CODE,
    output:
        moves=report(
            "results/report/cube/{testset}/moves.png",
            caption="../report/cube_moves.rst",
            category="Rubik's cube",
            subcategory="{testset}",
            labels={"test set": "{testset}", "figure": "solution lengths"},
        ),
        times=report(
            "results/report/cube/{testset}/times.png",
            caption="../report/cube_times.rst",
            category="Rubik's cube",
            subcategory="{testset}",
            labels={"test set": "{testset}", "figure": "time per cube"},
        ),
    log:
        "logs/report/cube/{testset}.log",
    wildcard_constraints:
        testset=r"[A-Za-z0-9_-]+",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        solvers=config["cube"]["solvers"],
    shell:
        "puzzlesearch report cube-solves --testset {wildcards.testset:q} --solvers {params.solvers:q}"
        " --solves {input.solves:q} --moves-out {output.moves:q} --times-out {output.times:q} 2> {log:q}"


rule report_cube_tables:
    input:
        manifest=report_paths.cube_tables_manifest(config),
        code=REPORT_CODE,
    output:
        report(
            "results/report/cube/tables.png",
            caption="../report/cube_tables.rst",
            category="Rubik's cube",
            subcategory="tables",
            labels={"test set": "-", "figure": "table sizes"},
        ),
    log:
        "logs/report/cube/tables.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    shell:
        "puzzlesearch report cube-tables --manifest {input.manifest:q} --out {output:q} 2> {log:q}"


rule report_crossword:
    input:
        puzzles="results/crossword/{lang}/{size}/puzzles.parquet",
        ipuz=lambda w: report_paths.crossword_files(config, w.lang, w.size, "ipuz"),
        summaries=lambda w: report_paths.crossword_files(config, w.lang, w.size, "json"),
        code=REPORT_CODE,
    output:
        grid=report(
            "results/report/crossword/{lang}/{size}/grid.png",
            caption="../report/crossword_grid.rst",
            category="Crossword",
            subcategory="{lang}",
            labels={"language": "{lang}", "size": "{size}", "figure": "best grid"},
        ),
        trace=report(
            "results/report/crossword/{lang}/{size}/trace.png",
            caption="../report/crossword_trace.rst",
            category="Crossword",
            subcategory="{lang}",
            labels={"language": "{lang}", "size": "{size}", "figure": "cost over the search"},
        ),
    log:
        "logs/report/crossword/{lang}_{size}.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    shell:
        "puzzlesearch report crossword --lang {wildcards.lang:q} --size {wildcards.size:q} --puzzles {input.puzzles:q}"
        " --ipuz {input.ipuz:q} --summaries {input.summaries:q} --grid-out {output.grid:q}"
        " --trace-out {output.trace:q} 2> {log:q}"


rule report_bench_boggle:
    input:
        words=lexicon_words(report_paths.bench_lexicon(config) or "none"),
        dawg=lexicon_dawg(report_paths.bench_lexicon(config) or "none", "boggle_dawg"),
        code=BENCH_CODE,
    output:
        "results/report/benchmarks/boggle_scorer.tsv",
    log:
        "logs/report/bench_boggle.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        boards=report_paths.BENCH_BOARDS,
        seed=report_paths.BENCH_SEED,
    shell:
        "puzzlesearch report bench-boggle --words {input.words:q} --dawg {input.dawg:q} --boards {params.boards:q}"
        " --seed {params.seed:q} --out {output:q} 2> {log:q}"


rule report_bench_lexicon:
    input:
        words=lexicon_words(report_paths.bench_lexicon(config) or "none"),
        code=BENCH_CODE,
    output:
        figures="results/report/benchmarks/lexicon.json",
        plot=report(
            "results/report/benchmarks/lexicon.png",
            caption="../report/bench_lexicon.rst",
            category="Benchmarks",
            labels={"figure": "minimal DAWG vs plain trie"},
        ),
    log:
        "logs/report/bench_lexicon.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        lexicon=report_paths.bench_lexicon(config) or "none",
    shell:
        "puzzlesearch report bench-lexicon --lexicon {params.lexicon:q} --words {input.words:q}"
        " --json-out {output.figures:q} --out {output.plot:q} 2> {log:q}"


rule report_bench_bee:
    input:
        words=lexicon_words(report_paths.bee_bench_lexicon(config) or "none"),
        code=BENCH_CODE,
    output:
        figures="results/report/benchmarks/bee.json",
        plot=report(
            "results/report/benchmarks/bee.png",
            caption="../report/bench_bee.rst",
            category="Benchmarks",
            labels={"figure": "Spelling Bee: numba vs Python"},
        ),
    log:
        "logs/report/bench_bee.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        lexicon=report_paths.bee_bench_lexicon(config) or "none",
    shell:
        "puzzlesearch report bench-bee --lexicon {params.lexicon:q} --words {input.words:q}"
        " --json-out {output.figures:q} --out {output.plot:q} 2> {log:q}"


rule report_bench_cube:
    input:
        solves=report_paths.cube_solve_tables(config, report_paths.cube_bench_testset(config) or "none"),
        code=BENCH_CODE,
    output:
        figures="results/report/benchmarks/cube.json",
        plot=report(
            "results/report/benchmarks/cube.png",
            caption="../report/bench_cube.rst",
            category="Benchmarks",
            labels={"figure": "Rubik's cube vs published solvers"},
        ),
    log:
        "logs/report/bench_cube.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        testset=report_paths.cube_bench_testset(config) or "none",
        solvers=config["cube"]["solvers"],
    shell:
        "puzzlesearch report bench-cube --testset {params.testset:q} --solvers {params.solvers:q}"
        " --solves {input.solves:q} --json-out {output.figures:q} --out {output.plot:q} 2> {log:q}"


rule report_bench_crossword:
    input:
        pattern=report_paths.FILL_BENCH_PATTERN,
        tables=crossword_tables(CW_BENCH_LEXICON),
        words=lexicon_words(CW_BENCH_LEXICON),
        code=BENCH_CODE,
    output:
        figures="results/report/benchmarks/crossword.json",
        plot=report(
            "results/report/benchmarks/crossword.png",
            caption="../report/bench_crossword.rst",
            category="Benchmarks",
            labels={"figure": "crossword fill vs the baseline fill"},
        ),
    log:
        "logs/report/bench_crossword.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        settings=CW_FILL_SETTINGS.to_json(),
        lang=CW_BENCH_LANG,
        nodes=report_paths.FILL_BENCH_NODES,
    shell:
        "puzzlesearch report bench-crossword --settings {params.settings:q} --tables {input.tables:q}"
        " --words {input.words:q} --lang {params.lang:q} --pattern {input.pattern:q} --nodes {params.nodes:q}"
        " --json-out {output.figures:q} --out {output.plot:q} 2> {log:q}"


rule report_benchmarks:
    input:
        tsv=report_paths.benchmark_files(config),
        baseline=["results/report/benchmarks/boggle_scorer.tsv"] if report_paths.bench_lexicon(config) else [],
        code=REPORT_CODE,
    output:
        report(
            "results/report/benchmarks/jobs.png",
            caption="../report/benchmarks.rst",
            category="Benchmarks",
            labels={"figure": "jobs and the scorer baseline"},
        ),
    log:
        "logs/report/benchmarks.log",
    threads: 1
    resources:
        mem_mb=REPORT_MB,
        runtime=REPORT_MINUTES,
    params:
        baseline=(
            ["--baseline", "results/report/benchmarks/boggle_scorer.tsv"] if report_paths.bench_lexicon(config) else []
        ),
    shell:
        "puzzlesearch report benchmarks --tsv {input.tsv:q} {params.baseline:q} --out {output:q} 2> {log:q}"


if "DEFAULT_TARGETS" in globals() and "default_targets" not in globals():  # until common.smk collects targets
    DEFAULT_TARGETS += report_targets()
    default_targets = lambda: DEFAULT_TARGETS
