"""`tosa-to-npu`: a quantized TOSA function as one NPU program.

`npu_graph` turns the entry function into layers (MAC, pooling, elementwise,
table; rescales and clamps folded into requantization), `npu_kernels` emits
each layer's tiled, double-buffered instructions, and this pass plans DRAM:
arguments, then one constant section (weights, tables, per-channel records),
then every intermediate at the first free place from its producer until its
last reader (first fit), so DRAM is reused by lifetime.

The result replaces the module's functions with one `npu.program` for the
entry function, carrying its constants and an io manifest, so
`qopt -p tosa-to-npu -t npu-bin -o model.npub` gives a binary `qsim` runs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.npu import ProgramOp, instruction_op
from qdialect.ir.errors import OpError
from qdialect.lowering import npu_kernels as kernels
from qdialect.lowering import npu_window as window
from qdialect.lowering.npu_graph import (
    PASS_NAME,
    Layer,
    MacLayer,
    MoveLayer,
    PoolLayer,
    VectorLayer,
    alias,
    const_array,
    layers_of,
    sources,
    storage_i8,
)
from qdialect.lowering.npu_stream import Stream, param_bytes
from qdialect.npu.machine import Machine, MachineError, load_machine

ALIGN = 64
SECTIONS = ("weights", "params", "luts")  # the binary's data sections, in this order


class DramPlan:
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


def _nbytes(v: SSAValue) -> int:
    return int(np.prod(ht.shape_of(v.type), dtype=np.int64))


def _constants(layer: Layer, machine: Machine) -> dict[str, bytes]:
    """A layer's constant bytes by binary section: weights, per-channel records, tables."""
    cols = machine.mac_cols
    if isinstance(layer, MacLayer):
        data = (
            kernels.fc_weight_bytes(layer, cols)
            if layer.window is None
            else window.conv_weight_bytes(layer, cols, window.plan_window(layer, machine).group)
        )
        return {
            "weights": data,
            "params": param_bytes(layer.requant.stages, layer.channels, cols),
        }
    if isinstance(layer, PoolLayer):
        stages, _ = window.window_stages(layer)
        return {"params": param_bytes(stages, layer.channels, cols)}
    if isinstance(layer, VectorLayer):
        _, width = kernels.vector_shape(layer, cols)
        return {"params": param_bytes(kernels.vector_stages(layer, width), width, cols)}
    if isinstance(layer, MoveLayer):
        return {}
    return {"luts": layer.table.tobytes()}


@dataclass(frozen=True)
class Residency:
    """Where a layer's input and output live when they stay on chip, and the output-buffer
    rows (first, count) left for its output slots."""

    chip_in: window.OnChip | window.OnChipRows | None
    chip_out: window.OnChip | window.OnChipRows | None
    out_area: tuple[int, int]


def _window_layer(layer: Layer) -> bool:
    return isinstance(layer, PoolLayer) or (
        isinstance(layer, MacLayer) and layer.window is not None
    )


def plan_residency(layers: list[Layer], machine: Machine, keep: set[SSAValue],
                   enabled: bool = True) -> list[Residency]:  # fmt: skip
    """Keep a window layer's output in the output buffer when the next layer, a window layer,
    is its only reader and can take it from there (TPU-MLIR's layer groups, for pairs and
    chains): the tensor then never goes to DRAM. Consecutive on-chip tensors sit at opposite
    ends of the buffer, so a layer reads one while it writes the other."""
    rows = machine.buffer("output").rows
    readers: dict[SSAValue, int] = {}
    for layer in layers:
        for v in sources(layer):
            readers[alias(v)] = readers.get(alias(v), 0) + 1
    out: list[Residency] = []
    chip_in: window.OnChip | window.OnChipRows | None = None
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
                nxt.by_channel = True
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
    return out


def _slots_fit(layer: Layer, machine: Machine, rows: int) -> bool:
    try:
        window.plan_window(layer, machine, rows)
    except ValueError:
        return False
    return True


def compile_function(func: FuncOp, machine: Machine, machine_name: str,
                     keep_on_chip: bool = True) -> ProgramOp:  # fmt: skip
    layers = layers_of(func)
    if not layers:
        raise OpError(func, f"{PASS_NAME}: '@{func.sym_name.data}' has no layer to run")
    plan = DramPlan(machine)
    address: dict[SSAValue, int] = {}
    io_inputs = []
    for i, arg in enumerate(func.body.block.args):
        shape = ht.shape_of(arg.type)
        if shape is None or any(d < 0 for d in shape) or not storage_i8(arg.type):
            raise OpError(func, f"{PASS_NAME}: argument {i} must be an i8 tensor of static shape")
        address[arg] = plan.take(_nbytes(arg))
        io_inputs.append(
            {"name": f"arg{i}", "dram": address[arg], "shape": list(shape), "dtype": "int8"}
        )
    returned = func.body.block.last_op
    results = [alias(v) for v in (returned.operands if isinstance(returned, ReturnOp) else [])]
    last_read = {}
    for index, layer in enumerate(layers):
        for v in sources(layer):
            last_read[alias(v)] = index
    residency = plan_residency(layers, machine, set(results), keep_on_chip)
    blobs = {name: b"" for name in SECTIONS}
    placed = []
    for layer in layers:
        offsets = {}
        for name, data in _constants(layer, machine).items():
            offsets[name] = len(blobs[name])
            blobs[name] += data + bytes(-len(data) % ALIGN)
        placed.append(offsets)
    # Constant tensors an elementwise layer reads (a broadcast bias tiled by the importer)
    # live in the weights section like any other constant.
    operand_offsets: dict[SSAValue, int] = {}
    for layer in layers:
        for v in map(alias, sources(layer)):
            array = None if v in address or v in operand_offsets else const_array(v)
            if array is not None and storage_i8(v.type):
                operand_offsets[v] = len(blobs["weights"])
                data = array.astype(np.int8).tobytes()
                blobs["weights"] += data + bytes(-len(data) % ALIGN)
    bases = {name: plan.take(len(blob)) for name, blob in blobs.items() if blob}
    for v, offset in operand_offsets.items():
        address[v] = bases["weights"] + offset
    stream = Stream(machine)
    for index, (layer, offsets) in enumerate(zip(layers, placed, strict=True)):
        where = residency[index]
        xs = []
        for v in sources(layer):
            if where.chip_in is not None and alias(v) == layers[index - 1].out:
                xs.append(-1)  # read from the output buffer, never from DRAM
                continue
            if alias(v) not in address:
                raise OpError(
                    func,
                    f"{PASS_NAME}: a layer reads a value that is neither an argument nor computed on the NPU",
                )
            xs.append(address[alias(v)])
        out = -1 if where.chip_out else plan.take(_nbytes(layer.out))
        if where.chip_out is None:
            address[layer.out] = out
        w, p, t = (bases.get(name, 0) + offsets.get(name, 0) for name in SECTIONS)
        stream.begin_layer()
        if isinstance(layer, MacLayer) and layer.window is None:
            m_total = _nbytes(alias(layer.x)) // layer.weight.shape[0]
            kernels.emit_fc(stream, layer, xs[0], w, p, out, m_total)
        elif isinstance(layer, MacLayer | PoolLayer):
            window.emit_window(stream, layer, xs[0], w, p, out,
                                where.chip_in, where.chip_out, where.out_area)  # fmt: skip
        elif isinstance(layer, VectorLayer):
            chip_operand = None
            if where.chip_in is not None:
                chip_operand = [alias(v) for v in sources(layer)].index(layers[index - 1].out)
            kernels.emit_vector(stream, layer, xs, p, out, where.chip_in, chip_operand,
                                where.out_area)  # fmt: skip
        elif isinstance(layer, MoveLayer):
            kernels.emit_move(stream, layer, xs, out)
        else:
            kernels.emit_table(stream, layer, xs[0], t, out)
        for v in {alias(v) for v in sources(layer)}:
            if (
                last_read[v] == index
                and v in address
                and v not in results
                and v not in func.body.block.args
                and v not in operand_offsets
            ):
                plan.give(address[v], _nbytes(v))
    io_outputs = []
    for i, source in enumerate(results):
        if source not in address:
            raise OpError(returned, f"{PASS_NAME}: result {i} is not computed on the NPU")
        io_outputs.append({"name": f"result{i}", "dram": address[source],
                           "shape": list(ht.shape_of(returned.operands[i].type)), "dtype": "int8"})  # fmt: skip
    block = Block([instruction_op(inst) for inst in stream.finish()])
    program = ProgramOp(machine_name, Region(block))
    program.attributes["npu.sections"] = DictionaryAttr(
        {name: _section(blobs[name], bases[name]) for name in bases}
    )
    program.attributes["npu.io"] = StringAttr(
        json.dumps({"inputs": io_inputs, "outputs": io_outputs})
    )
    return program


def _section(data: bytes, address: int) -> ArrayAttr:
    values = list(np.frombuffer(data, np.int8).astype(int))
    dense = DenseIntOrFPElementsAttr.from_list(TensorType(IntegerType(8), [len(values)]), values)
    return ArrayAttr([IntegerAttr(address, i64), dense])


@dataclass(frozen=True)
class TosaToNpu(ModulePass):
    """Compile the entry function (quantized TOSA) to one npu.program for a machine description."""

    name = PASS_NAME

    machine: str = "default"
    """A shipped machine description (`default`, `small`) or a JSON file."""

    entry: str = "main"
    """The function to compile."""

    keep_on_chip: bool = True
    """Keep a layer's output in the output buffer for the next layer when it fits."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            machine = load_machine(self.machine)
        except MachineError as err:
            raise OpError(op, f"{PASS_NAME}: {err}") from None
        funcs = [f for f in op.body.block.ops if isinstance(f, FuncOp)]
        entry = next((f for f in funcs if f.sym_name.data == self.entry), None)
        if entry is None:
            raise OpError(op, f"{PASS_NAME}: no function '@{self.entry}' to compile")
        try:
            program = compile_function(entry, machine, self.machine, self.keep_on_chip)
        except ValueError as err:
            raise OpError(entry, f"{PASS_NAME}: {err}") from None
        for f in funcs:
            Rewriter.erase_op(f, safe_erase=False)
        op.body.block.add_op(program)
