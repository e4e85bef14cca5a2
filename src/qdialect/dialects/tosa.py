"""The TOSA-like dialect: TOSA v1.0 integer ops for quantized inference, upstream's syntax.

Ops print as upstream MLIR's TOSA dialect prints them (operands, then
`name(value)` clauses, then the function type):

    %0 = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
    %1 = tosa.conv2d %x, %w, %b, %izp, %wzp pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32)  : (...) -> ...
    %2 = tosa.rescale %a, %m, %s, %izp, %ozp scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (...) -> ...

(the doubled spaces are upstream's). Zero points, multipliers, shifts and shapes
are operands, as in TOSA v1.0. xDSL's own partial `tosa` dialect is not
registered: its rescale has no verifier and its matmul/mul cannot express
i8 -> i32. Semantics (the interpreter) follow the TOSA specification through
`qdialect.numerics`; docs/tosa.md lists them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, TypeVar

import numpy as np
from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    VarOperandDef,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, HasFolder, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import dense_values, int_list_text, resolve, split_attr_dict
from qdialect.dialects.tosa_constraints import check_declared_types, check_shape_operands
from qdialect.dialects.window import DYNAMIC, window_output_size
from qdialect.ir.constants import constant_array
from qdialect.ir.printer import attribute_text
from qdialect.numerics import MAX_SHIFT, MIN_SHIFT

# --------------------------------------------------------------------------
# Types and attributes
# --------------------------------------------------------------------------


@irdl_attr_definition
class ShapeType(ParametrizedAttribute, TypeAttribute):
    """`!tosa.shape<N>`: a list of N sizes known at compile time (TOSA v1.0 shape operands)."""

    name = "tosa.shape"
    rank: IntAttr

    def __init__(self, rank: int):
        super().__init__(IntAttr(rank))

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return (IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False)),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.rank.data}>")


class RoundingMode(StrEnum):
    SINGLE_ROUND = "SINGLE_ROUND"
    INEXACT_ROUND = "INEXACT_ROUND"
    DOUBLE_ROUND = "DOUBLE_ROUND"
    HALF_EVEN_ROUND = "HALF_EVEN_ROUND"
    """qdialect's extension (not TOSA 1.0): SINGLE_ROUND, except that a product exactly
    halfway between two results goes to the even one, as ONNX Runtime's float rounding
    does; `tosa-validate` accepts it only with the `halfeven` extension."""


@irdl_attr_definition
class RoundingModeAttr(EnumAttribute[RoundingMode]):
    """`#tosa.rounding_mode<DOUBLE_ROUND>`."""

    name = "tosa.rounding_mode"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> RoundingMode:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(RoundingMode)


class NanMode(StrEnum):
    PROPAGATE = "PROPAGATE"
    IGNORE = "IGNORE"


@irdl_attr_definition
class NanModeAttr(EnumAttribute[NanMode]):
    """`#tosa.nan_mode<PROPAGATE>` (integer programs never see a NaN; kept for syntax)."""

    name = "tosa.nan_mode"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> NanMode:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(NanMode)


class ResizeMode(StrEnum):
    NEAREST_NEIGHBOR = "NEAREST_NEIGHBOR"
    BILINEAR = "BILINEAR"


@irdl_attr_definition
class ResizeModeAttr(EnumAttribute[ResizeMode]):
    """`#tosa.resize_mode<BILINEAR>`."""

    name = "tosa.resize_mode"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ResizeMode:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(ResizeMode)


# --------------------------------------------------------------------------
# The shared syntax: operands, `name(value)` clauses, function type
# --------------------------------------------------------------------------

# Clause kinds: how a property's value is written inside `name(...)`.
ARRAY, ARRAY32, TYPE, BOOL, INT32, TYPED, ROUNDING, NAN = (
    "array",
    "array32",
    "type",
    "bool",
    "i32",
    "typed",
    "rounding",
    "nan",
)
RESIZE = "resize"


class TosaOp(IRDLOperation):
    """Base of every TOSA op: the clause syntax and helpers."""

    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = ()
    EXTRA_SPACE: ClassVar[bool] = False
    """Upstream's format ends in an optional group (`local_bound(...)`, the last clause, if
    any): when it is absent, upstream still prints its space, before the attribute
    dictionary (`acc_type(i32)  {x = 1} : `, `tosa.cast %x  : `)."""
    # Attribute-dictionary entries upstream may write as a bare keyword (`nan_mode = IGNORE`).
    ENUMS: ClassVar[dict[str, type[EnumAttribute]]] = {
        "nan_mode": NanModeAttr,
        "rounding_mode": RoundingModeAttr,
        "mode": ResizeModeAttr,
    }

    @classmethod
    def parse(cls, parser: Parser):
        operands = []
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            operands.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
        props: dict[str, Attribute] = {}
        kinds = dict(cls.CLAUSES)
        while True:
            start = parser.pos
            name = parser.parse_optional_identifier()
            if name is None:
                break
            if name not in kinds:
                parser.raise_error(f"unknown clause '{name}' for '{cls.name}'", start, parser.pos)
            props[name] = _parse_clause(parser, kinds[name])
        more, attrs = split_attr_dict(cls, _parse_attr_dict(parser, cls.ENUMS))
        props.update(more)
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
        for name, kind in self.CLAUSES:
            value = self.properties.get(name)
            if value is not None and not _is_default(name, kind, value):
                printer.print_string(" ")
                _print_clause(printer, name, kind, value)
        tail = self.CLAUSES[-1][0] if self.CLAUSES else None
        if self.EXTRA_SPACE and (tail is None or self.properties.get(tail) is None):
            printer.print_string(" ")  # where upstream's absent optional group would be
        others = {k: v for k, v in self.attributes.items()}
        if others:
            printer.print_string(" ")
            printer.print_attr_dict(others)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.results])

    # ---- helpers for verifiers and semantics -----------------------------------

    def array(self, name: str) -> tuple[int, ...]:
        return dense_values(self.properties.get(name))

    def flag(self, name: str, default: bool = False) -> bool:
        attr = self.properties.get(name)
        return default if attr is None else bool(attr.value.data)

    def int_prop(self, name: str) -> int:
        return self.properties[name].value.data


TosaOpT = TypeVar("TosaOpT", bound=TosaOp)


class _Canonicalization(HasCanonicalizationPatternsTrait):
    """Canonicalization patterns of one op, looked up by name in
    `qdialect.transforms.canonicalization.tosa` (imported lazily: the patterns
    import this module)."""

    PATTERNS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from qdialect.ir.rewrite import InheritLocation
        from qdialect.transforms.canonicalization import tosa as patterns

        return tuple(InheritLocation(getattr(patterns, name)()) for name in cls.PATTERNS)


class ValuesFolder(HasFolder):
    """A constant op folds to its `values` (read through `qdialect.ir.constants`)."""

    @classmethod
    def fold(cls, op: Operation) -> tuple[Attribute, ...]:
        return (op.properties["values"],)


class RescaleCanonicalization(_Canonicalization):
    PATTERNS = ("DropIdentityRescale", "MergeCentringRescale")


class ClampCanonicalization(_Canonicalization):
    PATTERNS = ("DropFullRangeClamp",)


class ReshapeCanonicalization(_Canonicalization):
    PATTERNS = ("FoldConstReshape",)


class TransposeCanonicalization(_Canonicalization):
    PATTERNS = ("FoldConstTranspose", "FoldTransposeChain", "DropIdentityTranspose")


def _parse_attr_dict(parser: Parser, enums: dict[str, type[EnumAttribute]]) -> dict[str, Attribute]:
    """`{name = value, ...}` where an enum-valued entry may be a bare keyword, as
    upstream writes them (`{nan_mode = IGNORE}`, `{rounding_mode = DOUBLE_ROUND}`)."""
    entries: dict[str, Attribute] = {}
    if parser.parse_optional_punctuation("{") is None:
        return entries
    if parser.parse_optional_punctuation("}") is not None:
        return entries
    while True:
        name = parser.parse_optional_identifier()
        if name is None:
            name = parser.parse_str_literal("attribute name")
        if parser.parse_optional_punctuation("=") is None:
            entries[name] = UnitAttr()
        else:
            start = parser.pos
            keyword = parser.parse_optional_identifier() if name in enums else None
            if keyword is None:
                entries[name] = parser.parse_attribute()
            else:
                enum_cls = enums[name]
                try:
                    entries[name] = enum_cls(enum_cls.enum_type(keyword))
                except ValueError:
                    choices = ", ".join(e.value for e in enum_cls.enum_type)
                    parser.raise_error(
                        f"invalid {name} '{keyword}' (expected one of {choices})", start, parser.pos
                    )
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation("}")
    return entries


def _is_default(name: str, kind: str, value: Attribute) -> bool:
    if kind == NAN:
        return value.data == NanMode.PROPAGATE
    return False


def _parse_clause(parser: Parser, kind: str) -> Attribute:
    if kind == ROUNDING:
        return RoundingModeAttr(RoundingModeAttr.parse_parameter(parser))
    if kind == NAN:
        return NanModeAttr(NanModeAttr.parse_parameter(parser))
    if kind == RESIZE:
        return ResizeModeAttr(ResizeModeAttr.parse_parameter(parser))
    with parser.in_parens():
        if kind in (ARRAY, ARRAY32):
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )
            return DenseArrayBase.from_list(i64 if kind == ARRAY else i32, values)
        if kind == TYPE:
            return parser.parse_type()
        if kind == BOOL:
            return BoolAttr.from_bool(parser.parse_boolean())
        if kind == INT32:
            return IntegerAttr(parser.parse_integer(allow_boolean=False), i32)
        return parser.parse_attribute()  # TYPED: `-100 : i8`, `dense<...> : tensor<...>`


def _print_clause(printer: Printer, name: str, kind: str, value: Attribute) -> None:
    if kind in (ROUNDING, NAN, RESIZE):
        printer.print_string(f"{name}<{value.data.value}>")
        return
    printer.print_string(f"{name}(")
    if kind in (ARRAY, ARRAY32):
        printer.print_string(int_list_text(dense_values(value)))
    elif kind == TYPE:
        printer.print_attribute(value)
    elif kind == BOOL:
        printer.print_string("true" if value.value.data else "false")
    elif kind == INT32:
        printer.print_string(str(value.value.data))
    else:
        printer.print_attribute(value)
    printer.print_string(")")


def shape_of(t: Attribute) -> tuple[int, ...] | None:
    """A ranked tensor's shape with every dynamic size as `DYNAMIC` (-1), whichever
    sentinel the type was built with; None when unranked."""
    shape = ht.shape_of(t)
    return None if shape is None else tuple(DYNAMIC if d < 0 else d for d in shape)


def shapes_compatible(a: Sequence[int] | None, b: Sequence[int] | None) -> bool:
    if a is None or b is None:
        return True
    return len(a) == len(b) and all(x == y or x < 0 or y < 0 for x, y in zip(a, b, strict=True))


def shape_text(shape: Sequence[int] | None) -> str:
    if shape is None:
        return "*"
    return "x".join("?" if d < 0 else str(d) for d in shape) or "scalar"


def _const_values(value: SSAValue) -> list[int] | None:
    """The integer values of `value` when a constant op defines it, else None."""
    array = constant_array(value)
    return None if array is None else [int(v) for v in array.reshape(-1)]


def _element(t: Attribute) -> Attribute:
    return ht.element_type(t)


def _int_width(t: Attribute) -> int | None:
    e = _element(t)
    return e.width.data if isinstance(e, IntegerType) else None


def _require_rank(op: TosaOp, t: Attribute, rank: int, what: str) -> tuple[int, ...] | None:
    shape = shape_of(t)
    if shape is not None and len(shape) != rank:
        raise VerifyException(f"'{op.name}' {what} must have rank {rank}, got {t}")
    return shape


def _check_zero_point(
    op: TosaOp, zp_value: SSAValue, what: str, width: int | None, unsigned: bool = False
) -> None:
    """TOSA: a zero point may be nonzero only for 8-bit data (or unsigned 16-bit, where it is 0 or 32768)."""
    zp_type = zp_value.type
    if shape_of(zp_type) not in ((1,), None):
        raise VerifyException(f"'{op.name}' {what} must be a one-element tensor, got {zp_type}")
    values = _const_values(zp_value)
    if values is None:
        return
    if len(values) != 1:  # an unranked result type: the constant says how many
        raise VerifyException(f"'{op.name}' {what} must hold one value, got {len(values)}")
    zp = values[0]
    if unsigned and width is not None:
        zp &= (1 << width) - 1  # unsigned zero points are the storage bits zero-extended
    if unsigned and width == 16:
        if zp not in (0, 32768):
            raise VerifyException(
                f"'{op.name}' {what} of unsigned 16-bit data must be 0 or 32768, got {zp}"
            )
    elif width != 8 and zp != 0:
        raise VerifyException(f"'{op.name}' {what} must be 0 for {width}-bit data, got {zp}")


def verify_broadcast(op: TosaOp, ins: Sequence[Attribute], out: Attribute) -> None:
    """Upstream's shape rules: one input must match the result's shape; several must have
    one rank, equal to the result's, and sizes that broadcast (size 1 against any)."""
    shapes = [shape_of(t) for t in ins]
    result = shape_of(out)
    if len(ins) == 1:
        if (
            shapes[0] is not None
            and result is not None
            and not shapes_compatible(shapes[0], result)
        ):
            raise op_error(op, "requires the same shape for all operands and results")
        return
    ranked = [s for s in shapes if s is not None]
    if any(len(s) != len(ranked[0]) for s in ranked):
        raise op_error(op, "operands don't have matching ranks")
    if ranked and result is not None and len(result) != len(ranked[0]):
        raise op_error(op, "result type has different rank than operands")
    for d in range(len(ranked[0]) if ranked else 0):
        sizes = {s[d] for s in ranked if s[d] not in (1, DYNAMIC)}
        if len(sizes) > 1:
            raise op_error(op, "operands don't have broadcast-compatible shapes")
        if result is not None and sizes and result[d] not in (*sizes, DYNAMIC):
            raise op_error(op, "operands don't have broadcast-compatible shapes")


def _broadcast_shape(op: TosaOp, shapes: Sequence[tuple[int, ...] | None]) -> None:
    ranked = [s for s in shapes if s is not None]
    if not ranked:
        return
    rank = len(ranked[0])
    if any(len(s) != rank for s in ranked):
        raise VerifyException(
            f"'{op.name}' operands must have the same rank (TOSA broadcasts only size-1 dimensions)"
        )
    for d in range(rank):
        sizes = {s[d] for s in ranked if s[d] not in (1, -1)}
        if len(sizes) > 1:
            raise VerifyException(
                f"'{op.name}' dimension {d} sizes {sorted(sizes)} do not broadcast"
            )


# --------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------

# Operand constraints: data, weights, zero points, multipliers are tensors; shapes,
# paddings and slice bounds are `!tosa.shape` values.
TENSOR = base(TensorType) | base(UnrankedTensorType)


def _arity_text(names: Sequence[str], found: int) -> str:
    """MLIR's operand-count message, with TOSA's operand names after it."""
    if not names:
        return "requires zero operands"
    if len(names) == 1:
        return f"requires a single operand ({names[0]})"
    return f"expected {len(names)} operands, but found {found} ({', '.join(names)})"


def tosa_op(cls: type[TosaOpT]) -> type[TosaOpT]:
    """`irdl_op_definition`, with upstream's checks first, in its order: the operand
    count (MLIR's words, then the names TOSA gives the operands; IRDL's own message would
    report a definition index), then the declared operand and result types
    (`tosa_constraints`), then the op's verifier."""
    cls = irdl_op_definition(cls)
    checked = cls.verify_
    names = [name for name, _ in cls.get_irdl_definition().operands]
    variadic = any(isinstance(d, VarOperandDef) for _, d in cls.get_irdl_definition().operands)

    def verify_(self: TosaOpT) -> None:
        if not variadic and len(self.operands) != len(names):
            raise VerifyException(f"'{self.name}' op {_arity_text(names, len(self.operands))}")
        check_declared_types(self)
        check_shape_operands(self)
        checked(self)

    cls.verify_ = verify_
    return cls


@tosa_op
class ConstOp(TosaOp):
    """`tosa.const values(dense<...> : T)`."""

    name = "tosa.const"
    values = prop_def()
    output = result_def()
    traits = traits_def(Pure(), ConstantLike(), ValuesFolder())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("values", TYPED),)

    def __init__(self, values: DenseIntOrFPElementsAttr):
        super().__init__(
            operands=[], properties={"values": values}, result_types=[values.get_type()]
        )

    def verify_(self) -> None:
        if isinstance(self.values, DenseIntOrFPElementsAttr):
            vt, out = self.values.get_type(), self.output.type
            if not isinstance(vt, TensorType):
                raise op_error(self, "expected tensors for attr/result type")
            if _element(vt) != _element(out) and not ht.is_quantized(out):
                raise op_error(self, "expected same attr/result element types")
            if shape_of(out) is not None and shape_of(out) != shape_of(vt):
                raise op_error(
                    self, "failed to verify that all of {values, output} have same shape"
                )
        if (
            not isinstance(self.values, DenseIntOrFPElementsAttr)
            or self.values.get_type() != self.output.type
        ):
            raise VerifyException(
                f"'tosa.const' values must be a dense attribute of the result type {self.output.type}"
            )


@tosa_op
class ConstShapeOp(TosaOp):
    """`tosa.const_shape values(dense<[..]> : tensor<Nxindex>) : () -> !tosa.shape<N>`."""

    name = "tosa.const_shape"
    values = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(ShapeType)
    traits = traits_def(Pure(), ConstantLike(), ValuesFolder())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("values", TYPED),)

    @classmethod
    def of(cls, values: Sequence[int]) -> ConstShapeOp:
        """The `tosa.const_shape` holding `values` (how TOSA 1.0 takes shapes and sizes)."""
        ints = [int(v) for v in values]
        attr = DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(ints)]), ints)
        return cls.create(properties={"values": attr}, result_types=[ShapeType(len(ints))])

    def verify_(self) -> None:
        vt = self.values.get_type()
        if not isinstance(vt, TensorType) or not isinstance(vt.get_element_type(), IndexType):
            raise op_error(
                self, "attribute 'values' failed to satisfy constraint: index elements attribute"
            )
        if len(vt.get_shape()) != 1:
            raise op_error(self, "expect elements in attribute values with rank 1")
        n = len(self.values)
        if n != self.output.type.rank.data:
            raise op_error(
                self,
                f"expect number of elements in attribute values ({n}) to be equal to the rank "
                f"({self.output.type.rank.data}) for the result shape type",
            )
        if n != self.output.type.rank.data:
            raise VerifyException(
                f"'tosa.const_shape' has {n} values for !tosa.shape<{self.output.type.rank.data}>"
            )

    def shape(self) -> list[int]:
        return [int(v) for v in np.asarray(self.values.get_values()).reshape(-1)]


def _shape_values(value: SSAValue) -> list[int] | None:
    """The values of a `!tosa.shape` operand when a constant op defines it."""
    return _const_values(value)


class _Elementwise(TosaOp):
    """Elementwise ops: `inputs()` (one or two) share the result's element type and
    broadcast with it."""

    output = result_def()
    traits = traits_def(Pure())

    def inputs(self) -> tuple[SSAValue, ...]:
        """The data operands (all of them; `mul` leaves out its shift)."""
        return tuple(self.operands)

    def verify_(self) -> None:
        ins = [o.type for o in self.inputs()]
        if any(_element(t) != _element(self.output.type) for t in ins) and self.name not in (
            "tosa.mul",
        ):
            raise op_error(self, "requires the same element type for all operands and results")
        verify_broadcast(self, ins, self.output.type)


class _Binary(_Elementwise):
    input1 = operand_def(TENSOR)
    input2 = operand_def(TENSOR)


@tosa_op
class AddOp(_Binary):
    """Elementwise add with wraparound (TOSA: integer overflow is undefined; we wrap)."""

    name = "tosa.add"


@tosa_op
class SubOp(_Binary):
    name = "tosa.sub"


@tosa_op
class MaximumOp(_Binary):
    name = "tosa.maximum"
    nan_mode = opt_prop_def(NanModeAttr)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("nan_mode", NAN),)


@tosa_op
class MinimumOp(_Binary):
    name = "tosa.minimum"
    nan_mode = opt_prop_def(NanModeAttr)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("nan_mode", NAN),)


@tosa_op
class ArithmeticRightShiftOp(_Binary):
    """`a >> b` (arithmetic); with round, adds the last bit shifted out (TOSA)."""

    name = "tosa.arithmetic_right_shift"
    round = prop_def(BoolAttr)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("round", BOOL),)


@tosa_op
class LogicalLeftShiftOp(_Binary):
    """`a << b`, bits shifted out of the top are lost; amounts 0..width-1 (TOSA)."""

    name = "tosa.logical_left_shift"

    def verify_(self) -> None:
        super().verify_()
        if _int_width(self.output.type) not in (8, 16, 32):
            raise VerifyException(
                f"'tosa.logical_left_shift' needs i8, i16 or i32 data, got {self.output.type}"
            )


@tosa_op
class ClzOp(_Elementwise):
    """Count of leading zero bits of an i32 (32 for zero)."""

    name = "tosa.clz"
    input1 = operand_def(TENSOR)

    def verify_(self) -> None:
        super().verify_()
        if _element(self.output.type) != IntegerType(32):
            raise VerifyException(f"'tosa.clz' needs i32 data, got {self.output.type}")


@tosa_op
class MulOp(_Binary):
    """`tosa.mul %a, %b, %shift`: i8/i16 -> i32 products; for i32, `(a * b + round) >> shift`."""

    name = "tosa.mul"
    # all three declared here: IRDL orders a subclass's operands before its base's
    input1 = operand_def(TENSOR)
    input2 = operand_def(TENSOR)
    shift = operand_def(TENSOR)

    def inputs(self) -> tuple[SSAValue, ...]:
        return (self.input1, self.input2)

    def verify_(self) -> None:
        a, b = (_element(o.type) for o in self.inputs())
        out = _element(self.output.type)
        shift = _const_values(self.shift)
        if isinstance(out, IntegerType):  # upstream's order and words
            if not isinstance(a, IntegerType) or a != b:
                raise op_error(self, "requires the same element type for all operands")
            if a.width.data > out.width.data:
                raise op_error(self, "invalid data type size for operands or result")
        else:
            if a != out or b != out:
                raise op_error(self, "requires the same element type for all operands and results")
            if shift is not None and any(shift):
                raise op_error(self, "require shift to be 0 for float type")
        shape_a, shape_b = shape_of(self.input1.type), shape_of(self.input2.type)
        result = shape_of(self.output.type)
        if shape_a is not None and shape_b is not None and len(shape_a) != len(shape_b):
            raise op_error(
                self,
                f"a and b operands don't have matching ranks, got {len(shape_a)} and {len(shape_b)}",
            )
        for what, s in (("a", shape_a), ("b", shape_b)):
            if s is not None and result is not None and len(s) != len(result):
                raise op_error(
                    self,
                    f"result type has different rank than {what}, got {len(result)} vs {len(s)}",
                )
        if shape_a is not None and shape_b is not None:
            for x, y in zip(shape_a, shape_b, strict=True):
                if 1 not in (x, y) and DYNAMIC not in (x, y) and x != y:
                    raise op_error(
                        self,
                        "a and b operands don't have broadcast-compatible shapes, got "
                        f"'{type_text(self.input1.type)}' and '{type_text(self.input2.type)}'",
                    )
        super().verify_()
        if isinstance(a, IntegerType) and a.width.data in (8, 16) and out != IntegerType(32):
            raise VerifyException(f"'tosa.mul' of {a} inputs produces i32, not {out}")
        if shift is not None:
            if not all(0 <= s <= 63 for s in shift):  # the spec's ERROR_IF, upstream's words
                bad = next(s for s in shift if not 0 <= s <= 63)
                raise op_error(self, f"requires 0 <= shift && shift <= 63, but got: {bad}")
            if any(shift) and a != IntegerType(32):
                raise op_error(
                    self,
                    "requires shift = 0 for all input data types that are not int32_t, but "
                    f"got: {next(s for s in shift if s)}",
                )


@tosa_op
class NegateOp(TosaOp):
    """`tosa.negate %x, %input_zp, %output_zp`: out = clamp(-(x - izp) + ozp)."""

    name = "tosa.negate"
    input1 = operand_def(TENSOR)
    input1_zp = operand_def(TENSOR)
    output_zp = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b = _element(self.input1.type), _element(self.output.type)
        if a != b:
            raise op_error(
                self, f"expect input and output to have same element type, got '{a}' and '{b}'"
            )
        for zp, what, data in ((self.input1_zp, "input1", a), (self.output_zp, "output", b)):
            z = storage_element(zp.type)
            if storage_element(self.input1.type if what == "input1" else self.output.type) != z:
                raise op_error(
                    self,
                    f"expect both {what} and its zero point are the same element type, "
                    f"got '{storage_element(data)}' and '{z}'",
                )
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        if x is not None and out is not None and not shapes_compatible(x, out):
            raise op_error(self, "requires the same shape for input1 and output")
        check_zero_point_value(self, self.input1_zp, "input1", self.input1.type)
        check_zero_point_value(self, self.output_zp, "output", self.output.type)
        width = _int_width(self.input1.type)
        _check_zero_point(self, self.input1_zp, "input1_zp", width)
        _check_zero_point(self, self.output_zp, "output_zp", width)


@tosa_op
class ClampOp(TosaOp):
    """`tosa.clamp %x min_val(lo : T) max_val(hi : T)`: no zero point is applied."""

    name = "tosa.clamp"
    input = operand_def(TENSOR)
    output = result_def()
    min_val = prop_def()
    max_val = prop_def()
    nan_mode = opt_prop_def(NanModeAttr)
    traits = traits_def(Pure(), ClampCanonicalization())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("min_val", TYPED),
        ("max_val", TYPED),
        ("nan_mode", NAN),
    )

    def verify_(self) -> None:
        if _element(self.input.type) != _element(self.output.type):
            raise op_error(self, "requires the same element type for all operands and results")
        verify_broadcast(self, [self.input.type], self.output.type)
        lo, hi = self.min_val, self.max_val
        bounds = f"got min_val={attribute_text(lo)}, max_val={attribute_text(hi)}"
        if isinstance(lo, FloatAttr) and isinstance(hi, FloatAttr):
            if math.isnan(lo.value.data) or math.isnan(hi.value.data):
                raise op_error(self, f"min/max attributes should not be 'NaN', {bounds}")
            if lo.value.data > hi.value.data:
                raise op_error(self, f"expected min_val <= max_val, {bounds}")
        if isinstance(lo, IntegerAttr) and isinstance(hi, IntegerAttr):
            low, high = lo.value.data, hi.value.data
            if ht.is_bool(lo.type):  # i1 true is stored as -1: order the bounds as booleans
                low, high = abs(low), abs(high)
            if low > high:
                raise op_error(self, f"expected min_val <= max_val, {bounds}")
            width = _int_width(self.output.type)
            if width is not None and lo.type != _element(self.output.type):
                raise VerifyException(
                    f"'tosa.clamp' bounds must have the element type {_element(self.output.type)}"
                )
        elif not (isinstance(lo, FloatAttr) and isinstance(hi, FloatAttr)):
            raise VerifyException(
                "'tosa.clamp' min_val and max_val must be integer or float attributes"
            )


@tosa_op
class CastOp(TosaOp):
    """`tosa.cast %x`: integer narrowing wraps; float to integer rounds to nearest even and saturates."""

    name = "tosa.cast"
    input = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())
    EXTRA_SPACE: ClassVar[bool] = True

    def verify_(self) -> None:
        if not shapes_compatible(shape_of(self.input.type), shape_of(self.output.type)):
            raise op_error(self, "requires the same shape for all operands and results")


@tosa_op
class RescaleOp(TosaOp):
    """`tosa.rescale %in, %multiplier, %shift, %input_zp, %output_zp ...`: TOSA's fixed-point requantization."""

    name = "tosa.rescale"
    input = operand_def(TENSOR)
    multiplier = operand_def(TENSOR)
    shift = operand_def(TENSOR)
    input_zp = operand_def(TENSOR)
    output_zp = operand_def(TENSOR)
    output = result_def()
    scale32 = prop_def(BoolAttr)
    rounding_mode = prop_def(RoundingModeAttr)
    per_channel = prop_def(BoolAttr)
    input_unsigned = prop_def(BoolAttr)
    output_unsigned = prop_def(BoolAttr)
    traits = traits_def(Pure(), RescaleCanonicalization())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("scale32", BOOL),
        ("rounding_mode", ROUNDING),
        ("per_channel", BOOL),
        ("input_unsigned", BOOL),
        ("output_unsigned", BOOL),
    )

    def verify_(self) -> None:
        """Upstream's RescaleOp checks in its order and words (operand types, element
        kinds, shapes, zero points, the multiplier's width, DOUBLE_ROUND, per-channel
        lengths), then the spec's further rules upstream leaves to run time."""
        in_t, mult_t, shift_t = self.input.type, self.multiplier.type, self.shift.type
        for what, t in (("input", in_t), ("output", self.output.type)):
            if not isinstance(storage_element(t), IntegerType):
                raise op_error(
                    self,
                    f"expect {what} to have integer element type, got '{storage_element(t)}'",
                )
            if what == "input":
                shape, out_shape = shape_of(in_t), shape_of(self.output.type)
                if (
                    shape is not None
                    and out_shape is not None
                    and not shapes_compatible(shape, out_shape)
                ):
                    raise op_error(self, "Shape of input and output must be same")
        in_w, out_w = _int_width(in_t), _int_width(self.output.type)
        for what, zp, width, unsigned in (
            ("input", self.input_zp, in_w, self.flag("input_unsigned")),
            ("output", self.output_zp, out_w, self.flag("output_unsigned")),
        ):
            values = _const_values(zp)
            if values is None or len(values) != 1 or width is None:
                continue
            value = values[0] & ((1 << width) - 1) if unsigned else values[0]
            if unsigned and width == 16 and value not in (0, 32768):
                raise op_error(
                    self,
                    f"expect {what}_zp of 0 or 32768 for unsigned int16 {what}, got {value}",
                )
            if width != 8 and not (unsigned and width == 16) and value != 0:
                raise op_error(self, f"expect {what}_zp of 0, got {value}")
        scale32 = self.flag("scale32")
        want = IntegerType(32 if scale32 else 16)
        if _element(mult_t) != want:
            raise op_error(
                self,
                f"expect {want} element type for multiplier for scale32="
                f"{str(scale32).lower()}, got '{_element(mult_t)}'",
            )
        mode = self.rounding_mode.data
        if mode in (RoundingMode.DOUBLE_ROUND, RoundingMode.HALF_EVEN_ROUND) and not scale32:
            raise op_error(self, f"{mode.value} is only allowed with scale32=true")
        shape = shape_of(in_t)
        channels = 1
        if self.flag("per_channel"):
            if not shape:
                raise op_error(self, "per_channel needs an input of rank >= 1")
            channels = shape[-1]
        for t, what in ((mult_t, "multiplier"), (shift_t, "shift")):
            s = shape_of(t)
            if s is not None and channels >= 0 and s != (channels,):
                raise op_error(
                    self,
                    f"expect shape of {{ {channels} }} for {what} input, got {{ {s[0]} }}",
                )
        if in_w not in (8, 16, 32, 48) or out_w not in (8, 16, 32):
            raise VerifyException(
                f"'tosa.rescale' rescales i8/i16/i32/i48 to i8/i16/i32, got {in_t} -> {self.output.type}"
            )
        if scale32 and in_w == 48:
            raise op_error(self, "scale32 is not allowed with 48-bit input")
        shifts = _const_values(self.shift)
        if shifts is not None and any(not MIN_SHIFT <= s <= MAX_SHIFT for s in shifts):
            raise VerifyException(
                f"'tosa.rescale' shift values must be in {MIN_SHIFT}..{MAX_SHIFT}, got {shifts}"
            )
        mults = _const_values(self.multiplier)
        if mults is not None and any(m < 0 for m in mults):
            raise VerifyException("'tosa.rescale' multipliers must be non-negative")
        _check_zero_point(self, self.input_zp, "input_zp", in_w, self.flag("input_unsigned"))
        _check_zero_point(self, self.output_zp, "output_zp", out_w, self.flag("output_unsigned"))
        in_unsigned, out_unsigned = self.flag("input_unsigned"), self.flag("output_unsigned")
        if in_unsigned and out_unsigned:  # the spec's ERROR_IFs, in upstream's words
            raise op_error(self, "input and output cannot be both unsigned")
        if in_unsigned and out_w == 32:
            raise op_error(self, "i32 output type is not allowed with unsigned input")
        if out_unsigned and in_w in (32, 48):
            raise op_error(self, f"i{in_w} input type is not allowed with unsigned output")
        if in_unsigned and in_w in (32, 48):
            raise op_error(self, f"i{in_w} input type cannot be unsigned")
        if out_unsigned and out_w == 32:
            raise op_error(self, "i32 output type cannot be unsigned")


@tosa_op
class ApplyScaleOp(TosaOp):
    """`tosa.apply_scale %value, %multiplier, %shift rounding_mode<...>`: apply_scale_32 elementwise."""

    name = "tosa.apply_scale"
    value = operand_def(TENSOR)
    multiplier = operand_def(TENSOR)
    shift = operand_def(TENSOR)
    output = result_def()
    rounding_mode = prop_def(RoundingModeAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("rounding_mode", ROUNDING),)

    def verify_(self) -> None:
        v, m, s = self.value.type, self.multiplier.type, self.shift.type
        if (_element(v), _element(m), _element(s), _element(self.output.type)) != (
            IntegerType(32),
            IntegerType(32),
            IntegerType(8),
            IntegerType(32),
        ):
            raise VerifyException(
                "'tosa.apply_scale' takes i32 value, i32 multiplier, i8 shift and returns i32"
            )
        _broadcast_shape(self, [shape_of(t) for t in (v, m, s, self.output.type)])


@tosa_op
class TableOp(TosaOp):
    """`tosa.table %x, %table`: i8 -> i8 lookup (256 entries) or i16 -> i32 interpolated (513 entries)."""

    name = "tosa.table"
    input1 = operand_def(TENSOR)
    table = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        if x is not None and out is not None:
            if len(x) != len(out):
                raise op_error(self, "expected input tensor rank to equal result tensor rank")
            for axis, (a, b) in enumerate(zip(out, x, strict=True)):
                if a >= 0 and b >= 0 and a != b:
                    raise op_error(
                        self, f"dim(result, {axis}) = {a} doesn't match dim(input, {axis}) = {b}"
                    )
        width = _int_width(self.input1.type)
        table = shape_of(self.table.type)
        expected = {8: (256, 8, 8), 16: (513, 16, 32)}.get(width or 0)
        if expected is None:
            raise VerifyException(f"'tosa.table' input must be i8 or i16, got {self.input1.type}")
        entries, table_w, out_w = expected
        if table is not None and table != (entries,):
            got = table[0] if len(table) == 1 else self.table.type
            raise op_error(self, f"requires table size of {entries}, got {got}")
        if _int_width(self.table.type) != table_w or _int_width(self.output.type) != out_w:
            raise VerifyException(
                f"'tosa.table' with i{width} input needs an i{table_w} table and i{out_w} output"
            )


@tosa_op
class GatherOp(TosaOp):
    """`tosa.gather %values, %indices`: values [N, K, C], i32 indices [N, W] in 0..K-1,
    output [N, W, C] with output[n, w] = values[n, indices[n, w]]."""

    name = "tosa.gather"
    values = operand_def(TENSOR)
    indices = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        values, indices = self.values.type, self.indices.type
        v = _require_rank(self, values, 3, "values")
        i = _require_rank(self, indices, 2, "indices")
        _require_rank(self, self.output.type, 3, "output")
        if _element(indices) not in (IntegerType(32), IntegerType(64)):
            raise VerifyException(f"'tosa.gather' indices must be i32 or i64, got {indices}")
        if _element(values) != _element(self.output.type):
            raise VerifyException("'tosa.gather' output must have the element type of values")
        out = shape_of(self.output.type)
        if v is not None and i is not None and DYNAMIC not in (v[0], i[0]) and v[0] != i[0]:
            raise op_error(self, f"requires indices dimension 0 to have size {v[0]}, got {i[0]}")
        if out is not None:
            for d, want in (
                (0, v[0] if v else DYNAMIC),
                (1, i[1] if i else DYNAMIC),
                (2, v[2] if v else DYNAMIC),
            ):
                if want == DYNAMIC and d == 0 and i:
                    want = i[0]
                if DYNAMIC not in (want, out[d]) and want != out[d]:
                    raise op_error(
                        self, f"requires output dimension {d} to have size {want}, got {out[d]}"
                    )
        if v is not None and i is not None:
            expected = (v[0], i[1], v[2])
            if v[0] != i[0] or shape_of(self.output.type) != expected:
                raise VerifyException(
                    f"'tosa.gather' of values {shape_text(v)} by indices {shape_text(i)} "
                    f"gives {shape_text(expected)}"
                )


def _spatial_output(x: Sequence[int], kernel: Sequence[int], pad: Sequence[int],
                    stride: Sequence[int], dilation: Sequence[int]) -> tuple[int, int]:  # fmt: skip
    """(OH, OW) of an NHWC window op; pad = [top, bottom, left, right]."""
    return (
        window_output_size(x[1], kernel[0], stride[0], (pad[0], pad[1]), 1, dilation[0]),
        window_output_size(x[2], kernel[1], stride[1], (pad[2], pad[3]), 1, dilation[1]),
    )


def op_error(op: Operation, message: str) -> VerifyException:
    """A verifier error worded as MLIR words it: `'tosa.conv2d' op <message>`."""
    return VerifyException(f"'{op.name}' op {message}")


def storage_element(t: Attribute) -> Attribute:
    """The element type, a quantized type's storage integer in its place (upstream
    checks accumulator and zero-point rules on the storage type)."""
    e = _element(t)
    storage = getattr(e, "storage_type", None)
    width = getattr(e, "storage_width", None)  # !quant.any<i8...>: its integer
    if isinstance(width, int):
        return IntegerType(width)
    return storage if isinstance(storage, Attribute) else e


def type_text(t: Attribute) -> str:
    """A type as MLIR's diagnostics quote it (`tensor<13x21x3xf32>`, `tensor<*xi8>`)."""
    if isinstance(t, UnrankedTensorType):
        return f"tensor<*x{t.get_element_type()}>"
    shape = shape_of(t)
    if shape is not None:
        dims = "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape)
        return f"tensor<{dims}{_element(t)}>"
    return str(t)


def exact_window_pad(sizes: Sequence[int], kernels: Sequence[int], strides: Sequence[int],
                     pad: Sequence[int], dilations: Sequence[int] | None = None,
                     ) -> tuple[list[int], list[int]]:  # fmt: skip
    """TOSA v1.0 requires `size - 1 + pads - (kernel - 1) * dilation` to divide by the
    stride. Returns `pad` ([before, after] per spatial axis) with trailing padding cut,
    and per axis the number of trailing input rows to slice off, so that it does; the
    rows and padding cut are ones no window reaches, so results do not change."""
    result, trims = list(pad), []
    for i, (size, k, s) in enumerate(zip(sizes, kernels, strides, strict=True)):
        d = 1 if dilations is None else dilations[i]
        extra = 0 if size < 0 else (size - 1 + pad[2 * i] + pad[2 * i + 1] - (k - 1) * d) % s
        cut = min(extra, pad[2 * i + 1])
        result[2 * i + 1] -= cut
        trims.append(extra - cut)
    return result, trims


def check_attr_values(op: Operation, what: str, values: Sequence[int], minimum: int,
                      brackets: bool = False) -> None:  # fmt: skip
    """ERROR_IF for window attributes, checked before any size arithmetic uses them."""
    if any(v < minimum for v in values):
        got = int_list_text(values) if brackets else ", ".join(str(v) for v in values)
        raise op_error(op, f"expect all {what} values to be >= {minimum}, got {got}")


_ACCUMULATORS: dict[str, tuple[tuple[str, ...], str]] = {
    "i8": (("i32",), "i32"),
    "i16": (("i48",), "i48"),
    "f8E5M2": (("f16",), "f16"),
    "f8E4M3": (("f16",), "f16"),
    "f8E4M3FN": (("f16",), "f16"),
    "f16": (("f16", "f32"), "f16/f32"),
    "bf16": (("f32",), "f32"),
    "f32": (("f32",), "f32"),
}


def check_accumulator(op: Operation, input_: SSAValue, acc_type: Attribute) -> None:
    """Upstream's accumulator rule: i8 -> i32, i16 -> i48, fp8 -> f16, f16 -> f16/f32, bf16/f32 -> f32."""
    e = storage_element(input_.type)
    key = str(e)
    if key not in _ACCUMULATORS:
        return
    allowed, text = _ACCUMULATORS[key]
    if str(acc_type) not in allowed:
        name = "f8" if key.startswith("f8") else key
        raise op_error(op, f"accumulator type for {name} tensor is not {text}")


def check_zero_point_value(op: Operation, zp: SSAValue, what: str, data: Attribute) -> None:
    """Zero points: the data's element type, and zero unless the data is 8-bit integer."""
    values = constant_array(zp, integer=False)
    if values is None:
        return
    e = storage_element(data)
    if isinstance(e, IntegerType) and e.width.data == 8:
        return
    if any(float(x) != 0 for x in np.asarray(values).reshape(-1)):
        raise op_error(op, f"{what} zero point must be zero for non-int8 integer types")


def check_zero_point_type(op: Operation, zp: SSAValue, data_what: str, data: Attribute) -> None:
    a, b = storage_element(data), storage_element(zp.type)
    if a != b:
        raise op_error(
            op,
            f"expect both {data_what} and its zero point are the same element type, "
            f"got '{a}' and '{b}'",
        )


def _check_window(op: Operation, x: tuple[int, ...], out: tuple[int, ...], kernel: Sequence[int],
                  pad: Sequence[int], stride: Sequence[int], dilation: Sequence[int],
                  axes: Sequence[tuple[str, str, str, str, str]]) -> None:  # fmt: skip
    """Upstream's per-axis window rule: `in - 1 + pads - (k - 1) * d` divisible by the
    stride, and the output size it gives equal to the result's."""
    for i, (dim, before, after, suffix, name) in enumerate(axes):
        size, o = x[1 + i], out[1 + i]
        if size == DYNAMIC or kernel[i] == DYNAMIC:
            continue
        pb, pa, s, d, k = pad[2 * i], pad[2 * i + 1], stride[i], dilation[i], kernel[i]
        numerator = size - 1 + pb + pa - (k - 1) * d
        if numerator % s:
            raise op_error(
                op,
                f"expected input_{dim} - 1 + pad_{before} + pad_{after} - (kernel_{dim} - 1) "
                f"* dilation_{suffix} to be wholly divisible by stride_{suffix}, got "
                f"({size} - 1 + {pb} + {pa} - ({k} - 1) * {d}) / {s}",
            )
        calculated = numerator // s + 1
        if o != DYNAMIC and o != calculated:
            raise op_error(
                op,
                f"calculated output {name} did not match expected: "
                f"calculated={calculated}, expected={o}",
            )


_HW = (("height", "top", "bottom", "y", "height"), ("width", "left", "right", "x", "width"))
_DHW = (("depth", "front", "back", "d", "depth"), *_HW)


class _Conv(TosaOp):
    input = operand_def(TENSOR)
    weight = operand_def(TENSOR)
    bias = operand_def(TENSOR)
    input_zp = operand_def(TENSOR)
    weight_zp = operand_def(TENSOR)
    output = result_def()
    stride = prop_def(DenseArrayBase)
    acc_type = prop_def()
    local_bound = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())
    EXTRA_SPACE: ClassVar[bool] = True
    RANK: ClassVar[int] = 4

    def verify_conv(self) -> None:
        """The checks every convolution shares, in upstream's order: types, accumulator,
        zero points, then the window attributes (before any size arithmetic uses them)."""
        x, w = self.input.type, self.weight.type
        xe, we = storage_element(x), storage_element(w)
        if ht.is_float(xe) != ht.is_float(we):
            raise op_error(
                self,
                f"expect both input and weight to be float or not together, got '{xe}' and '{we}'",
            )
        _require_rank(self, x, self.RANK, "input")
        _require_rank(self, w, self.RANK, "weight")
        _require_rank(self, self.bias.type, 1, "bias")
        check_accumulator(self, self.input, self.acc_type)
        xw = _int_width(x)
        if xw is not None and _int_width(self.output.type) not in (None, {8: 32, 16: 48}.get(xw)):
            want = {8: 32, 16: 48}.get(xw)
            raise VerifyException(
                f"'{self.name}' with i{xw} input accumulates in i{want}; acc_type and output must be i{want}"
            )
        check_zero_point_value(self, self.input_zp, "input", x)
        check_zero_point_value(self, self.weight_zp, "weight", w)
        _check_zero_point(self, self.input_zp, "input_zp", xw)
        _check_zero_point(self, self.weight_zp, "weight_zp", _int_width(w))
        if "pad" in self.properties:
            check_attr_values(self, "padding", self.array("pad"), 0)
        check_attr_values(self, "stride", self.array("stride"), 1)
        if "dilation" in self.properties:
            check_attr_values(self, "dilation", self.array("dilation"), 1)

    def check_bias(self, out_channels: int) -> None:
        b = shape_of(self.bias.type)
        if b and out_channels != DYNAMIC and b[0] not in (out_channels, 1, DYNAMIC):
            raise op_error(
                self,
                f"bias channels expected to be equal to output channels ({out_channels}) or 1, got {b[0]}",
            )

    def check_batch_and_channels(self, x, out, channels: int) -> None:
        if x is None or out is None:
            return
        for what, have, want in (("batch", out[0], x[0]), ("channels", out[-1], channels)):
            if DYNAMIC not in (have, want) and have != want:
                raise op_error(self, f"output {what} {have} must equal {want}")

    def check_output(self, x, out, kernel, axes) -> None:
        if x is None or out is None:
            return
        _check_window(self, x, out, kernel, self.array("pad"), self.array("stride"),
                      self.array("dilation"), axes)  # fmt: skip


@tosa_op
class Conv2DOp(_Conv):
    """NHWC input, OHWI weight, bias [OC]; pad = [top, bottom, left, right]."""

    name = "tosa.conv2d"
    pad = prop_def(DenseArrayBase)
    dilation = prop_def(DenseArrayBase)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("pad", ARRAY),
        ("stride", ARRAY),
        ("dilation", ARRAY),
        ("acc_type", TYPE),
        ("local_bound", BOOL),
    )

    def verify_(self) -> None:
        self.verify_conv()
        x, w = shape_of(self.input.type), shape_of(self.weight.type)
        out = shape_of(self.output.type)
        if w:
            self.check_output(x, out, (w[1], w[2]), _HW)
            self.check_bias(out[3] if out and out[3] != DYNAMIC else w[0])
            self.check_batch_and_channels(x, out, w[0])
        # Stricter than upstream (the spec's shapes require it), so checked after its rules.
        if x and w and x[3] != DYNAMIC and w[3] != DYNAMIC and x[3] != w[3]:
            raise VerifyException(
                f"'tosa.conv2d' input channels {x[3]} differ from weight input channels {w[3]}"
            )


@tosa_op
class Conv3DOp(_Conv):
    """NDHWC input, ODHWI weight, bias [OC]; pad = [front, back, top, bottom, left, right]."""

    name = "tosa.conv3d"
    pad = prop_def(DenseArrayBase)
    dilation = prop_def(DenseArrayBase)
    RANK: ClassVar[int] = 5
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("pad", ARRAY),
        ("stride", ARRAY),
        ("dilation", ARRAY),
        ("acc_type", TYPE),
        ("local_bound", BOOL),
    )

    def verify_(self) -> None:
        self.verify_conv()
        x, w = shape_of(self.input.type), shape_of(self.weight.type)
        out = shape_of(self.output.type)
        if w:
            self.check_output(x, out, (w[1], w[2], w[3]), _DHW)
            self.check_batch_and_channels(x, out, w[0])
            self.check_bias(out[4] if out and out[4] != DYNAMIC else w[0])


@tosa_op
class DepthwiseConv2DOp(_Conv):
    """NHWC input, weight [KH, KW, C, M], output channels C*M."""

    name = "tosa.depthwise_conv2d"
    pad = prop_def(DenseArrayBase)
    dilation = prop_def(DenseArrayBase)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("pad", ARRAY),
        ("stride", ARRAY),
        ("dilation", ARRAY),
        ("acc_type", TYPE),
        ("local_bound", BOOL),
    )

    def verify_(self) -> None:
        self.verify_conv()
        x, w = shape_of(self.input.type), shape_of(self.weight.type)
        out = shape_of(self.output.type)
        if w:
            self.check_output(x, out, (w[0], w[1]), _HW)
            channels = DYNAMIC if DYNAMIC in (w[2], w[3]) else w[2] * w[3]
            self.check_bias(out[3] if out and out[3] != DYNAMIC else channels)
        # Stricter than upstream (the spec's shapes require it), so checked after its rules.
        if x and w and DYNAMIC not in (x[3], w[2]) and x[3] != w[2]:
            raise VerifyException(
                f"'tosa.depthwise_conv2d' input channels {x[3]} differ from weight channels {w[2]}"
            )
        if w and out:
            channels = DYNAMIC if DYNAMIC in (w[2], w[3]) else w[2] * w[3]
            if channels != DYNAMIC and out[3] not in (channels, DYNAMIC):
                raise VerifyException(
                    f"'tosa.depthwise_conv2d' output must have {channels} channels, got {out[3]}"
                )


@tosa_op
class TransposeConv2DOp(_Conv):
    """NHWC input, OHWI weight; output size (in - 1) * stride + out_pad_before + out_pad_after + kernel."""

    name = "tosa.transpose_conv2d"
    out_pad = prop_def(DenseArrayBase)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("out_pad", ARRAY),
        ("stride", ARRAY),
        ("acc_type", TYPE),
        ("local_bound", BOOL),
    )

    def verify_(self) -> None:
        check_attr_values(self, "stride", self.array("stride"), 1, brackets=True)
        self.verify_conv()
        x, w = shape_of(self.input.type), shape_of(self.weight.type)
        out = shape_of(self.output.type)
        op_, stride = self.array("out_pad"), self.array("stride")
        if w:
            for value, side, k, kname in zip(
                op_, ("top", "bottom", "left", "right"), (w[1], w[1], w[2], w[2]),
                ("KH", "KH", "KW", "KW"), strict=True,
            ):  # fmt: skip
                if k != DYNAMIC and value <= -k:
                    raise op_error(
                        self,
                        f"expected out_pad_{side} > -{kname}, but got: out_pad_{side}={value} and {kname}={k}",
                    )
        if x and w and out:
            for i, (o, dim, s, pa, pb, k, names) in enumerate(
                (
                    (out[1], x[1], stride[0], op_[0], op_[1], w[1], ("OH", "IH", "y", "top", "bottom", "KH")),
                    (out[2], x[2], stride[1], op_[2], op_[3], w[2], ("OW", "IW", "x", "left", "right", "KW")),
                )
            ):  # fmt: skip
                del i
                if DYNAMIC in (o, dim, k):
                    continue
                calculated = (dim - 1) * s + pa + pb + k
                if o != calculated:
                    oh, ih, axis, before, after, kh = names
                    raise op_error(
                        self,
                        f"dimension mismatch: expected {oh} == ({ih} - 1) * stride_{axis} + "
                        f"out_pad_{before} + out_pad_{after} + {kh}, but got {o} != "
                        f"({dim} - 1) * {s} + {pa} + {pb} + {k}",
                    )
        if w:
            self.check_batch_and_channels(x, out, w[0])
            self.check_bias(out[3] if out and out[3] != DYNAMIC else w[0])


@tosa_op
class MatMulOp(TosaOp):
    """`tosa.matmul %a, %b, %a_zp, %b_zp`: [N, H, C] x [N, C, W] -> [N, H, W]; i8 -> i32, i16 -> i48."""

    name = "tosa.matmul"
    a = operand_def(TENSOR)
    b = operand_def(TENSOR)
    a_zp = operand_def(TENSOR)
    b_zp = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b = self.a.type, self.b.type
        for what, data, zp in (("a", a, self.a_zp), ("b", b, self.b_zp)):
            if storage_element(data) != storage_element(zp.type):
                raise op_error(
                    self,
                    f"expect input {what} and {what}_zp have the same element type, got "
                    f"'{storage_element(data)}' and '{storage_element(zp.type)}'",
                )
        sa, sb = _require_rank(self, a, 3, "a"), _require_rank(self, b, 3, "b")
        wa = _int_width(a)
        if wa is not None:
            want = {8: 32, 16: 48}.get(wa)
            if want is None or _int_width(self.output.type) != want:
                raise VerifyException(
                    f"'tosa.matmul' with i{wa} inputs produces i{want}, got {self.output.type}"
                )
        if sa and sb and -1 not in sa + sb:
            if sa[0] != sb[0] or sa[2] != sb[1]:
                raise VerifyException(
                    f"'tosa.matmul' shapes {shape_text(sa)} and {shape_text(sb)} do not multiply"
                )
            if shape_of(self.output.type) != (sa[0], sa[1], sb[2]):
                raise VerifyException(
                    f"'tosa.matmul' output must be {shape_text((sa[0], sa[1], sb[2]))}"
                )
        check_zero_point_value(self, self.a_zp, "a", self.a.type)
        check_zero_point_value(self, self.b_zp, "b", self.b.type)
        _check_zero_point(self, self.a_zp, "a_zp", wa)
        _check_zero_point(self, self.b_zp, "b_zp", _int_width(b))


class _Pool(TosaOp):
    """Pooling; each op declares its operands (`input` first): IRDL orders a
    subclass's operands before its base's."""

    output = result_def()
    kernel = prop_def(DenseArrayBase)
    stride = prop_def(DenseArrayBase)
    pad = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def verify_pool(self, input_: SSAValue) -> None:
        """Attributes first (ERROR_IF), then the sizes they give, as upstream orders them."""
        x = _require_rank(self, input_.type, 4, "input")
        out = shape_of(self.output.type)
        kernel, stride, pad = self.array("kernel"), self.array("stride"), self.array("pad")
        check_attr_values(self, "kernel", kernel, 1)
        check_attr_values(self, "stride", stride, 1)
        check_attr_values(self, "padding", pad, 0)
        if pad[2] >= kernel[1] or pad[3] >= kernel[1]:
            raise op_error(
                self,
                "expected left/right padding to be less than the width of the kernel, got "
                f"pad_left={pad[2]}, pad_right={pad[3]}, kernel_x={kernel[1]}",
            )
        if pad[0] >= kernel[0] or pad[1] >= kernel[0]:
            raise op_error(
                self,
                "expected top/bottom padding to be less than the height of the kernel, got "
                f"pad_top={pad[0]}, pad_bottom={pad[1]}, kernel_y={kernel[0]}",
            )
        if x is None or out is None:
            return
        for i, (dim, before, after, axis) in enumerate(
            (("height", "top", "bottom", "y"), ("width", "left", "right", "x"))
        ):
            size, o = x[1 + i], out[1 + i]
            if size == DYNAMIC:
                continue
            numerator = size + pad[2 * i] + pad[2 * i + 1] - kernel[i]
            if numerator % stride[i]:
                raise op_error(
                    self,
                    f"expected input_{dim} + pad_{before} + pad_{after} - kernel_{axis} to be "
                    f"wholly divisible by stride_{axis}, got ({size} + {pad[2 * i]} + "
                    f"{pad[2 * i + 1]} - {kernel[i]}) / {stride[i]}",
                )
            calculated = numerator // stride[i] + 1
            if o != DYNAMIC and o != calculated:
                raise op_error(
                    self,
                    f"calculated output {dim} did not match expected: "
                    f"calculated={calculated}, expected={o}",
                )
        for what, i in (("batch", 0), ("channels", 3)):
            if DYNAMIC not in (x[i], out[i]) and x[i] != out[i]:
                raise op_error(self, f"output {what} {out[i]} must equal the input's {x[i]}")


@tosa_op
class MaxPool2dOp(_Pool):
    name = "tosa.max_pool2d"
    input = operand_def(TENSOR)
    nan_mode = opt_prop_def(NanModeAttr)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("kernel", ARRAY),
        ("stride", ARRAY),
        ("pad", ARRAY),
        ("nan_mode", NAN),
    )

    def verify_(self) -> None:
        self.verify_pool(self.input)


@tosa_op
class AvgPool2dOp(_Pool):
    """Integer average: sum of (x - input_zp) over the valid window, times TOSA's reciprocal scale, + output_zp."""

    name = "tosa.avg_pool2d"
    input = operand_def(TENSOR)
    input_zp = operand_def(TENSOR)
    output_zp = operand_def(TENSOR)
    acc_type = prop_def()
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("kernel", ARRAY),
        ("stride", ARRAY),
        ("pad", ARRAY),
        ("acc_type", TYPE),
    )

    def verify_(self) -> None:
        check_zero_point_type(self, self.input_zp, "input", self.input.type)
        check_zero_point_type(self, self.output_zp, "output", self.output.type)
        self.verify_pool(self.input)
        width = _int_width(self.input.type)
        if width is not None and self.acc_type != IntegerType(32):
            raise VerifyException("'tosa.avg_pool2d' on integers accumulates in i32")
        check_zero_point_value(self, self.input_zp, "input", self.input.type)
        check_zero_point_value(self, self.output_zp, "output", self.output.type)
        _check_zero_point(self, self.input_zp, "input_zp", width)
        _check_zero_point(self, self.output_zp, "output_zp", _int_width(self.output.type))


@tosa_op
class ReshapeOp(TosaOp):
    """`tosa.reshape %x, %shape` with a `!tosa.shape` operand."""

    name = "tosa.reshape"
    input1 = operand_def(TENSOR)
    shape = operand_def(ShapeType)
    output = result_def()
    traits = traits_def(Pure(), ReshapeCanonicalization())

    def verify_(self) -> None:
        a, b = _element(self.input1.type), _element(self.output.type)
        if a != b:
            raise op_error(
                self, f"expect input and output to have same element type, got '{a}' and '{b}'"
            )
        shape = _shape_values(self.shape)
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        if shape is None:
            return
        if out is not None and len(out) != len(shape):
            raise op_error(self, "new shape does not match result rank")
        if any(d < -1 for d in shape):
            bad = next(d for d in shape if d < -1)
            raise op_error(self, f"new shape has invalid tensor dimension size {bad}")
        if shape.count(-1) > 1:
            raise op_error(self, "expected at most one target dimension to be -1")
        if out is not None:
            for want, have in zip(shape, out, strict=True):
                if want != -1 and have != DYNAMIC and want != have:
                    raise op_error(self, "new shape is inconsistent with result shape")
        if x is not None and DYNAMIC not in x:
            known = _product([d for d in shape if d != -1])
            count = _product(x)
            if (-1 in shape and (known == 0 or count % known)) or (
                -1 not in shape and count != known
            ):
                raise op_error(self, f"cannot reshape {count} elements into {known}")


def _product(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


@tosa_op
class TransposeOp(TosaOp):
    name = "tosa.transpose"
    input1 = operand_def(TENSOR)
    output = result_def()
    perms = prop_def(DenseArrayBase)
    traits = traits_def(Pure(), TransposeCanonicalization())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("perms", ARRAY32),)

    def verify_(self) -> None:
        """Upstream's checks and order: element types, perms size, a permutation, ranks,
        element count, then each output dimension."""
        a, b = _element(self.input1.type), _element(self.output.type)
        if a != b:
            raise op_error(
                self, "failed to verify that all of {input1, output} have same element type"
            )
        perms = self.array("perms")
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        if x is not None and len(perms) != len(x):
            raise op_error(
                self,
                f"expected perms attribute to have size {len(x)} (input rank) but got size {len(perms)}",
            )
        if sorted(perms) != list(range(len(perms))):
            raise op_error(self, "expected valid permutation indices")
        if out is not None and len(perms) != len(out):
            if x is not None:
                raise op_error(self, "expected input tensor rank to equal result tensor rank")
            raise op_error(
                self,
                f"expected perms attribute to have size {len(out)} (output rank) but got size {len(perms)}",
            )
        if x is None or out is None:
            return
        if DYNAMIC not in x and DYNAMIC not in out and _product(x) != _product(out):
            raise op_error(
                self,
                "expected input1 and output to have same numbers of elements, "
                f"got {_product(x)} and {_product(out)}",
            )
        for i, p in enumerate(perms):
            if DYNAMIC not in (out[i], x[p]) and out[i] != x[p]:
                raise op_error(
                    self,
                    f"expected output tensor dim {i} to match input dim {p} with value of {x[p]}",
                )


@tosa_op
class ConcatOp(TosaOp):
    name = "tosa.concat"
    input1 = var_operand_def(TENSOR)
    output = result_def()
    axis = prop_def(IntegerAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("axis", INT32),)

    def verify_(self) -> None:
        axis = self.int_prop("axis")
        if not self.input1:
            raise op_error(self, "expect at least one input")
        out_e = _element(self.output.type)
        for o in self.input1:
            if _element(o.type) != out_e:
                raise op_error(
                    self,
                    "expect input and output to have same element type, "
                    f"got '{_element(o.type)}' and '{out_e}'",
                )
        shapes = [shape_of(o.type) for o in self.input1]
        ranked = [(i, s) for i, s in enumerate(shapes) if s is not None]
        if not ranked:
            return
        first, base = ranked[0]
        if not 0 <= axis < len(base):
            raise op_error(
                self,
                "expect axis to be within range 0 < axis < rank(input1[firstRankedTensorIdx]), "
                f"got {axis}",
            )
        for i, s in ranked[1:]:
            if len(s) != len(base):
                raise op_error(
                    self,
                    "expect all operands to have the same rank, but got "
                    f"{len(base)} vs {len(s)} on operands {first} and {i}",
                )
            for d in range(len(base)):
                if d != axis and DYNAMIC not in (base[d], s[d]) and base[d] != s[d]:
                    raise op_error(
                        self,
                        "expect all operand shapes to have the same sizes on non-axis "
                        f"dimensions, but got {s[d]} vs {base[d]} at index {d} on operands "
                        f"{first} and {i}",
                    )
        out = shape_of(self.output.type)
        if out is None or len(ranked) != len(shapes):
            return
        if len(out) != len(base):
            raise op_error(self, "expect output rank to match inputs rank")
        total = sum(s[axis] for s in shapes if s is not None)
        if all(s[axis] != DYNAMIC for s in shapes if s is not None) and out[axis] not in (
            total,
            DYNAMIC,
        ):
            raise op_error(
                self,
                "requires sum of axis dimensions of input1 equal to output axis dimension, "
                f"got {total} and {out[axis]}",
            )
        for d in range(len(base)):
            if d != axis and DYNAMIC not in (out[d], base[d]) and out[d] != base[d]:
                raise VerifyException(
                    f"'tosa.concat' output must be {shape_text(tuple(total if k == axis else n for k, n in enumerate(base)))}"
                )


@tosa_op
class PadOp(TosaOp):
    """`tosa.pad %x, %padding, %pad_const`: padding = [before0, after0, before1, after1, ...]."""

    name = "tosa.pad"
    input1 = operand_def(TENSOR)
    padding = operand_def(ShapeType)
    pad_const = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        if x is not None and out is not None and len(x) != len(out):
            raise op_error(self, "expect same input and output tensor rank")
        padding = _shape_values(self.padding)
        if padding is None or x is None:
            return
        if len(padding) != 2 * len(x):
            raise VerifyException(f"'tosa.pad' padding needs {2 * len(x)} non-negative values")
        negative = [p for p in padding if p < 0]
        if negative:
            raise op_error(self, f"padding value must all be non-negative, got {negative[0]}")
        expected = tuple(
            DYNAMIC if d == DYNAMIC else d + padding[2 * i] + padding[2 * i + 1]
            for i, d in enumerate(x)
        )
        if out is not None and not shapes_compatible(out, expected):
            raise VerifyException(f"'tosa.pad' output must be {shape_text(expected)}")


@tosa_op
class SliceOp(TosaOp):
    """`tosa.slice %x, %start, %size`."""

    name = "tosa.slice"
    input1 = operand_def(TENSOR)
    start = operand_def(ShapeType)
    size = operand_def(ShapeType)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        if x is not None and out is not None and len(x) != len(out):
            raise op_error(
                self,
                f"expect input1 and output to have the same ranks, got {len(x)} and {len(out)}",
            )
        start, size = _shape_values(self.start), _shape_values(self.size)
        if x is None:
            return
        if start is not None and len(start) != len(x):
            raise op_error(self, "length of start is not equal to rank of input shape")
        if size is not None and len(size) != len(x):
            raise op_error(self, "length of size is not equal to rank of input shape")
        if start is None or size is None:
            return
        for d, (s, n) in enumerate(zip(start, size, strict=True)):
            if x[d] == DYNAMIC:
                continue
            if s < 0:  # the spec's ERROR_IFs, in its order
                raise VerifyException(f"'tosa.slice' start {s} at dimension {d} is negative")
            if n < 1:
                raise VerifyException(f"'tosa.slice' size {n} at dimension {d} is not positive")
            if s + n > x[d]:
                raise VerifyException(
                    f"'tosa.slice' slice {s}+{n} does not fit dimension {d} (size {x[d]})"
                )
        if out is not None and not shapes_compatible(out, tuple(size)):
            raise VerifyException(f"'tosa.slice' output must be {shape_text(tuple(size))}")


class _Reduce(TosaOp):
    input = operand_def(TENSOR)
    output = result_def()
    axis = prop_def(IntegerAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("axis", INT32),)

    def verify_(self) -> None:
        x, out = shape_of(self.input.type), shape_of(self.output.type)
        axis = self.int_prop("axis")
        if x is not None:
            if axis >= len(x) or axis < 0:
                raise op_error(
                    self,
                    f"expect input tensor rank ({len(x)}) to be larger than reduce axis ({axis})",
                )
        if out is not None:
            if x is not None and len(out) != len(x):
                raise op_error(self, "expect output tensor rank to be equal to input tensor rank")
            if 0 <= axis < len(out) and out[axis] not in (1, DYNAMIC):
                raise op_error(self, f"expect reduced dimension size to be 1, got {out[axis]}")
        if x is not None and out is not None:
            expected = tuple(1 if d == axis else n for d, n in enumerate(x))
            if not shapes_compatible(out, expected):
                raise VerifyException(
                    f"'{self.name}' output must be {shape_text(expected)} (the axis kept with size 1)"
                )
        a, b = _element(self.input.type), _element(self.output.type)
        if a != b:
            expected_type = (
                type_text(TensorType(a, expected)) if x is not None and out is not None else str(a)
            )
            raise ht.InferenceError(
                f"'{self.name}' op inferred type(s) '{expected_type}' are incompatible with "
                f"return type(s) of operation '{type_text(self.output.type)}'"
            )


@tosa_op
class ReduceSumOp(_Reduce):
    name = "tosa.reduce_sum"


@tosa_op
class ReduceMaxOp(_Reduce):
    name = "tosa.reduce_max"
    nan_mode = opt_prop_def(NanModeAttr)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("axis", INT32), ("nan_mode", NAN))


TOSA = Dialect(
    "tosa",
    [
        ConstOp,
        ConstShapeOp,
        AddOp,
        SubOp,
        MulOp,
        MaximumOp,
        MinimumOp,
        ArithmeticRightShiftOp,
        LogicalLeftShiftOp,
        ClzOp,
        NegateOp,
        ClampOp,
        CastOp,
        RescaleOp,
        ApplyScaleOp,
        TableOp,
        GatherOp,
        Conv2DOp,
        DepthwiseConv2DOp,
        TransposeConv2DOp,
        MatMulOp,
        MaxPool2dOp,
        AvgPool2dOp,
        ReshapeOp,
        TransposeOp,
        ConcatOp,
        PadOp,
        SliceOp,
        ReduceSumOp,
        ReduceMaxOp,
    ],
    [ShapeType, RoundingModeAttr, NanModeAttr, ResizeModeAttr],
)
