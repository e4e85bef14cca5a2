"""scikit-learn's bundled handwritten digits (1797 8x8 images, offline) split the way the
digits CNN (`examples/digits/`) was trained and is evaluated: the one real-data accuracy
check of calibration and quantization that needs no download.

Images are scaled to [0, 1] (the data's 0..16 divided by 16) and shaped NCHW
(N x 1 x 8 x 8) float32; the split is scikit-learn's stratified `train_test_split`
(30% held out, `random_state` 0). Calibration batches come from the training part only.
Needs scikit-learn (the test extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MODEL = Path(__file__).resolve().parents[3] / "examples" / "digits" / "digits_cnn.onnx"
"""The trained float model, as `examples/digits/train_digits_cnn.py` wrote it."""


@dataclass(frozen=True)
class Digits:
    x_train: np.ndarray  # N x 1 x 8 x 8 float32 in [0, 1]
    y_train: np.ndarray  # N int64 labels 0..9
    x_test: np.ndarray
    y_test: np.ndarray

    def calibration(self, count: int = 100) -> np.ndarray:
        """`count` training images (the first ones: the split is already shuffled)."""
        return self.x_train[:count]


def load() -> Digits:
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    images, labels = load_digits(return_X_y=True)  # 64 pixels a row, 0..16
    x = (np.asarray(images, np.float32) / np.float32(16.0)).reshape(-1, 1, 8, 8)
    y = np.asarray(labels, np.int64)
    parts = train_test_split(x, y, test_size=0.3, random_state=0, stratify=y)
    x_train, x_test, y_train, y_test = (np.asarray(a) for a in parts)
    return Digits(x_train, y_train, x_test, y_test)


def top1(logits: np.ndarray, labels: np.ndarray) -> float:
    """Fraction of rows whose largest logit is the label's."""
    return float(np.mean(np.argmax(logits, axis=-1) == labels))


ORT_METHODS = ("MinMax", "Percentile", "Entropy")
"""ONNX Runtime's calibration methods (`onnxruntime.quantization.CalibrationMethod`)."""


def ort_quantized(model: bytes, calibration: Sequence[np.ndarray], method: str = "MinMax", *,
                  reduce_range: bool = False, preprocess: bool = True) -> bytes:  # fmt: skip
    """`model` (one input) quantized by ONNX Runtime's `quantize_static` as its users run
    it (QDQ, int8 activations and per-channel weights), calibrated by `method` on
    `calibration` (arrays of the input's shape), after `quant_pre_process` (which folds
    BatchNormalization into the convolutions, as ours does; without it ONNX Runtime
    leaves each convolution's output unquantized, a partly float program)."""
    import onnx

    from qdialect.models.onnx_zoo import ort_quantize_static

    name = onnx.load_from_string(model).graph.input[0].name
    return ort_quantize_static(model, [{name: x} for x in calibration], method=method,
                               reduce_range=reduce_range, preprocess=preprocess)  # fmt: skip


def ort_logits(model: bytes, images: np.ndarray, *, optimize: bool = True) -> np.ndarray:
    """ONNX Runtime's logits for each image; `optimize=False` runs a QDQ model's
    dequantize -> float op -> quantize as written instead of its fused int8 kernels."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    if not optimize:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    return np.concatenate([np.asarray(session.run(None, {"input": x[None]})[0]) for x in images])
