"""`stablehlo-legalize-quant-to-math`: lower every quantized type to integer/float StableHLO.

Afterwards no `!quant.uniform` type is left: a quantized tensor becomes its
storage integers (signless `iN` for signed storage, `uiN` for unsigned), function
signatures and calls included. What each op becomes (docs/quant-to-math.md):

* `uniform_quantize` from float, `uniform_dequantize`: the spec's formulas in
  the expressed type (`x / s + zp`, clamp, round-to-nearest-even, convert;
  `(convert(q) - zp) * s`), per-tensor, per-axis or sub-channel (one parameter
  per block, repeated over its block by broadcast_in_dim + reshape) - bit-identical
  to the spec. Sub-channel types are taken only by these, constants and data
  movement; any other op on one is an error.
* Integer paths, used only where they are bit-identical to the spec:
  max/min/clamp/select/compare on operands sharing one quantized type (storage
  order is real order), requantization and add/subtract/negate when the scales
  agree and storage is at most 16 bits (then the float rounding cannot reach
  0.5).
* `dot_general`, `dot`, `convolution`: exact integer accumulation of
  (q_x - zp_x)(q_w - zp_w) in i32 (i64 for wider storage) - every zero point
  corrected, per-axis weights, any layout, padding with the input zero point,
  groups, strides, dilations - then one requantization in f64 that rounds to
  nearest even and clamps to the storage range. A following bias `add` on the
  accumulator type is fused before that requantization.
* Every other quantized op falls back to dequantize -> float op -> quantize,
  the spec's own definition (the list is in the docs; option `fallback=error`
  makes any fallback an error instead).
* Data movement ops move storage integers.

What cannot be lowered - dynamic shapes, regions (reduce, reduce_window) or
custom calls over quantized values - is an error naming the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float64Type,
    FunctionType,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from qdialect import numerics
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import quant
from qdialect.dialects import stablehlo as sh
from qdialect.dialects.hlo_syntax import dense_i64
from qdialect.dialects.quant import UniformQuantizedType
from qdialect.ir.errors import OpError
from qdialect.ir.float_format import FLOAT_FORMATS, ml_dtype

PASS_NAME = "stablehlo-legalize-quant-to-math"

_DATA_MOVEMENT = (
    sh.ReshapeOp,
    sh.TransposeOp,
    sh.BroadcastInDimOp,
    sh.ConcatenateOp,
    sh.SliceOp,
    sh.DynamicSliceOp,
    sh.PadOp,
    sh.GatherOp,
    sh.OptimizationBarrierOp,
)
_SUB_CHANNEL_OPS = (
    sh.UniformQuantizeOp,
    sh.UniformDequantizeOp,
    quant.QuantizeCastOp,
    quant.DequantizeCastOp,
    quant.StorageCastOp,
    sh.ConstantOp,
    *_DATA_MOVEMENT,
)
"""Ops lowered for sub-channel (blockwise) types (their parameters matter only to
quantize/dequantize; the others move storage); any other op on one is an error."""
_SAME_TYPE_INTEGER = (sh.MaximumOp, sh.MinimumOp, sh.ClampOp, sh.SelectOp)
FLOAT_FALLBACK_OPS = sorted(
    op.name
    for op in sh.DEQUANTIZE_OP_QUANTIZE
    if op
    not in (
        *_SAME_TYPE_INTEGER,
        sh.CompareOp,
        sh.AddOp,
        sh.SubtractOp,
        sh.NegateOp,
        sh.DotGeneralOp,
        sh.DotOp,
        sh.ConvolutionOp,
    )
)
"""Ops lowered through float whatever their types (no integer form equals the spec)."""


def storage_element(q: UniformQuantizedType) -> Attribute:
    """`iN` (signless) for signed storage, `uiN` for unsigned: the type holding storage
    integers; a float storage type (`f8E4M3FN`, ...) holds its own values."""
    if q.float_storage_name is not None:
        return q.float_storage
    return IntegerType(q.storage_width, Signedness.SIGNLESS if q.is_signed else Signedness.UNSIGNED)


def storage_type(t: Attribute) -> Attribute:
    q = ht.quant_type(t)
    if q is None:
        return t
    assert isinstance(t, TensorType)
    return TensorType(storage_element(q), t.get_shape())


class _Lowering:
    """Lowers one function; `orig` remembers the quantized type of every retyped value."""

    def __init__(self, fallback: str):
        self.fallback = fallback
        self.orig: dict[SSAValue, Attribute] = {}
        self.at: InsertPoint | None = None
        self.op: Operation | None = None
        self.constants: dict[tuple, SSAValue] = {}
        self.entry = None

    # ---- helpers ------------------------------------------------------------

    def qtype(self, v: SSAValue) -> Attribute:
        return self.orig.get(v, v.type)

    def emit(self, op: Operation) -> SSAValue:
        assert self.at is not None
        Rewriter.insert_op(op, self.at)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def shape(self, t: Attribute) -> tuple[int, ...]:
        shape = ht.shape_of(t)
        if shape is None or any(d < 0 for d in shape):
            raise OpError(
                self.op,
                f"'{self.op.name}' has the non-static type {t}; {PASS_NAME} needs static shapes",
            )
        return shape

    def constant(
        self,
        values: Sequence[float] | np.ndarray,
        element: Attribute,
        shape: Sequence[int],
        axis: int | None,
    ) -> SSAValue:
        """tensor<shape x element> of one value, or of per-axis values broadcast along `axis`.

        Constants are made once per function, at its start (they depend on nothing),
        so a model with thousands of same-typed ops gets each scale constant once.
        """
        values = list(np.asarray(values).ravel())
        if axis is None or len(set(values)) == 1:
            values, axis = values[:1], None
        key = (tuple(values), element, tuple(shape), axis)
        if (cached := self.constants.get(key)) is not None:
            return cached
        dims = [] if axis is None else [axis]
        const_op = sh.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(
                TensorType(element, [len(values)] if dims else []), values
            )
        )
        Rewriter.insert_op(const_op, InsertPoint.at_start(self.entry))
        source = const_op.output
        if shape or dims:
            broadcast = sh.BroadcastInDimOp.create(
                operands=[source],
                result_types=[TensorType(element, shape)],
                properties={"broadcast_dimensions": dense_i64(dims)},
            )
            Rewriter.insert_op(broadcast, InsertPoint.after(const_op))
            source = broadcast.results[0]
        self.constants[key] = source
        return source

    def params(
        self,
        values: Sequence[float] | Sequence[int],
        element: Attribute,
        shape: Sequence[int],
        q: UniformQuantizedType,
    ) -> SSAValue:
        """q's scales or zero points (`values`) as a tensor of `shape`, any granularity."""
        if not q.is_sub_channel or len(set(values)) == 1:
            return self.constant(values, element, shape, q.axis)
        return self.block_constant(values, element, shape, q.scales_shape)

    def block_constant(
        self,
        values: Sequence[float] | Sequence[int],
        element: Attribute,
        shape: Sequence[int],
        blocks: Sequence[int],
    ) -> SSAValue:
        """Sub-channel parameters (one per block, laid out as `blocks`) repeated over
        their blocks: constant<blocks> -> broadcast_in_dim to <b0 x n0 x b1 x n1 ...>
        (n_d = shape_d / b_d, the block size) -> reshape to `shape`. Row-major order
        puts element i of dimension d in block i // n_d, as the type means."""
        op, entry = self.op, self.entry
        assert op is not None and entry is not None, "called while lowering an op"
        if len(blocks) != len(shape) or any(
            b == 0 or d % b for b, d in zip(blocks, shape, strict=True)
        ):
            raise OpError(
                op,
                f"'{op.name}': sub-channel parameters of shape {list(blocks)} do not "
                f"tile a tensor of shape {list(shape)}",
            )
        key = (tuple(values), element, tuple(shape), ("blocks", *blocks))
        if (cached := self.constants.get(key)) is not None:
            return cached
        block_type: Any = TensorType(element, list(blocks))  # int or float elements
        const_op = sh.ConstantOp(DenseIntOrFPElementsAttr.from_list(block_type, list(values)))
        interleaved = [n for b, d in zip(blocks, shape, strict=True) for n in (b, d // b)]
        broadcast = sh.BroadcastInDimOp.create(
            operands=[const_op.output],
            result_types=[TensorType(element, interleaved)],
            properties={"broadcast_dimensions": dense_i64(list(range(0, 2 * len(shape), 2)))},
        )
        reshape = sh.ReshapeOp.create(
            operands=[broadcast.results[0]], result_types=[TensorType(element, list(shape))]
        )
        Rewriter.insert_op([const_op, broadcast, reshape], InsertPoint.at_start(entry))
        self.constants[key] = reshape.results[0]
        return reshape.results[0]

    def convert(self, v: SSAValue, element: Attribute) -> SSAValue:
        if ht.element_type(v.type) == element:
            return v
        return self.emit(sh.ConvertOp(v, TensorType(element, self.shape(v.type))))

    def binary(self, cls, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(cls(a, b))

    def centered(
        self, v: SSAValue, q: UniformQuantizedType, t: Attribute, element: IntegerType
    ) -> SSAValue:
        """q - zero_point widened to `element` (per-axis zero points broadcast along q's axis)."""
        wide = self.convert(v, element)
        if not any(q.zero_points):
            return wide
        zps = self.constant(q.zero_points, element, self.shape(t), q.axis)
        return self.binary(sh.SubtractOp, wide, zps)

    # ---- the spec's formulas ---------------------------------------------------

    def dequantize(self, storage: SSAValue, q: UniformQuantizedType) -> SSAValue:
        """(convert(q) - zp) * scale, in the expressed type."""
        shape = self.shape(storage.type)
        e = q.expressed_type
        x = self.convert(storage, e)
        if any(q.zero_points):  # x - 0.0 == x exactly
            zps = self.params([float(z) for z in q.zero_points], e, shape, q)
            x = self.binary(sh.SubtractOp, x, zps)
        return self.binary(sh.MultiplyOp, x, self.params(q.scales, e, shape, q))

    def quantize(self, x: SSAValue, q: UniformQuantizedType) -> SSAValue:
        """convert(round_nearest_even(clamp(x / scale + zp))), in the expressed type."""
        shape = self.shape(x.type)
        e = q.expressed_type
        x = self.convert(x, e)
        y = self.binary(sh.DivideOp, x, self.params(q.scales, e, shape, q))
        # + 0.0 only turns -0.0 into +0.0: the same integer after rounding, but not the
        # same value of a float storage type.
        if any(q.zero_points) or q.float_storage_name is not None:
            zps = self.params([float(z) for z in q.zero_points], e, shape, q)
            y = self.binary(sh.AddOp, y, zps)
        y = self.emit(
            sh.ClampOp.create(
                operands=[
                    self.constant([float(q.storage_min)], e, shape, None),
                    y,
                    self.constant([float(q.storage_max)], e, shape, None),
                ],
                result_types=[y.type],
            )
        )
        if (name := q.float_storage_name) is not None:
            if not numerics.has_nan(ml_dtype(FLOAT_FORMATS[name])):
                y = self.nan_to_zero(y, q)
            return self.convert(y, q.float_storage)
        y = self.emit(sh.RoundNearestEvenOp(y))
        return self.convert(y, storage_element(q))

    def nan_to_zero(self, y: SSAValue, q: UniformQuantizedType) -> SSAValue:
        """NaN -> 0 (clamped into the storage range): what a storage format without NaN
        holds for one (`numerics.quantize_to_float`)."""
        shape = self.shape(y.type)
        nan = self.emit(sh.CompareOp(y, y, "NE", "FLOAT"))
        zero = float(min(max(0, q.storage_min), q.storage_max))
        zeros = self.constant([zero], q.expressed_type, shape, None)
        return self.emit(sh.SelectOp.create(operands=[nan, zeros, y], result_types=[y.type]))

    def clamp_int(self, v: SSAValue, q: UniformQuantizedType) -> SSAValue:
        shape = self.shape(v.type)
        e = ht.element_type(v.type)
        lo = self.constant([q.storage_min], e, shape, None)
        hi = self.constant([q.storage_max], e, shape, None)
        return self.emit(sh.ClampOp.create(operands=[lo, v, hi], result_types=[v.type]))

    # ---- per-op lowering -------------------------------------------------------

    def lower(self, op: Operation, operands: list[SSAValue]) -> list[SSAValue]:
        in_types = [self.qtype(o) for o in op.operands]
        out_types = [r.type for r in op.results]
        if not isinstance(op, _SUB_CHANNEL_OPS) and any(
            ht.is_sub_channel_quantized(t) for t in (*in_types, *out_types)
        ):
            raise OpError(
                op,
                f"'{op.name}' on a sub-channel quantized type is not supported by {PASS_NAME} "
                "(only quantize, dequantize, constants and data movement take sub-channel types)",
            )
        if isinstance(op, sh.UniformQuantizeOp | quant.QuantizeCastOp):
            return [self.lower_quantize(operands[0], in_types[0], out_types[0])]
        if isinstance(op, sh.UniformDequantizeOp | quant.DequantizeCastOp):
            q = ht.quant_type(in_types[0])
            return [self.dequantize(operands[0], q)]
        if isinstance(op, quant.StorageCastOp):
            return [operands[0]]  # storage integers are the storage integers
        if isinstance(op, sh.ConstantOp):
            return [self.lower_constant(op)]
        if isinstance(op, _DATA_MOVEMENT):
            new = type(op).create(
                operands=operands,
                result_types=[storage_type(t) for t in out_types],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            Rewriter.insert_op(new, self.at)
            return list(new.results)
        if isinstance(op, sh.DotGeneralOp | sh.DotOp | sh.ConvolutionOp):
            return [self.lower_contraction(op, operands, in_types, out_types[0], bias=None)]
        if type(op) in sh.DEQUANTIZE_OP_QUANTIZE:
            integer = self.integer_path(op, operands, in_types, out_types)
            if integer is not None:
                return integer
            return self.float_fallback(op, operands, in_types, out_types)
        if op.regions:
            raise OpError(
                op,
                f"'{op.name}' with quantized types cannot be lowered by {PASS_NAME} (it has a region; apply it to dequantized values instead)",
            )
        raise OpError(op, f"'{op.name}' with quantized types is not supported by {PASS_NAME}")

    def lower_quantize(self, x: SSAValue, in_type: Attribute, out_type: Attribute) -> SSAValue:
        q_out = ht.quant_type(out_type)
        q_in = ht.quant_type(in_type)
        assert q_out is not None, "verified: the result of a quantize op is quantized"
        if q_in is None:
            return self.quantize(x, q_out)
        # Requantize. Same scales, <= 16-bit storage: shifting the zero point is exact.
        if (
            q_in.scales == q_out.scales
            and q_in.axis == q_out.axis
            and not (q_in.is_sub_channel or q_out.is_sub_channel)
            and max(q_in.storage_width, q_out.storage_width) <= 16
        ):
            shape = self.shape(x.type)
            i32 = IntegerType(32)
            v = self.convert(x, i32)
            delta = [zo - zi for zi, zo in zip(q_in.zero_points, q_out.zero_points, strict=True)]
            if any(delta):
                v = self.binary(
                    sh.AddOp,
                    v,
                    self.constant(delta, i32, shape, q_out.axis if q_out.is_per_axis else None),
                )
            return self.convert(self.clamp_int(v, q_out), storage_element(q_out))
        if self.fallback == "error":
            raise OpError(
                self.op,
                f"'{self.op.name}' requantizes between different scales, which has no exact integer lowering in {PASS_NAME} (fallback=error)",
            )
        return self.quantize(self.dequantize(x, q_in), q_out)

    def lower_constant(self, op: sh.ConstantOp) -> SSAValue:
        t = op.output.type
        value = op.value
        assert isinstance(value, DenseIntOrFPElementsAttr)
        element = storage_element(ht.quant_type(t))
        assert isinstance(element, IntegerType), "stablehlo constants have integer storage"
        values = [int(v) for v in value.get_values()]
        if element.signedness.data == Signedness.UNSIGNED:
            values = [v & ((1 << element.width.data) - 1) for v in values]
        shape = self.shape(t)
        return self.emit(
            sh.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(element, shape), values))
        )

    def integer_path(
        self,
        op: Operation,
        operands: list[SSAValue],
        in_types: list[Attribute],
        out_types: list[Attribute],
    ) -> list[SSAValue] | None:
        quants = [ht.quant_type(t) for t in (*in_types, *out_types)]
        if isinstance(op, sh.SelectOp):
            quants = [ht.quant_type(t) for t in (*in_types[1:], *out_types)]
        same = (
            all(q is not None for q in quants)
            and len(
                {
                    (
                        q.scales,
                        q.zero_points,
                        q.axis,
                        q.storage_width,
                        q.is_signed,
                        q.storage_min,
                        q.storage_max,
                    )
                    for q in quants
                }
            )
            == 1
        )
        if isinstance(op, _SAME_TYPE_INTEGER) and same:
            new = type(op).create(
                operands=operands,
                result_types=[storage_type(out_types[0])],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            Rewriter.insert_op(new, self.at)
            return [new.results[0]]
        if isinstance(op, sh.CompareOp):
            qa, qb = (ht.quant_type(t) for t in in_types)
            if qa is not None and qb is not None and qa == qb:
                props = dict(op.properties)
                props.pop("compare_type", None)  # storage integers compare as integers
                new = sh.CompareOp.create(
                    operands=operands,
                    result_types=[out_types[0]],
                    properties=props,
                    attributes=dict(op.attributes),
                )
                Rewriter.insert_op(new, self.at)
                return [new.results[0]]
            return None
        if isinstance(op, sh.AddOp | sh.SubtractOp | sh.NegateOp):
            if (
                any(q is None or q.is_per_axis for q in quants)
                or len({q.scales for q in quants}) != 1
                or max(q.storage_width for q in quants) > 16
            ):
                return None
            shape = self.shape(out_types[0])
            i32 = IntegerType(32)
            centered = [
                self.binary(
                    sh.SubtractOp,
                    self.convert(v, i32),
                    self.constant([q.zero_point], i32, shape, None),
                )
                for v, q in zip(operands, quants, strict=False)
            ]
            if isinstance(op, sh.NegateOp):
                v = self.emit(sh.NegateOp(centered[0]))
            else:
                v = self.binary(type(op), centered[0], centered[1])
            q_out = quants[-1]
            v = self.binary(sh.AddOp, v, self.constant([q_out.zero_point], i32, shape, None))
            return [self.convert(self.clamp_int(v, q_out), storage_element(q_out))]
        return None

    def float_fallback(
        self,
        op: Operation,
        operands: list[SSAValue],
        in_types: list[Attribute],
        out_types: list[Attribute],
    ) -> list[SSAValue]:
        if self.fallback == "error":
            raise OpError(
                op, f"'{op.name}' has no exact integer lowering in {PASS_NAME} (fallback=error)"
            )
        floats = [
            self.dequantize(v, ht.quant_type(t)) if ht.is_quantized(t) else v
            for v, t in zip(operands, in_types, strict=True)
        ]
        result_types = [
            TensorType(ht.quant_type(t).expressed_type, self.shape(t)) if ht.is_quantized(t) else t
            for t in out_types
        ]
        new = type(op).create(
            operands=floats,
            result_types=result_types,
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        Rewriter.insert_op(new, self.at)
        return [
            self.quantize(r, ht.quant_type(t)) if ht.is_quantized(t) else r
            for r, t in zip(new.results, out_types, strict=True)
        ]

    def lower_contraction(
        self,
        op: Operation,
        operands: list[SSAValue],
        in_types: list[Attribute],
        out_type: Attribute,
        bias: SSAValue | None,
    ) -> SSAValue:
        qx, qw = (ht.quant_type(t) for t in in_types)
        q_out = ht.quant_type(out_type)
        if qx is None or qw is None or q_out is None:
            # hybrid (float lhs): the spec's definition, in float
            return self.float_fallback(op, operands, in_types, [out_type])[0]
        wide = max(qx.storage_width, qw.storage_width) > 8
        acc_element = IntegerType(64 if wide else 32)
        x, w = (
            self.centered(v, q, t, acc_element)
            for v, q, t in zip(operands, (qx, qw), in_types, strict=True)
        )
        out_shape = self.shape(out_type)
        acc = type(op).create(
            operands=[x, w],
            result_types=[TensorType(acc_element, out_shape)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        Rewriter.insert_op(acc, self.at)
        acc_value = acc.results[0]
        # The result channel each weight scale lands on.
        if isinstance(op, sh.ConvolutionOp):
            out_axis = op.dimension_numbers.data.output_feature_dimension
        elif isinstance(op, sh.DotGeneralOp):
            d = op.dot_dimension_numbers.data
            rhs_rank = len(self.shape(in_types[1]))
            free = [
                i
                for i in range(rhs_rank)
                if i not in d.rhs_batching_dimensions and i not in d.rhs_contracting_dimensions
            ]
            if not qw.is_per_axis:
                out_axis = None
            elif qw.axis in d.rhs_batching_dimensions:  # result batch dimensions come first
                out_axis = list(d.rhs_batching_dimensions).index(qw.axis)
            else:
                out_axis = len(out_shape) - len(free) + free.index(qw.axis)
        else:
            out_axis = len(out_shape) - 1 if qw.is_per_axis else None
        if bias is not None:
            # The bias has the accumulator's quantized type: its storage adds exactly.
            acc_value = self.binary(sh.AddOp, acc_value, self.convert(bias, acc_element))
        return self.requantize_accumulator(acc_value, qx, qw, q_out, out_axis)

    def requantize_accumulator(
        self,
        acc: SSAValue,
        qx: UniformQuantizedType,
        qw: UniformQuantizedType,
        q_out: UniformQuantizedType,
        out_axis: int | None,
    ) -> SSAValue:
        """round_nearest_even(acc * (s_x s_w / s_out) + zp_out), clamped - one rounding, in f64."""
        shape = self.shape(acc.type)
        f64 = Float64Type()
        n = max(len(qw.scales), len(q_out.scales))
        w_scales = list(qw.scales) * (n if len(qw.scales) == 1 else 1)
        o_scales = list(q_out.scales) * (n if len(q_out.scales) == 1 else 1)
        ratios = [qx.scale * sw / so for sw, so in zip(w_scales, o_scales, strict=True)]
        zps = list(q_out.zero_points) * (n if len(q_out.zero_points) == 1 else 1)
        axis = out_axis if n > 1 else None
        if all(r == 1.0 for r in ratios) and not any(zps):
            return self.convert(self.clamp_int(acc, q_out), storage_element(q_out))
        y = self.binary(
            sh.MultiplyOp, self.convert(acc, f64), self.constant(ratios, f64, shape, axis)
        )
        y = self.binary(sh.AddOp, y, self.constant([float(z) for z in zps], f64, shape, axis))
        y = self.emit(sh.RoundNearestEvenOp(y))
        y = self.emit(
            sh.ClampOp.create(
                operands=[
                    self.constant([float(q_out.storage_min)], f64, shape, None),
                    y,
                    self.constant([float(q_out.storage_max)], f64, shape, None),
                ],
                result_types=[y.type],
            )
        )
        return self.convert(y, storage_element(q_out))

    # ---- driver -------------------------------------------------------------------

    def touches_quantized(self, op: Operation) -> bool:
        return any(ht.is_quantized(self.qtype(o)) for o in op.operands) or any(
            ht.is_quantized(r.type) for r in op.results
        )

    def fused_epilogue(self, op: Operation) -> tuple[Operation | None, Operation] | None:
        """dot/conv -> [add(acc, bias)] -> uniform_quantize: one requantization of the exact accumulator."""
        if not isinstance(op, sh.DotGeneralOp | sh.DotOp | sh.ConvolutionOp) or not ht.is_quantized(
            op.results[0].type
        ):
            return None
        if not all(ht.is_quantized(self.qtype(o)) for o in op.operands):
            return None
        uses = list(op.results[0].uses)
        if len(uses) != 1:
            return None
        add = None
        user = uses[0].operation
        if isinstance(user, sh.AddOp):
            if (
                user.result.type != op.results[0].type
                or self.qtype(user.rhs) != op.results[0].type
                or user.lhs is not op.results[0]
            ):
                return None
            add = user
            add_uses = list(user.result.uses)
            if len(add_uses) != 1:
                return None
            user = add_uses[0].operation
        if not isinstance(user, sh.UniformQuantizeOp):
            return None
        return add, user

    def run(self, func: FuncOp) -> None:
        if not func.body.blocks:
            return
        entry = func.body.blocks.first
        self.entry = entry
        for arg in list(entry.args):
            if ht.is_quantized(arg.type):
                old = arg.type
                new = Rewriter.replace_value_with_new_type(arg, storage_type(old))
                self.orig[new] = old
        skip: set[Operation] = set()
        for op in list(func.body.walk()):
            if op in skip or op is func:
                continue
            self.op = op
            if isinstance(op, ReturnOp):
                continue
            if isinstance(op, CallOp):
                self.retype_call(op)
                continue
            if not self.touches_quantized(op):
                continue
            if any(
                ht.is_quantized(a.type)
                for region in op.regions
                for block in region.blocks
                for a in block.args
            ):
                raise OpError(
                    op,
                    f"'{op.name}' with quantized types cannot be lowered by {PASS_NAME} (it has a region; apply it to dequantized values instead)",
                )
            if isinstance(op.parent_op(), sh.ReduceOp | sh.ReduceWindowOp):
                raise OpError(
                    op.parent_op(),
                    f"'{op.parent_op().name}' with quantized types cannot be lowered by {PASS_NAME} (it has a region; apply it to dequantized values instead)",
                )
            self.at = InsertPoint.before(op)
            fused = self.fused_epilogue(op)
            if fused is not None:
                add, requant = fused
                self.at = InsertPoint.before(add or requant)  # a bias may be defined after op
                in_types = [self.qtype(o) for o in op.operands]
                bias = add.rhs if add is not None else None
                value = self.lower_contraction(
                    op, list(op.operands), in_types, requant.result.type, bias=bias
                )
                self.replace(requant, [value])
                for dead in (add, op):
                    if dead is not None:
                        Rewriter.erase_op(dead)
                skip.update({add, requant})
                continue
            values = self.lower(op, list(op.operands))
            self.replace(op, values)
        self.retype_signature(func)

    def replace(self, op: Operation, values: Sequence[SSAValue]) -> None:
        for old, new in zip(op.results, values, strict=True):
            if ht.is_quantized(old.type):
                self.orig[new] = old.type
            old.replace_all_uses_with(new)
        Rewriter.erase_op(op)

    def retype_call(self, op: CallOp) -> None:
        if not any(ht.is_quantized(r.type) for r in op.results):
            return
        new = CallOp(op.callee, list(op.arguments), [storage_type(r.type) for r in op.results])
        Rewriter.insert_op(new, InsertPoint.before(op))
        self.replace(op, list(new.results))

    def retype_signature(self, func: FuncOp) -> None:
        inputs = [a.type for a in func.body.blocks.first.args]
        outputs = [storage_type(t) for t in func.function_type.outputs.data]
        func.function_type = FunctionType.from_lists(inputs, outputs)


@dataclass(frozen=True)
class LegalizeQuantToMath(ModulePass):
    """Lower quantized types and ops to integer (and, where needed, float) StableHLO."""

    name = PASS_NAME

    fallback: str = "allow"
    """`allow`: ops with no exact integer form go through float; `error`: reject them."""

    def __post_init__(self) -> None:
        if self.fallback not in ("allow", "error"):
            raise ValueError(f"fallback must be 'allow' or 'error', not '{self.fallback}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, FuncOp)]:
            _Lowering(self.fallback).run(func)
