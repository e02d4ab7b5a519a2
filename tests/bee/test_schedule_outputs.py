"""`bee schedule`'s outputs and inputs (issue 62): the pages folder it replaces is its own, the word list its settings'.

Case 1: `--pages DIR` ran shutil.rmtree(DIR): a user's folder (notes.txt, sub/data.csv) was
left with only the pages, and the word list's own folder given as --pages lost the word list.
Case 3: a word list built with other settings (then min_zipf) was taken without a word. A hand-made word
list (five words, one pangram) keeps these in seconds; the CLI runs in this process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

from puzzlesearch import manifest
from puzzlesearch.bee.io import WORDLIST_KIND
from puzzlesearch.bee.settings import ScheduleRules, WordListRules
from puzzlesearch.bee.wordlist import WORDLIST_SCHEMA
from puzzlesearch.cli import main
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import OUTPUT_MARKER, write_parquet
from puzzlesearch.lexicon.model import letter_mask

# ABCDEFG with center A: a pangram and four words (the schedule's window is set to take it)
WORDS = ["gabfaced", "faced", "decaf", "badge", "cabbage"]
PAGES = ["day-001.html", "hints-001.html", "index.html"]


def write_wordlist(folder: Path, rules: WordListRules = WordListRules()) -> Path:
    """A word list of WORDS with its manifest, as `bee build-wordlist` records it (rules and the words' sha256)."""
    words = sorted(WORDS)
    table = pl.DataFrame(
        {
            "word": words,
            "length": [len(w) for w in words],
            "mask": [letter_mask(w) for w in words],
            "distinct": [len(set(w)) for w in words],
            "frequency": [100] * len(words),
            "zipf": [4.0] * len(words),
            "probability": [0.9] * len(words),
        },
        schema=WORDLIST_SCHEMA,
    )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "wordlist.parquet"
    write_parquet(table, path)
    lexicon_words = folder / "words.parquet"
    lexicon_words.write_bytes(b"the lexicon's words")
    settings = {**rules.to_dict(), "words_sha256": manifest.file_sha256(lexicon_words)}
    manifest.write_manifest(folder / "wordlist.json", [path], WORDLIST_KIND, settings)
    return path


RULES = ScheduleRules(schedule_days=1, schedule_min_words=1, schedule_max_words=20, schedule_seed=3)


@dataclass
class Run:
    returncode: int
    stderr: str


@pytest.fixture
def schedule(capsys):
    """schedule(wordlist, pages, rules) -> Run: `puzzlesearch bee schedule` in pipeline mode (the CLI's main)."""

    def run(wordlist: Path, pages: Path, rules: ScheduleRules = RULES) -> Run:
        args = ["--settings", rules.to_json(), "--wordlist", str(wordlist)]
        args += ["--words", str(wordlist.parent / "words.parquet")]
        args += ["--out", str(wordlist.parent / "schedule.parquet"), "--pages", str(pages)]
        code = main(["bee", "schedule", *args])
        return Run(code, capsys.readouterr().err)

    return run


def one_line_error(out: Run, *needles: str) -> None:
    """Exit 2 and the error as one line naming every needle (log lines may come before it)."""
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and lines and "Traceback" not in out.stderr, out.stderr
    errors = [line for line in lines if line.startswith("puzzlesearch: error:")]
    assert len(errors) == 1 and errors[0] == lines[-1], out.stderr
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative path -> bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_pages_into_a_users_folder_are_refused_and_the_folder_kept(tmp_path, schedule):
    wordlist = write_wordlist(tmp_path / "bee")
    user = tmp_path / "user"
    (user / "sub").mkdir(parents=True)
    (user / "notes.txt").write_text("mine\n")
    (user / "sub" / "data.csv").write_text("a,b\n1,2\n")
    before = tree(user)
    one_line_error(schedule(wordlist, user), str(user), "notes.txt", "not an output folder of `bee schedule`")
    assert tree(user) == before
    assert not (tmp_path / "bee" / "schedule.parquet").exists()


def test_the_word_lists_own_folder_as_pages_is_refused_and_kept(tmp_path, schedule):
    wordlist = write_wordlist(tmp_path / "bee")
    before = tree(wordlist.parent)
    one_line_error(schedule(wordlist, wordlist.parent), str(wordlist.parent), "give a new or empty folder")
    assert tree(wordlist.parent) == before


def test_pages_replace_their_own_folder_new_or_empty(tmp_path, schedule):
    # a new folder, then a rerun over its own pages (the marker), then an empty one (Snakemake's directory())
    wordlist = write_wordlist(tmp_path / "bee")
    pages = tmp_path / "pages"
    for _ in range(2):
        out = schedule(wordlist, pages)
        assert out.returncode == 0, out.stderr
        assert sorted(p.name for p in pages.iterdir()) == sorted([*PAGES, OUTPUT_MARKER])
        marker = json.loads((pages / OUTPUT_MARKER).read_text())
        assert marker == {"writer": "bee schedule", "files": PAGES}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left
    empty = tmp_path / "empty"
    empty.mkdir()
    assert schedule(wordlist, empty).returncode == 0 and (empty / "index.html").is_file()


def test_a_file_added_to_the_pages_folder_is_not_deleted(tmp_path, schedule):
    wordlist = write_wordlist(tmp_path / "bee")
    pages = tmp_path / "pages"
    assert schedule(wordlist, pages).returncode == 0
    (pages / "notes.txt").write_text("mine\n")
    one_line_error(schedule(wordlist, pages), str(pages), "'notes.txt', which `bee schedule` did not write")
    assert (pages / "notes.txt").read_text() == "mine\n" and (pages / "index.html").is_file()


def test_another_commands_marked_folder_is_refused(tmp_path):
    from puzzlesearch.io import mark_output_dir, prepare_output_dir

    folder = mark_output_dir(tmp_path / "proof", "boggle prove")
    (folder / "boards.parquet").write_bytes(b"x")
    with pytest.raises(PuzzleError, match="written by `boggle prove`"):
        prepare_output_dir(folder, "bee schedule")
    assert prepare_output_dir(folder, "boggle prove") == folder
    (tmp_path / "file").write_text("x")
    with pytest.raises(PuzzleError, match="not a folder"):
        prepare_output_dir(tmp_path / "file", "bee schedule")


# ---------------------------------------------------------------- case 3: the word list's settings


@pytest.mark.parametrize(
    "built,needle",
    [
        (WordListRules(exclude=""), "built with bee.exclude = '', the settings ask for 's'"),
        (WordListRules(min_length=5), "built with bee.min_length = 5, the settings ask for 4"),
    ],
)
def test_a_word_list_built_with_other_settings_is_refused(tmp_path, schedule, built, needle):
    # issue 62 case 3: a word list of min_zipf 3.0 for a 2.5 run was taken (a different schedule, no word);
    # the word list's keys are now min_length, size and exclude (issue 60: the rule is the fitted model)
    wordlist = write_wordlist(tmp_path / "bee", built)
    rules = RULES.replace(min_length=4)
    one_line_error(schedule(wordlist, tmp_path / "pages", rules), str(wordlist), needle)
    assert not (tmp_path / "pages").exists() and not (tmp_path / "bee" / "schedule.parquet").exists()
    same = write_wordlist(tmp_path / "same", WordListRules(min_length=4))
    assert schedule(same, tmp_path / "pages", rules).returncode == 0
