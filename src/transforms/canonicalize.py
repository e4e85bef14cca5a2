"""`canonicalize`: fold constants and apply every op's canonicalization patterns.

xDSL's canonicalizer, with MLIR's `test-convergence` option: after the greedy
rewrite reaches its fixed point, one more sweep must change nothing, or the pass fails
with MLIR's "Canonicalizer failed to converge" (a pattern that undoes another, or
one that rewrites forever, shows up here rather than as a silent no-op).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import region_dce

from qdialect.ir.errors import OpError


def _sweep(ctx: Context, op: ModuleOp) -> bool:
    """One greedy rewrite to its fixed point; whether it changed anything."""
    pattern = GreedyRewritePatternApplier(
        [CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True
    )
    return PatternRewriteWalker(pattern, post_walk_func=region_dce).rewrite_module(op)


@dataclass(frozen=True)
class Canonicalize(ModulePass):
    """Fold constants and apply every op's canonicalization patterns."""

    name = "canonicalize"

    test_convergence: bool = False
    """Fail when a further sweep after the fixed point still rewrites the IR."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _sweep(ctx, op)
        if self.test_convergence and _sweep(ctx, op):
            raise OpError(op, "Canonicalizer failed to converge")
