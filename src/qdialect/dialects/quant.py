"""The `quant` dialect: MLIR-compatible quantized types and the cast ops.

Textual forms are byte-identical to upstream MLIR's printer:

    !quant.uniform<i8:f32, 1.000000e-02:50>                 per-tensor
    !quant.uniform<i8<-127:127>:f32, 1.000000e-02>          narrow storage range
    !quant.uniform<u8:f32:1, {2.000000e-01:20,1.000000e-01}>  per-axis (axis 1)
    !quant.uniform<i8:f32:{0:1, 1:2}, {{2.000000e+00:10, 3.000000e+00}, ...}>
                                                            sub-channel (blockwise)
    !quant.any<i8<-8:7>:f32>                                storage (+ expressed) only
    !quant.calibrated<f32<-0.998:1.232100e+00>>             calibrated real range
    !quant.uniform<ui8:f32, 1.000000e+00>                   builtin `ui8`/`si8` storage
    !quant.uniform<f8E4M3FN:f32, 5.000000e-01>              float storage (f8E5M2, f8E4M3FN,
                                                            f4E2M1FN)

Validity follows MLIR's rules plus the StableHLO spec's where MLIR has none (per-axis
and sub-channel types are checked against the tensor they sit in); a zero point outside
the storage range is accepted, as MLIR accepts it, and rejected by StableHLO's ops, whose
spec forbids it: see docs/quant-types.md.

One Python class covers per-tensor, per-axis and sub-channel parameters
(MLIR's three C++ classes print under the same `!quant.uniform` mnemonic). Code
that needs parameters as arrays calls `broadcast_params` / `expand_params`, the
places where the granularity is interpreted. A sub-channel type is neither
per-tensor nor per-axis (`is_sub_channel`); its `scale`/`zero_point` accessors
refuse and its `axis` is None, so code written for the other two cannot misread it.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ContainerType,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatData,
    IntAttr,
    IntegerType,
    NoneAttr,
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
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, NoMemoryEffect
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from qdialect import numerics
from qdialect.ir import xdsl_private as xp
from qdialect.ir.errors import add_follow_up
from qdialect.ir.float_format import FLOAT_FORMATS, double_from_bits, format_mlir_double

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

FLOAT_STORAGE_TYPES: dict[str, type[Attribute]] = {
    "f8E5M2": Float8E5M2Type,
    "f8E4M3FN": Float8E4M3FNType,
    "f4E2M1FN": Float4E2M1FNType,
}
"""The float types MLIR's quant dialect stores quantized values in (the types that
implement its storage-type interface). A float storage type is signed, as wide as the
format, and its default storage range is +-(the largest finite value, as an integer)."""


def float_storage_name(storage: Attribute) -> str | None:
    """`f8E4M3FN` for a float storage type attribute, None for NoneAttr (integer storage)."""
    if isinstance(storage, NoneAttr):
        return None
    name = str(storage)
    assert name in FLOAT_STORAGE_TYPES, f"not a float storage type: {name}"
    return name


def default_storage_range(
    bits: int, signed: bool, float_name: str | None = None
) -> tuple[int, int]:
    """The storage range a type has when it writes none: the integer type's full range, or
    +-the largest finite value of a float storage type."""
    if float_name is not None:
        largest = FLOAT_FORMATS[float_name].max_finite
        assert largest is not None
        return -int(largest), int(largest)
    return numerics.storage_range(bits, signed)


EXPLICIT_SIGNEDNESS = 2
"""Bit of `signed_attr` set when the storage was written as a builtin signed/unsigned
integer type (`si8`, `ui8`) rather than the quant keyword (`i8`, `u8`); MLIR keeps the
two apart (different storage types) and prints each as written."""


def storage_prefix(flags: int) -> str:
    """`i`, `u`, `si` or `ui`: the storage spelling that `signed_attr` records."""
    if flags & EXPLICIT_SIGNEDNESS:
        return "si" if flags & 1 else "ui"
    return "i" if flags & 1 else "u"


MAX_INTEGER_WIDTH = (1 << 24) - 1
"""Widest integer type MLIR's parser accepts (`IntegerType::kMaxWidth`)."""


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


def storage_range_error(
    bits: int, signed: bool, lo: int, hi: int, float_name: str | None = None
) -> str | None:
    full_lo, full_hi = default_storage_range(bits, signed, float_name)
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
        # Upstream MLIR's and StableHLO's current words (their parsers'), the scale as
        # LLVM's raw_ostream writes a double (`INF`, `nan`). Upstream lets a NaN through.
        shown = ("-INF" if scale < 0 else "INF") if math.isinf(scale) else f"{scale:e}"
        return f"scale {shown} out of expressed type range [{smallest:e}, {largest:e}]"
    return None


_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def zero_point_error(zero_point: int, lo: int, hi: int) -> str | None:
    """The StableHLO spec's rule `storage_min <= zero_point <= storage_max`, which MLIR's
    quant types do not have: StableHLO's ops check it (`stablehlo_type_constraints`)."""
    if not lo <= zero_point <= hi:
        return f"zero point {zero_point} out of storage range [{lo}, {hi}]"
    return None


def axis_error(axis: int) -> str | None:
    if axis < 0:
        return f"illegal quantized dimension: {axis}"
    return None


def block_size_error(size: int) -> str | None:
    if size <= 0:
        return f"illegal block size: {size}"
    return None


def sub_channel_container_error(shape: Sequence[int] | None, q: UniformQuantizedType) -> str | None:
    """Upstream's checks of a sub-channel type against its tensor (MLIR's wording).

    Each quantized dimension must exist and be a whole number of blocks; every
    dimension must be non-empty; the scales tensor has the tensor's rank and, along
    each dimension, one entry per block (one entry for an unlisted dimension).
    Dynamic dimensions are not checked.
    """
    if shape is None:
        return "tensor containing the sub-channel quantized type must be ranked"
    expected = [1] * len(shape)
    for dim, block in q.block_sizes:
        if dim >= len(shape):
            return f"quantized dimension {dim} must be less than tensor rank {len(shape)}"
        size = shape[dim]
        if size >= 0 and size % block != 0:
            return (
                f"tensor dimension size {size} at axis {dim} must be divisible by the "
                f"corresponding block size {block}"
            )
        expected[dim] = size // block if size >= 0 else -1
    if 0 in shape:
        return "tensor dimension size of zero is not allowed with sub-channel quantization"
    scales_shape = q.scales_shape
    if len(scales_shape) != len(shape):
        return f"Rank of scales {len(scales_shape)} must match the rank of the tensor {len(shape)}"
    for dim, (want, have) in enumerate(zip(expected, scales_shape, strict=True)):
        if want >= 0 and want != have:
            return (
                f"dimension size {have} of scales tensor at axis {dim} should match "
                f"(tensor dimension at axis / block sizes at axis) = {want}"
            )
    return None


def shaped_type_error(shape: Sequence[int] | None, element: Attribute) -> str | None:
    """Check a per-axis element type against the shape of its container.

    `shape` None means unranked. Dynamic dimensions (-1) are not checked.
    """
    if isinstance(element, UniformQuantizedType) and element.is_sub_channel:
        return sub_channel_container_error(shape, element)
    if not isinstance(element, UniformQuantizedType) or not element.is_per_axis:
        return None
    axis = element.quantized_dimension
    if shape is None:
        return None
    # Upstream's words first (its lit tests match on them), then the numbers.
    if axis >= len(shape):
        return (
            f"quantized dimension must be less than tensor rank "
            f"(dimension {axis}, rank {len(shape)})"
        )
    size = shape[axis]
    if size >= 0 and size != len(element.scales):
        return (
            f"quantized dimension size does not match number of scales "
            f"(dimension {axis} has size {size}, the type has {len(element.scales)} scales)"
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


@irdl_attr_definition
class QuantBlocksAttr(Data[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]]):
    """Sub-channel layout: ((dimension, block size), ...) as written, and the scales'
    shape. Empty for per-tensor and per-axis types; printed only through the type."""

    name = "quant.blocks"

    @classmethod
    def parse_parameter(
        cls, parser: AttrParser
    ) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
        parser.raise_error("quant.blocks is internal to !quant.uniform")

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(repr(self.data))


_NO_BLOCKS = QuantBlocksAttr(((), ()))


def _float_storage_attr(width: int, name: str | None) -> Attribute:
    """The `float_storage` parameter for a constructor's `float_storage` name."""
    if name is None:
        return NoneAttr()
    if name not in FLOAT_STORAGE_TYPES:
        raise ValueError(f"{name} is not a float storage type ({', '.join(FLOAT_STORAGE_TYPES)})")
    if FLOAT_FORMATS[name].width != width:
        raise ValueError(f"{name} is {FLOAT_FORMATS[name].width} bits wide, not {width}")
    return FLOAT_STORAGE_TYPES[name]()


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
    """-1 for per-tensor quantization, -2 for sub-channel, else the quantized axis."""
    storage_min_attr: IntAttr
    storage_max_attr: IntAttr
    blocks: QuantBlocksAttr
    """Sub-channel block sizes and scales shape (empty otherwise)."""
    float_storage: Attribute
    """NoneAttr for integer storage, else the float storage type (`f8E4M3FN`, ...);
    `storage_width_attr` then holds its width and `signed_attr` 1."""

    PER_TENSOR: ClassVar[int] = -1
    SUB_CHANNEL: ClassVar[int] = -2

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
        float_storage: str | None = None,
    ) -> UniformQuantizedType:
        """Per-tensor type, e.g. `get(8, Float32Type(), 0.01, 50)`; `float_storage`
        (`f8E4M3FN`, ...) stores values in that float type of `storage_width` bits."""
        return UniformQuantizedType._build(
            storage_width,
            signed,
            expressed_type,
            (scale,),
            (zero_point,),
            -1,
            storage_min,
            storage_max,
            float_storage=_float_storage_attr(storage_width, float_storage),
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
        float_storage: str | None = None,
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
            float_storage=_float_storage_attr(storage_width, float_storage),
        )

    @staticmethod
    def get_sub_channel(
        storage_width: int,
        expressed_type: Attribute,
        scales: npt.ArrayLike,
        zero_points: npt.ArrayLike | None,
        block_sizes: Sequence[tuple[int, int]],
        *,
        signed: bool = True,
        storage_min: int | None = None,
        storage_max: int | None = None,
        float_storage: str | None = None,
    ) -> UniformQuantizedType:
        """Sub-channel type: `scales` is an array with one entry per block (the
        tensor's rank), `block_sizes` the (dimension, block size) pairs; `zero_points`
        None means all zero."""
        s = np.asarray(scales, dtype=np.float64)
        z = np.zeros(s.shape, np.int64) if zero_points is None else np.asarray(zero_points)
        if z.shape != s.shape:
            raise ValueError(f"zero points of shape {z.shape} for scales of shape {s.shape}")
        return UniformQuantizedType._build(
            storage_width,
            signed,
            expressed_type,
            tuple(s.ravel().tolist()),
            tuple(int(v) for v in z.ravel()),
            UniformQuantizedType.SUB_CHANNEL,
            storage_min,
            storage_max,
            (tuple((int(d), int(b)) for d, b in block_sizes), tuple(s.shape)),
            _float_storage_attr(storage_width, float_storage),
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
        blocks: tuple[tuple[tuple[int, int], ...], tuple[int, ...]] = ((), ()),
        float_storage: Attribute | None = None,
    ) -> UniformQuantizedType:
        flags = int(signed)  # a bool, or the spelling flags of an existing type
        signed = bool(flags & 1)
        float_storage = NoneAttr() if float_storage is None else float_storage
        float_name = float_storage_name(float_storage)
        full_lo, full_hi = default_storage_range(width, signed, float_name) if width > 0 else (0, 0)
        return UniformQuantizedType(
            IntAttr(width),
            IntAttr(flags),
            expressed,
            QuantParamsAttr((tuple(float(s) for s in scales), tuple(int(z) for z in zero_points))),
            IntAttr(axis),
            IntAttr(full_lo if lo is None else lo),
            IntAttr(full_hi if hi is None else hi),
            QuantBlocksAttr(blocks) if blocks != ((), ()) else _NO_BLOCKS,
            float_storage,
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
    def float_storage_name(self) -> str | None:
        """`f8E4M3FN` etc. when the values are stored in a float type, else None."""
        return float_storage_name(self.float_storage)

    @property
    def storage_type(self) -> Attribute:
        """Type of the stored values (MLIR's storage type): signless for `iN`/`uN`, the
        builtin `siN`/`uiN` type when written so, or the float storage type."""
        if not isinstance(self.float_storage, NoneAttr):
            return self.float_storage
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
        full = default_storage_range(self.storage_width, self.is_signed, self.float_storage_name)
        return (self.storage_min, self.storage_max) != full

    @property
    def is_per_axis(self) -> bool:
        return self.quantized_dimension_attr.data >= 0

    @property
    def is_sub_channel(self) -> bool:
        """Blockwise parameters (`!quant.uniform<i8:f32:{0:1, 1:2}, {{...}}>`)."""
        return self.quantized_dimension_attr.data == self.SUB_CHANNEL and bool(self.blocks.data[1])

    @property
    def block_sizes(self) -> tuple[tuple[int, int], ...]:
        """(dimension, block size) pairs of a sub-channel type, as written."""
        return self.blocks.data[0]

    @property
    def scales_shape(self) -> tuple[int, ...]:
        """Shape of a sub-channel type's scales (and zero points) tensor."""
        return self.blocks.data[1]

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
        """The scale of a per-tensor type; raises for per-axis and sub-channel types."""
        if self.quantized_dimension_attr.data != self.PER_TENSOR:
            raise ValueError("per-axis quantized type has no single scale; use .scales")
        return self.scales[0]

    @property
    def zero_point(self) -> int:
        """The zero point of a per-tensor type; raises for per-axis and sub-channel types."""
        if self.quantized_dimension_attr.data != self.PER_TENSOR:
            raise ValueError("per-axis quantized type has no single zero point")
        return self.zero_points[0]

    def broadcast_params(self, rank: int) -> tuple[np.ndarray, np.ndarray]:
        """(scales as f64, zero points as i64), shaped to broadcast against a rank-`rank` tensor.

        Sub-channel parameters depend on the tensor's shape: use `expand_params`.
        """
        if self.is_sub_channel:
            raise ValueError("sub-channel parameters need the tensor shape; use expand_params")
        return (
            numerics.axis_broadcast(np.asarray(self.scales, np.float64), rank, self.axis),
            numerics.axis_broadcast(np.asarray(self.zero_points, np.int64), rank, self.axis),
        )

    def expand_params(self, shape: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(scales as f64, zero points as i64) broadcastable against a tensor of `shape`,
        for every granularity (sub-channel blocks are repeated to full size)."""
        if not self.is_sub_channel:
            return self.broadcast_params(len(shape))
        return (
            numerics.block_broadcast(np.asarray(self.scales, np.float64), self.scales_shape, shape),
            numerics.block_broadcast(
                np.asarray(self.zero_points, np.int64), self.scales_shape, shape
            ),
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
            float_storage=self.float_storage,
        )

    # ---- verification -----------------------------------------------------

    def verify(self) -> None:
        width = self.storage_width
        for message in self._errors(width):
            if message is not None:
                raise VerifyException(message)

    def _errors(self, width: int):
        yield storage_width_error(width)
        if not isinstance(self.float_storage, NoneAttr) and (
            str(self.float_storage) not in FLOAT_STORAGE_TYPES
        ):
            yield (
                f"storage type {self.float_storage} is not a float storage type "
                f"({', '.join(FLOAT_STORAGE_TYPES)})"
            )
            return
        float_name = self.float_storage_name
        if float_name is not None and (
            FLOAT_FORMATS[float_name].width != width or not self.is_signed
        ):
            bits = FLOAT_FORMATS[float_name].width
            yield f"float storage type {float_name} is signed and {bits} bits wide, not {width}"
        yield storage_range_error(
            width, self.is_signed, self.storage_min, self.storage_max, float_name
        )
        name = expressed_type_name(self.expressed_type)
        if name is None:
            yield f"expressed type must be f16, bf16, f32 or f64, got {self.expressed_type}"
            return
        scales, zero_points = self.params.data
        if len(scales) != len(zero_points) or not scales:
            yield (f"illegal number of scales and zero points: {len(scales)}, {len(zero_points)}")
        dimension = self.quantized_dimension_attr.data
        if dimension == self.PER_TENSOR and len(scales) != 1:
            yield "per-tensor quantized type must have exactly one scale"
        if self.is_sub_channel:
            yield from self._sub_channel_errors(len(scales))
        elif self.blocks.data != ((), ()):
            yield "only a sub-channel quantized type has block sizes"
        elif dimension != self.PER_TENSOR:
            yield axis_error(dimension)
        for scale in scales:
            yield scale_error(scale, name)
        for zp in zero_points:
            if not _INT64_MIN <= zp <= _INT64_MAX:
                yield f"zero point {zp} does not fit in 64 bits"

    def _sub_channel_errors(self, count: int):
        seen: set[int] = set()
        for dim, block in self.block_sizes:
            yield axis_error(dim)
            yield block_size_error(block)
            if dim in seen:
                yield f"duplicate quantized dimension: {dim}"
            seen.add(dim)
        shape = self.scales_shape
        if not shape or math.prod(shape) != count:
            yield f"sub-channel scales of shape {list(shape)} do not hold {count} values"

    # ---- text -------------------------------------------------------------

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(_body_text(self))

    def _body_text(self) -> str:
        text = f"<{self._storage_text()}:{self.expressed_type_name}"
        if self.is_sub_channel:
            blocks = ", ".join(f"{d}:{b}" for d, b in self.block_sizes)
            params = [_param_text(s, z) for s, z in zip(*self.params.data, strict=True)]
            return text + f":{{{blocks}}}, {_nested_text(params, self.scales_shape)}>"
        if self.is_per_axis:
            items = ",".join(_param_text(s, z) for s, z in zip(*self.params.data, strict=True))
            return text + f":{self.quantized_dimension}, {{{items}}}>"
        return text + f", {_param_text(self.scale, self.zero_point)}>"

    def _storage_text(self) -> str:
        text = (
            self.float_storage_name
            or f"{storage_prefix(self.signed_attr.data)}{self.storage_width}"
        )
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
        params = _QuantTypeParser(parser).parse_uniform()
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


def _nested_text(items: Sequence[str], shape: Sequence[int]) -> str:
    """Row-major `items` as MLIR prints a sub-channel parameter tensor: `{{a, b}, {c, d}}`."""
    if len(shape) == 1:
        return "{" + ", ".join(items) + "}"
    step = len(items) // shape[0]
    rows = [_nested_text(items[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "{" + ", ".join(rows) + "}"


class _QuantTypeParser:
    """Parses the bodies of the quant types, reporting each error at its token in
    MLIR's words (`expected integer value`, `illegal storage type prefix`, ...).

    It peeks at tokens through xDSL's `_current_token`/`_consume_token`: the
    public API has no way to look at a literal's kind before parsing it, and the
    exact MLIR diagnostics need that. xDSL is pinned, so this is stable.
    """

    def __init__(self, parser: AttrParser):
        self.p = parser

    def _error(self, message: str | None, start: int, end: int) -> None:
        if message is not None:
            self.p.raise_error(message, start, end)

    def _expect(self, punctuation: str) -> None:
        if self.p.parse_optional_punctuation(punctuation) is None:  # type: ignore[arg-type]
            self.p.raise_error(f"expected '{punctuation}'")

    def _at(self, kind: MLIRTokenKind) -> bool:
        return xp.current_token(self.p).kind == kind

    def _parse_int(self) -> int:
        """A decimal integer, optionally negative (MLIR's `parseInteger`)."""
        p = self.p
        negative = p.parse_optional_punctuation("-") is not None
        token = xp.current_token(p)
        if token.kind != MLIRTokenKind.INTEGER_LIT or token.text.lower().startswith("0x"):
            p.raise_error("expected integer value")
        xp.consume_token(p)
        value = -int(token.text) if negative else int(token.text)
        if not _INT64_MIN <= value <= _INT64_MAX:  # MLIR parses into an int64_t
            p.raise_error("integer value too large", token.span)
        return value

    # ---- !quant.uniform -----------------------------------------------------

    def parse_uniform(self) -> Sequence[Attribute]:
        p = self.p
        self._expect("<")
        width, flags, lo, hi, float_storage = self._parse_storage()
        self._expect(":")
        expressed_name, expressed = self._parse_expressed()
        axis = UniformQuantizedType.PER_TENSOR
        blocks: list[tuple[int, int]] = []
        if p.parse_optional_punctuation(":") is not None:
            if self._at(MLIRTokenKind.L_BRACE):
                axis = UniformQuantizedType.SUB_CHANNEL
                blocks = self._parse_block_sizes()
            else:
                start = p.pos
                axis = self._parse_int()
                self._error(axis_error(axis), start, p.pos)
        self._expect(",")
        scales: list[float] = []
        zero_points: list[int] = []
        scales_shape: tuple[int, ...] = ()
        if axis == UniformQuantizedType.PER_TENSOR:
            self._parse_param(expressed_name, lo, hi, scales, zero_points)
        elif axis == UniformQuantizedType.SUB_CHANNEL:
            scales_shape = self._parse_param_tensor(expressed_name, lo, hi, scales, zero_points)
        else:
            if not self._at(MLIRTokenKind.L_BRACE):
                p.raise_error(
                    f"per-axis quantization (axis {axis}) expects '{{scale[:zero_point],...}}'"
                )
            p.parse_comma_separated_list(
                p.Delimiter.BRACES,
                lambda: self._parse_param(expressed_name, lo, hi, scales, zero_points),
            )
        self._expect(">")
        return (
            IntAttr(width),
            IntAttr(flags),
            expressed,
            QuantParamsAttr((tuple(scales), tuple(zero_points))),
            IntAttr(axis),
            IntAttr(lo),
            IntAttr(hi),
            QuantBlocksAttr((tuple(blocks), scales_shape))
            if blocks or scales_shape
            else _NO_BLOCKS,
            float_storage,
        )

    def _parse_expressed(self) -> tuple[str, Attribute]:
        p = self.p
        start = p.pos
        token = xp.current_token(p)
        expressed = p.parse_optional_type()
        if expressed is None:
            if token.kind == MLIRTokenKind.BARE_IDENT:
                p.raise_error("expected non-function type", token.span)
            p.raise_error("expected type", token.span)
        name = expressed_type_name(expressed)
        if name is None:
            self._error(
                f"expressed type must be f16, bf16, f32 or f64, got {expressed}", start, p.pos
            )
        assert name is not None
        return name, expressed

    def _parse_block_sizes(self) -> list[tuple[int, int]]:
        """`{dim:block, ...}` (possibly empty): the sub-channel block sizes."""
        p = self.p
        self._expect("{")
        blocks: list[tuple[int, int]] = []
        if p.parse_optional_punctuation("}") is not None:
            return blocks
        while True:
            start = p.pos
            dim = self._parse_int()
            self._error(axis_error(dim), start, p.pos)
            self._expect(":")
            start = p.pos
            block = self._parse_int()
            self._error(block_size_error(block), start, p.pos)
            if any(d == dim for d, _ in blocks):
                self._error(f"duplicate quantized dimension: {dim}", start, p.pos)
            blocks.append((dim, block))
            if p.parse_optional_punctuation(",") is None:
                break
        self._expect("}")
        return blocks

    def _parse_param_tensor(
        self, expressed: str, lo: int, hi: int, scales: list[float], zero_points: list[int]
    ) -> tuple[int, ...]:
        """A nested `{{s:z, ...}, ...}` literal of per-block parameters; returns its shape."""
        p = self.p
        start = p.pos
        self._expect("{")
        if not self._at(MLIRTokenKind.L_BRACE):
            count = 0
            while True:
                self._parse_param(expressed, lo, hi, scales, zero_points)
                count += 1
                if p.parse_optional_punctuation(",") is None:
                    break
            self._expect("}")
            return (count,)
        shapes: list[tuple[int, ...]] = []
        while True:
            if not self._at(MLIRTokenKind.L_BRACE):
                p.raise_error("ranks are not consistent between elements", start, p.pos)
            shapes.append(self._parse_param_tensor(expressed, lo, hi, scales, zero_points))
            if shapes[-1] != shapes[0]:
                p.raise_error("ranks are not consistent between elements", start, p.pos)
            if p.parse_optional_punctuation(",") is None:
                break
        self._expect("}")
        return (len(shapes), *shapes[0])

    def _parse_storage(self) -> tuple[int, int, int, int, Attribute]:
        """(width, spelling flags as in `signed_attr`, storage min, storage max, float
        storage type or NoneAttr)."""
        p = self.p
        token = xp.current_token(p)
        bare = token.kind == MLIRTokenKind.BARE_IDENT
        match = _STORAGE_RE.fullmatch(token.text) if bare else None
        float_storage: Attribute = NoneAttr()
        if bare and token.text in FLOAT_STORAGE_TYPES:
            float_storage = FLOAT_STORAGE_TYPES[token.text]()
            width, signed, flags = FLOAT_FORMATS[token.text].width, True, 1
        elif match is None:
            message = "illegal storage type prefix"
            if bare and token.text in FLOAT_FORMATS:
                message += (
                    f": {token.text} is not a storage type (integers, "
                    f"{', '.join(FLOAT_STORAGE_TYPES)})"
                )
            p.raise_error(message, token.span)
        else:
            prefix = match.group(1)
            signed = prefix in ("i", "si")
            flags = int(signed) | (EXPLICIT_SIGNEDNESS if len(prefix) == 2 else 0)
            width = int(match.group(2))
            if width > MAX_INTEGER_WIDTH:
                p.raise_error("invalid integer width", token.span)
            self._error(storage_width_error(width), token.span.start, token.span.end)
        xp.consume_token(p, MLIRTokenKind.BARE_IDENT)
        float_name = float_storage_name(float_storage)
        lo, hi = default_storage_range(width, signed, float_name)
        if p.parse_optional_punctuation("<") is not None:
            start = p.pos
            lo = self._parse_int()
            self._expect(":")
            hi = self._parse_int()
            self._expect(">")
            self._error(storage_range_error(width, signed, lo, hi, float_name), start, p.pos)
        return width, flags, lo, hi, float_storage

    def _parse_param(
        self, expressed: str, lo: int, hi: int, scales: list[float], zero_points: list[int]
    ) -> None:
        p = self.p
        start = p.pos
        scale = self._parse_scale()
        self._error(scale_error(scale, expressed), start, p.pos)
        zero_point = 0
        if p.parse_optional_punctuation(":") is not None:
            zero_point = self._parse_int()
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

    # ---- !quant.quantile ------------------------------------------------------

    def parse_quantile(self) -> Sequence[Attribute]:
        """`<STORAGE:QUANTILE, {v, ...}[, <min:max>]>`; the rules are the type's verify()."""
        p = self.p
        self._expect("<")
        storage = p.parse_type()
        self._expect(":")
        quantile = p.parse_type()
        self._expect(",")
        values: list[float] = []
        self._expect("{")
        if p.parse_optional_punctuation("}") is None:
            while True:
                values.append(self._parse_number())
                if p.parse_optional_punctuation(",") is None:
                    break
            self._expect("}")
        lo, hi = _quantile_storage_range(storage) or (0, 0)
        if p.parse_optional_punctuation(",") is not None:
            self._expect("<")
            lo = self._parse_int()
            self._expect(":")
            hi = self._parse_int()
            self._expect(">")
        self._expect(">")
        return (storage, quantile, QuantileLutAttr(tuple(values)), IntAttr(lo), IntAttr(hi))

    def _parse_number(self) -> float:
        """A table entry: a float literal, or a decimal integer (an integer quantile type)."""
        token = xp.current_token(self.p)
        if token.kind == MLIRTokenKind.MINUS:
            xp.consume_token(self.p)
            token = xp.current_token(self.p)
            if token.kind == MLIRTokenKind.INTEGER_LIT:
                if token.text.lower().startswith("0x"):
                    self.p.raise_error("hexadecimal float literal should not have a leading minus")
                xp.consume_token(self.p)
                return -float(int(token.text))
            return -self._parse_scale()
        if token.kind == MLIRTokenKind.INTEGER_LIT and not token.text.lower().startswith("0x"):
            xp.consume_token(self.p)
            return float(int(token.text))
        return self._parse_scale()

    # ---- !quant.any and !quant.calibrated -------------------------------------

    def parse_any(self) -> Sequence[Attribute]:
        p = self.p
        self._expect("<")
        width, flags, lo, hi, float_storage = self._parse_storage()
        expressed: Attribute = NoneAttr()
        if p.parse_optional_punctuation(":") is not None:
            _, expressed = self._parse_expressed()
        self._expect(">")
        return (IntAttr(width), IntAttr(flags), expressed, IntAttr(lo), IntAttr(hi), float_storage)

    def parse_calibrated(self) -> Sequence[Attribute]:
        """MLIR's parseExpressedTypeAndRange: a type that is not a float reads `invalid
        kind of type specified` then `expecting float expressed type`; a malformed range,
        its own error then `calibrated values must be present`."""
        p = self.p
        name = xp.current_token(p).span
        self._expect("<")
        token = xp.current_token(p)
        expressed = p.parse_optional_type()
        if expressed is None:
            p.raise_error("expecting float expressed type", token.span)
        if expressed_type_name(expressed) is None:
            raise add_follow_up(
                ParseError(token.span, "invalid kind of type specified"),
                ParseError(token.span, "expecting float expressed type"),
            )
        try:
            self._expect("<")
            low = self._parse_scale()
            self._expect(":")
            high = self._parse_scale()
            self._expect(">")
        except ParseError as err:
            raise add_follow_up(
                err, ParseError(name, "calibrated values must be present")
            ) from None
        self._expect(">")
        return (expressed, FloatData(low), FloatData(high))


# --------------------------------------------------------------------------
# !quant.any and !quant.calibrated
# --------------------------------------------------------------------------


@irdl_attr_definition
class AnyQuantizedType(ParametrizedAttribute, TypeAttribute):
    """`!quant.any<i8<-8:7>:f32>`: storage (and optionally expressed) type, no parameters.

    A placeholder that quantization tools refine; nothing computes with it.
    """

    name = "quant.any"

    storage_width_attr: IntAttr
    signed_attr: IntAttr
    expressed_type: Attribute
    """A float type, or NoneAttr when omitted."""
    storage_min_attr: IntAttr
    storage_max_attr: IntAttr
    float_storage: Attribute
    """NoneAttr for integer storage, else the float storage type."""

    @staticmethod
    def get(
        storage_width: int,
        expressed_type: Attribute | None = None,
        *,
        signed: bool = True,
        storage_min: int | None = None,
        storage_max: int | None = None,
        float_storage: str | None = None,
    ) -> AnyQuantizedType:
        lo, hi = default_storage_range(storage_width, signed, float_storage)
        return AnyQuantizedType(
            IntAttr(storage_width),
            IntAttr(int(signed)),
            NoneAttr() if expressed_type is None else expressed_type,
            IntAttr(lo if storage_min is None else storage_min),
            IntAttr(hi if storage_max is None else storage_max),
            _float_storage_attr(storage_width, float_storage),
        )

    @property
    def float_storage_name(self) -> str | None:
        return float_storage_name(self.float_storage)

    @property
    def storage_width(self) -> int:
        return self.storage_width_attr.data

    @property
    def is_signed(self) -> bool:
        return bool(self.signed_attr.data & 1)

    @property
    def storage_min(self) -> int:
        return self.storage_min_attr.data

    @property
    def storage_max(self) -> int:
        return self.storage_max_attr.data

    def verify(self) -> None:
        width = self.storage_width
        messages = [storage_width_error(width)]
        if messages[0] is None:
            messages.append(
                storage_range_error(
                    width,
                    self.is_signed,
                    self.storage_min,
                    self.storage_max,
                    self.float_storage_name,
                )
            )
        expressed = self.expressed_type
        if not isinstance(expressed, NoneAttr) and expressed_type_name(expressed) is None:
            messages.append("expressed type must be floating point")
        for message in messages:
            if message is not None:
                raise VerifyException(message)

    def print_parameters(self, printer: Printer) -> None:
        float_name = self.float_storage_name
        text = float_name or f"{storage_prefix(self.signed_attr.data)}{self.storage_width}"
        full = default_storage_range(self.storage_width, self.is_signed, float_name)
        if (self.storage_min, self.storage_max) != full:
            text += f"<{self.storage_min}:{self.storage_max}>"
        if not isinstance(self.expressed_type, NoneAttr):
            text += f":{expressed_type_name(self.expressed_type)}"
        printer.print_string(f"<{text}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _QuantTypeParser(parser).parse_any()


@irdl_attr_definition
class CalibratedQuantizedType(ParametrizedAttribute, TypeAttribute):
    """`!quant.calibrated<f32<-0.998:1.232100e+00>>`: an expressed type with the real
    range [min, max] a calibration observed; no storage, nothing computes with it."""

    name = "quant.calibrated"

    expressed_type: Attribute
    min_attr: FloatData
    max_attr: FloatData

    @staticmethod
    def get(expressed_type: Attribute, low: float, high: float) -> CalibratedQuantizedType:
        return CalibratedQuantizedType(expressed_type, FloatData(low), FloatData(high))

    @property
    def min(self) -> float:
        return self.min_attr.data

    @property
    def max(self) -> float:
        return self.max_attr.data

    def verify(self) -> None:
        if expressed_type_name(self.expressed_type) is None:
            raise VerifyException("expressed type must be floating point")
        if not self.max > self.min:  # NaN bounds are illegal too
            raise VerifyException(f"illegal min and max: ({self.min:e}:{self.max:e})")

    def print_parameters(self, printer: Printer) -> None:
        low, high = format_mlir_double(self.min), format_mlir_double(self.max)
        printer.print_string(f"<{expressed_type_name(self.expressed_type)}<{low}:{high}>>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _QuantTypeParser(parser).parse_calibrated()


# --------------------------------------------------------------------------
# !quant.quantile
# --------------------------------------------------------------------------


@irdl_attr_definition
class QuantileLutAttr(Data[tuple[float, ...]]):
    """The lookup table of a `!quant.quantile` type; printed only through the type."""

    name = "quant.quantile_lut"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[float, ...]:
        parser.raise_error("quant.quantile_lut is internal to !quant.quantile")

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(repr(self.data))


def _quantile_storage_range(storage: Attribute) -> tuple[int, int] | None:
    """Default (min, max) of a quantile storage type: the integer type's range (signless
    counts as signed), or +-the largest finite value of a float storage type."""
    if isinstance(storage, IntegerType):
        bits = storage.width.data
        if not 1 <= bits <= 64:
            return None
        return numerics.storage_range(bits, storage.signedness.data != Signedness.UNSIGNED)
    if str(storage) in FLOAT_STORAGE_TYPES:
        return default_storage_range(0, True, str(storage))
    return None


@irdl_attr_definition
class QuantileType(ParametrizedAttribute, TypeAttribute):
    """`!quant.quantile<ui4:f16, {-1.0, ..., 1.0}[, <0:7>]>`: a storage format whose
    stored value `v` stands for `lut[v - storage_min]` (NF4 and other lookup-table codes).

    Upstream MLIR's storage-format type: it describes how to read stored indices, not a
    quantization scheme, so nothing here computes with it; qdialect parses, verifies and
    prints it as upstream does. The storage is a builtin integer type (any signedness,
    printed as written) or a float storage type; the table's entries are of the quantile
    type (a float or integer type) and there is one per storage value in [min, max].
    """

    name = "quant.quantile"

    storage_type: Attribute
    quantile_type: Attribute
    lut: QuantileLutAttr
    storage_min_attr: IntAttr
    storage_max_attr: IntAttr

    @property
    def storage_min(self) -> int:
        return self.storage_min_attr.data

    @property
    def storage_max(self) -> int:
        return self.storage_max_attr.data

    @property
    def quantiles(self) -> tuple[float, ...]:
        return self.lut.data

    def verify(self) -> None:
        default = _quantile_storage_range(self.storage_type)
        if default is None:
            if isinstance(self.storage_type, AnyFloat):
                raise VerifyException(
                    "storage type must be an integer or float type; the float storage types "
                    f"are {', '.join(FLOAT_STORAGE_TYPES)}, not {self.storage_type}"
                )
            raise VerifyException("storage type must be an integer or float type")
        if not (
            isinstance(self.quantile_type, IntegerType) or isinstance(self.quantile_type, AnyFloat)
        ):
            raise VerifyException("quantile type must be a float or integer type")
        if not self.quantiles:
            raise VerifyException("quantile values must not be empty")
        lo, hi = self.storage_min, self.storage_max
        if lo >= hi:
            raise VerifyException("storage min must be less than storage max")
        if lo < default[0]:
            raise VerifyException(f"illegal storage type minimum: {lo}")
        if hi > default[1]:
            raise VerifyException(f"illegal storage type maximum: {hi}")
        if len(self.quantiles) != hi - lo + 1:
            raise VerifyException(
                f"quantile LUT size ({len(self.quantiles)}) must equal the number of "
                f"representable storage values ({hi - lo + 1})"
            )

    def print_parameters(self, printer: Printer) -> None:
        lut = ",".join(format_mlir_double(v) for v in self.quantiles)
        text = f"<{self.storage_type}:{self.quantile_type}, {{{lut}}}"
        if (self.storage_min, self.storage_max) != _quantile_storage_range(self.storage_type):
            text += f", <{self.storage_min}:{self.storage_max}>"
        printer.print_string(text + ">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _QuantTypeParser(parser).parse_quantile()


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
    if not (q.is_per_axis or q.is_sub_channel):
        return
    if not isinstance(container, TensorType | UnrankedTensorType):
        kind = "sub-channel" if q.is_sub_channel else "per-axis"
        raise VerifyException(f"scalar types may not use {kind} quantization")
    if (message := shaped_type_error(_shape(container), q)) is not None:
        raise VerifyException(message)


def _verify_same_shape(op: IRDLOperation, a: Attribute, b: Attribute) -> None:
    a_shaped, b_shaped = isinstance(a, ContainerType), isinstance(b, ContainerType)
    if a_shaped != b_shaped or (a_shaped and (type(a) is not type(b) or _shape(a) != _shape(b))):
        raise VerifyException(
            "input and result are both scalars or both tensors with matching shape"
        )


class _CastOp(IRDLOperation):
    input = operand_def()
    result = result_def()
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, value, result_type: Attribute):
        super().__init__(operands=[value], result_types=[result_type])


def _is_quantized(t: Attribute) -> bool:
    return isinstance(element_type(t), UniformQuantizedType)


def _is_float(t: Attribute) -> bool:
    return isinstance(element_type(t), AnyFloat)


def _is_signless_integer(t: Attribute) -> bool:
    e = element_type(t)
    return isinstance(e, IntegerType) and e.signedness.data == Signedness.SIGNLESS


def _is_storage(t: Attribute) -> bool:
    """What `quant.scast` takes on its plain side: signless integers, or a float storage type."""
    return _is_signless_integer(t) or str(element_type(t)) in FLOAT_STORAGE_TYPES


def _require(ok: bool, which: str, kind: str) -> None:
    """MLIR's type-constraint message for an operand or result (`operand #0 must be ...`)."""
    if not ok:
        raise VerifyException(f"{which} must be scalar or tensor of {kind}")


def _verify_quantization(quantized: Attribute, real: Attribute, container: Attribute) -> None:
    q = element_type(quantized)
    assert isinstance(q, UniformQuantizedType)
    if q.expressed_type != element_type(real):
        raise VerifyException("expressed type in quantized type expected to match float type")
    _verify_per_axis_container(q, container)


class _QuantizeCastCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldExactRequantize(),)


@irdl_op_definition
class QuantizeCastOp(_CastOp):
    """`quant.qcast`: quantize a float value (scalar or tensor)."""

    name = "quant.qcast"
    traits = traits_def(NoMemoryEffect(), _QuantizeCastCanonicalization())

    def verify_(self) -> None:
        # In upstream's order (operand, result, shape, types) and words.
        _require(_is_float(self.input.type), "operand #0", "floating-point")
        _require(_is_quantized(self.result.type), "result #0", "quantized type")
        _verify_same_shape(self, self.input.type, self.result.type)
        _verify_quantization(self.result.type, self.input.type, self.input.type)


@irdl_op_definition
class DequantizeCastOp(_CastOp):
    """`quant.dcast`: dequantize a quantized value to its expressed type."""

    name = "quant.dcast"

    def verify_(self) -> None:
        _require(_is_quantized(self.input.type), "operand #0", "quantized type")
        _require(_is_float(self.result.type), "result #0", "floating-point")
        _verify_same_shape(self, self.input.type, self.result.type)
        _verify_quantization(self.input.type, self.result.type, self.input.type)


class _StorageCastCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldStorageCastPair(),)


@irdl_op_definition
class StorageCastOp(_CastOp):
    """`quant.scast`: reinterpret between a quantized type and its storage integers."""

    name = "quant.scast"
    traits = traits_def(NoMemoryEffect(), _StorageCastCanonicalization())

    def verify_(self) -> None:
        kind = "signless integer or quantized type"
        a, b = self.input.type, self.result.type
        _require(_is_storage(a) or _is_quantized(a), "operand #0", kind)
        _require(_is_storage(b) or _is_quantized(b), "result #0", kind)
        _verify_same_shape(self, a, b)
        if _is_quantized(a) == _is_quantized(b):
            raise VerifyException(
                "input must be integer and result must be quantized, or vice versa"
            )
        q = element_type(a if _is_quantized(a) else b)
        i = element_type(b if _is_quantized(a) else a)
        assert isinstance(q, UniformQuantizedType)
        if q.storage_type != i:
            raise VerifyException("storage type in quantized type expected to match integer type")
        _verify_per_axis_container(q, a)


class FoldStorageCastPair(RewritePattern):
    """`scast(scast(x : A -> B) : B -> A)` is `x`: reinterpreting there and back is
    nothing (upstream's fold of `quant.scast`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: StorageCastOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if isinstance(inner, StorageCastOp) and inner.input.type == op.result.type:
            rewriter.replace_op(op, [], [inner.input])


class FoldExactRequantize(RewritePattern):
    """`qcast(dcast(x))` with the same type is `x` where the round trip is exact: integer
    storage of at most 16 bits expressed in f32 or f64 (`(q - zp) * s / s` then rounds
    back to `q - zp`). Upstream folds it whatever the types, and also folds
    `dcast(qcast(x))` to `x`, which drops the quantization error: qdialect does neither
    (docs/quant-types.md)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: QuantizeCastOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if not (isinstance(inner, DequantizeCastOp) and inner.input.type == op.result.type):
            return
        q = element_type(op.result.type)
        if (
            isinstance(q, UniformQuantizedType)
            and isinstance(q.float_storage, NoneAttr)
            and q.storage_width_attr.data <= 16
            and expressed_type_name(q.expressed_type) in ("f32", "f64")
        ):
            rewriter.replace_op(op, [], [inner.input])


Quant = Dialect(
    "quant",
    [QuantizeCastOp, DequantizeCastOp, StorageCastOp],
    [
        UniformQuantizedType,
        QuantParamsAttr,
        QuantBlocksAttr,
        AnyQuantizedType,
        CalibratedQuantizedType,
        QuantileType,
        QuantileLutAttr,
    ],
)
