"""Every use of xDSL's private parser and printer API, in one place.

xDSL's public parser API has no "peek at the next token", "rewind to an offset" or
"scan a balanced `<...>` without parsing it", and its printer none for "start a new
indented line" or "print one element of a dense attribute"; the dialects' custom
syntax and the fast paths for large real modules need them. Calling them only through
this module means an xDSL upgrade that renames them changes one file
(docs/xdsl-upgrade.md records what each release changed).

The `QParser`/`QPrinter` subclasses in `parser.py` and `printer.py` also override a
few of xDSL's underscore hooks (alias definitions, tensor/memref/vector bodies, result
naming, locations); they are the only classes that do, besides `LinearLexer` here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue
from xdsl.parser import AttrParser, BaseParser
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.utils.lexer import Token
from xdsl.utils.mlir_lexer import MLIRLexer


def current_token(parser: BaseParser) -> Token:
    """The next token, not consumed."""
    return parser._current_token


def consume_token(parser: BaseParser, kind: Any = None) -> Token:
    """Consume the next token (checking its kind when given) and return it."""
    token = parser._current_token
    if kind is None:
        parser._consume_token()
    else:
        parser._consume_token(kind)
    return token


def resume_from(parser: BaseParser, offset: int) -> None:
    """Continue lexing at character `offset` of the input."""
    parser._resume_from(offset)


def scan_balanced(parser: AttrParser, start: int) -> int:
    """The offset of the `>` closing the `<` just before `start`, without tokenizing."""
    return parser._raw_scan_balanced(start)


def print_new_line(printer: Printer) -> None:
    """A new line at the printer's current indentation."""
    printer._print_new_line()


def print_dense_element(attr: DenseIntOrFPElementsAttr, value: Any, printer: Printer) -> None:
    """One element of `attr` as xDSL prints its elements (floats exactly, ints, bools)."""
    attr._print_one_elem(value, printer)


def print_dense_list(attr: DenseIntOrFPElementsAttr, printer: Printer) -> None:
    """`attr`'s elements as xDSL prints a non-splat literal (`[[1, 2], [3, 4]]`)."""
    shape = attr.get_shape() if attr.shape_is_complete else (len(attr),)
    attr._print_dense_list(attr.get_values(), shape, printer)


def ssa_names(printer: Printer) -> dict[SSAValue, str]:
    """The printer's SSA value -> name table."""
    return printer._ssa_values


def new_ssa_name(printer: Printer) -> str:
    """A fresh numeric SSA name from the printer's counter."""
    return printer._get_new_valid_name_id()


class LinearLexer(MLIRLexer):
    """xDSL's MLIR lexer with a string-literal pattern that runs in linear time.

    xDSL's pattern nests one quantifier in another (`(?:[^"]+|...)*`), so an
    unterminated string backtracks exponentially; here every character has exactly
    one way to match.
    """

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def set_lexer(parser: BaseParser, lexer: MLIRLexer, start: int = 0) -> None:
    """Make `parser` read from `lexer` at offset `start` (lexing that token now: may raise
    ParseError)."""
    lexer.pos = start
    parser._parser_state = ParserState(lexer)


def parse_tensor_literal(parser: AttrParser) -> tuple[list[Any], list[int]]:
    """A dense literal's elements and shape (`[]` for a splat), as xDSL's parser reads it."""
    return parser._parse_tensor_literal()


def share_value_names(
    printer: Printer, sources: Sequence[SSAValue], targets: Sequence[SSAValue]
) -> None:
    """Print each of `targets` with the name already given to its `sources` peer.

    Two regions whose entry arguments are printed once for both (stablehlo.while's
    `(%arg = %init)` header serves its cond and its body) must show the same names.
    """
    for source, target in zip(sources, targets, strict=False):
        name = printer._ssa_values.get(source)
        if name is not None:
            printer._ssa_values[target] = name


def unverified_attribute(cls: type[ParametrizedAttribute], params: Sequence[Attribute]):
    """`cls.new(params)` without the IRDL parameter check: for builtin location attributes
    whose child is a location kind xDSL does not know (`qdialect.ir.locations`)."""
    attr = cls.__new__(cls)
    for (field_name, _), param in zip(cls.get_irdl_definition().parameters, params, strict=True):
        object.__setattr__(attr, field_name, param)
    return attr
