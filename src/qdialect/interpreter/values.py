"""Runtime values of the interpreter: numpy arrays, and how MLIR types map onto them.

A tensor of a quantized type is held as its *storage integers* (an int8 array
for `!quant.uniform<i8:...>`); the type on the SSA value says how to read it.
Quantization and dequantization go through `qdialect.numerics`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute

from qdialect import numerics
from qdialect.dialects import hlo_types as ht
from qdialect.dialects.quant import UniformQuantizedType
from qdialect.dialects.stablehlo_token import is_token
from qdialect.ir.float_format import FLOAT_FORMATS, ml_dtype


class InterpreterError(Exception):
    """A program the interpreter cannot run (unsupported op, bad input, ...)."""


def element_dtype(e: Attribute) -> np.dtype:
    """numpy dtype holding elements of type `e` (storage dtype for quantized types)."""
    if isinstance(e, UniformQuantizedType):
        if (name := e.float_storage_name) is not None:
            return ml_dtype(FLOAT_FORMATS[name])
        return numerics.storage_dtype(e.storage_width, e.is_signed)
    if isinstance(e, Float32Type):
        return np.dtype(np.float32)
    if isinstance(e, Float64Type):
        return np.dtype(np.float64)
    if isinstance(e, Float16Type):
        return np.dtype(np.float16)
    if isinstance(e, BFloat16Type):
        return numerics.expressed_dtype("bf16")
    if isinstance(e, ComplexType):
        part = e.get_element_type()
        if isinstance(part, Float32Type):
            return np.dtype(np.complex64)
        if isinstance(part, Float64Type):
            return np.dtype(np.complex128)
        raise InterpreterError(f"unsupported element type {e} (complex<f32> and complex<f64> run)")
    fmt = FLOAT_FORMATS.get(getattr(e, "name", ""))
    if fmt is not None and fmt.ml_dtype:  # the f8 types
        return ml_dtype(fmt)
    if isinstance(e, IntegerType):
        width = e.width.data
        if width == 1:
            return np.dtype(np.bool_)
        signed = e.signedness.data != Signedness.UNSIGNED
        return numerics.storage_dtype(width, signed)
    if isinstance(e, IndexType) or getattr(e, "name", "") == "tosa.shape":
        return np.dtype(np.int64)
    raise InterpreterError(f"unsupported element type {e}")


def is_float_dtype(d: np.dtype) -> bool:
    """numpy's floats and ml_dtypes' (bf16, f8, f6, f4), whose numpy kind is not "f"."""
    return d.kind == "f" or d.type.__module__ == "ml_dtypes"


def dtype_of(t: Attribute) -> np.dtype:
    return element_dtype(ht.element_type(t))


def as_result(value: np.ndarray, t: Attribute) -> np.ndarray:
    """An op's computed value as a value of type `t`: its dtype, and integers narrower
    than their numpy dtype (i4, ui2, i12, ...) wrapped to their width, as StableHLO's
    integer arithmetic and MLIR's APInt wrap (7 + 1 in i4 is -8)."""
    if is_token(t):
        return TOKEN
    value = np.asarray(value)
    dtype = dtype_of(t)
    if value.dtype != dtype:
        value = value.astype(dtype)
    e = ht.element_type(t)
    if isinstance(e, IntegerType) and e.width.data not in (1, 8, 16, 32, 64):
        return numerics.wrap_integer(value, e.width.data, e.signedness.data != Signedness.UNSIGNED)
    return value


def expressed_type(t: Attribute) -> Attribute:
    """The float tensor type a quantized tensor type dequantizes to (identity otherwise)."""
    q = ht.quant_type(t)
    if q is None:
        return t
    assert isinstance(t, TensorType)
    return TensorType(q.expressed_type, t.get_shape())


def dequantize(value: np.ndarray, t: Attribute) -> np.ndarray:
    q = ht.quant_type(t)
    if q is None:
        return value
    return numerics.dequantize(
        value,
        q.scales,
        q.zero_points,
        axis=q.axis,
        expressed=q.expressed_type_name,
        scales_shape=q.scales_shape if q.is_sub_channel else None,
    )


def quantize(value: np.ndarray, t: Attribute) -> np.ndarray:
    q = ht.quant_type(t)
    if q is None:
        return value
    if (name := q.float_storage_name) is not None:
        return numerics.quantize_to_float(
            value,
            q.scales,
            q.zero_points,
            q.storage_min,
            q.storage_max,
            storage=ml_dtype(FLOAT_FORMATS[name]),
            axis=q.axis,
            expressed=q.expressed_type_name,
            scales_shape=q.scales_shape if q.is_sub_channel else None,
        )
    return numerics.quantize(
        value,
        q.scales,
        q.zero_points,
        q.storage_min,
        q.storage_max,
        storage_bits=q.storage_width,
        signed=q.is_signed,
        axis=q.axis,
        expressed=q.expressed_type_name,
        scales_shape=q.scales_shape if q.is_sub_channel else None,
    )


def from_dense(attr: DenseIntOrFPElementsAttr, result_type: Attribute) -> np.ndarray:
    """A dense elements attribute as an array of `result_type`'s runtime dtype.

    xDSL keeps the elements as little-endian bytes; those are read directly
    (vectorized) whenever the element width is a whole number of bytes.
    """
    value_type = attr.type
    shape = tuple(value_type.get_shape())
    count = int(np.prod(shape))
    dtype = dtype_of(result_type)
    element = value_type.get_element_type()
    raw = attr.data.data
    if isinstance(element, IntegerType) and element.width.data == 1:
        array = np.frombuffer(raw, dtype=np.uint8) != 0
    elif isinstance(element, IntegerType) and element.width.data % 8:
        array = np.array(attr.get_values(), dtype=np.int64)
    else:
        src = element_dtype(element)
        if isinstance(element, IntegerType):
            src = np.dtype(f"i{src.itemsize}")  # signless bytes; reinterpreted below
        array = np.frombuffer(raw, dtype=src.newbyteorder("<"))
    if array.size != count:
        raise InterpreterError(
            f"constant {value_type} holds {array.size} elements, expected {count}"
        )
    return array.reshape(shape).astype(dtype)


TOKEN = np.zeros((), dtype=np.bool_)
"""The value of every `!stablehlo.token`: tokens order effects and carry no data."""


def check_argument(value: np.ndarray, t: Attribute, what: str) -> np.ndarray:
    """Validate (and convert) an input array against a function argument type."""
    if is_token(t):
        return TOKEN
    shape = ht.shape_of(t)
    if shape is not None:
        if len(value.shape) != len(shape) or any(
            d >= 0 and d != v for d, v in zip(shape, value.shape, strict=True)
        ):
            raise InterpreterError(
                f"{what} has shape {list(value.shape)}, expected {ht.shape_text(shape)} ({t})"
            )
    dtype = dtype_of(t)
    if value.dtype != dtype:
        if value.dtype.kind in "iub" and dtype.kind in "iub":
            info = np.iinfo(dtype) if dtype.kind != "b" else None
            if (
                info is not None
                and value.size
                and (value.min() < info.min or value.max() > info.max)
            ):
                raise InterpreterError(f"{what} has values outside the range of {dtype}")
        elif value.dtype.kind != dtype.kind and not (
            value.dtype.kind in "iu" and dtype.kind == "f"
        ):
            raise InterpreterError(f"{what} has dtype {value.dtype}, expected {dtype} ({t})")
        value = value.astype(dtype)
    return value


def random_value(t: Attribute, rng: np.random.Generator) -> np.ndarray:
    """A random input for a tensor type: N(0,1) floats, full-range integers, storage-range quantized."""
    shape = ht.shape_of(t)
    if shape is None or any(d < 0 for d in shape):
        raise InterpreterError(f"cannot make a random input of dynamic type {t}")
    if len(shape) > 32:
        raise InterpreterError(f"cannot make a random input of rank above 32 ({t})")
    try:
        return _random_array(t, shape, rng)
    except MemoryError:
        raise InterpreterError(f"out of memory making a random input of type {t}") from None


def _random_array(t: Attribute, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    e = ht.element_type(t)
    dtype = element_dtype(e)
    q = ht.quant_type(t)
    if q is not None:
        return rng.integers(q.storage_min, q.storage_max + 1, size=shape).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
