"""Element types that constrain their container, checked once the ops have verified.

A per-axis quantized type needs its quantized dimension inside the tensor's rank and one
scale per entry along it; a sub-channel type needs its blocks to tile the tensor. Such an
element type says why a shape cannot hold it through a `container_error(shape)` method
(`qdialect.dialects.quant`).

Upstream MLIR builds `tensor<2x4x!quant.uniform<i8:f32:0, {0.1:-30}>>` without complaint
and leaves the check to the ops that read the parameters, so its lit tests write such
types to exercise other rules (StableHLO's per-tensor-only ops). We keep the stricter
rule that a type which cannot describe its tensor is an error wherever it is written, but
report it after every op's own verifier has passed: upstream's op diagnostics come first,
and the container error then names the op (or function) that declares the type.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import (
    FunctionType,
    TupleType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation, TypeAttribute

__all__ = ["container_error", "first_container_error"]


def container_error(t: Attribute) -> str | None:
    """Why `t` (a shaped type, or a tuple/function type holding some) is malformed, or None."""
    if isinstance(t, TupleType):
        return _first(container_error(e) for e in t.types.data)
    if isinstance(t, FunctionType):
        return _first(container_error(e) for e in (*t.inputs.data, *t.outputs.data))
    element_of = getattr(t, "get_element_type", None)
    if element_of is None:
        return None
    check = getattr(element_of(), "container_error", None)
    if check is None:
        return None
    unranked = isinstance(t, UnrankedTensorType | UnrankedMemRefType)
    shape = None if unranked else tuple(t.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    return check(shape)


def _first(messages: Iterator[str | None]) -> str | None:
    return next((m for m in messages if m is not None), None)


def _declared_types(op: Operation) -> Iterator[tuple[str, Attribute]]:
    """The types `op` introduces: its results, its blocks' arguments, and type-valued
    attributes (a function declaration's signature)."""
    for i, t in enumerate(op.result_types):
        yield f"result #{i}", t
    for region in op.regions:
        for block in region.blocks:
            for j, arg in enumerate(block.args):
                yield f"block argument #{j}", arg.type
    for name, attr in (*op.attributes.items(), *op.properties.items()):
        if isinstance(attr, TypeAttribute):
            yield ("signature" if isinstance(attr, FunctionType) else f"attribute '{name}'"), attr


def first_container_error(root: Operation) -> tuple[Operation, str] | None:
    """The first op (in walk order) declaring a type its container cannot hold, and why."""
    for op in root.walk():
        for what, t in _declared_types(op):
            if (message := container_error(t)) is not None:
                return op, f"{what}: {message}"
    return None
