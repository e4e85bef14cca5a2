"""Schemes, integer quantization and fake quantization with a straight-through gradient.

A `Scheme` is what OneFlow's quantization ops take: `bits`, `symmetric` or `affine`,
the `google` or `cambricon` formula, per layer or per channel. Its parameters come from
a range by the formulas of `qdialect.calibration.params.from_range` (signed storage;
the range widened to hold 0) — `params` here is the same arithmetic in JAX, for use
inside a jitted training step; the frozen model takes its parameters from `from_range`
itself, so what is exported is what the rest of the toolchain computes.

`quantize` is StableHLO's `uniform_quantize` as `numerics.quantize` writes it: x / scale
+ zero point in float32, clamped to the storage range, rounded half to even (`jnp.round`
rounds half to even, like `np.rint`). `fake_quant` is its dequantization,
(q - zero point) · scale, with the straight-through estimator as its gradient: round()
has zero derivative almost everywhere, so the gradient passes unchanged where
x / scale + zero point lies inside [qmin, qmax] and is zero outside, where the clamp
holds the output constant — the derivative of the clipping alone. Scales and zero
points get no gradient (observers set them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from qdialect.calibration.params import QuantParams, check_scheme, from_range, per_channel

Array = Any  # a jax or numpy array


@dataclass(frozen=True)
class Scheme:
    """How one kind of tensor is quantized."""

    bits: int = 8
    scheme: str = "symmetric"  # or "affine"
    formula: str = "google"  # or "cambricon" (power-of-two scales, symmetric)
    per_channel: bool = False

    def __post_init__(self) -> None:
        check_scheme(self.bits, self.scheme, self.formula)

    @property
    def qmin(self) -> int:
        return -(1 << (self.bits - 1))

    @property
    def qmax(self) -> int:
        return (1 << (self.bits - 1)) - 1

    def frozen(self, lo: Array, hi: Array, axis: int | None = None) -> QuantParams:
        """The exported parameters of range [lo, hi] (`from_range`, float64 rounded once
        to float32)."""
        return from_range(np.asarray(lo, np.float64), np.asarray(hi, np.float64), bits=self.bits,
                          scheme=self.scheme, formula=self.formula, axis=axis)  # fmt: skip

    def of_weights(self, w: np.ndarray, axis: int) -> QuantParams:
        """A weight's exported parameters: per channel along `axis`, or per tensor."""
        if self.per_channel:
            return per_channel(np.asarray(w), axis, bits=self.bits, scheme=self.scheme,
                               formula=self.formula)  # fmt: skip
        return self.frozen(np.min(w), np.max(w))


def params(lo: Array, hi: Array, scheme: Scheme) -> tuple[jax.Array, jax.Array]:
    """(scale, zero point) of range [lo, hi] under `scheme`, in float32 JAX arithmetic:
    `from_range`'s formulas (the training-time parameters; a scale may differ from
    `from_range`'s in its last bit, which computes in float64)."""
    lo = jnp.minimum(jnp.asarray(lo, jnp.float32), 0.0)
    hi = jnp.maximum(jnp.asarray(hi, jnp.float32), 0.0)
    qmin, qmax = scheme.qmin, scheme.qmax
    if scheme.scheme == "symmetric":
        t = jnp.maximum(-lo, hi)
        if scheme.formula == "google":
            scale = divide(t, np.float32(qmax))
        else:
            shift = jnp.floor(jnp.log2(jnp.where(t > 0, t, 1.0))) - (scheme.bits - 2)
            scale = jnp.exp2(shift)
        zp = jnp.zeros_like(t)
    else:
        scale = divide(hi - lo, np.float32((1 << scheme.bits) - 1))
        safe = jnp.where(scale > 0, scale, 1.0)
        zp = jnp.clip(qmin - jnp.round(divide(lo, safe)), qmin, qmax)
    empty = ~(scale > 0)
    return jnp.where(empty, 1.0, scale), jnp.where(empty, 0.0, zp)


def along(p: Array, rank: int, axis: int | None) -> jax.Array:
    """Per-channel parameters shaped to broadcast along `axis` of a rank-`rank` tensor."""
    p = jnp.asarray(p, jnp.float32)
    if axis is None or p.ndim == 0:
        return p.reshape(()) if p.size == 1 else p
    shape = [1] * rank
    shape[axis] = -1
    return p.reshape(shape)


def _split(a: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Veltkamp's split: a = hi + lo exactly, each half of a's 24 significant bits."""
    c = a * np.float32(4097.0)
    hi = c - (c - a)
    return hi, a - hi


def _residual(x: jax.Array, q: jax.Array, s: jax.Array) -> jax.Array:
    """|x - q·s|, with q·s taken exactly as p + e (Dekker's product): x - p is exact
    when q is within a few units of x / s (Sterbenz), so the sign and the order of
    neighbouring residuals are right."""
    p = q * s
    qh, ql = _split(q)
    sh, sl = _split(s)
    e = ((qh * sh - p) + qh * sl + ql * sh) + ql * sl
    return jnp.abs((x - p) - e)


def divide(x: Array, s: Array) -> jax.Array:
    """x / s rounded correctly to float32, as IEEE division and numpy give it. XLA's
    float32 division on CPU is not correctly rounded (about one quotient in five is
    one unit off), which moves a value lying on a rounding tie of the quantizer to the
    other side; the nearest of the quotient and its two neighbours is the correct one."""
    x, s = jnp.asarray(x, jnp.float32), jnp.asarray(s, jnp.float32)
    q = x / s
    best, err = q, _residual(x, q, s)
    for direction in (np.float32(np.inf), np.float32(-np.inf)):
        c = jnp.nextafter(q, direction)
        e = _residual(x, c, s)
        even = (jax.lax.bitcast_convert_type(c, jnp.int32) & 1) == 0
        better = (e < err) | ((e == err) & even)
        best, err = jnp.where(better, c, best), jnp.where(better, e, err)
    # Far from the range where the split is exact (huge or non-finite values) the
    # quotient saturates the quantizer anyway.
    ok = jnp.isfinite(q) & (jnp.abs(x) < np.float32(1e30)) & (jnp.abs(q) < np.float32(1e30))
    return jnp.where(ok, best, q)


def _scaled(x: Array, scale: Array, zero_point: Array, axis: int | None) -> jax.Array:
    x = jnp.asarray(x, jnp.float32)
    s = jnp.broadcast_to(along(scale, x.ndim, axis), x.shape)
    return divide(x, s) + along(zero_point, x.ndim, axis)


def quantize(x: Array, scale: Array, zero_point: Array, qmin: int, qmax: int,
             axis: int | None = None) -> jax.Array:  # fmt: skip
    """StableHLO's uniform_quantize: the integers (int32) `numerics.quantize` gives."""
    y = jnp.clip(_scaled(x, scale, zero_point, axis), qmin, qmax)
    return jnp.round(y).astype(jnp.int32)


def dequantize(q: Array, scale: Array, zero_point: Array, axis: int | None = None) -> jax.Array:
    """StableHLO's uniform_dequantize, (q - zero point) · scale in float32."""
    q = jnp.asarray(q).astype(jnp.float32)
    return (q - along(zero_point, q.ndim, axis)) * along(scale, q.ndim, axis)


@partial(jax.custom_vjp, nondiff_argnums=(4,))
def _fake_quant(x, scale, zero_point, bounds, axis):
    q = jnp.round(jnp.clip(_scaled(x, scale, zero_point, axis), bounds[0], bounds[1]))
    return dequantize(q, scale, zero_point, axis)


def _fwd(x, scale, zero_point, bounds, axis):
    y = _scaled(x, scale, zero_point, axis)
    inside = (y >= bounds[0]) & (y <= bounds[1])
    return _fake_quant(x, scale, zero_point, bounds, axis), inside


def _bwd(axis, inside, g):
    return (jnp.where(inside, g, 0.0), None, None, None)


_fake_quant.defvjp(_fwd, _bwd)


def fake_quant(x: Array, scale: Array, zero_point: Array, qmin: int, qmax: int,
               axis: int | None = None) -> jax.Array:  # fmt: skip
    """dequantize(quantize(x)) in float32; its gradient is the straight-through
    estimator (1 inside the storage range, 0 outside; none for the parameters)."""
    scale = jax.lax.stop_gradient(jnp.asarray(scale, jnp.float32))
    zero_point = jax.lax.stop_gradient(jnp.asarray(zero_point, jnp.float32))
    bounds = jnp.asarray([qmin, qmax], jnp.float32)
    return _fake_quant(jnp.asarray(x, jnp.float32), scale, zero_point, bounds, axis)
