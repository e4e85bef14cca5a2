"""The ONNX zoo (`qdialect.models.onnx_zoo`): every float model is valid ONNX at each
supported opset, has its architecture's real structure and size, and runs in ONNX
Runtime with finite, non-degenerate outputs; `quantize` gives models ONNX Runtime runs
close to the float ones, in both formats, with and without preprocessing."""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime", reason="onnxruntime (the oracle extra) is not installed")

import onnx  # noqa: E402

from qdialect.models import onnx_zoo  # noqa: E402
from qdialect.models.onnx_zoo import ZOO, quantize, random_inputs  # noqa: E402

# Full VGG-16 and AlexNet are 550 MB and 240 MB of weights: the tests take their width
# variants (same graph, same spatial sizes).
SMALL = {"vgg16": {"width": 0.25}, "alexnet": {"width": 0.25}}

# Op counts that pin each architecture (torchvision's / the ONNX model zoo's graphs).
STRUCTURE = {
    "resnet50": {"Conv": 53, "BatchNormalization": 53, "Relu": 49, "Add": 16, "MaxPool": 1,
                 "GlobalAveragePool": 1, "Flatten": 1, "Gemm": 1},
    "resnet50_torch_flatten": {"Conv": 53, "Shape": 1, "Gather": 1, "Unsqueeze": 1,
                               "Concat": 1, "Reshape": 1, "Flatten": 0},
    "mobilenet_v2": {"Conv": 52, "Clip": 35, "Add": 10, "BatchNormalization": 0, "Gemm": 1},
    "squeezenet1_1": {"Conv": 26, "Concat": 8, "MaxPool": 3, "Dropout": 1, "Relu": 26},
    "densenet121_block": {"Conv": 13, "Mul": 13, "Add": 13, "Unsqueeze": 26, "Concat": 6,
                          "AveragePool": 1, "BatchNormalization": 0},
    "inception_block": {"Conv": 9, "LRN": 2, "MaxPool": 3, "Concat": 1, "Reshape": 2,
                        "AveragePool": 1, "Softmax": 1},
    "shufflenet_block": {"Conv": 15, "BatchNormalization": 15, "Split": 3, "Concat": 4,
                         "Reshape": 8, "Transpose": 4},
    "vgg16": {"Conv": 13, "Relu": 15, "MaxPool": 5, "Gemm": 3, "Dropout": 2},
    "alexnet": {"Conv": 5, "LRN": 2, "MaxPool": 3, "Gemm": 3, "Dropout": 2, "Softmax": 1},
    "gelu_mlp": {"MatMul": 3, "Erf": 2, "Gelu": 0},
    "gelu_mlp_op": {"MatMul": 3, "Erf": 0, "Gelu": 2},
}  # fmt: skip


@functools.cache
def build(name: str, opset: int | None = None) -> bytes:
    """ZOO[name] at `opset` (default: the builder's), small where SMALL says."""
    kwargs = SMALL.get(name, {}) | ({} if opset is None else {"opset": opset})
    return ZOO[name](**kwargs)


def session(data: bytes):
    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.add_session_config_entry("session.qdqisint8allowed", "1")
    return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])


def run(data: bytes, seed: int = 0) -> np.ndarray:
    return session(data).run(None, random_inputs(data, seed))[0]


@pytest.mark.parametrize("name", list(ZOO))
def test_float_model_is_valid_and_sane(name: str) -> None:
    """check_model with full (strict shape) checking; a standard-normal input gives finite
    outputs spread over many values, not collapsed to zero or one class."""
    data = build(name)
    model = onnx.load_from_string(data)
    onnx.checker.check_model(model, full_check=True)
    ops = Counter(n.op_type for n in model.graph.node)
    base = name.removesuffix("_init_inputs")
    assert {op: ops[op] for op in STRUCTURE[base]} == STRUCTURE[base]
    out = run(data)
    assert np.isfinite(out).all()
    live = out[out != 0]  # a final Relu zeroes about half
    assert live.size > 0.3 * out.size and len(np.unique(live)) > 0.5 * live.size
    assert out.std() > 1e-3 * max(1.0, float(np.abs(out).max()))
    if "Softmax" in ops:
        assert np.isclose(out.sum(), 1, atol=1e-4) and out.max() < 0.99


@pytest.mark.parametrize("opset", [13, 21])
@pytest.mark.parametrize("name", [n for n in ZOO if not n.startswith("resnet50")])
def test_every_supported_opset(name: str, opset: int) -> None:
    """Each builder writes ops valid at the requested opset, at the IR version that goes
    with it, and ONNX Runtime runs them."""
    if name == "gelu_mlp_op" and opset < 20:
        with pytest.raises(ValueError, match="opset 20"):
            ZOO[name](opset=opset)
        return
    data = build(name, opset)
    model = onnx.load_from_string(data)
    assert model.opset_import[0].version == opset
    assert model.ir_version == onnx.helper.find_min_ir_version_for(list(model.opset_import))
    onnx.checker.check_model(model, full_check=True)
    assert np.isfinite(run(data)).all()


def test_opset_range_is_checked() -> None:
    for opset in (12, 22):
        with pytest.raises(ValueError, match="outside"):
            onnx_zoo.squeezenet1_1(opset=opset)


def _parameters(model: onnx.ModelProto, skip=lambda name: False) -> int:
    return sum(int(np.prod(t.dims)) for t in model.graph.initializer if not skip(t.name))


def test_real_sizes() -> None:
    """torchvision's parameter counts: ResNet-50's 25,557,032 (BN running statistics are
    not parameters); MobileNetV2's 3,504,872 less the one BN parameter per channel that
    folding removes (each folded Conv's bias stands for BN's scale and shift); SqueezeNet
    1.1's 1,235,496."""
    resnet = onnx.load_from_string(build("resnet50"))
    assert _parameters(resnet, lambda n: n.endswith(("running_mean", "running_var"))) == 25_557_032
    mobilenet = onnx.load_from_string(build("mobilenet_v2"))
    biases = sum(int(np.prod(t.dims)) for t in mobilenet.graph.initializer
                 if t.name.endswith(".bias") and not t.name.startswith("classifier"))  # fmt: skip
    assert _parameters(mobilenet, lambda n: n.startswith("clip.")) + biases == 3_504_872
    squeezenet = onnx.load_from_string(build("squeezenet1_1"))
    assert _parameters(squeezenet, lambda n: n.endswith("ratio")) == 1_235_496
    shapes = {"resnet50": (1, 1000), "resnet50_torch_flatten": (1, 1000),
              "mobilenet_v2": (1, 1000), "squeezenet1_1": (1, 1000),
              "densenet121_block": (1, 128, 28, 28), "inception_block": (1, 1000),
              "shufflenet_block": (1, 116, 28, 28), "gelu_mlp": (1, 128, 256)}  # fmt: skip
    for name, shape in shapes.items():
        out = onnx.load_from_string(build(name)).graph.output[0].type.tensor_type.shape
        assert tuple(d.dim_value for d in out.dim) == shape, name


def test_exporter_idioms() -> None:
    """The graph forms the zoo exists for: initializers listed as graph inputs; Clip
    bounds, Split sizes, Unsqueeze axes as inputs; the Reshape of an initializer feeding a
    Reshape; ceil-mode and asymmetrically padded pooling; Dropout's ratio input and mask
    output; the opset-20 Gelu."""
    inits = onnx.load_from_string(build("squeezenet1_1_init_inputs"))
    assert len(inits.graph.input) == 1 + len(inits.graph.initializer)
    nodes = {n: list(onnx.load_from_string(build(n)).graph.node) for n in ZOO}
    attrs = onnx.helper.get_attribute_value

    def first(name: str, op: str) -> onnx.NodeProto:
        return next(n for n in nodes[name] if n.op_type == op)

    assert len(first("mobilenet_v2", "Clip").input) == 3
    assert len(first("shufflenet_block", "Split").input) == 2
    assert len(first("squeezenet1_1", "Dropout").input) == 2
    assert len(first("alexnet", "Dropout").output) == 2
    assert all(attrs(a) == 1 for n in nodes["squeezenet1_1"] if n.op_type == "MaxPool"
               for a in n.attribute if a.name == "ceil_mode")  # fmt: skip
    assert [attrs(a) for a in first("inception_block", "MaxPool").attribute
            if a.name == "pads"] == [[0, 0, 1, 1]]  # fmt: skip
    reshapes = [n for n in nodes["inception_block"] if n.op_type == "Reshape"]
    assert reshapes[1].input[1] == reshapes[0].output[0]
    assert first("gelu_mlp_op", "Gelu").domain == ""


@pytest.mark.parametrize("preprocess", [False, True], ids=["raw", "preprocessed"])
@pytest.mark.parametrize("qdq", [True, False], ids=["QDQ", "QOperator"])
@pytest.mark.parametrize("name", ["mobilenet_v2", "shufflenet_block"])
def test_quantize(name: str, qdq: bool, preprocess: bool) -> None:
    """quantize_static's output in the asked format, per-channel int8 weights, and close to
    the float model on an input it was not calibrated on."""
    data = quantize(build(name), qdq=qdq, per_channel=True, preprocess=preprocess, samples=2)
    model = onnx.load_from_string(data)
    onnx.checker.check_model(model)
    ops = Counter(n.op_type for n in model.graph.node)
    if qdq:
        assert ops["QLinearConv"] == 0 and ops["Conv"] == STRUCTURE[name]["Conv"]
    else:
        assert ops["Conv"] == 0 and ops["QLinearConv"] == STRUCTURE[name]["Conv"]
    inits = {t.name: t for t in model.graph.initializer}
    assert all(t.data_type != onnx.TensorProto.UINT8 for t in inits.values())
    conv_weights = [t for t in inits.values() if len(t.dims) == 4]
    assert len(conv_weights) == STRUCTURE[name]["Conv"]
    for w in conv_weights:  # int8, one scale per output channel
        assert w.data_type == onnx.TensorProto.INT8
        assert list(inits[w.name.removesuffix("_quantized") + "_scale"].dims) == [w.dims[0]]
    ref, out = run(build(name), seed=99), run(data, seed=99)
    assert np.isfinite(out).all()
    assert np.corrcoef(ref.ravel(), out.ravel())[0, 1] > 0.98


def test_quantize_per_tensor() -> None:
    """Per-tensor weights (one scale per weight tensor), here on SqueezeNet's fire modules."""
    float_model = build("squeezenet1_1")
    data = quantize(float_model, qdq=False, per_channel=False, preprocess=True, samples=2)
    model = onnx.load_from_string(data)
    inits = {t.name: t for t in model.graph.initializer}
    conv_weights = [t for t in inits.values() if len(t.dims) == 4]
    assert len(conv_weights) == STRUCTURE["squeezenet1_1"]["Conv"]
    for w in conv_weights:
        assert inits[w.name.removesuffix("_quantized") + "_scale"].dims == []
    ref, out = run(float_model, seed=99), run(data, seed=99)
    assert np.corrcoef(ref.ravel(), out.ravel())[0, 1] > 0.95
