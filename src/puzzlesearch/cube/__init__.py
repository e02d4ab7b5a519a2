"""Rubik's cube: Thistlethwaite, two-phase and optimal solvers over a cubie model and BFS pruning tables.

Reading order (Kociemba's layers: face -> cubie -> coordinate, then tables, search, I/O):
  model/      constants (names, sizes, moves, stop codes: defined once) -> facelets (the 54
              stickers) -> cubie (the cube as cubies: moves, parsing, validation) -> coords
              (the numbers a phase sees) -> symmetry (the 48 symmetries, classes)
  tables/     artifact (files, manifest, verified load, store: one base) -> phases
              (Thistlethwaite and two-phase move and pruning tables) -> big, bound, coset,
              corners (the optimal solver's tables)
  solvers/    thistlethwaite, twophase, optimal: orchestration in Python around the kernels
  _kernels/   private numba code: bfs_bundles, bundles (the kernels' NamedTuples, declared once), common
              (clock, 2-bit entries), phase_bfs and phases (the phase solvers' BFS and IDA*),
              big_table, bound, coset, corners (the optimal tables' BFS), optimal_search
  io (move notation, cube files) -> settings -> solve (solve and verify many cubes) -> cli
The replaced optimal kernel lives in puzzlesearch/baselines/cube_optimal_moves.py.
"""
