"""Reading compile-time constants, whichever dialect defines them.

Constant ops (`tosa.const`, `tosa.const_shape`, `stablehlo.constant`) carry xDSL's
`ConstantLike` trait and a `HasFolder` that folds to their dense attribute, so passes,
verifiers and the lowering read any of them through `constant_array` without
importing the dialects (this module imports none).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IndexType, IntegerType, ShapedType
from xdsl.ir import SSAValue
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
    array = np.asarray(attr.get_values(), np.int64 if is_int else np.float64).reshape(-1)
    if array.size == 1 and int(np.prod(shape, dtype=np.int64)) != 1:
        return np.full(shape, array[0], array.dtype)
    return array.reshape(shape)
