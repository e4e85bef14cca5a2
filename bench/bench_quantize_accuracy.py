"""Accuracy of each calibration method, ours next to ONNX Runtime's, in one run.

Ours: the float ONNX model imported (`stablehlo`), the float optimizations, one
calibration pass, then per method and scheme `stablehlo-quantize` and the integer
programs — quantized StableHLO (equal to the simulated QDQ program, bit for bit) and
integer TOSA (what the NPU runs; its rescales round in fixed point), and integer TOSA
after bias correction on the calibration inputs. ONNX Runtime:
`quantize_static` (QDQ, int8, per-channel weights, after `quant_pre_process` as its
docs advise) per method, run by its CPU session with its fused int8 kernels, with its
`reduce_range` advice for CPUs without VNNI, and with graph optimizations off (each
dequantize -> float op -> quantize as written); the last column skips the
pre-processing: BatchNormalization then stays a float op, and ONNX Runtime leaves the
output of each convolution before one unquantized — a partly float program.

* `--model digits`: the digits CNN (examples/digits/) on scikit-learn's held-out digits:
  top-1, calibrated on 100 training images.
* `--model resnet50|mobilenet_v2` (seeded random weights, N(0, 1) inputs: the statistics
  of ImageNet-normalized images): output SQNR against the float model, in dB, over
  `--eval` held-out inputs, calibrated on `--batches` inputs.

What the figures do not cover: random-weight networks have no accuracy to lose, only
signal to noise; SQNR is of the final output (logits), not per layer; ONNX Runtime's
float reference is its own session, ours our interpreter (they agree within 1e-5).

    python bench/bench_quantize_accuracy.py --model digits
    python bench/bench_quantize_accuracy.py --model mobilenet_v2 --batches 8 --eval 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from qdialect.calibration.bias_correction import correct_biases
from qdialect.calibration.calibrate import calibrate
from qdialect.calibration.observers import METHODS
from qdialect.calibration.workflow import integer, optimize_float, quantized
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.models import digits
from qdialect.transforms.quantize import Options


def sqnr(reference: np.ndarray, got: np.ndarray) -> float:
    ref = np.asarray(reference, np.float64)
    noise = ((ref - np.asarray(got, np.float64)) ** 2).sum()
    return float(10 * np.log10((ref**2).sum() / max(noise, 1e-30)))


def run_ours(module, inputs: list[np.ndarray]) -> np.ndarray:
    interp = Interpreter(module)
    return np.concatenate([np.asarray(interp.call("main", [x])[0]) for x in inputs])


def data_for(name: str, batches: int, evaluations: int):
    """(model, calibration inputs, evaluation inputs, score(outputs, float outputs))."""
    if name == "digits":
        d = digits.load()
        cal = [x[None] for x in d.calibration(100)]
        evaluation = [x[None] for x in d.x_test]
        return digits.MODEL.read_bytes(), cal, evaluation, lambda out, _: digits.top1(out, d.y_test)
    from qdialect.models import onnx_zoo

    model = getattr(onnx_zoo, name)(0)
    shape = next(iter(onnx_zoo.input_shapes(model).values()))
    rng = np.random.default_rng(0)
    inputs = [rng.normal(0, 1, shape).astype(np.float32) for _ in range(batches + evaluations)]
    return model, inputs[:batches], inputs[batches:], sqnr


def ort_outputs(model: bytes, inputs: list[np.ndarray], optimize: bool = True) -> np.ndarray:
    import onnxruntime as ort

    options = ort.SessionOptions()
    if not optimize:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    return np.concatenate([session.run(None, {name: x})[0] for x in inputs])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="digits")
    p.add_argument("--batches", type=int, default=8, help="calibration inputs (zoo models)")
    p.add_argument("--eval", type=int, default=2, help="evaluation inputs (zoo models)")
    args = p.parse_args()
    model, cal_inputs, eval_inputs, score = data_for(args.model, args.batches, args.eval)
    unit = "top-1" if args.model == "digits" else "SQNR dB"

    module = import_onnx(model, "stablehlo")
    optimize_float(module)
    float_out = run_ours(module, eval_inputs)
    ort_float = ort_outputs(model, eval_inputs)
    start = time.perf_counter()
    cal = calibrate(module, ([x] for x in cal_inputs))
    print(f"{args.model}: {len(cal_inputs)} calibration inputs ({time.perf_counter() - start:.1f} s), "
          f"{len(eval_inputs)} evaluation inputs; {unit}")  # fmt: skip
    if args.model == "digits":
        print(
            f"float: ours {score(float_out, None):.4f}, ONNX Runtime {score(ort_float, None):.4f}"
        )
    print(f"{'ours':24} {'scheme':10} {'StableHLO int':>14} {'TOSA int':>10} {'+ bias corr.':>13}")
    for method in METHODS:
        for scheme in ("symmetric", "affine"):
            qdq = quantized(module, cal, Options(method=method, scheme=scheme))
            hlo = score(run_ours(integer(qdq), eval_inputs), float_out)
            tosa = score(run_ours(integer(qdq, target="tosa"), eval_inputs), float_out)
            correct_biases(module, qdq, [[x] for x in cal_inputs])
            fixed = score(run_ours(integer(qdq, target="tosa"), eval_inputs), float_out)
            print(f"{method:24} {scheme:10} {hlo:14.4f} {tosa:10.4f} {fixed:13.4f}")
    print(f"{'ONNX Runtime':24} {'int8 kernels':>14} {'reduce_range':>13} {'QDQ in float':>13} "
          f"{'no pre-process':>15}")  # fmt: skip
    for method in digits.ORT_METHODS:
        plain = digits.ort_quantized(model, cal_inputs, method)
        reduced = digits.ort_quantized(model, cal_inputs, method,
                                       reduce_range=True)  # fmt: skip
        raw = digits.ort_quantized(model, cal_inputs, method, preprocess=False)
        row = [score(ort_outputs(plain, eval_inputs), ort_float),
               score(ort_outputs(reduced, eval_inputs), ort_float),
               score(ort_outputs(plain, eval_inputs, optimize=False), ort_float),
               score(ort_outputs(raw, eval_inputs, optimize=False), ort_float)]  # fmt: skip
        print(f"{method:24} {row[0]:14.4f} {row[1]:13.4f} {row[2]:13.4f} {row[3]:15.4f}")


if __name__ == "__main__":
    main()
