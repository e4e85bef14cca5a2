"""Bias correction (`qdialect.calibration.bias_correction`): the correction is the mean
weight-quantization error written out here in NumPy, and it removes the mean error of
the layer's output."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.func import FuncOp

from qdialect.calibration.bias_correction import correct_biases
from qdialect.calibration.calibrate import calibrate
from qdialect.calibration.workflow import integer, quantized
from qdialect.dialects import stablehlo as sh
from qdialect.interpreter import Interpreter
from qdialect.ir.constants import constant_array
from qdialect.transforms.quantize import Options

from ..transforms.test_quantize import dense, parse

F32 = np.float32


def fc_program(w: np.ndarray, b: np.ndarray) -> str:
    k, n = w.shape
    return f"""
func.func @main(%x: tensor<1x{k}xf32>) -> tensor<1x{n}xf32> {{
  %w = stablehlo.constant {dense(w)} : tensor<{k}x{n}xf32>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<1x{n}xf32>
  %b = stablehlo.constant {dense(b)} : tensor<{n}xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<{n}xf32>) -> tensor<1x{n}xf32>
  %s = stablehlo.add %y, %bb : tensor<1x{n}xf32>
  func.return %s : tensor<1x{n}xf32>
}}"""


def bias_of(module) -> np.ndarray:
    const = next(op for op in module.walk() if isinstance(op, sh.ConstantOp)
                 and str(op.output.type).startswith("tensor<6x!quant.uniform<i32"))  # fmt: skip
    values = constant_array(const.output)
    assert values is not None
    return values


def test_correction_is_the_mean_weight_error_and_removes_it() -> None:
    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.5, (16, 6)).astype(F32)
    b = rng.normal(0, 0.1, 6).astype(F32)
    module = parse(fc_program(w, b))
    # Inputs with a mean (as after a ReLU): the weights' rounding errors do not cancel.
    inputs = [[rng.uniform(0.0, 2.0, (1, 16)).astype(F32)] for _ in range(32)]
    cal = calibrate(module, iter(inputs))
    options = Options(weight_bits=4)  # coarse weights: a visible error
    qdq = quantized(module, cal, options)
    before = bias_of(qdq)
    assert correct_biases(module, qdq, inputs) == 1
    after = bias_of(qdq)

    # Written out: x's type (symmetric, the calibration data's largest magnitude), the
    # 4-bit per-channel weights, E[x_q (W_q - W)] over the inputs, in bias units.
    s_x = F32(max(np.abs(a[0]).max() for a in inputs) / 127)
    x_q = np.stack([np.clip(np.round(a[0][0] / s_x), -128, 127) * np.float64(s_x) for a in inputs])
    s_w = (np.abs(w).max(axis=0) / 7).astype(F32).astype(np.float64)
    w_q = np.clip(np.round(w / s_w), -7, 7) * s_w
    error = (x_q @ (w_q - w.astype(np.float64))).mean(axis=0)
    s_acc = np.float64(s_x) * s_w
    assert np.array_equal(after, before - np.round(error / s_acc))
    assert np.any(after != before)

    # The mean output error (integer program against float, same inputs) shrinks.
    def mean_error(program) -> np.ndarray:
        got = np.stack([Interpreter(integer(program)).call("main", a)[0][0] for a in inputs])
        want = np.stack([Interpreter(module).call("main", a)[0][0] for a in inputs])
        return np.abs((got.astype(np.float64) - want).mean(axis=0))

    uncorrected = mean_error(quantized(module, cal, options))
    corrected = mean_error(qdq)
    print(f"mean |error| per channel: {uncorrected.mean():.4g} -> {corrected.mean():.4g}")
    assert corrected.mean() < uncorrected.mean() / 3


def test_pass_option_reads_the_data_file(tmp_path) -> None:
    from qdialect.context import make_context
    from qdialect.transforms.quantize import Quantize

    rng = np.random.default_rng(1)
    w = rng.normal(0, 0.5, (16, 6)).astype(F32)
    module = parse(fc_program(w, rng.normal(0, 0.1, 6).astype(F32)))
    data = rng.uniform(0.0, 2.0, (8, 1, 16)).astype(F32)
    cal = calibrate(module, ([x] for x in data))
    cal.save(tmp_path / "cal.json")
    np.savez(tmp_path / "data.npz", arg0=data)
    plain, corrected = module.clone(), module.clone()
    Quantize(calibration=str(tmp_path / "cal.json"), weight_bits=4).apply(make_context(), plain)
    Quantize(calibration=str(tmp_path / "cal.json"), weight_bits=4,
             bias_correction=str(tmp_path / "data.npz")).apply(make_context(), corrected)  # fmt: skip
    reference = module.clone()
    api = quantized(reference, cal, Options(weight_bits=4))
    correct_biases(reference, api, [[x] for x in data])
    assert np.array_equal(bias_of(corrected), bias_of(api))
    assert not np.array_equal(bias_of(corrected), bias_of(plain))
    assert isinstance(next(iter(corrected.body.block.ops)), FuncOp)
