"""Canonicalization patterns of the TOSA-like ops (run by `canonicalize`).

Each pattern rewrites only when the result is bit-identical for every input:

* an identity `tosa.rescale` (scale exactly 1, equal zero points and
  signedness, same element type) is dropped;
* a rescale that only centres its input into a wider type (scale 1, output
  zero point 0, no clamping possible) followed by a rescale of that value
  becomes one rescale: `(x - zp1) * M >> s` is what the second computed anyway;
* a `tosa.clamp` whose bounds cover its type's whole range is dropped;
* `tosa.reshape` and `tosa.transpose` of a `tosa.const` become a `tosa.const`;
* a transpose of a transpose becomes one transpose, and one that keeps every
  axis in place is dropped (layout converters leave such pairs around rescales).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from qdialect import numerics
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import tosa
from qdialect.ir.constants import constant_array


def _width(value: SSAValue) -> int | None:
    e = ht.element_type(value.type)
    return e.width.data if isinstance(e, IntegerType) else None


def _unit_scale(op: tosa.RescaleOp) -> bool:
    """Every channel's multiplier * 2^-shift is exactly 1."""
    m, s = constant_array(op.multiplier), constant_array(op.shift)
    if m is None or s is None:
        return False
    return bool(np.all(m.astype(object) == [1 << int(k) for k in s.reshape(-1)]))


def _zero_point(zp_value: SSAValue, unsigned: bool) -> int | None:
    zp = constant_array(zp_value)
    if zp is None:
        return None
    value = int(zp.reshape(-1)[0])
    width = _width(zp_value)
    return value & ((1 << width) - 1) if unsigned and width else value


class DropIdentityRescale(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.RescaleOp, rewriter: PatternRewriter) -> None:
        x = op.input
        if x.type != op.output.type or op.flag("input_unsigned") != op.flag("output_unsigned"):
            return
        unsigned = op.flag("input_unsigned")
        izp, ozp = _zero_point(op.input_zp, unsigned), _zero_point(op.output_zp, unsigned)
        if izp is None or izp != ozp or not _unit_scale(op):
            return
        rewriter.replace(op, [], [x])


class MergeCentringRescale(RewritePattern):
    """rescale(rescale(x, scale 1, zp1 -> 0, wider), M, s, 0 -> zp2) => rescale(x, M, s, zp1 -> zp2)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.RescaleOp, rewriter: PatternRewriter) -> None:
        first = op.input.owner
        if not isinstance(first, tosa.RescaleOp) or op.flag("input_unsigned"):
            return
        if first.flag("output_unsigned") or not _unit_scale(first):
            return
        if _zero_point(first.output_zp, False) != 0 or _zero_point(op.input_zp, False) != 0:
            return
        x = first.input
        in_w, mid_w = _width(x), _width(first.output)
        if in_w is None or mid_w is None or in_w + 1 > mid_w:
            return  # x - zp might not fit the intermediate type: it clamps, not exact
        if in_w == 48 and op.flag("scale32"):
            return  # i48 input allows only 16-bit scaling
        if first.flag("input_unsigned") and (_width(op.output) == 32 or op.flag("output_unsigned")):
            return  # an unsigned input with an i32 or unsigned output is a spec ERROR_IF
        merged = tosa.RescaleOp.create(
            operands=[x, op.multiplier, op.shift, first.input_zp, op.output_zp],
            result_types=[op.output.type],
            properties={
                **op.properties,
                "input_unsigned": first.properties["input_unsigned"],
            },
        )
        rewriter.replace(op, merged)


class DropFullRangeClamp(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.ClampOp, rewriter: PatternRewriter) -> None:
        width = _width(op.input)
        lo, hi = op.min_val, op.max_val
        if width is None or not isinstance(lo, IntegerAttr) or not isinstance(hi, IntegerAttr):
            return
        t_lo, t_hi = numerics.storage_range(width, signed=True)
        if lo.value.data <= t_lo and hi.value.data >= t_hi and op.input.type == op.output.type:
            rewriter.replace(op, [], [op.input])


def _replace_with_const(op: Operation, values: np.ndarray, rewriter: PatternRewriter) -> None:
    t = op.results[0].type
    assert isinstance(t, TensorType)
    attr = DenseIntOrFPElementsAttr.from_list(t, values.reshape(-1).tolist())
    rewriter.replace(op, tosa.ConstOp(attr))


class FoldConstReshape(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.ReshapeOp, rewriter: PatternRewriter) -> None:
        values = constant_array(op.input1)
        if values is not None and ht.shape_of(op.output.type) is not None:
            _replace_with_const(op, values, rewriter)  # row-major order is unchanged


class FoldConstTranspose(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.TransposeOp, rewriter: PatternRewriter) -> None:
        values = constant_array(op.input1)
        if values is not None:
            _replace_with_const(op, np.transpose(values, op.array("perms")), rewriter)


class FoldTransposeChain(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.TransposeOp, rewriter: PatternRewriter) -> None:
        inner = op.input1.owner
        if not isinstance(inner, tosa.TransposeOp):
            return
        # out[i] = mid[outer[i]] and mid[j] = x[first[j]], so out[i] = x[first[outer[i]]].
        first, outer = inner.array("perms"), op.array("perms")
        perms = [first[i] for i in outer]
        rewriter.replace(
            op,
            tosa.TransposeOp.create(
                operands=[inner.input1],
                result_types=[op.results[0].type],
                properties={"perms": DenseArrayBase.from_list(i32, perms)},
            ),
        )


class DropIdentityTranspose(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.TransposeOp, rewriter: PatternRewriter) -> None:
        perms = op.array("perms")
        if list(perms) == list(range(len(perms))) and op.input1.type == op.results[0].type:
            rewriter.replace(op, [], [op.input1])
