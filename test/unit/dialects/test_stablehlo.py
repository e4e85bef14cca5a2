"""Building StableHLO ops from Python, and their verifiers on programmatic IR."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import Float32Type, IntegerType, TensorType
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects.quant import UniformQuantizedType
from qdialect.dialects.stablehlo import (
    AddOp,
    CompareOp,
    TanhOp,
    UniformDequantizeOp,
    UniformQuantizeOp,
)

f32 = Float32Type()


def tensor(element, *shape):
    return TensorType(element, list(shape))


def test_quantize_add_dequantize_chain_verifies() -> None:
    q = UniformQuantizedType.get(8, f32, 0.1, -3)
    block = Block(arg_types=[tensor(f32, 4)])
    quant = UniformQuantizeOp(block.args[0], tensor(q, 4))
    add = AddOp(quant.result, quant.result)
    deq = UniformDequantizeOp(add.result)
    block.add_ops([quant, add, deq])
    for op in block.ops:
        op.verify()
    assert deq.result.type == tensor(f32, 4)


def test_compare_builds_a_boolean_result() -> None:
    block = Block(arg_types=[tensor(f32, 2, 3)])
    cmp = CompareOp(block.args[0], block.args[0], "GT", "FLOAT")
    block.add_op(cmp)
    cmp.verify()
    assert cmp.result.type == tensor(IntegerType(1), 2, 3)


def test_verifiers_reject_programmatic_mistakes() -> None:
    block = Block(arg_types=[tensor(IntegerType(32), 4)])
    tanh = TanhOp(block.args[0])
    block.add_op(tanh)
    with pytest.raises(
        VerifyException,
        match="must be ranked tensor of floating-point or complex or per-tensor quantized",
    ):
        tanh.verify()
