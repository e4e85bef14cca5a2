"""`tosa-space-to-depth`: a stride-2 convolution of a few input channels, read from the
program's input, becomes a stride-1 convolution of four times as many channels.

A network's stem (ResNet's 7x7/2 of 3 channels, MobileNet's 3x3/2) fills 3 of the
NPU's 16 input lanes per tap, and its 49 taps are 49 passes over the image: 17% of the
array. Space to depth puts each 2x2 block of pixels in one pixel of 4C channels (12 of
16 lanes) and the kernel in ceil((K + shift) / 2) squared taps (16 for 7x7): the same
products, a third of the passes. The input's rearrangement is a reshape, a transpose
and a reshape of the program's argument, which the host writes (`npu-partition` keeps
layout transposes of arguments there), so the NPU pays nothing for it.

Exact: every product of the original convolution is one of the new one's; the taps the
new kernel adds have the weight zero point as weight (a zero product), and padding is
skipped by the convolution as before. `npu-partition` runs it first.

Conditions: `tosa.conv2d` with stride 2 and dilation 1 on both axes, a static
[1, H, W, C] input with H and W even and C <= `max-channels`, constant weights, and an
input that is a function argument seen through reshapes and transposes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerType,
    ModuleOp,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import tosa
from qdialect.ir.constants import constant_array, integer_attr
from qdialect.ir.rewrite import replace_op
from qdialect.lowering.npu_graph import MODEL_WINDOW, Window, model_window_attr

PASS_NAME = "tosa-space-to-depth"


def from_argument(v: SSAValue) -> bool:
    """`v` is a function argument, possibly reshaped and transposed: what the host holds."""
    while isinstance(owner := v.owner, tosa.ReshapeOp | tosa.TransposeOp):
        v = owner.input1
    return not isinstance(v.owner, Operation)


def eligible(op: tosa.Conv2DOp, max_channels: int) -> bool:
    shape = ht.shape_of(op.input.type)
    if shape is None or len(shape) != 4 or shape[0] != 1 or min(shape) < 1:
        return False
    _, h, w, c = shape
    return (
        op.array("stride") == (2, 2)
        and op.array("dilation") == (1, 1)
        and h % 2 == 0
        and w % 2 == 0
        and c <= max_channels
        and constant_array(op.weight) is not None
        and constant_array(op.weight_zp) is not None
        and from_argument(op.input)
    )


def space_to_depth_weights(weight: np.ndarray, shift: tuple[int, int], fill: int) -> np.ndarray:
    """OHWI weights of the stride-2 kernel as the stride-1 kernel over 2x2-blocked input:
    new[o, a, a2, (b * 2 + b2) * C + c] = weight[o, 2a + b - sy, 2a2 + b2 - sx, c], and
    `fill` (the weight zero point: a zero product) where that tap does not exist."""
    oc, kh, kw, c = weight.shape
    sy, sx = shift
    kh2, kw2 = -(-(kh + sy) // 2), -(-(kw + sx) // 2)
    padded = np.full((oc, 2 * kh2, 2 * kw2, c), fill, weight.dtype)
    padded[:, sy : sy + kh, sx : sx + kw] = weight
    blocks = padded.reshape(oc, kh2, 2, kw2, 2, c).transpose(0, 1, 3, 2, 4, 5)
    return blocks.reshape(oc, kh2, kw2, 4 * c)


def rewrite(op: tosa.Conv2DOp) -> None:
    """Replace `op` (eligible) by reshape -> transpose -> reshape -> stride-1 conv2d."""
    shape = ht.shape_of(op.input.type)
    assert shape is not None
    _, h, w, c = shape
    elem = ht.element_type(op.input.type)
    weight = constant_array(op.weight)
    w_zp = constant_array(op.weight_zp)
    assert weight is not None and w_zp is not None
    top, _, left, _ = op.array("pad")
    out = ht.shape_of(op.output.type)
    assert out is not None
    sy, sx = top % 2, left % 2  # shift the kernel so the padding before is even
    new_w = space_to_depth_weights(weight, (sy, sx), int(w_zp.reshape(-1)[0]))
    kh2, kw2 = new_w.shape[1:3]
    top2, left2 = (top + sy) // 2, (left + sx) // 2
    bottom2 = out[1] - 1 + kh2 - h // 2 - top2
    right2 = out[2] - 1 + kw2 - w // 2 - left2
    if bottom2 < 0 or right2 < 0:  # padding after that the stride never reaches: leave it
        return
    six = [1, h // 2, 2, w // 2, 2, c]
    s6 = tosa.ConstShapeOp.of(six)
    r6 = tosa.ReshapeOp.create(
        operands=[op.input, s6.results[0]], result_types=[TensorType(elem, six)]
    )
    t6 = tosa.TransposeOp.create(
        operands=[r6.results[0]],
        result_types=[TensorType(elem, [1, h // 2, w // 2, 2, 2, c])],
        properties={"perms": DenseArrayBase.from_list(i32, [0, 1, 3, 2, 4, 5])},
    )
    s4 = tosa.ConstShapeOp.of([1, h // 2, w // 2, 4 * c])
    r4 = tosa.ReshapeOp.create(
        operands=[t6.results[0], s4.results[0]],
        result_types=[TensorType(elem, [1, h // 2, w // 2, 4 * c])],
    )
    w_elem = ht.element_type(op.weight.type)
    assert isinstance(w_elem, IntegerType)
    wc = tosa.ConstOp(integer_attr(new_w, w_elem))
    props = dict(op.properties)
    props["pad"] = DenseArrayBase.from_list(i64, [top2, bottom2, left2, right2])
    props["stride"] = DenseArrayBase.from_list(i64, [1, 1])
    kh, kw = int(weight.shape[1]), int(weight.shape[2])
    pt, pb, pl, pr = op.array("pad")
    model = Window(h, w, c, kh, kw, (2, 2), (1, 1), (pt, pb, pl, pr), out[1], out[2])
    conv = tosa.Conv2DOp.create(
        operands=[r4.results[0], wc.results[0], op.bias, op.input_zp, op.weight_zp],
        result_types=[op.output.type],
        properties=props,
        attributes={
            **op.attributes,
            MODEL_WINDOW: model_window_attr(model),
        },
    )
    replace_op(op, [s6, r6, t6, s4, r4, wc, conv], conv.output)


@dataclass(frozen=True)
class TosaSpaceToDepth(ModulePass):
    """Stride-2 convolutions of few channels read from the input, as stride-1 ones over
    2x2 blocks of pixels (four times the channels, a third of the taps)."""

    name = PASS_NAME

    max_channels: int = 4
    """Rewrite convolutions of at most this many input channels (4C fills 16 lanes)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for conv in [o for o in op.walk() if isinstance(o, tosa.Conv2DOp)]:
            if eligible(conv, self.max_channels):
                rewrite(conv)
