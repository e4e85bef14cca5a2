"""Semantics of `interpreter.probe` and `interpreter.print`, and the values they record.

A probe returns its operand and appends the value to the interpreter's `ProbeLog` under
its `probe_id`, once per run of the op (a probe in a loop body records every
iteration); `check.expect_serialized_eq` reads the log. With a directory (`qrun
--probe-output-dir DIR`), each recording is also written as upstream's interpreter
writes it: `DIR/probe<N>.npy` (N counting recordings from 1, so no probe id needs to be
a valid file name; bf16 and narrower floats as their bit patterns) and a line
`probe_id,type,path` appended to `DIR/index.csv`, which each run starts afresh.

`interpreter.print` writes `%0 = ` and the value in the layout of upstream's
`Tensor::print`: the type, then the elements as nested bracketed rows, two spaces of
indent per level (`tensor<2xi32> {` / `  [0, 1]` / `}`; a scalar is `tensor<i32> {1}`),
floats as MLIR prints them. The name is what MLIR prints for the value on its own: its
defining op numbered alone, so `%0` (`%0:2` for a result of a two-result op); a block
argument prints as `%argN`.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ComplexType, IntegerType
from xdsl.ir import Attribute, BlockArgument, OpResult, SSAValue

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import interpreter as interp_dialect
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.ir.float_format import FLOAT_FORMATS, format_mlir_float


@dataclass
class ProbeLog:
    """The values `interpreter.probe` recorded, by probe id, in the order they ran."""

    directory: Path | None = None
    values: dict[str, list[np.ndarray]] = field(default_factory=dict)
    _written: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, probe_id: str, value: np.ndarray, t: Attribute) -> None:
        with self._lock:  # processes of interpreter.run_parallel share one log
            self.values.setdefault(probe_id, []).append(np.array(value, copy=True))
            if self.directory is None:
                return
            self._written += 1
            path = self.directory / f"probe{self._written}.npy"
            np.save(path, _numpy_storable(value))
            with open(self.directory / "index.csv", "a", encoding="utf-8") as index:
                index.write(f"{probe_id},{t},{path}\n")

    def forget(self) -> None:
        """Drop the values recorded so far (a new chunk starts); written files stay."""
        with self._lock:
            self.values.clear()

    def get(self, probe_id: str, iteration: int) -> np.ndarray | None:
        recorded = self.values.get(probe_id, [])
        return recorded[iteration] if 0 <= iteration < len(recorded) else None


def _numpy_storable(value: np.ndarray) -> np.ndarray:
    """bf16 and the float8/6/4 types (ml_dtypes, which NumPy files cannot name) as their
    bit patterns, as upstream's interpreter writes bf16; other types as they are."""
    if value.dtype.kind == "V" or value.dtype.name.startswith(
        ("bfloat", "float8", "float6", "float4")
    ):
        return value.view(np.dtype(f"u{value.dtype.itemsize}"))
    return value


@implements(interp_dialect.ProbeOp, quantized="none")
def _probe(interp: Interpreter, op: interp_dialect.ProbeOp, args: Arrays, types: Types) -> Arrays:
    interp.probes.record(op.probe_id.data, args[0], op.operand.type)
    return [args[0]]


_PRINTING = threading.Lock()


@implements(interp_dialect.PrintOp, quantized="none")
def _print(interp: Interpreter, op: interp_dialect.PrintOp, args: Arrays, types: Types) -> None:
    text = value_name(op.operand) + " = " + tensor_text(args[0], op.operand.type)
    with _PRINTING:  # one value at a time, whole, when processes run in parallel
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def value_name(value: SSAValue) -> str:
    if isinstance(value, OpResult):
        count = len(value.op.results)
        return "%0" if count == 1 else f"%0:{count}"
    assert isinstance(value, BlockArgument)
    return f"%arg{value.index}"


def element_text(x: object, element: Attribute) -> str:
    if isinstance(element, IntegerType) and element.width.data == 1:
        return "true" if bool(x) else "false"
    if isinstance(element, ComplexType):
        part = element.element_type
        z = complex(x)  # type: ignore[arg-type]
        return f"[{element_text(z.real, part)}, {element_text(z.imag, part)}]"
    name = str(element)
    if name in FLOAT_FORMATS:
        return format_mlir_float(float(x), name)  # type: ignore[arg-type]
    return str(int(x))  # type: ignore[call-overload]


def tensor_text(array: np.ndarray, t: Attribute) -> str:
    """The value as upstream's `Tensor::print` lays it out (quantized: storage values)."""
    element = ht.element_type(t)
    if ht.is_quantized(t):
        quant = ht.quant_type(t)
        assert quant is not None
        element = quant.storage_type
    shape = array.shape
    parts: list[str] = [f"{t} {{"]

    def newline(indent: int) -> None:
        parts.append("\n" + "  " * indent)

    def last(index: list[int]) -> bool:
        return not index or index[-1] == shape[len(index) - 1] - 1

    def walk(index: list[int], indent: int) -> None:
        if len(index) == len(shape):
            parts.append(element_text(array[tuple(index)], element))
            if not last(index):
                parts.append(", ")
            return
        newline(indent)
        parts.append("[")
        for i in range(shape[len(index)]):
            walk([*index, i], indent + 1)
        parts.append("]")
        if not last(index):
            parts.append(",")
        else:
            newline(indent - 1)

    walk([], 1)
    parts.append("}")
    return "".join(parts)
