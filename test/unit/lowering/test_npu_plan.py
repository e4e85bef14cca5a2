"""Stage 2 of `tosa-to-npu` (npu_plan): a pure function of the layer graph — DRAM by
lifetime, residency, buffer slots. The plan's dump is FileCheck-tested in
test/filecheck/lowering/npu_plan.mlir; these tests check what a dump cannot show."""

from __future__ import annotations

import pytest

from qdialect.lowering import npu_window as window
from qdialect.lowering.npu_graph import LayerError, form_layers
from qdialect.lowering.npu_plan import (
    ON_CHIP,
    DramAllocator,
    assign_slots,
    plan_program,
    plan_slots,
)
from qdialect.lowering.npu_stream import Cut, SlotArea
from qdialect.npu.machine import load_machine
from unit.lowering.test_tosa_to_npu import (
    entry,
    mlp,
    resnet_tosa,
)


def test_planning_is_pure() -> None:
    """The same graph planned twice gives equal plans (slots included), and planning
    writes to no layer; what stays on chip, and so what goes by channel, is the plan's."""
    graph = form_layers(entry(resnet_tosa()))
    machine = load_machine("default")
    before = [dict(vars(layer)) for layer in graph.layers]
    first, second = plan_program(graph, machine), plan_program(graph, machine)
    assert first == second
    assert first.layers[0].slots == second.layers[0].slots
    for layer, fields in zip(graph.layers, before, strict=True):
        assert all(getattr(layer, name) is value for name, value in fields.items())
    # The residual add reads the second convolution's output on chip, a pixel per row,
    # which is the plan's decision (it was a flag set on the layer before).
    assert first.layers[-1].inputs[0] == ON_CHIP
    assert first.layers[-1].chip_operand == 0
    assert isinstance(first.layers[-1].residency.chip_in, window.OnChipRows)
    assert first.layers[-1].residency.by_channel
    off = plan_program(graph, machine, keep_on_chip=False)
    assert ON_CHIP not in {a for lp in off.layers for a in (*lp.inputs, lp.output)}
    assert not any(lp.residency.by_channel for lp in off.layers)


def test_dram_plan_reuses_freed_intermediates() -> None:
    plan = DramAllocator(load_machine("small"))
    a, b = plan.take(100), plan.take(64)
    assert (a, b) == (0, 128)  # 64-byte aligned, first fit
    plan.give(a, 100)
    assert plan.take(64) == 0  # the freed block is reused
    assert plan.take(64) == 64  # and the rest of it
    assert plan.take(1) == 192
    plan.give(b, 64)
    plan.give(0, 128)
    assert plan.take(192) == 0  # neighbouring free blocks merge
    with pytest.raises(ValueError, match="bytes of DRAM"):
        plan.take(load_machine("small").dram_bytes)


def test_slots_go_least_recently_used_first() -> None:
    """A key a slot still holds is a hit (no load); a new key takes the slot used longest
    ago, which must be loaded."""
    area = SlotArea(2, 10, base=4)
    uses = assign_slots(area, ["a", "b", "a", "c", "b", "c"])
    assert [(u.slot, u.row, u.miss) for u in uses] == [
        (0, 4, True),  # a
        (1, 14, True),  # b
        (0, 4, False),  # a again: a hit
        (1, 14, True),  # c evicts b, used longer ago than a
        (0, 4, True),  # b evicts a
        (1, 14, False),  # c again
    ]
    assert [u.miss for u in assign_slots(SlotArea(1, 3), [1, 1, 2, 1])] == [True, False, True, True]


def test_plan_slots_assigns_each_buffer_over_the_steps_that_use_it() -> None:
    """Each buffer's slots are assigned over the steps that name a key for it only: a
    step without an input (read on chip) does not age the input slots."""
    cut = Cut(
        {"input": SlotArea(2, 8), "weight": SlotArea(1, 4), "output": SlotArea(2, 8)},
        ({"input": 0, "weight": "w"}, {"weight": "w"}, {"input": 1, "weight": "v"}),
    )
    slots = plan_slots(cut)
    assert slots.cut is cut
    assert [sorted(use) for use in slots.uses] == [
        ["input", "weight"],
        ["weight"],
        ["input", "weight"],
    ]
    assert [use["weight"].miss for use in slots.uses] == [True, False, True]
    assert [slots.uses[i]["input"].row for i in (0, 2)] == [0, 8]


def test_fully_connected_slots_reuse_the_input_across_column_blocks() -> None:
    """Two column blocks of one input chunk: the input slot is loaded once, each block's
    weights and records once, in their own slots."""
    graph = form_layers(entry(mlp(2, [6, 5], seed=0)))
    (lp,) = plan_program(graph, load_machine("small")).layers
    assert [{b: (u.slot, u.miss) for b, u in use.items()} for use in lp.slots.uses] == [
        {"input": (0, True), "weight": (0, True), "params": (0, True)},
        {"input": (0, False), "weight": (1, True), "params": (1, True)},
    ]


def test_a_layer_too_large_for_the_buffers_is_reported_at_its_ops() -> None:
    """A layer whose rows the machine's buffers cannot hold stops planning with an error
    at the layer's first op and every op it was formed from (so `npu-partition` can
    move them to the host together); the same layer plans on a larger machine."""
    text = """
    func.func @main(%x: tensor<1x3x400x4xi8>) -> tensor<1x3x400x4xi8> {
      %w = tosa.const values(dense<1> : tensor<4x3x3x4xi8>) : () -> tensor<4x3x3x4xi8>
      %b = tosa.const values(dense<0> : tensor<4xi32>) : () -> tensor<4xi32>
      %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
      %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
      %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
      %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
      %acc = tosa.conv2d %x, %w, %b, %z8, %z8 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x3x400x4xi8>, tensor<4x3x3x4xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x400x4xi32>
      %y = tosa.rescale %acc, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x3x400x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x3x400x4xi8>
      %r = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x3x400x4xi8>) -> tensor<1x3x400x4xi8>
      func.return %r : tensor<1x3x400x4xi8>
    }
    """
    graph = form_layers(entry(text))
    with pytest.raises(LayerError) as err:
        plan_program(graph, load_machine("small"))
    assert [op.name for op in err.value.ops] == ["tosa.conv2d", "tosa.rescale", "tosa.clamp"]
    assert err.value.op is err.value.ops[0]
    assert "'tosa.conv2d' does not fit the machine: an output row needs 402" in err.value.message
    plan_program(graph, load_machine("default"))
