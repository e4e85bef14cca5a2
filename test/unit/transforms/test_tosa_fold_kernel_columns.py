"""`tosa-fold-kernel-columns`: a KH x KW convolution rewritten as KH x 1 over its input's
columns folded into channels computes the same integers (the interpreter on both
programs, and the NPU on the rewritten one, `np.array_equal`), keeps the model's MAC
count, and is applied only where the machine's array gains."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.dialects import tosa
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.lowering.npu_graph import MacLayer, form_layers, useful_macs
from qdialect.npu.machine import load_machine
from qdialect.transforms.tosa_fold_kernel_columns import (
    Geometry,
    TosaFoldKernelColumns,
    array_passes,
    geometry,
    rewrite,
    worth_it,
)
from unit.lowering.test_tosa_to_npu import compile_and_run, conv_program, entry

DEFAULT = load_machine("default")


def folded(src: str):
    """The program with every convolution folded, whatever the gain."""
    module = QParser(make_context(), src).parse_module()
    for conv in [op for op in module.walk() if isinstance(op, tosa.Conv2DOp)]:
        g = geometry(conv)
        assert g is not None
        rewrite(conv, g)
    module.verify()
    return module


CASES = [
    # h, w, c, k, stride, pad, dilation
    (7, 7, 24, 3, 1, (1, 1, 1, 1), (1, 1)),  # ResNet's last stage, small
    (14, 14, 8, 3, 2, (1, 1, 1, 1), (1, 1)),  # stride 2: the columns by stride phase
    (9, 11, 12, 4, 1, (2, 1, 2, 1), (1, 1)),  # a stem after space to depth: 12 channels
    (10, 9, 5, 3, (1, 2), (0, 0, 2, 0), (1, 2)),  # dilated columns, padding left only
    (8, 8, 3, 2, 1, (0, 0, 0, 0), (1, 1)),  # no padding: no pad op
    (11, 13, 4, 5, 3, (2, 2, 2, 2), (1, 1)),  # stride 3
]


@pytest.mark.parametrize("h, w, c, k, stride, pad, dilation", CASES)
def test_rewrite_is_exact(h, w, c, k, stride, pad, dilation) -> None:
    src = conv_program(h, w, c, 8, k, stride, pad, seed=h + c, dilation=dilation, zp_w=2)
    module = folded(src)
    (conv,) = [op for op in module.walk() if isinstance(op, tosa.Conv2DOp)]
    assert conv.array("pad")[2:] == (0, 0) and conv.array("stride")[1] == 1
    assert constant_kw(conv) == 1
    rng = np.random.default_rng(h * w)
    for _ in range(3):
        x = rng.integers(-128, 128, (1, h, w, c)).astype(np.int8)
        want = Interpreter(QParser(make_context(), src).parse_module()).call("main", [x])[0]
        got = Interpreter(module).call("main", [x])[0]
        assert np.array_equal(got, want)
    # the layer counts the model's products, not the folded form's
    (before,) = [la for la in form_layers(entry(src)).layers if isinstance(la, MacLayer)]
    (after,) = [la for la in form_layers(entry(str(module))).layers if isinstance(la, MacLayer)]
    assert useful_macs(after) == useful_macs(before)


def constant_kw(conv: tosa.Conv2DOp) -> int:
    shape = conv.weight.type.get_shape()  # type: ignore[union-attr]
    return shape[2]


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("case", [CASES[0], CASES[1], CASES[2]])
def test_folded_program_runs_exactly_on_the_npu(machine: str, case) -> None:
    """The pad, slices and concat are one DMA layer on the NPU (one gather composed of
    the three), the convolution a KH x 1 one."""
    h, w, c, k, stride, pad, dilation = case
    src = conv_program(h, w, c, 16, k, stride, pad, seed=3, dilation=dilation)
    kinds = [type(la).__name__ for la in form_layers(entry(str(folded(src)))).layers]
    assert kinds == ["MoveLayer", "MacLayer"]
    x = np.random.default_rng(9).integers(-128, 128, (1, h, w, c)).astype(np.int8)
    got, want = compile_and_run(str(folded(src)), machine, x)
    assert np.array_equal(got, want)
    _, original = compile_and_run(src, machine, x)
    assert np.array_equal(want, original)


def resnet(h: int, c: int, stride: int = 1) -> Geometry:
    """A 3x3 convolution of ResNet-50, C in and out, padding 1."""
    o = (h + 2 - 3) // stride + 1
    return Geometry(h, h, c, 3, 3, c, (stride, stride), (1, 1), (1, 1, 1, 1), o, o)


def test_array_passes_by_hand() -> None:
    """Stage 4's 3x3 on 7x7x512, padding 1: along each axis the 7 outputs see 3 x 7 - 2 =
    19 in-bounds taps (the edges lose one), so 19 x 19 taps of 32 input tiles before; after,
    19 kernel rows x 7 columns of 96 tiles of 3 x 512 channels (the horizontal padding is
    computed): folding would cost passes."""
    assert array_passes(resnet(7, 512), 16) == (19 * 19 * 32, 19 * 7 * 96)
    # A stem after space to depth: 112 x 112, 4x4 over 12 channels (padding 2, 1): per
    # axis 2 + 3 + 109 x 4 + 3 = 444 in-bounds taps, one 12-lane tile each; after, 444
    # kernel rows x 112 columns of 3 tiles of 48 lanes.
    stem = Geometry(112, 112, 12, 4, 4, 64, (1, 1), (1, 1), (2, 1, 2, 1), 112, 112)
    assert array_passes(stem, 16) == (444 * 444, 444 * 112 * 3)


@pytest.mark.parametrize(
    "g, fold",
    [
        # Whole channel tiles: the lowering already skips the padding taps, and folding
        # would compute the horizontal ones — no gain at any ResNet stage.
        (resnet(7, 512), False),
        (resnet(14, 512, 2), False),
        (resnet(14, 256), False),
        (resnet(56, 64), False),
        (Geometry(13, 13, 48, 3, 3, 192, (1, 1), (1, 1), (1, 1, 1, 1), 13, 13), False),
        # 8 of 16 lanes: 27% of the passes saved (132), but the 5 copy layers' start-up
        # (4,000 cycles; the simulator measured 4,100) costs more
        (Geometry(8, 8, 8, 3, 3, 8, (1, 1), (1, 1), (1, 1, 1, 1), 8, 8), False),
        # Stems: 3 or 12 input channels fill a tile once folded (a 3x3 stem over RGB
        # saves 67% of its passes, a 4x4 one over 12 channels 24%)
        (Geometry(224, 224, 3, 3, 3, 32, (2, 2), (1, 1), (0, 1, 0, 1), 112, 112), True),
        (Geometry(112, 112, 12, 4, 4, 64, (1, 1), (1, 1), (2, 1, 2, 1), 112, 112), True),
    ],
)
def test_worth_it_on_the_default_machine(g: Geometry, fold: bool) -> None:
    assert worth_it(g, DEFAULT, 0.1) is fold


def test_pass_leaves_what_does_not_gain() -> None:
    src = conv_program(28, 28, 16, 16, 3, 1, (1, 1, 1, 1), seed=1)
    module = QParser(make_context(), src).parse_module()
    TosaFoldKernelColumns().apply(make_context(), module)
    assert str(module) == str(QParser(make_context(), src).parse_module())
