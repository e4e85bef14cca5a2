"""ONNX Runtime's float32 CPU arithmetic on x86-64, reproduced exactly for 8-bit inputs.

A quantized activation (QLinearSigmoid, or a HardSwish between DequantizeLinear and
QuantizeLinear) is a function of one 8-bit value, so the importer evaluates it on all 256
inputs and emits a lookup table. That is exact only if every float32 step is the one ONNX
Runtime performs, rounding included:

* DequantizeLinear: `float(q - zero_point) * scale`;
* QuantizeLinear (MLAS): `x / scale`, clamped to the range less the zero point, rounded
  half to even, plus the zero point;
* Sigmoid (MLAS's logistic kernel; AVX2 machines run its FMA3 form): the input clamped to
  [-18, 18], odd and even polynomials in x^2 evaluated with fused multiply-adds, their
  quotient plus 1/2, clamped to [0, 1];
* Tanh (MLAS's tanh kernel, FMA3 form): clamped to [-9, 9], an odd over an even
  polynomial in x^2;
* HardSigmoid: `max(0, min(1, alpha * x + beta))`, multiply then add (two roundings);
  HardSwish is ONNX's function body, `x * HardSigmoid(x, 1/6, 1/2)`.

`fma` rounds the exact `a * b + c` once to float32 (Fractions, not float64, so no double
rounding). Each function is tested against ONNX Runtime on all 256 inputs.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

_LOGISTIC_RANGE = np.float32(18.0)
_ALPHA = tuple(
    np.float32(v)
    for v in (4.37031012579801e-11, 1.15627324459942e-07, 6.08574864600143e-05,
              8.51377133304701e-03, 2.48287947061529e-01)
)  # fmt: skip  # x^9 .. x^1 coefficients of the numerator
_BETA = tuple(
    np.float32(v)
    for v in (6.10247389755681e-13, 5.76102136993427e-09, 6.29106785017040e-06,
              1.70198817374094e-03, 1.16817656904453e-01, 9.93151921023180e-01)
)  # fmt: skip  # x^10 .. x^0 coefficients of the denominator


def _nearest_f32(exact: Fraction) -> np.float32:
    """`exact` rounded to float32, to nearest with ties to even."""
    guess = np.float32(float(exact))
    candidates = (
        guess,
        np.nextafter(guess, np.float32(-np.inf)),
        np.nextafter(guess, np.float32(np.inf)),
    )
    return min(
        (c for c in candidates if np.isfinite(c)),
        key=lambda c: (abs(Fraction(float(c)) - exact), int(np.float32(c).view(np.int32)) & 1),
    )


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Fused multiply-add in float32, elementwise: one rounding of a * b + c."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float32) for v in (a, b, c)))
    flat = [
        _nearest_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
        for x, y, z in zip(a.reshape(-1), b.reshape(-1), c.reshape(-1), strict=True)
    ]
    return np.array(flat, np.float32).reshape(a.shape)


def dequantize(q: np.ndarray, scale: float, zero_point: int) -> np.ndarray:
    return (np.asarray(q, np.int64) - zero_point).astype(np.float32) * np.float32(scale)


def quantize(x: np.ndarray, scale: float, zero_point: int, lo: int, hi: int) -> np.ndarray:
    """MLAS QuantizeLinear: divide, clamp to [lo - zp, hi - zp], round half to even, add zp."""
    v = np.asarray(x, np.float32) / np.float32(scale)
    v = np.clip(v, np.float32(lo - zero_point), np.float32(hi - zero_point))
    return np.rint(v).astype(np.int64) + zero_point


def logistic(x: np.ndarray) -> np.ndarray:
    """MLAS's logistic kernel (FMA3 form)."""
    v = np.clip(np.asarray(x, np.float32), -_LOGISTIC_RANGE, _LOGISTIC_RANGE)
    return np.clip(_odd_over_even(v, _ALPHA, _BETA) + np.float32(0.5), np.float32(0.0),
                   np.float32(1.0))  # fmt: skip


def _odd_over_even(v: np.ndarray, odd: tuple, even: tuple) -> np.ndarray:
    """v * P(v^2) / Q(v^2), each polynomial by Horner's rule with fused multiply-adds from
    its highest coefficient, as MLAS's kernels evaluate them."""
    v2 = v * v
    p = fma(v2, odd[0], odd[1])
    for c in odd[2:]:
        p = fma(p, v2, c)
    q = fma(v2, even[0], even[1])
    for c in even[2:]:
        q = fma(q, v2, c)
    return (p * v) / q


_TANH_RANGE = np.float32(9.0)
_TANH_ALPHA = tuple(
    np.float32(v)
    for v in (-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
              5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
              4.89352455891786e-03)
)  # fmt: skip  # x^13 .. x^1 coefficients of the numerator
_TANH_BETA = tuple(
    np.float32(v)
    for v in (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
              4.89352518554385e-03)
)  # fmt: skip  # x^6 .. x^0 coefficients of the denominator


def tanh(x: np.ndarray) -> np.ndarray:
    """MLAS's tanh kernel (FMA3 form): the input clamped to [-9, 9], an odd over an even
    polynomial, no final clamp."""
    v = np.clip(np.asarray(x, np.float32), -_TANH_RANGE, _TANH_RANGE)
    return _odd_over_even(v, _TANH_ALPHA, _TANH_BETA)


def hard_sigmoid(x: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    v = np.asarray(x, np.float32) * np.float32(alpha) + np.float32(beta)
    return np.clip(v, np.float32(0.0), np.float32(1.0))


def hard_swish(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    return x * hard_sigmoid(x, 1.0 / 6.0, 0.5)


def requant_scale(s_in: np.ndarray, s_w: np.ndarray, s_out: np.ndarray) -> np.ndarray:
    """The float32 multiplier ONNX Runtime's QLinearConv / QLinearMatMul / QGemm apply to
    an int32 sum: `(s_in * s_w[c]) / s_out`, computed in that order in float32 (one
    entry per output channel for per-channel weights)."""
    return (
        np.float32(s_in.reshape(-1)[0]) * s_w.reshape(-1) / np.float32(s_out.reshape(-1)[0])
    ).astype(np.float32)
