"""Word knowledge read from installed packages: the fast paths give what the packages themselves give."""

from __future__ import annotations

import random

from puzzlesearch.lexicon.wordinfo import FREQUENCY_LANG, FREQUENCY_LIST, load_wordnet, zipf_reader

ODD = ["up in the air", "don't", "a1b", "Paris", "", "naïve", "x", "rock-and-roll", "ABC", "zzzzqx"]


def test_zipf_reader_gives_wordfreqs_own_zipf_frequency():
    """The one-token look-up equals wordfreq.zipf_frequency on 20,000 of its words (seeded), unknown words
    and strings that are not one plain token."""
    import wordfreq

    table = wordfreq.get_frequency_dict(FREQUENCY_LANG, wordlist=FREQUENCY_LIST)
    sample = random.Random(59).sample(sorted(table), 20_000) + ODD
    zipf = zipf_reader()
    differ = [w for w in sample if zipf(w) != wordfreq.zipf_frequency(w, FREQUENCY_LANG, wordlist=FREQUENCY_LIST)]
    assert differ == []


def test_bases_kept_once_found_are_the_bases_worked_out_afresh():
    """WordNet.bases (kept per word) equals the morphy and exception rules applied anew, asked twice."""
    wn = load_wordnet()
    words = ["largest", "geese", "steers", "ran", "aloe", "greeted", "glasses", "better", "xyzzy", "pointsout"]
    for word in words + words:
        assert wn.bases(word) == list(wn._find_bases(word))
    assert ("large", "adj", "superlative") in wn.bases("largest")
    assert ("goose", "noun", "plural") in wn.bases("geese")
