"""Boggle: scorer against published scores and a brute-force reference; search, rank, scan."""

from __future__ import annotations

import csv

import numpy as np
import polars as pl
import pytest

from puzzlesearch.boggle.model import (
    CLASSIC_DICE,
    Board,
    Shape,
    decode_boards,
    encode_boards,
    neighbours,
    parse_board,
    parse_dice,
    symmetries,
)
from puzzlesearch.boggle.rank import SEED_SCHEMA, rank_tables
from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score
from puzzlesearch.boggle.scan import scan_board
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.boggle.search import Budget, DiceSpace, FreeSpace, canonical, run_search
from puzzlesearch.cli import main
from puzzlesearch.errors import PuzzleError

# Letters weighted like good boards, so random boards hold many words; q (Qu) included.
LETTER_POOL = np.frombuffer(b"aaaeeeeiiioorrrssssttttnnnlllddpgcbmhuykq", dtype=np.uint8) - 97


def published_rows():
    from tests.conftest import SHARED

    path = SHARED / "facts" / "boggle_scores.csv"
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def scorer(enable2k):
    return Scorer.for_lexicon(enable2k)


@pytest.fixture(scope="module")
def reference(enable2k):
    words = boggle_words(enable2k.words["word"].to_list())
    return words, prefixes(words)


# ---------------------------------------------------------------- model


def test_parse_and_format_board():
    b = parse_board("PERS/latg sine\tters")
    assert (b.rows, b.cols, str(b)) == (4, 4, "perslatgsineters")
    assert parse_board("plseairtnsed", rows=4).shape == Shape(4, 3)
    assert parse_board("abcdef", cols=2).shape == Shape(3, 2)
    assert decode_boards(encode_boards(["streaedlp"], Shape(3, 3))) == ["streaedlp"]


@pytest.mark.parametrize(
    "text, rows, cols, message",
    [
        ("perslatgsinete1s", None, None, "character '1' at position 15"),
        ("perslatgsineter", None, None, "15 letters"),
        ("plseairtnsed", 5, 3, "a 5x3 board needs 15"),
        ("abcdefg", 1, 7, "sides must be 2..6"),
        ("", None, None, "empty"),
        ("ab-cd", None, None, "character '-'"),
    ],
)
def test_bad_board_text(text, rows, cols, message):
    with pytest.raises(PuzzleError, match=message):
        parse_board(text, rows, cols)


def test_cli_bad_board_is_one_line(capsys):
    assert main(["boggle", "score", "abc!"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'!'" in err[0]


def test_neighbours_and_symmetries():
    nbr, count = neighbours(Shape(3, 4))
    assert count.tolist() == [3, 5, 5, 3, 5, 8, 8, 5, 3, 5, 5, 3]
    assert sorted(nbr[0, :3]) == [1, 4, 5]
    assert len(symmetries(Shape(4, 4))) == 8 and len(symmetries(Shape(3, 4))) == 4
    for shape in (Shape(4, 4), Shape(3, 4), Shape(2, 5)):
        for p in symmetries(shape):  # a symmetry maps adjacent cells to adjacent cells
            adj = {(i, int(j)) for i in range(shape.cells) for j in nbr_of(shape, i)}
            assert {(int(p[i]), int(p[j])) for i, j in adj} == adj


def nbr_of(shape, i):
    nbr, count = neighbours(shape)
    return nbr[i, : count[i]]


def test_dice_parsing():
    dice = parse_dice("classic")
    assert dice.shape == (16, 6) and "".join(chr(97 + c) for c in dice[10]) == "himnqu"
    with pytest.raises(PuzzleError, match="die 2"):
        parse_dice(["abcdef", "abc"])
    with pytest.raises(PuzzleError, match="dice set 'nope'"):
        parse_dice("nope")


# ---------------------------------------------------------------- scorer: published facts


@pytest.mark.parametrize("row", published_rows(), ids=lambda r: f"{r['board']}-{r['wordlist']}")
def test_published_scores(shared_lexicon, row):
    lex = shared_lexicon(row["wordlist"].removesuffix(".txt"))
    board = parse_board(row["board"], int(row["rows"]), int(row["cols"]))
    scores, counts = Scorer.for_lexicon(lex).score_array(board.array[None, :], board.shape)
    assert (int(scores[0]), int(counts[0])) == (int(row["score"]), int(row["words"]))


# ---------------------------------------------------------------- scorer: brute force


@pytest.mark.parametrize(
    "shape, n",
    [
        (Shape(3, 3), 40),
        (Shape(3, 4), 25),
        (Shape(2, 2), 10),
        (Shape(2, 5), 10),
        (Shape(4, 4), 3),
        (Shape(6, 2), 5),
        (Shape(5, 5), 2),
        (Shape(6, 6), 1),
    ],
)
def test_matches_brute_force(scorer, reference, shape, n):
    words, pre = reference
    rng = np.random.default_rng(shape.cells)
    boards = LETTER_POOL[rng.integers(0, len(LETTER_POOL), size=(n, shape.cells))].astype(np.uint8)
    boards[0, 0] = 16  # a Qu cell
    scores, counts = scorer.score_array(boards, shape)
    for cells, s, c in zip(boards, scores, counts):
        board = Board(shape.rows, shape.cols, tuple(int(x) for x in cells))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)
    assert counts.sum() > 2 * n  # the boards really hold words


def test_batch_in_locality_order_matches_brute_force(scorer, reference):
    """A batch big enough to be walked in locality order (kernels.MIN_ORDERED): near-duplicate
    3x3 boards, shuffled, each scored like the brute-force walk at its own row."""
    from puzzlesearch.boggle.kernels import MIN_ORDERED, locality_order

    words, pre = reference
    rng = np.random.default_rng(12)
    shape = Shape(3, 3)
    n = MIN_ORDERED + 44
    boards = np.repeat(parse_board("streaedlp").array[None, :], n, axis=0)
    cells = rng.integers(0, shape.cells, (n, 2))
    boards[np.arange(n)[:, None], cells] = rng.integers(0, 26, (n, 2))
    assert not np.array_equal(locality_order(boards), np.arange(n))  # really walked out of order
    scores, counts = scorer.score_array(boards, shape)
    for cells_, s, c in zip(boards, scores, counts):
        board = Board(shape.rows, shape.cols, tuple(int(x) for x in cells_))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)
    assert len(set(scores.tolist())) > 20  # the rows really differ


def test_words_listing_matches_brute_force(scorer, reference):
    from puzzlesearch.boggle.reference import reference_words

    words, pre = reference
    board = parse_board("qaicdrneetasnnil")
    listed = scorer.words_of(board)
    assert {w.word for w in listed} == reference_words(board, words, pre)
    assert sum(w.points for w in listed) == scorer.score(board) == 1391


def test_custom_points_table(enable2k, reference):
    flat = Scorer.for_lexicon(enable2k, points=[0, 0, 0, 1])
    scores, counts = flat.score_array(parse_board("perslatgsineters").array[None, :], Shape(4, 4))
    assert scores[0] == counts[0] == 1045
    words, pre = reference
    steep = [0, 0, 0, 1, 2, 4, 7, 12, 20, 33]  # every length its own value, 9+ letters 33
    for text in ("perslatgsineters", "qaicdrneetasnnil", "plseairtnsed"):
        board = parse_board(text, rows=4)
        assert (
            Scorer.for_lexicon(enable2k, steep).score(board)
            == reference_score(board, words, points=steep, prefix_set=pre)[0]
        )


def test_score_invariant_under_symmetry(scorer):
    for text, shape in (("perslatgsineters", Shape(4, 4)), ("plseairtnsed", Shape(4, 3))):
        cells = parse_board(text, shape.rows, shape.cols).array
        moved = cells[symmetries(shape)]
        assert len(set(scorer.scores(moved, shape).tolist())) == 1


def test_neighbourhood_kernel_matches_direct_scoring(scorer):
    shape = Shape(3, 3)
    cells = parse_board("streaedlp").array
    letters = np.arange(26, dtype=np.uint8)
    singles, swaps, doubles = scorer.neighbourhood(cells, shape, letters, swaps=True, doubles=True)
    rng = np.random.default_rng(5)
    from puzzlesearch.boggle.model import cell_pairs

    pairs = cell_pairs(9)
    for _ in range(30):
        i, a = rng.integers(9), rng.integers(26)
        b = cells.copy()
        b[i] = a
        assert singles[i, a] == scorer.scores(b[None, :], shape)[0]
        p = rng.integers(len(pairs))
        b = cells.copy()
        b[pairs[p]] = b[pairs[p][::-1]]
        assert swaps[p] == scorer.scores(b[None, :], shape)[0]
        c = rng.integers(26)
        b = cells.copy()
        b[pairs[p, 0]] = a
        b[pairs[p, 1]] = c
        expect = -1 if a == cells[pairs[p, 0]] or c == cells[pairs[p, 1]] else scorer.scores(b[None, :], shape)[0]
        assert doubles[p, a, c] == expect
    # streaedlp is the proven 3x3 optimum, so no neighbour beats it
    assert max(singles.max(), swaps.max(), doubles.max()) == 545


# ---------------------------------------------------------------- scorer: trie layout, incremental


def test_trie_has_one_node_per_prefix_and_its_word_ranks():
    from puzzlesearch.boggle.trie import WORD_BIT, BoggleTrie
    from puzzlesearch.lexicon.dawg import build_dawg

    keys = sorted(["ate", "eat", "eats", "east", "tea", "teas", "seat", "sea", "qat", "qest"])  # qest: "quest"
    dawg = build_dawg(keys)
    trie = BoggleTrie.from_dawg(dawg)
    prefixes_of = {k[:i] for k in keys for i in range(len(k) + 1)}
    assert trie.n_nodes == len(prefixes_of)  # a trie: one node per distinct prefix

    def walk(key):
        node = 0
        for ch in key:
            word, x = int(trie.nodes[node]), ord(ch) - 97
            assert (word >> x) & 1, key
            node = (word >> 32) + bin(word & ((1 << x) - 1)).count("1")
        return node

    for key in prefixes_of:
        node = walk(key)
        is_word = key in keys
        assert bool((int(trie.nodes[node]) >> WORD_BIT) & 1) == is_word
        assert int(trie.rank[node]) == (sorted(keys).index(key) if is_word else -1)


@pytest.mark.parametrize("shape, n, qu", [(Shape(4, 4), 12, 3), (Shape(5, 5), 3, 4), (Shape(3, 3), 60, 2)])
def test_trie_kernel_matches_brute_force_with_qu(scorer, reference, shape, n, qu):
    words, pre = reference
    rng = np.random.default_rng(100 + shape.cells)
    boards = LETTER_POOL[rng.integers(0, len(LETTER_POOL), size=(n, shape.cells))].astype(np.uint8)
    for row in boards:
        row[rng.choice(shape.cells, qu, replace=False)[: rng.integers(1, qu + 1)]] = 16  # 1..qu Qu cells
    scores, counts = scorer.score_array(boards, shape)
    for cells, s, c in zip(boards, scores, counts):
        board = Board(shape.rows, shape.cols, tuple(int(x) for x in cells))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)
    assert counts.sum() > 3 * n  # the boards really hold words


def random_deviations(base: np.ndarray, n: int, most: int, rng) -> np.ndarray:
    """n copies of base, each with 0..most random cells set to random letters (Qu included)."""
    boards = np.repeat(base[None, :], n, axis=0)
    for row, k in zip(boards, rng.integers(0, most + 1, n)):
        row[rng.choice(len(base), k, replace=False)] = rng.integers(0, 26, k)
    return boards


@pytest.mark.parametrize(
    "text, rows, cols, n",
    [
        ("perslatgsineters", 4, 4, 600),
        ("streaedlp", 3, 3, 600),
        ("plseairtnsed", 4, 3, 400),
        ("serqseltaniasetrpdecsiesr", 5, 5, 100),
    ],
)
def test_incremental_scoring_equals_full_rescoring(scorer, text, rows, cols, n):
    shape = Shape(rows, cols)
    base = parse_board(text, rows, cols).array
    boards = random_deviations(base, n, 6, np.random.default_rng(len(text)))
    full = scorer.score_array(boards, shape)
    fast = scorer.score_deviations(base, boards, shape)
    assert np.array_equal(full[0], fast[0]) and np.array_equal(full[1], fast[1])
    again = scorer.score_deviations(base, boards[::-1], shape, max_changed=2)  # other order, some in full
    assert np.array_equal(full[0][::-1], again[0])


def test_incremental_scoring_matches_brute_force(scorer, reference):
    words, pre = reference
    base = parse_board("perslatgsineters").array
    boards = random_deviations(base, 6, 3, np.random.default_rng(12))
    boards[0] = base
    scores, counts = scorer.score_deviations(base, boards, Shape(4, 4))
    assert (int(scores[0]), int(counts[0])) == (3625, 1045)  # the published score of the base
    for cells, s, c in zip(boards, scores, counts):
        board = Board(4, 4, tuple(int(x) for x in cells))
        assert (int(s), int(c)) == reference_score(board, words, prefix_set=pre), str(board)


def test_letters_out_of_range_are_refused(scorer):
    with pytest.raises(PuzzleError, match="letter index 26"):
        scorer.scores(np.full((1, 9), 26, dtype=np.uint8), Shape(3, 3))


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
    from puzzlesearch.boggle.scan import scan_state

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
        df.write_parquet(tmp_path / f"seed{seed}.parquet")
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


# ---------------------------------------------------------------- command line


@pytest.fixture(scope="module")
def project(enable2k):
    """A project folder (config.yaml) whose results/ already hold the enable2k lexicon."""
    import yaml

    root = enable2k.dir.parents[2]
    config = {"lexicons": {"enable2k": enable2k.spec.source}, "default_lexicon": "enable2k"}
    (root / "config.yaml").write_text(yaml.safe_dump(config))
    return root


def test_cli_score_search_rank_scan(project, capsys):
    cfg = ["--config", str(project / "config.yaml"), "boggle"]
    assert main(cfg + ["score", "streaedlp", "pers/latg/sine/ters", "--words"]) == 0
    out = capsys.readouterr().out
    assert "streaedlp\t3x3\tscore 545\twords 267" in out and "perslatgsineters\t4x4\tscore 3625\twords 1045" in out
    assert "  alerted\t5" in out
    seeds = []
    for seed in (0, 1):
        seeds.append(str(project / f"seed{seed}.parquet"))
        assert (
            main(
                cfg
                + [
                    "search",
                    "--shape",
                    "3x3",
                    "--seed",
                    str(seed),
                    "--seconds",
                    "60",
                    "--max-boards",
                    "3000",
                    "--pool-size",
                    "20",
                    "--keep",
                    "5",
                    "--out",
                    seeds[-1],
                ]
            )
            == 0
        )
    table = pl.read_parquet(seeds[0])
    assert table.height == 5 and table["score"].is_sorted(descending=True)
    best_path = str(project / "best.parquet")
    assert main(cfg + ["rank", *seeds, "--shape", "3x3", "--out", best_path]) == 0
    best = pl.read_parquet(best_path)
    assert best["score"][0] == max(pl.read_parquet(p)["score"].max() for p in seeds)
    summary = project / "scan.json"
    assert (
        main(
            cfg
            + [
                "scan",
                "--from",
                best_path,
                "--boards",
                "1",
                "--distance",
                "1",
                "--no-swaps",
                "--out",
                str(project / "scan.parquet"),
                "--summary",
                str(summary),
            ]
        )
        == 0
    )
    import json

    verdict = json.loads(summary.read_text())["boards"][0]
    assert verdict["board"] == best["board"][0] and verdict["neighbours"] == 9 * 25
    capsys.readouterr()
    assert main(cfg + ["search", "--shape", "3x3", "--seconds", "0", "--max-boards", "0"]) == 2
    assert main(cfg + ["search", "--shape", "3x3", "--mode", "dice", "--dice", "abcdef,abc", "--seconds", "1"]) == 2
    assert main(cfg + ["score", "streaedlp", "--points", "1,x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and "die 2" in err[1] and "--points" in err[2]


def test_cli_scan_of_a_rectangular_board(project, capsys):
    cfg = ["--config", str(project / "config.yaml"), "boggle"]
    assert main(cfg + ["scan", "plseairtnsed", "--shape", "4x3", "--distance", "1", "--swaps"]) == 0
    out = capsys.readouterr().out  # the proven 4x3 optimum has no better neighbour
    assert out.startswith("plseairtnsed\t1651\t") and out.rstrip().endswith("local optimum")


def test_ctrl_c_stops_a_search_and_keeps_what_it_found(project, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "seed.parquet"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "puzzlesearch",
            "--config",
            str(project / "config.yaml"),
            "boggle",
            "search",
            "--shape",
            "3x3",
            "--seconds",
            "120",
            "--max-boards",
            "0",
            "--out",
            str(out),
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    for line in proc.stderr:  # wait until the search itself runs
        if "boggle: search" in line:
            break
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    table = pl.read_parquet(out)
    assert table.height > 0 and table["score"].is_sorted(descending=True)
    assert [p.name for p in tmp_path.iterdir()] == ["seed.parquet"]  # no temporary files left


# ---------------------------------------------------------------- settings, pipeline mode, input gaps

HUGE_POINTS = [0, 0, 0, 10**9, 2 * 10**9, 3 * 10**9, 5 * 10**9, 11 * 10**9]  # int32 would overflow


def run_cli(*args, env=None, cwd=None):
    """`python -m puzzlesearch ARGS` as a real process (output captured)."""
    import os
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "puzzlesearch", *map(str, args)],
        capture_output=True,
        text=True,
        env=None if env is None else {**os.environ, **env},
        cwd=cwd,
    )


def assert_one_line_error(proc, *needles):
    """Exit 2, one `puzzlesearch: error:` line (the last; log lines may come before), naming every needle."""
    lines = proc.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("puzzlesearch: error:")]
    assert proc.returncode == 2, proc.stderr
    assert len(errors) == 1 and lines[-1] == errors[0], proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])


@pytest.fixture(scope="module")
def pipeline_files(enable2k, tmp_path_factory):
    """Copies of enable2k's words.parquet/.json and boggle_dawg.npz/.json: a pipeline lexicon folder."""
    import shutil

    folder = tmp_path_factory.mktemp("lexicon") / "enable2k"
    folder.mkdir()
    for name in ("words.parquet", "words.json", "boggle_dawg.npz", "boggle_dawg.json"):
        shutil.copy(enable2k.dir / name, folder / name)
    return folder


def pipeline_args(folder, settings, *extra):
    return [
        "boggle",
        *extra[:1],
        "--settings",
        settings.to_json(),
        "--words",
        folder / "words.parquet",
        "--dawg",
        folder / "boggle_dawg.npz",
        *extra[1:],
    ]


def test_settings_come_from_the_schema_and_hold_one_jobs_dice():
    from puzzlesearch.boggle.settings import RankSettings, ScanSettings, SearchSettings
    from puzzlesearch.settings import section_defaults

    defaults = section_defaults("boggle")
    search = SearchSettings()
    assert {k: getattr(search, k) for k in SearchSettings.keys() if k != "dice"} == {
        k: defaults[k] for k in SearchSettings.keys() if k != "dice"
    }
    assert search.seconds >= 600 and search.max_boards > 0  # time is a safety cap, boards the bound
    assert RankSettings().keep == defaults["keep"] and ScanSettings().scan == defaults["scan"]
    section = {**defaults, "dice": {"4x4": "classic", "5x5": "big"}}
    four = SearchSettings.for_job(section, "4x4", "dice")
    assert four.dice == "classic" and SearchSettings.for_job(section, "4x4", "free").dice is None
    other = {**section, "dice": {"4x4": "classic", "5x5": ["abcdef"] * 25}}  # the 5x5 set changes
    assert SearchSettings.for_job(other, "4x4", "dice").to_json() == four.to_json()
    assert SearchSettings.from_json(four.to_json()) == four
    with pytest.raises(PuzzleError, match="boggle.dice.3x3"):
        SearchSettings.for_job(section, "3x3", "dice")
    with pytest.raises(PuzzleError, match="boggle.seconds"):
        SearchSettings(seconds=float("nan"))


INPUT_GAPS = [
    (["search", "--shape", "3x3", "--seconds", "nan"], ["--seconds nan"]),
    (["search", "--shape", "3x3", "--max-boards", "-1"], ["--max-boards -1"]),
    (["search", "--shape", "3x3", "--keep", "-3"], ["--keep -3"]),
    (["search", "--shape", "3x3", "--pool-size", "-5"], ["--pool-size -5"]),
    (["search", "--shape", "3x3", "--mode", "dice", "--dice", "classic"], ["--dice classic", "16 dice", "exactly 9"]),
    (["search", "--shape", "3x3", "--mode", "dice", "--dice", ",".join(["abcdef"] * 8)], ["8 dice", "exactly 9"]),
    (["search", "--set", "keep=[1"], ["--set 'keep=[1'"]),
    (["search", "--set", "nope=1"], ["--set 'nope=1'"]),
    (["rank", "x.parquet", "--out", "y.parquet", "--set", "keep=-1"], ["boggle.keep"]),
    (["scan", "streaedlp", "--set", "scan.distance=3"], ["boggle.scan.distance"]),
    (["score", "streaedlp", "--points", "0,0,0,-1"], ["--points"]),
    (["score", "streaedlp", "--points", "0,0,0,1000000000000000000"], ["--points"]),
]


def test_input_gaps_are_one_line_errors(tmp_path):
    import subprocess
    import sys

    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "puzzlesearch", "boggle", *args],
            cwd=tmp_path,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for args, _ in INPUT_GAPS
    ]
    for proc, (args, needles) in zip(procs, INPUT_GAPS):  # started together: the cases run in parallel
        out, err = proc.communicate(timeout=120)
        assert_one_line_error(subprocess.CompletedProcess(args, proc.returncode, out, err), *needles)


def test_huge_points_agree_everywhere_with_brute_force(enable2k, reference, pipeline_files, tmp_path):
    from puzzlesearch.boggle.settings import RankSettings, ScanSettings, SearchSettings

    words, pre = reference
    points = ",".join(map(str, HUGE_POINTS))
    board = parse_board("perslatgsineters")
    expect = reference_score(board, words, points=HUGE_POINTS, prefix_set=pre)[0]
    assert expect > 2**31  # would overflow int32
    out = run_cli("boggle", "score", board, "--lexicon", enable2k.spec.source, "--points", points)
    assert out.returncode == 0, out.stderr
    assert f"score {expect}\t" in out.stdout

    seed = tmp_path / "seed0.parquet"
    search = SearchSettings().replace(points=HUGE_POINTS, max_boards=3000, pool_size=20, keep=5)
    out = run_cli(*pipeline_args(pipeline_files, search, "search", "--shape", "3x3", "--out", seed))
    assert out.returncode == 0, out.stderr
    table = pl.read_parquet(seed)
    assert table["score"].dtype == pl.Int64 and table["stopped_by"].to_list() == ["boards"] * table.height
    for text, score in zip(table["board"], table["score"]):
        assert score == reference_score(parse_board(text), words, HUGE_POINTS, pre)[0], text
    best = tmp_path / "best.parquet"
    rank = RankSettings().replace(points=HUGE_POINTS)
    out = run_cli(*pipeline_args(pipeline_files, rank, "rank", "--shape", "3x3", "--out", best, seed))
    assert out.returncode == 0, out.stderr
    assert pl.read_parquet(best)["score"].to_list() == table["score"].to_list()
    scan = ScanSettings().replace(points=HUGE_POINTS, scan={"boards": 1, "distance": 1, "swaps": False, "keep": 3})
    top, summary = tmp_path / "scan.parquet", tmp_path / "scan.json"
    out = run_cli(
        *pipeline_args(
            pipeline_files, scan, "scan", "--from", best, "--shape", "3x3", "--out", top, "--summary", summary
        )
    )
    assert out.returncode == 0, out.stderr
    neighbours = pl.read_parquet(top)
    assert neighbours["center_score"][0] == table["score"][0]
    for text, score in zip(neighbours["board"], neighbours["score"]):
        assert score == reference_score(parse_board(text), words, HUGE_POINTS, pre)[0], text


def test_pipeline_search_fails_when_the_time_cap_stops_it(pipeline_files, tmp_path):
    from puzzlesearch.boggle.settings import SearchSettings

    out_file = tmp_path / "seed.parquet"
    capped = SearchSettings().replace(seconds=0.5, max_boards=10**9)
    out = run_cli(*pipeline_args(pipeline_files, capped, "search", "--shape", "4x4", "--out", out_file))
    assert_one_line_error(out, "boggle.seconds", "boggle.max_boards")
    assert not out_file.exists()
    unbounded = SearchSettings().replace(max_boards=0)
    out = run_cli(*pipeline_args(pipeline_files, unbounded, "search", "--out", out_file))
    assert_one_line_error(out, "boggle.max_boards is 0")
    out = run_cli(*pipeline_args(pipeline_files, SearchSettings(), "search", "--seconds", "5", "--out", out_file))
    assert_one_line_error(out, "--seconds")
    out = run_cli(
        "boggle", "search", "--settings", "{}", "--words", pipeline_files / "words.parquet", "--out", out_file
    )
    assert_one_line_error(out, "--dawg")
    out = run_cli(*pipeline_args(pipeline_files, SearchSettings(), "search", "--mode", "dice", "--out", out_file))
    assert_one_line_error(out, "dice")
    assert not out_file.exists()


def flip_byte(path, offset_fraction=0.5):
    """Flip the bits of one byte in the middle of a file."""
    data = bytearray(path.read_bytes())
    data[int(len(data) * offset_fraction)] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("name", ["boggle_dawg.npz", "words.parquet"])
def test_damaged_pipeline_input_is_one_line(pipeline_files, tmp_path, name):
    import shutil

    from puzzlesearch.boggle.settings import SearchSettings

    folder = tmp_path / "lex"
    shutil.copytree(pipeline_files, folder)
    flip_byte(folder / name)
    settings = SearchSettings().replace(max_boards=100)
    out = run_cli(*pipeline_args(folder, settings, "search", "--shape", "3x3", "--out", tmp_path / "s.parquet"))
    assert_one_line_error(out, str(folder / name), "checksum")
    assert not (tmp_path / "s.parquet").exists()


def test_dawg_of_another_word_table_is_refused(pipeline_files, tmp_path):
    import shutil

    from puzzlesearch.boggle.settings import SearchSettings

    folder = tmp_path / "lex"
    shutil.copytree(pipeline_files, folder)
    words = pl.read_parquet(folder / "words.parquet").head(1000)
    words.write_parquet(folder / "words.parquet")  # a consistent words.json for another table
    from puzzlesearch.manifest import read_manifest, write_manifest

    meta = read_manifest(folder / "words.json")
    write_manifest(
        folder / "words.json",
        [folder / "words.parquet"],
        "lexicon-words",
        meta["manifest"]["settings"],
        {k: v for k, v in meta.items() if k != "manifest"},
    )
    out = run_cli(
        *pipeline_args(folder, SearchSettings().replace(max_boards=100), "search", "--out", tmp_path / "s.parquet")
    )
    assert_one_line_error(out, "boggle_dawg.npz", "another word table")


@pytest.mark.parametrize("name", ["boggle_dawg.npz", "words.parquet"])
def test_damaged_store_artifact_is_one_line(tmp_path, name):
    store = tmp_path / "store"
    wordlist = tmp_path / "mini.txt"
    wordlist.write_text("cat\ncats\nact\nacts\nscat\ntacs\n")
    env = {"PUZZLESEARCH_STORE": str(store)}
    ok = run_cli("boggle", "score", "catsxxxxx", "--lexicon", wordlist, env=env, cwd=tmp_path)
    assert ok.returncode == 0 and "score " in ok.stdout, ok.stderr
    (path,) = store.glob(f"lexicon/*/{name}")
    flip_byte(path)
    out = run_cli("boggle", "score", "catsxxxxx", "--lexicon", wordlist, env=env, cwd=tmp_path)
    assert_one_line_error(out, str(path))
