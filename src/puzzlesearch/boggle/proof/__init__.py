"""Proofs of the best boards of a shape by branch and bound.

Read classes -> bounds -> prove -> settings -> cli:
- `classes`: the letter partition, board classes (a letter set per cell), canonical classes
  under the board symmetries.
- `bounds`: the orderly-tree upper bound of a class and its branch and bound
  (numba kernels in `_kernels/orderly.py`), with slow pure-Python twins for tests.
- `prove`: shards of the class list, shard tables, the gather and the certificate.
- `settings`: `ProofSettings` (boggle.proof keys of the schema).
- `cli`: `boggle prove`, `prove-shard`, `prove-gather`, `bound`.
"""
