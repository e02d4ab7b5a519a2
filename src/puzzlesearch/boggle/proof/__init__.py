"""Proofs of the best boards of a shape by branch and bound.

Read classes -> partition -> tree -> prove -> settings -> cli:
- `classes`: board classes (a letter set per cell), the split order, canonical boards.
- `partition`: letter partitions per cell kind (corner, edge, centre), the class space of
  a shape and its canonical class list under the board symmetries (Burnside's count).
- `tree`: the orderly tree of a class in a compact arena and its force/merge branch and
  bound (numba kernels in `_kernels/arena.py`, `build.py`, `force.py`), the default engine;
  the replaced orderly bound from the root is puzzlesearch.baselines.boggle_orderly (its oracle).
- `prove`: shards (ranges of the class list) with progress files, shard tables, the
  gather, the certificate, and samples projecting a proof's cost.
- `settings`: `ProofSettings` (boggle.proof keys of the schema, one shape's values) and
  the shard jobs' resources from the measured cost per class.
- `cli`: `boggle prove`, `prove-shard`, `prove-gather`, `prove-sample`, `bound`.
"""
