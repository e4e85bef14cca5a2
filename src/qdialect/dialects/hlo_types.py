"""Type predicates the StableHLO spec's constraints are written in.

`is_quantized`, `is_per_axis_quantized`, `baseline_element_type`, compatible
shapes with dynamic dimensions — one definition each, used by every verifier
(and later by the TOSA-like dialect and the interpreter).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects.quant import UniformQuantizedType

FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)

Shape = tuple[int, ...] | None  # None: unranked


def element_type(t: Attribute) -> Attribute:
    if isinstance(t, TensorType | UnrankedTensorType):
        return t.get_element_type()
    return t


def shape_of(t: Attribute) -> Shape:
    if isinstance(t, TensorType):
        return tuple(t.get_shape())
    return None


def rank_of(t: Attribute) -> int | None:
    shape = shape_of(t)
    return None if shape is None else len(shape)


def is_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType | UnrankedTensorType)


def quant_type(t: Attribute) -> UniformQuantizedType | None:
    e = element_type(t)
    return e if isinstance(e, UniformQuantizedType) else None


def is_quantized(t: Attribute) -> bool:
    return quant_type(t) is not None


def is_per_axis_quantized(t: Attribute) -> bool:
    q = quant_type(t)
    return q is not None and q.is_per_axis


def is_per_tensor_quantized(t: Attribute) -> bool:
    q = quant_type(t)
    return q is not None and not q.is_per_axis and not q.is_sub_channel


def is_sub_channel_quantized(t: Attribute) -> bool:
    """Blockwise parameters: beyond the StableHLO spec; only uniform_quantize and
    uniform_dequantize take them (docs/quant-types.md)."""
    q = quant_type(t)
    return q is not None and q.is_sub_channel


def is_float(e: Attribute) -> bool:
    return isinstance(e, FLOAT_TYPES)


def is_complex(e: Attribute) -> bool:
    return isinstance(e, ComplexType)


def bit_width(e: Attribute) -> int | None:
    """An element type's width in bits (a quantized type's storage width, a complex
    number's two parts); None for types without one."""
    if isinstance(e, UniformQuantizedType):
        return e.storage_width
    if isinstance(e, IntegerType):
        return e.width.data
    if isinstance(e, ComplexType):
        part = bit_width(e.element_type)  # type: ignore[arg-type]
        return None if part is None else 2 * part
    return getattr(e, "bitwidth", None)


def is_bool(e: Attribute) -> bool:
    return isinstance(e, IntegerType) and e.width.data == 1


def is_integer(e: Attribute) -> bool:
    """Integer element type other than i1 (StableHLO's "integer type")."""
    return isinstance(e, IntegerType) and e.width.data != 1


def is_signed_integer(e: Attribute) -> bool:
    return is_integer(e) and e.signedness.data != Signedness.UNSIGNED


def is_unsigned_integer(e: Attribute) -> bool:
    return is_integer(e) and e.signedness.data == Signedness.UNSIGNED


def is_index_like(e: Attribute) -> bool:
    return is_integer(e) or isinstance(e, IndexType)


def baseline_element_type(e: Attribute) -> Attribute | tuple:
    """The element type with quantization scales/zero points erased (spec: baseline_element_type).

    Two quantized element types with equal baselines differ only in scales and
    zero points; a per-axis type also keeps its axis.
    """
    if isinstance(e, UniformQuantizedType):
        return (
            "quant",
            e.storage_width,
            e.is_signed,
            e.float_storage,
            e.storage_min,
            e.storage_max,
            e.expressed_type,
            e.axis,
            e.block_sizes,
        )
    return e


def elements_compatible(a: Attribute, b: Attribute) -> bool:
    """Upstream's isCompatibleElementTypeForHloTypeInference on two tensors' element types:
    equal, or both quantized with the same storage type, range and expressed type and the
    same granularity (per tensor or per axis); scales and zero points may differ."""
    ea, eb = element_type(a), element_type(b)
    if isinstance(ea, UniformQuantizedType) and isinstance(eb, UniformQuantizedType):
        keys = [
            (e.storage_width, e.is_signed, e.float_storage, e.storage_min, e.storage_max,
             e.expressed_type, e.axis is None)
            for e in (ea, eb)
        ]  # fmt: skip
        return keys[0] == keys[1]
    return ea == eb


def part_type(t: Attribute) -> Attribute:
    """The type of a complex tensor's real (or imaginary) parts, or of its magnitudes
    (`abs`): `tensor<2xcomplex<f32>>` -> `tensor<2xf32>`; other types unchanged."""
    e = element_type(t)
    if isinstance(t, TensorType) and isinstance(e, ComplexType):
        return TensorType(e.get_element_type(), t.get_shape())
    return t


def dims_compatible(a: int, b: int) -> bool:
    return a == b or a == DYNAMIC_INDEX or b == DYNAMIC_INDEX


def shapes_compatible(a: Shape, b: Shape) -> bool:
    if a is None or b is None:
        return True
    return len(a) == len(b) and all(dims_compatible(x, y) for x, y in zip(a, b, strict=True))


def bounds_of(t: Attribute) -> tuple[int, ...] | None:
    """The `#stablehlo.bounds<...>` of a bounded dynamic tensor type (`?` as
    DYNAMIC_INDEX), or None."""
    encoding = getattr(t, "encoding", None)
    if getattr(encoding, "name", None) in ("stablehlo.bounds", "stablehlo.type_extensions"):
        return tuple(encoding.data)  # type: ignore[union-attr]
    return None


def _bounded_dims(t: Attribute) -> list[tuple[int, int]] | None:
    shape = shape_of(t)
    if shape is None:
        return None
    bounds = bounds_of(t) or (DYNAMIC_INDEX,) * len(shape)
    return list(zip(shape, bounds, strict=True))


def bounded_shapes_compatible(a: Attribute, b: Attribute) -> bool:
    """Upstream's bounds-aware compatibility: shapes compatible, and a static size no
    larger than the bound of the other type's dynamic dimension."""
    if not shapes_compatible(shape_of(a), shape_of(b)):
        return False
    da, db = _bounded_dims(a), _bounded_dims(b)
    if da is None or db is None:
        return True
    for (size_a, bound_a), (size_b, bound_b) in zip(da, db, strict=True):
        for size, bound in ((size_a, bound_b), (size_b, bound_a)):
            if size != DYNAMIC_INDEX and bound != DYNAMIC_INDEX and size > bound:
                return False
    return True


def pairwise_bounded_type(a: Attribute, b: Attribute) -> Attribute:
    """Upstream's inference of a binary elementwise op's type from two compatible operand
    types (inferDimWithBound): per dimension the static size if either has one (it must
    fit the other's bound), else dynamic with the smaller bound."""
    da, db = _bounded_dims(a), _bounded_dims(b)
    if da is None or db is None:
        return a if db is None else b
    shape, bounds = [], []
    for dim, ((size_a, bound_a), (size_b, bound_b)) in enumerate(zip(da, db, strict=True)):
        static = size_a if size_a != DYNAMIC_INDEX else size_b
        if static != DYNAMIC_INDEX:
            for size, bound in ((size_a, bound_b), (size_b, bound_a)):
                if size != DYNAMIC_INDEX and bound != DYNAMIC_INDEX and size > bound:
                    raise InferenceError(
                        f"Mismatched dimension size {size} and bound {bound} in dimension {dim}",
                        plain=True,
                    )
            shape.append(static)
            bounds.append(DYNAMIC_INDEX)
        else:
            known = [x for x in (bound_a, bound_b) if x != DYNAMIC_INDEX]
            shape.append(DYNAMIC_INDEX)
            bounds.append(min(known) if known else DYNAMIC_INDEX)
    if all(x == DYNAMIC_INDEX for x in bounds):
        return TensorType(element_type(a), shape)
    source = a if bounds_of(a) is not None else b
    assert isinstance(source, TensorType)  # bounds_of found its encoding
    encoding = type(source.encoding)(tuple(bounds))  # pyright: ignore[reportCallIssue]
    canonical = getattr(encoding, "canonical", None)  # type_extensions<...> reads as bounds<...>
    return TensorType(element_type(a), shape, canonical() if canonical else encoding)


def shape_text(shape: Shape) -> str:
    if shape is None:
        return "*"
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) or "scalar"


def require_tensor(t: Attribute, what: str) -> None:
    if not is_tensor(t):
        raise VerifyException(f"{what} must be a tensor, got {t}")


def require_inferred_shape(op_name: str, expected: Sequence[int], result: Attribute) -> None:
    """Upstream's "inferred shape '[..]' is incompatible with return type of operation"."""
    if not shapes_compatible(tuple(expected), shape_of(result)):
        dims = ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in expected)
        raise VerifyException(
            f"'{op_name}' inferred shape '[{dims}]' is incompatible with return type of "
            f"operation '{result}'"
        )


def require_compatible_shape(expected: Shape, actual: Attribute, what: str) -> None:
    if not shapes_compatible(expected, shape_of(actual)):
        raise VerifyException(
            f"{what} has shape {shape_text(shape_of(actual))}, expected {shape_text(expected)}"
        )


def same_element_types(types: Sequence[Attribute]) -> bool:
    elements = [element_type(t) for t in types]
    return all(e == elements[0] for e in elements)


def tensor_like(shape: Sequence[int], element: Attribute) -> TensorType:
    """A ranked tensor type of `shape` (dynamic sizes as -1) and `element`."""
    return TensorType(element, list(shape))


def quoted_types(types: Sequence[Attribute]) -> str:
    """Types as MLIR's diagnostics print a type list: each quoted, comma-separated."""
    return ", ".join(f"'{t}'" for t in types)


class InferenceError(VerifyException):
    """A failed check of an op's result-type inference, which MLIR follows with a second
    error at the op, `failed to infer returned types` (`qdialect.tools.common`). A
    `plain` one is reported without the `'dialect.op' op` prefix, as upstream's
    `emitOptionalError` reports it."""

    def __init__(self, message: str, plain: bool = False):
        super().__init__(message)
        self.plain = plain


def verify_inferred_results(
    op_name: str, inferred: Sequence[Attribute], results: Sequence[Attribute]
) -> None:
    """MLIR's check of an op's result types against the types its inference gives."""
    ok = len(inferred) == len(results) and all(
        shapes_compatible(shape_of(a), shape_of(b)) and element_type(a) == element_type(b)
        for a, b in zip(inferred, results, strict=False)
    )
    if not ok:
        raise InferenceError(
            f"'{op_name}' inferred type(s) {quoted_types(inferred)} are incompatible "
            f"with return type(s) of operation {quoted_types(results)}"
        )
