"""Mixed precision by measured sensitivity: promote the fewest ops to 16 bits (or float)
that bring the integer program to a target.

1. The baseline: every op at 8 bits (`stablehlo-quantize` with the given options), its
   integer program (`stablehlo-legalize-qdq-to-quantized-op`) run on the evaluation
   inputs, scored against the float program: output SQNR in dB, or top-1 agreement (the
   fraction of inputs whose largest output is the float program's).
2. Each op's sensitivity: the score with that op alone promoted, minus the baseline —
   measured on the integer program, so it counts what the integer arithmetic loses
   (requantization, clipping, saturation), not an estimate.
3. Greedy: promote ops in order of sensitivity until the score reaches the target; the
   result is a `QTable` of those ops.

Candidates are the ops the quantize pass would quantize (layers, elementwise ops, pools,
data movement). One evaluation per candidate plus one per promotion: a MobileNetV2
takes minutes on the interpreter; cut the candidates with `only` where that matters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from qdialect.calibration.calibrate import Calibration, CalibrationError, tensor_keys
from qdialect.calibration.qtable import QTable
from qdialect.calibration.workflow import integer, quantized
from qdialect.interpreter import Interpreter
from qdialect.transforms.quantize import Options, plan

METRICS = ("sqnr", "top1")


def sqnr(reference: Sequence[np.ndarray], got: Sequence[np.ndarray]) -> float:
    """Signal to quantization noise of `got` against `reference`, in dB (all outputs)."""
    ref = np.concatenate([np.asarray(r, np.float64).reshape(-1) for r in reference])
    out = np.concatenate([np.asarray(g, np.float64).reshape(-1) for g in got])
    noise = float(((ref - out) ** 2).sum())
    return float("inf") if noise == 0 else float(10 * np.log10((ref**2).sum() / noise))


def top1_agreement(reference: Sequence[np.ndarray], got: Sequence[np.ndarray]) -> float:
    """Fraction of outputs whose argmax (over the last axis) is the reference's."""
    hits = [np.argmax(r, -1) == np.argmax(g, -1) for r, g in zip(reference, got, strict=True)]
    return float(np.mean(np.concatenate([np.reshape(h, -1) for h in hits])))


@dataclass
class SearchResult:
    qtable: QTable
    baseline: float
    score: float
    reached: bool
    sensitivity: dict[str, float] = field(default_factory=dict)  # selector -> score gain
    names: dict[str, str] = field(default_factory=dict)  # selector -> op name

    def report(self, metric: str) -> str:
        lines = [f"baseline (all 8-bit): {metric} {self.baseline:.4g}",
                 "sensitivity (score gain when promoted alone):"]  # fmt: skip
        for key, gain in sorted(self.sensitivity.items(), key=lambda kv: -kv[1]):
            mark = " *" if key in self.qtable.entries else ""
            lines.append(f"  {key:>8} {self.names[key]:28} {gain:+.4g}{mark}")
        verdict = "reached" if self.reached else "NOT reached (every candidate promoted)"
        lines.append(f"promoted {len(self.qtable.entries)} op(s) (*): {metric} {self.score:.4g}, "
                     f"target {verdict}")  # fmt: skip
        return "\n".join(lines)


def candidates(func: FuncOp) -> dict[str, Operation]:
    """Calibration key -> op, for every op the quantize pass quantizes."""
    keys = tensor_keys(func)
    return {keys[op.results[0]]: op for op in plan(func).units if op.results[0] in keys}


def search(module: ModuleOp, cal: Calibration, inputs: Sequence[Sequence[np.ndarray]],
           target: float, *, metric: str = "sqnr", promote: str = "i16",
           options: Options | None = None, only: Sequence[str] | None = None,
           function: str = "main",
           progress: Callable[[str], None] | None = None) -> SearchResult:  # fmt: skip
    """The fewest ops (by greedy sensitivity order) to promote to `promote` so that the
    integer program's `metric` on `inputs` (each a list of arguments) reaches `target`."""
    if metric not in METRICS:
        raise CalibrationError(f"unknown metric '{metric}' (one of {', '.join(METRICS)})")
    if promote not in ("i16", "float"):
        raise CalibrationError(f"promote to i16 or float, not '{promote}'")
    if not inputs:
        raise CalibrationError("no evaluation inputs")
    func = next((f for f in module.walk()
                 if isinstance(f, FuncOp) and f.sym_name.data == function), None)  # fmt: skip
    if func is None:
        raise CalibrationError(f"no function @{function}")
    options = options or Options()
    score_of = sqnr if metric == "sqnr" else top1_agreement
    float_interp = Interpreter(module)
    reference = [np.asarray(float_interp.call(function, list(args))[0]) for args in inputs]

    def evaluate(table: QTable) -> float:
        program = integer(quantized(module, cal, options, qtable=table, function=function))
        interp = Interpreter(program)
        return score_of(reference, [np.asarray(interp.call(function, list(a))[0]) for a in inputs])

    found = candidates(func)
    if only is not None:
        unknown = [k for k in only if k not in found]
        if unknown:
            raise CalibrationError(f"not quantized ops: {', '.join(unknown)}")
        found = {k: found[k] for k in only}
    baseline = evaluate(QTable())
    result = SearchResult(QTable(), baseline, baseline, baseline >= target,
                          names={k: op.name for k, op in found.items()})  # fmt: skip
    if result.reached:
        return result
    for key in found:
        result.sensitivity[key] = evaluate(QTable({key: promote})) - baseline
        if progress is not None:
            progress(f"{key} {found[key].name}: {result.sensitivity[key]:+.4g}")
    for key in sorted(result.sensitivity, key=lambda k: -result.sensitivity[k]):
        result.qtable.entries[key] = promote
        result.score = evaluate(result.qtable)
        if result.score >= target:
            result.reached = True
            break
    return result
