"""`stablehlo-legalize-quantized-op-to-qdq`: spell out a quantized op's meaning in float.

    %r = stablehlo.add %qa, %qb          %a = stablehlo.uniform_dequantize %qa
         : (!qa, !qb) -> !qr       =>    %b = stablehlo.uniform_dequantize %qb
                                         %s = stablehlo.add %a, %b
                                         %r = stablehlo.uniform_quantize %s

Applies to every op with `dequantize_op_quantize` semantics
(`stablehlo.DEQUANTIZE_OP_QUANTIZE`); results that are not quantized (compare's
i1, a hybrid dot_general's float) stay as they are. Data-movement ops
(reshape, transpose, broadcast_in_dim, slice, concatenate, pad, gather) keep
their quantized types: their quantized form moves storage and needs no
rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.stablehlo import (
    DEQUANTIZE_OP_QUANTIZE,
    UniformDequantizeOp,
    UniformQuantizeOp,
)
from qdialect.interpreter.values import expressed_type
from qdialect.ir.rewrite import located


class ExpandQuantizedOp(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) not in DEQUANTIZE_OP_QUANTIZE:
            return
        types = [*(o.type for o in op.operands), *(r.type for r in op.results)]
        if not any(ht.is_quantized(t) for t in types):
            return
        before = InsertPoint.before(op)
        operands: list[SSAValue] = []
        for operand in op.operands:
            if ht.is_quantized(operand.type):
                dq = UniformDequantizeOp(operand)
                rewriter.insert(dq, before)
                operands.append(dq.result)
            else:
                operands.append(operand)
        float_op = type(op).create(
            operands=operands,
            result_types=[expressed_type(r.type) for r in op.results],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        rewriter.insert(float_op, before)
        results: list[SSAValue] = []
        for old, new in zip(op.results, float_op.results, strict=True):
            if ht.is_quantized(old.type):
                q = UniformQuantizeOp(new, old.type)
                rewriter.insert(q, before)
                results.append(q.result)
            else:
                results.append(new)
        rewriter.replace(op, [], results)


@dataclass(frozen=True)
class LegalizeQuantizedOpToQdq(ModulePass):
    """Rewrite quantized ops into dequantize -> float op -> quantize."""

    name = "stablehlo-legalize-quantized-op-to-qdq"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(located(ExpandQuantizedOp(), dce_enabled=False)).rewrite_module(op)
