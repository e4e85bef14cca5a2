"""Semantics of the TOSA-like ops, as the TOSA v1.0 specification's pseudocode defines them.

Integer arithmetic is exact (int64 intermediates); fixed-point scaling is
`numerics.apply_scale_32` / `apply_scale_16`, average pooling's division is
`numerics.reciprocal_scale`. Where the spec says REQUIRE, a violation is an
error, not a silent wrap. docs/tosa.md lists the choices.
"""

from __future__ import annotations

import numpy as np

from qdialect import numerics
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import tosa
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.stablehlo_ops import exact_matmul
from qdialect.interpreter.values import InterpreterError
from qdialect.interpreter.windows import pad_array, windows


def _range(dtype: np.dtype, unsigned: bool = False) -> tuple[int, int]:
    bits = dtype.itemsize * 8
    return numerics.storage_range(bits, signed=not unsigned and dtype.kind == "i")


def _wrap(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return x.astype(np.int64).astype(dtype)


def _scalar(a: np.ndarray) -> int:
    """The value of a one-element operand (a zero point, a shift); an unranked operand may
    arrive with any number of elements at run time."""
    flat = np.asarray(a).reshape(-1)
    if flat.size != 1:
        raise InterpreterError(
            f"expected a one-element zero point or shift, got shape {list(a.shape)}"
        )
    return int(flat[0])


@implements(tosa.ConstOp, quantized="none")
def _const(interp: Interpreter, op: tosa.ConstOp, args: Arrays, types: Types) -> Arrays:
    return [v.from_dense(op.values, types[0])]


@implements(tosa.ConstShapeOp, quantized="none")
def _const_shape(interp: Interpreter, op: tosa.ConstShapeOp, args: Arrays, types: Types) -> Arrays:
    return [np.array(op.shape(), np.int64)]


@implements(tosa.AddOp, tosa.SubOp, quantized="none")
def _add_sub(
    interp: Interpreter, op: tosa.AddOp | tosa.SubOp, args: Arrays, types: Types
) -> Arrays:
    a, b = (x.astype(np.int64) if x.dtype.kind in "iu" else x for x in args)
    out = a + b if isinstance(op, tosa.AddOp) else a - b
    return [_wrap(out, v.dtype_of(types[0])) if out.dtype.kind in "iu" else out]


@implements(tosa.MaximumOp, tosa.MinimumOp, quantized="none")
def _max_min(
    interp: Interpreter, op: tosa.MaximumOp | tosa.MinimumOp, args: Arrays, types: Types
) -> Arrays:
    return [(np.maximum if isinstance(op, tosa.MaximumOp) else np.minimum)(*args)]


@implements(tosa.MulOp, quantized="none")
def _mul(interp: Interpreter, op: tosa.MulOp, args: Arrays, types: Types) -> Arrays:
    a, b, shift = args
    s = _scalar(shift)
    product = a.astype(np.int64) * b.astype(np.int64)
    if s > 0:
        product = (product + (1 << (s - 1))) >> s
    lo, hi = _range(np.dtype(np.int32))
    if product.size and (product.min() < lo or product.max() > hi):
        raise InterpreterError("tosa.mul result does not fit in i32 (a TOSA REQUIRE)")
    return [product.astype(np.int32)]


@implements(tosa.ArithmeticRightShiftOp, quantized="none")
def _shift(
    interp: Interpreter, op: tosa.ArithmeticRightShiftOp, args: Arrays, types: Types
) -> Arrays:
    a, b = (x.astype(np.int64) for x in args)
    bits = args[0].dtype.itemsize * 8
    if b.size and (b.min() < 0 or b.max() > bits - 1):
        raise InterpreterError(f"tosa.arithmetic_right_shift amount outside 0..{bits - 1}")
    out = a >> b
    if op.flag("round"):
        out = out + np.where(b > 0, (a >> np.maximum(b - 1, 0)) & 1, 0)
    return [_wrap(out, args[0].dtype)]


@implements(tosa.LogicalLeftShiftOp, quantized="none")
def _left_shift(
    interp: Interpreter, op: tosa.LogicalLeftShiftOp, args: Arrays, types: Types
) -> Arrays:
    a, b = (x.astype(np.int64) for x in args)
    bits = args[0].dtype.itemsize * 8
    if b.size and (b.min() < 0 or b.max() > bits - 1):
        raise InterpreterError(f"tosa.logical_left_shift amount outside 0..{bits - 1}")
    return [_wrap((a << b) & ((1 << bits) - 1), args[0].dtype)]


@implements(tosa.ClzOp, quantized="none")
def _clz(interp: Interpreter, op: tosa.ClzOp, args: Arrays, types: Types) -> Arrays:
    bits = np.asarray(args[0], np.int64) & 0xFFFFFFFF
    lengths = np.zeros(bits.shape, np.int64)
    for k in range(32):  # bit_length by counting the bits below each set top bit
        lengths = np.where(bits >> k != 0, k + 1, lengths)
    return [(32 - lengths).astype(np.int32)]


@implements(tosa.NegateOp, quantized="none")
def _negate(interp: Interpreter, op: tosa.NegateOp, args: Arrays, types: Types) -> Arrays:
    x, izp, ozp = args
    dtype = v.dtype_of(types[0])
    out = -(x.astype(np.int64) - _scalar(izp)) + _scalar(ozp)
    lo, hi = _range(dtype)
    return [np.clip(out, lo, hi).astype(dtype)]


@implements(tosa.ClampOp, quantized="none")
def _clamp(interp: Interpreter, op: tosa.ClampOp, args: Arrays, types: Types) -> Arrays:
    lo = op.min_val.value.data
    hi = op.max_val.value.data
    return [np.clip(args[0], lo, hi).astype(args[0].dtype)]


@implements(tosa.CastOp, quantized="none")
def _cast(interp: Interpreter, op: tosa.CastOp, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    dtype = v.dtype_of(types[0])
    if dtype == np.bool_:
        return [x != 0]
    if x.dtype.kind == "f" and dtype.kind in "iu":
        lo, hi = _range(dtype)
        rounded = np.rint(x.astype(np.float64))  # TOSA: round to nearest, ties to even; saturate
        return [np.clip(np.where(np.isnan(rounded), 0, rounded), lo, hi).astype(dtype)]
    return [
        x.astype(np.int64).astype(dtype)
        if x.dtype.kind in "iub" and dtype.kind in "iu"
        else x.astype(dtype)
    ]


@implements(tosa.RescaleOp, quantized="none")
def _rescale(interp: Interpreter, op: tosa.RescaleOp, args: Arrays, types: Types) -> Arrays:
    x, multiplier, shift, izp, ozp = args
    out_dtype = v.dtype_of(types[0])
    # Unsigned data and its zero point are zero-extended (the signless storage holds their bits).
    value = x.astype(np.int64)
    input_zp, output_zp = _scalar(izp), _scalar(ozp)
    if op.flag("input_unsigned"):
        value = value & ((1 << (x.dtype.itemsize * 8)) - 1)
        input_zp &= (1 << (izp.dtype.itemsize * 8)) - 1
    if op.flag("output_unsigned"):
        output_zp &= (1 << (ozp.dtype.itemsize * 8)) - 1
    value = value - input_zp
    m = multiplier.astype(np.int64).reshape(-1)
    s = shift.astype(np.int64).reshape(-1)
    if not op.flag("per_channel"):
        m, s = m[:1], s[:1]
    if op.flag("scale32"):
        mode = op.rounding_mode.data
        double = mode == tosa.RoundingMode.DOUBLE_ROUND
        half_even = mode == tosa.RoundingMode.HALF_EVEN_ROUND
        scaled = numerics.apply_scale_32(value, m, s, double, half_even=half_even)
    else:
        scaled = numerics.apply_scale_16(value, m, s)
    result = scaled.astype(np.int64) + output_zp
    lo, hi = _range(out_dtype, unsigned=op.flag("output_unsigned"))
    result = np.clip(result, lo, hi)
    return [
        result.astype(np.int64).astype(out_dtype)
    ]  # unsigned results keep their bits in the signless type


@implements(tosa.ApplyScaleOp, quantized="none")
def _apply_scale(interp: Interpreter, op: tosa.ApplyScaleOp, args: Arrays, types: Types) -> Arrays:
    value, multiplier, shift = args
    mode = op.rounding_mode.data
    double = mode == tosa.RoundingMode.DOUBLE_ROUND
    half_even = mode == tosa.RoundingMode.HALF_EVEN_ROUND
    return [numerics.apply_scale_32(value, multiplier, shift, double, half_even=half_even)]


@implements(tosa.TableOp, quantized="none")
def _table(interp: Interpreter, op: tosa.TableOp, args: Arrays, types: Types) -> Arrays:
    x, table = args
    t = table.astype(np.int64)
    if x.dtype.itemsize == 1:
        return [t[x.astype(np.int64) + 128].astype(np.int8)]
    index = x.astype(np.int64) + 32768
    fraction = index & 0x7F
    index = index >> 7
    base, nxt = t[index], t[index + 1]
    return [((base << 7) + (nxt - base) * fraction).astype(np.int32)]


@implements(tosa.GatherOp, quantized="none")
def _gather(interp: Interpreter, op: tosa.GatherOp, args: Arrays, types: Types) -> Arrays:
    values, indices = args
    k = values.shape[1]
    if indices.size and (indices.min() < 0 or indices.max() >= k):
        raise InterpreterError(f"tosa.gather index outside 0..{k - 1} (a TOSA REQUIRE)")
    rows = np.arange(values.shape[0])[:, None]
    return [values[rows, indices.astype(np.int64)]]


def _centered(a: np.ndarray, zp: np.ndarray) -> np.ndarray:
    return a.astype(np.int64) - _scalar(zp)


def _conv_nhwc(x: np.ndarray, w_hwio: np.ndarray, pad, stride, dilation, groups: int) -> np.ndarray:
    """Convolution of centered NHWC input with HWIO weights (I = channels / groups), exact."""
    xp = pad_array(x, 0, [0, pad[0], pad[2], 0], [0, pad[1], pad[3], 0], [0, 0, 0, 0])
    kh, kw, ci, co = w_hwio.shape
    patches = windows(xp, (kh, kw), stride, dilation, [1, 2])  # N, OH, OW, C, KH, KW
    n, oh, ow = patches.shape[:3]
    patches = np.moveaxis(patches, 3, -1)  # N, OH, OW, KH, KW, C
    og = co // groups
    p = (
        patches.reshape(n * oh * ow, kh * kw, groups, ci)
        .transpose(2, 0, 1, 3)
        .reshape(groups, n * oh * ow, kh * kw * ci)
    )
    w = (
        w_hwio.reshape(kh * kw, ci, groups, og)
        .transpose(2, 0, 1, 3)
        .reshape(groups, kh * kw * ci, og)
    )
    out = exact_matmul(p, w)  # groups, N*OH*OW, og
    return out.reshape(groups, n, oh, ow, og).transpose(1, 2, 3, 0, 4).reshape(n, oh, ow, co)


def _finish_conv(acc: np.ndarray, bias: np.ndarray, out_type) -> np.ndarray:
    acc = acc + bias.astype(np.int64).reshape(1, 1, 1, -1)
    dtype = v.dtype_of(out_type)
    lo, hi = _range(dtype) if dtype.itemsize < 8 else (-(1 << 47), (1 << 47) - 1)
    if acc.size and (acc.min() < lo or acc.max() > hi):
        raise InterpreterError(f"convolution accumulator overflows {dtype} (a TOSA REQUIRE)")
    return acc.astype(dtype)


@implements(tosa.Conv2DOp, quantized="none")
def _conv2d(interp: Interpreter, op: tosa.Conv2DOp, args: Arrays, types: Types) -> Arrays:
    x, w, bias, izp, wzp = args
    w_hwio = _centered(w, wzp).transpose(1, 2, 3, 0)  # OHWI -> HWIO
    acc = _conv_nhwc(
        _centered(x, izp), w_hwio, op.array("pad"), op.array("stride"), op.array("dilation"), 1
    )
    return [_finish_conv(acc, bias, types[0])]


@implements(tosa.DepthwiseConv2DOp, quantized="none")
def _depthwise(
    interp: Interpreter, op: tosa.DepthwiseConv2DOp, args: Arrays, types: Types
) -> Arrays:
    x, w, bias, izp, wzp = args
    kh, kw, c, m = w.shape
    w_hwio = _centered(w, wzp).reshape(
        kh, kw, 1, c * m
    )  # group g = channel g, outputs g*M .. g*M+M-1
    acc = _conv_nhwc(
        _centered(x, izp), w_hwio, op.array("pad"), op.array("stride"), op.array("dilation"), c
    )
    return [_finish_conv(acc, bias, types[0])]


@implements(tosa.TransposeConv2DOp, quantized="none")
def _transpose_conv(
    interp: Interpreter, op: tosa.TransposeConv2DOp, args: Arrays, types: Types
) -> Arrays:
    x, w, bias, izp, wzp = args
    xc, wc = _centered(x, izp), _centered(w, wzp)  # wc: O, KH, KW, I
    n, ih, iw, _ = x.shape
    oc, kh, kw, _ = w.shape
    pad, (sy, sx) = op.array("out_pad"), op.array("stride")
    out_shape = ht.shape_of(types[0])
    assert out_shape is not None  # the verifier requires a ranked result
    acc = np.zeros(out_shape, np.int64)
    for ky in range(kh):  # a loop over kernel taps, each a whole-tensor matmul
        for kx in range(kw):
            contrib = exact_matmul(xc.reshape(1, n * ih * iw, -1), wc[:, ky, kx, :].T[None])[
                0
            ].reshape(n, ih, iw, oc)
            oy0, ox0 = pad[0] + ky, pad[2] + kx
            ys = slice(oy0, oy0 + (ih - 1) * sy + 1, sy)
            xs = slice(ox0, ox0 + (iw - 1) * sx + 1, sx)
            acc[:, ys, xs, :] += contrib
    return [_finish_conv(acc, bias, types[0])]


@implements(tosa.MatMulOp, quantized="none")
def _matmul(interp: Interpreter, op: tosa.MatMulOp, args: Arrays, types: Types) -> Arrays:
    a, b, azp, bzp = args
    return [exact_matmul(_centered(a, azp), _centered(b, bzp)).astype(v.dtype_of(types[0]))]


def _pool_windows(x: np.ndarray, op, fill) -> np.ndarray:
    pad = op.array("pad")
    xp = pad_array(x, fill, [0, pad[0], pad[2], 0], [0, pad[1], pad[3], 0], [0, 0, 0, 0])
    view = windows(
        xp, op.array("kernel"), op.array("stride"), (1, 1), [1, 2]
    )  # N, OH, OW, C, KH, KW
    return view.reshape(*view.shape[:4], -1)


@implements(tosa.MaxPool2dOp, quantized="none")
def _max_pool(interp: Interpreter, op: tosa.MaxPool2dOp, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    fill = np.iinfo(x.dtype).min if x.dtype.kind in "iu" else -np.inf
    return [_pool_windows(x, op, fill).max(axis=-1)]


@implements(tosa.AvgPool2dOp, quantized="none")
def _avg_pool(interp: Interpreter, op: tosa.AvgPool2dOp, args: Arrays, types: Types) -> Arrays:
    x, izp, ozp = args
    if x.dtype.kind == "f":
        valid = _pool_windows(np.ones(x.shape, np.float64), op, 0.0).sum(axis=-1)
        return [(_pool_windows(x.astype(np.float64), op, 0.0).sum(axis=-1) / valid).astype(x.dtype)]
    acc = _pool_windows(_centered(x, izp), op, 0).sum(axis=-1)  # padding contributes nothing
    count = _pool_windows(np.ones(x.shape, np.int64), op, 0).sum(axis=-1)  # valid elements only
    multiplier = np.zeros_like(count)
    shift = np.zeros_like(count)
    for c in np.unique(count):
        m, s = numerics.reciprocal_scale(int(c))
        multiplier[count == c] = m
        shift[count == c] = s
    scaled = numerics.apply_scale_32(acc, multiplier, shift, False).astype(np.int64) + _scalar(ozp)
    dtype = v.dtype_of(types[0])
    lo, hi = _range(dtype)
    return [np.clip(scaled, lo, hi).astype(dtype)]


@implements(tosa.ReshapeOp, quantized="none")
def _reshape(interp: Interpreter, op: tosa.ReshapeOp, args: Arrays, types: Types) -> Arrays:
    return [args[0].reshape([int(d) for d in args[1]])]


@implements(tosa.TransposeOp, quantized="none")
def _transpose(interp: Interpreter, op: tosa.TransposeOp, args: Arrays, types: Types) -> Arrays:
    return [np.transpose(args[0], op.array("perms"))]


@implements(tosa.ConcatOp, quantized="none")
def _concat(interp: Interpreter, op: tosa.ConcatOp, args: Arrays, types: Types) -> Arrays:
    return [np.concatenate(args, axis=op.int_prop("axis"))]


@implements(tosa.PadOp, quantized="none")
def _pad(interp: Interpreter, op: tosa.PadOp, args: Arrays, types: Types) -> Arrays:
    x, padding, value = args
    pairs = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(x.ndim)]
    return [np.pad(x, pairs, mode="constant", constant_values=np.asarray(value).reshape(-1)[0])]


@implements(tosa.SliceOp, quantized="none")
def _slice(interp: Interpreter, op: tosa.SliceOp, args: Arrays, types: Types) -> Arrays:
    x, start, size = args
    return [x[tuple(slice(int(s), int(s) + int(n)) for s, n in zip(start, size, strict=True))]]


@implements(tosa.ReduceSumOp, quantized="none")
def _reduce_sum(interp: Interpreter, op: tosa.ReduceSumOp, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    total = (
        x.astype(np.int64).sum(axis=op.int_prop("axis"), keepdims=True)
        if x.dtype.kind in "iu"
        else x.sum(axis=op.int_prop("axis"), keepdims=True)
    )
    return [_wrap(total, x.dtype) if x.dtype.kind in "iu" else total.astype(x.dtype)]


@implements(tosa.ReduceMaxOp, quantized="none")
def _reduce_max(interp: Interpreter, op: tosa.ReduceMaxOp, args: Arrays, types: Types) -> Arrays:
    return [args[0].max(axis=op.int_prop("axis"), keepdims=True)]


# The rest of TOSA v1.0 registers its semantics too (it reuses the helpers above).
from qdialect.interpreter import tosa_extra_ops as _tosa_extra_ops  # noqa: E402, F401
