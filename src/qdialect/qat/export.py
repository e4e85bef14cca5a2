"""A frozen network as StableHLO text, through `jax.export`, with its quantization points
as `stablehlo.composite` ops that name what they are:

* `qdialect.fake_quant` (float → float): quantize to the type its attributes give, then
  dequantize — on activations;
* `qdialect.dequantize` (integers → float): storage values read as that type — on the
  integer weights and biases, so no value is quantized twice.

Attributes: `scale` (float64 tensor, one per channel or one: an accumulator's scale
s_x · s_w is exact only in float64), `zero_point` (int64 tensor), `storage_min`, `storage_max`, `storage_bits`, `axis` (-1 per tensor). Each
composite's decomposition computes the same numbers in plain StableHLO, so the exported
program runs anywhere as it is (our interpreter included); `stablehlo-legalize-fake-quant`
turns the composites into `uniform_quantize`/`uniform_dequantize` with `!quant.uniform`
types. The layout of each layer follows the QDQ form `stablehlo-quantize` writes:

    fq(x) -> conv(., dq(w)) -> fq(i32 at s_x*s_w) -> add(., dq(bcast(b_i32)))
          -> fq(i32 at s_x*s_w) -> fq(output type, storage range cut by ReLU/ReLU6)

JAX hands a composite the constants its decomposition reads as extra leading operands;
the quantized tensor is the last operand.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import export as jax_export
from xdsl.dialects.builtin import ModuleOp

from qdialect.calibration.params import QuantParams
from qdialect.qat.cnn import Conv, Dense, Frozen, MaxPool, _conv, _pool
from qdialect.qat.quantizer import along

FAKE_QUANT = "qdialect.fake_quant"
DEQUANTIZE = "qdialect.dequantize"


def container(bits: int) -> int:
    """The storage width holding `bits`-bit values (an i4 weight is stored in i8)."""
    return 8 if bits <= 8 else 16 if bits <= 16 else 32


def _attributes(p: QuantParams, storage_bits: int | None = None) -> dict:
    return {
        "scale": np.asarray(p.scale, np.float64),
        "zero_point": np.asarray(p.zero_point, np.int64),
        "storage_min": int(p.qmin),
        "storage_max": int(p.qmax),
        "storage_bits": container(p.bits) if storage_bits is None else storage_bits,
        "axis": -1 if p.axis is None else int(p.axis),
    }


def _axis(axis: int) -> int | None:
    return None if axis < 0 else axis


def _fake_quant_decomposition(
    x, *, scale, zero_point, storage_min, storage_max, storage_bits, axis
):
    s, z = along(scale, x.ndim, _axis(axis)), along(zero_point, x.ndim, _axis(axis))
    q = jnp.round(jnp.clip(x / s + z, storage_min, storage_max))
    return (q - z) * s


def _dequantize_decomposition(
    q, *, scale, zero_point, storage_min, storage_max, storage_bits, axis
):
    s, z = along(scale, q.ndim, _axis(axis)), along(zero_point, q.ndim, _axis(axis))
    return (q.astype(jnp.float32) - z) * s


def fake_quant(x: jax.Array, p: QuantParams) -> jax.Array:
    return jax.lax.composite(_fake_quant_decomposition, name=FAKE_QUANT)(x, **_attributes(p))


def dequantize(q: jax.Array, p: QuantParams, storage_bits: int | None = None) -> jax.Array:
    attributes = _attributes(p, storage_bits)
    return jax.lax.composite(_dequantize_decomposition, name=DEQUANTIZE)(q, **attributes)


def _storage(values: np.ndarray, bits: int) -> np.ndarray:
    return np.asarray(values, {8: np.int8, 16: np.int16, 32: np.int32}[bits])


def integer_function(frozen: Frozen):
    """The frozen network as a JAX function of NHWC float images (its logits, float):
    every quantization point a composite."""

    def run(x: jax.Array) -> jax.Array:
        x = fake_quant(x, frozen.input)
        current = frozen.input
        for layer in frozen.layers:
            if isinstance(layer, MaxPool):
                x = fake_quant(_pool(x, layer.window), current)
                continue
            f = frozen.weighted[layer.name]
            if isinstance(layer, Dense) and x.ndim != 2:
                x = fake_quant(x.reshape(x.shape[0], -1), current)
            # StableHLO's quantized convolution and dot take one storage type for both
            # operands: 4-bit weights are stored in i8 beside 8-bit activations.
            storage = max(container(current.bits), container(f.weight_params.bits))
            w = jnp.asarray(_storage(f.weights, storage))
            w = dequantize(w, f.weight_params, storage)
            acc = _conv(x, w, layer.stride) if isinstance(layer, Conv) else x @ w
            acc = fake_quant(acc, f.accumulator)
            bias = jnp.broadcast_to(jnp.asarray(_storage(f.bias, 32)), acc.shape)
            acc_axis = acc.ndim - 1 if f.accumulator.axis is not None else None
            bias_params = QuantParams(f.accumulator.scale, f.accumulator.zero_point, 32,
                                      f.accumulator.qmin, f.accumulator.qmax, acc_axis)  # fmt: skip
            total = fake_quant(acc + dequantize(bias, bias_params), f.accumulator)
            x = fake_quant(total, f.output)
            current = f.output
        return x

    return run


def to_stablehlo(frozen: Frozen, batch: int = 1, height: int = 8, width: int = 8,
                 channels: int = 1) -> str:  # fmt: skip
    """StableHLO text of the frozen network for a batch of NHWC float images."""
    spec = jax.ShapeDtypeStruct((batch, height, width, channels), jnp.float32)
    exported = jax_export.export(jax.jit(integer_function(frozen)))(spec)
    return exported.mlir_module()


def to_qdq_module(frozen: Frozen, batch: int = 1) -> ModuleOp:
    """The exported network parsed and legalized (`stablehlo-legalize-fake-quant`): the
    QDQ program the integer toolchain compiles (`calibration.workflow.integer`)."""
    from qdialect.context import make_context
    from qdialect.ir.parser import QParser
    from qdialect.transforms.legalize_fake_quant import LegalizeFakeQuant

    ctx = make_context()
    module = QParser(ctx, to_stablehlo(frozen, batch)).parse_module()
    LegalizeFakeQuant().apply(ctx, module)
    return module


def accuracy(frozen: Frozen, x: np.ndarray, labels: np.ndarray) -> float:
    """Top-1 accuracy of the integer program (quantized StableHLO, on the interpreter)
    on NHWC images `x`: what the toolchain computes, not JAX's simulation of it."""
    from qdialect.calibration.workflow import integer
    from qdialect.interpreter import Interpreter

    program = integer(to_qdq_module(frozen, batch=len(x)), target="stablehlo")
    logits = Interpreter(program).call("main", [np.asarray(x, np.float32)])[0]
    return float(np.mean(np.argmax(logits, axis=-1) == labels))
