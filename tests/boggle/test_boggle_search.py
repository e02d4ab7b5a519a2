"""Boggle search (pool, hill climbing, dice), the ranking merged over seeds, the neighbourhood scan."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from puzzlesearch.boggle.model import (
    CLASSIC_DICE,
    Shape,
    canonical,
    decode_boards,
    encode_boards,
    parse_board,
)
from puzzlesearch.boggle.rank import SEED_KIND, SEED_SCHEMA, built_by, rank_tables, write_table
from puzzlesearch.boggle.scan import scan_board, scan_state
from puzzlesearch.boggle.search import Budget, run_search
from puzzlesearch.boggle.spaces import DiceSpace, FreeSpace

# ---------------------------------------------------------------- search


def test_hill_climb_reaches_proven_3x3_optimum(scorer):
    space = FreeSpace(Shape(3, 3))
    result = run_search(
        scorer, space, "hill", seed=3, budget=Budget(seconds=60, max_boards=400_000), pool_size=60, keep=20
    )
    best = result.rows()[0]
    assert best["score"] == 545
    assert (
        canonical(encode_boards([best["board"]], Shape(3, 3)), Shape(3, 3)).tolist()
        == canonical(encode_boards(["streaedlp"], Shape(3, 3)), Shape(3, 3)).tolist()
    )


@pytest.mark.parametrize(
    "method, options", [("pool", {"pool_size": 20, "mutants": 4, "patience": 50}), ("hill", {"pool_size": 20})]
)
def test_search_is_reproducible_and_scores_are_true(scorer, method, options):
    space = FreeSpace(Shape(3, 3))
    runs = [
        run_search(
            scorer, space, method, seed=7, budget=Budget(seconds=60, max_boards=20_000), keep=10, **options
        ).rows()
        for _ in range(2)
    ]
    strip = [[(r["board"], r["score"], r["boards_scored"]) for r in rows] for rows in runs]
    assert strip[0] == strip[1] and len(strip[0]) == 10
    boards = encode_boards([b for b, _, _ in strip[0]], Shape(3, 3))
    assert scorer.scores(boards, Shape(3, 3)).tolist() == [s for _, s, _ in strip[0]]


def one_move_boards(cells: np.ndarray) -> np.ndarray:
    """Every board one cell change or one swap of two cells away (written out plainly)."""
    out = []
    for i in range(len(cells)):
        for letter in range(26):
            b = cells.copy()
            b[i] = letter
            out.append(b)
        for j in range(i + 1, len(cells)):
            b = cells.copy()
            b[i], b[j] = cells[j], cells[i]
            out.append(b)
    return np.array(out, dtype=np.uint8)


@pytest.mark.parametrize(
    "method, options", [("pool", {"pool_size": 10, "mutants": 4, "patience": 20}), ("hill", {"pool_size": 10})]
)
def test_reported_local_optima_have_no_better_neighbour(scorer, method, options):
    shape = Shape(3, 3)
    result = run_search(
        scorer, FreeSpace(shape), method, seed=2, budget=Budget(seconds=60, max_boards=60_000), keep=200, **options
    )
    flagged = [r for r in result.rows() if r["local_optimum"]]
    assert result.restarts >= 2 and flagged  # climbs ended by themselves and were checked
    for row in flagged:
        cells = encode_boards([row["board"]], shape)[0]
        assert scorer.scores(one_move_boards(cells), shape).max() <= row["score"], row["board"]


def test_dice_states_are_real_arrangements(scorer):
    shape = Shape(4, 4)
    space = DiceSpace(shape, "classic")
    rng = np.random.default_rng(1)
    states = space.random(rng, 5)
    states = np.concatenate([states, space.neighbours(states[:2]), space.mutate(states, rng)])
    dice = [set(d) for d in CLASSIC_DICE]
    for state, board in zip(states, space.letters(states)):
        assert sorted(state[:16].tolist()) == list(range(16))  # each die used once
        for slot in range(16):
            assert chr(97 + board[slot]) in dice[state[slot]]
    result = run_search(scorer, space, "hill", seed=0, budget=Budget(seconds=60, max_boards=5000), pool_size=10, keep=5)
    for row in result.rows():  # the kept arrangement shows the board (up to symmetry)
        letters = space.letters(np.array([row["state"]], dtype=np.uint8))
        assert decode_boards(canonical(letters, shape)) == [row["board"]]
        assert scorer.scores(letters, shape)[0] == row["score"]
    row = result.rows()[0]
    res = scan_state(scorer, space, row["state"], distance=1, keep=3)
    direct = scorer.scores(space.letters(space.neighbours(np.array([row["state"]], dtype=np.uint8))), shape)
    assert res.board == row["board"] and res.score == row["score"] and res.best_score == direct.max()
    assert res.better > 0 or direct.max() <= row["score"]


# ---------------------------------------------------------------- rank and scan


def test_rank_merges_symmetric_boards(tmp_path, scorer):
    shape = Shape(4, 4)
    transposed = decode_boards(parse_board("perslatgsineters").array.reshape(4, 4).T.reshape(1, 16))[0]
    rows = [
        ("perslatgsineters", 3625, 1045, 0, 4.0),
        (transposed, 3625, 1045, 1, 2.5),
        ("streaedlpaaaaaaa", 10, 5, 1, 1.0),
    ]
    for seed in (0, 1):
        df = pl.DataFrame(
            [
                {
                    "board": b,
                    "score": s,
                    "words": w,
                    "seed": sd,
                    "method": "hill",
                    "mode": "free",
                    "seconds": t,
                    "boards_scored": 1,
                    "restart": 0,
                }
                for b, s, w, sd, t in rows
                if sd == seed
            ],
            schema=SEED_SCHEMA,
        )
        write_table(df, tmp_path / f"seed{seed}.parquet", SEED_KIND, {}, built_by(scorer, shape, seed=seed))
    best = rank_tables([tmp_path / "seed0.parquet", tmp_path / "seed1.parquet"], shape, scorer)
    top = best.row(0, named=True)
    assert best.height == 2 and top["found_by"] == [0, 1] and top["first_seconds"] == 2.5
    assert top["first_seed"] == 1 and top["n_words"] == len(top["words"]) == 1045


def test_scan_certifies_optimum_and_finds_better(scorer):
    optimum = scan_board(scorer, parse_board("streaedlp"), distance=2, swaps=True, keep=5)
    assert optimum.local_optimum and optimum.score == 545 and optimum.best_score <= 545
    assert optimum.neighbours == 9 * 25 + 36 * 25 * 25 + 35  # the swap of the two e's is no move
    off = scan_board(scorer, parse_board("perslatgsinetexs"), distance=1, swaps=False, keep=5)
    assert not off.local_optimum and off.best_score == 3625
    assert off.top.row(0, named=True)["board"] == "perslatgsineters"
