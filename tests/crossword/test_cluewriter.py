"""English clues a solver gets: commonest sense, inflected synonyms, short glosses, blanks, phrases.

Known cases are checked against what a solver expects (LARGEST: a superlative synonym such as
Biggest); the length targets and the answer-form rule are checked on a sample of common words
(ENABLE2K words with wordfreq Zipf >= 3, and WordNet's phrases), restating the rule on plain strings.
"""

from __future__ import annotations

import random
import re
import statistics

import pytest

from puzzlesearch.crossword import clues, cluewriter
from puzzlesearch.lexicon.wordinfo import Sense, load_wordnet, zipf_reader

SAMPLE_WORDS, SAMPLE_PHRASES, SEED = 2000, 200, 59


@pytest.fixture(scope="module")
def wn():
    return load_wordnet()


def letters_form(token: str, answer: str) -> bool:
    """The documented answer-form rule on plain strings: first min(4,len) letters, a 3+ start, containment."""
    k = min(4, len(answer))
    return (
        token[:k] == answer[:k]
        or (len(token) >= 3 and answer.startswith(token))
        or (len(answer) >= 4 and answer in token)
    )


def test_superlative_gets_a_superlative_synonym(wn):
    assert clues.english_clue(wn, "largest") in {"Biggest", "Greatest"}
    assert clues.english_clue(wn, "bigger") in {"Larger", "Greater"}


def test_third_person_gets_a_third_person_synonym(wn):
    # steer (verb, its commonest sense): maneuver, direct, point, head, guide, ...
    assert clues.english_clue(wn, "steers") in {"Guides", "Directs", "Heads", "Maneuvers", "Manoeuvres"}
    assert clues.english_clue(wn, "steered") in {"Guided", "Directed", "Headed", "Maneuvered"}


def test_commonest_sense_first(wn):
    """GLASSES is its own noun (spectacles), not glass the material; the old gloss of LARGEST was a rare sense."""
    assert clues.english_clue(wn, "glasses") == "Spectacles"
    assert "lofty" not in clues.english_clue(wn, "largest").lower()


def test_phrases_are_clued_without_their_words(wn):
    clue = clues.english_clue(wn, "upintheair")
    assert "uncertain" in clue.lower() and "air" not in clue.lower()
    for word in ("rankandfile", "giveup"):
        text = clues.english_clue(wn, word)
        assert text and len(text) <= cluewriter.MAX_CLUE, word


def test_fill_in_the_blank_from_the_gloss_example():
    gloss = 'direct (oneself) somewhere; "Steer clear of him"'
    assert cluewriter.fill_in_blank(gloss, "steer") == "___ clear of him"
    assert cluewriter.fill_in_blank(gloss, "steered") == ""  # the entry as written, never another form
    assert cluewriter.fill_in_blank('a word; "one two three four five six seven eight nine steer ten"', "steer") == ""


def test_definitions_are_cut_to_phrases_without_articles(wn):
    noun = Sense("noun", ("cat",), "a feline mammal usually having thick soft fur and no ability to roar")
    assert cluewriter.short_glosses(wn, noun)[0] == (
        "Feline mammal usually having thick soft fur and no ability to roar",
        False,
    )
    assert ("Feline mammal", False) in cluewriter.short_glosses(wn, noun)
    geese = Sense("noun", ("goose",), "web-footed long-necked typically gregarious migratory aquatic birds")
    assert all(
        not t.endswith("long-necked") for t, _ in cluewriter.short_glosses(wn, geese)
    )  # a noun's cut ends in a noun


def test_glosses_cut_before_their_example_are_not_clues(wn):
    """WordNet glosses whose example or parenthetical was taken out (dented, attend, mimic)."""
    assert cluewriter.short_glosses(wn, Sense("adj", ("dented",), "of metal e.g.")) == []
    attend = Sense("verb", ("attend",), "be present at (meetings, church services, university), etc.")
    assert cluewriter.short_glosses(wn, attend) == []
    win = Sense("verb", ("win",), "obtain advantages, such as points, etc.")
    assert cluewriter.short_glosses(wn, win) == [  # "etc" is judged on the word before it
        ("Obtain advantages, such as points, etc", False),
        ("Obtain advantages", False),  # a comma cut holding a comma is not tried (wish, long of covet)
    ]
    tube = Sense(
        "adj", ("tubular",), "of or relating to or occurring in a tube such as e.g. a blood vessel and more words"
    )
    assert not [t for t, _ in cluewriter.short_glosses(wn, tube) if t.endswith(("e.g", "as"))]  # never cut at e.g.
    mimic = Sense("verb", ("mimic",), "imitate (a person or manner), especially for satirical effect")
    assert cluewriter.short_glosses(wn, mimic) == [("Imitate, especially for satirical effect", False)]


def test_spelling_variants_are_not_synonyms():
    assert cluewriter.variant("disk", "disc") and cluewriter.variant("sabre", "saber")
    assert cluewriter.variant("metres", "meters") and not cluewriter.variant("steer", "guide")


def test_length_targets_and_answer_form_rule_on_common_words(wn, shared_dir):
    """Median <= 30 and max <= 60 characters, every clue passes the answer-form rule, and a word gets
    a clue whenever one of its senses' definitions (first clause, up to 60 characters) passes the rule."""
    zipf = zipf_reader()
    words = [w for w in (shared_dir / "wordlists" / "enable2k.txt").read_text().split() if 3 <= len(w) <= 15]
    rng = random.Random(SEED)
    common = [w for w in words if zipf(w) >= 3.0]
    sample = rng.sample(common, SAMPLE_WORDS) + rng.sample(wn.phrase_words(), SAMPLE_PHRASES)
    got = {w: clues.english_clue(wn, w) for w in sample}
    lengths = [len(c) for c in got.values() if c]
    assert statistics.median(lengths) <= 30 and max(lengths) <= 60
    for word, clue in got.items():
        phrase = wn.phrase_of(word)
        if phrase:
            forms, lemmas = (
                [word, *(t for t in phrase.split("_") if len(t) >= 3 and t not in wn.function_words)],
                [phrase],
            )
        else:
            forms = [word] + [b for b, _, _ in wn.bases(word)]
            lemmas = forms
        for token in re.findall("[a-z]+", clue.lower()):
            assert not any(letters_form(token, f) for f in forms), (word, clue)
        definitions = [
            s.gloss.split(";")[0].strip()
            for lemma in lemmas
            for s in wn.senses.get(lemma, ())
            if lemma in s.lemmas and "(" not in s.gloss.split(";")[0]
        ]
        clueable = any(
            3 <= len(d) <= 60 and not any(letters_form(t, f) for t in re.findall("[a-z]+", d.lower()) for f in forms)
            for d in definitions
        )
        assert clue or not clueable, word
