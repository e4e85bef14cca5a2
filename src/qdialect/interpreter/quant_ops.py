"""Semantics of the quant cast ops: quantize, dequantize, reinterpret storage."""

from __future__ import annotations

from xdsl.ir import Operation

from qdialect.dialects import quant
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Interpreter, implements


@implements(quant.QuantizeCastOp, quantized="none")
def _qcast(interp: Interpreter, op: Operation, args, types):
    return [v.quantize(args[0], types[0])]


@implements(quant.DequantizeCastOp, quantized="none")
def _dcast(interp: Interpreter, op: Operation, args, types):
    return [v.dequantize(args[0], op.operands[0].type)]


@implements(quant.StorageCastOp, quantized="none")
def _scast(interp: Interpreter, op: Operation, args, types):
    return [args[0].astype(v.dtype_of(types[0]))]
