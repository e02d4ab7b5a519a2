"""A bounded baseline benchmark: the numba Boggle scorer against the pure-Python reference.

Both score the same boards (classic dice rolled from a fixed seed, so the work is the
same on every run); the scores must agree board by board, else the benchmark fails.
Loading (the DAWG, numba's compiled kernels, the reference's prefix set) is outside
the timers: the figures compare scoring only.

Each benchmark imports its puzzle package and its baseline when it runs (function-local
imports), so one benchmark job does not load the other puzzles' packages; the tests
replace a baseline function in its module to check that a disagreement fails the run.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch import kinds
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.model import ALPHABETS
from puzzlesearch.progress import Timer
from puzzlesearch.report.data import cube_solves, need_columns, read_table

BENCH_SHAPE = "4x4"  # the classic board: the classic dice
BENCH_DICE = "classic"
NUMBA, PYTHON = "numba (DAWG kernel)", "pure Python (reference)"


def rolled_boards(count: int, seed: int) -> np.ndarray:
    """`count` 4x4 boards of the classic dice, shuffled and rolled from `seed`."""
    from puzzlesearch.boggle.model import parse_dice

    dice = parse_dice(BENCH_DICE)
    rng = np.random.default_rng(seed)
    out = np.zeros((count, len(dice)), dtype=np.uint8)
    for i in range(count):
        order = rng.permutation(len(dice))
        out[i] = dice[order, rng.integers(dice.shape[1], size=len(dice))]
    return out


def run(words_path: str | Path, dawg_path: str | Path, count: int, seed: int) -> pl.DataFrame:
    """Time both scorers on the same boards: method, boards, seconds, boards_per_second, total_score."""
    from puzzlesearch.boggle.model import Board, Shape
    from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score
    from puzzlesearch.boggle.score import Scorer

    if count < 1:
        raise PuzzleError(f"--boards {count}: give at least one board")
    shape = Shape.parse(BENCH_SHAPE)
    boards = rolled_boards(count, seed)
    scorer = Scorer.from_files(words_path, dawg_path)
    scorer.score_array(boards[:1], shape)  # numba: load the compiled kernel before the timer
    t0 = time.perf_counter()
    fast = scorer.score_array(boards, shape)[0]
    t_fast = time.perf_counter() - t0
    words = boggle_words(scorer.words or [])
    prefix_set = prefixes(words)
    t0 = time.perf_counter()
    slow = np.array(
        [
            reference_score(Board(shape.rows, shape.cols, tuple(int(c) for c in b)), words, prefix_set=prefix_set)[0]
            for b in boards
        ]
    )
    t_slow = time.perf_counter() - t0
    if not np.array_equal(fast, slow):
        bad = int(np.flatnonzero(fast != slow)[0])
        raise PuzzleError(f"benchmark board {bad}: numba scores {fast[bad]}, the reference {slow[bad]}")
    return pl.DataFrame(
        {
            "method": [NUMBA, PYTHON],
            "boards": [count, count],
            "seconds": [t_fast, t_slow],
            "boards_per_second": [count / max(t_fast, 1e-9), count / max(t_slow, 1e-9)],
            "total_score": [int(fast.sum()), int(slow.sum())],
        }
    )


# ---------------------------------------------------------------- lexicon: minimal DAWG vs plain trie

DAWG, TRIE = "minimal DAWG", "plain trie (baseline)"


def run_lexicon(words_path: str | Path) -> dict:
    """Build the minimal DAWG and the plain trie of one word table's words: nodes and build seconds."""
    from puzzlesearch.baselines.lexicon import trie_size
    from puzzlesearch.lexicon import build_dawg

    words = sorted(set(_read_words(words_path)))
    with Timer() as t:
        dawg = build_dawg(words)
    trie_nodes, trie_words, t_trie = trie_size(words)
    if dawg.n_words != trie_words or dawg.n_nodes > trie_nodes or dawg.words() != words:
        raise PuzzleError(
            f"lexicon benchmark: the DAWG holds {dawg.n_words} words in {dawg.n_nodes} nodes, "
            f"the trie {trie_words} words in {trie_nodes} nodes"
        )
    return {
        "words": len(words),
        "letters": sum(map(len, words)),
        "methods": [DAWG, TRIE],
        "nodes": [dawg.n_nodes, trie_nodes],
        "seconds": [t.seconds, t_trie],
        "dawg_edges": dawg.n_edges,
        "dawg_bytes": dawg.nbytes,
    }


def _read_words(words_path: str | Path) -> list[str]:
    """The `word` column of a words.parquet (one-line error when unreadable)."""
    table = read_table(words_path, kinds.LEXICON_WORDS)
    need_columns(table, ("word",), str(words_path))
    return table["word"].to_list()


# ---------------------------------------------------------------- Spelling Bee: numba vs Python

BEE_NUMBA, BEE_PYTHON = "numba + polars", "pure Python (baseline)"
BEE_STEPS = ("table", "puzzles")  # letter-set table; every puzzle scored and ranked
BEE_REPEAT = 3  # the numba steps take milliseconds: best of 3, after a warm-up
BEE_TOP = 10  # top puzzles kept in the figures (both methods must agree on all of them, and on every other)


def bee_rules():
    """The NYT rules of bee_bench.py, every word counted (the baseline has no frequency floor)."""
    from puzzlesearch.bee.settings import BeeRules

    return BeeRules(min_frequency=0)


def run_bee(words_path: str | Path) -> dict:
    """Mask table + puzzle ranking, numba against the Python baseline, on one word table."""
    from puzzlesearch.baselines import bee as baseline

    _read_words(words_path)  # a clear error for a missing or damaged table
    rules = bee_rules()
    masks, table = baseline.fast_table(words_path, rules)  # warm-up: numba compile or cache load
    baseline.fast_puzzles(masks, table, rules)
    t_table, (masks, table) = baseline.best_of(BEE_REPEAT, lambda: baseline.fast_table(words_path, rules))
    t_puzzles, puzzles = baseline.best_of(BEE_REPEAT, lambda: baseline.fast_puzzles(masks, table, rules))
    b_table, (points, counts) = baseline.best_of(1, lambda: baseline.baseline_table(words_path, rules))
    b_puzzles, base = baseline.best_of(1, lambda: baseline.baseline_puzzles(points, counts, rules))
    fast = baseline.fast_rows(puzzles)
    if fast != base:
        bad = next((i for i, (a, b) in enumerate(zip(fast, base)) if a != b), min(len(fast), len(base)))
        raise PuzzleError(
            f"Spelling Bee benchmark: {len(fast)} numba puzzles, {len(base)} baseline puzzles; "
            f"first difference at rank {bad + 1}"
        )
    return {
        "words": int(masks["words"].sum()),
        "masks": masks.height,
        "pangram_sets": int(masks["pangram"].sum()),
        "puzzles": len(base),
        "methods": [BEE_NUMBA, BEE_PYTHON],
        "steps": list(BEE_STEPS),
        "seconds": {BEE_NUMBA: [t_table, t_puzzles], BEE_PYTHON: [b_table, b_puzzles]},
        "top": [dict(zip(("letters", "center", "points", "words", "pangrams"), row)) for row in base[:BEE_TOP]],
    }


# ---------------------------------------------------------------- Rubik's cube: our solvers vs published peers

OURS, LIVE, PUBLISHED = "this run", "measured here, same cubes", "published"  # the `kind` of a cube row


def cube_row(name: str, kind: str, moves, ms, source: str) -> dict:
    """One solver's figures: median and mean ms per cube, mean and max moves."""
    moves, ms = np.asarray(moves, dtype=np.float64), np.asarray(ms, dtype=np.float64)
    return {
        "name": name,
        "kind": kind,
        "cubes": int(moves.size),
        "median_ms": float(np.median(ms)),
        "mean_ms": float(np.mean(ms)),
        "mean_moves": float(np.mean(moves)),
        "max_moves": int(np.max(moves)),
        "source": source,
    }


def verified_solves(solver: str, path: str | Path, table: pl.DataFrame) -> None:
    """Raise unless every solution of a solve table solves its cube (by our cubie model)."""
    from puzzlesearch.cube.model.cubie import parse_cubies, parse_moves

    for i, (cube, solution, moves) in enumerate(table.select("cube", "solution", "moves").iter_rows()):
        sequence = parse_moves(solution)
        if len(sequence) != moves or not parse_cubies(cube).apply(sequence).is_solved:
            raise PuzzleError(f"cube benchmark: {solver} answer {i + 1} of {path} does not solve its cube")


def run_cube(solvers: list[str], paths: list[str], testset: str | None = None) -> dict:
    """Our solvers' figures from their solve tables, the published peers, and the kociemba package if importable."""
    from puzzlesearch.baselines.cube_peers import CUBE_PEERS, KOCIEMBA_LIVE, kociemba_solves
    from puzzlesearch.cube.model.cubie import parse_cubies

    solves = cube_solves(solvers, paths, testset)
    rows = []
    for (solver, table), path in zip(solves.items(), paths):
        need_columns(table, ("cube", "solution"), f"cube solves {path}")
        if table.height == 0:
            raise PuzzleError(f"cube benchmark: {path} has no solves")
        verified_solves(solver, path, table)
        rows.append(cube_row(solver, OURS, table["moves"], table["milliseconds"], str(path)))
    cubes = [parse_cubies(c) for c in next(iter(solves.values()))["cube"]]
    live = kociemba_solves(cubes)
    if live is not None:
        rows.append(cube_row(KOCIEMBA_LIVE, LIVE, *live, "pip package kociemba, every answer verified"))
    return {
        "cubes": len(cubes),
        "kociemba_installed": live is not None,
        "rows": rows,
        "peers": [dict(dataclasses.asdict(p), kind=PUBLISHED) for p in CUBE_PEERS],
    }


# ---------------------------------------------------------------- Crossword: the fill vs the baseline fill

FILL, FILL_BASELINE = "fill (frequency-weighted, noisy restarts, last-conflict)", "plain baseline fill"


def fill_words(grid: np.ndarray, alphabet) -> list[str]:
    """The words of a filled grid, read off its runs of 2+ white cells (across, then down)."""
    from puzzlesearch.crossword.model import runs

    out = []
    for lines in (grid, grid.T):
        for line in lines:
            out += [alphabet.decode(line[s : s + n]) for s, n in runs(line != 0) if n >= 2]
    return out


def grid_text(grid: np.ndarray, alphabet) -> list[str]:
    """A filled grid as rows of letters in reading order, '#' for black."""
    return ["".join(alphabet.decode(row[c : c + 1]) if row[c] else "#" for c in range(len(row))) for row in grid]


def check_fill(pattern: np.ndarray, filled, alphabet, words: set[str], label: str) -> None:
    """Raise unless a fill keeps the pattern's blacks and letters and every slot holds a distinct lexicon word
    (or one of the tables' phrases)."""
    grid = np.asarray(filled.grid)
    kept = np.array_equal(grid == 0, pattern == 0) and np.all(grid[pattern > 0] == pattern[pattern > 0])
    found = fill_words(grid, alphabet)
    unknown = [w for w in found if w not in words]
    if not kept or unknown or len(set(found)) != len(found):
        raise PuzzleError(
            f"crossword benchmark: the {label} is not a valid fill of the pattern "
            f"({'; '.join(unknown[:3]) or 'cells or repeats'})"
        )


def run_crossword(tables_path: str | Path, words_path: str | Path, pattern_path: str | Path, settings, nodes: int):
    """Fill one pattern with the default knobs and with the baseline's, the same node budget; both verified."""
    from puzzlesearch.baselines import fill_with
    from puzzlesearch.crossword.io import read_pattern
    from puzzlesearch.crossword.tables import load_tables

    if nodes < settings.first_nodes:
        raise PuzzleError(f"--nodes {nodes}: give at least crossword.fill.first_nodes ({settings.first_nodes})")
    settings = dataclasses.replace(settings, max_nodes=nodes)
    tables = load_tables(
        tables_path, settings.min_frequency, min_score=settings.min_score, min_entry=settings.min_entry
    )  # the fill's own floors (the constructors' list holds entries far below them)
    pattern = read_pattern(pattern_path, tables.alphabet)
    table = _read_frame(words_path, ("word", "frequency"))
    lexicon = set(table.filter(pl.col("frequency").fill_null(0) >= settings.min_frequency)["word"].to_list())
    lexicon |= set(tables.phrase_map)  # the tables' WordNet phrases (AT BAY), which the lexicon lacks
    if tables.alphabet.letters == ALPHABETS["latin"]:  # English tables merge the constructors' list (its words too)
        from puzzlesearch.lexicon import constructors

        lexicon |= set(constructors.open_list().scores())
    fill_with(pattern, tables, dataclasses.replace(settings, max_nodes=settings.first_nodes), False)  # load kernels
    out = {"pattern": str(pattern_path), "shape": list(pattern.shape), "black": int((pattern == 0).sum())}
    out |= {"node_budget": nodes, "min_frequency": settings.min_frequency, "methods": [FILL, FILL_BASELINE]}
    for key in ("filled", "nodes", "seconds", "quality", "restarts", "grid"):
        out[key] = []
    for method, baseline in ((FILL, False), (FILL_BASELINE, True)):
        r = fill_with(pattern, tables, settings, baseline)
        if r is not None:
            check_fill(pattern, r, tables.alphabet, lexicon, method)
        out["filled"].append(r is not None)
        out["nodes"].append(r.nodes if r else nodes)
        out["seconds"].append(r.seconds if r else None)
        out["quality"].append(r.quality if r else None)
        out["restarts"].append(r.restarts if r else None)
        out["grid"].append(grid_text(r.grid, tables.alphabet) if r else [])
    return out


def _read_frame(path: str | Path, columns: tuple[str, ...]) -> pl.DataFrame:
    """A Parquet table with the given columns (one-line error when unreadable)."""
    table = read_table(path, kinds.LEXICON_WORDS)
    need_columns(table, columns, str(path))
    return table
