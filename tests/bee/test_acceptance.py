"""The Bee acceptance model: the fit against known answers, the scoring by brute force, the files.

The regression is checked on cases whose answer is known beforehand (expected counts drawn
from a known logistic model give back its coefficients; a separable case is separated), the
pairs and scores against plain loops over tiny puzzles, and the shipped parameter file
against the code that reads it and the published answers it was fitted on.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from puzzlesearch.bee.acceptance import (
    Model,
    WordFacts,
    default_facts,
    design,
    fit_logistic,
    load_model,
    scowl_sizes,
    shipped_params_path,
)
from puzzlesearch.bee.fitting import Published, make_pairs, read_published, score
from puzzlesearch.bee.model import letters_mask
from puzzlesearch.bee.settings import WordListRules
from puzzlesearch.bee.wordlist import WORDLIST_SCHEMA, build_wordlist
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.wordinfo import Sense, WordNet

PROJECT = Path(__file__).resolve().parents[2]
PUBLISHED = PROJECT.parent / "shared" / "facts" / "nyt_bee_2018_2021.tsv"


def logistic(t):
    return 1 / (1 + np.exp(-t))


# ---------------------------------------------------------------- the fit


def test_fit_recovers_known_coefficients_from_expected_counts():
    # Counts equal to their expectation under a known model: the maximum-likelihood fit
    # (no ridge) is that model, so the coefficients come back to rounding.
    rng = np.random.default_rng(5)
    x = rng.normal(size=(400, 3)) * [1.0, 2.0, 0.5] + [0.0, 1.0, -2.0]
    beta, intercept = np.array([1.5, -0.7, 2.0]), -0.4
    n = rng.integers(5, 50, size=400).astype(float)
    p = logistic(intercept + x @ beta)
    mean, scale, coef, b0 = fit_logistic(x, n * p, n * (1 - p), l2=0.0)
    assert np.allclose(coef / scale, beta, atol=1e-8)
    assert b0 - (coef / scale) @ mean == pytest.approx(intercept, abs=1e-8)


def test_fit_separates_a_separable_case_and_ignores_rows_without_counts():
    x = np.array([[0.0], [1.0], [2.0], [3.0], [10.0], [11.0], [12.0], [-50.0]])
    pos = np.array([0, 0, 0, 0, 3, 2, 4, 0], dtype=float)
    neg = np.array([2, 5, 1, 3, 0, 0, 0, 0], dtype=float)  # the last row: no puzzle saw it
    mean, scale, coef, b0 = fit_logistic(x, pos, neg, l2=0.01)
    p = logistic(b0 + ((x - mean) / scale) @ coef)
    assert (p[:4] < 0.05).all() and (p[4:7] > 0.95).all()
    assert mean[0] == pytest.approx(np.mean(x[:7, 0]))  # standardised on the rows with counts


# ---------------------------------------------------------------- pairs and scores by brute force

TINY = [
    Published("20200101", "abcdefg", "a", ("cafe", "face", "bead")),
    Published("20210101", "abcdefg", "e", ("cafe", "face", "feed", "decade")),
]
TINY_CANDIDATES = ["bead", "cafe", "dead", "decade", "face", "feed", "fade", "badge", "xyzw", "abcdefgh"]


def test_pairs_are_every_candidate_the_letters_allow():
    pairs = make_pairs(TINY, TINY_CANDIDATES)
    got = {(int(k), pairs.words[i], bool(a)) for k, i, a in zip(pairs.puzzle, pairs.word, pairs.accepted)}
    want = set()
    for k, p in enumerate(TINY):
        for w in TINY_CANDIDATES:
            if set(w) <= set(p.letters) and p.center in w:
                want.add((k, w, w in p.answers))
    assert got == want and "xyzw" not in pairs.words
    assert pairs.published.tolist() == [3, 4] and pairs.year.tolist() == [2020, 2021]
    pos, neg = pairs.counts([2020, 2021])
    at = pairs.words.index("cafe")
    assert (pos[at], neg[at]) == (2, 0)


def test_score_counts_recall_precision_and_within_by_hand():
    pairs = make_pairs(TINY, TINY_CANDIDATES)
    ours = {"cafe", "face", "dead", "fade", "decade"}
    keep = np.array([w in ours for w in pairs.words])
    s = score(pairs, keep, [2020, 2021])
    # 2020 (center a): ours cafe dead face fade decade -> 5 words, 2 of 3 answers;
    # 2021 (center e): ours cafe dead face fade decade -> 5 words, 3 of 4 answers (feed missed).
    assert (s.tp, s.ours, s.published) == (5, 10, 7)
    assert s.recall == pytest.approx(5 / 7) and s.precision == pytest.approx(5 / 10)
    assert s.counts.tolist() == [5, 5] and s.within == pytest.approx(0.5)  # |5-3| > 0.75, |5-4| <= 1
    only_2021 = score(pairs, keep, [2021])
    assert (only_2021.tp, only_2021.ours, only_2021.counts.tolist()) == (3, 5, [5])


@pytest.mark.parametrize(
    "line, needle",
    [
        ("20200101\tabcdefg\ta", "expected date<TAB>letters"),
        ("2020-01-01\tabcdefg\ta\tcafe", "date '2020-01-01'"),
        ("20200101\tabcdefa\ta\tcafe", "7 distinct letters"),
        ("20200101\tabcdefg\tz\tcafe", "center 'z'"),
        ("20200101\tabcdefg\ta\tbeef", "answer 'beef'"),
        ("20200101\tabcdefg\ta\tcaf", "answer 'caf'"),
    ],
)
def test_bad_published_lines_are_named(tmp_path, line, needle):
    path = tmp_path / "bee.tsv"
    path.write_text("20200102\tabcdefg\ta\tcafe\n" + line + "\n")
    with pytest.raises(PuzzleError, match=f"bee.tsv:2: .*{needle}"):
        read_published(path)


# ---------------------------------------------------------------- the word list from a model


def tiny_facts() -> WordFacts:
    """A WordNet of three lemmas and frequencies for seven words."""
    noun = lambda w: Sense("noun", (w,), "")  # noqa: E731
    wn = WordNet({"tile": [noun("tile")], "rain": [noun("rain")], "paris": [Sense("noun", ("Paris",), "")]}, {})
    zipf = {"tile": 3.7, "tiles": 3.1, "rain": 4.7, "tael": 1.8, "paris": 5.0, "shit": 5.0, "zzzq": 0.5}
    return WordFacts(zipf, {"tile": 500}, wn, frozenset({"shit"}), {"tael": 0.6, "tile": 1.0}, None)


def zipf_only_model(names: list[str], cut: float) -> Model:
    """p = sigmoid(4 (zipf - cut)): exactly the words of Zipf >= cut pass the threshold 0.5."""
    k = len(names)
    coef = np.zeros(k)
    coef[names.index("zipf")] = 4.0
    return Model(tuple(names), np.zeros(k), np.ones(k), coef, -4.0 * cut, 0.5, {})


def test_wordlist_is_the_candidates_the_model_accepts_off_the_blocklist():
    facts = tiny_facts()
    names, _ = design(["tile"], facts)
    lexicon = pl.DataFrame(
        {"word": ["tile", "ohno", "tiled"], "frequency": [500, 60, 70]},
    ).with_columns(
        length=pl.col("word").str.len_chars().cast(pl.Int16),
        mask=pl.Series([letters_mask(w) for w in ["tile", "ohno", "tiled"]], dtype=pl.UInt32),
    )
    model = zipf_only_model(names, 3.0)
    table, counts = build_wordlist(lexicon, WordListRules(exclude=""), facts, model)
    # candidates (4+ letters): the facts' words and the lexicon's; shit is blocklisted; Zipf >= 3.0 kept
    assert table["word"].to_list() == ["paris", "rain", "tile", "tiles"]
    assert dict(table.schema) == WORDLIST_SCHEMA
    assert table["frequency"].to_list() == [None, None, 500, None]
    assert table["zipf"].to_list() == [5.0, 4.7, 3.7, 3.1]
    assert np.allclose(table["probability"].to_numpy(), logistic(4 * (table["zipf"].to_numpy() - 3.0)))
    assert counts == {"candidates": 9, "blocklist": 1, "below_threshold": 4, "from_the_lexicon": 1}
    five = build_wordlist(lexicon, WordListRules(min_length=5, exclude=""), facts, model)[0]
    assert five["word"].to_list() == ["paris", "tiles"]
    no_s = build_wordlist(lexicon, WordListRules(), facts, model)  # the NYT's rules: no S
    assert no_s[0]["word"].to_list() == ["rain", "tile"] and no_s[1]["candidates"] == 6
    four = build_wordlist(lexicon, WordListRules(size=4, exclude=""), facts, model)[0]
    assert four["word"].to_list() == ["rain", "tile"]  # paris and tiles have 5 distinct letters


def test_scowl_words_up_to_size_80_are_candidates_and_columns(tmp_path):
    folder = tmp_path / "scowl"
    folder.mkdir()
    (folder / "english-words.10").write_text("tile\nrain\n")
    (folder / "american-words.80").write_text("tile\nteal\nTeal\n")
    (folder / "british-words.95").write_text("taile\n")
    (folder / "english-proper-names.10").write_text("tilly\n")  # not a word list SCOWL_LISTS reads
    sizes = scowl_sizes(folder)
    assert sizes == {"tile": 10, "rain": 10, "teal": 80, "taile": 95}
    assert scowl_sizes(tmp_path / "absent") is None
    facts = dataclasses.replace(tiny_facts(), scowl=sizes)
    assert facts.params_file == "acceptance.json" and tiny_facts().params_file == "acceptance-without-scowl.json"
    assert set(facts.candidates()) - set(tiny_facts().candidates()) == {"teal"}  # taile: size 95
    names, x = design(["tile", "teal", "taile", "tael"], facts)
    col = {n: x[:, i].tolist() for i, n in enumerate(names)}
    assert (
        col["scowl<=10"] == [1, 0, 0, 0] and col["scowl<=80"] == [1, 1, 0, 0] and col["scowl_missing"] == [0, 0, 0, 1]
    )
    assert (
        col["crossword"] == [1, 0, 0, 1]
        and col["crossword=1.0"] == [1, 0, 0, 0]
        and col["crossword=0.6"] == [0, 0, 0, 1]
    )
    assert col["distinct<=3"] == [0, 0, 0, 0] and col["double_letter"] == [0, 0, 0, 0]
    assert "scowl<=10" not in design(["tile"], tiny_facts())[0]


def test_a_model_of_other_features_is_refused():
    facts = tiny_facts()
    names, _ = design(["tile"], facts)
    model = zipf_only_model(names[:-1], 3.0)
    with pytest.raises(PuzzleError, match="refit"):
        build_wordlist(pl.DataFrame({"word": [], "frequency": [], "mask": []}), WordListRules(), facts, model)


# ---------------------------------------------------------------- the shipped parameters


@pytest.mark.parametrize("scowl", [{"tile": 10}, None])
def test_shipped_parameters_load_and_match_the_code(scowl):
    facts = dataclasses.replace(tiny_facts(), scowl=scowl)
    model = load_model(facts=facts)
    names, _ = design(["tile"], facts)
    assert model.features == tuple(names) and 0 < model.threshold < 1
    assert Model.from_json(model.to_json()).to_json() == model.to_json()
    years = [r["test_year"] for r in model.info["cross_validation"]]
    assert years == [2018, 2019, 2020, 2021]
    assert model.info["fitted_on"]["puzzles"] == 1203
    assert (scowl is None) == (model.info["sources"]["scowl"] == "absent")


def test_damaged_parameter_files_are_named(tmp_path):
    good = json.loads(shipped_params_path().read_text())
    for name, body in {
        "notjson.json": "{",
        "nofeatures.json": json.dumps({k: v for k, v in good.items() if k != "features"}),
        "threshold.json": json.dumps(good | {"threshold": 1.5}),
        "scale.json": json.dumps(good | {"features": [good["features"][0] | {"scale": 0}] + good["features"][1:]}),
    }.items():
        (tmp_path / name).write_text(body)
        with pytest.raises(PuzzleError, match=name):
            load_model(tmp_path / name)
    with pytest.raises(PuzzleError, match="cannot read"):
        load_model(tmp_path / "absent.json")


def test_fit_command_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("20200101\tabcdefg\tz\tcafe\n")
    out = tmp_path / "params.json"
    for answers, needle in ((bad, "center 'z'"), (tmp_path / "absent.tsv", "cannot read")):
        run = subprocess.run(
            [sys.executable, "-m", "puzzlesearch", "bee", "fit-wordlist", "--answers", str(answers), "--out", str(out)],
            capture_output=True,
            text=True,
        )
        err = run.stderr.strip().splitlines()[-1]
        assert run.returncode == 2 and "Traceback" not in run.stderr and needle in err, run.stderr
        assert not out.exists()


@pytest.mark.slow
def test_a_held_out_year_meets_the_targets_by_plain_counting():
    # About 40 s: fit on 2018-2020 with the threshold the shipped table chose inside them,
    # then judge 2021 from the published lines alone (sets per puzzle, no code of the fit):
    # recall >= 0.90 and precision >= 0.85 (issue 60), and the shipped table's 2021 row.
    if not PUBLISHED.exists():
        pytest.skip(f"{PUBLISHED} is absent")
    facts = default_facts()
    if facts.scowl is None:
        pytest.skip("Debian's scowl is not installed: the shipped model's sources are absent")
    puzzles = read_published(PUBLISHED)
    pairs = make_pairs(puzzles, facts.candidates())
    names, x = design(pairs.words, facts)
    row = next(r for r in load_model(facts=facts).info["cross_validation"] if r["test_year"] == 2021)
    mean, scale, coef, b0 = fit_logistic(x, *pairs.counts([2018, 2019, 2020]))
    p = logistic(b0 + ((x - mean) / scale) @ coef)
    ours = {w for w, q in zip(pairs.words, p) if q >= row["threshold"] and w not in facts.blocklist}
    tp = mine = published = within = n = 0
    for line in PUBLISHED.read_text().splitlines():
        date, letters, center, answers = line.split("\t")
        if not date.startswith("2021"):
            continue
        theirs = set(answers.split())
        got = {w for w in ours if set(w) <= set(letters) and center in w}
        tp, mine, published, n = tp + len(got & theirs), mine + len(got), published + len(theirs), n + 1
        within += abs(len(got) - len(theirs)) <= 0.25 * len(theirs)
    assert n == 356 and tp / published >= 0.90 and tp / mine >= 0.85 and within / n >= 0.75
    assert (round(tp / published, 4), round(tp / mine, 4), round(within / n, 4)) == (
        row["recall"],
        row["precision"],
        row["within_25pct"],
    )


@pytest.mark.slow
@pytest.mark.parametrize("without_scowl", [False])
def test_refit_from_the_published_answers_gives_the_shipped_parameters(tmp_path, without_scowl):
    # About 2-4 minutes (11 logistic fits on 540,000 pairs): the shipped file is what the
    # documented command makes from the published answers. The fallback file (without_scowl
    # True, the same path) passed too on 2026-12-07; it is left out of the suite for its time.
    if not PUBLISHED.exists():
        pytest.skip(f"{PUBLISHED} is absent")
    facts = default_facts()
    if facts.scowl is None and not without_scowl:
        pytest.skip("Debian's scowl is not installed")
    out = tmp_path / "acceptance.json"
    flag = ["--without-scowl"] if without_scowl else []
    run = subprocess.run(
        [sys.executable, "-m", "puzzlesearch", "bee", "fit-wordlist", *flag, "--answers", str(PUBLISHED)]
        + ["--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    if without_scowl:
        facts = dataclasses.replace(facts, scowl=None)
    new, shipped = load_model(out), load_model(facts=facts)
    assert new.features == shipped.features and new.threshold == shipped.threshold
    assert np.allclose(new.coef, shipped.coef, atol=1e-6) and new.intercept == pytest.approx(
        shipped.intercept, abs=1e-6
    )
    assert new.info["cross_validation"] == shipped.info["cross_validation"]
