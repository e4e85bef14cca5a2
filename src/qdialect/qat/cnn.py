"""A small quantizable CNN in JAX: layers, float and quantization-aware forward passes,
training, post-training calibration and the freeze step.

Layers are NHWC convolutions ("SAME" padding, HWIO weights), dense layers (a rank-4
input is flattened first), ReLU/ReLU6 after either, and max pooling. With a `QatConfig`
the forward pass quantizes as the integer program will: the network's input and every
layer's (activated) output by moving-average observers, each weight by a min/max
observer of its current values (per output channel or per tensor); max pooling and
flattening keep their input's parameters (max commutes with a monotone quantizer).
Biases and accumulators stay float while training; `freeze` makes them int32 at
s_x · s_w, as the integer program holds them.

`freeze` fixes every parameter from the observers' state (`Scheme.frozen`, i.e.
`calibration.params.from_range`) and turns weights into integers (OneFlow's "freeze" of
its QParam): a `Frozen` network, which `qat.export` writes as StableHLO.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

from qdialect import numerics
from qdialect.calibration.params import QuantParams, quantize_bias
from qdialect.qat.observers import MinMaxObserver, MovingAverageMinMaxObserver, State
from qdialect.qat.quantizer import Scheme, fake_quant, params

ACTIVATIONS = (None, "relu", "relu6")
I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


@dataclass(frozen=True)
class Conv:
    name: str
    kernel: int
    cin: int
    cout: int
    stride: int = 1
    activation: str | None = "relu"


@dataclass(frozen=True)
class Dense:
    name: str
    cin: int
    cout: int
    activation: str | None = None


@dataclass(frozen=True)
class MaxPool:
    window: int = 2


Layer = Conv | Dense | MaxPool

DIGITS_CNN: tuple[Layer, ...] = (
    Conv("conv1", 3, 1, 8, activation="relu"),
    Conv("conv2", 3, 8, 16, activation="relu6"),
    MaxPool(2),
    Dense("fc", 4 * 4 * 16, 10, activation=None),
)
"""The network of the digits example: 8x8x1 images to 10 logits."""


@dataclass(frozen=True)
class QatConfig:
    """How weights and activations are quantized (activations always per tensor)."""

    weights: Scheme = field(default_factory=lambda: Scheme(8, per_channel=True))
    activations: Scheme = field(default_factory=Scheme)
    momentum: float = 0.95

    def __post_init__(self) -> None:
        if self.activations.per_channel:
            raise ValueError("activations are quantized per tensor (the integer ops read them so)")


def _weighted(layers: Sequence[Layer]) -> list[Conv | Dense]:
    return [layer for layer in layers if not isinstance(layer, MaxPool)]


def init_params(layers: Sequence[Layer], seed: int = 0) -> dict[str, dict[str, jax.Array]]:
    """He-normal weights, zero biases."""
    key = jax.random.PRNGKey(seed)
    out = {}
    for layer in _weighted(layers):
        key, sub = jax.random.split(key)
        if isinstance(layer, Conv):
            shape = (layer.kernel, layer.kernel, layer.cin, layer.cout)
            fan_in = layer.kernel * layer.kernel * layer.cin
        else:
            shape, fan_in = (layer.cin, layer.cout), layer.cin
        w = jax.random.normal(sub, shape, jnp.float32) * np.float32(np.sqrt(2.0 / fan_in))
        out[layer.name] = {"w": w, "b": jnp.zeros((layer.cout,), jnp.float32)}
    return out


def _activate(y: jax.Array, activation: str | None) -> jax.Array:
    if activation == "relu":
        return jnp.maximum(y, 0.0)
    if activation == "relu6":
        return jnp.clip(y, 0.0, 6.0)
    return y


def _conv(x: jax.Array, w: jax.Array, stride: int) -> jax.Array:
    return jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))  # fmt: skip


def _pool(x: jax.Array, window: int) -> jax.Array:
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, window, window, 1),
                                 (1, window, window, 1), "VALID")  # fmt: skip


def observed_tensors(layers: Sequence[Layer]) -> list[str]:
    """The activation quantization points: the input and each weighted layer's output."""
    return ["input"] + [layer.name for layer in _weighted(layers)]


def init_state(layers: Sequence[Layer], config: QatConfig) -> dict[str, State]:
    obs = MovingAverageMinMaxObserver(config.activations, config.momentum)
    return {name: obs.init() for name in observed_tensors(layers)}


def _weight_axis(layer: Conv | Dense) -> int:
    return 3 if isinstance(layer, Conv) else 1


def forward(layers: Sequence[Layer], p: dict, x: jax.Array, config: QatConfig | None = None,
            state: dict[str, State] | None = None, training: bool = False
            ) -> tuple[jax.Array, dict[str, State] | None]:  # fmt: skip
    """Logits of NHWC `x`: float when `config` is None, else with fake quantization (the
    observers updated from this batch when `training`, and returned)."""
    new_state = dict(state) if state is not None else None
    act = config.activations if config is not None else None

    def observe(name: str, v: jax.Array) -> jax.Array:
        if config is None or act is None or new_state is None:
            return v
        obs = MovingAverageMinMaxObserver(act, config.momentum)
        new_state[name] = obs.update(new_state[name], jax.lax.stop_gradient(v), training)
        scale, zp = params(*obs.range(new_state[name]), act)
        return fake_quant(v, scale, zp, act.qmin, act.qmax)

    def weights(layer: Conv | Dense) -> jax.Array:
        w = p[layer.name]["w"]
        if config is None:
            return w
        scheme = config.weights
        axis = _weight_axis(layer) if scheme.per_channel else None
        lo, hi = MinMaxObserver(scheme, axis).range(jax.lax.stop_gradient(w))
        scale, zp = params(lo, hi, scheme)
        return fake_quant(w, scale, zp, scheme.qmin, scheme.qmax, axis)

    x = observe("input", x)
    for layer in layers:
        if isinstance(layer, MaxPool):
            x = _pool(x, layer.window)
            continue
        if isinstance(layer, Dense) and x.ndim != 2:
            x = x.reshape(x.shape[0], -1)
        w = weights(layer)
        y = _conv(x, w, layer.stride) if isinstance(layer, Conv) else x @ w
        y = _activate(y + p[layer.name]["b"], layer.activation)
        x = observe(layer.name, y)
    return x, new_state


def _loss(layers, p, x, y, config, state):
    logits, new_state = forward(layers, p, x, config, state, training=True)
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1)), new_state


def batches(n: int, size: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    order = rng.permutation(n)
    for i in range(0, n, size):
        yield order[i : i + size]


def train(layers: Sequence[Layer], p: dict, x: np.ndarray, y: np.ndarray, *,
          config: QatConfig | None = None, state: dict[str, State] | None = None,
          epochs: int = 10, lr: float = 1e-2, batch: int = 32, seed: int = 0
          ) -> tuple[dict, dict[str, State] | None]:  # fmt: skip
    """Adam on the cross-entropy of `forward` (quantization-aware when `config`): the
    trained parameters and, with `config`, the observers' state."""
    if config is not None and state is None:
        state = init_state(layers, config)
    b1, b2, eps = 0.9, 0.999, 1e-8
    m = jax.tree_util.tree_map(jnp.zeros_like, p)
    v = jax.tree_util.tree_map(jnp.zeros_like, p)

    @jax.jit
    def step(p, m, v, t, state, xb, yb):
        (_, new_state), g = jax.value_and_grad(_loss, argnums=1, has_aux=True)(
            layers, p, xb, yb, config, state
        )
        m = jax.tree_util.tree_map(lambda a, b: b1 * a + (1 - b1) * b, m, g)
        v = jax.tree_util.tree_map(lambda a, b: b2 * a + (1 - b2) * b * b, v, g)
        corr = jnp.sqrt(1 - b2**t) / (1 - b1**t)
        p = jax.tree_util.tree_map(lambda w, a, b: w - lr * corr * a / (jnp.sqrt(b) + eps), p, m, v)
        return p, m, v, new_state

    rng = np.random.default_rng(seed)
    t = 0
    xj, yj = jnp.asarray(x, jnp.float32), jnp.asarray(y, jnp.int32)
    for _ in range(epochs):
        for idx in batches(len(x), batch, rng):
            t += 1
            p, m, v, state = step(p, m, v, jnp.float32(t), state, xj[idx], yj[idx])
    return p, state


def calibrate(layers: Sequence[Layer], p: dict, config: QatConfig, x: np.ndarray,
              batch: int = 32) -> dict[str, State]:  # fmt: skip
    """Post-training quantization's ranges: the observers run over `x` in batches with
    the weights as they are (no training)."""
    state = init_state(layers, config)
    run = jax.jit(lambda s, xb: forward(layers, p, xb, config, s, training=True)[1])
    for i in range(0, len(x), batch):
        state = run(state, jnp.asarray(x[i : i + batch], jnp.float32))
    return state


# ---- freeze -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FrozenLayer:
    """A weighted layer as integers: weights, int32 bias at s_x · s_w, parameters."""

    spec: Conv | Dense
    weights: np.ndarray  # int64 values in the weight scheme's storage range
    weight_params: QuantParams
    bias: np.ndarray  # int64 values of int32
    accumulator: QuantParams  # int32, scale s_x · s_w (per channel when the weights are)
    output: QuantParams  # the activation's type, its storage range cut by ReLU/ReLU6


@dataclass(frozen=True)
class Frozen:
    layers: tuple[Layer, ...]
    config: QatConfig
    input: QuantParams
    weighted: dict[str, FrozenLayer]


def _activation_bounds(out: QuantParams, activation: str | None) -> QuantParams:
    """`out` with its storage range cut to what ReLU/ReLU6 lets through: quantizing the
    activation's output equals clamping the quantized input to these bounds (the
    quantizer is monotone), so the activation folds into the type, as TFLite fuses it."""
    lo, hi = out.qmin, out.qmax
    if activation in ("relu", "relu6"):
        lo = max(lo, int(out.zero_point[0]))
    if activation == "relu6":
        six = numerics.quantize(np.float32(6.0), out.scale, out.zero_point, lo, hi,
                                storage_bits=32, signed=True)  # fmt: skip
        hi = min(hi, int(np.asarray(six).reshape(-1)[0]))
    return QuantParams(out.scale, out.zero_point, out.bits, lo, hi, out.axis)


def freeze(layers: Sequence[Layer], p: dict, config: QatConfig, state: dict[str, State]) -> Frozen:
    """Fix every scale and zero point and make the weights integers."""
    act = config.activations

    def activation(name: str) -> QuantParams:
        lo, hi = MovingAverageMinMaxObserver(act).range(state[name])
        return act.frozen(np.float64(lo), np.float64(hi))

    x_params = activation("input")
    current = x_params
    weighted: dict[str, FrozenLayer] = {}
    for layer in _weighted(layers):
        w = np.asarray(p[layer.name]["w"], np.float32)
        axis = _weight_axis(layer)
        w_params = config.weights.of_weights(w, axis)
        if w_params.axis is not None:
            w_params = QuantParams(w_params.scale, w_params.zero_point, w_params.bits,
                                   w_params.qmin, w_params.qmax, axis)  # fmt: skip
        w_q = w_params.quantize(w)
        acc_scale = current.scale[0] * w_params.scale  # exact in float64
        out_axis = 3 if isinstance(layer, Conv) else 1
        acc = QuantParams(acc_scale, np.zeros(len(acc_scale), np.int64), 32, I32_MIN, I32_MAX,
                          out_axis if len(acc_scale) > 1 else None)  # fmt: skip
        b_q = quantize_bias(np.asarray(p[layer.name]["b"], np.float64), acc_scale)
        out = _activation_bounds(activation(layer.name), layer.activation)
        weighted[layer.name] = FrozenLayer(layer, w_q, w_params, b_q, acc, out)
        current = out
    return Frozen(tuple(layers), config, x_params, weighted)
