"""Rubik's cube: cubie model, coordinates, BFS pruning tables, Thistlethwaite and two-phase solvers.

Reading order: constants -> cubie (the model, parsing, validation) -> coords -> tables ->
kernels (numba IDA*) -> thistlethwaite / twophase -> io (notation) -> solve -> cli.
"""
