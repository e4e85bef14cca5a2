"""StableHLO's asynchronous collectives: `!stablehlo.future<...>`, `async_start` and
`async_done`.

`async_start` wraps one collective (or slice) op in its region and yields a future of
its result; `async_done` waits for the future and gives the value. Both print
generically, as upstream does. The future type holds ranked tensors only, checked where
the type is written (upstream's FutureType::verify). The ops verify as upstream's type
inference does, in its order and words; the interpreter runs the region at
`async_start` (docs/interpreter.md).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, TensorType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    var_operand_def,
    var_region_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

#: The ops an async_start may wrap (upstream's list).
ASYNC_OPS = frozenset(
    f"stablehlo.{name}"
    for name in (
        "all_gather",
        "all_reduce",
        "all_to_all",
        "collective_broadcast",
        "collective_permute",
        "collective_reduce",
        "dynamic_slice",
        "dynamic_update_slice",
        "reduce_scatter",
        "slice",
    )
)


@irdl_attr_definition
class FutureType(ParametrizedAttribute, TypeAttribute):
    """`!stablehlo.future<tensor<4xf32>, ...>`: values an async_start will produce."""

    name = "stablehlo.future"
    types: ArrayAttr[Attribute]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return [ArrayAttr(types)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_list(self.types.data, printer.print_attribute)

    def verify(self) -> None:
        for t in self.types.data:
            if not isinstance(t, TensorType):
                raise VerifyException(f"future element type must be a ranked tensor, but got '{t}'")


def _fail(op: IRDLOperation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


@irdl_op_definition
class AsyncStartOp(IRDLOperation):
    """Starts the collective in its region; its result is a future of the region's value."""

    name = "stablehlo.async_start"
    operands_ = var_operand_def()
    body = var_region_def()
    result = result_def()

    def verify_(self) -> None:
        """AsyncStartOp::inferReturnTypes, in its order and words, then the result."""
        if len(self.body) != 1:
            raise _fail(self, "requires one region")
        block = self.body[0].blocks.first
        if block is None:
            raise _fail(self, "region must not be empty")
        ops = list(block.ops)
        if len(ops) != 2:
            raise _fail(self, "region must contain exactly one operation and a return")
        if ops[0].name not in ASYNC_OPS:
            raise _fail(self, "region must contain a collective or slice operation")
        if len(self.operands_) != len(block.args):
            raise _fail(
                self,
                f"number of operands ({len(self.operands_)}) must match number of region "
                f"arguments ({len(block.args)})",
            )
        for i, (x, arg) in enumerate(zip(self.operands_, block.args, strict=True)):
            if x.type != arg.type:
                raise _fail(
                    self,
                    f"operand type '{x.type}' at index {i} must match region argument type "
                    f"'{arg.type}'",
                )
        returned = ops[1].operands
        if len(returned) != 1:
            raise _fail(self, f"region must return exactly one value, but got {len(returned)}")
        inferred = FutureType(ArrayAttr([returned[0].type]))
        if self.result.type != inferred:
            raise _fail(
                self,
                f"inferred type(s) '{inferred}' are incompatible with return type(s) of "
                f"operation '{self.result.type}'",
            )


@irdl_op_definition
class AsyncDoneOp(IRDLOperation):
    """Waits for a future and gives its value."""

    name = "stablehlo.async_done"
    operand = operand_def()
    result = result_def()

    def verify_(self) -> None:
        """AsyncDoneOp::inferReturnTypes, in its words, then the result."""
        future = self.operand.type
        if not isinstance(future, FutureType):
            raise _fail(self, "operand must be a future type")
        if len(future.types.data) != 1:
            raise _fail(
                self,
                f"future must have exactly one type parameter, but got {len(future.types.data)}",
            )
        inferred = future.types.data[0]
        if self.result.type != inferred:
            raise _fail(
                self,
                f"inferred type(s) '{inferred}' are incompatible with return type(s) of "
                f"operation '{self.result.type}'",
            )


ASYNC_TYPES = [FutureType]
ASYNC_OP_CLASSES = [AsyncStartOp, AsyncDoneOp]
