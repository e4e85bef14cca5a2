"""Which value of a program stands for each tensor of the source model, and in which layout.

Every importer names each op after the model's tensor it computes (`loc("conv1")`) and
every pass that lowers an op gives the ops it creates that name (`InheritLocation`), so
the same name marks the same tensor in the float program, the quantized one, TOSA and
the NPU's layer map. A lowering spends several ops on one tensor (a convolution becomes
conv2d, the bias add, a rescale): the tensor is the *last* op of that name, the value
the next layer reads.

TOSA computes in NHWC where a model may be NCHW; the transposes between are moved and
cancelled by `tosa-reduce-transposes`, so a TOSA value can hold the tensor permuted.
`source_layouts` follows the permutation from the function's arguments (which keep the
model's layout) through the program — an op reading only values in the model's layout
computes in it; a transpose composes; a reshape that only moves size-1 axes is a
transpose; TOSA's NHWC layers and elementwise ops keep their input's — so each value can
be put back in the model's layout before it is compared (None where it cannot).
"""

from __future__ import annotations

from xdsl.dialects.builtin import NameLoc, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.traits import ConstantLike

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa

Perm = tuple[int, ...]
"""`value.shape[i] == source.shape[perm[i]]`: the value is the source tensor transposed."""

# Ops whose result is laid out as their first tensor operand (elementwise ops, the
# NHWC layers of TOSA, whose output channels and spatial axes stand where the
# input's do, and conversions between storage and quantized types).
_KEEPS_LAYOUT = (
    tosa.Conv2DOp,
    tosa.DepthwiseConv2DOp,
    tosa.MaxPool2dOp,
    tosa.AvgPool2dOp,
    tosa.RescaleOp,
    tosa.ClampOp,
    tosa.TableOp,
    tosa.AddOp,
    tosa.SubOp,
    tosa.MulOp,
    tosa.ConcatOp,
    sh.BitcastConvertOp,
    sh.UniformQuantizeOp,
    sh.UniformDequantizeOp,
    sh.ConvolutionOp,
    sh.ReduceWindowOp,
)


def name_of(op: Operation | BlockArgument) -> str | None:
    """The source model's name of an op (or argument), if its location is a name."""
    loc = op.location if isinstance(op, Operation) else _arg_location(op)
    return loc.desc.data if isinstance(loc, NameLoc) else None


def _arg_location(arg: BlockArgument) -> Attribute | None:
    return getattr(arg, "location", None)


def _is_tensor(v: SSAValue) -> bool:
    return isinstance(v.type, TensorType)


def named_values(func: FuncOp) -> dict[str, SSAValue]:
    """Name -> the value standing for that tensor: the function's named arguments, then
    the last non-constant op of each name (in program order, which the dict keeps)."""
    block = func.body.block
    out: dict[str, SSAValue] = {}
    for arg in block.args:
        name = name_of(arg)
        if name is not None and _is_tensor(arg):
            out[name] = arg
    for op in block.ops:
        name = name_of(op)
        if name is None or not op.results or op.has_trait(ConstantLike):
            continue
        if op.name in ("tosa.const", "tosa.const_shape", "stablehlo.constant"):
            continue
        if _is_tensor(op.results[0]):
            out.pop(name, None)  # keep program order: the name sits at its last op
            out[name] = op.results[0]
    return out


def _reshape_perm(src: Perm | None, before: tuple[int, ...], after: tuple[int, ...]) -> Perm | None:
    """A reshape that only moves size-1 axes is a transpose: the permutation it applies
    to a value laid out as `src` (None when it truly regroups elements)."""
    if src is None or len(before) != len(after):
        return None
    big_before = [i for i, d in enumerate(before) if d != 1]
    big_after = [i for i, d in enumerate(after) if d != 1]
    if [before[i] for i in big_before] != [after[i] for i in big_after]:
        return None
    ones_before = [i for i, d in enumerate(before) if d == 1]
    ones_after = [i for i, d in enumerate(after) if d == 1]
    # out axis i comes from in axis take[i]: big axes in order, size-1 axes paired so
    # that, among equals, the source's order is kept.
    take = [0] * len(after)
    for o, i in zip(big_after, big_before, strict=True):
        take[o] = i
    ones_sorted = sorted(ones_before, key=lambda i: src[i])
    for o, i in zip(ones_after, ones_sorted, strict=True):
        take[o] = i
    return tuple(src[t] for t in take)


def source_layouts(func: FuncOp) -> dict[SSAValue, Perm | None]:
    """Each value's permutation of the model's layout (None: not a permutation of it)."""
    layout: dict[SSAValue, Perm | None] = {}
    constant: set[SSAValue] = set()  # computed from constants alone: no layout of their own
    for arg in func.body.block.args:
        rank = len(ht.shape_of(arg.type) or ())
        layout[arg] = tuple(range(rank))
    for op in func.body.block.ops:
        if not op.results:
            continue
        data = [v for v in op.operands if v not in constant]
        if not data:
            constant.update(op.results)
            continue
        if not _is_tensor(op.results[0]):
            continue
        known = [layout.get(v) for v in data]
        first = known[0]
        out_rank = len(ht.shape_of(op.results[0].type) or ())
        identity = tuple(range(out_rank))
        in_model_layout = all(p is not None and p == tuple(range(len(p))) for p in known)
        perm: Perm | None = None
        if isinstance(op, tosa.TransposeOp | sh.TransposeOp):
            perms = _perms(op)
            perm = tuple(first[p] for p in perms) if perms is not None and first else None
        elif isinstance(op, tosa.ReshapeOp | sh.ReshapeOp):
            before = tuple(ht.shape_of(data[0].type) or ())
            after = tuple(ht.shape_of(op.results[0].type) or ())
            perm = _reshape_perm(first, before, after)
            if perm is None and in_model_layout:
                perm = identity  # the model's own reshape
        elif in_model_layout:
            perm = identity  # the model's op on the model's tensors: the model's layout
        elif first is not None and len(first) == out_rank and isinstance(op, _KEEPS_LAYOUT):
            perm = first
        for r in op.results:
            layout[r] = perm
    return layout


def _perms(op: Operation) -> list[int] | None:
    for key in ("perms", "permutation"):
        attr = op.properties.get(key) or op.attributes.get(key)
        if attr is not None:
            values = getattr(attr, "get_values", None)
            if values is not None:
                return [int(v) for v in values()]
            try:
                return [int(v) for v in attr]  # type: ignore[attr-defined]
            except TypeError:
                return None
    return None
