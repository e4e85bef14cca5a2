"""`stablehlo-fold-pad` is exact: the lit test's programs (a float "SAME" pad, a
quantized pad by the zero point) give the same outputs before and after on the
interpreter, `np.array_equal`, and the pads are gone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.dialects import stablehlo as sh
from qdialect.interpreter import Interpreter
from qdialect.interpreter.values import random_value
from qdialect.ir.parser import QParser
from qdialect.tools.common import split_chunks
from qdialect.transforms.fold_pad import FoldPad

LIT = Path(__file__).parents[2] / "filecheck" / "transforms" / "stablehlo-fold-pad.mlir"


@pytest.mark.parametrize("chunk", [0, 1])
def test_folded_convolution_is_exact(chunk: int) -> None:
    text = split_chunks(LIT.read_text(), True)[chunk].text
    before = QParser(make_context(), text).parse_module()
    after = QParser(make_context(), text).parse_module()
    FoldPad().apply(make_context(), after)
    after.verify()
    assert not any(isinstance(op, sh.PadOp) for op in after.walk())
    func = next(op for op in before.walk() if op.name == "func.func")
    name = func.sym_name.data  # type: ignore[attr-defined]
    rng = np.random.default_rng(chunk)
    for _ in range(3):
        args = [random_value(a.type, rng) for a in func.body.block.args]  # type: ignore[attr-defined]
        want = Interpreter(before).call(name, args)
        got = Interpreter(after).call(name, args)
        assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
