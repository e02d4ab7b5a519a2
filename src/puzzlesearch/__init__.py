"""puzzlesearch: find optimal word-game and puzzle instances."""

__version__ = "0.1.0"
