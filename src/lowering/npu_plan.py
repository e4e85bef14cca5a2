"""Stage 2 of `tosa-to-npu`: the plan, a pure function of the layer graph.

`plan_program` decides, before any instruction exists, everything the
emitters take as given — and records it instead of writing it onto the layers:

* residency: which tensors stay in the output buffer between two layers
  (and so which elementwise layers go channel by channel), and the output
  rows each layer's own slots may use (`plan_residency`);
* buffer slots: each layer's cut (its kind's `cut`, see `npu_kinds`) names
  its slot areas and what each step needs in them; `plan_slots` assigns the
  slots, least recently used first, and records per step which slot of each
  buffer the step uses and whether it must be loaded (`LayerSlots`);
* the constant sections (weights, per-channel records, tables) and each
  layer's offsets in them;
* DRAM: arguments, then the constant sections, then each layer's output at
  the first free place from its producer to its last reader (first fit), so
  intermediates reuse memory by lifetime;
* the io manifest: the program's inputs and outputs by name and address.

What remains to emission is what depends on the instructions themselves: the
token waits a slot choice needs (`npu_stream.SlotWaits`), and the rotation of
output slots between store groups (`Stream.out_slot`).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeGuard

import numpy as np
from xdsl.ir import SSAValue

from qdialect.dialects import hlo_types as ht
from qdialect.ir.errors import OpError
from qdialect.lowering import npu_window as window
from qdialect.lowering.npu_graph import (
    PASS_NAME,
    Layer,
    LayerError,
    LayerGraph,
    MacLayer,
    PoolLayer,
    VectorLayer,
    alias,
    const_array,
    layer_ops,
    nbytes,
    sources,
    storage_i8,
)
from qdialect.lowering.npu_kinds import kind_of
from qdialect.lowering.npu_stream import Cut, SlotArea, SlotUse
from qdialect.npu.encoding import Section, Tensor
from qdialect.npu.machine import Machine

ALIGN = 64
SECTIONS = ("weights", "params", "luts")  # the binary's data sections, in this order
ON_CHIP = -1
"""The address of a tensor that stays in the output buffer and never goes to DRAM."""

OnChipLayout = window.OnChip | window.OnChipRows


class DramAllocator:
    """First-fit DRAM allocation in ALIGN-byte units, with frees."""

    def __init__(self, machine: Machine):
        self.size = machine.dram_bytes
        self.free: list[tuple[int, int]] = [(0, self.size)]  # (start, end), sorted
        self.high = 0

    def take(self, nbytes: int) -> int:
        need = -(-max(nbytes, 1) // ALIGN) * ALIGN
        for i, (start, end) in enumerate(self.free):
            if end - start >= need:
                self.free[i] = (start + need, end)
                self.high = max(self.high, start + need)
                return start
        raise ValueError(f"the model needs more than the machine's {self.size} bytes of DRAM")

    def give(self, address: int, nbytes: int) -> None:
        need = -(-max(nbytes, 1) // ALIGN) * ALIGN
        spans = sorted([*self.free, (address, address + need)])
        merged = [spans[0]]
        for start, end in spans[1:]:
            if start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        self.free = [span for span in merged if span[1] > span[0]]


@dataclass(frozen=True)
class Residency:
    """Where a layer's input and output live when they stay on chip, and the output-buffer
    rows (first, count) left for its output slots."""

    chip_in: OnChipLayout | None
    chip_out: OnChipLayout | None
    out_area: tuple[int, int]

    @property
    def by_channel(self) -> bool:
        """An elementwise layer whose operand arrives a pixel per row (`OnChipRows`) goes one
        row per last-axis vector, so its parameters are per channel."""
        return isinstance(self.chip_in, window.OnChipRows)


def assign_slots(area: SlotArea, keys: Iterable[Hashable]) -> tuple[SlotUse, ...]:
    """The slot of `area` each key in turn goes to: the slot already holding it (a hit),
    else the least recently used one, which must be loaded (a miss)."""
    held: list[Hashable] = [None] * area.count
    order = list(range(area.count))  # least recently used first
    uses = []
    for key in keys:
        if key in held:
            slot, miss = held.index(key), False
        else:
            slot, miss = order[0], True
            held[slot] = key
        order.remove(slot)
        order.append(slot)
        uses.append(SlotUse(slot, area.row(slot), miss))
    return tuple(uses)


@dataclass(frozen=True)
class LayerSlots:
    """A layer's buffer slots: its emitter's cut (tiling, slot areas, steps) and, per step,
    the slot it uses in each buffer it loads."""

    cut: Cut
    uses: tuple[Mapping[str, SlotUse], ...]


def plan_slots(cut: Cut) -> LayerSlots:
    """Assign the slots of each buffer a cut loads, for its steps in order."""
    per_buffer = {}
    for buffer, area in cut.areas.items():
        steps = [i for i, keys in enumerate(cut.keys) if buffer in keys]
        per_buffer[buffer] = dict(
            zip(steps, assign_slots(area, (cut.keys[i][buffer] for i in steps)), strict=True)
        )
    uses = tuple(
        {buffer: per_buffer[buffer][i] for buffer in keys} for i, keys in enumerate(cut.keys)
    )
    return LayerSlots(cut, uses)


@dataclass(frozen=True)
class LayerPlan:
    """What one layer's emitter is given: where it lives, reads and writes, and its slots."""

    residency: Residency
    inputs: tuple[int, ...]  # DRAM address of each source, or ON_CHIP
    output: int  # DRAM address, or ON_CHIP
    weights: int | None  # DRAM addresses of the layer's constants, None where it has none
    params: int | None
    table: int | None
    slots: LayerSlots

    @property
    def chip_operand(self) -> int | None:
        """Which input the layer reads from the output buffer, if one."""
        return self.inputs.index(ON_CHIP) if self.residency.chip_in is not None else None

    def address(self, what: str) -> int:
        """The DRAM address of this layer's `weights`, `params` or `table`: the planner
        gives one to every layer whose kind needs it."""
        value = getattr(self, what)
        if value is None:
            raise AssertionError(f"the plan gives this layer no {what}")
        return value


@dataclass(frozen=True)
class Plan:
    """Stage 2's result: one `LayerPlan` per layer, the constant sections, the io manifest."""

    layers: tuple[LayerPlan, ...]
    sections: dict[str, Section] = field(default_factory=dict)
    inputs: tuple[Tensor, ...] = ()
    outputs: tuple[Tensor, ...] = ()
    dram_high: int = 0  # first DRAM byte never used


def _window_layer(layer: Layer | None) -> TypeGuard[MacLayer | PoolLayer]:
    return isinstance(layer, PoolLayer) or (
        isinstance(layer, MacLayer) and layer.window is not None
    )


def _slots_fit(layer: MacLayer | PoolLayer, machine: Machine, rows: int) -> bool:
    try:
        window.plan_window(layer, machine, rows)
    except ValueError:
        return False
    return True


def plan_residency(layers: tuple[Layer, ...], machine: Machine, keep: set[SSAValue],
                   enabled: bool = True) -> tuple[Residency, ...]:  # fmt: skip
    """Keep a window layer's output in the output buffer when the next layer, a window layer,
    is its only reader and can take it from there (TPU-MLIR's layer groups, for pairs and
    chains): the tensor then never goes to DRAM. Consecutive on-chip tensors sit at opposite
    ends of the buffer, so a layer reads one while it writes the other. `keep`: tensors
    that must reach DRAM (the program's results)."""
    rows = machine.buffer("output").rows
    readers: dict[SSAValue, int] = {}
    for layer in layers:
        for v in sources(layer):
            readers[alias(v)] = readers.get(alias(v), 0) + 1
    out: list[Residency] = []
    chip_in: OnChipLayout | None = None
    for i, layer in enumerate(layers):
        chip_out = None
        nxt = layers[i + 1] if i + 1 < len(layers) else None
        keepable = (
            enabled
            and nxt is not None
            and _window_layer(layer)
            and readers.get(layer.out) == 1
            and layer.out not in keep
        )
        at_top = chip_in is not None and chip_in.base == 0
        used = chip_in.rows if chip_in is not None else 0
        if keepable and _window_layer(nxt) and [alias(v) for v in sources(nxt)] == [layer.out]:
            layout = window.on_chip_layout(nxt, machine, 0)
            if layout is not None:
                base = rows - layout.rows if at_top else 0
                layout = window.on_chip_layout(nxt, machine, base)
                if layout.rows + used <= rows and _slots_fit(nxt, machine, rows - layout.rows):
                    chip_out = layout
        elif (
            keepable
            and isinstance(nxt, VectorLayer)
            and [alias(v) for v in sources(nxt)].count(layer.out) == 1
            and tuple(nxt.shape) == (1, layer.window.oh, layer.window.ow, layer.channels)
        ):
            # An elementwise consumer (a residual add): rows of pixels, block by block.
            g = layer.window
            tiles = -(-layer.channels // machine.mac_cols)
            need = tiles * g.oh * g.ow
            if need + used <= rows and rows - need >= 2:
                chip_out = window.OnChipRows(rows - need if at_top else 0, g.oh, g.ow, tiles)
        if chip_in is None:
            area = (0, rows)
        else:
            area = (
                (chip_in.rows, rows - chip_in.rows)
                if chip_in.base == 0
                else (0, rows - chip_in.rows)
            )
        out.append(Residency(chip_in, chip_out, area))
        chip_in = chip_out
    return tuple(out)


def layer_constants(layer: Layer, machine: Machine, where: Residency) -> dict[str, bytes]:
    """A layer's constant bytes by binary section: weights, per-channel records, tables."""
    return kind_of(layer).constants(layer, machine, where)


def read_shape(layer: Layer, v: SSAValue) -> tuple[int, ...]:
    """The shape in which `layer` reads `v` from DRAM: an elementwise layer reads each
    operand in its result's shape (a broadcast constant is stored tiled to it)."""
    if isinstance(layer, VectorLayer):
        return layer.shape
    return tuple(ht.shape_of(v.type) or ())


def _aligned(data: bytes) -> bytes:
    return data + bytes(-len(data) % ALIGN)


@contextmanager
def fitting(layer: Layer) -> Iterator[None]:
    """Report a layer the machine's buffers cannot hold at the layer, not the function."""
    try:
        yield
    except ValueError as err:
        ops = layer_ops(layer)
        raise LayerError(
            ops, f"{PASS_NAME}: '{ops[0].name}' does not fit the machine: {err}"
        ) from None


def plan_program(graph: LayerGraph, machine: Machine, keep_on_chip: bool = True,
                 seconds: list[float] | None = None) -> Plan:  # fmt: skip
    """Stage 2: residency, buffer slots, constant sections, DRAM addresses, io manifest.
    With `seconds`, each layer's constant packing time is appended to it (the per-layer
    part of the stage; bench/bench_compile.py --layers)."""
    layers = graph.layers
    dram = DramAllocator(machine)
    address: dict[SSAValue, int] = {}
    inputs = []
    for i, arg in enumerate(graph.args):
        address[arg] = dram.take(nbytes(arg))
        inputs.append(Tensor(f"arg{i}", address[arg], tuple(ht.shape_of(arg.type)), "int8"))
    results = [alias(v) for v in graph.results]
    last_read = {}
    for index, layer in enumerate(layers):
        for v in sources(layer):
            last_read[alias(v)] = index
    residency = plan_residency(layers, machine, set(results), keep_on_chip)
    blobs = dict.fromkeys(SECTIONS, b"")
    offsets = []
    for layer, where in zip(layers, residency, strict=True):
        start = time.perf_counter()
        placed = {}
        with fitting(layer):
            constants = layer_constants(layer, machine, where)
        for name, data in constants.items():
            placed[name] = len(blobs[name])
            blobs[name] += _aligned(data)
        offsets.append(placed)
        if seconds is not None:
            seconds.append(time.perf_counter() - start)
    # Constant tensors an elementwise layer reads live in the weights section like any
    # other constant, tiled to the shape the layer reads (its own: the vector
    # instructions take operands of the result's shape; the IR keeps them small).
    operand_offsets: dict[tuple[SSAValue, tuple[int, ...]], int] = {}
    for layer in layers:
        for v in map(alias, sources(layer)):
            key = (v, read_shape(layer, v))
            array = None if v in address or key in operand_offsets else const_array(v)
            if array is not None and storage_i8(v.type):
                operand_offsets[key] = len(blobs["weights"])
                tiled = np.broadcast_to(array, key[1]).astype(np.int8)
                blobs["weights"] += _aligned(tiled.tobytes())
    constant_operands = {v for v, _ in operand_offsets}
    bases = {name: dram.take(len(blob)) for name, blob in blobs.items() if blob}
    planned = []
    for index, (layer, where) in enumerate(zip(layers, residency, strict=True)):
        with fitting(layer):
            slots = plan_slots(kind_of(layer).cut(layer, machine, where))
        xs = []
        for v in sources(layer):
            if where.chip_in is not None and alias(v) == layers[index - 1].out:
                xs.append(ON_CHIP)  # read from the output buffer, never from DRAM
                continue
            key = (alias(v), read_shape(layer, alias(v)))
            if key in operand_offsets:
                xs.append(bases["weights"] + operand_offsets[key])
                continue
            if alias(v) not in address:
                raise OpError(
                    graph.func,
                    f"{PASS_NAME}: a layer reads a value that is neither an argument nor computed on the NPU",
                )
            xs.append(address[alias(v)])
        out = ON_CHIP if where.chip_out else dram.take(nbytes(layer.out))
        if where.chip_out is None:
            address[layer.out] = out
        w, p, t = (
            bases[name] + offsets[index][name] if name in offsets[index] else None
            for name in SECTIONS
        )
        planned.append(LayerPlan(where, tuple(xs), out, w, p, t, slots))
        for v in {alias(v) for v in sources(layer)}:
            if (
                last_read[v] == index
                and v in address
                and v not in results
                and v not in graph.args
                and v not in constant_operands
            ):
                dram.give(address[v], nbytes(v))
    outputs = []
    for i, (value, source) in enumerate(zip(graph.results, results, strict=True)):
        if source not in address:
            raise OpError(graph.returned, f"{PASS_NAME}: result {i} is not computed on the NPU")
        outputs.append(
            Tensor(f"result{i}", address[source], tuple(ht.shape_of(value.type)), "int8")
        )
    sections = {name: Section(blobs[name], bases[name]) for name in bases}
    return Plan(tuple(planned), sections, tuple(inputs), tuple(outputs), dram.high)
