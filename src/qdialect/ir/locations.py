"""MLIR's location syntax in full, where xDSL's parser stops at `"file":line:col`.

JAX (0.5 and later) and recent MLIR print source *ranges*, `loc("f.py":4:8 to :21)` or
`loc("f.py":4:8 to 6:2)`, and a file with a line alone, `loc("f.py":4)`; fused
locations may carry metadata, `loc(fused<"tag">["a", "b"])`. Without these a JAX export
with debug info does not parse. MLIR's grammar (its `FileLineColRange`):

    "file" `:` line [`:` col [`to` [end-line] `:` end-col]]

A point (a range whose end is its start) is xDSL's `FileLineColLoc`, so consumers that
read point locations see it as before; a true range is a `FileLineColRange`. It prints
as MLIR prints it: `to :col` on one line, `to line:col` across lines; a line alone has
column 0 (MLIR's default) and prints `"file":line:0`. xDSL's name, call-site and fused
locations admit only its own location classes as children (a closed union), so a
location holding a range is built without that check (`ParametrizedAttribute.new`);
the parse has checked the grammar.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    LocationAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, BuiltinAttribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from qdialect.ir import xdsl_private as xp

__all__ = ["LOCATIONS", "FileLineColRange", "LocationSyntax", "file_location"]


@irdl_attr_definition
class FileLineColRange(ParametrizedAttribute, BuiltinAttribute):
    """A source range of a file: from `line`:`column` to `end_line`:`end_column`."""

    name = "file_line_col_range"

    filename: StringAttr = param_def()
    line: IntAttr = param_def()
    column: IntAttr = param_def()
    end_line: IntAttr = param_def()
    end_column: IntAttr = param_def()

    def print_builtin(self, printer: Printer) -> None:
        with printer.in_location():
            printer.print_attribute(self.filename)
            printer.print_string(f":{self.line.data}:{self.column.data}")
            if self.end_line.data != self.line.data:
                printer.print_string(f" to {self.end_line.data}:{self.end_column.data}")
            elif self.end_column.data != self.column.data:
                printer.print_string(f" to :{self.end_column.data}")


LOCATIONS = (UnknownLoc, FileLineColLoc, FileLineColRange, NameLoc, CallSiteLoc, FusedLoc)
"""Every kind of location attribute."""


def file_location(filename: str, line: int, column: int = 0, end_line: int | None = None,
                  end_column: int | None = None) -> FileLineColLoc | FileLineColRange:  # fmt: skip
    """A point location, or a `FileLineColRange` when the end differs from the start."""
    end_line = line if end_line is None else end_line
    end_column = column if end_column is None else end_column
    name = StringAttr(filename)
    if (end_line, end_column) == (line, column):
        return FileLineColLoc(name, IntAttr(line), IntAttr(column))
    return FileLineColRange(name, IntAttr(line), IntAttr(column), IntAttr(end_line),
                            IntAttr(end_column))  # fmt: skip


def _unsigned(parser: AttrParser, what: str) -> int:
    token = parser._current_token
    if token.kind != MLIRTokenKind.INTEGER_LIT or token.text.startswith("-"):
        parser.raise_error(f"expected integer {what} number in FileLineColRange", token.span)
    value = parser.parse_integer(allow_boolean=False, allow_negative=False)
    if value >= 1 << 32:
        parser.raise_error(f"expected integer {what} number in FileLineColRange", token.span)
    return value


def _holds_range(attr: Attribute) -> bool:
    if isinstance(attr, FileLineColRange):
        return True
    if isinstance(attr, ArrayAttr):
        return any(_holds_range(a) for a in attr.data)
    return (
        isinstance(attr, ParametrizedAttribute)
        and isinstance(attr, LOCATIONS)
        and any(_holds_range(p) for p in attr.parameters)
    )


def _holding(cls: type[ParametrizedAttribute], params: list[Attribute]):
    """`cls` of `params`; unchecked when a child is a range, which xDSL's check refuses."""
    if any(_holds_range(p) for p in params):
        return xp.unverified_attribute(cls, params)
    return cls.new(params)


class LocationSyntax(AttrParser):
    """Mixin for an xDSL parser: MLIR's whole location grammar, in MLIR's words."""

    def _parse_location(self) -> LocationAttr:
        # A FileLineColRange (or a location holding one) is a location xDSL's static
        # union does not name: typed as one for the callers.
        return cast(LocationAttr, self._any_location())

    def _any_location(self) -> Attribute:
        if self.parse_optional_keyword("unknown"):
            return UnknownLoc()
        filename = self.parse_optional_str_literal()
        if filename is not None:
            return self._file_or_name(filename)
        if self._current_token.kind == MLIRTokenKind.HASH_IDENT:
            start = self._current_token.span.start
            attr = self.parse_attribute()
            if not isinstance(attr, LOCATIONS):
                self.raise_error(f"expected location attribute, but got{attr}", start, self.pos)
            return attr
        token = self._current_token
        identifier = self.parse_optional_identifier()
        if identifier == "callsite":
            with self.in_parens():
                callee = self._parse_location()
                self.parse_keyword("at")
                caller = self._parse_location()
            return _holding(CallSiteLoc, [callee, caller])
        if identifier == "fused":
            metadata: Attribute = NoneAttr()
            if self.parse_optional_punctuation("<") is not None:
                metadata = self.parse_attribute()
                self.parse_punctuation(">", " after fused location metadata")
            locs = self.parse_comma_separated_list(self.Delimiter.SQUARE, self._parse_location,
                                                   " in fused location")  # fmt: skip
            return _holding(FusedLoc, [ArrayAttr(locs), metadata])
        self.raise_error("expected location instance", token.span)

    def _file_or_name(self, filename: str):
        if self.parse_optional_punctuation(":") is None:
            child: Attribute = NoneAttr()
            if self._current_token.kind == MLIRTokenKind.L_PAREN:
                with self.in_parens():
                    child = self._parse_location()
            return _holding(NameLoc, [StringAttr(filename), child])
        line = _unsigned(self, "line")
        if self.parse_optional_punctuation(":") is None:
            return file_location(filename, line)
        column = _unsigned(self, "column")
        if not self.parse_optional_keyword("to"):
            return file_location(filename, line, column)
        end_line = line
        if self._current_token.kind == MLIRTokenKind.INTEGER_LIT:
            end_line = _unsigned(self, "line")
        if self.parse_optional_punctuation(":") is None:
            self.raise_error("expected either integer or `:` post `to` in FileLineColRange")
        end_column = _unsigned(self, "column")
        return file_location(filename, line, column, end_line, end_column)
