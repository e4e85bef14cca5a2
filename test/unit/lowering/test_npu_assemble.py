"""Stage 4 of `tosa-to-npu` (npu_assemble): the records and the plan as one `npu.program`.
The printed op is FileCheck-tested in test/filecheck/lowering/npu_assemble.mlir."""

from __future__ import annotations

from qdialect.dialects.npu import program_binary
from qdialect.lowering.npu_assemble import assemble_program
from qdialect.lowering.npu_emit import emit_program
from qdialect.lowering.npu_graph import form_layers
from qdialect.lowering.npu_plan import plan_program
from qdialect.npu.machine import load_machine
from unit.lowering.test_tosa_to_npu import (
    entry,
    resnet_tosa,
)


def test_program_carries_the_plans_sections_and_manifest() -> None:
    """Stage 4 adds nothing of its own: one op per record, the plan's constant sections
    at their addresses and its io manifest."""
    machine = load_machine("default")
    graph = form_layers(entry(resnet_tosa()))
    plan = plan_program(graph, machine)
    emitted = emit_program(graph, plan, machine)
    program = assemble_program(emitted, plan, "default")
    assert program.instructions() == list(emitted.code)
    binary = program_binary(program, machine.digest())
    assert {name: (s.address, s.data) for name, s in binary.sections.items()} == {
        name: (s.address, s.data) for name, s in plan.sections.items()
    }
    assert [t.to_json() for t in binary.inputs] == [t.to_json() for t in plan.inputs]
    assert [t.to_json() for t in binary.outputs] == [t.to_json() for t in plan.outputs]
