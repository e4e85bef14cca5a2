"""Float ONNX models — the zoo's networks before quantization, what users start from —
import as float StableHLO that the interpreter runs: its outputs against ONNX Runtime's
float session, the measured maximum difference printed (`pytest -s`).

Not bit-exact, on purpose: a float32 convolution or matrix product sums its products
in an order the kernel chooses (ONNX Runtime's MLAS blocks and vectorizes them, the
interpreter sums in NumPy's order), and float addition is not associative. Each
output is held to a relative difference of 1e-5 of its largest magnitude, a few
float32 roundings accumulated over a layer's fan-in; measured, the zoo stays under
3e-6."""

from __future__ import annotations

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime", reason="onnxruntime (the oracle extra) is not installed")

import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

from qdialect.importers.onnx_import import import_onnx  # noqa: E402
from qdialect.interpreter import Interpreter  # noqa: E402
from qdialect.models import onnx_zoo  # noqa: E402

ZOO = [
    ("resnet50", {}),
    ("mobilenet_v2", {}),
    ("squeezenet1_1", {}),
    ("densenet121_block", {}),
    ("inception_block", {}),
    ("shufflenet_block", {}),
    ("vgg16", {"width": 0.25}),
    ("alexnet", {"width": 0.25}),
    ("gelu_mlp", {}),
]
RELATIVE = 1e-5


def against_ort(model: bytes, inputs: dict[str, np.ndarray]) -> list[tuple[float, float]]:
    """(max |ours - ORT|, max |ORT|) per output."""
    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    want = session.run(None, inputs)
    got = Interpreter(import_onnx(model, "stablehlo")).call("main", list(inputs.values()))
    out = []
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g)
        assert g.dtype == np.float32 and g.shape == w.shape
        out.append((float(np.abs(g.astype(np.float64) - w).max()), float(np.abs(w).max())))
    return out


@pytest.mark.parametrize("name, options", ZOO, ids=[z[0] for z in ZOO])
def test_float_zoo_network_matches_onnx_runtime(name: str, options: dict) -> None:
    model = getattr(onnx_zoo, name)(0, **options)
    for diff, scale in against_ort(model, onnx_zoo.random_inputs(model, 0)):
        print(f"{name}: max |ours - ONNX Runtime| = {diff:.3g} (outputs up to {scale:.3g})")
        assert scale > 0 and diff <= RELATIVE * scale


@pytest.mark.parametrize("count_include_pad", [0, 1])
@pytest.mark.parametrize("channels", [3, 16])
def test_float_average_pools(count_include_pad: int, channels: int) -> None:
    """AveragePool with asymmetric padding and stride (the edge windows divide by their
    in-bounds taps unless count_include_pad), then GlobalAveragePool."""
    pool = helper.make_node(
        "AveragePool", ["x"], ["p"], kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 0, 1],
        count_include_pad=count_include_pad,
    )  # fmt: skip
    gap = helper.make_node("GlobalAveragePool", ["p"], ["y"])
    graph = helper.make_graph(
        [pool, gap], "pools",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, 9, 7])],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, [1, channels, 4, 7]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, 1, 1])],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    x = np.random.default_rng(channels).normal(0, 2, (1, channels, 9, 7)).astype(np.float32)
    for diff, scale in against_ort(model.SerializeToString(), {"x": x}):
        assert diff <= RELATIVE * scale
