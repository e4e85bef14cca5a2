"""The `quant` dialect: MLIR-compatible `!quant.uniform` types and the cast ops.

Textual forms are byte-identical to upstream MLIR's printer:

    !quant.uniform<i8:f32, 1.000000e-02:50>                 per-tensor
    !quant.uniform<i8<-127:127>:f32, 1.000000e-02>          narrow storage range
    !quant.uniform<u8:f32:1, {2.000000e-01:20,1.000000e-01}>  per-axis (axis 1)
    !quant.uniform<ui8:f32, 1.000000e+00>                   builtin `ui8`/`si8` storage

Validity follows the StableHLO spec, which is stricter than MLIR's own
verifier (MLIR accepts a zero point outside the storage range, and does not
check per-axis types against the tensor they sit in): see docs/quant-types.md.

One Python class covers per-tensor and per-axis parameters (MLIR's two C++
classes print under the same `!quant.uniform` mnemonic). Code that needs
parameters as arrays calls `broadcast_params`, the single place where the
granularity is interpreted; sub-channel (blockwise) quantization would add a
granularity there and in the parser/printer, not in every user.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ContainerType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    ShapedType,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Data, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from qdialect import numerics
from qdialect.ir import xdsl_private as xp
from qdialect.ir.float_format import double_from_bits, format_mlir_double

MIN_STORAGE_BITS = 2
MAX_STORAGE_BITS = 32

_EXPRESSED_TYPES: dict[type[Attribute], str] = {
    Float16Type: "f16",
    BFloat16Type: "bf16",
    Float32Type: "f32",
    Float64Type: "f64",
}

# Smallest positive (subnormal) and largest finite value of each expressed type.
_EXPRESSED_RANGE: dict[str, tuple[float, float]] = {
    "f16": (2.0**-24, 65504.0),
    "bf16": (2.0**-133, float.fromhex("0x1.fep127")),
    "f32": (2.0**-149, float.fromhex("0x1.fffffep127")),
    "f64": (5e-324, float.fromhex("0x1.fffffffffffffp1023")),
}

_STORAGE_RE = re.compile(r"(si|ui|i|u)([0-9]+)")

EXPLICIT_SIGNEDNESS = 2
"""Bit of `signed_attr` set when the storage was written as a builtin signed/unsigned
integer type (`si8`, `ui8`) rather than the quant keyword (`i8`, `u8`); MLIR keeps the
two apart (different storage types) and prints each as written."""


def expressed_type_name(expressed: Attribute) -> str | None:
    """`f32` for Float32Type etc.; None when `expressed` is not a supported float."""
    return _EXPRESSED_TYPES.get(type(expressed))


# --------------------------------------------------------------------------
# Parameter validation: shared by the parser (located errors) and the verifier
# --------------------------------------------------------------------------


def storage_width_error(bits: int) -> str | None:
    if not MIN_STORAGE_BITS <= bits <= MAX_STORAGE_BITS:
        return (
            f"illegal storage type size: {bits} "
            f"(supported: {MIN_STORAGE_BITS} to {MAX_STORAGE_BITS} bits)"
        )
    return None


def storage_range_error(bits: int, signed: bool, lo: int, hi: int) -> str | None:
    full_lo, full_hi = numerics.storage_range(bits, signed)
    if lo < full_lo:
        return f"illegal storage type minimum: {lo}"
    if hi > full_hi:
        return f"illegal storage type maximum: {hi}"
    if lo >= hi:
        return f"illegal storage min and storage max: ({lo}:{hi})"
    return None


def scale_error(scale: float, expressed: str) -> str | None:
    smallest, largest = _EXPRESSED_RANGE[expressed]
    if math.isnan(scale) or not smallest <= scale <= largest:
        return f"scale {scale:e} out of expressed type range [{smallest:e}, {largest:e}]"
    return None


def zero_point_error(zero_point: int, lo: int, hi: int) -> str | None:
    if not lo <= zero_point <= hi:
        return f"zero point {zero_point} out of storage range [{lo}, {hi}]"
    return None


def axis_error(axis: int) -> str | None:
    if axis < 0:
        return f"illegal quantized dimension: {axis}"
    return None


def shaped_type_error(shape: Sequence[int] | None, element: Attribute) -> str | None:
    """Check a per-axis element type against the shape of its container.

    `shape` None means unranked. Dynamic dimensions (-1) are not checked.
    """
    if not isinstance(element, UniformQuantizedType) or not element.is_per_axis:
        return None
    axis = element.quantized_dimension
    if shape is None:
        return None
    if axis >= len(shape):
        return f"quantized dimension {axis} must be less than tensor rank {len(shape)}"
    size = shape[axis]
    if size >= 0 and size != len(element.scales):
        return (
            f"quantized dimension {axis} has size {size} but the type has "
            f"{len(element.scales)} scales"
        )
    return None


# --------------------------------------------------------------------------
# Parameter storage
# --------------------------------------------------------------------------


@irdl_attr_definition
class QuantParamsAttr(Data[tuple[tuple[float, ...], tuple[int, ...]]]):
    """(scales, zero_points) of a quantized type; printed only through the type."""

    name = "quant.params"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[tuple[float, ...], tuple[int, ...]]:
        parser.raise_error("quant.params is internal to !quant.uniform")

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(repr(self.data))


# --------------------------------------------------------------------------
# !quant.uniform
# --------------------------------------------------------------------------


@irdl_attr_definition
class UniformQuantizedType(ParametrizedAttribute, TypeAttribute):
    """`!quant.uniform`: real = scale * (q - zero_point), per tensor or per axis."""

    name = "quant.uniform"

    storage_width_attr: IntAttr
    signed_attr: IntAttr
    """Storage spelling: 1 `iN`, 0 `uN`, 3 `siN`, 2 `uiN` (bit 0: signed; bit 1:
    `EXPLICIT_SIGNEDNESS`)."""
    expressed_type: Attribute
    params: QuantParamsAttr
    quantized_dimension_attr: IntAttr
    """-1 for per-tensor quantization, else the quantized axis."""
    storage_min_attr: IntAttr
    storage_max_attr: IntAttr

    PER_TENSOR: ClassVar[int] = -1

    # ---- construction -----------------------------------------------------

    @staticmethod
    def get(
        storage_width: int,
        expressed_type: Attribute,
        scale: float,
        zero_point: int = 0,
        *,
        signed: bool = True,
        storage_min: int | None = None,
        storage_max: int | None = None,
    ) -> UniformQuantizedType:
        """Per-tensor type, e.g. `get(8, Float32Type(), 0.01, 50)`."""
        return UniformQuantizedType._build(
            storage_width,
            signed,
            expressed_type,
            (scale,),
            (zero_point,),
            -1,
            storage_min,
            storage_max,
        )

    @staticmethod
    def get_per_axis(
        storage_width: int,
        expressed_type: Attribute,
        scales: Sequence[float],
        zero_points: Sequence[int] | None,
        axis: int,
        *,
        signed: bool = True,
        storage_min: int | None = None,
        storage_max: int | None = None,
    ) -> UniformQuantizedType:
        """Per-axis type; `zero_points=None` means all zero."""
        zps = tuple(zero_points) if zero_points is not None else (0,) * len(scales)
        return UniformQuantizedType._build(
            storage_width,
            signed,
            expressed_type,
            tuple(scales),
            zps,
            axis,
            storage_min,
            storage_max,
        )

    @staticmethod
    def _build(
        width: int,
        signed: bool | int,
        expressed: Attribute,
        scales: tuple[float, ...],
        zero_points: tuple[int, ...],
        axis: int,
        lo: int | None,
        hi: int | None,
    ) -> UniformQuantizedType:
        flags = int(signed)  # a bool, or the spelling flags of an existing type
        signed = bool(flags & 1)
        full_lo, full_hi = numerics.storage_range(width, signed) if width > 0 else (0, 0)
        return UniformQuantizedType(
            IntAttr(width),
            IntAttr(flags),
            expressed,
            QuantParamsAttr((tuple(float(s) for s in scales), tuple(int(z) for z in zero_points))),
            IntAttr(axis),
            IntAttr(full_lo if lo is None else lo),
            IntAttr(full_hi if hi is None else hi),
        )

    # ---- accessors --------------------------------------------------------

    def container_error(self, shape: Sequence[int] | None) -> str | None:
        """Why a tensor of `shape` (None: unranked) cannot hold this element type, or
        None; the parser calls it on every shaped type (`qdialect.ir.parser`)."""
        return shaped_type_error(shape, self)

    @property
    def storage_width(self) -> int:
        return self.storage_width_attr.data

    @property
    def is_signed(self) -> bool:
        return bool(self.signed_attr.data & 1)

    @property
    def storage_type(self) -> IntegerType:
        """Integer type of the stored values (MLIR's storage type): signless for `iN`/`uN`,
        the builtin `siN`/`uiN` type when written so."""
        if self.signed_attr.data & EXPLICIT_SIGNEDNESS:
            signedness = Signedness.SIGNED if self.is_signed else Signedness.UNSIGNED
            return IntegerType(self.storage_width, signedness)
        return IntegerType(self.storage_width)

    @property
    def expressed_type_name(self) -> str:
        name = expressed_type_name(self.expressed_type)
        assert name is not None, "verified at construction"
        return name

    @property
    def storage_min(self) -> int:
        return self.storage_min_attr.data

    @property
    def storage_max(self) -> int:
        return self.storage_max_attr.data

    @property
    def has_narrow_range(self) -> bool:
        """True when storage min/max differ from the storage type's full range."""
        full = numerics.storage_range(self.storage_width, self.is_signed)
        return (self.storage_min, self.storage_max) != full

    @property
    def is_per_axis(self) -> bool:
        return self.quantized_dimension_attr.data != self.PER_TENSOR

    @property
    def quantized_dimension(self) -> int:
        """The quantized axis; raises for per-tensor types."""
        if not self.is_per_axis:
            raise ValueError("per-tensor quantized type has no quantized dimension")
        return self.quantized_dimension_attr.data

    @property
    def axis(self) -> int | None:
        """The quantized axis, or None for per-tensor types."""
        return self.quantized_dimension_attr.data if self.is_per_axis else None

    @property
    def scales(self) -> tuple[float, ...]:
        return self.params.data[0]

    @property
    def zero_points(self) -> tuple[int, ...]:
        return self.params.data[1]

    @property
    def scale(self) -> float:
        """The scale of a per-tensor type; raises for per-axis types."""
        if self.is_per_axis:
            raise ValueError("per-axis quantized type has no single scale; use .scales")
        return self.scales[0]

    @property
    def zero_point(self) -> int:
        """The zero point of a per-tensor type; raises for per-axis types."""
        if self.is_per_axis:
            raise ValueError("per-axis quantized type has no single zero point")
        return self.zero_points[0]

    def broadcast_params(self, rank: int) -> tuple[np.ndarray, np.ndarray]:
        """(scales as f64, zero points as i64), shaped to broadcast against a rank-`rank` tensor."""
        return (
            numerics.axis_broadcast(np.asarray(self.scales, np.float64), rank, self.axis),
            numerics.axis_broadcast(np.asarray(self.zero_points, np.int64), rank, self.axis),
        )

    def with_params(
        self, scales: Sequence[float], zero_points: Sequence[int], axis: int | None
    ) -> UniformQuantizedType:
        """Same storage and expressed type, new scales/zero points/axis."""
        return UniformQuantizedType._build(
            self.storage_width,
            self.signed_attr.data,  # keeps the storage spelling
            self.expressed_type,
            tuple(scales),
            tuple(zero_points),
            -1 if axis is None else axis,
            self.storage_min,
            self.storage_max,
        )

    # ---- verification -----------------------------------------------------

    def verify(self) -> None:
        width = self.storage_width
        for message in self._errors(width):
            if message is not None:
                raise VerifyException(message)

    def _errors(self, width: int):
        yield storage_width_error(width)
        yield storage_range_error(width, self.is_signed, self.storage_min, self.storage_max)
        name = expressed_type_name(self.expressed_type)
        if name is None:
            yield f"expressed type must be f16, bf16, f32 or f64, got {self.expressed_type}"
            return
        scales, zero_points = self.params.data
        if len(scales) != len(zero_points) or not scales:
            yield (f"illegal number of scales and zero points: {len(scales)}, {len(zero_points)}")
        if not self.is_per_axis and len(scales) != 1:
            yield "per-tensor quantized type must have exactly one scale"
        yield axis_error(self.quantized_dimension_attr.data) if self.is_per_axis else None
        for scale in scales:
            yield scale_error(scale, name)
        for zp in zero_points:
            yield zero_point_error(zp, self.storage_min, self.storage_max)

    # ---- text -------------------------------------------------------------

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(_body_text(self))

    def _body_text(self) -> str:
        text = f"<{self._storage_text()}:{self.expressed_type_name}"
        if self.is_per_axis:
            items = ",".join(_param_text(s, z) for s, z in zip(*self.params.data, strict=True))
            return text + f":{self.quantized_dimension}, {{{items}}}>"
        return text + f", {_param_text(self.scale, self.zero_point)}>"

    def _storage_text(self) -> str:
        explicit = "s" if self.is_signed else "u"
        implicit = "i" if self.is_signed else "u"
        prefix = explicit + "i" if self.signed_attr.data & EXPLICIT_SIGNEDNESS else implicit
        text = f"{prefix}{self.storage_width}"
        if self.has_narrow_range:
            text += f"<{self.storage_min}:{self.storage_max}>"
        return text

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        # Real modules repeat the same few types thousands of times: the body
        # text is looked up before it is tokenized (see _PARSE_CACHE).
        token = xp.current_token(parser)
        key = None
        if token.kind == MLIRTokenKind.LESS:
            start = token.span.start
            end = xp.scan_balanced(parser, start + 1)
            key = parser.lexer.input.content[start : end + 1]
            if (cached := _PARSE_CACHE.get(key)) is not None:
                xp.resume_from(parser, end + 1)
                return cached
        params = _UniformTypeParser(parser).parse()
        if key is not None and "!" not in key and "#" not in key:  # aliases are per file
            if len(_PARSE_CACHE) >= _PARSE_CACHE_LIMIT:
                _PARSE_CACHE.clear()
            _PARSE_CACHE[key] = params
        return params


_PARSE_CACHE: dict[str, Sequence[Attribute]] = {}
"""Body text of `!quant.uniform<...>` -> parsed parameters (only valid bodies)."""
_PARSE_CACHE_LIMIT = 1 << 16


@functools.lru_cache(maxsize=1 << 14)
def _body_text(t: UniformQuantizedType) -> str:
    """Printed body of a type; cached because printing a scale is exact big-int work."""
    return t._body_text()


def _param_text(scale: float, zero_point: int) -> str:
    text = format_mlir_double(scale)
    return f"{text}:{zero_point}" if zero_point != 0 else text


class _UniformTypeParser:
    """Parses the body of `!quant.uniform<...>`, reporting each error at its token.

    It peeks at tokens through xDSL's `_current_token`/`_consume_token`: the
    public API has no way to look at a literal's kind before parsing it, and the
    exact MLIR diagnostics need that. xDSL is pinned, so this is stable.
    """

    def __init__(self, parser: AttrParser):
        self.p = parser

    def _error(self, message: str | None, start: int, end: int) -> None:
        if message is not None:
            self.p.raise_error(message, start, end)

    def parse(self) -> Sequence[Attribute]:
        p = self.p
        p.parse_punctuation("<")
        width, flags, lo, hi = self._parse_storage()
        p.parse_punctuation(":")
        start = p.pos
        expressed = p.parse_type()
        expressed_name = expressed_type_name(expressed)
        if expressed_name is None:
            self._error(
                f"expressed type must be f16, bf16, f32 or f64, got {expressed}", start, p.pos
            )
        assert expressed_name is not None
        axis = UniformQuantizedType.PER_TENSOR
        if p.parse_optional_punctuation(":") is not None:
            start = p.pos
            axis = p.parse_integer(allow_boolean=False)
            self._error(axis_error(axis), start, p.pos)
        p.parse_punctuation(",")
        scales: list[float] = []
        zero_points: list[int] = []
        if axis == UniformQuantizedType.PER_TENSOR:
            self._parse_param(expressed_name, lo, hi, scales, zero_points)
        else:
            if xp.current_token(p).kind != MLIRTokenKind.L_BRACE:
                p.raise_error(
                    f"per-axis quantization (axis {axis}) expects '{{scale[:zero_point],...}}'"
                )
            p.parse_comma_separated_list(
                p.Delimiter.BRACES,
                lambda: self._parse_param(expressed_name, lo, hi, scales, zero_points),
            )
        p.parse_punctuation(">")
        return (
            IntAttr(width),
            IntAttr(flags),
            expressed,
            QuantParamsAttr((tuple(scales), tuple(zero_points))),
            IntAttr(axis),
            IntAttr(lo),
            IntAttr(hi),
        )

    def _parse_storage(self) -> tuple[int, int, int, int]:
        """(width, spelling flags as in `signed_attr`, storage min, storage max)."""
        p = self.p
        token = xp.current_token(p)
        match = (
            _STORAGE_RE.fullmatch(token.text) if token.kind == MLIRTokenKind.BARE_IDENT else None
        )
        if match is None:
            p.raise_error("illegal storage type prefix", token.span)
        xp.consume_token(p, MLIRTokenKind.BARE_IDENT)
        assert match is not None
        prefix = match.group(1)
        signed = prefix in ("i", "si")
        flags = int(signed) | (EXPLICIT_SIGNEDNESS if len(prefix) == 2 else 0)
        width = int(match.group(2))
        self._error(storage_width_error(width), token.span.start, token.span.end)
        lo, hi = numerics.storage_range(width, signed)
        if p.parse_optional_punctuation("<") is not None:
            start = p.pos
            lo = p.parse_integer(allow_boolean=False)
            p.parse_punctuation(":")
            hi = p.parse_integer(allow_boolean=False)
            p.parse_punctuation(">")
            self._error(storage_range_error(width, signed, lo, hi), start, p.pos)
        return width, flags, lo, hi

    def _parse_param(
        self, expressed: str, lo: int, hi: int, scales: list[float], zero_points: list[int]
    ) -> None:
        p = self.p
        start = p.pos
        scale = self._parse_scale()
        self._error(scale_error(scale, expressed), start, p.pos)
        zero_point = 0
        if p.parse_optional_punctuation(":") is not None:
            start = p.pos
            negative = p.parse_optional_punctuation("-") is not None
            token = xp.current_token(p)
            if token.kind != MLIRTokenKind.INTEGER_LIT or token.text.lower().startswith("0x"):
                p.raise_error("expected integer value")
            xp.consume_token(p)
            zero_point = -int(token.text) if negative else int(token.text)
        # An omitted zero point is 0, which a narrow range may exclude too.
        self._error(zero_point_error(zero_point, lo, hi), start, p.pos)
        scales.append(scale)
        zero_points.append(zero_point)

    def _parse_scale(self) -> float:
        """An MLIR float literal: decimal with a `.`, or the f64 bits in hex."""
        p = self.p
        negative = p.parse_optional_punctuation("-") is not None
        token = xp.current_token(p)
        if token.kind == MLIRTokenKind.FLOAT_LIT:
            value = float(token.text)
        elif token.kind == MLIRTokenKind.INTEGER_LIT and token.text.lower().startswith("0x"):
            if negative:
                p.raise_error("hexadecimal float literal should not have a leading minus")
            value = double_from_bits(int(token.text, 16))
        elif token.kind == MLIRTokenKind.INTEGER_LIT:
            p.raise_error("unexpected decimal integer literal for a floating point value")
        else:
            p.raise_error("expected floating point literal")
        xp.consume_token(p)
        return -value if negative else value


# --------------------------------------------------------------------------
# Cast ops
# --------------------------------------------------------------------------


def element_type(t: Attribute) -> Attribute:
    """Element type of a container (tensor, memref, vector), or `t` itself for scalars."""
    return t.get_element_type() if isinstance(t, ContainerType) else t


def _shape(t: Attribute) -> tuple[int, ...] | None:
    if isinstance(t, ShapedType) and not isinstance(t, UnrankedTensorType):
        return tuple(t.get_shape())
    return None


def _verify_per_axis_container(q: UniformQuantizedType, container: Attribute) -> None:
    if not q.is_per_axis:
        return
    if not isinstance(container, TensorType | UnrankedTensorType):
        raise VerifyException("scalar types may not use per-axis quantization")
    if (message := shaped_type_error(_shape(container), q)) is not None:
        raise VerifyException(message)


def _verify_same_shape(op: IRDLOperation, a: Attribute, b: Attribute) -> None:
    a_shaped, b_shaped = isinstance(a, ContainerType), isinstance(b, ContainerType)
    if a_shaped != b_shaped or (a_shaped and (type(a) is not type(b) or _shape(a) != _shape(b))):
        raise VerifyException(f"'{op.name}' requires the same shape for input and result")


class _CastOp(IRDLOperation):
    input = operand_def()
    result = result_def()
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, value, result_type: Attribute):
        super().__init__(operands=[value], result_types=[result_type])


def _verify_quantization(
    op: IRDLOperation, quantized: Attribute, real: Attribute, container: Attribute
) -> None:
    q = element_type(quantized)
    f = element_type(real)
    if not isinstance(q, UniformQuantizedType):
        raise VerifyException(f"'{op.name}' expects a quantized type, got {quantized}")
    if not isinstance(f, AnyFloat):
        raise VerifyException(f"'{op.name}' expects a floating-point type, got {real}")
    if q.expressed_type != f:
        raise VerifyException("expressed type in quantized type expected to match float type")
    _verify_per_axis_container(q, container)


@irdl_op_definition
class QuantizeCastOp(_CastOp):
    """`quant.qcast`: quantize a float value (scalar or tensor)."""

    name = "quant.qcast"

    def verify_(self) -> None:
        _verify_same_shape(self, self.input.type, self.result.type)
        _verify_quantization(self, self.result.type, self.input.type, self.input.type)


@irdl_op_definition
class DequantizeCastOp(_CastOp):
    """`quant.dcast`: dequantize a quantized value to its expressed type."""

    name = "quant.dcast"

    def verify_(self) -> None:
        _verify_same_shape(self, self.input.type, self.result.type)
        _verify_quantization(self, self.input.type, self.result.type, self.input.type)


@irdl_op_definition
class StorageCastOp(_CastOp):
    """`quant.scast`: reinterpret between a quantized type and its storage integers."""

    name = "quant.scast"

    def verify_(self) -> None:
        _verify_same_shape(self, self.input.type, self.result.type)
        a, b = element_type(self.input.type), element_type(self.result.type)
        if isinstance(a, UniformQuantizedType) and isinstance(b, IntegerType):
            q, i = a, b
        elif isinstance(b, UniformQuantizedType) and isinstance(a, IntegerType):
            q, i = b, a
        else:
            raise VerifyException(
                f"'{self.name}' casts between a quantized type and an integer type, "
                f"got {self.input.type} to {self.result.type}"
            )
        if q.storage_type != i:
            raise VerifyException("storage type in quantized type expected to match integer type")
        _verify_per_axis_container(q, self.input.type)


Quant = Dialect(
    "quant",
    [QuantizeCastOp, DequantizeCastOp, StorageCastOp],
    [UniformQuantizedType, QuantParamsAttr],
)
