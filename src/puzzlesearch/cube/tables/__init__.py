"""The cube's tables: move and BFS pruning tables of the phase solvers, the optimal solver's big, bound, corner and coset tables.

Reading order: artifact (files, manifest, verified load, store: one base for every table) ->
phases (Thistlethwaite and two-phase tables) -> big -> bound -> coset -> corners.

Below, the source files (under src/puzzlesearch/) that shape each table: the artifact
store keys a table by their sha256 (tables/artifact.py), and the workflow's table rules
take them as inputs (workflow/rules/common.smk), so a table is rebuilt exactly when the
code that builds it changes. Plain data: the Snakefile reads it without numba.
"""

MODEL_CODE = (
    "cube/model/constants.py",
    "cube/model/cubie.py",
    "cube/model/coords.py",
    "cube/model/symmetry.py",
)
ARTIFACT_CODE = ("cube/tables/artifact.py",)
MOVE_TABLE_CODE = MODEL_CODE + ARTIFACT_CODE + ("cube/tables/phases.py",)
PRUNE_TABLE_CODE = MOVE_TABLE_CODE + (
    "cube/_kernels/bfs_bundles.py",
    "cube/_kernels/phase_bfs.py",
    "cube/_kernels/phase_next.py",
)
PACKED_CODE = MODEL_CODE + ARTIFACT_CODE  # the 2-bit tables: shared kernels and symmetry classes
PACKED_CODE += ("cube/_kernels/common.py", "cube/_kernels/bfs_bundles.py", "cube/_kernels/big_table.py")
BIG_CODE = PACKED_CODE + ("cube/tables/big.py",)
BOUND_CODE = BIG_CODE + ("cube/_kernels/bound.py", "cube/tables/bound.py")
COSET_CODE = PACKED_CODE + ("cube/_kernels/coset.py", "cube/_kernels/coset_blocks.py", "cube/tables/coset.py")
