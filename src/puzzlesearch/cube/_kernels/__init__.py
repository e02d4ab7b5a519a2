"""Private numba kernels of the cube (plain arrays and the NamedTuples of bundles.py in and out).

bfs_bundles and bundles (the NamedTuples the kernels take) -> common -> phase_bfs, phases (the phase solvers) -> big_table, bound, coset, corners
(the optimal solver's tables) -> optimal_search (its IDA*).
"""
