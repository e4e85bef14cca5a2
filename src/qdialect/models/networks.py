"""Small quantized StableHLO networks with seeded random weights.

The shapes of real models' building blocks, for end-to-end checks and
benchmarks of the whole toolchain (StableHLO -> TOSA -> NPU -> simulator):

* `resnet_block`: ResNet's basic block, conv3x3-ReLU, conv3x3, residual add, ReLU;
* `mobilenet_v2_block`: the inverted residual, 1x1 expand-ReLU6, 3x3 depthwise-ReLU6,
  1x1 project, residual add;
* `mlp`: fully connected layers with ReLU;
* `lut_net`: conv3x3, tanh (a table), global-pool-free classifier on the flattened map.

Weights are int8 per-channel (symmetric, TFLite's scheme), activations int8
per-tensor with zero points; output scales are set from the expected spread
of each accumulator so activations use most of the int8 range rather than
saturating or collapsing to a few values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

NETWORKS = ("resnet_block", "mobilenet_v2_block", "mlp", "lut_net")


def _f32(x: float) -> str:
    return repr(float(np.float32(x)))


@dataclass
class Act:
    name: str
    shape: tuple[int, ...]
    scale: float
    zp: int

    @property
    def qtype(self) -> str:
        return f"!quant.uniform<i8:f32, {_f32(self.scale)}:{self.zp}>"

    @property
    def type(self) -> str:
        return f"tensor<{'x'.join(map(str, self.shape))}x{self.qtype}>"


def _output_scale(fan_in: int, x_scale: float, w_scales: np.ndarray) -> float:
    """A scale that puts one standard deviation of the accumulator (about 74 x 73 x
    sqrt(fan_in) for uniform int8 data and weights) at 50 output steps."""
    return 74 * 73 * math.sqrt(fan_in) * x_scale * float(np.mean(w_scales)) / 50


@dataclass
class Builder:
    """Appends quantized StableHLO ops to a function body, one helper per layer kind."""

    rng: np.random.Generator
    lines: list[str] = field(default_factory=list)
    count: int = 0

    def _name(self, stem: str) -> str:
        self.count += 1
        return f"%{stem}{self.count}"

    def _zp(self) -> int:
        return int(self.rng.integers(-20, 21))

    def _const(self, values: np.ndarray, qtype: str) -> str:
        name = self._name("c")
        shape = "x".join(map(str, values.shape))
        t = f"tensor<{shape}x" if shape else "tensor<"
        self.lines.append(
            f"  {name} = stablehlo.constant() <{{value = dense<{values.tolist()}> : {t}i8>}}> : () -> {t}{qtype}>"
        )
        return name

    def conv(self, x: Act, cout: int, k: int, stride: int = 1, pad: int | None = None,
             depthwise: bool = False) -> Act:  # fmt: skip
        """NHWC convolution with HWIO per-output-channel weights, requantized in the op."""
        n, h, w, c = x.shape
        pad = k // 2 if pad is None else pad
        cin = 1 if depthwise else c
        weight = self.rng.integers(-127, 128, (k, k, cin, cout)).astype(np.int8)
        w_scales = self.rng.uniform(0.5, 1.5, cout) * 0.01
        body = ",".join(_f32(s) for s in w_scales)
        wq = f"!quant.uniform<i8<-127:127>:f32:3, {{{body}}}>"
        oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
        fan_in = k * k * cin
        out = Act(self._name("x"), (n, oh, ow, cout), 0.0, self._zp())
        out.scale = _output_scale(fan_in, x.scale, w_scales)
        wname = self._const(weight, wq)
        self.lines.append(
            f"  {out.name} = stablehlo.convolution({x.name}, {wname}) "
            "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
            f"window = {{stride = [{stride}, {stride}], pad = [[{pad}, {pad}], [{pad}, {pad}]]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = {c if depthwise else 1} : i64}} : "
            f"({x.type}, tensor<{k}x{k}x{cin}x{cout}x{wq}>) -> {out.type}"
        )
        return out

    def dense(self, x: Act, n_out: int) -> Act:
        m, k = x.shape
        weight = self.rng.integers(-127, 128, (k, n_out)).astype(np.int8)
        w_scales = self.rng.uniform(0.5, 1.5, n_out) * 0.01
        body = ",".join(_f32(s) for s in w_scales)
        wq = f"!quant.uniform<i8<-127:127>:f32:1, {{{body}}}>"
        out = Act(self._name("x"), (m, n_out), 0.0, self._zp())
        out.scale = _output_scale(k, x.scale, w_scales)
        wname = self._const(weight, wq)
        self.lines.append(
            f"  {out.name} = stablehlo.dot_general {x.name}, {wname}, contracting_dims = [1] x [0] : "
            f"({x.type}, tensor<{k}x{n_out}x{wq}>) -> {out.type}"
        )
        return out

    def clamp(self, x: Act, upper: float | None) -> Act:
        """ReLU (upper None) or ReLU6 as a clamp at the zero point (and at 6)."""
        lo = self._const(np.array(x.zp, np.int8), x.qtype)
        top = 127 if upper is None else min(127, x.zp + round(upper / x.scale))
        hi = self._const(np.array(top, np.int8), x.qtype)
        out = Act(self._name("x"), x.shape, x.scale, x.zp)
        self.lines.append(
            f"  {out.name} = stablehlo.clamp {lo}, {x.name}, {hi} : "
            f"(tensor<{x.qtype}>, {x.type}, tensor<{x.qtype}>) -> {out.type}"
        )
        return out

    def add(self, a: Act, b: Act) -> Act:
        out = Act(self._name("x"), a.shape, (a.scale + b.scale) * 0.8, self._zp())
        self.lines.append(
            f"  {out.name} = stablehlo.add {a.name}, {b.name} : ({a.type}, {b.type}) -> {out.type}"
        )
        return out

    def tanh(self, x: Act) -> Act:
        out = Act(self._name("x"), x.shape, 1 / 128, 0)
        self.lines.append(f"  {out.name} = stablehlo.tanh {x.name} : ({x.type}) -> {out.type}")
        return out

    def reshape(self, x: Act, shape: tuple[int, ...]) -> Act:
        out = Act(self._name("x"), shape, x.scale, x.zp)
        self.lines.append(f"  {out.name} = stablehlo.reshape {x.name} : ({x.type}) -> {out.type}")
        return out


@dataclass
class Network:
    name: str
    source: str  # a quantized StableHLO module
    inputs: list[np.ndarray]


def _function(b: Builder, x: Act, out: Act) -> str:
    return (
        f"func.func @main({x.name}: {x.type}) -> {out.type} {{\n"
        + "\n".join(b.lines)
        + f"\n  func.return {out.name} : {out.type}\n}}\n"
    )


def build(name: str, size: str = "small", seed: int = 0) -> Network:
    """Network `name` (one of NETWORKS); `size` "small" for tests, "bench" for benchmarks."""
    if name not in NETWORKS:
        raise ValueError(f"unknown network '{name}' (known: {', '.join(NETWORKS)})")
    rng = np.random.default_rng(seed)
    b = Builder(rng)
    small = size == "small"
    if name == "resnet_block":
        hw, c = (8, 8) if small else (16, 64)
        x = Act("%input", (1, hw, hw, c), 0.05, 3)
        y = b.clamp(b.conv(x, c, 3), None)
        y = b.conv(y, c, 3)
        out = b.clamp(b.add(y, x), None)
    elif name == "mobilenet_v2_block":
        hw, c, t = (8, 8, 3) if small else (16, 32, 6)
        x = Act("%input", (1, hw, hw, c), 0.05, -2)
        y = b.clamp(b.conv(x, c * t, 1, pad=0), 6.0)
        y = b.clamp(b.conv(y, c * t, 3, depthwise=True), 6.0)
        y = b.conv(y, c, 1, pad=0)
        out = b.add(y, x)
    elif name == "mlp":
        m, sizes = (4, [48, 40, 10]) if small else (16, [512, 256, 256, 10])
        x = Act("%input", (m, sizes[0]), 0.05, 5)
        out = x
        for i, n_out in enumerate(sizes[1:]):
            out = b.dense(out, n_out)
            if i < len(sizes) - 2:
                out = b.clamp(out, None)
    else:  # lut_net
        hw, c, cout = (6, 3, 8) if small else (16, 16, 32)
        x = Act("%input", (1, hw, hw, c), 0.005, 0)  # tanh's input stays around [-2, 2]
        y = b.tanh(b.conv(x, cout, 3))
        flat = b.reshape(y, (1, hw * hw * cout))
        out = b.dense(flat, 10)
    data = rng.integers(-128, 128, x.shape).astype(np.int8)
    return Network(name, _function(b, x, out), [data])


def conv_layer(hw: int, c: int, cout: int, k: int, stride: int = 1, seed: int = 0) -> Network:
    """One convolution with ReLU on a hw x hw x c input (same padding)."""
    rng = np.random.default_rng(seed)
    b = Builder(rng)
    x = Act("%input", (1, hw, hw, c), 0.05, 3)
    out = b.clamp(b.conv(x, cout, k, stride), None)
    data = rng.integers(-128, 128, x.shape).astype(np.int8)
    return Network(f"conv{k}x{k} {hw}x{hw}x{c}->{cout} s{stride}", _function(b, x, out), [data])
