"""The numeric contract: every rounding rule the project uses, in one place.

The interpreter, the passes that compute constants, the NPU emitter and the
simulator all call these functions; none of them re-implements a rounding rule.
See docs/numerics.md for the rules, their sources (StableHLO, TOSA, TFLite,
ONNX Runtime) and where those references disagree.

Everything here is vectorized numpy: no Python loop runs over tensor elements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "QuantizationError",
    "apply_scale_16",
    "apply_scale_32",
    "axis_broadcast",
    "block_broadcast",
    "dequantize",
    "expressed_dtype",
    "quantize",
    "quantize_multiplier",
    "reciprocal_scale",
    "round_half_away_from_zero",
    "round_half_to_even",
    "saturate_cast",
    "storage_dtype",
    "storage_range",
    "wrap_integer",
]

MIN_SHIFT = 2
"""Smallest shift TOSA's apply_scale accepts."""
MAX_SHIFT = 62
"""Largest shift TOSA's apply_scale accepts."""

OverflowMode = Literal["error", "saturate"]


class QuantizationError(ValueError):
    """Invalid quantization parameters or an operand outside an op's domain."""


# --------------------------------------------------------------------------
# Storage types
# --------------------------------------------------------------------------


def storage_range(bits: int, signed: bool) -> tuple[int, int]:
    """Full range of a `bits`-wide integer: (-2^(b-1), 2^(b-1)-1) or (0, 2^b-1)."""
    if bits < 1 or bits > 64:
        raise QuantizationError(f"unsupported storage width: {bits} bits")
    if signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def storage_dtype(bits: int, signed: bool) -> np.dtype:
    """Smallest numpy integer dtype holding a `bits`-wide storage value."""
    for width in (8, 16, 32, 64):
        if bits <= width:
            return np.dtype(f"{'i' if signed else 'u'}{width // 8}")
    raise QuantizationError(f"unsupported storage width: {bits} bits")


def expressed_dtype(name: str) -> np.dtype:
    """numpy dtype for an MLIR float type name (f16, bf16, f32, f64)."""
    if name == "bf16":
        import ml_dtypes  # shipped with onnx, a hard dependency

        return np.dtype(ml_dtypes.bfloat16)
    try:
        return np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[name])
    except KeyError:
        raise QuantizationError(f"unsupported expressed type: {name}") from None


def saturate_cast(x: npt.ArrayLike, bits: int, signed: bool) -> np.ndarray:
    """Clamp integers (or already-rounded floats) into a storage range and narrow."""
    lo, hi = storage_range(bits, signed)
    arr = np.asarray(x)
    if arr.dtype.kind == "f":
        arr = np.where(np.isnan(arr), 0, arr)
    return np.clip(arr, lo, hi).astype(storage_dtype(bits, signed))


# --------------------------------------------------------------------------
# Rounding
# --------------------------------------------------------------------------


def wrap_integer(x: npt.ArrayLike, bits: int, signed: bool) -> np.ndarray:
    """Two's-complement wrap to a `bits`-wide integer, as MLIR's APInt truncates:
    9 as i4 is -7, 16 as ui4 is 0. Values come back in `storage_dtype(bits, signed)`."""
    arr = np.asarray(x).astype(np.int64) & ((1 << bits) - 1)
    if signed:
        arr = np.where(arr >= 1 << (bits - 1), arr - (1 << bits), arr)
    return arr.astype(storage_dtype(bits, signed))


def round_half_to_even(x: npt.ArrayLike) -> np.ndarray:
    """IEEE roundTiesToEven (StableHLO round_nearest_even, ONNX, numpy.rint)."""
    return np.rint(x)


def round_half_away_from_zero(x: npt.ArrayLike) -> np.ndarray:
    """C's round(): ties away from zero (StableHLO round_nearest_afz, TFLite's TfLiteRound)."""
    arr = np.asarray(x)
    whole = np.trunc(arr)
    frac = np.abs(arr - whole)  # exact: no rounding in x - trunc(x)
    return whole + np.sign(arr) * (frac >= arr.dtype.type(0.5))


# --------------------------------------------------------------------------
# Uniform quantization (StableHLO semantics)
# --------------------------------------------------------------------------


def axis_broadcast(values: npt.ArrayLike, rank: int, axis: int | None) -> np.ndarray:
    """Reshape per-axis parameters so they broadcast against a rank-`rank` tensor.

    `axis=None` means per-tensor: `values` must hold one element and a scalar is
    returned. Sub-channel (blockwise) parameters go through `block_broadcast`.
    """
    arr = np.asarray(values)
    if axis is None:
        if arr.size != 1:
            raise QuantizationError(f"per-tensor parameters need one value, got {arr.size}")
        return arr.reshape(())
    if not 0 <= axis < rank:
        raise QuantizationError(f"quantization axis {axis} out of range for rank {rank}")
    shape = [1] * rank
    shape[axis] = arr.size
    return arr.reshape(shape)


def block_broadcast(
    values: npt.ArrayLike, scales_shape: Sequence[int], shape: Sequence[int]
) -> np.ndarray:
    """Expand sub-channel (blockwise) parameters to a tensor of `shape`.

    `values` holds one parameter per block, laid out as `scales_shape` (same rank
    as the tensor). Along dimension d each parameter covers a block of
    `shape[d] // scales_shape[d]` consecutive elements, so element `i` uses the
    parameter at `i // block` in every dimension; a dimension with one parameter
    is shared by the whole dimension.
    """
    arr = np.asarray(values).reshape(tuple(scales_shape))
    if arr.ndim != len(shape):
        raise QuantizationError(
            f"sub-channel parameters of rank {arr.ndim} for a tensor of rank {len(shape)}"
        )
    for dim, (count, size) in enumerate(zip(arr.shape, shape, strict=True)):
        if count == 0 or size % count != 0:
            raise QuantizationError(
                f"dimension {dim} of size {size} is not a whole number of blocks of "
                f"{count} sub-channel parameters"
            )
        if count != size:
            arr = np.repeat(arr, size // count, axis=dim)
    return arr


def _params(
    values: npt.ArrayLike,
    dtype: npt.DTypeLike,
    shape: Sequence[int],
    axis: int | None,
    scales_shape: Sequence[int] | None,
) -> np.ndarray:
    """Quantization parameters shaped to broadcast against a tensor of `shape`."""
    arr = np.asarray(values, dtype=dtype)
    if scales_shape is not None:
        return block_broadcast(arr, scales_shape, shape)
    return axis_broadcast(arr, len(shape), axis)


def quantize(
    x: npt.ArrayLike,
    scales: float | Sequence[float] | np.ndarray,
    zero_points: int | Sequence[int] | np.ndarray,
    storage_min: int,
    storage_max: int,
    *,
    storage_bits: int,
    signed: bool,
    axis: int | None = None,
    expressed: str = "f32",
    scales_shape: Sequence[int] | None = None,
) -> np.ndarray:
    """StableHLO `uniform_quantize`.

    q = convert(round_nearest_even(clamp(x / scale + zero_point, storage_min, storage_max)))

    The division and addition happen in the expressed type (f32 by default), as
    the spec says, so results match a device computing in that precision. NaN
    inputs quantize to storage 0 (clamped into the storage range), as the formula
    does with `convert`'s NaN -> 0 and as upstream's interpreter does; +-inf saturate.
    Parameters are per tensor, per `axis`, or per block when `scales_shape` is
    given (sub-channel: see `block_broadcast`).
    """
    y = _scaled_clamped(
        x, scales, zero_points, storage_min, storage_max, axis, expressed, scales_shape
    )
    np.rint(y, out=y)
    _nan_to_zero(y, storage_min, storage_max)
    if storage_bits <= 16:  # integral values in the storage range: exact in any float
        return y.astype(storage_dtype(storage_bits, signed))
    return y.astype(np.float64).astype(storage_dtype(storage_bits, signed))


def quantize_to_float(
    x: npt.ArrayLike,
    scales: float | Sequence[float] | np.ndarray,
    zero_points: int | Sequence[int] | np.ndarray,
    storage_min: int,
    storage_max: int,
    *,
    storage: np.dtype,
    axis: int | None = None,
    expressed: str = "f32",
    scales_shape: Sequence[int] | None = None,
) -> np.ndarray:
    """`quantize` into a float storage type (`storage`, an ml_dtypes f8/f4 dtype).

    q = convert(clamp(x / scale + zero_point, storage_min, storage_max))

    As `quantize`, but the conversion to the storage format rounds to its nearest value
    (ties to even) instead of to an integer. NaN stays NaN in a format that has one
    (f8E5M2, f8E4M3FN) and becomes 0, clamped into the range, in one that has none
    (f4E2M1FN); +-inf saturate to the storage range.
    """
    y = _scaled_clamped(
        x, scales, zero_points, storage_min, storage_max, axis, expressed, scales_shape
    )
    if not has_nan(storage):
        _nan_to_zero(y, storage_min, storage_max)
    return y.astype(storage)


def has_nan(dtype: np.dtype) -> bool:
    """Whether a (small float) storage dtype encodes NaN: f8E5M2 and f8E4M3FN do,
    f4E2M1FN does not."""
    return bool(np.isnan(np.array(np.nan, np.float32).astype(dtype)))


def _scaled_clamped(
    x: npt.ArrayLike,
    scales: float | Sequence[float] | np.ndarray,
    zero_points: int | Sequence[int] | np.ndarray,
    storage_min: int,
    storage_max: int,
    axis: int | None,
    expressed: str,
    scales_shape: Sequence[int] | None,
) -> np.ndarray:
    """clamp(x / scale + zero_point, storage_min, storage_max), computed in the expressed
    type (a fresh array): the part of quantizing that integer and float storage share."""
    edt = expressed_dtype(expressed)
    xa = np.asarray(x, dtype=edt)
    s = _params(scales, np.float64, xa.shape, axis, scales_shape).astype(edt)
    zp = _params(zero_points, np.int64, xa.shape, axis, scales_shape).astype(edt)
    with np.errstate(over="ignore", invalid="ignore"):
        y = np.asarray(np.divide(xa, s, dtype=edt))
        y += zp  # in place: the same rounding as y + zp, one temporary fewer
        np.clip(y, edt.type(storage_min), edt.type(storage_max), out=y)
    return y


def _nan_to_zero(y: np.ndarray, storage_min: int, storage_max: int) -> None:
    """NaN -> 0, clamped into the storage range (in place)."""
    nan = np.isnan(y)
    if nan.any():
        y[nan] = min(max(0, storage_min), storage_max)


def dequantize(
    q: npt.ArrayLike,
    scales: float | Sequence[float] | np.ndarray,
    zero_points: int | Sequence[int] | np.ndarray,
    *,
    axis: int | None = None,
    expressed: str = "f32",
    scales_shape: Sequence[int] | None = None,
) -> np.ndarray:
    """StableHLO `uniform_dequantize`: (convert(q) - convert(zero_point)) * scale.

    Every step is computed in the expressed type, as the spec writes it.
    Parameters are laid out as in `quantize`.
    """
    edt = expressed_dtype(expressed)
    qa = np.asarray(q)
    s = _params(scales, np.float64, qa.shape, axis, scales_shape).astype(edt)
    zp = _params(zero_points, np.int64, qa.shape, axis, scales_shape).astype(edt)
    with np.errstate(over="ignore"):
        return (qa.astype(edt) - zp) * s


# --------------------------------------------------------------------------
# Fixed-point requantization (TOSA / TFLite / MLIR)
# --------------------------------------------------------------------------


def frexp_multiplier(scale: float, bits: int = 32) -> tuple[int, int]:
    """(M, e) with scale ~= M * 2^(e - (bits - 1)) and 2^(bits-2) <= M < 2^(bits-1): the
    mantissa rounded to bits - 1 fraction bits, ties away from zero, renormalised when it
    rounds up to 2^(bits-1). No range policy: callers decide what shifts they accept."""
    frac_bits = bits - 1
    mantissa, exponent = math.frexp(scale)
    multiplier = math.floor(mantissa * (1 << frac_bits) + 0.5)  # exact: mantissa has 53 bits
    if multiplier == 1 << frac_bits:
        multiplier //= 2
        exponent += 1
    return multiplier, exponent


def quantize_multiplier(scale: float, bits: Literal[16, 32] = 32) -> tuple[int, int]:
    """Fixed-point (multiplier, shift) with scale ~= multiplier * 2^-shift.

    The MLIR/TFLite scheme: m, e = frexp(scale); M = round(m * 2^(bits-1)) (ties
    away from zero); if M == 2^(bits-1): M /= 2, e += 1; shift = (bits-1) - e.

    TOSA accepts shifts 2..62. Out-of-range cases are explicit:
      * shift > 62 (scale < ~2^-31): M is rounded right by (shift - 62) bits and
        shift becomes 62, keeping the product exact to one rounding; if M would
        become 0 the scale is not representable and QuantizationError is raised.
      * shift < 2 (scale >= 2^(bits-3)): not representable, QuantizationError.
    """
    if bits not in (16, 32):
        raise QuantizationError(f"fixed-point multipliers are 16 or 32 bits, not {bits}")
    if not math.isfinite(scale) or scale <= 0.0:
        raise QuantizationError(f"scale must be positive and finite, got {scale!r}")
    frac_bits = bits - 1
    multiplier, exponent = frexp_multiplier(scale, bits)
    shift = frac_bits - exponent
    if shift > MAX_SHIFT:
        drop = shift - MAX_SHIFT
        multiplier = (multiplier + (1 << (drop - 1))) >> drop if drop < 64 else 0
        shift = MAX_SHIFT
        if multiplier == 0:
            raise QuantizationError(
                f"scale {scale!r} is too small for a {bits}-bit multiplier with shift <= 62"
            )
    if shift < MIN_SHIFT:
        raise QuantizationError(
            f"scale {scale!r} is too large for a {bits}-bit multiplier with shift >= 2"
        )
    return multiplier, shift


def _check_range(name: str, values: np.ndarray, lo: int, hi: int, what: str = "value") -> None:
    if values.size and (values.min() < lo or values.max() > hi):
        raise QuantizationError(f"{name}: {what} outside [{lo}, {hi}]")


def _finish(result: np.ndarray, name: str, on_overflow: OverflowMode) -> np.ndarray:
    lo, hi = storage_range(32, True)
    if on_overflow == "saturate":
        return np.clip(result, lo, hi).astype(np.int32)
    _check_range(name, result, lo, hi, "result")
    return result.astype(np.int32)


def apply_scale_32(
    value: npt.ArrayLike,
    multiplier: npt.ArrayLike,
    shift: npt.ArrayLike,
    double_round: bool,
    *,
    half_even: bool = False,
    on_overflow: OverflowMode = "error",
) -> np.ndarray:
    """TOSA `apply_scale_32` (elementwise; multiplier and shift broadcast).

    round = 1 << (shift - 1); with double_round and shift > 31, round += 1<<30
    for value >= 0 and round -= 1<<30 otherwise; result = (value*M + round) >> shift
    in 64-bit with an arithmetic shift.

    `half_even` (qdialect's HALF_EVEN_ROUND, not in TOSA 1.0) rounds a product exactly
    halfway between two results to the even one, as IEEE arithmetic and so ONNX Runtime
    do, and otherwise as SINGLE_ROUND; it excludes `double_round`.

    TOSA REQUIREs value in i32, 0 <= M < 2^31, 2 <= shift <= 62 (checked, raising
    QuantizationError) and a result in i32: `on_overflow="error"` raises when it
    is not, `"saturate"` clamps to the i32 range instead.
    """
    v = np.asarray(value, dtype=np.int64)
    m = np.asarray(multiplier, dtype=np.int64)
    s = np.asarray(shift, dtype=np.int64)
    _check_range("apply_scale_32", v, -(1 << 31), (1 << 31) - 1)
    _check_range("apply_scale_32", m, 0, (1 << 31) - 1, "multiplier")
    _check_range("apply_scale_32", s, MIN_SHIFT, MAX_SHIFT, "shift")
    if double_round and half_even:
        raise ValueError("apply_scale_32: double_round and half_even exclude each other")
    rounding = np.left_shift(np.int64(1), s - 1)
    if double_round:
        adjust = np.where(v >= 0, np.int64(1 << 30), np.int64(-(1 << 30)))
        rounding = rounding + np.where(s > 31, adjust, np.int64(0))
    product = v * m
    result = np.right_shift(product + rounding, s)
    if half_even:  # a tie rounded up to an odd result goes back down to the even one
        tie = (product & ((np.int64(1) << s) - 1)) == rounding
        result = result - (tie & (result & 1 == 1))
    return _finish(result, "apply_scale_32", on_overflow)


def apply_scale_16(
    value: npt.ArrayLike,
    multiplier: npt.ArrayLike,
    shift: npt.ArrayLike,
    *,
    on_overflow: OverflowMode = "error",
) -> np.ndarray:
    """TOSA `apply_scale_16`: (value*M + (1 << (shift-1))) >> shift, single rounding.

    value is a 48-bit integer, 0 <= M < 2^15 (TOSA's i16 multiplier is
    non-negative), 2 <= shift <= 62; the result must fit in i32.
    """
    v = np.asarray(value, dtype=np.int64)
    m = np.asarray(multiplier, dtype=np.int64)
    s = np.asarray(shift, dtype=np.int64)
    _check_range("apply_scale_16", v, -(1 << 47), (1 << 47) - 1)
    _check_range("apply_scale_16", m, 0, (1 << 15) - 1, "multiplier")
    _check_range("apply_scale_16", s, MIN_SHIFT, MAX_SHIFT, "shift")
    result = np.right_shift(v * m + np.left_shift(np.int64(1), s - 1), s)
    return _finish(result, "apply_scale_16", on_overflow)


def reciprocal_scale(count: int) -> tuple[int, int]:
    """TOSA's (multiplier, shift) approximating 1 / count, as AVG_POOL2D divides by it.

    k = ceil(log2(count)); multiplier = (((1 << 30) + 1) << k) // count, in
    [2^30, 2^31); shift = 30 + k. Used with apply_scale_32 and single rounding.
    """
    if count < 1:
        raise QuantizationError(f"reciprocal_scale needs a positive count, got {count}")
    k = (count - 1).bit_length()
    return (((1 << 30) + 1) << k) // count, 30 + k
