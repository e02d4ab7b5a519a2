"""Lexicons: word lists normalized into a word table and a minimal DAWG.

Read model -> sources -> normalize -> dawg -> artifacts -> cli (no numba kernels):
- `model`: LexiconSpec, alphabets, letter masks, Boggle keys.
- `sources`: reading a word-list file or an embedded list.
- `normalize`: the word table (words.parquet) and drop statistics.
- `dawg`: minimal DAWG with word numbering, as numpy arrays.
- `artifacts`: where a lexicon's files live; build on first use (`open_lexicon`).
- `cli`: `puzzlesearch lexicon info|lookup` and the pipeline's `build-words|build-dawg`.
"""

from puzzlesearch.lexicon.artifacts import Lexicon, lexicon_from_files, open_lexicon, read_words
from puzzlesearch.lexicon.dawg import Dawg, build_dawg
from puzzlesearch.lexicon.model import LexiconOptions, LexiconSpec, boggle_key, letter_mask

__all__ = [
    "Dawg",
    "Lexicon",
    "LexiconOptions",
    "LexiconSpec",
    "boggle_key",
    "build_dawg",
    "letter_mask",
    "lexicon_from_files",
    "open_lexicon",
    "read_words",
]
