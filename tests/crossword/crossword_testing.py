"""Helpers shared by the crossword test files (brute-force oracles, grid readers, CLI runners)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from puzzlesearch.cli import main
from puzzlesearch.crossword.fill import NoFill, fill
from puzzlesearch.crossword.model import (
    Alphabet,
    Language,
    runs,
)
from puzzlesearch.crossword.settings import GenerateSettings
from puzzlesearch.crossword.tables import (
    WordTables,
    build_arrays,
)

PROJECT = Path(__file__).resolve().parents[2]


def SearchSettings(**kw) -> GenerateSettings:
    """Settings of the progressive search (strategy fill1, the seed's 2-letter entries allowed)."""
    return GenerateSettings(**{"strategy": "fill1", "min_entry": 2, **kw})


def english_language(tables):
    return Language("en", tables.name, tables.alphabet, tables.alphabet.letters)


def down_words(grid, alphabet):
    """Every vertical run of 2+ letters, read straight from the grid."""
    out = []
    for c in range(grid.shape[1]):
        for start, length in runs(grid[:, c] != 0):
            if length >= 2:
                out.append(alphabet.decode(grid[start : start + length, c]))
    return out


def across_words(grid, alphabet):
    return [alphabet.decode(grid[r, s : s + n]) for r in range(grid.shape[0]) for s, n in runs(grid[r] != 0) if n >= 2]


def brute_cost(grid, alphabet, words, floor_ok):
    """f = unknown letters + 0.2 x scrambled letters, in units of 0.2, by plain Python."""
    known = {w for w in words if floor_ok[w]}
    anagrams = {"".join(sorted(w)) for w in known}
    total = 0
    for w in down_words(grid, alphabet):
        if w in known:
            continue
        total += len(w) if "".join(sorted(w)) in anagrams else 5 * len(w)
    return total


def check_ipuz(doc, grid, language):
    doc = json.loads(json.dumps(doc))
    for key in ("version", "kind", "dimensions", "puzzle", "solution", "clues"):
        assert key in doc
    assert doc["version"] == "http://ipuz.org/v2" and doc["kind"] == ["http://ipuz.org/crossword#1"]
    h, w = grid.shape
    assert doc["dimensions"] == {"width": w, "height": h}
    assert len(doc["puzzle"]) == h and all(len(r) == w for r in doc["puzzle"])
    assert len(doc["solution"]) == h and all(len(r) == w for r in doc["solution"])
    page = grid[:, ::-1] if language.rtl else grid
    for r in range(h):
        for c in range(w):
            sol, cell = doc["solution"][r][c], doc["puzzle"][r][c]
            if page[r, c] == 0:
                assert sol == "#" and cell == "#"
            else:
                assert sol.lower() == language.alphabet.letters[page[r, c] - 1] and isinstance(cell, int)
    # every clue's answer is spelled by the solution from its numbered cell
    where = {doc["puzzle"][r][c]: (r, c) for r in range(h) for c in range(w) if doc["puzzle"][r][c] not in ("#", 0)}
    step = -1 if language.rtl else 1
    for direction, (dr, dc) in (("Across", (0, step)), ("Down", (1, 0))):
        for clue in doc["clues"][direction]:
            r, c = where[clue["number"]]
            letters = [doc["solution"][r + i * dr][c + i * dc] for i in range(len(clue["answer"]))]
            assert "".join(letters) == clue["answer"]


PATTERN = """\
...#...
.......
##...##
.......
...#...
"""


EASY_15 = Path(__file__).parents[2] / "workflow/crossword/patterns/american15/easy.txt"


THEMES = ["8,4,A,chocolate", "6,8,D,frost"]  # an Across entry and a Down one crossing it at "o"


def run_cli(args, capsys):
    code = main(args)
    err = capsys.readouterr().err.strip().splitlines()
    return code, [line for line in err if "error" in line]


def tiny_tables(words, letters="abc", seed=0, stems=None):
    """WordTables over a handful of words with random frequencies; `stems`: word -> its base forms ('|'-joined),
    as a lexicon's clues.parquet `stems` column gives them (the tables' sibling lists are built from them)."""
    rng = np.random.default_rng(seed)
    columns = {
        "word": words,
        "length": [len(w) for w in words],
        "frequency": rng.integers(1, 1000, len(words)).astype(np.int64),
    }
    if stems is not None:
        columns["stems"] = [stems.get(w, "") for w in words]
    return WordTables("tiny", Alphabet(letters, "ltr"), build_arrays(pl.DataFrame(columns), letters))


def brute_fill_3x3(words):
    """Some fill of an all-white 3x3 grid with six distinct words, or None."""
    ws = set(words)
    for a in words:
        for b in words:
            for c in words:
                downs = ["".join(x) for x in zip(a, b, c)]
                entries = [a, b, c] + downs
                if all(d in ws for d in downs) and len(set(entries)) == 6:
                    return entries
    return None


# Seeds tried for a cost-0 English 12x12 grid, the quickest first (any cost-0 grid is checked). On
# 2026-11-28 seed 0 reached cost 0 in 0.8 CPU s, 10 in 0.7, 8 in 1.1 and 2 in 11 (on 2026-11-26, with
# the fill of that day, seed 2 was the quick one); 5, 7, 11-13 and 15 stop above cost 0.
ENGLISH_SEEDS = (0, 10, 8, 2, 1, *range(3, 8), 9, *range(11, 16))


DOCUMENTED_COLUMNS = [
    "rank",
    "lang",
    "size",
    "seed",
    "strategy",
    "cost",
    "unknown_letters",
    "scrambled_letters",
    "unknown_words",
    "scrambled_words",
    "across_words",
    "down_words",
    "black_cells",
    "pops",
    "restarts",
    "seconds",
    "stopped_by",
    "grid",
    "file",
    "puz",
    "page",
    "entries",
    "clued_entries",
    "unclued_entries",
    "clue_share",
    "mean_score",
    "min_score",
    "low_entries",
    "low_score",
]  # README, Crossword > Results


def run_ps(args, cwd, check=True, timeout=None):
    """The real CLI in a subprocess (exit code, stdout, stderr)."""
    out = subprocess.run(
        [sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
    if check:
        assert out.returncode == 0, out.stderr
    return out


def one_error_line(out) -> str:
    """The one stderr line of a refused command (exit 2, no traceback)."""
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    errors = [line for line in lines if line.startswith("puzzlesearch: error:")]
    assert len(errors) == 1, out.stderr
    return errors[0]


def grid_from_text(text, alphabet):
    """A page-order grid text ('#' black) as codes, for a left-to-right alphabet."""
    return np.array(
        [[0 if ch == "#" else alphabet.letters.index(ch) + 1 for ch in line] for line in text.splitlines()],
        dtype=np.int8,
    )


def freq_tables(freqs, letters):
    """WordTables over the given {word: frequency}."""
    frame = pl.DataFrame(
        {
            "word": list(freqs),
            "length": [len(w) for w in freqs],
            "frequency": np.array(list(freqs.values()), dtype=np.int64),
        }
    )
    return WordTables("tiny", Alphabet(letters, "ltr"), build_arrays(frame, letters))


def build_numeric(folder, max_factor=20):
    """`crossword build-tables --numeric` into folder; the tables.npz path."""
    npz = folder / "tables.npz"
    run_ps(
        [
            "crossword",
            "build-tables",
            "--settings",
            json.dumps({"max_factor": max_factor}),
            "--numeric",
            "--out",
            str(npz),
        ],
        folder,
    )
    return npz


def pipeline_generate(tables, folder, settings, lang="num", seed=0, check=True, timeout=None):
    """One pipeline puzzle job (explicit paths); the subprocess result."""
    stem = folder / f"{lang}_seed{seed}"
    return run_ps(
        [
            "crossword",
            "generate",
            "--settings",
            json.dumps(settings),
            "--tables",
            str(tables),
            "--lang",
            lang,
            "--seed",
            str(seed),
            "--ipuz",
            f"{stem}.ipuz",
            "--html",
            f"{stem}.html",
            "--summary",
            f"{stem}.json",
        ],
        folder,
        check=check,
        timeout=timeout,
    )


def rewrite_tables(npz, change) -> None:
    """Apply change(arrays) to tables.npz and recompute its manifest entry (a crafted, consistent file)."""
    from puzzlesearch.manifest import read_manifest, write_manifest

    with np.load(npz) as data:
        arrays = {k: data[k] for k in data.files}
    change(arrays)
    np.savez(npz, **arrays)
    meta = read_manifest(npz.with_name("tables.json"))
    info = meta.pop("manifest")
    files = [npz.with_name(name) for name in info["files"]]  # tables.npz and clues.parquet
    write_manifest(npz.with_name("tables.json"), files, info["kind"], info["settings"], meta)


def fill_slots(table):
    """Every empty slot of a hash table given an in-range row (a look-up of a missing word never ends)."""
    table[table < 0] = 0


def swap_two_rows(table):
    """Two filled slots exchanged (in range, each row once, but found at the wrong word)."""
    filled = np.flatnonzero(table >= 0)
    table[filled[[0, -1]]] = table[filled[[-1, 0]]]


AMERICAN = PROJECT / "workflow" / "crossword" / "patterns" / "american15"


def _white_runs(white):
    """Lengths of the white runs of every row and column, read straight from the mask."""
    return [n for line in list(white) + list(white.T) for _, n in runs(line)]


def _eligible(tables, word):
    """Whether a word is a row of the tables at or above both floors (read from the raw arrays)."""
    a = tables.arrays
    codes = tables.alphabet.encode(word)
    rows = np.nonzero((a["lengths"] == len(word)) & (a["codes"][:, : len(word)] == codes).all(axis=1))[0]
    return any(a["frequency"][r] >= tables.min_frequency and a["score"][r] >= tables.min_score for r in rows)


def _row(tables, word):
    """The eligible row of a word."""
    a = tables.arrays
    codes = tables.alphabet.encode(word)
    rows = np.nonzero((a["lengths"] == len(word)) & (a["codes"][:, : len(word)] == codes).all(axis=1))[0]
    return [r for r in rows if tables.word_ok[r]][0]


def brute_fill_square(words, n, forms=None):
    """Some fill of an all-white n x n grid with 2n distinct words, or None (plain Python); with
    `forms` (word -> the set of forms it stands for), no two of its words may share a form."""
    ws = set(words)
    stack = [[]]
    while stack:
        rows = stack.pop()
        if len(rows) == n:
            downs = ["".join(x) for x in zip(*rows)]
            if all(d in ws for d in downs) and len(set(rows + downs)) == 2 * n:
                if forms is None or not _shared_form(rows + downs, forms):
                    return rows + downs
            continue
        for w in words:
            prefix = ["".join(x) for x in zip(*(rows + [w]))]
            if all(any(v.startswith(p) for v in words) for p in prefix):
                stack.append(rows + [w])
    return None


def random_square_words(rng, trials):
    """(n, letters, trial, words): random lists of n-letter words over all-white squares, 3x3 over
    abc and 4x4 over ab, `trials` lists each."""
    for n, letters in ((3, "abc"), (4, "ab")):
        every = ["".join(t) for t in np.array(np.meshgrid(*[list(letters)] * n)).reshape(n, -1).T]
        for trial in range(trials):
            words = sorted(set(rng.choice(every, int(rng.integers(len(every) // 2, len(every))), replace=False)))
            yield n, letters, trial, words


def check_square_fill(pattern, tables, settings, seed, expect, allowed, proof_match, forms=None):
    """Fill an all-white square pattern: proved impossible (the message matching proof_match) when brute
    force found no fill (expect None), else a fill of distinct allowed words, no two sharing a form."""
    if expect is None:
        with pytest.raises(NoFill, match=proof_match) as exc:
            fill(pattern, tables, settings, seed, progress=False)
        assert exc.value.proved
        return
    r = fill(pattern, tables, settings, seed, progress=False)
    got = across_words(r.grid, tables.alphabet) + down_words(r.grid, tables.alphabet)
    assert len(set(got)) == 2 * pattern.shape[0] and set(got) <= set(allowed)
    assert forms is None or not _shared_form(got, forms)


def _shared_form(entries, forms):
    """Whether two of the entries stand for a common form."""
    return any(forms[a] & forms[b] for i, a in enumerate(entries) for b in entries[i + 1 :])
