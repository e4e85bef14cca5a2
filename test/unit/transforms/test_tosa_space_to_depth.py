"""`tosa-space-to-depth`: stride-2 convolutions of few channels read from the input,
rewritten as stride-1 convolutions over 2x2 pixel blocks, compute the same integers
(the interpreter on both programs, `np.array_equal`), and the rewrite is refused where
its conditions fail."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.dialects import tosa
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.lowering.npu_graph import MacLayer, form_layers, useful_macs
from qdialect.transforms.tosa_space_to_depth import TosaSpaceToDepth, space_to_depth_weights
from unit.lowering.test_tosa_to_npu import conv_program, entry


def rewritten(src: str):
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    TosaSpaceToDepth().apply(ctx, module)
    module.verify()
    return module


@pytest.mark.parametrize(
    "h, c, k, pad, zp_w",
    [
        (16, 3, 7, (3, 3, 3, 3), 0),  # ResNet's stem
        (16, 3, 3, (1, 1, 1, 1), 0),  # MobileNet's, as PyTorch pads it
        (16, 3, 3, (0, 1, 0, 1), 0),  # as TFLite pads it ("same": after only)
        (14, 4, 5, (2, 2, 1, 2), 3),  # odd padding on one side, a weight zero point
        (12, 1, 4, (0, 0, 0, 0), -2),  # an even kernel, no padding
        (10, 2, 2, (0, 0, 0, 0), 0),  # a 2x2 kernel: one tap after
    ],
)
def test_rewrite_is_exact(h: int, c: int, k: int, pad: tuple[int, ...], zp_w: int) -> None:
    src = conv_program(h, h, c, 8, k, 2, pad, seed=k + c, zp_w=zp_w)
    module = rewritten(src)
    (conv,) = [op for op in module.walk() if isinstance(op, tosa.Conv2DOp)]
    assert conv.array("stride") == (1, 1)
    assert sum(isinstance(op, tosa.TransposeOp) for op in module.walk()) == 1
    rng = np.random.default_rng(h)
    for _ in range(3):
        x = rng.integers(-128, 128, (1, h, h, c)).astype(np.int8)
        want = Interpreter(QParser(make_context(), src).parse_module()).call("main", [x])[0]
        got = Interpreter(module).call("main", [x])[0]
        assert np.array_equal(got, want)
    # The layer still counts the model's products, not the zero taps the rewrite adds.
    (before,) = [la for la in form_layers(entry(src)).layers if isinstance(la, MacLayer)]
    (after,) = [la for la in form_layers(entry(str(module))).layers if isinstance(la, MacLayer)]
    assert useful_macs(after) == useful_macs(before)


def test_weights_are_the_kernel_in_2x2_blocks() -> None:
    """new[o, a, a2, (b*2 + b2)*C + c] = w[o, 2a + b - sy, 2a2 + b2 - sx, c], the rest the
    fill: for a 3x3 kernel shifted by one, new tap (0, 0) holds w[0, 0] in block (1, 1)."""
    w = np.arange(1, 1 + 2 * 3 * 3 * 2).reshape(2, 3, 3, 2)
    new = space_to_depth_weights(w, (1, 1), fill=-9)
    assert new.shape == (2, 2, 2, 8)
    assert new[0, 0, 0].tolist() == [-9, -9, -9, -9, -9, -9, *w[0, 0, 0]]
    assert new[1, 1, 1, 0:2].tolist() == list(w[1, 1, 1])  # rows 2a+b-1 = 1, cols 1
    assert int((new == -9).sum()) == 2 * (16 - 9) * 2


@pytest.mark.parametrize(
    "why, src",
    [
        ("stride 1", conv_program(8, 8, 3, 4, 3, 1, (1, 1, 1, 1), seed=1)),
        ("eight channels", conv_program(8, 8, 8, 4, 3, 2, (1, 1, 1, 1), seed=1)),
        ("odd height", conv_program(9, 8, 3, 4, 3, 2, (1, 1, 1, 1), seed=1)),
        ("dilated", conv_program(12, 12, 3, 4, 3, 2, (2, 2, 2, 2), seed=1, dilation=(2, 2))),
    ],
)
def test_refused_where_its_conditions_fail(why: str, src: str) -> None:
    assert "tosa.transpose" not in str(rewritten(src)), why


def test_refused_when_the_input_is_computed_on_the_npu() -> None:
    """Only the host's input is laid out for free; a computed tensor would need an NPU
    transpose (a byte gather), so the rewrite leaves such a convolution alone."""
    src = conv_program(8, 8, 3, 3, 3, 2, (1, 1, 1, 1), seed=2, relu=False)
    src = src.replace("tosa.conv2d %x,", "tosa.conv2d %xc,").replace(
        "func.func @main(%x: tensor<1x8x8x3xi8>) -> tensor<1x4x4x3xi8> {\n",
        "func.func @main(%x: tensor<1x8x8x3xi8>) -> tensor<1x4x4x3xi8> {\n"
        "  %xc = tosa.clamp %x {min_val = -100 : i8, max_val = 100 : i8} : "
        "(tensor<1x8x8x3xi8>) -> tensor<1x8x8x3xi8>\n",
    )
    assert "%xc = tosa.clamp" in src
    assert "tosa.transpose" not in str(rewritten(src))
