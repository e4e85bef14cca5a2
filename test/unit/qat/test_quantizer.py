"""The QAT quantizer against independent references: the integers are `numerics`'
(StableHLO's uniform_quantize, ties included), the parameters are OneFlow's formulas
written out here, and the gradient is the derivative of the clipping, taken by finite
differences."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="QAT needs the qat extra (jax)")

from qdialect import numerics  # noqa: E402
from qdialect.calibration.params import from_range  # noqa: E402
from qdialect.qat.quantizer import Scheme, dequantize, fake_quant, params, quantize  # noqa: E402

F32 = np.float32


def inputs_with_ties(scale: float, zp: int, n: int = 4000, seed: int = 0) -> np.ndarray:
    """Normal values, plus values whose x / scale + zp lands on a half (ties) and on the
    storage range's edges."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 60 * scale, n).astype(F32)
    halves = (np.arange(-300, 300) + 0.5 - zp).astype(F32) * F32(scale)
    return np.concatenate([x, halves, [np.inf, -np.inf, 0.0]]).astype(F32)


@pytest.mark.parametrize("scale, zp, lo, hi", [(0.1, 0, -128, 127), (0.25, 5, -128, 127),
                                               (2.0**-5, 0, -8, 7), (0.037, -3, -127, 127)])  # fmt: skip
def test_quantize_gives_numerics_integers(scale, zp, lo, hi) -> None:
    x = inputs_with_ties(scale, zp)
    got = np.asarray(quantize(x, F32(scale), zp, lo, hi))
    want = numerics.quantize(x, F32(scale), zp, lo, hi, storage_bits=8, signed=True)
    assert np.array_equal(got, want.astype(np.int32))
    fq = np.asarray(fake_quant(x, F32(scale), zp, lo, hi))
    assert np.array_equal(fq, numerics.dequantize(want, F32(scale), zp))


def test_per_axis_quantize_and_dequantize() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(0, 1, (3, 4, 5)).astype(F32)
    scales = np.array([0.01, 0.02, 0.03, 0.04], F32)
    zps = np.array([0, 1, -2, 3])
    got = np.asarray(quantize(x, scales, zps, -128, 127, axis=1))
    want = numerics.quantize(x, scales, zps, -128, 127, storage_bits=8, signed=True, axis=1)
    assert np.array_equal(got, want.astype(np.int32))
    assert np.array_equal(np.asarray(dequantize(got, scales, zps, axis=1)),
                          numerics.dequantize(want, scales, zps, axis=1))  # fmt: skip


def oneflow(lo: float, hi: float, bits: int, scheme: str, formula: str) -> tuple[float, int]:
    """OneFlow's observer formulas (min_max_observer), on signed storage: the affine zero
    point -round(lo / scale) on [0, 2^b - 1] moves down by 2^(b-1)."""
    if formula == "cambricon":
        t = max(abs(lo), abs(hi))
        return 2.0 ** (np.floor(np.log2(t)) - (bits - 2)), 0
    if scheme == "symmetric":
        return max(abs(lo), abs(hi)) / (2 ** (bits - 1) - 1), 0
    scale = (hi - lo) / (2**bits - 1)
    return scale, int(-np.round(lo / scale)) - 2 ** (bits - 1)


@pytest.mark.parametrize("scheme, formula", [("symmetric", "google"), ("affine", "google"),
                                             ("symmetric", "cambricon")])  # fmt: skip
@pytest.mark.parametrize("bits", [4, 8])
def test_parameters_follow_oneflow_formulas(scheme, formula, bits) -> None:
    s = Scheme(bits, scheme, formula)
    rng = np.random.default_rng(bits)
    for _ in range(50):
        lo, hi = float(-rng.uniform(0.01, 10)), float(rng.uniform(0.01, 10))
        want_scale, want_zp = oneflow(lo, hi, bits, scheme, formula)
        frozen = s.frozen(F32(lo), F32(hi))
        assert frozen.scale[0] == F32(
            oneflow(float(F32(lo)), float(F32(hi)), bits, scheme, formula)[0]
        )
        assert frozen.zero_point[0] == want_zp or scheme == "affine"  # rounding of lo / scale
        scale, zp = params(F32(lo), F32(hi), s)
        # float32 arithmetic: within one unit in the last place of from_range's scale
        assert abs(float(scale) - frozen.scale[0]) <= np.spacing(F32(frozen.scale[0]))
        assert abs(float(zp) - frozen.zero_point[0]) <= 1 if scheme == "affine" else float(zp) == 0
        if formula == "cambricon":
            assert float(scale) == want_scale  # powers of two are exact


def test_affine_zero_point_matches_from_range() -> None:
    """Off ties: from_range rounds lo / scale with the float64 scale, training with the
    float32 one, so a range whose lo / scale is a half ((-0.5, 0.5): -127.5) may get
    zero points one apart; the exported model uses from_range's."""
    s = Scheme(8, "affine")
    for lo, hi in [(-1.0, 3.0), (0.0, 6.0), (-0.37, 0.71), (-10.0, 0.1)]:
        scale, zp = params(F32(lo), F32(hi), s)
        want = from_range(F32(lo), F32(hi), bits=8, scheme="affine")
        assert float(zp) == want.zero_point[0]
        assert abs(F32(scale) - F32(want.scale[0])) <= np.spacing(F32(want.scale[0]))


def test_straight_through_gradient_is_the_clippings_derivative() -> None:
    scale, zp, lo, hi = F32(0.05), 2, -128, 127
    rng = np.random.default_rng(2)
    x = rng.uniform(-9, 9, 2000).astype(F32)
    low_edge, high_edge = (lo - zp) * float(scale), (hi - zp) * float(scale)
    x = x[(np.abs(x - low_edge) > 1e-3) & (np.abs(x - high_edge) > 1e-3)]  # off the kinks
    grad = np.asarray(jax.grad(lambda v: fake_quant(v, scale, zp, lo, hi).sum())(x))

    def clip(v: np.ndarray) -> np.ndarray:
        return np.clip(v.astype(np.float64), low_edge, high_edge)

    h = 1e-4
    xd = x.astype(np.float64)
    numeric = (clip(xd + h) - clip(xd - h)) / (2 * h)
    assert set(np.unique(grad).tolist()) == {0.0, 1.0}
    assert np.allclose(grad, numeric, atol=1e-6)
    # The parameters get no gradient: observers set them.
    g_scale = jax.grad(lambda s: fake_quant(x, s, zp, lo, hi).sum())(scale)
    assert float(g_scale) == 0.0


def test_per_channel_gradient_uses_each_channels_range() -> None:
    x = np.array([[0.5, 0.5], [2.0, 2.0]], F32)  # channel 1's range ends at 1.27
    scales = np.array([0.1, 0.01], F32)
    grad = np.asarray(jax.grad(lambda v: fake_quant(v, scales, [0, 0], -128, 127, axis=1).sum())(x))
    assert grad.tolist() == [[1.0, 1.0], [1.0, 0.0]]


@pytest.mark.parametrize("kwargs, message", [
    ({"scheme": "asymmetric"}, "unknown quantization scheme"),
    ({"formula": "tflite"}, "unknown quantization formula"),
    ({"bits": 1}, "1-bit quantization is not supported"),
    ({"scheme": "affine", "formula": "cambricon"}, "symmetric only"),
])  # fmt: skip
def test_invalid_schemes_are_refused(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        Scheme(**kwargs)
