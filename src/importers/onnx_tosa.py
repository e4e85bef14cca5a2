"""The ONNX importer's TOSA target: integer TOSA for the NPU.

The same graph walk as `onnx_import` (this class overrides how each kernel is written):
NCHW tensors are transposed to NHWC around each convolution and pool (canonicalize folds
the pairs between layers), ONNX Runtime's float32 requantization becomes a 32-bit
fixed-point `tosa.rescale` (SINGLE_ROUND) of the same float32 scale, activations are
`tosa.table`s of the same 256 values, and float boundaries are peeled into argument and
result attributes. Within one unit of ONNX Runtime; docs/onnx.md has the measurements.
"""

from __future__ import annotations

import math

import numpy as np

from qdialect import numerics
from qdialect.importers.onnx_import import Importer, ONNXImportError, Value


class TosaImporter(Importer):
    """The same graph walk, written as TOSA for the NPU: NCHW tensors transposed to NHWC
    around each convolution and pool (canonicalize folds the pairs between layers), ONNX
    Runtime's float32 requantization approximated by a 32-bit fixed-point rescale
    (SINGLE_ROUND), float boundaries peeled into argument and result attributes."""

    def _bind_input(self, i: int, name: str, shape: tuple[int, ...], elem: str) -> str:
        users = self.consumers.get(name, [])
        if elem != "f32":
            return super()._bind_input(i, name, shape, elem)
        if len(users) != 1 or users[0].op_type != "QuantizeLinear":
            raise ONNXImportError(f"float input '{name}' must feed one QuantizeLinear (TOSA form)")
        q = users[0]
        scale, zp = self._scale_zp(q, 1)
        self.fused.add(id(q))
        self.values[q.output[0]] = Value(f"%arg{i}", shape, "i8")
        attr = f" {{qdialect.quantize = [{float(scale.reshape(-1)[0])!r} : f32, {int(zp.reshape(-1)[0])} : i64]}}"
        return f"%arg{i}: {self._t(shape, 'i8')}{attr}"

    def _bind_output(self, name: str) -> tuple[str, str]:
        node = self.producers.get(name)
        if node is None or node.op_type != "DequantizeLinear":
            return name, ""
        scale, zp = self._scale_zp(node, 1)
        self.fused.add(id(node))
        attr = f" {{qdialect.dequantize = [{float(scale.reshape(-1)[0])!r} : f32, {int(zp.reshape(-1)[0])} : i64]}}"
        return node.input[0], attr

    def _op_QuantizeLinear(self, node) -> None:
        raise ONNXImportError(f"node '{node.name}': QuantizeLinear inside the graph (TOSA form)")

    def _op_DequantizeLinear(self, node) -> None:
        scale, zp = self._scale_zp(node, 1)
        self.dq[node.output[0]] = (node.input[0], scale, zp)
        if any(u.op_type not in self._QDQ_OPS for u in self.consumers.get(node.output[0], [])):
            raise ONNXImportError(
                f"node '{node.name}': float computation is not imported (TOSA form)"
            )

    def _op_Relu(self, node) -> None:
        raise ONNXImportError(f"node '{node.name}': a Relu outside a QDQ group (TOSA form)")

    # ---- TOSA text ----------------------------------------------------------------

    def _tconst(self, array: np.ndarray, elem: str) -> str:
        name = self._fresh()
        t = self._t(array.shape, elem)
        self.lines.append(
            f"  {name} = tosa.const values(dense<{np.asarray(array).tolist()}> : {t}) : () -> {t}"
        )
        return name

    def _transpose(self, x: Value, perms: list[int]) -> Value:
        shape = tuple(x.shape[p] for p in perms)
        return self._emit(
            f"tosa.transpose {x.name} perms({perms}) : ({self._t(x.shape, x.elem)}) -> {self._t(shape, x.elem)}",
            shape, x.elem,
        )  # fmt: skip

    def _tosa_requant(self, acc: Value, scale: np.ndarray, zp: int, relu: bool) -> Value:
        n = scale.size
        pairs = [numerics.quantize_multiplier(float(v)) for v in scale.reshape(-1)]
        m = self._tconst(np.array([p[0] for p in pairs]), "i32")
        sh = self._tconst(np.array([p[1] for p in pairs]), "i8")
        iz, oz = self._tconst(np.array([0]), "i32"), self._tconst(np.array([zp]), "i8")
        y = self._emit(
            f"tosa.rescale {acc.name}, {m}, {sh}, {iz}, {oz} scale32(true) rounding_mode<SINGLE_ROUND> "
            f"per_channel({'true' if n > 1 else 'false'}) input_unsigned(false) output_unsigned(false) : "
            f"({self._t(acc.shape, 'i32')}, tensor<{n}xi32>, tensor<{n}xi8>, tensor<1xi32>, tensor<1xi8>) "
            f"-> {self._t(acc.shape, 'i8')}",
            acc.shape, "i8",
        )  # fmt: skip
        if relu:
            y = self._emit(
                f"tosa.clamp {y.name} min_val({zp} : i8) max_val(127 : i8) : ({self._t(y.shape, 'i8')}) "
                f"-> {self._t(y.shape, 'i8')}",
                y.shape, "i8",
            )  # fmt: skip
        return y

    def _qconv(self, node, x, s_x, z_x, w, s_w, z_w, bias, s_y, z_y, relu, out="i8"):
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
        a = self._attrs(node)
        k_out, c_in, kh, kw = w.shape
        group = int(a.get("group", 1))
        strides = list(a.get("strides", [1, 1]))
        dil = list(a.get("dilations", [1, 1]))
        top, left, bottom, right = self._pads(node, x.shape[2:], (kh, kw), strides, dil)
        n, c, h, wd = x.shape
        oh = (h + top + bottom - (kh - 1) * dil[0] - 1) // strides[0] + 1
        ow = (wd + left + right - (kw - 1) * dil[1] - 1) // strides[1] + 1
        xh = self._transpose(x, [0, 2, 3, 1])
        b = self._tconst(
            np.zeros(k_out, np.int64) if bias is None else bias.astype(np.int64), "i32"
        )
        zx, zw = (
            self._tconst(np.array([int(z_x.reshape(-1)[0])]), "i8"),
            self._tconst(np.array([0]), "i8"),
        )
        out_t = self._t((n, oh, ow, k_out), "i32")
        attrs = f"pad([{top}, {bottom}, {left}, {right}]) stride({strides}) dilation({dil}) acc_type(i32)"
        if group == 1:
            wt = self._tconst(np.transpose(w, (0, 2, 3, 1)).astype(np.int64), "i8")  # OHWI
            w_t = self._t((k_out, kh, kw, c_in), "i8")
            op = "tosa.conv2d"
        elif group == c and c_in == 1:
            mult = k_out // c
            depth = np.transpose(w.reshape(c, mult, kh, kw), (2, 3, 0, 1))  # KH, KW, C, M
            wt, w_t, op = (
                self._tconst(depth.astype(np.int64), "i8"),
                self._t(depth.shape, "i8"),
                "tosa.depthwise_conv2d",
            )
        else:
            raise ONNXImportError(
                f"node '{node.name}': grouped convolutions other than depthwise (TOSA form)"
            )
        acc = self._emit(
            f"{op} {xh.name}, {wt}, {b}, {zx}, {zw} {attrs} : ({self._t(xh.shape, 'i8')}, {w_t}, "
            f"tensor<{k_out}xi32>, tensor<1xi8>, tensor<1xi8>) -> {out_t}",
            (n, oh, ow, k_out), "i32",
        )  # fmt: skip
        scale = (
            np.float32(s_x.reshape(-1)[0]) * s_w.reshape(-1) / np.float32(s_y.reshape(-1)[0])
        ).astype(np.float32)
        y = self._tosa_requant(acc, scale, int(z_y.reshape(-1)[0]), relu)
        return self._transpose(y, [0, 3, 1, 2])

    def _qmatmul(self, node, a, s_a, z_a, b, s_b, z_b, s_y, z_y, relu, out="i8"):
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
        n = b.shape[1]
        a3 = self._reshaped(node, a, (1, m, k))
        wt = self._tconst(b.reshape(1, k, n).astype(np.int64), "i8")
        za, zb = (
            self._tconst(np.array([int(z_a.reshape(-1)[0])]), "i8"),
            self._tconst(np.array([0]), "i8"),
        )
        acc = self._emit(
            f"tosa.matmul {a3.name}, {wt}, {za}, {zb} : ({self._t((1, m, k), 'i8')}, {self._t((1, k, n), 'i8')}, "
            f"tensor<1xi8>, tensor<1xi8>) -> {self._t((1, m, n), 'i32')}",
            (1, m, n), "i32",
        )  # fmt: skip
        scale = (
            np.float32(s_a.reshape(-1)[0]) * s_b.reshape(-1) / np.float32(s_y.reshape(-1)[0])
        ).astype(np.float32)
        y = self._tosa_requant(acc, scale, int(z_y.reshape(-1)[0]), relu)
        return self._reshaped(node, y, (m, n))

    def _reshaped(self, node, x: Value, shape: tuple[int, ...]) -> Value:
        if math.prod(shape) != math.prod(x.shape):
            raise ONNXImportError(
                f"node '{node.name}': cannot reshape {list(x.shape)} to {list(shape)}"
            )
        name = self._fresh()
        self.lines.append(
            f"  {name} = tosa.const_shape values(dense<{list(shape)}> : tensor<{len(shape)}xindex>) "
            f": () -> !tosa.shape<{len(shape)}>"
        )
        return self._emit(
            f"tosa.reshape {x.name}, {name} : ({self._t(x.shape, x.elem)}, !tosa.shape<{len(shape)}>) "
            f"-> {self._t(shape, x.elem)}",
            shape, x.elem,
        )  # fmt: skip

    def _max_pool(self, x: Value, kernel, strides, dil, pads) -> Value:
        if any(d != 1 for d in dil):
            raise ONNXImportError("dilated MaxPool is not supported (TOSA form)")
        top, left, bottom, right = pads
        xh = self._transpose(x, [0, 2, 3, 1])
        n, h, w, c = xh.shape
        oh = (h + top + bottom - kernel[0]) // strides[0] + 1
        ow = (w + left + right - kernel[1]) // strides[1] + 1
        y = self._emit(
            f"tosa.max_pool2d {xh.name} kernel({list(kernel)}) stride({list(strides)}) "
            f"pad([{top}, {bottom}, {left}, {right}]) : ({self._t(xh.shape, 'i8')}) -> "
            f"{self._t((n, oh, ow, c), 'i8')}",
            (n, oh, ow, c), "i8",
        )  # fmt: skip
        return self._transpose(y, [0, 3, 1, 2])
