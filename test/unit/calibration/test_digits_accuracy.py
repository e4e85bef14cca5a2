"""Accuracy on real data: the digits CNN (examples/digits/, trained on scikit-learn's
bundled handwritten digits) quantized by each of our calibration methods and compiled
to integer TOSA — the program the NPU runs — against ONNX Runtime's `quantize_static`
(MinMax, Percentile, Entropy; with and without its `reduce_range` advice for CPUs
without VNNI) on the same model and the same 100 calibration images, top-1 on the 540
held-out images. Ours at its best must be at least as accurate as ONNX
Runtime at its best. `pytest -s` prints the table; bench/bench_digits_accuracy.py
prints the full one (both schemes, the simulated programs, ONNX Runtime without its
fused kernels)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sklearn", reason="the digits data set comes with scikit-learn (test extra)")
pytest.importorskip("onnxruntime", reason="ONNX Runtime is the reference (oracle extra)")

from qdialect.calibration.calibrate import calibrate
from qdialect.calibration.observers import METHODS
from qdialect.calibration.workflow import integer, optimize_float, quantized
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.models import digits
from qdialect.transforms.quantize import Options


def our_logits(module, images: np.ndarray) -> np.ndarray:
    interp = Interpreter(module)
    return np.concatenate([np.asarray(interp.call("main", [x[None]])[0]) for x in images])


def test_our_best_method_is_at_least_as_accurate_as_onnx_runtime_best() -> None:
    data = digits.load()
    model = digits.MODEL.read_bytes()
    module = import_onnx(model, "stablehlo")
    optimize_float(module)
    ours_float = digits.top1(our_logits(module, data.x_test), data.y_test)
    ort_float = digits.top1(digits.ort_logits(model, data.x_test), data.y_test)
    print(f"\nfloat: ours {ours_float:.4f}, ONNX Runtime {ort_float:.4f}")
    assert ours_float == ort_float and ours_float > 0.97

    images = data.calibration(100)
    cal = calibrate(module, ([x[None]] for x in images))
    ours = {}
    for method in METHODS:
        program = integer(quantized(module, cal, Options(method=method, scheme="affine")),
                          target="tosa")  # fmt: skip
        ours[method] = digits.top1(our_logits(program, data.x_test), data.y_test)
    theirs = {}
    for method in digits.ORT_METHODS:
        for reduce_range in (False, True):  # its advice for CPUs without VNNI
            q = digits.ort_quantized(model, [x[None] for x in images], method,
                                    reduce_range=reduce_range)  # fmt: skip
            name = method + (" reduce_range" if reduce_range else "")
            theirs[name] = digits.top1(digits.ort_logits(q, data.x_test), data.y_test)
    for name, table in (("ours (integer TOSA)", ours), ("ONNX Runtime", theirs)):
        print(f"{name}: " + ", ".join(f"{m} {a:.4f}" for m, a in table.items()))
    assert max(ours.values()) >= max(theirs.values())
    assert min(ours.values()) >= ours_float - 0.02  # no method loses more than 2 points
