"""StableHLO elementwise ops on bits, floats' classes and complex numbers.

popcnt, count_leading_zeros, tan, is_finite, reduce_precision, complex, real,
imag: upstream's pretty forms and the spec's constraints. They live beside
`stablehlo.py` (whose helpers they reuse) and join the one `stablehlo` dialect
through `qdialect.dialects.get_all_dialects()`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    ComplexType,
    Float32Type,
    Float64Type,
    IntegerAttr,
    i32,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import (
    parse_keyword_word,
    parse_operand_list,
    parse_same_operands_and_result_type,
    print_extra_attrs,
    print_same_operands_and_result_type,
    resolve,
    split_attr_dict,
)
from qdialect.dialects.stablehlo import (
    SAME_SHAPE_AND_BASE_TYPE,
    _check_kinds,
    _ElementwiseSyntax,
    _UnaryElementwise,
)
from qdialect.ir import xdsl_private as xp


def _same_shape(
    op: Operation,
    a: Attribute,
    b: Attribute,
    words: str = "requires the same shape for all operands and results",
) -> None:
    if not ht.shapes_compatible(ht.shape_of(a), ht.shape_of(b)):
        raise VerifyException(f"'{op.name}' {words}")


@irdl_op_definition
class PopcntOp(_UnaryElementwise):
    """Number of set bits of each integer."""

    name = "stablehlo.popcnt"
    KINDS: ClassVar[str] = "i"


@irdl_op_definition
class CountLeadingZerosOp(_UnaryElementwise):
    """Number of leading zero bits of each integer."""

    name = "stablehlo.count_leading_zeros"
    KINDS: ClassVar[str] = "i"


@irdl_op_definition
class TanOp(_UnaryElementwise):
    """Tangent."""

    name = "stablehlo.tan"
    KINDS: ClassVar[str] = "fcq"


@irdl_op_definition
class IsFiniteOp(_ElementwiseSyntax):
    """`stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>` (always the function type)."""

    name = "stablehlo.is_finite"
    x = operand_def()
    y = result_def()
    traits = traits_def(Pure())

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.x)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([self.x.type], [self.y.type])

    def verify_(self) -> None:
        _check_kinds(self, self.x.type, "fq", "operand #0")
        ht.require_tensor(self.y.type, f"'{self.name}' result")
        _check_kinds(self, self.y.type, "b", "result #0")
        if not ht.shapes_compatible(ht.shape_of(self.x.type), ht.shape_of(self.y.type)):
            raise VerifyException(  # MLIR's Elementwise trait, which comes first
                f"'{self.name}' all non-scalar operands/results must have the same shape and "
                "base type"
            )


class _PartOp(_ElementwiseSyntax):
    """real/imag: a complex (or float) operand, its float part type as result."""

    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _check_kinds(self, self.operand.type, "fc", "operand #0")
        _check_kinds(self, self.result.type, "f", "result #0")
        _same_shape(self, self.operand.type, self.result.type, SAME_SHAPE_AND_BASE_TYPE)
        ht.verify_inferred_results(  # inferRealOp / inferImagOp
            self.name, [ht.part_type(self.operand.type)], [self.result.type]
        )


@irdl_op_definition
class RealOp(_PartOp):
    """Real part (a float operand is its own real part)."""

    name = "stablehlo.real"


@irdl_op_definition
class ImagOp(_PartOp):
    """Imaginary part (zero for a float operand)."""

    name = "stablehlo.imag"


@irdl_op_definition
class ComplexOp(_ElementwiseSyntax):
    """`stablehlo.complex %re, %im : tensor<2xcomplex<f32>>` (or the function type)."""

    name = "stablehlo.complex"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_operand_list(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        start = parser.pos
        functional = xp.current_token(parser).text == "("
        types, result = parse_same_operands_and_result_type(parser, len(operands))
        if not functional:  # one type: the result's; the operands are its parts
            if not (ht.is_tensor(result) and ht.is_complex(ht.element_type(result))):
                parser.raise_error("expected tensor with complex element type", start)
            types = [ht.part_type(result)] * len(operands)
        return cls.create(
            operands=resolve(parser, operands, types),
            result_types=[result],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        part = ht.part_type(self.result.type)
        if self.lhs.type == part and self.rhs.type == part:
            printer.print_attribute(self.result.type)
        else:
            printer.print_function_type([self.lhs.type, self.rhs.type], [self.result.type])

    def verify_(self) -> None:
        for what, t in (("operand #0", self.lhs.type), ("operand #1", self.rhs.type)):
            e = ht.element_type(t)
            if not isinstance(e, Float32Type | Float64Type):
                raise VerifyException(
                    f"'{self.name}' {what} must be a tensor of f32 or f64 values, got {t}"
                )
        # SameOperandsElementType, then SameOperandsAndResultShape: shapes need only be
        # compatible (`tensor<2xf64>` with `tensor<?xf64>`), as upstream accepts.
        if ht.element_type(self.lhs.type) != ht.element_type(self.rhs.type):
            raise VerifyException(f"'{self.name}' requires the same element type for all operands")
        _check_kinds(self, self.result.type, "c", "result #0")
        for t in (self.rhs.type, self.result.type):
            _same_shape(self, self.lhs.type, t)
        part = ht.element_type(self.lhs.type)
        assert isinstance(part, Float32Type | Float64Type)  # checked above
        expected = ComplexType(part)
        if ht.element_type(self.result.type) != expected:
            raise VerifyException(
                f"'{self.name}' result element type must be {expected}, "
                f"got {ht.element_type(self.result.type)}"
            )


@irdl_op_definition
class ReducePrecisionOp(_ElementwiseSyntax):
    """`stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>`."""

    name = "stablehlo.reduce_precision"
    operand = operand_def()
    output = result_def()
    exponent_bits = prop_def(IntegerAttr)
    mantissa_bits = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        word, start, end = parse_keyword_word(parser, "format")
        exponent, mantissa = _exponent_mantissa(word)
        if exponent is None or mantissa is None:  # upstream's parseExponentMantissa words
            parser.raise_error(f"expected exponent mantissa in format e#m#, saw {word}", start, end)
        for what, bits in (("exponent", exponent), ("mantissa", mantissa)):
            if bits >= 2**31:  # an i32 attribute
                parser.raise_error(f"unable to parse {what} '{bits}'", start, end)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["exponent_bits"] = IntegerAttr(exponent, i32)
        props["mantissa_bits"] = IntegerAttr(mantissa, i32)
        parser.parse_punctuation(":")
        types, result = parse_same_operands_and_result_type(parser, 1)
        return cls.create(
            operands=resolve(parser, [operand], types),
            result_types=[result],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(
            f", format = e{self.exponent_bits.value.data}m{self.mantissa_bits.value.data}"
        )
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, [self.operand], self.output.type)

    def verify_(self) -> None:
        super().verify_()
        if self.exponent_bits.value.data < 1:
            raise VerifyException(
                f"'{self.name}' exponent_bits must be at least 1, got {self.exponent_bits.value.data}"
            )
        if self.mantissa_bits.value.data < 0:
            raise VerifyException(
                f"'{self.name}' mantissa_bits must be at least 0, got {self.mantissa_bits.value.data}"
            )


def _exponent_mantissa(word: str) -> tuple[int | None, int | None]:
    """`e5m10` -> (5, 10); (None, None) when malformed."""
    if not word.startswith("e") or "m" not in word:
        return None, None
    e, _, m = word[1:].partition("m")
    if not (e.isdigit() and m.isdigit()):
        return None, None
    return int(e), int(m)


NUMERIC_OPS = [
    PopcntOp,
    CountLeadingZerosOp,
    TanOp,
    IsFiniteOp,
    RealOp,
    ImagOp,
    ComplexOp,
    ReducePrecisionOp,
]
