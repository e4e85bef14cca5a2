"""`normalize-quant-types`: rewrite sub-channel types that need no blocks to simpler forms.

A sub-channel (blockwise) `!quant.uniform` whose scales tensor has a single entry is a
per-tensor type, and one whose scales vary along exactly one dimension is a per-axis
type along that dimension when its blocks there are one element long - the forms
every StableHLO op and lowering understands (upstream MLIR's pass of the same name):

    !quant.uniform<i8:f32:{0:1, 1:4}, {{2.0:127}}>            -> !quant.uniform<i8:f32, 2.0:127>
    !quant.uniform<i8:f32:{0:1}, {{2.0:127}, {3.0:127}}>      -> !quant.uniform<i8:f32:0, {2.0:127,3.0:127}>

Every type in the module is rewritten: op results, block arguments, function
signatures and attributes. Other sub-channel types are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker, TypeConversionPattern

from qdialect.dialects.quant import UniformQuantizedType

PASS_NAME = "normalize-quant-types"


def normalized(q: UniformQuantizedType) -> UniformQuantizedType | None:
    """The per-tensor or per-axis type equal to sub-channel type `q`, or None."""
    if not q.is_sub_channel:
        return None
    varying = [d for d, n in enumerate(q.scales_shape) if n > 1]
    if len(varying) > 1:
        return None
    # Per-axis means one parameter per index, so the varying dimension's blocks must
    # be of one element; along every other dimension one block covers everything.
    if varying and dict(q.block_sizes).get(varying[0]) != 1:
        return None
    return q.with_params(q.scales, q.zero_points, varying[0] if varying else None)


class _Normalize(TypeConversionPattern):
    def convert_type(self, typ: Attribute, /) -> Attribute | None:
        return normalized(typ) if isinstance(typ, UniformQuantizedType) else None


@dataclass(frozen=True)
class NormalizeQuantTypes(ModulePass):
    """Rewrite sub-channel quantized types with one block per tensor or per axis as per-tensor / per-axis types."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_Normalize(recursive=True)).rewrite_module(op)
