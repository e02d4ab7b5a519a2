"""The minimal DAWG: acceptance, word numbering, and minimality against a slow reference."""

from __future__ import annotations

import random
import string

import pytest

from puzzlesearch.lexicon import build_dawg


def minimal_state_count(words: list[str]) -> int:
    """States of the minimal automaton, the slow obvious way (Myhill-Nerode).

    Two prefixes share a state exactly when their sets of completions (right languages)
    are equal; the states are the distinct non-empty right languages of the prefixes.
    """
    languages = set()
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    for p in prefixes:
        languages.add(frozenset(w[len(p) :] for w in words if w.startswith(p)))
    return len(languages)


def random_words(rng: random.Random, n: int, letters: str = "abcde", max_len: int = 6) -> list[str]:
    """A sorted list of up to n distinct random words."""
    return sorted({"".join(rng.choice(letters) for _ in range(rng.randint(1, max_len))) for _ in range(n)})


def test_tiny_example_by_hand():
    d = build_dawg(["a", "ab", "tap", "taps", "top", "tops"])
    # root, after-a (final, b), sink (final), t, ta/to (share: p -> final, s), tap/top (final, s)
    assert (d.n_nodes, d.n_edges) == (6, 7)
    assert [d.index(w) for w in ["a", "ab", "tap", "taps", "top", "tops"]] == [0, 1, 2, 3, 4, 5]
    assert d.index("t") == -1 and d.index("to") == -1 and d.index("tapx") == -1
    assert d.is_prefix("to") and not d.is_prefix("tx")


@pytest.mark.parametrize("seed", range(30))
def test_node_count_is_minimal_on_random_lists(seed):
    rng = random.Random(seed)
    words = random_words(rng, rng.randint(1, 60))
    d = build_dawg(words)
    assert d.n_nodes == minimal_state_count(words)
    assert d.words() == words
    assert [d.index(w) for w in words] == list(range(len(words)))


def test_node_count_is_minimal_on_an_enable2k_sample(enable2k):
    words = enable2k.words["word"].to_list()
    sample = sorted(random.Random(7).sample(words, 2500))
    assert build_dawg(sample).n_nodes == minimal_state_count(sample)


def test_enable2k_every_word_numbered_to_its_rank(enable2k):
    words = enable2k.words["word"].to_list()
    dawg = enable2k.dawg
    assert dawg.n_words == len(words)
    assert all(dawg.index(w) == i for i, w in enumerate(words))
    assert dawg.word(12345) == words[12345]
    # Published minimal DAWG size for ENABLE is about 54k nodes.
    assert 53_000 < dawg.n_nodes < 56_000


def test_enable2k_rejects_non_words_and_proper_prefixes(enable2k):
    words = enable2k.words["word"].to_list()
    known = set(words)
    dawg = enable2k.dawg
    rng = random.Random(3)
    for _ in range(3000):
        w = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 9)))
        assert (dawg.index(w) >= 0) == (w in known)
    for w in rng.sample(words, 2000):
        for i in range(1, len(w)):
            assert (dawg.index(w[:i]) >= 0) == (w[:i] in known)
            assert dawg.is_prefix(w[:i])


def test_boggle_dawg_numbering_maps_to_word_rows(enable2k):
    table = enable2k.words
    dawg = enable2k.boggle_dawg
    keys = table.filter(table["boggle"].is_not_null()).sort("boggle")
    assert dawg.n_words == keys.height
    words = table["word"].to_list()
    for rank in random.Random(5).sample(range(dawg.n_words), 3000):
        word = words[int(dawg.word_id[rank])]
        assert dawg.index(word.replace("qu", "q")) == rank
        assert dawg.word_length[rank] == len(word)
    assert dawg.index("qeen") >= 0 and dawg.index("queen") == -1  # 'q' is the Qu face


def test_unsorted_input_is_refused():
    from puzzlesearch.errors import PuzzleError

    with pytest.raises(PuzzleError, match="not sorted"):
        build_dawg(["b", "a"])
