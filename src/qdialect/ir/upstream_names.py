"""SSA value names as mlir-opt chooses them, for `qopt --upstream-names`.

MLIR keeps no names from its input: it numbers values (`%0`, `%1`, a multi-result op's
group `%2:2` used as `%2#1`), names entry-block arguments `%arg0`, `%arg1`, ... and lets
a few ops name their results (`stablehlo.constant`: `%c` for integers, `%cst` otherwise;
`arith.constant`: `%c0`, `%c1_i32`, `%true`, `%cst`; `chlo.top_k`: `%values, %indices`; `tosa.fft2d`, `tosa.rfft2d`: `%output_real, %output_imag`;
`stablehlo.while`'s loop-carried values `%iterArg`, `%iterArg_0`).
A name already taken gets `_N`, N from one counter per function (`%c`, `%c_0`, `%cst_1`).
Numbering restarts in every function (an isolated-from-above op); a nested region is
numbered after all of its parent region's ops, starting from the counters the parent
ended with, so sibling regions reuse numbers, as MLIR's `SSANameState` does. xDSL's
printer instead keeps the input's names; with these names instead, qopt's output diffs
cleanly against mlir-opt's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, Region, SSAValue

__all__ = ["asm_block_argument_names", "asm_result_names", "upstream_names"]


def asm_result_names(op: Operation) -> list[str | None] | None:
    """The names upstream's `getAsmResultNames` gives `op`'s results (None: none)."""
    if op.name == "stablehlo.constant" and len(op.results) == 1:
        t = op.results[0].type
        element = t.get_element_type() if isinstance(t, TensorType) else t
        return ["c" if isinstance(element, IntegerType) else "cst"]
    if op.name == "arith.constant" and len(op.results) == 1:
        value = op.properties.get("value")
        return [_arith_constant_name(value if value is not None else op.attributes.get("value"))]
    if op.name == "chlo.top_k" and len(op.results) == 2:
        return ["values", "indices"]
    if op.name == "stablehlo.rng_bit_generator" and len(op.results) == 2:
        return ["output_state", "output"]
    if op.name in ("tosa.fft2d", "tosa.rfft2d") and len(op.results) == 2:
        return ["output_real", "output_imag"]
    return None


def _arith_constant_name(value: Attribute | None) -> str:
    if isinstance(value, IntegerAttr):
        t = value.type
        if isinstance(t, IntegerType) and t.width.data == 1:
            return "true" if value.value.data else "false"
        number = value.value.data
        return f"c{number}_{t}" if isinstance(t, IntegerType) else f"c{number}"  # index: c0
    return "cst"


def _isolated(op: Operation | None) -> bool:
    return isinstance(op, FuncOp | ModuleOp)


@dataclass
class _Scope:
    next_value: int = 0
    next_argument: int = 0
    next_conflict: int = 0
    used: set[str] = field(default_factory=set)

    def copy(self) -> _Scope:
        return _Scope(self.next_value, self.next_argument, self.next_conflict, set(self.used))

    def unique(self, name: str) -> str:
        if name not in self.used:
            self.used.add(name)
            return name
        while True:
            probe = f"{name}_{self.next_conflict}"
            self.next_conflict += 1
            if probe not in self.used:
                self.used.add(probe)
                return probe


def upstream_names(top: Operation) -> dict[SSAValue, str]:
    """Every value inside `top` -> the name mlir-opt prints for it (without the `%`)."""
    names: dict[SSAValue, str] = {}
    work: list[tuple[Region, _Scope]] = [(r, _Scope()) for r in reversed(top.regions)]
    while work:
        region, inherited = work.pop()
        scope = _Scope() if _isolated(region.parent_op()) else inherited.copy()
        _number_region(region, scope, names)
        children = [
            (child, scope) for block in region.blocks for op in block.ops for child in op.regions
        ]
        work.extend(reversed(children))  # popped in program order
    return names


def asm_block_argument_names(region: Region) -> str | None:
    """The name upstream's `getAsmBlockArgumentNames` gives the entry-block arguments of
    `region` (None: `%argN`): `stablehlo.while` calls its loop-carried values `iterArg`."""
    parent = region.parent_op()
    return "iterArg" if parent is not None and parent.name == "stablehlo.while" else None


def _number_region(region: Region, scope: _Scope, names: dict[SSAValue, str]) -> None:
    special = asm_block_argument_names(region)
    for block in region.blocks:
        entry = block is region.blocks.first
        for arg in block.args:
            if entry and special:
                names[arg] = scope.unique(special)
            elif entry:
                names[arg] = scope.unique(f"arg{scope.next_argument}")
                scope.next_argument += 1
            else:
                names[arg] = str(scope.next_value)
                scope.next_value += 1
        for op in block.ops:
            _number_results(op, scope, names)


def _number_results(op: Operation, scope: _Scope, names: dict[SSAValue, str]) -> None:
    if not op.results:
        return
    special = asm_result_names(op) or []
    for result, name in zip(op.results, special, strict=False):
        if name:
            names[result] = scope.unique(name)
    # The results from the first to the next named one form a numbered group.
    if op.results[0] not in names:
        base = str(scope.next_value)
        scope.next_value += 1
        group = list(op.results)
        end = next((i for i, r in enumerate(group) if i and r in names), len(group))
        if end == 1:
            names[group[0]] = base
        else:
            for i in range(end):
                names[group[i]] = f"{base}#{i}"
