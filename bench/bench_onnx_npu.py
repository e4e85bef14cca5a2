"""ONNX models on the NPU against ONNX Runtime: how many outputs differ, and by how much.

Each network of `qdialect.models.onnx_models` (the CNN, the residual CNN, the
MobileNetV2-style block, the MLP, the two-branch CNN and the classifier) is quantized by ONNX Runtime's quantize_static
in each format and granularity (int8), imported twice, and run on random inputs:

  exact   `qimport --target stablehlo` on the reference interpreter: ONNX
          Runtime's float32 requantization written out (expected 0 differences)
  NPU     `qimport --target tosa`, canonicalize, npu-partition, a bundle run by
          the host + NPU executor: fixed-point requantization on the simulator (the
          NPU has no float unit); a softmax stays float, on the host

Differences are counted in the output's storage unit (the int8 value ONNX
Runtime dequantizes at the end), over every element of every input. ONNX Runtime
runs with int8 QDQ groups fused (`onnx_models.ort_session`, docs/onnx.md).

    python bench/bench_onnx_npu.py [--inputs 50]
"""

from __future__ import annotations

import argparse

import numpy as np
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.models import onnx_models
from qdialect.npu.machine import load_machine
from qdialect.runtime.bundle import build_bundle
from qdialect.runtime.executor import HostNpuExecutor
from qdialect.transforms.npu_partition import NpuPartition


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
        f"{'model':<42} {'exact: differ':>16} {'NPU: differ':>15} {'NPU: max':>9} {'elements':>9}"
    )
    for name, (_, shape) in onnx_models.FLOAT_MODELS.items():
        for qdq in (False, True):
            for per_channel in (False, True):
                data, _ = onnx_models.quantized(name, qdq, per_channel)
                label = (
                    f"{name} {'QDQ' if qdq else 'QOperator'} "
                    f"{'per-channel' if per_channel else 'per-tensor'}"
                )
                print(f"{label:<42} " + measure(data, shape, machine, args.inputs))


def measure(data: bytes, shape: tuple[int, ...], machine, inputs: int) -> str:
    session = onnx_models.ort_session(data)
    exact = import_onnx(data)
    ctx = make_context()
    tosa = import_onnx(data, "tosa")
    CanonicalizePass().apply(ctx, tosa)
    func = next(iter(tosa.body.block.ops))
    s_in, z_in = boundary(func, "quantize", 0)
    s_out, z_out = boundary(func, "dequantize", 0)
    # Partitioned and bundled: a softmax stays on the host, the rest runs on the simulator.
    NpuPartition().apply(ctx, tosa)  # the default machine, as `main` loads
    executor = HostNpuExecutor.from_bundle(build_bundle(tosa))
    exact_diff = npu_diff = npu_max = total = 0
    for k in range(inputs):
        x = np.random.default_rng(k).normal(0, 1.5, shape).astype(np.float32)
        want = session.run(None, {"x": x})[0]
        exact_diff += int((Interpreter(exact).call("main", [x])[0] != want).sum())
        q = np.clip(np.rint(x / np.float32(s_in)) + z_in, -128, 127).astype(np.int8)
        got = executor.call("main", [q])[0].astype(np.int64)
        ref = np.clip(np.rint(want / np.float32(s_out)) + z_out, -128, 127).astype(np.int64)
        npu_diff += int((got != ref).sum())
        npu_max = max(npu_max, int(np.abs(got - ref).max()))
        total += want.size
    return (
        f"{exact_diff:>6} ({exact_diff / total:.3%}) {npu_diff:>5} ({npu_diff / total:.3%}) "
        f"{npu_max:>9} {total:>9}"
    )


if __name__ == "__main__":
    main()
