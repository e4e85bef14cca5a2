"""Replacing one op by several, for passes that rewrite an op in place."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue

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
