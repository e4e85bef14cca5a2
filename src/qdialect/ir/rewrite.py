"""Replacing one op by several, for passes that rewrite an op in place."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern

from qdialect.ir.constants import erase_if_unused


def replace_op(op: Operation, new: Sequence[Operation], result: SSAValue) -> None:
    """Insert `new` before `op` (at its location), let `result` take the place of `op`'s
    one result, erase `op`, and then the constants only it read."""
    block = op.parent_block()
    assert block is not None
    for operation in new:
        operation.location = op.location
        block.insert_op_before(operation, op)
    op.results[0].replace_all_uses_with(result)
    operands = list(op.operands)
    block.erase_op(op)
    for v in operands:
        erase_if_unused(v)


class InheritLocation(RewritePattern):
    """`pattern`, except that every op it inserts without a location takes the matched
    op's: the source model's names (`loc("conv1")`) then survive lowering, and the
    debugging tools match a tensor across stages by them (docs/debugging.md)."""

    def __init__(self, pattern: RewritePattern):
        self.pattern = pattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        def inherit(new: Operation) -> None:
            if isinstance(new.location, UnknownLoc):
                new.location = op.location

        rewriter.operation_insertion_handler.append(inherit)
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        finally:
            rewriter.operation_insertion_handler.remove(inherit)


def located(*patterns: RewritePattern, dce_enabled: bool = True) -> GreedyRewritePatternApplier:
    """The patterns, each wrapped in `InheritLocation`, as one applier."""
    return GreedyRewritePatternApplier(
        [InheritLocation(p) for p in patterns], dce_enabled=dce_enabled
    )
