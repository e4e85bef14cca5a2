"""xDSL's MLIR parser with the two things a compiler driver needs on top.

* Shaped types are checked against a per-axis quantized element type while
  parsing, so `tensor<2x3x!quant.uniform<i8:f32:1, {0.1,0.2}>>` is an error
  located at the tensor type, wherever it appears (a function signature
  included), not later at some op.
* Every operation remembers where it starts in the source (`op_offsets`), so
  verifier errors can be reported as `file:line:col` like MLIR does. Offsets
  are turned into lines only when a diagnostic is printed, which keeps parsing
  linear in the input size.

Location aliases may be used before they are defined, as JAX and MLIR print
them (`loc(#loc3)` in the module, `#loc3 = loc(...)` after it): the top-level
`#name = loc(...)` definitions are resolved first, in dependency order.

Identical shaped-type texts are parsed once per input (a per-parser cache):
real modules repeat a few tensor types thousands of times, and tokenizing them
dominated parse time (bench/bench_parse_print.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import UnrankedMemRefType, UnrankedTensorType
from xdsl.ir import Attribute, Operation
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Location, Span

from qdialect.ir import xdsl_private as xp
from qdialect.ir.float_format import FLOAT_FORMATS, float_from_bits

_LOC_ALIAS_DEF = re.compile(r"^(#[A-Za-z_$.][\w$.\-]*)\s*=\s*(loc\s*\()", re.MULTILINE)


@dataclass
class _TensorElement(AttrParser._TensorLiteralElement):
    """A dense-literal element; a hex integer in a float tensor is the element's bits, as in MLIR."""

    def to_type(self, parser: AttrParser, type):
        fmt = FLOAT_FORMATS.get(str(type))
        text = self.span.text
        if fmt is not None and text.lower().startswith("0x"):
            bits = int(text, 16)
            if bits >> fmt.width:
                parser.raise_error(f"hexadecimal literal does not fit in {type}", self.span)
            return float_from_bits(bits, fmt)
        return super().to_type(parser, type)


class QParser(Parser):
    """Parser used by every qdialect tool; see the module docstring."""

    _TensorLiteralElement = _TensorElement

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.line_offset = line_offset
        self.op_offsets: dict[Operation, int] = {}
        self._shaped_cache: dict[tuple[str, str], Attribute] = {}

    def parse_module(self, allow_implicit_module: bool = True):
        self._predefine_location_aliases()
        return super().parse_module(allow_implicit_module)

    def _predefine_location_aliases(self) -> None:
        text = self.lexer.input.content
        pending = {m.group(1): m for m in _LOC_ALIAS_DEF.finditer(text)}
        self._predefined: set[str] = set()
        while pending:
            progress = False
            for name, match in list(pending.items()):
                sub = Parser(self.ctx, text, self.lexer.input.name)
                sub.attribute_aliases.update(self.attribute_aliases)
                xp.resume_from(sub, match.start(2))
                try:
                    loc = sub.parse_optional_location()
                except ParseError:
                    continue  # depends on an alias not resolved yet (or malformed)
                if loc is None:
                    continue
                self.attribute_aliases[name] = loc
                self._predefined.add(name)
                del pending[name]
                progress = True
            if not progress:
                return  # the normal parse reports what is wrong

    def _parse_alias_def(self):
        token = xp.current_token(self)
        if token.text in getattr(self, "_predefined", ()):
            # Defined up front by _predefine_location_aliases: skip the text.
            xp.consume_token(self)
            self.parse_punctuation("=")
            self.parse_attribute()
            return
        super()._parse_alias_def()

    def parse_operation(self) -> Operation:
        start = self.pos
        op = super().parse_operation()
        self.op_offsets[op] = start
        return op

    def _parse_dialect_type_or_attribute_body(self, *args, **kwargs):
        # A dialect attribute whose construction fails verification is a parse
        # error at that attribute, not an exception escaping the parser.
        start = self.pos
        try:
            return super()._parse_dialect_type_or_attribute_body(*args, **kwargs)
        except VerifyException as err:
            self.raise_error(str(err).splitlines()[0], start, self.pos)

    def _checked_shaped(self, kind: str, parse_body) -> Attribute:
        # `<` has been consumed. Identical type texts are parsed once per input:
        # real modules repeat a handful of tensor types thousands of times.
        start = self.pos
        try:
            end = xp.scan_balanced(self, start)
        except ParseError:
            end = None  # malformed: let the real parser report it
        key = (kind, self.lexer.input.content[start:end]) if end is not None else None
        if key is not None and (cached := self._shaped_cache.get(key)) is not None:
            xp.resume_from(self, end)
            return cached
        shaped = parse_body()
        unranked = (UnrankedTensorType, UnrankedMemRefType)
        shape = None if isinstance(shaped, unranked) else tuple(shaped.get_shape())
        # Element types that constrain their container (a per-axis quantized type
        # needs its axis and one scale per entry) say so through `container_error`.
        check = getattr(shaped.get_element_type(), "container_error", None)
        message = check(shape) if check is not None else None
        if message is not None:
            # Point at the `tensor`/`memref`/`vector` keyword before the `<`.
            text = self.lexer.input.content
            keyword_start = text.rfind("<", 0, start)
            while keyword_start > 0 and (text[keyword_start - 1].isalnum()):
                keyword_start -= 1
            self.raise_error(message, keyword_start, self.pos)
        if key is not None:
            self._shaped_cache[key] = shaped
        return shaped

    def _parse_tensor_attrs(self):
        return self._checked_shaped("tensor", super()._parse_tensor_attrs)

    def _parse_memref_attrs(self):
        return self._checked_shaped("memref", super()._parse_memref_attrs)

    def _parse_vector_attrs(self):
        return self._checked_shaped("vector", super()._parse_vector_attrs)


def location_of(input_: Input[str], offset: int, line_offset: int = 0) -> Location:
    """file:line:col of a character offset (1-based line and column)."""
    return Span(offset, offset, input_, line_offset).get_location()
