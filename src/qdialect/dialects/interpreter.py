"""The `interpreter` dialect: `interpreter.run_parallel`, as StableHLO's test suite writes it.

`"interpreter.run_parallel"(%inputs...) {programs = [[@f, @g], [@f, @g]]}` runs a
grid of processes (one row per replica, one column per partition), each calling
its function with its share of the inputs in row-major order; the results are
the processes' results in the same order. The interpreter gives the collectives
their data through it (docs/interpreter.md).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, SymbolRefAttr
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, var_operand_def, var_result_def
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class RunParallelOp(IRDLOperation):
    """Run `programs` as a replicas x partitions grid of processes."""

    name = "interpreter.run_parallel"
    inputs = var_operand_def()
    results_ = var_result_def()
    programs = prop_def(ArrayAttr)

    def grid(self) -> list[list[str]]:
        """Function names, one row per replica, one column per partition."""
        rows = []
        for row in self.programs.data:
            if not isinstance(row, ArrayAttr) or not all(
                isinstance(f, SymbolRefAttr) for f in row.data
            ):
                raise VerifyException(
                    f"'{self.name}' programs must be a list of lists of function symbols"
                )
            rows.append([f.root_reference.data for f in row.data])  # type: ignore[union-attr]
        return rows

    def verify_(self) -> None:
        rows = self.grid()
        if not rows or any(len(r) != len(rows[0]) or not r for r in rows):
            raise VerifyException(
                f"'{self.name}' programs must be a non-empty grid: every replica runs "
                "the same number of partitions"
            )


Interpreter = Dialect("interpreter", [RunParallelOp], [])
