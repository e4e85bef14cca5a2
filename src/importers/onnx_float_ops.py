"""Float ops of the ONNX importer (a mixin): each is one IEEE float32 operation per element
(or, for BatchNormalization and DynamicQuantizeLinear, the few ONNX Runtime performs), so
the imported program equals ONNX Runtime exactly.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from qdialect.importers import onnx_check
from qdialect.importers.emitter import Value
from qdialect.importers.onnx_common import MAX_ELEMENTS, RANGE, ONNXImportError

if TYPE_CHECKING:
    from qdialect.importers.onnx_host import ImporterLike
else:
    ImporterLike = object  # only the type checker sees the mixin as an ImporterLike


class FloatOps(ImporterLike):
    def _op_DynamicQuantizeLinear(self, node) -> None:
        """uint8 quantization with parameters from the data, as ONNX Runtime computes them:
        the range [min(x, 0), max(x, 0)], scale (max - min) / 255 in float32 (1 when the
        range is empty), zero point -min / scale clamped to [0, 255] and rounded half to
        even, then QuantizeLinear (divide, clamp, round half to even, add)."""
        x = self._input(node, 0)
        if x.elem != "f32":
            raise ONNXImportError(f"node '{node.name}': DynamicQuantizeLinear of float only")
        shape = x.shape

        def reduce(kind: str, init: float) -> Value:
            start = self.e.const(np.float32(init), "f32")
            return self.e.reduce(x, start, range(len(shape)), kind)

        def c(v: float) -> Value:
            return self.e.const(np.float32(v), "f32")

        lo = self.e.binary("minimum", reduce("minimum", np.inf), c(0.0))
        hi = self.e.binary("maximum", reduce("maximum", -np.inf), c(0.0))
        scale = self.e.binary("divide", self.e.binary("subtract", hi, lo), c(255.0))
        empty = self.e.compare("EQ", hi, lo)
        scale = self.e.select(empty, c(1.0), scale)
        zp = self.e.binary("subtract", c(0.0), self.e.binary("divide", lo, scale))
        zp = self.e.clamp(c(0.0), zp, c(255.0))
        zp = self.e.unary("convert", self.e.unary("round_nearest_even", zp, "f32"), "i32")

        def spread(v: Value) -> Value:
            return self.e.broadcast(v, shape, [])

        zp_f = self.e.unary("convert", zp, "f32")
        low = spread(self.e.binary("subtract", c(0.0), zp_f))
        high = spread(self.e.binary("subtract", c(255.0), zp_f))
        v = self.e.binary("divide", x, spread(scale))
        v = self.e.clamp(low, v, high)
        v = self.e.unary("convert", self.e.unary("round_nearest_even", v, "f32"), "i32")
        v = self.e.binary("add", v, spread(zp))
        outputs = [self.e.unary("convert", v, "ui8"), scale, self.e.unary("convert", zp, "ui8")]
        for name, value in zip(node.output, outputs, strict=False):
            if name:
                self.values[name] = value

    # ---- float ops: each one IEEE float32 operation per element, as ONNX Runtime's ---------

    def _float_operand(self, node, i: int) -> Value:
        name = node.input[i]
        if name in self.constants and name not in self.values:
            array = self.constants[name]
            if array.dtype != np.float32:
                raise ONNXImportError(f"node '{node.name}': constant '{name}' must be float32")
            self.values[name] = self.e.const(array, "f32")
        if name in self.dq and name not in self.values:
            self._dequantize_activation(name)
        x = self._input(node, i)
        if x.elem != "f32":
            raise ONNXImportError(
                f"node '{node.name}' ({node.op_type}) of {x.elem} values is not supported"
            )
        return x

    def _float_binary(self, node, op: str) -> None:
        a, b = self._float_operand(node, 0), self._float_operand(node, 1)
        shape = self._broadcast_shape(node, a, b)
        a, b = self._broadcast_to(node, a, shape), self._broadcast_to(node, b, shape)
        self.values[node.output[0]] = self.e.binary(op, a, b)

    # Elementwise float ops of one value: sqrt, negation, abs, floor and ceil are exact
    # IEEE operations; exp and log are ONNX Runtime's vectorized approximations (a
    # tolerance, docs/onnx.md).
    _FLOAT_UNARY = {"Sqrt": "sqrt", "Exp": "exponential", "Log": "log", "Neg": "negate",
                    "Abs": "abs", "Floor": "floor", "Ceil": "ceil"}  # fmt: skip

    def _float_unary(self, node) -> None:
        x = self._float_operand(node, 0)
        self.values[node.output[0]] = self.e.unary(self._FLOAT_UNARY[node.op_type], x)

    _op_Sqrt = _op_Exp = _op_Log = _op_Neg = _op_Abs = _op_Floor = _op_Ceil = _float_unary

    def _op_Reciprocal(self, node) -> None:
        x = self._float_operand(node, 0)
        one = self.e.splat(np.float32(1), x.shape, "f32")
        self.values[node.output[0]] = self.e.binary("divide", one, x)

    def _op_Pow(self, node) -> None:
        self._float_binary(node, "power")

    def _op_Max(self, node) -> None:
        self._float_nary(node, "maximum")

    def _op_Min(self, node) -> None:
        self._float_nary(node, "minimum")

    def _op_Sum(self, node) -> None:
        self._float_nary(node, "add")

    def _op_Mean(self, node) -> None:
        """The left-to-right sum divided by the count."""
        total = self._float_nary(node, "add")
        count = self.e.splat(np.float32(len(node.input)), total.shape, "f32")
        self.values[node.output[0]] = self.e.binary("divide", total, count)

    def _float_nary(self, node, op: str) -> Value:
        """inputs[0] op inputs[1] op ... left to right (ONNX Runtime's order), broadcast."""
        xs = [self._float_operand(node, i) for i in range(len(node.input))]
        shape = self._broadcast_shape(node, *xs)
        total = self._broadcast_to(node, xs[0], shape)
        for x in xs[1:]:
            total = self.e.binary(op, total, self._broadcast_to(node, x, shape))
        self.values[node.output[0]] = total
        return total

    _COMPARISONS = {"Equal": "EQ", "Less": "LT", "LessOrEqual": "LE", "Greater": "GT",
                    "GreaterOrEqual": "GE"}  # fmt: skip

    def _comparison(self, node) -> None:
        a, b = self._float_operand(node, 0), self._float_operand(node, 1)
        shape = self._broadcast_shape(node, a, b)
        a, b = self._broadcast_to(node, a, shape), self._broadcast_to(node, b, shape)
        self.values[node.output[0]] = self.e.compare(self._COMPARISONS[node.op_type], a, b)

    _op_Equal = _op_Less = _op_LessOrEqual = _op_Greater = _op_GreaterOrEqual = _comparison

    def _op_Where(self, node) -> None:
        condition = self._input(node, 0)
        if condition.elem != "i1":
            raise ONNXImportError(f"node '{node.name}': the condition must be boolean")
        a, b = self._float_operand(node, 1), self._float_operand(node, 2)
        shape = self._broadcast_shape(node, condition, a, b)
        parts = [self._broadcast_to(node, v, shape) for v in (condition, a, b)]
        self.values[node.output[0]] = self.e.select(*parts)

    def _reduce_axes(self, node, rank: int) -> list[int] | None:
        """A Reduce* node's axes (attribute before opset 18, input from 18); None for an
        empty list under noop_with_empty_axes."""
        attrs = self._attrs(node)
        if len(node.input) > 1 and node.input[1]:
            axes = [int(a) for a in self._const_input(node, 1, "axes").reshape(-1)]
        else:
            axes = [int(a) for a in attrs.get("axes", [])]
        if not axes:
            return None if attrs.get("noop_with_empty_axes", 0) else list(range(rank))
        if any(not -rank <= a < rank for a in axes):
            raise ONNXImportError(f"node '{node.name}': axes {axes} out of range")
        return sorted({a % rank for a in axes})

    def _float_reduce(self, node, op: str, init: float, mean: bool = False) -> None:
        x = self._float_operand(node, 0)
        axes = self._reduce_axes(node, len(x.shape))
        if axes is None:
            self.values[node.output[0]] = x
            return
        y = self.e.reduce(x, self.e.const(np.float32(init), "f32"), axes, op)
        if mean:
            count = np.float32(math.prod(x.shape[a] for a in axes))
            y = self.e.binary("divide", y, self.e.splat(count, y.shape, "f32"))
        if self._attrs(node).get("keepdims", 1):
            y = self.e.reshape(y, [1 if i in axes else d for i, d in enumerate(x.shape)])
        self.values[node.output[0]] = y

    def _op_ReduceMax(self, node) -> None:
        self._float_reduce(node, "maximum", -np.inf)

    def _op_ReduceMin(self, node) -> None:
        self._float_reduce(node, "minimum", np.inf)

    def _op_ReduceSum(self, node) -> None:
        self._float_reduce(node, "add", 0.0)

    def _op_ReduceMean(self, node) -> None:
        self._float_reduce(node, "add", 0.0, mean=True)

    def _op_GlobalMaxPool(self, node) -> None:
        x = self._float_operand(node, 0) if node.input[0] not in self.dq else None
        if x is None:  # between Q/DQ: max commutes with the shared quantization
            x, target = self._passthrough(node)
        else:
            target = node.output[0]
        if len(x.shape) < 3:
            raise ONNXImportError(f"node '{node.name}': needs N x C x spatial data")
        lowest = np.float32(-np.inf) if x.elem == "f32" else np.array(RANGE[x.elem][0])
        spatial = list(range(2, len(x.shape)))
        y = self.e.reduce(x, self.e.const(lowest, x.elem), spatial, "maximum")
        self.values[target] = self.e.reshape(y, [*x.shape[:2]] + [1] * len(spatial))

    def _float_global_average_pool(self, node) -> None:
        """The mean over the spatial axes of float32 data: their float32 sum (a
        `stablehlo.reduce`, whose order of additions is the evaluator's) divided by the
        count."""
        x = self._float_operand(node, 0)
        if len(x.shape) < 3:
            raise ONNXImportError(f"node '{node.name}': needs N x C x spatial data")
        spatial = list(range(2, len(x.shape)))
        total = self.e.reduce(x, self.e.const(np.float32(0), "f32"), spatial, "add")
        count = math.prod(x.shape[2:])
        mean = self.e.binary("divide", total, self.e.splat(np.float32(count), total.shape, "f32"))
        self.values[node.output[0]] = self.e.reshape(mean, [*x.shape[:2]] + [1] * len(spatial))

    def _float_average_pool(self, node) -> None:
        """2-D average pooling of float32 data: each window's float32 sum (a
        `reduce_window` over the zero-padded input) divided by the kernel size, or by the
        taps inside the image when `count_include_pad` is 0 (ONNX's default)."""
        x = self._float_operand(node, 0)
        kernel, strides, pads, (oh, ow), channels_last = self._pool_geometry(node, x)
        xc = x if not channels_last else self.e.transpose(x, [0, 3, 1, 2])
        h, w = xc.shape[2:]
        total = self.e.reduce_window(
            xc, self.e.const(np.float32(0), "f32"), [1, 1, *kernel], [1, 1, *strides],
            [1, 1, 1, 1], [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])], "add",
        )  # fmt: skip
        include_pad = bool(self._attrs(node).get("count_include_pad", 0))
        counts = onnx_check.average_counts((h, w), kernel, strides, pads, (oh, ow), include_pad)
        count = self.e.broadcast(self.e.const(counts, "f32"), total.shape, [2, 3])
        y = self.e.binary("divide", total, count)
        self.values[node.output[0]] = y if not channels_last else self.e.transpose(y, [0, 2, 3, 1])

    def _op_Cast(self, node) -> None:
        """Cast between float32, 32/64-bit integers and bool (float to integer rounds toward
        zero, as C casts do)."""
        names = {1: "f32", 6: "i32", 7: "i64", 9: "i1"}
        target = names.get(int(self._attrs(node).get("to", 0)))
        x = self._input(node, 0)
        if target is None or x.elem not in names.values():
            raise ONNXImportError(f"node '{node.name}': Cast between {x.elem} and type "
                                  f"{self._attrs(node).get('to')} is not supported")  # fmt: skip
        self.values[node.output[0]] = x if x.elem == target else self.e.unary("convert", x, target)

    # ---- float ops that accumulate: ONNX Runtime sums in MLAS's order (a tolerance) ------

    def _float_softmax(self, node, log: bool) -> None:
        """Softmax / LogSoftmax of float values along `axis` (opset 13: one axis; before:
        everything from `axis` on, flattened): exp(x - max) / sum, or x - max - log(sum)."""
        x = self._float_operand(node, 0)
        rank = len(x.shape)
        default = -1 if self.opset >= 13 else 1
        axis = int(self._attrs(node).get("axis", default))
        if not -rank <= axis < rank:
            raise ONNXImportError(f"node '{node.name}': axis {axis} is out of range")
        axis %= rank
        rows = x if self.opset >= 13 else self.e.reshape(
            x, (math.prod(x.shape[:axis]), math.prod(x.shape[axis:])))  # fmt: skip
        along = axis if self.opset >= 13 else 1
        dims = [i for i in range(len(rows.shape)) if i != along]
        top = self.e.reduce(rows, self.e.const(np.float32(-np.inf), "f32"), [along], "maximum")
        shifted = self.e.binary("subtract", rows, self.e.broadcast(top, rows.shape, dims))
        exp = self.e.unary("exponential", shifted)
        total = self.e.reduce(exp, self.e.const(np.float32(0), "f32"), [along], "add")
        total = self.e.broadcast(total, rows.shape, dims)
        if log:
            y = self.e.binary("subtract", shifted, self.e.unary("log", total))
        else:
            y = self.e.binary("divide", exp, total)
        self.values[node.output[0]] = y if y.shape == x.shape else self.e.reshape(y, x.shape)

    def _op_LogSoftmax(self, node) -> None:
        self._float_softmax(node, log=True)

    def _float_matmul(self, node) -> None:
        """A float matrix product (2-D, or a batch of rows by one matrix)."""
        a, b = self._float_operand(node, 0), self._float_operand(node, 1)
        if len(b.shape) != 2 or len(a.shape) < 2 or a.shape[-1] != b.shape[0]:
            raise ONNXImportError(
                f"node '{node.name}': float MatMul of {list(a.shape)} by {list(b.shape)} "
                "is imported for a batch of rows times one matrix"
            )
        self.values[node.output[0]] = self._rows(
            node, a, lambda rows: self.e.dot_general(rows, b, (rows.shape[0], b.shape[1]),
                                                     ([1], [0])),
        )  # fmt: skip

    def _float_gemm(self, node) -> None:
        """Gemm of float values: alpha A' B' + beta C (A', B' transposed as asked)."""
        attrs = self._attrs(node)
        a, b = self._float_operand(node, 0), self._float_operand(node, 1)
        if len(a.shape) != 2 or len(b.shape) != 2:
            raise ONNXImportError(f"node '{node.name}': Gemm needs 2-D operands")
        if attrs.get("transA", 0):
            a = self.e.transpose(a, [1, 0])
        if attrs.get("transB", 0):
            b = self.e.transpose(b, [1, 0])
        if a.shape[1] != b.shape[0]:
            raise ONNXImportError(f"node '{node.name}': {list(a.shape)} x {list(b.shape)}")
        shape = (a.shape[0], b.shape[1])
        y = self.e.dot_general(a, b, shape, ([1], [0]))
        alpha, beta = np.float32(attrs.get("alpha", 1.0)), np.float32(attrs.get("beta", 1.0))
        if alpha != 1:
            y = self.e.binary("multiply", y, self.e.splat(alpha, shape, "f32"))
        if len(node.input) > 2 and node.input[2]:
            c = self._broadcast_to(node, self._float_operand(node, 2), shape)
            if beta != 1:
                c = self.e.binary("multiply", c, self.e.splat(beta, shape, "f32"))
            y = self.e.binary("add", y, c)
        self.values[node.output[0]] = y

    def _op_Clip(self, node) -> None:
        """Clip of float values, or of 8-bit values by bounds of their own type."""
        x = self._input(node, 0)
        attrs = self._attrs(node)
        bounds = []
        top = float(np.finfo(np.float32).max)  # ONNX Runtime's defaults: lowest and max
        for i, key, default in ((1, "min", -top), (2, "max", top)):
            if len(node.input) > i and node.input[i]:
                bounds.append(self._const_input(node, i, key).reshape(()))
            else:
                bounds.append(attrs.get(key, default))
        if x.elem == "f32":
            lo, hi = (np.float32(v) for v in bounds)
        elif x.elem in RANGE:
            lo, hi = (int(np.clip(float(v), *RANGE[x.elem])) for v in bounds)
        else:
            raise ONNXImportError(f"node '{node.name}': Clip of {x.elem} is not supported")
        low, high = (self.e.splat(v, x.shape, x.elem) for v in (lo, hi))
        self.values[node.output[0]] = self.e.clamp(low, x, high)

    def _op_LeakyRelu(self, node) -> None:
        x = self._float_operand(node, 0)
        alpha = np.float32(self._attrs(node).get("alpha", 0.01))
        zero = self.e.splat(np.float32(0), x.shape, "f32")
        scaled = self.e.binary("multiply", x, self.e.splat(alpha, x.shape, "f32"))
        keep = self.e.compare("GE", x, zero)
        self.values[node.output[0]] = self.e.select(keep, x, scaled)

    def _op_BatchNormalization(self, node) -> None:
        """Inference BatchNormalization of float NCHW values (between Q/DQ, or after the
        last DequantizeLinear), as ONNX Runtime's kernel computes it: per channel
        k = scale / sqrt(var + eps) and c = B - mean * k in float32, then x * k + c."""
        x = self._float_operand(node, 0)
        params = [self._const_input(node, i, what).astype(np.float32).reshape(-1)
                  for i, what in enumerate(("", "scale", "bias", "mean", "variance")) if i]  # fmt: skip
        if len(x.shape) < 2 or any(p.size != x.shape[1] for p in params) or len(node.output) > 1:
            raise ONNXImportError(
                f"node '{node.name}': inference BatchNormalization over channel axis 1 only"
            )
        scale, bias, mean, var = params
        eps = np.float32(self._attrs(node).get("epsilon", 1e-5))
        k = (np.float32(1) / np.sqrt(var + eps)).astype(np.float32) * scale
        c = (bias - mean * k).astype(np.float32)
        y = self.e.binary("multiply", x, self.e.splat(k, x.shape, "f32", 1))
        self.values[node.output[0]] = self.e.binary("add", y, self.e.splat(c, x.shape, "f32", 1))

    def _op_LRN(self, node) -> None:
        """Local response normalization across channels (axis 1) of float values:
        x * (bias + alpha / size * sum of squares over the window) ^ -beta, in ONNX Runtime's
        order of operations. ONNX Runtime sums the window as a running sum over channels
        (adding the entering square, subtracting the leaving one), so its last bits can
        differ: a documented tolerance (docs/onnx.md)."""
        x = self._float_operand(node, 0)
        attrs = self._attrs(node)
        size = int(attrs.get("size", 0))
        if size < 1 or len(x.shape) < 3:
            raise ONNXImportError(f"node '{node.name}': LRN needs size >= 1 and N x C x ... data")
        alpha, beta, bias = (np.float32(attrs.get(k, d)) for k, d in
                             (("alpha", 1e-4), ("beta", 0.75), ("bias", 1.0)))  # fmt: skip
        rank = len(x.shape)
        before = (size - 1) // 2
        window = [1, size] + [1] * (rank - 2)
        pads = [(0, 0), (before, size - 1 - before)] + [(0, 0)] * (rank - 2)
        total = self.e.reduce_window(self.e.binary("multiply", x, x),
                                     self.e.const(np.float32(0), "f32"), window, [1] * rank,
                                     [1] * rank, pads, "add")  # fmt: skip
        scaled = self.e.binary("multiply", total, self.e.splat(alpha / np.float32(size),
                                                                 x.shape, "f32"))  # fmt: skip
        scale = self.e.binary("add", self.e.splat(bias, x.shape, "f32"), scaled)
        factor = self.e.binary("power", scale, self.e.splat(-beta, x.shape, "f32"))
        self.values[node.output[0]] = self.e.binary("multiply", x, factor)

    # Abramowitz and Stegun 7.1.26: erf(x) = 1 - poly(t) exp(-x^2), t = 1 / (1 + p|x|), odd;
    # absolute error below 1.5e-7 (float32's own rounding near 1 is 6e-8).
    def _op_Erf(self, node) -> None:
        self.values[node.output[0]] = self.e.erf(self._float_operand(node, 0))

    def _op_Gelu(self, node) -> None:
        """GELU (opset 20): the erf form, or the tanh form with approximate="tanh"."""
        mode = self._attrs(node).get("approximate", b"none")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        if mode not in ("none", "tanh"):
            raise ONNXImportError(f"node '{node.name}': unknown Gelu approximation '{mode}'")
        self.values[node.output[0]] = self.e.gelu(self._float_operand(node, 0), mode == "tanh")

    def _op_Constant(self, node) -> None:
        """A Constant node is an initializer by another name."""
        from onnx import numpy_helper

        attrs = {a.name: a for a in node.attribute}
        if "value" not in attrs:
            raise ONNXImportError(f"node '{node.name}': only Constant with a tensor `value`")
        tensor = attrs["value"].t
        if math.prod(tensor.dims) > MAX_ELEMENTS:
            raise ONNXImportError(f"node '{node.name}' declares {math.prod(tensor.dims)} elements")
        self.constants[node.output[0]] = numpy_helper.to_array(tensor)
