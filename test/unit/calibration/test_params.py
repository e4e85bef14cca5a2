"""Scale and zero point from a range, by the documented formulas (OneFlow's observers'
definitions on signed storage), worked by hand, and their properties on random ranges."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.calibration.params import from_range, per_channel


def test_google_symmetric_by_hand() -> None:
    p = from_range(-0.5, 2.0)
    assert p.scale[0] == np.float32(2.0 / 127) and p.zero_point[0] == 0
    assert p.quantize(np.array([2.0, -0.5, 0.0])).tolist() == [127, -32, 0]


def test_google_affine_by_hand() -> None:
    p = from_range(-1.0, 3.0, scheme="affine")
    assert p.scale[0] == np.float32(4.0 / 255)
    assert p.zero_point[0] == -128 + 64  # -128 - round(-1 / (4/255)) = -128 + round(63.75)
    assert p.quantize(np.array([-1.0, 0.0, 3.0])).tolist() == [-128, -64, 127]


def test_cambricon_power_of_two_by_hand() -> None:
    p = from_range(-5.3, 1.0, formula="cambricon")  # floor(log2 5.3) = 2, shift = 2 - 6
    assert p.scale[0] == 2.0**-4 and p.zero_point[0] == 0
    assert p.quantize(np.array([-5.3])).tolist() == [-85]
    p4 = from_range(0.0, 1.0, formula="cambricon", bits=4)  # floor(log2 1) = 0, shift = -2
    assert p4.scale[0] == 0.25 and (p4.qmin, p4.qmax) == (-8, 7)


def test_zero_is_always_representable_and_empty_ranges() -> None:
    p = from_range(2.0, 3.0, scheme="affine")  # widened to [0, 3]
    assert p.dequantize(p.quantize(np.array([0.0])))[0] == 0.0
    assert p.zero_point[0] == -128
    e = from_range(0.0, 0.0)
    assert e.scale[0] == 1.0 and e.zero_point[0] == 0


@pytest.mark.parametrize("scheme, formula", [("symmetric", "google"), ("affine", "google"),
                                             ("symmetric", "cambricon")])  # fmt: skip
@pytest.mark.parametrize("bits", [4, 8, 16])
def test_the_range_fits_within_rounding(scheme: str, formula: str, bits: int) -> None:
    rng = np.random.default_rng(bits)
    for _ in range(50):
        lo, hi = sorted(rng.normal(0, 10, 2) * rng.uniform(0.01, 100))
        p = from_range(lo, hi, bits=bits, scheme=scheme, formula=formula)
        ends = np.array([min(lo, 0.0), max(hi, 0.0)])
        q = p.quantize(ends)
        assert p.qmin <= q.min() and q.max() <= p.qmax
        err = np.abs(p.dequantize(q) - ends)
        # google ranges map onto the storage range up to the float32 scale's rounding;
        # cambricon's t / scale < 2^(b-1) may round to qmax + 1 and saturate: one step
        step = 0.5 if formula == "google" else 1.0
        assert np.all(err <= p.scale[0] * step + 1e-6 * np.abs(ends).max())
        if formula == "cambricon":
            t = max(-ends[0], ends[1])
            assert 2 ** (bits - 2) <= t / p.scale[0] < 2 ** (bits - 1)


def test_per_channel_weights() -> None:
    w = np.array([[0.5, -1.0], [4.0, 2.0], [0.0, 0.0]])
    p = per_channel(w, axis=0, narrow=True)
    assert p.scale.tolist() == [np.float32(1 / 127), np.float32(4 / 127), 1.0]
    assert p.quantize(w).tolist() == [[64, -127], [127, 64], [0, 0]]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"scheme": "asymmetric"}, "unknown quantization scheme"),
        ({"formula": "tf"}, "unknown quantization formula"),
        ({"formula": "cambricon", "scheme": "affine"}, "symmetric only"),
        ({"bits": 1}, "1-bit quantization"),
    ],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_range(-1.0, 1.0, **options)
