"""`stablehlo-legalize-qdq-to-quantized-op`: fold dequantize -> op -> quantize into a quantized op.

    %a = stablehlo.uniform_dequantize %qa          %r = stablehlo.add %qa, %qb
    %b = stablehlo.uniform_dequantize %qb    =>         : (!qa, !qb) -> !qr
    %s = stablehlo.add %a, %b
    %r = stablehlo.uniform_quantize %s

The op must have no regions and one result; every operand must come from a
uniform_dequantize and the result's only use must be a uniform_quantize. The
quantized op must verify (so e.g. a reshape between different scales, which
has no quantized form, is left alone). Because a quantized op means exactly
dequantize -> op -> quantize, the rewrite computes the same numbers.
Dequantize ops left without uses are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects.stablehlo import ConstantOp, ReturnOp, UniformDequantizeOp, UniformQuantizeOp
from qdialect.ir.rewrite import located


class FoldDequantizeOpQuantize(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (
            not op.name.startswith("stablehlo.")
            or isinstance(op, UniformDequantizeOp | UniformQuantizeOp | ConstantOp | ReturnOp)
            or op.regions
            or len(op.results) != 1
            or not op.operands
        ):
            return
        dequantizes = [o.owner for o in op.operands]
        if not all(isinstance(d, UniformDequantizeOp) for d in dequantizes):
            return
        uses = list(op.results[0].uses)
        if len(uses) != 1 or not isinstance(quantize := uses[0].operation, UniformQuantizeOp):
            return
        quantized = type(op).create(
            operands=[d.operand for d in dequantizes],  # type: ignore[union-attr]
            result_types=[quantize.result.type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        try:
            quantized.verify()
        except VerifyException:
            return  # no valid quantized form: leave the float op alone
        rewriter.insert(quantized, InsertPoint.before(op))
        rewriter.replace_all_uses_with(quantize.result, quantized.results[0])
        rewriter.erase(quantize)
        rewriter.erase(op)
        for d in dict.fromkeys(dequantizes):
            if not d.results[0].uses:
                rewriter.erase(d)


@dataclass(frozen=True)
class LegalizeQdqToQuantizedOp(ModulePass):
    """Fold dequantize -> op -> quantize chains into ops on quantized types."""

    name = "stablehlo-legalize-qdq-to-quantized-op"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            located(FoldDequantizeOpQuantize(), dce_enabled=False),
            apply_recursively=True,
        ).rewrite_module(op)
