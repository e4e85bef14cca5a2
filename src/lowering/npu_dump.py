"""Text dumps of the `tosa-to-npu` stages, for FileCheck tests and for reading.

`tosa-to-npu{dump=layers}` (or `plan`, `code`, `all`) prints them on stderr,
the way `--mlir-print-ir-after` prints IR. Tensors are named by where they
come from: `%argN` a program input, `%lN` layer N's output, `%const` a
constant operand. The code dump is assembly `qasm` reads, with a comment
line where each layer starts.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from qdialect.dialects import hlo_types as ht
from qdialect.lowering import npu_window as window
from qdialect.lowering.npu_emit import Emitted
from qdialect.lowering.npu_graph import (
    LayerGraph,
    alias,
    sources,
)
from qdialect.lowering.npu_plan import ON_CHIP, LayerSlots, Plan, Residency

STAGES = ("layers", "plan", "code")


def _names(graph: LayerGraph) -> dict[SSAValue, str]:
    names = {arg: f"%arg{i}" for i, arg in enumerate(graph.args)}
    names.update({layer.out: f"%l{i}" for i, layer in enumerate(graph.layers)})
    return names


def _name(names: dict[SSAValue, str], v: SSAValue) -> str:
    return names.get(alias(v), "%const")


def _shape(v: SSAValue) -> str:
    return "i8[" + ", ".join(map(str, ht.shape_of(v.type))) + "]"


def dump_layers(graph: LayerGraph) -> str:
    names = _names(graph)
    lines = [f"input {names[a]} {_shape(a)}" for a in graph.args]
    for i, layer in enumerate(graph.layers):
        operands = ", ".join(_name(names, v) for v in sources(layer))
        lines.append(
            f"layer {i}: {names[layer.out]} = {layer.describe()} ({operands}) : {_shape(layer.out)}"
        )
    lines += [f"output result{i}: {_name(names, v)}" for i, v in enumerate(graph.results)]
    return "\n".join(lines) + "\n"


def _residency(where: Residency) -> str:
    parts = []
    for what, layout in (("in", where.chip_in), ("out", where.chip_out)):
        if layout is not None:
            kind = "window" if isinstance(layout, window.OnChip) else "pixel rows"
            parts.append(
                f"on-chip {what}: output rows [{layout.base}, {layout.base + layout.rows}) {kind}"
            )
    first, count = where.out_area
    parts.append(f"output area [{first}, {first + count})")
    if where.by_channel:
        parts.append("by channel")
    return "; ".join(parts)


def _slots(slots: LayerSlots) -> str:
    """Each buffer's slots (count x rows, and the first row when not 0), the steps, and
    how many of them load each buffer (a miss; a hit reuses what a slot holds)."""
    areas = ", ".join(
        f"{buffer} {a.count}x{a.rows}" + (f" at {a.base}" if a.base else "")
        for buffer, a in slots.cut.areas.items()
    )
    misses = ", ".join(
        f"{buffer} {sum(use[buffer].miss for use in slots.uses if buffer in use)}"
        for buffer in slots.cut.areas
        if any(buffer in use for use in slots.uses)
    )
    return f"  slots: {areas}; steps {len(slots.uses)}; loads: {misses or 'none'}"


def _at(address: int) -> str:
    return "on chip" if address == ON_CHIP else f"@{address}"


def dump_plan(graph: LayerGraph, plan: Plan) -> str:
    names = _names(graph)
    lines = [
        f"input {names[a]} {_at(t.address)} {t.nbytes} bytes"
        for a, t in zip(graph.args, plan.inputs, strict=True)
    ]
    lines += [f"section {n} @{s.address} {len(s.data)} bytes" for n, s in plan.sections.items()]
    for i, (layer, lp) in enumerate(zip(graph.layers, plan.layers, strict=True)):
        reads = ", ".join(
            f"{_name(names, v)} {_at(a)}" for v, a in zip(sources(layer), lp.inputs, strict=True)
        )
        constants = "".join(
            f" {what} @{address}"
            for what, address in (
                ("weights", lp.weights),
                ("params", lp.params),
                ("table", lp.table),
            )
            if address is not None
        )
        lines.append(
            f"layer {i}: reads {reads}; writes {names[layer.out]} {_at(lp.output)};{constants}"
            f"{';' if constants else ''} {_residency(lp.residency)}"
        )
        lines.append(_slots(lp.slots))
    lines += [
        f"output {t.name}: {_name(names, v)} {_at(t.address)} {t.nbytes} bytes"
        for v, t in zip(graph.results, plan.outputs, strict=True)
    ]
    lines.append(f"dram: {plan.dram_high} bytes")
    return "\n".join(lines) + "\n"


def dump_code(graph: LayerGraph, emitted: Emitted) -> str:
    starts = {start: i for i, start in enumerate(emitted.layer_starts)}
    lines = []
    for index, inst in enumerate(emitted.code):
        if index in starts:
            i = starts[index]
            lines.append(f"# layer {i}: {graph.layers[i].describe().split(' ', 1)[0]}")
        lines.append(inst.text())
    return "\n".join(lines) + "\n"
