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

from xdsl.ir import Attribute, Operation

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.quant import storage_prefix

__all__ = ["PER_AXIS_OPS", "type_constraint_error"]

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


def _problem(op: Operation, t: Attribute) -> bool:
    q = ht.quant_type(t)
    if q is None:
        return False
    if q.storage_width not in _STORAGE_WIDTHS or storage_prefix(q.signed_attr.data) == "si":
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


def type_constraint_error(op: Operation) -> str | None:
    """ODS's error for the first operand or result of a StableHLO `op` whose quantized
    element type the op does not admit, or None."""
    if not op.name.startswith("stablehlo."):
        return None
    allowed = _PER_AXIS if op.name in PER_AXIS_OPS else _PER_TENSOR
    for results, values in ((False, op.operands), (True, op.results)):
        flags = _variadic_flags(op, results)
        for i, value in enumerate(values):
            if _problem(op, value.type):
                what = "result" if results else "operand"
                variadic = "variadic of " if flags[i] else ""
                return (
                    f"'{op.name}' op {what} #{i} must be {variadic}ranked tensor of "
                    f"{allowed} values, but got '{value.type}'"
                )
    return None
