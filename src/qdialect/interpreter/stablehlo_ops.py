"""Semantics of the StableHLO-like ops (the spec's, vectorized with numpy).

Each function takes the operand arrays and the result types and returns the
result arrays. Quantized operands never reach the `dqq` implementations: the
dispatcher dequantizes them first (see core.py). Choices the spec leaves to the
implementation are listed in docs/interpreter.md.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import Attribute, Operation

from qdialect import numerics
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.dialects.stablehlo_attrs import ComparisonDirection, ComparisonType
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.values import InterpreterError
from qdialect.interpreter.windows import convolution, magnitude, reduce_windows


def _dtype(t: Attribute) -> np.dtype:
    return v.dtype_of(t)


def _is_int(a: np.ndarray) -> bool:
    return a.dtype.kind in "iu"


# --------------------------------------------------------------------------
# Elementwise
# --------------------------------------------------------------------------

_FLOAT_UNARY: dict[type[Operation], Callable[[np.ndarray], np.ndarray]] = {
    sh.TanhOp: np.tanh,
    sh.ExpOp: np.exp,
    sh.Expm1Op: np.expm1,
    sh.LogOp: np.log,
    sh.Log1pOp: np.log1p,
    sh.SqrtOp: np.sqrt,
    sh.CbrtOp: lambda x: np.power(x, 1 / 3) if x.dtype.kind == "c" else np.cbrt(x),
    sh.SineOp: np.sin,
    sh.CosineOp: np.cos,
    sh.FloorOp: np.floor,
    sh.CeilOp: np.ceil,
    sh.RoundNearestEvenOp: numerics.round_half_to_even,
    sh.RoundNearestAfzOp: numerics.round_half_away_from_zero,
}


@implements(*_FLOAT_UNARY)
def _float_unary(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    return [_FLOAT_UNARY[type(op)](args[0]).astype(_dtype(types[0]))]


@implements(sh.LogisticOp)
def _logistic(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    one = x.dtype.type(1)
    return [(one / (one + np.exp(-x))).astype(x.dtype)]


@implements(sh.RsqrtOp)
def _rsqrt(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    return [(x.dtype.type(1) / np.sqrt(x)).astype(x.dtype)]


@implements(sh.AbsOp)
def _abs(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    return [np.abs(args[0]).astype(_dtype(types[0]))]  # INT_MIN stays INT_MIN (wraps)


@implements(sh.NegateOp)
def _negate(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    return [np.negative(args[0])]


@implements(sh.SignOp)
def _sign(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    if x.dtype.kind == "c":  # x / |x|, and 0 at 0 (NaN parts propagate)
        magnitude = np.abs(x)
        return [np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude))]
    return [
        np.where(np.isnan(x), x, np.sign(x)).astype(x.dtype) if x.dtype.kind == "f" else np.sign(x)
    ]


_BINARY: dict[type[Operation], Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    sh.AddOp: np.add,
    sh.SubtractOp: np.subtract,
    sh.MultiplyOp: np.multiply,
    sh.Atan2Op: lambda y, x: _complex_atan2(y, x) if y.dtype.kind == "c" else np.arctan2(y, x),
}


def _complex_atan2(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """atan2 on complex numbers: -i log((x + iy) / sqrt(x^2 + y^2)) (numpy's is real-only)."""
    return -1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y))


@implements(*_BINARY)
def _binary(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    a, b = args
    if a.dtype == np.bool_:
        if isinstance(op, sh.AddOp):
            return [np.logical_or(a, b)]
        if isinstance(op, sh.MultiplyOp):
            return [np.logical_and(a, b)]
    return [_BINARY[type(op)](a, b).astype(_dtype(types[0]))]


_BITWISE: dict[type[Operation], Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    sh.AndOp: np.bitwise_and,
    sh.OrOp: np.bitwise_or,
    sh.XorOp: np.bitwise_xor,
}


@implements(*_BITWISE)
def _bitwise(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    return [_BITWISE[type(op)](*args)]


@implements(sh.NotOp)
def _not(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    return [np.invert(args[0])]


@implements(sh.ShiftLeftOp, sh.ShiftRightArithmeticOp, sh.ShiftRightLogicalOp)
def _shift(
    interp: Interpreter,
    op: Operation,
    args: Arrays,
    types: Types,
) -> Arrays:
    """The spec's shifts: a shift amount outside [0, bit width) gives 0, or the
    sign fill for shift_right_arithmetic, instead of C's undefined behaviour."""
    x, amount = args
    width = 8 * x.dtype.itemsize
    in_range = (amount >= 0) & (amount < width)
    k = np.where(in_range, amount, 0).astype(np.uint64)
    bits = x.view(np.dtype(f"u{x.dtype.itemsize}")).astype(np.uint64)
    mask = np.uint64((1 << width) - 1)
    if isinstance(op, sh.ShiftLeftOp):
        out = np.where(in_range, (bits << k) & mask, 0)
    elif isinstance(op, sh.ShiftRightLogicalOp):
        out = np.where(in_range, bits >> k, 0)
    else:
        signed = x.astype(np.int64)
        sign_fill = np.where(signed < 0, -1, 0)
        out = np.where(in_range, signed >> k.astype(np.int64), sign_fill).astype(np.uint64) & mask
    unsigned = np.asarray(out, np.uint64).astype(np.dtype(f"u{x.dtype.itemsize}"))
    return [unsigned.view(x.dtype)]


@implements(sh.MaximumOp, sh.MinimumOp)
def _max_min(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    fn = (
        np.maximum if isinstance(op, sh.MaximumOp) else np.minimum
    )  # NaN propagates, as the spec says
    return [fn(*args)]


def _int_divide(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """C semantics (truncation); x/0 = -1 and x%0 = x; INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0 (XLA's choices)."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    q = np.abs(a64) // np.abs(safe) * np.sign(a64) * np.sign(safe)
    r = a64 - q * safe
    q = np.where(b64 == 0, -1, q)
    r = np.where(b64 == 0, a64, r)
    return q.astype(a.dtype), r.astype(a.dtype)


@implements(sh.DivideOp)
def _divide(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    a, b = args
    if _is_int(a):
        return [_int_divide(a, b)[0]]
    return [(a / b).astype(a.dtype)]


@implements(sh.RemainderOp)
def _remainder(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    a, b = args
    if _is_int(a):
        return [_int_divide(a, b)[1]]
    return [np.fmod(a, b).astype(a.dtype)]


@implements(sh.PowerOp)
def _power(interp: Interpreter, op: Operation, args: Arrays, types: Types) -> Arrays:
    a, b = args
    if not _is_int(a):
        return [np.power(a, b).astype(a.dtype)]
    # Integer power by squaring, with wraparound; negative exponents give 0
    # except for bases 1 and -1.
    base = a.astype(np.int64)
    exp = b.astype(np.int64)
    result = np.ones_like(base)
    e = np.where(exp < 0, 0, exp)
    acc = base.copy()
    while np.any(e > 0):
        result = np.where(e & 1, result * acc, result)
        acc = acc * acc
        e = e >> 1
    negative = exp < 0
    result = np.where(
        negative,
        np.where(base == 1, 1, np.where(base == -1, np.where(exp % 2 == 0, 1, -1), 0)),
        result,
    )
    return [result.astype(a.dtype)]


@implements(sh.ClampOp)
def _clamp(interp: Interpreter, op: sh.ClampOp, args: Arrays, types: Types) -> Arrays:
    lo, x, hi = args
    return [np.minimum(np.maximum(x, lo), hi).astype(_dtype(types[0]))]


@implements(sh.SelectOp)
def _select(interp: Interpreter, op: sh.SelectOp, args: Arrays, types: Types) -> Arrays:
    pred, a, b = args
    return [np.where(pred, a, b).astype(_dtype(types[0]))]


def _total_order_key(x: np.ndarray) -> np.ndarray:
    """Map floats to integers ordered as IEEE totalOrder (-NaN < -inf < ... < -0 < +0 < ... < NaN)."""
    bits = x.view(np.dtype(f"i{x.dtype.itemsize}")).astype(np.int64)
    return np.where(bits < 0, -(bits & ((1 << (8 * x.dtype.itemsize - 1)) - 1)) - 1, bits)


@implements(sh.CompareOp)
def _compare(interp: Interpreter, op: sh.CompareOp, args: Arrays, types: Types) -> Arrays:
    a, b = args
    if (
        op.compare_type is not None
        and op.compare_type.data == ComparisonType.TOTALORDER
        and a.dtype.kind == "f"
    ):
        a, b = _total_order_key(a), _total_order_key(b)
    fn = {
        ComparisonDirection.EQ: np.equal,
        ComparisonDirection.NE: np.not_equal,
        ComparisonDirection.GE: np.greater_equal,
        ComparisonDirection.GT: np.greater,
        ComparisonDirection.LE: np.less_equal,
        ComparisonDirection.LT: np.less,
    }[op.comparison_direction.data]
    return [fn(a, b)]


@implements(sh.ConvertOp, quantized="none")
def _convert(interp: Interpreter, op: sh.ConvertOp, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    dtype = _dtype(types[0])
    if np.iscomplexobj(x) and dtype.kind != "c":
        x = np.real(x)  # complex to real discards the imaginary part (upstream's interpreter)
    if dtype == np.bool_:
        return [x != 0]
    if v.is_float_dtype(x.dtype) and dtype.kind in "iu":
        # Round toward zero, saturate out-of-range values, NaN -> 0 (XLA's choice).
        info = np.iinfo(dtype)
        t = np.trunc(x.astype(np.float64))
        t = np.where(np.isnan(t), 0, np.clip(t, info.min, info.max))
        return [t.astype(dtype)]
    if dtype.type.__module__ == "ml_dtypes" and not v.is_float_dtype(x.dtype):
        # Integers reach bf16 / f8 through f64 (exact below 2^53): one rounding, not two.
        return [x.astype(np.float64).astype(dtype)]
    return [x.astype(dtype)]


@implements(sh.BitcastConvertOp, quantized="none")
def _bitcast(interp: Interpreter, op: sh.BitcastConvertOp, args: Arrays, types: Types) -> Arrays:
    x = np.ascontiguousarray(args[0])
    dtype = _dtype(types[0])
    shape = ht.shape_of(types[0])
    assert shape is not None
    if x.dtype == np.bool_ and dtype != np.bool_:  # i1 is one bit: element k is bit k
        x = np.packbits(x, axis=-1, bitorder="little")
    elif dtype == np.bool_ and x.dtype != np.bool_:
        bits = np.unpackbits(x.reshape(*x.shape, 1).view(np.uint8), axis=-1, bitorder="little")
        return [bits.astype(np.bool_).reshape(shape)]
    return [x.view(dtype).reshape(shape)]


# --------------------------------------------------------------------------
# Quantization
# --------------------------------------------------------------------------


@implements(sh.UniformQuantizeOp, quantized="none")
def _uniform_quantize(
    interp: Interpreter, op: sh.UniformQuantizeOp, args: Arrays, types: Types
) -> Arrays:
    x = v.dequantize(args[0], op.operands[0].type)  # requantize = quantize(dequantize(x))
    return [v.quantize(x, types[0])]


@implements(sh.UniformDequantizeOp, quantized="none")
def _uniform_dequantize(
    interp: Interpreter, op: sh.UniformDequantizeOp, args: Arrays, types: Types
) -> Arrays:
    return [v.dequantize(args[0], op.operands[0].type)]


# --------------------------------------------------------------------------
# Constants and data movement (quantized values move as storage integers)
# --------------------------------------------------------------------------


@implements(sh.ConstantOp, quantized="none")
def _constant(interp: Interpreter, op: sh.ConstantOp, args: Arrays, types: Types) -> Arrays:
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    if not isinstance(op.value, DenseIntOrFPElementsAttr):
        raise InterpreterError("only dense constants can be interpreted")
    return [v.from_dense(op.value, types[0])]


@implements(sh.IotaOp)
def _iota(interp: Interpreter, op: sh.IotaOp, args: Arrays, types: Types) -> Arrays:
    shape = ht.shape_of(types[0])
    assert shape is not None
    dim = op.iota_dimension.value.data
    index = np.arange(shape[dim]).reshape([-1 if d == dim else 1 for d in range(len(shape))])
    return [np.broadcast_to(index, shape).astype(_dtype(types[0]))]


@implements(sh.ReshapeOp, quantized="storage")
def _reshape(interp: Interpreter, op: sh.ReshapeOp, args: Arrays, types: Types) -> Arrays:
    shape = ht.shape_of(types[0])
    if shape is None or any(d < 0 for d in shape):
        raise InterpreterError("reshape to a dynamic shape")
    return [args[0].reshape(shape)]


@implements(sh.TransposeOp, quantized="storage")
def _transpose(interp: Interpreter, op: sh.TransposeOp, args: Arrays, types: Types) -> Arrays:
    return [np.transpose(args[0], dense_values(op.permutation))]


@implements(sh.BroadcastOp, quantized="storage")
def _broadcast(interp: Interpreter, op: sh.BroadcastOp, args: Arrays, types: Types) -> Arrays:
    sizes = tuple(dense_values(op.broadcast_sizes))
    return [np.broadcast_to(args[0], sizes + args[0].shape).copy()]


@implements(sh.BroadcastInDimOp, quantized="storage")
def _broadcast_in_dim(
    interp: Interpreter, op: sh.BroadcastInDimOp, args: Arrays, types: Types
) -> Arrays:
    x = args[0]
    out_shape = ht.shape_of(types[0])
    if out_shape is None or any(d < 0 for d in out_shape):
        raise InterpreterError("broadcast to a dynamic shape")
    dims = dense_values(op.broadcast_dimensions)
    expanded = [1] * len(out_shape)
    for i, d in enumerate(dims):
        expanded[d] = x.shape[i]
    return [np.broadcast_to(x.reshape(expanded), out_shape).copy()]


@implements(sh.ConcatenateOp, quantized="storage")
def _concatenate(interp: Interpreter, op: sh.ConcatenateOp, args: Arrays, types: Types) -> Arrays:
    return [np.concatenate(args, axis=op.dimension.value.data)]


@implements(sh.SliceOp, quantized="storage")
def _slice(interp: Interpreter, op: sh.SliceOp, args: Arrays, types: Types) -> Arrays:
    index = tuple(
        slice(s, e, st)
        for s, e, st in zip(
            dense_values(op.start_indices),
            dense_values(op.limit_indices),
            dense_values(op.strides),
            strict=True,
        )
    )
    return [args[0][index]]


@implements(sh.DynamicSliceOp, quantized="storage")
def _dynamic_slice(
    interp: Interpreter, op: sh.DynamicSliceOp, args: Arrays, types: Types
) -> Arrays:
    x, *starts = args
    sizes = dense_values(op.slice_sizes)
    index = []
    for d, (start, size) in enumerate(zip(starts, sizes, strict=True)):
        s = int(np.clip(int(start), 0, x.shape[d] - size))  # the spec clamps start indices
        index.append(slice(s, s + size))
    return [x[tuple(index)]]


@implements(sh.PadOp, quantized="storage")
def _pad(interp: Interpreter, op: sh.PadOp, args: Arrays, types: Types) -> Arrays:
    x, value = args
    low, high, interior = (
        dense_values(a) for a in (op.edge_padding_low, op.edge_padding_high, op.interior_padding)
    )
    # Interior padding first, into a tensor filled with the padding value.
    inner = [d + max(d - 1, 0) * it for d, it in zip(x.shape, interior, strict=True)]
    spaced = np.full(inner, value, dtype=x.dtype)
    spaced[tuple(slice(None, None, it + 1) for it in interior)] = x
    # Edges: positive pads grow, negative pads crop.
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high, strict=True)]
    padded = (
        np.pad(spaced, grow, mode="constant", constant_values=value)
        if any(g != (0, 0) for g in grow)
        else spaced
    )
    crop = tuple(
        slice(max(-lo, 0), padded.shape[d] - max(-hi, 0))
        for d, (lo, hi) in enumerate(zip(low, high, strict=True))
    )
    return [padded[crop]]


@implements(sh.GatherOp, quantized="storage")
def _gather(interp: Interpreter, op: sh.GatherOp, args: Arrays, types: Types) -> Arrays:
    operand, indices = args
    d = op.dimension_numbers.data
    sizes = dense_values(op.slice_sizes)
    ivd = d.index_vector_dim
    if ivd == indices.ndim:
        indices = indices[..., None]
    idx = np.moveaxis(indices, ivd, -1).astype(np.int64)  # batch... x index_vector
    batch_shape = idx.shape[:-1]
    # Full start index per operand dimension, clamped as the spec says.
    rank = operand.ndim
    start = np.zeros((*batch_shape, rank), dtype=np.int64)
    for k, od in enumerate(d.start_index_map):
        start[..., od] = idx[..., k]
    batch_dims_of_indices = (
        [i for i in range(indices.ndim) if i != ivd]
        if ivd < indices.ndim
        else list(range(indices.ndim - 1))
    )
    for od, bd in zip(d.operand_batching_dims, d.start_indices_batching_dims, strict=True):
        pos = batch_dims_of_indices.index(bd)
        grid = np.arange(batch_shape[pos]).reshape(
            [-1 if i == pos else 1 for i in range(len(batch_shape))]
        )
        start[..., od] = np.broadcast_to(grid, batch_shape)
    start = np.clip(start, 0, np.array(operand.shape) - np.array(sizes))
    # operand index = start (batch dims) + offset (slice dims): one fancy-indexing gather.
    nb = len(batch_shape)
    index = []
    for od in range(rank):
        offset = np.arange(sizes[od]).reshape(
            [1] * nb + [-1 if i == od else 1 for i in range(rank)]
        )
        index.append(start[..., od].reshape(batch_shape + (1,) * rank) + offset)
    gathered = operand[tuple(index)]  # batch... x slice_sizes...
    keep = [
        od
        for od in range(rank)
        if od not in d.collapsed_slice_dims and od not in d.operand_batching_dims
    ]
    gathered = gathered.reshape(batch_shape + tuple(sizes[od] for od in keep))
    # Place offset dims at their result positions, batch dims in order elsewhere.
    result_rank = nb + len(keep)
    order = [0] * result_rank
    b_iter, o_iter = iter(range(nb)), iter(range(nb, result_rank))
    for r in range(result_rank):
        order[r] = next(o_iter) if r in d.offset_dims else next(b_iter)
    return [np.transpose(gathered, order)]


@implements(sh.OptimizationBarrierOp, quantized="storage")
def _barrier(
    interp: Interpreter, op: sh.OptimizationBarrierOp, args: Arrays, types: Types
) -> Arrays:
    return list(args)


# --------------------------------------------------------------------------
# Contractions
# --------------------------------------------------------------------------


def exact_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Batched matmul [B,M,K] x [B,K,N] that is exact for integers.

    Integer products summed in floating point are exact while every partial sum
    stays below 2^24 (float32) or 2^53 (float64); when the operands' magnitudes
    guarantee that, BLAS does the work in the narrower of the two, otherwise
    numpy's int64 matmul (exact modulo 2^64) does.
    """
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        dtype = np.result_type(a.dtype, b.dtype)
        if dtype == np.float16 or str(dtype) == "bfloat16":
            return np.matmul(a.astype(np.float32), b.astype(np.float32))
        return np.matmul(a, b)
    bound = magnitude(a) * magnitude(b) * a.shape[-1]
    for limit, dtype in ((2**24, np.float32), (2**53, np.float64)):
        if bound < limit:
            return np.matmul(a.astype(dtype), b.astype(dtype)).astype(np.int64)
    return np.matmul(a.astype(np.int64), b.astype(np.int64))


def dot_general(lhs: np.ndarray, rhs: np.ndarray, lb, rb, lc, rc) -> np.ndarray:
    lf = [i for i in range(lhs.ndim) if i not in lb and i not in lc]
    rf = [i for i in range(rhs.ndim) if i not in rb and i not in rc]
    batch = [lhs.shape[i] for i in lb]
    a = np.transpose(lhs, [*lb, *lf, *lc]).reshape(
        int(np.prod(batch)), int(np.prod([lhs.shape[i] for i in lf])), -1
    )
    b = np.transpose(rhs, [*rb, *rc, *rf]).reshape(
        int(np.prod(batch)), int(np.prod([rhs.shape[i] for i in rc])), -1
    )
    out = exact_matmul(a, b)
    return out.reshape([*batch, *(lhs.shape[i] for i in lf), *(rhs.shape[i] for i in rf)])


@implements(sh.DotGeneralOp)
def _dot_general(interp: Interpreter, op: sh.DotGeneralOp, args: Arrays, types: Types) -> Arrays:
    d = op.dot_dimension_numbers.data
    lhs, rhs = args
    out = dot_general(
        lhs,
        rhs,
        d.lhs_batching_dimensions,
        d.rhs_batching_dimensions,
        d.lhs_contracting_dimensions,
        d.rhs_contracting_dimensions,
    )
    return [out.astype(_dtype(types[0]))]


@implements(sh.DotOp)
def _dot(interp: Interpreter, op: sh.DotOp, args: Arrays, types: Types) -> Arrays:
    lhs, rhs = args
    out = dot_general(lhs, rhs, (), (), (lhs.ndim - 1,), (0,))
    return [out.astype(_dtype(types[0]))]


@implements(sh.ConvolutionOp)
def _convolution(interp: Interpreter, op: sh.ConvolutionOp, args: Arrays, types: Types) -> Arrays:
    out = convolution(op, args[0], args[1], exact_matmul)
    return [out.astype(_dtype(types[0]))]


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------


@implements(sh.ReduceOp, quantized="none")
def _reduce(interp: Interpreter, op: sh.ReduceOp, args: Arrays, types: Types) -> Arrays:
    n = len(op.inputs)
    inputs, inits = args[:n], args[n:]
    dims = dense_values(op.dimensions)
    moved = [np.moveaxis(x, dims, list(range(x.ndim - len(dims), x.ndim))) for x in inputs]
    flat = [m.reshape(*m.shape[: m.ndim - len(dims)], -1) for m in moved]
    return reduce_last_axis(interp, op, flat, inits)


def reduce_last_axis(interp: Interpreter, op: Operation, flat: Arrays, inits: Arrays) -> Arrays:
    """Reduce the last axis of every array with `op`'s body; the result has the leading shape.

    A body that is one known op on its arguments (add, multiply, maximum,
    minimum, and/or on booleans) becomes one numpy reduction when the values
    are not quantized; any other body is evaluated as a vectorized pairwise
    tree, log2(n) body evaluations over whole arrays.
    """
    body = op.regions[0]
    block = body.blocks.first
    if block is not None and len(block.args) == 2 * len(flat):
        # Promotion: the body may take wider types than the inputs (i8 summed in i32).
        n = len(flat)
        flat = [
            x.astype(_dtype(a.type), copy=False) for x, a in zip(flat, block.args[n:], strict=True)
        ]
        inits = [
            i.astype(_dtype(a.type), copy=False) for i, a in zip(inits, block.args[:n], strict=True)
        ]
    fast = _fast_reducer(op)
    if fast is not None and len(flat) == 1:
        x, init = flat[0], inits[0]
        reduced = fast.reduce(x, axis=-1) if x.shape[-1] else np.broadcast_to(init, x.shape[:-1])
        return [
            fast(reduced, init).astype(x.dtype) if x.shape[-1] else np.array(reduced, dtype=x.dtype)
        ]
    acc = [np.broadcast_to(init, x.shape[:-1]).copy() for x, init in zip(flat, inits, strict=True)]
    values = flat
    while values[0].shape[-1] > 1:
        length = values[0].shape[-1]
        half = length // 2
        left = [x[..., :half] for x in values]
        right = [x[..., half : 2 * half] for x in values]
        combined = interp.run_region(body, [*left, *right])
        if length % 2:
            combined = [
                np.concatenate([c, x[..., -1:]], axis=-1)
                for c, x in zip(combined, values, strict=True)
            ]
        values = combined
    if values[0].shape[-1] == 1:
        acc = interp.run_region(body, [*acc, *(x[..., 0] for x in values)])
    return acc


def _fast_reducer(op: Operation) -> np.ufunc | None:
    block = op.regions[0].blocks.first
    if block is None or any(ht.is_quantized(a.type) for a in block.args):
        return None
    ops = list(block.ops)
    if len(ops) != 2 or len(block.args) != 2:
        return None
    inner = ops[0]
    if list(inner.operands) not in (list(block.args), list(block.args)[::-1]) or list(
        ops[1].operands
    ) != [inner.results[0]]:
        return None
    bool_type = ht.is_bool(ht.element_type(block.args[0].type))
    table: dict[type[Operation], np.ufunc] = {
        sh.AddOp: np.logical_or if bool_type else np.add,
        sh.MultiplyOp: np.logical_and if bool_type else np.multiply,
        sh.MaximumOp: np.maximum,
        sh.MinimumOp: np.minimum,
    }
    return table.get(type(inner))


@implements(sh.ReduceWindowOp, quantized="none")
def _reduce_window(
    interp: Interpreter, op: sh.ReduceWindowOp, args: Arrays, types: Types
) -> Arrays:
    n = len(op.inputs)
    windows = reduce_windows(op, args[:n], args[n:])  # each: out_shape + (window elements,)
    return reduce_last_axis(interp, op, windows, args[n:])


# --------------------------------------------------------------------------
# Custom calls: the check targets
# --------------------------------------------------------------------------


@implements(sh.CustomCallOp, quantized="none")
def _custom_call(interp: Interpreter, op: sh.CustomCallOp, args: Arrays, types: Types) -> Arrays:
    from qdialect.interpreter.check_ops import CUSTOM_CALL_CHECKS

    target = op.call_target_name.data
    check = CUSTOM_CALL_CHECKS.get(target)
    if check is None:
        raise InterpreterError(f"custom_call target '{target}' is not supported by the interpreter")
    if len(args) != 2:
        raise InterpreterError(f"custom_call @{target} takes (actual, expected) operands")
    message = check(args[0], args[1], op.operands[0].type)
    interp.record_check(op, message)
    results = []
    for t in types:  # JAX writes `-> tensor<i1>`: the outcome, not a value to compute with
        shape = ht.shape_of(t)
        if shape is None or not ht.is_bool(ht.element_type(t)):
            raise InterpreterError(f"custom_call @{target} can only return i1 tensors, not {t}")
        results.append(np.full(shape, message is None, dtype=bool))
    return results
