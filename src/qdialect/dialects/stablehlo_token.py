"""StableHLO's token type and the ops that order side effects with it.

`!stablehlo.token` carries no data: it orders effects. `after_all` joins tokens,
`create_token` (deprecated upstream, kept for old programs) makes one; `infeed`,
`outfeed`, `send` and `recv` move tensors in or out of the program and thread a
token through. `after_all` and `create_token` print upstream's pretty forms; the
others have none upstream and print generically. Their attributes (infeed_config,
layout, channel_handle, is_host_transfer, ...) stay in the attribute dictionary as
written. Verifiers follow upstream's (verifyInfeedOp, inferSendOp, verifyRecvOp) in
order and words; the interpreter runs them within `interpreter.run_parallel`
(docs/interpreter.md).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects.hlo_syntax import (
    ResultTypeSyntax,
    parse_optional_operand_list,
    parse_same_operands_and_result_type,
    print_extra_attrs,
    print_same_operands_and_result_type,
    resolve,
)
from qdialect.dialects.stablehlo_collectives import ChannelHandleAttr

DEVICE_TO_DEVICE, DEVICE_TO_HOST, HOST_TO_DEVICE = 1, 2, 3
"""StableHLO's channel types (`#stablehlo.channel_handle<handle = 1, type = 2>`)."""


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!stablehlo.token`."""

    name = "stablehlo.token"


def is_token(t: Attribute) -> bool:
    return isinstance(t, TokenType)


def _fail(op: Operation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' {message}")


def _require_token_result(op: Operation, t: Attribute) -> None:
    """Inference gives these ops one token result."""
    if not is_token(t):
        raise _fail(
            op,
            f"inferred type(s) '{TokenType()}' are incompatible with return type(s) of "
            f"operation '{t}'",
        )


@irdl_op_definition
class AfterAllOp(IRDLOperation):
    """`stablehlo.after_all %a, %b : !stablehlo.token`: a token after all of its inputs."""

    name = "stablehlo.after_all"
    inputs = var_operand_def(TokenType)
    result = result_def()

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_optional_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types, result = parse_same_operands_and_result_type(parser, len(operands))
        return cls.create(
            operands=resolve(parser, operands, types), result_types=[result], attributes=attrs
        )

    def print(self, printer: Printer):
        if self.inputs:
            printer.print_string(" ")
            printer.print_list(self.inputs, printer.print_operand)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, self.inputs, self.result.type)

    def verify_(self) -> None:
        _require_token_result(self, self.result.type)


@irdl_op_definition
class CreateTokenOp(ResultTypeSyntax):
    """`stablehlo.create_token : !stablehlo.token` (upstream's deprecated after_all)."""

    name = "stablehlo.create_token"
    output = result_def()

    def verify_(self) -> None:
        _require_token_result(self, self.output.type)


def _channel_type(op: Operation) -> int:
    handle = op.attributes.get("channel_handle")
    return handle.data.type if isinstance(handle, ChannelHandleAttr) else 0


def _is_host_transfer(op: Operation) -> bool:
    flag = op.attributes.get("is_host_transfer")  # `true` is an i1 IntegerAttr
    return isinstance(flag, IntegerAttr) and flag.value.data != 0


def channel_id(op: Operation) -> int:
    handle = op.attributes.get("channel_handle")
    return handle.data.handle if isinstance(handle, ChannelHandleAttr) else 0


def _verify_data_then_token(op: Operation, results: list[Attribute], data_words: str) -> None:
    """infeed's and recv's results: at least one, tensors, then a token."""
    if not results:
        raise _fail(op, "result is expected to be at least of size 1, but got 0")
    for t in results[:-1]:
        if not isinstance(t, TensorType):
            raise _fail(op, f"{data_words} expected to be of tensor type, but got '{t}'")
    if not is_token(results[-1]):
        raise _fail(
            op,
            f"last element of result types is expected to be of token type, but got '{results[-1]}'",
        )


@irdl_op_definition
class InfeedOp(IRDLOperation):
    """`"stablehlo.infeed"(%token) : (!stablehlo.token) -> (tensor<..>, !stablehlo.token)`:
    reads tensors from the infeed."""

    name = "stablehlo.infeed"
    token = operand_def(TokenType)
    results_ = var_result_def()

    def verify_(self) -> None:
        """verifyInfeedOp, in its order and words."""
        results = [r.type for r in self.results]
        _verify_data_then_token(
            self, results, "all elements of result types, except the last element, are"
        )
        layout = self.attributes.get("layout")
        if layout is None:
            return
        if not isinstance(layout, ArrayAttr):
            raise _fail(self, "layout-attribute expected to be of array-type.")
        if len(layout.data) != len(results) - 1:
            raise _fail(
                self,
                f"layout-attribute size must be {len(results) - 1} (which is the number of "
                f"op-results - 1 (for token result)), but got {len(layout.data)}",
            )
        for child in layout.data:
            if not isinstance(child, ArrayAttr):
                raise _fail(
                    self,
                    f"layout-attribute expected to have elements of type array, but got {child}",
                )
            for leaf in child.data:
                if not isinstance(leaf, IntegerAttr):
                    raise _fail(
                        self,
                        "layout-attribute's leaf elements are expected to be of type integer, "
                        f"but got {leaf}",
                    )


@irdl_op_definition
class OutfeedOp(IRDLOperation):
    """`"stablehlo.outfeed"(%x, %token) : (tensor<..>, !stablehlo.token) -> !stablehlo.token`:
    writes its inputs to the outfeed."""

    name = "stablehlo.outfeed"
    operands_ = var_operand_def()
    result = result_def()

    def verify_(self) -> None:
        if not self.operands_ or not is_token(self.operands_[-1].type):
            raise _fail(self, "expects its last operand to be a !stablehlo.token")
        _require_token_result(self, self.result.type)


@irdl_op_definition
class SendOp(IRDLOperation):
    """`"stablehlo.send"(%x, %token) {channel_handle = ...} : (...) -> !stablehlo.token`."""

    name = "stablehlo.send"
    operands_ = var_operand_def()
    result = result_def()

    def verify_(self) -> None:
        """inferSendOp, in its order and words."""
        if not self.operands_ or not is_token(self.operands_[-1].type):
            raise _fail(self, "expects its last operand to be a !stablehlo.token")
        kind, host = _channel_type(self), _is_host_transfer(self)
        if not host and kind != DEVICE_TO_DEVICE:
            raise _fail(
                self, "channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false"
            )
        if host and kind != DEVICE_TO_HOST:
            raise _fail(self, "channel_type should be DEVICE_TO_HOST when is_host_transfer is true")
        _require_token_result(self, self.result.type)


@irdl_op_definition
class RecvOp(IRDLOperation):
    """`"stablehlo.recv"(%token) {channel_handle = ...} : (...) -> (tensor<..>, !stablehlo.token)`."""

    name = "stablehlo.recv"
    token = operand_def(TokenType)
    results_ = var_result_def()

    def verify_(self) -> None:
        """verifyRecvOp, in its order and words."""
        kind, host = _channel_type(self), _is_host_transfer(self)
        if not host and kind != DEVICE_TO_DEVICE:
            raise _fail(
                self, "channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false"
            )
        if host and kind != HOST_TO_DEVICE:
            raise _fail(self, "channel_type should be HOST_TO_DEVICE when is_host_transfer is true")
        _verify_data_then_token(
            self,
            [r.type for r in self.results],
            "everything but the last element of result types is",
        )


TOKEN_OPS = [AfterAllOp, CreateTokenOp, InfeedOp, OutfeedOp, SendOp, RecvOp]
TOKEN_TYPES = [TokenType]
