"""Stage 4 of `tosa-to-npu`: the records and the plan as one `npu.program` op.

Each record becomes its instruction op (`npu.instruction_op`); the program
carries the plan's constant sections (`npu.sections`: name -> [DRAM address,
bytes]), io manifest (`npu.io`) and layer map (`npu.layers`: each layer's source
name, instruction range and output address, which the debugging tools read), so `-t npu-bin` writes a binary `qsim`
runs as it is. Text appears only when the program is printed.
"""

from __future__ import annotations

import json
import time

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    NameLoc,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Block, Operation, Region

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.npu import ProgramOp, instruction_op
from qdialect.lowering.npu_emit import Emitted
from qdialect.lowering.npu_graph import LayerGraph, useful_macs
from qdialect.lowering.npu_plan import ON_CHIP, Plan
from qdialect.npu.encoding import LayerRecord, Section


def layer_records(graph: LayerGraph, emitted: Emitted, plan: Plan) -> list[LayerRecord]:
    """The layer map: each layer's source name, instruction range and output address."""
    starts = emitted.layer_starts
    last: dict[str, Operation] = {}  # the op that computes each named tensor: its last
    for op in graph.func.body.block.ops:
        if isinstance(op.location, NameLoc) and op.results:
            last[op.location.desc.data] = op
    records = []
    for i, (layer, lp) in enumerate(zip(graph.layers, plan.layers, strict=True)):
        end = starts[i + 1] if i + 1 < len(starts) else len(emitted.code)
        owner = layer.out.owner
        loc = owner.location if isinstance(owner, Operation) else None
        name = loc.desc.data if isinstance(loc, NameLoc) else ""
        if last.get(name) is not owner:
            name = ""  # an intermediate of that tensor (a layout copy before its layer)
        address = None if lp.output == ON_CHIP else lp.output
        shape = tuple(ht.shape_of(layer.out.type) or ())
        records.append(LayerRecord(name, starts[i], end, address, shape, useful_macs(layer)))
    return records


def assemble_program(emitted: Emitted, plan: Plan, machine_name: str,
                     graph: LayerGraph | None = None,
                     seconds: list[float] | None = None) -> ProgramOp:  # fmt: skip
    """Stage 4: the program op for `machine_name` (a shipped name or a JSON path); with
    `graph`, the layer map (`npu.layers`) for the debugging tools. With `seconds`, the
    time each layer's instructions take to become ops is appended (the tail — final
    waits and `halt` — counts to the last layer)."""
    ops: list[Operation] = []
    bounds = [*emitted.layer_starts[1:], len(emitted.code)] if emitted.layer_starts else []
    for end in bounds:
        start = time.perf_counter()
        ops.extend(instruction_op(inst) for inst in emitted.code[len(ops) : end])
        if seconds is not None:
            seconds.append(time.perf_counter() - start)
    ops.extend(instruction_op(inst) for inst in emitted.code[len(ops) :])
    block = Block(ops)
    program = ProgramOp(machine_name, Region(block))
    program.attributes["npu.sections"] = DictionaryAttr(
        {name: _section(section) for name, section in plan.sections.items()}
    )
    manifest = {
        "inputs": [t.to_json() for t in plan.inputs],
        "outputs": [t.to_json() for t in plan.outputs],
    }
    program.attributes["npu.io"] = StringAttr(json.dumps(manifest))
    if graph is not None:
        records = [r.to_json() for r in layer_records(graph, emitted, plan)]
        program.attributes["npu.layers"] = StringAttr(json.dumps(records))
    return program


def _section(section: Section) -> ArrayAttr:
    # The bytes are the attribute's storage already (i8, little-endian, one per element):
    # packing them value by value costs seconds per megabyte of weights.
    data = bytes(section.data)
    dense = DenseIntOrFPElementsAttr(TensorType(IntegerType(8), [len(data)]), BytesAttr(data))
    return ArrayAttr([IntegerAttr(section.address, i64), dense])
