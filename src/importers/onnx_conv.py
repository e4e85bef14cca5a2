"""Conv and ConvTranspose of the ONNX importer (a mixin).

One geometry for both (`ConvGeometry`: window strides, padding, dilations, groups and,
for a transposed convolution, the input spread by the strides), then two arithmetic:

- a QDQ group ONNX Runtime fuses (DequantizeLinear on data and weights, QuantizeLinear
  after, optionally through a Relu; ConvTranspose ungrouped with constant weights) is the
  int32 convolution and ONNX Runtime's float32 requantization, bit for bit; Conv weights
  may be computed at run time (QLinearConv takes them so);
- anything else — a float Conv or ConvTranspose, one left float between Q/DQ because
  ONNX Runtime does not fuse it (a grouped ConvTranspose, one whose filter is computed at
  run time), or `nodes_to_exclude` of quantize_static — is the float32 convolution.
  ONNX Runtime sums it in MLAS's blocked order, so it is compared with a tolerance.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from qdialect.importers import onnx_check, ort_float
from qdialect.importers.emitter import Value
from qdialect.importers.onnx_common import EIGHT_BIT, MAX_ELEMENTS, RANGE, ONNXImportError

if TYPE_CHECKING:
    from qdialect.importers.onnx_host import ImporterLike
else:
    ImporterLike = object  # only the type checker sees the mixin as an ImporterLike


class ConvGeometry(NamedTuple):
    """A 2-D (transposed) convolution written as one `stablehlo.convolution`."""

    strides: list[int]
    window: list[tuple[int, int]]  # (low, high) padding per spatial axis
    dilations: list[int]
    group: int
    lhs_dilation: list[int] | None  # the input spread (a transposed convolution)
    shape: tuple[int, int, int, int]  # NCHW result


class ConvOps(ImporterLike):
    def _op_Conv(self, node) -> None:
        if self._fused_conv(node):
            self._conv_group(node, 0)
        else:
            self._float_conv(node)

    def _op_ConvTranspose(self, node) -> None:
        """A fused group as ONNX Runtime's QLinearConvTranspose (weights [C_in, C_out, kh,
        kw] quantized per output channel along axis 1), else float."""
        if self._fused_conv(node):
            self._conv_group(node, 1)
        else:
            self._float_conv(node)

    def _fused_conv(self, node) -> bool:
        """Whether ONNX Runtime fuses `node` with its Q/DQ into an integer kernel: data and
        weights dequantized, one QuantizeLinear after (through an optional Relu); for
        ConvTranspose also constant weights and one group."""
        if node.input[0] not in self.dq or len(node.input) < 2 or node.input[1] not in self.dq:
            return False
        if node.op_type == "ConvTranspose" and (
            self.dq[node.input[1]][0] not in self.constants
            or int(self._attrs(node).get("group", 1)) != 1
        ):
            return False
        out = node.output[0]
        users = self.consumers.get(out, [])
        if len(users) == 1 and users[0].op_type == "Relu" and out not in self.outputs:
            out = users[0].output[0]
            users = self.consumers.get(out, [])
        return len(users) == 1 and users[0].op_type == "QuantizeLinear" and out not in self.outputs

    def _conv_group(self, node, output_axis: int) -> None:
        """DequantizeLinear -> Conv or ConvTranspose -> [Relu] -> QuantizeLinear: the int32
        (transposed) convolution, bias and requantization, as ONNX Runtime fuses it;
        per-channel weights along `output_axis`, the output channels."""
        x, s_x, z_x = self._dequantized(node, 0, "input")
        w, s_w, z_w = self._dequantized(node, 1, "weight")
        self._per_channel_axis(node, 1, output_axis)
        bias = self._dequantized_bias(node, s_x, s_w)
        q, relu = self._quantize_after(node)
        s_y, z_y = self._scale_zp(q, 1)
        if isinstance(x, np.ndarray) or (bias is not None and not isinstance(bias, np.ndarray)):
            raise ONNXImportError(f"node '{node.name}': needs runtime data and a constant bias")
        self.values[q.output[0]] = self._qconv(node, x, s_x, z_x, w, s_w, z_w, bias, s_y, z_y, relu,
                                               self._storage(q, 2))  # fmt: skip

    def _op_QLinearConv(self, node) -> None:
        s_x, z_x = self._scale_zp(node, 1)
        s_w, z_w = self._scale_zp(node, 4)
        s_y, z_y = self._scale_zp(node, 6)
        bias = self._const_input(node, 8, "bias") if len(node.input) > 8 and node.input[8] else None
        self.values[node.output[0]] = self._qconv(
            node, self._input(node, 0), s_x, z_x, self._const_input(node, 3, "weight"), s_w, z_w,
            bias, s_y, z_y, relu=False, out=self._storage(node, 7),
        )  # fmt: skip

    def _qconv(self, node, x: Value, s_x, z_x, w: np.ndarray | Value, s_w, z_w, bias, s_y, z_y,
               relu: bool, out: str = "i8") -> Value:  # fmt: skip
        """ONNX Runtime's QLinearConv (a fused ReLU raises the lower bound to the zero point)."""
        if node.op_type == "ConvTranspose":
            acc = self._conv_transpose_acc(node, x, z_x, w, z_w)
        else:
            acc = self._conv_acc(node, x, z_x, w, z_w)
        out_shape = acc.shape
        if bias is not None:
            bias = onnx_check.int32_bias(node, bias, out_shape[1])
            acc = self.e.binary("add", acc, self.e.splat(bias, out_shape, "i32", 1))
        scale = ort_float.requant_scale(s_x, s_w, s_y)
        return self._requantize(acc, scale, int(z_y.reshape(-1)[0]), 1, relu, out)

    def _op_ConvInteger(self, node) -> None:
        """(x - zx) convolved with (w - zw), accumulated in int32 (no requantization)."""
        x = self._input(node, 0)
        w = self._const_input(node, 1, "weight")
        z_x = self._integer_zp(node, 2)
        z_w = self._integer_zp(node, 3)
        self.values[node.output[0]] = self._conv_acc(node, x, z_x, w, z_w)

    # ---- geometry ----------------------------------------------------------------------

    def _pads(self, node, size: tuple[int, int], kernel, strides, dilations) -> list[int]:
        """ONNX pads [top, left, bottom, right], from `pads` or `auto_pad` (SAME_UPPER puts
        the odd unit at the end, SAME_LOWER at the beginning)."""
        a = self._attrs(node)
        auto = _text(a.get("auto_pad", "NOTSET"))
        if auto == "NOTSET":
            return onnx_check.spatial(node, a, "pads", 2 * len(size), 0, 0)
        if auto == "VALID":
            return [0, 0, 0, 0]
        if auto not in ("SAME_UPPER", "SAME_LOWER"):
            raise ONNXImportError(f"node '{node.name}': unknown auto_pad '{auto}'")
        begin, end = [], []
        for n, k, st, d in zip(size, kernel, strides, dilations, strict=True):
            total = max((-(-n // st) - 1) * st + (k - 1) * d + 1 - n, 0)
            low, high = _split_padding(total, auto)
            begin.append(low)
            end.append(high)
        return [begin[0], begin[1], end[0], end[1]]

    def _geometry(self, node, x_shape, w_shape) -> ConvGeometry:
        """The convolution `node` computes on NCHW data of `x_shape` with weights of
        `w_shape` (OIHW for Conv; [C_in, C_out / group, kh, kw] for ConvTranspose)."""
        a = self._attrs(node)
        if len(x_shape) != 4 or len(w_shape) != 4:
            raise ONNXImportError(f"node '{node.name}': only 2-D (NCHW) convolutions are imported")
        group = int(a.get("group", 1))
        strides = onnx_check.spatial(node, a, "strides", 2, 1, 1)
        dil = onnx_check.spatial(node, a, "dilations", 2, 1, 1)
        n, c, h, wd = x_shape
        kh, kw = w_shape[2:]
        if "kernel_shape" in a and [int(v) for v in a["kernel_shape"]] != [kh, kw]:
            raise ONNXImportError(
                f"node '{node.name}': kernel_shape {list(a['kernel_shape'])} differs from the "
                f"weights' {[kh, kw]}"
            )
        if group < 1 or c % group:
            raise ONNXImportError(f"node '{node.name}': malformed {node.op_type} attributes")
        spans = [(kh - 1) * dil[0], (kw - 1) * dil[1]]
        if node.op_type != "ConvTranspose":
            if w_shape[1] * group != c or w_shape[0] % group:
                raise ONNXImportError(
                    f"node '{node.name}': weights {list(w_shape)} do not fit {c} channels in "
                    f"{group} groups"
                )
            top, left, bottom, right = self._pads(node, (h, wd), (kh, kw), strides, dil)
            oh = (h + top + bottom - spans[0] - 1) // strides[0] + 1
            ow = (wd + left + right - spans[1] - 1) // strides[1] + 1
            geometry = ConvGeometry(strides, [(top, bottom), (left, right)], dil, group, None,
                                    (n, w_shape[0], oh, ow))  # fmt: skip
        else:
            if w_shape[0] != c:
                raise ONNXImportError(
                    f"node '{node.name}': weights {list(w_shape)} do not fit {c} input channels"
                )
            extra = onnx_check.spatial(node, a, "output_padding", 2, 0, 0)
            pads = self._transpose_pads(node, a, (h, wd), spans, strides, extra)
            window = [(spans[0] - pads[0], spans[0] - pads[2] + extra[0]),
                      (spans[1] - pads[1], spans[1] - pads[3] + extra[1])]  # fmt: skip
            if min(p for pair in window for p in pair) < 0:
                raise ONNXImportError(f"node '{node.name}': pads larger than the kernel's span")
            oh = strides[0] * (h - 1) + extra[0] + spans[0] + 1 - pads[0] - pads[2]
            ow = strides[1] * (wd - 1) + extra[1] + spans[1] + 1 - pads[1] - pads[3]
            geometry = ConvGeometry([1, 1], window, dil, group, strides,
                                    (n, w_shape[1] * group, oh, ow))  # fmt: skip
        if min(geometry.shape) < 1 or math.prod(geometry.shape) > MAX_ELEMENTS:
            raise ONNXImportError(
                f"node '{node.name}': output {list(geometry.shape)} is empty or too large"
            )
        return geometry

    @staticmethod
    def _transpose_pads(node, a: dict, size, spans, strides, extra) -> list[int]:
        """ConvTranspose's [top, left, bottom, right]: `pads`, or from `output_shape` /
        SAME auto_pad, the total padding split as ONNX says (the odd unit at the end for
        SAME_UPPER, at the beginning otherwise)."""
        auto = _text(a.get("auto_pad", "NOTSET"))
        if "output_shape" not in a and auto in ("NOTSET", "VALID"):
            if auto == "VALID":
                return [0] * 4
            return onnx_check.spatial(node, a, "pads", 4, 0, 0)
        if auto not in ("NOTSET", "SAME_UPPER", "SAME_LOWER"):
            raise ONNXImportError(f"node '{node.name}': unknown auto_pad '{auto}'")
        wanted = [
            int(v)
            for v in a.get("output_shape", [d * s for d, s in zip(size, strides, strict=True)])
        ]
        wanted = wanted[-2:]
        if len(wanted) != 2:
            raise ONNXImportError(f"node '{node.name}': output_shape {wanted} needs H and W")
        begin, end = [], []
        for n, span, st, ex, out in zip(size, spans, strides, extra, wanted, strict=True):
            total = st * (n - 1) + ex + span + 1 - out
            if total < 0:
                raise ONNXImportError(f"node '{node.name}': output_shape {wanted} is too large")
            low, high = _split_padding(total, auto)
            begin.append(low)
            end.append(high)
        return [begin[0], begin[1], end[0], end[1]]

    # ---- integer arithmetic --------------------------------------------------------------

    def _conv_acc(self, node, x: Value, z_x, w: np.ndarray | Value, z_w) -> Value:
        """The int32 convolution of x - zx with w - zw (NCHW, OIHW; ONNX's attributes);
        the weights constant or computed at run time."""
        w_elem = EIGHT_BIT.get(w.dtype) if isinstance(w, np.ndarray) else w.elem
        if len(x.shape) != 4 or x.elem not in RANGE or w_elem not in RANGE:
            raise ONNXImportError(
                f"node '{node.name}': the convolution needs 8-bit NCHW data and weights"
            )
        g = self._geometry(node, x.shape, w.shape)
        xc = self._widen(x, int(z_x.reshape(-1)[0]))
        wv = self.e.const(w, w_elem) if isinstance(w, np.ndarray) else w
        wc = self._widen(wv, z_w.reshape(-1), 0)
        return self.e.convolution(xc, wc, g.shape, g.strides, g.window, g.dilations, g.group)

    def _conv_transpose_acc(self, node, x: Value, z_x, w: np.ndarray, z_w) -> Value:
        """The int32 transposed convolution of x - zx with w - zw: the input spread by the
        strides, convolved with the flipped kernel, padded by (k-1)d - pads (ONNX's output
        size: stride (in - 1) + output_padding + (k-1)d + 1 - pads)."""
        if len(x.shape) != 4 or x.elem not in RANGE or w.dtype not in (np.int8, np.uint8):
            raise ONNXImportError(f"node '{node.name}': needs 8-bit NCHW data and weights")
        g = self._geometry(node, x.shape, w.shape)
        kernel = _forward_kernel(w, g.group)
        xc = self._widen(x, int(z_x.reshape(-1)[0]))
        wc = self._widen(self.e.const(kernel, EIGHT_BIT[w.dtype]), z_w.reshape(-1), 0)
        return self.e.convolution(xc, wc, g.shape, g.strides, g.window, g.dilations, g.group,
                                  lhs_dilation=g.lhs_dilation)  # fmt: skip

    # ---- float arithmetic ----------------------------------------------------------------

    def _float_conv(self, node) -> None:
        """The float32 (transposed) convolution plus bias; data, weights and bias may be
        float constants, runtime floats, or dequantized 8-bit values."""
        x = self._float_operand(node, 0)
        name = node.input[1] if len(node.input) > 1 else ""
        constant = self.constants.get(name)
        if constant is not None and constant.dtype == np.float32 and name not in self.values:
            w: np.ndarray | Value = constant
        else:
            w = self._float_operand(node, 1)
        g = self._geometry(node, x.shape, w.shape)
        if node.op_type == "ConvTranspose":
            w = (_forward_kernel(w, g.group) if isinstance(w, np.ndarray)
                 else self._forward_kernel_ir(w, g.group))  # fmt: skip
        wv = self.e.const(w, "f32") if isinstance(w, np.ndarray) else w
        y = self.e.convolution(x, wv, g.shape, g.strides, g.window, g.dilations, g.group,
                               lhs_dilation=g.lhs_dilation)  # fmt: skip
        if len(node.input) > 2 and node.input[2]:
            bias = self._float_operand(node, 2)
            if bias.shape != (g.shape[1],):
                raise ONNXImportError(f"node '{node.name}': bias of shape {list(bias.shape)}")
            y = self.e.binary("add", y, self.e.broadcast(bias, g.shape, [1]))
        self.values[node.output[0]] = y

    def _forward_kernel_ir(self, w: Value, group: int) -> Value:
        """`_forward_kernel` of a runtime filter: reversed with gathers, regrouped with a
        reshape and a transpose."""
        c_in, c_out, kh, kw = w.shape
        w = self.e.take(self.e.take(w, np.arange(kh)[::-1], 2), np.arange(kw)[::-1], 3)
        w = self.e.reshape(w, (group, c_in // group, c_out, kh, kw))
        w = self.e.transpose(w, [0, 2, 1, 3, 4])
        return self.e.reshape(w, (group * c_out, c_in // group, kh, kw))


def _forward_kernel(w: np.ndarray, group: int) -> np.ndarray:
    """ConvTranspose weights [C_in, C_out/g, kh, kw] as the OIHW kernel of the equivalent
    forward convolution over the spread input: each group's in/out swapped, spatially
    flipped, groups stacked along the outputs."""
    c_in, c_out, kh, kw = w.shape
    grouped = w.reshape(group, c_in // group, c_out, kh, kw)[:, :, :, ::-1, ::-1]
    return np.ascontiguousarray(
        grouped.transpose(0, 2, 1, 3, 4).reshape(group * c_out, c_in // group, kh, kw)
    )


def _split_padding(total: int, auto: str) -> tuple[int, int]:
    """ONNX's split of a total padding: the odd unit at the end for SAME_UPPER, at the
    beginning otherwise (SAME_LOWER, and ConvTranspose's output_shape without auto_pad)."""
    small, large = total // 2, total - total // 2
    return (small, large) if auto == "SAME_UPPER" else (large, small)


def _text(v) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)
