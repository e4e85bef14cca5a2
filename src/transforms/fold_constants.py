"""`stablehlo-fold-constants`: StableHLO ops whose operands are all constants replaced by
the constant they compute, evaluated by the reference interpreter — the one definition
of what each op means. Integer programs compute exactly what they did; a float matrix
product reading a folded weight can differ in its last bits, because the interpreter's
(NumPy's) summation order depends on whether the weight is a transposed view or a
contiguous array (measured on the float zoo: within 6·10⁻⁷ of the largest output).

Importers and rewrites leave such ops behind (a weight transposed or reshaped into the
layout a layer wants, a scale computed from two constants); the quantize pass and the
lowerings want the weights as constants. Folded: pure `stablehlo.*` ops (regions allowed,
e.g. a `reduce` of a constant), with static shapes, on integer or float tensors (not
quantized ones or booleans), whose result holds at most `max-elements` elements and no
more than its largest operand unless it is small (a `broadcast_in_dim` of a per-channel
vector to a whole feature map stays a broadcast: folding it would store the map).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.traits import ConstantLike, is_side_effect_free

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.interpreter import Interpreter, InterpreterError, OpFailure
from qdialect.ir.constants import erase_if_unused, float_attr, integer_attr
from qdialect.ir.errors import OpError

PASS_NAME = "stablehlo-fold-constants"
SMALL = 1024
"""A result this small is folded even when it has more elements than its operands."""


def _elements(t) -> int | None:
    shape = ht.shape_of(t)
    if shape is None or any(d < 0 for d in shape):
        return None
    return int(np.prod(shape, dtype=np.int64))


def _plain(t) -> bool:
    """A static tensor of float32/64 or 8- to 64-bit integers: what a folded constant holds."""
    if not isinstance(t, TensorType) or ht.is_quantized(t) or _elements(t) is None:
        return False
    e = ht.element_type(t)
    return isinstance(e, Float32Type | Float64Type) or (
        isinstance(e, IntegerType) and e.width.data in (8, 16, 32, 64)
    )


def foldable(op: Operation, max_elements: int) -> bool:
    if (
        not op.name.startswith("stablehlo.")
        or op.has_trait(ConstantLike)
        or not is_side_effect_free(op)
        or len(op.results) != 1
        or not op.operands
        or not all(isinstance(v.owner, Operation) and v.owner.has_trait(ConstantLike)
                   for v in op.operands)
        or not all(_plain(v.type) for v in (*op.operands, op.results[0]))
    ):  # fmt: skip
        return False
    size = _elements(op.results[0].type)
    largest = max(_elements(v.type) or 0 for v in op.operands)
    return size is not None and size <= max_elements and (size <= largest or size <= SMALL)


def _constant(array: np.ndarray, t: TensorType) -> sh.ConstantOp:
    e = ht.element_type(t)
    if isinstance(e, Float32Type | Float64Type):
        attr = float_attr(np.asarray(array).reshape(ht.shape_of(t)), e)
    else:
        assert isinstance(e, IntegerType)
        attr = integer_attr(np.asarray(array).astype(np.int64).reshape(ht.shape_of(t)), e)
    return sh.ConstantOp(attr, t)


@dataclass(frozen=True)
class FoldConstants(ModulePass):
    """Replace StableHLO ops on constants by the constants they compute."""

    name = PASS_NAME

    max_elements: int = 1 << 24
    """Fold only results of at most this many elements."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        interp = Interpreter(op)
        for candidate in list(op.walk()):  # program order: a chain folds link by link
            if candidate.parent is None or not foldable(candidate, self.max_elements):
                continue
            try:
                operands = [interp.eval_op(v.owner, [])[0] for v in candidate.operands]  # type: ignore[arg-type]
                (value,) = interp.eval_op(candidate, operands)
            except (OpFailure, InterpreterError) as err:
                raise OpError(candidate, f"{PASS_NAME}: cannot evaluate: {err}") from None
            result = candidate.results[0]
            assert isinstance(result.type, TensorType)
            const = _constant(value, result.type)
            const.location = candidate.location
            block = candidate.parent_block()
            assert block is not None
            block.insert_op_before(const, candidate)
            result.replace_all_uses_with(const.output)
            operands_before = list(candidate.operands)
            block.erase_op(candidate)
            for v in operands_before:
                erase_if_unused(v)
