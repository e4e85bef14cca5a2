"""How far the NPU's integer program drifts from the source runtime, and where it starts.

For each network of the ONNX zoo (quantized by ONNX Runtime's `quantize_static`, QDQ,
per-channel, after `quant_pre_process`; cached on disk) this prints, over `--inputs`
random standard-normal images:

  exact      `qimport --target stablehlo` on the interpreter against ONNX Runtime:
             outputs that differ (expected: none; it is the control)
  NPU        `qimport --target tosa` — the program `npu-partition` and `tosa-to-npu`
             compile, whose bundle equals the interpreter on it bit for bit
             (test/unit/runtime/test_zoo_bundles.py) — against ONNX Runtime: the
             fraction of output elements that differ and the largest difference, in
             units of the output's int8 storage
  first      the first tensor, in execution order, where the TOSA program's int8 values
             differ from the exact program's (that is, from ONNX Runtime's), with the
             fraction of its elements that differ and by how much, and the op that made
             it: where the drift enters
  layers     how many int8 tensors differ at all, of those both programs compute

Tensors are matched by name (both importers name every op after its ONNX tensor),
compared in NHWC where the TOSA program keeps a tensor channels-last. The NPU column runs the interpreter, not the
simulator, because they are equal (and the simulator is slow); `--npu` runs the bundle
on the simulator instead for the output columns.

    python bench/bench_drift.py                            # the whole zoo, 2 inputs
    python bench/bench_drift.py --models mobilenet_v2 --inputs 8
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp, NameLoc
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from qdialect.interpreter import Interpreter

MODELS = ["resnet50", "mobilenet_v2", "squeezenet1_1", "densenet121_block", "inception_block",
          "shufflenet_block", "vgg16", "alexnet", "gelu_mlp", "gelu_mlp_op"]  # fmt: skip
SMALL = {"vgg16": {"width": 0.25}, "alexnet": {"width": 0.25}}


class NamedValues(Interpreter):
    """The interpreter, keeping the last int8 result of the ops named after each tensor
    (`loc("name")`): the value the source model's tensor holds."""

    def __init__(self, module: ModuleOp):
        super().__init__(module)
        self.values: dict[str, np.ndarray] = {}
        self.makers: dict[str, str] = {}

    def eval_op(self, op: Operation, operands: list[np.ndarray]) -> list[np.ndarray]:
        results = super().eval_op(op, operands)
        if isinstance(op.location, NameLoc) and len(results) == 1 and results[0].dtype == np.int8:
            name = op.location.desc.data
            self.values[name] = results[0]
            if op.name not in ("tosa.transpose", "tosa.reshape"):  # the op, not the layout
                self.makers[name] = op.name
        return results


def quantized(name: str, cache: Path) -> bytes:
    """The zoo network `name` (VGG-16 and AlexNet at a quarter width), QDQ per-channel
    after `quant_pre_process`, cached."""
    from qdialect.models import onnx_zoo

    return onnx_zoo.quantized(name, cache, **SMALL.get(name, {}))


def _boundary(func: FuncOp, kind: str) -> tuple[float, int] | None:
    """The (scale, zero point) peeled into the first argument's or result's attributes,
    or None when that value stays float (read or made by float ops on the host)."""
    attrs = func.arg_attrs if kind == "quantize" else func.res_attrs
    if attrs is None or f"qdialect.{kind}" not in attrs.data[0].data:  # type: ignore[union-attr]
        return None
    scale, zp = (a.value.data for a in attrs.data[0].data[f"qdialect.{kind}"].data)  # type: ignore[union-attr]
    return float(scale), int(zp)


def _storage(x: np.ndarray, scale: float, zp: int) -> np.ndarray:
    """ONNX's QuantizeLinear to int8: x / scale rounded half to even, plus zp, saturated."""
    return np.clip(np.rint(x / np.float32(scale)) + zp, -128, 127).astype(np.int64)


def _npu_runner(tosa_module: ModuleOp):
    """A function running the bundle of `tosa_module` on the host + NPU executor."""
    from xdsl.transforms.canonicalize import CanonicalizePass

    from qdialect.context import make_context
    from qdialect.runtime.bundle import build_bundle
    from qdialect.runtime.executor import HostNpuExecutor
    from qdialect.transforms.npu_partition import NpuPartition

    module = tosa_module.clone()
    ctx = make_context()
    CanonicalizePass().apply(ctx, module)
    NpuPartition().apply(ctx, module)
    executor = HostNpuExecutor.from_bundle(build_bundle(module))
    return lambda q: executor.call("main", [q])[0]


def measure(name: str, data: bytes, inputs: int, npu: bool) -> str:
    from qdialect.importers.onnx_import import import_onnx
    from qdialect.models import onnx_models, onnx_zoo

    session = onnx_models.ort_session(data)
    exact = import_onnx(data)
    tosa = import_onnx(data, "tosa")
    main = next(op for op in tosa.body.block.ops if isinstance(op, FuncOp))
    quantize, dequantize = _boundary(main, "quantize"), _boundary(main, "dequantize")
    run_npu = _npu_runner(tosa) if npu else None
    (input_name,) = onnx_zoo.input_shapes(data)
    exact_diff = npu_diff = total = 0
    npu_max: float = 0
    first: dict[str, tuple[int, int, int]] = {}  # tensor -> (differing, elements, max)
    order: list[str] = []
    makers: dict[str, str] = {}
    layers_differ: set[str] = set()
    compared: set[str] = set()
    for k in range(inputs):
        x = onnx_zoo.random_inputs(data, seed=k)[input_name]
        want = session.run(None, {input_name: x})[0]
        exact_run = NamedValues(exact)
        got_exact = exact_run.call("main", [x])[0]
        exact_diff += int((got_exact != want).sum())
        q = x if quantize is None else _storage(x, *quantize).astype(np.int8)
        tosa_run = NamedValues(tosa)
        got = run_npu(q) if run_npu else tosa_run.call("main", [q])[0]
        if run_npu:
            tosa_run.call("main", [q])
        if dequantize is None:  # a float output: its float difference
            ref, got = want.astype(np.float64), got.astype(np.float64)
        else:
            ref, got = _storage(want, *dequantize), got.astype(np.int64)
        npu_diff += int((got != ref).sum())
        npu_max = max(npu_max, float(np.abs(got - ref).max()))
        total += ref.size
        if not order:
            order = [n for n in exact_run.values if n in tosa_run.values]
        for tensor in order:
            a, b = exact_run.values[tensor], tosa_run.values[tensor]
            if a.ndim == 4 and a.shape != b.shape and a.transpose(0, 2, 3, 1).shape == b.shape:
                a = a.transpose(0, 2, 3, 1)  # the TOSA program keeps it channels-last
            if a.shape != b.shape:
                continue
            compared.add(tensor)
            diff = np.abs(a.astype(np.int64) - b.astype(np.int64))
            if diff.any():
                layers_differ.add(tensor)
                old = first.get(tensor, (0, 0, 0))
                first[tensor] = (old[0] + int((diff > 0).sum()), old[1] + diff.size,
                                 max(old[2], int(diff.max())))  # fmt: skip
                makers[tensor] = tosa_run.makers.get(tensor, "?")
    where = next((t for t in order if t in first), None)
    if where is None:
        where_text = "none"
    else:
        n, size, worst = first[where]
        where_text = f"{where} ({makers[where]}): {n:,} of {size:,} by <= {worst}"
    return (f"{exact_diff:>6} {npu_diff / max(total, 1):>8.2%} {npu_max:>4.3g}  "
            f"{len(layers_differ):>3}/{len(compared):<4} {where_text}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="*", default=MODELS)
    parser.add_argument("--inputs", type=int, default=2)
    parser.add_argument("--npu", action="store_true", help="run the bundles on the simulator")
    parser.add_argument("--cache", type=Path, default=Path(".bench-cache"))
    args = parser.parse_args()
    args.cache.mkdir(exist_ok=True)
    print(
        f"{'network':<20} {'exact':>6} {'NPU':>8} {'max':>4}  {'layers':<8} first differing tensor"
    )
    for name in args.models:
        line = measure(name, quantized(name, args.cache), args.inputs, args.npu)
        print(f"{name:<20} {line}", flush=True)
    print("\nexact: output elements differing from ONNX Runtime; NPU: fraction differing, "
          "max in int8 units\n(in float for a float output);"
          " layers: int8 tensors differing / compared")  # fmt: skip


if __name__ == "__main__":
    main()
