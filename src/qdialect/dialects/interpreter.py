"""The `interpreter` dialect: `interpreter.run_parallel`, as StableHLO's test suite writes it.

`"interpreter.run_parallel"(%inputs...) {programs = [[@f, @g], [@f, @g]]}` runs a
grid of processes (one row per replica, one column per partition), each calling
its function with its share of the inputs in row-major order; the results are
the processes' results in the same order. The interpreter gives the collectives
their data through it (docs/interpreter.md).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht


@irdl_op_definition
class RunParallelOp(IRDLOperation):
    """Run `programs` as a replicas x partitions grid of processes; `infeed` lists the
    functions whose results the grid's `stablehlo.infeed` ops read, in order."""

    name = "interpreter.run_parallel"
    inputs = var_operand_def()
    results_ = var_result_def()
    programs = prop_def(ArrayAttr)
    infeed = opt_prop_def(ArrayAttr)

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

    def infeed_names(self) -> list[str]:
        if self.infeed is None:
            return []
        if not all(isinstance(f, SymbolRefAttr) for f in self.infeed.data):
            raise VerifyException(f"'{self.name}' infeed must be a list of function symbols")
        return [f.root_reference.data for f in self.infeed.data]  # type: ignore[union-attr]

    def _function(self, name: str) -> FunctionType | None:
        """The signature of the module's function `name`; None outside a module."""
        module = self.parent_op()
        while module is not None and not isinstance(module, ModuleOp):
            module = module.parent_op()
        if module is None:
            return None
        func = SymbolTable.lookup_symbol(module, name)
        if not isinstance(func, FuncOp):
            raise VerifyException(f"'{self.name}' Function \"{name}\" not found")
        return func.function_type

    def verify_(self) -> None:
        """Upstream's RunParallelOp::verify, in its order and words."""
        rows = self.grid()
        if not rows or not rows[0]:
            raise VerifyException(f"'{self.name}' `programs` attribute cannot be empty")
        inputs = results = 0
        for row in rows:
            if len(row) != len(rows[0]):
                raise VerifyException(
                    f"'{self.name}' Sizes of second dimension of `programs` should all match "
                    f"{len(rows[0])} but got {len(row)}"
                )
            for name in row:
                signature = self._function(name)
                if signature is None:
                    return
                inputs += len(signature.inputs.data)
                results += len(signature.outputs.data)
        if len(self.inputs) != inputs:
            raise VerifyException(
                f"'{self.name}' Number of inputs ({len(self.inputs)}) should match the sum of "
                f"the number of inputs of all programs ({inputs})"
            )
        if len(self.results) != results:
            raise VerifyException(
                f"'{self.name}' Number of results ({len(self.results)}) should match the sum of "
                f"the number of results of all programs ({results})"
            )
        if self.infeed is not None and not self.infeed.data:
            raise VerifyException(
                f"'{self.name}' infeed attribute is optional or should not be empty"
            )
        for name in self.infeed_names():
            signature = self._function(name)
            assert signature is not None  # found the module above
            outputs = signature.outputs.data
            if len(outputs) != 1:
                raise VerifyException(
                    f"'{self.name}' Function \"{name}\" should return 1 tensor but returns "
                    f"{len(outputs)}"
                )
            if ht.shape_of(outputs[0]) is None:
                raise VerifyException(
                    f"'{self.name}' Function \"{name}\" should return a tensor type, but "
                    f"instead returns '{outputs[0]}'"
                )


Interpreter = Dialect("interpreter", [RunParallelOp], [])
