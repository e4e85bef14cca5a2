"""Attributes of the StableHLO-like dialect, printed exactly as upstream prints them.

#stablehlo<comparison_direction GT>     #stablehlo<comparison_type FLOAT>
#stablehlo<precision DEFAULT>
#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
               lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>
#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
                  start_index_map = [0], index_vector_dim = 1>
#stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32,
    accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1,
    num_primitive_operations = 1, allow_imprecise_accumulation = false>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from qdialect.dialects.hlo_syntax import int_list_text
from qdialect.ir import xdsl_private as xp


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.comparison_direction"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.comparison_type"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.precision"


def _parse_field_list(
    parser: AttrParser, fields: Sequence[str], ints: Sequence[str] = ()
) -> dict[str, object]:
    """`<name = [..], name = N, ...>` with fields in any order, each optional."""
    values: dict[str, object] = {}
    with parser.in_angle_brackets():
        if xp.current_token(parser).kind == MLIRTokenKind.GREATER:
            return values

        def entry() -> None:
            start = parser.pos
            key = parser.parse_identifier()
            if key not in fields and key not in ints:
                parser.raise_error(f"unknown field '{key}'", start, parser.pos)
            if key in values:
                parser.raise_error(f"duplicate field '{key}'", start, parser.pos)
            parser.parse_punctuation("=")
            if key in ints:
                values[key] = parser.parse_integer(allow_boolean=False)
            else:
                values[key] = tuple(
                    parser.parse_comma_separated_list(
                        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
                    )
                )

        parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
    return values


@dataclass(frozen=True)
class DotDims:
    lhs_batching_dimensions: tuple[int, ...] = ()
    rhs_batching_dimensions: tuple[int, ...] = ()
    lhs_contracting_dimensions: tuple[int, ...] = ()
    rhs_contracting_dimensions: tuple[int, ...] = ()


_DOT_FIELDS = (
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
)


@irdl_attr_definition
class DotDimensionNumbersAttr(Data[DotDims]):
    """`#stablehlo.dot<...>`: batching and contracting dimensions of dot_general."""

    name = "stablehlo.dot"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DotDims:
        return DotDims(**_parse_field_list(parser, _DOT_FIELDS))  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<" + dot_dims_text(self.data, "{} = {}") + ">")


def dot_dims_text(dims: DotDims, template: str) -> str:
    parts = [
        template.format(field, int_list_text(getattr(dims, field)))
        for field in _DOT_FIELDS
        if getattr(dims, field)
    ]
    return ", ".join(parts)


@dataclass(frozen=True)
class ConvDims:
    input_batch_dimension: int
    input_feature_dimension: int
    input_spatial_dimensions: tuple[int, ...]
    kernel_input_feature_dimension: int
    kernel_output_feature_dimension: int
    kernel_spatial_dimensions: tuple[int, ...]
    output_batch_dimension: int
    output_feature_dimension: int
    output_spatial_dimensions: tuple[int, ...]


def _layout_text(
    rank: int, first: tuple[str, int], second: tuple[str, int], spatial: Sequence[int]
) -> str:
    labels = [""] * rank
    labels[first[1]] = first[0]
    labels[second[1]] = second[0]
    for index, dim in enumerate(spatial):
        labels[dim] = str(index)
    return "[" + ", ".join(labels) + "]"


def conv_dims_text(d: ConvDims) -> str:
    n = len(d.input_spatial_dimensions) + 2
    return (
        _layout_text(
            n,
            ("b", d.input_batch_dimension),
            ("f", d.input_feature_dimension),
            d.input_spatial_dimensions,
        )
        + "x"
        + _layout_text(
            n,
            ("i", d.kernel_input_feature_dimension),
            ("o", d.kernel_output_feature_dimension),
            d.kernel_spatial_dimensions,
        )
        + "->"
        + _layout_text(
            n,
            ("b", d.output_batch_dimension),
            ("f", d.output_feature_dimension),
            d.output_spatial_dimensions,
        )
    )


def _parse_layout(parser: AttrParser, letters: tuple[str, str]) -> tuple[int, int, tuple[int, ...]]:
    """`[b, 0, 1, f]` -> (position of letters[0], position of letters[1], spatial positions)."""
    start = parser.pos
    items: list[str] = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE,
        lambda: (
            str(parser.parse_optional_integer(allow_boolean=False, allow_negative=False))
            if xp.current_token(parser).kind == MLIRTokenKind.INTEGER_LIT
            else parser.parse_identifier()
        ),
    )
    found: dict[str, int] = {}
    spatial: dict[int, int] = {}
    for position, item in enumerate(items):
        if item.isdigit():
            if int(item) in spatial:
                parser.raise_error(f"duplicate spatial dimension {item}", start, parser.pos)
            spatial[int(item)] = position
        elif item in letters and item not in found:
            found[item] = position
        else:
            parser.raise_error(
                f"unexpected dimension label '{item}' (expected {letters} or a number)",
                start,
                parser.pos,
            )
    if len(found) != 2 or sorted(spatial) != list(range(len(spatial))):
        parser.raise_error(
            f"a layout needs '{letters[0]}', '{letters[1]}' and spatial dimensions 0..n-1",
            start,
            parser.pos,
        )
    return found[letters[0]], found[letters[1]], tuple(spatial[i] for i in range(len(spatial)))


def parse_conv_dims(parser: AttrParser) -> ConvDims:
    ib, if_, isp = _parse_layout(parser, ("b", "f"))
    parser.parse_keyword("x")
    ki, ko, ksp = _parse_layout(parser, ("i", "o"))
    parser.parse_punctuation("->")
    ob, of, osp = _parse_layout(parser, ("b", "f"))
    if not len(isp) == len(ksp) == len(osp):
        parser.raise_error(
            "input, kernel and output layouts need the same number of spatial dimensions"
        )
    return ConvDims(ib, if_, isp, ki, ko, ksp, ob, of, osp)


@irdl_attr_definition
class ConvDimensionNumbersAttr(Data[ConvDims]):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`."""

    name = "stablehlo.conv"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ConvDims:
        with parser.in_angle_brackets():
            return parse_conv_dims(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<" + conv_dims_text(self.data) + ">")


@dataclass(frozen=True)
class GatherDims:
    offset_dims: tuple[int, ...] = ()
    collapsed_slice_dims: tuple[int, ...] = ()
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()
    start_index_map: tuple[int, ...] = ()
    index_vector_dim: int = 0


_GATHER_LISTS = (
    "offset_dims",
    "collapsed_slice_dims",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "start_index_map",
)


@irdl_attr_definition
class GatherDimensionNumbersAttr(Data[GatherDims]):
    """`#stablehlo.gather<...>`."""

    name = "stablehlo.gather"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> GatherDims:
        return GatherDims(**_parse_field_list(parser, _GATHER_LISTS, ("index_vector_dim",)))  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        d = self.data
        parts = [f"{f} = {int_list_text(getattr(d, f))}" for f in _GATHER_LISTS if getattr(d, f)]
        parts.append(f"index_vector_dim = {d.index_vector_dim}")
        printer.print_string("<" + ", ".join(parts) + ">")


def int_attr_value(attr: IntAttr | None, default: int) -> int:
    return default if attr is None else attr.data


def check_unique_in_range(values: Sequence[int], rank: int, what: str) -> None:
    for v in values:
        if not 0 <= v < rank:
            raise VerifyException(f"{what} {v} is out of range [0, {rank})")
    if len(set(values)) != len(values):
        raise VerifyException(f"{what} contains duplicates: {int_list_text(values)}")


@dataclass(frozen=True)
class DotAlgorithm:
    lhs_precision_type: Attribute
    rhs_precision_type: Attribute
    accumulation_type: Attribute
    lhs_component_count: int
    rhs_component_count: int
    num_primitive_operations: int
    allow_imprecise_accumulation: bool


_F8 = frozenset(
    ("f8E3M4", "f8E4M3", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E5M2FNUZ")
)
# (lhs, rhs, accumulation, primitive operations) of the algorithms the spec lists as
# known to run on some hardware (one component each, precise accumulation).
_KNOWN_ALGORITHMS = frozenset(
    {
        ("f16", "f16", "f16", 1),
        ("f16", "f16", "f32", 1),
        ("bf16", "bf16", "bf16", 1),
        ("bf16", "bf16", "f32", 1),
        ("bf16", "bf16", "f32", 3),
        ("bf16", "bf16", "f32", 6),
        ("bf16", "bf16", "f32", 9),
        ("tf32", "tf32", "f32", 1),
        ("tf32", "tf32", "f32", 3),
        ("f32", "f32", "f32", 1),
        ("f64", "f64", "f64", 1),
    }
)


def _type_name(t: Attribute) -> str:
    return str(getattr(t, "name", t))


def dot_algorithm_problem(a: DotAlgorithm) -> str | None:
    """Why `a` is not a valid dot algorithm (dot_general C22-C24, and the spec's best-effort
    check that the combination is known to run somewhere), or None; upstream's wording."""
    if a.lhs_component_count < 1:
        return "lhs component count must be positive"
    if a.rhs_component_count < 1:
        return "rhs component count must be positive"
    if a.num_primitive_operations < 1:
        return "num primitive operations must be positive"
    lhs, rhs, acc = (
        _type_name(t) for t in (a.lhs_precision_type, a.rhs_precision_type, a.accumulation_type)
    )
    if a.lhs_component_count == 1 and a.rhs_component_count == 1:
        if lhs in _F8 and rhs in _F8 and acc == "f32" and a.num_primitive_operations == 1:
            return None
        key = (lhs, rhs, acc, a.num_primitive_operations)
        if not a.allow_imprecise_accumulation and key in _KNOWN_ALGORITHMS:
            return None
    return (
        f"dot algorithm not known to be supported on any hardware: {{lhs:'{a.lhs_precision_type}', "
        f"rhs:'{a.rhs_precision_type}', accum:'{a.accumulation_type}', "
        f"lhs_components:{a.lhs_component_count}, rhs_components:{a.rhs_component_count}, "
        f"primitive_ops:{a.num_primitive_operations}, "
        f"imprecise:{int(a.allow_imprecise_accumulation)}}}"
    )


_ALGORITHM_TYPES = ("lhs_precision_type", "rhs_precision_type", "accumulation_type")
_ALGORITHM_INTS = ("lhs_component_count", "rhs_component_count", "num_primitive_operations")


@irdl_attr_definition
class DotAlgorithmAttr(Data[DotAlgorithm]):
    """`#stablehlo.dot_algorithm<...>`: the precision dot_general computes in. Every field is
    written, in upstream's order; an invalid one is an error at the attribute, as upstream
    reports it."""

    name = "stablehlo.dot_algorithm"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DotAlgorithm:
        start = parser.pos
        values: dict[str, object] = {}
        with parser.in_angle_brackets():
            for i, key in enumerate((*_ALGORITHM_TYPES, *_ALGORITHM_INTS)):
                if i:
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                values[key] = (
                    parser.parse_type() if key in _ALGORITHM_TYPES else parser.parse_integer()
                )
            parser.parse_punctuation(",")
            parser.parse_keyword("allow_imprecise_accumulation")
            parser.parse_punctuation("=")
            values["allow_imprecise_accumulation"] = parser.parse_boolean()
        algorithm = DotAlgorithm(**values)  # type: ignore[arg-type]
        if (problem := dot_algorithm_problem(algorithm)) is not None:
            parser.raise_error(problem, start, parser.pos)
        return algorithm

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(dot_algorithm_text(self.data))


def dot_algorithm_text(a: DotAlgorithm) -> str:
    """`<lhs_precision_type = ..., ..., allow_imprecise_accumulation = false>`."""
    parts = [f"{k} = {getattr(a, k)}" for k in (*_ALGORITHM_TYPES, *_ALGORITHM_INTS)]
    parts.append(f"allow_imprecise_accumulation = {str(a.allow_imprecise_accumulation).lower()}")
    return "<" + ", ".join(parts) + ">"
