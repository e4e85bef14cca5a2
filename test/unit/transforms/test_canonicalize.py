"""`canonicalize{test-convergence}`: MLIR's check that the fixed point is one."""

from __future__ import annotations

import pytest

from qdialect.context import make_context
from qdialect.ir.errors import OpError
from qdialect.ir.parser import QParser
from qdialect.transforms import canonicalize
from qdialect.transforms.canonicalize import Canonicalize

PROGRAM = """
func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = stablehlo.constant dense<0> : tensor<4xi32>
  %0 = stablehlo.add %x, %z : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
"""


def _module():
    ctx = make_context()
    return ctx, QParser(ctx, PROGRAM).parse_module()


def test_converging_rewrite_passes_and_matches_plain_canonicalize() -> None:
    ctx, checked = _module()
    Canonicalize(test_convergence=True).apply(ctx, checked)
    ctx2, plain = _module()
    Canonicalize().apply(ctx2, plain)
    assert str(checked) == str(plain)


def test_a_sweep_that_still_rewrites_fails_with_mlirs_message(monkeypatch) -> None:
    ctx, module = _module()
    # A pattern set whose fixed point is not one: every sweep reports a change.
    monkeypatch.setattr(canonicalize, "_sweep", lambda ctx, op: True)
    with pytest.raises(OpError, match="Canonicalizer failed to converge"):
        Canonicalize(test_convergence=True).apply(ctx, module)
    Canonicalize().apply(ctx, module)  # without the option, no second sweep is judged
