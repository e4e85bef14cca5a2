"""Stage 1 of `tosa-to-npu` (npu_graph): layers formed from TOSA, frozen once formed, and
a clear error naming the op for what the NPU cannot run. What each layer folds in is
FileCheck-tested through its dump (test/filecheck/lowering/npu_graph.mlir)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.ir.errors import OpError
from qdialect.ir.parser import QParser
from qdialect.lowering.npu_graph import MacLayer, VectorLayer, Window, form_layers, useful_macs
from qdialect.lowering.tosa_to_npu import TosaToNpu
from unit.lowering.test_tosa_to_npu import (
    conv_program,
    entry,
    resnet_tosa,
    run_legalized,
)
from unit.transforms import test_legalize_to_tosa as legalize_cases


def test_layers_are_frozen_once_formed() -> None:
    """No later stage can change a layer: its fields, its requantization, the stages in
    it and their arrays are all frozen."""
    graph = form_layers(entry(resnet_tosa()))
    add = graph.layers[-1]
    assert isinstance(add, VectorLayer)
    with pytest.raises(dataclasses.FrozenInstanceError):
        add.op = "sub"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        add.requant.lo = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        add.requant.stages[0].bias = add.requant.stages[0].bias  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        add.requant.stages[0].bias[0] = 1
    conv = graph.layers[0]
    with pytest.raises(ValueError, match="read-only"):
        conv.weight[0] = 0  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "%0 = tosa.cast %x : (tensor<4xi8>) -> tensor<4xi32>",
            r"tosa-to-npu: 'tosa\.cast' is not supported on the NPU",
        ),
        (
            "%0 = tosa.add %x, %x : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>",
            r"'tosa\.add' needs both operands rescaled from i8 tensors",
        ),
    ],
)
def test_unsupported_op_names_the_op(body: str, message: str) -> None:
    out = body.rsplit("-> ", 1)[1]
    src = f"func.func @main(%x: tensor<4xi8>) -> {out} {{\n  {body}\n  func.return %0 : {out}\n}}"
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    with pytest.raises(OpError, match=message):
        TosaToNpu().apply(ctx, module)


def test_weight_zero_point_that_does_not_fit_int8_is_an_error() -> None:
    src = conv_program(4, 4, 2, 2, 1, 1, (0, 0, 0, 0), seed=1, zp_w=20)
    ctx = make_context()
    module = QParser(ctx, src.replace("values(dense<20>", "values(dense<-100>")).parse_module()
    with pytest.raises(OpError, match="do not fit int8"):
        TosaToNpu().apply(ctx, module)


def test_matmul_by_a_runtime_operand_is_an_error() -> None:
    src, inputs, _ = legalize_cases.layer("batched_dot", np.random.default_rng(0))
    with pytest.raises(OpError, match=r"'tosa\.matmul' needs a constant weight"):
        run_legalized(src, "default", inputs)


def _taps_by_brute_force(h, w, kh, kw, stride, dilation, pad) -> int:
    """Count, output position by output position, the kernel taps that read the input
    rather than the zero padding around it (a padded mask, summed per window)."""
    top, bottom, left, right = pad
    mask = np.pad(np.ones((h, w), np.int64), ((top, bottom), (left, right)))
    oh = (h + top + bottom - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w + left + right - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    total = 0
    for y in range(oh):
        for x in range(ow):
            rows = y * stride[0] + dilation[0] * np.arange(kh)
            cols = x * stride[1] + dilation[1] * np.arange(kw)
            total += int(mask[np.ix_(rows, cols)].sum())
    return total


@pytest.mark.parametrize(
    ("h", "w", "kh", "kw", "stride", "dilation", "pad"),
    [
        (4, 4, 3, 3, (1, 1), (1, 1), (1, 1, 1, 1)),  # 100 of 144 taps read the input
        (7, 5, 3, 3, (2, 2), (1, 1), (1, 1, 1, 1)),
        (9, 9, 3, 3, (1, 1), (2, 2), (2, 2, 2, 2)),
        (8, 6, 5, 1, (1, 1), (1, 1), (2, 2, 0, 0)),
        (6, 6, 1, 1, (1, 1), (1, 1), (0, 0, 0, 0)),  # no padding: every tap is useful
        (5, 7, 3, 2, (2, 1), (1, 2), (0, 1, 2, 0)),
    ],
)
@pytest.mark.parametrize("depthwise", [0, 2])
def test_useful_macs_exclude_taps_on_padding(
    h, w, kh, kw, stride, dilation, pad, depthwise
) -> None:
    c = 3
    n = c * depthwise if depthwise else 5
    taps = _taps_by_brute_force(h, w, kh, kw, stride, dilation, pad)
    oh = (h + pad[0] + pad[1] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    window = Window(h, w, c, kh, kw, stride, dilation, pad, oh, ow)
    weight = np.zeros((kh, kw, 1 if depthwise else c, n), np.int8)
    layer = MacLayer(None, None, weight, None, window, depthwise=depthwise)  # type: ignore[arg-type]
    assert useful_macs(layer) == taps * n * (1 if depthwise else c)
    if pad == (1, 1, 1, 1) and (h, w) == (4, 4):
        assert taps == 100


def test_useful_macs_of_fully_connected_layers_are_m_k_n() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[3] / "examples" / "tosa_mlp.mlir").read_text()
    graph = form_layers(entry(text))
    assert [useful_macs(layer) for layer in graph.layers] == [8 * 32 * 24, 8 * 24 * 10]


@pytest.mark.parametrize("kind", ["avg", "max"])
def test_a_window_with_one_output_position_reads_its_input_at_stride_one(kind: str) -> None:
    """A 7x7/7 pool of a 7x7 image (a global pool as exporters write it) has one output
    position, so its stride moves nothing: the layer takes stride 1, which keeps the
    input in one column phase — one DMA per channel tile instead of one per pixel — and
    its result is the interpreter's."""
    from qdialect.dialects.npu import ProgramOp
    from unit.lowering.test_tosa_to_npu import compile_and_run, pool_program

    src = pool_program(kind, 7, 7, 32, (7, 7), (7, 7), (0, 0, 0, 0), seed=3)
    (layer,) = form_layers(entry(src)).layers
    assert layer.window is not None and layer.window.stride == (1, 1)
    module = QParser(make_context(), src).parse_module()
    TosaToNpu().apply(make_context(), module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    input_loads = [op for op in program.walk() if op.name == "npu.load" and op.buf.value.data == 0]
    assert len(input_loads) == 2  # 32 channels: two tiles of 16
    x = np.random.default_rng(3).integers(-128, 128, (1, 7, 7, 32)).astype(np.int8)
    got, want = compile_and_run(src, "default", x)
    assert np.array_equal(got, want)
