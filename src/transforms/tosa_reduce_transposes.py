"""`tosa-reduce-transposes`: move layout transposes through layout-agnostic ops so
inverse pairs meet and cancel.

Importers of channels-first models (ONNX) wrap every NHWC convolution and pool in
`tosa.transpose`s; the elementwise ops between layers (residual adds, rescales,
clamps, tables, concats, pads, ...) stay channels-first and keep the pairs apart, and
the NPU runs each leftover transpose as a DMA copy.

The pass works on *regions*: connected sets of ops that compute the same numbers in
any axis order when their axis attributes follow (elementwise ops, a per-tensor
`tosa.rescale` — a per-channel one only when its channel axis stays last — `clamp`,
`table`, `cast`, `concat` and the reductions with their axis remapped, `pad` and
`slice` with their amounts permuted). Rewriting a region in the layout
`np.transpose(old, Q)` cancels the transposes at its edges whose permutation Q undoes,
folds its constant operands at compile time, and needs a new transpose only where a
value enters or leaves in the old layout. Each candidate's transposes are counted
before and after; the one that saves most is rewritten and the search starts again, so
the count strictly decreases and a region that would not gain is left alone.

Around that, transposes of transposes fold, identity transposes go, and a transpose
that only moves size-1 axes becomes a `tosa.reshape` (the NPU reads it in place).
Every rewrite keeps the exact results: it only reorders axes of the same values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import tosa, tosa_extra
from qdialect.ir.constants import constant_array, constant_attr

Perm = tuple[int, ...]

# Ops whose every operand is data in the result's layout (beyond `tosa._Elementwise`).
_ALL_DATA = (tosa_extra._Compare, tosa_extra.SelectOp, tosa.ConcatOp)
# Ops with one data operand (the first); the rest are per-tensor scalars or tables.
_FIRST_DATA = (tosa.ClampOp, tosa.CastOp, tosa.TableOp, tosa.NegateOp, tosa.RescaleOp,
               tosa._Reduce, tosa.PadOp, tosa.SliceOp)  # fmt: skip


def inverse(perm: Sequence[int]) -> Perm:
    """The permutation that undoes `perm`."""
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


def compose(first: Sequence[int], then: Sequence[int]) -> Perm:
    """`transpose(transpose(x, first), then) == transpose(x, compose(first, then))`."""
    return tuple(first[i] for i in then)


def _identity(perm: Sequence[int]) -> bool:
    return list(perm) == list(range(len(perm)))


def _static_shape(value: SSAValue) -> tuple[int, ...] | None:
    shape = ht.shape_of(value.type)
    return None if shape is None or any(d < 0 for d in shape) else tuple(shape)


def _permuted_type(value: SSAValue, q: Perm) -> TensorType:
    shape = _static_shape(value)
    assert shape is not None
    return TensorType(ht.element_type(value.type), [shape[i] for i in q])


def _transpose(x: SSAValue, perm: Perm) -> tosa.TransposeOp:
    return tosa.TransposeOp.create(
        operands=[x],
        result_types=[_permuted_type(x, perm)],
        properties={"perms": DenseArrayBase.from_list(i32, list(perm))},
    )


def _insert_before(new: Operation, anchor: Operation) -> None:
    """Insert `new` before `anchor`, named by the same source location (the tools name
    tensors by the model's names)."""
    block = anchor.parent_block()
    assert block is not None
    new.location = anchor.location
    block.insert_op_before(new, anchor)


def _foldable(v: SSAValue) -> bool:
    """A constant the pass can rewrite in another layout (its attribute has its type)."""
    attr = constant_attr(v)
    return attr is not None and attr.get_type() == v.type


def _erase(op: Operation) -> None:
    block = op.parent_block()
    assert block is not None
    block.erase_op(op)


def data_operands(op: Operation, q: Perm) -> tuple[int, ...] | None:
    """Indices of `op`'s operands in its result's layout when `op` computes the same
    numbers rewritten in layout `q`; None when it does not (or the pass does not know it)."""
    if len(op.results) != 1 or _static_shape(op.results[0]) is None:
        return None
    if isinstance(op, tosa._Elementwise):
        wanted = set(op.inputs())
        idx = tuple(i for i, v in enumerate(op.operands) if v in wanted)
    elif isinstance(op, _ALL_DATA):
        idx = tuple(range(len(op.operands)))
    elif isinstance(op, _FIRST_DATA):
        idx = (0,)
    else:
        return None
    rank = len(q)
    for v in [op.results[0], *(op.operands[i] for i in idx)]:
        shape = _static_shape(v)
        if shape is None or len(shape) != rank:
            return None
    if isinstance(op, tosa.RescaleOp) and op.flag("per_channel") and q[-1] != rank - 1:
        return None  # the channel axis is the last one: it must stay last
    if isinstance(op, tosa.ReduceSumOp | tosa_extra.ReduceProductOp) and not isinstance(
        ht.element_type(op.results[0].type), IntegerType
    ):
        return None  # a float sum's rounding may follow the order the elements are read in
    if isinstance(op, tosa.PadOp) and constant_array(op.padding) is None:
        return None
    if isinstance(op, tosa.SliceOp) and (
        constant_array(op.start) is None or constant_array(op.size) is None
    ):
        return None
    return idx


@dataclass
class Region:
    """Ops rewritten together in layout `q` (block order), and what the rewrite saves."""

    q: Perm
    ops: list[Operation]
    data: dict[Operation, tuple[int, ...]]
    saving: int = 0
    inputs: dict[SSAValue, Perm | None] = field(default_factory=dict)

    def internal(self, user: Operation, index: int) -> bool:
        return user in self.data and index in self.data[user]


def grow(seed: Operation, q: Perm) -> Region | None:
    """The connected ops around `seed` (same block, joined through data operands) that
    can all be rewritten in layout `q`."""
    idx = data_operands(seed, q)
    if idx is None:
        return None
    block = seed.parent_block()
    data: dict[Operation, tuple[int, ...]] = {seed: idx}
    todo = [seed]
    while todo:
        op = todo.pop()
        near = [(use.operation, use.index) for use in op.results[0].uses]
        near += [
            (v.owner, None) for i in data[op] if isinstance((v := op.operands[i]).owner, Operation)
        ]
        for other, index in near:
            if not isinstance(other, Operation) or other in data:
                continue
            if other.parent_block() is not block:
                continue
            found = data_operands(other, q)
            if found is None or (index is not None and index not in found):
                continue  # a use as a table, shift or bound is not in the layout
            data[other] = found
            todo.append(other)
    assert block is not None
    order = {id(o): n for n, o in enumerate(block.ops)}
    ops = sorted(data, key=lambda o: order[id(o)])
    return Region(q, ops, data)


def evaluate(region: Region) -> bool:
    """Fill in `region.saving` (transposes before minus after); False when the region
    cannot be rewritten (a transpose joins two of its ops)."""
    q, qinv = region.q, inverse(region.q)
    members = region.data
    saving = 0
    seen_transposes: set[Operation] = set()
    for op in region.ops:
        for i in members[op]:
            v = op.operands[i]
            owner = v.owner
            if isinstance(owner, Operation) and owner in members:
                continue
            if v in region.inputs:
                continue
            if isinstance(owner, tosa.TransposeOp):
                source = owner.input1.owner
                if isinstance(source, Operation) and source in members:
                    return False
                perm = compose(owner.array("perms"), q)
                region.inputs[v] = perm
                dies = all(region.internal(u.operation, u.index) for u in v.uses)
                if owner not in seen_transposes:
                    seen_transposes.add(owner)
                    if _identity(perm):
                        saving += 1 if dies else 0
                    else:
                        saving -= 0 if dies else 1
            elif _foldable(v):
                region.inputs[v] = None
            else:
                region.inputs[v] = q
                saving -= 1
    for op in region.ops:
        outside = False
        for use in op.results[0].uses:
            if region.internal(use.operation, use.index):
                continue
            if isinstance(use.operation, tosa.TransposeOp):
                if _identity(compose(qinv, use.operation.array("perms"))):
                    saving += 1
            else:
                outside = True
        saving -= 1 if outside else 0
    region.saving = saving
    return True


def _rebuilt(op: Operation, operands: list[SSAValue], q: Perm) -> Operation:
    """`op` computing in layout `q` on `operands` (already in that layout)."""
    qinv = inverse(q)
    props: dict[str, Attribute] = dict(op.properties)
    if isinstance(op, tosa.ConcatOp | tosa._Reduce):
        axis = op.properties["axis"]
        assert isinstance(axis, IntegerAttr)
        props["axis"] = IntegerAttr(qinv[axis.value.data], axis.type)
    if isinstance(op, tosa.PadOp):
        amounts = [int(a) for a in constant_array(op.padding).reshape(-1)]  # type: ignore[union-attr]
        shape_op = tosa.ConstShapeOp.of(
            [amounts[2 * q[i] + k] for i in range(len(q)) for k in (0, 1)]
        )
        _insert_before(shape_op, op)
        operands[1] = shape_op.results[0]
    if isinstance(op, tosa.SliceOp):
        for slot, v in ((1, op.start), (2, op.size)):
            values = [int(a) for a in constant_array(v).reshape(-1)]  # type: ignore[union-attr]
            shape_op = tosa.ConstShapeOp.of([values[i] for i in q])
            _insert_before(shape_op, op)
            operands[slot] = shape_op.results[0]
    new = op.create(
        operands=operands,
        result_types=[_permuted_type(op.results[0], q)],
        properties=props,
        attributes=dict(op.attributes),
    )
    _insert_before(new, op)
    return new


def rewrite(region: Region) -> None:
    """Rewrite `region` in its layout (after `evaluate`)."""
    q, qinv = region.q, inverse(region.q)
    block = region.ops[0].parent_block()
    assert block is not None
    new_value: dict[SSAValue, SSAValue] = {}
    converted: dict[SSAValue, SSAValue] = {}
    for op in region.ops:
        operands = list(op.operands)
        for i in region.data[op]:
            v = op.operands[i]
            if v in new_value:
                operands[i] = new_value[v]
                continue
            if v not in converted:
                converted[v] = _entering(v, region.inputs[v], q, op)
            operands[i] = converted[v]
        new = _rebuilt(op, operands, q)
        new_value[op.results[0]] = new.results[0]
    for op in region.ops:
        old, new = op.results[0], new_value[op.results[0]]
        back: SSAValue | None = None
        for use in list(old.uses):
            user = use.operation
            if region.internal(user, use.index):
                continue
            if isinstance(user, tosa.TransposeOp):
                perm = compose(qinv, user.array("perms"))
                if _identity(perm):
                    user.results[0].replace_all_uses_with(new)
                    _erase(user)
                else:
                    moved = _transpose(new, perm)
                    _insert_before(moved, user)
                    user.results[0].replace_all_uses_with(moved.results[0])
                    _erase(user)
                continue
            if back is None:
                back_op = _transpose(new, qinv)
                assert isinstance(new.owner, Operation)
                back_op.location = new.owner.location
                block.insert_op_after(back_op, new.owner)
                back = back_op.results[0]
            user.operands[use.index] = back
    operands = {v for op in region.ops for v in op.operands}
    for op in reversed(region.ops):
        _erase(op)
    for v in operands:  # transposes cancelled, constants and shapes rewritten
        owner = v.owner
        dead = isinstance(owner, tosa.TransposeOp | tosa.ConstOp | tosa.ConstShapeOp)
        if dead and not v.uses:
            _erase(owner)  # type: ignore[arg-type]


def _entering(v: SSAValue, perm: Perm | None, q: Perm, before: Operation) -> SSAValue:
    """`v` (outside the region) in layout `q`: the transpose's source when the
    permutations cancel, a constant folded at compile time, else a new transpose."""
    owner = v.owner
    if isinstance(owner, tosa.TransposeOp):
        assert perm is not None
        if _identity(perm):
            return owner.input1
        new = _transpose(owner.input1, perm)
    elif perm is None:
        array = constant_array(v, integer=False)
        assert array is not None
        t: TensorType[Any] = _permuted_type(v, q)
        new = tosa.ConstOp(
            DenseIntOrFPElementsAttr.from_list(t, np.transpose(array, q).reshape(-1).tolist())
        )
    else:
        new = _transpose(v, q)
    _insert_before(new, before)
    return new.results[0]


def candidates(module: ModuleOp) -> list[Region]:
    """Every region a transpose could be moved into or out of, with its saving."""
    found: list[Region] = []
    for t in module.walk():
        if not isinstance(t, tosa.TransposeOp):
            continue
        perm = t.array("perms")
        seeds: list[tuple[Operation, Perm]] = [
            (use.operation, inverse(perm)) for use in t.results[0].uses
        ]
        if isinstance(t.input1.owner, Operation):
            seeds.append((t.input1.owner, tuple(perm)))
        for seed, q in seeds:
            if any(seed in r.data and r.q == q for r in found):
                continue
            region = grow(seed, q)
            if region is not None and evaluate(region):
                found.append(region)
    return found


def simplify(module: ModuleOp) -> None:
    """Fold transposes of transposes, drop identity ones, and turn one that only moves
    size-1 axes into a reshape."""
    for t in list(module.walk()):
        if not isinstance(t, tosa.TransposeOp):
            continue
        block = t.parent_block()
        assert block is not None
        perm = t.array("perms")
        inner = t.input1.owner
        if isinstance(inner, tosa.TransposeOp):
            merged = _transpose(inner.input1, compose(inner.array("perms"), perm))
            _insert_before(merged, t)
            t.results[0].replace_all_uses_with(merged.results[0])
            _erase(t)
            if not inner.results[0].uses:
                _erase(inner)
            t, perm = merged, merged.array("perms")
        shape = _static_shape(t.input1)
        if _identity(perm) and t.input1.type == t.results[0].type:
            t.results[0].replace_all_uses_with(t.input1)
            _erase(t)
        elif shape is not None and [p for p in perm if shape[p] != 1] == sorted(
            p for p in perm if shape[p] != 1
        ):
            out = _static_shape(t.results[0])
            assert out is not None
            sizes = tosa.ConstShapeOp.of(out)
            reshape = tosa.ReshapeOp.create(
                operands=[t.input1, sizes.results[0]], result_types=[t.results[0].type]
            )
            _insert_before(sizes, t)
            _insert_before(reshape, t)
            t.results[0].replace_all_uses_with(reshape.results[0])
            _erase(t)


def count_transposes(module: Operation) -> int:
    """`tosa.transpose` ops in `module` (what this pass reduces)."""
    return sum(isinstance(op, tosa.TransposeOp) for op in module.walk())


@dataclass(frozen=True)
class TosaReduceTransposes(ModulePass):
    """Move tosa.transpose through layout-agnostic ops so inverse pairs cancel."""

    name = "tosa-reduce-transposes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        simplify(op)
        for _ in range(count_transposes(op)):  # each rewrite removes at least one
            best = max(candidates(op), key=lambda r: r.saving, default=None)
            if best is None or best.saving <= 0:
                break
            rewrite(best)
            simplify(op)
