"""Stage 3 of `tosa-to-npu`: each layer's instruction records, from the graph and the plan.

The emitters (`npu_window` for convolution and pooling, `npu_kernels` for the
rest) follow the cut and slots the plan gives each layer and append records to
one `Stream`, which keeps the engines in step with tokens. They take every
decision of the plan as given — addresses, residency, buffer slots — and
change nothing in the graph; `npu_kinds` says which emitter a layer has.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from qdialect.lowering.npu_graph import LayerGraph
from qdialect.lowering.npu_kinds import kind_of
from qdialect.lowering.npu_plan import Plan
from qdialect.lowering.npu_stream import Stream
from qdialect.npu.encoding import Instruction
from qdialect.npu.machine import Machine


@dataclass(frozen=True)
class Emitted:
    """Stage 3's result: the program's records, ending in `halt`, and where each layer's
    instructions start (the dump marks them; the program does not need them)."""

    code: tuple[Instruction, ...]
    layer_starts: tuple[int, ...]


def emit_program(graph: LayerGraph, plan: Plan, machine: Machine,
                 seconds: list[float] | None = None) -> Emitted:  # fmt: skip
    """Stage 3: every layer in program order (its kind's emitter, given its `LayerPlan`),
    then the final token waits and `halt`. With `seconds`, each layer's time is appended."""
    stream = Stream(machine)
    starts = []
    for layer, lp in zip(graph.layers, plan.layers, strict=True):
        start = time.perf_counter()
        starts.append(len(stream.code))
        stream.begin_layer()
        kind_of(layer).emit(stream, layer, lp)
        if seconds is not None:
            seconds.append(time.perf_counter() - start)
    return Emitted(tuple(stream.finish()), tuple(starts))
