"""`stablehlo-fold-batch-norm`: per-channel scales and offsets after a float convolution
or matrix product folded into its weights and one bias.

An inference BatchNormalization is y = x * k + c per channel (k = gamma / sqrt(var +
eps), c = beta - mean * k); importers write it, and a layer's own bias, as multiplies
and adds by per-channel constants after the convolution:

    %y = stablehlo.convolution(%x, %w)          %y = stablehlo.convolution(%x, %w')
    %b = broadcast_in_dim %bias, dims = [1]       %c = broadcast_in_dim %c', dims = [1]
    %1 = stablehlo.add %y, %b               =>    %2 = stablehlo.add %y, %c
    %k = broadcast_in_dim %scale, dims = [1]
    %2 = stablehlo.multiply %1, %k  ...

with w'[o] = w[o] * K[o] and c' = the chain's offsets carried through its scales,
computed in float64 and rounded once to the element type. Quantizing afterwards then
sees the layer as the integer program will compute it: one accumulator, one bias, one
requantization — quantizing a convolution's output before a BatchNormalization that
rescales it per channel would waste most of the int8 range on some channels.

Not bit-exact: x * (w * k) and (x * w) * k round differently in float32. Measured on
the float zoo within 10^-5 of the largest output (`test_fold_batch_norm.py`).

Folded: a `stablehlo.convolution` or `stablehlo.dot_general` of a float input by a
constant (for dot_general: a 2-D right operand contracting its first dimension), whose
result flows only through `add` and `multiply` (either operand order) by constants
that vary only along the output-feature dimension (a scalar, a splat, or a
`broadcast_in_dim` of a vector along that dimension), each intermediate read once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    Float64Type,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.ir.constants import constant_array, erase_if_unused, float_attr

PASS_NAME = "stablehlo-fold-batch-norm"


def layer_features(op: Operation) -> tuple[int, int] | None:
    """(output feature dimension of the result, output feature dimension of the
    constant weights) of a foldable layer, else None."""
    if isinstance(op, sh.ConvolutionOp):
        dn = op.dimension_numbers.data
        if constant_array(op.rhs, integer=False) is None:
            return None
        return dn.output_feature_dimension, dn.kernel_output_feature_dimension
    if isinstance(op, sh.DotGeneralOp):
        d = op.dot_dimension_numbers.data
        shape = ht.shape_of(op.rhs.type)
        if (
            constant_array(op.rhs, integer=False) is None
            or shape is None
            or len(shape) != 2
            or list(d.rhs_contracting_dimensions) != [0]
            or d.lhs_batching_dimensions
            or d.rhs_batching_dimensions
        ):
            return None
        out = ht.shape_of(op.results[0].type)
        return (len(out) - 1, 1) if out else None
    return None


def per_channel_constant(v: SSAValue, f: int, n: int) -> np.ndarray | None:
    """The n per-channel values of a constant operand that varies only along
    dimension f (a scalar, a splat, a broadcast vector or a full constant), else None."""
    owner = v.owner
    if isinstance(owner, sh.BroadcastInDimOp):
        a = constant_array(owner.operand, integer=False)
        dims = list(dense_values(owner.broadcast_dimensions))
        if a is None:
            return None
        if a.size == 1:
            return np.full(n, float(a.reshape(-1)[0]))
        if a.ndim == 1 and dims == [f] and a.size == n:
            return a.astype(np.float64)
        return None
    a = constant_array(v, integer=False)
    if a is None or not a.size:
        return None
    if np.all(a == a.reshape(-1)[0]):
        return np.full(n, float(a.reshape(-1)[0]))
    if a.ndim > f and a.shape[f] == n:  # a broadcast folded into a full constant
        line = a[tuple(slice(None) if d == f else 0 for d in range(a.ndim))]
        shape = [1] * a.ndim
        shape[f] = n
        if np.array_equal(a, np.broadcast_to(line.reshape(shape), a.shape)):
            return line.astype(np.float64)
    return None


def _chain(layer: Operation, f: int, n: int) -> tuple[list[Operation], np.ndarray, np.ndarray]:
    """The adds and multiplies after `layer` that fold, and their combined per-channel
    scale K and offset C (the chain computes layer * K + C)."""
    scale, offset = np.ones(n), np.zeros(n)
    ops: list[Operation] = []
    value = layer.results[0]
    while len(uses := list(value.uses)) == 1:
        user = uses[0].operation
        if not isinstance(user, sh.AddOp | sh.MultiplyOp) or user.results[0].type != value.type:
            break
        other = user.operands[1 - uses[0].index]
        per = per_channel_constant(other, f, n)
        if per is None:
            break
        if isinstance(user, sh.AddOp):
            offset = offset + per
        else:
            scale, offset = scale * per, offset * per
        ops.append(user)
        value = user.results[0]
    return ops, scale, offset


def fold(layer: Operation) -> bool:
    """Fold the chain after `layer` into it; whether anything changed."""
    features = layer_features(layer)
    elem = ht.element_type(layer.results[0].type)
    if features is None or not isinstance(elem, Float32Type | Float64Type):
        return False
    f, kf = features
    out_shape = ht.shape_of(layer.results[0].type)
    assert out_shape is not None
    n = out_shape[f]
    chain, scale, offset = _chain(layer, f, n)
    if not any(isinstance(op, sh.MultiplyOp) for op in chain) and len(chain) < 2:
        return False  # a layer and its bias already: nothing to fold
    weights = constant_array(layer.operands[1], integer=False)
    assert weights is not None
    shape = [1] * weights.ndim
    shape[kf] = n
    dtype = np.float32 if isinstance(elem, Float32Type) else np.float64
    new_w = (weights.astype(np.float64) * scale.reshape(shape)).astype(dtype)
    block = layer.parent_block()
    assert block is not None
    w_type = layer.operands[1].type
    w_const = sh.ConstantOp(float_attr(new_w, elem), w_type)
    new_layer = type(layer).create(
        operands=[layer.operands[0], w_const.output],
        result_types=[layer.results[0].type],
        properties=dict(layer.properties),
        attributes=dict(layer.attributes),
    )
    new: list[Operation] = [w_const, new_layer]
    result: SSAValue = new_layer.results[0]
    if np.any(offset):
        c = sh.ConstantOp(float_attr(offset.astype(dtype), elem), TensorType(elem, [n]))
        b = sh.BroadcastInDimOp.create(
            operands=[c.output],
            result_types=[layer.results[0].type],
            properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, [f])},
        )
        add = sh.AddOp.create(operands=[result, b.result], result_types=[result.type])
        new += [c, b, add]
        result = add.results[0]
    last = chain[-1]
    for op in new:
        op.location = last.location
        block.insert_op_before(op, last)
    last.results[0].replace_all_uses_with(result)
    old_operands = [o for op in chain for o in op.operands] + list(layer.operands)
    for op in [*reversed(chain), layer]:
        block.erase_op(op)
    for v in old_operands:
        if isinstance(v.owner, sh.BroadcastInDimOp) and not v.uses:
            inner = v.owner.operand
            block.erase_op(v.owner)
            erase_if_unused(inner)
        else:
            erase_if_unused(v)
    return True


@dataclass(frozen=True)
class FoldBatchNorm(ModulePass):
    """Fold per-channel scales and offsets (BatchNormalization, a layer's bias) after
    float convolutions and matrix products into their weights and one bias."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for layer in [o for o in op.walk() if isinstance(o, sh.ConvolutionOp | sh.DotGeneralOp)]:
            fold(layer)
