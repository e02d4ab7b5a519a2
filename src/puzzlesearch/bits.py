"""numba intrinsics shared by the kernels (one LLVM instruction each): int64 bit sets, a prefetch."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Set bits of an int64 (one `popcnt` instruction via LLVM's ctpop)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.int64)
        return builder.ctpop(value)

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (LLVM's cttz: one `tzcnt`)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.int64)
        return builder.cttz(value, context.get_constant(types.boolean, True))

    return sig, codegen


@intrinsic
def prefetch(typingctx, arr, index):
    """Ask the CPU to bring arr[index] into its caches (LLVM's prefetch: a hint, never a fault)."""
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None
    sig = types.void(arr, index)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])  # read, keep in all cache levels, data
        return context.get_dummy_value()

    return sig, codegen
