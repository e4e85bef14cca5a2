"""Quantization parameters from a range: the scale and zero point a calibrated (or a
weight's) range gives under each scheme and formula — the definitions OneFlow's
observers document, on signed storage.

For `bits` b, signed storage [qmin, qmax] = [-2^(b-1), 2^(b-1) - 1]; the range is first
widened to hold 0, so that zero (padding, ReLU's floor) is exactly representable.

* google, symmetric: t = max(|lo|, |hi|), scale = t / (2^(b-1) - 1), zero point 0.
  `narrow` storage [-(2^(b-1) - 1), 2^(b-1) - 1] (the weights' usual choice, which keeps
  -qmin representable) is an option.
* google, affine: scale = (hi - lo) / (2^b - 1), zero point = qmin - round(lo / scale),
  clamped to the storage range (OneFlow's -lo / scale on unsigned storage, moved to
  signed; rounding half to even).
* cambricon (symmetric only): a power-of-two scale 2^shift with
  shift = floor(log2(t)) - (b - 2): t / scale lies in [2^(b-2), 2^(b-1)), so the
  largest values may round to 2^(b-1) and saturate at qmax, by less than one step — the
  formula as OneFlow defines it, kept (a shift one larger would halve the resolution).
* a range of zero width has scale 1 and zero point 0 (nothing to resolve).

Scales are rounded to float32, the precision models store them in (ONNX, TFLite).
Per-channel parameters are the same formulas along an axis (`per_channel`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qdialect import numerics

SCHEMES = ("symmetric", "affine")
FORMULAS = ("google", "cambricon")


@dataclass(frozen=True)
class QuantParams:
    """Scale(s) and zero point(s) of a tensor or of each channel along `axis`."""

    scale: np.ndarray  # float64 values of float32 scales
    zero_point: np.ndarray  # int64
    bits: int
    qmin: int
    qmax: int
    axis: int | None = None

    def quantize(self, x: np.ndarray) -> np.ndarray:
        """StableHLO's uniform_quantize (`numerics.quantize`: x / scale + zero point in
        float32, clamped, rounded half to even), as int64."""
        q = numerics.quantize(x, self.scale, self.zero_point, self.qmin, self.qmax,
                              storage_bits=32, signed=True, axis=self.axis)  # fmt: skip
        return q.astype(np.int64)

    def dequantize(self, q: np.ndarray) -> np.ndarray:
        """StableHLO's uniform_dequantize (`numerics.dequantize`, float32)."""
        return numerics.dequantize(q, self.scale, self.zero_point, axis=self.axis)


def check_scheme(bits: int, scheme: str, formula: str) -> None:
    """A ValueError naming what is wrong with a (bits, scheme, formula) choice."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown quantization scheme '{scheme}' (symmetric or affine)")
    if formula not in FORMULAS:
        raise ValueError(f"unknown quantization formula '{formula}' (google or cambricon)")
    if not 2 <= bits <= 16:
        raise ValueError(f"{bits}-bit quantization is not supported (2 to 16 bits)")
    if formula == "cambricon" and scheme != "symmetric":
        raise ValueError("the cambricon formula is symmetric only (a power-of-two scale)")


def quantize_bias(b: np.ndarray, acc_scale: np.ndarray) -> np.ndarray:
    """A bias as the int32 values (int64 array) of its accumulator's scale s_x * s_w
    (per channel or one): b / scale in float64, rounded half to even, saturated."""
    b = np.asarray(b, np.float64)
    q = np.round(b / np.broadcast_to(np.asarray(acc_scale, np.float64), b.shape))
    return np.clip(q, -(1 << 31), (1 << 31) - 1).astype(np.int64)


def from_range(lo, hi, *, bits: int = 8, scheme: str = "symmetric", formula: str = "google",
               narrow: bool = False, axis: int | None = None) -> QuantParams:  # fmt: skip
    """The parameters of range [lo, hi] (scalars, or arrays for per-channel along `axis`)."""
    check_scheme(bits, scheme, formula)
    lo = np.minimum(np.asarray(lo, np.float64), 0.0)
    hi = np.maximum(np.asarray(hi, np.float64), 0.0)
    if np.any(~np.isfinite(lo)) or np.any(~np.isfinite(hi)):
        raise ValueError("a range bound is not finite")
    qmin, qmax = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if narrow:
        qmin = -qmax
    if scheme == "symmetric":
        t = np.maximum(-lo, hi)
        if formula == "google":
            scale = t / qmax
        else:
            with np.errstate(divide="ignore"):
                shift = np.floor(np.log2(np.where(t > 0, t, 1.0))) - (bits - 2)
            scale = np.exp2(shift)
        zp = np.zeros_like(t, dtype=np.int64)
    else:
        scale = (hi - lo) / ((1 << bits) - 1)
        safe = np.where(scale > 0, scale, 1.0)
        zp = np.clip(qmin - np.round(lo / safe), qmin, qmax).astype(np.int64)
    empty = ~(scale > 0)
    scale = np.where(empty, 1.0, scale).astype(np.float32).astype(np.float64)
    zp = np.where(empty, 0, zp).astype(np.int64)
    return QuantParams(np.atleast_1d(scale), np.atleast_1d(zp), bits, qmin, qmax, axis)


def per_channel(weights: np.ndarray, axis: int, **options) -> QuantParams:
    """Symmetric-or-affine parameters of each slice of `weights` along `axis`, from its
    own extremes (weights need no calibration: their values are known)."""
    moved = np.moveaxis(np.asarray(weights, np.float64), axis, 0).reshape(weights.shape[axis], -1)
    return from_range(moved.min(axis=1), moved.max(axis=1), axis=axis, **options)
