"""Semantics of the quant cast ops: quantize, dequantize, reinterpret storage."""

from __future__ import annotations

from qdialect.dialects import quant
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements


@implements(quant.QuantizeCastOp, quantized="none")
def _qcast(interp: Interpreter, op: quant.QuantizeCastOp, args: Arrays, types: Types) -> Arrays:
    return [v.quantize(args[0], types[0])]


@implements(quant.DequantizeCastOp, quantized="none")
def _dcast(interp: Interpreter, op: quant.DequantizeCastOp, args: Arrays, types: Types) -> Arrays:
    return [v.dequantize(args[0], op.operands[0].type)]


@implements(quant.StorageCastOp, quantized="none")
def _scast(interp: Interpreter, op: quant.StorageCastOp, args: Arrays, types: Types) -> Arrays:
    return [args[0].astype(v.dtype_of(types[0]))]
