"""`stablehlo-fold-batch-norm` on the float zoo: ResNet-50's and ShuffleNet's
BatchNormalizations (a multiply and an add per channel after each convolution) fold
into the weights, leaving no per-channel multiply; the outputs stay within 1e-5 of the
largest output of the unfolded program on the interpreter (the products round once
per weight instead of once per output, so not bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.dialects import stablehlo as sh
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.models import onnx_zoo
from qdialect.transforms.fold_batch_norm import FoldBatchNorm


def count(module, cls) -> int:
    return sum(isinstance(op, cls) for op in module.walk())


@pytest.mark.parametrize("name", ["resnet50", "shufflenet_block"])
def test_batch_norms_fold_and_outputs_stay_close(name: str) -> None:
    model = getattr(onnx_zoo, name)(0)
    inputs = list(onnx_zoo.random_inputs(model, 0).values())
    module = import_onnx(model, "stablehlo")
    want = Interpreter(module).call("main", inputs)[0]
    layers = count(module, sh.ConvolutionOp)
    assert count(module, sh.MultiplyOp) >= layers // 2
    FoldBatchNorm().apply(make_context(), module)
    module.verify()
    assert count(module, sh.ConvolutionOp) == layers
    assert count(module, sh.MultiplyOp) == 0  # every BatchNormalization folded
    got = Interpreter(module).call("main", inputs)[0]
    diff = float(np.abs(got.astype(np.float64) - want).max())
    print(f"{name}: max |folded - unfolded| = {diff:.3g} (outputs up to {np.abs(want).max():.3g})")
    assert diff <= 1e-5 * float(np.abs(want).max())
