"""Byte flips of result files (issue 30): flip bytes of a file, run its reader, count what it did.

`flip_files(folder, readers, cases)` runs, in a fresh process (a reader that crashes the
interpreter fails the test instead of taking pytest down), a driver that for each case
(a file under `folder`, the name of a reader function defined in the `readers` source)
reads the intact folder once, then flips bytes of the file one at a time and runs the
reader again. Each flip is *detected* (the reader raised PuzzleError), *harmless* (it
returned exactly what it returned before), *silent* (it returned something else) or a
*crash* (any other exception, a Rust panic included). The file is restored after each flip.

Positions: every byte of a file up to SMALL bytes; above, a seeded sample of SAMPLE
positions plus the first and last EDGE bytes. Mask, as in tests/lexicon/test_lexicon_byte_flips.py:
0xFF (every bit) for binary files; for text files 0x01 (the low bit: a digit, a letter or a
key changes and the text stays UTF-8, where 0xFF would only make it invalid UTF-8).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SMALL = 4_000  # every byte of a file this small; a manifest or a small table is flipped whole
SAMPLE = 400  # larger files: this many seeded positions, plus the first and last EDGE bytes
EDGE = 300  # (a Parquet file's footer, where its schema and an inside manifest live)
TEXT_SUFFIXES = (".json", ".ipuz", ".txt", ".html")
PUZZLESEARCH = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "puzzlesearch"

DRIVER = r"""
import json, math, os, random, sys
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.errors import PuzzleError

SMALL, SAMPLE, EDGE, TEXT_SUFFIXES = {small}, {sample}, {edge}, {text}


def same(a, b):
    # Exactly the same content: types, schema, values (NaN equals NaN).
    if isinstance(a, pl.DataFrame) or isinstance(b, pl.DataFrame):
        return type(a) is type(b) and a.schema == b.schema and a.equals(b, null_equal=True)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
                and np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def positions(n):
    if n <= SMALL:
        return list(range(n))
    rng = random.Random(n)  # seeded: the same positions for the same file size
    picked = set(rng.sample(range(n), SAMPLE)) | set(range(EDGE)) | set(range(n - EDGE, n))
    return sorted(picked)


def run(work, cases):
    out = {{}}
    for name, reader_name in cases:
        reader = globals()[reader_name]
        path = work / name
        good = path.read_bytes()
        want = reader(work)
        masks = (0x01,) if path.suffix in TEXT_SUFFIXES else (0xFF,)
        row = {{"bytes": len(good), "flips": 0, "detected": 0, "harmless": 0, "silent": [], "crashed": []}}
        fd = os.open(path, os.O_WRONLY)
        for i in positions(len(good)):
            for mask in masks:
                os.pwrite(fd, bytes([good[i] ^ mask]), i)  # the one byte, in place
                row["flips"] += 1
                try:
                    got = reader(work)
                except PuzzleError:
                    row["detected"] += 1
                    continue
                except BaseException as exc:  # a Rust panic derives from BaseException
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    row["crashed"].append([i, mask, type(exc).__name__, str(exc)[:200]])
                    continue
                finally:
                    os.pwrite(fd, good[i : i + 1], i)
                if same(got, want):
                    row["harmless"] += 1
                else:
                    row["silent"].append([i, mask])
        os.close(fd)
        assert path.read_bytes() == good
        out[f"{{name}} by {{reader_name}}"] = row
    return out


print(json.dumps(run(Path(sys.argv[1]), json.loads(sys.argv[2]))))
"""


def positions(n: int) -> list[int]:
    """The byte positions flipped in a file of n bytes (the driver's rule, for tests with their own loop)."""
    import random

    if n <= SMALL:
        return list(range(n))
    rng = random.Random(n)  # seeded: the same positions for the same file size
    return sorted(set(rng.sample(range(n), SAMPLE)) | set(range(EDGE)) | set(range(n - EDGE, n)))


def flip_files(folder: Path, readers: str, cases: list[tuple[str, str]], timeout: float = 600) -> dict[str, dict]:
    """'file by reader' -> {bytes, flips, detected, harmless, silent: [[pos, mask]...], crashed: [...]} (module doc)."""
    driver = DRIVER.format(small=SMALL, sample=SAMPLE, edge=EDGE, text=repr(TEXT_SUFFIXES))
    source = readers + "\n" + driver
    env = {**os.environ, "RUST_BACKTRACE": "0", "POLARS_MAX_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", source, str(folder), json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def summary(results: dict[str, dict]) -> str:
    """One line per file: flips, detected, harmless, silent, crashed (for assertion messages and -s runs)."""
    return "\n".join(
        f"{name}: {r['bytes']} bytes, {r['flips']} flips, {r['detected']} detected, {r['harmless']} harmless, "
        f"{len(r['silent'])} silent {r['silent'][:10]}, {len(r['crashed'])} crashed {r['crashed'][:3]}"
        for name, r in results.items()
    )


def assert_no_silent_change(results: dict[str, dict]) -> None:
    """No silent change, no crash, and every file had a flip its reader caught (not vacuous)."""
    text = summary(results)
    print(text)
    for r in results.values():
        assert r["flips"] and r["detected"], text
        assert not r["silent"] and not r["crashed"], text
        assert r["detected"] + r["harmless"] == r["flips"], text


def run_cli(*argv, cwd: Path) -> None:
    """puzzlesearch as a real process (the session's artifact store); it must succeed."""
    env = {**os.environ, "RUST_BACKTRACE": "0"}
    done = subprocess.run(
        [str(PUZZLESEARCH), *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
