"""What calibration records about one tensor, streaming, in bounded memory — and the
ranges the quantization methods read from it.

A `TensorStats` keeps the observed minimum and maximum, their moving averages over
batches, and a signed histogram of fixed size (`BINS` bins over [-R, R], R the power of
two above the first batch's largest magnitude, so every bin edge is exact in binary).
When a batch reaches R, R doubles (as often as needed) and adjacent bins merge in
pairs: the edges of the wider bins are edges of the narrower ones, so re-binning is
exact — the histogram equals one made over the final range at once — and it stays
`BINS` counts whatever the data's size — ONNX Runtime's percentile calibrator keeps
every value and is reported to need over 100 GB on BERT.

The ranges (`TensorStats.range(method, ...)`), each (lo, hi) in float:
* `minmax`: the observed extremes.
* `moving_average`: the extremes' exponential moving average over batches
  (`ema_min = (1 - c) * ema_min + c * batch_min`, TensorFlow's and ONNX Runtime's
  `averaging_constant` c, default 0.01).
* `percentile`: the p-th percentile of |x| (symmetric) or the (100 - p)-th and p-th of
  x (affine), read from the histogram at bin resolution (the bin's upper edge).
* `entropy`: TensorRT's threshold: over |x|'s histogram, the cut t whose clipped
  distribution P, quantized to 128 levels (Q), minimizes KL(P || Q).
* `mse`: the symmetric cut t minimizing the expected squared error of quantizing |x|
  to `bits` bits: clipped values cost (|x| - t)^2, the rest the step's Δ²/12.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

BINS = 4096
"""Signed histogram bins over [-R, R]: 2048 over |x|, TensorRT's entropy resolution."""
METHODS = ("minmax", "moving_average", "percentile", "entropy", "mse")


@dataclass
class TensorStats:
    """Streaming statistics of one tensor over calibration batches."""

    count: int = 0
    lo: float = np.inf
    hi: float = -np.inf
    ema_lo: float = 0.0
    ema_hi: float = 0.0
    batches: int = 0
    radius: float = 0.0  # R: the histogram covers [-R, R]
    hist: np.ndarray = field(default_factory=lambda: np.zeros(BINS, np.int64))
    averaging_constant: float = 0.01

    def observe(self, x: np.ndarray) -> None:
        """Fold one batch's values in: extremes, their moving averages, the histogram."""
        x = np.asarray(x, np.float64).reshape(-1)
        x = x[np.isfinite(x)]
        if x.size == 0:
            return
        b_lo, b_hi = float(x.min()), float(x.max())
        c = self.averaging_constant
        if self.batches == 0:
            self.ema_lo, self.ema_hi = b_lo, b_hi
        else:
            self.ema_lo = (1 - c) * self.ema_lo + c * b_lo
            self.ema_hi = (1 - c) * self.ema_hi + c * b_hi
        self.lo, self.hi = min(self.lo, b_lo), max(self.hi, b_hi)
        self.batches += 1
        self.count += x.size
        reach = max(abs(b_lo), abs(b_hi))
        if self.radius == 0.0:  # a power of two above every value: exact bin edges
            self.radius = 2.0 ** (math.floor(math.log2(reach)) + 1) if reach > 0 else 1.0
        while reach >= self.radius:
            self._double()
        counts, _ = np.histogram(x, bins=BINS, range=(-self.radius, self.radius))
        self.hist += counts

    def _double(self) -> None:
        """R -> 2R: bin pairs merge, and the merged histogram fills the middle half."""
        merged = self.hist.reshape(-1, 2).sum(axis=1)
        wider = np.zeros(BINS, np.int64)
        wider[BINS // 4 : BINS // 4 + BINS // 2] = merged
        self.hist = wider
        self.radius *= 2

    @property
    def bin_width(self) -> float:
        return 2 * self.radius / BINS

    def magnitudes(self) -> np.ndarray:
        """The histogram of |x|: BINS / 2 bins over [0, R]."""
        half = BINS // 2
        return self.hist[half:] + self.hist[:half][::-1]

    # ---- ranges ---------------------------------------------------------------------

    def range(self, method: str, *, symmetric: bool = True, percentile: float = 99.999,
              bits: int = 8) -> tuple[float, float]:  # fmt: skip
        """(lo, hi) of `method` (see the module docstring); symmetric methods give (-t, t)."""
        if self.count == 0:
            raise ValueError("no values were observed")
        if method == "minmax":
            lo, hi = self.lo, self.hi
        elif method == "moving_average":
            lo, hi = self.ema_lo, self.ema_hi
        elif method == "percentile":
            if symmetric:
                t = self._quantile(self.magnitudes(), percentile / 100) * self.bin_width
                return -t, t
            cdf_edges = self._signed_quantiles((100 - percentile) / 100, percentile / 100)
            return cdf_edges
        elif method == "entropy":
            t = self._entropy_threshold()
            return -t, t
        elif method == "mse":
            t = self._mse_threshold(bits)
            return -t, t
        else:
            raise ValueError(f"unknown calibration method '{method}' (one of {', '.join(METHODS)})")
        if symmetric:
            t = max(abs(lo), abs(hi))
            return -t, t
        return lo, hi

    @staticmethod
    def _quantile(hist: np.ndarray, q: float) -> int:
        """The number of bins (from the left) holding fraction q of the counts."""
        cdf = np.cumsum(hist)
        return int(np.searchsorted(cdf, q * cdf[-1], side="left")) + 1

    def _signed_quantiles(self, q_lo: float, q_hi: float) -> tuple[float, float]:
        lo_bin = self._quantile(self.hist, q_lo) - 1  # the bin's lower edge
        hi_bin = self._quantile(self.hist, q_hi)  # the bin's upper edge
        w = self.bin_width
        return -self.radius + lo_bin * w, -self.radius + hi_bin * w

    def _entropy_threshold(self, levels: int = 128) -> float:
        """TensorRT's KL calibration on |x|: for each cut i >= levels bins, P is the
        first i bins with the outliers added to the last, Q is P merged into `levels`
        groups and spread back over each group's nonzero bins; the cut minimizing
        KL(P || Q) gives t = i bin widths."""
        hist = self.magnitudes().astype(np.float64)
        nonzero = np.nonzero(hist)[0]
        last = int(nonzero[-1]) + 1 if nonzero.size else levels
        if last <= levels:
            return last * self.bin_width
        best, best_i = np.inf, last
        tail = np.concatenate([np.cumsum(hist[::-1])[::-1], [0.0]])  # tail[i] = sum hist[i:]
        for i in range(levels, last + 1):
            p = hist[:i].copy()
            p[-1] += tail[i]
            # np.array_split's groups: the first i % levels hold one bin more
            sizes = np.full(levels, i // levels)
            sizes[: i % levels] += 1
            starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
            present = hist[:i] > 0
            sums = np.add.reduceat(hist[:i], starts)
            filled = np.add.reduceat(present.astype(np.float64), starts)
            share = np.divide(sums, filled, out=np.zeros(levels), where=filled > 0)
            q = np.repeat(share, sizes) * present
            kl = _kl(p, q)
            if kl < best:
                best, best_i = kl, i
        return best_i * self.bin_width

    def _mse_threshold(self, bits: int) -> float:
        """The cut t (a bin edge) minimizing the expected squared error of `bits`-bit
        symmetric quantization over |x|'s histogram (bin centres stand for their
        values): clipped values cost (|x| - t)^2, the others Δ²/12 with Δ = t / (2^(b-1) - 1)."""
        hist = self.magnitudes().astype(np.float64)
        w = self.bin_width
        centres = (np.arange(hist.size) + 0.5) * w
        nonzero = np.nonzero(hist)[0]
        if nonzero.size == 0:
            return w
        cuts = np.arange(1, int(nonzero[-1]) + 2)
        steps = cuts * w / (2 ** (bits - 1) - 1)
        inside = np.cumsum(hist)[cuts - 1]
        # sum over clipped bins of count * (centre - t)^2, for every cut at once
        c1 = np.cumsum((hist * centres)[::-1])[::-1]
        c2 = np.cumsum((hist * centres**2)[::-1])[::-1]
        c0 = np.cumsum(hist[::-1])[::-1]
        t = cuts * w
        beyond = np.where(cuts < hist.size, 1, 0)
        idx = np.minimum(cuts, hist.size - 1)
        clipped = beyond * (c2[idx] - 2 * t * c1[idx] + t**2 * c0[idx])
        error = inside * steps**2 / 12 + clipped
        return float(cuts[int(np.argmin(error))] * w)

    # ---- the file ---------------------------------------------------------------------

    def to_json(self) -> dict:
        nz = np.nonzero(self.hist)[0]
        return {
            "count": self.count,
            "batches": self.batches,
            "min": self.lo,
            "max": self.hi,
            "moving_average_min": self.ema_lo,
            "moving_average_max": self.ema_hi,
            "averaging_constant": self.averaging_constant,
            "histogram": {
                "radius": self.radius,
                "bins": BINS,
                "nonzero": nz.tolist(),
                "counts": self.hist[nz].tolist(),
            },
        }

    @classmethod
    def from_json(cls, data: dict) -> TensorStats:
        h = data["histogram"]
        if int(h["bins"]) != BINS:
            raise ValueError(f"histograms of {h['bins']} bins; this version reads {BINS}")
        hist = np.zeros(BINS, np.int64)
        hist[np.asarray(h["nonzero"], np.int64)] = np.asarray(h["counts"], np.int64)
        return cls(
            count=int(data["count"]),
            lo=float(data["min"]),
            hi=float(data["max"]),
            ema_lo=float(data["moving_average_min"]),
            ema_hi=float(data["moving_average_max"]),
            batches=int(data["batches"]),
            radius=float(h["radius"]),
            hist=hist,
            averaging_constant=float(data["averaging_constant"]),
        )


def _kl(p: np.ndarray, q: np.ndarray) -> float:
    """KL(P || Q) of two unnormalized histograms; bins where P is 0 add nothing, and a
    bin where P has mass and Q none makes it infinite."""
    p = p / p.sum()
    q = q / q.sum() if q.sum() > 0 else q
    mask = p > 0
    if np.any(q[mask] == 0):
        return np.inf
    return float(np.sum(p[mask] * np.log(p[mask] / q[mask])))
