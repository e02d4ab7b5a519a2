"""benchmarks/boggle_records.csv: every record board scored again by the slow reference scorer."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from puzzlesearch.boggle.model import Shape, canonical, encode_boards, parse_board
from puzzlesearch.boggle.reference import boggle_words, prefixes, reference_score

RECORDS = Path(__file__).resolve().parents[2] / "benchmarks" / "boggle_records.csv"
COLUMNS = ["wordlist", "shape", "board", "score", "words", "found_by"]
# The published best-known 5x5 boards (danvk/hybrid-boggle results/hillclimb-5x5.*.txt).
PUBLISHED_5X5 = {"enable2k": ("ligdrmanesietildsracsepes", 10406), "yawl": ("degosrsniceitalstrepuopsd", 13625)}


def records() -> list[dict]:
    with RECORDS.open(newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        return list(reader)


@pytest.mark.slow
@pytest.mark.parametrize("wordlist", sorted(PUBLISHED_5X5))
def test_record_boards_score_as_written_by_the_reference_scorer(shared_dir, wordlist):
    rows = [r for r in records() if r["wordlist"] == wordlist]
    assert rows, f"no {wordlist} records"
    words = boggle_words((shared_dir / "wordlists" / f"{wordlist}.txt").read_text().split())
    prefix_set = prefixes(words)
    for row in rows:
        shape = Shape.parse(row["shape"])
        board = parse_board(row["board"], shape.rows, shape.cols)
        assert reference_score(board, words, prefix_set=prefix_set) == (int(row["score"]), int(row["words"])), row


def test_records_are_distinct_best_first_and_hold_the_published_bests():
    rows = records()
    groups: dict[tuple, list] = {}
    for row in rows:
        groups.setdefault((row["wordlist"], row["shape"]), []).append(row)
    for (wordlist, shape_text), group in groups.items():
        shape = Shape.parse(shape_text)
        scores = [int(r["score"]) for r in group]
        assert scores == sorted(scores, reverse=True) and len(group) <= 10
        keys = {canonical(encode_boards([r["board"]], shape), shape).tobytes() for r in group}
        assert len(keys) == len(group), f"{wordlist} {shape_text}: boards equal under symmetry"
    for wordlist, (board, score) in PUBLISHED_5X5.items():
        shape = Shape(5, 5)
        want = canonical(encode_boards([board], shape), shape).tobytes()
        group = groups[(wordlist, "5x5")]
        assert int(group[0]["score"]) >= score
        assert any(canonical(encode_boards([r["board"]], shape), shape).tobytes() == want for r in group)
