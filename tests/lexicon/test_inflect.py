"""The English inflector against a table of forms from English grammar (regular and irregular)."""

from __future__ import annotations

import pytest

from puzzlesearch.lexicon import inflect
from puzzlesearch.lexicon.inflect import (
    COMPARATIVE,
    ING,
    PARTICIPLE,
    PAST,
    PLURAL,
    SUPERLATIVE,
    THIRD,
    Inflector,
)
from puzzlesearch.lexicon.wordinfo import load_wordnet

# (base, form, expected): the grammar's answers, written by hand
FORMS = [
    ("cat", PLURAL, "cats"),
    ("box", PLURAL, "boxes"),
    ("church", PLURAL, "churches"),
    ("city", PLURAL, "cities"),
    ("day", PLURAL, "days"),
    ("fireman", PLURAL, "firemen"),
    ("human", PLURAL, "humans"),
    ("mouse", PLURAL, "mice"),
    ("goose", PLURAL, "geese"),
    ("leaf", PLURAL, "leaves"),
    ("potato", PLURAL, "potatoes"),
    ("child", PLURAL, "children"),
    ("ice cream", PLURAL, "ice creams"),
    ("guide", THIRD, "guides"),
    ("carry", THIRD, "carries"),
    ("push", THIRD, "pushes"),
    ("go", THIRD, "goes"),
    ("have", THIRD, "has"),
    ("be", THIRD, "is"),
    ("give_up", THIRD, "gives up"),
    ("guide", PAST, "guided"),
    ("carry", PAST, "carried"),
    ("play", PAST, "played"),
    ("stop", PAST, "stopped"),
    ("run", PAST, "ran"),
    ("go", PAST, "went"),
    ("teach", PAST, "taught"),
    ("sing", PAST, "sang"),
    ("be", PAST, "was"),
    ("go", PARTICIPLE, "gone"),
    ("take", PARTICIPLE, "taken"),
    ("show", PARTICIPLE, "shown"),
    ("show", PAST, "showed"),
    ("sing", PARTICIPLE, "sung"),
    ("teach", PARTICIPLE, "taught"),
    ("guide", ING, "guiding"),
    ("see", ING, "seeing"),
    ("die", ING, "dying"),
    ("stop", ING, "stopping"),
    ("play", ING, "playing"),
    ("fast", COMPARATIVE, "faster"),
    ("nice", COMPARATIVE, "nicer"),
    ("happy", COMPARATIVE, "happier"),
    ("big", COMPARATIVE, "bigger"),
    ("good", COMPARATIVE, "better"),
    ("bad", COMPARATIVE, "worse"),
    ("fast", SUPERLATIVE, "fastest"),
    ("big", SUPERLATIVE, "biggest"),
    ("large", SUPERLATIVE, "largest"),
    ("good", SUPERLATIVE, "best"),
    ("careful", SUPERLATIVE, "most careful"),
    ("beautiful", COMPARATIVE, "more beautiful"),
]


@pytest.fixture(scope="module")
def inflector() -> Inflector:
    return Inflector.from_exceptions(load_wordnet().exceptions)


@pytest.mark.parametrize(("base", "form", "want"), FORMS)
def test_inflector_on_regular_and_irregular_forms(inflector, base, form, want):
    assert inflector.inflect(base, form) == want


def test_regular_rules_alone_and_the_exceptions_they_miss():
    assert inflect.regular("mouse", PLURAL) == "mouses"  # the rule alone; mice comes from noun.exc
    assert inflect.regular("stop", PAST) == "stoped"  # doubling comes from verb.exc
    assert inflect.regular("city", PLURAL) == "cities" and inflect.regular("tie", ING) == "tying"


def test_form_of_names_exception_entries():
    assert inflect.form_of("mice", "mouse", "noun") == PLURAL
    assert inflect.form_of("went", "go", "verb") == PAST
    assert inflect.form_of("gone", "go", "verb") == PARTICIPLE
    assert inflect.form_of("running", "run", "verb") == ING
    assert inflect.form_of("has", "have", "verb") == THIRD
    assert inflect.form_of("best", "good", "adj") == SUPERLATIVE
    assert inflect.form_of("bigger", "big", "adj") == COMPARATIVE
