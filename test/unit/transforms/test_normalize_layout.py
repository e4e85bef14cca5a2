"""`stablehlo-normalize-layout` on the float zoo as imported from ONNX (NCHW): the programs
compute what they did (float sums over the same taps, measured and printed) with their
convolutions in NHWC and few transposes left; quantized afterwards, their TOSA programs
carry fewer transposes than without the pass."""

from __future__ import annotations

import collections

import numpy as np
import pytest

pytest.importorskip("onnxruntime", reason="the float zoo needs the oracle extra")

from qdialect.calibration.calibrate import calibrate
from qdialect.calibration.workflow import integer, optimize_float, quantized
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.models import onnx_zoo
from qdialect.transforms.normalize_layout import normalize

# name -> StableHLO transposes left after the pass (the input's, and what blocks sinking).
ZOO = {"resnet50": 1, "mobilenet_v2": 1, "squeezenet1_1": 3, "densenet121_block": 9}


def counts(module) -> collections.Counter:
    return collections.Counter(op.name for op in module.walk())


@pytest.mark.parametrize("name", list(ZOO))
def test_zoo_network_in_nhwc_computes_what_it_did(name: str) -> None:
    model = getattr(onnx_zoo, name)(0)
    module = import_onnx(model, "stablehlo")
    optimize_float(module)
    x = list(onnx_zoo.random_inputs(model, 0).values())
    before = Interpreter(module).call("main", x)[0]
    normalize(module, "nhwc")
    module.verify()
    after = Interpreter(module).call("main", x)[0]
    diff, scale = float(np.abs(after - before).max()), float(np.abs(before).max())
    print(f"{name}: max difference {diff:.3g} (outputs up to {scale:.3g})")
    assert diff <= 1e-5 * scale
    convs = [op for op in module.walk() if op.name == "stablehlo.convolution"]
    assert convs and all(op.dimension_numbers.data.input_feature_dimension == 3 for op in convs)
    assert counts(module)["stablehlo.transpose"] == ZOO[name]


def test_normalized_densenet_block_quantizes_to_fewer_tosa_transposes() -> None:
    """The TOSA lowering transposes each NCHW layer in and out and tosa-reduce-transposes
    cancels what it can; across DenseNet's concatenations it cannot, the pass can."""
    model = onnx_zoo.densenet121_block(0)
    x = list(onnx_zoo.random_inputs(model, 0).values())
    found = {}
    for normalized in (False, True):
        module = import_onnx(model, "stablehlo")
        optimize_float(module)
        if normalized:
            normalize(module, "nhwc")
        rng = np.random.default_rng(1)
        cal = calibrate(module, ([rng.normal(0, 1, x[0].shape).astype(np.float32)]
                                 for _ in range(2)))  # fmt: skip
        program = integer(quantized(module, cal), target="tosa")
        found[normalized] = counts(program)["tosa.transpose"]
    print(
        f"densenet121_block TOSA transposes: {found[False]} as imported, {found[True]} normalized"
    )
    assert found[True] < found[False]
