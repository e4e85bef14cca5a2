"""Calibration statistics against references computed from the raw data: the streamed,
re-binned histogram equals NumPy's over the final range, and each method's range is
what its definition gives on the raw values (within the histogram's bin width)."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.calibration.observers import BINS, METHODS, TensorStats


def streamed(batches: list[np.ndarray]) -> TensorStats:
    stats = TensorStats()
    for b in batches:
        stats.observe(b)
    return stats


def growing_batches(seed: int = 0) -> list[np.ndarray]:
    """Batches whose range grows 40-fold (the histogram doubles its range several times)."""
    rng = np.random.default_rng(seed)
    return [rng.normal(0, s, 3000) + rng.uniform(-0.2, 0.2) for s in (0.05, 0.3, 1.0, 2.0)]


def test_rebinned_histogram_equals_numpy_over_the_final_range() -> None:
    batches = growing_batches()
    stats = streamed(batches)
    data = np.concatenate(batches)
    assert stats.radius > np.abs(data).max() and stats.radius < 2 * np.abs(data).max() * 2
    edges = np.linspace(-stats.radius, stats.radius, BINS + 1)
    want, _ = np.histogram(data, bins=edges)
    assert np.array_equal(stats.hist, want)
    assert stats.count == data.size == stats.hist.sum()


def test_extremes_and_their_moving_average() -> None:
    batches = growing_batches(1)
    stats = streamed(batches)
    data = np.concatenate(batches)
    assert (stats.lo, stats.hi) == (data.min(), data.max())
    ema_lo, ema_hi = batches[0].min(), batches[0].max()
    for b in batches[1:]:  # TensorFlow's / ONNX Runtime's moving average of the extremes
        ema_lo = 0.99 * ema_lo + 0.01 * b.min()
        ema_hi = 0.99 * ema_hi + 0.01 * b.max()
    assert stats.range("moving_average", symmetric=False) == pytest.approx((ema_lo, ema_hi))
    assert stats.range("minmax", symmetric=False) == (data.min(), data.max())
    t = max(-data.min(), data.max())
    assert stats.range("minmax") == (-t, t)


@pytest.mark.parametrize("p", [99.0, 99.9, 99.99])
def test_percentile_is_the_first_bin_edge_covering_the_fraction(p: float) -> None:
    """At bin resolution: at least p% of the raw |x| lie below the range's end, fewer
    than p% below one bin width less (the order statistics, not NumPy's interpolation
    between two sparse tail samples)."""
    batches = growing_batches(2)
    stats = streamed(batches)
    data = np.concatenate(batches)
    w, q = stats.bin_width, p / 100
    lo, hi = stats.range("percentile", percentile=p)
    assert lo == -hi
    assert np.mean(np.abs(data) < hi) >= q > np.mean(np.abs(data) < hi - w)
    a_lo, a_hi = stats.range("percentile", percentile=p, symmetric=False)
    assert np.mean(data < a_hi) >= q > np.mean(data < a_hi - w)
    assert np.mean(data < a_lo) <= 1 - q < np.mean(data < a_lo + w)


def quantization_mse(x: np.ndarray, t: float, bits: int = 8) -> float:
    """The squared error of quantizing x symmetrically to `bits` bits with range t."""
    q = 2 ** (bits - 1) - 1
    step = t / q
    y = np.clip(np.round(x / step), -q, q) * step
    return float(np.mean((x - y) ** 2))


def test_mse_range_is_near_the_brute_force_optimum_on_the_raw_data() -> None:
    rng = np.random.default_rng(3)
    data = np.concatenate([rng.laplace(0, 0.5, 20000), rng.normal(0, 8, 20)])  # outliers
    stats = streamed([data[:10000], data[10000:]])
    _, t = stats.range("mse")
    grid = np.linspace(0.05, np.abs(data).max(), 2000)
    best = min(quantization_mse(data, g) for g in grid)
    assert quantization_mse(data, t) <= 1.05 * best
    assert quantization_mse(data, t) <= quantization_mse(data, np.abs(data).max())


def kl_threshold_by_the_definition(stats: TensorStats, levels: int = 128) -> float:
    """TensorRT's entropy calibration written out plainly, bin group by bin group."""
    hist = stats.magnitudes().astype(np.float64)
    last = int(np.nonzero(hist)[0][-1]) + 1
    best, best_i = np.inf, last
    for i in range(levels, last + 1):
        p = hist[:i].copy()
        p[-1] += hist[i:].sum()
        q = np.zeros(i)
        for group in np.array_split(np.arange(i), levels):
            nonzero = group[hist[group] > 0]
            if nonzero.size:
                q[nonzero] = hist[group].sum() / nonzero.size
        pn, qn = p / p.sum(), q / q.sum()
        mask = pn > 0
        kl = np.inf if np.any(qn[mask] == 0) else np.sum(pn[mask] * np.log(pn[mask] / qn[mask]))
        if kl < best:
            best, best_i = kl, i
    return best_i * stats.bin_width


def test_entropy_threshold_follows_tensorrts_definition() -> None:
    rng = np.random.default_rng(4)
    data = np.concatenate([rng.normal(0, 1, 50000), rng.normal(0, 1, 30) * 12])
    stats = streamed([data])
    _, t = stats.range("entropy")
    assert t == pytest.approx(kl_threshold_by_the_definition(stats), abs=1e-12)
    assert t < 0.6 * np.abs(data).max()  # the long tail is cut


def test_json_round_trip_keeps_every_range() -> None:
    stats = streamed(growing_batches(5))
    again = TensorStats.from_json(stats.to_json())
    for method in METHODS:
        assert again.range(method) == stats.range(method)
    assert np.array_equal(again.hist, stats.hist)


def test_no_data_and_unknown_methods_are_errors() -> None:
    with pytest.raises(ValueError, match="no values"):
        TensorStats().range("minmax")
    with pytest.raises(ValueError, match="unknown calibration method 'kl'"):
        streamed([np.ones(4)]).range("kl")
