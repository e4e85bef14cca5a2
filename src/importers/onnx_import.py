"""Import quantized ONNX models (QDQ and QOperator formats) as StableHLO-like programs
that compute ONNX Runtime's integers exactly.

ONNX Runtime's CPU kernels requantize in float32: QLinearConv and
QLinearMatMul accumulate `(x - zx) * (w - zw)` in int32, add the int32 bias,
convert the sum to float32, multiply by the float32 `(s_x * s_w[c]) / s_y`
(computed in that order), clamp, round to nearest even and add the output
zero point. `uniform_quantize` in StableHLO divides by the output scale
instead, which rounds differently in rare cases, so the importer writes the
requantization out as those float32 steps (`convert`, `multiply`, `clamp`,
`round_nearest_even`, `add`) — bit-exact with ONNX Runtime by construction,
and checked against it.

Supported: QuantizeLinear and DequantizeLinear (per tensor, int8 or uint8),
ConvInteger and MatMulInteger (int32 results), QLinearConv (2-D, groups, strides,
pads, dilations; per-tensor or per-channel int8 weights; optional bias),
QLinearMatMul (2-D, constant or runtime B), the com.microsoft QLinearAdd, QLinearMul,
QLinearGlobalAveragePool, QGemm and QLinearSigmoid (MLAS's x86-64 arithmetic),
Relu, MaxPool, Reshape, Flatten, Squeeze, Unsqueeze, Identity; and the QDQ groups
ONNX Runtime fuses into those kernels (DequantizeLinear -> Conv / MatMul / Gemm / Add /
Mul / GlobalAveragePool -> [Relu] -> QuantizeLinear, Sigmoid / HardSwish / HardSigmoid
between Q/DQ as 256-entry tables, Q/DQ around shape ops), imported as the fused
kernel computes them. Float graph inputs and outputs stay float. Anything else is an
`ONNXImportError` naming the node and its op type. The TOSA target is `onnx_tosa`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from qdialect.importers import ort_float

MAX_ELEMENTS = 1 << 28  # a tensor larger than this is refused (bounded memory)
_RANGE = {"i8": (-128, 127), "ui8": (0, 255)}
_TYPES = {1: ("f32", np.float32), 2: ("ui8", np.uint8), 3: ("i8", np.int8), 6: ("i32", np.int32),
          7: ("i64", np.int64)}  # fmt: skip


class ONNXImportError(ValueError):
    """A model this importer cannot read or does not support; the message says which part."""


@dataclass
class Value:
    name: str  # SSA name
    shape: tuple[int, ...]
    elem: str  # "f32", "i8", "i32"


class Importer:
    def __init__(self, data: bytes):
        import onnx
        from onnx import numpy_helper

        try:
            model = onnx.load_model_from_string(data)
        except Exception as err:  # protobuf's DecodeError and friends
            raise ONNXImportError(f"malformed ONNX protobuf: {err}") from None
        self.graph = model.graph
        self.opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")),
                         default=13)  # fmt: skip
        if not self.graph.node and not self.graph.output:
            raise ONNXImportError("the model has no graph")
        self.constants: dict[str, np.ndarray] = {}
        for t in self.graph.initializer:
            if t.data_location == onnx.TensorProto.EXTERNAL:
                raise ONNXImportError(f"initializer '{t.name}' lives in an external file")
            if math.prod(t.dims) > MAX_ELEMENTS:
                raise ONNXImportError(
                    f"initializer '{t.name}' declares {math.prod(t.dims)} elements"
                )
            try:
                self.constants[t.name] = numpy_helper.to_array(t)
            except Exception as err:
                raise ONNXImportError(f"initializer '{t.name}' is malformed: {err}") from None
        self.values: dict[str, Value] = {}
        self.lines: list[str] = []
        self.count = 0
        self.dq: dict[str, tuple[str, np.ndarray, np.ndarray]] = {}  # DequantizeLinear outputs
        self.fused: set[int] = set()  # nodes already imported as part of a QDQ group

    # ---- emission helpers ------------------------------------------------------------

    def _fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    @staticmethod
    def _t(shape, elem: str) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{elem}>" if shape else f"tensor<{elem}>"

    def _emit(self, text: str, shape, elem: str) -> Value:
        """One op (its text carries its type signature) whose result is shape x elem."""
        name = self._fresh()
        self.lines.append(f"  {name} = {text}")
        return Value(name, tuple(shape), elem)

    def _const(self, array: np.ndarray, elem: str) -> Value:
        name = self._fresh()
        shape = array.shape
        flat = array.reshape(-1)
        if elem in ("f32", "f64"):
            cast = np.float32 if elem == "f32" else np.float64
            body = ", ".join(repr(float(cast(v))) for v in flat)
            dense = f"dense<{float(cast(flat[0]))!r}>" if flat.size == 1 else f"dense<[{body}]>"
            if array.ndim > 1:
                dense = f"dense<{np.asarray(array, np.float64).tolist()}>"
        else:
            dense = f"dense<{int(flat[0])}>" if array.ndim == 0 else f"dense<{array.tolist()}>"
        t = self._t(shape, elem)
        self.lines.append(f"  {name} = stablehlo.constant {dense} : {t}")
        return Value(name, shape, elem)

    def _unary(self, op: str, x: Value, elem: str) -> Value:
        return self._emit(
            f"stablehlo.{op} {x.name} : ({self._t(x.shape, x.elem)}) -> {self._t(x.shape, elem)}",
            x.shape,
            elem,
        )

    def _binary(self, op: str, a: Value, b: Value) -> Value:
        return self._emit(
            f"stablehlo.{op} {a.name}, {b.name} : {self._t(a.shape, a.elem)}", a.shape, a.elem
        )

    def _splat(self, value, shape, elem: str, dim: int | None = None) -> Value:
        """A scalar or a vector along `dim`, broadcast to `shape`."""
        array = np.asarray(value)
        if array.size == 1:
            c = self._const(array.reshape(()), elem)
            dims = "[]"
        else:
            c = self._const(array.reshape(-1), elem)
            dims = f"[{dim}]"
        return self._emit(
            f"stablehlo.broadcast_in_dim {c.name}, dims = {dims} : ({self._t(c.shape, elem)}) -> {self._t(shape, elem)}",
            shape, elem,
        )  # fmt: skip

    def _widen(self, x: Value, zp, dim: int | None = None) -> Value:
        """x - zp in int32."""
        wide = self._unary("convert", x, "i32")
        if not np.any(zp):
            return wide
        return self._binary(
            "subtract", wide, self._splat(np.asarray(zp, np.int64), x.shape, "i32", dim)
        )

    def _requantize(self, acc: Value, scale: np.ndarray, zp: int, dim: int,
                    relu: bool = False, out: str = "i8") -> Value:  # fmt: skip
        """ONNX Runtime's requantization of an int32 sum, step by step in float32; a fused
        ReLU clamps at the zero point (quantizing is monotonic and maps 0 to it)."""
        shape = acc.shape
        f = self._unary("convert", acc, "f32")
        f = self._binary("multiply", f, self._splat(scale.astype(np.float32), shape, "f32", dim))
        qmin, qmax = _RANGE[out]
        lo = self._splat(np.float32(0 if relu else qmin - zp), shape, "f32")
        hi = self._splat(np.float32(qmax - zp), shape, "f32")
        f = self._emit(
            f"stablehlo.clamp {lo.name}, {f.name}, {hi.name} : {self._t(shape, 'f32')}",
            shape,
            "f32",
        )
        f = self._unary("round_nearest_even", f, "f32")
        q = self._unary("convert", f, "i32")
        if zp:
            q = self._binary("add", q, self._splat(np.int64(zp), shape, "i32"))
        return self._unary("convert", q, out)

    # ---- graph ---------------------------------------------------------------------

    def _input(self, node, i: int) -> Value:
        name = node.input[i]
        if name not in self.values:
            raise ONNXImportError(
                f"node '{node.name}' ({node.op_type}) reads '{name}' before anything defines it"
            )
        return self.values[name]

    def _const_input(self, node, i: int, what: str) -> np.ndarray:
        if i >= len(node.input) or node.input[i] not in self.constants:
            raise ONNXImportError(f"node '{node.name}' ({node.op_type}) needs a constant {what}")
        return self.constants[node.input[i]]

    def run(self) -> str:
        g = self.graph
        self.consumers: dict[str, list] = {}
        self.producers: dict[str, object] = {}
        for index, node in enumerate(g.node):
            if not node.name:  # messages name every node
                node.name = f"{node.op_type}_{index}"
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)
            for name in node.output:
                self.producers[name] = node
        self.outputs = {vi.name for vi in g.output}
        args = []
        for i, vi in enumerate(x for x in g.input if x.name not in self.constants):
            t = vi.type.tensor_type
            if t.elem_type not in _TYPES:
                raise ONNXImportError(
                    f"input '{vi.name}' has unsupported element type {t.elem_type}"
                )
            dims = [d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim]
            if any(d <= 0 for d in dims) or math.prod(dims) > MAX_ELEMENTS:
                raise ONNXImportError(
                    f"input '{vi.name}' needs a static, bounded shape, got {dims}"
                )
            args.append(self._bind_input(i, vi.name, tuple(dims), _TYPES[t.elem_type][0]))
        returned = [self._bind_output(vi.name) for vi in g.output]
        for node in g.node:
            if id(node) in self.fused:
                continue
            prefix = {"": "_op_", "ai.onnx": "_op_", "com.microsoft": "_ms_"}.get(node.domain)
            handler = getattr(self, f"{prefix}{node.op_type}", None) if prefix else None
            if handler is None:
                domain = f"{node.domain}." if node.domain not in ("", "ai.onnx") else ""
                raise ONNXImportError(
                    f"node '{node.name}' ({domain}{node.op_type}) is not supported"
                )
            handler(node)
        results = []
        for name, _ in returned:
            if name not in self.values:
                raise ONNXImportError(f"output '{name}' is never computed")
            results.append(self.values[name])
        types = ", ".join(self._t(v.shape, v.elem) for v in results)
        signature = ", ".join(
            self._t(v.shape, v.elem) + attr for v, (_, attr) in zip(results, returned, strict=True)
        )
        return (
            f"func.func @main({', '.join(args)}) -> ({signature}) {{\n" + "\n".join(self.lines)
            + f"\n  func.return {', '.join(v.name for v in results)} : {types}\n}}\n"
        )  # fmt: skip

    def _bind_input(self, i: int, name: str, shape: tuple[int, ...], elem: str) -> str:
        """Bind graph input `name` to argument i; return the argument's text."""
        self.values[name] = Value(f"%arg{i}", shape, elem)
        return f"%arg{i}: {self._t(shape, elem)}"

    def _bind_output(self, name: str) -> tuple[str, str]:
        """(the value graph output `name` returns, attribute text for the result)."""
        return name, ""

    @staticmethod
    def _attrs(node) -> dict:
        from onnx import helper

        return {a.name: helper.get_attribute_value(a) for a in node.attribute}

    def _scale_zp(self, node, i: int) -> tuple[np.ndarray, np.ndarray]:
        scale = self._const_input(node, i, "scale").astype(np.float32)
        if len(node.input) > i + 1 and node.input[i + 1]:
            zp = self._const_input(node, i + 1, "zero point")
            if zp.dtype not in (np.int8, np.uint8, np.int32):  # int32: a bias
                raise ONNXImportError(
                    f"node '{node.name}': only 8-bit quantization is supported (got {zp.dtype})"
                )
            zp = zp.astype(np.int64)
        else:
            zp = np.zeros_like(scale, np.int64)
        return scale, zp

    def _storage(self, node, zp_index: int) -> str:
        """The storage type a QuantizeLinear-like output gets: its zero point's, else uint8
        (ONNX's default)."""
        if zp_index < len(node.input) and node.input[zp_index]:
            dtype = self._const_input(node, zp_index, "zero point").dtype
            return "ui8" if dtype == np.uint8 else "i8"
        return "ui8"

    def _op_QuantizeLinear(self, node) -> None:
        """round(x / scale) half to even, plus the zero point, saturated (ONNX Runtime's
        MLAS: divide, clamp to the range less the zero point, round, add)."""
        x = self._input(node, 0)
        scale, zp = self._scale_zp(node, 1)
        if scale.size != 1 or x.elem != "f32":
            raise ONNXImportError(f"node '{node.name}': per-tensor QuantizeLinear of float only")
        z = int(zp.reshape(-1)[0])
        out = self._storage(node, 2)
        qmin, qmax = _RANGE[out]
        v = self._binary("divide", x, self._splat(scale.reshape(()), x.shape, "f32"))
        lo, hi = (
            self._splat(np.float32(qmin - z), x.shape, "f32"),
            self._splat(np.float32(qmax - z), x.shape, "f32"),
        )
        v = self._emit(
            f"stablehlo.clamp {lo.name}, {v.name}, {hi.name} : {self._t(x.shape, 'f32')}",
            x.shape,
            "f32",
        )
        v = self._unary("convert", self._unary("round_nearest_even", v, "f32"), "i32")
        if z:
            v = self._binary("add", v, self._splat(np.int64(z), x.shape, "i32"))
        self.values[node.output[0]] = self._unary("convert", v, out)

    def _op_DynamicQuantizeLinear(self, node) -> None:
        """uint8 quantization with parameters from the data, as ONNX Runtime computes them:
        the range [min(x, 0), max(x, 0)], scale (max - min) / 255 in float32 (1 when the
        range is empty), zero point -min / scale clamped to [0, 255] and rounded half to
        even, then QuantizeLinear (divide, clamp, round half to even, add)."""
        x = self._input(node, 0)
        if x.elem != "f32":
            raise ONNXImportError(f"node '{node.name}': DynamicQuantizeLinear of float only")
        shape, scalar = x.shape, "tensor<f32>"

        def reduce(kind: str, init: float) -> Value:
            start = self._const(np.float32(init), "f32")
            return self._emit(
                f"stablehlo.reduce({x.name} init: {start.name}) applies stablehlo.{kind} across "
                f"dimensions = {list(range(len(shape)))} : ({self._t(shape, 'f32')}, {scalar}) -> "
                f"{scalar}",
                (), "f32",
            )  # fmt: skip

        def c(v: float) -> Value:
            return self._const(np.float32(v), "f32")

        top = float(np.finfo(np.float32).max)  # the identity for finite data (no inf literal)
        lo = self._binary("minimum", reduce("minimum", top), c(0.0))
        hi = self._binary("maximum", reduce("maximum", -top), c(0.0))
        scale = self._binary("divide", self._binary("subtract", hi, lo), c(255.0))
        empty = self._emit(f"stablehlo.compare EQ, {hi.name}, {lo.name} : ({scalar}, {scalar}) -> "
                           "tensor<i1>", (), "i1")  # fmt: skip
        scale = self._emit(f"stablehlo.select {empty.name}, {c(1.0).name}, {scale.name} : "
                           f"(tensor<i1>, {scalar}, {scalar}) -> {scalar}", (), "f32")  # fmt: skip
        zp = self._binary("subtract", c(0.0), self._binary("divide", lo, scale))
        zp = self._emit(f"stablehlo.clamp {c(0.0).name}, {zp.name}, {c(255.0).name} : {scalar}",
                        (), "f32")  # fmt: skip
        zp = self._unary("convert", self._unary("round_nearest_even", zp, "f32"), "i32")

        def spread(v: Value) -> Value:
            return self._emit(
                f"stablehlo.broadcast_in_dim {v.name}, dims = [] : ({self._t((), v.elem)}) -> "
                f"{self._t(shape, v.elem)}",
                shape, v.elem,
            )  # fmt: skip

        zp_f = self._unary("convert", zp, "f32")
        low = spread(self._binary("subtract", c(0.0), zp_f))
        high = spread(self._binary("subtract", c(255.0), zp_f))
        v = self._binary("divide", x, spread(scale))
        v = self._emit(f"stablehlo.clamp {low.name}, {v.name}, {high.name} : {self._t(shape, 'f32')}",
                       shape, "f32")  # fmt: skip
        v = self._unary("convert", self._unary("round_nearest_even", v, "f32"), "i32")
        v = self._binary("add", v, spread(zp))
        outputs = [self._unary("convert", v, "ui8"), scale, self._unary("convert", zp, "ui8")]
        for name, value in zip(node.output, outputs, strict=False):
            if name:
                self.values[name] = value

    # ---- QDQ format: DequantizeLinear -> op -> QuantizeLinear groups ---------------------

    _QDQ_OPS = (
        "Conv",
        "MatMul",
        "Gemm",
        "Add",
        "Mul",
        "GlobalAveragePool",
        "AveragePool",
        "Concat",
        "Transpose",
        "Pad",
        "Softmax",
        "Sigmoid",
        "Tanh",
        "HardSwish",
        "HardSigmoid",
        "Flatten",
        "Reshape",
        "MaxPool",
        "Identity",
        "Squeeze",
        "Unsqueeze",
    )

    def _quantize_after(self, node) -> tuple[object, bool]:
        """The QuantizeLinear that ends `node`'s QDQ group (through an optional Relu)."""
        relu = False
        out = node.output[0]
        users = self.consumers.get(out, [])
        if len(users) == 1 and users[0].op_type == "Relu" and out not in self.outputs:
            relu = True
            self.fused.add(id(users[0]))
            out = users[0].output[0]
            users = self.consumers.get(out, [])
        if len(users) != 1 or users[0].op_type != "QuantizeLinear" or out in self.outputs:
            raise ONNXImportError(
                f"node '{node.name}' ({node.op_type}) must be followed by QuantizeLinear: "
                "float computation is not imported"
            )
        self.fused.add(id(users[0]))
        return users[0], relu

    def _dequantized(self, node, i: int, what: str) -> tuple[object, np.ndarray, np.ndarray]:
        """(int8 value or constant array, scale, zero point) behind input i's DequantizeLinear."""
        name = node.input[i]
        if name not in self.dq:
            raise ONNXImportError(
                f"node '{node.name}' ({node.op_type}) is not supported on float data: its "
                f"{what} must come from a DequantizeLinear"
            )
        source, scale, zp, _ = self.dq[name]
        if source in self.constants:
            return self.constants[source], scale, zp
        if source not in self.values:
            raise ONNXImportError(f"node '{node.name}' reads '{source}' before anything defines it")
        return self.values[source], scale, zp

    def _op_Conv(self, node) -> None:
        x, s_x, z_x = self._dequantized(node, 0, "input")
        w, s_w, z_w = self._dequantized(node, 1, "weight")
        self._per_channel_axis(node, 1, 0)
        bias = None
        if len(node.input) > 2 and node.input[2]:
            bias, s_b, _ = self._dequantized(node, 2, "bias")
            expected = (np.float32(s_x.reshape(-1)[0]) * s_w.reshape(-1)).astype(np.float32)
            if not np.allclose(s_b.reshape(-1), expected, rtol=1e-6, atol=0):
                raise ONNXImportError(
                    f"node '{node.name}': the bias scale is not input scale x weight scale"
                )
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        if not isinstance(w, np.ndarray) or (bias is not None and not isinstance(bias, np.ndarray)):
            raise ONNXImportError(f"node '{node.name}': weights and bias must be constants")
        self.values[q.output[0]] = self._qconv(node, x, s_x, z_x, w, s_w, z_w, bias, s_y, z_y, relu,
                                               self._storage(q, 2))  # fmt: skip

    def _op_MatMul(self, node) -> None:
        a, s_a, z_a = self._dequantized(node, 0, "first operand")
        b, s_b, z_b = self._dequantized(node, 1, "second operand")
        self._per_channel_axis(node, 1, 1)
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        self.values[q.output[0]] = self._qmatmul(node, a, s_a, z_a, b, s_b, z_b, s_y, z_y, relu,
                                                 self._storage(q, 2))  # fmt: skip

    def _passthrough(self, node) -> tuple[Value, str]:
        """(the 8-bit input, the name its result binds) of an op that moves or picks values
        without arithmetic. Between Q/DQ, ONNX Runtime drops the pair, which is exact only
        when both sides share scale and zero point (checked)."""
        if node.input[0] not in self.dq:
            return self._input(node, 0), node.output[0]
        x, s_x, z_x = self._dequantized(node, 0, "input")
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        if relu or not (np.array_equal(s_x, s_y) and np.array_equal(z_x, z_y)):
            raise ONNXImportError(f"node '{node.name}': Q/DQ around it must share their parameters")
        return x, q.output[0]

    def _dq_entry(self, node) -> tuple[str, np.ndarray, np.ndarray, int]:
        """(source, scale, zero point, axis) of a DequantizeLinear; the axis (ONNX's default
        1, made non-negative for constant sources) matters for per-channel weights."""
        scale, zp = self._scale_zp(node, 1)
        axis = int(self._attrs(node).get("axis", 1))
        source = node.input[0]
        if source in self.constants:
            axis %= max(self.constants[source].ndim, 1)
        return source, scale, zp, axis

    def _per_channel_axis(self, node, i: int, expected: int) -> None:
        """Per-channel weights must be quantized along the output channels (`expected`):
        any other axis cannot be folded into a per-channel requantization."""
        _, scale, _, axis = self.dq[node.input[i]]
        if scale.size > 1 and axis != expected:
            raise ONNXImportError(
                f"node '{node.name}' ({node.op_type}): its weights are quantized along axis "
                f"{axis}; per-channel weights must use the output-channel axis {expected}"
            )

    def _unary_group(self, node) -> tuple[Value, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          str, str]:  # fmt: skip
        """DequantizeLinear -> node -> QuantizeLinear around a runtime 8-bit value: (value,
        its scale and zero point, the output's scale and zero point, storage type, the
        name the result binds)."""
        x, s_x, z_x = self._dequantized(node, 0, "input")
        q, relu = self._quantize_after(node)
        if relu or isinstance(x, np.ndarray):
            raise ONNXImportError(f"node '{node.name}': expected DQ -> {node.op_type} -> Q")
        s_y, z_y = self._scale_zp(q, 1)
        return x, s_x, z_x, s_y, z_y, self._storage(q, 2), q.output[0]

    def _op_DequantizeLinear(self, node) -> None:
        source, scale, zp, axis = self._dq_entry(node)
        self.dq[node.output[0]] = (source, scale, zp, axis)
        users = self.consumers.get(node.output[0], [])
        if source in self.constants or (
            users
            and all(u.op_type in self._QDQ_OPS for u in users)
            and node.output[0] not in self.outputs
        ):
            return  # read by the QDQ groups that consume it
        x = self._input(node, 0)

        if scale.size != 1:
            raise ONNXImportError(
                f"node '{node.name}': per-axis DequantizeLinear of activations is not supported"
            )
        wide = self._widen(x, int(zp.reshape(-1)[0]))
        f = self._unary("convert", wide, "f32")
        self.values[node.output[0]] = self._binary(
            "multiply", f, self._splat(scale.reshape(()), x.shape, "f32")
        )

    def _op_QLinearConv(self, node) -> None:
        s_x, z_x = self._scale_zp(node, 1)
        s_w, z_w = self._scale_zp(node, 4)
        s_y, z_y = self._scale_zp(node, 6)
        bias = self._const_input(node, 8, "bias") if len(node.input) > 8 and node.input[8] else None
        self.values[node.output[0]] = self._qconv(
            node, self._input(node, 0), s_x, z_x, self._const_input(node, 3, "weight"), s_w, z_w,
            bias, s_y, z_y, relu=False, out=self._storage(node, 7),
        )  # fmt: skip

    def _qconv(self, node, x: Value, s_x, z_x, w: np.ndarray, s_w, z_w, bias, s_y, z_y,
               relu: bool, out: str = "i8") -> Value:  # fmt: skip
        """ONNX Runtime's QLinearConv (a fused ReLU raises the lower bound to the zero point)."""
        if len(x.shape) != 4 or x.elem not in _RANGE or w.dtype not in (np.int8, np.uint8):
            raise ONNXImportError(
                f"node '{node.name}': the convolution needs int8 NCHW data and weights"
            )
        acc = self._conv_acc(node, x, z_x, w, z_w)
        out_shape = acc.shape
        if bias is not None:
            acc = self._binary("add", acc, self._splat(bias.astype(np.int64), out_shape, "i32", 1))
        scale = (
            np.float32(s_x.reshape(-1)[0]) * s_w.reshape(-1) / np.float32(s_y.reshape(-1)[0])
        ).astype(np.float32)
        return self._requantize(acc, scale, int(z_y.reshape(-1)[0]), 1, relu, out)

    def _pads(self, node, size: tuple[int, int], kernel, strides, dilations) -> list[int]:
        """ONNX pads [top, left, bottom, right], from `pads` or `auto_pad` (SAME_UPPER puts
        the odd unit at the end, SAME_LOWER at the beginning)."""
        a = self._attrs(node)
        auto = a.get("auto_pad", b"NOTSET")
        auto = auto.decode() if isinstance(auto, bytes) else auto
        if auto == "NOTSET":
            return list(a.get("pads", [0, 0, 0, 0]))
        if auto == "VALID":
            return [0, 0, 0, 0]
        if auto not in ("SAME_UPPER", "SAME_LOWER"):
            raise ONNXImportError(f"node '{node.name}': unknown auto_pad '{auto}'")
        begin, end = [], []
        for n, k, st, d in zip(size, kernel, strides, dilations, strict=True):
            total = max((-(-n // st) - 1) * st + (k - 1) * d + 1 - n, 0)
            small, large = total // 2, total - total // 2
            begin.append(small if auto == "SAME_UPPER" else large)
            end.append(large if auto == "SAME_UPPER" else small)
        return [begin[0], begin[1], end[0], end[1]]

    def _conv_acc(self, node, x: Value, z_x, w: np.ndarray, z_w) -> Value:
        """The int32 convolution of x - zx with w - zw (NCHW, OIHW; ONNX's attributes)."""
        if len(x.shape) != 4 or x.elem not in _RANGE or w.dtype not in (np.int8, np.uint8):
            raise ONNXImportError(
                f"node '{node.name}': the convolution needs 8-bit NCHW data and weights"
            )
        a = self._attrs(node)
        k_out, _, kh, kw = w.shape
        group = int(a.get("group", 1))
        strides = list(a.get("strides", [1, 1]))
        dil = list(a.get("dilations", [1, 1]))
        n, _, h, wd = x.shape
        pads = self._pads(node, (h, wd), (kh, kw), strides, dil)
        oh = (h + pads[0] + pads[2] - (kh - 1) * dil[0] - 1) // strides[0] + 1
        ow = (wd + pads[1] + pads[3] - (kw - 1) * dil[1] - 1) // strides[1] + 1
        out_shape = (n, k_out, oh, ow)
        xc = self._widen(x, int(z_x.reshape(-1)[0]))
        wc = self._const((w.astype(np.int64) - z_w.reshape(-1, 1, 1, 1)).astype(np.int64), "i32")
        acc = self._emit(
            f"stablehlo.convolution({xc.name}, {wc.name}) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], "
            f"window = {{stride = {strides}, pad = [[{pads[0]}, {pads[2]}], [{pads[1]}, {pads[3]}]], rhs_dilate = {dil}}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = {group} : i64}} : "
            f"({self._t(xc.shape, 'i32')}, {self._t(w.shape, 'i32')}) -> {self._t(out_shape, 'i32')}",
            out_shape, "i32",
        )  # fmt: skip
        return acc

    def _matmul_acc(self, node, a: Value, z_a, b, z_b) -> Value:
        """The int32 product of a - za and b - zb (2-D; b constant or runtime)."""
        if isinstance(b, np.ndarray):
            b = self._const(b.astype(np.int64) - z_b.reshape(1, -1), "i32")
        else:
            b = self._widen(b, z_b, 1)
        if len(a.shape) != 2 or len(b.shape) != 2:
            raise ONNXImportError(
                f"node '{node.name}': matrix products are imported for 2-D operands"
            )
        ac = self._widen(a, int(z_a.reshape(-1)[0]))
        out_shape = (a.shape[0], b.shape[1])
        acc = self._emit(
            f"stablehlo.dot_general {ac.name}, {b.name}, contracting_dims = [1] x [0] : "
            f"({self._t(ac.shape, 'i32')}, {self._t(b.shape, 'i32')}) -> {self._t(out_shape, 'i32')}",
            out_shape, "i32",
        )  # fmt: skip
        return acc

    def _integer_zp(self, node, i: int, per: int | None = None) -> np.ndarray:
        if len(node.input) > i and node.input[i]:
            return self._const_input(node, i, "zero point").astype(np.int64)
        return np.zeros(1 if per is None else per, np.int64)

    def _op_ConvInteger(self, node) -> None:
        """(x - zx) convolved with (w - zw), accumulated in int32 (no requantization)."""
        x = self._input(node, 0)
        w = self._const_input(node, 1, "weight")
        z_x = self._integer_zp(node, 2)
        z_w = self._integer_zp(node, 3)
        self.values[node.output[0]] = self._conv_acc(node, x, z_x, w, z_w)

    def _op_MatMulInteger(self, node) -> None:
        a = self._input(node, 0)
        b = self.constants.get(node.input[1])
        b = b if b is not None else self._input(node, 1)
        self.values[node.output[0]] = self._matmul_acc(
            node, a, self._integer_zp(node, 2), b, self._integer_zp(node, 3)
        )

    def _op_QLinearMatMul(self, node) -> None:
        s_a, z_a = self._scale_zp(node, 1)
        s_b, z_b = self._scale_zp(node, 4)
        s_y, z_y = self._scale_zp(node, 6)
        b = self.constants.get(node.input[3])
        b = b if b is not None else self._input(node, 3)
        self.values[node.output[0]] = self._qmatmul(node, self._input(node, 0), s_a, z_a, b, s_b,
                                                    z_b, s_y, z_y, relu=False,
                                                    out=self._storage(node, 7))  # fmt: skip

    def _qmatmul(self, node, a: Value, s_a, z_a, b, s_b, z_b, s_y, z_y, relu: bool,
                 out: str = "i8") -> Value:  # fmt: skip
        """ONNX Runtime's QLinearMatMul; `b` a constant int8 array or a runtime value."""
        acc = self._matmul_acc(node, a, z_a, b, z_b)
        scale = (
            np.float32(s_a.reshape(-1)[0]) * s_b.reshape(-1) / np.float32(s_y.reshape(-1)[0])
        ).astype(np.float32)
        return self._requantize(acc, scale, int(z_y.reshape(-1)[0]), 1, relu, out)

    # ---- com.microsoft QLinear ops, and the QDQ groups ONNX Runtime fuses into them -------
    # Their arithmetic is MLAS's on x86-64 (docs/onnx.md): measured equal to ONNX Runtime on
    # every input pair, and different from the ONNX float formula in rare elements.

    def _operand(self, node, i: int) -> Value:
        """Input i as a value; an 8-bit initializer becomes a constant."""
        return self._materialized(node, node.input[i])

    def _materialized(self, node, name: str) -> Value:
        if name in self.constants and name not in self.values:
            array = self.constants[name]
            elem = {np.dtype(np.int8): "i8", np.dtype(np.uint8): "ui8"}.get(array.dtype)
            if elem is None:
                raise ONNXImportError(f"node '{node.name}': constant '{name}' must be 8-bit")
            self.values[name] = self._const(array.astype(np.int64), elem)
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
        return self._emit(
            f"stablehlo.broadcast_in_dim {x.name}, dims = {list(range(offset, len(shape)))} : "
            f"({self._t(x.shape, x.elem)}) -> {self._t(shape, x.elem)}",
            shape, x.elem,
        )  # fmt: skip

    def _saturated(self, f: Value, out: str) -> Value:
        """A float32 value rounded half to even and saturated to the 8-bit type `out`."""
        lo, hi = (self._splat(np.float32(v), f.shape, "f32") for v in _RANGE[out])
        f = self._unary("round_nearest_even", f, "f32")
        f = self._emit(
            f"stablehlo.clamp {lo.name}, {f.name}, {hi.name} : {self._t(f.shape, 'f32')}",
            f.shape, "f32",
        )  # fmt: skip
        return self._unary("convert", self._unary("convert", f, "i32"), out)

    def _elementwise_shape(self, node, a: Value, b: Value) -> tuple[int, ...]:
        try:
            shape = tuple(int(d) for d in np.broadcast_shapes(a.shape, b.shape))
        except ValueError:
            raise ONNXImportError(
                f"node '{node.name}': {list(a.shape)} and {list(b.shape)} do not broadcast"
            ) from None
        if (a.shape[-1:] or (1,)) != (b.shape[-1:] or (1,)) and math.prod(b.shape) > 1:
            raise ONNXImportError(
                f"node '{node.name}': only broadcasts along leading axes or of a single "
                f"element are imported (got {list(a.shape)} and {list(b.shape)})"
            )
        return shape

    def _qadd(self, node, a: Value, s_a, z_a, b: Value, s_b, z_b, s_c, z_c,
              out: str) -> Value:  # fmt: skip
        """QLinearAdd as MLAS's AVX2 kernel computes it: r_a = s_a / s_c and r_b = s_b / s_c
        in float32, fixed = z_c - fma(r_a, z_a, r_b z_b), then fma(a, r_a, fma(b, r_b, fixed))
        rounded half to even and saturated. A fused multiply-add rounds the exact a r + c
        once; float64 holds that exact value for 8-bit a and r in [2^-14, 2^8), so each is
        a float64 multiply and add and one conversion to float32."""
        shape = self._elementwise_shape(node, a, b)
        if math.prod(b.shape) == 1 and math.prod(a.shape) > 1:
            raise ONNXImportError(
                f"node '{node.name}': QLinearAdd of a single-element operand is not imported"
            )
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
            wide = self._unary("convert", self._broadcast_to(node, x, shape), "f64")
            product = self._binary("multiply", wide, self._splat(np.float64(ratio), shape, "f64"))
            return self._unary("convert", self._binary("add", product, addend), "f32")

        partial = fma(b, ratio_b, self._splat(np.float64(fixed), shape, "f64"))
        return self._saturated(fma(a, ratio_a, self._unary("convert", partial, "f64")), out)

    def _qmul(self, node, a: Value, s_a, z_a, b: Value, s_b, z_b, s_c, z_c,
              out: str) -> Value:  # fmt: skip
        """QLinearMul as MLAS's SSE2 kernel computes it on x86-64: the int32 product of the
        centred operands, times float32 (s_a s_b) / s_c, plus z_c (two roundings), rounded
        half to even and saturated."""
        shape = self._elementwise_shape(node, a, b)
        f32 = np.float32
        ratio = f32(
            f32(f32(s_a.reshape(-1)[0]) * f32(s_b.reshape(-1)[0])) / f32(s_c.reshape(-1)[0])
        )
        product = self._binary(
            "multiply",
            self._widen(self._broadcast_to(node, a, shape), int(z_a.reshape(-1)[0])),
            self._widen(self._broadcast_to(node, b, shape), int(z_b.reshape(-1)[0])),
        )
        f = self._unary("convert", product, "f32")
        f = self._binary("multiply", f, self._splat(ratio, shape, "f32"))
        f = self._binary("add", f, self._splat(f32(z_c.reshape(-1)[0]), shape, "f32"))
        return self._saturated(f, out)

    def _qglobal_average_pool(self, node, x: Value, s_x, z_x, s_y, z_y, out: str,
                              channels_last: bool = False) -> Value:  # fmt: skip
        """QLinearGlobalAveragePool (MLAS, x86-64): the int32 sum of x - z_x over the image,
        times float32 s_x / (s_y count), requantized like a convolution's output."""
        if len(x.shape) != 4 or x.elem not in _RANGE:
            raise ONNXImportError(f"node '{node.name}': needs 8-bit NCHW (or NHWC) data")
        spatial = [1, 2] if channels_last else [2, 3]
        count = x.shape[spatial[0]] * x.shape[spatial[1]]
        n, c = x.shape[0], x.shape[3 if channels_last else 1]
        centred = self._widen(x, int(z_x.reshape(-1)[0]))
        zero = self._const(np.array(0), "i32")
        total = self._emit(
            f"stablehlo.reduce({centred.name} init: {zero.name}) applies stablehlo.add across "
            f"dimensions = {spatial} : ({self._t(x.shape, 'i32')}, tensor<i32>) -> "
            f"{self._t((n, c), 'i32')}",
            (n, c), "i32",
        )  # fmt: skip
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
            acc = self._binary(
                "add",
                acc,
                self._broadcast_to(node, self._const(bias.astype(np.int64), "i32"), acc.shape),
            )
        scale = (
            np.float32(s_a.reshape(-1)[0]) * s_b.reshape(-1) / np.float32(s_y.reshape(-1)[0])
        ).astype(np.float32)
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
        lo, hi = _RANGE[x_elem]
        inputs = ort_float.dequantize(np.arange(lo, hi + 1), float(s_x.reshape(-1)[0]),
                                      int(z_x.reshape(-1)[0]))  # fmt: skip
        with np.errstate(over="ignore", invalid="ignore"):
            values = fn(inputs)
        return ort_float.quantize(values, float(s_y.reshape(-1)[0]), int(z_y.reshape(-1)[0]),
                                  *_RANGE[out])  # fmt: skip

    def _lookup(self, node, x: Value, table: np.ndarray, out: str) -> Value:
        """table[x] (indexed from the type's minimum) with `stablehlo.gather`."""
        if x.elem not in _RANGE:
            raise ONNXImportError(f"node '{node.name}': a lookup needs 8-bit input")
        index = self._unary("convert", x, "i32")
        if x.elem == "i8":
            index = self._binary("add", index, self._splat(np.int64(128), x.shape, "i32"))
        return self._gathered(node, index, table.astype(np.int64), out)

    def _gathered(self, node, index: Value, table: np.ndarray, elem: str) -> Value:
        """table[index] for an i32 index tensor, with `stablehlo.gather`."""
        column = self._reshaped(node, index, (*index.shape, 1))
        values = self._const(table, elem)
        return self._emit(
            f'"stablehlo.gather"({values.name}, {column.name}) <{{dimension_numbers = '
            f"#stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], "
            f"index_vector_dim = {len(index.shape)}>, indices_are_sorted = false, "
            f"slice_sizes = array<i64: 1>}}> : ({self._t(table.shape, elem)}, "
            f"{self._t(column.shape, 'i32')}) -> {self._t(index.shape, elem)}",
            index.shape, elem,
        )  # fmt: skip

    # ---- softmax -----------------------------------------------------------------------

    def _ms_QLinearSoftmax(self, node) -> None:
        attrs = self._attrs(node)
        opset = int(attrs.get("opset", self.opset))
        self.values[node.output[0]] = self._qsoftmax(
            node, self._input(node, 0), self._scale_zp(node, 1)[0], *self._scale_zp(node, 3),
            self._storage(node, 4), opset, attrs.get("axis"),
        )  # fmt: skip

    def _op_Softmax(self, node) -> None:
        x, s_x, _, s_y, z_y, out, target = self._unary_group(node)
        self.values[target] = self._qsoftmax(node, x, s_x, s_y, z_y, out, self.opset,
                                             self._attrs(node).get("axis"))  # fmt: skip

    def _qsoftmax(self, node, x: Value, s_x, s_y, z_y, out: str, opset: int, axis) -> Value:
        """QLinearSoftmax as ONNX Runtime computes it: rows along `axis` (opset 13 on; before,
        everything from `axis` on); per row, float32 exp values from a 256-entry table
        indexed by x - max + 255 (exp((i - 255) s_x + shift) in double, shift =
        max(0, log(FLT_MAX / D) - 5)), summed left to right in float32; each output
        round((v * floor(1 / s_y)) / sum) + z_y, saturated."""
        if x.elem not in _RANGE:
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
        wide = self._unary("convert", rows, "i32")
        low = self._const(np.array(_RANGE[rows.elem][0]), rows.elem)
        top = self._emit(
            f"stablehlo.reduce({rows.name} init: {low.name}) applies stablehlo.maximum across "
            f"dimensions = [{len(shape) - 1}] : ({self._t(shape, rows.elem)}, "
            f"tensor<{rows.elem}>) -> {self._t(shape[:-1], rows.elem)}",
            shape[:-1], rows.elem,
        )  # fmt: skip
        top = self._broadcast_rows(self._unary("convert", top, "i32"), shape)
        index = self._binary("add", self._binary("subtract", wide, top),
                             self._splat(np.int64(255), shape, "i32"))  # fmt: skip
        exp = self._gathered(node, index, table, "f32")
        total = None  # left to right, as the kernel's loop adds
        for j in range(depth):
            column = self._emit(
                f"stablehlo.slice {exp.name} [{', '.join(f'0:{d}' for d in shape[:-1])}"
                f"{', ' if len(shape) > 1 else ''}{j}:{j + 1}] : ({self._t(shape, 'f32')}) -> "
                f"{self._t((*shape[:-1], 1), 'f32')}",
                (*shape[:-1], 1), "f32",
            )  # fmt: skip
            total = column if total is None else self._binary("add", total, column)
        total = self._broadcast_to(node, total, shape)
        step = f32(math.floor(f32(1.0) / f32(s_y.reshape(-1)[0])))
        y = self._binary("multiply", exp, self._splat(step, shape, "f32"))
        y = self._unary("round_nearest_even", self._binary("divide", y, total), "f32")
        q = self._binary("add", self._unary("convert", y, "i32"),
                         self._splat(np.int64(z_y.reshape(-1)[0]), shape, "i32"))  # fmt: skip
        lo, hi = (self._splat(np.int64(v), shape, "i32") for v in _RANGE[out])
        q = self._emit(f"stablehlo.clamp {lo.name}, {q.name}, {hi.name} : {self._t(shape, 'i32')}",
                       shape, "i32")  # fmt: skip
        result = self._unary("convert", q, out)
        if perm is None:
            return self._reshaped(node, result, x.shape)
        return self._transposed(result, perm) if axis != rank - 1 else result

    def _broadcast_rows(self, v: Value, shape: tuple[int, ...]) -> Value:
        """A per-row value (shape without the last axis) broadcast along the last axis."""
        return self._emit(
            f"stablehlo.broadcast_in_dim {v.name}, dims = {list(range(len(shape) - 1))} : "
            f"({self._t(v.shape, v.elem)}) -> {self._t(shape, v.elem)}",
            shape, v.elem,
        )  # fmt: skip

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
        shape = list(parts[0].shape)
        axis %= len(shape)
        shape[axis] = sum(p.shape[axis] for p in parts)
        if any(p.elem != parts[0].elem or len(p.shape) != len(shape) for p in parts):
            raise ONNXImportError(f"node '{node.name}': inputs of different types or ranks")
        types = ", ".join(self._t(p.shape, p.elem) for p in parts)
        return self._emit(
            f"stablehlo.concatenate {', '.join(p.name for p in parts)}, dim = {axis} : "
            f"({types}) -> {self._t(tuple(shape), parts[0].elem)}",
            tuple(shape), parts[0].elem,
        )  # fmt: skip

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
        self.values[node.output[0]] = self._concat(node, parts, int(self._attrs(node)["axis"]))

    def _op_Concat(self, node) -> None:
        axis = int(self._attrs(node)["axis"])
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
        self.values[target] = self._transposed(x, perm)

    def _transposed(self, x: Value, perm: list[int]) -> Value:
        shape = tuple(x.shape[p] for p in perm)
        return self._emit(
            f"stablehlo.transpose {x.name}, dims = {perm} : ({self._t(x.shape, x.elem)}) -> "
            f"{self._t(shape, x.elem)}",
            shape, x.elem,
        )  # fmt: skip

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
                                          int(z_y.reshape(-1)[0]), *_RANGE[out]))  # fmt: skip
        else:
            x, fill, target = self._input(node, 0), int(value), node.output[0]
        rank = len(x.shape)
        if len(pads) != 2 * rank or min(pads) < 0 or x.elem not in _RANGE:
            raise ONNXImportError(
                f"node '{node.name}': needs 8-bit data and {2 * rank} non-negative pads"
            )
        self.values[target] = self._padded(x, pads[:rank], pads[rank:], fill)

    def _padded(self, x: Value, low: list[int], high: list[int], fill: int) -> Value:
        shape = tuple(d + lo + hi for d, lo, hi in zip(x.shape, low, high, strict=True))
        v = self._const(np.array(fill), x.elem)
        return self._emit(
            f"stablehlo.pad {x.name}, {v.name}, low = {low}, high = {high}, "
            f"interior = {[0] * len(low)} : ({self._t(x.shape, x.elem)}, tensor<{x.elem}>) -> "
            f"{self._t(shape, x.elem)}",
            shape, x.elem,
        )  # fmt: skip

    # ---- average pooling ----------------------------------------------------------------

    def _ms_QLinearAveragePool(self, node) -> None:
        self.values[node.output[0]] = self._qaverage_pool(
            node, self._input(node, 0), *self._scale_zp(node, 1), *self._scale_zp(node, 3),
            self._storage(node, 4),
        )  # fmt: skip

    def _op_AveragePool(self, node) -> None:
        *operands, target = self._unary_group(node)
        self.values[target] = self._qaverage_pool(node, *operands)

    def _pool_geometry(self, node, x: Value):
        """(kernel, strides, pads [top, left, bottom, right], output H and W, channels_last)."""
        a = self._attrs(node)
        if a.get("ceil_mode", 0):
            raise ONNXImportError(f"node '{node.name}': ceil_mode is not supported yet")
        channels_last = bool(a.get("channels_last", 0))
        kernel = list(a["kernel_shape"])
        strides = list(a.get("strides", [1, 1]))
        if len(x.shape) != 4 or len(kernel) != 2:
            raise ONNXImportError(f"node '{node.name}': 2-D pooling of 4-D data only")
        size = x.shape[1:3] if channels_last else x.shape[2:]
        pads = self._pads(node, size, kernel, strides, [1, 1])
        oh = (size[0] + pads[0] + pads[2] - kernel[0]) // strides[0] + 1
        ow = (size[1] + pads[1] + pads[3] - kernel[1]) // strides[1] + 1
        return kernel, strides, pads, (oh, ow), channels_last

    def _qaverage_pool(self, node, x: Value, s_x, z_x, s_y, z_y, out: str) -> Value:
        """QLinearAveragePool as ONNX Runtime computes it: a window covering the image
        without padding is its global average pool; otherwise the input dequantized to
        float32, each window summed tap by tap in row-major order (float32 adds), divided
        by the count (the kernel size, or the in-bounds taps), then y / s_y + z_y rounded
        half to even and saturated."""
        kernel, strides, pads, (oh, ow), channels_last = self._pool_geometry(node, x)
        if x.elem not in _RANGE:
            raise ONNXImportError(f"node '{node.name}': needs 8-bit data")
        size = x.shape[1:3] if channels_last else x.shape[2:]
        if list(size) == kernel and not any(pads):
            return self._qglobal_average_pool(node, x, s_x, z_x, s_y, z_y, out, channels_last)
        xc = x if not channels_last else self._transposed(x, [0, 3, 1, 2])
        f = self._unary("convert", self._widen(xc, int(z_x.reshape(-1)[0])), "f32")
        f = self._binary("multiply", f, self._splat(np.float32(s_x.reshape(-1)[0]), f.shape, "f32"))
        n, c, h, w = f.shape
        padded = self._emit(
            f"stablehlo.pad {f.name}, {self._const(np.float32(0), 'f32').name}, "
            f"low = [0, 0, {pads[0]}, {pads[1]}], high = [0, 0, {pads[2]}, {pads[3]}], "
            f"interior = [0, 0, 0, 0] : ({self._t(f.shape, 'f32')}, tensor<f32>) -> "
            f"{self._t((n, c, h + pads[0] + pads[2], w + pads[1] + pads[3]), 'f32')}",
            (n, c, h + pads[0] + pads[2], w + pads[1] + pads[3]), "f32",
        )  # fmt: skip
        shape = (n, c, oh, ow)
        total = None
        for ky in range(kernel[0]):
            for kx in range(kernel[1]):
                rows = f"{ky}:{ky + (oh - 1) * strides[0] + 1}:{strides[0]}"
                cols = f"{kx}:{kx + (ow - 1) * strides[1] + 1}:{strides[1]}"
                tap = self._emit(
                    f"stablehlo.slice {padded.name} [0:{n}, 0:{c}, {rows}, {cols}] : "
                    f"({self._t(padded.shape, 'f32')}) -> {self._t(shape, 'f32')}",
                    shape, "f32",
                )  # fmt: skip
                total = tap if total is None else self._binary("add", total, tap)
        counts = np.full((oh, ow), kernel[0] * kernel[1], np.float32)
        if not self._attrs(node).get("count_include_pad", 0):
            ys = np.arange(oh) * strides[0] - pads[0]
            xs = np.arange(ow) * strides[1] - pads[1]
            rows = np.minimum(ys + kernel[0], h) - np.maximum(ys, 0)
            cols = np.minimum(xs + kernel[1], w) - np.maximum(xs, 0)
            counts = np.outer(rows, cols).astype(np.float32)
        count = self._emit(
            f"stablehlo.broadcast_in_dim {self._const(counts, 'f32').name}, dims = [2, 3] : "
            f"({self._t((oh, ow), 'f32')}) -> {self._t(shape, 'f32')}",
            shape, "f32",
        )  # fmt: skip
        y = self._binary("divide", total, count)
        y = self._binary("divide", y, self._splat(np.float32(s_y.reshape(-1)[0]), shape, "f32"))
        y = self._binary("add", y, self._splat(np.float32(z_y.reshape(-1)[0]), shape, "f32"))
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
        *operands, target = self._unary_group(node)
        self.values[target] = self._qglobal_average_pool(node, *operands)

    def _op_Gemm(self, node) -> None:
        attrs = self._attrs(node)
        if attrs.get("transA", 0) or float(attrs.get("beta", 1.0)) != 1.0:
            raise ONNXImportError(f"node '{node.name}': Gemm needs transA = 0 and beta = 1")
        a, s_a, z_a = self._dequantized(node, 0, "input")
        b, s_b, z_b = self._dequantized(node, 1, "weight")
        self._per_channel_axis(node, 1, 0 if attrs.get("transB", 0) else 1)
        bias = None
        if len(node.input) > 2 and node.input[2]:
            bias, s_bias, _ = self._dequantized(node, 2, "bias")
            expected = (np.float32(s_a.reshape(-1)[0]) * s_b.reshape(-1)).astype(np.float32)
            if not np.allclose(s_bias.reshape(-1), expected, rtol=1e-6, atol=0):
                raise ONNXImportError(
                    f"node '{node.name}': the bias scale is not input scale x weight scale"
                )
        if not isinstance(b, np.ndarray) or (bias is not None and not isinstance(bias, np.ndarray)):
            raise ONNXImportError(f"node '{node.name}': weights and bias must be constants")
        if attrs.get("transB", 0):
            b = b.T
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        alpha = np.float32(attrs.get("alpha", 1.0))
        self.values[q.output[0]] = self._qgemm(node, a, s_a * alpha, z_a, b, s_b, z_b, bias,
                                               s_y, z_y, relu, self._storage(q, 2))  # fmt: skip

    # ---- float ops: each one IEEE float32 operation per element, as ONNX Runtime's ---------

    def _float_operand(self, node, i: int) -> Value:
        name = node.input[i]
        if name in self.constants and name not in self.values:
            array = self.constants[name]
            if array.dtype != np.float32:
                raise ONNXImportError(f"node '{node.name}': constant '{name}' must be float32")
            self.values[name] = self._const(array, "f32")
        x = self._input(node, i)
        if x.elem != "f32":
            raise ONNXImportError(
                f"node '{node.name}' ({node.op_type}) of {x.elem} values is not supported"
            )
        return x

    def _float_binary(self, node, op: str) -> None:
        a, b = self._float_operand(node, 0), self._float_operand(node, 1)
        try:
            shape = tuple(int(d) for d in np.broadcast_shapes(a.shape, b.shape))
        except ValueError:
            raise ONNXImportError(
                f"node '{node.name}': {list(a.shape)} and {list(b.shape)} do not broadcast"
            ) from None
        a, b = self._broadcast_to(node, a, shape), self._broadcast_to(node, b, shape)
        self.values[node.output[0]] = self._binary(op, a, b)

    def _op_Clip(self, node) -> None:
        """Clip of float values, or of 8-bit values by bounds of their own type."""
        x = self._input(node, 0)
        attrs = self._attrs(node)
        bounds = []
        for i, key, default in ((1, "min", -np.inf), (2, "max", np.inf)):
            if len(node.input) > i and node.input[i]:
                bounds.append(self._const_input(node, i, key).reshape(()))
            else:
                bounds.append(attrs.get(key, default))
        if x.elem == "f32":
            lo, hi = (np.float32(max(min(float(v), 3.4e38), -3.4e38)) for v in bounds)
        elif x.elem in _RANGE:
            lo, hi = (int(np.clip(float(v), *_RANGE[x.elem])) for v in bounds)
        else:
            raise ONNXImportError(f"node '{node.name}': Clip of {x.elem} is not supported")
        low, high = (self._splat(v, x.shape, x.elem) for v in (lo, hi))
        self.values[node.output[0]] = self._emit(
            f"stablehlo.clamp {low.name}, {x.name}, {high.name} : {self._t(x.shape, x.elem)}",
            x.shape, x.elem,
        )  # fmt: skip

    def _op_LeakyRelu(self, node) -> None:
        x = self._float_operand(node, 0)
        alpha = np.float32(self._attrs(node).get("alpha", 0.01))
        zero = self._splat(np.float32(0), x.shape, "f32")
        scaled = self._binary("multiply", x, self._splat(alpha, x.shape, "f32"))
        keep = self._emit(
            f"stablehlo.compare GE, {x.name}, {zero.name} : ({self._t(x.shape, 'f32')}, "
            f"{self._t(x.shape, 'f32')}) -> {self._t(x.shape, 'i1')}",
            x.shape, "i1",
        )  # fmt: skip
        self.values[node.output[0]] = self._emit(
            f"stablehlo.select {keep.name}, {x.name}, {scaled.name} : ({self._t(x.shape, 'i1')}, "
            f"{self._t(x.shape, 'f32')}, {self._t(x.shape, 'f32')}) -> {self._t(x.shape, 'f32')}",
            x.shape, "f32",
        )  # fmt: skip

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
        y = self._binary("multiply", x, self._splat(k, x.shape, "f32", 1))
        self.values[node.output[0]] = self._binary("add", y, self._splat(c, x.shape, "f32", 1))

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

    def _op_Relu(self, node) -> None:
        x = self._input(node, 0)
        if x.elem != "f32":
            raise ONNXImportError(
                f"node '{node.name}': Relu of quantized values is fused, not imported"
            )
        zero = self._splat(np.float32(0), x.shape, "f32")
        self.values[node.output[0]] = self._binary("maximum", x, zero)

    def _op_MaxPool(self, node) -> None:
        """Max pooling of int8 values (QOperator keeps MaxPool on int8; in QDQ, ONNX Runtime
        drops the Q/DQ pair around it, which requires both sides to share parameters)."""
        x, target = self._passthrough(node)
        if x.elem not in _RANGE or len(x.shape) != 4 or len(node.output) > 1:
            raise ONNXImportError(f"node '{node.name}': MaxPool is imported for int8 NCHW values")
        a = self._attrs(node)
        if a.get("ceil_mode", 0):
            raise ONNXImportError(f"node '{node.name}': ceil_mode is not supported yet")
        kernel = list(a["kernel_shape"])
        pads = self._pads(node, x.shape[2:], kernel, list(a.get("strides", [1, 1])),
                          list(a.get("dilations", [1, 1])))  # fmt: skip
        self.values[target] = self._max_pool(
            x, list(a["kernel_shape"]), list(a.get("strides", [1, 1])),
            list(a.get("dilations", [1, 1])), pads,
        )  # fmt: skip

    def _max_pool(self, x: Value, kernel, strides, dil, pads) -> Value:
        """`reduce_window` maximum over NCHW int8 (ONNX pads: top, left, bottom, right)."""
        (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dil
        top, left, bottom, right = pads
        n, c, h, w = x.shape
        oh = (h + top + bottom - (kh - 1) * dh - 1) // sh + 1
        ow = (w + left + right - (kw - 1) * dw - 1) // sw + 1
        init = self._const(np.array(_RANGE[x.elem][0]), x.elem)
        out = self._fresh()
        scalar = f"tensor<{x.elem}>"
        self.lines += [
            f'  {out} = "stablehlo.reduce_window"({x.name}, {init.name}) <{{window_dimensions = '
            f"array<i64: 1, 1, {kh}, {kw}>, window_strides = array<i64: 1, 1, {sh}, {sw}>, "
            f"window_dilations = array<i64: 1, 1, {dh}, {dw}>, padding = dense<[[0, 0], [0, 0], "
            f"[{top}, {bottom}], [{left}, {right}]]> : tensor<4x2xi64>}}> ({{",
            f"  ^bb0(%a{self.count}: {scalar}, %b{self.count}: {scalar}):",
            f"    %m{self.count} = stablehlo.maximum %a{self.count}, %b{self.count} : {scalar}",
            f"    stablehlo.return %m{self.count} : {scalar}",
            f"  }}) : ({self._t(x.shape, x.elem)}, {scalar}) -> {self._t((n, c, oh, ow), x.elem)}",
        ]
        return Value(out, (n, c, oh, ow), x.elem)

    def _reshaped(self, node, x: Value, shape: tuple[int, ...]) -> Value:
        if math.prod(shape) != math.prod(x.shape):
            raise ONNXImportError(
                f"node '{node.name}': cannot reshape {list(x.shape)} to {list(shape)}"
            )
        return self._emit(
            f"stablehlo.reshape {x.name} : ({self._t(x.shape, x.elem)}) -> {self._t(shape, x.elem)}",
            shape, x.elem,
        )  # fmt: skip

    def _flatten_shape(self, node):
        def shape_of(x: Value) -> tuple[int, ...]:
            axis = int(self._attrs(node).get("axis", 1)) % max(len(x.shape), 1)
            return (math.prod(x.shape[:axis]), math.prod(x.shape[axis:]))

        return shape_of

    def _reshape_shape(self, node):
        def shape_of(x: Value) -> tuple[int, ...]:
            target = [int(d) for d in self._const_input(node, 1, "shape")]
            target = [x.shape[i] if d == 0 else d for i, d in enumerate(target)]
            if target.count(-1) == 1:
                known = math.prod(d for d in target if d != -1)
                target[target.index(-1)] = math.prod(x.shape) // max(known, 1)
            return tuple(target)

        return shape_of

    def _op_Flatten(self, node) -> None:
        self._shape_op(node, self._flatten_shape(node))

    def _op_Reshape(self, node) -> None:
        self._shape_op(node, self._reshape_shape(node))

    def _shape_op(self, node, shape_of) -> None:
        x, target = self._passthrough(node)
        self.values[target] = self._reshaped(node, x, shape_of(x))

    def _axes(self, node) -> list[int]:
        """Squeeze/Unsqueeze axes as given: an input (opset 13 on) or the `axes` attribute."""
        if len(node.input) > 1 and node.input[1]:
            return [int(v) for v in self._const_input(node, 1, "axes").reshape(-1)]
        return [int(v) for v in self._attrs(node).get("axes", [])]

    def _op_Identity(self, node) -> None:
        self._shape_op(node, lambda x: x.shape)

    def _op_Squeeze(self, node) -> None:
        def shape_of(x: Value) -> tuple[int, ...]:
            axes = [a % len(x.shape) for a in self._axes(node)]
            axes = axes or [i for i, d in enumerate(x.shape) if d == 1]
            if any(x.shape[a] != 1 for a in axes):
                raise ONNXImportError(f"node '{node.name}': squeezes an axis that is not 1")
            return tuple(d for i, d in enumerate(x.shape) if i not in axes)

        self._shape_op(node, shape_of)

    def _op_Unsqueeze(self, node) -> None:
        def shape_of(x: Value) -> tuple[int, ...]:
            raw = self._axes(node)
            rank = len(x.shape) + len(raw)
            axes = {a % rank for a in raw}
            dims = iter(x.shape)
            return tuple(1 if i in axes else next(dims) for i in range(rank))

        self._shape_op(node, shape_of)


def import_onnx(data: bytes, target: str = "stablehlo") -> str:
    """One `func.func @main` for a quantized ONNX model: `target="stablehlo"` computes ONNX
    Runtime's outputs exactly (float32 requantization written out); `target="tosa"` is
    integer TOSA for the NPU, within one unit of them (fixed-point requantization)."""
    if target not in ("stablehlo", "tosa"):
        raise ONNXImportError(f"unknown target '{target}' (stablehlo or tosa)")
    if target == "tosa":
        from qdialect.importers.onnx_tosa import TosaImporter

        return TosaImporter(data).run()
    return Importer(data).run()
