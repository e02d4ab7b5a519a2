"""Simulated annealing (method anneal): a pure-Python twin of the kernel, the proven 3x3 best, seeds, resume."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_boggle_ils import published, same_board, strip

from puzzlesearch.boggle._kernels import anneal as kernels
from puzzlesearch.boggle.model import LETTERS, Board, Shape, encode_boards, neighbour_masks
from puzzlesearch.boggle.reference import reference_score
from puzzlesearch.boggle.search import Budget, run_search
from puzzlesearch.boggle.settings import SearchSettings
from puzzlesearch.boggle.spaces import FreeSpace, make_space
from puzzlesearch.errors import ConfigError, PuzzleError

SMALL = {"run_steps": 3000, "t0": 30.0, "t_end": 1.0, "stall": 0.0, "swap_p": 0.5, "keep": 20, "chunk": 500}
MASK = (1 << 64) - 1


# ---------------------------------------------------------------- the slow twin


class Twin:
    """The annealing kernel step by step in plain Python, scoring with the brute-force reference scorer."""

    def __init__(self, board, allowed, rng: int, reference, shape: Shape):
        self.board, self.allowed, self.rng = list(board), [int(x) for x in allowed], rng
        self.words, self.prefix_set, self.shape = reference[0], reference[1], shape
        self.score = self.best_score = self.best_at = self.step = self.boards = self.best_step = 0
        self.best = list(board)

    def u64(self) -> int:
        x = self.rng
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        self.rng = x
        return (x * 2685821657736338717) & MASK

    def uniform(self) -> float:
        return (self.u64() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        return (self.u64() >> 11) % n

    def points(self) -> int:
        return reference_score(
            Board(self.shape.rows, self.shape.cols, tuple(self.board)), self.words, prefix_set=self.prefix_set
        )[0]

    def propose(self, swap_p: float):
        n, b = len(self.board), self.board
        if self.uniform() < swap_p:
            for _ in range(64):
                i = self.below(n)
                j = self.below(n - 1)
                j += j >= i
                if b[i] != b[j]:
                    b[i], b[j] = b[j], b[i]
                    return i, b[j], j, b[i]
        i = self.below(n)
        old = b[i]
        letter = self.allowed[self.below(len(self.allowed) - 1)]
        b[i] = self.allowed[-1] if letter == old else letter
        return i, old, -1, old

    def ints(self) -> list[int]:
        return [self.score, self.best_score, self.best_at, self.step, self.boards, self.best_step]

    def run(self, steps: int, run_steps: int, t0: float, log_ratio: float, swap_p: float, stall: int = 0) -> None:
        for _ in range(steps):
            if self.step == 0:
                self.score = self.best_score = self.points()
                self.best_at, self.best, self.best_step = self.boards + 1, list(self.board), 0
            else:
                t = t0 * math.exp(-log_ratio * self.step / run_steps)
                i, li, j, lj = self.propose(swap_p)
                s = self.points()
                if s >= self.score or self.uniform() < math.exp((s - self.score) / t):
                    self.score = s
                    if s > self.best_score:
                        self.best_score, self.best_at, self.best = s, self.boards + 1, list(self.board)
                        self.best_step = self.step
                else:
                    self.board[i] = li
                    if j >= 0:
                        self.board[j] = lj
            self.boards += 1
            self.step += 1
            if stall and self.step - self.best_step >= stall:
                self.step = run_steps  # the run has frozen: it ends


def fast_state(board, allowed, rng: int) -> kernels.AnnealArrays:
    n = len(board)
    return kernels.AnnealArrays(
        np.array(board, np.uint8),
        np.zeros(n, np.uint8),
        np.array(allowed, np.uint8),
        np.array([rng], np.uint64),
        np.zeros(kernels.N_INTS, np.int64),
    )


@pytest.mark.parametrize("shape,seed", [(Shape(3, 3), 1), (Shape(3, 3), 2), (Shape(3, 4), 3)])
def test_kernel_walks_the_same_boards_as_its_slow_twin(scorer, reference, shape, seed):
    """Same generator, same moves, brute-force scores: the same current board, run best and step after every call."""
    rng = np.random.default_rng(seed)
    allowed = np.array([i for i, ch in enumerate(LETTERS) if ch not in "zqxjkw"], np.uint8)
    board = allowed[rng.integers(0, len(allowed), shape.cells)]
    start = int(rng.integers(1, 2**63))
    fast, twin = fast_state(board, allowed, start), Twin(board, allowed, start, reference, shape)
    nbm, run_steps, t0, t_end = neighbour_masks(shape), 400, 40.0, 2.0
    accepted_worse = 0
    for steps in (1, 37, 150, 300):  # the last call stops at the run's end (400 steps)
        done = kernels.anneal(
            fast, nbm, scorer.arrays, scorer._stamps(steps), steps, run_steps, t0, math.log(t0 / t_end), 0.5, 0
        )
        twin.run(done, run_steps, t0, math.log(t0 / t_end), 0.5)
        assert done == min(steps, run_steps - (twin.step - done))
        assert fast.board.tolist() == twin.board and fast.best.tolist() == twin.best
        assert fast.ints.tolist() == twin.ints()
        assert int(fast.rng[0]) == twin.rng
        accepted_worse += twin.score < twin.best_score  # standing below the run's best: a worse board was kept
    assert twin.step == run_steps and twin.best_score > 0
    assert twin.best_score >= twin.score  # the run's best is the best board it stood on
    assert accepted_worse  # it did go downhill at times (annealing, not a climb)


@pytest.mark.parametrize("seed", [4, 5])
def test_a_stalled_run_ends_early_as_in_the_slow_twin(scorer, reference, seed):
    """With stall, the run ends `stall` steps after its best: the kernel and the twin end on the same step."""
    shape, stall, run_steps = Shape(3, 3), 40, 5000
    rng = np.random.default_rng(seed)
    allowed = np.array([i for i, ch in enumerate(LETTERS) if ch not in "zqxjkw"], np.uint8)
    board = allowed[rng.integers(0, len(allowed), shape.cells)]
    start = int(rng.integers(1, 2**63))
    fast, twin = fast_state(board, allowed, start), Twin(board, allowed, start, reference, shape)
    log_ratio, nbm, total = math.log(20.0 / 0.5), neighbour_masks(shape), 0
    while fast.ints[kernels.STEP] < run_steps:
        done = kernels.anneal(fast, nbm, scorer.arrays, scorer._stamps(64), 64, run_steps, 20.0, log_ratio, 0.5, stall)
        twin.run(done, run_steps, 20.0, log_ratio, 0.5, stall)
        total += done
        assert fast.ints.tolist() == twin.ints() and fast.best.tolist() == twin.best
    assert total < run_steps  # it froze long before 5,000 steps
    assert total == fast.ints[kernels.BEST_STEP] + stall  # ended `stall` steps after its best


def test_stall_makes_runs_shorter_and_resumes_the_same(scorer, tmp_path):
    free, stalled = anneal(scorer, max_boards=12_000), anneal(scorer, max_boards=12_000, stall=0.05)
    assert stalled.climbs > free.climbs  # runs end when frozen: more runs for the same boards
    path = tmp_path / "anneal.json"
    anneal(scorer, max_boards=5_000, checkpoint=path, stall=0.05)
    assert strip(anneal(scorer, max_boards=12_000, checkpoint=path, stall=0.05)) == strip(stalled)


def test_a_checkpoint_from_before_stall_resumes_as_stall_0(scorer, tmp_path):
    """Files written before anneal.stall existed (no stall setting, 5 ints) resume with stall 0 and only with it."""
    import json

    from puzzlesearch.manifest import data_sha256

    path = tmp_path / "old.json"
    anneal(scorer, max_boards=4_300, checkpoint=path, stall=0.0)
    doc = json.loads(path.read_text())
    del doc["manifest"]["settings"]["stall"]
    doc["state"]["ints"] = doc["state"]["ints"][:5]  # score, best, best at, step, boards: the old layout
    doc["manifest"]["data_sha256"] = data_sha256({"state": doc["state"]})
    path.write_text(json.dumps(doc))
    with pytest.raises(PuzzleError, match=r"before the option stall existed.*--set anneal.stall=0"):
        anneal(scorer, max_boards=12_000, checkpoint=path, stall=0.2)
    assert strip(anneal(scorer, max_boards=12_000, checkpoint=path, stall=0.0)) == strip(
        anneal(scorer, max_boards=12_000)
    )


def test_random_board_and_moves_stay_in_the_allowed_letters():
    allowed = np.array([LETTERS.index(ch) for ch in "aest"], np.uint8)
    state = fast_state(np.zeros(16, np.uint8), allowed, 99)
    kernels.random_board(state)
    seen = set(state.board.tolist())
    for _ in range(200):
        kernels.propose(state.board, allowed, state.rng, 0.3)
        seen |= set(state.board.tolist())
    assert seen == set(allowed.tolist())


# ---------------------------------------------------------------- the search


def anneal(scorer, seed=5, max_boards=12_000, shape=Shape(3, 3), **options):
    return run_search(
        scorer, FreeSpace(shape), "anneal", seed, Budget(seconds=120, max_boards=max_boards), **{**SMALL, **options}
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_anneal_reaches_proven_3x3_best(scorer, reference, shared_dir, seed):
    board, score = published(shared_dir, "enable2k", 3, 3)  # streaedlp 545, proven optimal
    budget = Budget(seconds=120, max_boards=60_000, target=score)
    result = run_search(scorer, FreeSpace(Shape(3, 3)), "anneal", seed, budget, **SMALL)
    best = result.rows()[0]
    assert result.stopped_by == "target" and best["score"] == score
    assert same_board(best["board"], board, Shape(3, 3))
    words, prefix_set = reference
    from puzzlesearch.boggle.model import parse_board

    assert reference_score(parse_board(best["board"], 3, 3), words, prefix_set=prefix_set)[0] == score


def test_anneal_same_seed_same_boards_and_scores_are_true(scorer):
    runs = [strip(anneal(scorer, seed=11)) for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0]) >= 5
    assert strip(anneal(scorer, seed=12)) != runs[0]
    boards = encode_boards([r[0] for r in runs[0]], Shape(3, 3))
    assert scorer.scores(boards, Shape(3, 3)).tolist() == [r[1] for r in runs[0]]
    assert [r[2] <= 12_000 for r in runs[0]] == [True] * len(runs[0])


@pytest.mark.parametrize("cut", [3_000, 3_100, 4_300])  # at the first run's end, in its polish, inside a kernel call
def test_resumed_run_equals_uninterrupted_run(scorer, tmp_path, cut):
    whole = anneal(scorer, max_boards=12_000)
    assert whole.climbs >= 3  # runs: 3,000 boards each plus the polish (about 1,000 on 3x3)
    path = tmp_path / "anneal.json"
    first = anneal(scorer, max_boards=cut, checkpoint=path, checkpoint_seconds=0)
    assert path.exists() and first.climbs < whole.climbs
    anneal(scorer, max_boards=7_000, checkpoint=path, checkpoint_seconds=3600)  # saved only at the end
    rest = anneal(scorer, max_boards=12_000, checkpoint=path)
    assert rest.climbs == whole.climbs and strip(rest) == strip(whole)


class _CtrlC:
    """A scorer that raises KeyboardInterrupt (as Ctrl-C does) when the search asks for its `after`-th stamps."""

    def __init__(self, scorer, after: int):
        self.scorer, self.after = scorer, after

    def __getattr__(self, name):
        return getattr(self.scorer, name)

    def _stamps(self, n):
        self.after -= 1
        if self.after == 0:
            raise KeyboardInterrupt
        return self.scorer._stamps(n)


def test_ctrl_c_keeps_what_was_found_and_resume_finishes_the_same(scorer, tmp_path):
    whole = anneal(scorer, max_boards=8_000)
    path = tmp_path / "anneal.json"
    cut = anneal(_CtrlC(scorer, 9), max_boards=8_000, checkpoint=path, checkpoint_seconds=3600)
    assert cut.stopped_by == "interrupted" and path.exists() and cut.rows() and cut.budget.boards < 8_000
    assert strip(anneal(scorer, max_boards=8_000, checkpoint=path)) == strip(whole)


def test_checkpoint_of_another_search_is_refused(scorer, tmp_path):
    path = tmp_path / "anneal.json"
    anneal(scorer, seed=1, max_boards=1000, checkpoint=path)
    with pytest.raises(PuzzleError, match="seed = 1, expected 2.*the file is kept"):
        anneal(scorer, seed=2, max_boards=2000, checkpoint=path)
    with pytest.raises(PuzzleError, match="t0"):
        anneal(scorer, seed=1, max_boards=2000, checkpoint=path, t0=31.0)


def test_excluded_letters_never_placed(scorer):
    result = anneal(scorer, max_boards=6_000, exclude="zqxjkw")
    assert not set("zqxjkw") & set("".join(r["board"] for r in result.rows()))


def test_dice_mode_and_a_warming_schedule_are_refused(scorer):
    space = make_space(Shape(4, 4), "dice", "classic")
    with pytest.raises(PuzzleError, match="free mode only"):
        run_search(scorer, space, "anneal", 0, Budget(seconds=10, max_boards=100))
    with pytest.raises(ConfigError, match="t_end"):
        SearchSettings.from_dict({"method": "anneal", "anneal": {"t0": 5, "t_end": 10}})
    assert SearchSettings.from_dict({"method": "anneal"}).options()["run_steps"] > 0


# ---------------------------------------------------------------- command line


def test_cli_anneal_saves_a_checkpoint_and_a_rerun_continues(project, tmp_path, capsys):
    import json

    from puzzlesearch.cli import main

    ckpt = tmp_path / "anneal.json"
    cfg = ["--config", str(project / "config.yaml"), "boggle"]
    args = ["search", "--shape", "3x3", "--method", "anneal", "--seed", "4", "--set", "anneal.run_steps=2000"]
    args += ["--checkpoint", str(ckpt)]
    assert main(cfg + args + ["--max-boards", "3000"]) == 0
    first = json.loads(ckpt.read_text())["state"]
    assert main(cfg + args + ["--max-boards", "6000"]) == 0
    second = json.loads(ckpt.read_text())["state"]
    # (the local-optimum check after a polish may pass the board budget by one neighbourhood, as in ils)
    assert 0 < first["boards"] <= 3000 < second["boards"] < 6000 + 500 and second["runs"] > first["runs"] >= 1
    printed = [line.split("\t") for line in capsys.readouterr().out.splitlines() if line.count("\t") >= 2]
    assert printed and all(len(row[0]) == 9 and int(row[1]) > 0 for row in printed)
    assert main(cfg + ["search", "--shape", "4x4", "--mode", "dice", "--dice", "classic", "--method", "anneal"]) == 2
    assert "free mode only" in capsys.readouterr().err
