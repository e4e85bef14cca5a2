"""normalize-quant-types keeps every program's numbers (checked on the interpreter)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import Float32Type

from qdialect.context import make_context
from qdialect.dialects.quant import UniformQuantizedType
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.transforms.normalize_quant_types import NormalizeQuantTypes, normalized

SRC = """
func.func @main(%x: tensor<2x8xf32>) -> (tensor<2x8xi8>, tensor<2x8xf32>) {
  %q = quant.qcast %x : tensor<2x8xf32> to tensor<2x8x!quant.uniform<i8:f32:{0:1,1:8}, {{0.5:3}, {0.25:-1}}>>
  %s = quant.scast %q : tensor<2x8x!quant.uniform<i8:f32:{0:1,1:8}, {{0.5:3}, {0.25:-1}}>> to tensor<2x8xi8>
  %d = quant.dcast %q : tensor<2x8x!quant.uniform<i8:f32:{0:1,1:8}, {{0.5:3}, {0.25:-1}}>> to tensor<2x8xf32>
  func.return %s, %d : tensor<2x8xi8>, tensor<2x8xf32>
}
"""


def test_normalized_program_computes_the_same_numbers() -> None:
    x = np.random.default_rng(0).normal(0, 5, (2, 8)).astype(np.float32)
    ctx = make_context()
    module = QParser(ctx, SRC).parse_module()
    before = Interpreter(module).call("main", [x])
    NormalizeQuantTypes().apply(ctx, module)
    module.verify()
    assert "{0:1" not in str(module) and "!quant.uniform<i8:f32:0, {" in str(module)
    after = Interpreter(module).call("main", [x])
    for a, b in zip(before, after, strict=True):
        np.testing.assert_array_equal(a, b)
    # Row 0 uses (0.5, 3), row 1 (0.25, -1).
    expected = np.clip(np.rint(x / np.array([[0.5], [0.25]], np.float32) + [[3], [-1]]), -128, 127)
    np.testing.assert_array_equal(before[0], expected)


def test_only_single_element_blocks_along_one_dimension_become_per_axis() -> None:
    f32 = Float32Type()
    long_blocks = UniformQuantizedType.get_sub_channel(8, f32, [[1.0], [2.0]], None, [(0, 2)])
    two_dims = UniformQuantizedType.get_sub_channel(
        8, f32, [[1.0, 2.0], [3.0, 4.0]], None, [(0, 1), (1, 1)]
    )
    assert normalized(long_blocks) is None and normalized(two_dims) is None
    per_axis = normalized(
        UniformQuantizedType.get_sub_channel(8, f32, [[1.0, 2.0]], None, [(1, 1)])
    )
    assert per_axis is not None and per_axis.axis == 1 and per_axis.scales == (1.0, 2.0)
