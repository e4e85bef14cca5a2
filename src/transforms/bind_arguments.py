"""`stablehlo-bind-arguments`: function arguments replaced by constants from an `.npz`.

JAX exports a model's parameters as arguments of `@main` (`jax.jit(f).lower(params, x)`);
quantization needs them as constants (per-channel weights, i32 biases, folded batch
norms). This pass binds them:

    qopt model.mlir -p 'stablehlo-bind-arguments{params="params.npz"}'

Each array of the file binds the argument of that name — the argument's location name,
as `qcalib` finds inputs, or `argK` for argument K — which becomes a
`stablehlo.constant` and leaves the signature. Every array must bind an argument of its
exact shape and element type; one that binds nothing (a misspelt name) is an error
rather than a silently unbound parameter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FunctionType,
    IntegerType,
    ModuleOp,
    NameLoc,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from qdialect.calibration.calibrate import argument_names
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.ir.constants import float_attr, integer_attr
from qdialect.ir.errors import OpError

PASS_NAME = "stablehlo-bind-arguments"


def _attr(array: np.ndarray, t: TensorType):
    element = t.get_element_type()
    if isinstance(element, Float32Type | Float64Type):
        return float_attr(array, element)
    if isinstance(element, IntegerType):
        return integer_attr(array.astype(np.int64), element)
    raise ValueError(f"cannot bind an argument of element type {element}")


def bind(func: FuncOp, arrays: dict[str, np.ndarray]) -> list[str]:
    """Bind `arrays` to `func`'s arguments by name; the names bound, in argument order."""
    block = func.body.block
    names = argument_names(func)
    unknown = sorted(set(arrays) - set(names))
    if unknown:
        raise ValueError(
            f"no argument named {', '.join(repr(n) for n in unknown)} in "
            f"@{func.sym_name.data} (its arguments: {', '.join(names)})"
        )
    bound = []
    for arg, name in reversed(list(zip(block.args, names, strict=True))):
        if name not in arrays:
            continue
        t = arg.type
        array = np.asarray(arrays[name])
        if not isinstance(t, TensorType) or tuple(ht.shape_of(t) or ()) != array.shape:
            raise ValueError(f"'{name}' is {list(array.shape)} {array.dtype}; the argument is {t}")
        const = sh.ConstantOp(_attr(array, t), t)
        const.location = arg.location if isinstance(arg.location, NameLoc) else const.location
        first = block.first_op
        assert first is not None
        block.insert_op_before(const, first)
        arg.replace_all_uses_with(const.output)
        block.erase_arg(arg)
        bound.append(name)
    inputs = [a.type for a in block.args]
    outputs = list(func.function_type.outputs.data)
    func.function_type = FunctionType.from_lists(inputs, outputs)
    # Argument attributes (JAX's), if any, follow the arguments that stay.
    if func.arg_attrs is not None:
        keep = [i for i, n in enumerate(names) if n not in arrays]
        func.arg_attrs = type(func.arg_attrs)([func.arg_attrs.data[i] for i in keep])
    return bound[::-1]


@dataclass(frozen=True)
class BindArguments(ModulePass):
    """Replace function arguments by constants read from an .npz (JAX's parameters)."""

    name = PASS_NAME

    params: str = ""
    function: str = "main"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = [f for f in op.walk() if isinstance(f, FuncOp) and f.sym_name.data == self.function]
        try:
            if not self.params:
                raise ValueError("needs params=FILE.npz")
            if not funcs or not funcs[0].body.blocks:
                raise ValueError(f"no function @{self.function}")
            try:
                with np.load(self.params, allow_pickle=False) as data:
                    arrays = {k: data[k] for k in data.files}
            except (OSError, ValueError) as err:
                raise ValueError(f"cannot read '{self.params}': {err}") from None
            bind(funcs[0], arrays)
        except ValueError as err:
            raise OpError(op, f"{PASS_NAME}: {err}") from None
