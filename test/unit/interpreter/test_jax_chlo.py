"""A program JAX exports with chlo ops (top_k, acos, erf, sinh) and composites (erfinv,
lgamma, digamma) parses, prints back to itself, and runs in the interpreter with the
values JAX's own XLA computes: top_k exactly, the transcendental functions to within
2e-6 absolute or 1e-6 relative (their float32 implementations differ by a few ulps,
more in relative terms where a result nears zero, as lgamma(1) does; neither is the
spec's reference)."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.ir.printer import module_text

jax = pytest.importorskip("jax", reason="exporting needs the qat extra (jax)")
jnp = jax.numpy


def program(x, y):
    values, indices = jax.lax.top_k(x, 3)
    t = jnp.tanh(y)
    return (
        values,
        indices,
        jax.scipy.special.erfinv(t),
        jax.lax.lgamma(jnp.abs(y) + 1.0),
        jnp.arccos(t),
        jnp.sinh(y),
        jax.lax.erf(y),
        jax.lax.digamma(jnp.abs(y) + 1.0),
    )


def test_jax_export_with_chlo_runs_like_xla():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 8)).astype(np.float32)
    y = rng.normal(size=(4, 8)).astype(np.float32)
    text = jax.export.export(jax.jit(program))(x, y).mlir_module()
    assert "chlo.top_k" in text and "chlo.erf" in text

    module = QParser(make_context(), text).parse_module()
    module.verify()
    printed = module_text(module)
    assert module_text(QParser(make_context(), printed).parse_module()) == printed

    ours = Interpreter(module).call("main", [x, y])
    theirs = [np.asarray(r) for r in jax.jit(program)(x, y)]
    assert np.array_equal(ours[0], theirs[0]) and np.array_equal(ours[1], theirs[1])
    for a, b in zip(ours[2:], theirs[2:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=2e-6)


def test_next_after_matches_jax_bit_for_bit():
    """`chlo.next_after` against JAX's `lax.nextafter` (computed by XLA, which lowers it
    to integer arithmetic on the bit patterns): zeros, subnormals, infinities, NaN,
    equal operands and both directions."""
    x = np.array([1.0, 1.0, 0.0, -0.0, 1e-45, np.inf, -np.inf, np.nan, 3.0, 2.5], np.float32)
    y = np.array([2.0, 0.0, 1.0, -1.0, 0.0, 0.0, np.inf, 1.0, 3.0, -np.inf], np.float32)
    want = np.asarray(jax.lax.nextafter(jnp.asarray(x), jnp.asarray(y)))
    src = """
    func.func @main(%x: tensor<10xf32>, %y: tensor<10xf32>) -> tensor<10xf32> {
      %0 = chlo.next_after %x, %y : tensor<10xf32>, tensor<10xf32> -> tensor<10xf32>
      return %0 : tensor<10xf32>
    }"""
    module = QParser(make_context(), src).parse_module()
    module.verify()
    (got,) = Interpreter(module).call("main", [x, y])
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))  # NaN's bits too
