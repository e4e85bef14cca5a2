"""The ONNX importer's TOSA target: integer TOSA for the NPU.

The same graph walk as `onnx_import` (this class overrides how each kernel is written):
NCHW tensors are transposed to NHWC around each convolution and pool (canonicalize folds
the pairs between layers), ONNX Runtime's float32 requantization becomes a 32-bit
fixed-point `tosa.rescale` of the same float32 scale, activations are `tosa.table`s of
the same 256 values, and float boundaries are peeled into argument and result attributes.
Within one unit of ONNX Runtime; docs/onnx.md has the measurements.

The rescales round half to even (`HALF_EVEN_ROUND`, qdialect's extension of TOSA): the
fixed-point multiplier of a float32 scale is that scale exactly, so a product exactly
halfway between two integers is one ONNX Runtime's float32 arithmetic also lands on,
and rounds to even; TOSA 1.0's SINGLE_ROUND would round it up.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, FloatAttr, IntegerAttr, f32, i32, i64
from xdsl.ir import Attribute, SSAValue

from qdialect import numerics
from qdialect.dialects import tosa
from qdialect.importers import onnx_check, ort_float
from qdialect.importers.emitter import ELEMENT_TYPES, Value, i64_array
from qdialect.importers.onnx_common import ONNXImportError
from qdialect.importers.onnx_import import Importer

ROUNDING = tosa.RoundingMode.HALF_EVEN_ROUND
"""How every rescale of the TOSA target rounds (ties as ONNX Runtime's float32 does)."""


class TosaImporter(Importer):
    """The same graph walk, written as TOSA for the NPU: NCHW tensors transposed to NHWC
    around each convolution and pool (canonicalize folds the pairs between layers), ONNX
    Runtime's float32 requantization approximated by a 32-bit fixed-point rescale
    (HALF_EVEN_ROUND), float boundaries peeled into argument and result attributes."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.target = "tosa"
        # Constant operands by value, so a broadcast one can be given the result's rank.
        self.constants_by_value: dict[SSAValue, np.ndarray] = {}

    @staticmethod
    def _boundary(scale: np.ndarray, zp: np.ndarray) -> Attribute:
        """`[scale : f32, zero_point : i64]`: a float boundary peeled into an attribute."""
        return ArrayAttr([FloatAttr(float(scale.reshape(-1)[0]), f32),
                          IntegerAttr(int(zp.reshape(-1)[0]), i64)])  # fmt: skip

    def _bind_input(self, name: str, shape: tuple[int, ...], elem: str) -> None:
        users = self.consumers.get(name, [])
        if elem != "f32":
            return super()._bind_input(name, shape, elem)
        if len(users) != 1 or users[0].op_type != "QuantizeLinear":
            return super()._bind_input(name, shape, elem)  # read by float ops on the host
        q = users[0]
        scale, zp = self._scale_zp(q, 1)
        self.fused.add(id(q))
        self.values[q.output[0]] = self.e.argument(
            shape, "i8", name, {"qdialect.quantize": self._boundary(scale, zp)}
        )

    def _bind_output(self, name: str) -> tuple[str, dict[str, Attribute]]:
        node = self.producers.get(name)
        if node is None or node.op_type != "DequantizeLinear":
            return name, {}
        scale, zp = self._scale_zp(node, 1)
        self.fused.add(id(node))
        return node.input[0], {"qdialect.dequantize": self._boundary(scale, zp)}

    # A float island (DequantizeLinear -> float ops -> QuantizeLinear: a BatchNormalization
    # left float, LRN, Erf, a float Resize) and Softmax have no integer TOSA form; they are
    # written as the exact target writes them (StableHLO, ONNX Runtime's float32 arithmetic)
    # and `npu-partition` leaves them on the host. The inherited kernels do that; only the
    # ones that would otherwise emit integer code stay overridden below.

    def _op_Relu(self, node) -> None:
        if self._input(node, 0).elem != "f32":
            raise ONNXImportError(f"node '{node.name}': a Relu outside a QDQ group (TOSA form)")
        super()._op_Relu(node)

    # ---- TOSA ops -------------------------------------------------------------------

    def _tconst(self, array, elem: str) -> Value:
        return self.e.tosa_const(np.asarray(array), elem)

    def _zp_const(self, node, zp: np.ndarray) -> Value:
        """An int8 data zero point as the operand TOSA takes it."""
        value = int(zp.reshape(-1)[0])
        if not -128 <= value <= 127:
            raise ONNXImportError(
                f"{onnx_check.node_label(node)}: zero point {value} of int8 data is out of range"
            )
        return self._tconst(np.array([value]), "i8")

    def _transpose(self, x: Value, perms: list[int]) -> Value:
        return self.e.tosa_transpose(x, perms)

    def _tosa_requant(self, acc: Value, scale: np.ndarray, zp: int, relu: bool) -> Value:
        if not -128 <= zp <= 127:
            raise ONNXImportError(f"zero point {zp} of int8 data is out of range")
        pairs = [numerics.quantize_multiplier(float(v)) for v in scale.reshape(-1)]
        y = self.e.tosa_rescale(acc, [p[0] for p in pairs], [p[1] for p in pairs], 0, zp, "i8",
                                rounding=ROUNDING)  # fmt: skip
        return self.e.tosa_clamp(y, zp, 127) if relu else y

    def _qconv(self, node, x, s_x, z_x, w, s_w, z_w, bias, s_y, z_y, relu, out="i8"):
        if node.op_type == "ConvTranspose":
            raise ONNXImportError(f"node '{node.name}': ConvTranspose (TOSA form) is not imported")
        if not isinstance(w, np.ndarray):
            raise ONNXImportError(
                f"node '{node.name}': weights computed at run time are not imported (TOSA form)"
            )
        if (
            not isinstance(x, Value)
            or len(x.shape) != 4
            or w.dtype != np.int8
            or "i8" not in (x.elem, out)
            or x.elem != out
        ):
            raise ONNXImportError(
                f"node '{node.name}': the convolution needs int8 NCHW data and weights"
            )
        if np.any(z_w):
            raise ONNXImportError(f"node '{node.name}': weight zero points must be 0 (TOSA form)")
        if w.ndim != 4:
            raise ONNXImportError(f"node '{node.name}': the weights must be OIHW")
        self._geometry(node, x.shape, w.shape)  # the attributes and shapes, checked
        a = self._attrs(node)
        k_out, c_in, kh, kw = w.shape
        group = int(a.get("group", 1))
        strides = onnx_check.spatial(node, a, "strides", 2, 1, 1)
        dil = onnx_check.spatial(node, a, "dilations", 2, 1, 1)
        top, left, bottom, right = self._pads(node, x.shape[2:], (kh, kw), strides, dil)
        n, c, h, wd = x.shape
        oh = (h + top + bottom - (kh - 1) * dil[0] - 1) // strides[0] + 1
        ow = (wd + left + right - (kw - 1) * dil[1] - 1) // strides[1] + 1
        xh = self._transpose(x, [0, 2, 3, 1])
        bias_values = (np.zeros(k_out, np.int64) if bias is None
                       else onnx_check.int32_bias(node, bias, k_out))  # fmt: skip
        b = self._tconst(bias_values, "i32")
        zx, zw = (
            self._zp_const(node, z_x),
            self._tconst(np.array([0]), "i8"),
        )
        scale = ort_float.requant_scale(s_x, s_w, s_y)
        if group == c and c_in == 1 and group > 1:
            mult = k_out // c
            wt = self._tconst(np.transpose(w.reshape(c, mult, kh, kw), (2, 3, 0, 1)), "i8")
            pieces = [("depthwise_conv2d", xh, wt, b, scale)]  # weights KH, KW, C, M
        else:
            # TOSA has no grouped convolution: each group is a conv2d on its slice of the
            # input channels, requantized with its channels' scales; the groups' int8
            # results are concatenated along channels (the layout ONNX's groups give them).
            per = k_out // group
            pieces = []
            for g in range(group):
                xg = xh if group == 1 else self._sliced(xh, [0, 0, 0, g * c_in],
                                                        [n, h, wd, (g + 1) * c_in], [1] * 4)  # fmt: skip
                rows = slice(g * per, (g + 1) * per)
                wt = self._tconst(np.transpose(w[rows], (0, 2, 3, 1)), "i8")  # OHWI
                bg = b if group == 1 else self._tconst(bias_values[rows], "i32")
                sg = scale if scale.size == 1 else scale.reshape(-1)[rows]
                pieces.append(("conv2d", xg, wt, bg, sg))
        outputs = []
        for op, xg, wt, bg, sg in pieces:
            channels = wt.shape[0] if op == "conv2d" else k_out
            acc = self.e.tosa(op, [xg, wt, bg, zx, zw], (n, oh, ow, channels), "i32",
                              pad=i64_array([top, bottom, left, right]), stride=i64_array(strides),
                              dilation=i64_array(dil), acc_type=ELEMENT_TYPES["i32"])  # fmt: skip
            outputs.append(self._tosa_requant(acc, sg, int(z_y.reshape(-1)[0]), relu))
        y = outputs[0]
        if len(outputs) > 1:
            y = self.e.tosa("concat", outputs, (n, oh, ow, k_out), "i8", axis=IntegerAttr(3, i32))
        return self._transpose(y, [0, 3, 1, 2])

    def _qmatmul(self, node, a, s_a, z_a, b, s_b, z_b, s_y, z_y, relu, out="i8", bias=None):
        if (
            not isinstance(b, np.ndarray)
            or np.any(z_b)
            or len(a.shape) != 2
            or (a.elem, out) != ("i8", "i8")
        ):
            raise ONNXImportError(
                f"node '{node.name}': MatMul needs a 2-D input and constant symmetric weights (TOSA form)"
            )
        m, k = a.shape
        if b.ndim != 2 or b.shape[0] != k:
            raise ONNXImportError(
                f"{onnx_check.node_label(node)}: {list(a.shape)} by {list(b.shape)} do not multiply"
            )
        n = b.shape[1]
        a3 = self._reshaped(node, a, (1, m, k))
        wt = self._tconst(b.reshape(1, k, n), "i8")
        za, zb = (
            self._zp_const(node, z_a),
            self._tconst(np.array([0]), "i8"),
        )
        acc = self.e.tosa("matmul", [a3, wt, za, zb], (1, m, n), "i32")
        if bias is not None:
            bias = onnx_check.int32_bias(node, bias)
            if bias.size not in (1, n):
                raise ONNXImportError(
                    f"{onnx_check.node_label(node)}: a bias of shape {list(bias.shape)} for {n} "
                    "columns"
                )
            c = self._tconst(np.broadcast_to(bias.reshape(-1), (n,)).reshape(1, 1, n), "i32")
            acc = self.e.tosa("add", [acc, c], acc.shape, "i32")
        scale = ort_float.requant_scale(s_a, s_b, s_y)
        y = self._tosa_requant(acc, scale, int(z_y.reshape(-1)[0]), relu)
        return self._reshaped(node, y, (m, n))

    def _reshaped(self, node, x: Value, shape: tuple[int, ...]) -> Value:
        if math.prod(shape) != math.prod(x.shape):
            raise ONNXImportError(
                f"node '{node.name}': cannot reshape {list(x.shape)} to {list(shape)}"
            )
        return self.e.tosa_reshape(x, shape)

    def _sliced(self, x: Value, low: list[int], high: list[int], strides: list[int]) -> Value:
        if any(s != 1 for s in strides):
            raise ONNXImportError("strided slices are not supported (TOSA form)")
        size = [hi - lo for lo, hi in zip(low, high, strict=True)]
        return self.e.tosa("slice", [x, self.e.tosa_shape(low), self.e.tosa_shape(size)], size,
                           x.elem)  # fmt: skip

    def _taken(self, x: Value, index: np.ndarray, axis: int) -> Value:
        return self.e.tosa_take(x, index, axis)

    def _max_pool(self, x: Value, kernel, strides, dil, pads) -> Value:
        if any(d != 1 for d in dil):
            raise ONNXImportError("dilated MaxPool is not supported (TOSA form)")
        top, left, bottom, right = pads
        xh = self._transpose(x, [0, 2, 3, 1])
        n, h, w, c = xh.shape
        oh = (h + top + bottom - kernel[0]) // strides[0] + 1
        ow = (w + left + right - kernel[1]) // strides[1] + 1
        if min(oh, ow) < 1:
            raise ONNXImportError(f"window {kernel} does not fit the padded input {[h, w]}")
        y = self.e.tosa("max_pool2d", [xh], (n, oh, ow, c), x.elem, kernel=i64_array(kernel),
                        stride=i64_array(strides), pad=i64_array([top, bottom, left, right]))  # fmt: skip
        return self._transpose(y, [0, 3, 1, 2])

    # ---- elementwise kernels, pooling and tables ---------------------------------------

    def _materialized(self, node, name: str) -> Value:
        if name in self.constants and name not in self.values:
            array = self.constants[name]
            if array.dtype != np.int8:
                raise ONNXImportError(
                    f"node '{node.name}': constant '{name}' must be int8 (TOSA form)"
                )
            self.values[name] = self._tconst(array, "i8")
            self.constants_by_value[self.values[name].ssa] = array
        return super()._materialized(node, name)

    def _full(self, node, x: Value, shape: tuple[int, ...]) -> Value:
        """An operand of an elementwise op whose result has `shape`: itself, or a constant
        kept at its own size with its rank raised to the result's (TOSA broadcasts size-1
        dimensions of equal-rank operands). The NPU back end tiles it when it plans the
        weights section, so the IR never holds a constant of the activation's size."""
        if x.shape == shape:
            return x
        if x.ssa not in self.constants_by_value:
            raise ONNXImportError(
                f"node '{node.name}': broadcasting a computed operand is not supported (TOSA form)"
            )
        if len(x.shape) == len(shape):
            return x
        array = self.constants_by_value[x.ssa]
        return self._tconst(array.reshape((1,) * (len(shape) - array.ndim) + array.shape), "i8")

    def _rescale(self, x: Value, scale: float | tuple[int, int], in_zp: int, out_zp: int,
                 out: str) -> Value:  # fmt: skip
        """A per-tensor `tosa.rescale` (HALF_EVEN_ROUND) by a real scale or an exact
        (multiplier, shift)."""
        m, sh = scale if isinstance(scale, tuple) else numerics.quantize_multiplier(float(scale))
        for zp, elem in ((in_zp, x.elem), (out_zp, out)):
            if elem == "i8" and not -128 <= zp <= 127:
                raise ONNXImportError(f"zero point {zp} of int8 data is out of range")
        return self.e.tosa_rescale(x, [m], [sh], in_zp, out_zp, out, rounding=ROUNDING)

    def _centred(self, x: Value, zp: int, left_shift: int = 0) -> Value:
        """(x - zp) << left_shift in i32: a rescale by exactly 2^left_shift."""
        return self._rescale(x, (1 << 30, 30 - left_shift), zp, 0, "i32")

    def _int8_operands(self, node, out: str, *values: Value) -> None:
        if out != "i8" or any(v.elem != "i8" for v in values):
            raise ONNXImportError(f"node '{node.name}': int8 operands only (TOSA form)")

    def _qadd(self, node, a, s_a, z_a, b, s_b, z_b, s_c, z_c, out):
        """Both operands centred and shifted left by 20 bits, each rescaled by s_i / 2max(s),
        added in i32, rescaled by 2max(s) / (2^20 s_c): TFLite's integer add, within one
        unit of ONNX Runtime's float kernel."""
        self._int8_operands(node, out, a, b)
        shape = self._broadcast_shape(node, a, b)
        a, b = self._full(node, a, shape), self._full(node, b, shape)
        s_a, s_b, s_c = (float(np.float32(v.reshape(-1)[0])) for v in (s_a, s_b, s_c))
        left, twice_max = 20, 2 * max(s_a, s_b)
        terms = [
            self._rescale(self._centred(x, int(z.reshape(-1)[0]), left), s / twice_max, 0, 0, "i32")
            for x, s, z in ((a, s_a, z_a), (b, s_b, z_b))
        ]
        total = self.e.tosa("add", terms, shape, "i32")
        return self._rescale(
            total, twice_max / ((1 << left) * s_c), 0, int(z_c.reshape(-1)[0]), "i8"
        )

    def _qmul(self, node, a, s_a, z_a, b, s_b, z_b, s_c, z_c, out):
        self._int8_operands(node, out, a, b)
        shape = self._broadcast_shape(node, a, b)
        a, b = self._full(node, a, shape), self._full(node, b, shape)
        ca, cb = (
            self._centred(a, int(z_a.reshape(-1)[0])),
            self._centred(b, int(z_b.reshape(-1)[0])),
        )
        zero = self._tconst(np.array([0]), "i8")
        product = self.e.tosa("mul", [ca, cb, zero], shape, "i32")
        f32 = np.float32
        ratio = f32(
            f32(f32(s_a.reshape(-1)[0]) * f32(s_b.reshape(-1)[0])) / f32(s_c.reshape(-1)[0])
        )
        return self._rescale(product, float(ratio), 0, int(z_c.reshape(-1)[0]), "i8")

    def _qglobal_average_pool(self, node, x, s_x, z_x, s_y, z_y, out, channels_last=False):
        self._int8_operands(node, out, x)
        if len(x.shape) != 4:
            raise ONNXImportError(f"node '{node.name}': needs 4-D data")
        xh = x if channels_last else self._transpose(x, [0, 2, 3, 1])
        _, h, w, _ = xh.shape
        total = self._centred(xh, int(z_x.reshape(-1)[0]))
        for axis in (1, 2):
            total = self.e.tosa_axis("reduce_sum", total, axis)
        f32 = np.float32
        scale = f32(f32(s_x.reshape(-1)[0]) / f32(f32(s_y.reshape(-1)[0]) * f32(h * w)))
        y = self._rescale(total, float(scale), 0, int(z_y.reshape(-1)[0]), "i8")
        return y if channels_last else self._transpose(y, [0, 3, 1, 2])

    def _qgemm(self, node, a, s_a, z_a, b, s_b, z_b, bias, s_y, z_y, relu, out):
        return self._qmatmul(node, a, s_a, z_a, b, s_b, z_b, s_y, z_y, relu, out, bias=bias)

    def _lookup(self, node, x, table, out):
        self._int8_operands(node, out, x)
        return self.e.tosa("table", [x, self._tconst(table, "i8")], x.shape, "i8")

    # ---- data movement and average pooling ---------------------------------------------

    def _concat(self, node, parts, axis):
        shape, axis = self._concat_shape(node, parts, axis)
        self._int8_operands(node, "i8", *parts)
        return self.e.tosa("concat", parts, shape, "i8", axis=IntegerAttr(axis, i32))

    def _transposed(self, x, perm):
        return self._transpose(x, list(perm))

    def _padded(self, x, low, high, fill):
        if x.elem != "i8":
            raise ONNXImportError("padding needs int8 data (TOSA form)")
        shape = tuple(d + lo + hi for d, lo, hi in zip(x.shape, low, high, strict=True))
        padding = self.e.tosa_shape([v for pair in zip(low, high, strict=True) for v in pair])
        value = self._tconst(np.array([fill]), "i8")
        return self.e.tosa("pad", [x, padding, value], shape, "i8")

    def _qaverage_pool(self, node, x, s_x, z_x, s_y, z_y, out):
        """One divisor for every window (no padding, or count_include_pad): the window sums
        as a depthwise convolution by ones (exact in i32), one rescale by
        s_x / (s_y count). Otherwise `tosa.avg_pool2d` (it divides by the in-bounds taps)
        with the input's zero point on both sides, then a rescale to the output's
        quantization when it differs (two roundings)."""
        self._int8_operands(node, out, x)
        kernel, strides, pads, (oh, ow), channels_last = self._pool_geometry(node, x)
        if any(pads) and self._attrs(node).get("count_include_pad", 0):
            raise ONNXImportError(f"node '{node.name}': count_include_pad with padding (TOSA form)")
        size = x.shape[1:3] if channels_last else x.shape[2:]
        if list(size) == kernel and not any(pads):
            return self._qglobal_average_pool(node, x, s_x, z_x, s_y, z_y, out, channels_last)
        xh = x if channels_last else self._transpose(x, [0, 2, 3, 1])
        n, c = xh.shape[0], xh.shape[3]
        zx = int(z_x.reshape(-1)[0])
        zp = self._zp_const(node, z_x)
        top, left, bottom, right = pads
        f32 = np.float32
        if not any(pads) or self._attrs(node).get("count_include_pad", 0):
            ones = self._tconst(np.ones((kernel[0], kernel[1], c, 1), np.int8), "i8")
            bias, wzp = (
                self._tconst(np.zeros(c, np.int64), "i32"),
                self._tconst(np.array([0]), "i8"),
            )
            total = self.e.tosa(
                "depthwise_conv2d", [xh, ones, bias, zp, wzp], (n, oh, ow, c), "i32",
                pad=i64_array([top, bottom, left, right]), stride=i64_array(strides),
                dilation=i64_array([1, 1]), acc_type=ELEMENT_TYPES["i32"],
            )  # fmt: skip
            scale = float(f32(s_x.reshape(-1)[0])) / (
                float(f32(s_y.reshape(-1)[0])) * kernel[0] * kernel[1]
            )
            y = self._rescale(total, scale, 0, int(z_y.reshape(-1)[0]), "i8")
            return y if channels_last else self._transpose(y, [0, 3, 1, 2])
        y = self.e.tosa("avg_pool2d", [xh, zp, zp], (n, oh, ow, c), "i8", kernel=i64_array(kernel),
                        stride=i64_array(strides), pad=i64_array([top, bottom, left, right]),
                        acc_type=ELEMENT_TYPES["i32"])  # fmt: skip
        ratio = float(f32(s_x.reshape(-1)[0])) / float(f32(s_y.reshape(-1)[0]))
        if ratio != 1.0 or zx != int(z_y.reshape(-1)[0]):
            y = self._rescale(y, ratio, zx, int(z_y.reshape(-1)[0]), "i8")
        return y if channels_last else self._transpose(y, [0, 3, 1, 2])

    def _op_Clip(self, node):
        x = self._input(node, 0)
        if x.elem == "f32":
            return super()._op_Clip(node)
        self._int8_operands(node, "i8", x)
        attrs = self._attrs(node)
        bounds = [
            int(self._const_input(node, i, key).reshape(()))
            if len(node.input) > i and node.input[i]
            else int(attrs.get(key, default))
            for i, key, default in ((1, "min", -128), (2, "max", 127))
        ]
        lo, hi = (int(np.clip(v, -128, 127)) for v in bounds)
        self.values[node.output[0]] = self.e.tosa_clamp(x, lo, hi)
