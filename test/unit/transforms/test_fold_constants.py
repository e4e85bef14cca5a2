"""`stablehlo-fold-constants` on whole programs: the float zoo's folded weight layouts
(Gemm's transposed weights, broadcast biases) leave its outputs within 1e-6 of the
largest output (a matrix product's float32 sum depends on the weight's memory layout);
an integer program (quantized SqueezeNet imported as StableHLO, its int8 weights
converted to int32 before each convolution) is bit for bit what it was."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.models import onnx_zoo
from qdialect.transforms.fold_constants import FoldConstants, foldable


@pytest.mark.parametrize("name", ["resnet50", "inception_block"])
def test_float_zoo_folds_and_stays_close(name: str) -> None:
    model = getattr(onnx_zoo, name)(0)
    inputs = list(onnx_zoo.random_inputs(model, 0).values())
    module = import_onnx(model, "stablehlo")
    want = Interpreter(module).call("main", inputs)[0]
    assert any(foldable(op, 1 << 24) for op in module.walk())
    FoldConstants().apply(make_context(), module)
    module.verify()
    assert not any(foldable(op, 1 << 24) for op in module.walk())
    got = Interpreter(module).call("main", inputs)[0]
    assert np.abs(got.astype(np.float64) - want).max() <= 1e-6 * np.abs(want).max()


def test_integer_program_is_unchanged_bit_for_bit() -> None:
    model = onnx_zoo.quantized("squeezenet1_1")
    inputs = list(onnx_zoo.random_inputs(model, 0).values())
    module = import_onnx(model, "stablehlo")
    want = Interpreter(module).call("main", inputs)
    assert sum(foldable(op, 1 << 24) for op in module.walk()) >= 20  # weights widened to i32
    FoldConstants().apply(make_context(), module)
    module.verify()
    got = Interpreter(module).call("main", inputs)
    assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
