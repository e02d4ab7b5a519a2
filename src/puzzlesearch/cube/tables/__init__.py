"""The cube's tables: move and BFS pruning tables of the phase solvers, the optimal solver's big, bound, corner and coset tables.

Reading order: artifact (files, manifest, verified load, store: one base for every table) ->
phases (Thistlethwaite and two-phase tables) -> big -> bound -> coset -> corners.

The source files that shape each table are declared once, with its kind, in
puzzlesearch/kinds.py: the artifact store keys a table by their sha256 (tables/artifact.py)
and the workflow's table rules take them as inputs, so a table is rebuilt exactly when the
code that builds it changes.
"""
