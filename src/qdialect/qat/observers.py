"""OneFlow's observers, as pure functions on a small state (JAX is functional).

* `MinMaxObserver`: the range of the tensor in front of it now — what weights use, so
  their parameters follow them as they train. Per layer, or per channel along `axis`.
* `MovingAverageMinMaxObserver`: an exponential moving average of each batch's
  extremes, m ← momentum · m + (1 - momentum) · batch extreme, started at the first
  batch's; symmetric schemes average max |x| (and use -m, m), affine ones the minimum and
  the maximum apart; updates stop after `stop_update_after` steps or outside training.
  Per layer, as OneFlow's. OneFlow marks "not yet started" by a stored 0, which restarts
  the average whenever it reaches exactly 0 (a layer whose outputs are all 0 for a
  batch); the state here carries a flag instead.

`range(state)` gives (lo, hi); `Scheme.frozen` and `quantizer.params` turn a range into
parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp

from qdialect.qat.quantizer import Array, Scheme

State = dict[str, jax.Array]


def _reduce_axes(x: Array, axis: int | None) -> tuple[int, ...] | None:
    if axis is None:
        return None
    axis = axis % x.ndim
    return tuple(i for i in range(x.ndim) if i != axis)


@dataclass(frozen=True)
class MinMaxObserver:
    """The extremes of the current tensor (per channel along `axis`)."""

    scheme: Scheme
    axis: int | None = None

    def range(self, x: Array) -> tuple[jax.Array, jax.Array]:
        axes = _reduce_axes(x, self.axis)
        lo, hi = jnp.min(x, axis=axes), jnp.max(x, axis=axes)
        if self.scheme.scheme == "symmetric":
            t = jnp.maximum(jnp.abs(lo), jnp.abs(hi))
            return -t, t
        return lo, hi


@dataclass(frozen=True)
class MovingAverageMinMaxObserver:
    """Moving averages of each batch's extremes (per layer)."""

    scheme: Scheme
    momentum: float = 0.95
    stop_update_after: int = (1 << 31) - 1

    def init(self) -> State:
        zero = jnp.zeros((), jnp.float32)
        return {"lo": zero, "hi": zero, "steps": jnp.zeros((), jnp.int32)}

    def update(self, state: State, x: Array, training: bool = True) -> State:
        if not training:
            return state
        lo, hi = jnp.min(x), jnp.max(x)
        if self.scheme.scheme == "symmetric":
            hi = jnp.maximum(jnp.abs(lo), jnp.abs(hi))
            lo = -hi
        first = state["steps"] == 0
        m = jnp.float32(self.momentum)
        new_lo = jnp.where(first, lo, state["lo"] * m + lo * (1 - m))
        new_hi = jnp.where(first, hi, state["hi"] * m + hi * (1 - m))
        frozen = state["steps"] >= self.stop_update_after
        return {
            "lo": jnp.where(frozen, state["lo"], new_lo),
            "hi": jnp.where(frozen, state["hi"], new_hi),
            "steps": state["steps"] + 1,
        }

    def range(self, state: State) -> tuple[jax.Array, jax.Array]:
        return state["lo"], state["hi"]
