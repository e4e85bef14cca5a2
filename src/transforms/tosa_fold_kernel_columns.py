"""`tosa-fold-kernel-columns`: a convolution whose kernel columns waste the NPU's array
becomes a convolution of one kernel column over an input that holds those columns as
channels (im2col along W).

The NPU computes a convolution a kernel tap and a 16-channel tile at a time, an output
row at a time (taps on padding skipped), so input channels that do not fill the last
tile waste its passes: a stem's 12 channels after space to depth use 12 of 16 lanes per
tap. With x'[h, w, j * C + c] = x_padded[h, w * stride + j * dilation, c], the KH x KW
kernel over C channels is a KH x 1 kernel over KW * C channels, whose taps fill whole
tiles (the horizontal padding, now channels, is computed). The rearrangement is a pad, a slice per
kernel column and a concat — data movement the NPU does by DMA, at the price of KW
copies of the input — so the pass asks a machine description whether the array passes
it saves pay for that.

Exact: the products and the accumulator they sum into are the same, in another order
(integer addition is associative). The padding columns are the input zero point, the
value the convolution's own padding used.

Conditions: `tosa.conv2d` with a static [1, H, W, C] i8 input and output, constant
weights, KW > 1, and an estimate (`worth_it`) that the array saves at least
`min-gain` of its passes and more cycles than the copies cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import tosa
from qdialect.ir.constants import constant_array, integer_attr
from qdialect.ir.errors import OpError
from qdialect.ir.rewrite import replace_op
from qdialect.lowering.npu_graph import MODEL_WINDOW, Window, model_window_attr
from qdialect.npu.machine import Machine, MachineError, load_machine

PASS_NAME = "tosa-fold-kernel-columns"
I8 = IntegerType(8)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Geometry:
    """A convolution's sizes: input H x W x C, kernel KH x KW, N output channels."""

    h: int
    w: int
    c: int
    kh: int
    kw: int
    n: int
    stride: tuple[int, int]
    dilation: tuple[int, int]
    pad: tuple[int, int, int, int]  # top, bottom, left, right
    oh: int
    ow: int

    @property
    def window(self) -> Window:
        """The same geometry as the lowering's record (without the output channels)."""
        return Window(self.h, self.w, self.c, self.kh, self.kw, self.stride, self.dilation,
                      self.pad, self.oh, self.ow)  # fmt: skip

    @property
    def im2col_bytes(self) -> int:
        """The folded input: H rows of OW pixels of KW * C channels."""
        return self.h * self.ow * self.kw * self.c


def _inside(n_out: int, stride: int, pad: int, k: int, dilation: int, size: int) -> int:
    """Kernel taps along one axis that land inside the image, over all outputs."""
    return sum(0 <= o * stride - pad + i * dilation < size for o in range(n_out) for i in range(k))


def array_passes(g: Geometry, cols: int) -> tuple[int, int]:
    """(before, after): the array's row passes for each output-channel tile, as the NPU
    lowering computes a convolution (an output row at a time, one pass per output pixel,
    in-bounds kernel tap and input tile: taps on padding are skipped); before folding and
    after (a KH x 1 kernel over KW * C channels: the horizontal padding is inside those
    channels, so it is computed, and the vertical padding is skipped)."""
    rows = _inside(g.oh, g.stride[0], g.pad[0], g.kh, g.dilation[0], g.h)
    columns = _inside(g.ow, g.stride[1], g.pad[2], g.kw, g.dilation[1], g.w)
    before = rows * columns * _ceil(g.c, cols)
    after = rows * g.ow * _ceil(g.kw * g.c, cols)
    return before, after


COPY_LAYER_LATENCIES = 8
"""What each data-movement layer a fold adds (a pad, one slice per kernel column, a
concat) costs beyond its bytes, in DRAM latencies: measured on the simulator, a fold
costs an 8 x 8 x 8 convolution 4,100 cycles and a 13 x 13 x 48 one 4,300 on the default
machine (latency 100), most of it the layers' start-up, not their bytes."""


def worth_it(g: Geometry, machine: Machine, min_gain: float) -> bool:
    """Fold when the array saves at least `min_gain` of its passes and more cycles than
    the copies cost: the folded input written once and read once over the bus, and the
    start-up of the KW + 2 copy layers (`COPY_LAYER_LATENCIES` DRAM latencies each) — on
    a small layer that start-up is most of the cost."""
    before, after = array_passes(g, machine.mac_cols)
    saved = (before - after) * _ceil(g.n, machine.mac_cols)
    layers = g.kw + 2
    copies = (2 * g.im2col_bytes / machine.bus_bytes
              + layers * COPY_LAYER_LATENCIES * machine.dram_latency)  # fmt: skip
    return before > 0 and (before - after) >= min_gain * before and saved > copies


def geometry(op: tosa.Conv2DOp) -> Geometry | None:
    """The convolution's sizes when the pass can rewrite it (see the module's conditions)."""
    shape, out = ht.shape_of(op.input.type), ht.shape_of(op.output.type)
    weight = constant_array(op.weight)
    if (
        shape is None
        or out is None
        or len(shape) != 4
        or shape[0] != 1
        or min(shape) < 1
        or ht.element_type(op.input.type) != I8
        or weight is None
        or weight.ndim != 4
        or constant_array(op.input_zp) is None
        or list(ht.shape_of(op.input_zp.type) or ()) != [1]  # it is also the pad value
    ):
        return None
    n, kh, kw, c = weight.shape
    if kw < 2:
        return None
    sy, sx = op.array("stride")
    dy, dx = op.array("dilation")
    top, bottom, left, right = op.array("pad")
    return Geometry(shape[1], shape[2], c, kh, kw, n, (sy, sx), (dy, dx),
                    (top, bottom, left, right), out[1], out[2])  # fmt: skip


def _shape(values: list[int]) -> SSAValue:
    return tosa.ConstShapeOp.of(values).results[0]


def _folded_input(op: tosa.Conv2DOp, g: Geometry, new: list[Operation]) -> SSAValue:
    """x'[1, H, OW, KW * C]: the input padded left and right with its zero point, then
    for each kernel column j the pixels j * dilation + stride * w, concatenated."""
    sx, dx = g.stride[1], g.dilation[1]
    # wide enough for every column read, and a whole number of stride phases
    width = _ceil(max(g.w + g.pad[2] + g.pad[3], (g.ow - 1) * sx + (g.kw - 1) * dx + 1), sx) * sx
    x = op.input

    def emit(operation: Operation) -> SSAValue:
        new.append(operation)
        return operation.results[0]

    def tensor(shape: list[int]) -> TensorType:
        return TensorType(I8, shape)

    if width != g.w:  # the pad value is the input zero point, the same 1-element tensor
        padding = [0, 0, 0, 0, g.pad[2], width - g.w - g.pad[2], 0, 0]
        s = tosa.ConstShapeOp.of(padding)
        new.append(s)
        x = emit(
            tosa.PadOp.create(
                operands=[x, s.results[0], op.input_zp],
                result_types=[tensor([1, g.h, width, g.c])],
            )
        )
    phased = [1, g.h, width // sx, sx, g.c]
    if sx > 1:
        s = tosa.ConstShapeOp.of(phased)
        new.append(s)
        x = emit(tosa.ReshapeOp.create(operands=[x, s.results[0]], result_types=[tensor(phased)]))
    columns = []
    for j in range(g.kw):
        offset = j * dx
        if sx > 1:
            start = [0, 0, offset // sx, offset % sx, 0]
            size = [1, g.h, g.ow, 1, g.c]
        else:
            start, size = [0, 0, offset, 0], [1, g.h, g.ow, g.c]
        s0, s1 = tosa.ConstShapeOp.of(start), tosa.ConstShapeOp.of(size)
        new += [s0, s1]
        column = emit(
            tosa.SliceOp.create(
                operands=[x, s0.results[0], s1.results[0]], result_types=[tensor(size)]
            )
        )
        if sx > 1:
            s = tosa.ConstShapeOp.of([1, g.h, g.ow, g.c])
            new.append(s)
            column = emit(
                tosa.ReshapeOp.create(
                    operands=[column, s.results[0]], result_types=[tensor([1, g.h, g.ow, g.c])]
                )
            )
        columns.append(column)
    return emit(
        tosa.ConcatOp.create(
            operands=columns,
            result_types=[tensor([1, g.h, g.ow, g.kw * g.c])],
            properties={"axis": IntegerAttr(3, i32)},
        )
    )


def model_window(op: tosa.Conv2DOp, g: Geometry) -> DenseArrayBase:
    """The window the model wrote: the one an earlier rewrite recorded, else this one."""
    existing = op.attributes.get(MODEL_WINDOW)
    return existing if isinstance(existing, DenseArrayBase) else model_window_attr(g.window)


def rewrite(op: tosa.Conv2DOp, g: Geometry) -> None:
    """Replace `op` by the folded input and a KH x 1 convolution over it."""
    weight = constant_array(op.weight)
    assert weight is not None
    new: list[Operation] = []
    x = _folded_input(op, g, new)
    w_elem = ht.element_type(op.weight.type)
    assert isinstance(w_elem, IntegerType)
    folded = weight.reshape(g.n, g.kh, 1, g.kw * g.c)  # OHWI: (j, c) is already j * C + c
    wc = tosa.ConstOp(integer_attr(folded, w_elem))
    props = dict(op.properties)
    props["pad"] = DenseArrayBase.from_list(i64, [g.pad[0], g.pad[1], 0, 0])
    props["stride"] = DenseArrayBase.from_list(i64, [g.stride[0], 1])
    props["dilation"] = DenseArrayBase.from_list(i64, [g.dilation[0], 1])
    conv = tosa.Conv2DOp.create(
        operands=[x, wc.results[0], op.bias, op.input_zp, op.weight_zp],
        result_types=[op.output.type],
        properties=props,
        attributes={**op.attributes, MODEL_WINDOW: model_window(op, g)},
    )
    replace_op(op, [*new, wc, conv], conv.output)


@dataclass(frozen=True)
class TosaFoldKernelColumns(ModulePass):
    """Convolutions whose kernel columns waste the array, as KH x 1 convolutions over
    their input's columns folded into channels, where `machine` says it pays."""

    name = PASS_NAME

    machine: str = "default"
    """A shipped machine description (`default`, `small`) or a JSON file: its array width
    and bus decide which convolutions gain."""

    min_gain: float = 0.1
    """Fold only when it saves at least this fraction of the array's passes."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            machine = load_machine(self.machine)
        except MachineError as err:
            raise OpError(op, f"{PASS_NAME}: {err}") from None
        if not 0 <= self.min_gain < 1:
            raise OpError(op, f"{PASS_NAME}: min-gain must be in [0, 1)")
        for conv in [o for o in op.walk() if isinstance(o, tosa.Conv2DOp)]:
            g = geometry(conv)
            if g is not None and worth_it(g, machine, self.min_gain):
                rewrite(conv, g)
