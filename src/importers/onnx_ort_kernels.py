"""ONNX Runtime's quantized kernels (com.microsoft QLinear ops, and the QDQ groups it fuses
into them), written as MLAS computes them on x86-64 — a mixin of the ONNX importer.

Each method builds StableHLO-like ops through the importer's emitter (`self.e`);
`onnx_tosa.TosaImporter` overrides the kernels it writes as integer TOSA.
docs/onnx.md records each kernel's arithmetic and how it was measured.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from qdialect.importers import onnx_check, ort_float
from qdialect.importers.emitter import Value
from qdialect.importers.onnx_common import EIGHT_BIT, RANGE, ONNXImportError

if TYPE_CHECKING:
    from qdialect.importers.onnx_host import ImporterLike
else:
    ImporterLike = object  # only the type checker sees the mixin as an ImporterLike


class OrtKernels(ImporterLike):
    # ---- com.microsoft QLinear ops, and the QDQ groups ONNX Runtime fuses into them -------
    # Their arithmetic is MLAS's on x86-64 (docs/onnx.md): measured equal to ONNX Runtime on
    # every input pair, and different from the ONNX float formula in rare elements.

    def _operand(self, node, i: int) -> Value:
        """Input i as a value; an 8-bit initializer becomes a constant."""
        return self._materialized(node, node.input[i])

    def _materialized(self, node, name: str) -> Value:
        if name in self.constants and name not in self.values:
            array = self.constants[name]
            elem = EIGHT_BIT.get(array.dtype)
            if elem is None:
                raise ONNXImportError(f"node '{node.name}': constant '{name}' must be 8-bit")
            self.values[name] = self.e.const(array.astype(np.int64), elem)
        if name not in self.values:
            raise ONNXImportError(
                f"node '{node.name}' ({node.op_type}) reads '{name}' before anything defines it"
            )
        return self.values[name]

    def _broadcast_to(self, node, x: Value, shape: tuple[int, ...]) -> Value:
        if x.shape == shape:
            return x
        offset = len(shape) - len(x.shape)
        if offset < 0 or any(d not in (1, shape[offset + i]) for i, d in enumerate(x.shape)):
            raise ONNXImportError(
                f"node '{node.name}': {list(x.shape)} does not broadcast to {list(shape)}"
            )
        return self.e.broadcast(x, shape, range(offset, len(shape)))

    def _saturated(self, f: Value, out: str) -> Value:
        """A float32 value rounded half to even and saturated to the 8-bit type `out`."""
        lo, hi = (self.e.splat(np.float32(v), f.shape, "f32") for v in RANGE[out])
        f = self.e.unary("round_nearest_even", f, "f32")
        f = self.e.clamp(lo, f, hi)
        return self.e.unary("convert", self.e.unary("convert", f, "i32"), out)

    def _qadd(self, node, a: Value, s_a, z_a, b: Value, s_b, z_b, s_c, z_c,
              out: str) -> Value:  # fmt: skip
        """QLinearAdd as MLAS's AVX2 kernel computes it: r_a = s_a / s_c and r_b = s_b / s_c
        in float32, fixed = z_c - fma(r_a, z_a, r_b z_b), then fma(a, r_a, fma(b, r_b, fixed))
        rounded half to even and saturated. A fused multiply-add rounds the exact a r + c
        once; float64 holds that exact value for 8-bit a and r in [2^-14, 2^8), so each is
        a float64 multiply and add and one conversion to float32. Broadcast operands (a
        scalar, per-channel [C,1,1]) take MLAS's scalar path, measured to compute the same
        values (test_qlinear_add_broadcasts_match_onnxruntime)."""
        shape = self._broadcast_shape(node, a, b)
        f32 = np.float32
        s_a, z_a, s_b, z_b, s_c, z_c = (
            float(v.reshape(-1)[0]) for v in (s_a, z_a, s_b, z_b, s_c, z_c)
        )
        ratio_a, ratio_b = f32(f32(s_a) / f32(s_c)), f32(f32(s_b) / f32(s_c))
        for ratio in (ratio_a, ratio_b):
            if not 2.0**-14 <= ratio < 256.0:
                raise ONNXImportError(
                    f"node '{node.name}': scale ratio {float(ratio)!r} is outside MLAS's "
                    "QLinearAdd range [2^-14, 2^8)"
                )
        inner = f32(np.float64(ratio_a) * z_a + np.float64(f32(ratio_b * f32(z_b))))
        fixed = f32(f32(z_c) - inner)

        def fma(x: Value, ratio: np.float32, addend: Value) -> Value:
            wide = self.e.unary("convert", self._broadcast_to(node, x, shape), "f64")
            product = self.e.binary("multiply", wide, self.e.splat(np.float64(ratio), shape, "f64"))
            return self.e.unary("convert", self.e.binary("add", product, addend), "f32")

        partial = fma(b, ratio_b, self.e.splat(np.float64(fixed), shape, "f64"))
        return self._saturated(fma(a, ratio_a, self.e.unary("convert", partial, "f64")), out)

    def _qmul(self, node, a: Value, s_a, z_a, b: Value, s_b, z_b, s_c, z_c,
              out: str) -> Value:  # fmt: skip
        """QLinearMul as MLAS's SSE2 kernel computes it on x86-64: the int32 product of the
        centred operands, times float32 (s_a s_b) / s_c, plus z_c (two roundings), rounded
        half to even and saturated. Element by element, so any broadcast computes alike."""
        shape = self._broadcast_shape(node, a, b)
        f32 = np.float32
        ratio = f32(
            f32(f32(s_a.reshape(-1)[0]) * f32(s_b.reshape(-1)[0])) / f32(s_c.reshape(-1)[0])
        )
        product = self.e.binary(
            "multiply",
            self._widen(self._broadcast_to(node, a, shape), int(z_a.reshape(-1)[0])),
            self._widen(self._broadcast_to(node, b, shape), int(z_b.reshape(-1)[0])),
        )
        f = self.e.unary("convert", product, "f32")
        f = self.e.binary("multiply", f, self.e.splat(ratio, shape, "f32"))
        f = self.e.binary("add", f, self.e.splat(f32(z_c.reshape(-1)[0]), shape, "f32"))
        return self._saturated(f, out)

    def _qglobal_average_pool(self, node, x: Value, s_x, z_x, s_y, z_y, out: str,
                              channels_last: bool = False) -> Value:  # fmt: skip
        """QLinearGlobalAveragePool (MLAS, x86-64): the int32 sum of x - z_x over the image,
        times float32 s_x / (s_y count), requantized like a convolution's output."""
        if len(x.shape) != 4 or x.elem not in RANGE:
            raise ONNXImportError(f"node '{node.name}': needs 8-bit NCHW (or NHWC) data")
        spatial = [1, 2] if channels_last else [2, 3]
        count = x.shape[spatial[0]] * x.shape[spatial[1]]
        n, c = x.shape[0], x.shape[3 if channels_last else 1]
        centred = self._widen(x, int(z_x.reshape(-1)[0]))
        zero = self.e.const(np.array(0), "i32")
        total = self.e.reduce(centred, zero, spatial, "add")
        f32 = np.float32
        scale = f32(f32(s_x.reshape(-1)[0]) / f32(f32(s_y.reshape(-1)[0]) * f32(count)))
        y = self._requantize(total, np.array([scale]), int(z_y.reshape(-1)[0]), 1, False, out)
        return self._reshaped(node, y, (n, 1, 1, c) if channels_last else (n, c, 1, 1))

    def _ms_QLinearAdd(self, node) -> None:
        self.values[node.output[0]] = self._qadd(node, self._operand(node, 0), *self._scale_zp(node, 1),
                                                 self._operand(node, 3), *self._scale_zp(node, 4),
                                                 *self._scale_zp(node, 6), self._storage(node, 7))  # fmt: skip

    def _ms_QLinearMul(self, node) -> None:
        self.values[node.output[0]] = self._qmul(node, self._operand(node, 0), *self._scale_zp(node, 1),
                                                 self._operand(node, 3), *self._scale_zp(node, 4),
                                                 *self._scale_zp(node, 6), self._storage(node, 7))  # fmt: skip

    def _ms_QLinearGlobalAveragePool(self, node) -> None:
        channels_last = bool(self._attrs(node).get("channels_last", 0))
        self.values[node.output[0]] = self._qglobal_average_pool(
            node, self._input(node, 0), *self._scale_zp(node, 1), *self._scale_zp(node, 3),
            self._storage(node, 4), channels_last,
        )  # fmt: skip

    def _ms_QGemm(self, node) -> None:
        """QGemm with a constant B: the int32 product plus the int32 C, requantized by
        float32 ((alpha s_a) s_b) / s_y (ONNX Runtime's order)."""
        a = self._attrs(node)
        if a.get("transA", 0) or len(node.input) < 9 or not node.input[7]:
            raise ONNXImportError(f"node '{node.name}': QGemm needs transA = 0 and an 8-bit output")
        b = self._const_input(node, 3, "B")
        s_a, z_a = self._scale_zp(node, 1)
        s_b, z_b = self._scale_zp(node, 4)
        if a.get("transB", 0):
            b = b.T
        bias = self._const_input(node, 6, "C") if node.input[6] else None
        s_y, z_y = self._scale_zp(node, 7)
        alpha = np.float32(a.get("alpha", 1.0))
        self.values[node.output[0]] = self._qgemm(node, self._input(node, 0), s_a * alpha, z_a, b,
                                                  s_b, z_b, bias, s_y, z_y, False,
                                                  self._storage(node, 8))  # fmt: skip

    def _qgemm(self, node, a: Value, s_a, z_a, b: np.ndarray, s_b, z_b, bias, s_y, z_y,
               relu: bool, out: str) -> Value:  # fmt: skip
        acc = self._matmul_acc(node, a, z_a, b, z_b)
        if bias is not None:
            acc = self.e.binary(
                "add",
                acc,
                self._broadcast_to(
                    node, self.e.const(onnx_check.int32_bias(node, bias), "i32"), acc.shape
                ),
            )
        scale = ort_float.requant_scale(s_a, s_b, s_y)
        return self._requantize(acc, scale, int(z_y.reshape(-1)[0]), 1, relu, out)

    # ---- 8-bit activations: a float function of one 8-bit value is a 256-entry table ------

    _ACTIVATIONS = {
        "Sigmoid": lambda node, attrs: ort_float.logistic,
        "HardSwish": lambda node, attrs: ort_float.hard_swish,
        "Tanh": lambda node, attrs: ort_float.tanh,
        "HardSigmoid": lambda node, attrs: (
            lambda x: ort_float.hard_sigmoid(x, attrs.get("alpha", 0.2), attrs.get("beta", 0.5))
        ),
    }

    def _activation_table(self, fn, s_x, z_x, x_elem: str, s_y, z_y, out: str) -> np.ndarray:
        """ONNX Runtime's float32 arithmetic (ort_float) on every 8-bit input, in the order
        the lookup indexes them (-128..127 for int8, 0..255 for uint8)."""
        lo, hi = RANGE[x_elem]
        inputs = ort_float.dequantize(np.arange(lo, hi + 1), float(s_x.reshape(-1)[0]),
                                      int(z_x.reshape(-1)[0]))  # fmt: skip
        with np.errstate(over="ignore", invalid="ignore"):
            values = fn(inputs)
        return ort_float.quantize(values, float(s_y.reshape(-1)[0]), int(z_y.reshape(-1)[0]),
                                  *RANGE[out])  # fmt: skip

    def _lookup(self, node, x: Value, table: np.ndarray, out: str) -> Value:
        """table[x] (indexed from the type's minimum) with `stablehlo.gather`."""
        if x.elem not in RANGE:
            raise ONNXImportError(f"node '{node.name}': a lookup needs 8-bit input")
        index = self.e.unary("convert", x, "i32")
        if x.elem == "i8":
            index = self.e.binary("add", index, self.e.splat(np.int64(128), x.shape, "i32"))
        return self._gathered(node, index, table.astype(np.int64), out)

    def _gathered(self, node, index: Value, table: np.ndarray, elem: str) -> Value:
        """table[index] for an i32 index tensor, with `stablehlo.gather`."""
        return self.e.gather_rows(self.e.const(table, elem), index)

    # ---- softmax -----------------------------------------------------------------------

    def _ms_QLinearSoftmax(self, node) -> None:
        attrs = self._attrs(node)
        opset = int(attrs.get("opset", self.opset))
        self.values[node.output[0]] = self._qsoftmax(
            node, self._input(node, 0), self._scale_zp(node, 1)[0], *self._scale_zp(node, 3),
            self._storage(node, 4), opset, attrs.get("axis"),
        )  # fmt: skip

    def _op_Softmax(self, node) -> None:
        if node.input[0] not in self.dq:
            self._float_softmax(node, log=False)
            return
        x, s_x, _, s_y, z_y, out, target = self._unary_group(node)
        self.values[target] = self._qsoftmax(node, x, s_x, s_y, z_y, out, self.opset,
                                             self._attrs(node).get("axis"))  # fmt: skip

    def _qsoftmax(self, node, x: Value, s_x, s_y, z_y, out: str, opset: int, axis) -> Value:
        """QLinearSoftmax as ONNX Runtime computes it: rows along `axis` (opset 13 on; before,
        everything from `axis` on); per row, float32 exp values from a 256-entry table
        indexed by x - max + 255 (exp((i - 255) s_x + shift) in double, shift =
        max(0, log(FLT_MAX / D) - 5)), summed left to right in float32; each output
        round((v * floor(1 / s_y)) / sum) + z_y, saturated."""
        if x.elem not in RANGE:
            raise ONNXImportError(f"node '{node.name}': needs 8-bit input")
        rank = len(x.shape)
        axis = int(axis if axis is not None else (-1 if opset >= 13 else 1)) % rank
        if opset >= 13:
            perm = list(range(rank))
            perm[axis], perm[-1] = perm[-1], perm[axis]
            rows = self._transposed(x, perm) if axis != rank - 1 else x
        else:
            perm = None
            rows = self._reshaped(node, x, (math.prod(x.shape[:axis]), math.prod(x.shape[axis:])))
        shape, depth = rows.shape, rows.shape[-1]
        f32 = np.float32
        scale = float(f32(s_x.reshape(-1)[0]))
        shift = max(0.0, math.log(float(np.finfo(np.float32).max) / depth) - 5) / scale
        table = np.array([math.exp((i - 255 + shift) * scale) for i in range(256)], np.float32)
        wide = self.e.unary("convert", rows, "i32")
        low = self.e.const(np.array(RANGE[rows.elem][0]), rows.elem)
        top = self.e.reduce(rows, low, [len(shape) - 1], "maximum")
        top = self._broadcast_rows(self.e.unary("convert", top, "i32"), shape)
        index = self.e.binary("add", self.e.binary("subtract", wide, top),
                             self.e.splat(np.int64(255), shape, "i32"))  # fmt: skip
        exp = self._gathered(node, index, table, "f32")
        total = None  # left to right, as the kernel's loop adds
        for j in range(depth):
            column = self.e.slice(exp, [0] * (len(shape) - 1) + [j], [*shape[:-1], j + 1])
            total = column if total is None else self.e.binary("add", total, column)
        total = self._broadcast_to(node, total, shape)
        step = f32(math.floor(f32(1.0) / f32(s_y.reshape(-1)[0])))
        y = self.e.binary("multiply", exp, self.e.splat(step, shape, "f32"))
        y = self.e.unary("round_nearest_even", self.e.binary("divide", y, total), "f32")
        q = self.e.binary("add", self.e.unary("convert", y, "i32"),
                         self.e.splat(np.int64(z_y.reshape(-1)[0]), shape, "i32"))  # fmt: skip
        lo, hi = (self.e.splat(np.int64(v), shape, "i32") for v in RANGE[out])
        q = self.e.clamp(lo, q, hi)
        result = self.e.unary("convert", q, out)
        if perm is None:
            return self._reshaped(node, result, x.shape)
        return self._transposed(result, perm) if axis != rank - 1 else result

    def _broadcast_rows(self, v: Value, shape: tuple[int, ...]) -> Value:
        """A per-row value (shape without the last axis) broadcast along the last axis."""
        return self.e.broadcast(v, shape, range(len(shape) - 1))

    def _ms_QLinearSigmoid(self, node) -> None:
        x = self._input(node, 0)
        s_x, z_x = self._scale_zp(node, 1)
        s_y, z_y = self._scale_zp(node, 3)
        out = self._storage(node, 4)
        table = self._activation_table(ort_float.logistic, s_x, z_x, x.elem, s_y, z_y, out)
        self.values[node.output[0]] = self._lookup(node, x, table, out)

    def _activation_group(self, node) -> None:
        """DequantizeLinear -> Sigmoid / HardSwish / HardSigmoid -> QuantizeLinear: the float
        activation ONNX Runtime runs (or fuses, for Sigmoid) as a table."""
        x, s_x, z_x, s_y, z_y, out, target = self._unary_group(node)
        fn = self._ACTIVATIONS[node.op_type](node, self._attrs(node))
        table = self._activation_table(fn, s_x, z_x, x.elem, s_y, z_y, out)
        self.values[target] = self._lookup(node, x, table, out)

    _op_Sigmoid = _op_HardSwish = _op_HardSigmoid = _op_Tanh = _activation_group

    # ---- data movement: Concat, Transpose, Pad ---------------------------------------------

    def _requantized(self, node, x: Value, s_x, z_x, s_y, z_y, out: str) -> Value:
        """x in another quantization as ONNX Runtime moves it: a copy when scale and zero
        point are equal, else its table — dequantize, then QuantizeLinear."""
        same = float(s_x.reshape(-1)[0]) == float(s_y.reshape(-1)[0]) and int(
            z_x.reshape(-1)[0]
        ) == int(z_y.reshape(-1)[0])
        if same and x.elem == out:
            return x
        table = self._activation_table(lambda v: v, s_x, z_x, x.elem, s_y, z_y, out)
        return self._lookup(node, x, table, out)

    def _concat(self, node, parts: list[Value], axis: int) -> Value:
        _, axis = self._concat_shape(node, parts, axis)
        if any(p.elem != parts[0].elem for p in parts):
            raise ONNXImportError(f"node '{node.name}': inputs of different types")
        return self.e.concatenate(parts, axis)

    @staticmethod
    def _concat_shape(node, parts: list[Value], axis: int) -> tuple[list[int], int]:
        """(the result's shape, the axis made non-negative); the parts must agree on every
        other axis."""
        if not parts:
            raise ONNXImportError(f"{onnx_check.node_label(node)}: nothing to concatenate")
        rank = len(parts[0].shape)
        axis = onnx_check.axis(node, axis, rank)
        if any(
            len(p.shape) != rank or any(d != e for i, (d, e) in enumerate(
                zip(p.shape, parts[0].shape, strict=True)) if i != axis)
            for p in parts
        ):  # fmt: skip
            shapes = ", ".join(str(list(p.shape)) for p in parts)
            raise ONNXImportError(
                f"{onnx_check.node_label(node)}: inputs {shapes} differ off axis {axis}"
            )
        shape = list(parts[0].shape)
        shape[axis] = sum(p.shape[axis] for p in parts)
        return shape, axis

    def _ms_QLinearConcat(self, node) -> None:
        """Each input requantized to the output's parameters (ONNX Runtime's per-input table,
        or a copy), then concatenated."""
        s_y, z_y = self._scale_zp(node, 0)
        out = self._storage(node, 1)
        parts = [
            self._requantized(node, self._operand(node, j), *self._scale_zp(node, j + 1), s_y,
                              z_y, out)
            for j in range(2, len(node.input), 3)
        ]  # fmt: skip
        self.values[node.output[0]] = self._concat(node, parts, self._concat_axis(node))

    def _concat_axis(self, node) -> int:
        attrs = self._attrs(node)
        if "axis" not in attrs:
            raise ONNXImportError(f"{onnx_check.node_label(node)}: needs an axis")
        return int(attrs["axis"])

    def _op_Concat(self, node) -> None:
        axis = self._concat_axis(node)
        if not all(name in self.dq for name in node.input):
            self.values[node.output[0]] = self._concat(
                node, [self._operand(node, i) for i in range(len(node.input))], axis
            )
            return
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        if relu:
            raise ONNXImportError(f"node '{node.name}': a Relu after Concat is not fused")
        parts = []
        for i, name in enumerate(node.input):
            x, s_x, z_x = self._dequantized(node, i, f"input {i}")
            if isinstance(x, np.ndarray):
                x = self._materialized(node, self.dq[name][0])
            parts.append(self._requantized(node, x, s_x, z_x, s_y, z_y, self._storage(q, 2)))
        self.values[q.output[0]] = self._concat(node, parts, axis)

    def _op_Transpose(self, node) -> None:
        x, target = self._passthrough(node)
        perm = list(self._attrs(node).get("perm", range(len(x.shape) - 1, -1, -1)))
        perm = onnx_check.permutation(node, perm, len(x.shape))
        self.values[target] = self._transposed(x, perm)

    def _transposed(self, x: Value, perm: list[int]) -> Value:
        return self.e.transpose(x, perm)

    def _op_Pad(self, node) -> None:
        """Constant padding of 8-bit values. Between Q/DQ ONNX Runtime pads the dequantized
        float and quantizes: the values requantized (a copy for equal parameters) and the
        pad value quantized to the output."""
        attrs = self._attrs(node)
        mode = attrs.get("mode", b"constant")
        if (mode.decode() if isinstance(mode, bytes) else mode) != "constant":
            raise ONNXImportError(f"node '{node.name}': only constant padding is supported")
        pads = [int(v) for v in (self._const_input(node, 1, "pads") if len(node.input) > 1
                                 else attrs.get("pads", []))]  # fmt: skip
        if len(node.input) > 3 and node.input[3]:
            raise ONNXImportError(f"node '{node.name}': Pad with axes is not supported")
        value = (
            self._const_input(node, 2, "constant value").reshape(-1)[0]
            if len(node.input) > 2 and node.input[2]
            else 0
        )
        if node.input[0] in self.dq:
            x, s_x, z_x, s_y, z_y, out, target = self._unary_group(node)
            x = self._requantized(node, x, s_x, z_x, s_y, z_y, out)
            fill = int(ort_float.quantize(np.float32(value), float(s_y.reshape(-1)[0]),
                                          int(z_y.reshape(-1)[0]), *RANGE[out]))  # fmt: skip
        else:
            x, fill, target = self._input(node, 0), int(value), node.output[0]
        rank = len(x.shape)
        if len(pads) != 2 * rank or min(pads) < 0 or x.elem not in RANGE:
            raise ONNXImportError(
                f"node '{node.name}': needs 8-bit data and {2 * rank} non-negative pads"
            )
        self.values[target] = self._padded(x, pads[:rank], pads[rank:], fill)

    def _padded(self, x: Value, low: list[int], high: list[int], fill: int) -> Value:
        return self.e.pad(x, self.e.const(np.array(fill), x.elem), low, high)

    # ---- average pooling ----------------------------------------------------------------

    def _ms_QLinearAveragePool(self, node) -> None:
        self.values[node.output[0]] = self._qaverage_pool(
            node, self._input(node, 0), *self._scale_zp(node, 1), *self._scale_zp(node, 3),
            self._storage(node, 4),
        )  # fmt: skip

    def _op_AveragePool(self, node) -> None:
        if node.input[0] not in self.dq:
            self._float_average_pool(node)
            return
        *operands, target = self._unary_group(node)
        self.values[target] = self._qaverage_pool(node, *operands)

    def _pool_geometry(self, node, x: Value):
        """(kernel, strides, pads [top, left, bottom, right], output H and W, channels_last)."""
        a = self._attrs(node)
        if a.get("ceil_mode", 0):
            raise ONNXImportError(f"node '{node.name}': ceil_mode is not supported yet")
        channels_last = bool(a.get("channels_last", 0))
        if len(x.shape) != 4:
            raise ONNXImportError(f"node '{node.name}': 2-D pooling of 4-D data only")
        if "kernel_shape" not in a:
            raise ONNXImportError(f"{onnx_check.node_label(node)}: needs kernel_shape")
        kernel = onnx_check.spatial(node, a, "kernel_shape", 2, 1, 1)
        strides = onnx_check.spatial(node, a, "strides", 2, 1, 1)
        if onnx_check.spatial(node, a, "dilations", 2, 1, 1) != [1, 1]:
            raise ONNXImportError(
                f"{onnx_check.node_label(node)}: dilated pooling is not supported"
            )
        size = x.shape[1:3] if channels_last else x.shape[2:]
        pads = self._pads(node, size, kernel, strides, [1, 1])
        oh, ow = onnx_check.pooled(node, size, kernel, strides, [1, 1], pads)
        return kernel, strides, pads, (oh, ow), channels_last

    def _qaverage_pool(self, node, x: Value, s_x, z_x, s_y, z_y, out: str) -> Value:
        """QLinearAveragePool as ONNX Runtime computes it: a window covering the image
        without padding is its global average pool; otherwise the input dequantized to
        float32, each window summed tap by tap in row-major order (float32 adds), divided
        by the count (the kernel size, or the in-bounds taps), then y / s_y + z_y rounded
        half to even and saturated."""
        kernel, strides, pads, (oh, ow), channels_last = self._pool_geometry(node, x)
        if x.elem not in RANGE:
            raise ONNXImportError(f"node '{node.name}': needs 8-bit data")
        size = x.shape[1:3] if channels_last else x.shape[2:]
        if list(size) == kernel and not any(pads):
            return self._qglobal_average_pool(node, x, s_x, z_x, s_y, z_y, out, channels_last)
        if kernel[0] * kernel[1] > onnx_check.MAX_TAPS:
            raise ONNXImportError(
                f"{onnx_check.node_label(node)}: a padded {kernel} window is summed tap by tap, "
                f"at most {onnx_check.MAX_TAPS} taps"
            )
        xc = x if not channels_last else self._transposed(x, [0, 3, 1, 2])
        f = self.e.unary("convert", self._widen(xc, int(z_x.reshape(-1)[0])), "f32")
        f = self.e.binary(
            "multiply", f, self.e.splat(np.float32(s_x.reshape(-1)[0]), f.shape, "f32")
        )
        n, c, h, w = f.shape
        padded = self.e.pad(f, self.e.const(np.float32(0), "f32"), [0, 0, pads[0], pads[1]],
                            [0, 0, pads[2], pads[3]])  # fmt: skip
        shape = (n, c, oh, ow)
        total = None
        for ky in range(kernel[0]):
            for kx in range(kernel[1]):
                tap = self.e.slice(
                    padded, [0, 0, ky, kx],
                    [n, c, ky + (oh - 1) * strides[0] + 1, kx + (ow - 1) * strides[1] + 1],
                    [1, 1, strides[0], strides[1]],
                )  # fmt: skip
                total = tap if total is None else self.e.binary("add", total, tap)
        include_pad = bool(self._attrs(node).get("count_include_pad", 0))
        counts = onnx_check.average_counts((h, w), kernel, strides, pads, (oh, ow), include_pad)
        count = self.e.broadcast(self.e.const(counts, "f32"), shape, [2, 3])
        y = self.e.binary("divide", total, count)
        y = self.e.binary("divide", y, self.e.splat(np.float32(s_y.reshape(-1)[0]), shape, "f32"))
        y = self.e.binary("add", y, self.e.splat(np.float32(z_y.reshape(-1)[0]), shape, "f32"))
        result = self._saturated(y, out)
        return result if not channels_last else self._transposed(result, [0, 2, 3, 1])

    # QDQ groups: DequantizeLinear inputs -> op -> QuantizeLinear, fused by ONNX Runtime.

    def _op_Add(self, node) -> None:
        if any(name in self.dq for name in node.input):
            self._binary_group(node, self._qadd)
        else:
            self._float_binary(node, "add")

    def _op_Mul(self, node) -> None:
        if any(name in self.dq for name in node.input):
            self._binary_group(node, self._qmul)
        else:
            self._float_binary(node, "multiply")

    def _op_Sub(self, node) -> None:
        self._float_binary(node, "subtract")

    def _op_Div(self, node) -> None:
        self._float_binary(node, "divide")

    def _binary_group(self, node, kernel) -> None:
        operands = []
        for i in (0, 1):
            x, s, z = self._dequantized(node, i, f"operand {i}")
            if isinstance(x, np.ndarray):
                x = self._materialized(node, self.dq[node.input[i]][0])
            operands.append((x, s, z))
        q, relu = self._quantize_after(node)
        if relu:
            raise ONNXImportError(f"node '{node.name}': a Relu after {node.op_type} is not fused")
        s_y, z_y = self._scale_zp(q, 1)
        (a, s_a, z_a), (b, s_b, z_b) = operands
        self.values[q.output[0]] = kernel(
            node, a, s_a, z_a, b, s_b, z_b, s_y, z_y, self._storage(q, 2)
        )

    def _op_GlobalAveragePool(self, node) -> None:
        if node.input[0] not in self.dq:
            self._float_global_average_pool(node)
            return
        *operands, target = self._unary_group(node)
        self.values[target] = self._qglobal_average_pool(node, *operands)

    def _op_Gemm(self, node) -> None:
        if node.input[0] not in self.dq:
            self._float_gemm(node)
            return
        attrs = self._attrs(node)
        if attrs.get("transA", 0) or float(attrs.get("beta", 1.0)) != 1.0:
            raise ONNXImportError(f"node '{node.name}': Gemm needs transA = 0 and beta = 1")
        a, s_a, z_a = self._dequantized(node, 0, "input")
        b, s_b, z_b = self._dequantized(node, 1, "weight")
        self._per_channel_axis(node, 1, 0 if attrs.get("transB", 0) else 1)
        bias = self._dequantized_bias(node, s_a, s_b)
        if not isinstance(b, np.ndarray) or (bias is not None and not isinstance(bias, np.ndarray)):
            raise ONNXImportError(f"node '{node.name}': weights and bias must be constants")
        if attrs.get("transB", 0):
            b = b.T
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        alpha = np.float32(attrs.get("alpha", 1.0))
        self.values[q.output[0]] = self._qgemm(node, a, s_a * alpha, z_a, b, s_b, z_b, bias,
                                               s_y, z_y, relu, self._storage(q, 2))  # fmt: skip
