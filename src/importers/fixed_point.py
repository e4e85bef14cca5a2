"""gemmlowp's fixed-point primitives, on int64 numpy arrays, as TFLite's integer kernels use them.

A value with `k` integer bits is a raw integer `r` standing for `r / 2^(bits-1-k)`.
The importers evaluate these at import time to build exact lookup tables and
constants (HARD_SWISH, SOFTMAX); the emitted TOSA program never calls them.
Each function states the C++ rule it follows, because the rounding is the point:
`rounding_doubling_high_mul` rounds half away from zero after a doubling multiply,
`rounding_divide_by_pot` rounds half away from zero after a right shift.
"""

from __future__ import annotations

import numpy as np

INT32_MAX = (1 << 31) - 1


def saturate(x: np.ndarray, bits: int) -> np.ndarray:
    return np.clip(x, -(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def rounding_doubling_high_mul(
    a: np.ndarray | int, b: np.ndarray | int, bits: int = 32
) -> np.ndarray:
    """SaturatingRoundingDoublingHighMul: (a * b + nudge) / 2^(bits-1), truncated toward zero,
    with nudge = 2^(bits-2) for a non-negative product and 1 - 2^(bits-2) otherwise; the one
    overflowing case (both operands the minimum) saturates to the maximum."""
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    ab = a * b
    nudged = ab + np.where(ab >= 0, 1 << (bits - 2), 1 - (1 << (bits - 2)))
    quotient = np.where(nudged >= 0, nudged >> (bits - 1), -((-nudged) >> (bits - 1)))
    lowest = -(1 << (bits - 1))
    return np.where((a == lowest) & (b == lowest), (1 << (bits - 1)) - 1, quotient)


def doubling_high_mul16(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """gemmlowp's 16-bit SaturatingDoublingHighMul: a * b / 2^15 truncated toward zero."""
    ab = a.astype(np.int64) * b.astype(np.int64)
    out = np.where(ab >= 0, ab >> 15, -((-ab) >> 15))
    return np.where((a == -(1 << 15)) & (b == -(1 << 15)), (1 << 15) - 1, out)


def rounding_divide_by_pot(x: np.ndarray | int, exponent: int) -> np.ndarray:
    """RoundingDivideByPOT: x / 2^exponent rounded half away from zero."""
    x = np.asarray(x, np.int64)
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


# exp(-2^k) for k = -2..4 with 0 integer bits: the factors the barrel shifter applies for
# each set bit of the input's integer part and its top two fraction bits.
_EXP_OF_MINUS_POWERS_OF_TWO = (1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242)
_EXP_MINUS_ONE_EIGHTH = 1895147668
_ONE_THIRD = 715827883


def _exp_on_quarter_interval(a: np.ndarray) -> np.ndarray:
    """exp(a) for a in [-1/4, 0), 0 integer bits in and out: the Taylor series around -1/8
    to the fourth power."""
    x = a + (1 << 28)  # a + 1/8
    x2 = rounding_doubling_high_mul(x, x)
    x3 = rounding_doubling_high_mul(x2, x)
    x4 = rounding_doubling_high_mul(x2, x2)
    x4_over_4 = rounding_divide_by_pot(x4, 2)
    poly = rounding_divide_by_pot(
        rounding_doubling_high_mul(x4_over_4 + x3, _ONE_THIRD) + x2, 1
    )  # x^4/24 + x^3/6 + x^2/2
    return _EXP_MINUS_ONE_EIGHTH + rounding_doubling_high_mul(_EXP_MINUS_ONE_EIGHTH, x + poly)


def exp_on_negative_values(a: np.ndarray, integer_bits: int = 5) -> np.ndarray:
    """exp(a) for a <= 0 given with `integer_bits` integer bits (at most 5); the result has
    0 integer bits, and exp(0) is the largest raw value."""
    if not 0 < integer_bits <= 5:
        raise ValueError("exp_on_negative_values supports 1..5 integer bits")
    a = np.asarray(a, np.int64)
    fractional = 31 - integer_bits
    quarter = 1 << (fractional - 2)
    a_mod_quarter = (a & (quarter - 1)) - quarter  # in [-1/4, 0)
    result = _exp_on_quarter_interval(a_mod_quarter << integer_bits)
    remainder = a_mod_quarter - a  # the multiple of 1/4 still to apply, >= 0
    for k, factor in enumerate(_EXP_OF_MINUS_POWERS_OF_TWO):
        if integer_bits > k - 2:
            bit = (remainder >> (fractional + k - 2)) & 1
            result = np.where(bit != 0, rounding_doubling_high_mul(result, factor), result)
    return np.where(a == 0, INT32_MAX, result)
