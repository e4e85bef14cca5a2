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
from qdialect.lowering.npu_graph import VectorLayer, form_layers
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
