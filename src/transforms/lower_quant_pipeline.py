"""`stablehlo-lower-quant`: the pipeline that removes quantized types, as upstream's does.

stablehlo-legalize-quant-to-math, then canonicalize (folds the constants and
broadcasts the lowering leaves behind).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.transforms.legalize_quant_to_math import LegalizeQuantToMath


@dataclass(frozen=True)
class LowerQuantPipeline(ModulePass):
    """Lower quantized StableHLO to integer math: quant-to-math followed by canonicalize."""

    name = "stablehlo-lower-quant"

    fallback: str = "allow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        LegalizeQuantToMath(self.fallback).apply(ctx, op)
        CanonicalizePass().apply(ctx, op)
