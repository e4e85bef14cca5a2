"""Run a float program over calibration batches and record every float tensor's
statistics (`observers.TensorStats`), streaming: one batch in memory at a time, the
interpreter's intermediates freed as it goes, each tensor's record of fixed size.

Tensors are named by position — `@main` op i, result j, the key `"i:j"` — with the op's
name, its shape and its source location (the model's tensor name) stored beside, so a
later pass can check the file belongs to the program it reads (`check_against`).
Arguments are `"arg:k"`.

The file (JSON, `FORMAT` 1; docs/quantization.md):

    {"format": "qdialect-calibration", "version": 1, "function": "main",
     "batches": 10,
     "tensors": {"3:0": {"op": "stablehlo.convolution", "shape": [1, 8, 32, 32],
                         "name": "conv1/Conv_output_0", "count": ..., "min": ...,
                         "max": ..., "moving_average_min": ..., "moving_average_max": ...,
                         "averaging_constant": 0.01,
                         "histogram": {"radius": R, "bins": 4096,
                                       "nonzero": [...], "counts": [...]}}, ...}}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np
from xdsl.dialects.builtin import Float32Type, Float64Type, ModuleOp, NameLoc
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.traits import ConstantLike

from qdialect.calibration.observers import TensorStats
from qdialect.dialects import hlo_types as ht
from qdialect.interpreter import Interpreter

FORMAT = "qdialect-calibration"
VERSION = 1


class CalibrationError(ValueError):
    """Bad calibration data or file (the message says which)."""


def _is_float(value: SSAValue) -> bool:
    return isinstance(ht.element_type(value.type), Float32Type | Float64Type)


def tensor_keys(func: FuncOp) -> dict[SSAValue, str]:
    """Every float value `func`'s body computes: arguments as "arg:k", op results as
    "i:j" (constants are not calibrated: their values are known)."""
    keys: dict[SSAValue, str] = {}
    block = func.body.block
    for k, arg in enumerate(block.args):
        if _is_float(arg):
            keys[arg] = f"arg:{k}"
    for i, op in enumerate(block.ops):
        if op.has_trait(ConstantLike):  # weights and constants: not activations
            continue
        for j, r in enumerate(op.results):
            if _is_float(r):
                keys[r] = f"{i}:{j}"
    return keys


def _describe(value: SSAValue) -> dict:
    owner = value.owner
    loc = owner.location if isinstance(owner, Operation) else getattr(value, "location", None)
    return {
        "op": owner.name if isinstance(owner, Operation) else "argument",
        "shape": list(ht.shape_of(value.type) or ()),
        "name": loc.desc.data if isinstance(loc, NameLoc) else "",
    }


@dataclass
class Calibration:
    """Statistics of one function's float tensors over the batches seen so far."""

    function: str
    stats: dict[str, TensorStats] = field(default_factory=dict)
    info: dict[str, dict] = field(default_factory=dict)
    batches: int = 0

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "function": self.function,
            "batches": self.batches,
            "tensors": {k: {**self.info[k], **s.to_json()} for k, s in self.stats.items()},
        }

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json()))

    @classmethod
    def load(cls, path: Path) -> Calibration:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as err:
            raise CalibrationError(f"cannot read calibration file '{path}': {err}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CalibrationError(f"'{path}' is not a qdialect calibration file")
        if data.get("version") != VERSION:
            raise CalibrationError(
                f"'{path}' is calibration format version {data.get('version')}; "
                f"this qdialect reads version {VERSION}"
            )
        try:
            out = cls(str(data["function"]), batches=int(data["batches"]))
            for key, record in data["tensors"].items():
                out.info[key] = {k: record[k] for k in ("op", "shape", "name")}
                out.stats[key] = TensorStats.from_json(record)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise CalibrationError(
                f"'{path}' is a damaged calibration file ({type(err).__name__}: {err})"
            ) from None
        return out

    def check_against(self, func: FuncOp) -> dict[SSAValue, str]:
        """The keys of `func`'s float values, once every recorded tensor is found there
        with the op and shape it was recorded with: a file calibrated on another program
        (or on this one before a rewrite) is an error, not silently wrong ranges."""
        keys = tensor_keys(func)
        by_key = {k: v for v, k in keys.items()}
        for key, info in self.info.items():
            value = by_key.get(key)
            if value is None or {**_describe(value), "name": info["name"]} != info:
                raise CalibrationError(
                    f"the calibration file does not match @{func.sym_name.data}: tensor {key} "
                    f"was {info['op']} {info['shape']}"
                    + ("" if value is None else ", here {op} {shape}".format(**_describe(value)))
                    + " (calibrate the program this pass runs on)"
                )
        return keys


def calibrate(
    module: ModuleOp,
    batches: Iterable[list[np.ndarray]],
    function: str = "main",
    progress: Callable[[int], None] | None = None,
) -> Calibration:
    """Run `function` on each batch (its arguments, in order) and fold every float
    tensor into its statistics."""
    interp = Interpreter(module)
    func = interp.functions.get(function)
    if func is None or not func.body.blocks:
        raise CalibrationError(f"no function @{function} to calibrate")
    keys = tensor_keys(func)
    cal = Calibration(function)
    for value, key in keys.items():
        cal.stats[key] = TensorStats()
        cal.info[key] = _describe(value)

    def observe(value: SSAValue, array: np.ndarray) -> None:
        key = keys.get(value)
        if key is not None:
            cal.stats[key].observe(array)

    interp.on_result = observe
    for args in batches:
        for arg, a in zip(func.body.block.args, args, strict=False):
            if arg in keys:
                cal.stats[keys[arg]].observe(a)
        interp.call(function, args)
        cal.batches += 1
        if progress is not None:
            progress(cal.batches)
    if cal.batches == 0:
        raise CalibrationError("no calibration batches")
    return cal


def read_batches(source: Path, names: list[str], shapes: list[tuple[int, ...]],
                 dtypes: list[np.dtype]) -> tuple[int, Iterator[list[np.ndarray]]]:  # fmt: skip
    """(number of batches, the batches) of a `.npz` file or a directory of them, one file
    open at a time. Arrays are found by the function's argument names (`names`; `arg0`,
    `arg1`... also work); an array of the argument's shape is one batch, one with an
    extra leading axis is as many batches as that axis is long."""
    source = Path(source)
    if source.is_dir():
        files = sorted(source.glob("*.npz"))
        if not files:
            raise CalibrationError(f"no .npz files in '{source}'")
    elif source.is_file():
        files = [source]
    else:
        raise CalibrationError(f"no calibration data at '{source}'")

    def arrays(path: Path) -> list[np.ndarray]:
        try:
            data = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as err:
            raise CalibrationError(f"cannot read '{path}': {err}") from None
        out = []
        for k, (name, shape, dtype) in enumerate(zip(names, shapes, dtypes, strict=True)):
            key = name if name in data.files else f"arg{k}"
            if key not in data.files:
                raise CalibrationError(
                    f"'{path}' has no array for input '{name}' (has: {', '.join(data.files)})"
                )
            a = data[key]
            if a.shape == shape:
                a = a[None]
            elif a.shape[1:] != shape:
                raise CalibrationError(
                    f"'{path}': input '{name}' is {list(a.shape)}; the program takes "
                    f"{list(shape)} (or a stack of them)"
                )
            out.append(a.astype(dtype, copy=False))
        if len({a.shape[0] for a in out}) > 1:
            raise CalibrationError(f"'{path}': the inputs hold different numbers of batches")
        return out

    counts = []
    for path in files:  # count first (headers only), so the progress bar knows its end
        with np.load(path, allow_pickle=False) as data:
            key = names[0] if names[0] in data.files else "arg0"
            if key not in data.files:
                raise CalibrationError(f"'{path}' has no array for input '{names[0]}'")
            shape = data[key].shape
        counts.append(1 if tuple(shape) == shapes[0] else shape[0])

    def generate() -> Iterator[list[np.ndarray]]:
        for path in files:
            stacked = arrays(path)
            for b in range(stacked[0].shape[0]):
                yield [a[b] for a in stacked]

    return sum(counts), generate()


def argument_names(func: FuncOp) -> list[str]:
    """Each argument's name: its location's (the model's input name), else `argK`."""
    return [
        a.location.desc.data if isinstance(a.location, NameLoc) else f"arg{k}"
        for k, a in enumerate(func.body.block.args)
    ]


def function_batches(func: FuncOp, data: Path) -> tuple[int, Iterator[list[np.ndarray]]]:
    """`read_batches` for `func`'s arguments (found by name, or as arg0, arg1, ...)."""
    from qdialect.interpreter.values import dtype_of

    block = func.body.block
    names = argument_names(func)
    shapes = [tuple(ht.shape_of(a.type) or ()) for a in block.args]
    dtypes = [dtype_of(a.type) for a in block.args]
    return read_batches(Path(data), names, shapes, dtypes)


def progress_bar(total: int, stream: TextIO = sys.stderr,
                 unit: str = "batches") -> Callable[[int], None]:  # fmt: skip
    """A one-line text bar on `stream`: `[#####.....] 5/10 batches`."""

    def show(done: int) -> None:
        filled = 30 * done // max(total, 1)
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {unit}")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return show
