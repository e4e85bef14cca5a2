"""`strip-func-quant-types`: function signatures carry storage types, not quantized types.

Upstream MLIR's pass of the same name, for code generators and runtimes that pass raw
storage across function boundaries: every `func.func` argument and result whose
(element) type is a `!quant.uniform` takes its storage type instead (`i8`, `tensor<4xi16>`,
`tensor<*xf8E4M3FN>`, ...), and `quant.scast` ops convert at the boundary, so the body
keeps computing on quantized types:

    func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 2.0:10>>) -> ...
    ->
    func.func @f(%a: tensor<4xi8>) -> ... {
      %0 = quant.scast %a : tensor<4xi8> to tensor<4x!quant.uniform<i8:f32, 2.0:10>>

- an argument is cast at the start of the entry block (each one inserted first, so the
  casts appear in reverse argument order, as upstream's conversion materializes them);
- a returned value is cast right after the op defining it (at the block start for a
  block argument) and `func.return` returns the cast;
- a `func.call`'s quantized operands are cast the same way, its results get storage
  types and are cast back right after the call.

Declarations (`func.func private @f(...)`) change their signature only.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
    TensorType,
    UnrankedTensorType,
    VectorType,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from qdialect.dialects.quant import StorageCastOp, UniformQuantizedType

PASS_NAME = "strip-func-quant-types"


def storage_type(t: Attribute) -> Attribute | None:
    """`t` with its quantized element type replaced by the storage type, or None when `t`
    is not (a tensor or vector of) `!quant.uniform`."""
    if isinstance(t, UniformQuantizedType):
        return t.storage_type
    if isinstance(t, TensorType | VectorType) and isinstance(
        t.get_element_type(), UniformQuantizedType
    ):
        return type(t)(t.get_element_type().storage_type, t.get_shape())  # type: ignore[call-arg]
    if isinstance(t, UnrankedTensorType) and isinstance(t.element_type, UniformQuantizedType):
        return UnrankedTensorType(t.element_type.storage_type)
    return None


def _cast_after_definition(value: SSAValue, to: Attribute) -> SSAValue:
    """A `quant.scast` of `value` to `to`, placed right after `value` is defined."""
    cast = StorageCastOp(value, to)
    if isinstance(value.owner, Block):
        Rewriter.insert_op(cast, InsertPoint.at_start(value.owner))
    else:
        Rewriter.insert_op(cast, InsertPoint.after(value.owner))
    return cast.result


def _strip_function(func: FuncOp) -> None:
    inputs = list(func.function_type.inputs.data)
    outputs = list(func.function_type.outputs.data)
    new_inputs = [storage_type(t) or t for t in inputs]
    new_outputs = [storage_type(t) or t for t in outputs]
    if new_inputs == inputs and new_outputs == outputs:
        return
    func.function_type = type(func.function_type).from_lists(new_inputs, new_outputs)
    if not func.body.blocks:
        return
    entry = func.body.blocks.first
    assert entry is not None
    for arg, quantized, storage in zip(entry.args, inputs, new_inputs, strict=True):
        if storage == quantized:
            continue
        uses = list(arg.uses)
        Rewriter.replace_value_with_new_type(arg, storage)
        new_arg = entry.args[arg.index]
        cast = StorageCastOp(new_arg, quantized)
        Rewriter.insert_op(cast, InsertPoint.at_start(entry))
        for use in uses:
            use.operation.operands[use.index] = cast.result
    for op in list(func.walk()):
        if isinstance(op, ReturnOp) and op.parent_op() is func:
            for i, (value, storage) in enumerate(zip(op.operands, new_outputs, strict=True)):
                if value.type != storage:
                    op.operands[i] = _cast_after_definition(value, storage)


def _strip_call(call: CallOp) -> None:
    results = [r.type for r in call.results]
    new_results = [storage_type(t) or t for t in results]
    operands = list(call.operands)
    if new_results == results and all(storage_type(v.type) is None for v in operands):
        return
    for i, value in enumerate(operands):
        if (storage := storage_type(value.type)) is not None:
            call.operands[i] = _cast_after_definition(value, storage)
    new = CallOp(call.callee, list(call.operands), new_results)
    Rewriter.insert_op(new, InsertPoint.before(call))
    replacements: list[SSAValue] = []
    for old, result in zip(results, new.results, strict=True):
        replacements.append(result if result.type == old else _cast_after_definition(result, old))
    Rewriter.replace_op(call, [], replacements)
    for result in new.results:  # one printed group (`%0:2`), not names split per result
        result.name_hint = None


@dataclass(frozen=True)
class StripFuncQuantTypes(ModulePass):
    """Give function arguments and results storage types, casting with quant.scast at the boundary."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [o for o in op.walk() if isinstance(o, FuncOp)]:
            _strip_function(func)
        for call in [o for o in op.walk() if isinstance(o, CallOp)]:
            _strip_call(call)
