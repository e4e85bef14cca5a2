"""Stage 3 of `tosa-to-npu`: each layer's instruction records, from the graph and the plan.

The emitters (`npu_window` for convolution and pooling, `npu_kernels` for the
rest) tile a layer for the machine's buffers and append records to one
`Stream`, which keeps the engines in step with tokens. They take every
decision of the plan as given and change nothing in the graph.
"""

from __future__ import annotations

from dataclasses import dataclass

from qdialect.lowering import npu_kernels as kernels
from qdialect.lowering import npu_window as window
from qdialect.lowering.npu_graph import (
    LayerGraph,
    MacLayer,
    MoveLayer,
    PoolLayer,
    VectorLayer,
    alias,
    nbytes,
)
from qdialect.lowering.npu_plan import ON_CHIP, Plan
from qdialect.lowering.npu_stream import Stream
from qdialect.npu.encoding import Instruction
from qdialect.npu.machine import Machine


@dataclass(frozen=True)
class Emitted:
    """Stage 3's result: the program's records, ending in `halt`, and where each layer's
    instructions start (the dump marks them; the program does not need them)."""

    code: tuple[Instruction, ...]
    layer_starts: tuple[int, ...]


def emit_program(graph: LayerGraph, plan: Plan, machine: Machine) -> Emitted:
    """Stage 3: every layer in program order, then the final token waits and `halt`."""
    stream = Stream(machine)
    starts = []
    for layer, lp in zip(graph.layers, plan.layers, strict=True):
        where, xs, out = lp.residency, list(lp.inputs), lp.output
        starts.append(len(stream.code))
        stream.begin_layer()
        if isinstance(layer, MacLayer) and layer.window is None:
            rows = nbytes(alias(layer.x)) // layer.weight.shape[0]
            kernels.emit_fc(stream, layer, xs[0], lp.address("weights"), lp.address("params"), out,
                            rows)  # fmt: skip
        elif isinstance(layer, MacLayer | PoolLayer):
            window.emit_window(stream, layer, xs[0], lp.weights or 0, lp.address("params"), out,
                               where.chip_in, where.chip_out, where.out_area)  # fmt: skip
        elif isinstance(layer, VectorLayer):
            chip_operand = xs.index(ON_CHIP) if where.chip_in is not None else None
            kernels.emit_vector(stream, layer, xs, lp.address("params"), out, where.chip_in,
                                chip_operand, where.out_area, where.by_channel)  # fmt: skip
        elif isinstance(layer, MoveLayer):
            kernels.emit_move(stream, layer, xs, out)
        else:
            kernels.emit_table(stream, layer, xs[0], lp.address("table"), out)
    return Emitted(tuple(stream.finish()), tuple(starts))
