"""Which layers lose the accuracy: per-layer sensitivity and a bisection to the fewest
layers to keep in 16 bits (or float) for a target, fast enough for a MobileNetV2.

Sensitivity is measured on the QDQ program (`stablehlo-quantize`'s simulated
quantization) with each quantization *site* switchable: a `uniform_dequantize` either
gives its quantized value or, switched off, the float value it replaced (an
activation's float value; a constant's float original). A site belongs to the
quantized ops (units) that read it and to the unit whose output it quantizes; it is on
when one of them is. So for each unit L:

* **quantize only L** (the rest float): the output's SQNR against float is the error
  L alone brings;
* **dequantize only L** (the rest quantized): the SQNR gained back is what keeping L
  in float would buy.

Every run starts from a cached run: with only L quantized, everything before L's
first site is the float program's; with only L dequantized, everything before it is
the quantized program's. So each measurement costs the network from L onward, not the
whole network. Biases stay quantized (an i32 at s_x*s_w: below one storage unit of
the accumulator).

`bisect` then ranks the units by what dequantizing them alone buys and finds the
smallest k such that promoting the top k (real `stablehlo-quantize` with a qtable,
real integer program) reaches the target — a binary search over k, each probe a real
evaluation; the k it returns was measured, not predicted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, OpResult, SSAValue

from qdialect.calibration.calibrate import Calibration, CalibrationError, tensor_keys
from qdialect.calibration.mixed import sqnr, top1_agreement
from qdialect.calibration.qtable import QTable
from qdialect.calibration.workflow import integer, quantized
from qdialect.debug.names import name_of
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.interpreter import Interpreter
from qdialect.transforms.quantize import Options, plan, quantize_function

METRICS = {"sqnr": sqnr, "top1": top1_agreement}


@dataclass(frozen=True)
class _Site:
    """One `uniform_dequantize` of the QDQ program that can be switched off."""

    index: int  # its position in the block
    bypass: SSAValue | np.ndarray | None  # what it gives when off (None: never off)
    producer: Operation | None  # the unit whose output it quantizes
    consumers: frozenset[Operation]  # the units that read it

    def on(self, active: set[Operation] | frozenset[Operation]) -> bool:
        if self.bypass is None:
            return True
        return (self.producer is not None and self.producer in active) or bool(
            self.consumers & active
        )


@dataclass
class _Run:
    env: dict[SSAValue, np.ndarray]
    outputs: list[np.ndarray]


class SwitchableProgram:
    """The QDQ program of a float program with every quantization site switchable."""

    def __init__(self, module: ModuleOp, cal: Calibration, options: Options | None = None,
                 function: str = "main"):  # fmt: skip
        self.function = function
        mapper: dict[SSAValue, SSAValue] = {}
        self.module = module.clone(value_mapper=mapper)
        float_func = _function(module, function)
        func = _function(self.module, function)
        original = {c.op: v.op for v, c in mapper.items()
                    if isinstance(c, OpResult) and isinstance(v, OpResult)}  # fmt: skip
        keys = tensor_keys(float_func)
        self.units: list[Operation] = plan(func).units
        self.key: dict[Operation, str] = {}
        for u in self.units:
            orig = original.get(u)
            if orig is not None and orig.results and orig.results[0] in keys:
                self.key[u] = keys[orig.results[0]]
        quantize_function(func, cal, options or Options())
        ops = list(func.body.block.ops)
        assert isinstance(ops[-1], ReturnOp)
        self.ops, self.returned = ops[:-1], list(ops[-1].operands)
        self.position = {op: i for i, op in enumerate(self.ops)}
        self.args = list(func.body.block.args)
        self.interp = Interpreter(self.module)
        self._constant_cache: dict[SSAValue, np.ndarray] = {}
        self._float_interp = Interpreter(module)
        unit_set = set(self.units)
        self.sites: dict[Operation, _Site] = {}
        for index, op in enumerate(self.ops):
            if isinstance(op, sh.UniformDequantizeOp):
                self.sites[op] = self._site(index, op, unit_set, original)
        self._unit_sites: dict[Operation, list[_Site]] = {u: [] for u in self.units}
        for site in self.sites.values():
            for u in {site.producer, *site.consumers}:
                if u is not None and u in self._unit_sites:
                    self._unit_sites[u].append(site)

    # ---- structure ---------------------------------------------------------------

    def _owner_unit(self, op: Operation, units: set[Operation], original: dict) -> Operation | None:
        """The unit an op the quantize pass made belongs to: the nearest unit upstream
        through ops it made, else downstream."""
        seen: set[Operation] = set()
        frontier = [op]
        while frontier:
            nxt = []
            for o in frontier:
                if o in units:
                    return o
                if o in seen or (o in original and o is not op):
                    continue
                seen.add(o)
                nxt += [v.owner for v in o.operands if isinstance(v.owner, Operation)]
            frontier = nxt
        frontier, seen = [op], set()
        while frontier:
            nxt = []
            for o in frontier:
                if o in units:
                    return o
                if o in seen:
                    continue
                seen.add(o)
                nxt += [u.operation for r in o.results for u in r.uses]
            frontier = nxt
        return None

    def _site(self, index: int, dq: sh.UniformDequantizeOp, units: set[Operation],
              original: dict) -> _Site:  # fmt: skip
        def unit(op: Operation | None) -> Operation | None:
            if op is None:
                return None
            if op in units:
                return op
            return None if op in original else self._owner_unit(op, units, original)

        consumers = frozenset(
            u for u in (unit(use.operation) for use in dq.result.uses) if u is not None
        )
        v = dq.operand
        while isinstance(v.owner, sh.UniformQuantizeOp) and ht.is_quantized(v.owner.operand.type):
            v = v.owner.operand
        if isinstance(v.owner, sh.UniformQuantizeOp):  # an activation: q(x) ... -> dq
            x = v.owner.operand
            producer = unit(x.owner) if isinstance(x.owner, Operation) else None
            return _Site(index, x, producer, consumers)
        # A constant (weights, a constant operand): its float original, read by the op
        # that reads the dequantization in the float program.
        bypass = None
        for use in dq.result.uses:
            orig = original.get(use.operation)
            if orig is not None:
                bypass = self._float_constant(orig.operands[use.index])
            elif isinstance(use.operation, sh.AddOp):
                bypass = self._bias(use.operation, dq.result, original)
            if bypass is not None:
                break
        return _Site(index, bypass, None, consumers)

    def _bias(self, total: sh.AddOp, bias: SSAValue, original: dict) -> np.ndarray | None:
        """A layer's float bias: the quantize pass replaced `layer -> add(., bias)` by an
        i32 sum `total`; the float program's add after the layer holds the float bias."""
        acc = total.operands[0] if total.operands[1] is bias else total.operands[1]
        v = acc
        while isinstance(v.owner, sh.UniformDequantizeOp | sh.UniformQuantizeOp):
            v = v.owner.operand
        layer = original.get(v.owner) if isinstance(v.owner, Operation) else None
        if layer is None:
            return None
        users = [u.operation for u in layer.results[0].uses]
        if len(users) != 1 or not isinstance(users[0], sh.AddOp):
            return None
        add = users[0]
        other = add.operands[1] if add.operands[0] is layer.results[0] else add.operands[0]
        return self._float_constant(other)

    def _float_constant(self, v: SSAValue) -> np.ndarray | None:
        """The value of a float-program value computed from constants alone."""
        if v in self._constant_cache:
            return self._constant_cache[v]
        owner = v.owner
        if not isinstance(owner, Operation) or owner.regions:
            return None
        operands = []
        for o in owner.operands:
            value = self._float_constant(o)
            if value is None:
                return None
            operands.append(value)
        results = self._float_interp.eval_op(owner, operands)
        for r, a in zip(owner.results, results, strict=True):
            self._constant_cache[r] = a
        return self._constant_cache[v]

    # ---- running -----------------------------------------------------------------

    def first_change(self, active: frozenset[Operation], base: frozenset[Operation]) -> int:
        """The first op index where running with `active` may differ from `base`."""
        changed = [s.index for s in self.sites.values() if s.on(active) != s.on(base)]
        return min(changed, default=len(self.ops))

    def run(self, args: Sequence[np.ndarray], active: frozenset[Operation],
            base: _Run | None = None, start: int = 0, keep: bool = False) -> _Run:  # fmt: skip
        """Run with the sites of `active` units on; from op `start` on, reading what came
        before from `base` (a run whose ops before `start` behaved the same)."""
        env: dict[SSAValue, np.ndarray] = {}
        if base is None:
            env.update(zip(self.args, (np.asarray(a) for a in args), strict=True))
        inherited = base.env if base is not None else {}
        interp = self.interp

        position = self.position

        def get(v: SSAValue) -> np.ndarray:
            if v in env:
                return env[v]
            owner = v.owner
            before = not isinstance(owner, Operation) or position[owner] < start
            if before and v in inherited:
                return inherited[v]
            assert isinstance(owner, Operation)  # a quantize skipped until a site read it
            compute(owner)
            return env[v]

        def compute(op: Operation) -> None:
            site = self.sites.get(op)
            if site is not None and not site.on(active):
                bypass = site.bypass
                env[op.results[0]] = get(bypass) if isinstance(bypass, SSAValue) else bypass  # type: ignore[assignment]
                return
            results = interp.eval_op(op, [get(o) for o in op.operands])
            env.update(zip(op.results, results, strict=True))

        for op in self.ops[start:]:
            if isinstance(op, sh.UniformQuantizeOp) and not keep:
                continue  # computed when a site that is on reads it
            compute(op)
        outputs = [get(o) for o in self.returned]
        if keep:
            merged = dict(inherited)
            merged.update(env)
            env = merged
        return _Run(env, outputs)


def _function(module: ModuleOp, name: str) -> FuncOp:
    for f in module.walk():
        if isinstance(f, FuncOp) and f.sym_name.data == name:
            return f
    raise CalibrationError(f"no function @{name}")


@dataclass
class UnitSensitivity:
    key: str  # calibration key of the unit's result (a qtable selector)
    name: str  # the source model's name, else the op's name
    quantized_alone: float  # metric with only this unit quantized
    dequantized_alone: float  # metric with every unit but this one quantized


@dataclass
class Sensitivity:
    metric: str
    all_float: float
    all_quantized: float
    units: list[UnitSensitivity] = field(default_factory=list)
    seconds: float = 0.0

    def ranked(self) -> list[UnitSensitivity]:
        """Most sensitive first: by the error the unit brings alone (the lowest score
        quantized alone), then by what dequantizing it alone buys back."""
        return sorted(self.units, key=lambda u: (u.quantized_alone, -u.dequantized_alone))

    def report(self, limit: int | None = None) -> str:
        lines = [
            f"all quantized: {self.metric} {self.all_quantized:.4g}   "
            f"(all float: {self.all_float:.4g})   {len(self.units)} units, {self.seconds:.1f} s",
            f"{'rank':>4} {'unit':>8}  {'tensor':<40} {'only this quantized':>20} "
            f"{'only this float':>16}",
        ]
        for i, u in enumerate(self.ranked()[:limit], 1):
            lines.append(
                f"{i:>4} {u.key:>8}  {u.name[:40]:<40} {u.quantized_alone:>20.4g} "
                f"{u.dequantized_alone:>16.4g}"
            )
        return "\n".join(lines)


def analyze(module: ModuleOp, cal: Calibration, inputs: Sequence[Sequence[np.ndarray]], *,
            metric: str = "sqnr", options: Options | None = None, function: str = "main",
            progress: Callable[[str], None] | None = None) -> Sensitivity:  # fmt: skip
    """Each unit quantized alone and dequantized alone, scored against the float program."""
    if metric not in METRICS:
        raise CalibrationError(f"unknown metric '{metric}' (one of {', '.join(METRICS)})")
    if not inputs:
        raise CalibrationError("no evaluation inputs")
    clock = time.perf_counter()
    score = METRICS[metric]
    program = SwitchableProgram(module, cal, options, function)
    float_runs, quant_runs, reference, quantized_out = [], [], [], []
    nothing: frozenset[Operation] = frozenset()
    everything = frozenset(program.units)
    for args in inputs:
        f = program.run(args, nothing, keep=True)
        q = program.run(args, everything, keep=True)
        float_runs.append(f)
        quant_runs.append(q)
        reference.append(np.asarray(f.outputs[0]))
        quantized_out.append(np.asarray(q.outputs[0]))
    result = Sensitivity(metric, score(reference, reference), score(reference, quantized_out))

    def measure(
        active: frozenset[Operation], base: frozenset[Operation], runs: list[_Run]
    ) -> float:
        start = program.first_change(active, base)
        outs = [np.asarray(program.run(a, active, r, start).outputs[0])
                for a, r in zip(inputs, runs, strict=True)]  # fmt: skip
        return score(reference, outs)

    for unit in program.units:
        key = program.key.get(unit)
        if key is None:
            continue
        alone = frozenset({unit})
        q_alone = measure(alone, nothing, float_runs)
        dq_alone = measure(everything - alone, everything, quant_runs)
        label = name_of(unit) or unit.name
        result.units.append(UnitSensitivity(key, label, q_alone, dq_alone))
        if progress is not None:
            progress(f"{key} {label}: quantized alone {q_alone:.4g}, float alone {dq_alone:.4g}")
    result.seconds = time.perf_counter() - clock
    return result


@dataclass
class Bisection:
    qtable: QTable
    score: float
    reached: bool
    probes: list[tuple[int, float]]  # (units promoted, score), in the order measured
    seconds: float = 0.0


def evaluate(module: ModuleOp, cal: Calibration, inputs: Sequence[Sequence[np.ndarray]],
             table: QTable, reference: Sequence[np.ndarray], *, metric: str = "sqnr",
             options: Options | None = None, function: str = "main") -> float:  # fmt: skip
    """The real integer program with `table`'s precisions, scored against `reference`."""
    program = integer(quantized(module, cal, options, qtable=table, function=function))
    interp = Interpreter(program)
    outs = [np.asarray(interp.call(function, list(a))[0]) for a in inputs]
    return METRICS[metric](reference, outs)


def bisect(module: ModuleOp, cal: Calibration, inputs: Sequence[Sequence[np.ndarray]],
           ranked: Sequence[str], target: float, *, metric: str = "sqnr",
           promote: str = "i16", options: Options | None = None,
           function: str = "main") -> Bisection:  # fmt: skip
    """The smallest k such that promoting `ranked[:k]` reaches `target`, each probe
    measured on the real integer program (the score is taken as growing with k)."""
    if promote not in ("i16", "float"):
        raise CalibrationError(f"promote to i16 or float, not '{promote}'")
    clock = time.perf_counter()
    float_interp = Interpreter(module)
    reference = [np.asarray(float_interp.call(function, list(a))[0]) for a in inputs]
    scores: dict[int, float] = {}
    probes: list[tuple[int, float]] = []

    def table(k: int) -> QTable:
        return QTable({key: promote for key in ranked[:k]})

    def probe(k: int) -> float:
        if k not in scores:
            scores[k] = evaluate(module, cal, inputs, table(k), reference, metric=metric,
                                 options=options, function=function)  # fmt: skip
            probes.append((k, scores[k]))
        return scores[k]

    n = len(ranked)
    if probe(0) >= target:
        best = 0
    elif probe(n) < target:
        best = n
    else:
        lo, hi = 0, n  # probe(lo) < target <= probe(hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if probe(mid) >= target:
                hi = mid
            else:
                lo = mid
        best = hi
    return Bisection(table(best), scores[best], scores[best] >= target, probes,
                     time.perf_counter() - clock)  # fmt: skip
