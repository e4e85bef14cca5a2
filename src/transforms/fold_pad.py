"""`stablehlo-fold-pad`: an explicit `stablehlo.pad` of a convolution's input folded into
the convolution's own padding.

Exporters write asymmetric "SAME" padding, and TensorFlow-converted models their
explicit pads, as a separate Pad before the convolution; on an accelerator that is a
copy of the whole feature map (the NPU's DMA) where the convolution could skip the
padded taps. The convolution's implicit padding is zero — for a quantized input, the
zero point, which dequantizes to zero — so a pad by that value along the spatial
dimensions only is the same convolution with larger padding: exact.

Folded: a `stablehlo.pad` read only by the input of a `stablehlo.convolution` without
input (lhs) dilation, with no interior padding, non-negative edge padding on the
spatial dimensions only, and a constant pad value equal to zero (float, integer) or
to the input type's zero point (per-tensor quantized).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i64
from xdsl.passes import ModulePass

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.ir.constants import constant_array, erase_if_unused, integer_attr
from qdialect.ir.constants import dense_values as constant_values
from qdialect.ir.rewrite import replace_op

PASS_NAME = "stablehlo-fold-pad"


def _pads_zero(pad: sh.PadOp) -> bool:
    """Whether the pad value is what the convolution's own padding holds."""
    value = constant_array(pad.padding_value, integer=False)
    if value is None or value.size != 1:
        return False
    q = ht.quant_type(pad.operand.type)
    if q is None:
        return float(value.reshape(-1)[0]) == 0.0
    if q.is_per_axis:
        return False
    storage = constant_array(pad.padding_value)
    return storage is not None and int(storage.reshape(-1)[0]) == q.zero_point


def fold(conv: sh.ConvolutionOp) -> bool:
    pad = conv.lhs.owner
    if not isinstance(pad, sh.PadOp) or len(list(pad.result.uses)) != 1:
        return False
    low, high = dense_values(pad.edge_padding_low), dense_values(pad.edge_padding_high)
    if any(dense_values(pad.interior_padding)) or min((*low, *high), default=0) < 0:
        return False
    if conv.lhs_dilation is not None and any(d != 1 for d in dense_values(conv.lhs_dilation)):
        return False
    dn = conv.dimension_numbers.data
    spatial = list(dn.input_spatial_dimensions)
    if any(low[d] or high[d] for d in range(len(low)) if d not in spatial):
        return False
    if not _pads_zero(pad):
        return False
    old = (
        np.asarray(constant_values(conv.padding), np.int64).reshape(len(spatial), 2)
        if conv.padding is not None
        else np.zeros((len(spatial), 2), np.int64)
    )
    added = np.array([[low[d], high[d]] for d in spatial], np.int64)
    props = dict(conv.properties)
    props["padding"] = integer_attr(old + added, i64)
    new = sh.ConvolutionOp.create(
        operands=[pad.operand, conv.rhs],
        result_types=[conv.result.type],
        properties=props,
        attributes=dict(conv.attributes),
    )
    pad_value = pad.padding_value
    replace_op(conv, [new], new.result)
    block = pad.parent_block()
    assert block is not None
    block.erase_op(pad)
    erase_if_unused(pad_value)
    return True


@dataclass(frozen=True)
class FoldPad(ModulePass):
    """Fold zero pads of convolution inputs into the convolutions' padding."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for conv in [o for o in op.walk() if isinstance(o, sh.ConvolutionOp)]:
            fold(conv)
