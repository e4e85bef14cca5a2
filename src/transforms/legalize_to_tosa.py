"""`stablehlo-legalize-to-tosa`: quantized StableHLO inference graphs as TOSA integer programs.

Quantized values become their storage integers (`stablehlo.bitcast_convert`
at the edges of what is converted, removed again between converted ops), and

* `convolution` (2-D, any layout: transposes to NHWC are inserted, constant weights
  laid out as OHWI or HWIO at compile time;
  `feature_group_count` equal to the input channels -> `depthwise_conv2d`; other
  groups -> one `conv2d` per group on its slice of the channels, concatenated)
  becomes a TOSA convolution accumulating in i32 with the zero points as
  operands, then a per-channel `tosa.rescale` by `s_x * s_w[c] / s_out`;
* `dot_general` of a matrix by a matrix -> `tosa.matmul` between reshapes,
  then the same rescale;
* quantized add, subtract, multiply, maximum, minimum -> input rescales,
  the TOSA op in i32, output rescale (`stablehlo-quant-legalize-to-tosa-rescale`'s
  scheme); an add of two values of one i32 accumulator type (a bias) -> `tosa.add`;
* `uniform_quantize` between quantized types (requantization) -> `tosa.rescale`;
* `clamp` with constant bounds and `maximum` with a constant (ReLU, ReLU6
  at the output zero point) -> `tosa.clamp` on the storage integers, which
  the rescale before it absorbs on hardware (TFLite's fused activation);
* `tanh`, `logistic`, `exponential` on i8 -> `tosa.table`, the 256 entries
  computed at compile time by evaluating the spec's dequantize -> op ->
  quantize on every input value (so the table is exact by construction);
* `reduce_window` max over the spatial dimensions (NHWC or NCHW) with an init value
  at the storage minimum, or in float between a dequantize and a quantize into the
  same type (init at most the smallest value) -> `tosa.max_pool2d`;
* `reshape`, `transpose`, `concatenate` (one quantized type), `pad` (constant
  value, no interior padding), `slice` (unit strides) -> their TOSA forms.

Every rescale uses a 32-bit multiplier; option `rounding` picks DOUBLE_ROUND
(default, bit-exact with TFLite's reference kernels) or SINGLE_ROUND.
Anything else stays as it is, so the pass can run on partly supported graphs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    UnknownLoc,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriteWalker
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.dialects.quant import UniformQuantizedType
from qdialect.ir.constants import constant_array, integer_attr
from qdialect.ir.rewrite import located
from qdialect.transforms.quant_legalize_to_tosa_rescale import LegalizeQuantizedElementwise
from qdialect.transforms.rescale_utils import RescaleRoundingPass, emit_rescale

PASS_NAME = "stablehlo-legalize-to-tosa"

_TABLE_OPS = (sh.TanhOp, sh.LogisticOp, sh.ExpOp)
_I32_TO_TOSA = {
    sh.AddOp: tosa.AddOp,
    sh.SubtractOp: tosa.SubOp,
    sh.MaximumOp: tosa.MaximumOp,
    sh.MinimumOp: tosa.MinimumOp,
}


def _narrowed(q: UniformQuantizedType) -> bool:
    """Whether `q`'s storage range is narrower than its storage type's."""
    width = q.storage_width
    full = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if q.is_signed else (0, (1 << width) - 1)
    return (q.storage_min, q.storage_max) != full


def _rescaled(v: SSAValue) -> bool:
    """Whether `v` is a rescale's result, seen through transposes and reshapes."""
    while isinstance(v.owner, tosa.TransposeOp | tosa.ReshapeOp):
        v = v.owner.operands[0]
    return isinstance(v.owner, tosa.RescaleOp)


def _per_tensor_i8(t: Attribute) -> UniformQuantizedType | None:
    q = ht.quant_type(t)
    if q is None or q.is_per_axis or not q.is_signed or q.storage_width != 8:
        return None
    return q


def _broadcast_operand(v: SSAValue) -> tuple[SSAValue, list[int]] | None:
    """(operand, its dimensions in order) of a `broadcast_in_dim` that only adds or
    stretches axes (the dimensions increasing: TOSA's implicit broadcast can read it)."""
    owner = v.owner
    if not isinstance(owner, sh.BroadcastInDimOp):
        return None
    dims = [int(d) for d in dense_values(owner.broadcast_dimensions)]
    return (owner.operand, dims) if dims == sorted(dims) else None


def _unsqueezed(values: np.ndarray, dims: list[int], rank: int) -> np.ndarray:
    """`values` (a broadcast's operand) with size-1 axes where the broadcast adds them."""
    shape = [1] * rank
    for d, n in zip(dims, values.shape, strict=True):
        shape[d] = n
    return values.reshape(shape)


def _const_array(v: SSAValue, integer: bool = True) -> np.ndarray | None:
    """Constant values of `v`, looking through the storage bitcasts this pass makes and
    broadcasts of constants."""
    owner = v.owner
    if isinstance(owner, sh.BitcastConvertOp):
        return _const_array(owner.operand, integer)
    if (b := _broadcast_operand(v)) is not None:
        inner = _const_array(b[0], integer)
        shape = ht.shape_of(v.type)
        if inner is None or shape is None:
            return None
        return np.broadcast_to(_unsqueezed(inner, b[1], len(shape)), shape)
    return constant_array(v, integer=integer)


def _float_const(v: SSAValue) -> np.ndarray | None:
    array = _const_array(v, integer=False)
    return None if array is None else array.astype(np.float64)


def _is_add_body(op: Operation) -> bool:
    body = list(op.regions[0].block.ops)
    return len(body) == 2 and isinstance(body[0], sh.AddOp)


def _in_bounds_counts(spatial, window, strides, pad) -> np.ndarray:
    """How many taps of each pooling window fall inside the (unpadded) input."""

    def axis_counts(size: int, k: int, stride: int, lo: int, hi: int) -> np.ndarray:
        starts = np.arange(0, size + lo + hi - k + 1, stride) - lo
        return np.minimum(starts + k, size) - np.maximum(starts, 0)

    rows = axis_counts(spatial[0], window[0], strides[0], pad[0], pad[1])
    cols = axis_counts(spatial[1], window[1], strides[1], pad[2], pad[3])
    return np.outer(rows, cols)


@dataclass(frozen=True)
class _PoolGeometry:
    """A 2-D pooling window over a 4-D value, in NHWC terms (`to_nhwc` permutes the
    value there: NHWC or NCHW, told apart by which axis the window leaves alone)."""

    to_nhwc: list[int]
    spatial: list[int]
    window: list[int]
    strides: list[int]
    pad: list[int]  # [top, bottom, left, right]
    exact_pad: list[int]  # ... as TOSA needs it (tosa.exact_window_pad)
    trims: list[int]


def _pool_geometry(op: sh.ReduceWindowOp) -> _PoolGeometry | None:
    shape = ht.shape_of(op.inputs[0].type)
    if shape is None or len(shape) != 4:
        return None
    window = list(dense_values(op.window_dimensions))
    strides = list(dense_values(op.window_strides)) or [1] * 4
    pad = [int(p) for p in op.padding.get_values()] if op.padding is not None else [0] * 8
    dilations = (*dense_values(op.base_dilations), *dense_values(op.window_dilations))
    if any(v != 1 for v in dilations) or any(p < 0 for p in pad):
        return None

    def untouched(axis: int) -> bool:
        return window[axis] == 1 and strides[axis] == 1 and pad[2 * axis : 2 * axis + 2] == [0, 0]

    if not untouched(0):
        return None
    perm = [0, 1, 2, 3] if untouched(3) else [0, 2, 3, 1] if untouched(1) else None
    if perm is None:
        return None
    spatial = [shape[a] for a in perm[1:3]]
    win = [window[a] for a in perm[1:3]]
    st = [strides[a] for a in perm[1:3]]
    p = [pad[2 * a + k] for a in perm[1:3] for k in (0, 1)]
    if p[0] >= win[0] or p[1] >= win[0] or p[2] >= win[1] or p[3] >= win[1]:
        return None  # a window entirely in padding has no TOSA form
    exact, trims = tosa.exact_window_pad(spatial, win, st, p)
    return _PoolGeometry(perm, spatial, win, st, p, list(exact), list(trims))


def _group_epilogue(
    conv: sh.ConvolutionOp, feature: int
) -> tuple[np.ndarray | None, sh.UniformQuantizeOp, list[Operation]] | None:
    """(the i32 bias vector or None, the requantization, the ops between) when `conv`'s
    i32 result is read only by a `uniform_quantize` to 8 bits (per tensor or along
    `feature`), directly or through an add of a constant varying along `feature`."""
    q_acc = ht.quant_type(conv.result.type)
    uses = list(conv.result.uses)
    if q_acc is None or q_acc.storage_width != 32 or len(uses) != 1:
        return None
    user, bias, between = uses[0].operation, None, []
    if isinstance(user, sh.AddOp):
        other = user.operands[1 - uses[0].index]
        b = _broadcast_operand(other)
        if user.result.type != conv.result.type or other.type != conv.result.type or b is None:
            return None
        bias = _const_array(b[0])
        if bias is None or bias.ndim != 1 or b[1] != [feature]:
            return None
        after = list(user.result.uses)
        if len(after) != 1:
            return None
        between, user = [user], after[0].operation
    if not isinstance(user, sh.UniformQuantizeOp):
        return None
    qf = ht.quant_type(user.result.type)
    if qf is None or qf.storage_width != 8 or len(set(qf.zero_points)) != 1:
        return None
    if qf.is_per_axis and qf.axis != feature:
        return None
    return bias, user, between


def _ratios(numerators, denominators) -> list[float]:
    """numerator / denominator per channel (one list may be per-tensor); one entry if all agree."""
    n = max(len(numerators), len(denominators))
    ratios = [
        a / b
        for a, b in zip(
            list(numerators) * (n // len(numerators)),
            list(denominators) * (n // len(denominators)),
            strict=True,
        )
    ]
    return ratios[:1] if len(set(ratios)) == 1 else ratios


class _Converter:
    """Builds TOSA before one op at a time; quantized values travel as storage integers."""

    def __init__(self, double_round: bool):
        self.double_round = double_round
        self.op: Operation | None = None

    # ---- building blocks --------------------------------------------------------

    def emit(self, new: Operation) -> SSAValue:
        assert self.op is not None
        if isinstance(new.location, UnknownLoc):  # named after the op it lowers
            new.location = self.op.location
        Rewriter.insert_op(new, InsertPoint.before(self.op))
        return new.results[0]

    def const(self, values, element: Attribute, shape) -> SSAValue:
        t = TensorType(element, list(shape))
        flat = np.asarray(values).reshape(-1).tolist()
        return self.emit(tosa.ConstOp(DenseIntOrFPElementsAttr.from_list(t, flat)))

    def shape_operand(self, values) -> SSAValue:
        return self.emit(tosa.ConstShapeOp.of(values))

    def storage(self, v: SSAValue) -> SSAValue:
        """The storage integers of quantized `v` (peeling a bitcast this pass made)."""
        owner = v.owner
        if isinstance(owner, sh.BitcastConvertOp) and not ht.is_quantized(owner.operand.type):
            return owner.operand
        q = ht.quant_type(v.type)
        assert q is not None
        t = TensorType(IntegerType(q.storage_width), ht.shape_of(v.type))
        return self.emit(sh.BitcastConvertOp.create(operands=[v], result_types=[t]))

    def publish(self, storage: SSAValue, target: Operation | None = None) -> None:
        """Replace the op's (or `target`'s) quantized result by `storage`, seen through a
        bitcast, and erase it."""
        target = target or self.op
        assert target is not None
        result = target.results[0]
        q = ht.quant_type(result.type)
        if q is not None and _narrowed(q) and _rescaled(storage):
            # A rescale saturates to its integer type; the quantized type's own storage
            # range (a ReLU folded into it, i8<0:127>) is a clamp after it.
            element = IntegerType(q.storage_width)
            storage = self.tosa_op(tosa.ClampOp, [storage], storage.type,
                                   min_val=IntegerAttr(q.storage_min, element),
                                   max_val=IntegerAttr(q.storage_max, element))  # fmt: skip
        if ht.is_quantized(result.type):
            storage = self.emit(
                sh.BitcastConvertOp.create(operands=[storage], result_types=[result.type])
            )
        result.replace_all_uses_with(storage)
        Rewriter.erase_op(target)

    def trim_spatial(self, x: SSAValue, trims: list[int]) -> SSAValue:
        """Slice `trims[i]` trailing rows off spatial axis i of an NHWC value (rows no
        window reaches, cut so the window arithmetic divides exactly as TOSA requires)."""
        if not any(trims):
            return x
        shape = list(ht.shape_of(x.type) or ())
        size = [shape[0], *(n - t for n, t in zip(shape[1:-1], trims, strict=True)), shape[-1]]
        return self.tosa_op(
            tosa.SliceOp,
            [x, self.shape_operand([0] * len(shape)), self.shape_operand(size)],
            TensorType(ht.element_type(x.type), size),
        )

    def channel_slice(self, x: SSAValue, start: int, size: int, axis: int = 3) -> SSAValue:
        """`size` entries of `x` from `start` along `axis` (a tosa.slice)."""
        shape = list(ht.shape_of(x.type) or ())
        begin, sizes = [0] * len(shape), list(shape)
        begin[axis], sizes[axis] = start, size
        return self.tosa_op(
            tosa.SliceOp,
            [x, self.shape_operand(begin), self.shape_operand(sizes)],
            TensorType(ht.element_type(x.type), sizes),
        )

    def tosa_op(self, cls, operands, result_type, **props) -> SSAValue:
        return self.emit(
            cls.create(operands=operands, result_types=[result_type], properties=props)
        )

    def transpose(self, v: SSAValue, perms) -> SSAValue:
        perms = [int(p) for p in perms]
        if perms == sorted(perms):
            return v
        shape = ht.shape_of(v.type)
        out = TensorType(ht.element_type(v.type), [shape[p] for p in perms])
        return self.tosa_op(tosa.TransposeOp, [v], out, perms=DenseArrayBase.from_list(i32, perms))

    def laid_out(self, source: SSAValue, w: SSAValue, perms, shape=None) -> SSAValue:
        """Weights `w` (the storage of `source`) transposed by `perms` and reshaped to
        `shape`: constant weights at compile time (the NPU reads constants), others by
        `tosa.transpose` / `tosa.reshape`."""
        values = _const_array(source)
        element = ht.element_type(w.type)
        if values is not None and isinstance(element, IntegerType):
            laid = np.transpose(values, [int(p) for p in perms])
            laid = laid.reshape(shape) if shape is not None else laid
            return self.emit(tosa.ConstOp(integer_attr(np.ascontiguousarray(laid), element)))
        w = self.transpose(w, perms)
        return self.reshape(w, shape) if shape is not None else w

    def reshape(self, v: SSAValue, shape) -> SSAValue:
        out = TensorType(ht.element_type(v.type), list(shape))
        return self.tosa_op(tosa.ReshapeOp, [v, self.shape_operand(shape)], out)

    def rescale(
        self,
        v: SSAValue,
        scales: list[float],
        input_zp: int,
        output_zp: int,
        out: IntegerType,
    ) -> SSAValue:
        """Per-channel (last axis) when `scales` has more than one entry."""
        assert self.op is not None
        return emit_rescale(
            self.emit, self.op, PASS_NAME, v, scales, input_zp, output_zp, out, self.double_round
        )

    def requantize_accumulator(
        self, acc: SSAValue, qx: UniformQuantizedType, qw: UniformQuantizedType, q_out,
        rows: slice | None = None,
    ) -> SSAValue:  # fmt: skip
        """i32 accumulator with scale s_x * s_w[c] -> the result's storage (of output
        channels `rows` only, when given: one group of a grouped convolution)."""

        def part(scales) -> list[float]:
            scales = list(scales)
            return scales if rows is None or len(scales) == 1 else scales[rows]

        ratios = _ratios([qx.scales[0] * sw for sw in part(qw.scales)], part(q_out.scales))
        out = IntegerType(q_out.storage_width)
        if out == i32 and ratios == [1.0] and q_out.zero_points[0] == 0:
            return acc
        return self.rescale(acc, ratios, 0, q_out.zero_points[0], out)

    # ---- ops ------------------------------------------------------------------

    def convert(self, op: Operation) -> bool:
        self.op = op
        for cls, method in (
            (sh.ConvolutionOp, self.convolution),
            (sh.DotGeneralOp, self.dot_general),
            (sh.UniformQuantizeOp, self.float_island),
            (sh.UniformQuantizeOp, self.float_max_pool),
            (sh.UniformQuantizeOp, self.requantize),
            (sh.ClampOp, self.clamp),
            (sh.MaximumOp, self.relu),
            (sh.AddOp, self.accumulator_add),
            (_TABLE_OPS, self.table),
            (sh.ReduceWindowOp, self.max_pool),
            (sh.ReshapeOp, self.data_movement),
            (sh.TransposeOp, self.data_movement),
            (sh.ConcatenateOp, self.data_movement),
            (sh.SliceOp, self.data_movement),
            (sh.PadOp, self.data_movement),
        ):
            if isinstance(op, cls) and method(op):
                return True
        return False

    def convolution(self, op: sh.ConvolutionOp) -> bool:
        qx, qw, q_out = (ht.quant_type(t) for t in (op.lhs.type, op.rhs.type, op.result.type))
        if _per_tensor_i8(op.lhs.type) is None or qw is None or q_out is None:
            return False
        d = op.dimension_numbers.data
        if not qw.is_signed or qw.storage_width != 8 or len(set(q_out.zero_points)) != 1:
            return False
        if q_out.is_per_axis and q_out.axis != d.output_feature_dimension:
            return False
        if len(d.input_spatial_dimensions) != 2 or op.batch_group_count.value.data != 1:
            return False
        if any(v != 1 for v in dense_values(op.lhs_dilation)) or any(
            dense_values(op.window_reversal)
        ):
            return False
        if qw.is_per_axis and qw.axis != d.kernel_output_feature_dimension:
            return False
        if len(set(qw.zero_points)) != 1:
            return False
        pad = [int(p) for p in op.padding.get_values()] if op.padding is not None else [0, 0, 0, 0]
        if any(p < 0 for p in pad):
            return False
        stride = list(dense_values(op.window_strides)) or [1, 1]
        dilation = list(dense_values(op.rhs_dilation)) or [1, 1]
        x_shape, w_shape = ht.shape_of(op.lhs.type), ht.shape_of(op.rhs.type)
        if x_shape is None or w_shape is None:
            return False
        groups = op.feature_group_count.value.data
        channels = x_shape[d.input_feature_dimension]
        x = self.transpose(
            self.storage(op.lhs),
            [d.input_batch_dimension, *d.input_spatial_dimensions, d.input_feature_dimension],
        )
        w = self.storage(op.rhs)
        out_channels = w_shape[d.kernel_output_feature_dimension]
        zp_x = self.const([qx.zero_points[0]], IntegerType(8), [1])
        zp_w = self.const([qw.zero_points[0]], IntegerType(8), [1])
        bias = self.const(np.zeros(out_channels, np.int64), i32, [out_channels])
        pad, trims = tosa.exact_window_pad(
            [x_shape[i] for i in d.input_spatial_dimensions],
            [w_shape[i] for i in d.kernel_spatial_dimensions],
            stride,
            pad,
            dilation,
        )
        x = self.trim_spatial(x, trims)
        props = {
            "pad": DenseArrayBase.from_list(i64, pad),
            "stride": DenseArrayBase.from_list(i64, stride),
            "dilation": DenseArrayBase.from_list(i64, dilation),
            "acc_type": i32,
        }
        out_shape = ht.shape_of(op.result.type)
        nhwc_out = [
            out_shape[d.output_batch_dimension],
            *(out_shape[i] for i in d.output_spatial_dimensions),
            out_shape[d.output_feature_dimension],
        ]
        acc_t = TensorType(i32, nhwc_out)
        if groups == 1:
            to_ohwi = [
                d.kernel_output_feature_dimension,
                *d.kernel_spatial_dimensions,
                d.kernel_input_feature_dimension,
            ]
            w = self.laid_out(op.rhs, w, to_ohwi)
            acc = self.tosa_op(tosa.Conv2DOp, [x, w, bias, zp_x, zp_w], acc_t, **props)
            y = self.requantize_accumulator(acc, qx, qw, q_out)
        elif groups == channels and w_shape[d.kernel_input_feature_dimension] == 1:
            to_hwio = [
                *d.kernel_spatial_dimensions,
                d.kernel_input_feature_dimension,
                d.kernel_output_feature_dimension,
            ]
            kh, kw = (w_shape[i] for i in d.kernel_spatial_dimensions)
            w = self.laid_out(op.rhs, w, to_hwio, [kh, kw, channels, out_channels // channels])
            acc = self.tosa_op(tosa.DepthwiseConv2DOp, [x, w, bias, zp_x, zp_w], acc_t, **props)
            y = self.requantize_accumulator(acc, qx, qw, q_out)
        elif w_shape[d.kernel_input_feature_dimension] * groups == channels:
            # TOSA has no grouped convolution: each group is a conv2d on its slice of
            # the input channels, requantized with its own channels' scales; the
            # groups' results are concatenated along channels (the order groups give).
            to_ohwi = [
                d.kernel_output_feature_dimension,
                *d.kernel_spatial_dimensions,
                d.kernel_input_feature_dimension,
            ]
            weights = _const_array(op.rhs)
            ohwi = self.transpose(w, to_ohwi) if weights is None else w
            # The requantization of the i32 result, and a bias added before it, join
            # each group (the group's rescale, conv2d's bias operand), so the groups
            # reach the NPU as ordinary layers and only int8 results are concatenated.
            epilogue = _group_epilogue(op, d.output_feature_dimension)
            bias, target, between = epilogue if epilogue else (None, None, [])
            q_final = ht.quant_type(target.result.type) if target is not None else q_out
            assert q_final is not None and qx is not None
            per_in, per_out = channels // groups, out_channels // groups
            parts = []
            for g in range(groups):
                rows = slice(g * per_out, (g + 1) * per_out)
                xg = self.channel_slice(x, g * per_in, per_in)
                if weights is not None:  # constant weights stay constants (the NPU needs them)
                    wg_values = np.transpose(weights, to_ohwi)[rows]
                    wg = self.const(wg_values, IntegerType(8), wg_values.shape)
                else:
                    wg = self.channel_slice(ohwi, g * per_out, per_out, axis=0)
                b_rows = bias[rows] if bias is not None else np.zeros(per_out, np.int64)
                bg = self.const(b_rows, i32, [per_out])
                acc_g = self.tosa_op(tosa.Conv2DOp, [xg, wg, bg, zp_x, zp_w],
                                     TensorType(i32, [*nhwc_out[:3], per_out]), **props)  # fmt: skip
                parts.append(self.requantize_accumulator(acc_g, qx, qw, q_final, rows))
            y = self.tosa_op(
                tosa.ConcatOp,
                parts,
                TensorType(IntegerType(q_final.storage_width), nhwc_out),
                axis=IntegerAttr(3, i32),
            )
            if target is not None:
                inverse = np.argsort([d.output_batch_dimension, *d.output_spatial_dimensions,
                                      d.output_feature_dimension])  # fmt: skip
                self.publish(self.transpose(y, inverse), target=target)
                for joined in [*between, op]:
                    Rewriter.erase_op(joined)
                return True
        else:
            return False
        inverse = np.argsort(
            [d.output_batch_dimension, *d.output_spatial_dimensions, d.output_feature_dimension]
        )
        self.publish(self.transpose(y, inverse))
        return True

    def dot_general(self, op: sh.DotGeneralOp) -> bool:
        """[B,] M x K by [B,] K x N (batch dimension first, if any) -> tosa.matmul."""
        qx, qw, q_out = (ht.quant_type(t) for t in (op.lhs.type, op.rhs.type, op.result.type))
        if _per_tensor_i8(op.lhs.type) is None or qw is None or q_out is None:
            return False
        if not qw.is_signed or qw.storage_width != 8 or len(set(q_out.zero_points)) != 1:
            return False
        dims = op.dot_dimension_numbers.data
        x_shape, w_shape = ht.shape_of(op.lhs.type), ht.shape_of(op.rhs.type)
        batched = len(x_shape) == 3
        want = ((0,), (0,), (2,), (1,)) if batched else ((), (), (1,), (0,))
        got = tuple(
            tuple(d)
            for d in (
                dims.lhs_batching_dimensions,
                dims.rhs_batching_dimensions,
                dims.lhs_contracting_dimensions,
                dims.rhs_contracting_dimensions,
            )
        )
        last = len(x_shape) - 1  # the output's N axis, where per-channel scales must be
        if (
            got != want
            or len(w_shape) != len(x_shape)
            or len(x_shape) not in (2, 3)
            or (qw.is_per_axis and qw.axis != last)
            or (q_out.is_per_axis and q_out.axis != last)
            or len(set(qw.zero_points)) != 1
        ):
            return False
        batch = x_shape[0] if batched else 1
        m, k = x_shape[-2:]
        n = w_shape[-1]
        a = self.storage(op.lhs)
        b = self.storage(op.rhs)
        if not batched:
            a, b = self.reshape(a, [1, m, k]), self.reshape(b, [1, k, n])
        zp_a = self.const([qx.zero_points[0]], IntegerType(8), [1])
        zp_b = self.const([qw.zero_points[0]], IntegerType(8), [1])
        acc = self.tosa_op(tosa.MatMulOp, [a, b, zp_a, zp_b], TensorType(i32, [batch, m, n]))
        if not batched:
            acc = self.reshape(acc, [m, n])
        self.publish(self.requantize_accumulator(acc, qx, qw, q_out))
        return True

    def float_island(self, op: sh.UniformQuantizeOp) -> bool:
        """quantize([divide](reduce or reduce_window add (dequantize(x)), c)): sum, mean, average pooling.

        The float sum of dequantized values becomes an exact i32 sum of the
        centred storage; the division by a constant folds into the one output
        rescale (reduce), or is TOSA's average pooling when it divides by the
        in-bounds count of each window.
        """
        q_out = _per_tensor_i8(op.result.type)
        value = op.operand
        divisor = None
        if isinstance(value.owner, sh.DivideOp):
            divisor = _float_const(value.owner.rhs)
            if divisor is None:
                return False
            value = value.owner.lhs
        reduction = value.owner
        if q_out is None or not isinstance(reduction, sh.ReduceOp | sh.ReduceWindowOp):
            return False
        if len(reduction.inputs) != 1 or not _is_add_body(reduction):
            return False
        init = _float_const(reduction.init_values[0])
        dq = reduction.inputs[0].owner
        if init is None or np.any(init != 0.0) or not isinstance(dq, sh.UniformDequantizeOp):
            return False
        q_in = _per_tensor_i8(dq.operand.type)
        if q_in is None:
            return False
        if isinstance(reduction, sh.ReduceOp):
            return self.reduce_sum(op, dq.operand, q_in, q_out, reduction, divisor)
        if divisor is None:
            return False  # a sum pool: TOSA has none
        return self.avg_pool(op, dq.operand, q_in, q_out, reduction, divisor)

    def reduce_sum(self, op, x_q, q_in, q_out, reduction: sh.ReduceOp, divisor) -> bool:
        x_shape = ht.shape_of(x_q.type)
        out_shape = ht.shape_of(op.result.type)
        if divisor is not None and len(set(divisor.reshape(-1).tolist())) != 1:
            return False
        count = float(divisor.reshape(-1)[0]) if divisor is not None else 1.0
        if count <= 0:
            return False
        x = self.storage(x_q)
        acc = self.rescale(x, [1.0], q_in.zero_points[0], 0, i32)
        shape = list(x_shape)
        for axis in sorted(dense_values(reduction.dimensions)):
            shape[axis] = 1
            acc = self.tosa_op(
                tosa.ReduceSumOp, [acc], TensorType(i32, shape), axis=IntegerAttr(axis, i32)
            )
        acc = self.reshape(acc, out_shape)
        scale = q_in.scales[0] / (q_out.scales[0] * count)
        self.publish(self.rescale(acc, [scale], 0, q_out.zero_points[0], IntegerType(8)))
        return True

    def avg_pool(self, op, x_q, q_in, q_out, reduction: sh.ReduceWindowOp, divisor) -> bool:
        g = _pool_geometry(reduction)
        if g is None:
            return False
        nhwc_out = [ht.shape_of(op.result.type)[p] for p in g.to_nhwc]
        counts = _in_bounds_counts(g.spatial, g.window, g.strides, g.pad)
        if not np.array_equal(
            np.broadcast_to(np.transpose(np.broadcast_to(divisor, ht.shape_of(op.result.type)),
                                         g.to_nhwc), nhwc_out),
            np.broadcast_to(counts[None, :, :, None], nhwc_out),
        ):  # fmt: skip
            return False  # not the in-bounds count TOSA divides by
        ratio = q_in.scales[0] / q_out.scales[0]
        if ratio > 1.0:
            # The pooled mean is rounded to input units before the rescale; scaling up
            # would magnify that rounding past one output unit. (TFLite requires equal
            # scales for average pooling.)
            return False
        x = self.trim_spatial(self.transpose(self.storage(x_q), g.to_nhwc), g.trims)
        zp_in = q_in.zero_points[0]
        same_scale = ratio == 1.0
        pooled_zp = q_out.zero_points[0] if same_scale else zp_in  # keeps the mean in range
        pooled = self.tosa_op(
            tosa.AvgPool2dOp,
            [
                x,
                self.const([zp_in], IntegerType(8), [1]),
                self.const([pooled_zp], IntegerType(8), [1]),
            ],
            TensorType(IntegerType(8), nhwc_out),
            kernel=DenseArrayBase.from_list(i64, g.window),
            stride=DenseArrayBase.from_list(i64, g.strides),
            pad=DenseArrayBase.from_list(i64, g.exact_pad),
            acc_type=i32,
        )
        if not same_scale:
            pooled = self.rescale(
                pooled,
                [q_in.scales[0] / q_out.scales[0]],
                zp_in,
                q_out.zero_points[0],
                IntegerType(8),
            )
        self.publish(self.transpose(pooled, np.argsort(g.to_nhwc)))
        return True

    def requantize(self, op: sh.UniformQuantizeOp) -> bool:
        q_in, q_out = ht.quant_type(op.operand.type), ht.quant_type(op.result.type)
        if q_in is None or q_out is None:
            return False
        rank = len(ht.shape_of(op.operand.type) or ())
        axes = {q.axis for q in (q_in, q_out) if q.is_per_axis}
        if len(axes) > 1 or len(set(q_in.zero_points)) != 1 or len(set(q_out.zero_points)) != 1:
            return False
        # TOSA's per-channel rescale runs along the last axis: move the channel axis there.
        axis = axes.pop() if axes else rank - 1
        to_last = [d for d in range(rank) if d != axis] + [axis]
        if not (q_in.is_signed and q_out.is_signed):
            return False
        if q_in.storage_width not in (8, 16, 32) or q_out.storage_width not in (8, 16, 32):
            return False
        x = self.transpose(self.storage(op.operand), to_last)
        y = self.rescale(
            x,
            _ratios(q_in.scales, q_out.scales),
            q_in.zero_points[0],
            q_out.zero_points[0],
            IntegerType(q_out.storage_width),
        )
        self.publish(self.transpose(y, np.argsort(to_last)))
        return True

    def _clamp_storage(self, x: SSAValue, lo: int, hi: int) -> None:
        element = ht.element_type(x.type)
        self.publish(
            self.tosa_op(
                tosa.ClampOp,
                [x],
                x.type,
                min_val=IntegerAttr(lo, element),
                max_val=IntegerAttr(hi, element),
            )
        )

    def clamp(self, op: sh.ClampOp) -> bool:
        lo_v, x, hi_v = op.operands
        q = _per_tensor_i8(x.type)
        if q is None or lo_v.type != hi_v.type or ht.quant_type(lo_v.type) != q:
            return False
        lo, hi = _const_array(lo_v), _const_array(hi_v)
        if lo is None or hi is None or op.result.type != x.type:
            return False
        if lo.size == 0 or np.any(lo != lo.reshape(-1)[0]) or np.any(hi != hi.reshape(-1)[0]):
            return False  # bounds that vary per element: no tosa.clamp
        self._clamp_storage(self.storage(x), int(lo.reshape(-1)[0]), int(hi.reshape(-1)[0]))
        return True

    def relu(self, op: sh.MaximumOp) -> bool:
        x, bound = op.operands
        if _const_array(x) is not None:
            x, bound = bound, x
        q = _per_tensor_i8(x.type)
        if q is None or bound.type != x.type or op.result.type != x.type:
            return False
        values = _const_array(bound)
        if values is None or values.size == 0 or len(set(values.reshape(-1).tolist())) != 1:
            return False
        self._clamp_storage(self.storage(x), int(values.reshape(-1)[0]), q.storage_max)
        return True

    def accumulator_add(self, op: sh.AddOp) -> bool:
        """A bias (or any value) added to an i32 accumulator of the same type: exact
        integer addition. A broadcast constant (the per-channel bias) stays a vector that
        TOSA's add broadcasts."""
        q = ht.quant_type(op.result.type)
        if q is None or q.storage_width != 32 or len(set(q.zero_points)) != 1:
            return False
        if op.lhs.type != op.result.type or op.rhs.type != op.result.type:
            return False
        a, b = (self.accumulator_operand(v) for v in (op.lhs, op.rhs))
        shape = list(ht.shape_of(op.result.type) or ())
        self.publish(self.tosa_op(tosa.AddOp, [a, b], TensorType(i32, shape)))
        return True

    def accumulator_operand(self, v: SSAValue) -> SSAValue:
        """The storage of `v`; of a broadcast constant, its values with size-1 axes."""
        b = _broadcast_operand(v)
        shape = ht.shape_of(v.type)
        if b is not None and shape is not None:
            values = _const_array(b[0])
            if values is not None:
                small = _unsqueezed(values, b[1], len(shape))
                return self.const(small, i32, small.shape)
        return self.storage(v)

    def table(self, op: Operation) -> bool:
        from qdialect.interpreter import Interpreter

        q_in, q_out = _per_tensor_i8(op.operands[0].type), _per_tensor_i8(op.results[0].type)
        if q_in is None or q_out is None:
            return False
        # The spec's meaning of the quantized op, evaluated on all 256 inputs.
        entries = Interpreter(ModuleOp([])).eval_op(op, [np.arange(-128, 128, dtype=np.int8)])[0]
        table = self.const(entries.astype(np.int64), IntegerType(8), [256])
        x = self.storage(op.operands[0])
        self.publish(self.tosa_op(tosa.TableOp, [x, table], x.type))
        return True

    def max_pool(self, op: sh.ReduceWindowOp) -> bool:
        """reduce_window max on quantized values, its init the storage minimum."""
        if len(op.inputs) != 1:
            return False
        x_v, init_v = op.inputs[0], op.init_values[0]
        q = _per_tensor_i8(x_v.type)
        if q is None or op.results[0].type.element_type != x_v.type.element_type:
            return False
        init = _const_array(init_v)
        if init is None or int(init.reshape(-1)[0]) != q.storage_min:
            return False  # any other init value is a max the pooling op does not take
        return self.emit_max_pool(op, x_v)

    def float_max_pool(self, op: sh.UniformQuantizeOp) -> bool:
        """quantize(reduce_window max(dequantize(x), init)) into x's own type, the init at
        most the smallest value x can hold (-inf, as importers write it): the integer
        maximum of the storage, since dequantization is monotonic."""
        pool = op.operand.owner
        if not isinstance(pool, sh.ReduceWindowOp) or len(pool.inputs) != 1:
            return False
        body = list(pool.body.block.ops)
        dq = pool.inputs[0].owner
        if len(body) != 2 or not isinstance(body[0], sh.MaximumOp):
            return False
        if not isinstance(dq, sh.UniformDequantizeOp) or ht.element_type(
            dq.operand.type
        ) != ht.element_type(op.result.type):
            return False
        q = _per_tensor_i8(dq.operand.type)
        init = _float_const(pool.init_values[0])
        if q is None or init is None:
            return False
        lowest = (q.storage_min - q.zero_points[0]) * q.scales[0]
        if float(init.reshape(-1)[0]) > lowest:
            return False
        return self.emit_max_pool(pool, dq.operand)

    def emit_max_pool(self, pool: sh.ReduceWindowOp, x_q: SSAValue) -> bool:
        """tosa.max_pool2d of `x_q`'s storage by `pool`'s window, replacing the op being
        converted (the pool, or the quantize after a float one)."""
        g = _pool_geometry(pool)
        if g is None:
            return False
        shape = list(ht.shape_of(pool.results[0].type) or ())
        x = self.trim_spatial(self.transpose(self.storage(x_q), g.to_nhwc), g.trims)
        out = TensorType(IntegerType(8), [shape[p] for p in g.to_nhwc])
        pooled = self.tosa_op(
            tosa.MaxPool2dOp,
            [x],
            out,
            kernel=DenseArrayBase.from_list(i64, g.window),
            stride=DenseArrayBase.from_list(i64, g.strides),
            pad=DenseArrayBase.from_list(i64, g.exact_pad),
        )
        self.publish(self.transpose(pooled, np.argsort(g.to_nhwc)))
        return True

    def data_movement(self, op: Operation) -> bool:
        q = ht.quant_type(op.results[0].type)
        if q is None or any(
            o.type.element_type != op.results[0].type.element_type for o in op.operands
        ):
            return False
        shape = ht.shape_of(op.results[0].type)
        if shape is None or any(s < 0 for s in shape):
            return False
        out_t = TensorType(IntegerType(q.storage_width), shape)
        if isinstance(op, sh.ReshapeOp):
            self.publish(self.reshape(self.storage(op.operands[0]), shape))
        elif isinstance(op, sh.TransposeOp):
            self.publish(self.transpose(self.storage(op.operands[0]), dense_values(op.permutation)))
        elif isinstance(op, sh.ConcatenateOp):
            parts = [self.storage(v) for v in op.operands]
            axis = IntegerAttr(op.dimension.value.data, i32)
            self.publish(self.tosa_op(tosa.ConcatOp, parts, out_t, axis=axis))
        elif isinstance(op, sh.SliceOp):
            if any(s != 1 for s in dense_values(op.strides)):
                return False
            start = dense_values(op.start_indices)
            size = [hi - lo for lo, hi in zip(start, dense_values(op.limit_indices), strict=True)]
            x = self.storage(op.operands[0])
            self.publish(
                self.tosa_op(
                    tosa.SliceOp, [x, self.shape_operand(start), self.shape_operand(size)], out_t
                )
            )
        elif isinstance(op, sh.PadOp):
            value = _const_array(op.padding_value)
            low, high = dense_values(op.edge_padding_low), dense_values(op.edge_padding_high)
            if value is None or any(dense_values(op.interior_padding)) or min((*low, *high)) < 0:
                return False
            x = self.storage(op.operand)
            padding = [p for pair in zip(low, high, strict=True) for p in pair]
            pad_value = self.const([int(value.reshape(-1)[0])], out_t.element_type, [1])
            self.publish(
                self.tosa_op(tosa.PadOp, [x, self.shape_operand(padding), pad_value], out_t)
            )
        return True


def _elementwise_to_tosa(func: FuncOp) -> None:
    """The i32 StableHLO ops the elementwise scheme left between rescales, as TOSA ops."""
    for op in list(func.walk()):
        if type(op) in _I32_TO_TOSA or isinstance(op, sh.MultiplyOp):
            t = op.results[0].type
            if ht.element_type(t) != i32 or not all(
                isinstance(o.owner, tosa.RescaleOp) for o in op.operands
            ):
                continue
            if isinstance(op, sh.MultiplyOp):
                shift = tosa.ConstOp(
                    DenseIntOrFPElementsAttr.from_list(TensorType(IntegerType(8), [1]), [0])
                )
                shift.location = op.location
                Rewriter.insert_op(shift, InsertPoint.before(op))
                new = tosa.MulOp.create(operands=[*op.operands, shift.output], result_types=[t])
            else:
                new = _I32_TO_TOSA[type(op)].create(operands=list(op.operands), result_types=[t])
            new.location = op.location
            Rewriter.replace_op(op, new)


def _drop_bitcast_pairs(func: FuncOp) -> None:
    """bitcast(storage -> quantized -> storage) is the storage value itself."""
    for op in list(func.walk()):
        if not isinstance(op, sh.BitcastConvertOp):
            continue
        inner = op.operand.owner
        if (
            isinstance(inner, sh.BitcastConvertOp)
            and inner.operand.type == op.result.type
            and ht.is_quantized(inner.result.type)
        ):
            op.result.replace_all_uses_with(inner.operand)


@dataclass(frozen=True)
class LegalizeToTosa(RescaleRoundingPass):
    """Lower quantized StableHLO inference graphs (conv, dot, pooling, activations, elementwise) to TOSA."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        double = self.double_round
        converter = _Converter(double)
        for func in [f for f in op.walk() if isinstance(f, FuncOp)]:
            for inner in list(func.body.block.ops):  # not inside reduction bodies
                if inner.parent is not None:  # not erased with an earlier op it joined
                    converter.convert(inner)
        PatternRewriteWalker(
            located(LegalizeQuantizedElementwise(double)),
            apply_recursively=False,
        ).rewrite_module(op)
        for func in [f for f in op.walk() if isinstance(f, FuncOp)]:
            _elementwise_to_tosa(func)
            _drop_bitcast_pairs(func)
            region_dce(func.body)
