"""Import int8 TFLite models as TOSA programs that compute TFLite's integers exactly.

The flatbuffer is read with the small `tflite` schema package (`tflite_schema`; the
`tflite` extra). Each operator becomes the
TOSA ops that reproduce TFLite's reference kernel bit for bit:

* CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED: the integer convolution or
  matmul with the input zero point as an operand and the int32 bias, then a
  `tosa.rescale` (DOUBLE_ROUND) by the multiplier and shift TFLite derives
  from `double(s_in) * double(s_w[c]) / double(s_out)` (QuantizeMultiplier),
  then a `tosa.clamp` to the fused activation's range computed as TFLite does;
* ADD, SUB: each input centred and shifted left by 20 bits (a pure rescale),
  rescaled by TFLite's `s_i / (2 max(s_1, s_2))` multiplier, added in i32,
  rescaled by `2 max(s_1, s_2) / (2^20 s_out)` — the chain of
  `MultiplyByQuantizedMultiplierSmallerThanOneExp` steps, double rounding
  being exactly gemmlowp's rounding-doubling-high-multiply-then-divide;
* MUL -> centred inputs, `tosa.mul`, rescale by `s_1 s_2 / s_out`; RELU, RELU6 ->
  a rescale by `s_in / s_out` and a clamp; PAD -> `tosa.pad` with the output
  zero point; CONCATENATION of like-quantized inputs -> `tosa.concat`; MEAN over
  H and W -> centre, `tosa.reduce_sum`, one rescale by `s_in / (s_out count)`;
* LOGISTIC, TANH -> `tosa.table` built as LiteRT's LUTPopulate does (float32);
  HARD_SWISH -> `tosa.table` of TFLite's int16 fixed-point kernel on all inputs;
  SOFTMAX -> TFLite's gemmlowp kernel as TOSA integer ops (tflite_softmax.py);
* MAX_POOL_2D -> `tosa.max_pool2d` and the activation's clamp;
  AVERAGE_POOL_2D -> `tosa.avg_pool2d` with zero points 0; QUANTIZE of
  an int8 tensor -> a rescale by `s_in / s_out`; RESHAPE -> `tosa.reshape`.

The function's arguments and results are the model's int8 tensors. A float
input that only feeds a QUANTIZE, or a float output a DEQUANTIZE makes, is
peeled off: the argument or result is the int8 tensor on the other side,
with a `qdialect.quantize` / `qdialect.dequantize` attribute `[scale, zero
point]` telling the host how to convert (the NPU computes in int8). Anything
else is a `TFLiteImportError` naming the operator and its index; operators of
kinds without a rule are all listed in one error before anything is built.

The module is built through the shared emitter (`emitter.py`), not as text: each
operator's ops carry `loc("name")` of its first output tensor, each argument the
name of its input tensor, and the module is verified before it is returned.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute

from qdialect import numerics
from qdialect.dialects import tosa
from qdialect.importers import fixed_point as fp
from qdialect.importers.emitter import ELEMENT_TYPES, Value, i64_array, verified
from qdialect.importers.tflite_check import TFLiteImportError
from qdialect.importers.tflite_float import FloatImporter, is_float_model
from qdialect.importers.tflite_reader import Tensor, TFLiteReader
from qdialect.importers.tflite_softmax import SoftmaxError, emit_softmax

__all__ = ["TFLiteImportError", "host_dequantize", "host_quantize", "import_tflite"]

DOUBLE, SINGLE = tosa.RoundingMode.DOUBLE_ROUND, tosa.RoundingMode.SINGLE_ROUND


class _Importer(TFLiteReader):
    """int8 TFLite -> a TOSA integer program equal to LiteRT's reference kernels."""

    def _int8(self, index: int, what: str) -> Tensor:
        """A quantized 8-bit tensor; a uint8 one comes in its int8 form (see `_tensor`)."""
        t = self.tensors[index]
        if t.dtype not in (self.s.TensorType.INT8, self.s.TensorType.UINT8) or t.scale is None:
            raise TFLiteImportError(
                f"{what} must be a quantized int8 or uint8 tensor (tensor {index})"
            )
        return t

    def _shift_unsigned(self, x: Value, to_unsigned: bool) -> Value:
        """uint8 bits <-> the int8 form (value - 128): an exact rescale by 1 at the
        function's boundary."""
        zps = (0, 128) if to_unsigned else (128, 0)
        return self._rescale(x, "i8", [1 << 30], [30], *zps, False,
                             unsigned=(not to_unsigned, to_unsigned))  # fmt: skip

    def _value(self, index: int, op: str) -> Value:
        """The value of tensor `index`; a constant 8-bit tensor becomes a `tosa.const`."""
        if index not in self.values:
            t = self.tensors[index] if 0 <= index < len(self.tensors) else None
            if t is None or t.data is None or t.data.dtype not in (np.int8, np.uint8):
                raise TFLiteImportError(f"{op} reads tensor {index} before anything produces it")
            self.values[index] = self._const(t.data.astype(np.int8), "i8")
        return self.values[index]

    def _broadcast(self, index: int, t: Tensor, out: Tensor, op: str) -> Value:
        """An elementwise operand at the output's rank (TFLite broadcasts numpy-style;
        TOSA's elementwise ops broadcast size-1 axes of equal-rank operands)."""
        try:
            shape = np.broadcast_shapes(t.shape, out.shape)
        except ValueError:
            shape = None
        if shape != tuple(out.shape):
            raise TFLiteImportError(f"{list(t.shape)} does not broadcast to {list(out.shape)}")
        value = self._value(index, op)
        if len(t.shape) < len(out.shape):
            value = self.e.tosa_reshape(value, (1,) * (len(out.shape) - len(t.shape)) + t.shape)
        return value

    # ---- emission ---------------------------------------------------------------------

    def _const(self, values: np.ndarray, elem: str) -> Value:
        return self.e.tosa_const(np.asarray(values), elem)

    def _rescale(self, x: Value, out_elem: str, mult, shift, in_zp: int, out_zp: int,
                 per_channel: bool, double_round: bool = True,
                 unsigned: tuple[bool, bool] = (False, False)) -> Value:  # fmt: skip
        """A tosa.rescale; an unsigned side keeps uint8 bits in i8 (TOSA's convention), its
        zero point too."""
        return self.e.tosa_rescale(
            x, [int(m) for m in mult], [int(s) for s in shift], in_zp, out_zp, out_elem,
            rounding=DOUBLE if double_round else SINGLE,
            input_unsigned=unsigned[0], output_unsigned=unsigned[1],
            per_channel=per_channel,
        )  # fmt: skip

    def _clamp(self, x: Value, lo: int, hi: int) -> Value:
        if lo <= -128 and hi >= 127:
            return x
        return self.e.tosa_clamp(x, lo, hi)

    # ---- TFLite's arithmetic --------------------------------------------------------------

    @staticmethod
    def _multiplier(real: float) -> tuple[int, int]:
        """TFLite's QuantizeMultiplier as a TOSA (multiplier, shift)."""
        try:
            return numerics.quantize_multiplier(real)
        except numerics.QuantizationError as err:
            raise TFLiteImportError(str(err)) from None

    def _activation(self, code: int, out: Tensor) -> tuple[int, int]:
        """CalculateActivationRangeQuantized: the fused activation's bounds in int8."""
        act = self.s.ActivationFunctionType
        scale, zp = float(out.scale[0]), int(out.zero_point[0])

        def quantize(x: float) -> int:
            return zp + int(numerics.round_half_away_from_zero(np.float32(x) / np.float32(scale)))

        if code == act.NONE:
            return -128, 127
        if code == act.RELU:
            return max(-128, quantize(0.0)), 127
        if code == act.RELU6:
            return max(-128, quantize(0.0)), min(127, quantize(6.0))
        if code == act.RELU_N1_TO_1:
            return max(-128, quantize(-1.0)), min(127, quantize(1.0))
        raise TFLiteImportError(f"fused activation {code} is not supported")

    # ---- operators --------------------------------------------------------------------

    def _boundaries(self) -> tuple[dict[int, int], dict[int, int], set[int]]:
        """Float inputs that only feed a QUANTIZE, and float outputs a DEQUANTIZE makes: the
        imported function starts and ends at their int8 sides (the host converts, as the
        argument and result attributes say). Returns input -> int8 tensor, output -> int8
        tensor, and the operators peeled off."""
        g = self.graph
        float32 = self.s.TensorType.FLOAT32
        readers: dict[int, list[int]] = {}
        for n, op in enumerate(g.operators or []):
            for i in op.inputs:
                readers.setdefault(int(i), []).append(n)
        ins, outs, peeled = {}, {}, set()
        for index in (int(i) for i in g.inputs):
            users = readers.get(index, [])
            if self.tensors[index].dtype == float32 and len(users) == 1:
                op = g.operators[users[0]]
                if self._kind(users[0], op) == "QUANTIZE":
                    ins[index] = int(op.outputs[0])
                    peeled.add(users[0])
        for index in (int(i) for i in g.outputs):
            for n, op in enumerate(g.operators or []):
                if int(op.outputs[0]) == index and self.tensors[index].dtype == float32:
                    if self._kind(n, op) == "DEQUANTIZE" and len(op.inputs):
                        outs[index] = int(op.inputs[0])
                        peeled.add(n)
        return ins, outs, peeled

    def _boundary_attrs(self, index: int, what: str | None) -> dict[str, Attribute]:
        """A boundary tensor's argument or result attributes: `qdialect.quantize` /
        `qdialect.dequantize = [scale : f32, zero point : i64]` for a peeled float side,
        `qdialect.uint8` for uint8 bits held in i8."""
        t = self.tensors[index]
        attrs: dict[str, Attribute] = {}
        if what is not None:
            zp = int(t.zero_point[0]) + (128 if t.unsigned else 0)
            attrs[f"qdialect.{what}"] = ArrayAttr(
                [FloatAttr(float(t.scale[0]), f32), IntegerAttr(zp, i64)]
            )
        if t.unsigned:
            attrs["qdialect.uint8"] = UnitAttr()
        return attrs

    def run(self) -> ModuleOp:
        g = self.graph
        ins, outs, peeled = self._boundaries()
        self._check_supported(peeled)
        for i, index in enumerate(int(i) for i in g.inputs):
            inner = ins.get(index, index)
            t = self._int8(inner, f"model input {i}")
            attrs = self._boundary_attrs(inner, "quantize" if index in ins else None)
            arg = self.e.argument(t.shape, "i8", self.tensors[index].name, attrs)
            if t.unsigned:
                with self.e.at(t.name):
                    arg = self._shift_unsigned(arg, False)
            self.values[inner] = arg
        self._emit_operators(peeled)
        results, result_attrs = [], []
        for i, index in enumerate(int(i) for i in g.outputs):
            inner = outs.get(index, index)
            t = self._int8(inner, f"model output {i}")
            value = self._value(inner, "the model's outputs")
            if t.unsigned:
                with self.e.at(t.name):
                    value = self._shift_unsigned(value, True)
            results.append(value)
            result_attrs.append(
                self._boundary_attrs(inner, "dequantize" if index in outs else None)
            )
        return self.e.finish(results, result_attrs)

    def _conv_like(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        x, w = self._int8(inputs[0], "the input"), self._int8(inputs[1], "the filter")
        out = self._int8(out_index, "the output")
        if w.data is None:
            raise TFLiteImportError("the filter must be a constant")
        fully_connected = kind == "FULLY_CONNECTED"
        if len(w.shape) != (2 if fully_connected else 4) or (
            not fully_connected and len(x.shape) != 4
        ):
            raise TFLiteImportError(
                f"input {list(x.shape)} and filter {list(w.shape)} have the wrong ranks for {kind}"
            )
        if np.any(w.zero_point != 0):
            raise TFLiteImportError("filter zero points must be 0 (symmetric int8 weights)")
        bias = None
        if len(inputs) > 2 and inputs[2] >= 0:
            b = self.tensors[inputs[2]]
            if b.data is None or b.dtype != self.s.TensorType.INT32:
                raise TFLiteImportError("the bias must be a constant int32 tensor")
            bias = b.data.astype(np.int64)
        o = op.builtinOptions
        zx, zy = int(x.zero_point[0]), int(out.zero_point[0])
        s_x, s_y = np.float32(x.scale[0]), np.float32(out.scale[0])
        n_out = out.shape[-1]
        w_scales = np.broadcast_to(w.scale, (n_out,)) if w.scale.size == 1 else w.scale
        if w_scales.size != n_out:
            raise TFLiteImportError(f"{w_scales.size} filter scales for {n_out} output channels")
        self._filter_fits(kind, x.shape, w.shape, n_out)
        if bias is not None and bias.size != n_out:
            raise TFLiteImportError(f"{bias.size} bias values for {n_out} output channels")
        mults, shifts = zip(
            *(self._multiplier(float(s_x) * float(sw) / float(s_y)) for sw in w_scales), strict=True
        )
        bias_values = bias if bias is not None else np.zeros(n_out, np.int64)
        b_value = self._const(bias_values.reshape(n_out), "i32")
        zx_value, zw_value = self._const(np.array([zx]), "i8"), self._const(np.array([0]), "i8")
        xv = self._value(inputs[0], kind)
        if kind == "FULLY_CONNECTED":
            k = w.shape[1]
            m = math.prod(x.shape) // k
            a = self.e.tosa_reshape(xv, (1, m, k))
            wt = self._const(w.data.T.reshape(1, k, n_out), "i8")
            acc = self.e.tosa("matmul", [a, wt, zx_value, zw_value], (1, m, n_out), "i32")
            bias3 = self.e.tosa_reshape(b_value, (1, 1, n_out))
            biased = self.e.tosa("add", [acc, bias3], (1, m, n_out), "i32")
            # LiteRT's reference FULLY_CONNECTED rounds once (measured: double rounding
            # differs in ~1% of outputs, single rounding in none); see docs/tflite.md.
            r = self._rescale(biased, "i8", mults, shifts, 0, zy, True, double_round=False)
            y = self.e.tosa_reshape(r, out.shape)
        else:
            stride = (o.strideH, o.strideW)
            dilation = (o.dilationHFactor, o.dilationWFactor)
            if kind == "CONV_2D":
                kernel = w.shape[1:3]
                weights = self._const(w.data, "i8")
                name = "conv2d"
            else:
                kh, kw = w.shape[1:3]
                c = x.shape[3]
                kernel = (kh, kw)
                weights = self._const(w.data.reshape(kh, kw, c, n_out // c), "i8")
                name = "depthwise_conv2d"
            pad = self._padding(o.padding, x.shape[1:3], kernel, stride, dilation)
            acc = self.e.tosa(
                name, [xv, weights, b_value, zx_value, zw_value], out.shape, "i32",
                pad=i64_array(pad), stride=i64_array(stride), dilation=i64_array(dilation),
                acc_type=ELEMENT_TYPES["i32"],
            )  # fmt: skip
            y = self._rescale(acc, "i8", mults, shifts, 0, zy, True)
        lo, hi = self._activation(o.fusedActivationFunction, out)
        self.values[out_index] = self._clamp(y, lo, hi)

    _op_conv_2d = _conv_like
    _op_depthwise_conv_2d = _conv_like
    _op_fully_connected = _conv_like

    def _op_add(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        a, b = (self._int8(i, f"input {n}") for n, i in enumerate(inputs[:2]))
        out = self._int8(out_index, "the output")
        s_a, s_b, s_y = (float(np.float32(t.scale[0])) for t in (a, b, out))
        twice_max = 2 * max(s_a, s_b)
        left = 20
        terms = []
        for t, s_t, i in ((a, s_a, inputs[0]), (b, s_b, inputs[1])):
            shifted = self._rescale(self._broadcast(i, t, out, kind), "i32", [1 << 30],
                                    [30 - left], int(t.zero_point[0]), 0, False)  # fmt: skip
            m, sh = self._multiplier(s_t / twice_max)
            terms.append(self._rescale(shifted, "i32", [m], [sh], 0, 0, False))
        total = self.e.tosa("add" if kind == "ADD" else "sub", terms, out.shape, "i32")
        m, sh = self._multiplier(twice_max / ((1 << left) * s_y))
        y = self._rescale(total, "i8", [m], [sh], 0, int(out.zero_point[0]), False)
        lo, hi = self._activation(op.builtinOptions.fusedActivationFunction, out)
        self.values[out_index] = self._clamp(y, lo, hi)

    _op_sub = _op_add

    def _pool(self, op) -> tuple[int, int, Tensor, Tensor, list[int], list[int], list[int]]:
        """(input, output, their tensors, kernel, stride, padding) of a pooling operator."""
        inputs, out_index = self._io(op, 1)
        x = self._int8(inputs[0], "the input")
        out = self._int8(out_index, "the output")
        self._same_quantization(x, out)
        o = op.builtinOptions
        kernel, stride = [o.filterHeight, o.filterWidth], [o.strideH, o.strideW]
        pad = self._padding(o.padding, x.shape[1:3], kernel, stride, (1, 1))
        return inputs[0], out_index, x, out, kernel, stride, pad

    @staticmethod
    def _same_quantization(x: Tensor, out: Tensor) -> None:
        if (float(x.scale[0]), int(x.zero_point[0])) != (
            float(out.scale[0]),
            int(out.zero_point[0]),
        ):
            raise TFLiteImportError("input and output quantization must match")

    def _op_max_pool_2d(self, op, kind: str) -> None:
        index, out_index, _, out, kernel, stride, pad = self._pool(op)
        window = {"kernel": i64_array(kernel), "stride": i64_array(stride), "pad": i64_array(pad)}
        y = self.e.tosa("max_pool2d", [self._value(index, kind)], out.shape, "i8", **window)
        lo, hi = self._activation(op.builtinOptions.fusedActivationFunction, out)
        self.values[out_index] = self._clamp(y, lo, hi)

    def _op_average_pool_2d(self, op, kind: str) -> None:
        """TFLite averages the raw int8 values (input and output share their quantization)
        with a division rounding half away from zero; `tosa.avg_pool2d` with zero points 0
        multiplies by reciprocal_scale, slightly over 1/count, which rounds exact halves
        away from zero as well (tested at ties of both signs)."""
        index, out_index, _, out, kernel, stride, pad = self._pool(op)
        zero = self._const(np.array([0]), "i8")
        window = {"kernel": i64_array(kernel), "stride": i64_array(stride), "pad": i64_array(pad)}
        y = self.e.tosa("avg_pool2d", [self._value(index, kind), zero, zero], out.shape, "i8",
                        acc_type=ELEMENT_TYPES["i32"], **window)  # fmt: skip
        lo, hi = self._activation(op.builtinOptions.fusedActivationFunction, out)
        self.values[out_index] = self._clamp(y, lo, hi)

    def _relu(self, op, kind: str) -> None:
        """QuantizedReluX: (x - zp_in) rescaled by s_in / s_out, plus zp_out, clamped."""
        inputs, out_index = self._io(op, 1)
        x, out = self._int8(inputs[0], "the input"), self._int8(out_index, "the output")
        m, sh = self._multiplier(float(np.float32(x.scale[0]) / np.float32(out.scale[0])))
        y = self._rescale(self._value(inputs[0], kind), "i8", [m], [sh], int(x.zero_point[0]),
                          int(out.zero_point[0]), False)  # fmt: skip
        act = self.s.ActivationFunctionType
        lo, hi = self._activation(act.RELU if kind == "RELU" else act.RELU6, out)
        self.values[out_index] = self._clamp(y, lo, hi)

    _op_relu = _relu
    _op_relu6 = _relu

    def _centre(self, x: Value, t: Tensor) -> Value:
        """x - zp as i32: a rescale by exactly 1."""
        return self._rescale(x, "i32", [1 << 30], [30], int(t.zero_point[0]), 0, False)

    def _op_mul(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        a, b = (self._int8(i, f"input {n}") for n, i in enumerate(inputs[:2]))
        out = self._int8(out_index, "the output")
        centred = [
            self._centre(self._broadcast(i, t, out, kind), t)
            for t, i in ((a, inputs[0]), (b, inputs[1]))
        ]
        shift = self._const(np.array([0]), "i8")
        product = self.e.tosa("mul", [*centred, shift], out.shape, "i32")
        real = (
            float(np.float32(a.scale[0]))
            * float(np.float32(b.scale[0]))
            / float(np.float32(out.scale[0]))
        )
        m, sh = self._multiplier(real)
        y = self._rescale(product, "i8", [m], [sh], 0, int(out.zero_point[0]), False)
        lo, hi = self._activation(op.builtinOptions.fusedActivationFunction, out)
        self.values[out_index] = self._clamp(y, lo, hi)

    def _op_pad(self, op, kind: str) -> None:
        """Quantized PAD pads with the output zero point (the quantized 0.0)."""
        inputs, out_index = self._io(op, 2)
        x, out = self._int8(inputs[0], "the input"), self._int8(out_index, "the output")
        amounts = self.tensors[inputs[1]].data
        if amounts is None or amounts.shape != (len(x.shape), 2):
            raise TFLiteImportError("the paddings must be a constant [rank, 2] tensor")
        self._same_quantization(x, out)
        padding = self.e.tosa_shape([int(v) for v in amounts.reshape(-1)])
        value = self._const(np.array([int(out.zero_point[0])]), "i8")
        self.values[out_index] = self.e.tosa(
            "pad", [self._value(inputs[0], kind), padding, value], out.shape, "i8"
        )

    def _op_concatenation(self, op, kind: str) -> None:
        inputs = [int(i) for i in op.inputs]
        out_index = int(op.outputs[0])
        out = self._int8(out_index, "the output")
        params = (float(out.scale[0]), int(out.zero_point[0]))
        xs = [self._int8(i, f"input {n}") for n, i in enumerate(inputs)]
        if any((float(t.scale[0]), int(t.zero_point[0])) != params for t in xs):
            raise TFLiteImportError("inputs quantized unlike the output are not supported")
        if op.builtinOptions.fusedActivationFunction != self.s.ActivationFunctionType.NONE:
            raise TFLiteImportError("a fused activation on CONCATENATION is not supported")
        axis = op.builtinOptions.axis % len(out.shape)
        self.values[out_index] = self.e.tosa(
            "concat", [self._value(i, kind) for i in inputs], out.shape, "i8",
            axis=IntegerAttr(axis, i32),
        )  # fmt: skip

    def _op_mean(self, op, kind: str) -> None:
        """MEAN of int8 over any axes (GlobalAveragePooling2D's H and W, 1-D CNNs' time
        axis): the sum of x - zp_in over the axes, rescaled once with double rounding by
        TFLite's multiplier for s_in / s_out divided by the count in integer arithmetic
        (`_mean_multiplier`, as its reference QuantizedMeanOrSum), plus zp_out."""
        inputs, out_index = self._io(op, 2)
        x, out = self._int8(inputs[0], "the input"), self._int8(out_index, "the output")
        axes = self.tensors[inputs[1]].data
        rank = len(x.shape)
        if axes is None or not all(-rank <= int(a) < rank for a in axes.reshape(-1)):
            raise TFLiteImportError("MEAN needs constant axes within the input's rank")
        reduced = sorted({int(a) % rank for a in axes.reshape(-1)})
        if not reduced:
            raise TFLiteImportError("MEAN over no axes is not supported")
        total = self._centre(self._value(inputs[0], kind), x)
        for axis in reduced:
            total = self.e.tosa_axis("reduce_sum", total, axis)
        count = math.prod(x.shape[a] for a in reduced)
        m, sh = _mean_multiplier(
            float(np.float32(x.scale[0])) / float(np.float32(out.scale[0])), count
        )
        y = self._rescale(total, "i8", [m], [sh], 0, int(out.zero_point[0]), False)
        if y.shape != out.shape:  # keep_dims false: the reduced axes dropped
            y = self.e.tosa_reshape(y, out.shape)
        self.values[out_index] = y

    def _table(self, op, kind: str, table: np.ndarray) -> None:
        inputs, out_index = self._io(op, 1)
        self._int8(inputs[0], "the input")
        out = self._int8(out_index, "the output")
        t = self._const(table.astype(np.int64), "i8")
        self.values[out_index] = self.e.tosa(
            "table", [self._value(inputs[0], kind), t], out.shape, "i8"
        )

    def _float_table(self, op, kind: str, fn) -> None:
        """LiteRT's LUTPopulate: each int8 input dequantized, transformed and requantized
        in float32, rounding half away from zero (measured identical to its reference
        LOGISTIC and TANH on every input)."""
        x = self._int8(int(op.inputs[0]), "the input")
        out = self._int8(int(op.outputs[0]), "the output")
        values = np.arange(-128, 128, dtype=np.float32)
        dequantized = np.float32(x.scale[0]) * (values - np.float32(x.zero_point[0]))
        with np.errstate(over="ignore"):
            transformed = fn(dequantized).astype(np.float32)
        scaled = transformed * (np.float32(1.0) / np.float32(out.scale[0]))
        rounded = numerics.round_half_away_from_zero(scaled)
        table = np.clip(rounded + int(out.zero_point[0]), -128, 127)
        self._table(op, kind, table)

    def _op_logistic(self, op, kind: str) -> None:
        self._float_table(op, kind, lambda v: np.float32(1) / (np.float32(1) + np.exp(-v)))

    def _op_tanh(self, op, kind: str) -> None:
        self._float_table(op, kind, np.tanh)

    def _op_hard_swish(self, op, kind: str) -> None:
        x = self._int8(int(op.inputs[0]), "the input")
        out = self._int8(int(op.outputs[0]), "the output")
        table = hard_swish_table(
            np.float32(x.scale[0]), int(x.zero_point[0]), np.float32(out.scale[0]),
            int(out.zero_point[0]),
        )  # fmt: skip
        self._table(op, kind, table)

    def _op_softmax(self, op, kind: str) -> None:
        """TFLite's reference int8 softmax along the last axis (tflite_softmax.py), on the
        input viewed as rows x depth."""
        inputs, out_index = self._io(op, 1)
        x, out = self._int8(inputs[0], "the input"), self._int8(out_index, "the output")
        if int(out.zero_point[0]) != -128 or abs(float(out.scale[0]) * 256 - 1) > 1e-3:
            raise TFLiteImportError(
                "the output must have scale 1/256 and zero point -128 (TFLite's int8 softmax)"
            )
        if op.builtinOptions is None:
            raise TFLiteImportError("has no SoftmaxOptions (beta)")
        depth = x.shape[-1] if x.shape else 1
        rows = math.prod(x.shape) // depth
        value = self._value(inputs[0], kind)
        if x.shape != (rows, depth):
            value = self.e.tosa_reshape(value, (rows, depth))
        try:
            y = emit_softmax(
                self.e, value, rows, depth, float(op.builtinOptions.beta), float(x.scale[0])
            )
        except SoftmaxError as err:
            raise TFLiteImportError(str(err)) from None
        if out.shape != (rows, depth):
            y = self.e.tosa_reshape(y, out.shape)
        self.values[out_index] = y

    def _op_reshape(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 1)
        x, out = self.tensors[inputs[0]], self.tensors[out_index]
        if math.prod(x.shape) != math.prod(out.shape):
            raise TFLiteImportError(f"cannot reshape {list(x.shape)} to {list(out.shape)}")
        if x.data is not None and x.scale is None:  # shape arithmetic
            self._fold(out_index, x.data.reshape(out.shape))
            return
        self.values[out_index] = self.e.tosa_reshape(self._value(inputs[0], kind), out.shape)

    def _op_expand_dims(self, op, kind: str) -> None:
        """EXPAND_DIMS and SQUEEZE move no values: a reshape to the output's shape."""
        x, out = self.tensors[int(op.inputs[0])], self.tensors[int(op.outputs[0])]
        if math.prod(x.shape) != math.prod(out.shape):
            raise TFLiteImportError(f"cannot reshape {list(x.shape)} to {list(out.shape)}")
        if x.data is not None and x.scale is None:  # shape arithmetic
            self._fold(int(op.outputs[0]), x.data.reshape(out.shape))
            return
        self.values[int(op.outputs[0])] = self.e.tosa_reshape(
            self._value(int(op.inputs[0]), kind), out.shape
        )

    _op_squeeze = _op_expand_dims

    def _op_transpose(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        x, out = self._int8(inputs[0], "the input"), self._int8(out_index, "the output")
        perm = self.tensors[inputs[1]].data
        if perm is None or sorted(int(p) for p in perm.reshape(-1)) != list(range(len(x.shape))):
            raise TFLiteImportError("the permutation must be a constant of the input's axes")
        self._same_quantization(x, out)
        self.values[out_index] = self.e.tosa_transpose(
            self._value(inputs[0], kind), [int(p) for p in perm.reshape(-1)]
        )

    def _slice(self, value: Value, begin: list[int], size: list[int]) -> Value:
        return self.e.tosa("slice", [value, self.e.tosa_shape(begin), self.e.tosa_shape(size)],
                           size, value.elem)  # fmt: skip

    def _split_outputs(self, op, kind: str, x_index: int, axis_tensor: int, sizes) -> None:
        x = self._int8(x_index, "the input")
        axis_data = self.tensors[axis_tensor].data
        if axis_data is None:
            raise TFLiteImportError("the split axis must be a constant")
        axis = int(axis_data.reshape(-1)[0]) % len(x.shape)
        outputs = [int(i) for i in op.outputs]
        sizes = self._split_sizes(x.shape[axis], len(outputs), sizes)
        value, start = self._value(x_index, kind), 0
        for size, index in zip(sizes, outputs, strict=True):
            self._same_quantization(x, self._int8(index, "an output"))
            begin, extent = [0] * len(x.shape), list(x.shape)
            begin[axis], extent[axis] = start, size
            self.values[index] = self._slice(value, begin, extent)
            start += size

    def _op_split(self, op, kind: str) -> None:
        self._split_outputs(op, kind, int(op.inputs[1]), int(op.inputs[0]), None)

    def _op_split_v(self, op, kind: str) -> None:
        sizes = self.tensors[int(op.inputs[1])].data
        if sizes is None:
            raise TFLiteImportError("the split sizes must be a constant")
        self._split_outputs(op, kind, int(op.inputs[0]), int(op.inputs[2]),
                            [int(v) for v in sizes.reshape(-1)])  # fmt: skip

    # ---- shape arithmetic on constants: folded at import -------------------------------

    def _op_strided_slice(self, op, kind: str) -> None:
        x_index, out_index = int(op.inputs[0]), int(op.outputs[0])
        x = self.tensors[x_index]
        begin, end, strides, _ = self._slice_spec(op, x.shape)
        if x.data is not None and x.scale is None:  # shape arithmetic
            picked = x.data[tuple(slice(b, e, s) for b, e, s in zip(begin, end, strides,
                                                                    strict=True))]  # fmt: skip
            self._fold(out_index, picked.reshape(self.tensors[out_index].shape))
            return
        x, out = self._int8(x_index, "the input"), self._int8(out_index, "the output")
        self._same_quantization(x, out)
        y = self._slice(self._value(x_index, kind), begin, [e - b for b, e in zip(begin, end,
                                                                                 strict=True)])  # fmt: skip
        for axis, step in enumerate(strides):  # every step-th row of the slice: a gather
            if step != 1:
                y = self.e.tosa_take(y, np.arange(0, y.shape[axis], step), axis)
        self.values[out_index] = self.e.tosa_reshape(y, out.shape) if y.shape != out.shape else y

    def _resize_operands(self, op) -> tuple[int, int, Tensor, bool, bool]:
        """(input index, output index, output tensor, align_corners, half_pixel_centers)
        of a RESIZE_* operator on NHWC int8 sharing its quantization."""
        inputs, out_index = self._io(op, 2)
        x, out = self._int8(inputs[0], "the input"), self._int8(out_index, "the output")
        self._same_quantization(x, out)
        if len(x.shape) != 4 or x.shape[0] != out.shape[0] or x.shape[3] != out.shape[3]:
            raise TFLiteImportError("resizes NHWC tensors along H and W only")
        o = op.builtinOptions
        return inputs[0], out_index, out, bool(o.alignCorners), bool(o.halfPixelCenters)

    def _op_resize_nearest_neighbor(self, op, kind: str) -> None:
        """Nearest-neighbour resizing: each output row and column reads the input index
        TFLite's reference kernel computes (float32 scale and offset, floor, or rounding
        half away from zero with align_corners), a `tosa.gather` per resized axis."""
        x_index, out_index, out, align, half = self._resize_operands(op)
        y = self._value(x_index, kind)
        for axis in (1, 2):
            index = _nearest_indices(y.shape[axis], out.shape[axis], align, half)
            if not np.array_equal(index, np.arange(y.shape[axis])):
                y = self.e.tosa_take(y, index, axis)
        self.values[out_index] = y

    def _op_resize_bilinear(self, op, kind: str) -> None:
        """Bilinear resizing as TFLite's integer reference kernel computes it: source
        positions in 1/1024 steps (scale rounded to 10 fractional bits), the four neighbours
        weighted by their 10-bit fractions (a 20-bit product), then divided by 2^20 rounding
        half away from zero. The weights are static, so it is two passes of gathered
        neighbours times constant weights (rows, then columns), exact in i32."""
        x_index, out_index, out, align, half = self._resize_operands(op)
        shift = self._const(np.array([0]), "i8")
        y = self._value(x_index, kind)
        y = self.e.tosa("cast", [y], y.shape, "i32")
        for axis in (1, 2):
            low, high, w_low, w_high = _bilinear_taps(y.shape[axis], out.shape[axis], align, half)
            shape = [*y.shape[:axis], out.shape[axis], *y.shape[axis + 1 :]]
            weight_shape = [1, 1, 1, 1]
            weight_shape[axis] = out.shape[axis]
            parts = [
                self.e.tosa("mul", [self.e.tosa_take(y, rows, axis),
                                    self._const(weights.reshape(weight_shape), "i32"), shift],
                            shape, "i32")
                for rows, weights in ((low, w_low), (high, w_high))
            ]  # fmt: skip
            y = self.e.tosa("add", parts, shape, "i32")
        grid = y.shape
        zero, half_step, bits = (self._const(np.array([[[[v]]]]), "i32") for v in (0, 1 << 19, 20))

        def rounded(v: Value) -> Value:  # (max(v, 0) + 2^19) >> 20
            positive = self.e.tosa("maximum", [v, zero], grid, "i32")
            return self.e.tosa("arithmetic_right_shift",
                               [self.e.tosa("add", [positive, half_step], grid, "i32"), bits],
                               grid, "i32", round=BoolAttr.from_bool(False))  # fmt: skip

        negated = self.e.tosa("sub", [zero, y], grid, "i32")
        value = self.e.tosa("sub", [rounded(y), rounded(negated)], grid, "i32")
        value = self.e.tosa_clamp(value, -128, 127)
        self.values[out_index] = self.e.tosa("cast", [value], grid, "i8")

    def _op_quantize(self, op, kind: str) -> None:
        """Requantization between 8-bit types (int8 or uint8 on either side, TFLite's
        Requantize): a rescale by s_in / s_out (uint8 sides in their int8 form)."""
        inputs, out_index = self._io(op, 1)
        x = self._int8(inputs[0], "the input (float QUANTIZE is a model boundary)")
        out = self._int8(out_index, "the output")
        m, sh = self._multiplier(float(np.float32(x.scale[0])) / float(np.float32(out.scale[0])))
        self.values[out_index] = self._rescale(
            self._value(inputs[0], kind), "i8", [m], [sh], int(x.zero_point[0]),
            int(out.zero_point[0]), False,
        )  # fmt: skip


# ---- HARD_SWISH's fixed-point kernel, as a 256-entry table -------------------------------


def _nearest_indices(size: int, out: int, align: bool, half: bool) -> np.ndarray:
    """The input index of each output position in TFLite's nearest-neighbour resize:
    (i + offset) * scale in float32, floored (rounded half away from zero when aligning
    corners), clamped to the input."""
    f32 = np.float32
    scale = f32(size - 1) / f32(out - 1) if align and out > 1 else f32(size) / f32(out)
    position = (np.arange(out, dtype=np.float32) + f32(0.5 if half else 0.0)) * f32(scale)
    if align:
        index = numerics.round_half_away_from_zero(position).astype(np.int64)
    else:
        index = np.floor(position).astype(np.int64)
    index = np.minimum(index, size - 1)
    return np.maximum(index, 0) if half else index


def _bilinear_taps(size: int, out: int, align: bool, half: bool):
    """TFLite's integer bilinear taps along one axis: for each output position the lower
    and upper source index and their weights in 1/1024 (they sum to 1024)."""
    f32 = np.float32
    scale = f32(size - 1) / f32(out - 1) if align and out > 1 else f32(size) / f32(out)
    scale_10 = int(numerics.round_half_away_from_zero(f32(scale) * f32(1 << 10)))
    position = np.arange(out, dtype=np.int64) * scale_10
    if half:
        position = position + scale_10 // 2 - (1 << 9)
    low = np.maximum(np.trunc(position / (1 << 10)).astype(np.int64), 0)
    high = np.minimum(np.trunc((position + (1 << 10) - 1) / (1 << 10)).astype(np.int64),
                      size - 1)  # fmt: skip
    w_high = position - (1 << 10) * low
    return low, high, (1 << 10) - w_high, w_high


def _mean_multiplier(real: float, count: int) -> tuple[int, int]:
    """TFLite's quantized MEAN scale as a TOSA (multiplier, shift): QuantizeMultiplier of
    s_in / s_out, then the multiplier shifted left by floor(log2 count) (at most 32, and at
    most 31 + its exponent) and divided by the count, truncating. Measured against LiteRT:
    a multiplier for s_in / (s_out * count) computed directly differs in ~5% of outputs."""
    q, exponent = _tflite_quantize_multiplier(real)
    shift = min(count.bit_length() - 1, 32, 31 + exponent)
    multiplier = (q << shift) // count
    tosa_shift = 31 - (exponent - shift)
    if multiplier <= 0 or not 2 <= tosa_shift <= 62:
        raise TFLiteImportError(f"MEAN scale {real!r} over {count} elements is out of range")
    return multiplier, tosa_shift


def _tflite_quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite's QuantizeMultiplier: (q, exponent) with real ~= q * 2^(exponent - 31); the
    same rounding as numerics.quantize_multiplier, with TFLite's exponent convention."""
    try:
        q, shift = numerics.quantize_multiplier(real)
    except numerics.QuantizationError as err:
        raise TFLiteImportError(str(err)) from None
    return q, 31 - shift


def _to_int16_multiplier(q: int) -> int:
    """DownScaleInt32ToInt16Multiplier."""
    if q >= (1 << 31) - 1 - (1 << 15):
        return (1 << 15) - 1
    return (q + (1 << 15)) >> 16


def hard_swish_table(s_in: np.float32, zp_in: int, s_out: np.float32, zp_out: int) -> np.ndarray:
    """TFLite's reference int8 HardSwish (its int16 fixed-point scheme) on all 256 inputs."""
    hires = np.float32(1.0 / 128.0) * s_in
    out_q, out_exp = _tflite_quantize_multiplier(float(hires / s_out))
    relu_q, relu_exp = _tflite_quantize_multiplier(float(hires / np.float32(3.0 / 32768.0)))
    if out_exp > 0:
        raise TFLiteImportError("HARD_SWISH output scale too small (TFLite requires exponent <= 0)")
    out_m, relu_m = _to_int16_multiplier(out_q), _to_int16_multiplier(relu_q)
    x = np.arange(-128, 128, dtype=np.int64) - zp_in
    hires_x = fp.saturate(x * (1 << 7), 16)
    preshift = fp.rounding_doubling_high_mul(hires_x, out_m, 16)
    reluish = hires_x
    if relu_exp > 0:
        reluish = fp.saturate(reluish * (1 << (relu_exp - 1)), 16)
    reluish = fp.rounding_doubling_high_mul(reluish, relu_m, 16)
    if relu_exp > 0:
        reluish = fp.saturate(reluish * 2, 16)
    if relu_exp < 0:
        reluish = fp.rounding_divide_by_pot(reluish, -relu_exp)
    reluish = (reluish + (1 << 15)) >> 1
    value = fp.doubling_high_mul16(reluish, preshift)
    value = fp.rounding_divide_by_pot(value, -out_exp) + zp_out
    return np.clip(value, -128, 127)


# ---- the host side of peeled float boundaries ----------------------------------------------


def host_quantize(x: np.ndarray, scale: float, zero_point: int) -> np.ndarray:
    """TFLite's QUANTIZE of a float input: round(x / scale) half away from zero, in
    float32, plus the zero point, saturated to int8."""
    rounded = numerics.round_half_away_from_zero(np.asarray(x, np.float32) / np.float32(scale))
    return np.clip(rounded + zero_point, -128, 127).astype(np.int8)


def host_dequantize(q: np.ndarray, scale: float, zero_point: int) -> np.ndarray:
    """TFLite's DEQUANTIZE: scale * (q - zero_point) in float32."""
    return (np.float32(scale) * (np.asarray(q, np.int32) - zero_point).astype(np.float32)).astype(
        np.float32
    )


def import_tflite(data: bytes) -> ModuleOp:
    """The verified module (one `func.func @main`) of a TFLite model's first subgraph: a TOSA
    integer program for an int8 model, float StableHLO for a float32 one (`tflite_float`);
    every op is located at its operator's first output tensor (`loc("name")`)."""
    reader = TFLiteReader(data)
    if is_float_model(reader):
        return verified(FloatImporter.adopt(reader).run())
    return verified(_Importer.adopt(reader).run())
