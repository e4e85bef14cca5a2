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

from xdsl.dialects.builtin import DYNAMIC_INDEX, IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from qdialect.dialects.hlo_syntax import int_list_text
from qdialect.ir import xdsl_private as xp
from qdialect.ir.errors import add_follow_up


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
    """`<name = [..], name = N, ...>` with fields in any order, each optional, and an
    optional trailing comma (the attributes upstream declares with a struct format)."""
    values: dict[str, object] = {}

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

    with parser.in_angle_brackets():
        if xp.current_token(parser).kind == MLIRTokenKind.GREATER:
            return {}
        entry()
        while parser.parse_optional_punctuation(",") is not None:
            if xp.current_token(parser).kind == MLIRTokenKind.GREATER:
                break
            entry()
    return values


def parse_struct(
    parser: AttrParser, fields: Sequence[str], ints: Sequence[str], what: str
) -> dict[str, object]:
    """`name = [..], name = N, ... >` as upstream's parseStruct reads it (the `<` already
    read): fields in any order, each at most once, a trailing comma allowed. A failure
    reads `duplicated `X` entry` / `expected one of: `a`, `b``, followed, as in MLIR,
    by `failed parsing <what> attribute` at the same place."""
    values: dict[str, object] = {}
    try:
        while parser.parse_optional_punctuation(">") is None:
            found = False
            for name in fields:
                if parser.parse_optional_keyword(name) is None:
                    continue
                if name in values:
                    at = parser.pos
                    parser.raise_error(f"duplicated `{name}` entry", at, at)
                parser.parse_punctuation("=")
                if name in ints:
                    values[name] = parser.parse_integer(allow_boolean=False)
                else:
                    values[name] = tuple(
                        parser.parse_comma_separated_list(
                            parser.Delimiter.SQUARE,
                            lambda: parser.parse_integer(allow_boolean=False),
                        )
                    )
                if parser.parse_optional_punctuation(",") is None:
                    parser.parse_punctuation(">")
                    return values
                found = True
            if not found:
                expected = ", ".join(f"`{name}`" for name in fields)
                parser.raise_error(f"expected one of: {expected}", parser.pos, parser.pos)
    except ParseError as err:
        at = parser.pos
        follow = ParseError(
            Span(at, at, xp.current_token(parser).span.input),
            f"failed parsing {what} attribute",
        )
        raise add_follow_up(err, follow) from None
    return values


def struct_text(data: object, fields: Sequence[str]) -> str:
    """printStruct: `<name = [..], name = N>` with the empty lists and zero integers left
    out, as upstream prints them."""
    parts = []
    for name in fields:
        value = getattr(data, name)
        if isinstance(value, tuple) and value:
            parts.append(f"{name} = {int_list_text(value)}")
        elif isinstance(value, int) and value != 0:
            parts.append(f"{name} = {value}")
    return "<" + ", ".join(parts) + ">"


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
        parser.parse_punctuation("<")
        return DotDims(**parse_struct(parser, _DOT_FIELDS, (), "dot dimension numbers"))  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(struct_text(self.data, _DOT_FIELDS))


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


_CONV_INTS = (
    "input_batch_dimension",
    "input_feature_dimension",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "output_batch_dimension",
    "output_feature_dimension",
)
_CONV_LISTS = ("input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions")
_CONV_RAW_FIELDS = (
    "input_batch_dimension",
    "input_feature_dimension",
    "input_spatial_dimensions",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "kernel_spatial_dimensions",
    "output_batch_dimension",
    "output_feature_dimension",
    "output_spatial_dimensions",
)


def _layout_text(
    rank: int, first: tuple[str, int], second: tuple[str, int], spatial: Sequence[int]
) -> str:
    """One `[b, 0, 1, f]` group; dimensions no number names print as `?`, as upstream
    prints the raw form's impossible numbers."""
    labels = ["?"] * rank
    for label, dim in (first, second, *((str(i), d) for i, d in enumerate(spatial))):
        if 0 <= dim < rank:
            labels[dim] = label
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
    """`[b, 0, 1, f]` -> (position of letters[0], position of letters[1], spatial positions),
    with upstream's messages (ConvDimensionNumbersAttr's parser)."""
    parser.parse_punctuation("[")
    allowed = list(letters)
    found: dict[str, int] = {}
    spatial: dict[int, int] = {}
    index = 0
    while True:
        start = parser.pos
        number = parser.parse_optional_integer(allow_boolean=False, allow_negative=True)
        if number is not None:
            if number < 0:
                parser.raise_error(f"Unexpected dimension {number}", start, parser.pos)
            if number in spatial:
                parser.raise_error(
                    f"Duplicate entries for spatial dimension {number}", start, parser.pos
                )
            spatial[number] = index
        else:
            keyword = parser.parse_identifier()
            if len(keyword) != 1 or not allowed:
                parser.raise_error(f"Unexpected keyword {keyword}", start, parser.pos)
            if keyword not in allowed:
                parser.raise_error(
                    f"Unexpected dimension {keyword}, expecting {', '.join(allowed)}",
                    start,
                    parser.pos,
                )
            allowed.remove(keyword)
            found[keyword] = index
        index += 1
        if parser.parse_optional_punctuation(",") is None:
            break
    if allowed:
        parser.raise_error(f"Expected dimensions {', '.join(allowed)} not specified")
    parser.parse_punctuation("]")
    count = max(spatial, default=-1) + 1
    # The first ten numbers missing below the largest one; they lie within the first
    # len(spatial) + 10 (a hostile `2147483648` must not make a list that long).
    missing = [d for d in range(min(count, len(spatial) + 10)) if d not in spatial][:10]
    if missing:
        parser.raise_error(
            f"Expected spatial dimensions {', '.join(map(str, missing))} not specified"
        )
    return found[letters[0]], found[letters[1]], tuple(spatial[i] for i in range(count))


def parse_conv_dims(parser: AttrParser) -> ConvDims:
    """The compact form `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`. Spatial counts that
    differ are the op verifier's error, as upstream reports them."""
    ib, if_, isp = _parse_layout(parser, ("b", "f"))
    parser.parse_keyword("x")
    ki, ko, ksp = _parse_layout(parser, ("i", "o"))
    parser.parse_punctuation("->")
    ob, of, osp = _parse_layout(parser, ("b", "f"))
    return ConvDims(ib, if_, isp, ki, ko, ksp, ob, of, osp)


def _parse_raw_conv_dims(parser: AttrParser) -> ConvDims:
    """`raw input_batch_dimension = 0, ..., output_spatial_dimensions = [1, 2]`: the
    fields one by one, so tests can write numbers no compact form can (upstream's form)."""
    fields = parse_struct(parser, _CONV_RAW_FIELDS, _CONV_INTS, "dot dimension numbers")
    values = {name: fields.get(name, 0) for name in _CONV_INTS}
    values.update({name: fields.get(name, ()) for name in _CONV_LISTS})
    return ConvDims(**values)  # type: ignore[arg-type]


@irdl_attr_definition
class ConvDimensionNumbersAttr(Data[ConvDims]):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` or `#stablehlo.conv<raw ...>`."""

    name = "stablehlo.conv"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ConvDims:
        parser.parse_punctuation("<")
        if parser.parse_optional_keyword("raw") is not None:
            return _parse_raw_conv_dims(parser)  # upstream's words: "... dot dimension numbers"
        dims = parse_conv_dims(parser)
        parser.parse_punctuation(">")
        return dims

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
_GATHER_FIELDS = (*_GATHER_LISTS, "index_vector_dim")


@irdl_attr_definition
class GatherDimensionNumbersAttr(Data[GatherDims]):
    """`#stablehlo.gather<...>`."""

    name = "stablehlo.gather"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> GatherDims:
        parser.parse_punctuation("<")
        fields = parse_struct(
            parser, _GATHER_FIELDS, ("index_vector_dim",), "gather dimension numbers"
        )
        return GatherDims(**fields)  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(struct_text(self.data, _GATHER_FIELDS))


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


class ResultAccuracyMode(StrEnum):
    DEFAULT = "DEFAULT"
    HIGHEST = "HIGHEST"
    TOLERANCE = "TOLERANCE"


@irdl_attr_definition
class ResultAccuracyModeAttr(Data[str]):
    """`#stablehlo.result_accuracy_mode<DEFAULT|HIGHEST|TOLERANCE>`."""

    name = "stablehlo.result_accuracy_mode"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        with parser.in_angle_brackets():
            start = parser.pos
            mode = parser.parse_identifier()
            if mode not in ResultAccuracyMode.__members__:
                parser.raise_error(
                    f"expected one of [{', '.join(ResultAccuracyMode.__members__)}] for "
                    f"result accuracy mode, got '{mode}'",
                    start,
                    parser.pos,
                )
            return mode

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")


@dataclass(frozen=True)
class ResultAccuracy:
    atol: float = 0.0
    rtol: float = 0.0
    ulps: int = 0
    mode: str = ResultAccuracyMode.DEFAULT


@irdl_attr_definition
class ResultAccuracyAttr(Data[ResultAccuracy]):
    """`#stablehlo.result_accuracy<atol = 1.0e-5, rtol = 0.0, ulps = 2, mode = #stablehlo.
    result_accuracy_mode<TOLERANCE>>`: the accuracy a transcendental op's result must have.
    The tolerances come in that order, each optional, then the mode; zero tolerances
    are not printed. A negative tolerance, or one with mode DEFAULT or HIGHEST, is an
    error at the attribute (upstream's words)."""

    name = "stablehlo.result_accuracy"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ResultAccuracy:
        parser.parse_punctuation("<")
        values: dict[str, float] = {}
        for key in ("atol", "rtol", "ulps"):
            if parser.parse_optional_keyword(key) is not None:
                parser.parse_punctuation("=")
                values[key] = (
                    parser.parse_integer() if key == "ulps" else float(parser.parse_number())
                )
                parser.parse_punctuation(",")
        parser.parse_keyword("mode")
        parser.parse_punctuation("=")
        start = parser.pos
        mode = parser.parse_attribute()
        if not isinstance(mode, ResultAccuracyModeAttr):
            parser.raise_error("expected #stablehlo.result_accuracy_mode<...>", start, parser.pos)
        parser.parse_punctuation(">")
        accuracy = ResultAccuracy(
            values.get("atol", 0.0), values.get("rtol", 0.0), int(values.get("ulps", 0)), mode.data
        )
        if (message := _result_accuracy_error(accuracy)) is not None:
            parser.raise_error(message, parser.pos - 1, parser.pos)
        return accuracy

    def print_parameter(self, printer: Printer) -> None:
        from qdialect.ir.float_format import format_mlir_double

        a = self.data
        parts = [f"atol = {format_mlir_double(a.atol)}"] if a.atol else []
        parts += [f"rtol = {format_mlir_double(a.rtol)}"] if a.rtol else []
        parts += [f"ulps = {a.ulps}"] if a.ulps else []
        parts.append(f"mode = #stablehlo.result_accuracy_mode<{a.mode}>")
        printer.print_string("<" + ", ".join(parts) + ">")


def _result_accuracy_error(a: ResultAccuracy) -> str | None:
    if a.atol < 0 or a.rtol < 0 or a.ulps < 0:
        return "Negative tolerance"
    if a.mode in ("DEFAULT", "HIGHEST") and (a.atol or a.rtol or a.ulps):
        return f"Invalid tolerances for ResultAccuracyAttr with mode {a.mode}, must be all zero."
    return None


@dataclass(frozen=True)
class OutputOperandAlias:
    output_tuple_indices: tuple[int, ...] = ()
    operand_index: int = 0
    operand_tuple_indices: tuple[int, ...] = ()


@irdl_attr_definition
class OutputOperandAliasAttr(Data[OutputOperandAlias]):
    """`#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0,
    operand_tuple_indices = [1]>`: a custom_call result (part) that reuses an operand's
    buffer."""

    name = "stablehlo.output_operand_alias"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> OutputOperandAlias:
        fields = _parse_field_list(
            parser, ("output_tuple_indices", "operand_tuple_indices"), ("operand_index",)
        )
        return OutputOperandAlias(**fields)  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        d = self.data
        printer.print_string(
            f"<output_tuple_indices = {int_list_text(d.output_tuple_indices)}, "
            f"operand_index = {d.operand_index}, "
            f"operand_tuple_indices = {int_list_text(d.operand_tuple_indices)}>"
        )


def _parse_bound(parser: AttrParser) -> int:
    if parser.parse_optional_punctuation("?") is not None:
        return DYNAMIC_INDEX
    start = parser.pos
    value = parser.parse_integer(allow_boolean=False)
    if value >= 2**63:
        parser.raise_error(f"bound {value} does not fit a 64-bit integer", start, parser.pos)
    return DYNAMIC_INDEX if value < 0 else value  # older files write no bound as -1


def _bounds_text(bounds: Sequence[int]) -> str:
    return ", ".join("?" if b == DYNAMIC_INDEX else str(b) for b in bounds)


@irdl_attr_definition
class BoundsAttr(Data[tuple[int, ...]]):
    """`#stablehlo.bounds<3, ?>`: a tensor encoding giving each dynamic dimension an upper
    bound (`?` for none), StableHLO's bounded dynamism. Upstream prints every
    `#stablehlo.type_extensions<bounds = [3, ?]>` in this form; the parser turns the long
    form into this one (`qdialect.ir.parser`)."""

    name = "stablehlo.bounds"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, ...]:
        with parser.in_angle_brackets():
            if xp.current_token(parser).kind == MLIRTokenKind.GREATER:
                return ()
            return tuple(
                parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, lambda: _parse_bound(parser)
                )
            )

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{_bounds_text(self.data)}>")

    @property
    def bounds(self) -> tuple[int, ...]:
        return self.data

    def problem(self, shape: Sequence[int], type_text: str) -> str | None:
        """Upstream's verifyBounds on a tensor of `shape`: one bound per dimension, and
        none on a static dimension."""
        if len(self.data) != len(shape):
            return (
                f"Bounds length is {len(self.data)}, expected to be equal to rank({len(shape)}) "
                f"of the tensor {type_text}"
            )
        for dim, (bound, size) in enumerate(zip(self.data, shape, strict=True)):
            if bound != DYNAMIC_INDEX and size != DYNAMIC_INDEX:
                return (
                    f"Static dimension {dim} cannot have a bound, use ShapedType::kDynamic to "
                    f"indicate a missing bound in tensor {type_text}"
                )
        return None


@irdl_attr_definition
class TypeExtensionsAttr(Data[tuple[int, ...]]):
    """`#stablehlo.type_extensions<bounds = [3, ?]>`, the long form of `#stablehlo.bounds`."""

    name = "stablehlo.type_extensions"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, ...]:
        with parser.in_angle_brackets():
            parser.parse_keyword("bounds")
            parser.parse_punctuation("=")
            return tuple(
                parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: _parse_bound(parser)
                )
            )

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<bounds = [{_bounds_text(self.data)}]>")

    def canonical(self) -> BoundsAttr:
        return BoundsAttr(self.data)
