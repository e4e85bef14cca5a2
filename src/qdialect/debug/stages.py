"""One model at every stage of the toolchain, run on the same inputs, each tensor recorded
under the source model's name.

Stages, in order (each made from the one before by the passes `qopt` runs):

* `float`  — the float program (the reference);
* `quant`  — the integer program: `stablehlo-quantize` by a calibration, then
  `stablehlo-legalize-qdq-to-quantized-op`, run by the interpreter;
* `tosa`   — `stablehlo-legalize-to-tosa`, canonicalized, transposes reduced;
* `npu`    — the TOSA program partitioned (`npu-partition`): NPU functions compiled and
  run on the simulator, whose layer map gives each DRAM-resident layer's output as
  its last instruction retires; host ops on the interpreter.

A stage's record of a tensor is its values over every input, put back in the model's
layout (`names.source_layouts`), with the quantization that turns storage integers into
real numbers: the value's own `!quant.uniform` type, or — TOSA and the NPU compute on
plain integers — the quantized program's type for the same name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue

from qdialect.calibration.calibrate import Calibration
from qdialect.calibration.qtable import QTable
from qdialect.calibration.workflow import integer, quantized
from qdialect.context import make_context
from qdialect.debug.names import Perm, name_of, named_values, source_layouts
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa
from qdialect.interpreter import Interpreter
from qdialect.npu.encoding import LayerRecord
from qdialect.runtime.executor import HostNpuExecutor, LayerOutput
from qdialect.transforms import get_all_passes
from qdialect.transforms.quantize import Options

STAGES = ("float", "quant", "tosa", "npu")


class StageError(ValueError):
    """A stage cannot be built or run (reported to the user, naming the stage)."""


@dataclass(frozen=True)
class QInfo:
    """A tensor's quantization in the model's layout: real = (q - zero_point) * scale."""

    scale: np.ndarray
    zero_point: np.ndarray
    axis: int | None
    storage_min: int = -128
    storage_max: int = 127

    def clip_range(self) -> tuple[float, float]:
        """The real numbers the storage range reaches (over every channel)."""
        lo = (self.storage_min - self.zero_point) * self.scale
        hi = (self.storage_max - self.zero_point) * self.scale
        return float(lo.min()), float(hi.max())

    def _along(self, v: np.ndarray, ndim: int) -> np.ndarray:
        if self.axis is None:
            return v.reshape(())
        shape = [1] * ndim
        shape[self.axis] = v.size
        return v.reshape(shape)

    def real(self, q: np.ndarray) -> np.ndarray:
        return (q.astype(np.float64) - self._along(self.zero_point, q.ndim)) * self._along(
            self.scale, q.ndim
        )

    def step(self, ndim: int) -> np.ndarray:
        """The size of one storage unit, broadcastable to the tensor."""
        return self._along(self.scale, ndim)


def qinfo_of(t, perm: Perm | None) -> QInfo | None:
    q = ht.quant_type(t)
    if q is None:
        return None
    axis = q.axis
    if axis is not None and perm is not None:
        axis = perm[axis]
    return QInfo(np.asarray(q.scales, np.float64), np.asarray(q.zero_points, np.float64), axis,
                 q.storage_min, q.storage_max)  # fmt: skip


@dataclass
class Observed:
    """One tensor in one stage: its raw values per input in the model's layout."""

    arrays: list[np.ndarray] = field(default_factory=list)
    quant: QInfo | None = None  # set for quantized and storage-integer values
    layout_known: bool = True

    def real(self) -> np.ndarray:
        """All inputs' values as real numbers, one flat float64 array."""
        flat = [
            (
                self.quant.real(a)
                if self.quant is not None and a.dtype.kind in "iu"
                else a.astype(np.float64)
            ).reshape(-1)
            for a in self.arrays
        ]
        return np.concatenate(flat) if flat else np.zeros(0)

    def storage(self) -> np.ndarray | None:
        """All inputs' storage integers, one flat int64 array (None for float values)."""
        if not self.arrays or self.arrays[0].dtype.kind not in "iu":
            return None
        return np.concatenate([a.astype(np.int64).reshape(-1) for a in self.arrays])

    def steps(self) -> np.ndarray | None:
        if self.quant is None:
            return None
        return np.concatenate(
            [np.broadcast_to(self.quant.step(a.ndim), a.shape).reshape(-1) for a in self.arrays]
        )


@dataclass
class StageTrace:
    """Every named tensor of one stage, in program order."""

    stage: str
    values: dict[str, Observed] = field(default_factory=dict)
    layers: dict[str, tuple[str, LayerRecord]] = field(default_factory=dict)  # npu: name -> site
    not_observed: list[str] = field(default_factory=list)  # npu: layers kept on chip
    fused: dict[str, str] = field(default_factory=dict)  # pre-activation name -> activation's


@dataclass
class Programs:
    """The modules of the stages asked for (None where not built)."""

    function: str
    npu_keep_on_chip: bool = True  # False: every NPU layer's output is observed
    float: ModuleOp | None = None
    quant: ModuleOp | None = None
    tosa: ModuleOp | None = None
    npu: ModuleOp | None = None

    @classmethod
    def from_float(cls, module: ModuleOp, cal: Calibration, stages: Sequence[str], *,
                   options: Options | None = None, qtable: QTable | None = None,
                   function: str = "main") -> Programs:  # fmt: skip
        """Build each stage up to the last one in `stages` from a calibrated float program."""
        last = max(STAGES.index(s) for s in stages)
        p = cls(function, float=module)
        if last >= 1:
            qdq = quantized(module, cal, options, qtable=qtable, function=function)
            p.quant = integer(qdq)
        if last >= 2:
            assert p.quant is not None
            p.tosa = p.quant.clone()
            _passes(p.tosa, ("stablehlo-legalize-to-tosa", "canonicalize",
                             "tosa-reduce-transposes", "canonicalize"))  # fmt: skip
        if last >= 3:
            assert p.tosa is not None
            p.npu = p.tosa.clone()
            _passes(p.npu, ("npu-partition",))
        return p

    def module(self, stage: str) -> ModuleOp:
        m = getattr(self, stage)
        if m is None:
            raise StageError(f"the {stage} stage was not built")
        return m


def _passes(module: ModuleOp, names: Sequence[str]) -> None:
    from qdialect.ir.errors import OpError

    ctx, registry = make_context(), get_all_passes()
    for name in names:
        try:
            registry[name]()().apply(ctx, module)
        except OpError as err:
            raise StageError(f"{name}: {err}") from None


def entry(module: ModuleOp, function: str) -> FuncOp:
    for f in module.walk():
        if isinstance(f, FuncOp) and f.sym_name.data == function:
            return f
    raise StageError(f"no function @{function}")


def _to_model_layout(a: np.ndarray, perm: Perm | None) -> np.ndarray:
    if perm is None or perm == tuple(range(a.ndim)):
        return a
    return np.transpose(a, np.argsort(perm))


def run_stage(programs: Programs, stage: str, inputs: Sequence[Sequence[np.ndarray]],
              quant_of: dict[str, QInfo] | None = None,
              layouts_of: dict[str, Perm | None] | None = None) -> StageTrace:  # fmt: skip
    """Run one stage on every input, recording each named tensor. `quant_of` (name ->
    quantization, from the quant stage) dequantizes plain integers; `layouts_of`
    (name -> permutation, from the TOSA stage) places the NPU's layer outputs."""
    module = programs.module(stage)
    func = entry(module, programs.function)
    wanted = {v: n for n, v in named_values(func).items()}
    layouts = source_layouts(func)
    trace = StageTrace(stage, fused=fused_activations(func))
    for v, name in wanted.items():  # program order, before any value arrives
        perm = layouts.get(v)
        if layouts_of is not None and name in layouts_of:
            perm = layouts_of[name]
        q = qinfo_of(v.type, perm)
        owner = v.owner
        if q is None and isinstance(owner, sh.UniformDequantizeOp):  # real values of that type
            q = qinfo_of(owner.operand.type, layouts.get(owner.operand))
        if q is None and _is_integer(v):
            q = (quant_of or {}).get(name)
        trace.values[name] = Observed([], q, perm is not None)

    def record(value: SSAValue, array: np.ndarray) -> None:
        name = wanted.get(value)
        if name is not None:
            trace.values[name].arrays.append(
                _to_model_layout(np.asarray(array), layouts.get(value))
            )

    outputs: list[LayerOutput] = []
    if stage == "npu":
        interp: Interpreter = HostNpuExecutor(
            module, keep_on_chip=programs.npu_keep_on_chip, layer_outputs=outputs
        )
    else:
        interp = Interpreter(module)
    interp.on_result = record
    args = func.body.block.args
    on_npu: dict[str, list[np.ndarray]] = {}
    for batch in inputs:
        for v, a in zip(args, batch, strict=True):
            record(v, np.asarray(a))
        start = len(outputs)
        interp.call(programs.function, list(batch))
        last: dict[str, np.ndarray] = {}  # a name's last layer is the tensor
        for out in outputs[start:]:
            if out.record.name:
                last[out.record.name] = out.array
                trace.layers[out.record.name] = (out.function, out.record)
        for name, array in last.items():
            on_npu.setdefault(name, []).append(
                _to_model_layout(array, (layouts_of or {}).get(name))
            )
    for name, arrays in on_npu.items():  # the NPU computed it: host ops of that name came before
        perm_known = (layouts_of or {}).get(name) is not None
        trace.values[name] = Observed(arrays, (quant_of or {}).get(name), perm_known)
    if stage == "npu":
        trace.not_observed = [n for n, o in trace.values.items() if not o.arrays]
        _order_like(trace, programs)
    return trace


_RELU_LIKE = (sh.ClampOp, sh.MaximumOp, sh.MinimumOp, tosa.ClampOp)


def fused_activations(func: FuncOp) -> dict[str, str]:
    """Tensors quantized in their activation's type (a convolution followed by ReLU6,
    as TFLite fuses them): the name of each and of the activation that alone reads it.
    Their negative side (or beyond 6) is clipped by design, so they are not judged
    against float."""
    out = {}
    for name, v in named_values(func).items():
        users = {u.operation for u in v.uses}
        if len(users) != 1 or not ht.is_quantized(v.type):
            continue
        user = users.pop()
        act = name_of(user)
        if isinstance(user, _RELU_LIKE) and user.results[0].type == v.type and act and act != name:
            out[name] = act
    return out


def _is_integer(v: SSAValue) -> bool:
    from xdsl.dialects.builtin import IntegerType

    return isinstance(ht.element_type(v.type), IntegerType)


def _order_like(trace: StageTrace, programs: Programs) -> None:
    """The NPU stage's tensors in the TOSA program's order (its layers come from
    outlined functions, recorded as they run)."""
    if programs.tosa is None:
        return
    order = list(named_values(entry(programs.tosa, programs.function)))
    rank = {n: i for i, n in enumerate(order)}
    trace.values = dict(sorted(trace.values.items(), key=lambda kv: rank.get(kv[0], len(rank))))


def run_all(programs: Programs, stages: Sequence[str],
            inputs: Sequence[Sequence[np.ndarray]]) -> dict[str, StageTrace]:  # fmt: skip
    """Every stage asked for, in toolchain order, each given what it needs of the ones
    before (the quantized types, the TOSA layouts)."""
    traces: dict[str, StageTrace] = {}
    quant_of: dict[str, QInfo] = {}
    layouts_of: dict[str, Perm | None] = {}
    for stage in STAGES:
        needed = stage in stages or (stage == "quant" and any(s in stages for s in ("tosa", "npu")))
        needed = needed or (stage == "tosa" and "npu" in stages)
        if not needed:
            continue
        traces[stage] = t = run_stage(programs, stage, inputs, quant_of, layouts_of)
        if stage == "quant":
            quant_of = {n: o.quant for n, o in t.values.items() if o.quant is not None}
        if stage == "tosa":
            func = entry(programs.module("tosa"), programs.function)
            layouts = source_layouts(func)
            layouts_of = {n: layouts.get(v) for n, v in named_values(func).items()}
    return {s: traces[s] for s in STAGES if s in stages and s in traces}
