"""The element types StableHLO ops admit, checked as upstream's ODS type constraints do.

Quantized storage must be a signless (`i8`) or unsigned (`u8`, `ui8`) integer of 2, 4, 8,
16 or 32 bits: `si8` storage is refused, as upstream refuses it. StableHLO's op
definitions admit per-axis quantized values only where the spec gives them a meaning (`HLO_TensorOrPerAxisQuantizedTensor` and relatives): the quantize and
dequantize ops, the contractions, the shape ops that can carry a quantized dimension
along, constants and the control-flow and tuple plumbing. Every other op takes
`HLO_Tensor`, whose element types are per-tensor only. Where a per-axis type is admitted,
its quantized dimension must also fit the tensor (`IsValidQuantizedDimension`).

The check runs on each op before the op's own verifier, as ODS type constraints do, and
words its failure as ODS does (`operand #1 must be variadic of ranked tensor of ...
values, but got '...'`), so upstream's expected-error lines match.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, UnrankedMemRefType
from xdsl.ir import Attribute, Operation

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.quant import storage_prefix, zero_point_error

__all__ = ["PER_AXIS_OPS", "attribute_constraint_error", "type_constraint_error"]

#: StableHLO ops whose operands and results may be per-axis quantized (upstream's ODS).
PER_AXIS_OPS = frozenset(
    f"stablehlo.{name}"
    for name in (
        "add",
        "bitcast_convert",
        "broadcast",
        "broadcast_in_dim",
        "case",
        "composite",
        "constant",
        "convolution",
        "custom_call",
        "dot",
        "dot_general",
        "dynamic_broadcast_in_dim",
        "dynamic_reshape",
        "get_dimension_size",
        "get_tuple_element",
        "if",
        "infeed",
        "outfeed",
        "recv",
        "reshape",
        "return",
        "send",
        "transpose",
        "tuple",
        "uniform_dequantize",
        "uniform_quantize",
        "while",
    )
)

_PER_TENSOR = "floating-point or boolean or integer or complex or per-tensor quantized"
_PER_AXIS = _PER_TENSOR + " or per-axis quantized (quantized dimension in range, one scale each)"


#: Upstream's operand and result groups of the ops that have variadic ones ("V" a
#: variadic group, "1" a single value), in order; every other op's values are single.
_OPERAND_GROUPS: dict[str, str] = {
    "after_all": "V",
    "all_gather": "V",
    "all_reduce": "V",
    "all_to_all": "V",
    "async_start": "V",
    "collective_broadcast": "V",
    "collective_reduce": "V",
    "composite": "V",
    "concatenate": "V",
    "custom_call": "V",
    "dynamic_slice": "1V",
    "dynamic_update_slice": "11V",
    "map": "V",
    "optimization_barrier": "V",
    "outfeed": "V1",
    "reduce": "VV",
    "reduce_window": "VV",
    "return": "V",
    "scatter": "V1V",
    "send": "V1",
    "sort": "V",
    "tuple": "V",
    "while": "V",
}
_RESULT_GROUPS: dict[str, str] = dict.fromkeys(
    (
        "all_gather all_reduce all_to_all case collective_broadcast collective_reduce "
        "composite custom_call if infeed optimization_barrier recv reduce reduce_window "
        "scatter sort while"
    ).split(),
    "V",
)


def _variadic_flags(op: Operation, results: bool) -> list[bool]:
    """For each operand (result) of `op`, whether upstream's ODS calls its group variadic
    (variadic groups of one op share the values left after the single ones equally)."""
    count = len(op.results if results else op.operands)
    groups = (_RESULT_GROUPS if results else _OPERAND_GROUPS).get(op.name.split(".", 1)[1], "")
    variadic = groups.count("V")
    if variadic == 0:
        return [False] * count
    share, extra = divmod(count - (len(groups) - variadic), variadic)
    if share < 0 or extra:
        return [False] * count
    flags: list[bool] = []
    for group in groups:
        flags += [True] * share if group == "V" else [False]
    return flags


_STORAGE_WIDTHS = (2, 4, 8, 16, 32)


#: Ops whose values may be buffers (memrefs), upstream's `HLO_Buffer` in their ODS types.
_BUFFER_OPS = frozenset(
    f"stablehlo.{name}" for name in ("custom_call", "get_tuple_element", "return", "tuple", "while")
)


def _problem(op: Operation, t: Attribute) -> bool:
    if isinstance(t, MemRefType | UnrankedMemRefType):
        return op.name not in _BUFFER_OPS
    q = ht.quant_type(t)
    if q is None:
        return False
    if (
        q.float_storage_name is not None  # HLO_QuantizedInt: integer storage only
        or q.storage_width not in _STORAGE_WIDTHS
        or storage_prefix(q.signed_attr.data) == "si"
    ):
        return True
    if not q.is_per_axis:
        return False
    if op.name not in PER_AXIS_OPS:
        return True
    if op.name == "stablehlo.custom_call":  # HLO_AnyTensor: no dimension check
        return False
    if ht.rank_of(t) is None:  # RankedTensorOf
        return True
    check = getattr(ht.element_type(t), "container_error", None)
    return check is not None and check(ht.shape_of(t)) is not None


#: Upstream's `ConfinedAttr<I32Attr/I64Attr, [IntNonNegative/IntPositive]>` attributes:
#: op -> (attribute, bit width, least value).
_CONFINED_INTEGERS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "all_gather": (("all_gather_dim", 64, 0),),
    "all_to_all": (("split_dimension", 64, 0), ("concat_dimension", 64, 0), ("split_count", 64, 1)),
    "batch_norm_grad": (("feature_index", 64, 0),),
    "batch_norm_inference": (("feature_index", 64, 0),),
    "batch_norm_training": (("feature_index", 64, 0),),
    "concatenate": (("dimension", 64, 0),),
    "dynamic_iota": (("iota_dimension", 64, 0),),
    "get_dimension_size": (("dimension", 64, 0),),
    "get_tuple_element": (("index", 32, 0),),
    "iota": (("iota_dimension", 64, 0),),
    "reduce_precision": (("exponent_bits", 32, 1), ("mantissa_bits", 32, 0)),
    "reduce_scatter": (("scatter_dimension", 64, 0),),
    "set_dimension_size": (("dimension", 64, 0),),
}


def attribute_constraint_error(op: Operation) -> str | None:
    """ODS's error for the first confined integer attribute of a StableHLO `op` whose
    value is below its bound (`attribute 'X' failed to satisfy constraint: 64-bit
    signless integer attribute whose value is non-negative`), or None. ODS checks these
    before operand types and before the op's own verifier or type inference."""
    name = op.name.removeprefix("stablehlo.")
    for attr_name, width, least in _CONFINED_INTEGERS.get(name, ()):
        attr = op.properties.get(attr_name, op.attributes.get(attr_name))
        if isinstance(attr, IntegerAttr) and attr.value.data < least:
            what = "positive" if least == 1 else "non-negative"
            return (
                f"attribute '{attr_name}' failed to satisfy constraint: {width}-bit "
                f"signless integer attribute whose value is {what}"
            )
    return None


_STATIC = "statically shaped tensor"
_STATIC_OR_BOUNDED = "statically shaped or single bounded dimension tensor"
_STATIC_1D = "statically shaped 1-dimensional tensor"
_STATIC_2D = "statically shaped 2-dimensional tensor"
_RANK_0 = "0D tensor"
_RANK_1 = "1D tensor"
_DIMENSIONS = "index or integer"  # HLO_DimensionValue
_INTEGERS = "integer"
_PRED_INT_FLOAT = "pred (AKA boolean or 1-bit integer) or integer or floating-point"

#: Upstream's operands and results whose ODS type requires a rank, or a static shape:
#: op -> ((is a result, index, shape summary, element summary or None for the op's
#: usual element types), ...). "Or single bounded dimension" admits a shape with one
#: dynamic dimension when its `#stablehlo.bounds` encoding bounds it.
_STATIC_SHAPES: dict[str, tuple[tuple[bool, int, str, str | None], ...]] = {
    "batch_norm_grad": (
        *((False, i, _RANK_1, None) for i in (1, 2, 3)),
        *((True, i, _RANK_1, None) for i in (1, 2)),
    ),
    "batch_norm_inference": tuple((False, i, _RANK_1, None) for i in (1, 2, 3, 4)),
    "batch_norm_training": (
        *((False, i, _RANK_1, None) for i in (1, 2)),
        *((True, i, _RANK_1, None) for i in (1, 2)),
    ),
    "broadcast_in_dim": ((True, 0, _STATIC_OR_BOUNDED, None),),
    "constant": ((True, 0, _STATIC, None),),
    "dynamic_broadcast_in_dim": ((False, 1, _STATIC_1D, _DIMENSIONS),),
    "dynamic_conv": ((False, 2, _STATIC_2D, _INTEGERS),),
    "dynamic_gather": ((False, 2, _STATIC_1D, _INTEGERS),),
    "dynamic_iota": ((False, 0, _STATIC_1D, _DIMENSIONS),),
    "dynamic_pad": tuple((False, i, _STATIC_1D, _DIMENSIONS) for i in (2, 3, 4)),
    "dynamic_reshape": ((False, 1, _STATIC_1D, _DIMENSIONS),),
    "iota": ((True, 0, _STATIC, None),),
    "reshape": ((True, 0, _STATIC_OR_BOUNDED, None),),
    "rng": (
        (False, 0, _RANK_0, _PRED_INT_FLOAT),
        (False, 1, _RANK_0, _PRED_INT_FLOAT),
        (False, 2, _STATIC_1D, _DIMENSIONS),
    ),
}


def _single_bounded_dimension(t: Attribute, shape: tuple[int, ...]) -> bool:
    """Upstream's hasSingleBoundedDimension: one dynamic dimension, and it has a bound."""
    bounds = getattr(getattr(t, "encoding", None), "bounds", None)
    if bounds is None:
        return False
    return sum(b >= 0 for b in bounds) == 1 and sum(d < 0 for d in shape) == 1


def _shape_problem(t: Attribute, summary: str, elements: str | None) -> bool:
    shape = ht.shape_of(t)
    if summary in (_RANK_0, _RANK_1):
        if shape is None or len(shape) != int(summary[0]):
            return True
    elif shape is None:
        return True
    elif any(d < 0 for d in shape) and not (
        summary == _STATIC_OR_BOUNDED and _single_bounded_dimension(t, shape)
    ):
        return True
    wanted = {_STATIC_1D: 1, _STATIC_2D: 2}.get(summary)
    if wanted is not None and len(shape) != wanted:
        return True
    e = ht.element_type(t)
    if elements == _PRED_INT_FLOAT:
        return not (ht.is_bool(e) or ht.is_integer(e) or ht.is_float(e))
    if elements == _DIMENSIONS:
        return not (isinstance(e, IndexType) or ht.is_integer(e))
    return elements == _INTEGERS and not ht.is_integer(e)


def type_constraint_error(op: Operation) -> str | None:
    """ODS's error for the first confined attribute out of its bounds, or the first
    operand or result of a StableHLO `op` whose quantized element type the op does not
    admit, or None."""
    if not op.name.startswith("stablehlo."):
        return None
    if (message := attribute_constraint_error(op)) is not None:
        return f"'{op.name}' op {message}"
    allowed = _PER_AXIS if op.name in PER_AXIS_OPS else _PER_TENSOR
    static = {(r, i): (shape, e) for r, i, shape, e in _STATIC_SHAPES.get(op.name[10:], ())}
    for results, values in ((False, op.operands), (True, op.results)):
        flags = _variadic_flags(op, results)
        for i, value in enumerate(values):
            summary, elements = static.get((results, i), ("ranked tensor", None))
            zero_point = _zero_point_error(value.type)
            if (
                _problem(op, value.type)
                or zero_point is not None
                or ((results, i) in static and _shape_problem(value.type, summary, elements))
            ):
                what = "result" if results else "operand"
                variadic = "variadic of " if flags[i] else ""
                why = f" ({zero_point})" if zero_point is not None else ""
                return (
                    f"'{op.name}' op {what} #{i} must be {variadic}{summary} of "
                    f"{elements or allowed} values, but got '{value.type}'{why}"
                )
    return None


def _zero_point_error(t: Attribute) -> str | None:
    """The spec's `storage_min <= zero_point <= storage_max`, part of upstream's quantized
    type constraints (MLIR's quant types themselves leave it out)."""
    q = ht.quant_type(t)
    if q is None:
        return None
    for zp in q.zero_points:
        if (message := zero_point_error(zp, q.storage_min, q.storage_max)) is not None:
            return message
    return None
