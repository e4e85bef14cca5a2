"""The StableHLO-like dialect: the ops quantized inference needs, upstream's syntax.

Every op prints in the pretty form `stablehlo-opt` prints (and parses that form
and the generic one). Verifiers implement the StableHLO specification's
constraints, including the quantization ones: which ops accept quantized types,
matching storage/expressed types, per-axis quantization only where the spec
allows it, and shape inference on results. docs/stablehlo.md lists the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    FlatSymbolRefAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    TensorType,
    TupleType,
    UnrankedTensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, HasFolder, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import ParseError, VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.dim_rules import dims_text, dot_general_problem, out_of_range, repeated
from qdialect.dialects.hlo_syntax import (
    dense_i64,
    dense_values,
    int_list_text,
    parse_int_list,
    parse_n_operands,
    parse_operand_list,
    parse_optional_operand_list,
    parse_same_operands_and_result_type,
    print_extra_attrs,
    print_same_operands_and_result_type,
    resolve,
    split_attr_dict,
)
from qdialect.dialects.stablehlo_attrs import (
    BoundsAttr,
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
    ConvDimensionNumbersAttr,
    ConvDims,
    DotAlgorithmAttr,
    DotDimensionNumbersAttr,
    DotDims,
    GatherDimensionNumbersAttr,
    GatherDims,
    OutputOperandAliasAttr,
    Precision,
    PrecisionAttr,
    ResultAccuracyAttr,
    ResultAccuracyModeAttr,
    TypeExtensionsAttr,
    conv_dims_text,
    dot_algorithm_problem,
    dot_algorithm_text,
    parse_conv_dims,
)
from qdialect.dialects.stablehlo_reducer import verify_reducer
from qdialect.dialects.stablehlo_type_constraints import attribute_constraint_error
from qdialect.dialects.window import (
    WindowError,
    check_window,
    padding_pairs,
    window_output_shape,
)
from qdialect.ir import xdsl_private as xp
from qdialect.ir.errors import add_follow_up

# ==========================================================================
# Helpers
# ==========================================================================


def _kind_error(op: Operation, what: str, allowed: str, got: Attribute) -> VerifyException:
    """ODS's wording for a type constraint, so upstream-style expected-error lines match."""
    return VerifyException(
        f"'{op.name}' {what} must be ranked tensor of {allowed} values, but got '{got}'"
    )


def _check_kinds(op: Operation, t: Attribute, kinds: str, what: str) -> None:
    """kinds: f=float, c=complex, i=integer, s=signed integer, b=bool, q=per-tensor quantized,
    a=per-axis quantized."""
    e = ht.element_type(t)
    ok = (
        ("f" in kinds and ht.is_float(e))
        or ("c" in kinds and ht.is_complex(e))
        or ("i" in kinds and ht.is_integer(e))
        or ("s" in kinds and ht.is_signed_integer(e))
        or ("b" in kinds and ht.is_bool(e))
        or ("q" in kinds and ht.is_per_tensor_quantized(t))
        or ("a" in kinds and ht.is_per_axis_quantized(t))
    )
    if not ok:
        names = {
            "f": "floating-point",
            "c": "complex",
            "i": "integer",
            "s": "signed integer",
            "b": "boolean",
            "q": "per-tensor quantized",
            "a": "per-axis quantized",
        }
        raise _kind_error(op, what, " or ".join(names[k] for k in kinds), t)


#: Upstream's words for operand and result shapes that do not agree, by the trait each
#: elementwise op has; the others have HLO_CompatibleOperandsAndResultType, whose check
#: (bounds-aware, element types too) reads `_COMPATIBLE_TYPES`.
_COMPATIBLE_TYPES = "requires compatible types for all operands and results"
_SAME_SHAPE = "requires the same shape for all operands and results"
_COMPATIBLE_TYPE_OPS = frozenset(
    f"stablehlo.{name}"
    for name in (
        "atan2 and cbrt ceil cosine count_leading_zeros divide exponential "
        "exponential_minus_one floor log log_plus_one logistic maximum minimum multiply "
        "negate not or popcnt power remainder round_nearest_afz round_nearest_even rsqrt "
        "shift_left shift_right_arithmetic shift_right_logical sign sine sqrt subtract tan "
        "tanh xor"
    ).split()
)
#: abs, real and imag's words (HLO_CompatibleOperandsAndResultElementType).
SAME_SHAPE_AND_BASE_TYPE = "all non-scalar operands/results must have the same shape and base type"
_SHAPE_TRAIT_WORDS = {
    "stablehlo.abs": SAME_SHAPE_AND_BASE_TYPE,
    **dict.fromkeys(_COMPATIBLE_TYPE_OPS, _COMPATIBLE_TYPES),
}


def _verify_elementwise(
    op: Operation, operands: Sequence[SSAValue], result_types: Sequence[Attribute], kinds: str
) -> None:
    """Shared spec rules of elementwise ops: tensors, one shape, one (baseline) element type."""
    types = [o.type for o in operands] + list(result_types)
    for t in types:
        ht.require_tensor(t, f"'{op.name}' operand and result")
    shape_words = _SHAPE_TRAIT_WORDS.get(op.name, _SAME_SHAPE)
    for t in types[1:]:
        compatible = (
            ht.shapes_compatible(ht.shape_of(types[0]), ht.shape_of(t))
            if shape_words != _COMPATIBLE_TYPES
            else ht.bounded_shapes_compatible(types[0], t)
        )
        if not compatible:
            raise VerifyException(f"'{op.name}' {shape_words}")
    for t, what in zip(
        types,
        [f"operand #{i}" for i in range(len(operands))]
        + [f"result #{i}" for i in range(len(result_types))],
        strict=True,
    ):
        _check_kinds(op, t, kinds, what)
    quantized = [ht.is_quantized(t) for t in types]
    if any(quantized):
        if not all(quantized):
            raise VerifyException(
                f"'{op.name}' requires operands and result to be all quantized or all non-quantized"
            )
        _verify_same_baseline(op, types, ignore_axis="a" in kinds)
    elif not ht.same_element_types(types):
        if shape_words == _COMPATIBLE_TYPES:
            raise VerifyException(f"'{op.name}' {_COMPATIBLE_TYPES}")
        raise VerifyException(
            f"'{op.name}' requires the same element type for all operands and results"
        )


def _verify_same_baseline(
    op: Operation, types: Sequence[Attribute], ignore_axis: bool = False
) -> None:
    def key(t: Attribute):
        q = ht.quant_type(t)
        assert q is not None
        return (q.storage_width, q.is_signed, q.storage_min, q.storage_max, q.expressed_type)

    if len({key(t) for t in types}) != 1:
        raise VerifyException(
            f"'{op.name}' requires quantized operands and result with the same storage type, "
            "storage range and expressed type (only scales and zero points may differ)"
        )
    axes = {ht.quant_type(t).axis for t in types if ht.is_per_axis_quantized(t)}  # type: ignore[union-attr]
    if len(axes) > 1 or (
        not ignore_axis and axes and any(not ht.is_per_axis_quantized(t) for t in types)
    ):
        raise VerifyException(
            f"'{op.name}' requires per-axis quantized types to share the quantization dimension"
        )


def _verify_per_axis_size(op: Operation, t: Attribute, what: str) -> None:
    q = ht.quant_type(t)
    shape = ht.shape_of(t)
    if q is None or not q.is_per_axis or shape is None:
        return
    if q.quantized_dimension >= len(shape):
        raise VerifyException(
            f"'{op.name}' {what}: quantization dimension {q.quantized_dimension} out of range"
        )
    size = shape[q.quantized_dimension]
    if size != DYNAMIC_INDEX and size != len(q.scales):
        raise VerifyException(
            f"'{op.name}' {what}: quantized dimension has size {size} but {len(q.scales)} scales"
        )


def _expect_inferred(
    op: Operation, shape: Sequence[int], like: Attribute, result: Attribute
) -> None:
    """Upstream's check of an inferred result type (`shape`, the element type of `like`)
    against the result's, in its words: a shape mismatch only (element types are the
    op's own check, which allows the quantized variations upstream allows)."""
    if not ht.shapes_compatible(tuple(shape), ht.shape_of(result)):
        inferred = TensorType(ht.element_type(like), list(shape))
        ht.verify_inferred_results(op.name, [inferred], [result])


def _same_element_or_baseline(
    op: Operation, a: Attribute, b: Attribute, what: str, allow_axis_change: bool = False
) -> None:
    qa, qb = ht.quant_type(a), ht.quant_type(b)
    if (qa is None) != (qb is None):
        raise VerifyException(f"'{op.name}' {what}: both or neither must be quantized")
    if qa is None:
        if ht.element_type(a) != ht.element_type(b):
            raise VerifyException(
                f"'{op.name}' {what}: element types differ ({ht.element_type(a)} vs {ht.element_type(b)})"
            )
        return
    if allow_axis_change:
        keys = [
            (q.storage_width, q.is_signed, q.storage_min, q.storage_max, q.expressed_type)
            for q in (qa, qb)
        ]
        if keys[0] != keys[1] or qa.is_per_axis != qb.is_per_axis:
            raise VerifyException(f"'{op.name}' {what}: quantized element types differ")
        if (qa.scales, qa.zero_points) != (qb.scales, qb.zero_points):
            raise VerifyException(
                f"'{op.name}' {what}: scales and zero points must be kept (only a per-axis dimension may move)"
            )
    elif qa != qb:
        raise VerifyException(f"'{op.name}' {what}: quantized element types differ ({qa} vs {qb})")


def _verify_kept_quantization(
    op: Operation, a: Attribute, r: Attribute, scales_may_broadcast: bool = False
) -> None:
    """C1 of the shape ops (reshape, transpose, broadcast_in_dim and their dynamic forms):
    the result keeps the operand's quantization, worded as upstream words it; then the
    remaining element-type rules (`_same_element_or_baseline`).

    scales_may_broadcast: broadcast_in_dim, whose size-1 quantized dimension may become
    many (its own verifier checks the scales)."""
    qa, qr = ht.quant_type(a), ht.quant_type(r)
    if qa is not None and qr is not None and not (qa.is_sub_channel or qr.is_sub_channel):
        if not qa.is_per_axis and not qr.is_per_axis and qa != qr:
            raise VerifyException(
                f"'{op.name}' expect same quantization scale and zero_point but got {a} vs {r}"
            )
        # Upstream compares the scales both types have (the lists' common prefix) here;
        # a count that differs is reported after the dimension rules, by
        # `_verify_same_scale_count`, so upstream's messages for those come first.
        both_per_axis = qa.is_per_axis and qr.is_per_axis
        n = min(len(qa.scales), len(qr.scales))
        kept = qa.scales[:n] == qr.scales[:n] and qa.zero_points[:n] == qr.zero_points[:n]
        if both_per_axis and not kept and not (scales_may_broadcast and len(qa.scales) == 1):
            raise VerifyException(
                f"'{op.name}' expect same quantization scales and zero_points but got {a} vs {r}"
            )
    if qa is not None and qr is not None and qa.is_per_axis and qr.is_per_axis:
        keys = [
            (q.storage_width, q.is_signed, q.storage_min, q.storage_max, q.expressed_type)
            for q in (qa, qr)
        ]
        if keys[0] != keys[1]:
            raise VerifyException(f"'{op.name}' operand and result: quantized element types differ")
        return
    _same_element_or_baseline(op, a, r, "operand and result", allow_axis_change=True)


def _verify_same_scale_count(op: Operation, a: Attribute, r: Attribute) -> None:
    """The rest of C1 for reshape and transpose: as many scales in the result as in the
    operand (upstream compares only the ones both have)."""
    qa, qr = ht.quant_type(a), ht.quant_type(r)
    if qa is not None and qr is not None and qa.is_per_axis and qr.is_per_axis:
        if len(qa.scales) != len(qr.scales):
            raise VerifyException(
                f"'{op.name}' expect same quantization scales and zero_points but got {a} vs {r}"
            )


# ==========================================================================
# Elementwise ops
# ==========================================================================


class _ElementwiseSyntax(IRDLOperation):
    """`stablehlo.OP %a, %b : T` when all types agree, else `: (A, B) -> R`."""

    KINDS: ClassVar[str] = "fq"

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types, result = parse_same_operands_and_result_type(parser, len(operands))
        props, attrs = split_attr_dict(cls, attrs)
        return cls.create(
            operands=resolve(parser, operands, types),
            result_types=[result],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_extra_attrs(printer, self, props=tuple(self.properties))
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, self.operands, self.results[0].type)

    def verify_(self) -> None:
        _verify_elementwise(self, self.operands, [self.results[0].type], self.KINDS)


class _UnaryElementwise(_ElementwiseSyntax):
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[operand], result_types=[result_type or operand.type])


class _BinaryElementwise(_ElementwiseSyntax):
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[lhs, rhs], result_types=[result_type or lhs.type])


@irdl_op_definition
class AbsOp(_UnaryElementwise):
    """Absolute value."""

    name = "stablehlo.abs"
    KINDS: ClassVar[str] = "sfcq"

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        if ht.is_quantized(a) or ht.is_quantized(r):
            if not ht.elements_compatible(a, r):  # inferAbsOp's type, as upstream compares
                raise VerifyException(
                    f"'{self.name}' inferred type(s) '{a}' are incompatible with return "
                    f"type(s) of operation '{r}'"
                )
            return super().verify_()
        _check_kinds(self, a, "sfcq", "operand #0")
        if not ht.shapes_compatible(ht.shape_of(a), ht.shape_of(r)):
            raise VerifyException(f"'{self.name}' {SAME_SHAPE_AND_BASE_TYPE}")
        # inferAbsOp: the operand's type; the magnitude of a complex<E> is an E.
        ht.verify_inferred_results(self.name, [ht.part_type(a)], [r])


@irdl_op_definition
class NegateOp(_UnaryElementwise):
    """Negation."""

    name = "stablehlo.negate"
    KINDS: ClassVar[str] = "ifcq"


@irdl_op_definition
class SignOp(_UnaryElementwise):
    """Sign (-1, 0, 1; NaN for NaN)."""

    name = "stablehlo.sign"
    KINDS: ClassVar[str] = "sfcq"


@irdl_op_definition
class TanhOp(_UnaryElementwise):
    """Hyperbolic tangent."""

    name = "stablehlo.tanh"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class LogisticOp(_UnaryElementwise):
    """1 / (1 + exp(-x))."""

    name = "stablehlo.logistic"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class ExpOp(_UnaryElementwise):
    """e^x."""

    name = "stablehlo.exponential"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class Expm1Op(_UnaryElementwise):
    """e^x - 1."""

    name = "stablehlo.exponential_minus_one"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class LogOp(_UnaryElementwise):
    """Natural logarithm."""

    name = "stablehlo.log"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class Log1pOp(_UnaryElementwise):
    """log(1 + x)."""

    name = "stablehlo.log_plus_one"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class SqrtOp(_UnaryElementwise):
    """Square root."""

    name = "stablehlo.sqrt"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class RsqrtOp(_UnaryElementwise):
    """1 / sqrt(x)."""

    name = "stablehlo.rsqrt"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class CbrtOp(_UnaryElementwise):
    """Cube root."""

    name = "stablehlo.cbrt"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class SineOp(_UnaryElementwise):
    """Sine."""

    name = "stablehlo.sine"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class CosineOp(_UnaryElementwise):
    """Cosine."""

    name = "stablehlo.cosine"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class FloorOp(_UnaryElementwise):
    """Round toward -inf."""

    name = "stablehlo.floor"
    KINDS: ClassVar[str] = "fq"


@irdl_op_definition
class CeilOp(_UnaryElementwise):
    """Round toward +inf."""

    name = "stablehlo.ceil"
    KINDS: ClassVar[str] = "fq"


@irdl_op_definition
class RoundNearestEvenOp(_UnaryElementwise):
    """Round to nearest, ties to even."""

    name = "stablehlo.round_nearest_even"
    KINDS: ClassVar[str] = "fq"


@irdl_op_definition
class RoundNearestAfzOp(_UnaryElementwise):
    """Round to nearest, ties away from zero."""

    name = "stablehlo.round_nearest_afz"
    KINDS: ClassVar[str] = "fq"


@irdl_op_definition
class AddOp(_BinaryElementwise):
    """Addition (the one elementwise op that accepts per-axis quantization)."""

    name = "stablehlo.add"
    KINDS: ClassVar[str] = "ibfcqa"

    def verify_(self) -> None:
        """Quantized: the traits' shape and kind checks, verifyAddOp's quantization rules
        (C2-C7, in upstream's order and words), then the result against the inferred
        type (the lhs's), compared as upstream compares quantized types."""
        a, b, r = self.lhs.type, self.rhs.type, self.result.type
        quantized = [ht.quant_type(t) for t in (a, b, r)]
        if not any(q is not None for q in quantized):
            super().verify_()
            # Upstream infers add's type pairwise, bounds included (inferDimWithBound).
            inferred = ht.pairwise_bounded_type(a, b)
            if not ht.bounded_shapes_compatible(inferred, r):
                raise ht.InferenceError(
                    f"'{self.name}' inferred type(s) '{inferred}' are incompatible with return "
                    f"type(s) of operation '{r}'"
                )
            return
        for t in (a, b, r):
            ht.require_tensor(t, f"'{self.name}' operand and result")
        if not all(ht.shapes_compatible(ht.shape_of(a), ht.shape_of(t)) for t in (b, r)):
            raise VerifyException(
                f"'{self.name}' requires the same shape for all operands and results"
            )
        for t, what in ((a, "operand #0"), (b, "operand #1"), (r, "result #0")):
            _check_kinds(self, t, self.KINDS, what)
        ql, qr, qo = quantized
        if ql is None or qr is None or qo is None:  # C2 (upstream's two spaces)
            raise VerifyException(
                f"'{self.name}' expects  all operands and results to be either quantized or "
                "non-quantized"
            )
        if not ql.storage_width == qr.storage_width == qo.storage_width:  # C3
            raise VerifyException(
                f"'{self.name}' mismatched operands and result quantization storage types"
            )
        if not ql.expressed_type == qr.expressed_type == qo.expressed_type:  # C4
            raise VerifyException(
                f"'{self.name}' mismatched operands and result quantization expressed types"
            )
        if ql.is_per_axis or qr.is_per_axis:
            if not qo.is_per_axis:  # C5
                raise VerifyException(
                    f"'{self.name}' result is not per_axis quantized but lhs or rhs are"
                )
            for q, t, side in ((ql, a, "lhs"), (qr, b, "rhs")):
                if q.is_per_axis and q.quantized_dimension != qo.quantized_dimension:  # C6, C7
                    raise VerifyException(
                        f"'{self.name}' quantization_dimension of {side} and result are not "
                        f"same '{t}' vs '{r}'"
                    )
        elif qo.is_per_axis:
            raise VerifyException(
                f"'{self.name}' result per_axis quantized but none from rhs and lhs are "
                "per_axis quantized"
            )
        if not ht.elements_compatible(a, r):
            raise ht.InferenceError(
                f"'{self.name}' inferred type(s) '{a}' are incompatible with return type(s) "
                f"of operation '{r}'"
            )


@irdl_op_definition
class SubtractOp(_BinaryElementwise):
    """Subtraction."""

    name = "stablehlo.subtract"
    KINDS: ClassVar[str] = "ifcq"


@irdl_op_definition
class MultiplyOp(_BinaryElementwise):
    """Multiplication (logical and for booleans)."""

    name = "stablehlo.multiply"
    KINDS: ClassVar[str] = "ibfcq"


@irdl_op_definition
class DivideOp(_BinaryElementwise):
    """Division (integer division truncates)."""

    name = "stablehlo.divide"
    KINDS: ClassVar[str] = "ifcq"


@irdl_op_definition
class RemainderOp(_BinaryElementwise):
    """Remainder with the dividend's sign."""

    name = "stablehlo.remainder"
    KINDS: ClassVar[str] = "ifq"


@irdl_op_definition
class PowerOp(_BinaryElementwise):
    """lhs ^ rhs."""

    name = "stablehlo.power"
    KINDS: ClassVar[str] = "ifcq"


@irdl_op_definition
class MaximumOp(_BinaryElementwise):
    """Elementwise maximum."""

    name = "stablehlo.maximum"
    KINDS: ClassVar[str] = "ibfcq"


@irdl_op_definition
class MinimumOp(_BinaryElementwise):
    """Elementwise minimum."""

    name = "stablehlo.minimum"
    KINDS: ClassVar[str] = "ibfcq"


@irdl_op_definition
class Atan2Op(_BinaryElementwise):
    """atan2(lhs, rhs)."""

    name = "stablehlo.atan2"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class AndOp(_BinaryElementwise):
    """Bitwise (logical for booleans) and."""

    name = "stablehlo.and"
    KINDS: ClassVar[str] = "ib"


@irdl_op_definition
class OrOp(_BinaryElementwise):
    """Bitwise (logical for booleans) or."""

    name = "stablehlo.or"
    KINDS: ClassVar[str] = "ib"


@irdl_op_definition
class XorOp(_BinaryElementwise):
    """Bitwise (logical for booleans) exclusive or."""

    name = "stablehlo.xor"
    KINDS: ClassVar[str] = "ib"


@irdl_op_definition
class NotOp(_UnaryElementwise):
    """Bitwise (logical for booleans) not."""

    name = "stablehlo.not"
    KINDS: ClassVar[str] = "ib"


@irdl_op_definition
class ShiftLeftOp(_BinaryElementwise):
    """lhs << rhs; 0 when rhs is negative or >= the bit width."""

    name = "stablehlo.shift_left"
    KINDS: ClassVar[str] = "i"


@irdl_op_definition
class ShiftRightArithmeticOp(_BinaryElementwise):
    """lhs >> rhs filling with the sign bit; saturates the shift."""

    name = "stablehlo.shift_right_arithmetic"
    KINDS: ClassVar[str] = "i"


@irdl_op_definition
class ShiftRightLogicalOp(_BinaryElementwise):
    """lhs >> rhs filling with zeros; 0 when rhs is out of range."""

    name = "stablehlo.shift_right_logical"
    KINDS: ClassVar[str] = "i"


@irdl_op_definition
class ClampOp(_ElementwiseSyntax):
    """`stablehlo.clamp %min, %x, %max`: min and max are rank 0 or the operand's shape."""

    name = "stablehlo.clamp"
    min = operand_def()
    operand = operand_def()
    max = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        operand = ht.shape_of(self.operand.type)
        for bound, what in ((self.min, "min"), (self.max, "max")):
            shape = ht.shape_of(bound.type)
            if ht.rank_of(bound.type) not in (0, None) and not ht.shapes_compatible(
                shape, operand
            ):  # inferClampOp's C1, C2
                raise ht.InferenceError(
                    f"'{self.name}' {what} shape [{', '.join(map(str, shape or ()))}] is not "
                    f"scalar and is not compatible to operand shape "
                    f"[{', '.join(map(str, operand or ()))}]"
                )
        if not ht.shapes_compatible(operand, ht.shape_of(self.result.type)):  # C4
            ht.verify_inferred_results(self.name, [self.operand.type], [self.result.type])
        _verify_elementwise(self, [self.operand], [self.result.type], "ifq")
        for bound in (self.min, self.max):
            _check_kinds(self, bound.type, "ifq", "bound")
            if ht.is_quantized(bound.type) and ht.is_quantized(self.operand.type):
                _verify_same_baseline(self, [bound.type, self.operand.type])
            else:
                _same_element_or_baseline(self, bound.type, self.operand.type, "bounds and operand")


@irdl_op_definition
class CompareOp(IRDLOperation):
    """`stablehlo.compare GT, %a, %b, FLOAT : (A, B) -> tensor<..xi1>`."""

    name = "stablehlo.compare"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    traits = traits_def(Pure())

    def __init__(
        self, lhs: SSAValue, rhs: SSAValue, direction: str, compare_type: str | None = None
    ):
        props: dict[str, Attribute] = {
            "comparison_direction": ComparisonDirectionAttr(ComparisonDirection(direction))
        }
        if compare_type is not None:
            props["compare_type"] = ComparisonTypeAttr(ComparisonType(compare_type))
        shape = ht.shape_of(lhs.type)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[TensorType(IntegerType(1), shape or [])],
            properties=props,
        )

    @classmethod
    def parse(cls, parser: Parser):
        direction = parser.parse_str_enum(ComparisonDirection)
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {"comparison_direction": ComparisonDirectionAttr(direction)}
        if parser.parse_optional_punctuation(",") is not None:
            props["compare_type"] = ComparisonTypeAttr(parser.parse_str_enum(ComparisonType))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, [lhs, rhs], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(f" {self.comparison_direction.data.value}, ")
        printer.print_list(self.operands, printer.print_operand)
        if self.compare_type is not None:
            printer.print_string(f", {self.compare_type.data.value}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        _verify_elementwise(self, [self.lhs, self.rhs], [], "ibfcq")
        result = self.result.type
        ht.require_tensor(result, f"'{self.name}' result")
        if not ht.is_bool(ht.element_type(result)):
            raise VerifyException(f"'{self.name}' result must be a tensor of i1, got {result}")
        if not ht.shapes_compatible(ht.shape_of(self.lhs.type), ht.shape_of(result)):
            raise VerifyException(
                f"'{self.name}' requires the same shape for all operands and results"
            )
        if self.compare_type is not None:
            e = ht.element_type(self.lhs.type)
            kind = self.compare_type.data
            expected = (
                {ComparisonType.FLOAT, ComparisonType.TOTALORDER}
                if ht.is_float(e) or ht.is_complex(e) or ht.is_quantized(self.lhs.type)
                else {ComparisonType.UNSIGNED}
                if ht.is_bool(e) or ht.is_unsigned_integer(e)
                else {ComparisonType.SIGNED}
            )
            if kind not in expected and kind != ComparisonType.NOTYPE:
                raise VerifyException(
                    f"'{self.name}' compare_type {kind.value} does not match element type {e}"
                )


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`stablehlo.select %pred, %a, %b : pred_type, result_type`."""

    name = "stablehlo.select"
    pred = operand_def()
    on_true = operand_def()
    on_false = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        start = parser.pos
        listed = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            listed.append(parser.parse_type())
        if len(listed) == 1 and isinstance(listed[0], FunctionType):
            fn = listed[0]
            types, result = list(fn.inputs.data), fn.outputs.data[0]
        elif len(listed) == 2:
            result = listed[1]
            types = [listed[0], result, result]
        else:  # upstream's parseSelectOpType
            parser.raise_error("expected functional type or list of two types", start)
        return cls.create(
            operands=resolve(parser, operands, types), result_types=[result], attributes=attrs
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        if self.on_true.type == self.on_false.type == self.result.type:
            printer.print_attribute(self.pred.type)
            printer.print_string(", ")
            printer.print_attribute(self.result.type)
        else:
            printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        pred = self.pred.type
        ht.require_tensor(pred, f"'{self.name}' pred")
        if not ht.is_bool(ht.element_type(pred)):
            raise VerifyException(f"'{self.name}' pred must be a tensor of i1, got {pred}")
        t, f = self.on_true.type, self.on_false.type
        if not (  # inferSelectOp's checks, in its words
            ht.shapes_compatible(ht.shape_of(t), ht.shape_of(f)) and ht.elements_compatible(t, f)
        ):
            raise VerifyException(
                f"'{self.name}' requires compatible types for non-predicate operands"
            )
        if ht.rank_of(pred) not in (0, None) and not ht.shapes_compatible(
            ht.shape_of(pred), ht.shape_of(t)
        ):
            raise VerifyException(f"'{self.name}' requires the same shape for all operands")
        st = ht.shape_of(t)
        if st is not None and not ht.shapes_compatible(st, ht.shape_of(self.result.type)):
            _expect_inferred(self, st, t, self.result.type)
        if st is not None and not ht.elements_compatible(t, self.result.type):
            ht.verify_inferred_results(self.name, [t], [self.result.type])
        _verify_elementwise(self, [self.on_true, self.on_false], [self.result.type], "ibfq")


@irdl_op_definition
class ConvertOp(_ElementwiseSyntax):
    """`stablehlo.convert %x : (T) -> R`: element type conversion (not for quantized types)."""

    name = "stablehlo.convert"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_(self) -> None:
        for t in (self.operand.type, self.result.type):
            ht.require_tensor(t, f"'{self.name}' operand and result")
            if ht.is_quantized(t):
                raise VerifyException(
                    f"'{self.name}' does not accept quantized types; use uniform_quantize or uniform_dequantize"
                )
        if not ht.shapes_compatible(ht.shape_of(self.operand.type), ht.shape_of(self.result.type)):
            raise VerifyException(
                f"'{self.name}' requires the same shape for all operands and results"
            )


@irdl_op_definition
class BitcastConvertOp(_ElementwiseSyntax):
    """`stablehlo.bitcast_convert %x : (T) -> R`: reinterpret bits; widths may differ with a trailing dim.

    Quantized types take part through their storage type (tests use this to
    read a quantized tensor's storage integers).
    """

    name = "stablehlo.bitcast_convert"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        for t in (a, r):
            ht.require_tensor(t, f"'{self.name}' operand and result")
        ea, er = ht.element_type(a), ht.element_type(r)
        if ht.is_complex(ea) != ht.is_complex(er):
            raise VerifyException(
                f"'{self.name}' cannot convert between real and complex types, but got: {a} and {r}"
            )
        wa, wr = ht.bit_width(ea), ht.bit_width(er)
        sa, sr = ht.shape_of(a), ht.shape_of(r)
        if wa is None or wr is None or sa is None or sr is None:
            return
        # The spec's C1-C2 in upstream's order and words: the narrower side has one more
        # dimension, whose size times its width is the wider width.
        small, big = (sa, sr) if wa < wr else (sr, sa)
        prefix = small
        if wa != wr:
            if len(small) != len(big) + 1:
                raise VerifyException(
                    f"'{self.name}' rank of smaller element type ({len(small)}) should be 1 more "
                    f"than rank of larger element type ({len(big)}), but {len(small)} != "
                    f"{len(big)} + 1."
                )
            narrow, wide = min(wa, wr), max(wa, wr)
            if small[-1] != DYNAMIC_INDEX and small[-1] * narrow != wide:
                raise VerifyException(
                    f"'{self.name}' requires compatible bit widths. Got: '{a}' and '{r}', but "
                    f"{narrow} * {small[-1]} != {wide}."
                )
            prefix = small[:-1]
        for x, y in zip(prefix, big, strict=False):
            if not ht.dims_compatible(x, y):
                raise VerifyException(
                    f"'{self.name}' operand and result shapes must match except for the "
                    f"innermost dimension of the shape with the smaller element type. Got: "
                    f"'{a}' and '{r}'."
                )


# ==========================================================================
# Quantization
# ==========================================================================


@irdl_op_definition
class UniformQuantizeOp(_ElementwiseSyntax):
    """`stablehlo.uniform_quantize %x : (tensor<..xf32>) -> tensor<..x!quant.uniform<..>>`.

    Also requantizes: a quantized operand is converted to the result's parameters.
    """

    name = "stablehlo.uniform_quantize"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        for t in (a, r):
            ht.require_tensor(t, f"'{self.name}' operand and result")
        q = ht.quant_type(r)
        if q is None:
            raise VerifyException(f"'{self.name}' result must be a quantized tensor, got {r}")
        qa = ht.quant_type(a)
        expressed = qa.expressed_type if qa is not None else ht.element_type(a)
        if qa is None and not ht.is_float(expressed):
            raise VerifyException(
                f"'{self.name}' operand must be a floating-point or quantized tensor, got {a}"
            )
        if expressed != q.expressed_type:
            raise VerifyException(
                f"'{self.name}' Expressed type of result expected to be '{expressed}', but got "
                f"'{q.expressed_type}'"
            )
        if not ht.shapes_compatible(ht.shape_of(a), ht.shape_of(r)):
            raise VerifyException(
                f"'{self.name}' requires the same shape for all operands and results"
            )
        _verify_per_axis_size(self, r, "result")


@irdl_op_definition
class UniformDequantizeOp(_ElementwiseSyntax):
    """`stablehlo.uniform_dequantize %q : (tensor<..x!quant.uniform<..>>) -> tensor<..xf32>`."""

    name = "stablehlo.uniform_dequantize"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        if result_type is None:
            q = ht.quant_type(operand.type)
            assert q is not None and isinstance(operand.type, TensorType)
            result_type = TensorType(q.expressed_type, operand.type.get_shape())
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        for t in (a, r):
            ht.require_tensor(t, f"'{self.name}' operand and result")
        q = ht.quant_type(a)
        if q is None:
            raise VerifyException(f"'{self.name}' operand must be a quantized tensor, got {a}")
        if ht.element_type(r) != q.expressed_type:
            raise VerifyException(
                f"'{self.name}' result element type must be the expressed type {q.expressed_type}, got {ht.element_type(r)}"
            )
        if not ht.shapes_compatible(ht.shape_of(a), ht.shape_of(r)):
            raise VerifyException(
                f"'{self.name}' requires the same shape for all operands and results"
            )
        _verify_per_axis_size(self, a, "operand")


# ==========================================================================
# Constants and shape ops
# ==========================================================================


class ValueFolder(HasFolder):
    """`stablehlo.constant` folds to its `value` (read through `qdialect.ir.constants`)."""

    @classmethod
    def fold(cls, op: Operation) -> tuple[Attribute, ...]:
        return (op.properties["value"],)


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`stablehlo.constant dense<..> : T`; quantized results hold storage integers in `value`."""

    name = "stablehlo.constant"
    value = prop_def()
    output = result_def()
    traits = traits_def(Pure(), ConstantLike(), ValueFolder())

    def __init__(self, value: Attribute, result_type: Attribute | None = None):
        if result_type is None:
            result_type = value.get_type()  # type: ignore[attr-defined]
        super().__init__(properties={"value": value}, result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser):
        if parser.parse_optional_punctuation("(") is not None:  # quantized: generic-like form
            parser.parse_punctuation(")")
            props = parser.parse_optional_properties_dict()
            attrs = parser.parse_optional_attr_dict()
            parser.parse_punctuation(":")
            fn = parser.parse_function_type()
            return cls.create(
                result_types=list(fn.outputs.data), properties=props, attributes=attrs
            )
        attrs = parser.parse_optional_attr_dict()
        start = parser.pos
        line_end = parser.lexer.input.get_end_of_line(start)
        if "!quant." in parser.lexer.input.slice(start, line_end):
            # dense<...> : tensor<..x!quant...> is not MLIR: the elements attribute holds
            # storage values, the quantized type goes on the result.
            parser.raise_error(
                "a quantized constant is written `stablehlo.constant() <{value = dense<...> : "
                "tensor<...xi8>}> : () -> tensor<...x!quant.uniform<...>>` (storage values in "
                "the attribute, the quantized type on the result)",
                start,
                line_end,
            )
        value = parser.parse_attribute()
        if not hasattr(value, "get_type"):
            parser.raise_error("expected a typed elements attribute, e.g. dense<1.0> : tensor<f32>")
        return cls.create(
            result_types=[value.get_type()], properties={"value": value}, attributes=attrs
        )  # type: ignore[attr-defined]

    def print(self, printer: Printer):
        value_type = getattr(self.value, "get_type", lambda: None)()
        if value_type == self.output.type:
            print_extra_attrs(printer, self)
            printer.print_string(" ")
            printer.print_attribute(self.value)
        else:
            printer.print_string("()")
            printer.print_string(" <")
            printer.print_attr_dict({"value": self.value})
            printer.print_string(">")
            print_extra_attrs(printer, self)
            printer.print_string(" : ")
            printer.print_function_type([], [self.output.type])

    def verify_(self) -> None:
        if not isinstance(self.value, DenseIntOrFPElementsAttr | DenseResourceAttr):
            raise VerifyException(f"'{self.name}' value must be a dense elements attribute")
        value_type = self.value.get_type()
        out = self.output.type
        q = ht.quant_type(out)
        # inferConstantOp gives the value's type; a quantized result compares by its
        # storage integers (ConstantOp::isCompatibleReturnTypes).
        expected = out if q is None else TensorType(q.storage_type, ht.shape_of(out) or [])
        if value_type != expected:
            raise VerifyException(
                f"'{self.name}' inferred type(s) '{value_type}' are incompatible with return "
                f"type(s) of operation '{out}'"
            )
        if q is not None:
            _verify_per_axis_size(self, out, "result")


class _ShapeOp(IRDLOperation):
    """Ops printed as `stablehlo.OP %x, kw = [..] : (T) -> R` with an i64 array property."""

    KEYWORD: ClassVar[str]
    PROP: ClassVar[str]

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword(cls.KEYWORD)
        parser.parse_punctuation("=")
        values = parse_int_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, [operand], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={cls.PROP: dense_i64(values)},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(
            f", {self.KEYWORD} = {int_list_text(dense_values(self.properties[self.PROP]))}"
        )
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([self.operands[0].type], [self.results[0].type])


@irdl_op_definition
class ReshapeOp(_ElementwiseSyntax):
    """`stablehlo.reshape %x : (T) -> R`: same elements, new static shape."""

    name = "stablehlo.reshape"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([self.operand.type], [self.result.type])

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        for t in (a, r):
            ht.require_tensor(t, f"'{self.name}' operand and result")
        sa, sr = ht.shape_of(a), ht.shape_of(r)
        if sa is not None and sr is not None and DYNAMIC_INDEX not in sa + sr:
            if _product(sa) != _product(sr):
                raise VerifyException(  # verifyReshapeOp's words
                    f"'{self.name}' number of output elements ({_product(sr)}) doesn't match "
                    f"expected number of elements ({_product(sa)})"
                )
        _verify_kept_quantization(self, a, r)
        qa, qr = ht.quant_type(a), ht.quant_type(r)
        if qa is not None and qa.is_per_axis and qr is not None and qr.is_per_axis:
            _verify_per_axis_size(self, a, "operand")
            _verify_per_axis_size(self, r, "result")
            da, dr = qa.quantized_dimension, qr.quantized_dimension
            if sa is not None and sr is not None:  # reshape C3
                if DYNAMIC_INDEX not in (sa[da], sr[dr]) and sa[da] != sr[dr]:
                    raise VerifyException(
                        f"'{self.name}' expect same quantization dimension size for operand "
                        f"and result {a} and {r}"
                    )
                if DYNAMIC_INDEX not in sa + sr and _product(sa[:da]) != _product(sr[:dr]):
                    raise VerifyException(
                        f"'{self.name}' product of dimensions before quantization dimension "
                        f"must match between operand and result for {_product(sa[:da])} and "
                        f"{_product(sr[:dr])}"
                    )
        _verify_same_scale_count(self, a, r)
        _verify_per_axis_size(self, r, "result")


def _product(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


@irdl_op_definition
class TransposeOp(_ShapeOp):
    """`stablehlo.transpose %x, dims = [1, 0] : (T) -> R`."""

    name = "stablehlo.transpose"
    KEYWORD: ClassVar[str] = "dims"
    PROP: ClassVar[str] = "permutation"
    operand = operand_def()
    result = result_def()
    permutation = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        perm = dense_values(self.permutation)
        sa = ht.shape_of(a)
        if sa is not None:  # inferTransposeOp's checks, in its words
            if len(perm) != len(sa):
                raise VerifyException(
                    f"'{self.name}' TransposeOp operand rank {len(sa)} does not match "
                    f"permutation size {len(perm)}"
                )
            if sorted(perm) != list(range(len(sa))):
                raise VerifyException(
                    f"'{self.name}' attribute permutation must be a permutation of "
                    f"[{', '.join(map(str, range(len(sa))))}] but got "
                    f"{', '.join(map(str, perm))}"
                )
            _expect_inferred(self, [sa[p] for p in perm], a, r)
        _verify_kept_quantization(self, a, r)
        qa, qr = ht.quant_type(a), ht.quant_type(r)
        if qa is not None and qa.is_per_axis and qr is not None and qr.is_per_axis:  # C4
            dr = qr.quantized_dimension
            if dr < len(perm) and qa.quantized_dimension != perm[dr]:
                raise VerifyException(
                    f"'{self.name}' operand quantization_dimension {qa.quantized_dimension} "
                    f"is not same as permutation[{dr}] = {perm[dr]}"
                )
        _verify_same_scale_count(self, a, r)


@irdl_op_definition
class BroadcastInDimOp(_ShapeOp):
    """`stablehlo.broadcast_in_dim %x, dims = [1] : (T) -> R`."""

    name = "stablehlo.broadcast_in_dim"
    KEYWORD: ClassVar[str] = "dims"
    PROP: ClassVar[str] = "broadcast_dimensions"
    operand = operand_def()
    result = result_def()
    broadcast_dimensions = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        dims = dense_values(self.broadcast_dimensions)
        sa, sr = ht.shape_of(a), ht.shape_of(r)
        # verifyBroadcastInDimOp, in its order and words
        if sa is not None and len(dims) != len(sa):  # C2
            raise VerifyException(
                f"'{self.name}' broadcast_dimensions size ({len(dims)}) does not match "
                f"operand rank ({len(sa)})"
            )
        if len(set(dims)) != len(dims):  # C4
            raise VerifyException(f"'{self.name}' broadcast_dimensions should not have duplicates")
        if sr is not None:
            for i, d in enumerate(dims):
                if not 0 <= d < len(sr):  # C3
                    raise VerifyException(
                        f"'{self.name}' broadcast_dimensions contains invalid value {d} for "
                        f"result with rank {len(sr)}"
                    )
                if sa is not None and sa[i] not in (1, sr[d], DYNAMIC_INDEX):  # C5
                    raise VerifyException(
                        f"'{self.name}' size of operand dimension {i} ({sa[i]}) is not equal to "
                        f"1 or size of result dimension {d} ({sr[d]})"
                    )
        _verify_kept_quantization(self, a, r, scales_may_broadcast=True)
        verify_broadcast_quantization(self, a, r, dims)


@irdl_op_definition
class BroadcastOp(_ShapeOp):
    """`stablehlo.broadcast %x, sizes = [1, 2] : (tensor<3xi32>) -> tensor<1x2x3xi32>`:
    the operand repeated over new leading dimensions (upstream's older broadcast_in_dim)."""

    name = "stablehlo.broadcast"
    KEYWORD: ClassVar[str] = "sizes"
    PROP: ClassVar[str] = "broadcast_sizes"
    operand = operand_def()
    result = result_def()
    broadcast_sizes = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """SameOperandsAndResultElementType, then inferBroadcastOp, in their words."""
        a, r = self.operand.type, self.result.type
        if ht.element_type(a) != ht.element_type(r):
            raise VerifyException(
                f"'{self.name}' requires the same element type for all operands and results"
            )
        sizes = list(dense_values(self.broadcast_sizes))
        for size in sizes:
            if size < 0:
                raise VerifyException(
                    f"'{self.name}' Broadcast with negative dimension size {size}"
                )
        shape = ht.shape_of(a)
        if shape is not None:
            inferred = TensorType(ht.element_type(a), [*sizes, *shape])
            ht.verify_inferred_results(self.name, [inferred], [r])


def verify_broadcast_quantization(
    op: Operation, a: Attribute, r: Attribute, dims: Sequence[int]
) -> None:
    """broadcast_in_dim C6 (and dynamic_broadcast_in_dim's): the result's quantized
    dimension is where the operand's lands; a size-1 quantized dimension broadcast to many
    repeats its one scale and zero point."""
    qa, qr = ht.quant_type(a), ht.quant_type(r)
    if qa is None or qr is None or not (qa.is_per_axis and qr.is_per_axis):
        return
    da, dr = qa.quantized_dimension, qr.quantized_dimension
    if da < len(dims) and dr != dims[da]:
        raise VerifyException(
            f"'{op.name}' result quantization_dimension {dr} not same as "
            f"broadcast_dimensions[{da}] = {dims[da]}"
        )
    sa, sr = ht.shape_of(a), ht.shape_of(r)
    if len(qa.scales) != 1:
        _verify_same_scale_count(op, a, r)
    if sa is None or sr is None or da >= len(sa) or sa[da] != 1 or dr >= len(sr):
        return
    for i in range(min(sr[dr], len(qr.scales))):
        if qr.scales[i] != qa.scales[0]:
            raise VerifyException(
                f"'{op.name}' mismatch result scale {i} ({qr.scales[i]:e}) and operand "
                f"scale 0 ({qa.scales[0]:e})"
            )
        if qr.zero_points[i] != qa.zero_points[0]:
            raise VerifyException(
                f"'{op.name}' mismatch result zero_point {i} ({qr.zero_points[i]}) and "
                f"operand zero_point 0 ({qa.zero_points[0]})"
            )


@irdl_op_definition
class ConcatenateOp(IRDLOperation):
    """`stablehlo.concatenate %a, %b, dim = 0 : (A, B) -> R`."""

    name = "stablehlo.concatenate"
    inputs = var_operand_def()
    result = result_def()
    dimension = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands: list[UnresolvedOperand] = []
        while (operand := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(operand)
            parser.parse_punctuation(",")
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={"dimension": IntegerAttr(dim, i64)},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.inputs], [self.result.type])

    def verify_(self) -> None:
        """inferConcatenateOp's checks, in its order and words."""
        if not self.inputs:
            raise VerifyException(f"'{self.name}' expected 1 or more operands, but found 0")
        if (message := attribute_constraint_error(self)) is not None:
            raise VerifyException(f"'{self.name}' {message}")
        dim = self.dimension.value.data
        for o in self.inputs:
            _same_element_or_baseline(self, o.type, self.result.type, "inputs and result")
        maybe = [ht.shape_of(o.type) for o in self.inputs]
        shapes = [s for s in maybe if s is not None]
        if len(shapes) != len(maybe):
            return
        witness = shapes[0]
        rank = len(witness)
        if rank == 0:
            raise VerifyException(f"'{self.name}' rank-0 values cannot be concatenated")
        if dim >= rank:
            raise VerifyException(
                f"'{self.name}' dimension {dim} is out-of-bounds for input rank {rank}"
            )
        for i, shape in enumerate(shapes):
            if len(shape) != rank:
                raise VerifyException(f"'{self.name}' operands (0) and ({i}) do not match rank")
            for d in range(rank):
                if d != dim and not ht.dims_compatible(witness[d], shape[d]):
                    raise VerifyException(
                        f"'{self.name}' shapes of operand (0) and ({i}) are not compatible at "
                        f"non-concat index {d}: ({', '.join(map(str, witness))}) != "
                        f"({', '.join(map(str, shape))})"
                    )
        expected = [
            next((s[d] for s in shapes if s[d] != DYNAMIC_INDEX), DYNAMIC_INDEX)
            for d in range(rank)
        ]
        sizes = [s[dim] for s in shapes]
        expected[dim] = DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else sum(sizes)
        _expect_inferred(self, expected, self.inputs[0].type, self.result.type)


@irdl_op_definition
class SliceOp(IRDLOperation):
    """`stablehlo.slice %x [0:2, 1:3:2] : (T) -> R` (start:limit[:stride] per dimension)."""

    name = "stablehlo.slice"
    operand = operand_def()
    result = result_def()
    start_indices = prop_def(DenseArrayBase)
    limit_indices = prop_def(DenseArrayBase)
    strides = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        starts: list[int] = []
        limits: list[int] = []
        strides: list[int] = []

        def entry() -> None:
            starts.append(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(":")
            limits.append(parser.parse_integer(allow_boolean=False))
            strides.append(
                parser.parse_integer(allow_boolean=False)
                if parser.parse_optional_punctuation(":")
                else 1
            )

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, [operand], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={
                "start_indices": dense_i64(starts),
                "limit_indices": dense_i64(limits),
                "strides": dense_i64(strides),
            },
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        items = []
        for s, lim, st in zip(
            dense_values(self.start_indices),
            dense_values(self.limit_indices),
            dense_values(self.strides),
            strict=True,
        ):
            items.append(f"{s}:{lim}" + (f":{st}" if st != 1 else ""))
        printer.print_string(" [" + ", ".join(items) + "]")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([self.operand.type], [self.result.type])

    def verify_(self) -> None:
        """inferSliceOp's checks, in its order and words."""
        starts, limits, strides = (
            dense_values(a) for a in (self.start_indices, self.limit_indices, self.strides)
        )
        if not len(starts) == len(limits) == len(strides):
            raise VerifyException(
                f"'{self.name}' failed to verify that all of {{start_indices, limit_indices, "
                "strides} have same size"
            )
        sa = ht.shape_of(self.operand.type)
        if sa is not None and len(starts) != len(sa):
            raise VerifyException(
                f"'{self.name}' the number of elements in start_indices ({len(starts)}) does "
                f"not match the rank of the operand ({len(sa)})"
            )
        expected = []
        for d, (s, lim, st) in enumerate(zip(starts, limits, strides, strict=True)):
            size = sa[d] if sa is not None else DYNAMIC_INDEX
            if s < 0:
                raise VerifyException(f"'{self.name}' negative start index {s} in dimension {d}")
            if size != DYNAMIC_INDEX and lim > size:
                raise VerifyException(
                    f"'{self.name}' limit index {lim} is larger than dimension size {size} in "
                    f"dimension {d}"
                )
            if s > lim:
                raise VerifyException(
                    f"'{self.name}' start index {s} is larger than limit index {lim} in "
                    f"dimension {d}"
                )
            if st <= 0:
                raise VerifyException(
                    f"'{self.name}' stride must be positive but got {st} in dimension {d}"
                )
            expected.append(-(-(lim - s) // st))
        _expect_inferred(self, expected, self.operand.type, self.result.type)
        _same_element_or_baseline(self, self.operand.type, self.result.type, "operand and result")


@irdl_op_definition
class DynamicSliceOp(IRDLOperation):
    """`stablehlo.dynamic_slice %x, %i, %j, sizes = [1, 2] : (...) -> R`."""

    name = "stablehlo.dynamic_slice"
    operand = operand_def()
    start_indices = var_operand_def()
    result = result_def()
    slice_sizes = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        while (operand := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(operand)
            parser.parse_punctuation(",")
        parser.parse_keyword("sizes")
        parser.parse_punctuation("=")
        sizes = parse_int_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={"slice_sizes": dense_i64(sizes)},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", sizes = {int_list_text(dense_values(self.slice_sizes))}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        """inferDynamicSliceOp's checks, in its order and words."""
        sizes = dense_values(self.slice_sizes)
        n = len(self.start_indices)
        for t in {i.type for i in self.start_indices}:
            if ht.rank_of(t) not in (0, None) or not ht.is_integer(ht.element_type(t)):
                raise VerifyException(
                    f"'{self.name}' start indices must be rank-0 integer tensors, got {t}"
                )
        if n != len(sizes):
            raise VerifyException(
                f"'{self.name}' has mismatched number of slice sizes ({len(sizes)}) and number "
                f"of start indices ({n})"
            )
        sa = ht.shape_of(self.operand.type)
        if sa is None:
            return
        if len(sa) != n:
            raise VerifyException(
                f"'{self.name}' has mismatched number of start indices ({n}) and the rank of "
                f"operand ({len(sa)})"
            )
        if len({ht.element_type(i.type) for i in self.start_indices}) > 1:
            raise VerifyException(f"'{self.name}' start indices must have same element type")
        for d, (size, dim) in enumerate(zip(sizes, sa, strict=True)):
            if size < 0:
                raise VerifyException(
                    f"'{self.name}' has negative size index to dynamic slice: {size}"
                )
            if dim != DYNAMIC_INDEX and size > dim:
                raise VerifyException(
                    f"'{self.name}' has slice size {size} greater than dimension size {dim} in "
                    f"dimension {d} of operand"
                )
        _expect_inferred(self, sizes, self.operand.type, self.result.type)
        _same_element_or_baseline(self, self.operand.type, self.result.type, "operand and result")


@irdl_op_definition
class PadOp(IRDLOperation):
    """`stablehlo.pad %x, %v, low = [..], high = [..], interior = [..] : (T, S) -> R`."""

    name = "stablehlo.pad"
    operand = operand_def()
    padding_value = operand_def()
    result = result_def()
    edge_padding_low = prop_def(DenseArrayBase)
    edge_padding_high = prop_def(DenseArrayBase)
    interior_padding = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_n_operands(parser, 2)
        values = {}
        for key, prop in (
            ("low", "edge_padding_low"),
            ("high", "edge_padding_high"),
            ("interior", "interior_padding"),
        ):
            parser.parse_punctuation(",")
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            values[prop] = dense_i64(parse_int_list(parser))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=values,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(
            f", low = {int_list_text(dense_values(self.edge_padding_low))}"
            f", high = {int_list_text(dense_values(self.edge_padding_high))}"
            f", interior = {int_list_text(dense_values(self.interior_padding))}"
        )
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        low, high, interior = (
            dense_values(a)
            for a in (self.edge_padding_low, self.edge_padding_high, self.interior_padding)
        )
        sa = ht.shape_of(self.operand.type)
        if ht.rank_of(self.padding_value.type) not in (0, None):
            raise VerifyException(f"'{self.name}' padding value must be a rank-0 tensor")
        _same_element_or_baseline(
            self, self.operand.type, self.padding_value.type, "operand and padding value"
        )
        _same_element_or_baseline(self, self.operand.type, self.result.type, "operand and result")
        if not len(low) == len(high) == len(interior):
            raise VerifyException(
                f"'{self.name}' failed to verify that all of {{edge_padding_low, "
                "edge_padding_high, interior_padding} have same size"
            )
        if sa is None:
            return
        if len(low) != len(sa):
            raise VerifyException(
                f"'{self.name}' edge_padding_low length ({len(low)}) must match operand rank "
                f"({len(sa)})"
            )
        expected = []
        for i, (d, lo, hi, it) in enumerate(zip(sa, low, high, interior, strict=True)):
            if it < 0:
                raise VerifyException(f"'{self.name}' Interior padding cannot be negative: {it}")
            if d == DYNAMIC_INDEX:
                expected.append(DYNAMIC_INDEX)
                continue
            size = lo + hi + d + max(d - 1, 0) * it
            if size < 0:
                raise VerifyException(
                    f"'{self.name}' Padding result in negative size for dimension {i}"
                )
            expected.append(size)
        _expect_inferred(self, expected, self.operand.type, self.result.type)


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`stablehlo.iota dim = 0 : tensor<4xi32>`."""

    name = "stablehlo.iota"
    output = result_def()
    iota_dimension = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(
            result_types=[t], properties={"iota_dimension": IntegerAttr(dim, i64)}, attributes=attrs
        )

    def print(self, printer: Printer):
        printer.print_string(f" dim = {self.iota_dimension.value.data}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)

    def verify_(self) -> None:
        t = self.output.type
        ht.require_tensor(t, f"'{self.name}' result")
        rank = ht.rank_of(t)
        dim = self.iota_dimension.value.data
        if (message := attribute_constraint_error(self)) is not None:
            raise VerifyException(f"'{self.name}' {message}")
        if rank == 0:  # verifyIotaOp, in its words
            raise VerifyException(f"'{self.name}' does not support scalars.")
        if rank is not None and dim >= rank:
            raise VerifyException(f"'{self.name}' iota dimension cannot go beyond the output rank.")
        _check_kinds(self, t, "ifcq", "result #0")


# ==========================================================================
# Contractions
# ==========================================================================


def _precision_list(attr: ArrayAttr | None) -> list[str]:
    return [] if attr is None else [p.data.value for p in attr.data]  # type: ignore[attr-defined]


_PRECISION_PARAMETER = (
    "failed to parse StableHLO_PrecisionAttr parameter 'value' which is to be a "
    "`::mlir::stablehlo::Precision`"
)


def _parse_precision_value(parser: Parser) -> PrecisionAttr:
    """One bare precision keyword, with the two errors MLIR's generated enum parser
    reports: not a keyword, or not one of the cases."""
    span = xp.current_token(parser).span
    word = parser.parse_optional_identifier()
    if word is None:
        raise add_follow_up(
            ParseError(span, "expected valid keyword"), ParseError(span, _PRECISION_PARAMETER)
        )
    if word not in Precision.__members__:
        raise add_follow_up(
            ParseError(span, _PRECISION_PARAMETER),
            ParseError(
                span,
                "expected ::mlir::stablehlo::Precision to be one of: "
                + ", ".join(Precision.__members__),
            ),
        )
    return PrecisionAttr(Precision(word))


def _parse_precision(parser: Parser) -> ArrayAttr:
    parser.parse_keyword("precision")
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_precision_value(parser)
    )
    return ArrayAttr(values)


def _verify_precision(op: Operation, attr: Attribute | None) -> None:
    if isinstance(attr, ArrayAttr) and len(attr.data) > 2:
        raise VerifyException(
            f"'{op.name}' expects precision config to be empty or have <= 2 elements, "
            f"got {len(attr.data)}"
        )
    if isinstance(attr, ArrayAttr) and not all(isinstance(p, PrecisionAttr) for p in attr.data):
        raise VerifyException(
            f"'{op.name}' attribute 'precision_config' failed to satisfy constraint: "
            "Precision Config attribute"
        )


def _verify_quantized_contraction(
    op: Operation,
    lhs: Attribute,
    rhs: Attribute,
    result: Attribute,
    rhs_contracting: Sequence[int],
    result_axis_for: dict[int, int],
    conv_feature_dims: tuple[int, int] | None = None,
) -> None:
    """The spec's rules shared by dot_general and convolution for quantized operands,
    checked in upstream's order and worded as upstream words them (the spec's constraint
    numbers in comments), then the rules upstream leaves out.

    rhs_contracting: rhs dimensions summed over (per-axis quantization may not use them);
    result_axis_for: rhs dimension -> result dimension it becomes;
    conv_feature_dims: a convolution's (kernel output feature, output feature) dimensions.
    """
    ql, qr, qo = ht.quant_type(lhs), ht.quant_type(rhs), ht.quant_type(result)
    if ql is None and qr is None and qo is None:
        if ht.element_type(lhs) != ht.element_type(rhs):
            raise VerifyException(f"'{op.name}' requires lhs and rhs with the same element type")
        return
    if any(q is not None and q.is_sub_channel for q in (ql, qr, qo)):
        raise VerifyException(
            f"'{op.name}' does not take sub-channel quantized types (the spec's are per-tensor "
            "or per-axis; dequantize them first)"
        )
    if conv_feature_dims is None and qr is not None:
        # dot_general C15-C16. Convolution's constraints ask no zero weight zero point
        # (JAX quantizes weights with zero point -128) and its semantics need none.
        if any(zp != 0 for zp in qr.zero_points):
            which = "points" if qr.is_per_axis else "point"
            raise VerifyException(f"'{op.name}' Zero {which} of rhs should be 0")
        if qr.is_per_axis and qr.quantized_dimension in rhs_contracting:
            raise VerifyException(
                f"'{op.name}' Quantization dimension of rhs should not be in the "
                "contracting dimension of rhs"
            )
    if conv_feature_dims is not None:  # convolution C29-C30
        kernel_out, out_feature = conv_feature_dims
        if qr is not None and qr.is_per_axis and qr.quantized_dimension != kernel_out:
            raise VerifyException(
                f"'{op.name}' quantization dimension of rhs should be same with "
                "kernel_output_feature_dimension"
            )
        if qo is not None and qo.is_per_axis and qo.quantized_dimension != out_feature:
            raise VerifyException(
                f"'{op.name}' quantization dimension of result should be same with "
                "output_feature_dimension"
            )
    if qr is None or (ql is None) != (qo is None):  # C28 / C14
        raise VerifyException(
            f"'{op.name}' rhs should be quantized for quantized operations and "
            "is_quantized(lhs)=is_quantized(result) should hold"
        )
    if ql is None:  # hybrid (weight-only) quantization: float lhs and result (C34 / C20)
        if (
            ht.element_type(lhs) != qr.expressed_type
            or ht.element_type(result) != qr.expressed_type
        ):
            raise VerifyException(
                f"'{op.name}' mismatched rhs quantization expressed type and lhs and result "
                f"element type (rhs expresses {qr.expressed_type})"
            )
        return
    assert qo is not None
    if (ql.storage_width, ql.is_signed) != (qr.storage_width, qr.is_signed):  # C31 / C17
        raise VerifyException(f"'{op.name}' mismatched lhs and rhs quantization storage types")
    if not ql.expressed_type == qr.expressed_type == qo.expressed_type:  # C32 / C18
        raise VerifyException(
            f"'{op.name}' mismatched lhs, rhs and result quantization expressed types"
        )
    if not qr.is_per_axis and qo.is_per_axis:  # C33 / C19
        raise VerifyException(f"'{op.name}' mismatched rhs and result quantization granularity")
    if ql.is_per_axis:  # the spec's lhs is per-tensor; upstream's types admit per-axis
        raise VerifyException(f"'{op.name}' lhs must not be per-axis quantized")
    if qo.is_per_axis:
        expected_axis = result_axis_for.get(qr.quantized_dimension)
        if qo.quantized_dimension != expected_axis:
            raise VerifyException(
                f"'{op.name}' result quantization dimension must be {expected_axis}, where "
                f"rhs dimension {qr.quantized_dimension} lands"
            )
    _verify_per_axis_size(op, rhs, "rhs")
    _verify_per_axis_size(op, result, "result")


@irdl_op_definition
class DotGeneralOp(IRDLOperation):
    """`stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1]`."""

    name = "stablehlo.dot_general"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    dot_dimension_numbers = prop_def(DotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr)
    algorithm = opt_prop_def(DotAlgorithmAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_n_operands(parser, 2)
        dims: dict[str, tuple[int, ...]] = {}
        props: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(",") is not None:
            if parser.parse_optional_keyword("batching_dims") is not None:
                prefix = "batching"
            elif parser.parse_optional_keyword("contracting_dims") is not None:
                prefix = "contracting"
            elif parser.parse_optional_keyword("algorithm") is not None:
                parser.parse_punctuation("=")
                props["algorithm"] = DotAlgorithmAttr(DotAlgorithmAttr.parse_parameter(parser))
                continue
            else:
                props["precision_config"] = _parse_precision(parser)
                continue
            parser.parse_punctuation("=")
            dims[f"lhs_{prefix}_dimensions"] = tuple(parse_int_list(parser))
            parser.parse_keyword("x")
            dims[f"rhs_{prefix}_dimensions"] = tuple(parse_int_list(parser))
        props["dot_dimension_numbers"] = DotDimensionNumbersAttr(DotDims(**dims))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        d = self.dot_dimension_numbers.data
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if d.lhs_batching_dimensions or d.rhs_batching_dimensions:
            printer.print_string(
                f", batching_dims = {int_list_text(d.lhs_batching_dimensions)} x {int_list_text(d.rhs_batching_dimensions)}"
            )
        printer.print_string(
            f", contracting_dims = {int_list_text(d.lhs_contracting_dimensions)} x {int_list_text(d.rhs_contracting_dimensions)}"
        )
        if self.precision_config is not None:  # `precision = []` when present but empty
            printer.print_string(
                f", precision = [{', '.join(_precision_list(self.precision_config))}]"
            )
        if self.algorithm is not None:
            printer.print_string(f", algorithm = {dot_algorithm_text(self.algorithm.data)}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        d = self.dot_dimension_numbers.data
        lhs, rhs, result = self.lhs.type, self.rhs.type, self.result.type
        for t in (lhs, rhs, result):
            ht.require_tensor(t, f"'{self.name}' operands and result")
        _verify_precision(self, self.precision_config)
        if self.algorithm is not None:
            if (problem := dot_algorithm_problem(self.algorithm.data)) is not None:
                raise VerifyException(f"'{self.name}' {problem}")
        sl, sr = ht.shape_of(lhs), ht.shape_of(rhs)
        if (problem := dot_general_problem(d, sl, sr)) is not None:
            raise VerifyException(f"'{self.name}' {problem}")
        if sl is not None and sr is not None:
            rhs_reduced = (*d.rhs_batching_dimensions, *d.rhs_contracting_dimensions)
            lhs_free = [
                i
                for i in range(len(sl))
                if i not in d.lhs_batching_dimensions and i not in d.lhs_contracting_dimensions
            ]
            rhs_free = [i for i in range(len(sr)) if i not in rhs_reduced]
            expected = (
                [sl[i] for i in d.lhs_batching_dimensions]
                + [sl[i] for i in lhs_free]
                + [sr[i] for i in rhs_free]
            )
            ht.require_inferred_shape(self.name, expected, result)
            result_axis_for = {
                r: len(d.lhs_batching_dimensions) + len(lhs_free) + k
                for k, r in enumerate(rhs_free)
            } | {r: k for k, r in enumerate(d.rhs_batching_dimensions)}
        else:
            result_axis_for = {}
        if self.algorithm is not None and any(
            p != "DEFAULT" for p in _precision_list(self.precision_config)
        ):
            raise VerifyException(
                f"'{self.name}' must specify DEFAULT precision config when algorithm is set."
            )
        _verify_quantized_contraction(
            self, lhs, rhs, result, d.rhs_contracting_dimensions, result_axis_for
        )


@irdl_op_definition
class DotOp(IRDLOperation):
    """`stablehlo.dot %a, %b : (A, B) -> R`: vector/matrix products of rank-1/2 operands."""

    name = "stablehlo.dot"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_n_operands(parser, 2)
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            props["precision_config"] = _parse_precision(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.precision_config is not None:  # `precision = []` when present but empty
            printer.print_string(
                f", precision = [{', '.join(_precision_list(self.precision_config))}]"
            )
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        lhs, rhs, result = self.lhs.type, self.rhs.type, self.result.type
        _verify_precision(self, self.precision_config)
        sl, sr = ht.shape_of(lhs), ht.shape_of(rhs)
        if sl is not None and sr is not None:
            # verifyDotOp (inferDotOp), in its words
            if (
                len(sl) not in (1, 2)
                or len(sr) not in (1, 2)
                or not ht.dims_compatible(sl[-1], sr[0])
            ):
                raise VerifyException(
                    f"'{self.name}' expected both lhs/rhs ranks to be either 1 or 2"
                )
            ht.require_inferred_shape(self.name, list(sl[:-1]) + list(sr[1:]), result)
            result_axis_for = {1: len(sl) - 1} if len(sr) == 2 else {}
        else:
            result_axis_for = {}
        _verify_quantized_contraction(self, lhs, rhs, result, (0,), result_axis_for)


def _dense_2d(attr: Attribute | None) -> list[tuple[int, int]]:
    if attr is None:
        return []
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    values = [int(v) for v in attr.get_values()]
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def _padding_attr(pairs: Sequence[tuple[int, int]]) -> DenseIntOrFPElementsAttr:
    flat = [v for pair in pairs for v in pair]
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(pairs), 2]), flat)


@irdl_op_definition
class ConvolutionOp(IRDLOperation):
    """`stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {...}`."""

    name = "stablehlo.convolution"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase)
    rhs_dilation = opt_prop_def(DenseArrayBase)
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimensionNumbersAttr)
    feature_group_count = prop_def(IntegerAttr)
    batch_group_count = prop_def(IntegerAttr)
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    _WINDOW: ClassVar[tuple[tuple[str, str], ...]] = (
        ("stride", "window_strides"),
        ("pad", "padding"),
        ("lhs_dilate", "lhs_dilation"),
        ("rhs_dilate", "rhs_dilation"),
        ("reverse", "window_reversal"),
    )

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("(")
        operands = parse_operand_list(parser)
        parser.parse_punctuation(")")
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {
            "dimension_numbers": ConvDimensionNumbersAttr(parse_conv_dims(parser))
        }
        parser.parse_punctuation(",")
        parser.parse_keyword("window")
        parser.parse_punctuation("=")
        names = dict(cls._WINDOW)

        def window_entry() -> None:
            start = parser.pos
            key = parser.parse_identifier()
            if key not in names or names[key] in props:  # unknown or repeated: upstream's words
                parser.raise_error(f"Unexpected keyword {key}", start, parser.pos)
            parser.parse_punctuation("=")
            if key == "pad":

                def pair() -> tuple[int, int]:
                    values = parse_int_list(parser, dense_array=False)
                    if len(values) != 2:
                        parser.raise_error(
                            f"Expected array with 2 elements, got {len(values)} elements instead"
                        )
                    return values[0], values[1]

                pairs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, pair)
                props["padding"] = _padding_attr(pairs)
            elif key == "reverse":  # booleans, or integers as upstream's parser reads them

                def flag() -> int:
                    value = parser.parse_optional_boolean()
                    return int(value) if value is not None else int(parser.parse_integer() != 0)

                flags = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, flag)
                props["window_reversal"] = DenseArrayBase.from_list(IntegerType(1), flags)
            else:
                props[names[key]] = dense_i64(parse_int_list(parser, dense_array=False))

        parser.parse_comma_separated_list(parser.Delimiter.BRACES, window_entry)
        dict_start = parser.pos
        extra = parser.parse_optional_attr_dict()
        more_props, attrs = split_attr_dict(cls, extra)
        props.update(more_props)
        for name in ("feature_group_count", "batch_group_count"):
            # MLIR checks inherent attributes as it parses, at the attribute dictionary.
            if (message := _group_count_error(props.get(name), name)) is not None:
                parser.raise_error(f"'{cls.name}' op {message}", dict_start, dict_start + 1)
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(
            f") dim_numbers = {conv_dims_text(self.dimension_numbers.data)}, window = {{"
        )
        parts = []
        for key, prop in self._WINDOW:
            value = self.properties.get(prop)
            if value is None:
                continue
            if key == "pad":
                parts.append(
                    "pad = [" + ", ".join(f"[{lo}, {hi}]" for lo, hi in _dense_2d(value)) + "]"
                )
            elif key == "reverse":
                parts.append(
                    "reverse = ["
                    + ", ".join("true" if v else "false" for v in dense_values(value))
                    + "]"
                )
            else:
                parts.append(f"{key} = {int_list_text(dense_values(value))}")
        printer.print_string(", ".join(parts) + "}")
        print_extra_attrs(
            printer, self, props=("batch_group_count", "feature_group_count", "precision_config")
        )
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        verify_convolution(self, lambda spatial: window_padding(self.padding))


def verify_convolution(
    op: Operation, padding_of: Callable[[int], list[tuple[int, int]] | None]
) -> None:
    """convolution's and dynamic_conv's checks in upstream's order and words
    (inferConvolutionOp), then the quantization rules; the spec's constraint numbers are
    upstream's comments. `padding_of(spatial_count)` gives the padding pairs, raises
    WindowError for a malformed padding, or returns None when the padding is not known
    (a dynamic_conv padding operand that is not a constant)."""
    props = op.properties
    for name in ("feature_group_count", "batch_group_count"):  # C21, C22 (ODS)
        if (message := _group_count_error(props[name], name)) is not None:
            raise VerifyException(f"'{op.name}' {message}")
    lhs, rhs, result = op.operands[0].type, op.operands[1].type, op.results[0].type
    sl, sr = ht.shape_of(lhs), ht.shape_of(rhs)
    if sl is None or sr is None:
        return
    if len(sl) < 2:  # C13
        raise VerifyException(
            f"'{op.name}' expects convolution arguments to have >= 2 dimensions. "
            f"Got: '{lhs}' and '{rhs}'."
        )
    if len(sl) != len(sr):  # C1
        raise VerifyException(
            f"'{op.name}' expects convolution arguments to have same number of "
            f"dimensions. Got: '{lhs}' and '{rhs}'."
        )
    el, er = ht.element_type(lhs), ht.element_type(rhs)
    if not ht.is_quantized(lhs) and not ht.is_quantized(rhs) and el != er:  # C27
        raise VerifyException(
            f"'{op.name}' expects lhs and rhs to have compatible element type. "
            f"Got: '{el}' and '{er}'"
        )
    dn: ConvDims = cast(ConvDimensionNumbersAttr, props["dimension_numbers"]).data
    fgc = cast(IntegerAttr, props["feature_group_count"]).value.data
    bgc = cast(IntegerAttr, props["batch_group_count"]).value.data
    _verify_conv_attributes(op, sl, sr, dn, fgc, bgc)
    n = len(dn.input_spatial_dimensions)
    if len(sl) != n + 2:  # C12
        raise VerifyException(
            f"'{op.name}' expects convolution arguments to have {n + 2} dimensions. Got: {len(sl)}"
        )
    try:
        padding = padding_of(n)  # C4
        window = (
            None
            if padding is None
            else check_window(
                [sr[d] for d in dn.kernel_spatial_dimensions],
                dense_values(props.get("window_strides")),
                padding,
                dense_values(props.get("lhs_dilation")),
                dense_values(props.get("rhs_dilation")),
                len(dense_values(props.get("window_reversal"))),
            )
        )
    except WindowError as err:
        raise VerifyException(f"'{op.name}' {err}") from None
    if window is not None:
        expected = [DYNAMIC_INDEX] * len(sl)
        spatial = window_output_shape([sl[d] for d in dn.input_spatial_dimensions], window)
        for d, size in zip(dn.output_spatial_dimensions, spatial, strict=True):
            expected[d] = size
        batch = sl[dn.input_batch_dimension]
        expected[dn.output_batch_dimension] = batch if batch == DYNAMIC_INDEX else batch // bgc
        expected[dn.output_feature_dimension] = sr[dn.kernel_output_feature_dimension]
        ht.require_inferred_shape(op.name, expected, result)  # C25
    reduced = (dn.kernel_input_feature_dimension, *dn.kernel_spatial_dimensions)
    _verify_quantized_contraction(
        op,
        lhs,
        rhs,
        result,
        reduced,
        {dn.kernel_output_feature_dimension: dn.output_feature_dimension},
        (dn.kernel_output_feature_dimension, dn.output_feature_dimension),
    )


def _group_count_error(attr: Attribute | None, name: str) -> str | None:
    """ODS's message for a group count that is not a positive i64, else None."""
    if attr is None or (
        isinstance(attr, IntegerAttr) and attr.type == i64 and attr.value.data >= 1
    ):
        return None
    return (
        f"attribute '{name}' failed to satisfy constraint: "
        "64-bit signless integer attribute whose value is positive"
    )


def window_padding(attr: DenseIntOrFPElementsAttr | None) -> list[tuple[int, int]]:
    """A window op's padding as [low, high] pairs (empty when absent)."""
    if attr is None:
        return []
    shape = ht.shape_of(attr.get_type()) or ()
    return padding_pairs(shape, [int(v) for v in attr.get_values() if isinstance(v, int | float)])


def _verify_conv_attributes(
    op: Operation, sl: Sequence[int], sr: Sequence[int], dn: ConvDims, fgc: int, bgc: int
) -> None:
    """verifyConvolutionAttributes: the dimension numbers against the ranks, then the
    group counts against the feature and batch sizes."""
    spatial = (
        len(dn.input_spatial_dimensions),
        len(dn.kernel_spatial_dimensions),
        len(dn.output_spatial_dimensions),
    )
    if len(set(spatial)) != 1:  # C17, C19
        raise VerifyException(
            f"'{op.name}' expects the same size for input, kernel and output spatial-dimensions, "
            f"but got {spatial[0]}, {spatial[1]}, and {spatial[2]} resp."
        )
    groups = {
        "input": (
            dn.input_batch_dimension,
            dn.input_feature_dimension,
            *dn.input_spatial_dimensions,
        ),
        "kernel": (
            dn.kernel_input_feature_dimension,
            dn.kernel_output_feature_dimension,
            *dn.kernel_spatial_dimensions,
        ),
        "output": (
            dn.output_batch_dimension,
            dn.output_feature_dimension,
            *dn.output_spatial_dimensions,
        ),
    }
    rank = len(sl)
    if any(not 0 <= d < rank for dims in groups.values() for d in dims):  # C13, C18, C20
        raise VerifyException(
            f"'{op.name}' expects input, kernel, and output dimension-numbers to be in-range "
            f"[0, {rank})."
        )
    for what, dims in groups.items():
        if len(set(dims)) != len(dims):
            listed = ", ".join(str(d) for d in dims)
            raise VerifyException(
                f"'{op.name}' expects {what} dimension-numbers to be unique, got {{{listed}}}."
            )
    if bgc > 1 and fgc > 1:  # C23
        raise VerifyException(
            f"'{op.name}' expects batch_group_count and feature_group_count not to be both "
            f"greater than 1. Got {bgc} and {fgc} resp."
        )
    features, batch = sl[dn.input_feature_dimension], sl[dn.input_batch_dimension]
    k_in, k_out = sr[dn.kernel_input_feature_dimension], sr[dn.kernel_output_feature_dimension]
    if batch != DYNAMIC_INDEX and batch % bgc:  # C10
        raise VerifyException(
            f"'{op.name}' expects input batch dimension ({batch}) to be divisible by "
            f"batch_group_count. Got batch_group_count = {bgc}."
        )
    if features != DYNAMIC_INDEX:
        if features % fgc:  # C11
            raise VerifyException(
                f"'{op.name}' expects input feature dimension ({features}) to be a multiple of "
                f"feature_group_count. Got feature_group_count = {fgc}."
            )
        if k_in != DYNAMIC_INDEX and features // fgc != k_in:  # C14
            raise VerifyException(
                f"'{op.name}' expects input feature dimension ({features}) / feature_group_count "
                f"= kernel input feature dimension ({k_in}). Got feature_group_count = {fgc}."
            )
    if k_out != DYNAMIC_INDEX:
        if k_out % bgc:  # C15
            raise VerifyException(
                f"'{op.name}' expects output feature dimension size ({k_out}) to be a multiple of "
                f"batch_group_count. Got batch_group_count = {bgc}."
            )
        if k_out % fgc:  # C16
            raise VerifyException(
                f"'{op.name}' expects kernel output feature dimension ({k_out}) to be divisible "
                f"by feature_group_count. For feature_group_count = {fgc}."
            )
    _verify_precision(op, op.properties.get("precision_config"))  # C24


# ==========================================================================
# Reductions
# ==========================================================================


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0]` or with a `reducer` body."""

    name = "stablehlo.reduce"
    inputs = var_operand_def()
    init_values = var_operand_def()
    results_ = var_result_def()
    dimensions = prop_def(DenseArrayBase)
    body = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser):
        pairs: list[tuple[UnresolvedOperand, UnresolvedOperand]] = []

        def pair() -> None:
            x = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            pairs.append((x, parser.parse_unresolved_operand()))

        parser.parse_punctuation("(")
        pair()
        parser.parse_punctuation(")")
        while parser.parse_optional_punctuation(",") is not None:
            parser.parse_punctuation("(")
            pair()
            parser.parse_punctuation(")")
        applies = None
        if parser.parse_optional_keyword("applies") is not None:
            start = parser.pos
            applies = parser.parse_identifier()
            if applies not in COMMUTATIVE_REDUCERS or parser.ctx.get_optional_op(applies) is None:
                parser.raise_error(
                    "expected the inner-op to be a commutative binary-op from the stablehlo "
                    "dialect, with zero region, producing single result",
                    start,
                    parser.pos,
                )
        parser.parse_keyword("across")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dims = parse_int_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        n = len(pairs)
        inputs = resolve(parser, [p[0] for p in pairs], fn.inputs.data[:n])
        inits = resolve(parser, [p[1] for p in pairs], fn.inputs.data[n:])
        if applies is not None:
            body = _compact_body(parser, applies, [v.type for v in inits])
        else:
            parser.parse_keyword("reducer")
            lhs_args, rhs_args = [], []
            for _ in range(n):
                parser.parse_punctuation("(")
                lhs_args.append(parser.parse_argument())
                parser.parse_punctuation(",")
                rhs_args.append(parser.parse_argument())
                parser.parse_punctuation(")")
            body = parser.parse_region([*lhs_args, *rhs_args])
        return cls.create(
            operands=[*inputs, *inits],
            result_types=list(fn.outputs.data),
            properties={"dimensions": dense_i64(dims)},
            attributes=attrs,
            regions=[body],
        )

    def _compact_op(self) -> Operation | None:
        """The single binary op of a body eligible for `applies` printing, else None."""
        block = self.body.blocks.first
        if block is None or len(self.inputs) != 1 or len(block.args) != 2:
            return None
        ops = list(block.ops)
        if len(ops) != 2 or not isinstance(ops[1], ReturnOp):
            return None
        inner, ret = ops
        if (
            len(inner.operands) != 2
            or list(inner.operands) != list(block.args)
            or len(inner.results) != 1
            or list(ret.operands) != [inner.results[0]]
            or inner.regions
            or inner.attributes
            or inner.properties
            or inner.name not in COMMUTATIVE_REDUCERS
        ):
            return None
        init_type = self.init_values[0].type
        if not all(
            t == init_type for t in (block.args[0].type, block.args[1].type, inner.results[0].type)
        ):
            return None
        if ht.element_type(init_type) != ht.element_type(self.inputs[0].type):
            return None
        return inner

    def print(self, printer: Printer):
        for i, (x, init) in enumerate(zip(self.inputs, self.init_values, strict=True)):
            printer.print_string("(" if i == 0 else ", (")
            printer.print_operand(x)
            printer.print_string(" init: ")
            printer.print_operand(init)
            printer.print_string(")")
        compact = self._compact_op()
        if compact is not None:
            printer.print_string(f" applies {compact.name}")
        printer.print_string(f" across dimensions = {int_list_text(dense_values(self.dimensions))}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.results])
        if compact is not None:
            return
        block = self.body.blocks.first
        assert block is not None
        n = len(self.inputs)
        # Upstream's layout, stray spaces included: "\n<indent> reducer(%a: T, %b: T)  {".
        xp.print_new_line(printer)
        printer.print_string(" reducer")
        for i in range(n):
            printer.print_string("(")
            printer.print_block_argument(block.args[i])
            printer.print_string(", ")
            printer.print_block_argument(block.args[i + n])
            printer.print_string(") ")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        """Upstream's verifyReduceOp (inputs, dimensions, then the reducer), then the
        result types against the ones inferred from the reducer."""
        inputs = [x.type for x in self.inputs]
        shape = _common_input_shape(self, inputs)
        dims = dense_values(self.dimensions)
        kept: list[int] = []
        if shape is not None:
            seen: set[int] = set()
            for d in dims:
                if not 0 <= d < len(shape):  # C4
                    raise VerifyException(
                        f"'{self.name}' Out-of-bounds dimension {d}, expected to be in range "
                        f"[0, {len(shape)})"
                    )
                if d in seen:  # C5
                    raise VerifyException(f"'{self.name}' Duplicate reduction dimension: {d}")
                seen.add(d)
            kept = [size for i, size in enumerate(shape) if i not in seen]
        block = self.body.blocks.first
        accumulators = verify_reducer(
            self.name, block, inputs, [v.type for v in self.init_values], kept
        )
        if shape is not None:  # C7, C8
            ht.verify_inferred_results(
                self.name,
                [ht.tensor_like(kept, ht.element_type(a)) for a in accumulators],
                [r.type for r in self.results],
            )


def _common_input_shape(op: Operation, inputs: Sequence[Attribute]) -> ht.Shape:
    """The inputs' shape (the first one's), once all are compatible with it."""
    shapes = [ht.shape_of(t) for t in inputs]
    for i, shape in enumerate(shapes[1:], start=1):
        if not ht.shapes_compatible(shapes[0], shape):
            raise VerifyException(
                f"'{op.name}' expects all inputs to have compatible shapes. Shape at input-index "
                f"{i} is not compatible with shape at input-index 0"
            )
    return shapes[0] if shapes else None


# The ops `reduce ... applies OP` may name: upstream's commutative binary ops.
COMMUTATIVE_REDUCERS = frozenset(
    "stablehlo." + name for name in ("add", "multiply", "maximum", "minimum", "and", "or", "xor")
)


def _compact_body(parser: Parser, op_name: str, init_types: Sequence[Attribute]) -> Region:
    """Build the reducer region `^bb0(%a, %b): %r = OP %a, %b; return %r` for `applies OP`."""
    op_cls = parser.ctx.get_optional_op(op_name)
    assert op_cls is not None  # checked where `applies OP` was read
    t = init_types[0]
    block = Block(arg_types=[t, t])
    inner = op_cls.create(operands=list(block.args), result_types=[t])
    block.add_ops([inner, ReturnOp(inner.results[0])])
    return Region(block)


@irdl_op_definition
class ReduceWindowOp(IRDLOperation):
    """`"stablehlo.reduce_window"(...)`: pooling; printed in the generic form, as upstream does."""

    name = "stablehlo.reduce_window"
    inputs = var_operand_def()
    init_values = var_operand_def()
    results_ = var_result_def()
    window_dimensions = prop_def(DenseArrayBase)
    window_strides = opt_prop_def(DenseArrayBase)
    base_dilations = opt_prop_def(DenseArrayBase)
    window_dilations = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    body = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        """Upstream's verifyReduceWindowOp (inputs, window, then the reducer), then the
        result types against the ones inferred from the window and the reducer."""
        inputs = [x.type for x in self.inputs]
        if not inputs:  # C1
            raise VerifyException(f"'{self.name}' requires at least 1 input value")
        _common_input_shape(self, inputs)  # C2
        sizes = dense_values(self.window_dimensions)
        try:
            padding = window_padding(self.padding)  # C12
            for t in inputs:  # C4
                rank = ht.rank_of(t)
                if rank is not None and rank != len(sizes):
                    raise WindowError(
                        "expects window-dimensions size == input rank, but got window-dimensions "
                        f"size: {len(sizes)} and input: '{t}' with rank = {rank}."
                    )
            window = check_window(  # C5-C11
                sizes,
                dense_values(self.window_strides),
                padding,
                dense_values(self.base_dilations),
                dense_values(self.window_dilations),
            )
        except WindowError as err:
            raise VerifyException(f"'{self.name}' {err}") from None
        block = self.body.blocks.first
        accumulators = verify_reducer(
            self.name, block, inputs, [v.type for v in self.init_values], sizes
        )
        inferred = []
        for t, acc in zip(inputs, accumulators, strict=True):
            shape = ht.shape_of(t)
            if shape is None:
                return
            inferred.append(
                ht.tensor_like(window_output_shape(shape, window), ht.element_type(acc))
            )
        ht.verify_inferred_results(self.name, inferred, [r.type for r in self.results])  # C15, C16


# ==========================================================================
# Gather, calls, barriers, return
# ==========================================================================


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`"stablehlo.gather"(...)`: printed in the generic form, as upstream does."""

    name = "stablehlo.gather"
    operand = operand_def()
    start_indices = operand_def()
    result = result_def()
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    slice_sizes = prop_def(DenseArrayBase)
    indices_are_sorted = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        sizes = list(dense_values(self.slice_sizes))
        verify_gather(self, self.dimension_numbers.data, [len(sizes)], sizes)


def verify_gather(
    op: Operation, d: GatherDims, sizes_shape: Sequence[int], sizes: Sequence[int] | None
) -> None:
    """gather's and dynamic_gather's checks in upstream's order and words (verifyGather,
    inferGatherOp), then the result against the inferred shape and the operand's element
    type. `sizes` are the slice sizes when known (dynamic_gather's operand may not be a
    constant); `sizes_shape` is their container's shape."""
    operand, indices, result = op.operands[0].type, op.operands[1].type, op.results[0].type
    so, si = ht.shape_of(operand), ht.shape_of(indices)
    if so is not None and si is not None:
        message = _gather_dims_error(d, so, si, sizes_shape)
        if message is None and sizes is not None:
            message = _gather_sizes_error(d, so, sizes)
        if message is None:  # C5
            rank = len(d.offset_dims) + len(si) - (0 if d.index_vector_dim == len(si) else 1)
            message = out_of_range(d.offset_dims, rank, "offset_dims", "implied-result-rank")
        if message is not None:
            raise VerifyException(f"'{op.name}' {message}")
        if sizes is None and len(sizes_shape) == 1 and sizes_shape[0] >= 0:
            sizes = [DYNAMIC_INDEX] * sizes_shape[0]  # unknown values: dynamic offset sizes
        if sizes is not None:  # C22, C23
            inferred = ht.tensor_like(_gather_shape(d, si, sizes), ht.element_type(operand))
            if not ht.shapes_compatible(ht.shape_of(inferred), ht.shape_of(result)):
                ht.verify_inferred_results(op.name, [inferred], [result])
    _same_element_or_baseline(op, operand, result, "operand and result")


def _gather_dims_error(
    d: GatherDims, so: Sequence[int], si: Sequence[int], sizes_shape: Sequence[int]
) -> str | None:
    """verifyGather (C1-C4, C6-C8, C10, C11, C13-C20, I9): the first broken rule."""
    implied = len(d.offset_dims) + len(d.collapsed_slice_dims) + len(d.operand_batching_dims)
    if len(so) != implied:
        return (
            f"offset_dims size ({len(d.offset_dims)}) plus collapse_slice_dims size "
            f"({len(d.collapsed_slice_dims)}) plus operand_batching_dims size "
            f"({len(d.operand_batching_dims)}) is not equal to operand rank ({len(so)})"
        )
    ivd = d.index_vector_dim
    if not 0 <= ivd <= len(si):
        return (
            "Expects index_vector_dim to be in range [0, rank-of('start_indices')] i.e. "
            f"[0, {len(si)}]. got: {ivd}."
        )
    count = 1 if ivd == len(si) else si[ivd]
    if count != DYNAMIC_INDEX and count != len(d.start_index_map):
        return (
            f"start_index_map size ({len(d.start_index_map)}) is not equal to size of index "
            f"dimension ({ivd}) of start_indices ({count})"
        )
    checks: list[tuple[bool, str]] = [
        (
            list(d.offset_dims) != sorted(d.offset_dims),
            f"expects offset_dims to be sorted, got: [{dims_text(d.offset_dims)}]",
        ),
        (
            len(set(d.offset_dims)) != len(d.offset_dims),
            f"expects offset_dims to not repeat, got: [{dims_text(d.offset_dims)}]",
        ),
    ]
    for bad, message in checks:
        if bad:
            return message
    lazy = (
        lambda: repeated(
            d.collapsed_slice_dims,
            d.operand_batching_dims,
            "collapsed_slice_dims",
            "operand_batching_dims",
        ),
        lambda: (
            f"expects collapsed_slice_dims to be sorted, got: [{dims_text(d.collapsed_slice_dims)}]"
            if list(d.collapsed_slice_dims) != sorted(d.collapsed_slice_dims)
            else None
        ),
        lambda: out_of_range(
            d.collapsed_slice_dims, len(so), "collapsed_slice_dims", "rank-of('operand')"
        ),
        lambda: (
            "expects operand_batching_dims to be sorted, got: "
            f"[{dims_text(d.operand_batching_dims)}]"
            if list(d.operand_batching_dims) != sorted(d.operand_batching_dims)
            else None
        ),
        lambda: out_of_range(
            d.operand_batching_dims, len(so), "operand_batching_dims", "rank-of('operand')"
        ),
        lambda: (
            "expects start_indices_batching_dims to not repeat, got: "
            f"[{dims_text(d.start_indices_batching_dims)}]"
            if len(set(d.start_indices_batching_dims)) != len(d.start_indices_batching_dims)
            else None
        ),
        lambda: out_of_range(
            d.start_indices_batching_dims,
            len(si),
            "start_indices_batching_dims",
            "rank-of('start_indices')",
        ),
        lambda: (
            f"expects start_indices_batching_dims not to include index_vector_dim {ivd}"
            if ivd in d.start_indices_batching_dims
            else None
        ),
        lambda: (
            "operand_batching_dims and start_indices_batching_dims should have the same size"
            if len(d.operand_batching_dims) != len(d.start_indices_batching_dims)
            else None
        ),
        lambda: next(
            (
                f"operand_batching_dims[{i}] and start_indices_batching_dims[{i}] must have "
                f"compatible sizes, but got {so[a]} and {si[b]}"
                for i, (a, b) in enumerate(
                    zip(d.operand_batching_dims, d.start_indices_batching_dims, strict=True)
                )
                if not ht.dims_compatible(so[a], si[b])
            ),
            None,
        ),
        lambda: repeated(
            d.start_index_map, d.operand_batching_dims, "start_index_map", "operand_batching_dims"
        ),
        lambda: out_of_range(d.start_index_map, len(so), "start_index_map", "rank-of('operand')"),
        lambda: (
            f"slice_sizes.rank != 1 (got {len(sizes_shape)})" if len(sizes_shape) != 1 else None
        ),
        lambda: (
            f"slice_sizes size ({sizes_shape[0]}) not equal to operand rank ({len(so)})"
            if sizes_shape[0] != len(so)
            else None
        ),
    )
    for check in lazy:
        if (message := check()) is not None:
            return message
    return None


def _gather_sizes_error(d: GatherDims, so: Sequence[int], sizes: Sequence[int]) -> str | None:
    """inferGatherOp's slice-size rules (C9, C12, C21) and the offset_dims range (C5)."""
    for dims, name in (
        (d.collapsed_slice_dims, "collapsed_slice_dims"),
        (d.operand_batching_dims, "operand_batching_dims"),
    ):
        for dim in dims:
            if sizes[dim] > 1:
                return (
                    f"Expects that for each dim in {name}, slice_sizes[dim] should be <= 1, "
                    f"but got {sizes[dim]}"
                )
    for index, size in enumerate(sizes):
        if size < 0 or (so[index] != DYNAMIC_INDEX and size > so[index]):
            return (
                f"slice size ({size}) is out of bounds for operand dimension ({so[index]}) at "
                f"index {index}"
            )
    return None


def _gather_shape(d: GatherDims, si: Sequence[int], sizes: Sequence[int]) -> list[int]:
    """The result shape: offset dimensions take the kept slice sizes in order, the others
    the start indices' dimensions except index_vector_dim."""
    rank = len(d.offset_dims) + len(si) - (0 if d.index_vector_dim == len(si) else 1)
    removed = {*d.collapsed_slice_dims, *d.operand_batching_dims}
    kept = [size for i, size in enumerate(sizes) if i not in removed]
    batch = [size for i, size in enumerate(si) if i != d.index_vector_dim]
    shape, offsets, batches = [], iter(kept), iter(batch)
    for i in range(rank):
        shape.append(next(offsets) if i in d.offset_dims else next(batches))
    return shape


@irdl_op_definition
class CustomCallOp(IRDLOperation):
    """`stablehlo.custom_call @target(%x) {...} : (T) -> R`."""

    name = "stablehlo.custom_call"
    inputs = var_operand_def()
    results_ = var_result_def()
    call_target_name = prop_def(StringAttr)
    has_side_effect = opt_prop_def(BoolAttr)
    backend_config = opt_prop_def()
    api_version = opt_prop_def(IntegerAttr)
    called_computations = opt_prop_def(ArrayAttr)
    operand_layouts = opt_prop_def(ArrayAttr)
    result_layouts = opt_prop_def(ArrayAttr)
    output_operand_aliases = opt_prop_def(ArrayAttr)

    _PRINTED_PROPS: ClassVar[tuple[str, ...]] = (
        "has_side_effect",
        "backend_config",
        "api_version",
        "called_computations",
        "operand_layouts",
        "result_layouts",
        "output_operand_aliases",
    )

    @classmethod
    def parse(cls, parser: Parser):
        target = parser.parse_symbol_name()
        parser.parse_punctuation("(")
        operands = parse_optional_operand_list(parser)
        parser.parse_punctuation(")")
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["call_target_name"] = target
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        if _is_symbol(self.call_target_name.data):
            printer.print_attribute(FlatSymbolRefAttr(self.call_target_name))
        else:  # a quoted symbol, as MLIR prints one that is not an identifier
            printer.print_string("@")
            printer.print_string_literal(self.call_target_name.data)
        printer.print_string("(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(")")
        print_extra_attrs(printer, self, props=self._PRINTED_PROPS)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.inputs], [r.type for r in self.results])

    def verify_(self) -> None:
        """CustomCallOp::verify, in its order and words: layouts, output-operand
        aliases, the backend config's kind for the api version."""
        operand_layouts, result_layouts = self.operand_layouts, self.result_layouts
        if (operand_layouts is None) != (result_layouts is None):
            raise self._fail(
                "Layout attributes should be specified for either both operands and results "
                "or none."
            )
        if operand_layouts is not None and result_layouts is not None:
            results: list[Attribute] = [r.type for r in self.results]
            if len(results) == 1 and isinstance(results[0], TupleType):
                results = list(results[0].types.data)
            self._verify_layouts([o.type for o in self.inputs], operand_layouts, "operand")
            self._verify_layouts(results, result_layouts, "result")
        for alias in (self.output_operand_aliases or ArrayAttr([])).data:
            if isinstance(alias, OutputOperandAliasAttr):
                self._verify_alias(alias)
        config, version = self.backend_config, self.api_version
        number = version.value.data if version is not None else 0
        if config is not None:
            typed_ffi = number == 4
            if typed_ffi != isinstance(config, DictionaryAttr) or (
                not typed_ffi and not isinstance(config, StringAttr)
            ):
                raise self._fail(
                    f"backend_config for api_version {_API_VERSIONS.get(number, number)} must be a "
                    f"{'dictionary' if typed_ffi else 'string'} attribute."
                )
        self._verify_buffers()

    def _verify_buffers(self) -> None:
        """Upstream's checks on buffers (memrefs): the `CreateBuffer`, `Pin` (tensor to
        buffer) and `Unpin` targets' signatures; on any other target, each buffer result
        aliases exactly one operand part, and no buffer operand part aliases twice."""
        target = self.call_target_name.data
        inputs, results = [x.type for x in self.inputs], [r.type for r in self.results]
        if target == "CreateBuffer":
            if inputs:
                raise self._fail("CreateBuffer custom_call shouldn't have any inputs")
            if len(results) != 1:
                raise self._fail("CreateBuffer custom_call should have one result")
            if not isinstance(results[0], MemRefType):
                raise self._fail("CreateBuffer custom_call should have a memref result")
            return
        if target in ("Pin", "Unpin"):
            source, dest = ("tensor", "memref") if target == "Pin" else ("memref", "tensor")
            kinds = {"tensor": (TensorType, UnrankedTensorType), "memref": MemRefType}
            if len(inputs) != 1:
                raise self._fail(f"{target} custom_call should have one input")
            if not isinstance(inputs[0], kinds[source]):
                raise self._fail(f"{target} custom_call should have a {source} input")
            if len(results) != 1:
                raise self._fail(f"{target} custom_call should have one output")
            if not isinstance(results[0], kinds[dest]):
                raise self._fail(f"{target} custom_call should have a {dest} output")
            pair = (inputs[0], results[0])
            shapes = [
                tuple(t.get_shape()) if isinstance(t, MemRefType | TensorType) else None
                for t in pair
            ]
            elements = [
                t.get_element_type() if isinstance(t, MemRefType | TensorType) else t for t in pair
            ]
            if not ht.shapes_compatible(*shapes) or elements[0] != elements[1]:
                raise self._fail(
                    f"{target} custom_call should have compatible input and output types"
                )
            return
        outputs: set[tuple[int, ...]] = set()
        operands: set[tuple[int, tuple[int, ...]]] = set()
        for alias in (self.output_operand_aliases or ArrayAttr([])).data:
            assert isinstance(alias, OutputOperandAliasAttr)  # checked by _verify_alias
            d = alias.data
            part = inputs[d.operand_index]
            for i in d.operand_tuple_indices:
                assert isinstance(part, TupleType)
                part = part.types.data[i]
            if not isinstance(part, MemRefType):
                continue
            out, operand = (
                tuple(d.output_tuple_indices),
                (d.operand_index, tuple(d.operand_tuple_indices)),
            )
            if out in outputs:
                raise self._fail(
                    f"buffer output {_indices_text(out)} is used in output_operand_alias more "
                    "than once"
                )
            if operand in operands:
                raise self._fail(
                    f"buffer operand {operand[0]}{_indices_text(operand[1])} is used in "
                    "output_operand_alias more than once"
                )
            outputs.add(out)
            operands.add(operand)
        members = tuple(t for t in results if isinstance(t, TypeAttribute))  # every type
        whole = results[0] if len(results) == 1 else TupleType(members)
        for indices, leaf in _leaf_types(whole, ()):
            if isinstance(leaf, MemRefType) and indices not in outputs:
                raise self._fail(
                    f"buffer output {_indices_text(indices)} is not used in output_operand_alias"
                )

    def _fail(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' {message}")

    def _verify_layouts(self, types: list[Attribute], layouts: ArrayAttr, what: str) -> None:
        if len(types) != len(layouts.data):
            raise self._fail(
                f"Number of {what}s must match the number of {what} layouts, "
                f"{len(types)} != {len(layouts.data)}"
            )
        for i, (t, layout) in enumerate(zip(types, layouts.data, strict=True)):
            if isinstance(t, TupleType):
                raise self._fail("Tuple types are not fully supported with layout constraints yet")
            values = (
                [int(x) for x in layout.get_values()]
                if isinstance(layout, DenseIntOrFPElementsAttr)
                else []
            )
            rank = ht.rank_of(t) if isinstance(t, TensorType) else None
            if not isinstance(t, TensorType):
                if values:
                    raise self._fail(
                        f"Only tensor types can have non-empty layout: {what} #{i} of type "
                        f"'{t}' has layout {layout}"
                    )
                continue
            if rank is not None and sorted(values) != list(range(rank)):
                raise self._fail(
                    f"incorrect layout {layout} for type '{t}', layout must be a permutation "
                    f"of [0, {rank})"
                )

    def _verify_alias(self, alias: OutputOperandAliasAttr) -> None:
        d = alias.data
        if not 0 <= d.operand_index < len(self.inputs):
            raise self._fail(
                "expects operandIndex in the output_operand_alias attribute to be in range "
                f"[0, {len(self.inputs)}); got: {d.operand_index}."
            )
        part = self.inputs[d.operand_index].type
        for i in d.operand_tuple_indices:
            if not isinstance(part, TupleType) or not 0 <= i < len(part.types.data):
                raise self._fail(
                    "operand_tuple_indices in the output_operand_alias attribute out of bounds"
                )
            part = part.types.data[i]
        results = [r.type for r in self.results]
        output: Attribute = TupleType(results) if len(results) != 1 else results[0]  # type: ignore[arg-type]
        for i in d.output_tuple_indices:
            if not isinstance(output, TupleType) or not 0 <= i < len(output.types.data):
                raise self._fail(
                    "output_tuple_indices in the output_operand_alias attribute out of bounds"
                )
            output = output.types.data[i]
        if part != output:
            raise self._fail(
                "shapes mismatch in the output_operand_alias attribute: operand part has type "
                f"'{part}' and output part has type '{output}'"
            )


def _indices_text(indices: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, indices)) + "]"


def _leaf_types(t: Attribute, at: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], Attribute]]:
    """The non-tuple types nested in `t`, each with its tuple indices."""
    if isinstance(t, TupleType):
        for i, member in enumerate(t.types.data):
            yield from _leaf_types(member, (*at, i))
    else:
        yield at, t


_API_VERSIONS = {
    0: "API_VERSION_UNSPECIFIED",
    1: "API_VERSION_ORIGINAL",
    2: "API_VERSION_STATUS_RETURNING",
    3: "API_VERSION_STATUS_RETURNING_UNIFIED",
    4: "API_VERSION_TYPED_FFI",
}
"""StableHLO's CustomCallApiVersion enum, as `api_version = N : i32` numbers it."""


def _is_symbol(name: str) -> bool:
    return bool(name) and all(c.isalnum() or c in "_$." for c in name) and not name[0].isdigit()


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """`stablehlo.optimization_barrier %a, %b : A, B`: returns its operands unchanged."""

    name = "stablehlo.optimization_barrier"
    operand = var_operand_def()
    results_ = var_result_def()

    @classmethod
    def parse(cls, parser: Parser):
        # Upstream's `attr-dict ($operand^ : types):(`(` `)`)?`; attributes after the
        # operands (qdialect's older spelling) are read too.
        attrs = parser.parse_optional_attr_dict()
        operands = []
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_punctuation(")")
        else:
            operands = parse_optional_operand_list(parser)
            attrs |= parser.parse_optional_attr_dict()
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            try:
                types = [parser.parse_type()]
            except ParseError as err:  # upstream's PairwiseOpType: then its own error
                raise add_follow_up(err, ParseError(err.span, "expected type list")) from None
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
        return cls.create(
            operands=resolve(parser, operands, types), result_types=types, attributes=attrs
        )

    def print(self, printer: Printer):
        print_extra_attrs(printer, self)
        if not self.operand:
            printer.print_string("()")
            return
        printer.print_string(" ")
        printer.print_list(self.operand, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([o.type for o in self.operand], printer.print_attribute)

    def verify_(self) -> None:
        if [o.type for o in self.operand] != [r.type for r in self.results]:
            raise VerifyException(f"'{self.name}' results must have the operands' types")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stablehlo.return %x : T`: terminates reduction bodies."""

    name = "stablehlo.return"
    results_ = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_optional_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            types = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
        return cls.create(operands=resolve(parser, operands, types), attributes=attrs)

    def print(self, printer: Printer):
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_extra_attrs(printer, self)
        if self.operands:
            printer.print_string(" : ")
            printer.print_list([o.type for o in self.operands], printer.print_attribute)


DEQUANTIZE_OP_QUANTIZE: frozenset[type[IRDLOperation]] = frozenset(
    {
        AbsOp,
        AddOp,
        Atan2Op,
        CbrtOp,
        CeilOp,
        ClampOp,
        CompareOp,
        ConvolutionOp,
        CosineOp,
        DivideOp,
        DotGeneralOp,
        DotOp,
        ExpOp,
        Expm1Op,
        FloorOp,
        LogOp,
        Log1pOp,
        LogisticOp,
        MaximumOp,
        MinimumOp,
        MultiplyOp,
        NegateOp,
        PowerOp,
        RemainderOp,
        RoundNearestEvenOp,
        RoundNearestAfzOp,
        RsqrtOp,
        SelectOp,
        SignOp,
        SineOp,
        SqrtOp,
        SubtractOp,
        TanhOp,
    }
)
"""Ops whose quantized form means dequantize -> float op -> quantize (the spec's
`dequantize_op_quantize`). Data-movement ops are not here: they move storage."""


StableHLO = Dialect(
    "stablehlo",
    [
        AbsOp,
        NegateOp,
        SignOp,
        TanhOp,
        LogisticOp,
        ExpOp,
        Expm1Op,
        LogOp,
        Log1pOp,
        SqrtOp,
        RsqrtOp,
        CbrtOp,
        SineOp,
        CosineOp,
        FloorOp,
        CeilOp,
        RoundNearestEvenOp,
        RoundNearestAfzOp,
        AddOp,
        SubtractOp,
        MultiplyOp,
        DivideOp,
        RemainderOp,
        PowerOp,
        MaximumOp,
        MinimumOp,
        Atan2Op,
        AndOp,
        OrOp,
        XorOp,
        NotOp,
        ShiftLeftOp,
        ShiftRightArithmeticOp,
        ShiftRightLogicalOp,
        ClampOp,
        CompareOp,
        SelectOp,
        ConvertOp,
        BitcastConvertOp,
        UniformQuantizeOp,
        UniformDequantizeOp,
        ConstantOp,
        ReshapeOp,
        TransposeOp,
        BroadcastInDimOp,
        BroadcastOp,
        ConcatenateOp,
        SliceOp,
        DynamicSliceOp,
        PadOp,
        IotaOp,
        DotGeneralOp,
        DotOp,
        ConvolutionOp,
        ReduceOp,
        ReduceWindowOp,
        GatherOp,
        CustomCallOp,
        OptimizationBarrierOp,
        ReturnOp,
    ],
    [
        ComparisonDirectionAttr,
        ComparisonTypeAttr,
        PrecisionAttr,
        DotDimensionNumbersAttr,
        DotAlgorithmAttr,
        ConvDimensionNumbersAttr,
        GatherDimensionNumbersAttr,
        ResultAccuracyAttr,
        ResultAccuracyModeAttr,
        OutputOperandAliasAttr,
        BoundsAttr,
        TypeExtensionsAttr,
    ],
)
