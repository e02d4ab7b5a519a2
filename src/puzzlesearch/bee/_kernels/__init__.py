"""The bee package's private numba kernels (`masks`: the dense mask index, scoring every letter set)."""
