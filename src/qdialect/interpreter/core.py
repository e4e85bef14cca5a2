"""The interpreter: evaluates `func.func` programs op by op on numpy arrays.

Op semantics live in one module per dialect (`stablehlo_ops`, `quant_ops`,
`check_ops`), registered with `@implements`. Quantized operands of ops with
StableHLO's `dequantize_op_quantize` semantics are handled here, once: the
operands are dequantized, the float implementation runs, and results are
quantized to their types — through `qdialect.numerics`, never a local copy of
a rounding rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TupleType, UnregisteredOp
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.stablehlo_async import FutureType
from qdialect.dialects.stablehlo_composite import CompositeOp
from qdialect.interpreter import values as v
from qdialect.interpreter.values import InterpreterError
from qdialect.numerics import QuantizationError

Arrays = list[np.ndarray]
Types = list[Attribute]
OpT = TypeVar("OpT", bound=Operation)
# An op's semantics: (interpreter, op, operand arrays, result types) -> result arrays.
Impl = Callable[["Interpreter", OpT, Arrays, Types], "Arrays | None"]


@dataclass(frozen=True)
class _Entry:
    impl: Impl[Any]  # called only with ops of the types it was registered for
    quantized: str  # "dqq": dequantize-op-quantize; "storage": acts on storage values; "none"


_IMPLS: dict[type[Operation], _Entry] = {}

MAX_RANK = 32
"""Highest tensor rank the interpreter runs (numpy's limit in its 1.x releases)."""

MAX_VALUE_ELEMENTS = 2**31
"""Most elements of one value the interpreter computes (a type may declare more; the
parser accepts any count int64 holds)."""


def implements(*op_types: type[OpT], quantized: str = "dqq") -> Callable[[Impl[OpT]], Impl[OpT]]:
    """Register `impl` as the semantics of `op_types`.

    The implementation's `op` parameter is typed with the registered class (or, for
    several, their union): `@implements(sh.AddOp)` then `def _add(interp, op: sh.AddOp,
    args, types)`, and the type checker holds the two together.

    quantized="dqq": quantized operands are dequantized and results quantized
    around a float implementation (StableHLO's dequantize_op_quantize);
    "storage": the implementation moves storage integers as they are (data
    movement ops); "none": the implementation handles quantized types itself.
    """

    def register(impl: Impl[OpT]) -> Impl[OpT]:
        for t in op_types:
            _IMPLS[t] = _Entry(impl, quantized)
        return impl

    return register


class OpFailure(InterpreterError):
    """An error raised while evaluating a specific op (reported at its location)."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


@dataclass
class CheckFailure:
    function: str
    op: Operation
    message: str


@dataclass
class Interpreter:
    """Evaluates functions of one module; collects check failures and (optionally) every value."""

    module: ModuleOp
    dump: dict[str, np.ndarray] | None = None
    check_failures: list[CheckFailure] = field(default_factory=list)
    _functions: dict[str, FuncOp] = field(default_factory=dict)
    _stack: list[str] = field(default_factory=list)
    _liveness: dict = field(default_factory=dict)
    _scopes: list[dict] = field(default_factory=list)  # environments of the blocks being run
    process: Any = None  # the collectives' ProcessContext under interpreter.run_parallel
    probes: Any = None  # instrumentation_ops.ProbeLog: what interpreter.probe recorded
    on_result: Callable[[SSAValue, np.ndarray], None] | None = None
    """Called with every op result as it is computed (a calibrator's observers): unlike
    `dump`, nothing is kept, so a large model streams through."""

    def __post_init__(self) -> None:
        self._functions = {f.sym_name.data: f for f in self.module.walk() if isinstance(f, FuncOp)}
        # Make sure every dialect's op semantics are registered.
        from qdialect.interpreter import (  # noqa: F401
            check_ops,
            chlo_ops,
            instrumentation_ops,
            quant_ops,
            stablehlo_async_ops,
            stablehlo_batch_norm_ops,
            stablehlo_collective_ops,
            stablehlo_control_ops,
            stablehlo_data_ops,
            stablehlo_linalg_ops,
            stablehlo_numeric_ops,
            stablehlo_ops,
            stablehlo_token_ops,
            tosa_ops,
        )

        if self.probes is None:
            self.probes = instrumentation_ops.ProbeLog()

    @property
    def functions(self) -> dict[str, FuncOp]:
        return self._functions

    # ---- calls ----------------------------------------------------------------

    def call(self, name: str, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        func = self._functions.get(name)
        if func is None:
            raise InterpreterError(
                f"no function named @{name} (have: {', '.join('@' + n for n in self._functions)})"
            )
        if not func.body.blocks:
            raise InterpreterError(f"@{name} is a declaration without a body")
        block = func.body.blocks.first
        assert block is not None
        if len(args) != len(block.args):
            raise InterpreterError(f"@{name} takes {len(block.args)} arguments, got {len(args)}")
        checked = [
            v.check_argument(np.asarray(a), arg.type, f"argument #{i} of @{name}")
            for i, (a, arg) in enumerate(zip(args, block.args, strict=True))
        ]
        if len(self._stack) > 256:
            raise InterpreterError(f"call depth exceeds 256 at @{name} (recursion?)")
        self._stack.append(name)
        try:
            return self.run_block(block, checked)
        finally:
            self._stack.pop()

    def run_region(self, region: Region, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        block = region.blocks.first
        if block is None:
            raise InterpreterError("empty region")
        return self.run_block(block, args)

    def run_block(self, block: Block, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        if len(block.args) != len(args):
            raise InterpreterError(
                f"a region taking {len(block.args)} arguments is called with {len(args)}"
            )
        env: dict = dict(zip(block.args, args, strict=True))
        self._scopes.append(env)
        try:
            return self._run_ops(block, env)
        finally:
            self._scopes.pop()

    def _value(self, value, env: dict) -> np.ndarray:
        """`value` from the running block, or (a region reading a value of an enclosing
        block, which dominance allows) from the nearest enclosing block being run."""
        if value in env:
            return env[value]
        for scope in reversed(self._scopes):
            if value in scope:
                return scope[value]
        raise InterpreterError("an operand is used before it is computed (verify the module first)")

    def _run_ops(self, block: Block, env: dict) -> list[np.ndarray]:
        frees = self._frees(block)
        for index, op in enumerate(block.ops):
            if isinstance(op, ReturnOp) or op.name in ("stablehlo.return", "tosa.yield"):
                return [self._value(o, env) for o in op.operands]
            operands = [self._value(o, env) for o in op.operands]
            results = self.eval_op(op, operands)
            for result, value in zip(op.results, results, strict=True):
                env[result] = value
                if self.dump is not None:
                    self._record(result, value)
                if self.on_result is not None:
                    self.on_result(result, value)
            for value in frees[index]:  # past its last use: let numpy free it
                env.pop(value, None)
        raise InterpreterError("block has no terminator")

    def _frees(self, block: Block) -> list[list]:
        """For each op of `block`, the values it reads last (nested regions' reads count as
        their op's) and the results nothing reads: a large model's intermediates are
        freed as it runs instead of all held to the end."""
        cached = self._liveness.get(block)
        if cached is not None:
            return cached
        ops = list(block.ops)
        last: dict = {}
        for index, op in enumerate(ops):
            for inner in op.walk():
                for operand in inner.operands:
                    last[operand] = index
        frees: list[list] = [[] for _ in ops]
        for index, op in enumerate(ops):
            frees[index].extend(r for r in op.results if r not in last)
        for value, index in last.items():
            frees[index].append(value)
        self._liveness[block] = frees
        return frees

    # ---- ops ------------------------------------------------------------------

    def eval_op(self, op: Operation, operands: list[np.ndarray]) -> list[np.ndarray]:
        if isinstance(op, CallOp):
            return self.call(op.callee.root_reference.data, operands)
        if isinstance(op, CompositeOp):  # its meaning is its decomposition
            return self.call(op.decomposition.root_reference.data, operands)
        entry = _IMPLS.get(type(op))
        if entry is None:
            name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
            raise OpFailure(op, f"the interpreter does not support '{name}'")
        result_types = [r.type for r in op.results]
        operand_types = [o.type for o in op.operands]
        for t in (*operand_types, *result_types):
            shape = ht.shape_of(t) or ()
            if len(shape) > MAX_RANK:
                raise OpFailure(
                    op, f"the interpreter runs tensors of rank at most {MAX_RANK}, not {t}"
                )
            if math.prod(max(d, 0) for d in shape) > MAX_VALUE_ELEMENTS:
                raise OpFailure(
                    op, f"the interpreter holds at most 2^31 elements per value, not {t}"
                )
        quantized = any(ht.is_quantized(t) for t in (*operand_types, *result_types))
        try:
            with np.errstate(all="ignore"):
                if quantized and entry.quantized == "dqq":
                    floats = [
                        v.dequantize(a, t) for a, t in zip(operands, operand_types, strict=True)
                    ]
                    float_types = [v.expressed_type(t) for t in result_types]
                    out = entry.impl(self, op, floats, float_types) or []
                    results = [v.quantize(r, t) for r, t in zip(out, result_types, strict=True)]
                else:
                    results = entry.impl(self, op, operands, result_types) or []
        except OpFailure:
            raise
        except InterpreterError as err:
            raise OpFailure(op, str(err)) from None
        except QuantizationError as err:  # a spec REQUIRE (e.g. apply_scale's ranges) failed
            raise OpFailure(op, f"'{op.name}': {err}") from err
        except MemoryError:
            raise OpFailure(op, f"'{op.name}': out of memory computing its results") from None
        if len(results) != len(op.results):
            raise OpFailure(
                op,
                f"internal: '{op.name}' produced {len(results)} values for {len(op.results)} results",
            )
        return [
            r if isinstance(t, TupleType | FutureType) else v.as_result(r, t)  # Python tuples
            for r, t in zip(results, result_types, strict=True)
        ]

    def record_check(self, op: Operation, message: str | None) -> None:
        if message is not None:
            self.check_failures.append(
                CheckFailure(self._stack[-1] if self._stack else "?", op, message)
            )

    def _record(self, value, array: np.ndarray) -> None:
        assert self.dump is not None
        func = self._stack[-1] if self._stack else "?"
        hint = value.name_hint or f"v{len(self.dump)}"
        key = f"{func}/{hint}"
        if key in self.dump:
            n = 1
            while f"{key}#{n}" in self.dump:
                n += 1
            key = f"{key}#{n}"
        self.dump[key] = array
