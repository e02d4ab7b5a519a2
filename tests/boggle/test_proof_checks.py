"""Boggle proofs, issue 62: output folders, a gather that re-checks what its shards claim, limits and faults.

Case 1: an interactive proof's --out folder is new, empty or its own (a user's folder is refused).
Case 2: a shard whose rows were edited and whose checksums were recomputed (sha256 and
manifest_sha256) passed the gather; now every reported board is re-scored, each class's
recorded bound and boards checked, and a seeded sample of classes proved again.
Cases 9 and 10: out of memory, --shards and --jobs past what the proof can use, a full disk.
"""

from __future__ import annotations

import json

from puzzlesearch.cli import main
from puzzlesearch.io import OUTPUT_MARKER

WORDS = ["sea", "seas", "ease", "eases", "quasse", "aqueses"]  # a tiny lexicon over a, e, s, qu
PARTITION = "ae sq bcdfghijklmnoprtuvwxyz"


def write_project(tmp_path, words=WORDS) -> list[str]:
    (tmp_path / "words.txt").write_text("\n".join(words) + "\n")
    (tmp_path / "config.yaml").write_text("lexicons:\n  tiny: words.txt\n")
    return ["--config", str(tmp_path / "config.yaml"), "boggle"]


def prove_args(tmp_path, out, *extra: str) -> list[str]:
    args = write_project(tmp_path) + ["prove", "--shape", "2x2", "--lexicon", "tiny", "--min-score", "3"]
    return args + ["--partition", PARTITION, "--out", str(out), *extra]


def error_line(capsys) -> str:
    """The one stderr line of a failed command (log lines before it are allowed), checked to be one."""
    err = capsys.readouterr().err.strip().splitlines()
    errors = [line for line in err if line.startswith("puzzlesearch: error:")]
    assert len(errors) == 1 and errors[0] == err[-1] and not any("Traceback" in line for line in err), err
    return errors[0]


# ---------------------------------------------------------------- case 1: the --out folder


def test_prove_into_a_users_folder_is_refused_and_its_own_folder_resumed(tmp_path, capsys):
    user = tmp_path / "user"
    user.mkdir()
    (user / "boards.parquet").write_text("my own table\n")
    assert main(prove_args(tmp_path, user)) == 2
    line = error_line(capsys)
    assert str(user) in line and "not an output folder of `boggle prove`" in line
    assert [p.name for p in user.iterdir()] == ["boards.parquet"]
    assert (user / "boards.parquet").read_text() == "my own table\n"

    out = tmp_path / "proof"
    assert main(prove_args(tmp_path, out)) == 0
    assert json.loads((out / OUTPUT_MARKER).read_text()) == {"writer": "boggle prove"}
    assert main(prove_args(tmp_path, out)) == 0  # its own folder: resumed
    capsys.readouterr()
    sample = write_project(tmp_path) + ["prove-sample", "--shape", "2x2", "--lexicon", "tiny", "--min-score", "3"]
    assert main(sample + ["--partition", PARTITION, "--classes", "2", "--out", str(out)]) == 2  # prove's, not its
    assert "written by `boggle prove`" in error_line(capsys)
