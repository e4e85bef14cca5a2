"""One point of a sweep: a model compiled for a machine description, simulated, checked.

`evaluate(task)` is what a worker runs (a local process or a Dask worker): it imports
the model as TOSA, partitions it for the point's machine — every region the NPU can run
goes to it, whatever the partitioner's host/NPU cost model would say, because the sweep
measures the NPU — compiles the bundle (`tosa-to-npu`), runs it on one random input
(`inputs_seed`) with the simulator for the NPU regions, and checks the outputs against
the interpreter on the unpartitioned program, bit for bit. A description that does not
validate or a model that does not fit the machine (a layer larger than a buffer) gives a
row with `status` "invalid" and the reason; every other failure is "error" with its
message — never an exception out of the worker, so one bad point cannot stop a sweep.

Columns (`COLUMNS`): the row's `key` (machine x model x compiler version), the point's
fields, the model, `status`, `reason`, `exact` (the check), `cycles`, `useful_macs`
(the model's MACs the NPU ran, padding taps not counted), `utilization` (useful MACs /
(cycles x MACs per cycle)), `dram_bytes` (read + written), `onchip_bytes` (the
machine's buffers), `macs_per_cycle`, `area`, `time_us` (cycles at the clock),
`compile_seconds` (the bundle's build), `host_ops` (ops left to the host).
"""

from __future__ import annotations

import hashlib
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import numpy as np

COLUMNS = (
    "key", "machine", "model", "point", "status", "reason", "exact", "cycles", "useful_macs",
    "utilization", "dram_bytes", "onchip_bytes", "macs_per_cycle", "area", "time_us",
    "compile_seconds", "host_ops",
)  # fmt: skip

LOWER_MLIR = (
    "stablehlo-legalize-qdq-to-quantized-op",
    "stablehlo-legalize-to-tosa",
    "canonicalize",
    "tosa-reduce-transposes",
    "canonicalize",
)
"""What an MLIR model goes through first (each a no-op on what is already TOSA)."""


@dataclass(frozen=True)
class Task:
    key: str
    machine: str  # the description's canonical JSON
    point: str  # "field=value,..." (for the table)
    model: str  # a file path
    model_name: str
    area: float | None
    inputs_seed: int = 0


NOT_COMPILER = ("sweep", "qat", "debug", "calibration", "fuzz", "models")
"""Subpackages of qdialect whose sources do not change a sweep's figures."""


def compiler_version() -> str:
    """The package version and a digest of the sources that compute a sweep's figures
    (importers, passes, lowering, runtime, interpreter, simulator): results cached under
    one version are not reused by a compiler that computes differently."""
    import qdialect

    root = Path(qdialect.__file__).resolve().parent.parent
    h = hashlib.sha256()
    for d in ("qdialect", "transforms", "lowering", "importers"):
        for f in sorted((root / d).rglob("*.py")):
            if d == "qdialect" and f.relative_to(root / d).parts[0] in NOT_COMPILER:
                continue
            h.update(str(f.relative_to(root)).encode())
            h.update(f.read_bytes())
    return f"{qdialect.__version__}+{h.hexdigest()[:12]}"


def task_key(machine: str, model_digest: str, version: str, inputs_seed: int) -> str:
    text = "\n".join((machine, model_digest, version, str(inputs_seed)))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def load_tosa(path: str):
    """The model at `path` as a TOSA module: MLIR parsed and lowered, ONNX and TFLite
    imported with `--target tosa`."""
    from qdialect.context import make_context
    from qdialect.ir.parser import QParser
    from qdialect.tools.qimport import import_module
    from qdialect.transforms import get_all_passes

    if path.endswith(".mlir"):
        ctx = make_context()
        module = QParser(ctx, Path(path).read_text(), path).parse_module()
        passes = get_all_passes()
        for name in LOWER_MLIR:
            passes[name]()().apply(ctx, module)
        return module
    return import_module(path, "tosa")


def _row(task: Task, **values) -> dict:
    row: dict = dict.fromkeys(COLUMNS)
    row.update(key=task.key, machine=task.machine, model=task.model_name, point=task.point,
               area=task.area, reason="")  # fmt: skip
    row.update(values)
    return row


def evaluate(task: Task) -> dict:
    """The row of one (machine, model) point; never raises."""
    from xdsl.dialects.func import FuncOp
    from xdsl.transforms.canonicalize import CanonicalizePass

    from qdialect.context import make_context
    from qdialect.interpreter import Interpreter
    from qdialect.interpreter.values import random_value
    from qdialect.ir.errors import OpError
    from qdialect.npu.machine import MachineError, parse_machine
    from qdialect.runtime.bundle import BundleError, build_bundle
    from qdialect.runtime.executor import HostNpuExecutor
    from qdialect.transforms.npu_partition import NpuPartition

    try:
        machine = parse_machine(task.machine, "machine")
    except MachineError as err:
        return _row(task, status="invalid", reason=str(err))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "machine.json"
        path.write_text(task.machine)
        try:
            module = load_tosa(task.model)
            ctx = make_context()
            CanonicalizePass().apply(ctx, module)
            reference = module.clone()
            NpuPartition(machine=str(path), host_macs_per_cycle=1).apply(ctx, module)
            clock = time.perf_counter()
            bundle = build_bundle(module)
            seconds = time.perf_counter() - clock
            if not bundle.regions:
                return _row(task, status="invalid", compile_seconds=seconds,
                            reason="no part of the model runs on this machine")  # fmt: skip
            executor = HostNpuExecutor.from_bundle(bundle)
            main = next(f for f in reference.body.block.ops
                        if isinstance(f, FuncOp) and f.sym_name.data == bundle.entry)  # fmt: skip
            rng = np.random.default_rng(task.inputs_seed)
            inputs = [random_value(t, rng) for t in main.function_type.inputs.data]
            got = executor.call(bundle.entry, inputs)
            want = Interpreter(reference).call(bundle.entry, inputs)
        except (OpError, BundleError, MachineError) as err:
            return _row(task, status="invalid", reason=str(err).strip().splitlines()[0])
        except Exception as err:  # a worker reports, it never stops the sweep
            last = traceback.format_exception_only(type(err), err)[-1].strip()
            return _row(task, status="error", reason=last)
    exact = len(got) == len(want) and all(
        np.array_equal(g, w) for g, w in zip(got, want, strict=False)
    )
    stats = executor.stats.values()
    cycles = sum(s.cycles for s in stats)
    useful = sum(s.useful_macs for s in stats)
    mpc = machine.mac_rows * machine.mac_cols
    entry = next(f for f in executor.functions.values() if f.sym_name.data == bundle.entry)
    host_ops = sum(1 for op in entry.walk()
                   if op is not entry and op.name not in ("func.return", "func.call"))  # fmt: skip
    return _row(
        task,
        status="ok" if exact else "mismatch",
        reason="" if exact else "the NPU's outputs differ from the interpreter's",
        exact=exact,
        cycles=cycles,
        useful_macs=useful,
        utilization=useful / (cycles * mpc) if cycles else 0.0,
        dram_bytes=sum(s.dram_read + s.dram_written for s in stats),
        onchip_bytes=sum(b.bytes for b in machine.buffers.values()),
        macs_per_cycle=mpc,
        time_us=cycles / machine.clock_mhz,
        compile_seconds=seconds,
        host_ops=host_ops,
    )
