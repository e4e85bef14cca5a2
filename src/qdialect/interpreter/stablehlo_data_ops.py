"""Semantics of reverse, scatter, select_and_scatter, dynamic_update_slice,
get_dimension_size and the dynamic-shape ops (the spec's, on numpy arrays).

The dynamic ops take their shapes, sizes and paddings from operand values; a
value that disagrees with the static result type is reported, not guessed
around. Data movement keeps quantized storage integers as they are.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo_data as sd
from qdialect.dialects.hlo_syntax import dense_i64, dense_values
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.stablehlo_ops import _gather, _pad
from qdialect.interpreter.values import InterpreterError
from qdialect.interpreter.windows import convolution


def _ints(x: np.ndarray) -> list[int]:
    return [int(i) for i in np.asarray(x).reshape(-1)]


def _check_shape(op, shape: list[int], t) -> None:
    expected = ht.shape_of(t)
    if expected is not None and not ht.shapes_compatible(tuple(shape), expected):
        raise InterpreterError(
            f"'{op.name}' computes shape {ht.shape_text(tuple(shape))} but its result type is {t}"
        )
    if any(d < 0 for d in shape):
        raise InterpreterError(f"'{op.name}' got a negative dimension size in {shape}")


@implements(sd.ReverseOp, quantized="storage")
def _reverse(interp: Interpreter, op: sd.ReverseOp, args: Arrays, types: Types) -> Arrays:
    dims = dense_values(op.dimensions)
    return [np.flip(args[0], axis=dims).copy() if dims else args[0]]


@implements(sd.GetDimensionSizeOp, quantized="none")
def _get_dimension_size(
    interp: Interpreter, op: sd.GetDimensionSizeOp, args: Arrays, types: Types
) -> Arrays:
    return [np.asarray(args[0].shape[op.dimension.value.data], dtype=np.int32)]


@implements(sd.DynamicUpdateSliceOp, quantized="storage")
def _dynamic_update_slice(
    interp: Interpreter, op: sd.DynamicUpdateSliceOp, args: Arrays, types: Types
) -> Arrays:
    x, update, *starts = args
    out = x.copy()
    index = []
    for d, start in enumerate(starts):  # the spec clamps each start to fit the update
        s = int(np.clip(int(start), 0, x.shape[d] - update.shape[d]))
        index.append(slice(s, s + update.shape[d]))
    out[tuple(index)] = update
    return [out]


@implements(sd.DynamicIotaOp, quantized="none")
def _dynamic_iota(interp: Interpreter, op: sd.DynamicIotaOp, args: Arrays, types: Types) -> Arrays:
    shape = _ints(args[0])
    _check_shape(op, shape, types[0])
    dim = op.iota_dimension.value.data
    index = np.arange(shape[dim]).reshape([-1 if d == dim else 1 for d in range(len(shape))])
    return [np.broadcast_to(index, shape).astype(v.dtype_of(types[0]))]


@implements(sd.DynamicBroadcastInDimOp, quantized="storage")
def _dynamic_broadcast_in_dim(
    interp: Interpreter, op: sd.DynamicBroadcastInDimOp, args: Arrays, types: Types
) -> Arrays:
    x, out_dims = args
    shape = _ints(out_dims)
    _check_shape(op, shape, types[0])
    dims = dense_values(op.broadcast_dimensions)
    expanded = [1] * len(shape)
    for i, d in enumerate(dims):
        if x.shape[i] not in (1, shape[d]):
            raise InterpreterError(
                f"'{op.name}' cannot broadcast operand dimension {i} (size {x.shape[i]}) "
                f"to size {shape[d]}"
            )
        expanded[d] = x.shape[i]
    return [np.broadcast_to(x.reshape(expanded), shape).copy()]


@implements(sd.DynamicReshapeOp, quantized="storage")
def _dynamic_reshape(
    interp: Interpreter, op: sd.DynamicReshapeOp, args: Arrays, types: Types
) -> Arrays:
    shape = _ints(args[1])
    _check_shape(op, shape, types[0])
    if int(np.prod(shape)) != args[0].size:
        raise InterpreterError(
            f"'{op.name}' cannot reshape {args[0].size} elements to shape {shape}"
        )
    return [args[0].reshape(shape)]


@implements(sd.DynamicPadOp, quantized="storage")
def _dynamic_pad(interp: Interpreter, op: sd.DynamicPadOp, args: Arrays, types: Types) -> Arrays:
    x, value, low, high, interior = args
    if any(i < 0 for i in _ints(interior)):
        raise InterpreterError(f"'{op.name}' interior padding must be non-negative")
    static = SimpleNamespace(
        edge_padding_low=dense_i64(_ints(low)),
        edge_padding_high=dense_i64(_ints(high)),
        interior_padding=dense_i64(_ints(interior)),
    )
    (out,) = _pad(interp, static, [x, value], types)  # type: ignore[arg-type]
    _check_shape(op, list(out.shape), types[0])
    return [out]


@implements(sd.RealDynamicSliceOp, quantized="storage")
def _real_dynamic_slice(
    interp: Interpreter, op: sd.RealDynamicSliceOp, args: Arrays, types: Types
) -> Arrays:
    x = args[0]
    s, lim, st = (_ints(a) for a in args[1:])
    for d, (a, b, c) in enumerate(zip(s, lim, st, strict=True)):
        if not (0 <= a <= b <= x.shape[d]) or c < 1:
            raise InterpreterError(
                f"'{op.name}' slice [{a}:{b}:{c}] does not fit dimension {d} (size {x.shape[d]})"
            )
    out = x[tuple(slice(a, b, c) for a, b, c in zip(s, lim, st, strict=True))]
    _check_shape(op, list(out.shape), types[0])
    return [out]


class _Dense:
    """A stand-in for a dense padding attribute built from runtime values."""

    def __init__(self, values: list[int]):
        self.values = values

    def get_values(self) -> list[int]:
        return self.values


@implements(sd.DynamicGatherOp, quantized="storage")
def _dynamic_gather(
    interp: Interpreter, op: sd.DynamicGatherOp, args: Arrays, types: Types
) -> Arrays:
    operand, indices, sizes = args
    static = SimpleNamespace(
        dimension_numbers=op.dimension_numbers, slice_sizes=dense_i64(_ints(sizes))
    )
    for d, size in enumerate(_ints(sizes)):
        if not 0 <= size <= operand.shape[d]:
            raise InterpreterError(
                f"'{op.name}' slice size {size} does not fit dimension {d} (size {operand.shape[d]})"
            )
    (out,) = _gather(interp, static, [operand, indices], types)  # type: ignore[arg-type]
    _check_shape(op, list(out.shape), types[0])
    return [out]


@implements(sd.DynamicConvOp)
def _dynamic_conv(interp: Interpreter, op: sd.DynamicConvOp, args: Arrays, types: Types) -> Arrays:
    from qdialect.interpreter.stablehlo_ops import exact_matmul

    lhs, rhs, padding = args
    static = SimpleNamespace(
        dimension_numbers=op.dimension_numbers,
        window_strides=op.window_strides,
        lhs_dilation=op.lhs_dilation,
        rhs_dilation=op.rhs_dilation,
        window_reversal=op.window_reversal,
        padding=_Dense(_ints(padding)),
        feature_group_count=op.feature_group_count,
        batch_group_count=op.batch_group_count,
    )
    out = convolution(static, lhs, rhs, exact_matmul)
    _check_shape(op, list(out.shape), types[0])
    return [out.astype(v.dtype_of(types[0]))]


# --------------------------------------------------------------------------
# scatter and select_and_scatter: the spec's pseudocode, one update at a time
# --------------------------------------------------------------------------


@implements(sd.ScatterOp, quantized="none")
def _scatter(interp: Interpreter, op: sd.ScatterOp, args: Arrays, types: Types) -> Arrays:
    n = (len(args) - 1) // 2
    inputs, indices, updates = args[:n], args[n], args[n + 1 :]
    d = op.scatter_dimension_numbers.data
    # Promotion: results take the update computation's types (i8 updates summed in i32).
    results = [x.astype(v.dtype_of(t)) for x, t in zip(inputs, types, strict=True)]
    rank = inputs[0].ndim
    ivd = d.index_vector_dim
    update_scatter_dims = [i for i in range(updates[0].ndim) if i not in d.update_window_dims]
    window_operand_dims = [
        i for i in range(rank) if i not in d.inserted_window_dims and i not in d.input_batching_dims
    ]
    body = op.update_computation
    for update_index in itertools.product(*(range(s) for s in updates[0].shape)):
        scatter_index = [update_index[i] for i in update_scatter_dims]
        # The index vector: the scatter index with the index_vector_dim spliced in.
        if ivd < indices.ndim:
            start = [
                int(indices[tuple([*scatter_index[:ivd], k, *scatter_index[ivd:]])])
                for k in range(indices.shape[ivd])
            ]
        else:
            start = [int(indices[tuple(scatter_index)])]
        full_start = [0] * rank
        for k, od in enumerate(d.scatter_dims_to_operand_dims):
            full_start[od] = start[k]
        full_batching = [0] * rank
        index_batch_dims = [i for i in range(indices.ndim) if i != ivd]
        for od, bd in zip(d.input_batching_dims, d.scatter_indices_batching_dims, strict=True):
            full_batching[od] = scatter_index[index_batch_dims.index(bd)]
        window_index = [update_index[i] for i in d.update_window_dims]
        full_window = [0] * rank
        for od, w in zip(window_operand_dims, window_index, strict=True):
            full_window[od] = w
        result_index = tuple(
            a + b + c for a, b, c in zip(full_start, full_batching, full_window, strict=True)
        )
        if not all(0 <= i < s for i, s in zip(result_index, inputs[0].shape, strict=True)):
            continue  # the spec: out-of-bounds updates are skipped
        current = [np.asarray(r[result_index]) for r in results]
        new = [np.asarray(u[update_index]) for u in updates]
        combined = interp.run_region(body, [*current, *new])
        for r, c in zip(results, combined, strict=True):
            r[result_index] = c
    return results


@implements(sd.SelectAndScatterOp, quantized="none")
def _select_and_scatter(
    interp: Interpreter, op: sd.SelectAndScatterOp, args: Arrays, types: Types
) -> Arrays:
    """Each window selects one operand element with `select` (padding is never selected);
    `scatter` folds the window's source value into the result there (init elsewhere)."""
    operand, source, init = args
    rank = operand.ndim
    window = dense_values(op.window_dimensions) or (1,) * rank
    strides = dense_values(op.window_strides) or (1,) * rank
    flat = (
        [int(x) for x in op.padding.get_values()]  # type: ignore[arg-type]  # integer padding
        if op.padding is not None
        else [0] * 2 * rank
    )
    low = flat[0::2]
    result = np.full(operand.shape, init, dtype=v.dtype_of(types[0]))  # the scatter body's type
    for source_index in itertools.product(*(range(s) for s in source.shape)):
        selected: tuple[int, ...] | None = None
        for offset in itertools.product(*(range(w) for w in window)):
            index = tuple(source_index[k] * strides[k] + offset[k] - low[k] for k in range(rank))
            if not all(0 <= i < s for i, s in zip(index, operand.shape, strict=True)):
                continue
            if selected is None:
                selected = index
                continue
            (keep,) = interp.run_region(
                op.select, [np.asarray(operand[selected]), np.asarray(operand[index])]
            )
            if not bool(np.asarray(keep)):
                selected = index
        if selected is None:
            continue
        (value,) = interp.run_region(
            op.scatter, [np.asarray(result[selected]), np.asarray(source[source_index])]
        )
        result[selected] = value
    return [result]
