"""MLIR's SSA dominance rule, which xDSL's verifier does not check.

In an SSACFG region (a `func.func` body, a reduction body, ...) a use must be
dominated by its definition: defined earlier in the same block, or defined in an
enclosing block before the op that (transitively) contains the use. A value defined
in a nested region is never visible outside it. Graph regions (the body of
`builtin.module`, and the regions of unregistered ops, as MLIR treats them) are
exempt from the ordering rule, but not from the visibility one.

Across the blocks of one region the rule would need a dominator tree; no registered
dialect has branch ops, so such uses are accepted (MLIR's verifier would check them).

Cost: each block's ops are numbered once, and each use walks up from its op to the
defining block, so the check is linear in the program's size times its nesting depth.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region


def _is_graph_region(region: Region | None) -> bool:
    parent = region.parent if region is not None else None
    return isinstance(parent, ModuleOp | UnregisteredOp)


class _Positions:
    """Each op's index in its block, computed once per block on first need."""

    def __init__(self) -> None:
        self._index: dict[Block, dict[Operation, int]] = {}

    def of(self, op: Operation, block: Block) -> int:
        index = self._index.get(block)
        if index is None:
            index = {o: i for i, o in enumerate(block.ops)}
            self._index[block] = index
        return index[op]


def dominance_error(root: Operation) -> tuple[Operation, str] | None:
    """The first op under `root` with an operand its definition does not dominate, and the
    message MLIR gives for it; None when every use is dominated."""
    positions = _Positions()
    for op in root.walk():
        for number, operand in enumerate(op.operands):
            if not _dominated(operand, op, positions):
                return op, f"operand #{number} does not dominate this use"
    return None


def _dominated(value, user: Operation, positions: _Positions) -> bool:
    if isinstance(value, BlockArgument):
        def_block, def_op = value.block, None
    elif isinstance(value, OpResult):
        def_op = value.op
        def_block = def_op.parent_block()
    else:
        return True  # not an IR value we can place (xDSL's own verifier judges it)
    if def_block is None:
        return False  # defined by a detached op
    def_region = def_block.parent
    ancestor: Operation | None = user
    while ancestor is not None:
        block = ancestor.parent_block()
        if block is None:
            return False
        if block is def_block:
            if def_op is None or _is_graph_region(def_region):
                return True
            return positions.of(def_op, block) < positions.of(ancestor, block)
        if def_region is not None and block.parent is def_region:
            return True  # another block of the same region: see the module docstring
        ancestor = block.parent_op()
    return False
