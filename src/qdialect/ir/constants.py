"""Reading compile-time constants, whichever dialect defines them.

Constant ops (`tosa.const`, `tosa.const_shape`, `stablehlo.constant`) carry xDSL's
`ConstantLike` trait and a `HasFolder` that folds to their dense attribute, so passes,
verifiers and the lowering read any of them through `constant_array` without
importing the dialects (this module imports none).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ShapedType,
    Signedness,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.traits import ConstantLike


def constant_attr(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The dense attribute a constant-like op folds `value` to, else None."""
    attr = ConstantLike.get_constant_value(value)
    return attr if isinstance(attr, DenseIntOrFPElementsAttr) else None


def constant_array(value: SSAValue, *, integer: bool = True) -> np.ndarray | None:
    """`value`'s elements, shaped as its type (a splat expanded), when a constant-like op
    defines it: int64 for integer elements (None for float ones when `integer`), float64
    for float elements otherwise."""
    attr = constant_attr(value)
    if attr is None:
        return None
    shaped = attr.type
    is_int = isinstance(shaped.get_element_type(), IntegerType | IndexType)
    if integer and not is_int:
        return None
    result_type = value.type
    shape = tuple(
        result_type.get_shape() if isinstance(result_type, ShapedType) else shaped.get_shape()
    )
    array = dense_values(attr).astype(np.int64 if is_int else np.float64, copy=False)
    if array.size == 1 and int(np.prod(shape, dtype=np.int64)) != 1:
        return np.full(shape, array[0], array.dtype)
    return array.reshape(shape)


def dense_values(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """`attr`'s elements, flat, read from its bytes without a Python number per element
    (a large splat is a 64M-element constant); other element types through xDSL."""
    element = attr.get_element_type()
    raw = attr.data.data
    if isinstance(element, IntegerType | IndexType):
        width = 64 if isinstance(element, IndexType) else element.width.data
        if width in (8, 16, 32, 64):
            unsigned = (
                isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED
            )
            return np.frombuffer(raw, f"<{'u' if unsigned else 'i'}{width // 8}")
    if isinstance(element, Float32Type | Float64Type):
        return np.frombuffer(raw, f"<f{element.compile_time_size}")
    return np.asarray(attr.get_values()).reshape(-1)


def erase_if_unused(value: SSAValue) -> None:
    """Erase the constant op that made `value` (or a reshape of one...) once nothing
    reads it, and so on up its operands: a rewrite that replaces a constant (weights
    laid out anew) leaves no dead constant behind for the host to run."""
    op = value.owner
    if not isinstance(op, Operation) or any(r.uses for r in op.results) or op.regions:
        return
    if op.parent_block() is None or not op.has_trait(ConstantLike):
        return
    operands = list(op.operands)
    op.detach()
    op.erase()
    for v in operands:
        erase_if_unused(v)


def integer_attr(values: np.ndarray, element_type: IntegerType) -> DenseIntOrFPElementsAttr:
    """A dense integer tensor attribute of `values` (their shape), from their bytes:
    building it element by element costs seconds for a layer's weights."""
    width = element_type.width.data
    if width not in (8, 16, 32, 64):
        raise ValueError(f"no byte layout for i{width} constants")
    info = np.iinfo(f"int{width}")
    if values.size and (values.min() < info.min or values.max() > info.max):
        raise ValueError(f"constant values outside the range of i{width}")
    data = np.ascontiguousarray(values, dtype=f"<i{width // 8}").tobytes()
    return DenseIntOrFPElementsAttr(TensorType(element_type, list(values.shape)), BytesAttr(data))


def float_attr(
    values: np.ndarray, element_type: Float32Type | Float64Type
) -> DenseIntOrFPElementsAttr:
    """A dense float tensor attribute of `values` (their shape), from their bytes."""
    dtype = "<f4" if isinstance(element_type, Float32Type) else "<f8"
    data = np.ascontiguousarray(values, dtype=dtype).tobytes()
    return DenseIntOrFPElementsAttr(TensorType(element_type, list(values.shape)), BytesAttr(data))
