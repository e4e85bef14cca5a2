"""The numeric contract, checked against hand-computed values and independent references."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qdialect import numerics
from qdialect.numerics import QuantizationError

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

# --------------------------------------------------------------------------
# quantize_multiplier
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "expected"),
    [
        (0.5, (2**30, 31)),
        (1.0, (2**30, 30)),
        (0.75, (1610612736, 31)),
        (0.1, (1717986918, 34)),  # 0.1 = 0.8 * 2^-3; 0.8 * 2^31 = 1717986918.4
        (2.0**28, (2**30, 2)),  # largest power of two with shift >= 2
        (1.0 - 2.0**-40, (2**30, 30)),  # mantissa rounds up to 2^31: halve, exponent + 1
        (2.0**-40, (2**22, 62)),  # shift 70 > 62: multiplier loses 8 bits
        (2.0**-62, (1, 62)),  # the smallest exactly representable power of two
        (2.0**-63, (1, 62)),  # rounds (ties up) to 2^-62: documented saturation
    ],
)
def test_quantize_multiplier_32(scale: float, expected: tuple[int, int]) -> None:
    assert numerics.quantize_multiplier(scale) == expected


def test_quantize_multiplier_16() -> None:
    assert numerics.quantize_multiplier(0.5, bits=16) == (2**14, 15)
    assert numerics.quantize_multiplier(0.1, bits=16) == (26214, 18)  # 0.8 * 2^15 = 26214.4
    assert numerics.quantize_multiplier(1.0 - 2.0**-20, bits=16) == (2**14, 14)


@pytest.mark.parametrize("scale", [0.0, -1.0, math.inf, math.nan, 2.0**29, 2.0**-93, 1e300])
def test_quantize_multiplier_rejects_unrepresentable(scale: float) -> None:
    with pytest.raises(QuantizationError):
        numerics.quantize_multiplier(scale)


@given(st.floats(min_value=2.0**-30, max_value=2.0**28, allow_nan=False))
def test_quantize_multiplier_is_accurate(scale: float) -> None:
    multiplier, shift = numerics.quantize_multiplier(scale)
    assert 2**30 <= multiplier < 2**31
    assert 2 <= shift <= 62
    # One rounding of a 31-bit mantissa: relative error at most 2^-31.
    assert abs(multiplier * 2.0**-shift - scale) <= scale * 2.0**-31


# --------------------------------------------------------------------------
# apply_scale_32 / apply_scale_16: hand-computed corner cases
# --------------------------------------------------------------------------


def scale32(value, multiplier, shift, double_round=False, **kw):
    return numerics.apply_scale_32(np.array(value), multiplier, shift, double_round, **kw)


def test_apply_scale_ties_single_round_toward_plus_infinity() -> None:
    # x * 0.5 with M = 2^30, shift 31: 1.5 -> 2, -1.5 -> -1, 2.5 -> 3, -2.5 -> -2
    got = scale32([3, -3, 5, -5, 4, -4], 2**30, 31)
    np.testing.assert_array_equal(got, [2, -1, 3, -2, 2, -2])


def test_apply_scale_shift_2() -> None:
    # x / 4 with M = 1, shift 2: 1.25 -> 1, 1.5 -> 2, -1.5 -> -1, -1.75 -> -2
    np.testing.assert_array_equal(scale32([5, 6, -6, -7], 1, 2), [1, 2, -1, -2])


def test_apply_scale_shift_31_and_32() -> None:
    # shift 31: double rounding changes nothing (it applies only above 31).
    for double in (False, True):
        np.testing.assert_array_equal(scale32([3, -3], 2**30, 31, double), [2, -1])
    # shift 32, x * 0.25: -0.5 is a tie. SINGLE_ROUND gives 0 (toward +inf),
    # DOUBLE_ROUND gives -1 (the 2^30 pre-round pushes it away from zero).
    np.testing.assert_array_equal(scale32([2, -2], 2**30, 32, False), [1, 0])
    np.testing.assert_array_equal(scale32([2, -2], 2**30, 32, True), [1, -1])


def test_apply_scale_shift_62() -> None:
    # (2^31-1)^2 / 2^62 = 0.99999999953 -> 1; -(2^31-1) -> -1
    got = scale32([INT32_MAX, -INT32_MAX, 0], INT32_MAX, 62)
    np.testing.assert_array_equal(got, [1, -1, 0])


def test_apply_scale_per_channel_broadcast() -> None:
    values = np.array([[10, 10], [-10, -10]])
    multipliers = np.array([2**30, 2**30])
    shifts = np.array([31, 32])  # x0.5 and x0.25
    got = numerics.apply_scale_32(values, multipliers, shifts, False)
    np.testing.assert_array_equal(got, [[5, 3], [-5, -2]])  # 2.5 -> 3, -2.5 -> -2


@pytest.mark.parametrize(
    ("value", "multiplier", "shift"),
    [(2**31, 1, 2), (-(2**31) - 1, 1, 2), (1, 2**31, 31), (1, -1, 31), (1, 1, 1), (1, 1, 63)],
)
def test_apply_scale_32_rejects_out_of_domain(value: int, multiplier: int, shift: int) -> None:
    with pytest.raises(QuantizationError):
        scale32([value], multiplier, shift)


def test_apply_scale_32_result_overflow() -> None:
    with pytest.raises(QuantizationError, match="result outside"):
        scale32([INT32_MAX], INT32_MAX, 2)
    got = scale32([INT32_MAX, INT32_MIN], INT32_MAX, 2, on_overflow="saturate")
    np.testing.assert_array_equal(got, [INT32_MAX, INT32_MIN])


def test_apply_scale_16() -> None:
    # x * 0.5 with M = 2^14, shift 15; values beyond 32 bits are legal inputs (48-bit).
    got = numerics.apply_scale_16(np.array([3, -3, 2**31]), 2**14, 15)
    np.testing.assert_array_equal(got, [2, -1, 2**30])
    got = numerics.apply_scale_16(np.array([2**33, -(2**33) - 32]), 2**14, 20)  # x / 64
    np.testing.assert_array_equal(got, [2**27, -(2**27) - 0])  # -2^27 - 0.5 ties up
    with pytest.raises(QuantizationError, match="result outside"):
        numerics.apply_scale_16(np.array([2**40 + 1]), 2**14, 15)
    with pytest.raises(QuantizationError):
        numerics.apply_scale_16(np.array([2**47]), 1, 2)
    with pytest.raises(QuantizationError):
        numerics.apply_scale_16(np.array([1]), 2**15, 15)


# --------------------------------------------------------------------------
# DOUBLE_ROUND == gemmlowp / TFLite MultiplyByQuantizedMultiplier
# (an independent scalar implementation, written here from the algorithm)
# --------------------------------------------------------------------------


def _trunc_div(n: int, d: int) -> int:
    q = abs(n) // d
    return q if n >= 0 else -q


def saturating_rounding_doubling_high_mul(a: int, b: int) -> int:
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    return _trunc_div(ab + nudge, 1 << 31)


def rounding_divide_by_pot(x: int, exponent: int) -> int:
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def multiply_by_quantized_multiplier(x: int, multiplier: int, tflite_shift: int) -> int:
    left = max(tflite_shift, 0)
    right = max(-tflite_shift, 0)
    return rounding_divide_by_pot(
        saturating_rounding_doubling_high_mul(x * (1 << left), multiplier), right
    )


@st.composite
def gemmlowp_case(draw: st.DrawFn) -> tuple[int, int, int]:
    shift = draw(st.integers(min_value=2, max_value=62))
    left = max(31 - shift, 0)
    bound = (1 << (31 - left)) - 1  # x << left must stay in int32, as TFLite requires
    x = draw(st.integers(min_value=-bound, max_value=bound))
    multiplier = draw(st.integers(min_value=0, max_value=INT32_MAX))
    return x, multiplier, shift


@settings(max_examples=3000, deadline=None)
@given(gemmlowp_case())
def test_double_round_equals_gemmlowp(case: tuple[int, int, int]) -> None:
    x, multiplier, shift = case
    expected = multiply_by_quantized_multiplier(x, multiplier, 31 - shift)
    assert int(scale32([x], multiplier, shift, True)[0]) == expected


def tflite_single_rounding(x: int, multiplier: int, tflite_shift: int) -> int:
    total_shift = 31 - tflite_shift
    return (x * multiplier + (1 << (total_shift - 1))) >> total_shift


@settings(max_examples=1000, deadline=None)
@given(gemmlowp_case())
def test_single_round_equals_tflite_single_rounding(case: tuple[int, int, int]) -> None:
    x, multiplier, shift = case
    expected = tflite_single_rounding(x, multiplier, 31 - shift)
    assert int(scale32([x], multiplier, shift, False)[0]) == expected


def test_half_even_rounds_exact_halves_to_even() -> None:
    """HALF_EVEN_ROUND by hand: x * 2^30 >> 31 is x / 2, so odd x are exact ties."""
    xs = [-5, -3, -1, 1, 3, 5, 4, -4]
    assert scale32(xs, 1 << 30, 31, half_even=True).tolist() == [-2, -2, 0, 0, 2, 2, 2, -2]
    assert scale32(xs, 1 << 30, 31).tolist() == [-2, -1, 0, 1, 2, 3, 2, -2]  # ties up
    with pytest.raises(ValueError, match="exclude each other"):
        scale32(xs, 1 << 30, 31, True, half_even=True)


@settings(max_examples=3000, deadline=None)
@given(gemmlowp_case())
def test_half_even_equals_exact_rational_rounding(case: tuple[int, int, int]) -> None:
    """Python's round() of the exact fraction x * M / 2^shift rounds ties to even."""
    x, multiplier, shift = case
    expected = round(Fraction(x * multiplier, 1 << shift))
    assert int(scale32([x], multiplier, shift, half_even=True)[0]) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(gemmlowp_case(), min_size=1, max_size=50),
    st.booleans(),
)
def test_apply_scale_vectorized_matches_scalar(
    cases: list[tuple[int, int, int]], double: bool
) -> None:
    xs, ms, ss = (np.array(c) for c in zip(*cases, strict=True))
    got = numerics.apply_scale_32(xs, ms, ss, double)
    want = [int(scale32([x], m, s, double)[0]) for x, m, s in cases]
    np.testing.assert_array_equal(got, want)


# --------------------------------------------------------------------------
# quantize / dequantize (StableHLO)
# --------------------------------------------------------------------------


def q8(x, scale, zp, lo=-128, hi=127, **kw):
    return numerics.quantize(
        np.array(x, np.float32), scale, zp, lo, hi, storage_bits=8, signed=True, **kw
    )


def test_quantize_rounds_half_to_even_and_clamps() -> None:
    got = q8([0.25, 0.75, -0.25, -0.75, 100.0, -100.0], 0.5, 0)
    np.testing.assert_array_equal(got, [0, 2, 0, -2, 127, -128])
    assert got.dtype == np.int8


def test_quantize_adds_zero_point_before_rounding() -> None:
    # 0.5 / 1 + 1 = 1.5 -> 2 (StableHLO). ONNX Runtime would give rne(0.5) + 1 = 1.
    np.testing.assert_array_equal(q8([0.5, 1.5, -0.5], 1.0, 1), [2, 2, 0])


def test_quantize_computes_in_the_expressed_type() -> None:
    # x = 0.5 + 2^-24 is exact in f32; x + 1024 rounds to 1024.5 in f32 (ulp 2^-13),
    # a tie that goes to even: 1024. In f64 the sum stays above the tie: 1025.
    x = np.float32(0.5 + 2.0**-24)
    args = dict(storage_bits=16, signed=True)
    f32 = numerics.quantize([x], 1.0, 1024, -(2**15), 2**15 - 1, expressed="f32", **args)
    f64 = numerics.quantize([x], 1.0, 1024, -(2**15), 2**15 - 1, expressed="f64", **args)
    assert (int(f32[0]), int(f64[0])) == (1024, 1025)


def test_quantize_special_values() -> None:
    """NaN -> storage 0 (what convert makes of it, and upstream's interpreter), even with
    a nonzero zero point; +-inf saturate."""
    got = q8([np.nan, np.inf, -np.inf], 0.5, 3)
    np.testing.assert_array_equal(got, [0, 127, -128])


def test_quantize_unsigned_and_narrow_range() -> None:
    u8 = numerics.quantize(
        np.array([-200.0, 0.0, 300.0]), 1.0, 128, 0, 255, storage_bits=8, signed=False
    )
    np.testing.assert_array_equal(u8, [0, 128, 255])
    assert u8.dtype == np.uint8
    np.testing.assert_array_equal(q8([-1000.0, 1000.0], 1.0, 0, -127, 127), [-127, 127])


def test_quantize_per_axis() -> None:
    x = np.array([[1.0, 1.0], [-1.0, -1.0]], np.float32)
    got = q8(x, [0.5, 0.25], [0, 10], axis=1)
    np.testing.assert_array_equal(got, [[2, 14], [-2, 6]])
    got = q8(x, [0.5, 0.25], [0, 10], axis=0)
    np.testing.assert_array_equal(got, [[2, 2], [6, 6]])


def test_dequantize() -> None:
    got = numerics.dequantize(np.array([-128, 127], np.int8), 0.5, -1)
    np.testing.assert_array_equal(got, np.array([-63.5, 64.0], np.float32))
    assert got.dtype == np.float32
    got = numerics.dequantize(np.array([[1, 1], [2, 2]], np.int8), [1.0, 0.5], [1, -1], axis=1)
    np.testing.assert_array_equal(got, [[0.0, 1.0], [1.0, 1.5]])


def test_per_axis_parameters_must_fit_the_rank() -> None:
    with pytest.raises(QuantizationError):
        numerics.dequantize(np.zeros((2, 2), np.int8), [1.0, 1.0], [0, 0], axis=2)
    with pytest.raises(QuantizationError):
        numerics.dequantize(np.zeros((2, 2), np.int8), [1.0, 1.0], [0, 0])


@settings(max_examples=300, deadline=None)
@given(
    st.floats(min_value=1e-3, max_value=10.0),
    st.integers(min_value=-128, max_value=127),
    st.lists(st.integers(min_value=-128, max_value=127), min_size=1, max_size=64),
)
def test_quantize_inverts_dequantize(scale: float, zp: int, values: list[int]) -> None:
    q = np.array(values, np.int8)
    x = numerics.dequantize(q, scale, zp)
    back = q8(x, scale, zp)
    # The f32 round trip may move a clamped or rounded value by one step at most.
    assert np.max(np.abs(back.astype(int) - q.astype(int))) <= 1


# --------------------------------------------------------------------------
# Storage helpers and rounding
# --------------------------------------------------------------------------


def test_storage_range_and_dtype() -> None:
    assert numerics.storage_range(8, True) == (-128, 127)
    assert numerics.storage_range(8, False) == (0, 255)
    assert numerics.storage_range(4, True) == (-8, 7)
    assert numerics.storage_range(32, False) == (0, 2**32 - 1)
    assert numerics.storage_dtype(4, True) == np.int8
    assert numerics.storage_dtype(12, False) == np.uint16
    assert numerics.storage_dtype(32, True) == np.int32


def test_saturate_cast() -> None:
    got = numerics.saturate_cast(np.array([-300, -5, 5, 300]), 8, True)
    np.testing.assert_array_equal(got, [-128, -5, 5, 127])
    assert got.dtype == np.int8
    got = numerics.saturate_cast(np.array([-1.0, 17.0, np.nan]), 4, False)
    np.testing.assert_array_equal(got, [0, 15, 0])


def test_rounding_rules() -> None:
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999])
    np.testing.assert_array_equal(numerics.round_half_to_even(x), [0, 2, 2, -0, -2, -2, 2])
    np.testing.assert_array_equal(numerics.round_half_away_from_zero(x), [1, 2, 3, -1, -2, -3, 2])
    # 0.5 - 2^-25 is below the tie; floor(x + 0.5) would round it up in f32.
    just_below = np.array([0.5 - 2.0**-25, -(0.5 - 2.0**-25)], np.float32)
    np.testing.assert_array_equal(numerics.round_half_away_from_zero(just_below), [0, 0])


# --------------------------------------------------------------------------
# Sub-channel (blockwise) parameters
# --------------------------------------------------------------------------

# Row 0 uses scales 0.5 (columns 0-1) and 0.25 (columns 2-3), zero points 1 and -2;
# row 1 uses 2.0 (zero point 3) and 1.0 (zero point 0): blocks of 1 x 2.
BLOCK_SCALES = np.array([[0.5, 0.25], [2.0, 1.0]])
BLOCK_ZPS = np.array([[1, -2], [3, 0]])
BLOCK_X = np.array([[1.0, -3.0, 0.3, 100.0], [5.0, 7.0, -2.2, 0.5]], np.float32)


def test_sub_channel_quantize_hand_worked() -> None:
    # 1/0.5+1=3; -3/0.5+1=-5; 0.3/0.25-2=-0.8->-1; 100/0.25-2=398->127 (clamped);
    # 5/2+3=5.5->6 and 7/2+3=6.5->6 (ties to even); -2.2->-2; 0.5->0 (tie to even).
    q = numerics.quantize(
        BLOCK_X,
        BLOCK_SCALES,
        BLOCK_ZPS,
        -128,
        127,
        storage_bits=8,
        signed=True,
        scales_shape=(2, 2),
    )
    assert q.tolist() == [[3, -5, -1, 127], [6, 6, -2, 0]]
    assert q.dtype == np.int8
    # (3-1)*0.5=1; (-1+2)*0.25=0.25; (127+2)*0.25=32.25; (6-3)*2=6.
    d = numerics.dequantize(q, BLOCK_SCALES, BLOCK_ZPS, scales_shape=(2, 2))
    assert d.tolist() == [[1.0, -3.0, 0.25, 32.25], [6.0, 6.0, -2.0, 0.0]]


def _blockwise_reference(x: np.ndarray, scales: np.ndarray, zps: np.ndarray) -> np.ndarray:
    """Element by element: the block of (i, j) is (i // rows per block, j // columns per block)."""
    bi, bj = x.shape[0] // scales.shape[0], x.shape[1] // scales.shape[1]
    out = np.zeros(x.shape, np.int64)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            s = np.float32(scales[i // bi, j // bj])
            z = np.float32(zps[i // bi, j // bj])
            v = np.float32(np.float32(x[i, j]) / s) + z
            out[i, j] = int(np.rint(min(max(v, np.float32(-8)), np.float32(7))))
    return out


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(1, 1), (1, 3), (2, 1), (2, 3), (4, 6)]),
    st.integers(0, 2**32 - 1),
)
def test_sub_channel_quantize_matches_elementwise_reference(blocks, seed) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 4, (4, 6)).astype(np.float32)
    scales = rng.uniform(0.1, 2.0, blocks)
    zps = rng.integers(-3, 4, blocks)
    q = numerics.quantize(x, scales, zps, -8, 7, storage_bits=4, signed=True, scales_shape=blocks)
    np.testing.assert_array_equal(q, _blockwise_reference(x, scales, zps))


def test_block_broadcast_repeats_blocks_and_rejects_bad_tilings() -> None:
    out = numerics.block_broadcast([1, 2, 3], (1, 3), (2, 6))
    assert out.tolist() == [[1, 1, 2, 2, 3, 3], [1, 1, 2, 2, 3, 3]]
    with pytest.raises(QuantizationError, match="not a whole number of blocks"):
        numerics.block_broadcast([1, 2, 3], (1, 3), (2, 5))
    with pytest.raises(QuantizationError, match="rank 2 for a tensor of rank 1"):
        numerics.block_broadcast([1, 2], (1, 2), (4,))


@pytest.mark.parametrize(
    ("values", "bits", "signed", "expected"),
    [
        ([7, 8, 9, 15, 16, -8, -9], 4, True, [7, -8, -7, -1, 0, -8, 7]),
        ([15, 16, 17, -1], 4, False, [15, 0, 1, 15]),
        ([2047, 2048, -2049], 12, True, [2047, -2048, 2047]),
        ([1, 2, 3], 2, True, [1, -2, -1]),
    ],
)
def test_wrap_integer_is_twos_complement(values, bits, signed, expected) -> None:
    out = numerics.wrap_integer(values, bits, signed)
    assert out.tolist() == expected
    assert out.dtype == numerics.storage_dtype(bits, signed)
