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
`#name = loc(...)` definitions are resolved first, in dependency order. Locations
follow MLIR's whole grammar, source ranges and fused metadata included
(`qdialect.ir.locations`).

Parse errors are worded as MLIR words them (`qdialect.ir.parse_messages`), and a
value used but never defined is reported at its first use, as MLIR reports it.

Identical shaped-type texts are parsed once per input (a per-parser cache):
real modules repeat a few tensor types thousands of times, and tokenizing them
dominated parse time (bench/bench_parse_print.py).

Hostile text gets a located error in time linear in its size (docs/qopt.md,
"Limits"): brackets nest at most `MAX_NESTING` deep (checked before parsing, so
deep nesting is an error, not a RecursionError), a shaped type holds at most
`MAX_ELEMENTS` elements (what int64 holds), string literals lex in linear time (`LinearLexer`), a
splat `dense<v>` is built from one packed element, and an attribute whose value
does not fit its type (`dense<300> : tensor<2xi8>`, `4294967296 : i32`) is an
error at the attribute.
"""

from __future__ import annotations

import re
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ComplexType,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Location, Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from qdialect.ir import xdsl_private as xp
from qdialect.ir.closed_dialects import CLOSED_DIALECTS
from qdialect.ir.errors import add_follow_up, add_note, follow_ups, is_core, is_note, mark_core
from qdialect.ir.float_format import FLOAT_FORMATS, float_from_bits
from qdialect.ir.locations import LocationSyntax
from qdialect.ir.parse_messages import mlir_wording, wrong_token_offset

_LOC_ALIAS_DEF = re.compile(r"^(#[A-Za-z_$.][\w$.\-]*)\s*=\s*(loc\s*\()", re.MULTILINE)

_UNDEFINED_ALIAS = re.compile(r"undefined symbol alias '(#[^']*)'")

MAX_NESTING = 256
"""Deepest bracket nesting (`(`, `[`, `{`, `<`) the parser accepts."""

MAX_ELEMENTS = 2**63 - 1
"""Most elements a statically shaped type may declare: the count must fit the int64
that shape arithmetic (numpy's included) computes it in. A type is only a declaration;
what materializes values has its own limits (dense constants, the interpreter)."""

MAX_DENSE_BYTES = 2**31
"""Most bytes a dense constant may hold once built (a splat or a hex splat is expanded)."""

RECURSION_LIMIT = 20_000
"""Python frames that parsing, verifying, printing and running IR nested MAX_NESTING deep
need (about a dozen a bracket), with room; QParser raises the interpreter's limit to it."""

# Strings and comments are skipped (their brackets do not count); `->` is not a bracket.
_NESTING_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//[^\n]*|->|[<(\[{]|[>)\]}]')

# `<value>` of a splat dense literal: one integer, float or boolean, no brackets.
_SPLAT_BODY = re.compile(r"<\s*(?:-\s*)?(?:[0-9][\w.+-]*|true|false)\s*>")

# What building an attribute from parsed values raises when they do not fit its type.
_BUILD_ERRORS = (VerifyException, ValueError, OverflowError, struct.error, NotImplementedError)

_T = TypeVar("_T")


def nesting_error(text: str) -> tuple[int, str] | None:
    """(offset, message) of the first bracket nested deeper than MAX_NESTING, else None."""
    depth = 0
    for match in _NESTING_TOKEN.finditer(text):
        char = match.group()[0]
        if char in "<([{":
            depth += 1
            if depth > MAX_NESTING:
                return match.start(), f"brackets nest deeper than {MAX_NESTING} levels"
        elif char in ">)]}" and depth:
            depth -= 1
    return None


def _unsupported_element(element) -> str | None:
    """Why dense constants cannot hold elements of type `element`, or None if they can."""
    inner = element.element_type if isinstance(element, ComplexType) else element
    if isinstance(inner, IntegerType) and inner.width.data > 64:
        return f"dense constants of {element} are not supported (integers of at most 64 bits)"
    if isinstance(inner, IntegerType | IndexType) or str(inner) in FLOAT_FORMATS:
        return None
    try:
        size = inner.compile_time_size
    except (NotImplementedError, AttributeError):
        size = 0
    return None if size else f"dense constants of {element} are not supported"


@dataclass
class _TensorElement(AttrParser._TensorLiteralElement):
    """A dense-literal element; a hex integer in a float tensor is the element's bits, as in MLIR."""

    def to_type(self, parser: AttrParser, type):
        fmt = FLOAT_FORMATS.get(str(type))
        text = self.span.text
        if isinstance(type, ComplexType) and "0x" in text.lower():
            return self._complex_with_hex_parts(parser, type, text)
        if fmt is not None and text.lower().startswith("0x"):
            bits = int(text, 16)
            if bits >> fmt.width:
                parser.raise_error(f"hexadecimal literal does not fit in {type}", self.span)
            return float_from_bits(bits, fmt)
        if fmt is not None and isinstance(self.value, int) and text[-1:].isdigit():
            parser.raise_error(*_decimal_for_float(self.span))
        if isinstance(type, IntegerType | IndexType) and isinstance(self.value, float):
            at = self.span.start + self.span.text.startswith("-")  # MLIR: after the sign
            parser.raise_error(
                "expected integer elements, but parsed floating-point", at, self.span.end
            )
        value = super().to_type(parser, type)
        # MLIR's rule: a literal for iN fits if it fits in N bits as signed or as unsigned.
        fits = IntegerType(64) if isinstance(type, IndexType) else type
        if (
            isinstance(fits, IntegerType)
            and isinstance(value, int)
            and fits.normalized_value(value) is None
        ):
            parser.raise_error(f"integer literal {value} does not fit in {type}", self.span)
        return value

    def _complex_with_hex_parts(self, parser: AttrParser, type: ComplexType, text: str):
        """`(0x7FF0000000000001, 0.0)`: a hex part of a float complex is that part's bits."""
        fmt = FLOAT_FORMATS.get(str(type.element_type))
        assert isinstance(self.value, tuple)
        parts = [p.strip() for p in text.strip()[1:-1].split(",")]
        if fmt is None or len(parts) != 2:
            return super().to_type(parser, type)
        values = []
        for part, value in zip(parts, self.value, strict=True):
            if part.lower().startswith("0x"):
                bits = int(part, 16)
                if bits >> fmt.width:
                    parser.raise_error(
                        f"hexadecimal literal does not fit in {type.element_type}", self.span
                    )
                values.append(float_from_bits(bits, fmt))
            else:
                values.append(float(value))
        return (values[0], values[1])


def _decimal_for_float(span: Span) -> tuple[str, int, int]:
    """MLIR refuses a decimal integer where a float is wanted (`dense<[1, 2]> :
    tensor<2xf32>`, `1 : f32`), at its digits; `QParser` adds MLIR's note."""
    at = span.start + span.text.startswith("-")
    return _DECIMAL_FOR_FLOAT, at, span.end


_DECIMAL_FOR_FLOAT = "unexpected decimal integer literal for a floating point value"
_DECIMAL_INTEGER = re.compile(r"-?\s*(\d+)(?![\w.])")
_CUSTOM_OP = "qdialect_custom_op"
_OP_NAME = re.compile(r"\s*(?:(?:%[\w$.\-]+(?::\d+)?\s*,?\s*)+=\s*)?([A-Za-z_][\w$.]*)")


#: How MLIR's dialects word a type (True) or attribute (False) mnemonic they do not know;
#: a dialect not listed has no parser for that kind (`_unknown_name_message`).
_UNKNOWN_NAME_WORDS = {
    ("quant", True): "unknown quantized type {m}",
    ("stablehlo", True): "unknown stablehlo type: {m}",
    ("stablehlo", False): "unknown StableHLO attribute",
    ("chlo", False): "unknown chlo attribute",
    ("tosa", True): "unknown  type `{m}` in dialect `tosa`",
    ("tosa", False): "unknown attribute `{m}` in dialect `tosa`",
}


def _unknown_name_message(dialect: str, mnemonic: str, is_type: bool) -> str:
    words = _UNKNOWN_NAME_WORDS.get((dialect, is_type))
    if words is None:
        return f"dialect '{dialect}' provides no {'type' if is_type else 'attribute'} parsing hook"
    return words.format(m=mnemonic)


def _inherent_attrs_to_properties(op: Operation) -> None:
    """Move attributes named like one of the op's properties into its properties, as MLIR
    does: `"stablehlo.constant"() {value = ...}` (the form StableHLO's testdata and older
    producers write) means the same as `<{value = ...}>`. A property given both ways
    keeps the `<{...}>` one; the other stays a discardable attribute."""
    if not isinstance(op, IRDLOperation):
        return
    inherent = type(op).get_irdl_definition().properties
    for name in [k for k in op.attributes if k in inherent and k not in op.properties]:
        op.properties[name] = op.attributes.pop(name)


class _AliasParser(LocationSyntax, Parser):
    """Parses the location aliases ahead of the module (`QParser._predefine_location_aliases`)."""


class QParser(LocationSyntax, Parser):
    """Parser used by every qdialect tool; see the module docstring."""

    _TensorLiteralElement = _TensorElement

    def _parse_optional_complex(self):
        """`(re, im)`; a part written in hex is a float part's bits, so it may stand beside a
        decimal part, as MLIR prints `(0x7FF0000000000000,-0.000000e+00)`
        (`_TensorElement._complex_with_hex_parts` reads the bits)."""
        if self._current_token.kind != MLIRTokenKind.L_PAREN:
            return None
        start = self._consume_token(MLIRTokenKind.L_PAREN).span
        real, real_span = self._parse_bool_int_or_float()
        self.parse_punctuation(",")
        imag, imag_span = self._parse_bool_int_or_float()
        if type(real) is not type(imag):
            hex_part = [s.text.lower().lstrip("-").startswith("0x") for s in (real_span, imag_span)]
            if not any(hex_part):
                self.raise_error("Complex value must be either (float, float) or (int, int)")
            real, imag = float(real), float(imag)  # the hex part is re-read from its text
        end = self._consume_token(MLIRTokenKind.R_PAREN).span
        return (real, imag), Span(start.start, end.end, start.input)

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0):
        """Lexes the first token: raises ParseError if that is malformed."""
        if sys.getrecursionlimit() < RECURSION_LIMIT:
            sys.setrecursionlimit(RECURSION_LIMIT)
        super().__init__(ctx, "", name)
        xp.set_lexer(self, xp.LinearLexer(Input(text, name)))
        self.line_offset = line_offset
        self.op_offsets: dict[Operation, int] = {}
        self._shaped_cache: dict[tuple[str, str], Attribute] = {}
        self._first_forward_use: dict[str, Span] = {}

    def parse_module(self, allow_implicit_module: bool = True):
        try:
            return self._parse_module(allow_implicit_module)
        except ParseError as err:
            raise self._in_mlir_words(err) from None

    def _in_mlir_words(self, err: ParseError) -> ParseError:
        """`err` worded (and, for an undeclared value, located) as MLIR's parser reports it."""
        if err.msg.startswith("values used but not defined") and self._first_forward_use:
            undefined = [n for n in self._first_forward_use if n in self.forward_ssa_references]
            if undefined:
                first = min((self._first_forward_use[n] for n in undefined), key=lambda s: s.start)
                return ParseError(first, "use of undeclared SSA value name")
        name = getattr(err, _CUSTOM_OP, None)
        reworded = self._reworded(err, name)
        for follow_up in follow_ups(err):
            add = add_note if is_note(follow_up) else add_follow_up
            add(reworded, self._reworded(follow_up, name))
        if reworded.msg == _DECIMAL_FOR_FLOAT:
            add_note(
                reworded,
                ParseError(reworded.span, "add a trailing dot to make the literal a float"),
            )
        return reworded

    def _reworded(self, err: ParseError, custom_op: str | None) -> ParseError:
        """One error as MLIR words and locates it; `custom_op` names the op whose custom
        parser ran, whose OpAsmParser prefixes what it reports (not what the core type
        or attribute parser reports)."""
        stack = self._parser_state.dialect_stack
        default = "func" if "func" in stack else "builtin"
        message, at = mlir_wording(
            err.msg,
            self.lexer.input.content,
            err.span.start,
            list(self.ctx.registered_dialect_names),
            default,
        )
        if custom_op is not None and not is_core(err):
            message = f"custom op '{custom_op}' {message}"
        return ParseError(Span(at, max(at, err.span.end), self.lexer.input), message)

    def resolve_operand(self, operand, type):
        if operand.operand_name not in self.ssa_values:
            self._first_forward_use.setdefault(operand.operand_name, operand.span)
        try:
            return super().resolve_operand(operand, type)
        except ParseError as err:  # a type clash: the core parser's error, unprefixed
            mark_core(err)
            raise

    def _parse_module(self, allow_implicit_module: bool):
        if (error := nesting_error(self.lexer.input.content)) is not None:
            self.raise_error(error[1], error[0], error[0] + 1)
        if xp.current_token(self).kind == MLIRTokenKind.EOF:
            return ModuleOp([])  # an empty input (or only comments) is an empty module, as in MLIR
        try:
            self._predefine_location_aliases()
            return super().parse_module(allow_implicit_module)
        except RecursionError:
            # A safety net: MAX_NESTING keeps bracketed nesting well inside Python's limit.
            self.raise_error("input nests too deeply for the parser")
        except AssertionError as err:
            # Some xDSL parse functions assert the next token's kind instead of raising a
            # ParseError (`_consume_token(kind)`, e.g. in complex literals): the same error.
            if not str(err).startswith("Unexpected token"):
                raise
            token = xp.current_token(self)
            self.raise_error(f"unexpected '{token.text}'", token.span.start, token.span.end)

    def _located(self, parse: Callable[[], _T]) -> _T:
        """`parse()`, with an attribute or type that rejects its parsed values (a value that
        does not fit its type, ...) reported as a parse error at its text. Errors from
        inside a type or attribute are the core parser's, which MLIR does not prefix with
        the custom op being parsed (`_custom_op_words`)."""
        start = self.pos
        try:
            return parse()
        except ParseError as err:
            mark_core(err)
            raise
        except MemoryError:
            self.raise_error("out of memory building this attribute", start, self.pos)
        except _BUILD_ERRORS as err:
            message = str(err).strip().splitlines()
            self.raise_error(message[0] if message else type(err).__name__, start, self.pos)

    def _parse_block(self):
        """A region's next item that is neither an op, a block label nor its `}` (the
        end of the input, a stray token) is the core parser's "expected operation name in
        quotes", as MLIR words it; xDSL's own text for it is " in block definition"."""
        try:
            return super()._parse_block()
        except ParseError as err:
            if err.msg != " in block definition":
                raise
            # Reported as MLIR's emitWrongTokenError does: at the end of the previous line
            # when the offending token starts its line.
            at = wrong_token_offset(self.lexer.input.content, err.span.start)
            span = Span(at, at + 1, self.lexer.input)
            raise mark_core(ParseError(span, "expected operation name in quotes")) from None

    def parse_optional_attribute(self):
        return self._located(super().parse_optional_attribute)

    def parse_optional_builtin_int_or_float_attr(self):
        """`1.0 : f32`; a decimal integer given a float type (`1 : f32`) is refused, as MLIR
        refuses it."""
        start = xp.current_token(self).span.start
        attr = super().parse_optional_builtin_int_or_float_attr()
        if isinstance(attr, FloatAttr):
            text = self.lexer.input.content
            if (digits := _DECIMAL_INTEGER.match(text, start)) is not None:
                span = Span(digits.start(1), digits.end(1), self.lexer.input)
                self.raise_error(*_decimal_for_float(span))
        return attr

    def parse_type(self):
        function = xp.current_token(self).kind == MLIRTokenKind.L_PAREN
        try:
            return super().parse_type()
        except ParseError as err:
            if function and err.msg in ("'->' expected", "Expected '->'"):
                err = ParseError(err.span, "expected '->' in function type")  # MLIR's words
            raise mark_core(err) from None

    def parse_optional_function_type(self):
        try:
            return super().parse_optional_function_type()
        except ParseError as err:
            if err.msg == "'->' expected":  # MLIR's words for it
                err = ParseError(err.span, "expected '->' in function type")
            mark_core(err)
            raise err from None

    def parse_optional_type(self):
        return self._located(super().parse_optional_type)

    def parse_dense_int_or_fp_elements_attr(self, type):
        """Checks the element type, and builds a splat from one packed value rather than
        xDSL's list of one Python number per element."""
        start = self.pos
        splat = _SPLAT_BODY.match(self.lexer.input.content, start)
        if splat is None:
            if type is not None and (why := _unsupported_element(type.element_type)):
                self.raise_error(why, start)
            return self._located(
                lambda: super(QParser, self).parse_dense_int_or_fp_elements_attr(type)
            )
        self.parse_punctuation("<", " in dense attribute")
        elements, _ = xp.parse_tensor_literal(self)
        self.parse_punctuation(">", " in dense attribute")
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()
        elif (why := _unsupported_element(type.element_type)) is not None:
            self.raise_error(why, start, self.pos)
        if isinstance(type.element_type, ComplexType):
            self.raise_error(f"expected a (real, imaginary) pair for {type.element_type}", start)
        value = elements[0].to_type(self, type.element_type)
        shaped: Any = type
        return self._located(lambda: DenseIntOrFPElementsAttr.from_list(shaped, [value]))

    def _parse_dense_literal_type(self):
        start = self.pos
        type = super()._parse_dense_literal_type()
        if (why := _unsupported_element(type.element_type)) is not None:
            self.raise_error(why, start, self.pos)
        element = type.element_type
        size = 16 if isinstance(element, ComplexType) else getattr(element, "compile_time_size", 8)
        count = 1
        for dim in type.get_shape():
            count *= dim
        if count * size > MAX_DENSE_BYTES:
            self.raise_error(
                f"a dense constant of {type} takes {count * size} bytes; the limit is 2^31 bytes",
                start,
                self.pos,
            )
        return type

    def _predefine_location_aliases(self) -> None:
        """Define every top-level `#name = loc(...)` before the parse. An alias whose
        location uses another not yet defined is retried after that one (depth first),
        so each is parsed a bounded number of times: a long chain of aliases defined in
        the wrong order stays linear. Undefined or cyclic ones are left to the parse."""
        text = self.lexer.input.content
        pending = {m.group(1): m.start(2) for m in _LOC_ALIAS_DEF.finditer(text)}
        self._predefined: set[str] = set()
        if not pending:
            return
        sub = _AliasParser(self.ctx, "", self.lexer.input.name)
        xp.set_lexer(sub, xp.LinearLexer(self.lexer.input), next(iter(pending.values())))
        sub.attribute_aliases = self.attribute_aliases  # shared: definitions seen at once
        failed: set[str] = set()
        for name in pending:
            stack = [name]
            while stack:
                current = stack[-1]
                if current in self._predefined or current in failed:
                    stack.pop()
                    continue
                xp.resume_from(sub, pending[current])
                try:
                    loc = sub.parse_optional_location()
                except ParseError as err:
                    missing = _UNDEFINED_ALIAS.search(err.msg)
                    needed = missing.group(1) if missing else None
                    if needed in pending and needed not in failed and needed not in stack:
                        stack.append(needed)
                        continue
                    loc = None  # malformed, undefined or cyclic
                if loc is None:
                    failed.update(stack)  # the normal parse reports what is wrong
                    stack.clear()
                    continue
                self.attribute_aliases[current] = loc
                self._predefined.add(current)
                stack.pop()

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
        try:
            op = super().parse_operation()
        except ParseError as err:
            if not hasattr(err, _CUSTOM_OP):
                setattr(err, _CUSTOM_OP, self._custom_op_at(start, err))
            raise
        except MemoryError:
            self.raise_error("out of memory parsing this operation", start, self.pos)
        except _BUILD_ERRORS as err:
            # A custom syntax built an attribute its values do not fit (a clause's
            # integer too large for i32, ...): an error at the op, not a traceback.
            message = str(err).strip().splitlines()
            failure = ParseError(
                Span(start, self.pos, self.lexer.input),
                message[0] if message else type(err).__name__,
            )
            setattr(failure, _CUSTOM_OP, None)  # this op's, not an enclosing op's parser
            raise failure from None
        _inherent_attrs_to_properties(op)
        self.op_offsets[op] = start
        return op

    def _custom_op_at(self, start: int, err: ParseError) -> str | None:
        """The op whose custom parser was running when `err` was raised, if MLIR would
        name it: a registered op in its pretty form, the error past its name (not in the
        result binding). Whether the error is the core parser's (unprefixed) is decided
        per error, in `_reworded`."""
        if err.msg.startswith("Operation has "):
            return None
        match = _OP_NAME.match(self.lexer.input.content, start)
        if match is None or err.span.start < match.end(1):
            return None
        name = match.group(1)
        if "." not in name and self.ctx.get_optional_op(name) is None:
            name = f"func.{name}"  # the short `return` and `call` spellings
        op = self.ctx.get_optional_op(name)
        return name if op is not None and not issubclass(op, UnregisteredOp) else None

    def _parse_dialect_type_or_attribute_body(self, *args, **kwargs):
        # A dialect attribute whose construction fails verification is a parse
        # error at that attribute, not an exception escaping the parser.
        start = self.pos
        name = args[0] if args else kwargs.get("attr_name", "")
        is_type = args[1] if len(args) > 1 else kwargs.get("is_type", False)
        dialect, _, mnemonic = name.partition(".")
        known = self.ctx.get_optional_type if is_type else self.ctx.get_optional_attr
        if dialect in CLOSED_DIALECTS and known(name) is None:
            # A registered dialect parses its own mnemonics and says so, at the mnemonic
            # (which the lexer has already passed).
            sigil = "!" if is_type else "#"
            at = max(self.lexer.input.content.rfind(sigil + name, 0, start), 0)
            at += len(sigil) + len(dialect) + 1
            self.raise_error(
                _unknown_name_message(dialect, mnemonic, is_type), at, at + len(mnemonic)
            )
        text = self.lexer.input.content
        opaque_at = args[3] if len(args) > 3 else kwargs.get("starting_opaque_pos")
        if opaque_at is not None:  # `!quant<any<...>>`: the `<` after the dialect name
            body = text.rfind("<", 0, opaque_at)
        else:
            body = start + len(text[start:]) - len(text[start:].lstrip())
        if body >= 0 and text.startswith("<", body):
            # MLIR's lexer takes a pretty dialect body whole, brackets balanced, before
            # the dialect parses it; an unclosed one is that error, not the parser's.
            try:
                xp.scan_balanced(self, body + 1)
            except ParseError:
                self.raise_error("unbalanced '<' character in pretty dialect name", body, body + 1)
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
        if isinstance(shaped, TensorType):
            # A dialect's tensor encoding may name its printed form (StableHLO's
            # `type_extensions<bounds = ..>` prints as `bounds<..>`) and check the shape
            # it annotates (`problem`), as upstream's encodings verify at the type.
            canonical = getattr(shaped.encoding, "canonical", None)
            if canonical is not None:
                shaped = TensorType(shaped.element_type, shaped.get_shape(), canonical())
            problem = getattr(shaped.encoding, "problem", None)
            if problem is not None and (why := problem(shaped.get_shape(), str(shaped))):
                self._error_at_keyword(start, why)
        if shape is not None:
            count = 1
            for size in shape:
                count *= size if size >= 0 else 1  # a dynamic size (-1) is not counted
            if count > MAX_ELEMENTS:
                self._error_at_keyword(
                    start, f"{kind} type declares {count} elements; the limit is 2^63 - 1"
                )
        # Element types that constrain their container (a per-axis quantized type needs
        # its axis and one scale per entry) are checked after the ops have verified, as
        # upstream's op diagnostics come first (`qdialect.ir.containers`).
        if key is not None:
            self._shaped_cache[key] = shaped
        return shaped

    def _error_at_keyword(self, start: int, message: str):
        """Raise `message` at the `tensor`/`memref`/`vector` keyword before the `<` that ends
        just before `start`."""
        text = self.lexer.input.content
        keyword_start = text.rfind("<", 0, start)
        while keyword_start > 0 and (text[keyword_start - 1].isalnum()):
            keyword_start -= 1
        self.raise_error(message, keyword_start, self.pos)

    def _parse_tensor_attrs(self):
        return self._checked_shaped("tensor", super()._parse_tensor_attrs)

    def _parse_memref_attrs(self):
        return self._checked_shaped("memref", super()._parse_memref_attrs)

    def _parse_vector_attrs(self):
        return self._checked_shaped("vector", super()._parse_vector_attrs)


def location_of(input_: Input[str], offset: int, line_offset: int = 0) -> Location:
    """file:line:col of a character offset (1-based line and column)."""
    return Span(offset, offset, input_, line_offset).get_location()
