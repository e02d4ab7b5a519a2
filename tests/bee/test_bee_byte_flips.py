"""Flipped bytes of the Spelling Bee stage's files: each reader refuses them or reads the same thing (issue 30).

The default run writes, per lexicon, four tables each with its manifest beside it:
masks.parquet/.json, puzzles.parquet/.json, wordlist.parquet/.json and
schedule.parquet/.json (plus the HTML pages, which nothing reads back). Here they are made
by the pipeline commands from a small real lexicon (the words of ../shared/wordlists/
english0.txt spelled with eight letters), then byte_flips flips every byte of each file
(a sample of the larger ones) and runs the reader the pipeline uses on it: `bee build-puzzles` reads masks,
`bee schedule` the word list, the report (and the end-of-run summary) the puzzles and the
schedule with its settings.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from byte_flips import assert_no_silent_change, flip_files

from puzzlesearch.bee.settings import BeeRules, ScheduleRules, WordListRules

pytestmark = pytest.mark.slow  # a long file (pipeline runs, byte flips, pages): not in -m "not slow"

PROJECT = Path(__file__).resolve().parents[2]
PUZZLESEARCH = PROJECT / ".venv" / "bin" / "puzzlesearch"
WORDS = PROJECT.parent / "shared" / "wordlists" / "english0.txt"
LETTERS = set("aeinrtld")  # 557 words, 140 masks, 42 puzzles: small files, every byte flipped
# one day (a day's row holds its answers); a window wide enough for this list's puzzles (75-151 words)
SCHEDULE = ScheduleRules(schedule_days=1, schedule_min_words=1, schedule_max_words=1000)

READERS = """
from puzzlesearch import kinds
from puzzlesearch.bee.io import read_masks, read_wordlist
from puzzlesearch.bee.settings import TableRules
from puzzlesearch.report import data


def masks(work):  # `bee build-puzzles`
    return read_masks(work / "masks.parquet", TableRules())


def puzzles(work):  # `report bee` and the end-of-run summary
    return data.read_table(work / "puzzles.parquet", kinds.BEE_PUZZLES)


def wordlist(work):  # `bee schedule`
    return read_wordlist(work / "wordlist.parquet")


def schedule(work):  # `report bee-schedule`: the table and the settings in schedule.json
    return data.read_bee_schedule(work / "schedule.parquet")
"""


def run(*argv, cwd: Path) -> str:
    """puzzlesearch as a real process (the session's artifact store); it must succeed; its stdout."""
    env = {**os.environ, "RUST_BACKTRACE": "0"}
    done = subprocess.run(
        [str(PUZZLESEARCH), *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def stage(tmp_path_factory) -> Path:
    """masks, puzzles, word list and schedule (each with its manifest) of a small lexicon, as the pipeline makes them."""
    if not WORDS.is_file():
        pytest.skip(f"{WORDS} not present")
    work = tmp_path_factory.mktemp("bee_flips")
    words = [w for w in WORDS.read_text().split() if w.isalpha() and w.islower() and set(w) <= LETTERS]
    (work / "w.txt").write_text("\n".join(words) + "\n")
    lexicon = Path(json.loads(run("lexicon", "info", "w.txt", cwd=work))["dir"])
    shutil.copy(lexicon / "words.parquet", work / "words.parquet")  # with its manifest: the bee commands verify it
    shutil.copy(lexicon / "words.json", work / "words.json")
    rules = BeeRules()
    run("bee", "build-masks", "--settings", rules.table_rules().to_json(), "--words", "words.parquet",
        "--out", "masks.parquet", cwd=work)  # fmt: skip
    run("bee", "build-puzzles", "--settings", rules.to_json(), "--masks", "masks.parquet", "--words", "words.parquet",
        "--out", "puzzles.parquet", cwd=work)  # fmt: skip
    run("bee", "build-wordlist", "--settings", WordListRules().to_json(), "--words", "words.parquet",
        "--out", "wordlist.parquet", cwd=work)  # fmt: skip
    run("bee", "schedule", "--settings", SCHEDULE.to_json(), "--wordlist", "wordlist.parquet", "--words", "words.parquet",
        "--out", "schedule.parquet", "--pages", "pages", cwd=work)  # fmt: skip
    return work


@pytest.mark.parametrize("kind", ["masks", "puzzles", "wordlist", "schedule"])
def test_no_flipped_byte_of_a_bee_file_changes_what_is_read(stage, kind):
    results = flip_files(stage, READERS, [(f"{kind}.parquet", kind), (f"{kind}.json", kind)])
    assert_no_silent_change(results)


def test_the_report_reads_the_schedule_kind_the_bee_stage_writes():
    from puzzlesearch import kinds
    from puzzlesearch.bee.io import SCHEDULE_KIND

    assert SCHEDULE_KIND == kinds.BEE_SCHEDULE and kinds.kind(SCHEDULE_KIND).manifest == kinds.BESIDE
