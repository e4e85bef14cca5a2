"""Small float ONNX models built with onnx.helper, quantized by ONNX Runtime's tools.

`quantized_cnn` is a Conv-ReLU, Conv-ReLU, MaxPool, Flatten, MatMul network
quantized with `onnxruntime.quantization.quantize_static` (int8 activations
and weights, QDQ or QOperator format, per-tensor or per-channel) — the kind of
model ONNX users bring. Used by the tests and benches; needs onnxruntime (the
`oracle` extra).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

CNN_INPUT = (1, 3, 8, 8)


def float_cnn(seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)

    def weight(name, *shape, std):
        return numpy_helper.from_array(rng.normal(0, std, shape).astype(np.float32), name)

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
    graph = helper.make_graph(
        nodes, "cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(CNN_INPUT))],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 10])],
        inits,
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString()


def quantized_cnn(qdq: bool, per_channel: bool, seed: int = 0) -> bytes:
    """`float_cnn` quantized by quantize_static, calibrated on normal samples."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    rng = np.random.default_rng(seed + 1)
    samples = [{"x": rng.normal(0, 1, CNN_INPUT).astype(np.float32)} for _ in range(8)]

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.samples = iter(samples)

        def get_next(self):
            return next(self.samples, None)

    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "float.onnx", Path(folder) / "int8.onnx"
        source.write_bytes(float_cnn(seed))
        quantize_static(str(source), str(target), Reader(),
                        quant_format=QuantFormat.QDQ if qdq else QuantFormat.QOperator,
                        per_channel=per_channel, activation_type=QuantType.QInt8,
                        weight_type=QuantType.QInt8)  # fmt: skip
        return target.read_bytes()
