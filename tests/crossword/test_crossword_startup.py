"""What a crossword fill reads at start-up instead of deriving it (issue 59): the tables' sibling lists
against brute force and the derivation they replaced, the position bits against the one-hot baseline,
the npz mapped from the verified file (and refused when damaged), and a fill that imports no polars."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from crossword_testing import build_numeric, rewrite_tables, tiny_tables

from puzzlesearch.baselines.crossword_startup import sibling_rows_from_stems, word_bits_onehot
from puzzlesearch.crossword.fill import sibling_rows, word_bits
from puzzlesearch.crossword.tables import TABLES_MANIFEST, load_tables
from puzzlesearch.manifest import ArtifactError, load_npz, read_manifest


def random_words_and_stems(rng, n_words=120, letters="abcd"):
    """Random words of 2-5 letters and random base forms shared by some of them ('|'-joined)."""
    words = sorted({"".join(rng.choice(list(letters), int(rng.integers(2, 6)))) for _ in range(n_words)})
    bases = [f"base{i}" for i in range(12)] + words[:10]  # some bases are table words themselves
    stems = {w: "|".join(sorted(set(rng.choice(bases, int(rng.integers(1, 3)))))) for w in words}
    return words, {w: s for w, s in stems.items() if rng.random() < 0.5}


@pytest.mark.parametrize("trial", range(6))
def test_sibling_lists_agree_with_brute_force_and_the_replaced_derivation(trial):
    rng = np.random.default_rng(trial)
    words, stems = random_words_and_stems(rng)
    forms = {w: {w, *filter(None, stems.get(w, "").split("|"))} for w in words}
    for floors in ({}, {"min_score": 40}, {"min_frequency": 300, "min_score": 30}, {"min_entry": 3}):
        tables = tiny_tables(words, "abcd", seed=trial, stems=stems)
        tables = type(tables)("tiny", tables.alphabet, tables.arrays, **floors)
        start, rows = sibling_rows(tables)
        lengths = tables.arrays["lengths"]
        word_of = [tables.alphabet.decode(tables.codes[r, : lengths[r]]) for r in range(len(lengths))]
        ok = tables.word_ok
        for r in range(len(lengths)):
            expect = [
                s for s in range(len(lengths)) if ok[r] and ok[s] and s != r and forms[word_of[r]] & forms[word_of[s]]
            ]
            got = rows[start[r] : start[r + 1]].tolist() if r + 1 < len(start) else []
            assert got == expect, (floors, word_of[r])
        tables.stem_map = stems  # what clues.parquet gives the derivation the lists replaced
        old_start, old_rows = sibling_rows_from_stems(tables)
        assert np.array_equal(start, old_start) and np.array_equal(rows, old_rows)
        assert start.dtype == old_start.dtype == rows.dtype == old_rows.dtype == np.int64


def test_position_bits_are_the_one_hot_baselines():
    rng = np.random.default_rng(3)
    words = sorted({"".join(rng.choice(list("abcde"), int(rng.integers(2, 8)))) for _ in range(3000)})
    for floors in ({}, {"min_frequency": 500}):
        tables = tiny_tables(words, "abcde", seed=1)
        tables = type(tables)("tiny", tables.alphabet, tables.arrays, **floors)
        new, old = word_bits(tables, list(range(2, 9))), word_bits_onehot(tables, list(range(2, 9)))
        for L in range(2, 9):
            assert (new[L].first, new[L].n) == (old[L].first, old[L].n)
            assert new[L].pos_bits.dtype == old[L].pos_bits.dtype and np.array_equal(new[L].pos_bits, old[L].pos_bits)


def test_mapped_arrays_are_the_files_and_a_compressed_or_damaged_npz_is_refused(tmp_path):
    npz = build_numeric(tmp_path)
    meta = read_manifest(tmp_path / TABLES_MANIFEST)
    mapped, read = load_npz(npz, meta, mapped=True), load_npz(npz, meta)
    assert sorted(mapped) == sorted(read)
    for name, arr in mapped.items():
        assert np.array_equal(arr, read[name]) and arr.dtype == read[name].dtype
        assert arr.flags.aligned and arr.flags.writeable and arr.flags.c_contiguous  # numba's types of a read array
    with np.load(npz) as data:
        np.savez_compressed(tmp_path / "packed.npz", **{k: data[k] for k in data.files})
    with pytest.raises(ArtifactError, match="packed.npz: cannot be read as .npz"):
        load_npz(tmp_path / "packed.npz", meta, mapped=True)
    body = bytearray(npz.read_bytes())
    at = body.index(b"\x93NUMPY")  # the first member's .npy magic
    body[at : at + 6] = b"XXXXXX"
    (tmp_path / "bad.npz").write_bytes(bytes(body))
    with pytest.raises(ArtifactError, match="bad.npz: cannot be read as .npz"):
        load_npz(tmp_path / "bad.npz", meta, mapped=True)


@pytest.mark.parametrize(
    "change, name",
    [
        (lambda a: a.update(sib_rows=np.array([len(a["lengths"])], np.int32), sib_start=_last_one(a)), "sib_rows"),
        (lambda a: a["sib_start"].__setitem__(1, 5), "sib_start"),
    ],
)
def test_sibling_lists_out_of_range_are_refused_at_load(tmp_path, change, name):
    npz = build_numeric(tmp_path)
    rewrite_tables(npz, change)  # a consistent manifest: only the range checks stop it
    with pytest.raises(ArtifactError, match=f"tables.npz: array '{name}'"):
        load_tables(npz)


def _last_one(arrays):
    """sib_start giving the last row a list of one entry."""
    start = np.zeros(len(arrays["lengths"]) + 1, np.int32)
    start[-1] = 1
    return start


def test_a_fill_imports_no_polars_blacksquare_or_wordnet(tmp_path):
    npz = build_numeric(tmp_path)
    code = textwrap.dedent(f"""
        import sys
        import numpy as np
        from puzzlesearch.crossword.fill import FillSettings, NoFill, fill
        from puzzlesearch.crossword.tables import load_tables
        tables = load_tables({str(npz)!r}, min_entry=2)
        try:
            fill(np.full((2, 3), -1, dtype=np.int8), tables, FillSettings(min_entry=2), 0, progress=False)
        except NoFill:
            pass
        print(sorted(m for m in ("polars", "pandas", "blacksquare", "wn", "wordfreq") if m in sys.modules))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
