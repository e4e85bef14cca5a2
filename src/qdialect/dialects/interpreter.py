"""The `interpreter` dialect: StableHLO's interpreter ops, as its test suite writes them.

`"interpreter.run_parallel"(%inputs...) {programs = [[@f, @g], [@f, @g]]}` runs a
grid of processes (one row per replica, one column per partition), each calling
its function with its share of the inputs in row-major order; the results are
the processes' results in the same order. The interpreter gives the collectives
their data through it (docs/interpreter.md).

`%y = interpreter.probe %x, probe_id = "conv1" : tensor<3xf32>` returns its operand and
records the value each time it runs (`qrun --probe-output-dir` also writes it as a
NumPy file, listed in `index.csv`); `check.expect_serialized_eq` compares a recording.
`interpreter.print %x : tensor<2xi32>` prints the value, in upstream's layout.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import print_extra_attrs, resolve, split_attr_dict


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


class _OperandAndTypeSyntax(IRDLOperation):
    """`name %x[, probe_id = "id"] {attrs} : T` (upstream's assembly formats)."""

    operand = operand_def()

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if "probe_id" in cls.get_irdl_definition().properties:
            parser.parse_punctuation(",")
            parser.parse_keyword("probe_id")
            parser.parse_punctuation("=")
            props["probe_id"] = StringAttr(parser.parse_str_literal())
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        results = [t] if cls.get_irdl_definition().results else []
        return cls.create(
            operands=resolve(parser, [operand], [t]),
            result_types=results,
            properties={**more, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        probe_id = self.properties.get("probe_id")
        if isinstance(probe_id, StringAttr):
            printer.print_string(", probe_id = ")
            printer.print_attribute(probe_id)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)

    def verify_(self) -> None:
        ht.require_tensor(self.operand.type, f"'{self.name}' operand")


@irdl_op_definition
class ProbeOp(_OperandAndTypeSyntax):
    """Its operand, unchanged; the interpreter records the value under `probe_id` each
    time the op runs."""

    name = "interpreter.probe"
    result = result_def()
    probe_id = prop_def(StringAttr)

    def verify_(self) -> None:
        super().verify_()
        if self.result.type != self.operand.type:
            raise VerifyException(
                f"'{self.name}' requires the same type for all operands and results"
            )


@irdl_op_definition
class PrintOp(_OperandAndTypeSyntax):
    """Prints its operand's value to standard output when run."""

    name = "interpreter.print"


Interpreter = Dialect("interpreter", [RunParallelOp, ProbeOp, PrintOp], [])
