"""`tosa-to-npu`: quantized TOSA functions as NPU programs (first slice: FC and conv layers).

Supported today: chains of fully connected and 2-D convolution layers —
`tosa.matmul` / `tosa.conv2d` of an i8 activation by constant i8 weights
(zero point 0), its `tosa.rescale` to i8 fused into the NPU's requantization, and a following `tosa.clamp` folded into
the requantization bounds (TFLite's fused activation). The input zero point
is folded into the per-channel bias: sum_k (x - zp_x) w = sum_k x w - zp_x
colsum(w). Reshapes and storage bitcasts are free (row-major DRAM). Any other
op stops compilation with an error naming it.

Tiling: output columns in blocks of the MAC array's width; K in tiles of that
width (zero-padded by the DMA); rows of M as many as the input, accumulator
and output buffers hold. Convolutions run an output row at a time: its KH
input rows padded with the zero point, then per output-channel block one
accumulating matmul per (kernel row, input-channel tile) over the KW taps. Every layer reads its input from DRAM and writes its
output to DRAM; loads, compute and stores are ordered by tokens. DRAM is
planned statically: inputs, weights, parameters, intermediates, outputs.

The result replaces the module's functions with one `npu.program` for the
entry function, carrying its weights and parameters and an io manifest, so
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
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa
from qdialect.dialects.npu import INSTRUCTION_OPS, ProgramOp
from qdialect.ir.errors import OpError
from qdialect.npu.encoding import assemble
from qdialect.npu.machine import Machine, MachineError, load_machine

PASS_NAME = "tosa-to-npu"
ALIGN = 64
_OPS_BY_NAME = {cls.OPCODE.mnemonic: cls for cls in INSTRUCTION_OPS}


def _const(v: SSAValue) -> np.ndarray | None:
    owner = v.owner
    if isinstance(owner, tosa.ConstOp) and isinstance(owner.values, DenseIntOrFPElementsAttr):
        shape = ht.shape_of(owner.output.type) or ()
        values = [int(x) for x in owner.values.get_values()]
        if len(values) == 1:
            values = values * int(np.prod(shape, dtype=np.int64))
        return np.array(values, np.int64).reshape(shape)
    return None


def _alias(v: SSAValue) -> SSAValue:
    """The tensor `v` names in DRAM: reshapes and storage bitcasts move no bytes."""
    while isinstance(v.owner, tosa.ReshapeOp | sh.BitcastConvertOp):
        v = v.owner.operands[0]
    return v


@dataclass
class _Layer:
    x: SSAValue
    out: SSAValue
    weight: np.ndarray  # K x N int8
    bias: np.ndarray  # N int32
    multiplier: np.ndarray  # N
    shift: np.ndarray  # N
    zp: int
    lo: int
    hi: int
    double_round: bool
    conv: _Conv | None = None  # None: fully connected, weight is K x N


@dataclass(frozen=True)
class _Conv:
    """A 2-D NHWC convolution (batch 1): input H x W x C, kernel KH x KW, output OH x OW."""

    h: int
    w: int
    c: int
    kh: int
    kw: int
    stride: tuple[int, int]
    pad: tuple[int, int, int, int]  # top, bottom, left, right
    oh: int
    ow: int
    zp_x: int


class _Planner:
    def __init__(self, machine: Machine):
        self.machine = machine
        self.top = 0

    def take(self, nbytes: int) -> int:
        address = self.top
        self.top += -(-max(nbytes, 1) // ALIGN) * ALIGN
        if self.top > self.machine.dram_bytes:
            raise ValueError(
                f"the model needs {self.top} bytes of DRAM, the machine has {self.machine.dram_bytes}"
            )
        return address


def _layers(func: FuncOp) -> list[_Layer]:
    layers = []
    fused: set[Operation] = set()
    for op in func.body.block.ops:
        if isinstance(
            op, tosa.ConstOp | tosa.ConstShapeOp | tosa.ReshapeOp | sh.BitcastConvertOp | ReturnOp
        ):
            continue
        if isinstance(op, tosa.MatMulOp | tosa.Conv2DOp):
            layer, parts = (_matmul_layer if isinstance(op, tosa.MatMulOp) else _conv_layer)(op)
            layers.append(layer)
            fused.update(parts)
            continue
        if op in fused:
            continue
        raise OpError(op, f"{PASS_NAME}: '{op.name}' is not supported on the NPU yet")
    return layers


def _single_use(v: SSAValue, op: Operation) -> Operation:
    uses = list(v.uses)
    if len(uses) != 1:
        raise OpError(op, f"{PASS_NAME}: the result of '{op.name}' must feed exactly one op")
    return uses[0].operation


def _matmul_layer(op: tosa.MatMulOp) -> tuple[_Layer, list[Operation]]:
    a, b, a_zp, b_zp = op.operands
    w, zp_a, zp_b = _const(_alias(b)), _const(a_zp), _const(b_zp)
    a_shape, b_shape = ht.shape_of(a.type), ht.shape_of(b.type)
    if w is None or zp_a is None or zp_b is None:
        raise OpError(op, f"{PASS_NAME}: 'tosa.matmul' needs a constant weight and zero points")
    if a_shape[0] != 1 or ht.element_type(a.type) != IntegerType(8):
        raise OpError(op, f"{PASS_NAME}: 'tosa.matmul' must be an i8 [1, M, K] x [1, K, N] product")
    if int(zp_b.reshape(-1)[0]) != 0:
        raise OpError(
            op, f"{PASS_NAME}: a weight zero point is not supported (it needs the input's row sums)"
        )
    weight = w.reshape(b_shape[1], b_shape[2])
    user = _single_use(op.output, op)
    while isinstance(user, tosa.ReshapeOp):
        user = _single_use(user.output, user)
    zp_x = int(zp_a.reshape(-1)[0])
    bias = -zp_x * weight.sum(axis=0)
    return _epilogue(op, user, _alias(a), weight, bias, None)


def _epilogue(op, user, x, weight, bias, conv) -> tuple[_Layer, list[Operation]]:
    """The rescale (and clamp) after an accumulation, as the layer's requantization."""
    if not isinstance(user, tosa.RescaleOp) or ht.element_type(user.output.type) != IntegerType(8):
        raise OpError(op, f"{PASS_NAME}: '{op.name}' must be followed by a tosa.rescale to i8")
    rescale = user
    m, s, izp, ozp = (_const(v) for v in rescale.operands[1:])
    if m is None or s is None or izp is None or ozp is None or not rescale.flag("scale32"):
        raise OpError(
            rescale, f"{PASS_NAME}: 'tosa.rescale' needs constant 32-bit scaling parameters"
        )
    if (
        int(izp.reshape(-1)[0]) != 0
        or rescale.flag("input_unsigned")
        or rescale.flag("output_unsigned")
    ):
        raise OpError(
            rescale,
            f"{PASS_NAME}: 'tosa.rescale' of an accumulator must be signed with input zero point 0",
        )
    n = weight.shape[-1]
    multiplier = np.broadcast_to(m.reshape(-1), (n,)) if m.size == 1 else m.reshape(-1)
    shift = np.broadcast_to(s.reshape(-1), (n,)) if s.size == 1 else s.reshape(-1)
    out, lo, hi = rescale.output, -128, 127
    uses = list(out.uses)
    parts: list[Operation] = [rescale]
    if len(uses) == 1 and isinstance(uses[0].operation, tosa.ClampOp):
        clamp = uses[0].operation
        lo, hi = max(lo, clamp.min_val.value.data), min(hi, clamp.max_val.value.data)
        out = clamp.output
        parts.append(clamp)
    if np.any(np.abs(bias) >= 1 << 31):
        raise OpError(op, f"{PASS_NAME}: the folded bias does not fit int32")
    layer = _Layer(
        x, out, weight.astype(np.int8), bias.astype(np.int32), multiplier, shift,
        int(ozp.reshape(-1)[0]), lo, hi,
        rescale.rounding_mode.data == tosa.RoundingMode.DOUBLE_ROUND, conv,
    )  # fmt: skip
    return layer, parts


def _conv_layer(op: tosa.Conv2DOp) -> tuple[_Layer, list[Operation]]:
    x, w_v, b_v, zp_x_v, zp_w_v = op.operands
    w, b, zp_x, zp_w = _const(_alias(w_v)), _const(b_v), _const(zp_x_v), _const(zp_w_v)
    if w is None or b is None or zp_x is None or zp_w is None:
        raise OpError(
            op, f"{PASS_NAME}: 'tosa.conv2d' needs constant weights, bias and zero points"
        )
    x_shape = ht.shape_of(x.type)
    if x_shape[0] != 1 or ht.element_type(x.type) != IntegerType(8):
        raise OpError(op, f"{PASS_NAME}: 'tosa.conv2d' must take an i8 input of batch 1")
    if int(zp_w.reshape(-1)[0]) != 0:
        raise OpError(
            op,
            f"{PASS_NAME}: a weight zero point is not supported (it needs the input's window sums)",
        )
    if any(d != 1 for d in op.array("dilation")):
        raise OpError(op, f"{PASS_NAME}: dilated convolutions are not supported yet")
    pad = tuple(op.array("pad"))
    if max(pad) > 15:
        raise OpError(op, f"{PASS_NAME}: padding above 15 is not supported yet")
    out_shape = ht.shape_of(op.output.type)
    cout, kh, kw, c = w.shape  # OHWI
    zp = int(zp_x.reshape(-1)[0])
    # Padding holds the input zero point, so every tap is centred by the same bias term.
    bias = b.reshape(-1) * np.ones(cout, np.int64) - zp * w.reshape(cout, -1).sum(axis=1)
    conv = _Conv(x_shape[1], x_shape[2], c, kh, kw, tuple(op.array("stride")), pad,
                 out_shape[1], out_shape[2], zp)  # fmt: skip
    weight = np.transpose(w, (1, 2, 3, 0))  # KH x KW x C x Cout
    return _epilogue(op, _single_use(op.output, op), _alias(x), weight, bias, conv)


def _records(layer: _Layer, cols: int) -> np.ndarray:
    """Per-channel (bias, multiplier, shift) records, padded to whole blocks of `cols`
    with (0, 0, 2) so the requantization of unused lanes stays within TOSA's rules."""
    n = len(layer.bias)
    padded = -(-n // cols) * cols
    records = np.zeros((padded, 16), np.uint8)
    records[n:, 8] = 2
    records[:n, 0:4] = layer.bias.astype(np.int32).view(np.uint8).reshape(n, 4)
    records[:n, 4:8] = np.asarray(layer.multiplier, np.int32).view(np.uint8).reshape(n, 4)
    records[:n, 8] = np.asarray(layer.shift, np.int8).view(np.uint8)
    return records


def _emit_layer(lines: list[str], layer: _Layer, x_addr: int, w_addr: int, p_addr: int,
                out_addr: int, m_total: int, machine: Machine, first: bool) -> None:  # fmt: skip
    cols = machine.mac_cols
    k, n = layer.weight.shape
    kt = -(-k // cols)
    if kt * cols > machine.buffer("weight").rows or kt > 255:
        raise ValueError(
            f"K = {k} needs {kt * cols} weight rows; the machine has {machine.buffer('weight').rows}"
        )
    m_tile = min(
        1023,
        machine.buffer("input").rows // kt,
        machine.buffer("accumulator").rows,
        machine.buffer("output").rows,
    )
    pad = "pad=0 pad_top=0 pad_bottom=0 pad_left=0"
    for m0 in range(0, m_total, m_tile):
        mt = min(m_tile, m_total - m0)
        for j in range(-(-n // cols)):
            width = min(cols, n - j * cols)
            if not first:
                lines.append("wait queue=cp2ld")  # the compute engine is done with the buffers
            first = False
            if j == 0:
                for t in range(kt):
                    kw = min(cols, k - t * cols)
                    lines.append(
                        f"load buf=input row={t * mt} dram={x_addr + m0 * k + t * cols} rows={mt} "
                        f"row_bytes={kw} stride={k} {pad}"
                    )
            lines += [
                f"load buf=weight row=0 dram={w_addr + j * cols} rows={k} row_bytes={width} stride={n} "
                f"pad=0 pad_top=0 pad_bottom={kt * cols - k} pad_left=0",
                f"load buf=params row=0 dram={p_addr + j * cols * 16} rows={cols} row_bytes=16 stride=16 "
                f"{pad}",
                "signal queue=ld2cp",
                "wait queue=ld2cp",
                f"matmul in=0 w=0 acc=0 m={mt} k_tiles={kt} accumulate=0 in_step=1 k_step={mt}",
                f"requant acc=0 out=0 rows={mt} params=0 zp={layer.zp} lo={layer.lo} hi={layer.hi} "
                f"double_round={int(layer.double_round)}",
                "signal queue=cp2st",
                "wait queue=cp2st",
                f"store buf=output row=0 dram={out_addr + m0 * n + j * cols} rows={mt} row_bytes={width} stride={n}",
                "signal queue=st2cp",
                "wait queue=st2cp",  # compute: the block is in DRAM, the output buffer free
                "signal queue=cp2ld",  # so the next loads may reuse buffers and read it
            ]


def _conv_weight_bytes(layer: _Layer, cols: int) -> bytes:
    """Weights pre-tiled in the order the convolution loads them: per output-channel
    block, per kernel row, input-channel tile and kernel column, a cols x cols block."""
    conv = layer.conv
    kh, kw, c, cout = layer.weight.shape
    ct, nb = -(-c // cols), -(-cout // cols)
    padded = np.zeros((kh, kw, ct * cols, nb * cols), np.int8)
    padded[:, :, :c, :cout] = layer.weight
    assert conv is not None
    blocks = padded.reshape(kh, kw, ct, cols, nb, cols).transpose(4, 0, 2, 1, 3, 5)
    return np.ascontiguousarray(blocks).tobytes()  # nb, kh, ct, kw, cols(in), cols(out)


def _load_image_row(lines, g: _Conv, x_addr: int, h: int, base: int, ct: int, cols: int) -> None:
    """Input row h (channel tile by tile, zero-point padded left and right) at buffer row `base`;
    rows outside the image are all zero point."""
    _, _, left, right = g.pad
    wp = g.w + left + right
    for ci in range(ct):
        row = base + ci * wp
        if 0 <= h < g.h:
            cw = min(cols, g.c - ci * cols)
            lines.append(
                f"load buf=input row={row} dram={x_addr + h * g.w * g.c + ci * cols} rows={g.w} "
                f"row_bytes={cw} stride={g.c} pad={g.zp_x} pad_top={left} pad_bottom={right} pad_left=0"
            )
            continue
        for start in range(0, wp, 15):
            lines.append(
                f"load buf=input row={row + start} dram=0 rows=0 row_bytes=0 stride=0 "
                f"pad={g.zp_x} pad_top={min(15, wp - start)} pad_bottom=0 pad_left=0"
            )


def _emit_conv(lines: list[str], layer: _Layer, x_addr: int, w_addr: int, p_addr: int,
               out_addr: int, machine: Machine, first: bool) -> None:  # fmt: skip
    """One convolution layer as phases: the load engine fills buffers, the compute
    engine runs every (output-channel block, output row) step those buffers serve,
    then drains its stores and hands the buffers back (cp2ld).

    When the whole zero-point-padded input fits the input buffer it is loaded once
    and the steps go block by block, so each block's weights load once too (DRAM
    traffic is the lower bound). Otherwise the steps go row by row and each phase
    loads the KH input rows of one output row (and the weights when the block
    changes). Outputs alternate between two halves of the output buffer when they
    fit, so a row's store overlaps the next row's matmuls.
    """
    g = layer.conv
    assert g is not None
    cols = machine.mac_cols
    cout = layer.weight.shape[3]
    ct, nb = -(-g.c // cols), -(-cout // cols)
    wp = g.w + g.pad[2] + g.pad[3]
    hp = g.h + g.pad[0] + g.pad[1]
    block_rows = g.kh * ct * g.kw * cols
    resident = hp * ct * wp <= machine.buffer("input").rows
    limits = (
        (g.kh * ct * wp, machine.buffer("input").rows, "input"),
        (block_rows, machine.buffer("weight").rows, "weight"),
        (
            g.ow,
            min(machine.buffer("accumulator").rows, machine.buffer("output").rows, 1023),
            "output",
        ),
    )
    for need, have, what in limits:
        if need > have:
            raise ValueError(
                f"the convolution needs {need} {what} rows per output row; the machine has {have}"
            )
    if g.kw * ct > 255 or max(g.stride) > 255:
        raise ValueError("the convolution's kernel or stride exceeds the matmul fields")
    halves = 2 if 2 * g.ow <= machine.buffer("output").rows else 1
    if resident:
        steps = [(j, oh) for j in range(nb) for oh in range(g.oh)]
    else:
        steps = [(j, oh) for oh in range(g.oh) for j in range(nb)]
    loaded_j = loaded_oh = None
    pending = 0  # stores issued whose st2cp token compute has not taken yet
    started = False
    for count, (j, oh) in enumerate(steps):
        loads: list[str] = []
        if not resident and oh != loaded_oh:
            for kh in range(g.kh):
                h = oh * g.stride[0] - g.pad[0] + kh
                _load_image_row(loads, g, x_addr, h, kh * ct * wp, ct, cols)
            loaded_oh = oh
        if resident and not started:
            for r in range(hp):
                _load_image_row(loads, g, x_addr, r - g.pad[0], r * ct * wp, ct, cols)
        if j != loaded_j:
            loads += [
                f"load buf=weight row=0 dram={w_addr + j * block_rows * cols} rows={block_rows} "
                f"row_bytes={cols} stride={cols} pad=0 pad_top=0 pad_bottom=0 pad_left=0",
                f"load buf=params row=0 dram={p_addr + j * cols * 16} rows={cols} row_bytes=16 "
                "stride=16 pad=0 pad_top=0 pad_bottom=0 pad_left=0",
            ]
            loaded_j = j
        if loads:
            if started:  # compute is done with the buffers and its stores are in DRAM
                lines += ["wait queue=st2cp"] * pending + ["signal queue=cp2ld"]
                pending = 0
            if started or not first:
                lines.append("wait queue=cp2ld")
            lines += [*loads, "signal queue=ld2cp", "wait queue=ld2cp"]
            started = True
        base = oh * g.stride[0] * ct * wp if resident else 0
        for kh in range(g.kh):
            for ci in range(ct):
                step = kh * ct + ci
                lines.append(
                    f"matmul in={base + step * wp} w={step * g.kw * cols} acc=0 m={g.ow} "
                    f"k_tiles={g.kw} accumulate={int(step > 0)} in_step={g.stride[1]} k_step=1"
                )
        half = (count % halves) * g.ow
        if pending == halves:
            lines.append("wait queue=st2cp")  # the store that used this half is done
            pending -= 1
        width = min(cols, cout - j * cols)
        lines += [
            f"requant acc=0 out={half} rows={g.ow} params=0 zp={layer.zp} lo={layer.lo} "
            f"hi={layer.hi} double_round={int(layer.double_round)}",
            "signal queue=cp2st",
            "wait queue=cp2st",
            f"store buf=output row={half} dram={out_addr + oh * g.ow * cout + j * cols} "
            f"rows={g.ow} row_bytes={width} stride={cout}",
            "signal queue=st2cp",
        ]
        pending += 1
    # Every store is in DRAM before the next layer may load (its `wait cp2ld`).
    lines += ["wait queue=st2cp"] * pending + ["signal queue=cp2ld"]


def compile_function(func: FuncOp, machine: Machine, machine_name: str) -> ProgramOp:
    layers = _layers(func)
    if not layers:
        raise OpError(func, f"{PASS_NAME}: '@{func.sym_name.data}' has no layer to run")
    planner = _Planner(machine)
    args = list(func.body.block.args)
    address: dict[SSAValue, int] = {}
    io_inputs = []
    for i, arg in enumerate(args):
        shape = ht.shape_of(arg.type)
        if shape is None or any(d < 0 for d in shape):
            raise OpError(func, f"{PASS_NAME}: argument {i} needs a static shape")
        address[arg] = planner.take(int(np.prod(shape, dtype=np.int64)))
        io_inputs.append(
            {"name": f"arg{i}", "dram": address[arg], "shape": list(shape), "dtype": "int8"}
        )
    weights, params = b"", b""
    placed = []
    for layer in layers:
        placed.append((len(weights), len(params)))
        data = (
            layer.weight.tobytes()
            if layer.conv is None
            else _conv_weight_bytes(layer, machine.mac_cols)
        )
        weights += data + bytes(-len(data) % ALIGN)
        params += _records(layer, machine.mac_cols).tobytes()
    w_base = planner.take(len(weights))
    p_base = planner.take(len(params))
    lines: list[str] = []
    for index, (layer, (w_off, p_off)) in enumerate(zip(layers, placed, strict=True)):
        source = _alias(layer.x)
        if source not in address:
            raise OpError(
                func, f"{PASS_NAME}: a layer's input is neither an argument nor a layer output"
            )
        if layer.conv is not None:
            g = layer.conv
            address[layer.out] = planner.take(g.oh * g.ow * layer.weight.shape[3])
            _emit_conv(lines, layer, address[source], w_base + w_off, p_base + p_off,
                       address[layer.out], machine, index == 0)  # fmt: skip
            continue
        m_total = int(np.prod(ht.shape_of(source.type), dtype=np.int64)) // layer.weight.shape[0]
        address[layer.out] = planner.take(m_total * layer.weight.shape[1])
        _emit_layer(lines, layer, address[source], w_base + w_off, p_base + p_off,
                    address[layer.out], m_total, machine, index == 0)  # fmt: skip
    lines += ["wait queue=cp2ld", "halt"]  # the last block's token
    returned = func.body.block.last_op
    io_outputs = []
    for i, value in enumerate(returned.operands if isinstance(returned, ReturnOp) else []):
        source = _alias(value)
        if source not in address:
            raise OpError(returned, f"{PASS_NAME}: result {i} is not computed on the NPU")
        io_outputs.append(
            {
                "name": f"result{i}",
                "dram": address[source],
                "shape": list(ht.shape_of(value.type)),
                "dtype": "int8",
            }
        )
    block = Block()
    for inst in assemble("\n".join(lines), f"<{PASS_NAME}>"):
        block.add_op(_OPS_BY_NAME[inst.opcode.mnemonic].create(
            properties={name: IntegerAttr(v, i64) for name, v in inst.values.items()}
        ))  # fmt: skip
    program = ProgramOp(machine_name, Region(block))
    program.attributes["npu.sections"] = DictionaryAttr(
        {
            "weights": _section(weights, w_base),
            "params": _section(params, p_base),
        }
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

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            machine = load_machine(self.machine)
        except MachineError as err:
            raise ValueError(str(err)) from None
        funcs = [f for f in op.body.block.ops if isinstance(f, FuncOp)]
        entry = next((f for f in funcs if f.sym_name.data == self.entry), None)
        if entry is None:
            raise ValueError(f"{PASS_NAME}: no function '@{self.entry}' to compile")
        try:
            program = compile_function(entry, machine, self.machine)
        except ValueError as err:
            raise OpError(entry, f"{PASS_NAME}: {err}") from None
        for f in funcs:
            Rewriter.erase_op(f, safe_erase=False)
        op.body.block.add_op(program)
