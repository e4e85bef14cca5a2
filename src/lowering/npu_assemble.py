"""Stage 4 of `tosa-to-npu`: the records and the plan as one `npu.program` op.

Each record becomes its instruction op (`npu.instruction_op`); the program
carries the plan's constant sections (`npu.sections`: name -> [DRAM address,
bytes]) and io manifest (`npu.io`), so `-t npu-bin` writes a binary `qsim`
runs as it is. Text appears only when the program is printed.
"""

from __future__ import annotations

import json

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Block, Region

from qdialect.dialects.npu import ProgramOp, instruction_op
from qdialect.lowering.npu_emit import Emitted
from qdialect.lowering.npu_plan import Plan
from qdialect.npu.encoding import Section


def assemble_program(emitted: Emitted, plan: Plan, machine_name: str) -> ProgramOp:
    """Stage 4: the program op for `machine_name` (a shipped name or a JSON path)."""
    block = Block([instruction_op(inst) for inst in emitted.code])
    program = ProgramOp(machine_name, Region(block))
    program.attributes["npu.sections"] = DictionaryAttr(
        {name: _section(section) for name, section in plan.sections.items()}
    )
    manifest = {
        "inputs": [t.to_json() for t in plan.inputs],
        "outputs": [t.to_json() for t in plan.outputs],
    }
    program.attributes["npu.io"] = StringAttr(json.dumps(manifest))
    return program


def _section(section: Section) -> ArrayAttr:
    # The bytes are the attribute's storage already (i8, little-endian, one per element):
    # packing them value by value costs seconds per megabyte of weights.
    data = bytes(section.data)
    dense = DenseIntOrFPElementsAttr(TensorType(IntegerType(8), [len(data)]), BytesAttr(data))
    return ArrayAttr([IntegerAttr(section.address, i64), dense])
