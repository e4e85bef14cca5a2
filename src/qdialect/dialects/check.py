"""The `check` dialect: assertions for interpreter tests, as StableHLO's test suite writes them.

    check.expect_eq %lhs, %rhs : tensor<2xi32>
    check.expect_eq_const %lhs, dense<[1, 2]> : tensor<2xi32>
    check.expect_almost_eq %lhs, %rhs, tolerance = 1.000000e-03 : tensor<2xf32>
    check.expect_almost_eq_const %lhs, dense<[1.0, 2.0]> : tensor<2xf32>, tolerance = 1.000000e-03
    check.expect_close %actual, %expected, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
    check.expect_serialized_eq %x, probe_id = "conv1", iter = 1 : tensor<2xf32>

The syntax follows upstream StableHLO's CheckOps; `qrun` evaluates them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    f64,
    i64,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects.hlo_syntax import print_extra_attrs, split_attr_dict

DEFAULT_TOLERANCE = 1e-4


def tolerance_of(op: IRDLOperation) -> float:
    """A check op's `tolerance` property, or the default (the interpreter reads it too)."""
    attr = op.properties.get("tolerance")
    return DEFAULT_TOLERANCE if attr is None else attr.value.data  # type: ignore[attr-defined]


def _parse_tolerance(parser: Parser, props: dict[str, Attribute]) -> None:
    if parser.parse_optional_punctuation(",") is not None:
        parser.parse_keyword("tolerance")
        parser.parse_punctuation("=")
        props["tolerance"] = FloatAttr(parser.parse_float(), f64)


def _print_tolerance(printer: Printer, op: IRDLOperation) -> None:
    if "tolerance" in op.properties:
        printer.print_string(", tolerance = ")
        printer.print_float(tolerance_of(op), f64)


class _TwoOperandCheck(IRDLOperation):
    lhs = operand_def()
    rhs = operand_def()

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs])

    @classmethod
    def parse(cls, parser: Parser):
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if cls.name == "check.expect_almost_eq":
            _parse_tolerance(parser, props)
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props.update(more)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(lhs, t), parser.resolve_operand(rhs, t)],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_tolerance(printer, self)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(f"'{self.name}' requires operands of the same type")


@irdl_op_definition
class ExpectEqOp(_TwoOperandCheck):
    """The operands are exactly equal (bitwise for floats, NaN equal to NaN)."""

    name = "check.expect_eq"


@irdl_op_definition
class ExpectAlmostEqOp(_TwoOperandCheck):
    """The float operands are equal within `tolerance` (absolute and relative)."""

    name = "check.expect_almost_eq"
    tolerance = opt_prop_def(FloatAttr)


class _ConstCheck(IRDLOperation):
    lhs = operand_def()
    value = prop_def(DenseIntOrFPElementsAttr)

    @classmethod
    def parse(cls, parser: Parser):
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(
                "expected a dense elements attribute, e.g. dense<[1, 2]> : tensor<2xi32>"
            )
        props: dict[str, Attribute] = {"value": value}
        if cls.name == "check.expect_almost_eq_const":
            _parse_tolerance(parser, props)
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props.update(more)
        return cls.create(
            operands=[parser.resolve_operand(lhs, value.get_type())],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_attribute(self.value)
        _print_tolerance(printer, self)
        print_extra_attrs(printer, self)

    def verify_(self) -> None:
        if self.value.get_type() != self.lhs.type:
            raise VerifyException(
                f"'{self.name}' value type {self.value.get_type()} does not match operand type {self.lhs.type}"
            )


@irdl_op_definition
class ExpectEqConstOp(_ConstCheck):
    """The operand equals the constant exactly (storage integers for quantized operands)."""

    name = "check.expect_eq_const"


@irdl_op_definition
class ExpectAlmostEqConstOp(_ConstCheck):
    """The float operand equals the constant within `tolerance`."""

    name = "check.expect_almost_eq_const"
    tolerance = opt_prop_def(FloatAttr)


@irdl_op_definition
class ExpectCloseOp(IRDLOperation):
    """min_ulp_difference <= ULP distance(actual, expected) <= max_ulp_difference, elementwise."""

    name = "check.expect_close"
    actual = operand_def()
    expected = operand_def()
    max_ulp_difference = prop_def(IntegerAttr)
    min_ulp_difference = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser):
        actual = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        expected = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("max_ulp_difference")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {
            "max_ulp_difference": IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
        }
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("min_ulp_difference")
            parser.parse_punctuation("=")
            props["min_ulp_difference"] = IntegerAttr(
                parser.parse_integer(allow_boolean=False), i64
            )
        parser.parse_punctuation(":")
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props.update(more)
        ta = parser.parse_type()
        parser.parse_punctuation(",")
        te = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(actual, ta), parser.resolve_operand(expected, te)],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", max_ulp_difference = {self.max_ulp_difference.value.data}")
        if self.min_ulp_difference is not None:
            printer.print_string(f", min_ulp_difference = {self.min_ulp_difference.value.data}")
        printer.print_string(" :")
        print_extra_attrs(printer, self)
        printer.print_string(" ")
        printer.print_list([self.actual.type, self.expected.type], printer.print_attribute)

    def verify_(self) -> None:
        if self.actual.type != self.expected.type:
            raise VerifyException(f"'{self.name}' requires operands of the same type")


@irdl_op_definition
class ExpectSerializedEqOp(IRDLOperation):
    """The operand equals (exactly, with its type) the value `interpreter.probe` recorded
    under `probe_id` on its `iteration`-th run (counted from 0)."""

    name = "check.expect_serialized_eq"
    expected = operand_def()
    probe_id = prop_def(StringAttr)
    iteration = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser):
        expected = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("probe_id")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"probe_id": StringAttr(parser.parse_str_literal())}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("iter")
            parser.parse_punctuation("=")
            start = parser.pos
            value = parser.parse_integer(allow_boolean=False)
            if not 0 <= value < 2**32:
                parser.raise_error("integer value out of range for 32-bit unsigned", start)
            props["iteration"] = IntegerAttr(value, IntegerType(32, Signedness.UNSIGNED))
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(expected, t)],
            properties={**more, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.expected)
        printer.print_string(", probe_id = ")
        printer.print_attribute(self.probe_id)
        if self.iteration is not None and self.iteration.value.data != 0:
            printer.print_string(f", iter = {self.iteration.value.data}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.expected.type)

    def iteration_index(self) -> int:
        return 0 if self.iteration is None else self.iteration.value.data


Check = Dialect(
    "check",
    [
        ExpectEqOp,
        ExpectEqConstOp,
        ExpectAlmostEqOp,
        ExpectAlmostEqConstOp,
        ExpectCloseOp,
        ExpectSerializedEqOp,
    ],
    [],
)
