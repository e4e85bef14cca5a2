"""batch_norm_training and batch_norm_grad against JAX: the training op's statistics and
output against JAX's own mean and variance, and batch_norm_grad against JAX's automatic
derivative of that training-mode normalization (an independent computation of the
spec's gradient formulas)."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser

jax = pytest.importorskip("jax", reason="the reference derivative needs the qat extra (jax)")
jnp = jax.numpy

SHAPE, FEATURE, EPSILON = (2, 3, 4, 5), 1, 1e-3

TRAINING = """
func.func @main(%x: tensor<2x3x4x5xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>)
    -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
}
"""

GRAD = """
func.func @main(%x: tensor<2x3x4x5xf32>, %scale: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>, %dy: tensor<2x3x4x5xf32>)
    -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %dy) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
}
"""


def run(src: str, *args: np.ndarray) -> list[np.ndarray]:
    module = QParser(make_context(), src).parse_module()
    module.verify()
    return Interpreter(module).call("main", list(args))


def reference(x, scale, offset):
    """Training-mode batch normalization, written directly in JAX."""
    axes = (0, 2, 3)

    def shaped(v):
        return v[None, :, None, None]

    mean = jnp.mean(x, axis=axes)
    var = jnp.mean((x - shaped(mean)) ** 2, axis=axes)
    y = (x - shaped(mean)) / jnp.sqrt(shaped(var) + EPSILON) * shaped(scale) + shaped(offset)
    return y, mean, var


@pytest.fixture
def data():
    rng = np.random.default_rng(7)
    x = rng.normal(1.0, 2.0, SHAPE).astype(np.float32)
    scale = rng.uniform(0.5, 2.0, SHAPE[FEATURE]).astype(np.float32)
    offset = rng.normal(size=SHAPE[FEATURE]).astype(np.float32)
    dy = rng.normal(size=SHAPE).astype(np.float32)
    return x, scale, offset, dy


def test_training_matches_jax(data):
    x, scale, offset, _ = data
    ours = run(TRAINING, x, scale, offset)
    theirs = reference(x, scale, offset)
    for a, b in zip(ours, theirs, strict=True):
        assert a.dtype == np.float32
        np.testing.assert_allclose(a, np.asarray(b), rtol=1e-5, atol=1e-5)


def test_grad_matches_jax_derivative(data):
    x, scale, offset, dy = data
    _, mean, var = run(TRAINING, x, scale, offset)
    ours = run(GRAD, x, scale, mean, var, dy)

    def loss(x, scale, offset):
        return jnp.sum(reference(x, scale, offset)[0] * dy)

    theirs = jax.grad(loss, argnums=(0, 1, 2))(x, scale, offset)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, np.asarray(b), rtol=1e-4, atol=1e-4)
