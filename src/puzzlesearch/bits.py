"""numba intrinsics on int64 bit sets, shared by the kernels (one LLVM instruction each)."""

from __future__ import annotations

from numba import types
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
