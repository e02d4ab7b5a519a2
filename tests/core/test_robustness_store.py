"""The artifact store proves each folder was built from the source its key names (issue 30, case 3)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
# perslatgsineters (4x4, published best board) spells these; a board that spells none scores 0.
WORDS_A = "lines\nslate\nsine\nsire\nsites\nrest\nlater\nalert\nsilent\nlisten\n"
WORDS_B = "zebra\nquartz\njazz\nfuzz\nbuzz\nfizz\n"


def run(*argv, store: Path, cwd: Path) -> subprocess.CompletedProcess:
    """puzzlesearch as a real process with its own store (outside any project)."""
    env = {**os.environ, "PUZZLESEARCH_STORE": str(store)}
    return subprocess.run(
        [str(PUZZLESEARCH), *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def lexicon_folders(store: Path) -> list[Path]:
    """The store's lexicon key folders."""
    return sorted(p for p in (store / "lexicon").iterdir() if not p.name.startswith("."))


def one_line_error(out: subprocess.CompletedProcess) -> str:
    """The single `puzzlesearch: error:` line of a failed run (no traceback)."""
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(lines) == 1, out.stderr[-2000:]
    return lines[0]


def two_lexicons(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(store, folder of lexicon a, folder of lexicon b), both built by `lexicon info`."""
    store = tmp_path / "store"
    (tmp_path / "a.txt").write_text(WORDS_A)
    (tmp_path / "b.txt").write_text(WORDS_B)
    for name in ("a.txt", "b.txt"):
        out = run("lexicon", "info", tmp_path / name, store=store, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
    info = json.loads(run("lexicon", "info", tmp_path / "a.txt", store=store, cwd=tmp_path).stdout)
    folder_a = Path(info["dir"])
    (folder_b,) = [p for p in lexicon_folders(store) if p != folder_a]
    return store, folder_a, folder_b


def test_a_foreign_dawg_pair_in_a_store_folder_is_an_error(tmp_path):
    store, folder_a, folder_b = two_lexicons(tmp_path)
    good = run("boggle", "score", "--lexicon", tmp_path / "a.txt", "perslatgsineters", store=store, cwd=tmp_path)
    assert good.returncode == 0 and int(good.stdout.split("\t")[2].split()[1]) > 0, good.stdout + good.stderr
    for name in ("boggle_dawg.npz", "boggle_dawg.json"):
        shutil.copy(folder_b / name, folder_a / name)
    out = run("boggle", "score", "--lexicon", tmp_path / "a.txt", "perslatgsineters", store=store, cwd=tmp_path)
    line = one_line_error(out)
    assert "boggle_dawg" in line, line


def test_a_symlinked_key_folder_does_not_answer_for_another_lexicon(tmp_path):
    store, folder_a, folder_b = two_lexicons(tmp_path)
    shutil.rmtree(folder_a)
    folder_a.symlink_to(folder_b, target_is_directory=True)
    out = run("lexicon", "info", tmp_path / "a.txt", store=store, cwd=tmp_path)
    if out.returncode == 0:  # rebuilt in a real folder: the answer is lexicon a's
        info = json.loads(out.stdout)
        assert info["name"] == "a" and info["words"] == len(WORDS_A.split()), info
        assert not Path(info["dir"]).is_symlink()
    else:
        assert "symlink" in one_line_error(out)


def test_a_folder_whose_words_come_from_another_source_is_refused(tmp_path):
    store, folder_a, folder_b = two_lexicons(tmp_path)
    for name in ("words.parquet", "words.json", "dawg.npz", "dawg.json", "boggle_dawg.npz", "boggle_dawg.json"):
        shutil.copy(folder_b / name, folder_a / name)
    out = run("lexicon", "info", tmp_path / "a.txt", store=store, cwd=tmp_path)
    if out.returncode == 0:
        info = json.loads(out.stdout)
        assert info["name"] == "a" and info["words"] == len(WORDS_A.split()), info
    else:
        assert str(folder_a) in one_line_error(out)


def test_leftovers_of_a_killed_build_are_cleaned(tmp_path):
    store, folder_a, _ = two_lexicons(tmp_path)
    dead = subprocess.Popen(["true"])
    dead.wait()
    leftover = store / "lexicon" / f".tmp-{'0' * 24}-{dead.pid}"
    (leftover / "sub").mkdir(parents=True)
    (leftover / "sub" / "words.parquet").write_bytes(b"x" * 1000)
    alive = store / "lexicon" / f".tmp-{'1' * 24}-{os.getpid()}"  # this process is alive: kept
    alive.mkdir()
    (tmp_path / "c.txt").write_text("tea\neat\nate\n")
    out = run("lexicon", "info", tmp_path / "c.txt", store=store, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert not leftover.exists()
    assert alive.exists()


def test_the_rebuild_command_for_a_damaged_file_is_quoted_for_the_shell(tmp_path):
    """A damaged pipeline output at a path with a space and a quote: the suggested command keeps it one word."""
    import shlex

    from puzzlesearch.manifest import rebuild_hint

    path = tmp_path / "a b'c" / "table.npy"
    words = shlex.split(rebuild_hint(path).removeprefix("rebuild it: "))
    assert words[:4] == ["snakemake", "--cores", "all", "--force"] and words[4:] == [str(path)]
