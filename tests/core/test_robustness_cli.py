"""Bad command lines and faults give one line, never a traceback or a wrong file (issue 30), as real processes."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
SNAKEMAKE = PROJECT / ".venv" / "bin" / "snakemake"
WORDS = "lines\nslate\nsine\nsire\nsites\nrest\nlater\nalert\nsilent\nlisten\ntrees\nstreet\n"
HUGE = "99999999999999999999999"  # above int64
SEARCH = ("boggle", "search", "--lexicon", "w.txt", "--shape", "3x3", "--max-boards", "300", "--keep", "3")


def run(*argv, cwd: Path, preexec=None) -> subprocess.CompletedProcess:
    """puzzlesearch as a real process with its own store, outside any project."""
    env = {**os.environ, "PUZZLESEARCH_STORE": str(cwd / "store")}
    return subprocess.run(
        [str(PUZZLESEARCH), *map(str, argv)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=preexec,
    )


def one_line_error(out: subprocess.CompletedProcess, *needles: str) -> str:
    """The single `puzzlesearch: error:` line of a failed run (exit 2, no traceback), holding `needles`."""
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert out.returncode == 2 and "Traceback" not in out.stderr and len(lines) == 1, out.stderr[-3000:]
    assert all(n in lines[0] for n in needles), lines[0]
    return lines[0]


@pytest.fixture
def folder(tmp_path):
    """A folder with a small word list, outside any project."""
    (tmp_path / "w.txt").write_text(WORDS)
    return tmp_path


def test_a_seed_above_int64_is_refused_before_the_search(folder):
    out = run(*SEARCH, "--seed", HUGE, "--out", "seed.parquet", cwd=folder)
    one_line_error(out, "--seed")
    assert "stopped by" not in out.stderr and not (folder / "seed.parquet").exists()


@pytest.mark.parametrize(
    "command",
    [
        ("crossword", "generate", "--size", "5", "--lang", "num"),
        ("crossword", "fill", "--pattern", "p.txt", "--lang", "en", "--lexicon", "w.txt"),
        ("boggle", "search", "--lexicon", "w.txt", "--shape", "3x3"),
        ("cube", "random", "--count", "2", "--out", "cubes.txt"),
        ("bee", "schedule", "--lexicon", "w.txt"),
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_negative_seed_is_one_line(folder, command):
    # crossword generate --seed -1 was a numpy traceback (issue 30)
    (folder / "p.txt").write_text("..#\n...\n#..\n")
    out = run(*command, "--seed", "-1", cwd=folder)
    one_line_error(out, "--seed -1", "0 or more")
    assert sorted(p.name for p in folder.iterdir()) == ["p.txt", "w.txt"]  # nothing written, not even a store


@pytest.fixture
def read_only(folder):
    """A folder no process may write into (chattr +i for root, who ignores permission bits)."""
    ro = folder / "ro"
    ro.mkdir()
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(ro)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot make a read-only folder as root here: chattr: {done.stderr.strip()}")
    else:
        ro.chmod(0o555)
    yield ro
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(ro)], check=True)
    else:
        ro.chmod(0o755)


@pytest.mark.parametrize(
    "command",
    [
        ("boggle", "search", "--lexicon", "w.txt", "--shape", "3x3", "--max-boards", "300", "--out", "ro/x.parquet"),
        ("crossword", "generate", "--size", "5", "--lang", "num", "--out", "ro"),
        ("crossword", "generate", "--size", "5", "--lang", "num", "--out", "ro/sub"),
    ],
    ids=["file", "folder", "sub-folder"],
)
def test_a_read_only_output_folder_is_one_line_naming_the_file(folder, read_only, command):
    # the error named a temporary file (.x.parquet.<random>.tmp) or was a traceback (issue 30)
    out = run(*command, cwd=folder)
    line = one_line_error(out, "cannot write", str(command[-1]))
    assert ".tmp" not in line and list(read_only.iterdir()) == []


def test_a_count_above_int64_is_one_line(folder):
    one_line_error(run("bee", "top", "-n", HUGE, cwd=folder), "-n")


def test_a_word_longer_than_the_word_table_holds_is_one_line(folder):
    (folder / "long.txt").write_text("lines\n" + "a" * 40000 + "\nslate\n")
    one_line_error(run("lexicon", "info", "long.txt", cwd=folder), "line 2", "40000")


def test_a_frequency_above_int64_is_one_line(folder):
    (folder / "freq.txt").write_text(f"lines 10\nslate {HUGE}\n")
    one_line_error(run("lexicon", "info", "freq.txt", cwd=folder), "line 2")


def test_a_ragged_board_is_refused(folder):
    one_line_error(
        run("boggle", "score", "--lexicon", "w.txt", "pers/latg/sin/eters", cwd=folder), "pers/latg/sin/eters"
    )


@pytest.mark.parametrize("flag", ["--points", "--lexicon"])
def test_empty_flag_values_are_refused(folder, flag):
    one_line_error(run("boggle", "score", "--lexicon", "w.txt", flag, "", "streaedlp", cwd=folder), flag)


def test_an_empty_out_is_refused(folder):
    one_line_error(run(*SEARCH, "--out", "", cwd=folder), "--out")


def test_out_naming_a_folder_writes_no_file_named_like_it(folder):
    out = run(*SEARCH, "--out", "dir/", cwd=folder)
    one_line_error(out, "--out", "dir/")
    assert not (folder / "dir").exists() and "stopped by" not in out.stderr


def _small_files():
    """In the child: files above 4 kB cannot be written (as on a full disk); no SIGXFSZ kill."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_failed_parquet_write_names_the_path_and_leaves_no_file(folder):
    # the store and numba's cached kernels are written without the limit (a cache write would hit it first)
    assert run(*SEARCH[:-1], "3000", "--out", "warm.parquet", cwd=folder).returncode == 0
    out = run(*SEARCH[:-1], "3000", "--out", "seed.parquet", cwd=folder, preexec=_small_files)
    one_line_error(out, "seed.parquet")
    assert not (folder / "seed.parquet").exists()
    assert not [p for p in folder.iterdir() if p.name.startswith(".seed.parquet")]


def test_an_unknown_builtin_lexicon_is_one_line():
    out = subprocess.run(
        [str(SNAKEMAKE), "-n", "--config", "lexicons={x: builtin:zz}"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr[-3000:]
    assert "builtin:zz" in out.stderr and "lexicons.x" in out.stderr, out.stderr[-3000:]


def test_a_folder_flag_may_end_in_a_slash(folder):
    """crossword fill --out takes a folder: 'out/' is not refused as a folder given for a file."""
    out = run("crossword", "fill", "--pattern", "missing.txt", "--out", "out/", cwd=folder)
    assert "--out out/" not in out.stderr and "missing.txt" in out.stderr, out.stderr[-2000:]
