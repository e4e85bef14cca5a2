"""Semantics of popcnt, count_leading_zeros, tan, is_finite, reduce_precision and
the complex-number ops (complex, real, imag).

Bit counts use the element type's width (an i4 held in an int8 array counts 4
bits); reduce_precision rounds the mantissa to nearest-even and then clamps the
exponent exactly as the spec (and XLA) do, on the float's bits.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo_numeric as sn
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.values import InterpreterError


def _bit_width(t: Attribute) -> int:
    e = ht.element_type(t)
    return e.width.data if isinstance(e, IntegerType) else 8 * v.dtype_of(t).itemsize


def _unsigned_bits(x: np.ndarray, width: int) -> np.ndarray:
    """The two's-complement bit patterns of `x` in `width` bits, as uint64."""
    return x.astype(np.int64).astype(np.uint64) & np.uint64((1 << width) - 1)


def popcount(x: np.ndarray, width: int) -> np.ndarray:
    bits = _unsigned_bits(x, width)
    count = np.zeros(bits.shape, dtype=np.int64)
    for i in range(width):
        count += ((bits >> np.uint64(i)) & np.uint64(1)).astype(np.int64)
    return count


def count_leading_zeros(x: np.ndarray, width: int) -> np.ndarray:
    bits = _unsigned_bits(x, width)
    count = np.full(bits.shape, width, dtype=np.int64)
    for i in range(width):  # the highest set bit decides
        set_ = ((bits >> np.uint64(i)) & np.uint64(1)) == 1
        count = np.where(set_, width - 1 - i, count)
    return count


@implements(sn.PopcntOp, sn.CountLeadingZerosOp)
def _bit_count(
    interp: Interpreter, op: sn.PopcntOp | sn.CountLeadingZerosOp, args: Arrays, types: Types
) -> Arrays:
    width = _bit_width(op.operands[0].type)
    fn = popcount if isinstance(op, sn.PopcntOp) else count_leading_zeros
    return [fn(args[0], width).astype(v.dtype_of(types[0]))]


@implements(sn.TanOp)
def _tan(interp: Interpreter, op: sn.TanOp, args: Arrays, types: Types) -> Arrays:
    return [np.tan(args[0]).astype(v.dtype_of(types[0]))]


@implements(sn.IsFiniteOp)
def _is_finite(interp: Interpreter, op: sn.IsFiniteOp, args: Arrays, types: Types) -> Arrays:
    return [np.isfinite(args[0])]


@implements(sn.ComplexOp)
def _complex(interp: Interpreter, op: sn.ComplexOp, args: Arrays, types: Types) -> Arrays:
    dtype = v.dtype_of(types[0])
    return [(args[0].astype(dtype) + 1j * args[1].astype(dtype)).astype(dtype)]


@implements(sn.RealOp, sn.ImagOp)
def _part(interp: Interpreter, op: sn.RealOp | sn.ImagOp, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    part = np.real(x) if isinstance(op, sn.RealOp) else np.imag(x)
    return [np.asarray(part).astype(v.dtype_of(types[0]))]


# (exponent bits, mantissa bits) of the float formats the interpreter holds.
_FORMATS = {2: (5, 10), 4: (8, 23), 8: (11, 52)}


def reduce_precision(x: np.ndarray, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """Round `x` to a float with the given exponent and mantissa widths, kept in x's type.

    Mantissa: round to nearest, ties to even, on the bits. Exponent: values above the
    reduced range become +-inf, values at or below its minimum normal exponent +-0.
    NaN stays NaN when mantissa bits remain; with none, it becomes +-inf.
    """
    if x.dtype.kind != "f":
        raise InterpreterError(f"reduce_precision runs on floats, not {x.dtype}")
    if str(x.dtype) == "bfloat16":
        src_e, src_m, nbytes = 8, 7, 2
    else:
        nbytes = x.dtype.itemsize
        src_e, src_m = _FORMATS[nbytes]
    width = 8 * nbytes
    udtype = np.dtype(f"u{nbytes}")
    full = (1 << width) - 1
    bits = x.view(udtype).astype(np.uint64)
    if mantissa_bits < src_m:
        shift = src_m - mantissa_bits
        last_bit_mask = 1 << shift
        base_bias = (last_bit_mask >> 1) - 1
        last_bit = (bits & np.uint64(last_bit_mask)) >> np.uint64(shift)
        bias = last_bit + np.uint64(base_bias)
        truncation = full & ~(last_bit_mask - 1)
        bits = ((bits + bias) & np.uint64(full)) & np.uint64(truncation)
    sign_mask = 1 << (width - 1)
    exp_mask = ((1 << src_e) - 1) << src_m
    signed_zero = bits & np.uint64(sign_mask)
    signed_inf = signed_zero | np.uint64(exp_mask)
    if exponent_bits < src_e:
        bias_src = (1 << (src_e - 1)) - 1
        bias_reduced = (1 << (exponent_bits - 1)) - 1
        max_exp = bias_src + bias_reduced
        min_exp = bias_src - bias_reduced
        exponent = bits & np.uint64(exp_mask)
        bits = np.where(
            exponent > np.uint64(max_exp << src_m),
            signed_inf,
            np.where(exponent <= np.uint64(min_exp << src_m), signed_zero, bits),
        )
    out = bits.astype(udtype).view(x.dtype)
    nan = np.isnan(x)
    if mantissa_bits > 0:
        return np.where(nan, x, out)
    original_sign = x.view(udtype).astype(np.uint64) & np.uint64(sign_mask)
    nan_to_inf = (original_sign | np.uint64(exp_mask)).astype(udtype).view(x.dtype)
    return np.where(nan, nan_to_inf, out)


@implements(sn.ReducePrecisionOp)
def _reduce_precision(
    interp: Interpreter, op: sn.ReducePrecisionOp, args: Arrays, types: Types
) -> Arrays:
    return [
        reduce_precision(
            np.asarray(args[0]), op.exponent_bits.value.data, op.mantissa_bits.value.data
        ).astype(v.dtype_of(types[0]))
    ]
