"""The stages of `tosa-to-npu` as library calls: form layers -> plan -> emit -> assemble.

The stage dumps are checked with FileCheck (test/filecheck/lowering/); these
tests check what the dumps cannot show: the plan is a pure function (the same
graph planned twice gives equal plans and the layers are not touched), layers
cannot be changed once formed, and the stages chained by hand give the pass's
program.
"""

from __future__ import annotations

import dataclasses

import pytest
from xdsl.dialects.func import FuncOp

from qdialect.context import make_context
from qdialect.dialects.npu import ProgramOp
from qdialect.ir.parser import QParser
from qdialect.lowering import npu_window as window
from qdialect.lowering.npu_assemble import assemble_program
from qdialect.lowering.npu_emit import emit_program
from qdialect.lowering.npu_graph import VectorLayer, form_layers
from qdialect.lowering.npu_plan import ON_CHIP, plan_program
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.models import networks
from qdialect.npu.machine import load_machine
from qdialect.transforms.legalize_to_tosa import LegalizeToTosa


@pytest.fixture(scope="module")
def resnet_tosa() -> str:
    ctx = make_context()
    module = QParser(ctx, networks.build("resnet_block", "small", seed=2).source).parse_module()
    LegalizeToTosa().apply(ctx, module)
    return str(module)


def entry(source: str) -> FuncOp:
    module = QParser(make_context(), source).parse_module()
    return next(op for op in module.walk() if isinstance(op, FuncOp))


def test_planning_is_pure_and_layers_are_frozen(resnet_tosa: str) -> None:
    graph = form_layers(entry(resnet_tosa))
    machine = load_machine("default")
    before = [dict(vars(layer)) for layer in graph.layers]
    first, second = plan_program(graph, machine), plan_program(graph, machine)
    assert first == second
    for layer, fields in zip(graph.layers, before, strict=True):
        assert all(getattr(layer, name) is value for name, value in fields.items())
    add = graph.layers[-1]
    assert isinstance(add, VectorLayer)
    with pytest.raises(dataclasses.FrozenInstanceError):
        add.op = "sub"  # type: ignore[misc]
    # What a layer holds is frozen too: its requantization, stages and their arrays.
    with pytest.raises(dataclasses.FrozenInstanceError):
        add.requant.lo = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        add.requant.stages[0].bias = add.requant.stages[0].bias  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        add.requant.stages[0].bias[0] = 1
    conv = graph.layers[0]
    with pytest.raises(ValueError, match="read-only"):
        conv.weight[0] = 0  # type: ignore[union-attr]
    # The residual add reads the second convolution's output on chip, a pixel per row,
    # which is the plan's decision (it was a flag set on the layer before).
    assert first.layers[-1].inputs[0] == ON_CHIP
    assert isinstance(first.layers[-1].residency.chip_in, window.OnChipRows)
    assert first.layers[-1].residency.by_channel
    off = plan_program(graph, machine, keep_on_chip=False)
    assert ON_CHIP not in {a for lp in off.layers for a in (*lp.inputs, lp.output)}
    assert not any(lp.residency.by_channel for lp in off.layers)


def test_stages_chained_by_hand_give_the_pass_program(resnet_tosa: str) -> None:
    machine = load_machine("small")
    graph = form_layers(entry(resnet_tosa))
    plan = plan_program(graph, machine)
    emitted = emit_program(graph, plan, machine)
    assert emitted.code[-1].opcode.mnemonic == "halt"
    assert len(emitted.layer_starts) == len(graph.layers) == len(plan.layers)
    by_hand = assemble_program(emitted, plan, "small")
    ctx = make_context()
    module = QParser(ctx, resnet_tosa).parse_module()
    TosaToNpu(machine="small").apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    assert by_hand.instructions() == program.instructions() == list(emitted.code)
    assert str(by_hand) == str(program)
