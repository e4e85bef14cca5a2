"""Import float32 TFLite models as float StableHLO, LiteRT's float operators one by one.

What users convert without quantization (`TFLiteConverter.from_keras_model(m).convert()`)
is a float32 model: the program qdialect's own calibration and quantization start from
(docs/quantization.md). Each operator becomes the StableHLO float ops that compute it, in
TFLite's NHWC layout (the convolutions' weights are transposed to HWIO at import, so
`stablehlo.convolution` reads NHWC x HWIO -> NHWC, as JAX writes it):

* CONV_2D (grouped when the filter has fewer input channels than the data),
  DEPTHWISE_CONV_2D (`feature_group_count` = channels), FULLY_CONNECTED (the input as rows
  times the transposed filter): the convolution or `dot_general`, the bias added along the
  channels, the fused activation;
* ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE with numpy broadcasting and their
  fused activations; RELU, RELU6, RELU_N1_TO_1 as `maximum` / `clamp`; LEAKY_RELU; LOGISTIC,
  TANH, EXP, LOG, SQRT, RSQRT, ABS, NEG; HARD_SWISH as LiteRT's `x * relu6(x + 3) / 6`; GELU
  (erf or tanh form);
* MEAN, SUM, REDUCE_MAX, REDUCE_MIN; MAX_POOL_2D (padding at minus infinity) and
  AVERAGE_POOL_2D (divided by the taps inside the image, as TFLite's SAME padding does);
  SOFTMAX (`exp(beta (x - max)) / sum`);
* PAD, PADV2, CONCATENATION, RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE, SLICE,
  STRIDED_SLICE, SPLIT, SPLIT_V, and the shape arithmetic of Keras' unknown batch size
  (SHAPE, PACK, STRIDED_SLICE of constants), folded at import;
* DEQUANTIZE of a constant (float16 weights, or int8 weights with their scales) folded to a
  float32 constant.

Not bit-exact with LiteRT, by nature: a convolution's float32 sum depends on the order of
its additions, which XNNPACK or the reference kernels choose, and LiteRT's default
LOGISTIC/TANH/GELU are approximations; test/unit/importers/test_tflite_float.py prints the
measured difference. Anything else is a `TFLiteImportError` naming the operator, and a model
with quantized activations goes to the int8 importer (`tflite.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from qdialect.importers.emitter import Value
from qdialect.importers.tflite_check import TFLiteImportError
from qdialect.importers.tflite_reader import Tensor, TFLiteReader

__all__ = ["FloatImporter", "is_float_model"]

_UNARY = {"LOGISTIC": "logistic", "TANH": "tanh", "EXP": "exponential", "LOG": "log",
          "SQRT": "sqrt", "RSQRT": "rsqrt", "ABS": "abs", "NEG": "negate"}  # fmt: skip
_BINARY = {"ADD": "add", "SUB": "subtract", "MUL": "multiply", "DIV": "divide",
           "MAXIMUM": "maximum", "MINIMUM": "minimum"}  # fmt: skip


def is_float_model(reader: TFLiteReader) -> bool:
    """True when no operator computes a quantized 8-bit tensor: the model's activations are
    float32 (constants may still be float16 or quantized weights that DEQUANTIZE reads)."""
    s = reader.s
    quantized = {s.TensorType.INT8, s.TensorType.UINT8}
    for op in reader.graph.operators or []:
        for index in op.outputs if op.outputs is not None else []:
            t = reader.tensors[int(index)]
            if t.dtype in quantized and t.scale is not None:
                return False
    return True


class FloatImporter(TFLiteReader):
    """float32 TFLite -> float StableHLO (one `func.func @main`)."""

    def run(self) -> ModuleOp:
        self._check_supported(set())
        for i, index in enumerate(int(i) for i in self.graph.inputs):
            t = self._float(index, f"model input {i}")
            self.values[index] = self.e.argument(t.shape, "f32", t.name)
        self._emit_operators(set())
        results = [self._value(int(i), "the model's outputs") for i in self.graph.outputs]
        return self.e.finish(results)

    # ---- tensors ----------------------------------------------------------------------

    def _float(self, index: int, what: str) -> Tensor:
        t = self.tensors[index]
        if t.dtype != self.s.TensorType.FLOAT32 or t.scale is not None:
            raise TFLiteImportError(f"{what} must be a float32 tensor (tensor {index})")
        return t

    def _value(self, index: int, op: str) -> Value:
        """The value of tensor `index`; a constant becomes a `stablehlo.constant`."""
        if index not in self.values:
            t = self.tensors[index] if 0 <= index < len(self.tensors) else None
            if t is None or t.data is None:
                raise TFLiteImportError(f"{op} reads tensor {index} before anything produces it")
            if t.data.dtype == np.float32:
                self.values[index] = self.e.const(t.data, "f32")
            elif t.data.dtype in (np.int32, np.int64) and t.scale is None:
                self.values[index] = self.e.const(t.data, "i32" if t.data.dtype == np.int32
                                                  else "i64")  # fmt: skip
            else:
                raise TFLiteImportError(
                    f"{op} reads constant tensor {index} of {t.data.dtype} (quantized or "
                    "float16 constants are read through DEQUANTIZE)"
                )
        return self.values[index]

    def _weights(self, index: int, what: str) -> np.ndarray:
        t = self.tensors[index]
        if t.data is None or t.data.dtype != np.float32 or t.scale is not None:
            raise TFLiteImportError(
                f"{what} must be a constant float32 tensor (tensor {index}); dynamic-range "
                "(hybrid) quantized models are not imported"
            )
        return t.data

    def _splat(self, value: float, like: Value) -> Value:
        return self.e.splat(np.float32(value), like.shape, "f32")

    def _broadcast(self, index: int, shape: tuple[int, ...], op: str) -> Value:
        """An elementwise operand at `shape`, numpy's broadcasting as `broadcast_in_dim`."""
        value = self._value(index, op)
        if value.shape == tuple(shape):
            return value
        try:
            fits = np.broadcast_shapes(value.shape, shape) == tuple(shape)
        except ValueError:
            fits = False
        if not fits:
            raise TFLiteImportError(f"{list(value.shape)} does not broadcast to {list(shape)}")
        offset = len(shape) - len(value.shape)
        kept = [d for d in range(len(value.shape)) if value.shape[d] == shape[offset + d]]
        if len(kept) < len(value.shape):
            value = self.e.reshape(value, [value.shape[d] for d in kept])
        return self.e.broadcast(value, shape, [offset + d for d in kept])

    def _activation(self, y: Value, code: int) -> Value:
        """A fused activation on float values."""
        act = self.s.ActivationFunctionType
        if code == act.NONE:
            return y
        if code == act.RELU:
            return self.e.binary("maximum", y, self._splat(0.0, y))
        if code == act.RELU6:
            return self.e.clamp(self._splat(0.0, y), y, self._splat(6.0, y))
        if code == act.RELU_N1_TO_1:
            return self.e.clamp(self._splat(-1.0, y), y, self._splat(1.0, y))
        if code == act.TANH:
            return self.e.unary("tanh", y)
        raise TFLiteImportError(f"fused activation {code} is not supported")

    def _fused(self, op) -> int:
        return int(getattr(op.builtinOptions, "fusedActivationFunction", 0) or 0)

    # ---- convolutions and matrix products ------------------------------------------------

    def _bias(self, y: Value, inputs: list[int], n_out: int) -> Value:
        if len(inputs) < 3 or inputs[2] < 0:
            return y
        bias = self._weights(inputs[2], "the bias")
        if bias.size != n_out:
            raise TFLiteImportError(f"{bias.size} bias values for {n_out} output channels")
        b = self.e.broadcast(self.e.const(bias.reshape(n_out), "f32"), y.shape, [len(y.shape) - 1])
        return self.e.binary("add", y, b)

    def _conv_like(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        x, out = self._float(inputs[0], "the input"), self._float(out_index, "the output")
        w = self._weights(inputs[1], "the filter")
        n_out = out.shape[-1]
        if kind == "FULLY_CONNECTED":
            self._fully_connected(op, inputs, out_index, x, out, w)
            return
        if len(w.shape) != 4 or len(x.shape) != 4:
            raise TFLiteImportError(
                f"input {list(x.shape)} and filter {list(w.shape)} have the wrong ranks for {kind}"
            )
        o = op.builtinOptions
        stride, dilation = (o.strideH, o.strideW), (o.dilationHFactor, o.dilationWFactor)
        channels = x.shape[3]
        if kind == "CONV_2D":  # [O, KH, KW, I] -> HWIO; fewer I than channels: groups
            if w.shape[0] != n_out or w.shape[3] <= 0 or channels % w.shape[3]:
                raise TFLiteImportError(
                    f"filter {list(w.shape)} does not fit input {list(x.shape)} and {n_out} "
                    "output channels"
                )
            hwio, groups = w.transpose(1, 2, 3, 0), channels // w.shape[3]
        else:  # [1, KH, KW, C x M] -> [KH, KW, 1, C x M], one group per channel
            self._filter_fits(kind, x.shape, w.shape, n_out)
            hwio, groups = w.reshape((*w.shape[1:3], 1, n_out)), channels
        kernel = hwio.shape[:2]
        pad = self._padding(o.padding, x.shape[1:3], kernel, stride, dilation)
        y = self.e.convolution(
            self._value(inputs[0], kind), self.e.const(np.ascontiguousarray(hwio), "f32"),
            out.shape, stride, [(pad[0], pad[1]), (pad[2], pad[3])], dilation, groups,
            layout="NHWC",
        )  # fmt: skip
        self.values[out_index] = self._activation(self._bias(y, inputs, n_out), self._fused(op))

    def _fully_connected(self, op, inputs: list[int], out_index: int, x: Tensor, out: Tensor,
                         w: np.ndarray) -> None:  # fmt: skip
        n_out = out.shape[-1]
        self._filter_fits("FULLY_CONNECTED", x.shape, w.shape, n_out)
        k = w.shape[1]
        rows = math.prod(x.shape) // k
        a = self.e.reshape(self._value(inputs[0], "FULLY_CONNECTED"), (rows, k))
        b = self.e.const(np.ascontiguousarray(w.T), "f32")
        y = self._bias(self.e.dot_general(a, b, (rows, n_out), ([1], [0])), inputs, n_out)
        y = self._activation(y, self._fused(op))
        if math.prod(out.shape) != rows * n_out:
            raise TFLiteImportError(f"output {list(out.shape)} does not hold {rows}x{n_out}")
        self.values[out_index] = y if y.shape == out.shape else self.e.reshape(y, out.shape)

    _op_conv_2d = _conv_like
    _op_depthwise_conv_2d = _conv_like
    _op_fully_connected = _conv_like

    # ---- elementwise ------------------------------------------------------------------

    def _binary(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        out = self._float(out_index, "the output")
        a, b = (self._broadcast(i, out.shape, kind) for i in inputs[:2])
        y = self.e.binary(_BINARY[kind], a, b)
        self.values[out_index] = self._activation(y, self._fused(op))

    _op_add = _op_sub = _op_mul = _op_div = _op_maximum = _op_minimum = _binary

    def _op_squared_difference(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        out = self._float(out_index, "the output")
        a, b = (self._broadcast(i, out.shape, kind) for i in inputs[:2])
        d = self.e.binary("subtract", a, b)
        self.values[out_index] = self.e.binary("multiply", d, d)

    def _unary(self, op, kind: str, fn: Callable[[Value], Value]) -> None:
        inputs, out_index = self._io(op, 1)
        self._float(inputs[0], "the input")
        self._float(out_index, "the output")
        self.values[out_index] = fn(self._value(inputs[0], kind))

    def _op_logistic(self, op, kind: str) -> None:
        self._unary(op, kind, lambda x: self.e.unary(_UNARY[kind], x))

    _op_tanh = _op_exp = _op_log = _op_sqrt = _op_rsqrt = _op_abs = _op_neg = _op_logistic

    def _op_relu(self, op, kind: str) -> None:
        act = self.s.ActivationFunctionType
        code = {"RELU": act.RELU, "RELU6": act.RELU6, "RELU_N1_TO_1": act.RELU_N1_TO_1}[kind]
        self._unary(op, kind, lambda x: self._activation(x, code))

    _op_relu6 = _op_relu_n1_to_1 = _op_relu

    def _op_leaky_relu(self, op, kind: str) -> None:
        """x if x > 0 else alpha x (LiteRT's comparison)."""
        alpha = float(op.builtinOptions.alpha)

        def leaky(x: Value) -> Value:
            scaled = self.e.binary("multiply", x, self._splat(alpha, x))
            return self.e.select(self.e.compare("GT", x, self._splat(0.0, x)), x, scaled)

        self._unary(op, kind, leaky)

    def _op_hard_swish(self, op, kind: str) -> None:
        """LiteRT's float HardSwish: x * min(max(x + 3, 0), 6) / 6."""

        def hard_swish(x: Value) -> Value:
            shifted = self.e.binary("add", x, self._splat(3.0, x))
            relu6 = self.e.clamp(self._splat(0.0, x), shifted, self._splat(6.0, x))
            return self.e.binary("divide", self.e.binary("multiply", x, relu6),
                                 self._splat(6.0, x))  # fmt: skip

        self._unary(op, kind, hard_swish)

    def _op_gelu(self, op, kind: str) -> None:
        """GELU: 0.5 x (1 + erf(x / sqrt 2)), or with `approximate` the tanh form
        0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))."""
        approximate = bool(getattr(op.builtinOptions, "approximate", False))

        def gelu(x: Value) -> Value:
            if approximate:
                cube = self.e.binary("multiply", self.e.binary("multiply", x, x), x)
                inner = self.e.binary("add", x, self.e.binary("multiply", cube,
                                                              self._splat(0.044715, x)))  # fmt: skip
                core = self.e.unary("tanh", self.e.binary(
                    "multiply", inner, self._splat(math.sqrt(2 / math.pi), x)))  # fmt: skip
            else:
                core = self.e.erf(self.e.binary("multiply", x, self._splat(math.sqrt(0.5), x)))
            half = self.e.binary("multiply", x, self._splat(0.5, x))
            return self.e.binary("multiply", half, self.e.binary("add", core, self._splat(1.0, x)))

        self._unary(op, kind, gelu)

    def _op_softmax(self, op, kind: str) -> None:
        """exp(beta (x - max)) / sum along the last axis."""
        beta = float(op.builtinOptions.beta) if op.builtinOptions is not None else 1.0

        def softmax(x: Value) -> Value:
            last = len(x.shape) - 1
            keep = list(range(last))
            top = self.e.reduce(x, self.e.const(np.float32(-np.inf), "f32"), [last], "maximum")
            centred = self.e.binary("subtract", x, self.e.broadcast(top, x.shape, keep))
            if beta != 1.0:
                centred = self.e.binary("multiply", centred, self._splat(beta, x))
            e = self.e.unary("exponential", centred)
            total = self.e.reduce(e, self.e.const(np.float32(0), "f32"), [last], "add")
            return self.e.binary("divide", e, self.e.broadcast(total, x.shape, keep))

        self._unary(op, kind, softmax)

    # ---- reductions and pooling ---------------------------------------------------------

    def _reduce(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        x = self._float(inputs[0], "the input")
        out = self._float(out_index, "the output")
        axes = self._constant(inputs[1]).reshape(-1)
        rank = len(x.shape)
        if not all(-rank <= int(a) < rank for a in axes):
            raise TFLiteImportError(f"{kind} axes {axes.tolist()} are out of range")
        reduced = sorted({int(a) % rank for a in axes})
        name, init = {"MEAN": ("add", 0.0), "SUM": ("add", 0.0),
                      "REDUCE_MAX": ("maximum", -np.inf),
                      "REDUCE_MIN": ("minimum", np.inf)}[kind]  # fmt: skip
        value = self._value(inputs[0], kind)
        y = self.e.reduce(value, self.e.const(np.float32(init), "f32"), reduced, name)
        if kind == "MEAN":
            count = math.prod(x.shape[a] for a in reduced)
            y = self.e.binary("divide", y, self._splat(float(count), y))
        if math.prod(out.shape) != math.prod(y.shape):
            raise TFLiteImportError(f"output {list(out.shape)} does not fit {list(y.shape)}")
        self.values[out_index] = y if y.shape == out.shape else self.e.reshape(y, out.shape)

    _op_mean = _op_sum = _op_reduce_max = _op_reduce_min = _reduce

    def _pool(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 1)
        x, out = self._float(inputs[0], "the input"), self._float(out_index, "the output")
        if len(x.shape) != 4:
            raise TFLiteImportError(f"pools NHWC tensors, not {list(x.shape)}")
        o = op.builtinOptions
        kernel, stride = [o.filterHeight, o.filterWidth], [o.strideH, o.strideW]
        pad = self._padding(o.padding, x.shape[1:3], kernel, stride, (1, 1))
        pads = [(0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)]
        value = self._value(inputs[0], kind)
        maximum = kind == "MAX_POOL_2D"
        init = self.e.const(np.float32(-np.inf if maximum else 0.0), "f32")
        y = self.e.reduce_window(value, init, [1, *kernel, 1], [1, *stride, 1], [1] * 4, pads,
                                 "maximum" if maximum else "add")  # fmt: skip
        if y.shape != out.shape:
            raise TFLiteImportError(f"pooling gives {list(y.shape)}, the model {list(out.shape)}")
        if not maximum:  # divided by the taps inside the image, as TFLite counts them
            counts = _tap_counts(x.shape[1:3], kernel, stride, pad, out.shape[1:3])
            y = self.e.binary("divide", y, self.e.broadcast(self.e.const(counts, "f32"),
                                                            y.shape, [1, 2]))  # fmt: skip
        self.values[out_index] = self._activation(y, self._fused(op))

    _op_max_pool_2d = _op_average_pool_2d = _pool

    # ---- data movement ----------------------------------------------------------------

    def _op_pad(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        x = self._float(inputs[0], "the input")
        amounts = self._constant(inputs[1])
        if amounts.shape != (len(x.shape), 2):
            raise TFLiteImportError("the paddings must be a constant [rank, 2] tensor")
        fill = np.float32(0)
        if kind == "PADV2" and len(inputs) > 2:
            fill = np.float32(self._weights(inputs[2], "the pad value").reshape(-1)[0])
        value = self._value(inputs[0], kind)
        self.values[out_index] = self.e.pad(value, self.e.const(fill, "f32"),
                                            [int(v) for v in amounts[:, 0]],
                                            [int(v) for v in amounts[:, 1]])  # fmt: skip

    _op_padv2 = _op_pad

    def _op_concatenation(self, op, kind: str) -> None:
        out_index = int(op.outputs[0])
        out = self._float(out_index, "the output")
        axis = int(op.builtinOptions.axis) % len(out.shape)
        parts = [self._value(int(i), kind) for i in op.inputs]
        y = self.e.concatenate(parts, axis)
        self.values[out_index] = self._activation(y, self._fused(op))

    def _op_reshape(self, op, kind: str) -> None:
        """RESHAPE, SQUEEZE, EXPAND_DIMS move no values: a reshape to the output's shape
        (folded for the integer constants of shape arithmetic)."""
        x_index, out_index = int(op.inputs[0]), int(op.outputs[0])
        x, out = self.tensors[x_index], self.tensors[out_index]
        if math.prod(x.shape) != math.prod(out.shape):
            raise TFLiteImportError(f"cannot reshape {list(x.shape)} to {list(out.shape)}")
        if x.data is not None and x.data.dtype.kind == "i" and x.scale is None:
            self._fold(out_index, x.data.reshape(out.shape))
            return
        self.values[out_index] = self.e.reshape(self._value(x_index, kind), out.shape)

    _op_squeeze = _op_expand_dims = _op_reshape

    def _op_transpose(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 2)
        x = self._float(inputs[0], "the input")
        perm = [int(p) for p in self._constant(inputs[1]).reshape(-1)]
        if sorted(perm) != list(range(len(x.shape))):
            raise TFLiteImportError("the permutation must be a constant of the input's axes")
        self.values[out_index] = self.e.transpose(self._value(inputs[0], kind), perm)

    def _op_strided_slice(self, op, kind: str) -> None:
        x_index, out_index = int(op.inputs[0]), int(op.outputs[0])
        x = self.tensors[x_index]
        begin, end, strides, _ = self._slice_spec(op, x.shape)
        if x.data is not None and x.data.dtype.kind == "i" and x.scale is None:
            picked = x.data[tuple(slice(b, e, s) for b, e, s in zip(begin, end, strides,
                                                                    strict=True))]  # fmt: skip
            self._fold(out_index, picked.reshape(self.tensors[out_index].shape))
            return
        self._float(x_index, "the input")
        out = self._float(out_index, "the output")
        end = [max(e, b) for b, e in zip(begin, end, strict=True)]
        y = self.e.slice(self._value(x_index, kind), begin, end, strides)
        self.values[out_index] = y if y.shape == out.shape else self.e.reshape(y, out.shape)

    def _op_slice(self, op, kind: str) -> None:
        inputs, out_index = self._io(op, 3)
        x = self._float(inputs[0], "the input")
        begin = [int(v) for v in self._constant(inputs[1]).reshape(-1)]
        size = [int(v) for v in self._constant(inputs[2]).reshape(-1)]
        if len(begin) != len(x.shape) or len(size) != len(x.shape):
            raise TFLiteImportError("begin and size must cover every axis")
        size = [d - b if s == -1 else s for b, s, d in zip(begin, size, x.shape, strict=True)]
        if any(b < 0 or s < 0 or b + s > d for b, s, d in zip(begin, size, x.shape, strict=True)):
            raise TFLiteImportError(f"slice {begin} + {size} lies outside {list(x.shape)}")
        limit = [b + s for b, s in zip(begin, size, strict=True)]
        self.values[out_index] = self.e.slice(self._value(inputs[0], kind), begin, limit)

    def _split(self, op, kind: str, x_index: int, axis_index: int, sizes: list[int] | None) -> None:
        x = self._float(x_index, "the input")
        axis = int(self._constant(axis_index).reshape(-1)[0]) % len(x.shape)
        outputs = [int(i) for i in op.outputs]
        sizes = self._split_sizes(x.shape[axis], len(outputs), sizes)
        value, start = self._value(x_index, kind), 0
        for size, index in zip(sizes, outputs, strict=True):
            begin, limit = [0] * len(x.shape), list(x.shape)
            begin[axis], limit[axis] = start, start + size
            self.values[index] = self.e.slice(value, begin, limit)
            start += size

    def _op_split(self, op, kind: str) -> None:
        self._split(op, kind, int(op.inputs[1]), int(op.inputs[0]), None)

    def _op_split_v(self, op, kind: str) -> None:
        sizes = [int(v) for v in self._constant(int(op.inputs[1])).reshape(-1)]
        self._split(op, kind, int(op.inputs[0]), int(op.inputs[2]), sizes)

    def _op_dequantize(self, op, kind: str) -> None:
        """A constant's float32 value, folded: float16 weights widened, int8 weights as
        scale x (q - zero point) along their axis."""
        inputs, out_index = self._io(op, 1)
        t = self.tensors[inputs[0]]
        if t.data is None:
            raise TFLiteImportError(
                "DEQUANTIZE of a computed tensor: the model has quantized activations, which "
                "the int8 importer reads (all of them quantized)"
            )
        if t.scale is None:
            value = t.data.astype(np.float32)
        else:
            shape = [1] * len(t.shape)
            if t.scale.size > 1:
                shape[t.axis] = t.scale.size
            zero_point = t.zero_point if t.zero_point is not None else np.zeros(1, np.int64)
            scale = t.scale.reshape(shape)
            zp = np.broadcast_to(zero_point, t.scale.shape).reshape(shape).astype(np.float32)
            value = (scale * (t.data.astype(np.float32) - zp)).astype(np.float32)
        self.tensors[out_index].data = value
        self.values[out_index] = self.e.const(value, "f32")


def _tap_counts(size, kernel, stride, pad, out) -> np.ndarray:
    """For each output position of a 2-D pool, how many window taps fall inside the image."""
    counts = []
    for n, k, s, lo, m in zip(size, kernel, stride, pad[::2], out, strict=True):
        start = np.arange(m) * s - lo
        counts.append(np.minimum(start + k, n) - np.maximum(start, 0))
    return np.outer(counts[0], counts[1]).astype(np.float32)
