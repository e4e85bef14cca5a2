"""strip-func-quant-types changes types at function boundaries only: the program computes
the same storage values before and after (the interpreter on both, bit for bit)."""

from __future__ import annotations

import numpy as np

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.transforms.strip_func_quant_types import StripFuncQuantTypes

SRC = """
!q = !quant.uniform<i8:f32, 0.05:-7>
!w = !quant.uniform<f8E4M3FN:f32:0, {0.5, 0.125}>
func.func private @requant(%a: tensor<2x3x!q>, %b: tensor<2x3x!w>) -> (tensor<2x3x!w>, tensor<2x3x!q>) {
  %x = quant.dcast %a : tensor<2x3x!q> to tensor<2x3xf32>
  %y = quant.dcast %b : tensor<2x3x!w> to tensor<2x3xf32>
  %s = stablehlo.add %x, %y : tensor<2x3xf32>
  %r = quant.qcast %s : tensor<2x3xf32> to tensor<2x3x!w>
  return %r, %a : tensor<2x3x!w>, tensor<2x3x!q>
}
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3x!w>, tensor<2x3x!q>, tensor<2x3xf32>) {
  %a = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!q>
  %b = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!w>
  %r:2 = func.call @requant(%a, %b) : (tensor<2x3x!q>, tensor<2x3x!w>) -> (tensor<2x3x!w>, tensor<2x3x!q>)
  %d = quant.dcast %r#1 : tensor<2x3x!q> to tensor<2x3xf32>
  return %r#0, %r#1, %d : tensor<2x3x!w>, tensor<2x3x!q>, tensor<2x3xf32>
}
"""


def _run(strip: bool) -> tuple[list[np.ndarray], str]:
    ctx = make_context()
    module = QParser(ctx, SRC).parse_module()
    module.verify()
    if strip:
        StripFuncQuantTypes().apply(ctx, module)
        module.verify()
    x = np.array([[0.3, -1.7, 2.2], [5.0, -0.01, np.nan]], np.float32)
    return Interpreter(module).call("main", [x]), str(module)


def test_same_storage_values_before_and_after() -> None:
    (before, _), (after, text) = _run(False), _run(True)
    assert "func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf8E4M3FN>, tensor<2x3xi8>" in text
    for a, b in zip(before, after, strict=True):
        assert a.dtype == b.dtype
        assert np.array_equal(a.view(np.uint8), b.view(np.uint8))
