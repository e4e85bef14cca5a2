"""Parse + verify + print throughput: qopt on quantized ops vs xdsl-opt on arith ops.

Two qopt workloads: `quant` (quant.qcast/dcast chains) and `stablehlo` (a
quantized StableHLO program: quantize, quantized add/multiply/maximum,
dot_general with per-axis weights, requantize, dequantize).

Both tools run as command-line programs on generated modules of N ops (the
interpreter start-up is included; it is the same for both), best of --repeat
runs, in the same process so machine load affects both alike. Prints ops/s and
the ratio qopt time / xdsl-opt time (1.0 = as fast as xDSL on builtin ops).

    python bench/bench_parse_print.py [--sizes 1000 10000 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def quant_module(n: int) -> str:
    """N quant cast ops over per-tensor and per-axis types, 4 distinct types."""
    types = [
        "!quant.uniform<i8:f32, 0.0078431372549019607:-3>",
        "!quant.uniform<u8:f32, 2.000000e-02:128>",
        "!quant.uniform<i8<-127:127>:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01,4.000000e-01}>",
        "!quant.uniform<i16:f32:1, {1.5e-03:1,2.5e-03:-2,3.5e-03:3,4.5e-03:-4}>",
    ]
    lines = ["func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {"]
    prev = "%x"
    for i in range(n // 2):
        q = types[i % len(types)]
        lines.append(f"  %q{i} = quant.qcast {prev} : tensor<8x4xf32> to tensor<8x4x{q}>")
        lines.append(f"  %d{i} = quant.dcast %q{i} : tensor<8x4x{q}> to tensor<8x4xf32>")
        prev = f"%d{i}"
    lines.append(f"  func.return {prev} : tensor<8x4xf32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def stablehlo_module(n: int) -> str:
    """N quantized StableHLO ops in 7-op groups that stay shape- and type-correct."""
    act = "!quant.uniform<i8:f32, 0.0078431372549019607:-3>"
    wgt = (
        "!quant.uniform<i8<-127:127>:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01,4.000000e-01}>"
    )
    acc = "!quant.uniform<i32:f32:1, {7.8e-04,1.5e-03,2.3e-03,3.1e-03}>"
    t_act, t_w, t_acc = f"tensor<8x4x{act}>", f"tensor<4x4x{wgt}>", f"tensor<8x4x{acc}>"
    lines = [f"func.func @main(%x: tensor<8x4xf32>, %w: {t_w}) -> tensor<8x4xf32> {{"]
    prev = "%x"
    for i in range(n // 7):
        lines += [
            f"  %q{i} = stablehlo.uniform_quantize {prev} : (tensor<8x4xf32>) -> {t_act}",
            f"  %a{i} = stablehlo.add %q{i}, %q{i} : {t_act}",
            f"  %m{i} = stablehlo.multiply %a{i}, %q{i} : {t_act}",
            f"  %r{i} = stablehlo.maximum %m{i}, %a{i} : {t_act}",
            f"  %d{i} = stablehlo.dot_general %r{i}, %w, contracting_dims = [1] x [0] : ({t_act}, {t_w}) -> {t_acc}",
            f"  %o{i} = stablehlo.uniform_quantize %d{i} : ({t_acc}) -> {t_act}",
            f"  %f{i} = stablehlo.uniform_dequantize %o{i} : ({t_act}) -> tensor<8x4xf32>",
        ]
        prev = f"%f{i}"
    lines.append(f"  func.return {prev} : tensor<8x4xf32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def arith_module(n: int) -> str:
    lines = ["func.func @main(%x: i32) -> i32 {"]
    prev = "%x"
    for i in range(n):
        lines.append(f"  %v{i} = arith.addi {prev}, %x : i32")
        prev = f"%v{i}"
    lines.append(f"  func.return {prev} : i32")
    lines.append("}")
    return "\n".join(lines) + "\n"


def best_time(cmd: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    qopt, xdsl_opt = shutil.which("qopt"), shutil.which("xdsl-opt")
    if qopt is None or xdsl_opt is None:
        print("error: qopt and xdsl-opt must be on PATH (pip install -e .)", file=sys.stderr)
        return 1
    header = ("workload", "ops", "qopt s", "qopt ops/s", "xdsl-opt s", "xdsl ops/s", "ratio")
    widths = (9, 7, 9, 11, 11, 11, 6)
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            a_path = Path(tmp, f"a{n}.mlir")
            a_path.write_text(arith_module(n))
            a_time = best_time([xdsl_opt, str(a_path)], args.repeat)
            for name, make in (("quant", quant_module), ("stablehlo", stablehlo_module)):
                q_path = Path(tmp, f"{name}{n}.mlir")
                q_path.write_text(make(n))
                q_time = best_time([qopt, str(q_path)], args.repeat)
                print(
                    f"{name:>9} {n:>7} {q_time:>9.3f} {n / q_time:>11.0f} {a_time:>11.3f} "
                    f"{n / a_time:>11.0f} {q_time / a_time:>6.2f}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
