"""Report figures drawn with matplotlib (Agg backend: no display, no network).

Every function returns a Figure (tests read its texts and artists); `save` writes it
atomically as PNG or SVG by the output's suffix.
"""

from __future__ import annotations

import html
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before pyplot: draw to files only
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from puzzlesearch.errors import PuzzleError  # noqa: E402
from puzzlesearch.io import atomic_path  # noqa: E402
from puzzlesearch.report.data import move_counts  # noqa: E402

DPI = 110
FORMATS = {".png": "png", ".svg": "svg"}
CELL_INCH = 0.6  # side of a drawn board/grid cell
WIDE, TALL = 7.5, 4.2  # inches of a line/histogram figure
BLACK, PAPER, INK, DIE = "#222222", "white", "#111111", "#f3ead7"
NUMBER_SIZE = 6  # points, clue numbers in crossword cells
LETTER_SIZE = 16
HEXBIN_GRID = 40
LEGEND_ROOM = 1.3  # headroom above the bars for the legend
WINDOW_COLOR = "#2ca02c"
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")  # one per seed, so equal curves stay visible
METADATA = {"svg": {"Date": None}, "png": {}}  # no build date in SVGs: same data, same file


def save(fig: Figure, path: str | Path) -> Path:
    """Write a figure to `path` (.png or .svg) atomically and close it."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise PuzzleError(f"{path}: figures are written as {' or '.join(FORMATS)}")
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=DPI, bbox_inches="tight", metadata=METADATA[fmt])
    plt.close(fig)
    return path


def empty(title: str, message: str) -> Figure:
    """A figure that says there is nothing to draw (an empty result is still a result)."""
    fig, ax = plt.subplots(figsize=(WIDE, 1.5))
    ax.set_axis_off()
    ax.set_title(title)
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=12)
    return fig


# ---------------------------------------------------------------- grids


def _grid_axes(rows: int, cols: int, title: str):
    """A figure with square cells, row 0 at the top."""
    fig, ax = plt.subplots(figsize=(max(cols * CELL_INCH, 2.5), rows * CELL_INCH + 0.6))
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(title, fontsize=10)
    return fig, ax


def draw_board(letters: list[list[str]], title: str) -> Figure:
    """A Boggle board: one die per cell with its face."""
    rows, cols = len(letters), len(letters[0])
    fig, ax = _grid_axes(rows, cols, title)
    for r, row in enumerate(letters):
        for c, face in enumerate(row):
            ax.add_patch(Rectangle((c + 0.06, r + 0.06), 0.88, 0.88, facecolor=DIE, edgecolor=INK, lw=1.2))
            ax.text(
                c + 0.5, r + 0.55, face, ha="center", va="center", fontsize=LETTER_SIZE, fontweight="bold", color=INK
            )
    return fig


def draw_crossword(letters: list[list[str]], numbers: list[list[int]], title: str, rtl: bool = False) -> Figure:
    """A crossword grid in page order: black cells, clue numbers (top right for RTL), letters."""
    rows, cols = len(letters), len(letters[0])
    fig, ax = _grid_axes(rows, cols, title)
    for r in range(rows):
        for c in range(cols):
            black = letters[r][c] == "#"
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=BLACK if black else PAPER, edgecolor=INK, lw=0.8))
            if black:
                continue
            if numbers[r][c]:
                x, ha = (c + 0.94, "right") if rtl else (c + 0.06, "left")
                ax.text(x, r + 0.08, str(numbers[r][c]), ha=ha, va="top", fontsize=NUMBER_SIZE, color="#555555")
            ax.text(c + 0.5, r + 0.6, letters[r][c], ha="center", va="center", fontsize=LETTER_SIZE - 3, color=INK)
    return fig


# ---------------------------------------------------------------- Boggle


def draw_progress(curves: dict, title: str) -> Figure:
    """Best score so far over boards scored (the work budget) and over seconds, one step line per seed."""
    fig, (by_work, by_time) = plt.subplots(1, 2, figsize=(WIDE + 1.5, TALL), sharey=True)
    for i, (seed, (boards, seconds, best)) in enumerate(curves.items()):
        style = {
            "where": "post",
            "marker": MARKERS[i % len(MARKERS)],
            "markersize": 7 - i % 3 * 2,
            "fillstyle": "none",
            "label": f"seed {seed}",
        }
        by_work.step(boards, best, **style)
        by_time.step(seconds, best, **style)
    by_work.set_xlabel("boards scored when first found")
    by_time.set_xlabel("seconds when first found")
    by_work.set_ylabel("best score so far (kept boards)")
    for ax in (by_work, by_time):
        ax.grid(alpha=0.3)
    by_time.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig


def draw_histogram(edges: np.ndarray, counts: dict, title: str) -> Figure:
    """Score histogram of each seed's final pool (shared bins, step outlines)."""
    fig, ax = plt.subplots(figsize=(WIDE, TALL))
    for seed, n in counts.items():
        ax.stairs(n, edges, label=f"seed {seed}", linewidth=1.5)
    ax.set_xlabel("board score")
    ax.set_ylabel("boards in the final pool")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


SCAN_COLUMNS = ("board", "score", "neighbours", "better", "equal", "best_neighbour_score", "local_optimum")
SCAN_HEADERS = ("board", "score", "neighbours", "better", "equal", "best neighbour", "local optimum")


def draw_scan(rows: list[dict], title: str) -> Figure:
    """The scanned boards: score vs best neighbour (bars) and the summary table."""
    if not rows:
        return empty(title, "no boards were scanned (boggle.scan.boards is 0)")
    fig, (bars, table) = plt.subplots(
        2, 1, figsize=(WIDE, 2.6 + 0.3 * len(rows)), gridspec_kw={"height_ratios": [3, 1 + 0.25 * len(rows)]}
    )
    x = np.arange(len(rows))
    width = min(0.4, 0.15 * (1 + len(rows)))
    bars.bar(x - width / 2, [r["score"] for r in rows], width, label="board")
    bars.bar(x + width / 2, [r["best_neighbour_score"] or 0 for r in rows], width, label="best neighbour")
    bars.set_xlim(-0.8, len(rows) - 0.2)
    bars.set_xticks(x, [f"#{i + 1}" for i in x])
    bars.set_ylabel("score")
    bars.set_title(title, fontsize=10)
    bars.legend(fontsize=8)
    table.set_axis_off()
    cells = [[f"#{i + 1}", *(str(r[k]) for k in SCAN_COLUMNS)] for i, r in enumerate(rows)]
    tab = table.table(cellText=cells, colLabels=("", *SCAN_HEADERS), loc="center")
    tab.auto_set_font_size(False)
    tab.set_fontsize(8)
    tab.auto_set_column_width(list(range(len(SCAN_HEADERS) + 1)))
    return fig


# ---------------------------------------------------------------- Spelling Bee


def bee_table_html(top: pl.DataFrame, title: str) -> str:
    """The top puzzles as a self-contained HTML page (the center letter in bold)."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in top.columns)
    body = []
    for row in top.iter_rows(named=True):
        letters = "".join(f"<b>{ch}</b>" if ch == row["center"] else ch for ch in html.escape(row["letters"]))
        cells = [
            str(row["rank"]),
            letters,
            html.escape(row["center"]),
            str(row["points"]),
            str(row["words"]),
            str(row["pangrams"]),
        ]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    style = (
        "body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:.2em .6em;text-align:right}"
        "td:nth-child(2){font-family:monospace;letter-spacing:.15em;text-align:left}"
        "th{background:#eee}"
    )
    empty_row = f'<tr><td colspan="{top.width}">no puzzle meets the rules</td></tr>' if top.is_empty() else ""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{style}</style></head><body><h3>{html.escape(title)}</h3>\n<table><tr>{head}</tr>\n"
        + "\n".join(body)
        + empty_row
        + "\n</table></body></html>\n"
    )


def draw_bee_points(puzzles: pl.DataFrame, window: tuple[int, int], title: str) -> Figure:
    """Points vs word count of every puzzle (hexbin), the editors' word-count window shaded."""
    if puzzles.is_empty():
        return empty(title, "no puzzle meets the rules")
    fig, ax = plt.subplots(figsize=(WIDE, TALL + 0.8))
    words, points = puzzles["words"].to_numpy(), puzzles["points"].to_numpy()
    hb = ax.hexbin(words, points, gridsize=HEXBIN_GRID, bins="log", mincnt=1, cmap="viridis")
    fig.colorbar(hb, ax=ax, label="puzzles")
    ax.axvspan(*window, color=WINDOW_COLOR, alpha=0.15, label=f"editors' window ({window[0]}-{window[1]} words)")
    best = puzzles.sort("rank").row(0, named=True)
    ax.plot(
        [best["words"]],
        [best["points"]],
        marker="*",
        color="red",
        markersize=12,
        linestyle="none",
        label=f"best: {best['letters']} / {best['center']}",
    )
    ax.set_xlabel("words")
    ax.set_ylabel("points")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    return fig


def draw_bee_schedule(schedule: pl.DataFrame, window: tuple[int, int], title: str) -> Figure:
    """The schedule's puzzles by day: word counts (bars, the window shaded) and difficulty (line)."""
    if schedule.is_empty():
        return empty(title, "the schedule is empty")
    fig, ax = plt.subplots(figsize=(WIDE, TALL + 0.8))
    days = schedule["day"].to_numpy()
    ax.bar(days, schedule["words"].to_numpy(), color="#f7da21", edgecolor="#b8960b", label="words")
    ax.axhspan(*window, color=WINDOW_COLOR, alpha=0.12, label=f"word window ({window[0]}-{window[1]})")
    ax.set_xlabel("day")
    ax.set_ylabel("words")
    ax.set_ylim(0, max(window[1], int(schedule["words"].max())) * 1.15)
    right = ax.twinx()
    right.plot(days, schedule["difficulty"].to_numpy(), color="#1f4e99", marker="o", markersize=3, label="difficulty")
    right.set_ylim(0, 100)
    right.set_ylabel("difficulty (0-100)")
    handles = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    ax.legend(handles=handles, fontsize=8, loc="upper left", ncol=3)
    ax.set_title(title, fontsize=10)
    return fig


# ---------------------------------------------------------------- Rubik's cube


def draw_cube_moves(solves: dict, title: str) -> Figure:
    """Distribution of solution lengths, one bar group per solver."""
    fig, ax = plt.subplots(figsize=(WIDE, TALL))
    moves = {s: df["moves"].to_numpy() for s, df in solves.items()}
    every = np.concatenate(list(moves.values())) if moves else np.array([0])
    lo, hi = int(every.min()), int(every.max())
    width = 0.8 / max(len(moves), 1)
    for i, (solver, m) in enumerate(moves.items()):
        x = np.arange(lo, hi + 1) + (i - (len(moves) - 1) / 2) * width
        ax.bar(x, move_counts(m, lo, hi), width, label=f"{solver} (mean {m.mean():.1f}, max {m.max()})")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(top=ax.get_ylim()[1] * LEGEND_ROOM)
    ax.set_xlabel("moves")
    ax.set_ylabel("cubes")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return fig


def draw_cube_times(solves: dict, title: str) -> Figure:
    """Time per cube per solver (log scale), cubes in test-set order."""
    fig, ax = plt.subplots(figsize=(WIDE, TALL))
    for solver, df in solves.items():
        ms = df["milliseconds"].to_numpy()
        ax.plot(
            np.arange(1, len(ms) + 1),
            ms,
            marker="o",
            markersize=3,
            linewidth=0.8,
            label=f"{solver} (median {np.median(ms):.1f} ms)",
        )
    ax.set_yscale("log")
    ax.set_xlabel("cube (test-set order)")
    ax.set_ylabel("milliseconds")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    return fig


def human_bytes(n: float) -> str:
    """A byte count in B, kB or MB."""
    for unit, size in (("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.2f} {unit}"
    return f"{int(n)} B"


def draw_cube_tables(tables: pl.DataFrame, title: str) -> Figure:
    """Size of every cube table (log scale), with its build time."""
    fig, ax = plt.subplots(figsize=(WIDE, 0.8 + 0.28 * tables.height))
    y = np.arange(tables.height)
    colors = [
        "#1f77b4" if k == "move" else "#ff7f0e" if k.startswith("prune") else "#7f7f7f"
        for k in tables["kind"].to_list()
    ]
    ax.barh(y, tables["bytes"].to_numpy(), color=colors)
    for i, (b, s) in enumerate(zip(tables["bytes"].to_list(), tables["build_seconds"].to_list())):
        build = f", built in {s:.2f} s" if s is not None else ""
        ax.text(b, i, f" {human_bytes(b)}{build}", va="center", fontsize=7)
    ax.set_yticks(y, tables["table"].to_list(), fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("bytes (blue: move tables, orange: pruning tables, grey: lookup tables)")
    ax.set_title(title, fontsize=10)
    ax.margins(x=0.35)
    return fig


# ---------------------------------------------------------------- Crossword


def draw_trace(traces: dict, title: str) -> Figure:
    """Best cost over pops and over seconds of the progressive search, one line per seed."""
    fig, (by_pops, by_time) = plt.subplots(1, 2, figsize=(WIDE + 1.5, TALL), sharey=True)
    for seed, (pops, seconds, cost) in traces.items():
        by_pops.step(pops, cost, where="post", marker=".", label=f"seed {seed}")
        by_time.step(seconds, cost, where="post", marker=".", label=f"seed {seed}")
    by_pops.set_xlabel("pops")
    by_time.set_xlabel("seconds")
    by_pops.set_ylabel("best cost (unknown + 0.2 x scrambled letters)")
    for ax in (by_pops, by_time):
        ax.grid(alpha=0.3)
    by_time.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig


# ---------------------------------------------------------------- benchmarks


def draw_benchmarks(jobs: pl.DataFrame, baseline: pl.DataFrame, title: str) -> Figure:
    """Wall and CPU seconds of every benchmarked job, and the scorer against its Python baseline."""
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(WIDE + 4, max(TALL, 0.8 + 0.22 * jobs.height)), gridspec_kw={"width_ratios": [3, 2]}
    )
    y = np.arange(jobs.height)
    left.barh(y - 0.2, jobs["seconds"].to_numpy(), 0.4, label="wall s")
    left.barh(y + 0.2, jobs["cpu_seconds"].to_numpy(), 0.4, label="CPU s")
    left.set_yticks(y, jobs["job"].to_list(), fontsize=7)
    left.invert_yaxis()
    left.set_xlabel("seconds per job (Snakemake benchmark files)")
    left.legend(fontsize=8)
    left.grid(axis="x", alpha=0.3)
    rate = baseline["boards_per_second"].to_numpy()
    bars = right.bar(np.arange(baseline.height), rate, color=["#1f77b4", "#7f7f7f"][: baseline.height])
    right.set_xticks(np.arange(baseline.height), [m.replace(" (", "\n(") for m in baseline["method"]], fontsize=8)
    right.set_yscale("log")
    right.set_ylabel("boards scored per second (log)")
    for bar, r in zip(bars, rate):
        right.text(bar.get_x() + bar.get_width() / 2, r, f"{r:,.0f}", ha="center", va="bottom", fontsize=8)
    if baseline.height == 2:
        right.set_title(
            f"Boggle scorer: {rate[0] / rate[1]:,.0f}x the baseline on {int(baseline['boards'][0])} boards", fontsize=9
        )
    fig.suptitle(title, fontsize=10)
    return fig


BASELINE_COLORS = ("#1f77b4", "#7f7f7f")  # the measured method, its baseline


def _labelled_bars(ax, labels: list[str], values, fmt: str) -> None:
    """One bar per method (measured, baseline), each with its value written on top."""
    x = np.arange(len(labels))
    bars = ax.bar(x, values, color=BASELINE_COLORS[: len(labels)])
    ax.set_xticks(x, [m.replace(" (", "\n(") for m in labels], fontsize=8)
    for bar, v in zip(bars, values):
        ax.text(bar.get_x() + bar.get_width() / 2, v, format(v, fmt), ha="center", va="bottom", fontsize=8)
    ax.margins(y=0.15)
    ax.grid(axis="y", alpha=0.3)


def draw_bench_lexicon(figures: dict, title: str) -> Figure:
    """Nodes and build seconds of the minimal DAWG and the plain trie of the same words."""
    fig, (nodes, secs) = plt.subplots(1, 2, figsize=(WIDE, TALL), layout="constrained")
    _labelled_bars(nodes, figures["methods"], figures["nodes"], ",")
    nodes.set_ylabel("nodes")
    ratio = figures["nodes"][1] / max(figures["nodes"][0], 1)
    nodes.set_title(f"{ratio:.1f}x fewer nodes", fontsize=9)
    _labelled_bars(secs, figures["methods"], figures["seconds"], ".3f")
    secs.set_ylabel("build seconds")
    secs.set_title(
        f"build: {figures['seconds'][0] / max(figures['seconds'][1], 1e-9):.1f}x the trie's time", fontsize=9
    )
    fig.suptitle(title, fontsize=10)
    return fig


def draw_bench_bee(figures: dict, title: str) -> Figure:
    """Seconds of each step, numba against the Python baseline (log scale), and the top puzzles both find."""
    fig, (secs, top) = plt.subplots(
        1, 2, figsize=(WIDE + 2, TALL), gridspec_kw={"width_ratios": [3, 2]}, layout="constrained"
    )
    x = np.arange(len(figures["steps"]))
    for i, method in enumerate(figures["methods"]):
        values = figures["seconds"][method]
        bars = secs.bar(x + (i - 0.5) * 0.4, values, 0.4, label=method, color=BASELINE_COLORS[i])
        for bar, v in zip(bars, values):
            secs.text(bar.get_x() + bar.get_width() / 2, v, f"{v:.3f} s", ha="center", va="bottom", fontsize=7)
    secs.set_xticks(x, figures["steps"])
    secs.set_yscale("log")
    secs.set_ylabel("seconds (log)")
    secs.legend(fontsize=8, loc="upper left")
    secs.margins(y=0.3)
    top.axis("off")
    rows = [[r["letters"], r["center"], r["points"], r["words"]] for r in figures["top"]]
    if rows:
        table = top.table(cellText=rows, colLabels=["letters", "center", "points", "words"], loc="center")
        table.auto_set_font_size(False)
        table.set_fontsize(8)
    top.set_title(f"top {len(rows)} of {figures['puzzles']:,} puzzles (both methods agree)", fontsize=9)
    fig.suptitle(title, fontsize=10)
    return fig


CUBE_KIND_STYLE = {  # bar style per kind of figure: ours, measured here, published
    "this run": {"color": "#1f77b4"},
    "measured here, same cubes": {"color": "#7f7f7f"},
    "published": {"color": "white", "edgecolor": "#7f7f7f", "hatch": "//"},
}
GOD_NUMBER = 20  # every cube is solvable in 20 moves (Rokicki et al. 2010)


def _paired_barh(ax, entries: list[dict], keys: tuple[str, str], fmt: str) -> None:
    """Two horizontal bars per entry (keys[0] solid-edged, keys[1] lighter), missing values left out."""
    y = np.arange(len(entries))
    for j, (key, alpha) in enumerate(zip(keys, (1.0, 0.45))):
        for i, e in enumerate(entries):
            if e.get(key) is None:
                continue
            style = CUBE_KIND_STYLE[e["kind"]]
            ax.barh(y[i] + (j - 0.5) * 0.38, e[key], 0.38, alpha=alpha, **style)
            ax.text(e[key], y[i] + (j - 0.5) * 0.38, f" {key.split('_')[0]} {e[key]:{fmt}}", va="center", fontsize=7)
    ax.set_yticks(y, [f"{e['name']}\n({e['kind']})" for e in entries], fontsize=7)
    ax.grid(axis="x", alpha=0.3)


def draw_bench_cube(figures: dict, title: str) -> Figure:
    """ms per cube (median, mean; log) and moves (mean, max) of our solvers, beside the peers' figures."""
    entries = figures["rows"] + figures["peers"]
    fig, (ms, moves) = plt.subplots(
        1, 2, figsize=(WIDE + 3, 0.55 * len(entries) + 1.8), sharey=True, layout="constrained"
    )
    _paired_barh(ms, entries, ("median_ms", "mean_ms"), ",.4g")
    ms.invert_yaxis()  # the first entry on top (the y axis is shared: invert once)
    ms.set_xscale("log")
    ms.set_xlabel("ms per cube (log)")
    ms.margins(x=0.35)
    _paired_barh(moves, entries, ("mean_moves", "max_moves"), "g")
    moves.axvline(GOD_NUMBER, color="black", linestyle=":", linewidth=1)
    moves.set_xlabel(f"moves (dotted: {GOD_NUMBER}, enough for every cube)")
    moves.margins(x=0.25)
    fig.suptitle(title, fontsize=10)
    return fig


def draw_bench_crossword(figures: dict, title: str) -> Figure:
    """Nodes to a fill (the work; the budget when unfilled), seconds and fill quality of both fills."""
    fig, axes = plt.subplots(1, 3, figsize=(WIDE + 2, TALL), layout="constrained")
    labels = [m.replace(" (", "\n(").replace(", ", ",\n") for m in figures["methods"]]
    for ax, key, fmt, what in zip(
        axes,
        ("nodes", "seconds", "quality"),
        (",", ".3f", ".2f"),
        ("search nodes to a fill", "seconds (kernels loaded)", "quality: mean log10 frequency"),
    ):
        values = [v if v is not None and ok else 0 for v, ok in zip(figures[key], figures["filled"])]
        _labelled_bars(ax, labels, values, fmt)
        ax.set_xticks(ax.get_xticks(), labels, fontsize=7)
        ax.set_title(what, fontsize=9)
    for i, ok in enumerate(figures["filled"]):
        if not ok:
            axes[0].text(
                i, figures["node_budget"], "not filled\nwithin the budget", ha="center", va="bottom", fontsize=7
            )
    fig.suptitle(title, fontsize=10)
    return fig
