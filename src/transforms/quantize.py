"""`stablehlo-quantize`: a calibrated float program as a QDQ program — the float ops
between `uniform_quantize` -> `uniform_dequantize` pairs whose types come from the
calibration file — that `stablehlo-legalize-qdq-to-quantized-op` turns into the
integer program the rest of the toolchain compiles. Before that, the QDQ program is
the *simulated quantization* of the model: the interpreter runs it in float.

What is quantized (docs/quantization.md has the rules and the reasons):

* a convolution or dot_general by constant weights (a *layer*), with the per-channel
  bias add after it if it is the layer's only use: the weights become an i8 constant
  (symmetric, narrow range, per output channel or per tensor), the bias an i32 constant
  at scale s_x * s_w[c] added to the i32 accumulator; the layer's output is then
  requantized once to its tensor's activation type:

      q(x) -> dq -> conv(., dq(w_i8)) -> q(i32 at s_x*s_w) -> dq -> add(., dq(bcast(b_i32)))
           -> q(i32 at s_x*s_w) -> q(i8 activation type) -> dq

* the elementwise ops the integer program has (add, subtract, multiply, maximum,
  minimum, clamp, negate, tanh, logistic), when something that can read a quantized
  value reads their result: operands and result quantized; a constant
  operand gets its own per-tensor parameters, except the bounds of a ReLU-like op
  (maximum, minimum, clamp by constants), which share their input's type when that
  input has no other reader — the producer then requantizes straight to the ReLU's
  range — its input's calibrated range cut to the ReLU's bounds — as TFLite fuses
  activations;
* sums and means (`reduce` / `reduce_window` add, optionally divided by a constant)
  and max pooling: input and output quantized, the reduction itself left in float
  between them (an exact integer sum to `stablehlo-legalize-to-tosa`); average and max
  pooling keep their input's type;
* data movement (reshape, transpose, slice, pad, concatenate, broadcast_in_dim) and
  max pooling share one type between their operands and result, so they stay integer
  copies; the shared range is the union of the members' ranges (no member clipped,
  but for a ReLU's input, which only the ReLU reads).

Everything else stays float; a float op reading a quantized value reads its
dequantization. Activation parameters come from each tensor's calibrated range by
`method` (`observers.TensorStats.range`) under `scheme` and `formula`
(`params.from_range`). The calibration file must belong to this program
(`Calibration.check_against`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    IntegerType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import ConstantLike

from qdialect.calibration.calibrate import Calibration, CalibrationError, function_batches
from qdialect.calibration.observers import METHODS, TensorStats
from qdialect.calibration.params import (
    FORMULAS,
    SCHEMES,
    QuantParams,
    from_range,
    per_channel,
    quantize_bias,
)
from qdialect.calibration.qtable import QTable
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.dialects.quant import UniformQuantizedType
from qdialect.ir.constants import constant_array, erase_if_unused, integer_attr
from qdialect.ir.errors import OpError
from qdialect.transforms.fold_batch_norm import layer_features, per_channel_constant

PASS_NAME = "stablehlo-quantize"

_ELEMENTWISE = (sh.AddOp, sh.SubtractOp, sh.MultiplyOp, sh.MaximumOp, sh.MinimumOp,
                sh.ClampOp, sh.NegateOp, sh.TanhOp, sh.LogisticOp)  # fmt: skip
_RELU_LIKE = (sh.MaximumOp, sh.MinimumOp, sh.ClampOp)
_MOVES = (sh.ReshapeOp, sh.TransposeOp, sh.SliceOp, sh.PadOp, sh.ConcatenateOp,
          sh.BroadcastInDimOp)  # fmt: skip
# Ops that read a quantized value as such (the others read its dequantization).
_READS_QUANTIZED = (*_ELEMENTWISE, *_MOVES, sh.ConvolutionOp, sh.DotGeneralOp, sh.ReduceOp,
                    sh.ReduceWindowOp, sh.DivideOp, ReturnOp)  # fmt: skip
I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


def is_constant(v: SSAValue) -> bool:
    """A compile-time constant: a constant op, or a broadcast of one."""
    owner = v.owner
    if isinstance(owner, sh.BroadcastInDimOp):
        return is_constant(owner.operand)
    return isinstance(owner, Operation) and owner.has_trait(ConstantLike)


def unbroadcast(v: SSAValue) -> SSAValue:
    """The operand of the broadcast defining `v`, or `v` itself."""
    return v.owner.operand if isinstance(v.owner, sh.BroadcastInDimOp) else v


def _is_float(v: SSAValue) -> bool:
    return isinstance(ht.element_type(v.type), Float32Type)


def _is_activation(v: SSAValue) -> bool:
    return _is_float(v) and not is_constant(v)


def _body_op(op: Operation) -> type | None:
    body = list(op.regions[0].block.ops)
    return type(body[0]) if len(body) == 2 else None


def _single_user(v: SSAValue) -> Operation | None:
    uses = list(v.uses)
    return uses[0].operation if len(uses) == 1 else None


@dataclass
class _Classes:
    """Union-find over values that must share one quantized type."""

    parent: dict[SSAValue, SSAValue] = field(default_factory=dict)

    def find(self, v: SSAValue) -> SSAValue:
        self.parent.setdefault(v, v)
        while self.parent[v] is not v:
            self.parent[v] = self.parent[self.parent[v]]
            v = self.parent[v]
        return v

    def union(self, a: SSAValue, b: SSAValue) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra is not rb:
            self.parent[rb] = ra

    def members(self) -> Iterator[tuple[SSAValue, list[SSAValue]]]:
        groups: dict[SSAValue, list[SSAValue]] = {}
        for v in list(self.parent):
            groups.setdefault(self.find(v), []).append(v)
        yield from groups.items()


@dataclass
class Layer:
    """A convolution or dot_general by constant weights and the bias add it owns."""

    op: Operation
    bias: sh.AddOp | None
    bias_operand: SSAValue | None  # the add's constant operand
    feature: int  # output feature dimension of the result
    weight_feature: int  # ... of the weights

    @property
    def output(self) -> SSAValue:
        return (self.bias or self.op).results[0]


@dataclass
class Plan:
    """What the pass will quantize in one function (pure analysis, no IR changed)."""

    points: list[SSAValue] = field(default_factory=list)  # activations given q/dq pairs
    classes: _Classes = field(default_factory=_Classes)
    layers: list[Layer] = field(default_factory=list)
    quantized: list[Operation] = field(default_factory=list)  # ops whose constants quantize
    shared: set[Operation] = field(default_factory=set)  # ... in their output's type
    wide: set[SSAValue] = field(default_factory=set)  # values whose type must be 16-bit
    units: list[Operation] = field(default_factory=list)  # every op quantized, in order
    # A fused ReLU's result -> (its input, its bounds): the type they share takes the
    # input's calibrated range (by the method) cut to the bounds.
    relu_of: dict[SSAValue, tuple[SSAValue, tuple[float, float]]] = field(default_factory=dict)


def plan(func: FuncOp, precision: dict[Operation, str] | None = None) -> Plan:
    """Find the layers, the quantized ops and the values that become quantization points;
    `precision` (a resolved `QTable`) keeps ops in float or widens them to 16 bits."""
    p = Plan()
    points: set[SSAValue] = set()
    absorbed: set[Operation] = set()
    precision = precision or {}

    def widen(op: Operation, *values: SSAValue) -> None:
        p.units.append(op)
        if precision.get(op) == "i16":
            p.wide.update(v for v in values if _is_activation(v))

    def point(*values: SSAValue) -> None:
        for v in values:
            if _is_activation(v):
                points.add(v)
                p.classes.find(v)

    for op in func.body.block.ops:
        if op in absorbed or not op.results or not all(_is_float(r) for r in op.results):
            continue
        features = layer_features(op)
        if features is None and precision.get(op) == "float":
            continue
        if features is not None and _is_activation(op.operands[0]):
            f, kf = features
            n = (ht.shape_of(op.results[0].type) or [0])[f]
            user = _single_user(op.results[0])
            bias = other = None
            if isinstance(user, sh.AddOp) and user.results[0].type == op.results[0].type:
                other = user.rhs if user.lhs is op.results[0] else user.lhs
                if per_channel_constant(other, f, n) is not None:
                    bias = user
                    absorbed.add(user)
            if "float" in (precision.get(op), bias and precision.get(bias)):
                continue  # the layer (and its bias add, absorbed) stays float
            layer = Layer(op, bias, other if bias else None, f, kf)
            p.layers.append(layer)
            point(op.operands[0], layer.output)
            widen(op, op.operands[0], layer.output)
            if bias is not None and precision.get(bias) == "i16":  # named by the layer's output
                p.wide.update((op.operands[0], layer.output))
        elif isinstance(op, sh.ReduceOp | sh.ReduceWindowOp) and len(op.results) == 1:
            body, x, init = _body_op(op), op.operands[0], op.operands[1]
            if not _is_activation(x) or not is_constant(init):
                continue
            if body is sh.AddOp:
                out = op.results[0]
                user = _single_user(out)
                if isinstance(user, sh.DivideOp) and user.lhs is out and is_constant(user.rhs):
                    if precision.get(user) == "float":  # the mean named by its result
                        continue
                    absorbed.add(user)
                    out = user.results[0]
                    if precision.get(user) == "i16":
                        p.wide.update((x, out))
                point(x, out)
                widen(op, x, out)
                if isinstance(op, sh.ReduceWindowOp) and out is not op.results[0]:
                    # Average pooling keeps its input's type (TFLite's rule): a mean
                    # lies within its window's range, and TOSA's avg_pool2d rounds the
                    # mean in input units, so a finer output scale would magnify that.
                    p.classes.union(x, out)
            elif body is sh.MaximumOp and isinstance(op, sh.ReduceWindowOp):
                point(x, op.results[0])
                p.classes.union(x, op.results[0])
                widen(op, x, op.results[0])
        elif isinstance(op, _ELEMENTWISE + _MOVES):
            data = [v for v in op.operands if _is_activation(v)]
            if not data or not all(_is_activation(v) or is_constant(v) for v in op.operands):
                continue
            if isinstance(op, _ELEMENTWISE) and not any(
                isinstance(u.operation, _READS_QUANTIZED) for u in op.results[0].uses
            ):
                continue  # only float ops read it (softmax's x - max(x) before exp): stays float
            point(*data, op.results[0])
            widen(op, *data, op.results[0])
            if isinstance(op, _MOVES):
                for v in data:
                    p.classes.union(v, op.results[0])
            else:
                p.quantized.append(op)
            if (
                isinstance(op, _RELU_LIKE)
                and len(data) == 1
                and _single_user(data[0]) is op
                and (not isinstance(op, sh.ClampOp) or op.operands[1] is data[0])
            ):
                p.classes.union(data[0], op.results[0])
                p.shared.add(op)
                p.relu_of[op.results[0]] = (data[0], _bounds(op))
            if isinstance(op, sh.PadOp):
                p.quantized.append(op)
                p.shared.add(op)
    order: dict[SSAValue, int] = {a: k for k, a in enumerate(func.body.block.args)}
    n_args = len(order)
    for i, op in enumerate(func.body.block.ops):
        for r in op.results:
            order[r] = n_args + i
    p.points = sorted(points, key=lambda v: order[v])
    return p


@dataclass(frozen=True)
class Options:
    """How ranges become parameters (the pass's options, checked)."""

    method: str = "minmax"
    percentile: float = 99.999
    scheme: str = "symmetric"
    formula: str = "google"
    per_channel: bool = True
    activation_bits: int = 8
    weight_bits: int = 8

    def range_of(self, stats: TensorStats, bits: int, *, cut: bool = False) -> tuple[float, float]:
        """The calibrated range of one tensor by this method and scheme, for `bits`;
        `cut`: of a ReLU's input, whose two sides are kept apart until the ReLU's bounds
        cut them (a symmetric range of the input would let its negative side, which the
        ReLU discards, set the scale)."""
        symmetric = self.scheme == "symmetric" and not cut
        return stats.range(self.method, symmetric=symmetric, percentile=self.percentile,
                           bits=bits)  # fmt: skip

    def __post_init__(self) -> None:
        def bad(msg: str) -> None:
            raise ValueError(f"{PASS_NAME}: {msg}")

        if self.method not in METHODS:
            bad(f"unknown method '{self.method}' (one of {', '.join(METHODS)})")
        if self.scheme not in SCHEMES:
            bad(f"unknown scheme '{self.scheme}' (symmetric or affine)")
        if self.formula not in FORMULAS:
            bad(f"unknown formula '{self.formula}' (google or cambricon)")
        if self.formula == "cambricon" and self.scheme != "symmetric":
            bad("the cambricon formula is symmetric only (a power-of-two scale)")
        if self.activation_bits not in (8, 16):
            bad(f"activation-bits={self.activation_bits}: 8 or 16")
        if not 2 <= self.weight_bits <= 8:
            bad(f"weight-bits={self.weight_bits}: 2 to 8 (stored in i8)")
        if not 50.0 < self.percentile <= 100.0:
            bad(f"percentile={self.percentile}: in (50, 100]")


def quant_type(params: QuantParams, storage_width: int) -> UniformQuantizedType:
    """The `!quant.uniform` type of `params` on `storage_width`-bit signed storage (the
    storage range written only when narrower than the storage's own)."""
    full = (-(1 << (storage_width - 1)), (1 << (storage_width - 1)) - 1)
    narrower = (params.qmin, params.qmax) != full
    lo, hi = (params.qmin, params.qmax) if narrower else (None, None)
    if params.axis is None:
        return UniformQuantizedType.get(
            storage_width, Float32Type(), float(params.scale[0]), int(params.zero_point[0]),
            storage_min=lo, storage_max=hi,
        )  # fmt: skip
    return UniformQuantizedType.get_per_axis(
        storage_width, Float32Type(), [float(s) for s in params.scale],
        [int(z) for z in params.zero_point], params.axis, storage_min=lo, storage_max=hi,
    )  # fmt: skip


def _tensor(q: Attribute, shape) -> TensorType:
    return TensorType(q, list(shape))


class _Emitter:
    """Rewrites one function by its plan."""

    def __init__(self, func: FuncOp, p: Plan, cal: Calibration, options: Options):
        self.func, self.plan, self.options = func, p, options
        self.block: Block = func.body.block
        keys = cal.check_against(func)
        self.types: dict[SSAValue, UniformQuantizedType] = {}
        for root, members in p.classes.members():
            bits = 16 if p.wide.intersection(members) else options.activation_bits
            inputs = {x for x, _ in (p.relu_of.get(v, (None, None)) for v in members)}
            ranges = []
            for v in members:
                x, (lo, hi) = p.relu_of.get(v, (v, (-np.inf, np.inf)))
                stats = cal.stats.get(keys.get(x, ""))
                if v in inputs or stats is None or not stats.count:
                    continue  # a ReLU's input: its range counts cut, through the ReLU
                r_lo, r_hi = options.range_of(stats, bits, cut=x is not v)
                ranges.append((max(r_lo, lo), min(r_hi, hi)))
            if not ranges:
                raise CalibrationError(
                    f"{PASS_NAME}: no calibrated range for {_describe(root)} "
                    "(calibrate the program this pass runs on)"
                )
            lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
            params = from_range(lo, hi, bits=bits, scheme=options.scheme, formula=options.formula)
            t = quant_type(params, bits)
            for v in members:
                self.types[v] = t

    def run(self) -> None:
        requantize_from: dict[SSAValue, SSAValue] = {}
        for layer in self.plan.layers:
            out = self.layer(layer)
            if out is not None:
                requantize_from[out.owner.operand] = out  # type: ignore[union-attr]
        for op in self.plan.quantized:
            self.constants(op)
        for v in self.plan.points:
            self.point(v, requantize_from.get(v))

    # ---- building ---------------------------------------------------------------------

    def insert_before(self, anchor: Operation, *ops: Operation) -> None:
        for o in ops:
            o.location = anchor.location
            self.block.insert_op_before(o, anchor)

    def point(self, v: SSAValue, source: SSAValue | None) -> None:
        """q/dq after `v` (from `source`, a quantized value of the same numbers, when the
        layer computed one), every other reader of `v` reading the dequantization."""
        t = _tensor(self.types[v], ht.shape_of(v.type))
        q = sh.UniformQuantizeOp(source if source is not None else v, t)
        dq = sh.UniformDequantizeOp(q.result)
        owner = source.owner if source is not None else v.owner
        if isinstance(owner, Operation):
            q.location = dq.location = owner.location
            self.block.insert_ops_after([q, dq], owner)
        else:
            first = self.block.first_op
            assert first is not None
            self.block.insert_op_before(q, first)
            self.block.insert_op_after(dq, q)
        keep = (q, source.owner if source is not None else None)
        for use in list(v.uses):
            if use.operation not in keep:
                use.operation.operands[use.index] = dq.result

    def quantized_constant(self, c: SSAValue, params: QuantParams, width: int,
                           anchor: Operation) -> SSAValue:  # fmt: skip
        """dq(constant of `c`'s values quantized by `params`), inserted before `anchor`."""
        values = constant_array(unbroadcast(c), integer=False)
        assert values is not None
        ops, value = quantized_constant(c, params.quantize(values), params, width)
        self.insert_before(anchor, *ops)
        return value

    def constants(self, op: Operation) -> None:
        """Quantize `op`'s constant operands: in its output's type when it shares it
        (ReLU bounds, a pad value), else by their own extremes, per tensor."""
        for i, c in enumerate(op.operands):
            if not is_constant(c) or not _is_float(c):
                continue
            out = self.types[op.results[0]]
            bits = out.storage_width
            if op in self.plan.shared:
                params = QuantParams(np.array([out.scales[0]]), np.array([out.zero_points[0]]),
                                     bits, out.storage_min, out.storage_max)  # fmt: skip
            else:
                values = constant_array(unbroadcast(c), integer=False)
                assert values is not None
                params = from_range(values.min(), values.max(), bits=bits,
                                    scheme=self.options.scheme, formula=self.options.formula)  # fmt: skip
            op.operands[i] = self.quantized_constant(c, params, bits, op)
            erase_constant(c)

    def layer(self, layer: Layer) -> SSAValue | None:
        """Quantize a layer's weights (and bias); the i32 value its output requantizes from
        when it has a bias, else None (the output point quantizes the float result)."""
        op, o = layer.op, self.options
        w_value = op.operands[1]
        w = constant_array(w_value, integer=False)
        assert w is not None
        if o.per_channel:
            w_params = per_channel(w, layer.weight_feature, bits=o.weight_bits,
                                   formula=o.formula, narrow=True)  # fmt: skip
        else:
            w_params = from_range(w.min(), w.max(), bits=o.weight_bits, formula=o.formula,
                                  narrow=True)  # fmt: skip
        # StableHLO's quantized convolution and dot take one storage type for both
        # operands: beside 16-bit activations, 8-bit weights are stored in i16.
        storage = self.types[op.operands[0]].storage_width
        op.operands[1] = self.quantized_constant(w_value, w_params, storage, op)
        erase_constant(w_value)
        if layer.bias is None:
            return None
        s_x = self.types[op.operands[0]].scales[0]
        acc_scale = s_x * w_params.scale  # exact: a product of two float32 values in float64
        n = (ht.shape_of(op.results[0].type) or [0])[layer.feature]
        axis = layer.feature if o.per_channel else None
        acc = QuantParams(acc_scale, np.zeros(len(acc_scale), np.int64), 32, I32_MIN, I32_MAX,
                          axis)  # fmt: skip
        acc_t = _tensor(quant_type(acc, 32), ht.shape_of(op.results[0].type))
        add, b_value = layer.bias, layer.bias_operand
        assert b_value is not None
        b = per_channel_constant(b_value, layer.feature, n)
        assert b is not None
        b_q = quantize_bias(b, np.broadcast_to(acc_scale, (n,)))
        vector = QuantParams(acc_scale, acc.zero_point, 32, I32_MIN, I32_MAX,
                             0 if o.per_channel else None)  # fmt: skip
        const = sh.ConstantOp(integer_attr(b_q.astype(np.int64), IntegerType(32)),
                              _tensor(quant_type(vector, 32), [n]))  # fmt: skip
        bcast = sh.BroadcastInDimOp.create(
            operands=[const.output],
            result_types=[acc_t],
            properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, [layer.feature])},
        )
        acc_q = sh.UniformQuantizeOp(op.results[0], acc_t)
        acc_dq = sh.UniformDequantizeOp(acc_q.result)
        b_dq = sh.UniformDequantizeOp(bcast.results[0])
        total = sh.AddOp.create(operands=[acc_dq.result, b_dq.result],
                                result_types=[op.results[0].type])  # fmt: skip
        total_q = sh.UniformQuantizeOp(total.results[0], acc_t)
        self.insert_before(add, acc_q, acc_dq, const, bcast, b_dq, total, total_q)
        add.results[0].replace_all_uses_with(total.results[0])
        self.block.erase_op(add)
        erase_constant(b_value)
        # The output point is now `total`; it requantizes from the i32 sum.
        self.types[total.results[0]] = self.types.pop(layer.output)
        self.plan.points[self.plan.points.index(layer.output)] = total.results[0]
        return total_q.result


def quantized_constant(c: SSAValue, storage: np.ndarray, params: QuantParams,
                       width: int) -> tuple[list[Operation], SSAValue]:  # fmt: skip
    """The ops of dq(a constant of `storage` values in `params`' type), standing for the
    constant (or broadcast of one) `c`: a broadcast is kept a broadcast, of the quantized
    operand, its per-axis dimension moved with it. Returns the ops and the dequantized
    value."""
    owner = c.owner
    q = quant_type(params, width)
    const = sh.ConstantOp(integer_attr(storage, IntegerType(width)), _tensor(q, storage.shape))
    ops: list[Operation] = [const]
    value = const.output
    if isinstance(owner, sh.BroadcastInDimOp):
        dims = list(dense_values(owner.broadcast_dimensions))
        if params.axis is not None:
            q = quant_type(QuantParams(params.scale, params.zero_point, params.bits,
                                       params.qmin, params.qmax, dims[params.axis]), width)  # fmt: skip
        b = sh.BroadcastInDimOp.create(
            operands=[value],
            result_types=[_tensor(q, ht.shape_of(c.type))],
            properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, dims)},
        )
        ops.append(b)
        value = b.results[0]
    dq = sh.UniformDequantizeOp(value)
    ops.append(dq)
    return ops, dq.result


def erase_constant(c: SSAValue) -> None:
    owner = c.owner
    if isinstance(owner, sh.BroadcastInDimOp) and not c.uses:
        inner = owner.operand
        owner.parent_block().erase_op(owner)  # type: ignore[union-attr]
        erase_if_unused(inner)
    else:
        erase_if_unused(c)


def _bounds(op: Operation) -> tuple[float, float]:
    """The interval a ReLU-like op (maximum, minimum or clamp by splat constants) clips
    to; unbounded on a side whose constant varies per element."""

    def splat(v: SSAValue, default: float) -> float:
        a = constant_array(unbroadcast(v), integer=False)
        return (
            float(a.reshape(-1)[0])
            if a is not None and a.size and np.all(a == a.flat[0])
            else default
        )

    if isinstance(op, sh.ClampOp):
        return splat(op.operands[0], -np.inf), splat(op.operands[2], np.inf)
    bound = next(v for v in op.operands if is_constant(v))
    if isinstance(op, sh.MaximumOp):
        return splat(bound, -np.inf), np.inf
    return -np.inf, splat(bound, np.inf)


def _describe(v: SSAValue) -> str:
    owner = v.owner
    if isinstance(owner, Operation):
        return f"the result of '{owner.name}'"
    return "a function argument"


@dataclass(frozen=True)
class Quantize(ModulePass):
    """Quantize a calibrated float program into QDQ form (activations by calibrated
    ranges, weights per channel, biases in i32); `bias-correction=DATA.npz` then removes
    each layer's mean weight-quantization error, measured on that data."""

    name = PASS_NAME

    calibration: str = ""
    method: str = "minmax"
    percentile: float = 99.999
    scheme: str = "symmetric"
    formula: str = "google"
    weights: str = "per-channel"
    activation_bits: int = 8
    weight_bits: int = 8
    qtable: str = ""
    bias_correction: str = ""
    function: str = "main"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = [f for f in op.walk() if isinstance(f, FuncOp) and f.sym_name.data == self.function]
        try:
            if not self.calibration:
                raise ValueError("needs calibration=FILE (a qcalib output)")
            if self.weights not in ("per-channel", "per-tensor"):
                raise ValueError(f"weights={self.weights}: per-channel or per-tensor")
            options = Options(self.method, self.percentile, self.scheme, self.formula,
                              self.weights == "per-channel", self.activation_bits,
                              self.weight_bits)  # fmt: skip
            if not funcs or not funcs[0].body.blocks:
                raise ValueError(f"no function @{self.function} to quantize")
            table = QTable.load(Path(self.qtable)) if self.qtable else None
            float_program = op.clone() if self.bias_correction else None
            quantize_function(funcs[0], Calibration.load(Path(self.calibration)), options, table)
            if float_program is not None:
                from qdialect.calibration.bias_correction import correct_biases

                _, batches = function_batches(funcs[0], Path(self.bias_correction))
                correct_biases(float_program, op, list(batches), self.function)
        except ValueError as err:  # bad options or calibration file (CalibrationError)
            message = str(err)
            prefix = "" if message.startswith(PASS_NAME) else f"{PASS_NAME}: "
            raise OpError(op, prefix + message) from None


def quantize_function(func: FuncOp, cal: Calibration, options: Options,
                      qtable: QTable | None = None) -> None:  # fmt: skip
    """Rewrite `func` (calibrated as `cal`) into its QDQ form, per-op precisions from
    `qtable`."""
    emitter = _Emitter(func, plan(func, qtable.resolve(func) if qtable else None), cal, options)
    emitter.run()
