"""Semantics of the TOSA v1.0 operators beyond the quantized core (`dialects/tosa_extra.py`).

Integer ops follow the specification's pseudocode with exact int64
intermediates; where it says REQUIRE or ERROR_IF (a zero divisor, `abs` of the
most negative value, a shift outside the type's width, a scatter writing one
position twice, an index out of range), the op fails with a message naming it
instead of producing a value. Float ops use numpy in the tensor's own precision.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

from qdialect.dialects import tosa_extra as tx
from qdialect.dialects.tosa import TosaOp
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.tosa_ops import _range, _wrap
from qdialect.interpreter.values import InterpreterError


def _int64(x: np.ndarray) -> np.ndarray:
    return x.astype(np.int64)


def _require(cond: bool, op_name: str, what: str) -> None:
    if not cond:
        raise InterpreterError(f"'{op_name}' {what} (a TOSA REQUIRE)")


# ---- elementwise unary ----------------------------------------------------------

_FLOAT_UNARY = {
    tx.CeilOp: np.ceil,
    tx.CosOp: np.cos,
    tx.ExpOp: np.exp,
    tx.FloorOp: np.floor,
    tx.LogOp: np.log,
    tx.ReciprocalOp: np.reciprocal,
    tx.RsqrtOp: lambda x: 1 / np.sqrt(x),
    tx.SinOp: np.sin,
    tx.SigmoidOp: lambda x: 1 / (1 + np.exp(-x)),
    tx.TanhOp: np.tanh,
    tx.ErfOp: np.vectorize(math.erf, otypes=[np.float64]),
}


@implements(*_FLOAT_UNARY, quantized="none")
def _float_unary(interp: Interpreter, op, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    if x.dtype.kind != "f":
        raise InterpreterError(f"'{op.name}' is defined for floating-point data only")
    return [np.asarray(_FLOAT_UNARY[type(op)](x)).astype(x.dtype)]


@implements(tx.AbsOp, quantized="none")
def _abs(interp: Interpreter, op: TosaOp, args: Arrays, types: Types) -> Arrays:
    x = args[0]
    if x.dtype.kind == "f":
        return [np.abs(x)]
    lo, _ = _range(x.dtype)
    _require(not x.size or int(x.min()) != lo, op.name, f"of {lo} does not fit the type")
    return [np.abs(_int64(x)).astype(x.dtype)]


@implements(tx.BitwiseNotOp, quantized="none")
def _bitwise_not(interp: Interpreter, op: TosaOp, args: Arrays, types: Types) -> Arrays:
    return [np.invert(args[0])]


@implements(tx.LogicalNotOp, quantized="none")
def _logical_not(interp: Interpreter, op: TosaOp, args: Arrays, types: Types) -> Arrays:
    return [np.logical_not(args[0])]


@implements(tx.IdentityOp, quantized="storage")
def _identity(interp: Interpreter, op: TosaOp, args: Arrays, types: Types) -> Arrays:
    return [args[0]]


# ---- elementwise binary ------------------------------------------------------------


@implements(tx.BitwiseAndOp, tx.BitwiseOrOp, tx.BitwiseXorOp, quantized="none")
def _bitwise(interp: Interpreter, op, args: Arrays, types: Types) -> Arrays:
    fn = {tx.BitwiseAndOp: np.bitwise_and, tx.BitwiseOrOp: np.bitwise_or}.get(
        type(op), np.bitwise_xor
    )
    return [fn(*args).astype(v.dtype_of(types[0]))]


@implements(tx.LogicalAndOp, tx.LogicalOrOp, tx.LogicalXorOp, quantized="none")
def _logical(interp: Interpreter, op, args: Arrays, types: Types) -> Arrays:
    fn = {tx.LogicalAndOp: np.logical_and, tx.LogicalOrOp: np.logical_or}.get(
        type(op), np.logical_xor
    )
    return [fn(*args)]


@implements(tx.IntDivOp, quantized="none")
def _intdiv(interp: Interpreter, op: TosaOp, args: Arrays, types: Types) -> Arrays:
    a, b = np.broadcast_arrays(*(_int64(x) for x in args))
    dtype = v.dtype_of(types[0])
    lo, _ = _range(dtype)
    _require(not (b == 0).any(), op.name, "divides by zero")
    _require(not ((a == lo) & (b == -1)).any(), op.name, f"of {lo} by -1 does not fit the type")
    quotient = np.abs(a) // np.abs(b) * np.sign(a) * np.sign(b)  # truncated toward zero
    return [quotient.astype(dtype)]


@implements(tx.LogicalRightShiftOp, quantized="none")
def _logical_right_shift(interp: Interpreter, op: TosaOp, args: Arrays, types: Types) -> Arrays:
    a, b = (_int64(x) for x in args)
    bits = args[0].dtype.itemsize * 8
    _require(
        not b.size or (b.min() >= 0 and b.max() <= bits - 1),
        op.name,
        f"amount outside 0..{bits - 1}",
    )
    return [_wrap((a & ((1 << bits) - 1)) >> b, args[0].dtype)]


@implements(tx.PowOp, quantized="none")
def _pow(interp: Interpreter, op: TosaOp, args: Arrays, types: Types) -> Arrays:
    a, b = args
    if a.dtype.kind != "f":
        raise InterpreterError("'tosa.pow' is defined for floating-point data only")
    return [np.power(a, b).astype(a.dtype)]


@implements(tx.EqualOp, tx.GreaterOp, tx.GreaterEqualOp, quantized="none")
def _compare(interp: Interpreter, op, args: Arrays, types: Types) -> Arrays:
    fn = {tx.EqualOp: np.equal, tx.GreaterOp: np.greater}.get(type(op), np.greater_equal)
    a, b = (_int64(x) if x.dtype.kind in "iu" else x for x in args)
    return [fn(a, b)]


@implements(tx.SelectOp, quantized="storage")
def _select(interp: Interpreter, op: tx.SelectOp, args: Arrays, types: Types) -> Arrays:
    pred, a, b = args
    return [np.where(pred.astype(bool), a, b).astype(v.dtype_of(types[0]))]


# ---- reductions and data layout ------------------------------------------------------


@implements(tx.ReduceAllOp, tx.ReduceAnyOp, quantized="none")
def _reduce_bool(interp: Interpreter, op, args: Arrays, types: Types) -> Arrays:
    fn = np.all if isinstance(op, tx.ReduceAllOp) else np.any
    return [fn(args[0], axis=op.int_prop("axis"), keepdims=True)]


@implements(tx.ReduceMinOp, quantized="none")
def _reduce_min(interp: Interpreter, op: tx.ReduceMinOp, args: Arrays, types: Types) -> Arrays:
    return [args[0].min(axis=op.int_prop("axis"), keepdims=True)]


@implements(tx.ReduceProductOp, quantized="none")
def _reduce_product(
    interp: Interpreter, op: tx.ReduceProductOp, args: Arrays, types: Types
) -> Arrays:
    x = args[0]
    if x.dtype.kind != "f":
        raise InterpreterError("'tosa.reduce_product' is defined for floating-point data only")
    return [x.prod(axis=op.int_prop("axis"), keepdims=True).astype(x.dtype)]


@implements(tx.ArgMaxOp, quantized="storage")
def _argmax(interp: Interpreter, op: tx.ArgMaxOp, args: Arrays, types: Types) -> Arrays:
    """The first index of the largest value (NaN counts as largest unless nan_mode = IGNORE)."""
    x = args[0]
    axis = op.int_prop("axis")
    if x.dtype.kind == "f":
        ignore = op.nan_mode is not None and op.nan_mode.data.value == "IGNORE"
        if ignore:
            filled = np.where(np.isnan(x), -np.inf, x)
            return [np.argmax(filled, axis=axis).astype(v.dtype_of(types[0]))]
        nan = np.isnan(x)
        first_nan = np.argmax(nan, axis=axis)
        plain = np.argmax(np.where(nan, -np.inf, x), axis=axis)
        return [np.where(nan.any(axis=axis), first_nan, plain).astype(v.dtype_of(types[0]))]
    return [np.argmax(x, axis=axis).astype(v.dtype_of(types[0]))]


@implements(tx.ReverseOp, quantized="storage")
def _reverse(interp: Interpreter, op: tx.ReverseOp, args: Arrays, types: Types) -> Arrays:
    return [np.flip(args[0], axis=op.int_prop("axis")).copy()]


@implements(tx.TileOp, quantized="storage")
def _tile(interp: Interpreter, op: tx.TileOp, args: Arrays, types: Types) -> Arrays:
    x, multiples = args
    return [np.tile(x, [int(m) for m in multiples])]


@implements(tx.ScatterOp, quantized="storage")
def _scatter(interp: Interpreter, op: tx.ScatterOp, args: Arrays, types: Types) -> Arrays:
    """values_out = values_in, then values_out[n, indices[n, w], :] = input[n, w, :]; an index
    outside 0..K-1 or one position written twice is a REQUIRE failure."""
    values_in, indices, x = args
    out = values_in.copy()
    n_count, k_count, _ = values_in.shape
    written = np.zeros((n_count, k_count), bool)
    for n in range(indices.shape[0]):
        for w in range(indices.shape[1]):
            k = int(indices[n, w])
            _require(0 <= k < k_count, op.name, f"index {k} is outside 0..{k_count - 1}")
            _require(not written[n, k], op.name, f"writes position {k} of batch {n} twice")
            written[n, k] = True
            out[n, k, :] = x[n, w, :]
    return [out]


@implements(tx.ResizeOp, quantized="none")
def _resize(interp: Interpreter, op: tx.ResizeOp, args: Arrays, types: Types) -> Arrays:
    """The spec's RESIZE: integer coordinates in units of 1/scale_n; BILINEAR on integers
    returns the unnormalized weighted sum (i8 -> i32, i16 -> i48), NEAREST_NEIGHBOR rounds
    the fraction half up."""
    x, scale, offset, _border = args
    y_n, y_d, x_n, x_d = (int(s) for s in scale)
    off_y, off_x = (int(o) for o in offset)
    size = op.output_size()
    if size is None:
        raise InterpreterError("'tosa.resize' needs constant scale, offset and border")
    oh, ow = size
    _, ih, iw, _ = x.shape
    out_dtype = v.dtype_of(types[0])
    bilinear = op.mode.data.value == "BILINEAR"
    is_float = x.dtype.kind == "f"
    oy = np.arange(oh) * y_d + off_y
    ox = np.arange(ow) * x_d + off_x
    iy, ix = np.floor_divide(oy, y_n), np.floor_divide(ox, x_n)
    dy, dx = oy - iy * y_n, ox - ix * x_n
    iy0, iy1 = np.maximum(iy, 0), np.minimum(iy + 1, ih - 1)
    ix0, ix1 = np.maximum(ix, 0), np.minimum(ix + 1, iw - 1)
    if not bilinear:
        ry = np.where(2 * dy >= y_n, iy1, iy0)
        rx = np.where(2 * dx >= x_n, ix1, ix0)
        return [x[:, ry][:, :, rx].astype(out_dtype)]
    data = x.astype(np.float64) if is_float else _int64(x)
    v00, v01 = data[:, iy0][:, :, ix0], data[:, iy0][:, :, ix1]
    v10, v11 = data[:, iy1][:, :, ix0], data[:, iy1][:, :, ix1]
    if is_float:
        fy = (dy / y_n)[None, :, None, None]
        fx = (dx / x_n)[None, None, :, None]
        acc = v00 * (1 - fy) * (1 - fx) + v01 * (1 - fy) * fx + v10 * fy * (1 - fx) + v11 * fy * fx
        return [acc.astype(out_dtype)]
    wy = dy[None, :, None, None]
    wx = dx[None, None, :, None]
    acc = (
        v00 * (y_n - wy) * (x_n - wx)
        + v01 * (y_n - wy) * wx
        + v10 * wy * (x_n - wx)
        + v11 * wy * wx
    )
    return [acc.astype(out_dtype)]


# ---- FFT ------------------------------------------------------------------------


@implements(tx.FFT2dOp, quantized="none")
def _fft2d(interp: Interpreter, op: tx.FFT2dOp, args: Arrays, types: Types) -> Arrays:
    """sum over (iy, ix) of in * e^(-+2πi (iy·y/H + ix·x/W)); `inverse` flips the sign and,
    as the spec says, does not divide by H·W."""
    real, imag = args
    z = real.astype(np.float64) + 1j * imag.astype(np.float64)
    if op.flag("inverse"):
        h, w = z.shape[1], z.shape[2]
        out = np.fft.ifft2(z, axes=(1, 2)) * (h * w)
    else:
        out = np.fft.fft2(z, axes=(1, 2))
    return [out.real.astype(real.dtype), out.imag.astype(real.dtype)]


@implements(tx.RFFT2dOp, quantized="none")
def _rfft2d(interp: Interpreter, op: tx.RFFT2dOp, args: Arrays, types: Types) -> Arrays:
    real = args[0]
    out = np.fft.rfft2(real.astype(np.float64), axes=(1, 2))
    return [out.real.astype(real.dtype), out.imag.astype(real.dtype)]


# ---- control flow -----------------------------------------------------------------

MAX_WHILE_ITERATIONS = 1_000_000
"""A `tosa.while_loop` that runs longer is reported instead of hanging the interpreter."""


@implements(tx.CondIfOp, quantized="storage")
def _cond_if(interp: Interpreter, op: tx.CondIfOp, args: Arrays, types: Types) -> Arrays:
    cond, *inputs = args
    region = op.then_graph if bool(np.asarray(cond).reshape(-1)[0]) else op.else_graph
    return interp.run_region(region, _entry_args(region, inputs))


def _entry_args(region, inputs: Arrays) -> Arrays:
    block = region.blocks.first
    return list(inputs) if block is not None and len(block.args) == len(inputs) else []


@implements(tx.WhileLoopOp, quantized="storage")
def _while_loop(interp: Interpreter, op: tx.WhileLoopOp, args: Arrays, types: Types) -> Arrays:
    values = list(args)
    for _ in range(MAX_WHILE_ITERATIONS):
        (keep_going,) = interp.run_region(op.cond_graph, values)
        if not bool(np.asarray(keep_going).reshape(-1)[0]):
            return values
        values = interp.run_region(op.body_graph, values)
    raise InterpreterError(f"'tosa.while_loop' ran {MAX_WHILE_ITERATIONS} iterations; stopped")


# ---- variables --------------------------------------------------------------------


def _store(interp: Interpreter) -> dict:
    store = getattr(interp, "_tosa_variables", None)
    if store is None:
        store = {}
        interp._tosa_variables = store  # type: ignore[attr-defined]
    return store


@implements(tx.VariableOp, quantized="storage")
def _variable(interp: Interpreter, op: tx.VariableOp, args: Arrays, types: Types) -> Arrays:
    return []


@implements(tx.VariableReadOp, quantized="storage")
def _variable_read(
    interp: Interpreter, op: tx.VariableReadOp, args: Arrays, types: Types
) -> Arrays:
    name = op.name_.root_reference.data
    store = _store(interp)
    if name not in store:
        var = tx._variable(op, op.name_)
        initial = None if var is None else var.initial_value
        if not isinstance(initial, DenseIntOrFPElementsAttr) or var is None:
            raise InterpreterError(f"'tosa.variable_read' of @{name} before any write")
        store[name] = v.from_dense(initial, var.tensor_type())
    return [store[name]]


@implements(tx.VariableWriteOp, quantized="storage")
def _variable_write(
    interp: Interpreter, op: tx.VariableWriteOp, args: Arrays, types: Types
) -> Arrays:
    _store(interp)[op.name_.root_reference.data] = args[0].copy()
    return []
