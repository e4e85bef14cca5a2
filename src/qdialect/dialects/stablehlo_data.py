"""StableHLO data-movement ops beyond the core set: reverse, scatter,
select_and_scatter, dynamic_update_slice, get_dimension_size and the
dynamic-shape ops (dynamic_broadcast_in_dim, dynamic_iota, dynamic_pad,
dynamic_reshape, dynamic_gather, dynamic_conv, real_dynamic_slice).

Pretty forms are upstream's where it has one (`stablehlo.reverse %x, dims =
[0] : T`, `stablehlo.get_dimension_size %x, dim = 1 : (T) -> tensor<i32>`,
`stablehlo.dynamic_iota %s, dim = 0 : (S) -> T`, ...); the others print
generically, as `stablehlo-opt` does. Joined to the `stablehlo` dialect by
`qdialect.dialects.get_all_dialects()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Data, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.dim_rules import dims_text, out_of_range, repeated
from qdialect.dialects.hlo_syntax import (
    ClauseSyntax,
    FunctionalSyntax,
    dense_i64,
    dense_values,
    int_list_text,
    parse_int_list,
    parse_same_operands_and_result_type,
    print_extra_attrs,
    print_same_operands_and_result_type,
    resolve,
    split_attr_dict,
)
from qdialect.dialects.stablehlo import (
    _expect_inferred,
    _same_element_or_baseline,
    _verify_kept_quantization,
    _verify_same_scale_count,
    verify_broadcast_quantization,
    verify_convolution,
    verify_gather,
    window_padding,
)
from qdialect.dialects.stablehlo_attrs import (
    ConvDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
    parse_struct,
    struct_text,
)
from qdialect.dialects.stablehlo_reducer import same_shape_and_element, verify_reducer
from qdialect.dialects.window import WindowError, check_window, window_output_shape
from qdialect.ir.constants import constant_array

# ==========================================================================
# #stablehlo.scatter
# ==========================================================================


@dataclass(frozen=True)
class ScatterDims:
    update_window_dims: tuple[int, ...] = ()
    inserted_window_dims: tuple[int, ...] = ()
    input_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()
    scatter_dims_to_operand_dims: tuple[int, ...] = ()
    index_vector_dim: int = 0


_SCATTER_LISTS = (
    "update_window_dims",
    "inserted_window_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims",
)
_SCATTER_FIELDS = (*_SCATTER_LISTS, "index_vector_dim")


@irdl_attr_definition
class ScatterDimensionNumbersAttr(Data[ScatterDims]):
    """`#stablehlo.scatter<update_window_dims = [..], ..., index_vector_dim = N>`."""

    name = "stablehlo.scatter"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ScatterDims:
        parser.parse_punctuation("<")
        fields = parse_struct(
            parser, _SCATTER_FIELDS, ("index_vector_dim",), "scatter dimension numbers"
        )
        return ScatterDims(**fields)  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(struct_text(self.data, _SCATTER_FIELDS))


# ==========================================================================
# Helpers
# ==========================================================================


def _is_int_tensor(t: Attribute, rank: int | None = None) -> bool:
    e = ht.element_type(t)
    ok = ht.is_tensor(t) and (ht.is_integer(e) or ht.is_index_like(e))
    return ok and (rank is None or ht.rank_of(t) in (rank, None))


def constant_ints(v: SSAValue) -> list[int] | None:
    """The integers of `v`, flat, when a constant defines it (upstream's matchInts), a
    splat spread over its type; else None."""
    array = constant_array(v)
    return None if array is None else [int(x) for x in array.reshape(-1)]


def _require_int_vector(op: Operation, v: SSAValue, what: str, size: int | None = None) -> None:
    t = v.type
    if not _is_int_tensor(t, 1):
        raise VerifyException(f"'{op.name}' {what} must be a 1-D tensor of integers, got {t}")
    shape = ht.shape_of(t)
    if size is not None and shape is not None and shape[0] not in (size, DYNAMIC_INDEX):
        raise VerifyException(f"'{op.name}' {what} must have {size} elements, got {t}")


def verify_shape_operand(op: Operation, shape_value: SSAValue, result: Attribute) -> None:
    """Upstream's verifyShapeOperandIsCompatibleWithResultType: a constant shape operand
    (negative sizes included) must fit the result type."""
    shape = constant_ints(shape_value)
    sr = ht.shape_of(result)
    if shape is None or sr is None:
        return
    if any(d < 0 for d in shape) or not ht.shapes_compatible(tuple(shape), sr):
        raise VerifyException(
            f"'{op.name}' output shape [{', '.join(map(str, shape))}] is incompatible "
            f"with return type of operation '{result}'"
        )


def _scalar_body(op: Operation, region, element_types: Sequence[Attribute], what: str) -> None:
    from qdialect.dialects.stablehlo_control import _arg_types, _returned

    args = _arg_types(region)
    if any(ht.rank_of(a) != 0 for a in args) or len(args) != len(element_types):
        raise VerifyException(
            f"'{op.name}' {what} must take {len(element_types)} rank-0 tensors, got {len(args)} arguments"
        )
    _returned(op, region, what)


# ==========================================================================
# Ops with pretty forms
# ==========================================================================


@irdl_op_definition
class ReverseOp(IRDLOperation):
    """`stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>`."""

    name = "stablehlo.reverse"
    operand = operand_def()
    result = result_def()
    dimensions = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("dims")
        parser.parse_punctuation("=")
        dims = parse_int_list(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["dimensions"] = dense_i64(dims)
        parser.parse_punctuation(":")
        types, result = parse_same_operands_and_result_type(parser, 1)
        return cls.create(
            operands=resolve(parser, [operand], types),
            result_types=[result],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", dims = {int_list_text(dense_values(self.dimensions))}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, [self.operand], self.result.type)

    def verify_(self) -> None:
        dims = dense_values(self.dimensions)
        if len(set(dims)) != len(dims):  # verifyReverseOp, in its order and words
            raise VerifyException(
                f"'{self.name}' dimensions should be unique. Got: {', '.join(map(str, dims))}"
            )
        rank = ht.rank_of(self.operand.type)
        for d in dims:
            if d < 0:
                raise VerifyException(
                    f"'{self.name}' all dimensions should be non-negative. Got dimension: {d}."
                )
            if rank is not None and d >= rank:
                raise VerifyException(
                    f"'{self.name}' all dimensions should be between [0, {rank}). Got "
                    f"dimension: {d}."
                )
        # Upstream's SameOperandsAndResultElementType, then type inference: the result
        # need only be compatible with the operand (`tensor<2xf64>` -> `tensor<?xf64>`).
        if ht.element_type(self.operand.type) != ht.element_type(self.result.type):
            raise VerifyException(
                f"'{self.name}' requires the same element type for all operands and results"
            )
        if not ht.shapes_compatible(ht.shape_of(self.operand.type), ht.shape_of(self.result.type)):
            raise ht.InferenceError(
                f"'{self.name}' inferred type(s) '{self.operand.type}' are incompatible with "
                f"return type(s) of operation '{self.result.type}'"
            )


class _DimensionClause(ClauseSyntax):
    """`..., dim = N` of get_dimension_size and set_dimension_size."""

    dimension = prop_def(IntegerAttr)

    @classmethod
    def parse_clause(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        return {"dimension": IntegerAttr(parser.parse_integer(allow_boolean=False), i64)}

    def clause_text(self) -> str:
        return f"dim = {self.dimension.value.data}"

    def verify_dimension(self) -> list[int] | None:
        """verifyDimInBounds, in its words; the operand's shape when it is ranked."""
        shape = ht.shape_of(self.operands[0].type)
        dim = self.dimension.value.data
        if shape is not None and not 0 <= dim < len(shape):
            raise VerifyException(
                f"'{self.name}' requires dimension attribute in range [0, {len(shape)}); "
                f"found ({dim})"
            )
        return None if shape is None else list(shape)


@irdl_op_definition
class GetDimensionSizeOp(_DimensionClause):
    """`stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>`."""

    name = "stablehlo.get_dimension_size"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        self.verify_dimension()
        t = self.result.type
        e = ht.element_type(t)
        if ht.rank_of(t) != 0 or not (isinstance(e, IntegerType) and e.width.data == 32):
            raise VerifyException(f"'{self.name}' result must be a tensor<i32>, got {t}")


@irdl_op_definition
class SetDimensionSizeOp(_DimensionClause):
    """`stablehlo.set_dimension_size %x, %size, dim = 1 : (tensor<4x2xf32>, tensor<i32>) ->
    tensor<4x?xf32, #stablehlo.bounds<?, 2>>`: the operand, its dimension `dim` made dynamic
    with the static size as its bound (XLA's bounded dynamism; the spec has no such op)."""

    name = "stablehlo.set_dimension_size"
    OPERANDS: ClassVar[int] = 2
    operand = operand_def()
    size = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """inferSetDimensionSizeOp, in its order and words: the inferred shape has
        dimension `dim` dynamic, unless a constant size equals its static size or bound."""
        if ht.rank_of(self.size.type) != 0:
            raise VerifyException(f"'{self.name}' size operand should be of rank-0")
        shape = self.verify_dimension()
        dim = self.dimension.value.data
        if shape is None:
            return
        bounds = getattr(getattr(self.operand.type, "encoding", None), "bounds", None)
        if shape[dim] != DYNAMIC_INDEX:
            bound = shape[dim]
        else:
            bound = bounds[dim] if bounds and len(bounds) > dim else DYNAMIC_INDEX
        inferred = list(shape)
        inferred[dim] = DYNAMIC_INDEX
        size = constant_ints(self.size)
        if size is not None and size and size[0] == bound:
            inferred[dim] = size[0]
        ht.verify_inferred_results(
            self.name,
            [TensorType(ht.element_type(self.operand.type), inferred)],
            [self.result.type],
        )


@irdl_op_definition
class DynamicUpdateSliceOp(FunctionalSyntax):
    """`stablehlo.dynamic_update_slice %x, %update, %i, %j : (...) -> R`."""

    name = "stablehlo.dynamic_update_slice"
    operand = operand_def()
    update = operand_def()
    start_indices = var_operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """inferDynamicUpdateSliceOp's checks, in its order and words, then the result
        against the operand's type it infers."""
        for i in self.start_indices:
            if ht.rank_of(i.type) not in (0, None) or not ht.is_integer(ht.element_type(i.type)):
                raise VerifyException(
                    f"'{self.name}' start indices must be rank-0 integer tensors, got {i.type}"
                )
        _same_element_or_baseline(self, self.operand.type, self.update.type, "operand and update")
        so, su = ht.shape_of(self.operand.type), ht.shape_of(self.update.type)
        if so is not None and su is not None:
            if len(su) != len(so):
                raise VerifyException(
                    f"'{self.name}' update rank does not match operand rank: {len(su)} vs "
                    f"{len(so)}."
                )
            if len(self.start_indices) != len(so):
                raise VerifyException(
                    f"'{self.name}' expects number of start_indices to match operand rank: "
                    f"{len(self.start_indices)} vs {len(so)}."
                )
            if len({ht.element_type(i.type) for i in self.start_indices}) > 1:
                raise VerifyException(f"'{self.name}' start indices must have same element type")
            for d, (u, o) in enumerate(zip(su, so, strict=True)):
                if u != DYNAMIC_INDEX and o != DYNAMIC_INDEX and not 0 <= u <= o:
                    raise VerifyException(
                        f"'{self.name}' expects size at dimension {d} of update to be in range "
                        f"[0, {o}]. Got: {u}."
                    )
            _expect_inferred(self, so, self.operand.type, self.result.type)
        if ht.element_type(self.operand.type) != ht.element_type(self.result.type):
            raise VerifyException(
                f"'{self.name}' failed to verify that all of {{operand, update, result}} have "
                "same element type"
            )


@irdl_op_definition
class DynamicIotaOp(IRDLOperation):
    """`stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi64>`."""

    name = "stablehlo.dynamic_iota"
    output_shape = operand_def()
    result = result_def()
    iota_dimension = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        shape = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer(allow_boolean=False)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["iota_dimension"] = IntegerAttr(dim, i64)
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, [shape], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.output_shape)
        printer.print_string(f", dim = {self.iota_dimension.value.data}")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([self.output_shape.type], [self.result.type])

    def verify_(self) -> None:
        rank = ht.rank_of(self.result.type)
        _require_int_vector(self, self.output_shape, "output_shape", rank)
        dim = self.iota_dimension.value.data
        if rank is not None and not 0 <= dim < rank:  # verifyDynamicIotaOp's words
            raise VerifyException(f"'{self.name}' iota dimension cannot go beyond the output rank.")
        verify_shape_operand(self, self.output_shape, self.result.type)


@irdl_op_definition
class DynamicBroadcastInDimOp(IRDLOperation):
    """`stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 2] : (...) -> R`."""

    name = "stablehlo.dynamic_broadcast_in_dim"
    operand = operand_def()
    output_dimensions = operand_def()
    result = result_def()
    broadcast_dimensions = prop_def(DenseArrayBase)
    known_expanding_dimensions = opt_prop_def(DenseArrayBase)
    known_nonexpanding_dimensions = opt_prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("dims")
        parser.parse_punctuation("=")
        dims = parse_int_list(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["broadcast_dimensions"] = dense_i64(dims)
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, [operand, shape], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", dims = {int_list_text(dense_values(self.broadcast_dimensions))}")
        print_extra_attrs(
            printer,
            self,
            props=("known_expanding_dimensions", "known_nonexpanding_dimensions"),
        )
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], [self.result.type])

    def verify_(self) -> None:
        """verifyDynamicBroadcastInDimOp's checks, in its order and words."""
        operand, result, shape_t = self.operand.type, self.result.type, self.output_dimensions.type
        so, sr = ht.shape_of(operand), ht.shape_of(result)
        shape_of_shape = ht.shape_of(shape_t)
        if (
            not _is_int_tensor(shape_t, 1)
            or shape_of_shape is None
            or DYNAMIC_INDEX in shape_of_shape
        ):
            raise VerifyException(
                f"'{self.name}' operand #1 must be statically shaped 1-dimensional tensor of "
                f"index or integer values, but got '{shape_t}'"
            )
        dims = dense_values(self.broadcast_dimensions)
        quantized = ht.quant_type(operand) is not None or ht.quant_type(result) is not None
        if not quantized and ht.element_type(operand) != ht.element_type(result):
            raise VerifyException(
                f"'{self.name}' expects operand and result to have compatible element type. "
                f"Got: {operand} and {result}"
            )
        if so is None or sr is None:
            return
        if len(dims) != len(so):
            raise VerifyException(
                f"'{self.name}' broadcast_dimensions size ({len(dims)}) does not match operand "
                f"rank ({len(so)})"
            )
        if len(sr) < len(so):
            raise VerifyException(
                f"'{self.name}' result rank ({len(sr)}) is less than operand rank ({len(so)})"
            )
        if len(set(dims)) != len(dims):
            raise VerifyException(f"'{self.name}' broadcast_dimensions should not have duplicates")
        for i, d in enumerate(dims):
            if not 0 <= d < len(sr):
                raise VerifyException(
                    f"'{self.name}' broadcast_dimensions contains invalid value {d} for result "
                    f"with rank {len(sr)}"
                )
            if so[i] != 1 and not ht.dims_compatible(so[i], sr[d]):
                raise VerifyException(
                    f"'{self.name}' size of operand dimension {i} ({so[i]}) is not compatible "
                    f"with size of result dimension {d} ({sr[d]})"
                )
        verify_shape_operand(self, self.output_dimensions, result)
        shape = constant_ints(self.output_dimensions)
        hints = [
            *dense_values(self.known_expanding_dimensions),
            *dense_values(self.known_nonexpanding_dimensions),
        ]
        if len(set(hints)) != len(hints):
            raise VerifyException(
                f"'{self.name}' duplicate expansion hint for at least one operand dimension"
            )
        for i in hints:
            if not 0 <= i < len(so):
                raise VerifyException(
                    f"'{self.name}' hint for expanding dimension {i} does not refer to a valid "
                    "operand dimension"
                )
        if shape is not None and DYNAMIC_INDEX not in so:
            for i, d in enumerate(dims):
                if so[i] != 1 and so[i] != shape[d]:
                    raise VerifyException(
                        f"'{self.name}' size of operand dimension {i} ({so[i]}) is not equal to "
                        f"1 or value of shape at index {d} ({shape[d]})"
                    )
        _verify_kept_quantization(self, operand, result, scales_may_broadcast=True)
        verify_broadcast_quantization(self, operand, result, dims)


@irdl_op_definition
class DynamicReshapeOp(FunctionalSyntax):
    """`stablehlo.dynamic_reshape %x, %shape : (T, tensor<Nxi64>) -> R`."""

    name = "stablehlo.dynamic_reshape"
    operand = operand_def()
    output_shape = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """verifyDynamicReshapeOp, in its order and words."""
        a, r = self.operand.type, self.result.type
        if (
            ht.quant_type(a) is None
            and ht.quant_type(r) is None
            and not ht.elements_compatible(a, r)
        ):
            raise VerifyException(  # C1
                f"'{self.name}' expects operand and result to have compatible element type. "
                f"Got: {a} and {r}"
            )
        so, sr = ht.shape_of(a), ht.shape_of(r)
        static = so if so is not None and DYNAMIC_INDEX not in so else None
        if (
            static
            and sr is not None
            and DYNAMIC_INDEX not in sr
            and _product(static) != _product(sr)
        ):
            raise VerifyException(  # C2
                f"'{self.name}' number of output elements ({_product(sr)}) doesn't match "
                f"expected number of elements ({_product(static)})"
            )
        verify_shape_operand(self, self.output_shape, r)  # C4
        _require_int_vector(self, self.output_shape, "output_shape")
        shape_size = (ht.shape_of(self.output_shape.type) or [DYNAMIC_INDEX])[0]
        if sr is not None and shape_size != len(sr):
            raise VerifyException(
                f"'{self.name}' result should have a rank equal to the number of elements in "
                "output_shape"
            )
        shape = constant_ints(self.output_shape)
        if static is not None and shape is not None and _product(static) != _product(shape):
            raise VerifyException(
                f"'{self.name}' output_shape is incompatible with input type of operation: "
                f"input has {_product(static)} elements, but output_shape has {_product(shape)}"
            )
        _verify_kept_quantization(self, a, r)  # C1, C3
        _verify_same_scale_count(self, a, r)


def _product(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


@irdl_op_definition
class DynamicPadOp(FunctionalSyntax):
    """`stablehlo.dynamic_pad %x, %value, %low, %high, %interior : (...) -> R`."""

    name = "stablehlo.dynamic_pad"
    operand = operand_def()
    padding_value = operand_def()
    edge_padding_low = operand_def()
    edge_padding_high = operand_def()
    interior_padding = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """verifyDynamicPadOp in its order and words, then the element types."""
        rank = ht.rank_of(self.operand.type)
        paddings = (self.edge_padding_low, self.edge_padding_high, self.interior_padding)
        names = ("edge_padding_low", "edge_padding_high", "interior_padding")
        for v, what in zip(paddings, names, strict=True):
            _require_int_vector(self, v, what)
        size = (ht.shape_of(self.edge_padding_low.type) or [DYNAMIC_INDEX])[0]
        if rank is not None and size != rank:  # C2
            raise VerifyException(
                f"'{self.name}' padding operands size ({size}) must match operand rank ({rank})"
            )
        low, high, interior = (constant_ints(v) for v in paddings)
        if interior is not None and any(i < 0 for i in interior):  # C3
            raise VerifyException(
                f"'{self.name}' interior_padding must be non-negative, but got "
                f"{', '.join(map(str, interior))}"
            )
        so, sr = ht.shape_of(self.operand.type), ht.shape_of(self.result.type)
        if (
            so is not None
            and sr is not None
            and DYNAMIC_INDEX not in so + sr
            and None not in (low, high, interior)
        ):
            assert low is not None and high is not None and interior is not None
            for i, (n, out, lo, hi, mid) in enumerate(
                zip(so, sr, low, high, interior, strict=False)
            ):
                want = n + lo + max(n - 1, 0) * mid + hi
                if out != want:  # C4
                    raise VerifyException(
                        f"'{self.name}' expected output dimension at index {i} to equal "
                        f"{want}, but got {out}"
                    )
        if ht.rank_of(self.padding_value.type) not in (0, None):
            raise VerifyException(f"'{self.name}' padding_value must be a rank-0 tensor")
        _same_element_or_baseline(
            self, self.operand.type, self.padding_value.type, "operand and padding_value"
        )
        _same_element_or_baseline(self, self.operand.type, self.result.type, "operand and result")
        rr = ht.rank_of(self.result.type)
        if rank is not None and rr is not None and rank != rr:
            raise VerifyException(f"'{self.name}' result must have the operand's rank {rank}")


@irdl_op_definition
class RealDynamicSliceOp(FunctionalSyntax):
    """`stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (...) -> R`."""

    name = "stablehlo.real_dynamic_slice"
    operand = operand_def()
    start_indices = operand_def()
    limit_indices = operand_def()
    strides = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        rank = ht.rank_of(self.operand.type)
        for v, what in (
            (self.start_indices, "start_indices"),
            (self.limit_indices, "limit_indices"),
            (self.strides, "strides"),
        ):
            _require_int_vector(self, v, what, rank)
        _same_element_or_baseline(self, self.operand.type, self.result.type, "operand and result")


# ==========================================================================
# Generic-form ops
# ==========================================================================


@irdl_op_definition
class DynamicGatherOp(IRDLOperation):
    """`"stablehlo.dynamic_gather"(%x, %indices, %sizes)`: gather with slice sizes as an operand."""

    name = "stablehlo.dynamic_gather"
    operand = operand_def()
    start_indices = operand_def()
    slice_sizes = operand_def()
    result = result_def()
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """gather's checks (verify_gather); the slice sizes are an operand here: their shape
        is checked, and their values when they are a constant."""
        if not _is_int_tensor(self.start_indices.type):
            raise VerifyException(f"'{self.name}' start_indices must be a tensor of integers")
        if not _is_int_tensor(self.slice_sizes.type):
            raise VerifyException(f"'{self.name}' slice_sizes must be a tensor of integers")
        shape = ht.shape_of(self.slice_sizes.type)
        if shape is None:
            return
        sizes = constant_ints(self.slice_sizes)
        verify_gather(self, self.dimension_numbers.data, shape, sizes)


@irdl_op_definition
class DynamicConvOp(IRDLOperation):
    """`"stablehlo.dynamic_conv"(%lhs, %rhs, %padding)`: convolution with padding as an operand."""

    name = "stablehlo.dynamic_conv"
    lhs = operand_def()
    rhs = operand_def()
    d_padding = operand_def()
    result = result_def()
    window_strides = opt_prop_def(DenseArrayBase)
    lhs_dilation = opt_prop_def(DenseArrayBase)
    rhs_dilation = opt_prop_def(DenseArrayBase)
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimensionNumbersAttr)
    feature_group_count = prop_def(IntegerAttr)
    batch_group_count = prop_def(IntegerAttr)
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """convolution's checks (upstream's inferDynamicConvOp differs only in the padding,
        an operand here: its shape is checked, and its values when it is a constant)."""
        if not _is_int_tensor(self.d_padding.type):
            raise VerifyException(
                f"'{self.name}' padding must be a tensor of integers, got {self.d_padding.type}"
            )
        verify_convolution(self, self._padding)

    def _padding(self, spatial: int) -> list[tuple[int, int]] | None:
        shape = ht.shape_of(self.d_padding.type)
        if shape is None:
            return None
        if len(shape) != 2:  # C4
            raise WindowError(f"expects padding to be of rank 2 but got {len(shape)}")
        if shape[0] != spatial or shape[1] != 2:
            raise WindowError(
                f"expects padding to be of shape [{spatial}, 2], but got [{shape[0]}, {shape[1]}]"
            )
        flat = constant_ints(self.d_padding)
        if flat is None:
            return None
        return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """`"stablehlo.scatter"(%inputs..., %indices, %updates...) ({update_computation}) {...}`."""

    name = "stablehlo.scatter"
    all_operands = var_operand_def()
    results_ = var_result_def()
    scatter_dimension_numbers = prop_def(ScatterDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    update_computation = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def split(self) -> tuple[list[SSAValue], SSAValue, list[SSAValue]]:
        """(inputs, scatter_indices, updates): N inputs, one index tensor, N updates."""
        ops = list(self.all_operands)
        n = (len(ops) - 1) // 2
        return ops[:n], ops[n], ops[n + 1 :]

    def verify_(self) -> None:
        """Upstream's verifyScatterOp in its order and words, then the results against the
        inferred types (the inputs' shapes, the update computation's types)."""
        ops = list(self.all_operands)
        if len(ops) < 3 or len(ops) % 2 == 0:
            raise VerifyException(
                f"'{self.name}' takes N inputs, the scatter indices and N updates (N >= 1), "
                f"got {len(ops)} operands"
            )
        inputs, indices, updates = self.split()
        if not _is_int_tensor(indices.type):
            raise VerifyException(
                f"'{self.name}' scatter_indices must be a tensor of integers, got {indices.type}"
            )
        input_shapes = [ht.shape_of(x.type) for x in inputs]
        update_shapes = [ht.shape_of(u.type) for u in updates]
        si = ht.shape_of(indices.type)
        if si is None or None in input_shapes or None in update_shapes:
            return
        if any(not ht.shapes_compatible(input_shapes[0], x) for x in input_shapes):  # C1
            raise VerifyException(f"'{self.name}' Not all inputs have compatible shapes.")
        if any(not ht.shapes_compatible(update_shapes[0], u) for u in update_shapes):  # C3
            raise VerifyException(f"'{self.name}' Not all updates have compatible shapes.")
        d = self.scatter_dimension_numbers.data
        if not 0 <= d.index_vector_dim <= len(si):  # C22
            raise VerifyException(
                f"'{self.name}' Expects index_vector_dim to be in range [0, "
                f"rank-of('scatter_indices')] i.e. [0, {len(si)}]. got: {d.index_vector_dim}."
            )
        accumulators = verify_reducer(  # C6, C23
            self.name,
            self.update_computation.blocks.first,
            [x.type for x in inputs],
            [TensorType(ht.element_type(u.type), []) for u in updates],
            [],
        )
        expanded = [*si, 1] if d.index_vector_dim == len(si) else list(si)
        for su in update_shapes:  # C4
            assert su is not None
            rank = len(expanded) - 1 + len(d.update_window_dims)
            if len(su) != rank:
                raise VerifyException(
                    f"'{self.name}' expects updates tensor must be of rank {rank} ( == "
                    "rank-of('scatter_indices') - 1 + size-of('update_window_dims'), where "
                    "'scatter_indices' is expanded by a trailing 1 dimension if "
                    f"'index_vector_dim' == rank-of('scatter_indices')), but got {len(su)}."
                )
        for so, su in zip(input_shapes, update_shapes, strict=True):
            assert so is not None and su is not None
            message = _scatter_dims_error(d, so, expanded, su)
            if message is None:
                message = _scatter_bounds_error(d, so, expanded, su)
            if message is not None:
                raise VerifyException(f"'{self.name}' {message}")
        ht.verify_inferred_results(
            self.name,
            [
                TensorType(ht.element_type(acc), list(so or ()))
                for acc, so in zip(accumulators, input_shapes, strict=True)
            ],
            [r.type for r in self.results],
        )


def _scatter_dims_error(
    d: ScatterDims, so: Sequence[int], si: Sequence[int], su: Sequence[int]
) -> str | None:
    """validateScatterDimensionNumbers (C2, C7-C21): the first broken rule, else None.
    `si` is the scatter indices' shape, expanded by a trailing 1 when index_vector_dim
    is its rank."""
    window_size = (
        len(d.update_window_dims) + len(d.inserted_window_dims) + len(d.input_batching_dims)
    )
    if len(so) != window_size:
        return (
            "Expects rank-of operand to match size-of('update_window_dims') + "
            "size-of('inserted_window_dims') + size-of('input_batching_dims') i.e. "
            f"{window_size} but got {len(so)}."
        )
    uwd = d.update_window_dims
    if list(uwd) != sorted(uwd):
        return f"Expects update_window_dims to be sorted; got: [{dims_text(uwd)}]."
    if len(set(uwd)) != len(uwd):
        return f"Expects update_window_dims to not repeat; got: [{dims_text(uwd)}]."
    checks = (
        lambda: out_of_range(uwd, len(su), "update_window_dims", "rank-of('updates')"),
        lambda: repeated(
            d.inserted_window_dims,
            d.input_batching_dims,
            "inserted_window_dims",
            "input_batching_dims",
        ),
        lambda: _sorted_error(d.inserted_window_dims, "inserted_window_dims"),
        lambda: out_of_range(
            d.inserted_window_dims, len(so), "inserted_window_dims", "rank-of('operand')"
        ),
        lambda: _sorted_error(d.input_batching_dims, "input_batching_dims"),
        lambda: out_of_range(
            d.input_batching_dims, len(so), "input_batching_dims", "rank-of('operand')"
        ),
        lambda: (
            "Expects scatter_indices_batching_dims to not repeat; got: "
            f"[{dims_text(d.scatter_indices_batching_dims)}]."
            if len(set(d.scatter_indices_batching_dims)) != len(d.scatter_indices_batching_dims)
            else None
        ),
        lambda: out_of_range(
            d.scatter_indices_batching_dims,
            len(si),
            "scatter_indices_batching_dims",
            "rank-of('scatter_indices')",
        ),
        lambda: (
            "expects scatter_indices_batching_dims not to include index_vector_dim "
            f"{d.index_vector_dim}."
            if d.index_vector_dim in d.scatter_indices_batching_dims
            else None
        ),
        lambda: (
            "input_batching_dims and scatter_indices_batching_dims should have the same size."
            if len(d.input_batching_dims) != len(d.scatter_indices_batching_dims)
            else None
        ),
        lambda: _batching_sizes_error(d, so, si),
        lambda: _index_count_error(d, si),
        lambda: repeated(
            d.scatter_dims_to_operand_dims,
            d.input_batching_dims,
            "scatter_dims_to_operand_dims",
            "input_batching_dims",
        ),
        lambda: out_of_range(
            d.scatter_dims_to_operand_dims,
            len(so),
            "scatter_dims_to_operand_dims",
            "rank-of('operand')",
        ),
    )
    for check in checks:
        if (message := check()) is not None:
            return message
    return None


def _sorted_error(dims: Sequence[int], name: str) -> str | None:
    if list(dims) != sorted(dims):
        return f"Expects {name} to be sorted; got: [{dims_text(dims)}]."
    return None


def _batching_sizes_error(d: ScatterDims, so: Sequence[int], si: Sequence[int]) -> str | None:
    pairs = zip(d.input_batching_dims, d.scatter_indices_batching_dims, strict=True)
    for index, (input_dim, indices_dim) in enumerate(pairs):
        if not ht.dims_compatible(so[input_dim], si[indices_dim]):
            return (
                f"input_batching_dims[{index}] and scatter_indices_batching_dims[{index}] must "
                f"have compatible sizes, but got {so[input_dim]} and {si[indices_dim]}."
            )
    return None


def _index_count_error(d: ScatterDims, si: Sequence[int]) -> str | None:
    count = si[d.index_vector_dim]
    if count != DYNAMIC_INDEX and len(d.scatter_dims_to_operand_dims) != count:
        return (
            f"Scatter op has {len(d.scatter_dims_to_operand_dims)} elements in "
            "scatter_dims_to_operand_dims and the bound of dimension "
            f"index_vector_dim={d.index_vector_dim} of scatter_indices is {count}. These two "
            "numbers must be equal."
        )
    return None


def _scatter_bounds_error(
    d: ScatterDims, so: Sequence[int], si: Sequence[int], su: Sequence[int]
) -> str | None:
    """The update window may not exceed the operand; the scatter dimensions of the
    updates match the scatter indices' (C4)."""
    window_sizes = [
        size
        for i, size in enumerate(so)
        if i not in d.inserted_window_dims and i not in d.input_batching_dims
    ]
    for dim, bound in zip(d.update_window_dims, window_sizes, strict=False):
        if DYNAMIC_INDEX not in (su[dim], bound) and su[dim] > bound:
            return (
                "expects bounds of the window dimensions of updates to not exceed the bounds of "
                f"the corresponding dimensions of operand. For dimension {dim}, updates bound is "
                f"{su[dim]}, operand bound is {bound}."
            )
    seen = 0
    for i, size in enumerate(su):
        if i in d.update_window_dims:
            continue
        if seen == d.index_vector_dim:
            seen += 1
        if not ht.dims_compatible(size, si[seen]):
            return (
                "expects bounds of the scatter dimensions of updates to be same as the bounds of "
                f"the corresponding dimensions of scatter indices. For scatter dimension {i}, "
                f"updates bound is {size} , scatter_indices bound is {si[seen]}."
            )
        seen += 1
    return None


@irdl_op_definition
class SelectAndScatterOp(IRDLOperation):
    """`"stablehlo.select_and_scatter"(%operand, %source, %init) ({select}, {scatter}) {...}`."""

    name = "stablehlo.select_and_scatter"
    operand = operand_def()
    source = operand_def()
    init_value = operand_def()
    result = result_def()
    window_dimensions = opt_prop_def(DenseArrayBase)
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    select = region_def()
    scatter = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        """Upstream's verifySelectAndScatterOp in its order and words, then the result
        against the inferred type (the operand's shape, the scatter body's type)."""
        operand_t, source_t = self.operand.type, self.source.type
        element = ht.element_type(operand_t)
        block = self.select.blocks.first
        args = list(block.args) if block is not None else []
        if len(args) != 2:  # C9
            raise VerifyException(
                f"'{self.name}' expects the select-region to take 2 parameters, but takes "
                f"{len(args)}"
            )
        scalar = TensorType(element, [])
        for i, arg in enumerate(args):
            if not same_shape_and_element(scalar, arg.type, ignore_fp_precision=True):
                raise VerifyException(
                    f"'{self.name}' expects the type of select-region's parameter at index {i} "
                    f"to be '{scalar}', but got '{arg.type}'"
                )
        assert block is not None
        returned = [v.type for v in block.last_op.operands] if block.last_op else []
        if len(returned) != 1:
            raise VerifyException(
                f"'{self.name}' expects select-region to return single value, but got: "
                f"{len(returned)}"
            )
        if ht.rank_of(returned[0]) != 0 or not ht.is_bool(ht.element_type(returned[0])):
            raise VerifyException(
                f"'{self.name}' expects the return-type of select-region to be tensor<i1>, "
                f"but got: '{returned[0]}'"
            )
        accumulators = verify_reducer(  # C10
            self.name,
            self.scatter.blocks.first,
            [TensorType(ht.element_type(source_t), [])],
            [self.init_value.type],
            [],
        )
        shape = ht.shape_of(operand_t)
        if shape is None:
            return
        dims = dense_values(self.window_dimensions)
        if len(dims) != len(shape):  # C4
            raise VerifyException(
                f"'{self.name}' expects window-dimensions size == operand rank, but got "
                f"window-dimensions size: {len(dims)} and operand-type: '{operand_t}' with "
                f"rank = {len(shape)}."
            )
        try:
            window = check_window(  # C5, C7, C8
                dims, dense_values(self.window_strides), window_padding(self.padding)
            )
        except WindowError as err:
            raise VerifyException(f"'{self.name}' {err}") from None
        expected = TensorType(element, window_output_shape(shape, window))
        if not same_shape_and_element(expected, source_t, ignore_fp_precision=True):  # C1, C2
            raise VerifyException(
                f"'{self.name}' expects source-type to be '{expected}', but got'{source_t}'"
            )
        ht.verify_inferred_results(  # C11, C12
            self.name,
            [TensorType(ht.element_type(accumulators[0]), list(shape))],
            [self.result.type],
        )


DATA_OPS = [
    ReverseOp,
    GetDimensionSizeOp,
    SetDimensionSizeOp,
    DynamicUpdateSliceOp,
    DynamicIotaOp,
    DynamicBroadcastInDimOp,
    DynamicReshapeOp,
    DynamicPadOp,
    RealDynamicSliceOp,
    DynamicGatherOp,
    DynamicConvOp,
    ScatterOp,
    SelectAndScatterOp,
]
DATA_ATTRS = [ScatterDimensionNumbersAttr]
