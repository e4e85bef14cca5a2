"""Bit counts and reduce_precision at their edges: widths, signs, ties, overflow, NaN."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.interpreter.stablehlo_numeric_ops import (
    count_leading_zeros,
    popcount,
    reduce_precision,
)


def test_bit_counts_use_the_type_width_not_the_array_dtype() -> None:
    # An i4 value lives in an int8 array: -1 is 0b1111 (4 bits set, no leading zero),
    # -8 is 0b1000, 1 is 0b0001 (3 leading zeros), 0 has 4 leading zeros.
    x = np.array([-1, -8, 1, 0], dtype=np.int8)
    assert popcount(x, 4).tolist() == [4, 1, 1, 0]
    assert count_leading_zeros(x, 4).tolist() == [0, 0, 3, 4]


def test_bit_counts_of_64_bit_extremes() -> None:
    x = np.array([np.iinfo(np.int64).min, -1, np.iinfo(np.int64).max, 1], dtype=np.int64)
    assert popcount(x, 64).tolist() == [1, 64, 63, 1]
    assert count_leading_zeros(x, 64).tolist() == [0, 0, 1, 63]


def test_bit_counts_of_unsigned_values() -> None:
    x = np.array([0xFFFFFFFF, 0x80000000, 0x00010000], dtype=np.uint32)
    assert popcount(x, 32).tolist() == [32, 1, 1]
    assert count_leading_zeros(x, 32).tolist() == [0, 0, 15]


def _f32(bits: int) -> np.float32:
    return np.array([bits], dtype=np.uint32).view(np.float32)[0]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1.0 + 2.0**-11, 1.0),  # tie below an even mantissa: down
        (1.0 + 3 * 2.0**-11, 1.0 + 2.0**-9),  # tie below an odd mantissa: up
        (-(1.0 + 3 * 2.0**-11), -(1.0 + 2.0**-9)),  # the sign does not change the rounding
        (1.0 + 2.0**-11 + 2.0**-20, 1.0 + 2.0**-10),  # above the tie: up
        (65504.0, 65504.0),  # f16's largest finite value stays
        (65519.0, 65504.0),
        (65520.0, np.inf),  # rounds to 65536, past f16's range
        (-70000.0, -np.inf),
        (2.0**-14, 2.0**-14),  # f16's smallest normal stays
        (2.0**-15, 0.0),  # below it: flushed to zero (no subnormals)
        (np.inf, np.inf),
    ],
)
def test_reduce_precision_to_f16_format(value: float, expected: float) -> None:
    out = reduce_precision(np.array([value], dtype=np.float32), 5, 10)
    assert out.dtype == np.float32
    assert out[0] == np.float32(expected)


def test_reduce_precision_keeps_the_sign_of_a_flushed_zero() -> None:
    out = reduce_precision(np.array([-1e-30], dtype=np.float32), 5, 10)
    assert out.view(np.uint32)[0] == 0x80000000


def test_reduce_precision_keeps_nan_while_mantissa_bits_remain() -> None:
    nan = _f32(0x7FC00001)
    out = reduce_precision(np.array([nan], dtype=np.float32), 5, 2)
    assert out.view(np.uint32)[0] == 0x7FC00001


def test_reduce_precision_with_no_mantissa_makes_nan_an_infinity_of_its_sign() -> None:
    x = np.array([_f32(0x7FFFFFFF), _f32(0xFFC00000)], dtype=np.float32)
    out = reduce_precision(x, 8, 0)
    assert out.view(np.uint32).tolist() == [0x7F800000, 0xFF800000]


def test_reduce_precision_wider_than_the_source_is_the_identity() -> None:
    x = np.array([1.1, -3.3e-40, 3.0e38], dtype=np.float32)
    assert reduce_precision(x, 11, 52).view(np.uint32).tolist() == x.view(np.uint32).tolist()
