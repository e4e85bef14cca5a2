"""The `chlo` dialect: StableHLO's client ops, as JAX and TensorFlow emit them.

CHLO is the layer above StableHLO that frameworks write and `chlo-legalize-to-stablehlo`
lowers: binary ops with implicit (numpy) or explicit (`broadcast_dimensions`)
broadcasting, special functions (`erf_inv`, `lgamma`, `acos`, ...), `top_k`, `mulhi`,
constants shaped like an operand. The ops here parse and print in upstream's forms and
check what upstream's verifiers and type inference check, in their order and words:
element types compatible across a broadcast, the broadcast shape (a static dimension
broadcasts only from 1), `top_k`'s rank and last dimension, `constant_like`'s value
type. `ragged_dot` (chlo_ragged_dot.py) and `scan` (chlo_scan.py) have modules of their
own. The interpreter runs `mulhi`, `top_k`, `ragged_dot`, `scan` and the broadcast
arithmetic (docs/interpreter.md); the special functions without an exact equivalent it
refuses by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.chlo_ragged_dot import (
    ChloPrecisionAttr,
    RaggedDotDimensionNumbersAttr,
    RaggedDotOp,
)
from qdialect.dialects.chlo_scan import ScanOp
from qdialect.dialects.hlo_syntax import (
    FunctionalSyntax,
    dense_values,
    parse_n_operands,
    print_extra_attrs,
    resolve,
    split_attr_dict,
)
from qdialect.dialects.stablehlo_attrs import ComparisonDirection, ComparisonType


@irdl_attr_definition
class ChloComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """`#chlo<comparison_direction EQ>`."""

    name = "chlo.comparison_direction"


@irdl_attr_definition
class ChloComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    """`#chlo<comparison_type FLOAT>`."""

    name = "chlo.comparison_type"


def _fail(op: Operation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' {message}")


def broadcast_shape(
    a: Sequence[int], b: Sequence[int], dims: Sequence[int] | None
) -> list[int] | None:
    """The shape two operands broadcast to (None if they cannot): numpy's rule, aligning
    trailing dimensions, or the lower-rank operand's dimensions placed at `dims` of the
    higher-rank one. A static size broadcasts only from 1; a dynamic one takes the other
    size when that is not 1."""
    small, big = (a, b) if len(a) <= len(b) else (b, a)
    if dims is None or len(a) == len(b):
        dims = range(len(big) - len(small), len(big))
    if len(dims) != len(small) or any(not 0 <= d < len(big) for d in dims):
        return None
    out = list(big)
    for size, d in zip(small, dims, strict=True):
        other = big[d]
        if size == other or size == 1:
            continue
        if other == 1:
            out[d] = size
        elif size == DYNAMIC_INDEX:
            continue
        elif other == DYNAMIC_INDEX:
            out[d] = size
        else:
            return None
    return out


class BroadcastBinaryOp(FunctionalSyntax):
    """`chlo.broadcast_add %a, %b : (A, B) -> R`, with optional `broadcast_dimensions`."""

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    broadcast_dimensions = opt_prop_def(DenseArrayBase)
    traits = traits_def(Pure())
    #: "same" (the operands' element type), "pred" (i1), "complex" (of the operands').
    RESULT: ClassVar[str] = "same"

    def verify_(self) -> None:
        """The operands' element types compatible (upstream's trait), then the broadcast
        shape against the result (inference)."""
        a, b, r = self.lhs.type, self.rhs.type, self.result.type
        if not ht.elements_compatible(a, b) or (
            self.RESULT == "same" and not ht.elements_compatible(a, r)
        ):
            raise _fail(self, "requires compatible element types for all operands and results")
        self.verify_broadcast([a, b], r)

    def verify_broadcast(self, operands: Sequence[Attribute], result: Attribute) -> None:
        shapes = [ht.shape_of(t) for t in operands]
        sr = ht.shape_of(result)
        if any(s is None for s in shapes) or sr is None:
            return
        dims = dense_values(self.broadcast_dimensions) if self.broadcast_dimensions else None
        shape: list[int] | None = list(shapes[0] or ())
        for s in shapes[1:]:
            shape = broadcast_shape(shape, s or (), dims) if shape is not None else None
        if shape is None:
            raise ht.InferenceError(
                f"'{self.name}' cannot broadcast "
                + ", ".join(f"'{t}'" for t in operands)
                + (f" with broadcast_dimensions {list(dims)}" if dims is not None else "")
            )
        if not ht.shapes_compatible(tuple(shape), sr):
            e = ht.element_type(result)
            ht.verify_inferred_results(self.name, [TensorType(e, shape)], [result])


def _binary(name: str, result: str = "same", doc: str = "") -> type[BroadcastBinaryOp]:
    cls = type(
        name.title().replace("_", "") + "Op",
        (BroadcastBinaryOp,),
        {
            "name": f"chlo.{name}",
            "RESULT": result,
            "__doc__": doc or f"`chlo.{name}`.",
            "__annotations__": {"RESULT": "ClassVar[str]"},
        },
    )
    return irdl_op_definition(cls)


BROADCAST_BINARY = {
    name: _binary(name)
    for name in (
        "broadcast_add",
        "broadcast_atan2",
        "broadcast_divide",
        "broadcast_maximum",
        "broadcast_minimum",
        "broadcast_multiply",
        "broadcast_next_after",
        "broadcast_polygamma",
        "broadcast_power",
        "broadcast_remainder",
        "broadcast_shift_left",
        "broadcast_shift_right_arithmetic",
        "broadcast_shift_right_logical",
        "broadcast_subtract",
        "broadcast_zeta",
        "broadcast_and",
        "broadcast_or",
        "broadcast_xor",
    )
}


@irdl_op_definition
class BroadcastComplexOp(BroadcastBinaryOp):
    """`chlo.broadcast_complex %re, %im`: complex numbers from real and imaginary parts."""

    name = "chlo.broadcast_complex"
    RESULT: ClassVar[str] = "complex"

    def verify_(self) -> None:
        a, b, r = self.lhs.type, self.rhs.type, self.result.type
        if ht.element_type(a) != ht.element_type(b):
            raise ht.InferenceError(f"'{self.name}' mismatched operand types")
        self.verify_broadcast([a, b], r)


@irdl_op_definition
class BroadcastCompareOp(BroadcastBinaryOp):
    """`chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction
    EQ>}`: an i1 tensor of the broadcast shape."""

    name = "chlo.broadcast_compare"
    comparison_direction = prop_def(ChloComparisonDirectionAttr)
    compare_type = opt_prop_def(ChloComparisonTypeAttr)
    RESULT: ClassVar[str] = "pred"

    def verify_(self) -> None:
        a, b, r = self.lhs.type, self.rhs.type, self.result.type
        if not ht.elements_compatible(a, b):
            raise _fail(self, "requires compatible element types for all operands and results")
        if not ht.is_bool(ht.element_type(r)):
            raise _fail(self, f"result #0 must be tensor of pred values, but got '{r}'")
        self.verify_broadcast([a, b], r)


@irdl_op_definition
class BroadcastSelectOp(FunctionalSyntax):
    """`chlo.broadcast_select %pred, %t, %f : (P, T, F) -> R`."""

    name = "chlo.broadcast_select"
    pred = operand_def()
    on_true = operand_def()
    on_false = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """inferSelectOp on broadcast shapes: the branches of one element type."""
        p, t, f, r = self.pred.type, self.on_true.type, self.on_false.type, self.result.type
        if not ht.is_bool(ht.element_type(p)):
            raise _fail(self, f"operand #0 must be tensor of pred values, but got '{p}'")
        if ht.element_type(t) != ht.element_type(f):
            raise ht.InferenceError(f"'{self.name}' mismatched operand types")
        shapes = [ht.shape_of(x) for x in (p, t, f)]
        sr = ht.shape_of(r)
        if any(s is None for s in shapes) or sr is None:
            return
        shape: list[int] | None = list(shapes[0] or ())
        for s in shapes[1:]:
            shape = broadcast_shape(shape, s or (), None) if shape is not None else None
        if shape is None or not ht.shapes_compatible(tuple(shape), sr):
            inferred = TensorType(ht.element_type(t), shape or [])
            ht.verify_inferred_results(self.name, [inferred], [r])


class UnaryOp(IRDLOperation):
    """`chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>`."""

    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    #: "same" or "pred" (is_inf and its kin).
    RESULT: ClassVar[str] = "same"
    #: kinds of element the operand may have: f float, c complex, q quantized.
    KINDS: ClassVar[str] = "fcq"

    @classmethod
    def parse(cls, parser: Parser):
        (operand,) = parse_n_operands(parser, 1)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        r = parser.parse_type()
        return cls.create(
            operands=resolve(parser, [operand], [t]), result_types=[r], attributes=attrs
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        a, r = self.operand.type, self.result.type
        e = ht.element_type(a)
        ok = (
            ("f" in self.KINDS and ht.is_float(e))
            or ("c" in self.KINDS and ht.is_complex(e))
            or ("q" in self.KINDS and ht.is_quantized(a))
        )
        if not ok:
            raise _fail(
                self,
                f"operand #0 must be tensor of {_KIND_WORDS[self.KINDS]} values, but got '{a}'",
            )
        if not ht.shapes_compatible(ht.shape_of(a), ht.shape_of(r)):
            raise _fail(self, "requires the same shape for all operands and results")
        expected = (
            TensorType(IntegerType(1), list(ht.shape_of(a) or ())) if self.RESULT == "pred" else a
        )
        if self.RESULT == "pred":
            if not ht.is_bool(ht.element_type(r)):
                ht.verify_inferred_results(self.name, [expected], [r])
        elif not ht.elements_compatible(a, r):
            ht.verify_inferred_results(self.name, [expected], [r])


_KIND_WORDS = {
    "fcq": "floating-point or complex or quantized",
    "fq": "floating-point or quantized",
    "f": "floating-point",
    "fc": "floating-point or complex",
}


def _unary(name: str, kinds: str = "fcq", result: str = "same") -> type[UnaryOp]:
    cls = type(
        "".join(p.title() for p in name.strip("_").split("_")) + "Op",
        (UnaryOp,),
        {
            "name": f"chlo.{name}",
            "KINDS": kinds,
            "RESULT": result,
            "__doc__": f"`chlo.{name}`.",
            "__annotations__": {"KINDS": "ClassVar[str]", "RESULT": "ClassVar[str]"},
        },
    )
    return irdl_op_definition(cls)


UNARY = {
    name: _unary(name, kinds, result)
    for name, kinds, result in (
        ("_asin_acos_kernel", "fc", "same"),
        ("acos", "fcq", "same"),
        ("acosh", "fcq", "same"),
        ("asin", "fcq", "same"),
        ("asinh", "fcq", "same"),
        ("atan", "fcq", "same"),
        ("atanh", "fcq", "same"),
        ("bessel_i1e", "fq", "same"),
        ("conj", "fc", "same"),
        ("cosh", "fcq", "same"),
        ("sinh", "fcq", "same"),
        ("tan", "fcq", "same"),
        ("digamma", "fq", "same"),
        ("erf", "fq", "same"),
        ("erf_inv", "fq", "same"),
        ("erfc", "fq", "same"),
        ("is_inf", "fq", "pred"),
        ("is_neg_inf", "fq", "pred"),
        ("is_pos_inf", "fq", "pred"),
        ("lgamma", "fq", "same"),
        ("square", "fcq", "same"),
    )
}


class BinaryOp(IRDLOperation):
    """`chlo.next_after %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>`: an
    elementwise binary op on tensors of one type, no broadcasting (float ones unless a
    subclass says otherwise)."""

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_n_operands(parser, 2)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
        parser.parse_punctuation("->")
        r = parser.parse_type()
        return cls.create(
            operands=resolve(parser, operands, types), result_types=[r], attributes=attrs
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        """HLO_FpTensor operands and result of compatible types (upstream's ODS)."""
        values = (("operand #0", self.lhs.type), ("operand #1", self.rhs.type))
        for what, t in (*values, ("result #0", self.result.type)):
            if not ht.is_float(ht.element_type(t)):
                raise _fail(self, f"{what} must be tensor of floating-point values, but got '{t}'")
        types = [self.lhs.type, self.rhs.type, self.result.type]
        if not all(
            ht.element_type(t) == ht.element_type(types[0])
            and ht.shapes_compatible(ht.shape_of(t), ht.shape_of(types[0]))
            for t in types[1:]
        ):
            raise _fail(self, "requires compatible types for all operands and results")


def _plain_binary(name: str) -> type[BinaryOp]:
    cls = type(
        "".join(p.title() for p in name.split("_")) + "Op",
        (BinaryOp,),
        {"name": f"chlo.{name}", "__doc__": f"`chlo.{name}`: elementwise, no broadcasting."},
    )
    return irdl_op_definition(cls)


BINARY = {name: _plain_binary(name) for name in ("next_after", "polygamma", "zeta")}


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`chlo.constant dense<1> : tensor<i32>`."""

    name = "chlo.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        value = parser.parse_attribute()
        props["value"] = value
        return cls.create(result_types=[value.get_type()], properties=props, attributes=attrs)  # type: ignore[union-attr]

    def print(self, printer: Printer):
        print_extra_attrs(printer, self)
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def verify_(self) -> None:
        ht.verify_inferred_results(self.name, [self.value.get_type()], [self.output.type])


@irdl_op_definition
class ConstantLikeOp(IRDLOperation):
    """`"chlo.constant_like"(%x) {value = 1.0 : f32}`: a splat of `value` shaped as `%x`."""

    name = "chlo.constant_like"
    operand = operand_def()
    result = result_def()
    value = prop_def(Attribute)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """SameOperandsAndResultShape, then ConstantLikeOp::verify."""
        if not ht.shapes_compatible(ht.shape_of(self.operand.type), ht.shape_of(self.result.type)):
            raise _fail(self, "requires the same shape for all operands and results")
        value_type = getattr(self.value, "type", None)
        if value_type != ht.element_type(self.result.type):
            raise _fail(self, "value's type doesn't match element return type")


@irdl_op_definition
class TopKOp(IRDLOperation):
    """`chlo.top_k(%x, k = 8) : tensor<16x16xf32> -> (tensor<16x8xf32>, tensor<16x8xi32>)`:
    the k largest entries along the last dimension, and their indices."""

    name = "chlo.top_k"
    operand = operand_def()
    values = result_def()
    indices = result_def()
    k = prop_def(IntegerAttr)
    is_stable = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"k": IntegerAttr(parser.parse_integer(), i64)}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("is_stable")
            parser.parse_punctuation("=")
            props["is_stable"] = parser.parse_attribute()
        parser.parse_punctuation(")")
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        parser.parse_punctuation("(")
        values = parser.parse_type()
        parser.parse_punctuation(",")
        indices = parser.parse_type()
        parser.parse_punctuation(")")
        return cls.create(
            operands=resolve(parser, [operand], [t]),
            result_types=[values, indices],
            properties={**more, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string("(")
        printer.print_operand(self.operand)
        printer.print_string(f", k = {self.k.value.data}")
        if self.is_stable is not None:
            printer.print_string(", is_stable = ")
            printer.print_attribute(self.is_stable)
        printer.print_string(")")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> (")
        printer.print_attribute(self.values.type)
        printer.print_string(", ")
        printer.print_attribute(self.indices.type)
        printer.print_string(")")

    def verify_(self) -> None:
        """inferTopKOp, in its order and words, then the results."""
        shape = ht.shape_of(self.operand.type)
        if shape is None:
            return
        k = self.k.value.data
        if len(shape) < 1:
            raise ht.InferenceError(f"'{self.name}' operand's rank must be at least 1")
        if shape[-1] != DYNAMIC_INDEX and shape[-1] < k:
            raise ht.InferenceError(f"'{self.name}' operand's last dimension must be at least {k}")
        out = [*shape[:-1], k]
        ht.verify_inferred_results(
            self.name,
            [
                TensorType(ht.element_type(self.operand.type), out),
                TensorType(IntegerType(32), out),
            ],
            [self.values.type, self.indices.type],
        )


@irdl_op_definition
class MulhiOp(BinaryOp):
    """`chlo.mulhi %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>`: the high half
    of each product at twice the width."""

    name = "chlo.mulhi"

    def verify_(self) -> None:
        for i, t in enumerate((self.lhs.type, self.rhs.type)):
            e = ht.element_type(t)
            if not (isinstance(e, IntegerType) and e.width.data in (2, 4, 8, 16, 32, 64)):
                raise _fail(
                    self,
                    f"operand #{i} must be ranked tensor of 2/4/8/16/32/64-bit integer values, "
                    f"but got '{t}'",
                )
        if not ht.same_element_types([self.lhs.type, self.rhs.type, self.result.type]):
            raise _fail(self, "requires the same element type for all operands and results")
        shapes = [ht.shape_of(v.type) for v in (self.lhs, self.rhs, self.result)]
        if any(not ht.shapes_compatible(shapes[0], s) for s in shapes):
            raise _fail(self, "requires the same shape for all operands and results")


CHLO = Dialect(
    "chlo",
    [
        *BROADCAST_BINARY.values(),
        BroadcastComplexOp,
        BroadcastCompareOp,
        BroadcastSelectOp,
        *UNARY.values(),
        *BINARY.values(),
        ConstantOp,
        ConstantLikeOp,
        TopKOp,
        MulhiOp,
        RaggedDotOp,
        ScanOp,
    ],
    [
        ChloComparisonDirectionAttr,
        ChloComparisonTypeAttr,
        ChloPrecisionAttr,
        RaggedDotDimensionNumbersAttr,
    ],
)
