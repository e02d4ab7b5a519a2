"""The crossword package's private numba kernels (plain arrays in NamedTuple bundles in, plain arrays out).

- cost.py         word hash sets and the cost of a grid's vertical words (tables, generation)
- progressive.py  the progressive search's mutation loop (search.py)
- fill.py         the bitset fill search with an undo trail (fill.py)

The fill kernel it replaced lives in puzzlesearch.baselines.crossword_fill (benchmarks, oracle tests).
"""
