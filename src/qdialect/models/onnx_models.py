"""Small float ONNX models built with onnx.helper, quantized by ONNX Runtime's tools.

FLOAT_MODELS: a Conv-ReLU, Conv-ReLU, MaxPool, Flatten, MatMul network (`cnn`), a
residual network with global average pooling and Gemm, a MobileNetV2-style block
(ReLU6, depthwise, HardSwish, residual Add), an MLP with Sigmoid, and a two-branch
network (Concat, AveragePool, Pad, Transpose, Reshape, Gemm) with and without Softmax. `quantized` runs
`onnxruntime.quantization.quantize_static` on one of them (QDQ or QOperator format,
per-tensor or per-channel weights, int8 or uint8 activations) — the kind of model ONNX
users bring. Used by the tests and benches; needs onnxruntime (the `oracle` extra).
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

CNN_INPUT = (1, 3, 8, 8)


def float_cnn(seed: int = 0) -> bytes:
    """Conv-ReLU, strided Conv-ReLU, MaxPool, Flatten, MatMul: input CNN_INPUT."""
    weight = _weights(seed)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("MaxPool", ["r2"], ["p"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("MatMul", ["f", "w3"], ["out"]),
    ]
    inits = [weight("w1", 8, 3, 3, 3, std=0.3), weight("b1", 8, std=0.1),
             weight("w2", 8, 8, 3, 3, std=0.2), weight("b2", 8, std=0.1),
             weight("w3", 8 * 4 * 4, 10, std=0.05)]  # fmt: skip
    return _model(nodes, inits, CNN_INPUT, (1, 10), "cnn")


def _model(nodes, inits, input_shape, output_shape, name: str) -> bytes:
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(input_shape))],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, list(output_shape))],
        inits,
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString()


def _weights(seed: int):
    rng = np.random.default_rng(seed)

    def weight(name, *shape, std=0.2):
        return numpy_helper.from_array(rng.normal(0, std, shape).astype(np.float32), name)

    return weight


def residual_cnn(seed: int = 0) -> bytes:
    """Conv-ReLU, Conv, residual Add, ReLU, GlobalAveragePool, Flatten, Gemm: input 1x3x8x8."""
    w = _weights(seed)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c2", "r1"], ["a"]),
        helper.make_node("Relu", ["a"], ["ar"]),
        helper.make_node("GlobalAveragePool", ["ar"], ["p"]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("Gemm", ["f", "w3", "b3"], ["out"], transB=1),
    ]
    inits = [w("w1", 8, 3, 3, 3), w("b1", 8, std=0.1), w("w2", 8, 8, 3, 3), w("b2", 8, std=0.1),
             w("w3", 10, 8), w("b3", 10, std=0.1)]  # fmt: skip
    return _model(nodes, inits, (1, 3, 8, 8), (1, 10), "residual_cnn")


def mobilenet_v2_block(seed: int = 0) -> bytes:
    """1x1 expand with ReLU6 (Clip), 3x3 depthwise, HardSwish, 1x1 project, residual Add:
    input 1x4x8x8."""
    w = _weights(seed)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"]),
        helper.make_node("Clip", ["c1", "lo", "hi"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], group=16),
        helper.make_node("HardSwish", ["c2"], ["h"]),
        helper.make_node("Conv", ["h", "w3", "b3"], ["c3"]),
        helper.make_node("Add", ["c3", "x"], ["out"]),
    ]
    inits = [w("w1", 16, 4, 1, 1), w("b1", 16, std=0.1),
             numpy_helper.from_array(np.float32(0), "lo"), numpy_helper.from_array(np.float32(6), "hi"),
             w("w2", 16, 1, 3, 3), w("b2", 16, std=0.1), w("w3", 4, 16, 1, 1), w("b3", 4, std=0.1)]  # fmt: skip
    return _model(nodes, inits, (1, 4, 8, 8), (1, 4, 8, 8), "mobilenet_v2_block")


def mlp(seed: int = 0) -> bytes:
    """MatMul, Add (bias), Sigmoid, MatMul, Add: input 4x16."""
    w = _weights(seed)
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["m1"]),
        helper.make_node("Add", ["m1", "b1"], ["a1"]),
        helper.make_node("Sigmoid", ["a1"], ["s1"]),
        helper.make_node("MatMul", ["s1", "w2"], ["m2"]),
        helper.make_node("Add", ["m2", "b2"], ["out"]),
    ]
    inits = [w("w1", 16, 32), w("b1", 32, std=0.1), w("w2", 32, 10), w("b2", 10, std=0.1)]
    return _model(nodes, inits, (4, 16), (4, 10), "mlp")


def branchy_cnn(seed: int = 0, softmax: bool = False) -> bytes:
    """Two Conv branches (one with ReLU) concatenated, AveragePool, Pad, Transpose,
    Reshape, Gemm and optionally Softmax: input 1x3x8x8."""
    w = _weights(seed)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["x", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Concat", ["r1", "c2"], ["cat"], axis=1),
        helper.make_node("AveragePool", ["cat"], ["ap"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Pad", ["ap", "pads"], ["pd"], mode="constant"),
        helper.make_node("Transpose", ["pd"], ["tr"], perm=[0, 2, 3, 1]),
        helper.make_node("Reshape", ["tr", "shape"], ["fl"]),
        helper.make_node("Gemm", ["fl", "w3", "b3"], ["logits" if softmax else "out"], transB=1),
    ]
    if softmax:
        nodes.append(helper.make_node("Softmax", ["logits"], ["out"], axis=-1))
    inits = [w("w1", 8, 3, 3, 3), w("b1", 8, std=0.1), w("w2", 8, 3, 3, 3), w("b2", 8, std=0.1),
             numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "pads"),
             numpy_helper.from_array(np.array([1, -1], np.int64), "shape"),
             w("w3", 10, 16 * 6 * 6, std=0.05), w("b3", 10, std=0.1)]  # fmt: skip
    return _model(nodes, inits, (1, 3, 8, 8), (1, 10), "classifier" if softmax else "branchy_cnn")


def classifier(seed: int = 0) -> bytes:
    """`branchy_cnn` ending in Softmax."""
    return branchy_cnn(seed, softmax=True)


FLOAT_MODELS = {
    "cnn": (float_cnn, CNN_INPUT),
    "residual_cnn": (residual_cnn, (1, 3, 8, 8)),
    "mobilenet_v2_block": (mobilenet_v2_block, (1, 4, 8, 8)),
    "mlp": (mlp, (4, 16)),
    "branchy_cnn": (branchy_cnn, (1, 3, 8, 8)),
    "classifier": (classifier, (1, 3, 8, 8)),
}


def quantized(name: str, qdq: bool, per_channel: bool, uint8: bool = False,
              seed: int = 0, reduce_range: bool = False) -> tuple[bytes, tuple[int, ...]]:  # fmt: skip
    """A model of FLOAT_MODELS quantized by quantize_static (int8 weights; int8 or uint8
    activations), calibrated on normal samples; returns it and its input shape.
    `reduce_range` quantizes weights to 7 bits, as ONNX Runtime advises for uint8 models
    on CPUs whose kernels saturate int16 pairs (`ort_u8s8_saturates`)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    build, shape = FLOAT_MODELS[name]
    rng = np.random.default_rng(seed + 1)
    samples = [{"x": rng.normal(0, 1, shape).astype(np.float32)} for _ in range(8)]

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.samples = iter(samples)

        def get_next(self):
            return next(self.samples, None)

    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "float.onnx", Path(folder) / "quantized.onnx"
        source.write_bytes(build(seed))
        quantize_static(str(source), str(target), Reader(),
                        quant_format=QuantFormat.QDQ if qdq else QuantFormat.QOperator,
                        per_channel=per_channel,
                        activation_type=QuantType.QUInt8 if uint8 else QuantType.QInt8,
                        weight_type=QuantType.QInt8, reduce_range=reduce_range)  # fmt: skip
        return target.read_bytes(), shape


def quantized_cnn(qdq: bool, per_channel: bool, seed: int = 0) -> bytes:
    """`float_cnn` quantized by quantize_static, calibrated on normal samples."""
    return quantized("cnn", qdq, per_channel, seed=seed)[0]


def ort_session(data: bytes, fuse_int8_qdq: bool = True):
    """An ONNX Runtime CPU session. With `fuse_int8_qdq`, ONNX Runtime keeps int8 QDQ groups
    int8 and fuses all of them into its integer kernels (`session.qdqisint8allowed`); by
    default on x86-64 it converts some to uint8 and runs the ones that then cannot fuse in
    float32 (docs/onnx.md)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    if fuse_int8_qdq:
        options.add_session_config_entry("session.qdqisint8allowed", "1")
    return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])


@functools.cache
def ort_u8s8_saturates() -> bool:
    """Whether this CPU's ONNX Runtime computes uint8 x int8 products with int16 pair
    saturation (MLAS's AVX2 kernel without VNNI uses vpmaddubsw): probed with a
    MatMulInteger whose pairs overflow int16 (2 x 255 x 127 > 32767)."""
    import onnxruntime as ort

    k = 4
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["a", "b"], ["y"])], "probe",
        [helper.make_tensor_value_info("a", TensorProto.UINT8, [1, k])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [1, 1])],
        [numpy_helper.from_array(np.full((k, 1), 127, np.int8), "b")],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = int(session.run(None, {"a": np.full((1, k), 255, np.uint8)})[0].reshape(-1)[0])
    return got != k * 255 * 127
