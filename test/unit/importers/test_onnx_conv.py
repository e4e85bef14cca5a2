"""Conv and ConvTranspose (importers/onnx_conv.py) against ONNX Runtime: the fused QDQ
groups bit for bit (constant or runtime weights), the groups ONNX Runtime leaves float
(grouped ConvTranspose, a filter computed at run time) end to end, and float
convolutions within a printed tolerance."""

from __future__ import annotations

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime", reason="onnxruntime (the oracle extra) is not installed")

import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from qdialect.importers.onnx_common import ONNXImportError  # noqa: E402
from qdialect.importers.onnx_import import import_onnx  # noqa: E402
from qdialect.interpreter import Interpreter  # noqa: E402
from qdialect.models import onnx_models, onnx_zoo  # noqa: E402


def _float_model(nodes, inputs: dict[str, tuple[int, ...]], inits=(), opset: int = 17) -> bytes:
    """A float model with shapes inferred (quantize_static needs them)."""
    infos = [
        helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in inputs.items()
    ]
    graph = helper.make_graph(nodes, "g", infos, [helper.make_empty_tensor_value_info("z")],
                              list(inits))  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return onnx.shape_inference.infer_shapes(model).SerializeToString()


def _feeds(inputs: dict[str, tuple[int, ...]], seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {n: rng.normal(0, 1, s).astype(np.float32) for n, s in inputs.items()}


def _equal_to_onnxruntime(data: bytes, inputs: dict[str, tuple[int, ...]]) -> None:
    module = import_onnx(data)
    for seed in range(3):
        feeds = _feeds(inputs, seed)
        want = onnx_models.ort_session(data).run(None, feeds)[0]
        assert np.array_equal(Interpreter(module).call("main", list(feeds.values()))[0], want)


def _const(rng, shape, name: str, sigma: float = 0.3):
    return numpy_helper.from_array(rng.normal(0, sigma, shape).astype(np.float32), name)


@pytest.mark.parametrize(
    "strides, pads, output_padding, dilations, k",
    [([2, 2], [0, 0, 0, 0], [0, 0], [1, 1], 3), ([2, 2], [1, 1, 1, 1], [1, 1], [1, 1], 3),
     ([2, 1], [1, 0, 0, 1], [1, 0], [1, 2], 3), ([2, 2], [0, 0, 0, 0], [0, 0], [1, 1], 2)],
)  # fmt: skip
@pytest.mark.parametrize("per_channel", [False, True])
def test_qdq_conv_transpose_equals_onnxruntime(strides, pads, output_padding, dilations, k,
                                               per_channel) -> None:  # fmt: skip
    """A generator-style upsampling ConvTranspose + Relu quantized by quantize_static:
    the int32 transposed convolution (spread input, flipped kernel) and ONNX Runtime's
    requantization, bit for bit."""
    rng = np.random.default_rng(sum(strides) + k)
    nodes = [helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], strides=strides, pads=pads,
                              output_padding=output_padding, dilations=dilations),
             helper.make_node("Relu", ["y"], ["z"])]  # fmt: skip
    inputs = {"x": (1, 4, 5, 6)}
    model = _float_model(nodes, inputs, [_const(rng, (4, 3, k, k), "w"), _const(rng, 3, "b", 0.1)])
    data = onnx_zoo.quantize(model, qdq=True, per_channel=per_channel, preprocess=False)
    _equal_to_onnxruntime(data, inputs)


@pytest.mark.parametrize("op", ["Conv", "ConvTranspose"])
def test_filter_computed_at_run_time_equals_onnxruntime(op: str) -> None:
    """A filter computed from a graph input (a hypernetwork's, a generator's), quantized by
    quantize_static: ONNX Runtime runs a Conv as QLinearConv with runtime weights (the
    int32 convolution here) and keeps a ConvTranspose float between Q/DQ; both bit for
    bit. The TOSA target refuses a quantized convolution's runtime weights by name and
    keeps the float ConvTranspose a float island (StableHLO, for the host)."""
    rng = np.random.default_rng(7)
    w_shape = (4, 3, 3, 3) if op == "ConvTranspose" else (3, 4, 3, 3)
    nodes = [helper.make_node("Mul", ["wz", "k"], ["w"]),
             helper.make_node(op, ["x", "w", "b"], ["y"], strides=[2, 2] if op == "ConvTranspose" else [1, 1]),
             helper.make_node("Relu", ["y"], ["z"])]  # fmt: skip
    inputs = {"x": (1, 4, 5, 6), "wz": w_shape}
    model = _float_model(nodes, inputs, [_const(rng, w_shape, "k"), _const(rng, 3, "b", 0.1)])
    data = onnx_zoo.quantize(model, qdq=True, per_channel=False, preprocess=False)
    _equal_to_onnxruntime(data, inputs)
    if op == "ConvTranspose":
        ops = {o.name for o in import_onnx(data, "tosa").walk()}
        assert "stablehlo.convolution" in ops and "tosa.conv2d" not in ops
        return
    with pytest.raises(ONNXImportError, match=r"computed at run time.*TOSA"):
        import_onnx(data, "tosa")


def test_grouped_conv_transpose_left_float_by_onnxruntime_equals_it() -> None:
    """quantize_static wraps a grouped ConvTranspose in Q/DQ, but ONNX Runtime has no
    grouped integer kernel and runs it in float: so does the import."""
    rng = np.random.default_rng(3)
    nodes = [helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2], group=2),
             helper.make_node("Relu", ["y"], ["z"])]  # fmt: skip
    inputs = {"x": (1, 4, 5, 6)}
    model = _float_model(nodes, inputs, [_const(rng, (4, 3, 3, 3), "w"), _const(rng, 6, "b", 0.1)])
    data = onnx_zoo.quantize(model, qdq=True, per_channel=False, preprocess=False)
    _equal_to_onnxruntime(data, inputs)


@pytest.mark.parametrize(
    "op, w_shape, attrs",
    [("Conv", (6, 4, 3, 3), {"pads": [1, 1, 1, 1]}),
     ("Conv", (8, 2, 3, 3), {"group": 2, "strides": [2, 2], "auto_pad": "SAME_UPPER"}),
     ("Conv", (4, 1, 3, 3), {"group": 4, "dilations": [2, 2]}),
     ("ConvTranspose", (4, 3, 3, 3), {"strides": [2, 2], "output_padding": [1, 1]}),
     ("ConvTranspose", (4, 2, 3, 3), {"group": 2, "strides": [2, 2], "pads": [1, 0, 1, 0]}),
     ("ConvTranspose", (4, 3, 3, 3), {"strides": [2, 2], "output_shape": [10, 11]}),
     ("ConvTranspose", (4, 3, 2, 2), {"strides": [2, 2], "auto_pad": "SAME_UPPER"}),
     ("ConvTranspose", (4, 3, 3, 3), {"strides": [2, 2], "auto_pad": "SAME_LOWER"})],
)  # fmt: skip
def test_float_convolutions_are_within_tolerance(op, w_shape, attrs) -> None:
    """Float Conv and ConvTranspose (groups, auto_pad, output_shape): ONNX Runtime sums in
    MLAS's blocked order, so the difference is measured in float32 steps and printed,
    held to docs/onnx.md's bound; the output shape must be ONNX Runtime's."""
    rng = np.random.default_rng(len(attrs))
    node = helper.make_node(op, ["x", "w", "b"], ["z"], **attrs)
    c_out = w_shape[1] * attrs.get("group", 1) if op == "ConvTranspose" else w_shape[0]
    inputs = {"x": (1, 4, 5, 6)}
    data = _float_model([node], inputs, [_const(rng, w_shape, "w"), _const(rng, c_out, "b")])
    worst = 0.0
    for seed in range(2):
        feeds = _feeds(inputs, seed)
        want = onnx_models.ort_session(data).run(None, feeds)[0]
        got = Interpreter(import_onnx(data)).call("main", list(feeds.values()))[0]
        assert got.shape == want.shape
        step = np.maximum(np.spacing(np.abs(want)), np.spacing(np.float32(1)))
        worst = max(worst, float((np.abs(got.astype(np.float64) - want) / step).max()))
    print(f"{op} {attrs}: at most {worst:.3g} float32 steps from ONNX Runtime")
    assert worst <= 16


def test_malformed_convolutions_are_named() -> None:
    rng = np.random.default_rng(0)
    cases = [("Conv", (6, 3, 3, 3), {}, r"weights \[6, 3, 3, 3\] do not fit 4 channels"),
             ("Conv", (6, 4, 3, 3), {"strides": [0, 1]}, "attribute .strides. values must lie in"),
             ("ConvTranspose", (3, 3, 3, 3), {}, "do not fit 4 input channels"),
             ("ConvTranspose", (4, 3, 3, 3), {"pads": [3, 3, 3, 3]}, "pads larger than"),
             ("ConvTranspose", (4, 3, 3, 3), {"output_shape": [90, 90]}, "output_shape")]  # fmt: skip
    for op, w_shape, attrs, message in cases:
        node = helper.make_node(op, ["x", "w"], ["z"], **attrs)
        infos = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 5, 6])]
        graph = helper.make_graph([node], "g", infos, [helper.make_empty_tensor_value_info("z")],
                                  [_const(rng, w_shape, "w")])  # fmt: skip
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        with pytest.raises(ONNXImportError, match=message):
            import_onnx(model.SerializeToString())
