"""Per-layer sensitivity and the bisection to a qtable: time next to the network's size.

A float zoo network (torchvision's MobileNetV2 at 224x224 by default) is imported,
optimized and calibrated on N(0, 1) images; then, on --inputs evaluation images:

* one float forward pass on the interpreter — the unit the other figures are measured
  in, run in the same process;
* `qdialect.debug.sensitivity.analyze`: every quantized op quantized alone and
  dequantized alone (two measurements per op, each from a cached run: only the network
  from the op onward is recomputed);
* `bisect` to a target (the all-8-bit output SQNR plus --gain dB, ops kept in float),
  each probe a real quantize -> integer program -> run.

Size: parameters (weight elements of the convolutions and matmuls) and MACs (per
output element, the kernel taps times the input channels of its group; padding taps
counted — this is the float model's figure, not the NPU's useful MACs), and the number
of quantized ops the search ranks. What the figures do not cover: calibration and
import time (printed apart), and the interpreter is NumPy — the ratio to one forward
pass is the figure that carries to a faster executor.

    python bench/bench_sensitivity.py
    python bench/bench_sensitivity.py --model resnet50 --inputs 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def size(module) -> tuple[int, int]:
    """(parameters, MACs) of the convolutions and matmuls of a float program."""
    from qdialect.dialects import hlo_types as ht
    from qdialect.dialects import stablehlo as sh

    params = macs = 0
    for op in module.walk():
        if isinstance(op, sh.ConvolutionOp | sh.DotGeneralOp):
            w = ht.shape_of(op.operands[1].type) or ()
            out = ht.shape_of(op.results[0].type) or ()
            n_w, n_out = int(np.prod(w)), int(np.prod(out))
            params += n_w
            if isinstance(op, sh.ConvolutionOp):
                features = out[op.dimension_numbers.data.output_feature_dimension]
                macs += n_out * n_w // features
            else:
                macs += n_out * (n_w // out[-1])
    return params, macs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="mobilenet_v2")
    p.add_argument("--calibration", type=int, default=4, help="calibration images")
    p.add_argument("--inputs", type=int, default=1, help="evaluation images")
    p.add_argument("--gain", type=float, default=3.0, help="target: all-8-bit SQNR + this")
    args = p.parse_args()

    from qdialect.calibration.calibrate import calibrate
    from qdialect.calibration.workflow import optimize_float
    from qdialect.debug.sensitivity import analyze, bisect
    from qdialect.importers.onnx_import import import_onnx
    from qdialect.interpreter import Interpreter
    from qdialect.models import onnx_zoo

    clock = time.perf_counter()
    model = getattr(onnx_zoo, args.model)(0)
    module = import_onnx(model)
    optimize_float(module)
    shapes = list(onnx_zoo.input_shapes(model).values())
    rng = np.random.default_rng(0)
    images = [[rng.standard_normal(s).astype(np.float32) for s in shapes]
              for _ in range(args.calibration + args.inputs)]  # fmt: skip
    cal = calibrate(module, iter(images[: args.calibration]))
    inputs = images[args.calibration :]
    prepared = time.perf_counter() - clock

    interp = Interpreter(module)
    clock = time.perf_counter()
    for batch in inputs:
        interp.call("main", batch)
    forward = (time.perf_counter() - clock) / len(inputs)

    found = analyze(module, cal, inputs, metric="sqnr")
    target = found.all_quantized + args.gain
    result = bisect(module, cal, inputs, [u.key for u in found.ranked()], target,
                    promote="float")  # fmt: skip

    params, macs = size(module)
    print(f"{args.model}: {params / 1e6:.2f} M parameters, {macs / 1e6:.0f} M MACs, "
          f"{len(found.units)} quantized ops; {args.inputs} evaluation input(s)")  # fmt: skip
    print(f"  import + optimize + calibrate ({args.calibration} images): {prepared:.1f} s")
    print(f"  one float forward pass:       {forward:.2f} s")
    print(f"  sensitivity (2 x {len(found.units)} runs): {found.seconds:.1f} s "
          f"= {found.seconds / forward:.0f} forward passes")  # fmt: skip
    verdict = "reached" if result.reached else "NOT reached"
    print(f"  bisection to {target:.2f} dB ({verdict} with {len(result.qtable.entries)} op(s) "
          f"in float, {result.score:.2f} dB): {len(result.probes)} probes, "
          f"{result.seconds:.1f} s")  # fmt: skip
    total = found.seconds + result.seconds
    print(f"  sensitivity + bisection: {total:.1f} s")
    print(found.report(5))


if __name__ == "__main__":
    main()
