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
kernel computes them. Float graph inputs and outputs stay float, and a float model (no
Q/DQ) imports as float StableHLO, ONNX Runtime's float32 ops one by one. Anything else
is an `ONNXImportError` naming the node and its op type.

Modules: this one walks the graph and writes Q/DQ, convolutions and matmuls;
`onnx_ort_kernels` holds ONNX Runtime's fused kernels, `onnx_float_ops` the float ops,
`onnx_tosa` the TOSA target, `ort_float` the float32 arithmetic the tables reproduce.
"""

from __future__ import annotations

import math
from collections.abc import Container
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute

from qdialect import numerics
from qdialect.importers import onnx_check, ort_float
from qdialect.importers.emitter import Emitter, Value, verified
from qdialect.importers.onnx_common import EIGHT_BIT, MAX_ELEMENTS, RANGE, ONNXImportError
from qdialect.importers.onnx_conv import ConvOps
from qdialect.importers.onnx_float_ops import FloatOps
from qdialect.importers.onnx_fold import FOLDABLE, fold
from qdialect.importers.onnx_ort_kernels import OrtKernels
from qdialect.importers.onnx_resize import ResizeOps

if TYPE_CHECKING:
    from onnx import NodeProto

_TYPES = {1: ("f32", np.float32), 2: ("ui8", np.uint8), 3: ("i8", np.int8), 6: ("i32", np.int32),
          9: ("i1", np.bool_),
          7: ("i64", np.int64)}  # fmt: skip


class Importer(ConvOps, OrtKernels, FloatOps, ResizeOps):
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
        onnx_check.graph(self.graph)
        self.constants: dict[str, np.ndarray] = {}
        for t in self.graph.initializer:
            if t.data_location == onnx.TensorProto.EXTERNAL:
                raise ONNXImportError(f"initializer '{t.name}' lives in an external file")
            try:
                self.constants[t.name] = numpy_helper.to_array(t)
            except Exception as err:
                raise ONNXImportError(f"initializer '{t.name}' is malformed: {err}") from None
        self.values: dict[str, Value] = {}
        self.e = Emitter()
        self.target = "stablehlo"
        # DequantizeLinear outputs: (source, scale, zero point, axis)
        self.dq: dict[str, tuple[str, np.ndarray, np.ndarray, int]] = {}
        self.fused: set[int] = set()  # nodes already imported as part of a QDQ group

    def _widen(self, x: Value, zp, dim: int | None = None) -> Value:
        """x - zp in int32."""
        wide = self.e.unary("convert", x, "i32")
        if not np.any(zp):
            return wide
        return self.e.binary(
            "subtract", wide, self.e.splat(np.asarray(zp, np.int64), x.shape, "i32", dim)
        )

    def _requantize(self, acc: Value, scale: np.ndarray, zp: int, dim: int,
                    relu: bool = False, out: str = "i8") -> Value:  # fmt: skip
        """ONNX Runtime's requantization of an int32 sum, step by step in float32; a fused
        ReLU clamps at the zero point (quantizing is monotonic and maps 0 to it)."""
        shape = acc.shape
        f = self.e.unary("convert", acc, "f32")
        f = self.e.binary("multiply", f, self.e.splat(scale.astype(np.float32), shape, "f32", dim))
        qmin, qmax = RANGE[out]
        lo = self.e.splat(np.float32(0 if relu else qmin - zp), shape, "f32")
        hi = self.e.splat(np.float32(qmax - zp), shape, "f32")
        f = self.e.clamp(lo, f, hi)
        f = self.e.unary("round_nearest_even", f, "f32")
        q = self.e.unary("convert", f, "i32")
        if zp:
            q = self.e.binary("add", q, self.e.splat(np.int64(zp), shape, "i32"))
        return self.e.unary("convert", q, out)

    # ---- graph ---------------------------------------------------------------------

    def _input(self, node, i: int) -> Value:
        if i >= len(node.input):
            raise ONNXImportError(f"{onnx_check.node_label(node)} needs an input {i}")
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

    def _handler(self, node):
        prefix = {"": "_op_", "ai.onnx": "_op_", "com.microsoft": "_ms_"}.get(node.domain)
        return getattr(self, f"{prefix}{node.op_type}", None) if prefix else None

    def _ordered(self) -> list:
        """The graph's nodes in an order where each follows what it reads (ONNX asks
        producers to write them sorted; not all do). A cycle is an error naming a node
        on it."""
        available = set(self.constants) | {vi.name for vi in self.graph.input} | {""}
        waiting = {id(n): sum(1 for name in set(n.input) if name not in available)
                   for n in self.graph.node}  # fmt: skip
        readers: dict[str, list] = {}
        for n in self.graph.node:
            for name in set(n.input) - available:
                readers.setdefault(name, []).append(n)
        ready = [n for n in self.graph.node if waiting[id(n)] == 0]
        order = []
        while ready:
            node = ready.pop(0)
            order.append(node)
            for name in node.output:
                for reader in readers.pop(name, []):
                    waiting[id(reader)] -= 1
                    if waiting[id(reader)] == 0:
                        ready.append(reader)
        if len(order) < len(self.graph.node):
            stuck = next(n for n in self.graph.node if waiting[id(n)] > 0)
            missing = next(i for i in stuck.input if i in readers)
            raise ONNXImportError(
                f"node '{stuck.name}' ({stuck.op_type}) reads '{missing}' before anything "
                "defines it (undefined, or on a cycle)"
            )
        return order

    def _foldable(self, node, constant: Container[str]) -> bool:
        if node.domain not in ("", "ai.onnx") or node.op_type not in FOLDABLE:
            return False
        if node.op_type in ("Shape", "Size"):
            return True  # every imported shape is static
        return all(not name or name in constant for name in node.input)

    def _check_supported(self) -> None:
        """Every op type the importer has no rule for, in one message: how many nodes of
        each, and the first one, so a single run tells the user all that is missing.
        Nodes that fold to constants need no rule."""
        missing: dict[str, list[str]] = {}
        constant = set(self.constants)
        for node in self.order:
            dequantized = node.op_type == "DequantizeLinear" and node.input[0] in constant
            if node.op_type == "Constant" or self._foldable(node, constant) or dequantized:
                constant.update(node.output)
            if not (node.op_type == "Constant" or self._foldable(node, constant)) and (
                self._handler(node) is None
            ):
                domain = f"{node.domain}." if node.domain not in ("", "ai.onnx") else ""
                missing.setdefault(f"{domain}{node.op_type}", []).append(node.name)
        if missing:
            lines = [f"  {op}: {len(nodes)} node{'s' if len(nodes) > 1 else ''}, first '{nodes[0]}'"
                     for op, nodes in sorted(missing.items())]  # fmt: skip
            raise ONNXImportError(
                f"{len(missing)} unsupported op type{'s' if len(missing) > 1 else ''} "
                f"({self.target} target):\n" + "\n".join(lines)
            )

    def run(self) -> ModuleOp:
        g = self.graph
        self.consumers: dict[str, list] = {}
        self.producers: dict[str, NodeProto] = {}
        for index, node in enumerate(g.node):
            if not node.name:  # messages name every node
                node.name = f"{node.op_type}_{index}"
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)
            for name in node.output:
                self.producers[name] = node
        self.order = self._ordered()
        for node in self.order:
            onnx_check.arity(node, self.opset)
        self._check_supported()
        self.outputs = {vi.name for vi in g.output}
        for vi in (x for x in g.input if x.name not in self.constants):
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
            self._bind_input(vi.name, tuple(dims), _TYPES[t.elem_type][0])
        returned = [self._bind_output(vi.name) for vi in g.output]
        for node in self.order:
            if id(node) in self.fused:
                continue
            with self.e.at(node.output[0] if node.output else node.name), onnx_check.guard(node):
                if not self._fold(node):
                    self._handler(node)(node)
        results = []
        for name, _ in returned:
            if name not in self.values:
                raise ONNXImportError(f"output '{name}' is never computed")
            results.append(self.values[name])
        return self.e.finish(results, [attrs for _, attrs in returned])

    def _fold(self, node) -> bool:
        """Fold `node` into constants when it computes from constants (onnx_fold)."""
        if not self._foldable(node, self.constants.keys()):
            return False
        if node.op_type in ("Shape", "Size") and node.input[0] not in self.constants:
            shape = np.array(self._input(node, 0).shape, np.int64)
            if node.op_type == "Size":
                self.constants[node.output[0]] = np.array(math.prod(shape), np.int64)
                return True
            attrs = self._attrs(node)
            start, end = attrs.get("start", 0), attrs.get("end", len(shape))
            self.constants[node.output[0]] = shape[start:end]
            return True
        inputs = [self.constants[name] if name else None for name in node.input]
        for name, value in zip(node.output, fold(node, inputs, self.opset), strict=False):
            self.constants[name] = value
        return True

    def _bind_input(self, name: str, shape: tuple[int, ...], elem: str) -> None:
        """Bind graph input `name` to the function's next argument."""
        self.values[name] = self.e.argument(shape, elem, name)

    def _bind_output(self, name: str) -> tuple[str, dict[str, Attribute]]:
        """(the value graph output `name` returns, the result's attributes)."""
        return name, {}

    @staticmethod
    def _attrs(node) -> dict:
        return onnx_check.attributes(node)

    def _scale_zp(self, node, i: int) -> tuple[np.ndarray, np.ndarray]:
        scale = self._const_input(node, i, "scale").astype(np.float32)
        if len(node.input) > i + 1 and node.input[i + 1]:
            zp = self._const_input(node, i + 1, "zero point")
            if zp.dtype not in (np.int8, np.uint8, np.int32):  # int32: a bias
                raise ONNXImportError(
                    f"node '{node.name}': only 8-bit quantization is supported (got {zp.dtype})"
                )
        else:
            zp = np.zeros_like(scale, np.int64)
        onnx_check.quantization(node, scale, zp)
        return scale, zp.astype(np.int64)

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
        qmin, qmax = RANGE[out]
        v = self.e.binary("divide", x, self.e.splat(scale.reshape(()), x.shape, "f32"))
        lo, hi = (
            self.e.splat(np.float32(qmin - z), x.shape, "f32"),
            self.e.splat(np.float32(qmax - z), x.shape, "f32"),
        )
        v = self.e.clamp(lo, v, hi)
        v = self.e.unary("convert", self.e.unary("round_nearest_even", v, "f32"), "i32")
        if z:
            v = self.e.binary("add", v, self.e.splat(np.int64(z), x.shape, "i32"))
        self.values[node.output[0]] = self.e.unary("convert", v, out)

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
        "Dropout",
        "Split",
        "Slice",
        "GlobalMaxPool",
        "Resize",
    )

    def _quantize_after(self, node) -> tuple[NodeProto, bool]:
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

    def _dequantized(
        self, node, i: int, what: str
    ) -> tuple[Value | np.ndarray, np.ndarray, np.ndarray]:
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

    def _dequantized_bias(self, node, s_x, s_w) -> Value | np.ndarray | None:
        """The int32 bias behind input 2's DequantizeLinear (None without one), its scale
        checked to be input scale x weight scale rather than assumed."""
        if len(node.input) <= 2 or not node.input[2]:
            return None
        bias, s_b, _ = self._dequantized(node, 2, "bias")
        expected = (np.float32(s_x.reshape(-1)[0]) * s_w.reshape(-1)).astype(np.float32)
        if not np.allclose(s_b.reshape(-1), expected, rtol=1e-6, atol=0):
            raise ONNXImportError(
                f"node '{node.name}': the bias scale is not input scale x weight scale"
            )
        return bias

    def _broadcast_shape(self, node, *values: Value) -> tuple[int, ...]:
        """The shape ONNX's multidirectional broadcasting gives `values`."""
        try:
            return tuple(int(d) for d in np.broadcast_shapes(*(v.shape for v in values)))
        except ValueError:
            shapes = " and ".join(str(list(v.shape)) for v in values)
            raise ONNXImportError(f"node '{node.name}': {shapes} do not broadcast") from None

    def _op_MatMul(self, node) -> None:
        if node.input[0] not in self.dq and node.input[1] not in self.dq:
            self._float_matmul(node)
            return
        a, s_a, z_a = self._dequantized(node, 0, "first operand")
        b, s_b, z_b = self._dequantized(node, 1, "second operand")
        self._per_channel_axis(node, 1, 1)
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        self.values[q.output[0]] = self._rows(
            node, a, lambda rows: self._qmatmul(node, rows, s_a, z_a, b, s_b, z_b, s_y, z_y,
                                                relu, self._storage(q, 2)),
        )  # fmt: skip

    def _rows(self, node, a, compute) -> Value:
        """`compute` on the rows of `a`: a batch of matrices times one constant matrix is one
        matrix product (leading axes flattened, restored after)."""
        if isinstance(a, np.ndarray) or len(a.shape) <= 2:
            return compute(a)
        lead = a.shape[:-1]
        y = compute(self._reshaped(node, a, (math.prod(lead), a.shape[-1])))
        return self._reshaped(node, y, (*lead, y.shape[-1]))

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
            shape = self.constants[source].shape
            axis %= max(len(shape), 1)
            if scale.size > 1 and (axis >= len(shape) or shape[axis] != scale.size):
                raise ONNXImportError(
                    f"{onnx_check.node_label(node)}: {scale.size} scales along axis {axis} of "
                    f"'{source}' {list(shape)}"
                )
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
        if source in self.constants:  # float parameters (BatchNormalization's, a Clip's)
            x = self.constants[source]
            if scale.size == 1 or (x.ndim > axis and x.shape[axis] == scale.size):
                along = None if scale.size == 1 else axis  # ONNX Runtime's folding: float32
                self.constants[node.output[0]] = ort_float.dequantize(
                    x, numerics.axis_broadcast(scale, x.ndim, along),
                    numerics.axis_broadcast(zp, x.ndim, along),
                )  # fmt: skip
        users = self.consumers.get(node.output[0], [])
        if source in self.constants or (
            users
            and all(u.op_type in self._QDQ_OPS for u in users)
            and node.output[0] not in self.outputs
        ):
            return  # read by the QDQ groups that consume it
        self._dequantize_activation(node.output[0])

    def _dequantize_activation(self, name: str) -> Value:
        """The float value of DequantizeLinear output `name` over a runtime 8-bit value,
        (x - zp) * scale in float32 as ONNX Runtime computes it; built when a float op
        first reads it (the DequantizeLinear is skipped while only QDQ groups read it)."""
        node = self.producers[name]
        with self.e.at(name):
            x = self._input(node, 0)
            _, scale, zp, _ = self.dq[name]
            if scale.size != 1:
                raise ONNXImportError(
                    f"node '{node.name}': per-axis DequantizeLinear of activations is not supported"
                )
            f = self.e.unary("convert", self._widen(x, int(zp.reshape(-1)[0])), "f32")
            self.values[name] = self.e.binary(
                "multiply", f, self.e.splat(scale.reshape(()), x.shape, "f32")
            )
        return self.values[name]

    def _matmul_acc(self, node, a: Value, z_a, b, z_b) -> Value:
        """The int32 product of a - za and b - zb (2-D; b constant or runtime)."""
        if isinstance(b, np.ndarray):
            if b.dtype not in EIGHT_BIT:
                raise ONNXImportError(f"node '{node.name}': the weights must be 8-bit integers")
            b = self._widen(self.e.const(b, EIGHT_BIT[b.dtype]), z_b.reshape(-1), 1)
        else:
            b = self._widen(b, z_b, 1)
        if len(a.shape) != 2 or len(b.shape) != 2:
            raise ONNXImportError(
                f"node '{node.name}': matrix products are imported for 2-D operands"
            )
        if a.shape[1] != b.shape[0]:
            raise ONNXImportError(
                f"{onnx_check.node_label(node)}: {list(a.shape)} by {list(b.shape)} do not multiply"
            )
        ac = self._widen(a, int(z_a.reshape(-1)[0]))
        out_shape = (a.shape[0], b.shape[1])
        return self.e.dot_general(ac, b, out_shape, ([1], [0]))

    def _integer_zp(self, node, i: int, per: int | None = None) -> np.ndarray:
        if len(node.input) > i and node.input[i]:
            return self._const_input(node, i, "zero point").astype(np.int64)
        return np.zeros(1 if per is None else per, np.int64)

    def _op_MatMulInteger(self, node) -> None:
        a = self._input(node, 0)
        b = self.constants.get(node.input[1])
        b = b if b is not None else self._input(node, 1)
        self.values[node.output[0]] = self._rows(
            node, a,
            lambda rows: self._matmul_acc(node, rows, self._integer_zp(node, 2), b,
                                          self._integer_zp(node, 3)),
        )  # fmt: skip

    def _op_QLinearMatMul(self, node) -> None:
        s_a, z_a = self._scale_zp(node, 1)
        s_b, z_b = self._scale_zp(node, 4)
        s_y, z_y = self._scale_zp(node, 6)
        b = self.constants.get(node.input[3])
        b = b if b is not None else self._input(node, 3)
        self.values[node.output[0]] = self._rows(
            node, self._input(node, 0),
            lambda rows: self._qmatmul(node, rows, s_a, z_a, b, s_b, z_b, s_y, z_y, relu=False,
                                       out=self._storage(node, 7)),
        )  # fmt: skip

    def _qmatmul(self, node, a: Value, s_a, z_a, b, s_b, z_b, s_y, z_y, relu: bool,
                 out: str = "i8") -> Value:  # fmt: skip
        """ONNX Runtime's QLinearMatMul; `b` a constant int8 array or a runtime value."""
        acc = self._matmul_acc(node, a, z_a, b, z_b)
        scale = ort_float.requant_scale(s_a, s_b, s_y)
        return self._requantize(acc, scale, int(z_y.reshape(-1)[0]), 1, relu, out)

    def _op_Relu(self, node) -> None:
        x = self._input(node, 0)
        if x.elem != "f32":
            raise ONNXImportError(
                f"node '{node.name}': Relu of quantized values is fused, not imported"
            )
        zero = self.e.splat(np.float32(0), x.shape, "f32")
        self.values[node.output[0]] = self.e.binary("maximum", x, zero)

    def _op_MaxPool(self, node) -> None:
        """Max pooling of int8 values (QOperator keeps MaxPool on int8; in QDQ, ONNX Runtime
        drops the Q/DQ pair around it, which requires both sides to share parameters)."""
        x, target = self._passthrough(node)
        if x.elem not in (*RANGE, "f32") or len(x.shape) != 4 or len(node.output) > 1:
            raise ONNXImportError(
                f"node '{node.name}': MaxPool is imported for 8-bit or float NCHW values "
                "(without its indices output)"
            )
        a = self._attrs(node)
        kernel, strides, dil = self._window(node, a)
        pads = self._pads(node, x.shape[2:], kernel, strides, dil)
        if a.get("ceil_mode", 0):
            pads = self._ceil_pads(x.shape[2:], kernel, strides, dil, pads)
        onnx_check.pooled(node, x.shape[2:], kernel, strides, dil, pads)
        self.values[target] = self._max_pool(x, kernel, strides, dil, pads)

    @staticmethod
    def _window(node, a: dict) -> tuple[list[int], list[int], list[int]]:
        """(kernel, strides, dilations) of a 2-D pooling node, checked."""
        if "kernel_shape" not in a:
            raise ONNXImportError(f"{onnx_check.node_label(node)}: needs kernel_shape")
        kernel = onnx_check.spatial(node, a, "kernel_shape", 2, 1, 1)
        strides = onnx_check.spatial(node, a, "strides", 2, 1, 1)
        dil = onnx_check.spatial(node, a, "dilations", 2, 1, 1)
        return kernel, strides, dil

    @staticmethod
    def _ceil_pads(size, kernel, strides, dil, pads) -> list[int]:
        """Pads with ceil_mode's extra windows at the end: the output size rounds up, but a
        window that would start in the end padding is dropped (ONNX Runtime's rule)."""
        pads = list(pads)
        for i, (n, k, st, d) in enumerate(zip(size, kernel, strides, dil, strict=True)):
            span = n + pads[i] + pads[i + 2] - (k - 1) * d - 1
            out = -(-span // st) + 1
            if (out - 1) * st >= n + pads[i]:
                out -= 1
            pads[i + 2] += max((out - 1) * st + (k - 1) * d + 1 - (n + pads[i] + pads[i + 2]), 0)
        return pads

    def _max_pool(self, x: Value, kernel, strides, dil, pads) -> Value:
        """`reduce_window` maximum over NCHW int8 (ONNX pads: top, left, bottom, right)."""
        (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dil
        top, left, bottom, right = pads
        lowest = np.float32(-np.inf) if x.elem == "f32" else np.array(RANGE[x.elem][0])
        init = self.e.const(lowest, x.elem)
        return self.e.reduce_window(x, init, [1, 1, kh, kw], [1, 1, sh, sw], [1, 1, dh, dw],
                                    [(0, 0), (0, 0), (top, bottom), (left, right)], "maximum")  # fmt: skip

    def _reshaped(self, node, x: Value, shape: tuple[int, ...]) -> Value:
        if math.prod(shape) != math.prod(x.shape):
            raise ONNXImportError(
                f"node '{node.name}': cannot reshape {list(x.shape)} to {list(shape)}"
            )
        return self.e.reshape(x, shape)

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

    def _op_Dropout(self, node) -> None:
        """Inference Dropout is the identity (its mask output is not imported)."""
        if len(node.output) > 1 and node.output[1] and node.output[1] in self.consumers:
            raise ONNXImportError(f"node '{node.name}': Dropout's mask output is read")
        self._shape_op(node, lambda x: x.shape)

    def _pieces(self, node) -> tuple[Value, list[str]]:
        """(the input, the names its pieces bind) of an op with several outputs that moves
        values without arithmetic: between Q/DQ, each output's QuantizeLinear must share
        the input's parameters (ONNX Runtime drops the pairs)."""
        if node.input[0] not in self.dq:
            return self._input(node, 0), list(node.output)
        x, s_x, z_x = self._dequantized(node, 0, "input")
        if isinstance(x, np.ndarray):
            raise ONNXImportError(f"node '{node.name}': {node.op_type} of a constant")
        targets = []
        for name in node.output:
            users = self.consumers.get(name, [])
            if len(users) != 1 or users[0].op_type != "QuantizeLinear" or name in self.outputs:
                raise ONNXImportError(
                    f"node '{node.name}': output '{name}' must be followed by QuantizeLinear"
                )
            s_y, z_y = self._scale_zp(users[0], 1)
            if not (np.array_equal(s_x, s_y) and np.array_equal(z_x, z_y)):
                raise ONNXImportError(
                    f"node '{node.name}': Q/DQ around it must share their parameters"
                )
            self.fused.add(id(users[0]))
            targets.append(users[0].output[0])
        return x, targets

    def _op_Split(self, node) -> None:
        """Split along an axis into the sizes given (input, or `split` before opset 13), or
        into equal parts (the last smaller when uneven, as opset 18 defines)."""
        x, targets = self._pieces(node)
        attrs = self._attrs(node)
        axis = int(attrs.get("axis", 0))
        if not -len(x.shape) <= axis < len(x.shape):
            raise ONNXImportError(f"node '{node.name}': axis {axis} is out of range")
        axis %= len(x.shape)
        if len(node.input) > 1 and node.input[1]:
            sizes = [int(v) for v in self._const_input(node, 1, "split").reshape(-1)]
        elif "split" in attrs:
            sizes = [int(v) for v in attrs["split"]]
        else:
            n = len(node.output)
            part = -(-x.shape[axis] // n)
            sizes = [min(part, x.shape[axis] - i * part) for i in range(n)]
        if len(sizes) != len(targets) or min(sizes) < 0 or sum(sizes) != x.shape[axis]:
            raise ONNXImportError(
                f"node '{node.name}': split sizes {sizes} do not divide {x.shape[axis]}"
            )
        start = 0
        for size, target in zip(sizes, targets, strict=True):
            low, high = [0] * len(x.shape), list(x.shape)
            low[axis], high[axis] = start, start + size
            self.values[target] = self._sliced(x, low, high, [1] * len(x.shape))
            start += size

    def _op_Slice(self, node) -> None:
        """Slice with constant starts/ends/axes/steps, clamped as ONNX defines."""
        x, target = self._passthrough(node)
        rank = len(x.shape)

        def operand(i: int, default):
            if len(node.input) > i and node.input[i]:
                return [int(v) for v in self._const_input(node, i, "slice bound").reshape(-1)]
            return default

        starts, ends = operand(1, None), operand(2, None)
        if starts is None or ends is None:
            raise ONNXImportError(f"node '{node.name}': Slice needs starts and ends")
        axes = operand(3, list(range(len(starts))))
        steps = operand(4, [1] * len(starts))
        if not len(starts) == len(ends) == len(axes) == len(steps) or 0 in steps:
            raise ONNXImportError(f"node '{node.name}': malformed Slice bounds")
        low, high, stride = [0] * rank, list(x.shape), [1] * rank
        for start, end, axis, step in zip(starts, ends, axes, steps, strict=True):
            if not -rank <= axis < rank:
                raise ONNXImportError(f"node '{node.name}': axis {axis} is out of range")
            if step < 0:
                raise ONNXImportError(f"node '{node.name}': negative Slice steps")
            d = x.shape[axis % rank]
            start, end = (v + d if v < 0 else v for v in (start, end))
            low[axis % rank] = min(max(start, 0), d)
            high[axis % rank] = max(min(end, d), low[axis % rank])
            stride[axis % rank] = step
        self.values[target] = self._sliced(x, low, high, stride)

    def _sliced(self, x: Value, low: list[int], high: list[int], strides: list[int]) -> Value:
        return self.e.slice(x, low, high, strides)

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


def import_onnx(data: bytes, target: str = "stablehlo") -> ModuleOp:
    """One `func.func @main` for a quantized ONNX model: `target="stablehlo"` computes ONNX
    Runtime's outputs exactly (float32 requantization written out); `target="tosa"` is
    integer TOSA for the NPU, within one unit of them (fixed-point requantization), its
    layout transposes reduced to those at the boundaries (`tosa-reduce-transposes`)."""
    if target not in ("stablehlo", "tosa"):
        raise ONNXImportError(f"unknown target '{target}' (stablehlo or tosa)")
    if target == "tosa":
        from xdsl.context import Context

        from qdialect.importers.onnx_tosa import TosaImporter
        from qdialect.transforms.tosa_reduce_transposes import TosaReduceTransposes

        module = verified(TosaImporter(data).run())
        TosaReduceTransposes().apply(Context(), module)
        return verified(module)
    return verified(Importer(data).run())
