"""`stablehlo-substitute-activations` on models as users make them: every activation of a
kind is found whatever its spelling (ONNX's GELU as an erf polynomial, TFLite's SiLU and
hard-swish), the program still verifies and runs, and the report gives each change."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.interpreter import Interpreter
from qdialect.transforms.substitute_activations import ACTIVATIONS, substitute


def test_onnx_gelu_mlp_gelus_become_relus() -> None:
    """The float GELU MLP of the zoo: both GELUs (24 ops of erf polynomial each) become one
    maximum; with GELU = x Φ(x) and ReLU differing by at most 0.17, the outputs move."""
    pytest.importorskip("onnxruntime", reason="the float zoo needs the oracle extra")
    from qdialect.importers.onnx_import import import_onnx
    from qdialect.models import onnx_zoo

    model = onnx_zoo.gelu_mlp(0)
    module = import_onnx(model, "stablehlo")
    x = list(onnx_zoo.random_inputs(model, 0).values())
    before = Interpreter(module).call("main", x)[0]
    changes = substitute(module, {"gelu": "relu"})
    module.verify()
    assert [c["activation"] for c in changes] == ["gelu", "gelu"]
    assert all(c["ops_removed"] == 24 and 0.16 < c["max_abs_difference_on_-8_8"] < 0.18
               for c in changes)  # fmt: skip
    text = str(module)
    assert "stablehlo.exponential" not in text and text.count("stablehlo.maximum") == 2
    after = Interpreter(module).call("main", x)[0]
    assert after.shape == before.shape and not np.array_equal(after, before)


def test_keep_changes_nothing() -> None:
    pytest.importorskip("onnxruntime", reason="the float zoo needs the oracle extra")
    from qdialect.importers.onnx_import import import_onnx
    from qdialect.models import onnx_zoo

    module = import_onnx(onnx_zoo.gelu_mlp(0), "stablehlo")
    text = str(module)
    assert substitute(module, {}) == [] and str(module) == text


@pytest.mark.parametrize(
    "name, choice, activation, count",
    [
        ("efficientnet_b0", "silu", "silu", 49),
        ("mobilenet_v3_small", "hard-swish", "hard-swish", 19),
    ],
)
def test_keras_applications_activations_are_all_found(name: str, choice: str, activation: str,
                                                      count: int) -> None:  # fmt: skip
    """EfficientNet-B0's SiLUs (LOGISTIC, MUL) and MobileNetV3-Small's HARD_SWISH ops, as
    TFLiteConverter writes them: each one replaced by ReLU6 (the squeeze-and-excite hard
    sigmoids multiply another tensor, so they are not hard-swish and stay)."""
    pytest.importorskip("tensorflow", reason="the models are made by TFLiteConverter")
    from qdialect.importers.tflite import import_tflite
    from qdialect.models import keras_zoo as kz

    module = import_tflite(getattr(kz, name)(96, float32=True))
    changes = substitute(module, {choice: "relu6"})
    module.verify()
    assert len(changes) == count and {c["activation"] for c in changes} == {activation}
    if activation == "silu":  # the 16 squeeze-and-excite gates keep their sigmoids
        assert str(module).count("stablehlo.logistic %") == 16


def test_the_reference_functions_are_distinct() -> None:
    """The recognition tolerance (1e-4) separates every pair of activations it names."""
    grid = np.linspace(-8, 8, 161)
    names = list(ACTIVATIONS)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert np.abs(ACTIVATIONS[a](grid) - ACTIVATIONS[b](grid)).max() > 1e-4
