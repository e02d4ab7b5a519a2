"""Iterated local search (method ils): the proven 3x3 best, same seed same boards, checkpoint and resume."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from puzzlesearch.boggle.model import Shape, canonical, encode_boards
from puzzlesearch.boggle.search import Budget, kick, restricted_space, run_search
from puzzlesearch.boggle.spaces import FreeSpace
from puzzlesearch.errors import PuzzleError

SMALL = {"pool_size": 1, "kick_moves": 3, "patience": 8, "swaps": True, "keep": 20}


def published(shared_dir, wordlist: str, rows: int, cols: int) -> tuple[str, int]:
    """(board, score) of the published best in ../shared/facts/boggle_scores.csv."""
    with open(shared_dir / "facts" / "boggle_scores.csv", newline="") as f:
        for row in csv.DictReader(f):
            if (row["wordlist"], int(row["rows"]), int(row["cols"])) == (f"{wordlist}.txt", rows, cols):
                return row["board"], int(row["score"])
    raise LookupError(f"no published {rows}x{cols} {wordlist} board")


def same_board(a: str, b: str, shape: Shape) -> bool:
    """True when two boards are equal under the board's symmetries."""
    return (canonical(encode_boards([a], shape), shape) == canonical(encode_boards([b], shape), shape)).all()


def strip(result) -> list[tuple]:
    """What a run found, without the clock: (board, score, boards scored when first seen, restart, local optimum)."""
    return [(r["board"], r["score"], r["boards_scored"], r["restart"], r["local_optimum"]) for r in result.rows()]


def ils(scorer, seed=5, max_boards=60_000, shape=Shape(3, 3), **options):
    return run_search(
        scorer, FreeSpace(shape), "ils", seed, Budget(seconds=120, max_boards=max_boards), **{**SMALL, **options}
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ils_reaches_proven_3x3_best(scorer, shared_dir, seed):
    board, score = published(shared_dir, "enable2k", 3, 3)  # streaedlp 545, proven optimal
    budget = Budget(seconds=120, max_boards=400_000, target=score)
    result = run_search(scorer, FreeSpace(Shape(3, 3)), "ils", seed, budget, **SMALL)
    best = result.rows()[0]
    assert result.stopped_by == "target" and best["score"] == score
    assert same_board(best["board"], board, Shape(3, 3))
    assert scorer.scores(encode_boards([best["board"]], Shape(3, 3)), Shape(3, 3))[0] == score


def test_ils_same_seed_same_boards_and_scores_are_true(scorer):
    runs = [strip(ils(scorer, seed=11, max_boards=30_000)) for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0]) == SMALL["keep"]
    assert strip(ils(scorer, seed=12, max_boards=30_000)) != runs[0]
    boards = encode_boards([r[0] for r in runs[0]], Shape(3, 3))
    assert scorer.scores(boards, Shape(3, 3)).tolist() == [r[1] for r in runs[0]]


def test_resumed_run_equals_uninterrupted_run(scorer, tmp_path):
    whole = ils(scorer, max_boards=40_000)
    assert whole.climbs > 20 and whole.restarts >= 1  # kicks, and restarts after `patience` kicks
    path = tmp_path / "ils.json"
    first = ils(scorer, max_boards=13_000, checkpoint=path, checkpoint_seconds=0)
    assert path.exists() and first.climbs < whole.climbs
    second = ils(scorer, max_boards=25_000, checkpoint=path, checkpoint_seconds=3600)  # saved only at the end
    rest = ils(scorer, max_boards=40_000, checkpoint=path)
    assert second.climbs < rest.climbs == whole.climbs
    assert strip(rest) == strip(whole)


class _CtrlC:
    """A scorer that raises KeyboardInterrupt (as Ctrl-C does) on its `after`-th incremental scoring."""

    def __init__(self, scorer, after: int):
        self.scorer, self.after = scorer, after

    def __getattr__(self, name):
        return getattr(self.scorer, name)

    def score_near(self, *args, **kwargs):
        self.after -= 1
        if self.after == 0:
            raise KeyboardInterrupt
        return self.scorer.score_near(*args, **kwargs)


def test_ctrl_c_keeps_the_checkpoint_and_resume_finishes_the_same(scorer, tmp_path):
    whole = ils(scorer, max_boards=30_000)
    path = tmp_path / "ils.json"
    cut = ils(_CtrlC(scorer, 40), max_boards=30_000, checkpoint=path, checkpoint_seconds=3600)
    assert cut.stopped_by == "interrupted" and path.exists() and 0 < cut.climbs < whole.climbs
    assert strip(ils(scorer, max_boards=30_000, checkpoint=path)) == strip(whole)


def test_checkpoint_of_another_search_is_refused(scorer, tmp_path):
    path = tmp_path / "ils.json"
    ils(scorer, seed=1, max_boards=3000, checkpoint=path)
    with pytest.raises(PuzzleError, match="seed"):
        ils(scorer, seed=2, max_boards=6000, checkpoint=path)
    with pytest.raises(PuzzleError, match="kick_moves"):
        ils(scorer, seed=1, max_boards=6000, checkpoint=path, kick_moves=2)
    path.write_text(path.read_text().replace('"climbs": ', '"climbs": 1'))
    with pytest.raises(PuzzleError, match="checksum|damaged"):
        ils(scorer, seed=1, max_boards=6000, checkpoint=path)


def test_excluded_letters_never_placed_and_kicks_move(scorer):
    space = restricted_space(FreeSpace(Shape(3, 3)), "zqxjkw")
    rng = np.random.default_rng(0)
    start = space.random(rng, 1)[0]
    kicked = kick(space, start, rng, 3, 50)
    assert (kicked != start).any(axis=1).mean() > 0.8  # a few kicks may undo themselves
    result = ils(scorer, max_boards=20_000, exclude="zqxjkw")
    assert not set("zqxjkw") & set("".join(r["board"] for r in result.rows()))


# ---------------------------------------------------------------- command line


def test_cli_ctrl_c_keeps_the_checkpoint_and_a_rerun_continues(project, tmp_path, capsys):
    import json
    import signal
    import subprocess
    import sys
    import time

    from puzzlesearch.cli import main

    ckpt = tmp_path / "ils.json"
    cfg = ["--config", str(project / "config.yaml"), "boggle"]
    args = ["search", "--shape", "3x3", "--method", "ils", "--seed", "3", "--set", "ils.pool_size=5"]
    args += ["--set", "ils.checkpoint_seconds=0", "--seconds", "120", "--checkpoint", str(ckpt)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzlesearch", *cfg, *args, "--max-boards", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    for line in proc.stderr:  # wait until the search itself runs
        if "boggle: search" in line:
            break
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err, err
    done = json.loads(ckpt.read_text())["state"]
    assert done["climbs"] > 0 and done["boards"] > 0
    assert main(cfg + args + ["--max-boards", str(done["boards"] + 50_000)]) == 0
    assert json.loads(ckpt.read_text())["state"]["climbs"] > done["climbs"]
    assert main(cfg + ["search", "--shape", "3x3", "--method", "hill", "--checkpoint", str(ckpt)]) == 2
    assert "--checkpoint: only with method ils" in capsys.readouterr().err
