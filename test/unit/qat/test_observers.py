"""The observers against OneFlow's definitions written out as plain loops."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax", reason="QAT needs the qat extra (jax)")

from qdialect.qat.observers import MinMaxObserver, MovingAverageMinMaxObserver
from qdialect.qat.quantizer import Scheme


def batches(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.normal(rng.uniform(-1, 1), rng.uniform(0.5, 3), (4, 5)).astype(np.float32)
            for _ in range(12)]  # fmt: skip


def test_min_max_per_tensor_and_per_channel() -> None:
    x = batches()[0]
    lo, hi = MinMaxObserver(Scheme(scheme="affine")).range(x)
    assert (float(lo), float(hi)) == (float(x.min()), float(x.max()))
    lo, hi = MinMaxObserver(Scheme(), axis=1).range(x)
    t = np.abs(x).max(axis=0)
    assert np.array_equal(np.asarray(hi), t) and np.array_equal(np.asarray(lo), -t)


@pytest.mark.parametrize("scheme", ["symmetric", "affine"])
def test_moving_average_is_oneflows_recurrence(scheme: str) -> None:
    momentum = 0.9
    obs = MovingAverageMinMaxObserver(Scheme(scheme=scheme), momentum=momentum)
    state = obs.init()
    m_lo = m_hi = None
    for b in batches():
        state = obs.update(state, b)
        if scheme == "symmetric":
            lo_b, hi_b = -np.abs(b).max(), np.abs(b).max()
        else:
            lo_b, hi_b = b.min(), b.max()
        if m_lo is None:
            m_lo, m_hi = np.float32(lo_b), np.float32(hi_b)
        else:
            m = np.float32(momentum)
            m_lo = m_lo * m + lo_b * (np.float32(1) - m)
            m_hi = m_hi * m + hi_b * (np.float32(1) - m)
        lo, hi = obs.range(state)
        assert np.isclose(float(lo), m_lo, rtol=1e-6) and np.isclose(float(hi), m_hi, rtol=1e-6)


def test_updates_stop_after_the_given_steps_and_outside_training() -> None:
    obs = MovingAverageMinMaxObserver(Scheme(), stop_update_after=2)
    state = obs.init()
    data = batches(1)
    for b in data[:2]:
        state = obs.update(state, b)
    frozen = obs.range(state)
    for b in data[2:]:
        state = obs.update(state, b)
    assert [float(v) for v in obs.range(state)] == [float(v) for v in frozen]
    before = obs.range(state)
    state = obs.update(state, 100 * data[0], training=False)
    assert [float(v) for v in obs.range(state)] == [float(v) for v in before]


def test_a_batch_of_zeros_does_not_restart_the_average() -> None:
    """OneFlow's 0-as-unset would restart the average after an all-zero batch; the
    flag keeps averaging."""
    obs = MovingAverageMinMaxObserver(Scheme(scheme="affine"), momentum=0.5)
    state = obs.update(obs.init(), np.zeros((3,), np.float32))
    state = obs.update(state, np.array([2.0], np.float32))
    assert float(obs.range(state)[1]) == 1.0  # 0.5 * 0 + 0.5 * 2
