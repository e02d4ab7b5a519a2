"""What every cube kernel shares: the clock, cache prefetches, and the packed tables' 2-bit entries.

The optimal solver's big, bound and coset tables hold distances modulo 3 in 2 bits (EMPTY:
not reached yet), four entries a byte. A search knows the exact distance of its parent, so
the child's mod-3 value tells whether it is one less, equal or one more (Kociemba's
RubikOptimal scheme): next_depth.
"""

from __future__ import annotations

import time

import numpy as np
from llvmlite import ir
from numba import njit, objmode, types
from numba.core import cgutils
from numba.extending import intrinsic

EMPTY = 3  # a 2-bit entry not reached yet


@njit(cache=True)
def clock():
    """time.perf_counter() (numba has no clock, so in object mode: call it rarely)."""
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


PREFETCH_READ, PREFETCH_KEEP, PREFETCH_DATA = 0, 3, 1  # llvm.prefetch: a read, keep in all levels, data


def _prefetch_codegen(context, builder, signature, args):
    """llvm.prefetch of the element at args[1:] of the array args[0]."""
    aryty = signature.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    index = [context.cast(builder, v, t, types.intp) for v, t in zip(args[1:], signature.args[1:])]
    ptr = cgutils.get_item_pointer(context, builder, aryty, ary, index, wraparound=False)
    i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
    fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
    flags = (i32(PREFETCH_READ), i32(PREFETCH_KEEP), i32(PREFETCH_DATA))
    builder.call(fn, [builder.bitcast(ptr, i8p), *flags])
    return context.get_dummy_value()


@intrinsic
def prefetch(typingctx, arr, row, col):
    """Ask the CPU to fetch arr[row, col]'s cache line (llvm.prefetch; no fault, no result)."""
    return types.void(arr, row, col), _prefetch_codegen


@intrinsic
def prefetch_flat(typingctx, arr, i):
    """Ask the CPU to fetch arr[i]'s cache line (a 1-d array)."""
    return types.void(arr, i), _prefetch_codegen


@njit(cache=True, inline="always")
def get_entry(table, i):
    """The 2-bit entry i of a packed table."""
    return (table[i >> 2] >> ((i & 3) << 1)) & 3


@njit(cache=True, inline="always")
def set_entry(table, i, v):
    """Set the 2-bit entry i (it must be EMPTY: bits are cleared by and-ing)."""
    table[i >> 2] &= np.uint8(255 ^ ((3 ^ v) << ((i & 3) << 1)))


@njit(cache=True, inline="always")
def next_depth(h, v):
    """The child's distance from the parent's h and the child's entry (h-1, h or h+1)."""
    d = (v - h) % 3
    return h if d == 0 else (h + 1 if d == 1 else h - 1)
