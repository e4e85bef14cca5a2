"""The reduction body ("reducer") rules shared by reduce, reduce_window, scatter,
select_and_scatter, all_reduce and reduce_scatter, in upstream StableHLO's order and
words (verifyReducerShape), then the spec's own stricter rule.

A reducer takes 2N arguments (N accumulators, then N elements) and returns N values.
Upstream lets an element argument's type be *promoted* from the input's element type
(same kind, at least as wide; i8 inputs summed in i32), and so does the interpreter. It
also accepts arguments of rank > 0 (a tensor per reduced slice, an XLA extension); the
spec types them `tensor<E>` and so does qdialect: such a body is refused after upstream's
checks pass (docs/stablehlo.md, "Where upstream and the spec differ").
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, Block
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.quant import UniformQuantizedType


def _kind(e: Attribute) -> object:
    """What must match for promotion: the class of number (and a quantized type's
    expressed type)."""
    if isinstance(e, UniformQuantizedType):
        return ("quant", e.expressed_type)
    if isinstance(e, IntegerType):
        return "int"
    if ht.is_float(e):
        return "float"
    if ht.is_complex(e):
        return "complex"
    return e


def promotable(from_type: Attribute, to_type: Attribute, ignore_fp_precision: bool) -> bool:
    """Upstream's isPromotableElementType on two tensor types' element types."""
    a, b = ht.element_type(from_type), ht.element_type(to_type)
    if not ht.is_tensor(from_type) or not ht.is_tensor(to_type) or _kind(a) != _kind(b):
        return False
    if ignore_fp_precision and ht.is_float(a):
        return True
    return (ht.bit_width(a) or 0) <= (ht.bit_width(b) or 0)


def same_shape_and_element(a: Attribute, b: Attribute, ignore_fp_precision: bool) -> bool:
    """Upstream's compatibleShapeAndElementType."""
    if not ht.shapes_compatible(ht.shape_of(a), ht.shape_of(b)):
        return False
    ea, eb = ht.element_type(a), ht.element_type(b)
    return ea == eb or (ignore_fp_precision and ht.is_float(ea) and ht.is_float(eb))


def _quoted(t: Attribute) -> str:
    return f"'{t}'"


def verify_reducer(
    op_name: str,
    block: Block | None,
    input_types: Sequence[Attribute],
    init_types: Sequence[Attribute],
    allowed_dims: Sequence[int],
) -> list[Attribute]:
    """Check a reducer against its op's inputs and init values; returns the accumulator
    types (what the body returns). `allowed_dims` are the result dimensions a shaped
    argument may take (upstream's extension; empty for ops that reduce to scalars)."""

    def fail(message: str) -> VerifyException:
        return VerifyException(f"'{op_name}' {message}")

    n = len(input_types)
    args = list(block.args) if block is not None else []
    if len(args) != 2 * n:
        raise fail(
            f"Reduction-region must take {2 * n} parameters, but takes {len(args)} parameter(s)"
        )
    assert block is not None
    term = block.last_op
    if term is None:
        raise fail("The reduction-region expected to have a terminator")
    returned = [v.type for v in term.operands]
    if not returned:
        raise fail("The reduction-region expected to return some value(s)")
    if len(returned) != n:
        raise fail(
            f"Reduction-region here must produce {n} tensors, but produces {len(returned)} instead"
        )
    for t in returned:
        if not ht.is_tensor(t):
            raise fail(
                "Reduction-region here must produce tensor-typed result(s), but produces "
                f"{_quoted(t)} instead"
            )
    for i in range(n):
        acc, element_arg = returned[i], args[n + i].type
        if not same_shape_and_element(acc, args[i].type, ignore_fp_precision=False):
            raise fail(
                f"The type of reduction-region's parameter at index {i} is different than the "
                f"corresponding result type: {_quoted(args[i].type)} vs {_quoted(acc)}"
            )
        if not same_shape_and_element(acc, element_arg, ignore_fp_precision=True):
            raise fail(
                f"The type of reduction-region's parameter at index {n + i} is different than "
                f"the corresponding result type: {_quoted(element_arg)} vs {_quoted(acc)}"
            )
        if not ht.shapes_compatible(ht.shape_of(init_types[i]), ht.shape_of(acc)):
            raise fail(
                f"The shape of reduction-region's result type at index {i} differs from the op's "
                f"corresponding init-value type: {_quoted(acc)} vs {_quoted(init_types[i])}"
            )
        if not promotable(init_types[i], acc, ignore_fp_precision=True):
            raise fail(
                f"The element-type of reduction-region's result type at index {i} is expected to "
                "be promotable from the op's corresponding init-value element-type: "
                f"{_quoted(acc)} vs {_quoted(init_types[i])}"
            )
        if not promotable(input_types[i], element_arg, ignore_fp_precision=True):
            raise fail(
                f"The element-type of reduction-region's argument at index {n + i} is expected "
                f"to be promotable from {_quoted(ht.element_type(input_types[i]))}, but got "
                f"{_quoted(ht.element_type(element_arg))}"
            )
        shape = ht.shape_of(element_arg) or ()
        if len(shape) > len(allowed_dims):
            raise fail(
                f"The rank of reduction-region's argument at index {n + i} is expected to be "
                f"<= {len(allowed_dims)}, got {len(shape)}"
            )
        matched = 0
        for size in allowed_dims:
            if matched < len(shape) and ht.dims_compatible(size, shape[matched]):
                matched += 1
        if matched != len(shape):
            raise fail(
                f"The shape of reduction-region's argument at index {n + i} is not compatible "
                f"with that of reduce-op's input-parameter at index {i}"
            )
    for arg in args:  # the spec's rule, stricter than upstream's
        if ht.rank_of(arg.type) != 0:
            raise fail(
                f"reduction-region arguments must be 0-dimensional tensors (the spec's rule), "
                f"got {_quoted(arg.type)}"
            )
    return returned
