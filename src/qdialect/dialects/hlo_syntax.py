"""Parsing and printing helpers shared by the StableHLO-like ops.

They reproduce the custom assembly pieces of upstream StableHLO (its
`AssemblyFormat.cpp`), so what `qopt` prints is what `stablehlo-opt` prints:

* `SameOperandsAndResultType`: `%a, %b : tensor<4xf32>` when every operand and
  the result have one type, else the function type `: (T1, T2) -> T3`;
* `SelectOpType`: `: pred_type, result_type` or a function type;
* integer lists `[1, 2]`, `dims = [...]` keywords, and slice ranges.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError
from xdsl.utils.str_enum import StrEnum

from qdialect.ir import xdsl_private as xp
from qdialect.ir.errors import add_follow_up, mark_core


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, ...` (at least one operand)."""
    operands = [parser.parse_unresolved_operand()]
    while parser.parse_optional_punctuation(",") is not None:
        operands.append(parser.parse_unresolved_operand())
    return operands


def parse_n_operands(parser: Parser, n: int) -> list[UnresolvedOperand]:
    """Exactly `n` comma-separated operands (more syntax may follow after a comma)."""
    operands = [parser.parse_unresolved_operand()]
    for _ in range(n - 1):
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
    return operands


def parse_optional_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """Zero or more comma-separated operands (stops at the first non-operand)."""
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    operands = [first]
    while parser.parse_optional_punctuation(",") is not None:
        operands.append(parser.parse_unresolved_operand())
    return operands


def resolve(
    parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute]
) -> list[SSAValue]:
    if len(operands) != len(types):  # MLIR's OpAsmParser::resolveOperands words it so
        where = operands[0].span if operands else None
        parser.raise_error(
            f"number of operands and types do not match: got {len(operands)} operands and "
            f"{len(types)} types",
            where,
        )
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]


def parse_same_operands_and_result_type(
    parser: Parser, num_operands: int
) -> tuple[list[Attribute], Attribute]:
    """After `:`: one type for all, or `(T1, ...) -> R` (upstream's
    SameOperandsAndResultType syntax, and its words for a mismatch)."""
    if xp.current_token(parser).text == "(":
        start = parser.pos
        fn = parser.parse_function_type()
        if len(fn.outputs.data) != 1:
            parser.raise_error("expected single output", start, parser.pos)
        if len(fn.inputs.data) != num_operands:
            parser.raise_error(
                f"{num_operands} operands present, but expected {len(fn.inputs.data)}",
                start,
                parser.pos,
            )
        return list(fn.inputs.data), fn.outputs.data[0]
    t = parser.parse_type()
    return [t] * num_operands, t


def print_same_operands_and_result_type(
    printer: Printer, operands: Sequence[SSAValue], result_type: Attribute
) -> None:
    types = [o.type for o in operands]
    if all(t == result_type for t in types):
        printer.print_attribute(result_type)
    else:
        printer.print_function_type(types, [result_type])


def create_typed_by_function(
    op_cls: type[IRDLOperation],
    parser: Parser,
    operands: Sequence[UnresolvedOperand],
    properties: dict[str, Attribute],
    attributes: dict[str, Attribute],
):
    """The tail `: (operand types) -> result types` of a custom form, and the op it builds."""
    parser.parse_punctuation(":")
    function = parser.parse_function_type()
    return op_cls.create(
        operands=resolve(parser, list(operands), list(function.inputs.data)),
        result_types=list(function.outputs.data),
        properties=properties,
        attributes=attributes,
    )


def parse_function_signature(parser: Parser) -> FunctionType:
    return parser.parse_function_type()


def print_attr_dict_except(
    printer: Printer, attributes: dict[str, Attribute], skip: Sequence[str]
) -> None:
    remaining = {k: v for k, v in attributes.items() if k not in skip}
    if remaining:
        printer.print_string(" ")
        printer.print_attr_dict(remaining)


def parse_int_list(parser: Parser, dense_array: bool = True) -> list[int]:
    """`[1, 2, 3]` (possibly empty). An entry that is not an integer reads as MLIR's
    dense-array parser reports it: `expected integer value`, then the core parser's
    `expected ']'`; as a custom parser's list of integers (`dense_array=False`, e.g. a
    convolution's window) only the first."""

    def entry() -> int:
        try:
            return parser.parse_integer(allow_boolean=False)
        except ParseError as err:
            if not dense_array:
                raise
            closing = mark_core(ParseError(err.span, "expected ']'"))
            raise add_follow_up(err, closing) from None

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)


def int_list_text(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def dense_i64(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def dense_values(attr: Attribute | None) -> tuple[int, ...]:
    """Values of an `array<i64: ...>` attribute (empty when absent)."""
    if attr is None:
        return ()
    assert isinstance(attr, DenseArrayBase)
    return tuple(int(v) for v in attr.get_values())


def parse_keyword_int_list(parser: Parser, keyword: str) -> list[int]:
    """`keyword = [..]`."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parse_int_list(parser)


def parse_keyword_word(parser: Parser, keyword: str) -> tuple[str, int, int]:
    """`keyword = WORD` (an enum case, a format name): the word and where it lies, for
    the caller to check it and report at it."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    start = parser.pos
    word = parser.parse_identifier()
    return word, start, parser.pos


def parse_keyword_enum(parser: Parser, keyword: str, enum: type[StrEnum], what: str) -> StrEnum:
    """`keyword = CASE` of a StableHLO enum; an unknown case is MLIR's error for it."""
    word, start, end = parse_keyword_word(parser, keyword)
    if word not in enum.__members__:
        parser.raise_error(
            f"expected {what} to be one of: {', '.join(enum.__members__)}", start, end
        )
    return enum(word)


def split_attr_dict(op_cls: type[IRDLOperation], parsed: dict[str, Attribute]) -> tuple[dict, dict]:
    """Split a parsed attribute dictionary into (properties, attributes) by the op's definition."""
    names = op_cls.get_irdl_definition().properties
    props = {k: v for k, v in parsed.items() if k in names}
    attrs = {k: v for k, v in parsed.items() if k not in names}
    return props, attrs


# Attributes upstream declares with a default value, and so does not print at it.
_DEFAULT_ATTRS = {
    "result_accuracy": "#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>"
}


def print_extra_attrs(
    printer: Printer, op: Operation, printed: Sequence[str] = (), props: Sequence[str] = ()
) -> None:
    """Print `{...}` with the op's attributes and the listed properties, skipping `printed`
    and attributes at their default value."""
    entries = {k: v for k, v in op.properties.items() if k in props}
    entries.update(
        {
            k: v
            for k, v in op.attributes.items()
            if k not in printed and str(v) != _DEFAULT_ATTRS.get(k)
        }
    )
    entries = dict(sorted(entries.items()))  # MLIR dictionaries are sorted by name
    if entries:
        printer.print_string(" ")
        printer.print_attr_dict(entries)


class FunctionalSyntax(IRDLOperation):
    """`dialect.OP %a, %b {attrs} : (A, B) -> R` (upstream's `operands attr-dict :
    functional-type`); properties print in the attribute dictionary."""

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_operand_list(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
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
        print_extra_attrs(printer, self, props=tuple(self.properties))
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.results])


class ClauseSyntax(IRDLOperation):
    """`dialect.OP %a, %b, clause {attrs} : (A, B) -> R`: a fixed number of operands, one
    keyword clause that sets properties (`dim = 1`, `distribution = NORMAL`), then the
    attribute dictionary and a functional type."""

    OPERANDS: ClassVar[int] = 1

    @classmethod
    def parse_clause(cls, parser: Parser) -> dict[str, Attribute]:
        raise NotImplementedError

    def clause_text(self) -> str:
        raise NotImplementedError

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_n_operands(parser, cls.OPERANDS)
        parser.parse_punctuation(",")
        clause = cls.parse_clause(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, operands, fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties={**props, **clause},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", {self.clause_text()}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.results])


class ResultTypeSyntax(IRDLOperation):
    """`dialect.OP {attrs} : T`: an op without operands, printed by its one result type
    (upstream's `attr-dict : type(results)`)."""

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], attributes=attrs)

    def print(self, printer: Printer):
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)
