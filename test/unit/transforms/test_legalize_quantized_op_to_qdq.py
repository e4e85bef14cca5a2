"""The quantization passes preserve the program's numbers, checked with the interpreter.

Random quantized programs (random ops, scales, zero points and inputs) run
before and after each pass; results must be bit-identical.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from qdialect.context import make_context
from qdialect.dialects.stablehlo import (
    DEQUANTIZE_OP_QUANTIZE,
    UniformDequantizeOp,
    UniformQuantizeOp,
)
from qdialect.interpreter import Interpreter
from qdialect.interpreter.core import _IMPLS
from qdialect.ir.parser import QParser
from qdialect.transforms.legalize_qdq_to_quantized_op import LegalizeQdqToQuantizedOp
from qdialect.transforms.legalize_quantized_op_to_qdq import LegalizeQuantizedOpToQdq

UNARY = [
    "abs",
    "negate",
    "sign",
    "tanh",
    "logistic",
    "exponential",
    "floor",
    "ceil",
    "round_nearest_even",
    "round_nearest_afz",
    "sqrt",
    "cosine",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "atan2",
    "power",
    "remainder",
]
SHAPE = "6x4"


def qtype(scale: float, zp: int, width: int = 8) -> str:
    return f"!quant.uniform<i{width}:f32, {scale!r}:{zp}>"


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A straight-line quantized program over tensor<6x4x...> values; returns (text, argument types)."""
    scale = st.floats(min_value=0.005, max_value=0.5)
    zp = st.integers(min_value=-20, max_value=20)
    arg_types = [f"tensor<{SHAPE}x{qtype(draw(scale), draw(zp))}>" for _ in range(2)]
    weight = (
        f"tensor<4x4x!quant.uniform<i8:f32:1, {{{','.join(repr(draw(scale)) for _ in range(4))}}}>>"
    )
    pool = [("%a0", arg_types[0]), ("%a1", arg_types[1])]
    lines = []
    for i in range(draw(st.integers(min_value=1, max_value=6))):
        kind = draw(st.sampled_from(["unary", "binary", "clamp", "select", "dot"]))
        out = f"tensor<{SHAPE}x{qtype(draw(scale), draw(zp))}>"
        x, tx = pool[draw(st.integers(0, len(pool) - 1))]
        y, ty = pool[draw(st.integers(0, len(pool) - 1))]
        name = f"%v{i}"
        if kind == "unary":
            op = draw(st.sampled_from(UNARY))
            lines.append(f"{name} = stablehlo.{op} {x} : ({tx}) -> {out}")
        elif kind == "binary":
            op = draw(st.sampled_from(BINARY))
            lines.append(f"{name} = stablehlo.{op} {x}, {y} : ({tx}, {ty}) -> {out}")
        elif kind == "clamp":
            lines.append(f"{name} = stablehlo.clamp {y}, {x}, {y} : ({ty}, {tx}, {ty}) -> {out}")
        elif kind == "select":
            lines.append(
                f"{name}p = stablehlo.compare LT, {x}, {y}, FLOAT : ({tx}, {ty}) -> tensor<{SHAPE}xi1>"
            )
            lines.append(
                f"{name} = stablehlo.select {name}p, {x}, {y} : (tensor<{SHAPE}xi1>, {tx}, {ty}) -> {out}"
            )
        else:
            acc = "tensor<6x4x!quant.uniform<i32:f32:1, {0.001,0.002,0.003,0.004}>>"
            lines.append(
                f"{name}a = stablehlo.dot_general {x}, %w, contracting_dims = [1] x [0] : ({tx}, {weight}) -> {acc}"
            )
            lines.append(f"{name} = stablehlo.uniform_quantize {name}a : ({acc}) -> {out}")
        pool.append((name, out))
    result, rtype = pool[-1]
    body = "\n  ".join(lines)
    src = f"func.func @main(%a0: {arg_types[0]}, %a1: {arg_types[1]}, %w: {weight}) -> {rtype} {{\n  {body}\n  func.return {result} : {rtype}\n}}"
    return src, [*arg_types, weight]


def interpret(src: str, args: list[np.ndarray], pass_=None) -> np.ndarray:
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    module.verify()
    if pass_ is not None:
        pass_.apply(ctx, module)
        module.verify()
    return Interpreter(module).call("main", args)[0], module


def random_inputs(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.integers(-128, 128, (6, 4)).astype(np.int8),
        rng.integers(-128, 128, (6, 4)).astype(np.int8),
        rng.integers(-127, 128, (4, 4)).astype(np.int8),
    ]


@settings(max_examples=60, deadline=None)
@given(programs(), st.integers(0, 2**31))
def test_quantized_op_to_qdq_preserves_numbers(program, seed) -> None:
    src, _ = program
    args = random_inputs(seed)
    before, _ = interpret(src, args)
    after, module = interpret(src, args, LegalizeQuantizedOpToQdq())
    np.testing.assert_array_equal(after, before)
    # Only dequantize/quantize and data movement may still touch quantized types.
    for op in module.walk():
        if type(op) in DEQUANTIZE_OP_QUANTIZE:
            assert not any(
                "quant.uniform" in str(t) for t in (*op.operand_types, *op.result_types)
            ), op


@settings(max_examples=60, deadline=None)
@given(programs(), st.integers(0, 2**31))
def test_qdq_to_quantized_op_preserves_numbers(program, seed) -> None:
    src, _ = program
    args = random_inputs(seed)
    before, _ = interpret(src, args)
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    LegalizeQuantizedOpToQdq().apply(ctx, module)
    expanded = str(module)
    after, folded = interpret(expanded, args, LegalizeQdqToQuantizedOp())
    np.testing.assert_array_equal(after, before)
    # Every op whose operands were all dequantized and whose result was quantized folds back.
    for op in folded.walk():
        if isinstance(op, UniformQuantizeOp):
            producer = op.operand.owner
            assert not (
                type(producer) in DEQUANTIZE_OP_QUANTIZE
                and all(isinstance(o.owner, UniformDequantizeOp) for o in producer.operands)
                and len(list(producer.results[0].uses)) == 1
            ), producer


def test_interpreter_uses_dequantize_op_quantize_for_exactly_these_ops() -> None:
    for op in DEQUANTIZE_OP_QUANTIZE:
        assert _IMPLS[op].quantized == "dqq", op.name
