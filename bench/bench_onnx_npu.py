"""ONNX models on the NPU against ONNX Runtime: how many outputs differ, and by how much.

The shipped CNN (`qdialect.models.onnx_models`) is quantized by ONNX Runtime's
quantize_static in each format and granularity, imported twice, and run on
random inputs:

  exact   `qimport --target stablehlo` on the reference interpreter: ONNX
          Runtime's float32 requantization written out (expected 0 differences)
  NPU     `qimport --target tosa`, canonicalize, tosa-to-npu, the simulator:
          fixed-point requantization (the NPU has no float unit)

Differences are counted in the output's storage unit (the int8 value ONNX
Runtime dequantizes at the end), over every element of every input.

    python bench/bench_onnx_npu.py [--inputs 50]
"""

from __future__ import annotations

import argparse

import numpy as np
import onnxruntime as ort
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.dialects.npu import ProgramOp, program_binary
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.models import onnx_models
from qdialect.npu.machine import load_machine
from qdialect.npu.simulator import Simulator


def boundary(func, kind: str, index: int) -> tuple[float, int]:
    attrs = (func.arg_attrs if kind == "quantize" else func.res_attrs).data[index].data
    scale, zp = (a.value.data for a in attrs[f"qdialect.{kind}"].data)
    return scale, zp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=50)
    args = parser.parse_args()
    machine = load_machine("default")
    print(
        f"{'model':<24} {'exact: differ':>14} {'NPU: differ':>12} {'NPU: max':>9} {'elements':>9}"
    )
    for qdq in (False, True):
        for per_channel in (False, True):
            data = onnx_models.quantized_cnn(qdq, per_channel)
            options = ort.SessionOptions()
            options.log_severity_level = 3
            session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
            exact = QParser(make_context(), import_onnx(data)).parse_module()
            ctx = make_context()
            tosa = QParser(ctx, import_onnx(data, "tosa")).parse_module()
            CanonicalizePass().apply(ctx, tosa)
            func = next(iter(tosa.body.block.ops))
            s_in, z_in = boundary(func, "quantize", 0)
            s_out, z_out = boundary(func, "dequantize", 0)
            TosaToNpu().apply(ctx, tosa)
            program = next(op for op in tosa.walk() if isinstance(op, ProgramOp))
            binary = program_binary(program, machine.digest())
            exact_diff = npu_diff = npu_max = total = 0
            for k in range(args.inputs):
                x = (
                    np.random.default_rng(k)
                    .normal(0, 1.5, onnx_models.CNN_INPUT)
                    .astype(np.float32)
                )
                want = session.run(None, {"x": x})[0]
                exact_diff += int((Interpreter(exact).call("main", [x])[0] != want).sum())
                q = np.clip(np.rint(x / np.float32(s_in)) + z_in, -128, 127).astype(np.int8)
                sim = Simulator(machine, binary.code)
                sim.load_sections(binary)
                sim.set_inputs(binary, {"arg0": q})
                sim.run()
                got = sim.get_outputs(binary)["result0"].astype(np.int64)
                ref = np.clip(np.rint(want / np.float32(s_out)) + z_out, -128, 127).astype(np.int64)
                npu_diff += int((got != ref).sum())
                npu_max = max(npu_max, int(np.abs(got - ref).max()))
                total += want.size
            name = (
                f"{'QDQ' if qdq else 'QOperator'} {'per-channel' if per_channel else 'per-tensor'}"
            )
            print(
                f"{name:<24} {exact_diff / total:>13.2%} {npu_diff / total:>11.2%} {npu_max:>9} {total:>9}"
            )


if __name__ == "__main__":
    main()
