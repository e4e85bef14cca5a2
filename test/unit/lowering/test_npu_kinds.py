"""The layer kinds of `tosa-to-npu` (npu_kinds): one entry per kind of layer stage 1
forms, each naming its constants, cut and emitter."""

from __future__ import annotations

from pathlib import Path

from qdialect.lowering.npu_graph import form_layers
from qdialect.lowering.npu_kinds import KINDS, kind_of
from unit.lowering.test_tosa_to_npu import (
    entry,
    mlp,
    pool_program,
    resnet_tosa,
)

INPUTS = Path(__file__).parents[2] / "filecheck" / "lowering" / "Inputs"


def test_every_layer_stage_one_forms_has_a_kind() -> None:
    """Each kind of layer forming can produce has its entry: the layers of the layer-kinds
    input, an MLP, the ResNet block and a pool cover every record class."""
    sources = [
        (INPUTS / "npu-layer-kinds.mlir").read_text(),
        mlp(2, [6, 5], seed=0),
        resnet_tosa(),
        pool_program("avg", 4, 4, 3, (2, 2), (2, 2), (0, 0, 0, 0), seed=0),
    ]
    formed = {layer.layer_kind for s in sources for layer in form_layers(entry(s)).layers}
    assert formed == set(KINDS)
    for s in sources:
        for layer in form_layers(entry(s)).layers:
            assert kind_of(layer) is KINDS[layer.layer_kind]
    assert KINDS["conv"] is KINDS["pool"]  # window layers share one emitter
