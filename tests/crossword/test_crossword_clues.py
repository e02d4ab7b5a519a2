"""Crossword clues and word quality: no clue names its answer, blocklist, names out, score floors.

Facts checked independently of the code under test: clue text against the answer's letters,
WordNet's own case of a lemma (Yalu, PD) and absence (EZ), brute-force sets over clues.parquet
for the floors, counts of the clues written into the .ipuz against the reported coverage.
"""

from __future__ import annotations

import copy
import json
import re

import numpy as np
import polars as pl
import pytest

from puzzlesearch.cli import main
from puzzlesearch.crossword import clues, quality
from puzzlesearch.crossword.fill import FillSettings, NoFill, fill
from puzzlesearch.crossword.io import read_pattern
from puzzlesearch.crossword.settings import TableSettings
from puzzlesearch.crossword.tables import build_tables, load_tables, open_tables
from puzzlesearch.lexicon import open_lexicon, wordinfo
from puzzlesearch.lexicon.artifacts import WORDS_FILE

SAMPLE_LENGTHS = (3, 4, 5, 6)


# `project` and `config` (the builtin word lists) come from conftest.py


@pytest.fixture(scope="module")
def own_config(config):
    """The session config with our own English scores only (crossword.quality.constructors off): these
    tests are about the wordfreq/WordNet scoring, which remains for the words the constructors' list
    lacks; the list itself is tested in test_crossword_solver.py."""
    own = copy.deepcopy(config)
    own["crossword"]["quality"]["constructors"] = False
    return own


@pytest.fixture(scope="module")
def english(own_config, project):
    """The English tables of our own scores (store-built) and their clues table."""
    tables = open_tables("en", own_config, project, 0)
    return tables, pl.read_parquet(tables.clues_path)


def tiny_lexicon(folder, words: dict[str, int]):
    """A lexicon built from a word-frequency file; its words.parquet path."""
    path = folder / "tiny.txt"
    path.write_text("".join(f"{w} {f}\n" for w, f in words.items()))
    lex = open_lexicon("tiny", config={"lexicons": {"tiny": str(path)}}, root=folder)
    return lex.dir / WORDS_FILE


# ---------------------------------------------------------------- no clue names its answer


def letters_form(token: str, answer: str) -> bool:
    """The documented rule, restated on plain strings: shared first min(4,len) letters, a 3+ start, containment."""
    k = min(4, len(answer))
    return (
        token[:k] == answer[:k]
        or (len(token) >= 3 and answer.startswith(token))
        or (len(answer) >= 4 and answer in token)
    )


def test_no_english_clue_contains_its_answer(english):
    _, df = english
    sample = df.filter(pl.col("length").is_in(SAMPLE_LENGTHS) & (pl.col("clue") != ""))
    assert sample.height > 5000
    for word, clue in zip(sample["word"], sample["clue"]):
        text = clue.lower()
        tokens = re.findall(r"[a-z]+", text)
        assert word not in tokens, (word, clue)
        assert not any(letters_form(t, word) for t in tokens), (word, clue)
        if len(word) >= 4:
            assert word not in text, (word, clue)


def test_irregular_forms_are_not_named_by_their_base():
    wn = wordinfo.load_wordnet()
    for word, base in (("mice", "mouse"), ("ran", "run"), ("geese", "goose"), ("cats", "cat"), ("went", "go")):
        clue = clues.english_clue(wn, word)
        assert clue, word
        assert base not in re.findall(r"[a-z]+", clue.lower()), (word, clue)


def test_no_arabic_clue_contains_its_answer(config, project):
    tables = open_tables("ar", config, project, 0)
    df = pl.read_parquet(tables.clues_path).filter(pl.col("clue") != "")
    assert df.height > 1000
    for word, clue in zip(df["word"], df["clue"]):
        answer, text = clues.arabic_normal(word), clues.arabic_normal(clue)
        assert answer not in re.findall("[\u0621-\u064a]+", text), (word, clue)
        if len(answer) >= 4:
            assert answer not in text, (word, clue)


ARABIC_MARKS = re.compile("[\u064b-\u0652\u0670\u0640]")  # harakat, dagger alif, tatweel


def arramooz_rows(sql, args=()):
    """Rows of the installed Arramooz database, read here with sqlite3 (not through clues.py)."""
    import sqlite3

    con = sqlite3.connect(f"file:{clues.arramooz_db()}?mode=ro", uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def test_arabic_function_words_get_their_grammatical_role():
    dictionary = clues.load_arabic()
    roles = {"لن": "حرف نفي ونصب واستقبال", "هم": "ضمير جمع الغائبين", "في": "حرف جر للظرفية"}
    for word, role in roles.items():
        assert clues.arabic_clue(word, dictionary) == role
    particles = clues.arabic_particles()
    assert len(particles) >= 90
    for word, role in particles.items():  # every shipped role is Arabic text that does not name its word
        assert re.fullmatch("[\u0621-\u064a]+", word), word
        assert word not in re.findall("[\u0621-\u064a]+", clues.arabic_normal(role)), (word, role)


def test_arabic_broken_plural_gets_its_singulars_meaning():
    # أوامر is listed by Arramooz as a broken plural of آمِرٌ, which has a definition
    singles = {
        ARABIC_MARKS.sub("", s) for (s,) in arramooz_rows("SELECT single FROM nouns WHERE unvocalized = ?", ("أوامر",))
    }
    assert "آمر" in singles
    definitions = [d for (d,) in arramooz_rows("SELECT definition FROM nouns WHERE unvocalized = ?", ("آمر",)) if d]
    clue = clues.arabic_clue("أوامر", clues.load_arabic())
    assert clue.endswith("(جمع)")
    meaning = clue.removesuffix("(جمع)").strip()
    assert any(meaning in ARABIC_MARKS.sub("", d) for d in definitions), clue


def test_arabic_spelling_without_hamza_finds_the_noun():
    dictionary = clues.load_arabic()
    assert "انسان" not in dictionary.definitions and "إنسان" in dictionary.definitions
    assert clues.arabic_clue("انسان", dictionary) == clues.arabic_clue("إنسان", dictionary) != ""


def test_cut_arabic_meanings_and_plural_notes_are_not_clues():
    assert not clues.arabic_meaning_ok("منزه عن")  # ends in a preposition: cut mid-phrase
    assert not clues.arabic_meaning_ok("وجه النفس نحو")
    assert not clues.arabic_meaning_ok("ج: ون، ات")  # the plural endings, not a meaning
    assert clues.arabic_meaning_ok("حجر كريم شفاف")


def test_clue_forms_rule_on_known_cases():
    assert not clues.clue_ok("Domestic cats and wildcats", ["cat"])
    assert not clues.clue_ok("A running race", ["runner"])  # first 4 letters shared
    assert not clues.clue_ok("The act of a catalog", ["catalogue"])
    assert clues.clue_ok("Feline mammal", ["cat"])


# ---------------------------------------------------------------- names, abbreviations, blocklist


def test_names_and_abbreviations_are_out_of_the_default_english_table(english):
    tables, _ = english
    wn = wordinfo.load_wordnet()
    # WordNet writes these only capitalised or all-caps (a river, an abbreviation) or lacks them
    assert any(s.lemmas and "Yalu" in s.lemmas for s in wn.senses["yalu"])
    assert all("yalu" not in s.lemmas for s in wn.senses["yalu"])
    assert "ez" not in wn.senses
    for word in ("yalu", "pd", "ez"):
        assert wn.word_class(word) != wordinfo.COMMON
        assert not tables.contains(word), word
    for word in ("cat", "the", "area", "cats"):
        assert tables.contains(word), word


def test_names_setting_keeps_them(tmp_path):
    words = tiny_lexicon(tmp_path, {"cat": 500, "yalu": 900, "pd": 800, "ez": 700, "dog": 400})
    kept = load_tables(build_tables_dir(tmp_path / "kept", words, TableSettings(names=True)))
    dropped = load_tables(build_tables_dir(tmp_path / "dropped", words, TableSettings()))
    assert all(kept.contains(w) for w in ("cat", "yalu", "pd", "ez", "dog"))
    assert [w for w in ("cat", "yalu", "pd", "ez", "dog") if dropped.contains(w)] == ["cat", "dog"]


def build_tables_dir(folder, words_path, settings):
    folder.mkdir(parents=True, exist_ok=True)
    build_tables(folder / "tables.npz", words_path, settings)
    return folder / "tables.npz"


def test_blocklisted_words_never_appear_in_a_fill(tmp_path):
    shipped = wordinfo.read_blocklist()
    assert {"fuck", "orgasmic", "nigger"} <= shipped
    # the blocked words are the most frequent ones, so a fill would pick them first
    freqs = {"cum": 9000, "tit": 8000, "cat": 50, "car": 60, "ace": 70, "tar": 40, "arc": 30, "tea": 20}
    words = tiny_lexicon(tmp_path, freqs)
    block = tmp_path / "block.txt"
    block.write_text("# mine\ncum tit\ncar\n")
    npz = build_tables_dir(tmp_path / "t", words, TableSettings(blocklist=str(block), names=True))
    tables = load_tables(npz)
    assert not any(tables.contains(w) for w in ("cum", "tit", "car"))
    pattern_file = tmp_path / "p.txt"
    pattern_file.write_text("ca.\n")
    result = fill(read_pattern(pattern_file, tables.alphabet), tables, FillSettings(time_budget=30), progress=False)
    assert result.words == ["cat"]  # car is blocked
    pattern_file.write_text("ti.\n")
    with pytest.raises(NoFill):
        fill(read_pattern(pattern_file, tables.alphabet), tables, FillSettings(time_budget=30), progress=False)


def test_shipped_blocklist_words_are_not_in_the_english_table(english):
    tables, df = english
    assert not set(df["word"]) & wordinfo.read_blocklist()
    assert not tables.contains("orgasmic")


# ---------------------------------------------------------------- scores and floors


def test_score_floor_is_a_prefix_of_each_length(english):
    tables, _ = english
    score, starts = tables.arrays["score"], tables.arrays["len_start"]
    for L in range(2, len(starts) - 1):
        seg = score[starts[L] : starts[L + 1]]
        assert (np.diff(seg.astype(int)) <= 0).all(), L  # descending, so any floor keeps a prefix
        for floor in (0, 30, 50, 70, 90):
            n = int((seg >= floor).sum())
            assert (seg[:n] >= floor).all()


def test_both_floors_keep_eligible_words_a_prefix_and_match_brute_force(english):
    tables, df = english
    t = load_tables(tables.clues_path.with_name("tables.npz"), min_frequency=2000, min_score=50)
    start, count = t.len_arrays(8)
    for L in range(3, 9):
        want = set(df.filter((pl.col("length") == L) & (pl.col("frequency") >= 2000) & (pl.col("score") >= 50))["word"])
        a, b = t.len_range(L)
        assert t.word_ok[a : a + count[L]].all() and not t.word_ok[a + count[L] : b].any(), L
        assert set(t.words_of_length(L)) == want, L
        got = {t.alphabet.decode(t.codes[r, :L]) for r in range(start[L], start[L] + count[L])}
        assert got == want, L
    sample = df.filter(pl.col("length") == 5).head(300)
    for w, f, s in zip(sample["word"], sample["frequency"], sample["score"]):
        assert t.contains(w) == (f >= 2000 and s >= 50)


def test_frequency_percentile_and_scores_match_brute_force():
    rng = np.random.default_rng(3)
    freq = rng.integers(1, 20, 200)
    pct = quality.frequency_percentile(freq)
    for f, p in zip(freq[:50], pct[:50]):
        below, equal = (freq < f).sum(), (freq == f).sum()
        assert p == pytest.approx((below + equal / 2) / len(freq))
    clued = rng.random(200) < 0.5
    scores = quality.word_scores(freq, clued, 40)
    assert scores.min() >= 0 and scores.max() <= 100
    assert (scores[~clued] <= 60).all() and (scores[clued] >= 40).all()
    assert (scores == np.rint(60 * pct + 40 * clued)).all()


# ---------------------------------------------------------------- reported coverage = output


def test_clue_coverage_reported_equals_the_clues_written(project, config, tmp_path, capsys):
    out = tmp_path / "gen"
    code = main(
        [
            "--config",
            str(project / "config.yaml"),
            "crossword",
            "generate",
            "--lang",
            "en",
            "--size",
            "6",
            "--seeds",
            "2",
            "--quiet",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    capsys.readouterr()
    df = pl.read_parquet(out / "puzzles.parquet")
    tables = open_tables("en", config, project, 0)  # the default tables the command used
    total_entries = total_clued = 0
    for row in df.iter_rows(named=True):
        doc = json.loads((out / row["file"]).read_text())
        items = doc["clues"]["Across"] + doc["clues"]["Down"]
        clued = [c for c in items if c["clue"]]
        assert row["entries"] == len(items) and row["clued_entries"] == len(clued)
        assert row["clue_share"] == pytest.approx(len(clued) / len(items), abs=1e-4)
        scores = [tables.score(c["answer"].lower()) for c in items]
        assert row["min_score"] == min(scores) and row["mean_score"] == pytest.approx(np.mean(scores), abs=0.01)
        assert row["low_entries"] == sum(s < row["low_score"] for s in scores)
        total_entries += len(items)
        total_clued += len(clued)
    meta = json.loads((out / "puzzles.json").read_text())
    assert meta["entries"] == total_entries and meta["clued_entries"] == total_clued
    assert list(df["rank"]) == list(range(1, df.height + 1))


# ---------------------------------------------------------------- the scored English list (issue 27)


def test_english_scores_follow_wordfreq_and_word_class(english):
    """Scores against wordfreq's own Zipf values and the documented formula, worked out here."""
    import wordfreq

    _, df = english
    rows = {r["word"]: r for r in df.filter(pl.col("word").is_in(["house", "ocean", "clavus", "algins"])).to_dicts()}
    for word in ("house", "ocean"):  # common, clued, 5 letters: 50 + 25 x (Zipf - 2.5), at most 100
        zipf = wordfreq.zipf_frequency(word, "en", wordlist="large")
        assert rows[word]["score"] == min(100, round(50 + 25 * (zipf - 2.5)))
    assert all(rows[w]["score"] < 50 for w in ("clavus", "algins") if w in rows)  # rare forms below the floor
    assert (df.filter(pl.col("clue") == "")["score"] <= TableSettings().unclued_max).all()


def test_default_floor_keeps_only_clued_common_words(own_config, project):
    tables = open_tables("en", own_config, project, 0, min_score=50)
    df = pl.read_parquet(tables.clues_path).filter(pl.col("score") >= 50)
    assert df.height > 15000
    assert (df["clue"] != "").all() and (df["class"] == wordinfo.COMMON).all()
    banned = {"kt", "sr", "ms", "pe", "ad", "buhls", "nektons", "algins", "clavus", "ani", "obi"}
    assert not banned & set(df.filter(pl.col("length") >= 3)["word"].to_list())
    assert (
        not tables.words_of_length(2)
        or open_tables("en", own_config, project, 0, min_score=50, min_entry=3).words_of_length(2) == []
    )


def test_score_file_overrides_and_adds_words(tmp_path):
    scores = tmp_path / "scores.txt"
    scores.write_text("# constructor's list\nhouse;10\nzyzzyva;77\n")
    words = tiny_lexicon(tmp_path, {"house": 5000, "ocean": 4000, "table": 3000})
    out = tmp_path / "t" / "tables.npz"
    build_tables(out, words, TableSettings(scores=str(scores)))
    df = pl.read_parquet(out.with_name("clues.parquet"))
    got = dict(zip(df["word"], df["score"]))
    assert got["house"] == 10 and got["zyzzyva"] == 77 and got["ocean"] > 50
    bad = tmp_path / "bad.txt"
    bad.write_text("house 10\n")
    with pytest.raises(Exception, match="line 1: expected word;score"):
        wordinfo.read_score_file(bad)


def test_clues_are_never_cut_and_prefer_short_senses(english):
    _, df = english
    clued = df.filter(pl.col("clue") != "")
    text = clued["clue"].to_list()
    assert not [c for c in text if "..." in c]
    assert not [c for c in text if re.search(r"\b(e\.g|i\.e)\.?$| ,", c)]  # an example dropped, a gap before a comma
    dangling = {"of", "the", "a", "an", "and", "or", "to", "with", "by", "for", "in"}
    wn = wordinfo.load_wordnet()

    def lemma(clue: str) -> bool:
        """A WordNet lemma, or one with its first word inflected (TAKE HOLD OF, FELL IN): a synonym, not a cut."""
        words = clue.lower().split()
        heads = [words[0], *(base for base, _, _ in wn.bases(words[0]))]
        return any("_".join([h, *words[1:]]) in wn.senses for h in heads)

    cut = [c for c in text if not lemma(c) and "___" not in c]  # a blank is a whole example ("In ___ to")
    assert not [c for c in cut if re.sub(r" \([^()]*\)$", "", c).lower().split()[-1] in dangling]
    assert all(c.count("(") == c.count(")") for c in text)
    # a word whose senses include a gloss of at most 60 characters gets one (checked here from WordNet)
    for word, clue in zip(clued["word"].to_list()[:3000], text[:3000]):
        own = [s for s in wn.senses.get(word, ()) if word in s.lemmas]
        if own and all(len(clues.tidy(s.gloss.split(";")[0])) <= 60 for s in own) and "(" not in clue:
            assert len(clue) <= 60, (word, clue)


def test_english_phrases_are_tagged_wordnet_phrases_clued_without_their_words(english, wordnet_phrase_tags):
    """Phrase entries (UP IN THE AIR) against WordNet's index read here: tagged in its concordance, a
    content word, no clue word that is a form of one of their words, those words as their stems."""
    import wordfreq

    tables, df = english
    tagged = wordnet_phrase_tags  # WordNet's index, read in conftest
    rows = df.filter(pl.col("phrase").is_not_null())
    assert rows.height > 1000
    for r in rows.iter_rows(named=True):
        lemma = r["phrase"].replace(" ", "_")
        assert r["word"] == lemma.replace("_", "") and tagged.get(lemma, 0) >= 1, r
        content = [t for t in r["phrase"].split() if len(t) >= 3 and t not in wordinfo.function_words()]
        assert content and set(content) <= set(r["stems"].split("|")), r
        assert r["class"] == wordinfo.COMMON
        for token in re.findall("[a-z]+", r["clue"].lower()):
            assert not any(token[: min(4, len(c))] == c[: min(4, len(c))] for c in content), r
    words = set(df["word"].to_list())
    assert {"upintheair", "rankandfile", "giveup"} <= words
    assert tagged.get("eccentric_person", 0) == 0 and "eccentricperson" not in words  # never tagged
    assert "newyork" not in words  # WordNet writes it only capitalised: a name
    assert "doby" not in words and "orso" not in words  # no content word
    air = df.row(by_predicate=pl.col("word") == "upintheair", named=True)
    zipf = wordfreq.zipf_frequency("up in the air", "en", wordlist="large") - quality.PHRASE_ZIPF_PENALTY
    assert air["score"] == max(0, min(100, round(50 + 25 * (zipf - 2.5))))
    assert (rows.filter(pl.col("score") >= 50)["clue"] != "").all()
    # GIVE UP and GIVE are forms of one word: the fill may not place both
    from puzzlesearch.crossword.fill import sibling_rows

    start, sib = sibling_rows(tables)
    lengths = tables.arrays["lengths"]
    row_of = {tables.alphabet.decode(tables.codes[i, : lengths[i]]): i for i in range(len(lengths))}
    give_up = row_of["giveup"]
    assert row_of["give"] in sib[start[give_up] : start[give_up + 1]].tolist()


def test_phrases_setting_off_keeps_single_words(tmp_path):
    words = tiny_lexicon(tmp_path, {"ordinariness": 500, "house": 900})
    on = pl.read_parquet(build_tables_dir(tmp_path / "on", words, TableSettings()).with_name("clues.parquet"))
    off = pl.read_parquet(
        build_tables_dir(tmp_path / "off", words, TableSettings(phrases=False)).with_name("clues.parquet")
    )
    assert sorted(off["word"].to_list()) == ["house", "ordinariness"] and off["phrase"].null_count() == 2
    phrases = on.filter(pl.col("phrase").is_not_null())
    assert phrases.height > 100 and phrases["length"].max() <= len("ordinariness")
    manifest = json.loads((tmp_path / "on" / "tables.json").read_text())
    assert manifest["phrases"] == phrases.height and manifest["manifest"]["settings"]["phrases"] is True


def test_phrase_entries_are_enumerated_by_their_words(english):
    tables, df = english
    assert tables.enumeration("ataloss") == "2,1,4" and tables.enumeration("upintheair") == "2,2,3,3"
    assert tables.enumeration("house") == "5"
    phrases = df.filter(pl.col("phrase").is_not_null())
    for word, phrase in phrases.select("word", "phrase").iter_rows():
        parts = [int(n) for n in tables.enumeration(word).split(",")]
        assert sum(parts) == len(word) and len(parts) == len(phrase.split()) >= 2


def test_the_tables_phrases_are_read_from_their_column(tmp_path):
    """A fill may hold the tables' WordNet phrases (AT BAY), which the lexicon lacks (WordTables.phrase_map);
    tables built before the phrase column have none."""
    from puzzlesearch.crossword.tables import clue_column

    path = tmp_path / "clues.parquet"
    pl.DataFrame({"word": ["tear", "atbay", "girt"], "phrase": [None, "at bay", None]}).write_parquet(path)
    assert set(clue_column(path, "phrase")) == {"atbay"}
    pl.DataFrame({"word": ["tear", "girt"]}).write_parquet(path)
    assert set(clue_column(path, "phrase")) == set()
