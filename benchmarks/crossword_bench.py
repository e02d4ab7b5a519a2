"""Crossword benchmark: generation (12x12 English, max vertical word 4) and 15x15 pattern fill.

    python benchmarks/crossword_bench.py [--seeds 10] [--patterns 6] [--fill-floor 0]
    python benchmarks/crossword_bench.py --american [--fill-seeds 100] [--hard-seeds 10]

Prints figures and ratios against baselines run in the same process:
- generation: the progressive search with focused mutations vs the seed's uniform
  mutations (focus 0), same seeds and budget;
- cost kernel: numba grid_cost vs a plain-Python evaluation of the same grids;
- fill: seconds per pattern with the default fill (frequency-weighted word order, noisy
  restarts, last-conflict) vs a plain baseline on the same patterns and budget: no
  frequency weight, no restart noise, no last-conflict (dom/wdeg slot order and Luby
  node limits kept, since the time budget is checked between attempts); both from
  puzzlesearch.baselines.fill_with (the report's crossword benchmark uses the same code).
  --fill-nodes N bounds each fill by N search nodes instead of time.
--american: the fill over the standard American 15x15 patterns of
workflow/crossword/patterns/american15 (easy, stairs, medium, open) at the default quality
floor (crossword.fill min_frequency and min_score): per pattern filled/seeds (and how the
others ended: proved impossible at the floor, or the budget), mean/p95/max CPU seconds, mean
nodes, mean and min entry quality (word score 0-100), for the fill and a baseline in the same
run (the fill with restarts only, no complete searches between them: AMERICAN_BASELINE),
the fill with the word-order settings before their retuning (PREVIOUS_DEFAULTS; skip with
--no-previous; ratios of mean and p95 CPU seconds and mean nodes) and, on the first
--engine-seeds seeds, the previous kernel (puzzlesearch.baselines.crossword_fill: the same nodes and fills),
beside the published figures of a pure-Python backjumping filler (score >= 50 list).
Each line gives the node rate (nodes per CPU second).
--versus: beside blacksquare's Rust filler (PyPI blacksquare, the peer of /work/shared/peers.md) on the
same list, the Spread the Wordlist, in the same run: the four American patterns, --versus-seeds seeds
each, at the list's 50 and 40 (our scores 100 and 80: score = 100 x the list's 0..1). Each filler runs
in its own process per floor (its whole-process CPU seconds, start-up and list loading included, are
reported); per pattern: filled/seeds, seconds per fill (mean, p95, max; CPU), mean entry score (0-100,
the list's for both: an entry the list lacks scores ours). blacksquare runs at temperature 0 for seed 0
and 0.1 for the others (its Rust random numbers are not seedable), with --peer-timeout seconds a fill.
Runs on one core (numba kernels are single-threaded). Timings exclude kernel loading.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.baselines import crossword_fill, fill_with
from puzzlesearch.config import validate_config
from puzzlesearch.crossword._kernels.cost import grid_cost
from puzzlesearch.crossword.fill import FillSettings, NoFill, american_pattern, fill
from puzzlesearch.crossword.io import read_pattern
from puzzlesearch.crossword.model import Language, runs
from puzzlesearch.crossword.search import fits_style, generate
from puzzlesearch.crossword.settings import GenerateSettings as SearchSettings
from puzzlesearch.crossword.tables import open_tables
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon import open_lexicon

PROJECT = Path(__file__).resolve().parents[1]


def python_cost(grid, alphabet, known, anagrams):
    """Plain-Python f x 5 of a grid (the baseline of the cost kernel)."""
    total = 0
    for c in range(grid.shape[1]):
        for start, n in runs(grid[:, c] != 0):
            if n < 2:
                continue
            w = alphabet.decode(grid[start : start + n, c])
            if w not in known:
                total += n if "".join(sorted(w)) in anagrams else 5 * n
    return total


def run_generation(tables, lang, seeds, budget, focus):
    """(solved seeds, median seconds, all seconds) for the 12x12, max-down-4 setting."""
    secs, solved = [], 0
    for seed in range(seeds):
        g = generate(
            tables,
            lang,
            SearchSettings(
                size=12, max_down=4, time_budget=budget, focus=focus, max_pops=0, strategy="fill1", min_entry=2
            ),
            seed,
            progress=False,
        )
        solved += g.cost5 == 0
        secs.append(g.seconds)
    return solved, statistics.median(secs), secs


NO_NODE_LIMIT = 10**15  # without --fill-nodes the benchmark compares time-budgeted fills


def run_fill(patterns, tables, budget, label, baseline=False, nodes=None):
    """Fill each pattern (the fill, or the baseline of puzzlesearch.baselines); print one line each; seconds (inf when not filled)."""
    settings = FillSettings(time_budget=budget, max_nodes=nodes or NO_NODE_LIMIT)
    secs = []
    for seed, pattern in patterns:
        blacks = int((pattern == 0).sum())
        r = fill_with(pattern, tables, settings, baseline)
        if r is None:
            secs.append(float("inf"))
            print(f"  {label} pattern {seed} ({blacks} black): not filled within the budget")
            continue
        secs.append(r.seconds)
        print(
            f"  {label} pattern {seed} ({blacks} black, {blacks / pattern.size:.1%}): {r.seconds:.2f}s, "
            f"{r.nodes} nodes, {r.restarts} restarts, quality {r.quality:.2f}"
        )
    return secs


def median_text(secs: list[float], budget: float) -> str:
    """The median in seconds, or '> budget' when over the budget."""
    med = statistics.median(secs)
    return f"{med:.2f}s" if math.isfinite(med) else f"> {budget:g}s"


def ratio(base: float, fast: float, budget: float) -> str:
    """base / fast as text; a bound when the baseline median hit the budget."""
    if math.isinf(fast):
        return "n/a (median fill over the budget)"
    if math.isinf(base):
        return f"> {budget / fast:.1f}x"
    return f"{base / fast:.1f}x"


AMERICAN = PROJECT / "workflow" / "crossword" / "patterns" / "american15"
AMERICAN_PATTERNS = ("easy", "stairs", "medium", "open")
HARD = ("stairs", "open")  # run with --hard-seeds seeds (a failed seed costs the whole budget)
# Published (pure-Python filler, backjumping, scored list at score >= 50): easy grid, a stair-step
# grid, a harder grid, the most open grid.
PUBLISHED = {
    "easy": "0.027 s mean",
    "stairs": "0.74 s mean",
    "medium": "harder grid: 5.2 s mean, 73 s worst",
    "open": "most open grid: unfilled in 150 s",
}
AMERICAN_BASELINE = {"proof_share": 0.0}  # the fill without complete searches between its restarts (restarts only)
PREVIOUS_DEFAULTS = {"freq_weight": 1.0, "noise": 1.0}  # the fill's word order before the retuning (Nov 23)


def fill_seed(pattern, tables, settings, seed, fill_fn=fill):
    """(filled, CPU seconds, nodes, mean entry quality, min entry quality, how it ended) of fill_fn
    (the fill, or the previous kernel's crossword_fill.fill)."""
    t = time.process_time()
    try:
        r = fill_fn(pattern, tables, settings, seed, progress=False)
    except NoFill as exc:
        end = "proved impossible at this floor" if exc.proved else "node budget or time cap"
        return False, time.process_time() - t, exc.nodes, math.nan, math.nan, end
    return True, time.process_time() - t, r.nodes, r.mean_entry, r.min_entry, "filled"


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    v = sorted(values)
    return v[min(len(v) - 1, math.ceil(0.95 * len(v)) - 1)]


def american_line(label: str, rows: list[tuple]) -> str:
    """One summary line of a pattern's seeds."""
    ok = [r for r in rows if r[0]]
    secs = [r[1] for r in rows]
    ends = sorted({r[5] for r in rows if not r[0]})
    quality = (
        f"entry quality mean {statistics.mean(r[3] for r in ok):.1f}, min {min(r[4] for r in ok):.0f}" if ok else ""
    )
    rate = sum(r[2] for r in rows) / max(sum(secs), 1e-9)
    return (
        f"  {label:9s} filled {len(ok)}/{len(rows)}; s mean {statistics.mean(secs):.3f} p95 {p95(secs):.3f} "
        f"max {max(secs):.3f}; nodes mean {statistics.mean(r[2] for r in rows):.0f} p95 "
        f"{p95([r[2] for r in rows]):.0f} ({rate / 1e3:.1f}k nodes/s); {quality}"
        + (f"; unfilled: {', '.join(ends)}" if ends else "")
    )


def run_american(
    config,
    root,
    seeds: int,
    hard_seeds: int,
    max_nodes: int | None,
    hard_nodes: int,
    engine_seeds: int = 0,
    names: tuple[str, ...] = AMERICAN_PATTERNS,
    previous: bool = True,
    baseline: bool = True,
) -> None:
    """The fill and its baseline over the American 15x15 patterns, seeds 0..n-1 each."""
    default = FillSettings()
    settings = default.replace(max_nodes=max_nodes) if max_nodes else default
    tables = open_tables("en", config, root, settings.min_frequency, min_score=settings.min_score)
    print(
        f"fill over American 15x15 patterns, default floor: frequency >= {settings.min_frequency}, "
        f"score >= {settings.min_score} ({int(tables.word_ok.sum())} words); budget {settings.max_nodes} nodes "
        f"({hard_nodes or settings.max_nodes} on {', '.join(HARD)}; cap {settings.time_budget:g} s); CPU seconds; "
        f"baseline = the fill with {AMERICAN_BASELINE}; same seeds"
    )
    fill(np.full((3, 3), -1, dtype=np.int8), tables, settings, 0, progress=False)  # load the kernel
    for name in names:
        pattern = read_pattern(AMERICAN / f"{name}.txt", tables.alphabet)
        n = hard_seeds if name in HARD else seeds
        run = settings.replace(max_nodes=hard_nodes) if name in HARD and hard_nodes else settings
        blocks = int((pattern == 0).sum())
        print(f"{name} ({blocks} blocks; published: {PUBLISHED[name]}):")
        rows = [fill_seed(pattern, tables, run, seed) for seed in range(n)]
        print(american_line("fill", rows))
        if baseline:
            b_rows = [fill_seed(pattern, tables, run.replace(**AMERICAN_BASELINE), seed) for seed in range(n)]
            print(american_line("baseline", b_rows))
            mean, b_mean = statistics.mean(r[1] for r in rows), statistics.mean(r[1] for r in b_rows)
            print(f"  ratio baseline/fill mean CPU seconds {b_mean / mean:.1f}x")
        if previous:  # the same kernel with the word-order settings before the retuning
            p_rows = [fill_seed(pattern, tables, run.replace(**PREVIOUS_DEFAULTS), seed) for seed in range(n)]
            print(american_line("previous", p_rows))
            p_secs, secs = [r[1] for r in p_rows], [r[1] for r in rows]
            print(
                f"  ratio previous/fill CPU seconds: mean {statistics.mean(p_secs) / statistics.mean(secs):.1f}x, "
                f"p95 {p95(p_secs) / p95(secs):.1f}x; nodes mean "
                f"{statistics.mean(r[2] for r in p_rows) / statistics.mean(r[2] for r in rows):.1f}x"
            )
        if engine_seeds:  # the previous search kernel (baselines.crossword_fill): the same nodes and fills
            k = min(n, engine_seeds)
            o_rows = [fill_seed(pattern, tables, run, seed, crossword_fill.fill) for seed in range(k)]
            print(american_line("old kernel", o_rows))
            same = sum(a[2] == b[2] for a, b in zip(rows, o_rows))
            t_new, t_old = sum(r[1] for r in rows[:k]), sum(r[1] for r in o_rows)
            print(
                f"  ratio old kernel/fill CPU seconds over seeds 0..{k - 1}: {t_old / t_new:.2f}x ({same}/{k} same nodes)"
            )


VERSUS_FLOORS = (50, 40)  # the list's scores (0..50); ours are 2x: 100 and 80
LIST_SCALE = 2  # our score per point of the list's 0..50


THEMELESS_PREFIX = "themeless-"  # --versus: "themeless-K", the K-th generated themeless pattern
THEMELESS_SIZE = 15


def themeless_patterns(count: int) -> list[str]:
    """The names of the first `count` generated themeless patterns: `crossword generate --style themeless`'s
    pattern maker and settings (crossword.themeless defaults), pattern seeds 0, 1, ... kept when they have at
    most max_entries entries (as generation keeps them)."""
    s = themeless_settings()
    names, seed = [], 0
    while len(names) < count:
        try:
            if fits_style(themeless_pattern(seed), s):
                names.append(f"{THEMELESS_PREFIX}{seed}")
        except PuzzleError:
            pass  # no pattern from this seed
        seed += 1
    return names


def themeless_settings() -> SearchSettings:
    """The schema's themeless generation settings (crossword.themeless) for a 15x15."""
    section = validate_config({"lexicons": {"default": "builtin:en"}}, PROJECT)["crossword"]
    return SearchSettings.for_job(section, "en", THEMELESS_SIZE).themeless(section)


def themeless_pattern(seed: int) -> np.ndarray:
    """The generated themeless pattern of a pattern seed (0 black, -1 empty)."""
    s = themeless_settings()
    return american_pattern(THEMELESS_SIZE, s.black_fraction, seed, s.min_entry, s.max_across)


def pattern_rows(name: str) -> list[str]:
    """A pattern's rows ('#' black, '.' empty): an American pattern file or a generated themeless one."""
    if name.startswith(THEMELESS_PREFIX):
        grid = themeless_pattern(int(name[len(THEMELESS_PREFIX) :]))
        return ["".join("#" if v == 0 else "." for v in row) for row in grid]
    return [ln.strip() for ln in (AMERICAN / f"{name}.txt").read_text().splitlines() if ln.strip() and ln[0] != ";"]


def pattern_array(name: str) -> np.ndarray:
    """A pattern as the fill takes it (0 black, -1 empty)."""
    return np.array([[0 if ch == "#" else -1 for ch in row] for row in pattern_rows(name)], dtype=np.int8)


def pattern_blacks(name: str) -> list[tuple[int, int]]:
    """The black cells of a pattern."""
    return [(r, c) for r, row in enumerate(pattern_rows(name)) for c, ch in enumerate(row) if ch == "#"]


def grid_entries(rows: list[str]) -> list[str]:
    """Across and down entries (runs of 2+ letters) of a filled grid given as rows with '#'."""
    cols = ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
    return [w for line in rows + cols for w in line.split("#") if len(w) >= 2]


def side_ours(floor: int, seeds: int, names: tuple[str, ...]) -> list[dict]:
    """Our fill of each pattern and seed at the list's floor (process of its own)."""
    root = Path(tempfile.mkdtemp(prefix="cwvs"))
    (root / "workflow").symlink_to(PROJECT / "workflow")
    config = validate_config({"lexicons": {"default": "builtin:en"}}, root)
    settings = FillSettings().replace(min_score=LIST_SCALE * floor)
    tables = open_tables("en", config, root, settings.min_frequency, None, settings.min_score, settings.min_entry)
    fill(np.full((3, 3), -1, dtype=np.int8), tables, settings, 0, progress=False)  # load the kernel
    rows = []
    for name in names:
        pattern = pattern_array(name)
        for seed in range(1 if name.startswith(THEMELESS_PREFIX) else seeds):
            ok, secs, nodes, mean, low, end = fill_seed(pattern, tables, settings, seed)
            rows.append({"pattern": name, "seed": seed, "filled": ok, "seconds": secs, "mean_score": mean, "end": end})
    return rows


def cell_text(text: str) -> str:
    """A blacksquare cell as a pattern character: '#' for its black cell, else the letter."""
    return "#" if text in BLACK_TEXT or not text.strip() else text


BLACK_TEXT = ("█", "#")  # how blacksquare prints a black cell


def side_blacksquare(floor: int, seeds: int, names: tuple[str, ...], timeout: float) -> list[dict]:
    """blacksquare's fill of each pattern at the list's floor (process of its own); entries scored by our tables."""
    from blacksquare import BLACK, DEFAULT_WORDLIST, Crossword

    wl = DEFAULT_WORDLIST.score_filter(floor / 50 - 1e-3)  # "above the threshold": scores >= floor kept
    rows = []
    for name in names:
        for seed in range(1 if name.startswith(THEMELESS_PREFIX) else seeds):
            xw = Crossword(num_rows=15, num_cols=15, word_list=wl)
            for r, c in pattern_blacks(name):
                xw[r, c] = BLACK
            t = time.process_time()
            out = xw.fill(timeout=timeout, temperature=0.0 if seed == 0 else 0.1, show_progress=False)
            secs = time.process_time() - t
            grid = None
            if out is not None:
                grid = ["".join(cell_text(out[r, c].str) for c in range(15)) for r in range(15)]
            rows.append({"pattern": name, "seed": seed, "filled": out is not None, "seconds": secs, "grid": grid})
    return rows


def run_side(side: str, floor: int, seeds: int, names: tuple[str, ...], timeout: float) -> tuple[list[dict], float]:
    """(rows, whole-process CPU seconds) of one filler at one floor, in a process of its own."""
    import json
    import resource
    import subprocess
    import sys

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = [sys.executable, __file__, "--side", side, "--floor", str(floor), "--versus-seeds", str(seeds)]
    argv += ["--only", ",".join(names), "--peer-timeout", str(timeout)]
    out = subprocess.run(argv, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{side} at {floor}: {out.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out.stdout.strip().splitlines()[-1]), cpu


def versus_line(label: str, rows: list[dict]) -> str:
    """filled/seeds, seconds per fill, mean entry score of one pattern's rows."""
    secs = [r["seconds"] for r in rows]
    ok = [r for r in rows if r["filled"]]
    score = f"mean entry score {statistics.mean(r['mean_score'] for r in ok):.1f}" if ok else "no fill"
    return (
        f"    {label:12s} {len(ok)}/{len(rows)} filled; s/fill mean {statistics.mean(secs):.3f} "
        f"p95 {p95(secs):.3f} max {max(secs):.3f}, total {sum(secs):.2f}; {score}"
    )


def run_versus(seeds: int, names: tuple[str, ...], timeout: float) -> None:
    """Ours and blacksquare on the same list, floors and patterns, in the same run."""
    from importlib.metadata import version

    from puzzlesearch.lexicon import constructors

    print(
        f"American 15x15 fill beside blacksquare {version('blacksquare')} (Rust), both on the "
        f"{constructors.LIST_NAME}; {seeds} seeds; blacksquare timeout {timeout:g} s; CPU seconds"
    )
    root = Path(tempfile.mkdtemp(prefix="cwvs"))
    (root / "workflow").symlink_to(PROJECT / "workflow")
    config = validate_config({"lexicons": {"default": "builtin:en"}}, root)
    tables = open_tables("en", config, root)  # scores every entry the same way for both fillers
    for floor in VERSUS_FLOORS:
        ours, ours_cpu = run_side("ours", floor, seeds, names, timeout)
        peer, peer_cpu = run_side("blacksquare", floor, seeds, names, timeout)
        for r in peer:
            if r["filled"]:
                r["mean_score"] = statistics.mean(tables.score(w.lower()) for w in grid_entries(r["grid"]))
        print(f"  list's score >= {floor} (ours >= {LIST_SCALE * floor}):")
        american = [n for n in names if not n.startswith(THEMELESS_PREFIX)]
        for name in american:
            print(f"   {name}:")
            print(versus_line("puzzlesearch", [r for r in ours if r["pattern"] == name]))
            print(versus_line("blacksquare", [r for r in peer if r["pattern"] == name]))
        themeless = [n for n in names if n.startswith(THEMELESS_PREFIX)]
        if themeless:  # one seed a pattern: the line sums the patterns
            print(f"   {len(themeless)} generated themeless patterns (seed 0 each):")
            print(versus_line("puzzlesearch", [r for r in ours if r["pattern"] in themeless]))
            print(versus_line("blacksquare", [r for r in peer if r["pattern"] in themeless]))
        o_secs, p_secs = [r["seconds"] for r in ours], [r["seconds"] for r in peer]
        print(
            f"   all: puzzlesearch {sum(r['filled'] for r in ours)}/{len(ours)} filled, p95 {p95(o_secs):.3f} s, "
            f"process CPU {ours_cpu:.1f} s; blacksquare {sum(r['filled'] for r in peer)}/{len(peer)}, "
            f"p95 {p95(p_secs):.3f} s, process CPU {peer_cpu:.1f} s; ratio of fill CPU seconds "
            f"blacksquare/puzzlesearch {sum(p_secs) / max(sum(o_secs), 1e-9):.1f}x"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--budget", type=float, default=10.0, help="seconds per generated puzzle")
    ap.add_argument("--patterns", type=int, default=6)
    ap.add_argument("--gen-floor", type=int, default=0, help="frequency floor of generated words")
    ap.add_argument("--fill-floor", type=int, default=0, help="frequency floor of fill words")
    ap.add_argument("--fill-budget", type=float, default=30.0, help="seconds per fill (a cap when --fill-nodes)")
    ap.add_argument("--fill-nodes", type=int, help="node budget per fill: bound the fills by work, not time")
    ap.add_argument("--max-word", type=int, default=9, help="longest slot of the random patterns")
    ap.add_argument("--american", action="store_true", help="only the American 15x15 pattern suite")
    ap.add_argument("--fill-seeds", type=int, default=100, help="--american: seeds per easy/medium pattern")
    ap.add_argument("--hard-seeds", type=int, default=10, help="--american: seeds per stairs/open pattern")
    ap.add_argument("--american-nodes", type=int, help="--american: node budget (default crossword.fill.max_nodes)")
    ap.add_argument("--hard-nodes", type=int, help="--american: node budget of stairs/open (default: as the others)")
    ap.add_argument("--engine-seeds", type=int, default=20, help="--american: seeds also run on the old kernel")
    ap.add_argument("--only", help="--american: comma-separated patterns (default all)")
    ap.add_argument(
        "--no-previous", action="store_true", help=f"--american: skip the baseline with {PREVIOUS_DEFAULTS}"
    )
    ap.add_argument(
        "--no-baseline", action="store_true", help=f"--american: skip the baseline with {AMERICAN_BASELINE}"
    )
    ap.add_argument("--root", help="project root holding results/ (default: a temporary folder)")
    ap.add_argument("--versus", action="store_true", help="the American patterns beside blacksquare, same list")
    ap.add_argument("--versus-seeds", type=int, default=5, help="--versus: seeds per pattern")
    ap.add_argument("--peer-timeout", type=float, default=60.0, help="--versus: blacksquare's timeout per fill")
    ap.add_argument("--themeless", type=int, default=0, help="--versus: also N generated themeless patterns")
    ap.add_argument("--side", choices=("ours", "blacksquare"), help=argparse.SUPPRESS)  # one side's process
    ap.add_argument("--floor", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = tuple(args.only.split(",")) if args.only else AMERICAN_PATTERNS
    if args.side:
        import json

        if args.side == "ours":
            rows = side_ours(args.floor, args.versus_seeds, names)
        else:
            rows = side_blacksquare(args.floor, args.versus_seeds, names, args.peer_timeout)
        print(json.dumps(rows))
        return
    if args.versus:
        names += tuple(themeless_patterns(args.themeless))
        run_versus(args.versus_seeds, names, args.peer_timeout)
        return
    root = Path(args.root) if args.root else Path(tempfile.mkdtemp(prefix="cwbench"))
    if args.root is None:
        (root / "workflow").symlink_to(PROJECT / "workflow")
    config = validate_config({"lexicons": {"default": "builtin:en"}}, root)
    if args.american:
        run_american(
            config,
            root,
            args.fill_seeds,
            args.hard_seeds,
            args.american_nodes,
            args.hard_nodes,
            args.engine_seeds,
            tuple(args.only.split(",")) if args.only else AMERICAN_PATTERNS,
            not args.no_previous,
            not args.no_baseline,
        )
        return
    tables = open_tables("en", config, root, args.gen_floor)
    lang = Language("en", tables.name, tables.alphabet, tables.alphabet.letters)
    generate(
        tables,
        lang,
        SearchSettings(size=6, time_budget=1, max_pops=100, strategy="fill1", min_entry=2),
        0,
        progress=False,
    )  # load kernels

    # cost kernel vs plain Python on the same random grids
    rng = np.random.default_rng(0)
    grids = []
    for _ in range(2000):
        g = rng.integers(1, 27, size=(12, 12)).astype(np.int8)
        g[rng.random((12, 12)) < 0.25] = 0
        grids.append(g)
    words = (
        open_lexicon("default", config, root)
        .words.filter(pl.col("frequency").fill_null(0) >= args.gen_floor)["word"]
        .to_list()
    )
    known = set(words)
    anagrams = {"".join(sorted(w)) for w in words}
    karg = tables.kernel_args()
    t = time.perf_counter()
    fast = [int(grid_cost(g, karg).cost5) for g in grids]
    t_kernel = time.perf_counter() - t
    t = time.perf_counter()
    slow = [python_cost(g, tables.alphabet, known, anagrams) for g in grids]
    t_python = time.perf_counter() - t
    assert fast == slow
    print(
        f"cost of 2000 random 12x12 grids: numba {t_kernel * 1e3:.1f} ms, plain Python "
        f"{t_python * 1e3:.1f} ms, ratio {t_python / t_kernel:.1f}x"
    )

    solved, med, secs = run_generation(tables, lang, args.seeds, args.budget, focus=0.9)
    print(
        f"generate 12x12 en (floor {args.gen_floor}), max down 4, focused mutations: cost 0 in {solved}/{args.seeds} seeds, "
        f"median {med:.3f}s, max {max(secs):.3f}s (target: >= 9/10, median < 2s)"
    )
    b_solved, b_med, b_secs = run_generation(tables, lang, args.seeds, args.budget, focus=0.0)
    print(
        f"baseline (seed's uniform mutations, focus 0): cost 0 in {b_solved}/{args.seeds}, "
        f"median {b_med:.3f}s; ratio baseline/focused median {b_med / med:.1f}x"
    )

    ftables = open_tables("en", config, root, args.fill_floor)
    patterns, seed = [], 0
    while len(patterns) < args.patterns and seed < 10 * args.patterns:
        try:
            patterns.append((seed, american_pattern(15, 0.16, seed, max_word=args.max_word, tries=50)))
        except PuzzleError:
            pass  # no such pattern from this seed
        seed += 1
    secs = run_fill(patterns, ftables, args.fill_budget, "fill", nodes=args.fill_nodes)
    b_secs = run_fill(patterns, ftables, args.fill_budget, "baseline", baseline=True, nodes=args.fill_nodes)
    med, b_med = statistics.median(secs), statistics.median(b_secs)
    n = len(patterns)
    print(
        f"fill 15x15 ~16% black, floor {args.fill_floor}, max slot {args.max_word}: filled "
        f"{sum(map(math.isfinite, secs))}/{n}, median {median_text(secs, args.fill_budget)} (target < 10s)"
    )
    print(
        f"baseline fill (no frequency weight, no restart noise, no last-conflict): filled "
        f"{sum(map(math.isfinite, b_secs))}/{n}, median {median_text(b_secs, args.fill_budget)}; "
        f"ratio baseline/fill median {ratio(b_med, med, args.fill_budget)}"
    )


if __name__ == "__main__":
    main()
