"""Semantics of batch_norm_inference, batch_norm_training and batch_norm_grad.

Each follows the spec's decomposition into elementwise ops and reductions over every
dimension but `feature_index`, computed in the operands' element type (f32 stays
f32). Quantized operands are dequantized, computed in float and the results
quantized, as the spec's `dequantize_op_quantize` does.
"""

from __future__ import annotations

import numpy as np

from qdialect.dialects import stablehlo_batch_norm as bn
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements


def _along(values: np.ndarray, rank: int, feature: int) -> np.ndarray:
    """A per-feature vector broadcast along `feature` of a rank-`rank` tensor."""
    shape = [1] * rank
    shape[feature] = -1
    return values.reshape(shape)


def _mean(x: np.ndarray, feature: int) -> np.ndarray:
    """The spec's compute_mean: the sum over the other dimensions, divided by their size."""
    axes = tuple(i for i in range(x.ndim) if i != feature)
    count = x.dtype.type(x.size // max(x.shape[feature], 1))
    return (np.sum(x, axis=axes, dtype=x.dtype) / count).astype(x.dtype)


def _normalize(x, scale, offset, mean, variance, epsilon, feature) -> np.ndarray:
    """The spec's batch_norm_inference: (x - mean) / sqrt(variance + epsilon) * scale + offset."""
    eps = x.dtype.type(epsilon)
    c = _along(mean, x.ndim, feature)
    stddev = np.sqrt(_along(variance, x.ndim, feature) + eps)
    return (
        (x - c) / stddev * _along(scale, x.ndim, feature) + _along(offset, x.ndim, feature)
    ).astype(x.dtype)


@implements(bn.BatchNormInferenceOp)
def _batch_norm_inference(
    interp: Interpreter, op: bn.BatchNormInferenceOp, args: Arrays, types: Types
) -> Arrays:
    x, scale, offset, mean, variance = args
    feature = op.feature_index.value.data
    return [_normalize(x, scale, offset, mean, variance, op.epsilon.value.data, feature)]


@implements(bn.BatchNormTrainingOp)
def _batch_norm_training(
    interp: Interpreter, op: bn.BatchNormTrainingOp, args: Arrays, types: Types
) -> Arrays:
    x, scale, offset = args
    feature = op.feature_index.value.data
    mean = _mean(x, feature)
    centered = x - _along(mean, x.ndim, feature)
    variance = _mean(centered * centered, feature)
    out = _normalize(x, scale, offset, mean, variance, op.epsilon.value.data, feature)
    return [out, mean, variance]


@implements(bn.BatchNormGradOp)
def _batch_norm_grad(
    interp: Interpreter, op: bn.BatchNormGradOp, args: Arrays, types: Types
) -> Arrays:
    x, scale, mean, variance, grad_output = args
    feature = op.feature_index.value.data
    dtype = x.dtype
    eps = dtype.type(op.epsilon.value.data)
    axes = tuple(i for i in range(x.ndim) if i != feature)
    count = dtype.type(x.size // max(x.shape[feature], 1))
    var_eps = _along(variance, x.ndim, feature) + eps
    stddev = np.sqrt(var_eps)
    centered = x - _along(mean, x.ndim, feature)
    normalized = centered / stddev
    i1 = grad_output * count
    i2 = _along(np.sum(grad_output, axis=axes, dtype=dtype), x.ndim, feature)
    i3 = _along(np.sum(grad_output * centered, axis=axes, dtype=dtype), x.ndim, feature)
    i5 = i3 * centered / var_eps
    grad_operand = _along(scale, x.ndim, feature) / stddev / count * (i1 - i2 - i5)
    grad_scale = np.sum(grad_output * normalized, axis=axes, dtype=dtype)
    grad_offset = np.sum(grad_output, axis=axes, dtype=dtype)
    return [grad_operand.astype(dtype), grad_scale.astype(dtype), grad_offset.astype(dtype)]
