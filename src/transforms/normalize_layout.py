"""`stablehlo-normalize-layout{layout=nhwc|nchw}`: every 2-D convolution and pooling window in
one data layout, and the transposes that leaves behind cancelled or sunk.

Models arrive in their framework's layout — ONNX and PyTorch NCHW with OIHW weights, TFLite
and JAX NHWC with HWIO — and an accelerator wants one (TOSA's convolutions and the NPU
read NHWC). Per op, the lowering can transpose in and out; between two layers those
transposes are pure data movement that a whole-program view removes. This pass:

1. rewrites each rank-4 `stablehlo.convolution` whose dimension numbers differ from the
   target (input and output `[b, 0, 1, f]` and kernel `[0, 1, i, o]` for nhwc; `[b, f, 0,
   1]` and `[o, i, 0, 1]` for nchw) as transpose -> convolution in the target -> transpose
   back, a constant kernel transposed at compile time;
2. rewrites each rank-4 `stablehlo.reduce_window` whose window (size, stride, dilation or
   padding) moves only along the other layout's spatial axes the same way;
3. cancels transpose pairs (`transpose(transpose(x, p), q)` is one transpose, or `x`), and
   sinks a transpose below an elementwise op (unary; binary, `clamp` and `select` whose
   other operands are the same transpose, a splat, or a `broadcast_in_dim`, which is
   re-aimed) and into a `reduce` over it (the reduced dimensions renamed), so the
   transposes between layers meet and cancel. A sink is made only when it leaves no more
   transposes than before.

Transposes only move values, so integer programs are unchanged bit for bit. A float
convolution sums the same products, but the reference interpreter's (NumPy's) order of
summation follows the layout, so float outputs move in their last bits: within 3.3·10⁻⁷ of
the largest output on the float zoo (test/unit/transforms/test_normalize_layout.py).

Not rewritten: convolutions of other ranks, and per-axis quantized operands or results
(their quantization axis would move; normalize the float program, before
`stablehlo-quantize`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.dialects.stablehlo_attrs import ConvDimensionNumbersAttr, ConvDims
from qdialect.ir.constants import constant_array, erase_if_unused, float_attr, integer_attr
from qdialect.ir.constants import dense_values as constant_values
from qdialect.ir.errors import OpError

PASS_NAME = "stablehlo-normalize-layout"

# Target dimension numbers: (input/output batch, feature, spatial), kernel (i, o, spatial).
_TARGETS = {
    "nhwc": ConvDims(0, 3, (1, 2), 2, 3, (0, 1), 0, 3, (1, 2)),
    "nchw": ConvDims(0, 1, (2, 3), 1, 0, (2, 3), 0, 1, (2, 3)),
}
_UNARY = (sh.NegateOp, sh.AbsOp, sh.ExpOp, sh.LogOp, sh.TanhOp, sh.LogisticOp, sh.SqrtOp,
          sh.RsqrtOp, sh.ConvertOp, sh.SignOp, sh.FloorOp, sh.CeilOp)  # fmt: skip
_NARY = (sh.AddOp, sh.SubtractOp, sh.MultiplyOp, sh.DivideOp, sh.MaximumOp, sh.MinimumOp,
         sh.PowerOp, sh.ClampOp, sh.SelectOp, sh.CompareOp)  # fmt: skip


def _order(batch: int, feature: int, spatial: tuple[int, ...], layout: str) -> list[int]:
    """The permutation that takes a tensor with these dimensions to `layout`'s order."""
    return [batch, *spatial, feature] if layout == "nhwc" else [batch, feature, *spatial]


def _kernel_order(i: int, o: int, spatial: tuple[int, ...], layout: str) -> list[int]:
    return [*spatial, i, o] if layout == "nhwc" else [o, i, *spatial]


def _inverse(perm: list[int]) -> list[int]:
    inv = [0] * len(perm)
    for k, p in enumerate(perm):
        inv[p] = k
    return inv


def _permuted_type(t, perm: list[int]):
    shape = ht.shape_of(t)
    assert shape is not None and isinstance(t, TensorType)
    return TensorType(t.get_element_type(), [shape[p] for p in perm])


def _movable(v: SSAValue) -> bool:
    """A ranked tensor whose layout may change: not per-axis quantized."""
    q = ht.quant_type(v.type)
    return ht.shape_of(v.type) is not None and (q is None or not q.is_per_axis)


def _insert_before(op: Operation, new: Operation) -> Operation:
    block = op.parent_block()
    assert block is not None
    new.location = op.location
    block.insert_op_before(new, op)
    return new


def _transpose(value: SSAValue, perm: list[int], before: Operation) -> SSAValue:
    """`value` transposed by `perm`: a constant folded, an identity skipped."""
    if perm == list(range(len(perm))):
        return value
    array = constant_array(value, integer=False)
    t = value.type
    assert isinstance(t, TensorType)
    element = t.get_element_type()
    if array is not None and isinstance(element, Float32Type | Float64Type | IntegerType):
        moved = np.ascontiguousarray(array.transpose(perm))
        attr = (integer_attr(moved.astype(np.int64), element) if isinstance(element, IntegerType)
                else float_attr(moved, element))  # fmt: skip
        return _insert_before(before, sh.ConstantOp(attr)).results[0]
    op = sh.TransposeOp.create(
        operands=[value],
        result_types=[_permuted_type(t, perm)],
        properties={"permutation": DenseArrayBase.from_list(i64, perm)},
    )
    return _insert_before(before, op).results[0]


def _replace(op: Operation, new_result: SSAValue) -> None:
    operands = list(op.operands)
    op.results[0].replace_all_uses_with(new_result)
    block = op.parent_block()
    assert block is not None
    block.erase_op(op)
    for v in operands:
        erase_if_unused(v)
        _erase_dead_transpose(v)


def _erase_dead_transpose(v: SSAValue) -> None:
    """Erase the transpose (or broadcast) that made `v` once nothing reads it."""
    owner = v.owner
    if isinstance(owner, sh.TransposeOp | sh.BroadcastInDimOp) and not owner.result.uses:
        block = owner.parent_block()
        assert block is not None
        operand = owner.operand
        block.erase_op(owner)
        erase_if_unused(operand)


# ---- 1. convolutions -------------------------------------------------------------------


def normalize_convolution(conv: sh.ConvolutionOp, layout: str) -> bool:
    dn = conv.dimension_numbers.data
    target = _TARGETS[layout]
    if len(dn.input_spatial_dimensions) != 2 or dn == target:
        return False
    if not all(_movable(v) for v in (conv.lhs, conv.rhs, conv.result)):
        return False
    p_in = _order(dn.input_batch_dimension, dn.input_feature_dimension,
                  dn.input_spatial_dimensions, layout)  # fmt: skip
    p_k = _kernel_order(dn.kernel_input_feature_dimension, dn.kernel_output_feature_dimension,
                        dn.kernel_spatial_dimensions, layout)  # fmt: skip
    p_out = _order(dn.output_batch_dimension, dn.output_feature_dimension,
                   dn.output_spatial_dimensions, layout)  # fmt: skip
    x = _transpose(conv.lhs, p_in, conv)
    w = _transpose(conv.rhs, p_k, conv)
    props = dict(conv.properties)
    props["dimension_numbers"] = ConvDimensionNumbersAttr(target)
    new = sh.ConvolutionOp.create(
        operands=[x, w],
        result_types=[_permuted_type(conv.result.type, p_out)],
        properties=props,
        attributes=dict(conv.attributes),
    )
    _insert_before(conv, new)
    _replace(conv, _transpose(new.results[0], _inverse(p_out), conv))
    return True


# ---- 2. pooling windows ----------------------------------------------------------------


def _window(op: sh.ReduceWindowOp) -> dict[str, list]:
    """The window's attributes, every one spelled out (defaults filled in)."""
    rank = len(dense_values(op.window_dimensions))

    def listed(attr) -> list:
        return list(dense_values(attr)) if attr is not None else [1] * rank

    padding = [(0, 0)] * rank
    if op.padding is not None:
        rows = np.asarray(constant_values(op.padding)).reshape(rank, 2)
        padding = [(int(lo), int(hi)) for lo, hi in rows]
    return {
        "window_dimensions": listed(op.window_dimensions),
        "window_strides": listed(op.window_strides),
        "base_dilations": listed(op.base_dilations),
        "window_dilations": listed(op.window_dilations),
        "padding": padding,
    }


def normalize_pool(op: sh.ReduceWindowOp, layout: str) -> bool:
    if len(op.inputs) != 1 or not _movable(op.inputs[0]) or not _movable(op.results_[0]):
        return False
    w = _window(op)
    if len(w["window_dimensions"]) != 4:
        return False
    moving = {d for d in range(4) if w["window_dimensions"][d] != 1
              or w["window_strides"][d] != 1 or w["base_dilations"][d] != 1
              or w["window_dilations"][d] != 1 or w["padding"][d] != (0, 0)}  # fmt: skip
    other = "nchw" if layout == "nhwc" else "nhwc"
    source = _TARGETS[other]
    if not moving or not moving <= set(source.input_spatial_dimensions):
        return False
    if moving <= set(_TARGETS[layout].input_spatial_dimensions):
        return False  # already in the target's layout (or moving along one shared axis)
    perm = _order(source.input_batch_dimension, source.input_feature_dimension,
                  source.input_spatial_dimensions, layout)  # fmt: skip
    x = _transpose(op.inputs[0], perm, op)
    props = dict(op.properties)
    for key in ("window_dimensions", "window_strides", "base_dilations", "window_dilations"):
        if key in props:
            props[key] = DenseArrayBase.from_list(i64, [w[key][p] for p in perm])
    if "padding" in props:
        props["padding"] = integer_attr(np.array([w["padding"][p] for p in perm]), i64)
    new = sh.ReduceWindowOp.create(
        operands=[x, op.init_values[0]],
        result_types=[_permuted_type(op.results_[0].type, perm)],
        properties=props,
        attributes=dict(op.attributes),
        regions=[op.body.clone()],
    )
    _insert_before(op, new)
    _replace(op, _transpose(new.results[0], _inverse(perm), op))
    return True


# ---- 3. transposes cancelled and sunk ------------------------------------------------------


def _perm(op: sh.TransposeOp) -> list[int]:
    return [int(p) for p in dense_values(op.permutation)]


def fold_pair(op: sh.TransposeOp) -> bool:
    inner = op.operand.owner
    if not isinstance(inner, sh.TransposeOp):
        return False
    p, q = _perm(inner), _perm(op)
    combined = [p[k] for k in q]
    _replace(op, _transpose(inner.operand, combined, op))
    return True


def _is_splat(v: SSAValue) -> bool:
    owner = v.owner
    if isinstance(owner, sh.BroadcastInDimOp):
        return not list(dense_values(owner.broadcast_dimensions))
    array = constant_array(v, integer=False)
    return array is not None and array.size > 0 and bool(np.all(array == array.flat[0]))


def _sinks_everywhere(t: sh.TransposeOp) -> bool:
    """Every reader of `t` is an op a transpose sinks through, so once they have all been
    rewritten `t` is gone (a sink is never a net gain of transposes)."""
    return all(isinstance(u.operation, (*_UNARY, *_NARY, sh.ConcatenateOp, sh.TransposeOp))
               for u in t.result.uses)  # fmt: skip


def _shared_transpose(op: Operation) -> tuple[list[sh.TransposeOp], list[int]] | None:
    """The transposes among `op`'s operands and their one permutation, if they share one."""
    transposes = [v.owner for v in op.operands if isinstance(v.owner, sh.TransposeOp)]
    if not transposes:
        return None
    perm = _perm(transposes[0])
    return (transposes, perm) if all(_perm(t) == perm for t in transposes) else None


def sink(op: Operation) -> bool:
    """Move a transpose from `op`'s operands to its result (see the module's note)."""
    if not isinstance(op, _UNARY + _NARY) or len(op.results) != 1:
        return False
    shared = _shared_transpose(op)
    if shared is None:
        return False
    transposes, perm = shared
    if not any(_sinks_everywhere(t) for t in transposes):
        return False  # the transpose stays for its other readers: nothing gained
    inv = _inverse(perm)
    operands: list[SSAValue] = []
    for v in op.operands:
        owner = v.owner
        if isinstance(owner, sh.TransposeOp):
            operands.append(owner.operand)
        elif not ht.shape_of(v.type):  # a scalar (select's predicate)
            operands.append(v)
        elif isinstance(owner, sh.BroadcastInDimOp) and _movable(v):
            dims = [perm[d] for d in dense_values(owner.broadcast_dimensions)]
            b = sh.BroadcastInDimOp.create(
                operands=[owner.operand],
                result_types=[_permuted_type(v.type, inv)],
                properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, dims)},
            )
            operands.append(_insert_before(op, b).results[0])
        elif _is_splat(v) or constant_array(v, integer=False) is not None:
            operands.append(_transpose(v, inv, op))
        else:
            return False
    new = op.create(
        operands=operands,
        result_types=[_permuted_type(op.results[0].type, inv)],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    _insert_before(op, new)
    _replace(op, _transpose(new.results[0], perm, op))
    return True


def sink_concatenate(op: sh.ConcatenateOp) -> bool:
    """concatenate(transpose(a, p), transpose(b, p), dim d) -> transpose(concatenate(a, b,
    dim p[d]), p): the channel concatenations of Inception, SqueezeNet and DenseNet blocks.
    An operand in the other layout (a DenseNet block's input) is transposed the other way,
    when more transposes go than come."""
    shared = _shared_transpose(op)
    if shared is None:
        return False
    transposes, perm = shared
    gone = sum(_sinks_everywhere(t) for t in transposes)
    if gone == 0 or gone <= len(op.operands) - len(transposes):
        return False
    inv = _inverse(perm)
    operands = [v.owner.operand if isinstance(v.owner, sh.TransposeOp) else _transpose(v, inv, op)
                for v in op.operands]  # fmt: skip
    new = sh.ConcatenateOp.create(
        operands=operands,
        result_types=[_permuted_type(op.results[0].type, inv)],
        properties={**op.properties, "dimension": IntegerAttr(perm[op.dimension.value.data], i64)},
    )
    _insert_before(op, new)
    _replace(op, _transpose(new.results[0], perm, op))
    return True


def sink_into_reduce(op: sh.ReduceOp) -> bool:
    """reduce(transpose(x, p), dims) -> reduce(x, p[dims]) when the kept dimensions keep
    their order (a global pool after a layout change)."""
    if len(op.inputs) != 1 or not isinstance(op.inputs[0].owner, sh.TransposeOp):
        return False
    t = op.inputs[0].owner
    if len(list(t.result.uses)) != 1:
        return False
    perm = _perm(t)
    dims = [int(d) for d in dense_values(op.dimensions)]
    kept = [perm[k] for k in range(len(perm)) if k not in dims]
    if kept != sorted(kept):
        return False
    op.operands[0] = t.operand
    op.properties["dimensions"] = DenseArrayBase.from_list(i64, sorted(perm[d] for d in dims))
    _erase_dead_transpose(t.result)
    return True


def normalize(module: ModuleOp, layout: str) -> None:
    for op in [o for o in module.walk() if isinstance(o, sh.ConvolutionOp)]:
        normalize_convolution(op, layout)
    for op in [o for o in module.walk() if isinstance(o, sh.ReduceWindowOp)]:
        normalize_pool(op, layout)
    changed = True
    while changed:
        changed = False
        for op in list(module.walk()):
            if op.parent_block() is None:
                continue  # erased by an earlier rewrite in this sweep
            if isinstance(op, sh.TransposeOp):
                changed |= fold_pair(op)
            elif isinstance(op, sh.ReduceOp):
                changed |= sink_into_reduce(op)
            elif isinstance(op, sh.ConcatenateOp):
                changed |= sink_concatenate(op)
            else:
                changed |= sink(op)


@dataclass(frozen=True)
class NormalizeLayout(ModulePass):
    """Convolutions and pools in one layout; transposes between them cancelled."""

    name = PASS_NAME

    layout: str = "nhwc"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.layout not in _TARGETS:
            raise OpError(op, f"{PASS_NAME}: layout must be nhwc or nchw, not '{self.layout}'")
        normalize(op, self.layout)
