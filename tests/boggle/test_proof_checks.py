"""Boggle proofs, issue 62: output folders, a gather that re-checks what its shards claim, limits and faults.

Case 1: an interactive proof's --out folder is new, empty or its own (a user's folder is refused).
Case 2: a shard whose rows were edited and whose checksums were recomputed (sha256 and
manifest_sha256) passed the gather; now every reported board is re-scored, each class's
recorded bound and boards checked, and a seeded sample of classes proved again.
Cases 9 and 10: out of memory, --shards and --jobs past what the proof can use, a full disk.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from puzzlesearch.boggle.model import Shape
from puzzlesearch.boggle.proof.prove import SHARD_KIND, SHARD_SCHEMA, ShardResult, recheck_sample, write_shard
from puzzlesearch.boggle.proof.settings import ProofSettings
from puzzlesearch.cli import main
from puzzlesearch.io import OUTPUT_MARKER


def random_words(letters: str, n: int, seed: int) -> list[str]:
    """n distinct random words of 3-7 letters over `letters` ('q' written as 'qu'), as in test_proof.py."""
    rng = np.random.default_rng(seed)
    keys = set()
    while len(keys) < n:
        keys.add("".join(rng.choice(list(letters), int(rng.integers(3, 8)))))
    return sorted(k.replace("q", "qu") for k in keys)


WORDS = random_words("aesq", 40, seed=3)  # a tiny lexicon over a, e, s, qu: 2x2 boards >= 3 in a few classes
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


# ---------------------------------------------------------------- case 2: the gather re-checks the shards' rows


@pytest.fixture
def sharded(tmp_path, capsys):
    """A 2x2 proof in two shards made by `prove-shard`: (gather(settings_json, certificate) -> exit code, paths, meta)."""
    from puzzlesearch.lexicon import open_lexicon

    root = tmp_path / "lexicon"
    root.mkdir()
    (root / "words.txt").write_text("\n".join(WORDS) + "\n")
    lex = open_lexicon("tiny", config={"lexicons": {"tiny": str(root / "words.txt")}}, root=root)
    words, dawg = str(lex.dir / "words.parquet"), str(lex.dir / "boggle_dawg.npz")
    proof = ProofSettings.from_dict({"partition": PARTITION, "min_score": 2, "shards": 2})
    inputs = ["--words", words, "--dawg", dawg, "--shape", "2x2"]
    paths = [tmp_path / f"shard{i}.parquet" for i in range(2)]
    for shard, path in enumerate(paths):
        assert (
            main(
                ["boggle", "prove-shard", "--settings", proof.to_json(), *inputs, "--shard", str(shard)]
                + ["--out", str(path)]
            )
            == 0
        )

    def gather(settings: ProofSettings = proof) -> int:
        outs = ["--boards", str(tmp_path / "boards.parquet"), "--classes", str(tmp_path / "classes.parquet")]
        outs += ["--certificate", str(tmp_path / "certificate.json")]
        return main(["boggle", "prove-gather", *map(str, paths), "--settings", settings.to_json(), *inputs, *outs])

    capsys.readouterr()
    gather.inputs = inputs  # --words, --dawg, --shape of the shard jobs
    return gather, paths, proof


def edit_shard(path, proof, edit) -> None:
    """Rewrite a shard's rows with `edit(rows)` and recompute its sha256 and manifest_sha256 (a sound manifest)."""
    from puzzlesearch import manifest

    data = manifest.read_manifest(path.with_suffix(".json"))
    table = pl.read_parquet(path)
    rows = table.to_dicts()
    edit(rows)
    write_shard(
        ShardResult(pl.DataFrame(rows, schema=SHARD_SCHEMA)), path, {**data, "settings": data["manifest"]["settings"]}
    )
    manifest.verify(path.with_suffix(".json"), SHARD_KIND, [path.name])  # the edit passes the checksums


def searched_row(paths) -> tuple[int, int]:
    """(shard, row) of the searched class with the best board (then the most boards)."""
    rows = [(shard, i, r) for shard, p in enumerate(paths) for i, r in enumerate(pl.read_parquet(p).to_dicts())]
    searched = [(max(r["scores"]), len(r["boards"]), shard, i) for shard, i, r in rows if r["boards"]]
    best = max(searched)
    assert best[0] > 2  # above min_score: a bound between the two is possible
    return best[2], best[3]


def test_the_gather_rescores_every_board(sharded, capsys, tmp_path):
    gather, paths, proof = sharded
    assert gather() == 0
    cert = json.loads((tmp_path / "certificate.json").read_text())
    assert cert["complete"] and cert["rechecked"]["boards_rescored"] == cert["boards_at_least_min_score"] > 0
    assert cert["rechecked"]["classes_reproved"] >= 2  # one searched and one pruned at least
    capsys.readouterr()
    (tmp_path / "certificate.json").unlink()
    shard, i = searched_row(paths)

    def best_9999(rows):
        rows[i]["scores"][0] = 9999

    edit_shard(paths[shard], proof, best_9999)
    assert gather() == 2
    line = error_line(capsys)
    assert str(paths[shard]) in line and "class #" in line and "recorded with score 9999" in line
    assert not (tmp_path / "certificate.json").exists()


def test_the_gather_proves_a_sample_again_and_finds_dropped_boards(sharded, capsys, tmp_path):
    gather, paths, proof = sharded
    shard, i = searched_row(paths)

    def drop_boards(rows):
        rows[i]["boards"], rows[i]["scores"] = [], []

    edit_shard(paths[shard], proof, drop_boards)
    assert gather(proof.replace(recheck_share=1.0)) == 2
    line = error_line(capsys)
    assert str(paths[shard]) in line and "proved again, boards is" in line
    assert not (tmp_path / "certificate.json").exists()


@pytest.mark.parametrize(
    "edit,needle",
    [
        (lambda r: r.update(outcome="pruned", bound=1, boards=[], scores=[]), None),  # caught by the sample
        (lambda r: r.update(bound=r["scores"][0] - 1), "above the class's recorded bound"),
        (lambda r: r.update(outcome="pruned"), "pruned with bound"),
        (lambda r: r.update(boards=r["boards"][:1] * 2, scores=r["scores"][:1] * 2), "also reported"),
        (lambda r: r.update(boards=["zzzz"], scores=[5]), "zzzz is not of this class"),
    ],
)
def test_the_gather_checks_each_class_against_its_boards(sharded, capsys, tmp_path, edit, needle):
    gather, paths, proof = sharded
    shard, i = searched_row(paths)
    edit_shard(paths[shard], proof, lambda rows: edit(rows[i]))
    assert gather(proof.replace(recheck_share=1.0) if needle is None else proof.replace(recheck_share=0.0)) == 2
    line = error_line(capsys)
    assert str(paths[shard]) in line and (needle or "proved again") in line, line
    assert not (tmp_path / "certificate.json").exists()


def test_the_recheck_sample_is_seeded_and_a_few_percent():
    outcomes = ["pruned"] * 1000 + ["searched"] * 100 + ["capped"] * 5
    table = pl.DataFrame({"outcome": outcomes})
    proof = ProofSettings()
    first, again = recheck_sample(table, proof), recheck_sample(table, proof)
    other = recheck_sample(table, proof.replace(recheck_seed=1))
    assert first.tolist() == again.tolist() != other.tolist()
    assert proof.recheck_share <= 0.05 and len(first) == 30 + 3  # 3% of each kind
    assert set(np.array(outcomes)[first]) == {"pruned", "searched"}
    assert len(recheck_sample(table, proof.replace(recheck_share=0.0))) == 0


# ---------------------------------------------------------------- case 9: out of memory


def test_prove_6x6_under_a_6gb_address_limit_is_one_line(tmp_path):
    # issue 62 case 9, as written: `ulimit -v 6000000; boggle prove --shape 6x6` ended in a
    # numpy._ArrayMemoryError traceback (listing 3.7e15 classes); now one line at once naming the setting
    write_project(tmp_path)
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (6000000 * 1024, 6000000 * 1024)); "
    code = limit + "import sys; from puzzlesearch.cli import main; sys.exit(main(sys.argv[1:]))"
    args = ["--config", str(tmp_path / "config.yaml"), "boggle", "prove", "--shape", "6x6", "--lexicon", "tiny"]
    args += ["--min-score", "10", "--out", str(tmp_path / "p66")]
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)
    err = out.stderr.strip().splitlines()
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert err[-1].startswith("puzzlesearch: error: boggle proof 6x6:") and "3,706,041,217,118,022 classes" in err[-1]
    assert "boggle.proof.partition" in err[-1]
    assert not (tmp_path / "p66").exists()


def test_out_of_memory_in_a_class_names_the_setting_to_lower(tmp_path, capsys, monkeypatch):
    from puzzlesearch.boggle.proof.prove import Prover

    def no_memory(self, code):
        np.empty(2**62, dtype=np.uint8)  # numpy._ArrayMemoryError, as a tree too large for the machine

    monkeypatch.setattr(Prover, "prove_class", no_memory)
    assert main(prove_args(tmp_path, tmp_path / "proof")) == 2
    line = error_line(capsys)
    assert "out of memory proving a class" in line and "lower boggle.proof.max_tree_nodes" in line


def test_out_of_memory_anywhere_is_one_line(capsys, monkeypatch):
    import puzzlesearch.cli

    def no_memory(args):
        raise MemoryError("Unable to allocate 1.80 MiB for an array with shape (236196, 8) and data type bool")

    monkeypatch.setattr(puzzlesearch.cli, "cmd_config", no_memory)
    assert main(["config", "--defaults"]) == 2
    line = error_line(capsys)
    assert line.startswith("puzzlesearch: error: out of memory (Unable to allocate 1.80 MiB") and "--help" in line


# ---------------------------------------------------------------- case 10: shards, jobs, a full disk


def test_shards_are_capped_by_the_classes(tmp_path, capsys, caplog):
    # issue 62 case 10: `--shards 100000` on 102 classes wrote 200,000 files; a 2x2 proof has 21 classes
    out = tmp_path / "proof"
    with caplog.at_level("INFO", logger="puzzlesearch"):
        assert main(prove_args(tmp_path, out, "--shards", "100000")) == 0
    classes = ProofSettings.from_dict({"partition": PARTITION}).class_count(Shape(2, 2))
    assert classes == 21
    assert len(list((out / "shards").glob("shard*.parquet"))) == classes
    assert len(list((out / "shards").iterdir())) == 2 * classes  # a table and its manifest each
    assert json.loads((out / "certificate.json").read_text())["shards"] == classes
    assert "note: --shards 100000: the proof has 21 classes, so as many shards" in capsys.readouterr().err + caplog.text


def test_jobs_are_capped_by_the_cores(tmp_path, capsys, monkeypatch):
    from puzzlesearch import parallel
    from puzzlesearch.boggle.proof import prove

    asked = []

    def recording(fn, items, jobs, stopped=lambda: False):
        asked.append(jobs)
        return parallel.forked_map(fn, items, jobs, stopped)

    monkeypatch.setattr(prove, "forked_map", recording)
    assert main(prove_args(tmp_path, tmp_path / "proof", "--jobs", "100000", "--shards", "1")) == 0
    assert asked and max(asked) == parallel.cores() < 100000
    assert f"note: --jobs 100000: this machine gives {parallel.cores()} cores" in capsys.readouterr().err


def test_a_shard_job_of_more_shards_than_classes_is_refused(sharded, tmp_path, capsys):
    gather, _paths, proof = sharded
    too_many = proof.replace(shards=50)
    args = ["boggle", "prove-shard", "--settings", too_many.to_json(), "--shard", "30", *gather.inputs]
    assert main(args + ["--out", str(tmp_path / "s.parquet")]) == 2
    assert "shards 50 is more than the 21 classes" in error_line(capsys)
    assert not (tmp_path / "s.parquet").exists()


def test_a_full_disk_names_the_file(tmp_path, capsys, monkeypatch):
    # issue 62 case 10: the ENOSPC line read `puzzlesearch: error:: No space left on device` (no path);
    # a write error carries no file name, so the atomic writer names the file it was writing
    import errno
    import pathlib

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    out = tmp_path / "proof"
    args = prove_args(tmp_path, out)
    monkeypatch.setattr(pathlib.Path, "write_text", full)
    assert main(args) == 2
    line = error_line(capsys)
    assert line == f"puzzlesearch: error: {out / OUTPUT_MARKER}: cannot write (No space left on device)"


def test_an_os_error_without_a_file_is_one_clean_line(capsys, monkeypatch):
    import errno

    import puzzlesearch.cli

    def full(args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(puzzlesearch.cli, "cmd_config", full)
    assert main(["config", "--defaults"]) == 2
    assert error_line(capsys) == "puzzlesearch: error: No space left on device"
