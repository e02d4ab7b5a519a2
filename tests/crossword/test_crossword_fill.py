"""The fixed-pattern fill on an American 15x15 pattern: its fills checked against the raw word list
(every entry a word at the floors, no repeats, crossings agree), the fill kernel and the one it
replaced (baselines.crossword_fill) agree, and pattern fills carry clues that do not contain their answers."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numba
import numpy as np
import polars as pl
import pytest

from puzzlesearch.baselines import crossword_fill
from puzzlesearch.config import validate_config
from puzzlesearch.crossword.fill import FillSettings, fill
from puzzlesearch.crossword.io import read_pattern, write_filled
from puzzlesearch.crossword.model import slots
from puzzlesearch.crossword.tables import open_language
from puzzlesearch.lexicon import constructors, open_lexicon

PROJECT = Path(__file__).resolve().parents[2]
EASY = PROJECT / "workflow" / "crossword" / "patterns" / "american15" / "easy.txt"


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    """(tables, language, config, root) of the default English fill floors."""
    root = tmp_path_factory.mktemp("fillroot")
    (root / "workflow").symlink_to(PROJECT / "workflow")
    config = validate_config({"lexicons": {"default": "builtin:en"}}, root)
    s = FillSettings()
    tables, language = open_language("en", config, root, s.min_frequency, min_score=s.min_score)
    return tables, language, config, root


def grid_words(grid: np.ndarray, letters: str) -> list[str]:
    """Every run of 2+ non-black cells of a grid, across then down, as text."""
    out = []
    for g in (grid, grid.T):
        for row in g:
            text = "".join(letters[v - 1] if v else "#" for v in row)
            out += [w for w in text.split("#") if len(w) >= 2]
    return out


def test_fill_entries_are_distinct_list_words_at_the_floor(english, wordnet_phrases):
    tables, _, config, root = english
    s = FillSettings()
    words = open_lexicon("default", config, root).words
    allowed = set(words.filter(pl.col("frequency").fill_null(0) >= s.min_frequency)["word"].to_list())
    allowed |= wordnet_phrases  # WordNet's phrases (at a loss) are entries too
    allowed |= set(constructors.open_list().words["word"].to_list())  # and the constructors' list (default)
    pattern = read_pattern(EASY, tables.alphabet)
    result = fill(pattern, tables, s, seed=1, progress=False)
    found = grid_words(result.grid, tables.alphabet.letters)
    assert sorted(found) == sorted(result.words)  # the grid's runs are the reported entries
    assert len(found) == len(slots(pattern != 0, min_length=2)) == 78
    assert len(set(found)) == len(found)
    assert all(w in allowed for w in found)
    assert all(tables.score(w) >= s.min_score for w in found)


def test_fill_holds_no_two_forms_of_one_word(english):
    """WordNet's base forms (read here directly) of the entries of English fills never meet: no SEE
    with SEES, no SIT with SAT; the tables' stems are WordNet's (SEES -> see, SAT -> sit)."""
    from puzzlesearch.lexicon.wordinfo import load_wordnet

    tables = english[0]
    assert tables.stem_map["sees"] == "see" and "sit" in tables.stem_map["sat"].split("|")
    wn = load_wordnet()
    pattern = read_pattern(EASY, tables.alphabet)
    for seed in (0, 5):  # seeds whose fills held AGE and AGES before the rule
        words = fill(pattern, tables, FillSettings(), seed=seed, progress=False).words
        forms = [{w, *(b for b, _, _ in wn.bases(w))} for w in words]
        assert not any(forms[i] & forms[j] for i in range(len(words)) for j in range(i + 1, len(words)))


def test_fill_kernel_gives_the_previous_kernels_fill(english):
    tables = english[0]
    pattern = read_pattern(EASY, tables.alphabet)
    settings = FillSettings(first_nodes=50)
    for seed in (0, 2):
        new = fill(pattern, tables, settings, seed=seed, progress=False)
        old = crossword_fill.fill(pattern, tables, settings, seed=seed, progress=False)
        assert new.words == old.words and new.nodes == old.nodes and new.restarts == old.restarts


def test_pattern_fill_gets_clues_without_its_answers(english, tmp_path):
    tables, language, _, _ = english
    s = FillSettings()
    result = fill(read_pattern(EASY, tables.alphabet), tables, s, seed=0, progress=False)
    paths = write_filled(
        result, language, tmp_path / "f.ipuz", tmp_path / "f.html", tmp_path / "f.json", s, clue=tables.clue
    )
    assert all(p.exists() for p in paths)
    doc = json.loads((tmp_path / "f.ipuz").read_text())
    sol = doc["solution"]
    clued = 0
    for direction in ("Across", "Down"):
        for item in doc["clues"][direction]:
            r, c = next((i, j) for i, row in enumerate(doc["puzzle"]) for j, v in enumerate(row) if v == item["number"])
            dr, dc = (0, 1) if direction == "Across" else (1, 0)
            answer = ""
            while r < 15 and c < 15 and sol[r][c] != "#":
                answer += sol[r][c].lower()
                r, c = r + dr, c + dc
            if item["clue"]:
                clued += 1
                assert answer not in item["clue"].lower()
    summary = json.loads((tmp_path / "f.json").read_text())
    assert clued == summary["clued"] == len(result.words) - len(summary["unclued"])
    assert clued >= 1  # fill may place unclued entries (the constructors' list): it lists them


@pytest.mark.parametrize("k", [0, 1, 2, 15, 16, 17, 33, 200, 1000])
def test_value_order_sort_is_numpys_stable_argsort(k):
    """The fill's allocation-free sort orders (score, word) pairs as np.argsort(kind="mergesort")."""
    from puzzlesearch.crossword._kernels.fill import _sort_stable

    rng = np.random.default_rng(k)
    scores = rng.integers(0, 7, size=k).astype(np.float64)  # many ties: stability shows
    start = 5
    cand = np.full(k + start + 3, -1, dtype=np.int64)
    cand[start : start + k] = rng.permutation(k)
    want = cand[start : start + k][np.argsort(scores, kind="mergesort")]
    got_scores, got = scores.copy(), cand.copy()
    _sort_stable(got_scores, got, start, k, np.zeros(k), np.zeros(k, dtype=np.int64))
    assert got[start : start + k].tolist() == want.tolist()
    assert got_scores.tolist() == sorted(scores.tolist())
    assert (got[:start] == -1).all() and (got[start + k :] == -1).all()


def _runs_of_schedule(settings, seed, attempts=400):
    """(Run, was it a proof) of each attempt of a fill whose attempts all spend their whole limit."""
    from puzzlesearch.crossword.fill import Schedule

    plan, out = Schedule(settings, seed, last_conflict=True), []
    while plan.nodes < settings.max_nodes and len(out) < attempts:
        run = plan.next_run()
        out.append((run, plan.proof))
        plan.spent(run.node_limit)
    return out, plan


def test_schedule_gives_the_proofs_their_share_and_keeps_the_restarts():
    """Complete searches take about proof_share of the nodes, with doubling limits and their own
    seeds; the restarts between them are the restarts-only schedule's, attempt for attempt."""
    from puzzlesearch.crossword.fill import PROOF_NOISE, luby

    base = FillSettings(first_nodes=100, max_nodes=2_000_000, noise=0.3)
    only, _ = _runs_of_schedule(base.replace(proof_share=0.0), seed=3)
    assert not any(p for _, p in only)
    assert [r.node_limit for r, _ in only[:8]] == [100 * luby(i) for i in range(1, 9)]  # 1 1 2 1 1 2 4 1
    for share in (0.3, 0.5, 0.9):
        mixed, plan = _runs_of_schedule(base.replace(proof_share=share), seed=3)
        restarts = [r for r, p in mixed if not p]
        proofs = [r for r, p in mixed if p]
        assert restarts == [r for r, _ in only[: len(restarts)]]
        assert [r.node_limit for r in proofs[:-1]] == [100 * 2**i for i in range(len(proofs) - 1)]
        assert len(proofs) >= 5 and all(r.noise == PROOF_NOISE and r.use_lc and r.use_cbj for r in proofs)
        assert not {r.seed for r in proofs} & {r.seed for r in restarts} and len({r.seed for r in proofs}) == len(
            proofs
        )
        assert not mixed[0][1]  # a restart first: easy patterns fill there
        proof_nodes = sum(r.node_limit for r in proofs)
        assert proof_nodes <= share * plan.nodes + proofs[-1].node_limit
        assert proof_nodes >= share * plan.nodes - 2 * proofs[-1].node_limit - restarts[-1].node_limit


def test_a_pattern_without_fill_at_the_floor_is_proved(english):
    """The stair-step pattern has no fill at the default floor: the fill says so after a complete
    search, naming the floor, instead of running to its node budget."""
    from puzzlesearch.crossword.fill import NoFill

    _, _, config, root = english
    own = copy.deepcopy(config)
    own["crossword"]["quality"]["constructors"] = False  # our own scores: the list fills this pattern
    tables, _ = open_language("en", own, root, 0, min_score=50, min_entry=3)
    pattern = read_pattern(EASY.with_name("stairs.txt"), tables.alphabet)
    proved = r"cannot be filled with lexicon 'default' at score >= 50 and no two forms of one word \(a complete search"
    with pytest.raises(NoFill, match=proved):
        fill(pattern, tables, FillSettings(min_score=50), 0, progress=False)
    with pytest.raises(NoFill, match=r"at score >= 50 \(a complete search.*lower crossword.fill.min_score or"):
        fill(pattern, tables, FillSettings(min_score=50, distinct_stems=False), 0, progress=False)


def test_the_warm_up_compiles_for_a_real_fills_types(english, monkeypatch):
    """warm_up_fill compiles the search loop in a child over empty stand-ins before the word tables
    exist; a fill finds that compile in numba's cache only if the loop's arguments have the same types."""
    from puzzlesearch.crossword import fill as fillmod
    from puzzlesearch.crossword._kernels import fill as kernel

    seen = []
    real_search = kernel.fill_search

    def spy(*args):
        seen.append(kernel.fill_loop_args(*args))
        return real_search(*args)

    monkeypatch.setattr(kernel, "fill_search", spy)
    tables = english[0]
    fill(read_pattern(EASY, tables.alphabet), tables, FillSettings(), seed=3, progress=False)
    struct, words, weights = fillmod.stand_in_fill()
    buffers = kernel.new_buffers(struct, words, 1)
    empty = np.zeros(0, dtype=np.int64)
    stand_in = kernel.fill_loop_args(
        struct, words, weights, buffers, empty, empty.copy(), fillmod.Run(1, 0.0, 0, True, True)
    )
    real = seen[-1]  # (the first call is the warm-up's empty problem)
    assert len(seen) >= 2
    assert [numba.typeof(a) for a in stand_in] == [numba.typeof(a) for a in real]
