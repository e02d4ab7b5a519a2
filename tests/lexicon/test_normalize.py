"""Word-table normalization: formats, case policies, drop reasons, Boggle keys."""

from __future__ import annotations

import polars as pl
import pytest

from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon import LexiconOptions, LexiconSpec, boggle_key, letter_mask, open_lexicon
from puzzlesearch.lexicon.normalize import normalize

# Boggle-valid entries per list, from ../shared/wordlists/SOURCES.md (danvk/hybrid-boggle).
BOGGLE_VALID = {"enable2k": 173_402, "yawl": 263_904, "english0": 42_359}


def table_for(tmp_path, text: str | bytes, **opts):
    path = tmp_path / "list.txt"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return normalize(LexiconSpec("t", str(path), LexiconOptions(**opts)))


def test_letter_mask_and_boggle_key_by_hand():
    assert letter_mask("abc") == 0b111
    assert letter_mask("zebra") == (1 << 25) | (1 << 4) | (1 << 1) | (1 << 17) | 1
    assert boggle_key("queen") == "qeen"
    assert boggle_key("quiquern") == "qiqern"
    assert boggle_key("qat") is None and boggle_key("iraq") is None


def test_crlf_comments_blank_lines_counts_and_duplicates(tmp_path):
    t = table_for(tmp_path, b"# a comment\r\nzebra 12\r\n\r\nApple\r\nqueen\r\nqat\r\nzebra 3\r\nox\r\nx\r\ndon't\r\n")
    words = t.words
    assert words["word"].to_list() == ["ox", "qat", "queen", "zebra"]
    assert words["word_id"].to_list() == [0, 1, 2, 3]
    row = words.filter(pl.col("word") == "zebra").row(0, named=True)
    assert row["frequency"] == 15 and row["length"] == 5 and row["distinct"] == 5
    assert row["mask"] == letter_mask("zebra") and row["boggle"] == "zebra"
    assert words.filter(pl.col("word") == "queen")["boggle"].item() == "qeen"
    assert words.filter(pl.col("word") == "qat")["boggle"].item() is None
    assert words.filter(pl.col("word") == "ox")["boggle"].item() is None  # < 3 letters
    assert t.dropped == {"non_letters": 1, "capitalised": 1, "too_short": 1, "duplicates": 1}
    assert t.boggle_dropped == {"bad_qu": 1, "too_short": 1}


def test_all_caps_list_is_lowercased(tmp_path):
    t = table_for(tmp_path, "CAT\nDOG\nQUIT\n")
    assert t.words["word"].to_list() == ["cat", "dog", "quit"]
    assert t.words["frequency"].null_count() == 3


def test_case_policies(tmp_path):
    text = "cat\nParis\nNASA\n"
    assert table_for(tmp_path, text).words["word"].to_list() == ["cat"]
    assert table_for(tmp_path, text, case="lower").words["word"].to_list() == ["cat", "nasa", "paris"]
    assert table_for(tmp_path, text, case="strict").words["word"].to_list() == ["cat"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"", "empty"),
        (b"# only a comment\n\n", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        (b"caf\xe9\n", "not UTF-8"),
    ],
)
def test_bad_files_are_one_line_errors_naming_the_file(tmp_path, content, message):
    path = tmp_path / "words.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(PuzzleError, match=message) as info:
        normalize(LexiconSpec("t", str(path)))
    assert str(path) in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", sorted(BOGGLE_VALID))
def test_boggle_valid_counts_match_published(shared_lexicon, name):
    lex = shared_lexicon(name)
    assert lex.words["boggle"].is_not_null().sum() == BOGGLE_VALID[name]
    assert lex.stats["boggle_words"] == BOGGLE_VALID[name]


def test_builtin_english_default_has_frequencies(tmp_path):
    lex = open_lexicon("default", config={"lexicons": {"default": "builtin:en"}}, root=tmp_path)
    words = lex.words
    assert words.height > 100_000
    assert words["frequency"].null_count() == 0
    assert words.filter(pl.col("word") == "the")["frequency"].item() > 1_000_000
    assert words["word"].str.contains("^[a-z]+$").all()


def test_builtin_arabic(tmp_path):
    config = {"lexicons": {"ar": {"source": "builtin:ar", "alphabet": "arabic"}}}
    words = open_lexicon("ar", config=config, root=tmp_path).words
    assert words.height > 100_000
    assert words["mask"].null_count() == words.height
    assert "كتاب" in set(words["word"].to_list())


def test_open_lexicon_rebuilds_when_the_source_changes(tmp_path):
    src = tmp_path / "mine.txt"
    src.write_text("cat\ndog\n")
    lex = open_lexicon(str(src), config={"lexicons": {"x": "builtin:en"}}, root=tmp_path)
    assert lex.name == "mine" and lex.words.height == 2
    src.write_text("cat\ndog\nemu\n")
    lex = open_lexicon(str(src), config={"lexicons": {"x": "builtin:en"}}, root=tmp_path)
    assert lex.words.height == 3 and lex.dawg.index("emu") == 2


def test_unknown_lexicon_name_is_an_error(tmp_path):
    with pytest.raises(PuzzleError, match="not a configured lexicon"):
        open_lexicon("nope", config={"lexicons": {"x": "builtin:en"}}, root=tmp_path)


def test_two_files_with_the_same_stem_get_separate_artifacts(tmp_path):
    config = {"lexicons": {"x": "builtin:en"}}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "words.txt").write_text("cat\n")
    (tmp_path / "b" / "words.txt").write_text("dog\nemu\n")
    first = open_lexicon(str(tmp_path / "a" / "words.txt"), config=config, root=tmp_path)
    second = open_lexicon(str(tmp_path / "b" / "words.txt"), config=config, root=tmp_path)
    assert first.dir != second.dir
    assert first.words["word"].to_list() == ["cat"] and second.words["word"].to_list() == ["dog", "emu"]
    again = open_lexicon(str(tmp_path / "a" / "words.txt"), config=config, root=tmp_path)
    assert again.dir == first.dir


def test_count_column_only_takes_ascii_digits(tmp_path):
    t = table_for(tmp_path, "cat 12\nworld \u00b2\n")
    assert t.words["word"].to_list() == ["cat"] and t.dropped["non_letters"] == 1
