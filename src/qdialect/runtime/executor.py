"""`HostNpuExecutor`: run a module partitioned by `npu-partition`.

The entry function and every unmarked function run on the reference interpreter;
a call to a function with `qdialect.target = "npu"` runs that function's NPU
program on the bit-exact simulator instead, on the machine its
`qdialect.machine` names. Each such function is compiled once (by the four
stages of `tosa-to-npu`) on first call. Tensors move between the two as int8
arrays, the only thing a region exchanges (the partitioner sees to that), so
the result equals interpreting the same TOSA everywhere, bit for bit — which
is what the tests check.

`stats` holds, per NPU function, the calls, simulated cycles and DRAM bytes
moved; `trace` (when a list is given) gets one line per op or NPU call naming
the device that ran it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from qdialect.dialects.npu import program_binary
from qdialect.interpreter.core import Interpreter, InterpreterError
from qdialect.ir.errors import OpError
from qdialect.npu.encoding import Binary, LayerRecord
from qdialect.npu.machine import Machine, MachineError, load_machine
from qdialect.npu.simulator import Simulator, SimulatorError
from qdialect.runtime.bundle import Bundle, BundleError
from qdialect.transforms.npu_partition import MACHINE_ATTR, TARGET_ATTR

__all__ = ["HostNpuExecutor", "LayerOutput", "RegionStats", "npu_target"]


def npu_target(func: FuncOp) -> str | None:
    """The machine a function is marked to run on, or None for a host function."""
    target = func.attributes.get(TARGET_ATTR)
    if not (isinstance(target, StringAttr) and target.data == "npu"):
        return None
    machine = func.attributes.get(MACHINE_ATTR)
    return machine.data if isinstance(machine, StringAttr) else "default"


@dataclass
class RegionStats:
    calls: int = 0
    cycles: int = 0
    macs: int = 0  # executed by the array, padding included
    useful_macs: int = 0  # the model's MACs, from the binaries' layer maps
    dram_read: int = 0
    dram_written: int = 0


@dataclass(frozen=True)
class LayerOutput:
    """One NPU layer's int8 output as the simulator computed it, with the function and
    the instruction range (`code[start:end]` of its binary) that produced it."""

    function: str
    record: LayerRecord
    array: np.ndarray


def _observer(binary: Binary, sim: Simulator, function: str,
              out: list[LayerOutput]) -> Callable[[int], None]:  # fmt: skip
    """A `Simulator.run(retired=...)` callback reading each DRAM-resident layer's output
    when the last of its instructions has run."""
    layers = [r for r in binary.layers if r.address is not None and r.end > r.start]
    starts = [r.start for r in layers]
    left = [r.end - r.start for r in layers]

    def retired(index: int) -> None:
        k = bisect.bisect_right(starts, index) - 1
        if k < 0 or index >= layers[k].end:
            return
        left[k] -= 1
        if left[k] == 0:
            r = layers[k]
            size = int(np.prod(r.shape, dtype=np.int64))
            data = sim.read_dram(r.address or 0, size)
            out.append(LayerOutput(function, r, np.frombuffer(data, np.int8).reshape(r.shape)))

    return retired


@dataclass
class _Compiled:
    machine: Machine
    binary: Binary


@dataclass
class HostNpuExecutor(Interpreter):
    """The interpreter, with calls to NPU-marked functions run on the simulator."""

    stats: dict[str, RegionStats] = field(default_factory=dict)
    trace: list[str] | None = None
    keep_on_chip: bool = True
    """Compile NPU functions keeping layer outputs on chip where they fit (False: every
    layer's output reaches DRAM, so `layer_outputs` observes them all)."""
    layer_outputs: list[LayerOutput] | None = None
    """When a list: every NPU layer whose output reaches DRAM appends it, read the
    moment the layer's last instruction retires (the layer map of each binary)."""
    _compiled: dict[str, _Compiled] = field(default_factory=dict)

    def call(self, name: str, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        func = self.functions.get(name)
        machine_name = npu_target(func) if func is not None else None
        if func is None or machine_name is None:
            return super().call(name, args)
        compiled = self._compile(func, machine_name)
        return self._run_npu(name, func, compiled, args)

    def eval_op(self, op: Operation, operands: list[np.ndarray]) -> list[np.ndarray]:
        if self.trace is not None and op.name != "func.call":
            self.trace.append(f"host {op.name}")
        return super().eval_op(op, operands)

    @classmethod
    def from_bundle(cls, bundle: Bundle, trace: list[str] | None = None) -> HostNpuExecutor:
        """The bundle's host module, with its regions' binaries as built (not recompiled);
        a BundleError if they do not fit the module or this machine's descriptions."""
        from xdsl.utils.exceptions import ParseError, VerifyException

        from qdialect.context import make_context
        from qdialect.ir.dominance import dominance_error
        from qdialect.ir.parser import QParser

        try:
            module = QParser(make_context(), bundle.host, "host.mlir").parse_module()
            module.verify()
        except (ParseError, VerifyException) as err:
            raise BundleError(f"host.mlir: {str(err).strip().splitlines()[0]}") from None
        if dominance_error(module) is not None:
            raise BundleError("host.mlir: a value is used before it is defined")
        executor = cls(module, trace=trace)
        if bundle.entry not in executor.functions:
            raise BundleError(f"the entry '@{bundle.entry}' is not a function of host.mlir")
        for region in bundle.regions:
            func = executor.functions.get(region.function)
            if func is None or npu_target(func) is None:
                raise BundleError(f"@{region.function} is not an NPU function of host.mlir")
            try:
                machine = load_machine(region.machine)
            except MachineError as err:
                raise BundleError(f"@{region.function}: {err}") from None
            if machine.digest() != region.digest:
                raise BundleError(
                    f"@{region.function} was built for another description of machine "
                    f"'{region.machine}' (digest {region.digest:016x}, this one "
                    f"{machine.digest():016x}): rebuild the bundle"
                )
            executor._compiled[region.function] = _Compiled(machine, region.binary)
        missing = [
            n
            for n, f in executor.functions.items()
            if npu_target(f) and n not in executor._compiled
        ]
        if missing:
            raise BundleError(
                f"no binary for the NPU function(s) {', '.join('@' + n for n in missing)}"
            )
        return executor

    def macs_per_cycle(self, function: str) -> int:
        """The MAC array size of the machine an NPU function runs on (0 if not compiled)."""
        compiled = self._compiled.get(function)
        return compiled.machine.mac_rows * compiled.machine.mac_cols if compiled else 0

    def _compile(self, func: FuncOp, machine_name: str) -> _Compiled:
        name = func.sym_name.data
        if name not in self._compiled:
            from qdialect.lowering.tosa_to_npu import compile_function

            try:
                machine = load_machine(machine_name)
                program = compile_function(func, machine, machine_name, self.keep_on_chip)
            except (MachineError, OpError, ValueError) as err:
                raise InterpreterError(f"@{name} cannot run on the NPU: {err}") from None
            self._compiled[name] = _Compiled(machine, program_binary(program, machine.digest()))
        return self._compiled[name]

    def _run_npu(
        self, name: str, func: FuncOp, compiled: _Compiled, args: Sequence[np.ndarray]
    ) -> list[np.ndarray]:
        binary = compiled.binary
        if len(args) != len(binary.inputs):
            raise InterpreterError(f"@{name} takes {len(binary.inputs)} arguments, got {len(args)}")
        sim = Simulator(compiled.machine, binary.code)
        sim.load_sections(binary)
        sim.set_inputs(
            binary, {t.name: np.asarray(a) for t, a in zip(binary.inputs, args, strict=True)}
        )
        retired = None
        if self.layer_outputs is not None:
            retired = _observer(binary, sim, name, self.layer_outputs)
        try:
            run = sim.run(retired=retired)
        except SimulatorError as err:
            raise InterpreterError(f"@{name} on the NPU: {err}") from None
        outputs = sim.get_outputs(binary)
        stats = self.stats.setdefault(name, RegionStats())
        stats.calls += 1
        stats.cycles += run.cycles
        stats.macs += run.macs
        stats.useful_macs += binary.useful_macs or 0
        stats.dram_read += run.dram_read
        stats.dram_written += run.dram_written
        if self.trace is not None:
            self.trace.append(f"npu  @{name} ({run.cycles} cycles)")
        return [outputs[t.name] for t in binary.outputs]
