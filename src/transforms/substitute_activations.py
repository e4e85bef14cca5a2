"""`stablehlo-substitute-activations{silu=... gelu=... hard-swish=... report=...}`: an opt-in
rewrite of smooth activations into ones an int8 accelerator runs well, reporting each
change.

Accelerator ports of MobileNetV3, EfficientNet or a transformer replace SiLU, GELU and
hard-swish by ReLU6 (or ReLU) and fine-tune: those activations cost a logistic or erf
polynomial and a product per element, and quantize each of their steps. This pass makes
that change on a float program and says what it did, so the accuracy cost can be measured
before retraining (`qprecision`, the calibration workflow).

Recognition is by what a subgraph computes, not by its spelling: a connected set of
elementwise float ops whose only varying input is one value x (every other operand a
scalar or splat constant) is a function f(x); it is evaluated on 161 points of [-8, 8]
and named SiLU (x·sigmoid(x)), GELU (the erf form or the tanh form) or hard-swish
(x·relu6(x + 3)/6) when it agrees with one to 10⁻⁴. So ONNX's, TFLite's and JAX's
spellings (and their erf polynomials) are all found, and a look-alike that computes
something else is not.

Options, each `keep` (the default), `relu6`, `relu` or `hard-swish` (not for hard-swish
itself): `silu`, `gelu` (both forms), `hard-swish`. `report=path` writes the changes as
JSON (location, activation, replacement, the largest |difference| on [-8, 8]); without
it, one line per change goes to stderr.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, NameLoc, TensorType, f32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from qdialect.dialects import stablehlo as sh
from qdialect.ir.constants import constant_array, erase_if_unused, float_attr
from qdialect.ir.errors import OpError

PASS_NAME = "stablehlo-substitute-activations"
_GRID = np.linspace(-8.0, 8.0, 161)
_TOLERANCE = 1e-4

_UNARY: dict[type[Operation], Callable[[np.ndarray], np.ndarray]] = {
    sh.NegateOp: np.negative, sh.AbsOp: np.abs, sh.ExpOp: np.exp, sh.LogOp: np.log,
    sh.TanhOp: np.tanh, sh.SqrtOp: np.sqrt, sh.SignOp: np.sign,
    sh.LogisticOp: lambda v: 1 / (1 + np.exp(-v)), sh.RsqrtOp: lambda v: 1 / np.sqrt(v),
}  # fmt: skip
_BINARY: dict[type[Operation], Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    sh.AddOp: np.add, sh.SubtractOp: np.subtract, sh.MultiplyOp: np.multiply,
    sh.DivideOp: np.divide, sh.MaximumOp: np.maximum, sh.MinimumOp: np.minimum,
    sh.PowerOp: np.power,
}  # fmt: skip


def _sigmoid(v: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-v))


def _erf(v: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf)(v)


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "silu": lambda v: v * _sigmoid(v),
    "gelu": lambda v: 0.5 * v * (1 + _erf(v / math.sqrt(2))),
    "gelu-tanh": lambda v: 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v**3))),
    "hard-swish": lambda v: v * np.clip(v + 3, 0, 6) / 6,
}
REPLACEMENTS = ("keep", "relu6", "relu", "hard-swish")
_REFERENCE = {"relu6": lambda v: np.clip(v, 0, 6), "relu": lambda v: np.maximum(v, 0),
              "hard-swish": ACTIVATIONS["hard-swish"]}  # fmt: skip


def _scalar(v: SSAValue) -> float | None:
    """The value of a scalar or splat float constant (or a broadcast of one)."""
    owner = v.owner
    if isinstance(owner, sh.BroadcastInDimOp):
        return _scalar(owner.operand)
    array = constant_array(v, integer=False)
    if array is None or array.size == 0 or not np.all(array == array.flat[0]):
        return None
    return float(array.flat[0])


def _is_float_elementwise(op: Operation) -> bool:
    if type(op) not in _UNARY and type(op) not in _BINARY and not isinstance(op, sh.ClampOp):
        return False
    t = op.results[0].type
    return isinstance(t, TensorType) and t.get_element_type() == f32


@dataclass
class Region:
    """Elementwise ops computing `root` from the one varying value `x`."""

    x: SSAValue
    root: Operation
    ops: list[Operation]

    def evaluate(self, grid: np.ndarray) -> np.ndarray:
        values: dict[SSAValue, np.ndarray] = {self.x: grid}

        def value(v: SSAValue) -> np.ndarray:
            if v in values:
                return values[v]
            s = _scalar(v)
            assert s is not None
            return np.full_like(grid, s)

        with np.errstate(all="ignore"):
            for op in self.ops:
                args = [value(v) for v in op.operands]
                if isinstance(op, sh.ClampOp):
                    out = np.minimum(np.maximum(args[1], args[0]), args[2])
                elif type(op) in _UNARY:
                    out = _UNARY[type(op)](args[0])
                else:
                    out = _BINARY[type(op)](args[0], args[1])
                values[op.results[0]] = out
        return values[self.root.results[0]]


def region_from(root: Operation, x: SSAValue) -> Region | None:
    """The ops between `x` and `root`, if every operand on the way is `x`, a splat constant
    or made inside, and nothing made inside but `root`'s result is read outside."""
    members: list[Operation] = []
    seen: set[int] = set()

    def visit(v: SSAValue) -> bool:
        if v is x or _scalar(v) is not None:
            return True
        op = v.owner
        if not isinstance(op, Operation) or not _is_float_elementwise(op):
            return False
        if id(op) in seen:
            return True
        seen.add(id(op))
        if not all(visit(o) for o in op.operands):
            return False
        members.append(op)
        return True

    if not visit(root.results[0]) or not members:
        return None
    inside = {id(op) for op in members}
    for op in members:
        if op is root:
            continue
        if any(id(u.operation) not in inside for u in op.results[0].uses):
            return None
    if len(members) < 2:
        return None
    return Region(x, root, members)


def _candidates(root: Operation) -> list[SSAValue]:
    """Values upstream of `root` through float elementwise ops: the possible x's, nearest
    last (the largest region is tried first)."""
    found: list[SSAValue] = []
    stack = list(root.operands)
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        if id(v) in seen or _scalar(v) is not None:
            continue
        seen.add(id(v))
        found.append(v)
        owner = v.owner
        if isinstance(owner, Operation) and _is_float_elementwise(owner):
            stack.extend(owner.operands)
    return list(reversed(found))


def recognise(region: Region) -> str | None:
    got = region.evaluate(_GRID)
    for name, fn in ACTIVATIONS.items():
        if np.all(np.isfinite(got)) and np.abs(got - fn(_GRID)).max() <= _TOLERANCE:
            return name
    return None


def _replacement(x: SSAValue, kind: str, before: Operation) -> SSAValue:
    t = x.type
    assert isinstance(t, TensorType)

    def splat(value: float) -> SSAValue:
        c = sh.ConstantOp(float_attr(np.array(value, np.float32), f32))
        b = sh.BroadcastInDimOp.create(
            operands=[c.results[0]], result_types=[t],
            properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, [])},
        )  # fmt: skip
        for op in (c, b):
            _insert(op, before)
        return b.results[0]

    def emit(op: Operation) -> SSAValue:
        _insert(op, before)
        return op.results[0]

    if kind == "relu":
        return emit(sh.MaximumOp.create(operands=[x, splat(0.0)], result_types=[t]))
    if kind == "relu6":
        return emit(sh.ClampOp.create(operands=[splat(0.0), x, splat(6.0)], result_types=[t]))
    shifted = emit(sh.AddOp.create(operands=[x, splat(3.0)], result_types=[t]))
    relu6 = emit(sh.ClampOp.create(operands=[splat(0.0), shifted, splat(6.0)], result_types=[t]))
    product = emit(sh.MultiplyOp.create(operands=[x, relu6], result_types=[t]))
    return emit(sh.DivideOp.create(operands=[product, splat(6.0)], result_types=[t]))


def _insert(op: Operation, before: Operation) -> None:
    block = before.parent_block()
    assert block is not None
    op.location = before.location
    block.insert_op_before(op, before)


def _location(op: Operation) -> str:
    """The source model's name for the activation's output, else the location's text."""
    return op.location.desc.data if isinstance(op.location, NameLoc) else str(op.location)


def substitute(module: ModuleOp, choices: dict[str, str]) -> list[dict]:
    """Replace the recognised activations `choices` maps to a replacement; the changes."""
    changes: list[dict] = []
    claimed: set[int] = set()
    for root in reversed(list(module.walk())):
        if id(root) in claimed or root.parent_block() is None:
            continue
        if not _is_float_elementwise(root):
            continue
        for x in _candidates(root):
            region = region_from(root, x)
            if region is None:
                continue
            kind = recognise(region)
            if kind is None:
                continue
            claimed.update(id(op) for op in region.ops)
            choice = choices.get("gelu" if kind == "gelu-tanh" else kind, "keep")
            if choice == "keep" or choice == kind:
                break
            new = _replacement(x, choice, root)
            diff = float(np.abs(region.evaluate(_GRID) - _REFERENCE[choice](_GRID)).max())
            changes.append({"location": _location(root), "activation": kind,
                            "replacement": choice, "ops_removed": len(region.ops),
                            "max_abs_difference_on_-8_8": round(diff, 6)})  # fmt: skip
            root.results[0].replace_all_uses_with(new)
            for op in reversed(region.ops):
                operands = list(op.operands)
                block = op.parent_block()
                if block is not None and not op.results[0].uses:
                    block.erase_op(op)
                    for v in operands:
                        erase_if_unused(v)
                        owner = v.owner
                        if isinstance(owner, sh.BroadcastInDimOp) and not owner.result.uses:
                            inner = owner.operand
                            owner_block = owner.parent_block()
                            assert owner_block is not None
                            owner_block.erase_op(owner)
                            erase_if_unused(inner)
            break
    return changes


@dataclass(frozen=True)
class SubstituteActivations(ModulePass):
    """Replace SiLU, GELU and hard-swish by ReLU6, ReLU or hard-swish, reporting each."""

    name = PASS_NAME

    silu: str = "keep"
    gelu: str = "keep"
    hard_swish: str = "keep"
    report: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        choices = {"silu": self.silu, "gelu": self.gelu, "hard-swish": self.hard_swish}
        for key, value in choices.items():
            if value not in REPLACEMENTS or (key == "hard-swish" and value == "hard-swish"):
                allowed = [r for r in REPLACEMENTS if key != "hard-swish" or r != "hard-swish"]
                raise OpError(op, f"{PASS_NAME}: {key}={value} is not one of {', '.join(allowed)}")
        changes = substitute(op, choices)
        if self.report:
            Path(self.report).write_text(json.dumps(changes, indent=1) + "\n")
        else:
            for c in changes:
                sys.stderr.write(
                    f"{PASS_NAME}: {c['location']}: {c['activation']} -> {c['replacement']} "
                    f"({c['ops_removed']} ops; max |difference| on [-8, 8] "
                    f"{c['max_abs_difference_on_-8_8']:g})\n"
                )
