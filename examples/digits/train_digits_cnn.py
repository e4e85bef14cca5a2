"""Train the small digits CNN on scikit-learn's bundled 8x8 digits and write it as float
ONNX (`digits_cnn.onnx` beside this script): the model the quantization accuracy test
starts from (test/unit/calibration/test_digits_accuracy.py, docs/quantization.md).

    python examples/digits/train_digits_cnn.py

Conv 3x3 (1 -> 8) + ReLU, MaxPool 2, Conv 3x3 (8 -> 16) + ReLU, MaxPool 2, Flatten,
Gemm (64 -> 10): logits, batch 1, NCHW as torch.onnx would write it. Trained with Keras
(the keras extra: tensorflow-cpu) on the training split of `qdialect.models.digits`;
the weights are then written with the ONNX helper API (Keras is NHWC: kernels are
transposed to OIHW and the dense rows reordered from (h, w, c) to ONNX's (c, h, w)
flatten order). Seeded, but TensorFlow's kernels are not bit-reproducible across
machines: the committed model is the reference, this script how it was made.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from qdialect.models import digits


def train(data: digits.Digits, epochs: int = 60):
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    layers = tf.keras.layers
    model = tf.keras.Sequential([
        layers.Input((8, 8, 1)),
        layers.Conv2D(8, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2),
        layers.Conv2D(16, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2),
        layers.Flatten(),
        layers.Dense(10),
    ])  # fmt: skip
    model.compile(optimizer=tf.keras.optimizers.Adam(3e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])  # fmt: skip
    nhwc = data.x_train.transpose(0, 2, 3, 1)
    model.fit(nhwc, data.y_train, epochs=epochs, batch_size=32, verbose=0)
    return model


def to_onnx(model) -> onnx.ModelProto:
    (k1, b1), (k2, b2), (w3, b3) = (layer.get_weights() for layer in model.layers
                                    if layer.get_weights())  # fmt: skip
    c = k2.shape[-1]
    # Dense rows: Keras flattens NHWC (h, w, c); ONNX flattens NCHW (c, h, w).
    w3 = w3.reshape(2, 2, c, -1).transpose(2, 0, 1, 3).reshape(4 * c, -1)
    inits = {
        "conv1.weight": k1.transpose(3, 2, 0, 1), "conv1.bias": b1,
        "conv2.weight": k2.transpose(3, 2, 0, 1), "conv2.bias": b2,
        "fc.weight": w3.T, "fc.bias": b3,
    }  # fmt: skip
    conv = dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
    pool = dict(kernel_shape=[2, 2], strides=[2, 2])
    nodes = [
        helper.make_node("Conv", ["input", "conv1.weight", "conv1.bias"], ["c1"], "conv1", **conv),
        helper.make_node("Relu", ["c1"], ["r1"], "relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], "pool1", **pool),
        helper.make_node("Conv", ["p1", "conv2.weight", "conv2.bias"], ["c2"], "conv2", **conv),
        helper.make_node("Relu", ["c2"], ["r2"], "relu2"),
        helper.make_node("MaxPool", ["r2"], ["p2"], "pool2", **pool),
        helper.make_node("Flatten", ["p2"], ["f"], "flatten", axis=1),
        helper.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["logits"], "fc", transB=1),
    ]
    graph = helper.make_graph(
        nodes, "digits_cnn",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 1, 8, 8])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
        [numpy_helper.from_array(np.ascontiguousarray(a, np.float32), n) for n, a in inits.items()],
    )  # fmt: skip
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                          producer_name="qdialect examples/digits")  # fmt: skip
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def main() -> int:
    data = digits.load()
    model = train(data)
    proto = to_onnx(model)
    out = Path(__file__).with_name("digits_cnn.onnx")
    out.write_bytes(proto.SerializeToString())
    import onnxruntime as ort

    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    logits = np.concatenate([session.run(None, {"input": x[None]})[0] for x in data.x_test])
    print(f"wrote {out}: held-out top-1 {digits.top1(logits, data.y_test):.4f} "
          f"({len(data.y_test)} images)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
