"""A crafted boggle_dawg.npz with a consistent manifest is refused in one line, never a segfault (issue 30, case 6)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from puzzlesearch import manifest
from puzzlesearch.io import write_npz

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
WORDS = "lines\nslate\nsine\nsire\nsites\nrest\nlater\nalert\nsilent\nlisten\ntrees\n"


def run(*argv, cwd: Path) -> subprocess.CompletedProcess:
    """puzzlesearch as a real process with its own store (outside any project)."""
    env = {**os.environ, "PUZZLESEARCH_STORE": str(cwd / "store")}
    return subprocess.run(
        [str(PUZZLESEARCH), *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def rewrite(path: Path, change) -> None:
    """Change the arrays of a DAWG file with `change(arrays)` and write a manifest that matches (an attacker's)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k].copy() for k in data.files}
    change(arrays)
    write_npz(path, **arrays)
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    entry = meta.pop("manifest")
    manifest.write_manifest(meta_path, [path], entry["kind"], entry["settings"], meta)


def back_to_root(arrays) -> None:
    """The last edge leads back to the root: a cycle."""
    arrays["edge_target"][-1] = 0


def self_loop(arrays) -> None:
    """A node's edge leads to itself (the node it leaves)."""
    first, mask = arrays["first_edge"], arrays["mask"]
    node = int(np.flatnonzero(mask)[-1])
    arrays["edge_target"][first[node]] = node


def too_many_words(arrays) -> None:
    """The root claims more words than its edges lead to (ranks beyond the word table)."""
    arrays["count"][0] += 5


@pytest.mark.parametrize("change", [back_to_root, self_loop, too_many_words])
def test_a_crafted_boggle_dawg_is_refused_not_a_segfault(tmp_path, change):
    (tmp_path / "w.txt").write_text(WORDS)
    out = run("lexicon", "info", "w.txt", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    folder = Path(json.loads(out.stdout)["dir"])
    rewrite(folder / "boggle_dawg.npz", change)
    out = run("boggle", "score", "--lexicon", "w.txt", "perslatgsineters", cwd=tmp_path)
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(lines) == 1 and "boggle_dawg.npz" in lines[0] and "Traceback" not in out.stderr, out.stderr
