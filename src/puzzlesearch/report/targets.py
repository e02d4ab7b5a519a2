"""The report's files and the result files each is drawn from, as functions of the validated config.

workflow/rules/report.smk calls these (the workflow's logic stays in the package); every
path is relative to the project folder.
"""

from __future__ import annotations

from pathlib import Path

from puzzlesearch.lexicon.artifacts import specs_from_config

REPORT = "results/report"
BOGGLE_FIGURES = ("board", "progress", "histogram")  # .png per (lexicon, shape, mode); scan.png when scanned
CROSSWORD_FIGURES = ("grid", "trace")
CUBE_FIGURES = ("moves", "times")
BENCH_BOARDS = 200  # boards both Boggle scorers score in the baseline benchmark (about a second of Python)
BENCH_SEED = 1
FILL_BENCH_PATTERN = "workflow/crossword/patterns/bench13.txt"  # filled by both fills in the crossword benchmark
FILL_BENCH_NODES = 100_000  # node budget of each fill there (a few seconds at most; the work bound)


def boggle_lexicons(config: dict) -> list[str]:
    """Lexicons of the Boggle stage."""
    return list(config["boggle"]["lexicons"])


def bee_lexicons(config: dict) -> list[str]:
    """Lexicons of the Spelling Bee stage (all latin lexicons when none are named)."""
    named = config["bee"]["lexicons"]
    return list(named) if named else [n for n, s in specs_from_config(config).items() if s.alphabet == "latin"]


def boggle_jobs(config: dict) -> list[tuple[str, str, str]]:
    """(lexicon, shape, mode) of every Boggle ranking the default run builds."""
    b = config["boggle"]
    return [(lex, shape, mode) for lex in boggle_lexicons(config) for shape in b["shapes"] for mode in b["modes"]]


def scanned(config: dict) -> bool:
    """Whether the default run scans the best Boggle boards."""
    return config["boggle"]["scan"]["boards"] > 0


def boggle_seed_tables(config: dict, lexicon: str, shape: str, mode: str) -> list[str]:
    """The seed tables of one Boggle ranking."""
    return [f"results/boggle/{lexicon}/{shape}/{mode}/seed{s}.parquet" for s in range(config["boggle"]["seeds"])]


def crossword_jobs(config: dict) -> list[tuple[str, int]]:
    """(lang, size) of every generated crossword table."""
    cw = config["crossword"]
    return [(lang, size) for lang in cw["langs"] for size in cw["sizes"]]


def crossword_files(config: dict, lang: str, size, ext: str) -> list[str]:
    """The per-seed files (.ipuz or .json) of one (lang, size)."""
    return [f"results/crossword/{lang}/{size}/{lang}_{size}_seed{s}.{ext}" for s in range(config["crossword"]["seeds"])]


def cube_solve_tables(config: dict, testset: str) -> list[str]:
    """The solve tables of one test set, one per configured solver (in config order)."""
    return [f"results/cube/{solver}/{testset}.parquet" for solver in config["cube"]["solvers"]]


def cube_tables_manifest(config: dict) -> str:
    """The cube tables' summary table."""
    return f"{config['cube']['tables'].rstrip('/')}/manifest.parquet"


def benchmark_files(config: dict) -> list[str]:
    """The `benchmark:` files of every benchmarked job of the default run."""
    out = []
    for lex, shape, mode in boggle_jobs(config):
        out += [f"benchmarks/boggle/{lex}/{shape}/{mode}/seed{s}.tsv" for s in range(config["boggle"]["seeds"])]
        if scanned(config):
            out.append(f"benchmarks/boggle/{lex}/{shape}/{mode}/scan.tsv")
    out += [f"benchmarks/bee/{lex}/puzzles.tsv" for lex in bee_lexicons(config)]
    out += [
        f"benchmarks/cube/{solver}/{t}.tsv"
        for t in config["cube"]["default_testsets"]
        for solver in config["cube"]["solvers"]
    ]
    cw = config["crossword"]
    out += [
        f"benchmarks/crossword/generate_{lang}_{size}_seed{s}.tsv"
        for lang, size in crossword_jobs(config)
        for s in range(cw["seeds"])
    ]
    out += [f"benchmarks/crossword/fill_{Path(p).stem}.tsv" for p in cw["fill"]["patterns"]]
    return out


def bench_lexicon(config: dict) -> str | None:
    """The lexicon of the Boggle scorer baseline benchmark (the first Boggle lexicon), or None."""
    lexicons = boggle_lexicons(config)
    return lexicons[0] if lexicons else None


def bee_bench_lexicon(config: dict) -> str | None:
    """The lexicon of the Spelling Bee baseline benchmark (the first Bee lexicon), or None."""
    lexicons = bee_lexicons(config)
    return lexicons[0] if lexicons else None


def cube_bench_testset(config: dict) -> str | None:
    """The test set of the cube benchmark figure (the first default test set), or None."""
    sets = config["cube"]["default_testsets"]
    return sets[0] if sets and config["cube"]["solvers"] else None


def crossword_bench_lang(config: dict) -> str | None:
    """The language of the crossword fill benchmark (crossword.fill.lang, when the run uses its lexicon), or None."""
    cw = config["crossword"]
    lang = cw["fill"]["lang"]
    return lang if lang in cw["langs"] or cw["fill"]["patterns"] else None


def baseline_figures(config: dict) -> list[str]:
    """The plots of the baseline benchmarks (lexicon: DAWG vs trie; Bee: numba vs Python; cube vs peers; fill)."""
    out = [f"{REPORT}/benchmarks/lexicon.png"] if bench_lexicon(config) else []
    out += [f"{REPORT}/benchmarks/bee.png"] if bee_bench_lexicon(config) else []
    out += [f"{REPORT}/benchmarks/cube.png"] if cube_bench_testset(config) else []
    return out + ([f"{REPORT}/benchmarks/crossword.png"] if crossword_bench_lang(config) else [])


def report_files(config: dict) -> dict[str, list[str]]:
    """Category -> the report files the default run builds."""
    out = {"Boggle": [], "Spelling Bee": [], "Rubik's cube": [], "Crossword": [], "Benchmarks": []}
    for lex, shape, mode in boggle_jobs(config):
        folder = f"{REPORT}/boggle/{lex}/{shape}/{mode}"
        out["Boggle"] += [f"{folder}/{f}.png" for f in BOGGLE_FIGURES]
        if scanned(config):
            out["Boggle"].append(f"{folder}/scan.png")
    for lex in bee_lexicons(config):
        out["Spelling Bee"] += [f"{REPORT}/bee/{lex}/{f}" for f in ("top.html", "points.png", "schedule.png")]
    out["Rubik's cube"] = [f"{REPORT}/cube/tables.png"] + [
        f"{REPORT}/cube/{t}/{f}.png" for t in config["cube"]["default_testsets"] for f in CUBE_FIGURES
    ]
    for lang, size in crossword_jobs(config):
        out["Crossword"] += [f"{REPORT}/crossword/{lang}/{size}/{f}.png" for f in CROSSWORD_FIGURES]
    out["Benchmarks"] = [f"{REPORT}/benchmarks/jobs.png"] + baseline_figures(config)
    return out


def report_targets(config: dict) -> list[str]:
    """Every report file of the default run (part of `rule all`)."""
    return [path for files in report_files(config).values() for path in files]
