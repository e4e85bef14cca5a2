"""Stage 3 of `tosa-to-npu` (npu_emit): each layer's records from the graph and the plan,
taking the plan's decisions as given. The code dump is FileCheck-tested in
test/filecheck/lowering/npu_emit.mlir."""

from __future__ import annotations

import dataclasses

from qdialect.lowering.npu_emit import emit_program
from qdialect.lowering.npu_graph import form_layers
from qdialect.lowering.npu_plan import plan_program
from qdialect.npu.machine import load_machine
from unit.lowering.test_tosa_to_npu import (
    entry,
    mlp,
    resnet_tosa,
)


def test_emission_uses_the_slots_the_plan_gives() -> None:
    """The emitters choose no slot: give a layer other slots in its plan and its code
    loads and reads those rows instead."""
    machine = load_machine("small")
    graph = form_layers(entry(mlp(2, [6, 5], seed=0)))
    plan = plan_program(graph, machine)
    (lp,) = plan.layers
    swapped = tuple(
        {**use, "weight": dataclasses.replace(use["weight"], row=use["weight"].row ^ 8)}
        for use in lp.slots.uses
    )
    other = dataclasses.replace(lp, slots=dataclasses.replace(lp.slots, uses=swapped))
    before = emit_program(graph, plan, machine).code
    after = emit_program(graph, dataclasses.replace(plan, layers=(other,)), machine).code

    def weight_rows(code) -> tuple[list[int], list[int]]:
        loads = [i["row"] for i in code if i.opcode.mnemonic == "load" and i["buf"] == 1]
        return loads, [i["w"] for i in code if i.opcode.mnemonic == "matmul"]

    assert weight_rows(before) == ([0, 8], [0, 8])
    assert weight_rows(after) == ([8, 0], [8, 0])


def test_each_layer_starts_where_the_code_says() -> None:
    """`layer_starts` marks each layer's first record; the program ends in `halt`."""
    machine = load_machine("default")
    graph = form_layers(entry(resnet_tosa()))
    emitted = emit_program(graph, plan_program(graph, machine), machine)
    assert emitted.code[-1].opcode.mnemonic == "halt"
    assert len(emitted.layer_starts) == len(graph.layers)
    assert list(emitted.layer_starts) == sorted(set(emitted.layer_starts))
    assert emitted.layer_starts[0] == 0
