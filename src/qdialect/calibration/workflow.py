"""From a float program to the integer one as Python calls — the passes `qopt` runs, in
the order docs/quantization.md gives:

    optimize_float(module)                       # fold BN, constants, pads; CSE, DCE
    cal = calibrate(module, batches)             # qdialect.calibration.calibrate
    qdq = quantized(module, cal, Options(method="entropy"))   # simulated quantization
    correct_biases(module, qdq, batches)         # optional: qdialect.calibration.bias_correction
    program = integer(qdq, target="tosa")        # what the NPU back end compiles

Each step returns a new module (the input is left as it was), so one float program and
one calibration serve any number of quantization options.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from qdialect.calibration.calibrate import Calibration, CalibrationError
from qdialect.calibration.qtable import QTable
from qdialect.context import make_context
from qdialect.transforms import get_all_passes
from qdialect.transforms.quantize import Options, quantize_function

FLOAT_OPTIMIZATIONS = (
    "stablehlo-fold-batch-norm",
    "stablehlo-fold-constants",
    "stablehlo-fold-pad",
    "cse",
    "dce",
)
"""The float graph optimizations run before calibration (the program calibrated must
be the program quantized)."""

TARGETS = {
    "stablehlo": ("stablehlo-legalize-qdq-to-quantized-op",),
    # Channels-first models leave a transpose pair around every converted layer: cancel
    # them, or the NPU would copy each one through DRAM.
    "tosa": (
        "stablehlo-legalize-qdq-to-quantized-op",
        "stablehlo-legalize-to-tosa",
        "canonicalize",
        "tosa-reduce-transposes",
        "canonicalize",
    ),
}


def _run(module: ModuleOp, passes) -> None:
    ctx, registry = make_context(), get_all_passes()
    for name in passes:
        registry[name]()().apply(ctx, module)


def optimize_float(module: ModuleOp) -> None:
    """`FLOAT_OPTIMIZATIONS`, in place."""
    _run(module, FLOAT_OPTIMIZATIONS)


def quantized(module: ModuleOp, cal: Calibration, options: Options | None = None, *,
              qtable: QTable | None = None, function: str = "main") -> ModuleOp:  # fmt: skip
    """`module` in QDQ form (`stablehlo-quantize`), per-op precisions from `qtable`: a new
    module."""
    out = module.clone()
    funcs = [f for f in out.walk() if isinstance(f, FuncOp) and f.sym_name.data == function]
    if not funcs:
        raise CalibrationError(f"no function @{function} to quantize")
    quantize_function(funcs[0], cal, options or Options(), qtable)
    return out


def integer(qdq: ModuleOp, *, target: str = "stablehlo") -> ModuleOp:
    """The integer program of a QDQ module: quantized StableHLO, or integer TOSA."""
    if target not in TARGETS:
        raise ValueError(f"unknown target '{target}' ({' or '.join(TARGETS)})")
    out = qdq.clone()
    _run(out, TARGETS[target])
    return out
