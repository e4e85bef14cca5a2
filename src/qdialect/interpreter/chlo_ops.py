"""Semantics of the `chlo` ops the interpreter runs.

A broadcast binary op is its StableHLO counterpart on operands broadcast to one shape
(numpy's rule, or the lower-rank operand's dimensions placed at `broadcast_dimensions`):
the counterpart's own semantics (integer wraparound, truncating division, shift
amounts past the width, ...) apply unchanged. `mulhi` is the high half of the
double-width product. The special functions with a numpy or `math` equivalent
(`acos`, `asin`, `atan` and the hyperbolic ones, `tan`, `erf`, `erfc`, `lgamma`,
`is_inf` and its kin, `square`, `conj`, `next_after` and `broadcast_next_after`) are computed in the operand's
precision; the others (`erf_inv`, `digamma`, `bessel_i1e`, `polygamma`, `zeta`) are
refused by name, as `chlo-legalize-to-stablehlo` would be needed to give their
approximations.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Attribute, Operation

from qdialect.dialects import chlo
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import stablehlo_numeric as sn
from qdialect.dialects.chlo_ragged_dot import Mode, RaggedDotDims, group_prefix_dims, mode_of
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.dialects.stablehlo_attrs import ComparisonDirectionAttr, ComparisonTypeAttr
from qdialect.interpreter import core
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.stablehlo_ops import dot_general
from qdialect.interpreter.values import InterpreterError, dtype_of

_COUNTERPART: dict[str, type[Operation]] = {
    "broadcast_add": sh.AddOp,
    "broadcast_atan2": sh.Atan2Op,
    "broadcast_divide": sh.DivideOp,
    "broadcast_maximum": sh.MaximumOp,
    "broadcast_minimum": sh.MinimumOp,
    "broadcast_multiply": sh.MultiplyOp,
    "broadcast_power": sh.PowerOp,
    "broadcast_remainder": sh.RemainderOp,
    "broadcast_shift_left": sh.ShiftLeftOp,
    "broadcast_shift_right_arithmetic": sh.ShiftRightArithmeticOp,
    "broadcast_shift_right_logical": sh.ShiftRightLogicalOp,
    "broadcast_subtract": sh.SubtractOp,
    "broadcast_and": sh.AndOp,
    "broadcast_or": sh.OrOp,
    "broadcast_xor": sh.XorOp,
}


def broadcast(arrays: Arrays, dims: tuple[int, ...] | None) -> Arrays:
    """The operands broadcast to one shape; with `dims`, the lower-rank operand's
    dimensions go to those dimensions of the higher-rank one."""
    if dims is not None and len(arrays) == 2 and arrays[0].ndim != arrays[1].ndim:
        small, big = sorted(range(2), key=lambda i: arrays[i].ndim)
        shape = [1] * arrays[big].ndim
        for size, d in zip(arrays[small].shape, dims, strict=True):
            shape[d] = size
        arrays = list(arrays)
        arrays[small] = arrays[small].reshape(shape)
    return [np.asarray(a) for a in np.broadcast_arrays(*arrays)]


def _counterpart(
    interp: Interpreter, op: Operation, proxy: Operation, args: Arrays, types: Types
) -> Arrays:
    entry = core._IMPLS[type(proxy)]
    return entry.impl(interp, proxy, args, types) or []


def _dims(op: chlo.BroadcastBinaryOp) -> tuple[int, ...] | None:
    return dense_values(op.broadcast_dimensions) if op.broadcast_dimensions is not None else None


@implements(*(chlo.BROADCAST_BINARY[name] for name in _COUNTERPART))
def _broadcast_binary(
    interp: Interpreter, op: chlo.BroadcastBinaryOp, args: Arrays, types: Types
) -> Arrays:
    proxy = _COUNTERPART[op.name.removeprefix("chlo.")].create(result_types=list(types))
    return _counterpart(interp, op, proxy, broadcast(args, _dims(op)), types)


@implements(chlo.BroadcastCompareOp)
def _broadcast_compare(
    interp: Interpreter, op: chlo.BroadcastCompareOp, args: Arrays, types: Types
) -> Arrays:
    props: dict[str, Attribute] = {
        "comparison_direction": ComparisonDirectionAttr(op.comparison_direction.data)
    }
    if op.compare_type is not None:
        props["compare_type"] = ComparisonTypeAttr(op.compare_type.data)
    proxy = sh.CompareOp.create(result_types=list(types), properties=props)
    return _counterpart(interp, op, proxy, broadcast(args, _dims(op)), types)


@implements(chlo.BroadcastComplexOp, quantized="none")
def _broadcast_complex(
    interp: Interpreter, op: chlo.BroadcastComplexOp, args: Arrays, types: Types
) -> Arrays:
    proxy = sn.ComplexOp.create(result_types=list(types))
    return _counterpart(interp, op, proxy, broadcast(args, _dims(op)), types)


@implements(chlo.BroadcastSelectOp, quantized="storage")
def _broadcast_select(
    interp: Interpreter, op: chlo.BroadcastSelectOp, args: Arrays, types: Types
) -> Arrays:
    pred, on_true, on_false = broadcast(args, None)
    return [np.where(pred, on_true, on_false)]


@implements(chlo.MulhiOp, quantized="none")
def _mulhi(interp: Interpreter, op: chlo.MulhiOp, args: Arrays, types: Types) -> Arrays:
    """The high `width` bits of the exact `2 * width`-bit product (Python integers: no
    overflow at 64 bits)."""
    a, b = (np.asarray(x) for x in args)
    width = a.dtype.itemsize * 8
    products = [int(x) * int(y) >> width for x, y in zip(a.reshape(-1), b.reshape(-1), strict=True)]
    info = np.iinfo(a.dtype)
    wrapped = [(p - info.min) % (1 << width) + info.min for p in products]
    return [np.array(wrapped, dtype=a.dtype).reshape(a.shape)]


_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "acos": np.arccos,
    "acosh": np.arccosh,
    "asin": np.arcsin,
    "asinh": np.arcsinh,
    "atan": np.arctan,
    "atanh": np.arctanh,
    "cosh": np.cosh,
    "sinh": np.sinh,
    "tan": np.tan,
    "square": np.square,
    "conj": np.conj,
    "erf": np.vectorize(math.erf, otypes=[float]),
    "erfc": np.vectorize(math.erfc, otypes=[float]),
    "lgamma": np.vectorize(math.lgamma, otypes=[float]),
    "is_inf": np.isinf,
    "is_neg_inf": np.isneginf,
    "is_pos_inf": np.isposinf,
}


@implements(*(chlo.UNARY[name] for name in _UNARY))
def _unary(interp: Interpreter, op: chlo.UnaryOp, args: Arrays, types: Types) -> Arrays:
    (x,) = args
    out = _UNARY[op.name.removeprefix("chlo.")](x)
    return [np.asarray(out) if out.dtype == np.bool_ else np.asarray(out).astype(x.dtype)]


@implements(chlo.BROADCAST_BINARY["broadcast_next_after"])
def _next_after(
    interp: Interpreter, op: chlo.BroadcastBinaryOp, args: Arrays, types: Types
) -> Arrays:
    a, b = broadcast(args, _dims(op))
    return [np.nextafter(a, b)]


@implements(chlo.BINARY["next_after"])
def _plain_next_after(interp: Interpreter, op: chlo.BinaryOp, args: Arrays, types: Types) -> Arrays:
    """The next representable value after x towards y, in x's type."""
    return [np.nextafter(args[0], args[1])]


@implements(chlo.ConstantOp, quantized="none")
def _constant(interp: Interpreter, op: chlo.ConstantOp, args: Arrays, types: Types) -> Arrays:
    from qdialect.interpreter.values import from_dense

    return [from_dense(op.value, types[0])]


@implements(chlo.ConstantLikeOp, quantized="none")
def _constant_like(
    interp: Interpreter, op: chlo.ConstantLikeOp, args: Arrays, types: Types
) -> Arrays:
    value = getattr(op.value, "value", None)
    data = getattr(value, "data", None)
    if data is None:
        raise InterpreterError(f"'{op.name}' needs an integer or float value")
    return [np.full(args[0].shape, data, dtype=dtype_of(types[0]))]


@implements(chlo.TopKOp, quantized="storage")
def _top_k(interp: Interpreter, op: chlo.TopKOp, args: Arrays, types: Types) -> Arrays:
    """The k largest along the last dimension, largest first; ties keep the lower index
    first (a stable sort)."""
    (x,) = args
    k = op.k.value.data
    key = -x if x.dtype.kind == "f" else ~x.astype(np.int8 if x.dtype == np.bool_ else x.dtype)
    order = np.argsort(key, axis=-1, kind="stable")[..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


def _shape(t: Attribute) -> tuple[int, ...]:
    return tuple(ht.shape_of(t) or ())


def _placed(values: np.ndarray, dims: Sequence[int], rank: int) -> np.ndarray:
    """`values` (one axis per entry of `dims`) as an array of `rank` axes that broadcasts
    against an array whose axes `dims` it gives (the other axes of size 1)."""
    expanded = values.reshape(values.shape + (1,) * (rank - len(dims)))
    return np.moveaxis(expanded, range(len(dims)), dims)


def _group_masks(d: RaggedDotDims, lhs: np.ndarray, sizes: np.ndarray) -> list[np.ndarray]:
    """Per group, the lhs entries (along the ragged dimension, per position of the
    dimensions `group_sizes` is indexed by) that belong to it: consecutive runs of
    `group_sizes` entries; entries past the last group belong to none."""
    ragged = d.lhs_ragged_dimensions[0]
    prefix = group_prefix_dims(d, lhs.ndim)
    sizes = sizes.astype(np.int64)
    if sizes.ndim == 1:
        sizes = np.broadcast_to(sizes, tuple(lhs.shape[i] for i in prefix) + sizes.shape)
    ends = np.cumsum(sizes, axis=-1)
    starts = ends - sizes
    index = _placed(np.arange(lhs.shape[ragged]), [ragged], lhs.ndim)
    return [
        (index >= _placed(starts[..., g], prefix, lhs.ndim))
        & (index < _placed(ends[..., g], prefix, lhs.ndim))
        for g in range(sizes.shape[-1])
    ]


@implements(chlo.RaggedDotOp, quantized="none")
def _ragged_dot(interp: Interpreter, op: chlo.RaggedDotOp, args: Arrays, types: Types) -> Arrays:
    """dot_general per group: a ragged row dimension takes each group's rows from the
    product with that group's rhs (rows past the last group are zero); a ragged
    contraction gives one product per group over its entries only (both operands
    masked, so an infinity outside the group cannot make 0 * inf); a ragged batch
    dimension is a plain batched dot_general, every batch entry computed whatever the
    group sizes (as XLA and chlo-legalize-to-stablehlo do)."""
    if any(ht.is_quantized(v.type) for v in op.operands):
        raise InterpreterError(f"'{op.name}' on quantized types is not supported")
    lhs, rhs, sizes = args
    d = op.ragged_dot_dimension_numbers.data
    lb, rb = d.lhs_batching_dimensions, d.rhs_batching_dimensions
    lc, rc = d.lhs_contracting_dimensions, d.rhs_contracting_dimensions
    dtype = dtype_of(types[0])
    mode = mode_of(d)
    if mode == Mode.BATCH:  # the groups split batch entries, which never mix anyway
        return [dot_general(lhs, rhs, lb, rb, lc, rc).astype(dtype)]
    masks = _group_masks(d, lhs, sizes)
    lf = [i for i in range(lhs.ndim) if i not in lb and i not in lc]
    if mode == Mode.CONTRACTING:
        rhs_source = dict(zip(rb, lb, strict=True)) | dict(zip(rc, lc, strict=True))
        mapped = [j for j in range(rhs.ndim) if j in rhs_source]
        rest = [i for i in range(lhs.ndim) if i not in rhs_source.values()]
        rhs_shape = [lhs.shape[rhs_source[j]] if j in rhs_source else 1 for j in range(rhs.ndim)]
        parts = []
        for mask in masks:
            full = np.broadcast_to(mask, lhs.shape)
            kept = [s if i in rhs_source.values() else 1 for i, s in enumerate(lhs.shape)]
            order = [rhs_source[j] for j in mapped] + rest
            rhs_mask = np.transpose(np.broadcast_to(mask, kept), order).reshape(rhs_shape)
            parts.append(
                dot_general(
                    np.where(full, lhs, np.zeros((), lhs.dtype)),
                    np.where(rhs_mask, rhs, np.zeros((), rhs.dtype)),
                    lb,
                    rb,
                    lc,
                    rc,
                )
            )
        return [np.stack(parts).astype(dtype)]
    rhs_free = rhs.ndim - len(rb) - len(rc) - len(d.rhs_group_dimensions)

    def in_result(mask: np.ndarray) -> np.ndarray:
        picked = np.transpose(mask, [*lb, *lf, *lc])
        return picked.reshape(picked.shape[: len(lb) + len(lf)] + (1,) * rhs_free)

    (group_dim,) = d.rhs_group_dimensions
    rb_g = [j - (j > group_dim) for j in rb]
    rc_g = [j - (j > group_dim) for j in rc]
    out = np.zeros(_shape(types[0]), dtype=np.result_type(lhs, rhs))
    for g, mask in enumerate(masks):
        product = dot_general(lhs, np.take(rhs, g, axis=group_dim), lb, rb_g, lc, rc_g)
        out = np.where(in_result(mask), product, out)
    return [out.astype(dtype)]


@implements(chlo.ScanOp, quantized="none")
def _scan(interp: Interpreter, op: chlo.ScanOp, args: Arrays, types: Types) -> Arrays:
    """The body once per index of the scan dimension (from the end with `is_reverse`),
    on that slice of each input and the carries; outputs stacked back along it."""
    n_inputs, n_outputs = len(op.inputs), len(op.outputs)
    inputs, carries = args[:n_inputs], list(args[n_inputs:])
    dim = op.dimension.value.data
    length = _shape(types[0])[dim] if n_outputs else inputs[0].shape[dim]
    if inputs:
        length = inputs[0].shape[dim]
    steps: list[Arrays] = [[] for _ in range(length)]
    order = (
        range(length - 1, -1, -1) if op.is_reverse and op.is_reverse.value.data else range(length)
    )
    for i in order:
        values = interp.run_region(op.body, [np.take(x, i, axis=dim) for x in inputs] + carries)
        steps[i], carries = values[:n_outputs], values[n_outputs:]
    outputs = [
        np.stack([step[k] for step in steps], axis=dim)
        if length
        else np.zeros(_shape(types[k]), dtype=dtype_of(types[k]))
        for k in range(n_outputs)
    ]
    return [*outputs, *carries]
