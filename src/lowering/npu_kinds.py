"""The layer kinds of `tosa-to-npu`: what the later stages do with each kind of layer.

One table, so that adding a layer kind is a record class in `npu_graph` (what
stage 1 forms) and one entry here (what stages 2 and 3 do with it). Each entry
names three functions of the layer, the machine and the layer's residency:

* `constants`: its constant bytes by binary section (weights, per-channel
  records, tables), which the plan places in DRAM;
* `cut`: how its emitter tiles it (a `Cut`: slot areas and the keys of each
  step's slots), from which the plan assigns buffer slots;
* `emit`: its instruction records, from the layer and its `LayerPlan`.

The functions live beside their emitters (`npu_window`, `npu_kernels`), which
share the tiling arithmetic; the plan (`npu_plan`) and emission (`npu_emit`)
only look kinds up here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qdialect.lowering import npu_kernels as kernels
from qdialect.lowering import npu_window as window
from qdialect.lowering.npu_graph import Layer
from qdialect.lowering.npu_stream import Cut, Stream
from qdialect.npu.machine import Machine

if TYPE_CHECKING:
    from qdialect.lowering.npu_plan import LayerPlan, Residency


@dataclass(frozen=True)
class LayerKind:
    """Stages 2 and 3 for one kind of layer (see the module docstring)."""

    constants: Callable[[Any, Machine, Residency], dict[str, bytes]]
    cut: Callable[[Any, Machine, Residency], Cut]
    emit: Callable[[Stream, Any, LayerPlan], None]


_WINDOW = LayerKind(window.window_constants, window.window_cut, window.emit_window)

KINDS: dict[str, LayerKind] = {
    "fc": LayerKind(kernels.fc_constants, kernels.fc_cut, kernels.emit_fc),
    "conv": _WINDOW,
    "pool": _WINDOW,
    "vector": LayerKind(kernels.vector_constants, kernels.vector_cut, kernels.emit_vector),
    "table": LayerKind(kernels.table_constants, kernels.table_cut, kernels.emit_table),
    "move": LayerKind(kernels.move_constants, kernels.move_cut, kernels.emit_move),
}


def kind_of(layer: Layer) -> LayerKind:
    """The entry of the layer's kind (`layer_kind`, set by its record class)."""
    return KINDS[layer.layer_kind]
