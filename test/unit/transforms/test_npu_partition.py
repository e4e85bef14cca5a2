"""npu-partition and the host + NPU executor: partitioned programs compute exactly what
the unpartitioned TOSA computes on the interpreter, regions never form a cycle, and a
classifier's softmax stays on the host."""

from __future__ import annotations

import random

import numpy as np
import pytest
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.dominance import dominance_error
from qdialect.ir.parser import QParser
from qdialect.runtime.executor import HostNpuExecutor, npu_target
from qdialect.transforms.npu_partition import NpuPartition

CONSTS = """  %s3 = tosa.const_shape values(dense<[1, 4, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %s2 = tosa.const_shape values(dense<[4, 8]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %m = tosa.const values(dense<1518500250> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<35> : tensor<1xi8>) : () -> tensor<1xi8>
  %wide = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
"""
T8 = "tensor<4x8xi8>"
T32 = "tensor<4x8xi32>"


def _fc(rng: random.Random, x: str, name: str) -> str:
    weights = ", ".join(str(rng.randint(-128, 127)) for _ in range(64))
    return f"""  %{name}_w = tosa.const values(dense<[[{weights}]]> : tensor<1x64xi8>) : () -> tensor<1x64xi8>
  %{name}_ws = tosa.const_shape values(dense<[1, 8, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %{name}_w3 = tosa.reshape %{name}_w, %{name}_ws : (tensor<1x64xi8>, !tosa.shape<3>) -> tensor<1x8x8xi8>
  %{name}_a = tosa.reshape %{x}, %s3 : ({T8}, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %{name}_acc = tosa.matmul %{name}_a, %{name}_w3, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %{name}_acc2 = tosa.reshape %{name}_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> {T32}
  %{name} = tosa.rescale %{name}_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : ({T32}, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> {T8}
"""


def _add(a: str, b: str, name: str) -> str:
    widen = (
        "scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) "
        "output_unsigned(false)"
    )
    return f"""  %{name}_a = tosa.rescale %{a}, %m, %wide, %z8, %z32 {widen} : ({T8}, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> {T32}
  %{name}_b = tosa.rescale %{b}, %m, %wide, %z8, %z32 {widen} : ({T8}, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> {T32}
  %{name}_s = tosa.add %{name}_a, %{name}_b : ({T32}, {T32}) -> {T32}
  %{name} = tosa.rescale %{name}_s, %m, %sh, %z32, %z8 {widen} : ({T32}, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> {T8}
"""


def random_program(seed: int, steps: int = 10) -> str:
    """A random DAG of fully connected layers and residual adds (NPU) and maxima (host),
    each reading earlier values, so branches leave and re-enter regions."""
    rng = random.Random(seed)
    pool = ["x"]
    body = ""
    for i in range(steps):
        kind = rng.choice(["fc", "fc", "add", "host"])
        name = f"v{i}"
        if kind == "fc":
            body += _fc(rng, rng.choice(pool[-3:]), name)
        elif kind == "add":
            body += _add(rng.choice(pool), rng.choice(pool), name)
        else:
            a, b = rng.choice(pool), rng.choice(pool)
            body += f"  %{name} = tosa.maximum %{a}, %{b} : ({T8}, {T8}) -> {T8}\n"
        pool.append(name)
    return (
        f"func.func @main(%x: {T8}) -> {T8} {{\n{CONSTS}{body}"
        f"  func.return %{pool[-1]} : {T8}\n}}\n"
    )


def _parse(text: str):
    return QParser(make_context(), text).parse_module()


def _partitioned(text: str, **options):
    module = _parse(text)
    NpuPartition(**options).apply(make_context(), module)
    module.verify()
    assert dominance_error(module) is None
    return _parse(str(module))  # what qopt prints reads back


@pytest.mark.parametrize("seed", range(12))
def test_random_graphs_partition_without_cycles_and_run_exactly(seed: int) -> None:
    text = random_program(seed)
    module = _partitioned(text)
    funcs = {f.sym_name.data: f for f in module.walk() if isinstance(f, FuncOp)}
    calls = [op for op in funcs["main"].walk() if isinstance(op, CallOp)]
    for call in calls:  # every call goes to a region marked for the NPU
        assert npu_target(funcs[call.callee.root_reference.data]) == "default"
    reference = Interpreter(_parse(text))
    executor = HostNpuExecutor(module)
    for k in range(3):
        x = np.random.default_rng(k).integers(-128, 128, (4, 8)).astype(np.int8)
        assert np.array_equal(executor.call("main", [x])[0], reference.call("main", [x])[0])
    assert sum(s.calls for s in executor.stats.values()) == 3 * len(calls)


def test_some_random_graph_splits_into_several_regions() -> None:
    """The generator does make the interesting cases (a host op between regions)."""
    counts = [
        sum(isinstance(op, FuncOp) for op in _partitioned(random_program(seed)).walk()) - 1
        for seed in range(12)
    ]
    assert max(counts) >= 2 and min(counts) >= 0


def test_classifier_softmax_stays_on_the_host_and_the_model_runs_exactly() -> None:
    """A TFLite classifier (conv, depthwise, mean, fully connected, SOFTMAX): everything
    before the softmax is one NPU region; the softmax's integer TOSA runs on the host;
    the executor equals the interpreter on the unpartitioned TOSA bit for bit."""
    pytest.importorskip("tensorflow", reason="building the TFLite model needs tensorflow")
    from qdialect.importers.tflite import import_tflite
    from qdialect.ir.printer import module_text
    from qdialect.models import tflite_builder

    data, shape = tflite_builder.quantized("classifier", 0)
    ctx = make_context()
    module = _parse(module_text(import_tflite(data)))
    CanonicalizePass().apply(ctx, module)
    text = str(module)
    partitioned = _partitioned(text)
    funcs = {f.sym_name.data: f for f in partitioned.walk() if isinstance(f, FuncOp)}
    assert [n for n, f in funcs.items() if npu_target(f)] == ["main_npu0"]
    host_ops = {op.name for op in funcs["main"].walk()}
    assert {"tosa.reduce_max", "tosa.gather"} <= host_ops  # the softmax's pieces
    assert "tosa.conv2d" not in host_ops and "tosa.depthwise_conv2d" not in host_ops
    reference = Interpreter(_parse(text))
    trace: list[str] = []
    executor = HostNpuExecutor(partitioned, trace=trace)
    for k in range(4):
        x = np.random.default_rng(k).integers(-128, 128, shape).astype(np.int8)
        assert np.array_equal(executor.call("main", [x])[0], reference.call("main", [x])[0])
    assert executor.stats["main_npu0"].cycles > 0
    assert trace[0].startswith("npu  @main_npu0") and "host tosa.reduce_max" in trace


def test_a_slow_npu_keeps_everything_on_the_host() -> None:
    module = _partitioned(random_program(3), host_macs_per_cycle=10**9)
    assert sum(isinstance(op, FuncOp) for op in module.walk()) == 1
