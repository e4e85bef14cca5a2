"""Quantized TOSA functions as a list of NPU layers: the pattern side of `tosa-to-npu`.

A layer is one pass over the NPU: it reads int8 tensors from DRAM and writes
one int8 tensor back. This is the first stage of the lowering (form layers ->
plan -> emit -> assemble): `form_layers` turns the entry function into a
`LayerGraph`, which the later stages only read — layers are frozen once formed,
and decisions about them (DRAM, residency) are records of the plan. The
recognizer walks the function in order and folds into each layer what the
hardware does on the way out of the accumulator:

* `tosa.matmul`, `tosa.conv2d`, `tosa.depthwise_conv2d` (constant weights) ->
  a MAC layer; input and weight zero points fold into the bias;
* `tosa.max_pool2d`, `tosa.avg_pool2d`, and `tosa.reduce_sum` over H and W of
  a centred i8 tensor (a global sum, then the mean's rescale) -> a window
  layer without weights;
* each operand rescaled i8 -> i32 (then any i32 -> i32 rescales; a first
  rescale that only shifts left becomes the widen's shift), `tosa.add` / `sub`
  / `mul` -> a vector layer (widen, scale, alu); a lone i8 -> i8 rescale or
  clamp is a one-input vector layer; `tosa.table` on i8, and an 8-bit rescale
  with an unsigned side (uint8 model edges), -> a table layer;
* `tosa.transpose`, `slice`, `pad`, `concat` on i8 -> a move layer, DMA only
  (a transpose of constant weights is folded at compile time instead).

After an accumulation come an optional constant bias `tosa.add`, any i32 ->
i32 rescales (each an on-chip `scale`), the rescale to i8 (the `requant`),
and clamps (its bounds). Reshapes and
storage bitcasts are views of row-major DRAM. Anything else stops compilation
with an error naming the op.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, i64
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue

from qdialect import numerics
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.ir.constants import constant_array
from qdialect.ir.errors import OpError

PASS_NAME = "tosa-to-npu"
MODEL_WINDOW = "qdialect.model_window"
"""A convolution's attribute: the model's window (h, w, c, kh, kw, stride, dilation, pad,
oh, ow) when a rewrite computes it as another convolution (`tosa-space-to-depth`)."""
I8 = IntegerType(8)
IDENTITY = (1 << 30, 30)  # apply_scale_32 by 2^30 >> 30 returns its input exactly


def _read_only(*arrays: np.ndarray) -> None:
    """Lock a record's arrays: records are frozen, and so is what they hold."""
    for array in arrays:
        array.flags.writeable = False


@dataclass(frozen=True, eq=False)
class Stage:
    """One apply_scale_32 over int32 lanes, per output channel: (acc + bias) * M >> shift.
    Its arrays are made read-only, so a formed layer cannot change under a later stage."""

    bias: np.ndarray
    multiplier: np.ndarray
    shift: np.ndarray
    rounding: str  # the ISA's name of the rescale's rounding mode (`isa.ROUNDINGS`)

    def __post_init__(self) -> None:
        _read_only(self.bias, self.multiplier, self.shift)

    @staticmethod
    def identity(n: int) -> Stage:
        m, s = IDENTITY
        return Stage(np.zeros(n, np.int64), np.full(n, m), np.full(n, s), "single")

    def is_identity(self) -> bool:
        return (
            not np.any(self.bias)
            and np.all(self.multiplier == IDENTITY[0])
            and np.all(self.shift == IDENTITY[1])
        )


@dataclass(frozen=True, eq=False)
class Requant:
    """What happens to an int32 accumulator: `stages[:-1]` as `scale`, the last as `requant`."""

    stages: tuple[Stage, ...]
    zp: int
    lo: int = -128
    hi: int = 127

    def describe(self) -> str:
        return f"scales={len(self.stages)} zp={self.zp} clamp=[{self.lo}, {self.hi}]"


@dataclass(frozen=True)
class Window:
    """A 2-D window over NHWC input (batch 1): input H x W x C, kernel KH x KW, output OH x OW."""

    h: int
    w: int
    c: int
    kh: int
    kw: int
    stride: tuple[int, int]
    dilation: tuple[int, int]
    pad: tuple[int, int, int, int]  # top, bottom, left, right
    oh: int
    ow: int

    def describe(self) -> str:
        return (
            f"{self.kh}x{self.kw} stride={self.stride[0]}x{self.stride[1]} "
            f"dilation={self.dilation[0]}x{self.dilation[1]} pad={list(self.pad)}"
        )


@dataclass(frozen=True, eq=False)
class MacLayer:
    """Fully connected (`window` None, weight K x N) or convolution (weight KH x KW x C x N;
    depthwise: KH x KW x C*M, output channel o reads input channel o // M only)."""

    x: SSAValue
    out: SSAValue
    weight: np.ndarray
    requant: Requant
    window: Window | None = None
    zp_x: int = 0
    depthwise: int = 0  # the channel multiplier of a depthwise convolution, else 0
    model_window: Window | None = None
    """The window of the convolution the model wrote, when the layer computes it in
    another form (`tosa-space-to-depth`): `useful_macs` counts that one's products."""

    def __post_init__(self) -> None:
        _read_only(self.weight)

    @property
    def layer_kind(self) -> str:
        """The key of the layer's kind in `npu_kinds.KINDS`."""
        return "fc" if self.window is None else "conv"

    @property
    def channels(self) -> int:
        return self.weight.shape[-1]

    def sources(self) -> list[SSAValue]:
        return [self.x]

    def describe(self) -> str:
        """What the layer computes, in one line (without its operands), for the dumps."""
        if self.window is None:
            k, n = self.weight.shape
            return f"fc k={k} n={n} zp_x={self.zp_x} {self.requant.describe()}"
        kind = f"depthwise x{self.depthwise}" if self.depthwise else "conv"
        return (
            f"{kind} {self.window.describe()} c={self.window.c} n={self.channels} "
            f"zp_x={self.zp_x} {self.requant.describe()}"
        )


@dataclass(frozen=True, eq=False)
class PoolLayer:
    """Max, average or sum pooling; average divides by the count of in-bounds taps (TOSA)."""

    x: SSAValue
    out: SSAValue
    window: Window
    kind: str  # "max", "avg", or "sum" (a spatial reduce_sum)
    zp_in: int
    requant: Requant  # avg: zp and bounds; stages are built per tap count
    layer_kind: ClassVar[str] = "pool"  # the key of its kind in `npu_kinds.KINDS`

    @property
    def channels(self) -> int:
        return self.window.c

    def sources(self) -> list[SSAValue]:
        return [self.x]

    def describe(self) -> str:
        return (
            f"pool {self.kind} {self.window.describe()} zp_in={self.zp_in} "
            f"{self.requant.describe()}"
        )


@dataclass(frozen=True, eq=False)
class VectorInput:
    """An elementwise operand: (x - zp) << shift, then each stage's scale, in int32."""

    value: SSAValue
    zp: int
    shift: int = 0
    stages: tuple[Stage, ...] = ()


@dataclass(frozen=True, eq=False)
class VectorLayer:
    """Elementwise: each input widened (minus its zero point) and scaled, combined by `op`."""

    inputs: tuple[VectorInput, ...]
    op: str | None  # "add", "sub", "mul", or None for one input
    requant: Requant
    out: SSAValue
    shape: tuple[int, ...]
    layer_kind: ClassVar[str] = "vector"

    def sources(self) -> list[SSAValue]:
        return [i.value for i in self.inputs]

    def describe(self) -> str:
        inputs = ", ".join(
            f"(zp={i.zp} shift={i.shift} scales={len(i.stages)})" for i in self.inputs
        )
        return f"vector {self.op or 'rescale'} {inputs} {self.requant.describe()}"


@dataclass(frozen=True, eq=False)
class TableLayer:
    x: SSAValue
    out: SSAValue
    table: np.ndarray  # 256 int8 entries
    shape: tuple[int, ...]
    layer_kind: ClassVar[str] = "table"

    def __post_init__(self) -> None:
        _read_only(self.table)

    def sources(self) -> list[SSAValue]:
        return [self.x]

    def describe(self) -> str:
        return "table"


@dataclass(frozen=True, eq=False)
class MoveLayer:
    """Transpose, slice, pad or concat: output byte i is byte `code[i] & (2**40 - 1)`
    of input `code[i] >> 40`, or the pad value where code[i] is -1."""

    inputs: tuple[SSAValue, ...]
    out: SSAValue
    code: np.ndarray
    pad: int = 0
    layer_kind: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        _read_only(self.code)

    def sources(self) -> list[SSAValue]:
        return list(self.inputs)

    def describe(self) -> str:
        padded = int((self.code < 0).sum())
        return f"move bytes={self.code.size} padded={padded} pad={self.pad}"


Layer = MacLayer | PoolLayer | VectorLayer | TableLayer | MoveLayer

"""A layer record: each kind's class says what it reads (`sources`), what it computes
(`describe`, for the dumps) and its key in `npu_kinds.KINDS` (`layer_kind`), which
holds what the later stages do with it."""


def valid_taps(
    size: int, kernel: int, stride: int, dilation: int, pad_before: int, out: int
) -> int:
    """Over the `out` output positions of one axis, how many kernel taps land inside the
    input (not on padding): the useful multiply-accumulates per input channel."""
    total = 0
    for o in range(out):
        start = o * stride - pad_before
        total += sum(1 for k in range(kernel) if 0 <= start + k * dilation < size)
    return total


def useful_macs(layer: Layer) -> int:
    """The model's multiply-accumulates in a layer, as the field counts them: taps that
    fall on padding and the array's tile padding are not work. 0 for layers without
    MACs (pooling, elementwise, tables, moves)."""
    if not isinstance(layer, MacLayer):
        return 0
    if layer.window is None:  # fully connected: M x K x N
        k, n = layer.weight.shape
        return nbytes(alias(layer.x)) // k * k * n
    g = layer.model_window or layer.window
    rows = valid_taps(g.h, g.kh, g.stride[0], g.dilation[0], g.pad[0], g.oh)
    cols = valid_taps(g.w, g.kw, g.stride[1], g.dilation[1], g.pad[2], g.ow)
    per_output_channel = 1 if layer.depthwise else g.c
    return rows * cols * per_output_channel * layer.channels


SOURCE_BITS = 40


def sources(layer: Layer) -> list[SSAValue]:
    """The tensors a layer reads, in operand order."""
    return layer.sources()


class LayerError(OpError):
    """An error about a whole layer (it does not fit the machine): reported at its first
    op, with `ops` all the ops it was formed from, so a partitioner can move them as one."""

    def __init__(self, ops: tuple[Operation, ...], message: str):
        super().__init__(ops[0], message)
        self.ops = ops


def layer_ops(layer: Layer) -> tuple[Operation, ...]:
    """The function's ops a layer was formed from, in program order: everything between
    the tensors it reads and the one it writes (constants aside)."""
    stop = {alias(v) for v in sources(layer)} | set(sources(layer))
    found: dict[Operation, None] = {}
    todo = [layer.out]
    while todo:
        v = todo.pop()
        op = v.owner
        if v in stop or not isinstance(op, Operation) or op in found or not op.operands:
            continue
        found[op] = None
        todo.extend(op.operands)
    block = layer.out.owner.parent_block() if isinstance(layer.out.owner, Operation) else None
    order = {op: i for i, op in enumerate(block.ops)} if block is not None else {}
    return tuple(sorted(found, key=lambda op: order.get(op, 0)))


def nbytes(v: SSAValue) -> int:
    """Bytes of an int8 tensor of static shape (its size in DRAM)."""
    return int(np.prod(ht.shape_of(v.type), dtype=np.int64))


def storage_i8(t) -> bool:
    """An i8 tensor, or a quantized tensor stored as i8 (the bytes the NPU moves)."""
    q = ht.quant_type(t)
    return (q.storage_type if q is not None else ht.element_type(t)) == I8


def const_array(v: SSAValue) -> np.ndarray | None:
    """The integer values of a constant (`qdialect.ir.constants`), seen through storage
    bitcasts, reshapes and transposes (weights are laid out at compile time)."""
    owner = v.owner
    if isinstance(owner, tosa.ReshapeOp | tosa.TransposeOp):
        inner = const_array(owner.input1)
    elif isinstance(owner, sh.BitcastConvertOp):
        inner = const_array(owner.operand)
    else:
        return constant_array(v)
    if inner is None:
        return None
    if isinstance(owner, tosa.TransposeOp):
        return np.transpose(inner, owner.array("perms"))
    return inner.reshape(ht.shape_of(owner.results[0].type))


def alias(v: SSAValue) -> SSAValue:
    """The tensor `v` names in DRAM: reshapes and storage bitcasts move no bytes."""
    while isinstance(owner := v.owner, tosa.ReshapeOp | sh.BitcastConvertOp):
        v = owner.input1 if isinstance(owner, tosa.ReshapeOp) else owner.operand
    return v


def _scalar(op: Operation, v: SSAValue, what: str) -> int:
    a = const_array(v)
    if a is None or a.size == 0 or np.any(a != a.reshape(-1)[0]):
        raise OpError(op, f"{PASS_NAME}: '{op.name}' needs a constant {what}")
    return int(a.reshape(-1)[0])


def _only_user(v: SSAValue, op: Operation) -> Operation:
    """The one op that reads `v`, looking through reshapes."""
    while True:
        uses = list(v.uses)
        if len(uses) != 1:
            raise OpError(op, f"{PASS_NAME}: the result of '{op.name}' must feed exactly one op")
        user = uses[0].operation
        if not isinstance(user, tosa.ReshapeOp):
            return user
        v, op = user.output, user


@dataclass
class _Walk:
    layers: list[Layer] = field(default_factory=list)
    folded: set[Operation] = field(default_factory=set)
    widened: set[Operation] = field(default_factory=set)  # i8 -> i32 rescales awaiting their op


_ROUNDING = {
    tosa.RoundingMode.SINGLE_ROUND: "single",
    tosa.RoundingMode.INEXACT_ROUND: "single",  # any rounding within one unit will do
    tosa.RoundingMode.DOUBLE_ROUND: "double",
    tosa.RoundingMode.HALF_EVEN_ROUND: "half_even",
}


def rounding_of(op: tosa.RescaleOp) -> str:
    """The `requant`/`scale` rounding (`isa.ROUNDINGS`) that computes the rescale."""
    return _ROUNDING[op.rounding_mode.data]


def _rescale_params(op: tosa.RescaleOp, n: int) -> tuple[Stage, int, int]:
    """(stage, input zero point, output zero point) of a constant 32-bit rescale."""
    m, s, izp, ozp = (const_array(v) for v in (op.multiplier, op.shift, op.input_zp, op.output_zp))
    if m is None or s is None or izp is None or ozp is None or not op.flag("scale32"):
        raise OpError(op, f"{PASS_NAME}: 'tosa.rescale' needs constant 32-bit scaling parameters")
    if op.flag("input_unsigned") or op.flag("output_unsigned"):
        raise OpError(op, f"{PASS_NAME}: unsigned 'tosa.rescale' is not supported on the NPU")
    if m.size not in (1, n):
        raise OpError(op, f"{PASS_NAME}: per-channel rescale parameters must cover {n} channels")
    mult = np.broadcast_to(m.reshape(-1), (n,)).astype(np.int64)
    shift = np.broadcast_to(s.reshape(-1), (n,)).astype(np.int64)
    stage = Stage(np.zeros(n, np.int64), mult, shift, rounding_of(op))
    return stage, int(izp.reshape(-1)[0]), int(ozp.reshape(-1)[0])


def _epilogue(walk: _Walk, op: Operation, acc: SSAValue, n: int,
              folded_bias: np.ndarray | None = None) -> tuple[Requant, SSAValue]:  # fmt: skip
    """Fold the rescales and clamps after an int32 result into a Requant. `folded_bias`
    (zero points, a convolution's bias) adds to a constant bias added in i32, if any;
    the sum is the first stage's bias."""
    stages: list[Stage] = []
    user = _only_user(acc, op)
    bias = np.zeros(n, np.int64)
    if isinstance(user, tosa.AddOp):  # a bias added in i32 (TFLite's FULLY_CONNECTED)
        constants = [const_array(v) for v in user.operands]
        values = [c for c in constants if c is not None]
        if len(values) != 1 or values[0].size not in (1, n):
            raise OpError(user, f"{PASS_NAME}: only a constant bias may be added to an accumulator")
        bias = np.broadcast_to(values[0].reshape(-1), (n,)).astype(np.int64)
        walk.folded.add(user)
        op, user = user, _only_user(user.output, user)
    while isinstance(user, tosa.RescaleOp) and ht.element_type(user.output.type) != I8:
        stage, izp, ozp = _rescale_params(user, n)
        if izp or ozp:
            raise OpError(user, f"{PASS_NAME}: an i32 -> i32 rescale must have zero points 0")
        stages.append(stage)
        walk.folded.add(user)
        op, user = user, _only_user(user.output, user)
    if not isinstance(user, tosa.RescaleOp):
        raise OpError(op, f"{PASS_NAME}: '{op.name}' must be followed by a tosa.rescale to i8")
    stage, izp, ozp = _rescale_params(user, n)
    if izp:
        raise OpError(user, f"{PASS_NAME}: a rescale of an i32 value must have input zero point 0")
    stages.append(stage)
    walk.folded.add(user)
    if folded_bias is not None:
        bias = bias + folded_bias
    stages[0] = replace(stages[0], bias=bias)
    out, lo, hi = _fold_clamps(walk, user.output)
    return Requant(tuple(stages), ozp, lo, hi), out


def _fold_clamps(walk: _Walk, out: SSAValue, lo: int = -128,
                 hi: int = 127) -> tuple[SSAValue, int, int]:  # fmt: skip
    """Fold the clamps that follow `out` into the bounds (lo, hi); the last one's result."""
    while True:
        uses = list(out.uses)
        if len(uses) != 1 or not isinstance(uses[0].operation, tosa.ClampOp):
            return out, lo, hi
        clamp = uses[0].operation
        lo = max(lo, clamp.min_val.value.data)
        hi = min(hi, clamp.max_val.value.data)
        walk.folded.add(clamp)
        out = clamp.output


def _centred_weights(op: Operation, w: np.ndarray, zp_w: int) -> np.ndarray:
    """w - zp_w as int8: a weight zero point folds away when the centred weights fit."""
    centred = w - zp_w
    if zp_w and (centred.min() < -128 or centred.max() > 127):
        raise OpError(
            op,
            f"{PASS_NAME}: weights minus their zero point {zp_w} do not fit int8; "
            "the NPU has no per-window input sums to correct for it",
        )
    return centred


def _check_i8_batch1(op: Operation, x: SSAValue) -> tuple[int, ...]:
    shape = ht.shape_of(x.type)
    if shape is None or ht.element_type(x.type) != I8 or shape[0] != 1:
        raise OpError(op, f"{PASS_NAME}: '{op.name}' must take an i8 input of batch 1")
    return shape


def model_window_attr(g: Window) -> DenseArrayBase:
    """The MODEL_WINDOW array of a window, the one spelling `_model_window` reads back."""
    values = (g.h, g.w, g.c, g.kh, g.kw, *g.stride, *g.dilation, *g.pad, g.oh, g.ow)
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def _model_window(v: tuple[int, ...]) -> Window:
    """The window a MODEL_WINDOW array spells: h, w, c, kh, kw, stride (2), dilation (2),
    pad (4), oh, ow."""
    return Window(v[0], v[1], v[2], v[3], v[4], (v[5], v[6]), (v[7], v[8]),
                  (v[9], v[10], v[11], v[12]), v[13], v[14])  # fmt: skip


def _window(op: Operation, x_shape, kernel, stride, dilation, pad, out_shape) -> Window:
    if max(pad) > 15:
        raise OpError(op, f"{PASS_NAME}: padding above 15 is not supported")
    if max(stride) > 255 or max(dilation) > 255:
        raise OpError(op, f"{PASS_NAME}: strides and dilations above 255 are not supported")
    # Along an axis with one output position the stride moves nothing: stride 1 there
    # keeps the input in one column phase (a global pool's 7x7/7 window read as 7
    # phases of one pixel took one DMA per pixel).
    steps = (1 if out_shape[1] == 1 else stride[0], 1 if out_shape[2] == 1 else stride[1])
    return Window(x_shape[1], x_shape[2], x_shape[3], kernel[0], kernel[1], steps,
                  tuple(dilation), tuple(pad), out_shape[1], out_shape[2])  # fmt: skip


def _matmul(walk: _Walk, op: tosa.MatMulOp) -> None:
    a, b, a_zp, b_zp = op.a, op.b, op.a_zp, op.b_zp
    w = const_array(b)
    a_shape, b_shape = ht.shape_of(a.type), ht.shape_of(b.type)
    if w is None:
        raise OpError(op, f"{PASS_NAME}: 'tosa.matmul' needs a constant weight")
    if a_shape[0] != 1 or ht.element_type(a.type) != I8:
        raise OpError(op, f"{PASS_NAME}: 'tosa.matmul' must be an i8 [1, M, K] x [1, K, N] product")
    zp_x, zp_w = _scalar(op, a_zp, "input zero point"), _scalar(op, b_zp, "weight zero point")
    weight = _centred_weights(op, w.reshape(b_shape[1], b_shape[2]), zp_w)
    requant, out = _epilogue(walk, op, op.output, weight.shape[1], -zp_x * weight.sum(axis=0))
    walk.layers.append(MacLayer(alias(a), out, weight, requant, zp_x=zp_x))


def _conv(walk: _Walk, op: tosa.Conv2DOp | tosa.DepthwiseConv2DOp) -> None:
    x, w_v, b_v, zp_x_v, zp_w_v = op.input, op.weight, op.bias, op.input_zp, op.weight_zp
    w, b = const_array(w_v), const_array(b_v)
    if w is None or b is None:
        raise OpError(op, f"{PASS_NAME}: '{op.name}' needs constant weights and bias")
    w = w.reshape(ht.shape_of(w_v.type))
    x_shape = _check_i8_batch1(op, x)
    zp_x, zp_w = _scalar(op, zp_x_v, "input zero point"), _scalar(op, zp_w_v, "weight zero point")
    w = _centred_weights(op, w, zp_w)
    depthwise = 0
    if isinstance(op, tosa.DepthwiseConv2DOp):
        kh, kw, c, depthwise = w.shape
        weight = w.reshape(kh, kw, c * depthwise)
    else:
        _, kh, kw, c = w.shape  # OHWI
        weight = np.transpose(w, (1, 2, 3, 0))  # KH x KW x C x Cout
    n = weight.shape[-1]
    out_shape = ht.shape_of(op.output.type)
    window = _window(op, x_shape, (kh, kw), op.array("stride"), op.array("dilation"),
                     op.array("pad"), out_shape)  # fmt: skip
    # Padding holds the input zero point, so every tap is centred by the same bias term.
    taps = weight.reshape(-1, n).sum(axis=0)
    folded = b.reshape(-1) * np.ones(n, np.int64) - zp_x * taps
    requant, out = _epilogue(walk, op, op.output, n, folded)
    model = op.attributes.get(MODEL_WINDOW)
    model_window = _model_window(dense_values(model)) if model is not None else None
    walk.layers.append(
        MacLayer(alias(x), out, weight, requant, window, zp_x, depthwise, model_window)
    )


def _pool(walk: _Walk, op: tosa.MaxPool2dOp | tosa.AvgPool2dOp) -> None:
    x = op.input
    x_shape = _check_i8_batch1(op, x)
    out_shape = ht.shape_of(op.output.type)
    window = _window(op, x_shape, op.array("kernel"), op.array("stride"), (1, 1),
                     op.array("pad"), out_shape)  # fmt: skip
    out, lo, hi = _fold_clamps(walk, op.output)
    if isinstance(op, tosa.MaxPool2dOp):
        requant = Requant((Stage.identity(window.c),), 0, lo, hi)
        walk.layers.append(PoolLayer(alias(x), out, window, "max", 0, requant))
        return
    zp_in = _scalar(op, op.input_zp, "input zero point")
    requant = Requant((), _scalar(op, op.output_zp, "output zero point"), lo, hi)
    walk.layers.append(PoolLayer(alias(x), out, window, "avg", zp_in, requant))


def _elementwise(walk: _Walk, op: tosa.AddOp | tosa.SubOp | tosa.MulOp) -> None:
    shape = ht.shape_of(op.output.type)
    inputs = tuple(_vector_input(walk, op, v, shape) for v in (op.input1, op.input2))
    if isinstance(op, tosa.MulOp) and _scalar(op, op.shift, "shift") != 0:
        raise OpError(op, f"{PASS_NAME}: 'tosa.mul' with a shift is not supported on the NPU")
    kind = {tosa.AddOp: "add", tosa.SubOp: "sub", tosa.MulOp: "mul"}[type(op)]
    requant, out = _epilogue(walk, op, op.output, shape[-1])
    walk.layers.append(VectorLayer(inputs, kind, requant, out, shape))


def _vector_input(walk: _Walk, op: Operation, v: SSAValue, shape) -> VectorInput:
    """An operand built as rescale(i8 -> i32) then any i32 -> i32 rescales. A first rescale
    that only shifts left (TFLite's `<< 20` before an add) becomes the widen's shift."""
    chain: list[tosa.RescaleOp] = []
    while isinstance(owner := v.owner, tosa.RescaleOp) and ht.element_type(owner.input.type) != I8:
        chain.append(owner)
        v = owner.input
    first = v.owner
    if (
        not isinstance(first, tosa.RescaleOp)
        or ht.element_type(first.input.type) != I8
        or not _fits(ht.shape_of(first.output.type), shape, const_array(first.input) is not None)
    ):
        raise OpError(
            op,
            f"{PASS_NAME}: '{op.name}' needs both operands rescaled from i8 tensors of its "
            "own shape, or from constants that broadcast to it (a computed operand is not "
            "broadcast on the NPU)",
        )
    stage, zp, ozp = _rescale_params(first, shape[-1])
    if ozp:
        raise OpError(first, f"{PASS_NAME}: a rescale to i32 must have output zero point 0")
    walk.folded.add(first)
    left = IDENTITY[1] - int(stage.shift[0])
    pure_shift = (
        not np.any(stage.bias)
        and np.all(stage.multiplier == IDENTITY[0])
        and np.all(stage.shift == stage.shift[0])
        and 0 <= left <= 23  # (x - zp) << left stays in int32
    )
    stages = [] if pure_shift else [stage]
    for rescale in reversed(chain):
        later, izp, ozp = _rescale_params(rescale, shape[-1])
        if izp or ozp:
            raise OpError(rescale, f"{PASS_NAME}: an i32 -> i32 rescale must have zero points 0")
        walk.folded.add(rescale)
        stages.append(later)
    return VectorInput(alias(first.input), zp, left if pure_shift else 0,
                       tuple(s for s in stages if not s.is_identity()))  # fmt: skip


def _fits(operand: tuple[int, ...] | None, shape: tuple[int, ...], constant: bool) -> bool:
    """An elementwise operand of this shape can be read: the result's own shape, or, for a
    constant (tiled into the weights section by the planner), one that broadcasts to it."""
    if operand is None or operand == shape:
        return operand is not None
    return (
        constant
        and len(operand) == len(shape)
        and all(a in (1, b) for a, b in zip(operand, shape, strict=True))
    )


_WIDENED_USERS = (tosa.AddOp, tosa.SubOp, tosa.MulOp, tosa.ReduceSumOp)


def _widened_user(v: SSAValue, op: Operation) -> Operation:
    """The op an i32 operand chain ends in, through i32 -> i32 rescales."""
    user = _only_user(v, op)
    while isinstance(user, tosa.RescaleOp) and ht.element_type(user.output.type) != I8:
        user = _only_user(user.output, user)
    return user


def _reduce_sum(walk: _Walk, op: tosa.ReduceSumOp) -> None:
    """reduce_sum over H and/or W of a centred NHWC i8 tensor: a sum pool over the whole
    extent of those axes, the zero point folded into the bias as -zp x count."""
    rescale = op.input.owner
    if not isinstance(rescale, tosa.RescaleOp):
        raise OpError(
            op, f"{PASS_NAME}: 'tosa.reduce_sum' must sum a rescaled i8 NHWC tensor over H and W"
        )
    x_shape = ht.shape_of(rescale.input.type)
    if x_shape is None or ht.element_type(rescale.input.type) != I8 or len(x_shape) != 4:
        raise OpError(
            op, f"{PASS_NAME}: 'tosa.reduce_sum' must sum a rescaled i8 NHWC tensor over H and W"
        )
    stage, zp, ozp = _rescale_params(rescale, x_shape[-1])
    if not stage.is_identity() or ozp:
        raise OpError(rescale, f"{PASS_NAME}: 'tosa.reduce_sum' of a scaled input is not supported")
    walk.folded.add(rescale)
    axes, last = {op.axis.value.data}, op
    user = _only_user(op.output, op)
    while isinstance(user, tosa.ReduceSumOp):
        axes.add(user.axis.value.data)
        walk.folded.add(user)
        last, user = user, _only_user(user.output, user)
    if not axes <= {1, 2} or x_shape[0] != 1:
        raise OpError(op, f"{PASS_NAME}: 'tosa.reduce_sum' on the NPU sums over H and W of batch 1")
    kernel = (x_shape[1] if 1 in axes else 1, x_shape[2] if 2 in axes else 1)
    out_shape = (1, x_shape[1] // kernel[0], x_shape[2] // kernel[1], x_shape[3])
    window = _window(op, x_shape, kernel, kernel, (1, 1), (0, 0, 0, 0), out_shape)
    folded = np.full(x_shape[3], -zp * kernel[0] * kernel[1])
    requant, out = _epilogue(walk, last, last.output, x_shape[3], folded)
    walk.layers.append(PoolLayer(alias(rescale.input), out, window, "sum", zp, requant))


def _lone_rescale(walk: _Walk, op: tosa.RescaleOp) -> None:
    shape = ht.shape_of(op.output.type)
    if ht.element_type(op.output.type) != I8:
        # An i32 operand of an add, sub, mul or reduce_sum, folded there.
        if not isinstance(_widened_user(op.output, op), _WIDENED_USERS):
            raise OpError(
                op, f"{PASS_NAME}: an i8 -> i32 rescale must feed tosa.add, sub, mul or reduce_sum"
            )
        walk.widened.add(op)
        return
    if ht.element_type(op.input.type) != I8:
        raise OpError(
            op,
            f"{PASS_NAME}: a rescale of an i32 value must follow tosa.matmul, a convolution "
            "or tosa.add, sub or mul",
        )
    if op.flag("input_unsigned") or op.flag("output_unsigned"):
        walk.layers.append(TableLayer(alias(op.input), op.output, _byte_table(op), shape))
        return
    stage, izp, ozp = _rescale_params(op, shape[-1])
    out, lo, hi = _fold_clamps(walk, op.output)
    requant = Requant((stage,), ozp, lo, hi)
    walk.layers.append(VectorLayer((VectorInput(alias(op.input), izp),), None, requant, out, shape))


def _byte_table(op: tosa.RescaleOp) -> np.ndarray:
    """A per-tensor 8-bit rescale with an unsigned side (uint8 model boundaries) as the
    256-entry table the `lut` instruction applies: entry v + 128 is the result's bits for
    the byte whose int8 view is v, computed with TOSA's rescale arithmetic."""
    m, s, izp, ozp = (const_array(v) for v in (op.multiplier, op.shift, op.input_zp, op.output_zp))
    if m is None or s is None or izp is None or ozp is None or m.size != 1 or s.size != 1:
        raise OpError(
            op, f"{PASS_NAME}: an unsigned 'tosa.rescale' needs constant per-tensor parameters"
        )
    in_u, out_u = op.flag("input_unsigned"), op.flag("output_unsigned")
    view = np.arange(-128, 128, dtype=np.int64)  # int8 views, in table order
    value = view & 0xFF if in_u else view
    in_zp = int(izp.reshape(-1)[0]) & 0xFF if in_u else int(izp.reshape(-1)[0])
    out_zp = int(ozp.reshape(-1)[0]) & 0xFF if out_u else int(ozp.reshape(-1)[0])
    rounding = rounding_of(op)
    scaled = numerics.apply_scale_32(
        value - in_zp, int(m.reshape(-1)[0]), int(s.reshape(-1)[0]), rounding == "double",
        half_even=rounding == "half_even",
    )  # fmt: skip
    lo, hi = (0, 255) if out_u else (-128, 127)
    result = np.clip(scaled.astype(np.int64) + out_zp, lo, hi)
    return ((result + 128) % 256 - 128).astype(np.int8)  # the result's bits as int8


def _lone_clamp(walk: _Walk, op: tosa.ClampOp) -> None:
    shape = ht.shape_of(op.output.type)
    if ht.element_type(op.output.type) != I8:
        raise OpError(op, f"{PASS_NAME}: 'tosa.clamp' on the NPU must be on i8")
    out, lo, hi = _fold_clamps(walk, op.output, op.min_val.value.data, op.max_val.value.data)
    requant = Requant((Stage.identity(shape[-1]),), 0, lo, hi)
    walk.layers.append(VectorLayer((VectorInput(alias(op.input), 0),), None, requant, out, shape))


def _table(walk: _Walk, op: tosa.TableOp) -> None:
    table = const_array(op.table)
    if ht.element_type(op.input1.type) != I8 or table is None:
        raise OpError(op, f"{PASS_NAME}: 'tosa.table' needs an i8 input and a constant table")
    shape = ht.shape_of(op.output.type)
    walk.layers.append(TableLayer(alias(op.input1), op.output, table.astype(np.int8), shape))


def _shape_values(op: Operation, v: SSAValue, what: str) -> list[int]:
    values = constant_array(v)
    if values is None:
        raise OpError(op, f"{PASS_NAME}: '{op.name}' needs a constant {what}")
    return [int(x) for x in values.reshape(-1)]


def _move(walk: _Walk, op: tosa.TransposeOp | tosa.ConcatOp | tosa.SliceOp | tosa.PadOp) -> None:
    """Data movement as a byte gather, worked out on element numbers at compile time."""
    inputs = list(op.input1) if isinstance(op, tosa.ConcatOp) else [op.input1]
    ids = []
    for i, v in enumerate(inputs):
        shape = ht.shape_of(v.type)
        if not storage_i8(v.type) or shape is None or any(d < 0 for d in shape):
            raise OpError(op, f"{PASS_NAME}: '{op.name}' must move i8 tensors of static shape")
        size = int(np.prod(shape, dtype=np.int64))
        ids.append((np.arange(size, dtype=np.int64) + (i << SOURCE_BITS)).reshape(shape))
    pad = 0
    if isinstance(op, tosa.TransposeOp):
        code = np.transpose(ids[0], op.array("perms"))
    elif isinstance(op, tosa.ConcatOp):
        code = np.concatenate(ids, axis=op.axis.value.data)
    elif isinstance(op, tosa.SliceOp):
        start = _shape_values(op, op.start, "start")
        size = _shape_values(op, op.size, "size")
        code = ids[0][tuple(slice(a, a + n) for a, n in zip(start, size, strict=True))]
    else:  # tosa.PadOp
        amounts = _shape_values(op, op.padding, "padding")
        pad = _scalar(op, op.pad_const, "pad value")
        pairs = [(amounts[2 * i], amounts[2 * i + 1]) for i in range(ids[0].ndim)]
        code = np.pad(ids[0], pairs, constant_values=-1)
    walk.layers.append(
        MoveLayer(tuple(alias(v) for v in inputs), op.results[0], code.reshape(-1), pad)
    )


_HANDLERS = {
    tosa.MatMulOp: _matmul,
    tosa.Conv2DOp: _conv,
    tosa.DepthwiseConv2DOp: _conv,
    tosa.MaxPool2dOp: _pool,
    tosa.AvgPool2dOp: _pool,
    tosa.AddOp: _elementwise,
    tosa.SubOp: _elementwise,
    tosa.MulOp: _elementwise,
    tosa.RescaleOp: _lone_rescale,
    tosa.ClampOp: _lone_clamp,
    tosa.TableOp: _table,
    tosa.ReduceSumOp: _reduce_sum,
    tosa.TransposeOp: _move,
    tosa.ConcatOp: _move,
    tosa.SliceOp: _move,
    tosa.PadOp: _move,
}
_VIEWS = (
    tosa.ConstOp,
    tosa.ConstShapeOp,
    tosa.ReshapeOp,
    sh.ConstantOp,
    sh.BitcastConvertOp,
    ReturnOp,
)


def may_run_on_npu(op: Operation) -> bool:
    """Whether the recognizer has a rule for `op` (a layer, or a view it folds): the
    partitioner's first guess, which `layers_of` then confirms on each region."""
    return type(op) in _HANDLERS or (isinstance(op, _VIEWS) and not isinstance(op, ReturnOp))


def is_view(op: Operation) -> bool:
    """A reshape or storage bitcast: no work, a view of row-major DRAM."""
    return isinstance(op, _VIEWS) and not isinstance(
        op, tosa.ConstOp | tosa.ConstShapeOp | sh.ConstantOp | ReturnOp
    )


def layers_of(func: FuncOp) -> list[Layer]:
    """The function's layers in program order; an op the NPU cannot run is an OpError."""
    walk = _Walk()
    for op in func.body.block.ops:
        if isinstance(op, _VIEWS) or op in walk.folded:
            continue
        if isinstance(op, tosa.TransposeOp) and const_array(op.output) is not None:
            continue  # a weight layout change, done at compile time
        handler = _HANDLERS.get(type(op))
        if handler is None:
            raise OpError(op, f"{PASS_NAME}: '{op.name}' is not supported on the NPU")
        try:
            handler(walk, op)
        except numerics.QuantizationError as err:
            raise OpError(op, f"{PASS_NAME}: {err}") from None
    for op in walk.widened - walk.folded:
        raise OpError(
            op, f"{PASS_NAME}: an i8 -> i32 rescale must feed tosa.add, sub, mul or reduce_sum"
        )
    returned = func.body.block.last_op
    results = {alias(v) for v in returned.operands} if isinstance(returned, ReturnOp) else set()
    return compose_moves(walk.layers, results)


def _compose(outer: MoveLayer, k: int, inner: MoveLayer) -> MoveLayer | None:
    """`outer` reading `inner`'s inputs instead of its input `k` (`inner`'s result): one
    gather for two; None when their pad values would clash."""
    mask = (1 << SOURCE_BITS) - 1
    code = outer.code.astype(np.int64)
    from_inner = (code >= 0) & ((code >> SOURCE_BITS) == k)
    through = inner.code[code[from_inner] & mask]
    if np.any(through < 0) and np.any(code < 0) and inner.pad != outer.pad:
        return None
    inputs = [v for i, v in enumerate(outer.inputs) if i != k]
    renumber = np.array([i - (i > k) for i in range(len(outer.inputs))], np.int64)
    for v in inner.inputs:
        if v not in inputs:
            inputs.append(v)
    inner_renumber = np.array([inputs.index(v) for v in inner.inputs], np.int64)
    new = np.where(code < 0, -1, (renumber[code >> SOURCE_BITS] << SOURCE_BITS) | (code & mask))
    new[from_inner] = np.where(
        through < 0,
        -1,
        (inner_renumber[np.maximum(through, 0) >> SOURCE_BITS] << SOURCE_BITS) | (through & mask),
    )
    pad = inner.pad if np.any(through < 0) else outer.pad
    return MoveLayer(tuple(inputs), outer.out, new, pad)


def compose_moves(layers: list[Layer], results: set[SSAValue]) -> list[Layer]:
    """Fold each move that reads another move's result into one gather from that move's
    inputs (pad -> slices -> concat is one DMA layer), and drop the moves then read by
    no layer and returned by none: their bytes would go to DRAM and back for nothing."""
    moves = {layer.out: layer for layer in layers if isinstance(layer, MoveLayer)}
    out: list[Layer] = []
    for layer in layers:
        while isinstance(layer, MoveLayer):
            k = next((i for i, v in enumerate(layer.inputs) if v in moves), None)
            composed = None if k is None else _compose(layer, k, moves[layer.inputs[k]])
            if composed is None:
                break
            layer = composed
        if isinstance(layer, MoveLayer):
            moves[layer.out] = layer
        out.append(layer)
    while True:
        read = {v for layer in out for v in sources(layer)} | results
        kept = [la for la in out if not isinstance(la, MoveLayer) or la.out in read]
        if len(kept) == len(out):
            return kept
        out = kept


@dataclass(frozen=True)
class LayerGraph:
    """The first stage's result: the entry function's layers in program order, its
    arguments (the program's inputs) and the values it returns (its outputs)."""

    func: FuncOp  # for diagnostics
    layers: tuple[Layer, ...]
    args: tuple[SSAValue, ...]
    results: tuple[SSAValue, ...]  # as returned; `alias` gives the tensor in DRAM

    @property
    def returned(self) -> Operation:
        return self.func.body.block.last_op


def form_layers(func: FuncOp) -> LayerGraph:
    """Stage 1: the function as NPU layers; an op or argument the NPU cannot take is an
    OpError."""
    layers = layers_of(func)
    if not layers:
        raise OpError(func, f"{PASS_NAME}: '@{func.sym_name.data}' has no layer to run")
    args = tuple(func.body.block.args)
    for i, arg in enumerate(args):
        shape = ht.shape_of(arg.type)
        if shape is None or any(d < 0 for d in shape) or not storage_i8(arg.type):
            raise OpError(func, f"{PASS_NAME}: argument {i} must be an i8 tensor of static shape")
    returned = func.body.block.last_op
    results = tuple(returned.operands) if isinstance(returned, ReturnOp) else ()
    return LayerGraph(func, tuple(layers), args, results)
