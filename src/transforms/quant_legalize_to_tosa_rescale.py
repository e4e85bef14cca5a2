"""`stablehlo-quant-legalize-to-tosa-rescale`: quantized elementwise ops as rescale -> i32 op -> rescale.

The fixed-point scheme of TFLite's integer kernels, written with `tosa.rescale`:

* add, subtract, maximum, minimum, compare: both inputs are rescaled onto one
  i32 grid, `(q - zp) * s_in / (2 * max(s_lhs, s_rhs)) * 2^k` with k = 20 for
  8-bit storage and 15 for 16-bit (headroom so the grid keeps the inputs'
  precision), the op runs in i32, and the result is rescaled by
  `2 * max(s_lhs, s_rhs) / (s_out * 2^k)` to the output zero point (compare
  returns its i1 directly);
* multiply: inputs are centred in i32 (scale 1), multiplied, and rescaled by
  `s_lhs * s_rhs / s_out`;
* abs, negate: centred in i32, op, rescaled by `s_in / s_out`.

* divide (8-bit): the dividend gets 2^22 of headroom, the i32 quotient is
  rescaled by `s_lhs / (s_rhs * s_out * 2^22)`, and a zero divisor gives what
  the float semantics give (storage max / min for +-inf, storage 0 for NaN).

Upstream leaves out negate; it is exact in the same way abs is. Per-axis,
unsigned or wider than 16-bit quantized types, and mixed float/quantized
operands stay as they are: run `stablehlo-legalize-quant-to-math` afterwards.

Quantized values enter and leave through `stablehlo.bitcast_convert` to and
from their storage type. Every rescale uses a 32-bit multiplier; the option
`rounding` picks DOUBLE_ROUND (default, TFLite's reference kernels) or
SINGLE_ROUND. The result differs from the float semantics
(dequantize -> op -> quantize) by at most one storage unit; docs/tosa.md has
the measured fraction.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa
from qdialect.dialects.quant import UniformQuantizedType
from qdialect.dialects.stablehlo_attrs import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
)
from qdialect.ir.rewrite import located
from qdialect.transforms.rescale_utils import RescaleRoundingPass, emit_rescale

PASS_NAME = "stablehlo-quant-legalize-to-tosa-rescale"

_COMMON_GRID = (sh.AddOp, sh.SubtractOp, sh.MaximumOp, sh.MinimumOp, sh.CompareOp)
_UNARY = (sh.AbsOp, sh.NegateOp)
GRID_SHIFT = {8: 20, 16: 15}
DIVIDE_SHIFT = 22
"""Headroom of the dividend in divide: 255 * 2^22 < 2^30 keeps it in i32 for 8-bit data."""
"""Left shift k of the common i32 grid per storage width (TFLite's choice)."""


def _lowerable(t: Attribute) -> UniformQuantizedType | None:
    """The per-tensor quantized type of `t` if this pass handles it (signed i8/i16 storage)."""
    q = ht.quant_type(t)
    if (
        q is None
        or not ht.is_per_tensor_quantized(t)
        or not q.is_signed
        or q.storage_width not in GRID_SHIFT
        or ht.shape_of(t) is None
    ):
        return None
    if q.storage_width == 16 and q.zero_points[0] != 0:
        return None  # TOSA allows zero points on 8-bit data only
    return q


class _Builder:
    def __init__(self, op: Operation, rewriter: PatternRewriter, double_round: bool):
        self.op = op
        self.rewriter = rewriter
        self.double_round = double_round

    def emit(self, new: Operation) -> SSAValue:
        self.rewriter.insert(new, InsertPoint.before(self.op))
        return new.results[0]

    def storage(self, v: SSAValue, q: UniformQuantizedType) -> SSAValue:
        t = TensorType(IntegerType(q.storage_width), ht.shape_of(v.type))
        return self.emit(sh.BitcastConvertOp.create(operands=[v], result_types=[t]))

    def rescale(
        self, v: SSAValue, scale: float, input_zp: int, output_zp: int, out: IntegerType
    ) -> SSAValue:
        return emit_rescale(
            self.emit, self.op, PASS_NAME, v, [scale], input_zp, output_zp, out, self.double_round
        )

    def to_i32(self, v: SSAValue, q: UniformQuantizedType, scale: float) -> SSAValue:
        return self.rescale(self.storage(v, q), scale, q.zero_points[0], 0, i32)

    def from_i32(
        self, v: SSAValue, scale: float, q: UniformQuantizedType, result_type: Attribute
    ) -> SSAValue:
        if scale > 1.0:
            # TOSA REQUIREs apply_scale's result to fit i32. Values beyond +-2^30 / scale
            # saturate the storage range anyway, so clamping them first changes nothing.
            bound = int((1 << 30) / scale)
            v = self.emit(
                tosa.ClampOp.create(
                    operands=[v],
                    result_types=[v.type],
                    properties={
                        "min_val": IntegerAttr(-bound, i32),
                        "max_val": IntegerAttr(bound, i32),
                    },
                )
            )
        storage = self.rescale(v, scale, 0, q.zero_points[0], IntegerType(q.storage_width))
        return self.quantized(storage, result_type)

    def quantized(self, storage: SSAValue, result_type: Attribute) -> SSAValue:
        return self.emit(sh.BitcastConvertOp.create(operands=[storage], result_types=[result_type]))

    def splat(self, value: int, like: SSAValue) -> SSAValue:
        t = like.type
        assert isinstance(t, TensorType)
        return self.emit(sh.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [value])))

    def compare(self, a: SSAValue, b: SSAValue, direction: ComparisonDirection) -> SSAValue:
        return self.emit(
            sh.CompareOp.create(
                operands=[a, b],
                result_types=[TensorType(IntegerType(1), ht.shape_of(a.type))],
                properties={
                    "comparison_direction": ComparisonDirectionAttr(direction),
                    "compare_type": ComparisonTypeAttr(ComparisonType.SIGNED),
                },
            )
        )

    def select(self, pred: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(sh.SelectOp.create(operands=[pred, a, b], result_types=[a.type]))

    def divide(self, op: Operation, qa, qb, q_out) -> SSAValue:
        """(q_a - zp_a) 2^k / (q_b - zp_b) in i32, rescaled by s_a / (s_b s_out 2^k).

        The 2^k headroom makes the integer quotient's truncation negligible; a zero
        divisor gives what quantizing the float quotient gives: the storage maximum
        for +inf, the minimum for -inf, storage 0 (clamped into range) for NaN (0/0).
        """
        a = self.to_i32(op.operands[0], qa, float(1 << DIVIDE_SHIFT))
        d = self.to_i32(op.operands[1], qb, 1.0)
        zero = self.splat(0, d)
        is_zero = self.compare(d, zero, ComparisonDirection.EQ)
        quotient = self.emit(sh.DivideOp(a, self.select(is_zero, self.splat(1, d), d)))
        scale = qa.scales[0] / (qb.scales[0] * q_out.scales[0] * (1 << DIVIDE_SHIFT))
        y = self.rescale(quotient, scale, 0, q_out.zero_points[0], IntegerType(q_out.storage_width))
        special = self.select(
            self.compare(a, zero, ComparisonDirection.GT),
            self.splat(q_out.storage_max, y),
            self.select(
                self.compare(a, zero, ComparisonDirection.LT),
                self.splat(q_out.storage_min, y),
                self.splat(min(max(0, q_out.storage_min), q_out.storage_max), y),
            ),
        )
        return self.select(is_zero, special, y)


def _i32(t: Attribute) -> TensorType:
    return TensorType(i32, ht.shape_of(t))


class LegalizeQuantizedElementwise(RewritePattern):
    def __init__(self, double_round: bool):
        self.double_round = double_round

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (*_COMMON_GRID, sh.MultiplyOp, sh.DivideOp, *_UNARY)):
            return
        if not isinstance(op.parent_op(), FuncOp):
            return  # reduction bodies combine scalars: their meaning stays with the region op
        inputs = [_lowerable(o.type) for o in op.operands]
        if any(q is None for q in inputs):
            return
        result_q = None if isinstance(op, sh.CompareOp) else _lowerable(op.results[0].type)
        if result_q is None and not isinstance(op, sh.CompareOp):
            return
        b = _Builder(op, rewriter, self.double_round)
        result_type = op.results[0].type
        if isinstance(op, _UNARY):
            (q,) = inputs
            x = b.to_i32(op.operands[0], q, 1.0)
            y = b.emit(type(op)(x))
            rewriter.replace(
                op, [], [b.from_i32(y, q.scales[0] / result_q.scales[0], result_q, result_type)]
            )
            return
        qa, qb = inputs
        if isinstance(op, sh.DivideOp):
            if qa.storage_width != 8 or qa.scales[0] / (qb.scales[0] * result_q.scales[0]) > float(
                1 << 14
            ):
                return  # no i32 headroom for 16-bit dividends; truncation could reach a unit
            storage = b.divide(op, qa, qb, result_q)
            rewriter.replace(op, [], [b.quantized(storage, result_type)])
            return
        if isinstance(op, sh.MultiplyOp):
            a = b.to_i32(op.operands[0], qa, 1.0)
            c = b.to_i32(op.operands[1], qb, 1.0)
            y = b.emit(sh.MultiplyOp(a, c))
            scale = qa.scales[0] * qb.scales[0] / result_q.scales[0]
            rewriter.replace(op, [], [b.from_i32(y, scale, result_q, result_type)])
            return
        grid = 2.0 * max(qa.scales[0], qb.scales[0])
        k = GRID_SHIFT[max(qa.storage_width, qb.storage_width)]
        a = b.to_i32(op.operands[0], qa, qa.scales[0] / grid * (1 << k))
        c = b.to_i32(op.operands[1], qb, qb.scales[0] / grid * (1 << k))
        if isinstance(op, sh.CompareOp):
            compare = sh.CompareOp.create(
                operands=[a, c],
                result_types=[result_type],
                properties={
                    "comparison_direction": op.comparison_direction,
                    "compare_type": ComparisonTypeAttr(ComparisonType.SIGNED),
                },
            )
            rewriter.replace(op, [], [b.emit(compare)])
            return
        y = b.emit(type(op)(a, c, _i32(result_type)))
        scale = grid / (result_q.scales[0] * (1 << k))
        rewriter.replace(op, [], [b.from_i32(y, scale, result_q, result_type)])


@dataclass(frozen=True)
class QuantLegalizeToTosaRescale(RescaleRoundingPass):
    """Rewrite quantized elementwise StableHLO ops as tosa.rescale -> i32 op -> tosa.rescale."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            located(LegalizeQuantizedElementwise(self.double_round)),
            apply_recursively=False,
        ).rewrite_module(op)
