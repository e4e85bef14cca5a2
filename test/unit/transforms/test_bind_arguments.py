"""A JAX export — parameters as arguments of `@main` — bound to constants
(`stablehlo-bind-arguments`), then calibrated, quantized and run on the NPU: the float
path for JAX users, on the sample `jax.jit(...).lower(...)` printed."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from qdialect.calibration.calibrate import argument_names, calibrate
from qdialect.calibration.workflow import integer, optimize_float, quantized
from qdialect.interpreter import Interpreter
from qdialect.transforms.bind_arguments import bind

from .test_quantize import parse, sqnr

JAX_CNN = Path(__file__).parents[2] / "filecheck/dialects/stablehlo/samples/jax_cnn.mlir"
F32 = np.float32


def test_jax_cnn_bound_quantized_and_run_on_the_npu() -> None:
    from ..runtime.bundled import run_bundled

    module = parse(JAX_CNN.read_text())
    func = next(iter(module.body.block.ops))
    rng = np.random.default_rng(0)
    params = {"arg1": rng.normal(0, 0.3, (3, 3, 3, 16)).astype(F32),
              "arg2": rng.normal(0, 0.1, 16).astype(F32),
              "arg3": rng.normal(0, 0.3, (16, 10)).astype(F32)}  # fmt: skip
    x = rng.normal(0, 1, (1, 32, 32, 3)).astype(F32)
    want = Interpreter(module).call("main", [x, *params.values()])[0]

    assert bind(func, params) == ["arg1", "arg2", "arg3"]  # type: ignore[arg-type]
    assert argument_names(func) == ["arg0"]  # type: ignore[arg-type]
    module.verify()
    assert np.array_equal(Interpreter(module).call("main", [x])[0], want)  # binding is exact

    optimize_float(module)
    cal = calibrate(module, ([rng.normal(0, 1, x.shape).astype(F32)] for _ in range(4)))
    qdq = quantized(module, cal)
    assert np.array_equal(Interpreter(qdq).call("main", [x])[0],
                          Interpreter(integer(qdq)).call("main", [x])[0])  # fmt: skip
    program = integer(qdq, target="tosa")
    got = Interpreter(program).call("main", [x])[0]
    print(f"JAX CNN: integer TOSA {sqnr(want, got):.1f} dB against float")
    assert sqnr(want, got) > 30
    bundled = run_bundled(program, [x])
    assert np.array_equal(bundled.got[0], bundled.want[0])
    assert "tosa.conv2d" not in bundled.host_ops() and bundled.npu_functions()
