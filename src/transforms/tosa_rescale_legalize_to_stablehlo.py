"""`tosa-rescale-legalize-to-stablehlo`: `tosa.rescale` as integer StableHLO, exact to the spec.

Each rescale becomes i64 arithmetic that computes TOSA's `apply_scale_32`
(single or double rounding) or `apply_scale_16` bit for bit:

    v = convert(x) [& 2^w - 1 if input_unsigned] - input_zp
    r = (v * multiplier + rounding) >>arith shift
        rounding = 1 << (shift - 1)  [+/- 2^30 where DOUBLE_ROUND and shift > 31]
    y = clamp(lo, r + output_zp, hi) converted to the output type

Upstream's pass handles single rounding only; here DOUBLE_ROUND is exact too.
Multipliers, shifts and zero points that come from constants are folded at
compile time (one constant each, per channel along the last axis); any other
value is widened and broadcast in the graph, so the pass never gives up on a
rescale whose parameters are computed. Unsigned outputs are clamped to
[0, 2^w - 1], converted to `uiN` and bitcast back to the signless result type.

Dynamic shapes are an error naming the op.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa
from qdialect.dialects.hlo_syntax import dense_i64
from qdialect.dialects.stablehlo_attrs import ComparisonDirection, ComparisonDirectionAttr
from qdialect.ir.constants import constant_array
from qdialect.ir.errors import OpError

PASS_NAME = "tosa-rescale-legalize-to-stablehlo"

Value = np.ndarray | SSAValue
"""A compile-time i64 array (shape () or (channels,), broadcast along the last
axis) or an i64 tensor value of the rescaled shape."""


def _is_zero(v: Value) -> bool:
    return isinstance(v, np.ndarray) and not np.any(v)


class _Emitter:
    """Emits i64 StableHLO before one rescale, folding compile-time operands."""

    def __init__(self, op: tosa.RescaleOp, shape: tuple[int, ...]):
        self.op = op
        self.shape = shape
        self.at = InsertPoint.before(op)
        self.tensor = TensorType(i64, shape)
        self.constants: dict[tuple[tuple[int, ...], bool], SSAValue] = {}

    def emit(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.at)
        return op.results[0]

    def materialize(self, v: Value) -> SSAValue:
        if isinstance(v, SSAValue):
            return v
        flat = v.reshape(-1)
        if np.all(flat == flat[0]):
            flat = flat[:1]
            dims: list[int] = []
        else:
            dims = [len(self.shape) - 1]
        key = (tuple(int(x) for x in flat), bool(dims))
        if (cached := self.constants.get(key)) is not None:
            return cached
        const = self.emit(
            sh.ConstantOp(
                DenseIntOrFPElementsAttr.from_list(
                    TensorType(i64, [len(flat)] if dims else []), [int(x) for x in flat]
                )
            )
        )
        self.constants[key] = self.broadcast(const, dims)
        return self.constants[key]

    def scalar(self, value: int) -> SSAValue:
        """A rank-0 i64 constant (clamp takes its bounds as scalars)."""
        return self.emit(
            sh.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(i64, []), [value]))
        )

    def broadcast(self, v: SSAValue, dims: list[int]) -> SSAValue:
        if v.type == self.tensor:
            return v
        return self.emit(
            sh.BroadcastInDimOp.create(
                operands=[v],
                result_types=[self.tensor],
                properties={"broadcast_dimensions": dense_i64(dims)},
            )
        )

    def widen(self, v: SSAValue, per_channel: bool) -> Value:
        """A rescale parameter (shape [1] or [channels]) as an i64 Value."""
        if (known := constant_array(v)) is not None:
            known = known.reshape(-1)
            return known if per_channel and known.size > 1 else known[:1].reshape(())
        shape = ht.shape_of(v.type) or ()
        wide = self.emit(sh.ConvertOp(v, TensorType(i64, shape)))
        if not per_channel or not self.shape:
            wide = self.emit(
                sh.ReshapeOp.create(operands=[wide], result_types=[TensorType(i64, [])])
            )
            return self.broadcast(wide, [])
        return self.broadcast(wide, [len(self.shape) - 1])

    def binary(self, cls: type[Operation], fold, a: Value, b: Value) -> Value:
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            return np.asarray(fold(a, b), np.int64)
        return self.emit(cls(self.materialize(a), self.materialize(b)))

    def add(self, a: Value, b: Value) -> Value:
        if _is_zero(b):
            return a
        return self.binary(sh.AddOp, np.add, a, b)

    def subtract(self, a: Value, b: Value) -> Value:
        if _is_zero(b):
            return a
        return self.binary(sh.SubtractOp, np.subtract, a, b)

    def multiply(self, a: Value, b: Value) -> Value:
        return self.binary(sh.MultiplyOp, np.multiply, a, b)

    def shift_left(self, a: Value, b: Value) -> Value:
        return self.binary(sh.ShiftLeftOp, np.left_shift, a, b)

    def shift_right(self, a: Value, b: Value) -> Value:
        return self.binary(sh.ShiftRightArithmeticOp, np.right_shift, a, b)

    def select_greater(self, a: Value, b: Value, then: Value, otherwise: Value) -> Value:
        """`a > b ? then : otherwise`, elementwise."""
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            known = np.greater(a, b)
            if np.all(known):
                return then
            if not np.any(known):
                return otherwise
            if isinstance(then, np.ndarray) and isinstance(otherwise, np.ndarray):
                return np.asarray(np.where(known, then, otherwise), np.int64)
            if _is_zero(otherwise):  # per-channel mix: keep `then` on the channels that pass
                return self.multiply(then, known.astype(np.int64))
        pred = self.emit(
            sh.CompareOp.create(
                operands=[self.materialize(a), self.materialize(b)],
                result_types=[TensorType(IntegerType(1), self.shape)],
                properties={
                    "comparison_direction": ComparisonDirectionAttr(ComparisonDirection.GT)
                },
            )
        )
        return self.emit(
            sh.SelectOp.create(
                operands=[pred, self.materialize(then), self.materialize(otherwise)],
                result_types=[self.tensor],
            )
        )


def lower_rescale(op: tosa.RescaleOp) -> SSAValue:
    """Insert the exact integer form of `op` before it and return its result value."""
    x, multiplier, shift, input_zp, output_zp = op.operands
    shape = ht.shape_of(x.type)
    if shape is None or any(d < 0 for d in shape):
        raise OpError(
            op, f"'tosa.rescale' has the non-static type {x.type}; {PASS_NAME} needs static shapes"
        )
    e = _Emitter(op, shape)
    per_channel = op.flag("per_channel")
    in_width = ht.element_type(x.type).width.data
    out_element = ht.element_type(op.output.type)
    assert isinstance(out_element, IntegerType)
    out_width = out_element.width.data

    value: Value = e.emit(sh.ConvertOp(x, e.tensor))
    izp = e.widen(input_zp, False)
    ozp = e.widen(output_zp, False)
    if op.flag("input_unsigned"):
        mask = np.array((1 << in_width) - 1, np.int64)
        value = e.binary(sh.AndOp, np.bitwise_and, value, mask)
        izp = e.binary(
            sh.AndOp,
            np.bitwise_and,
            izp,
            np.array((1 << ht.element_type(input_zp.type).width.data) - 1, np.int64),
        )
    if op.flag("output_unsigned"):
        ozp = e.binary(sh.AndOp, np.bitwise_and, ozp, np.array((1 << out_width) - 1, np.int64))
    value = e.subtract(value, izp)

    m = e.widen(multiplier, per_channel)
    s = e.widen(shift, per_channel)
    rounding = e.shift_left(np.array(1, np.int64), e.subtract(s, np.array(1, np.int64)))
    double = op.flag("scale32") and op.rounding_mode.data == tosa.RoundingMode.DOUBLE_ROUND
    if double and not (isinstance(s, np.ndarray) and np.all(s <= 31)):
        # +2^30 for value >= 0, -2^30 otherwise, only where shift > 31.
        toward = e.select_greater(
            value,
            np.array(-1, np.int64),
            np.array(1 << 30, np.int64),
            np.array(-(1 << 30), np.int64),
        )
        rounding = e.add(
            rounding, e.select_greater(s, np.array(31, np.int64), toward, np.array(0, np.int64))
        )
    product = e.multiply(value, m)
    scaled = e.shift_right(e.add(product, rounding), s)
    if op.flag("scale32") and op.rounding_mode.data == tosa.RoundingMode.HALF_EVEN_ROUND:
        # A tie (the bits shifted out are exactly `rounding`) that rounded up to an odd
        # result goes back down to the even one.
        one, zero = np.array(1, np.int64), np.array(0, np.int64)
        low = e.binary(sh.AndOp, np.bitwise_and, product, e.subtract(e.shift_left(one, s), one))
        off = e.subtract(low, rounding)  # 0 exactly at a tie
        tie = e.select_greater(off, zero, zero, e.select_greater(off, -one, one, zero))
        scaled = e.subtract(scaled, e.binary(sh.AndOp, np.bitwise_and, tie, scaled))
    result = e.add(scaled, ozp)

    unsigned_out = op.flag("output_unsigned")
    lo, hi = (
        (0, (1 << out_width) - 1)
        if unsigned_out
        else (-(1 << (out_width - 1)), (1 << (out_width - 1)) - 1)
    )
    clamped = e.emit(
        sh.ClampOp.create(
            operands=[e.scalar(lo), e.materialize(result), e.scalar(hi)],
            result_types=[e.tensor],
        )
    )
    if not unsigned_out:
        return e.emit(sh.ConvertOp(clamped, op.output.type))
    unsigned_t = TensorType(IntegerType(out_width, Signedness.UNSIGNED), shape)
    as_unsigned = e.emit(sh.ConvertOp(clamped, unsigned_t))
    return e.emit(sh.BitcastConvertOp.create(operands=[as_unsigned], result_types=[op.output.type]))


@dataclass(frozen=True)
class TosaRescaleLegalizeToStablehlo(ModulePass):
    """Lower tosa.rescale to integer StableHLO exact to TOSA's apply_scale (single, double
    and qdialect's half-even rounding)."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rescales = [o for o in op.walk() if isinstance(o, tosa.RescaleOp)]
        for rescale in rescales:
            result = lower_rescale(rescale)
            rescale.output.replace_all_uses_with(result)
            parameters = [o.owner for o in (rescale.multiplier, rescale.shift, rescale.input_zp,
                                            rescale.output_zp)]  # fmt: skip
            Rewriter.erase_op(rescale)
            for owner in dict.fromkeys(parameters):  # folded constants nothing else uses
                if isinstance(owner, tosa.ConstOp) and not owner.output.uses:
                    Rewriter.erase_op(owner)
