"""StableHLO's legacy `einsum` and `unary_einsum` ops.

    stablehlo.einsum %a, %b, config = "ab,bc->ac" : (A, B) -> R
    stablehlo.unary_einsum %a, config = "ab->a" : (A) -> R

Not in the spec (which expresses them with `dot_general`, `transpose` and `reduce`), but
upstream still defines, parses and prints them, and its round-trip tests use them. The
generic form carries the config as `einsum_config = "..."`. The verifier checks what the
config says against the types: one letter per dimension on each side, each output letter
among the inputs', a letter's dimensions of one size. The interpreter computes them as
numpy's `einsum` in the result's element type.
"""

from __future__ import annotations

import re
from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import (
    create_typed_by_function,
    print_extra_attrs,
    split_attr_dict,
)

_CONFIG = re.compile(r"([a-zA-Z]*)(?:,([a-zA-Z]*))?->([a-zA-Z]*)")


def parse_config(config: str, operands: int) -> tuple[list[str], str] | None:
    """(one letter string per operand, output letters), or None when `config` is not
    `in[,in]->out` with `operands` inputs."""
    match = _CONFIG.fullmatch(config.replace(" ", ""))
    if match is None or (match.group(2) is None) != (operands == 1):
        return None
    inputs = [match.group(1)] + ([match.group(2)] if operands == 2 else [])
    return inputs, match.group(3)


class _Einsum(IRDLOperation):
    result = result_def()
    einsum_config = prop_def(StringAttr)
    traits = traits_def(Pure())

    OPERANDS: ClassVar[int] = 1

    @classmethod
    def parse(cls, parser: Parser):
        operands = [parser.parse_unresolved_operand()]
        for _ in range(cls.OPERANDS - 1):
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(",")
        parser.parse_keyword("config")
        parser.parse_punctuation("=")
        config = parser.parse_str_literal("einsum config")
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["einsum_config"] = StringAttr(config)
        return create_typed_by_function(cls, parser, operands, props, attrs)

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(", config = ")
        printer.print_string_literal(self.einsum_config.data)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        config = self.einsum_config.data
        parsed = parse_config(config, len(self.operands))
        if parsed is None:
            raise self._fail(
                f"einsum_config '{config}' must read "
                + ("'in,in->out'" if len(self.operands) == 2 else "'in->out'")
            )
        inputs, output = parsed
        sizes: dict[str, int] = {}
        sides: list[tuple[str, str, Attribute]] = [
            (f"operand #{i}", letters, o.type)
            for i, (letters, o) in enumerate(zip(inputs, self.operands, strict=True))
        ]
        for what, letters, t in [*sides, ("result", output, self.result.type)]:
            shape = ht.shape_of(t)
            if shape is None:
                continue
            if len(letters) != len(shape):
                raise self._fail(
                    f"einsum_config '{config}' names {len(letters)} dimensions of the {what}, "
                    f"which has rank {len(shape)}"
                )
            for letter, size in zip(letters, shape, strict=True):
                if size < 0:
                    continue
                if sizes.setdefault(letter, size) != size:
                    raise self._fail(
                        f"dimension '{letter}' of einsum_config '{config}' has sizes "
                        f"{sizes[letter]} and {size}"
                    )
        if len(set(output)) != len(output):
            raise self._fail(f"einsum_config '{config}' repeats an output dimension")
        if unknown := sorted(set(output) - set("".join(inputs))):
            raise self._fail(f"output dimension '{unknown[0]}' of '{config}' is in no input")

    def _fail(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' {message}")


@irdl_op_definition
class EinsumOp(_Einsum):
    """`stablehlo.einsum %a, %b, config = "ab,bc->ac"`."""

    name = "stablehlo.einsum"
    lhs = operand_def()
    rhs = operand_def()
    OPERANDS: ClassVar[int] = 2


@irdl_op_definition
class UnaryEinsumOp(_Einsum):
    """`stablehlo.unary_einsum %a, config = "ab->a"`."""

    name = "stablehlo.unary_einsum"
    operand = operand_def()


EINSUM_OPS = [EinsumOp, UnaryEinsumOp]
