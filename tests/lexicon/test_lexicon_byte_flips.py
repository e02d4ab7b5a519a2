"""Every byte of every lexicon artifact flipped in turn: the loaders refuse it or read the same data (issue 30).

Runs in a real process: a small lexicon is built into a store by `lexicon info`, then a
script flips bytes of each file of its folder and loads everything through the pipeline's
loader: every byte of the manifests (JSON, the root of the checks), and of the binaries
(words, DAWGs) a seeded sample plus their first and last EDGE bytes (zip and Parquet headers
and footers), as tests/byte_flips.py picks them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from byte_flips import EDGE, SAMPLE

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
WORDS = "lines\nslate\nsine\nsire\nsites\nrest\nlater\nalert\nsilent\nlisten\ntrees\nstreet\n"

FLIP_SCRIPT = """
import json, random, shutil, sys
from pathlib import Path
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.artifacts import lexicon_from_files

work = Path(sys.argv[1])
SAMPLE, EDGE = int(sys.argv[2]), int(sys.argv[3])


def positions(path, n):
    # every byte of a manifest; a binary's seeded sample and both ends
    if path.suffix == ".json" or n <= SAMPLE + 2 * EDGE:
        return range(n)
    picked = set(random.Random(n).sample(range(n), SAMPLE)) | set(range(EDGE)) | set(range(n - EDGE, n))
    return sorted(picked)

def snapshot(first=None):
    # everything the loader gives; the flipped file's DAWG is loaded first (a refusal comes sooner)
    lex = lexicon_from_files(work / "words.parquet")
    out = {"stats": {k: v for k, v in lex.stats.items() if k != "manifest"}}
    for kind in sorted(("dawg", "boggle_dawg"), key=lambda kind: kind != first):
        out[kind] = {k: v.tolist() for k, v in getattr(lex, kind).arrays().items()}
    out["words"] = lex.words.to_dicts()
    return out

want = snapshot()
silent, refused = [], 0
for path in sorted(work.iterdir()):
    good = path.read_bytes()
    # JSON: flip the low bit (text stays UTF-8, e.g. a digit or a key changes); binaries: every bit
    for mask in (0x01,) if path.suffix == ".json" else (0xFF,):
        for i in positions(path, len(good)):
            bad = bytearray(good)
            bad[i] ^= mask
            path.write_bytes(bytes(bad))
            try:
                got = snapshot(path.name.split(".")[0])
            except PuzzleError:
                refused += 1
                continue
            finally:
                path.write_bytes(good)
            if got != want:
                silent.append((path.name, i, mask))
print(json.dumps({"silent": silent, "refused": refused}))
"""


def test_no_flipped_byte_of_a_lexicon_changes_what_is_read(tmp_path):
    (tmp_path / "w.txt").write_text(WORDS)
    env = {**os.environ, "PUZZLESEARCH_STORE": str(tmp_path / "store")}
    out = subprocess.run(
        [str(PUZZLESEARCH), "lexicon", "info", "w.txt"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    folder = Path(json.loads(out.stdout)["dir"])
    names = {p.name for p in folder.iterdir()}
    assert {"words.parquet", "words.json", "dawg.npz", "dawg.json", "boggle_dawg.npz", "boggle_dawg.json"} <= names
    done = subprocess.run(
        [sys.executable, "-c", FLIP_SCRIPT, str(folder), str(SAMPLE), str(EDGE)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["silent"] == [] and result["refused"] > 3000, result
