"""Validation at the TFLite importer's door: tensor and buffer indices, operator arities
and option tables, and quantization parameters are checked where they enter, so a
malformed or hostile flatbuffer is one `TFLiteImportError` naming the operator, tensor
or field, never a Python traceback (docs/tflite.md lists the limits).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np


class TFLiteImportError(ValueError):
    """A model this importer cannot read or does not support; the message says which part."""


MAX_ELEMENTS = 1 << 28  # a tensor larger than this is refused (bounded memory)
MAX_WINDOW = 1 << 16  # largest filter extent, stride or dilation along one axis
MAX_OPERATORS = 1 << 20  # a subgraph with more operators is refused

# Inputs each imported operator reads (optional ones, like a bias, not counted).
MIN_INPUTS = {
    "CONV_2D": 2, "DEPTHWISE_CONV_2D": 2, "FULLY_CONNECTED": 2, "ADD": 2, "SUB": 2, "MUL": 2,
    "MAX_POOL_2D": 1, "AVERAGE_POOL_2D": 1, "RELU": 1, "RELU6": 1, "PAD": 2,
    "CONCATENATION": 1, "MEAN": 2, "LOGISTIC": 1, "TANH": 1, "HARD_SWISH": 1, "SOFTMAX": 1,
    "RESHAPE": 1, "EXPAND_DIMS": 1, "SQUEEZE": 1, "TRANSPOSE": 2, "SPLIT": 2, "SPLIT_V": 3,
    "SHAPE": 1, "PACK": 1, "STRIDED_SLICE": 4, "RESIZE_BILINEAR": 2,
    "RESIZE_NEAREST_NEIGHBOR": 2, "QUANTIZE": 1, "DEQUANTIZE": 1,
}  # fmt: skip

# The builtin options table each operator whose options the importer reads must carry.
OPTIONS = {
    "CONV_2D": "Conv2DOptions", "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "FULLY_CONNECTED": "FullyConnectedOptions", "ADD": "AddOptions", "SUB": "SubOptions",
    "MUL": "MulOptions", "MAX_POOL_2D": "Pool2DOptions", "AVERAGE_POOL_2D": "Pool2DOptions",
    "CONCATENATION": "ConcatenationOptions", "SOFTMAX": "SoftmaxOptions",
    "STRIDED_SLICE": "StridedSliceOptions", "RESIZE_BILINEAR": "ResizeBilinearOptions",
    "RESIZE_NEAREST_NEIGHBOR": "ResizeNearestNeighborOptions",
}  # fmt: skip

_WINDOW_FIELDS = ("strideH", "strideW", "dilationHFactor", "dilationWFactor", "filterHeight",
                  "filterWidth")  # fmt: skip


def indices(graph: Any, tensors: int) -> None:
    """Every tensor index the subgraph and its operators name exists (-1 marks an omitted
    optional input), and every operator has an output."""
    operators = graph.operators or []
    if len(operators) > MAX_OPERATORS:
        raise TFLiteImportError(f"{len(operators)} operators, more than {MAX_OPERATORS}")
    for what, values in (("model input", graph.inputs), ("model output", graph.outputs)):
        for i, index in enumerate([] if values is None else values):
            if not 0 <= int(index) < tensors:
                raise TFLiteImportError(f"{what} {i} names tensor {int(index)} of {tensors}")
    if graph.outputs is None or not len(graph.outputs):
        raise TFLiteImportError("the model has no outputs")
    for n, op in enumerate(operators):
        ins = [] if op.inputs is None else [int(i) for i in op.inputs]
        outs = [] if op.outputs is None else [int(i) for i in op.outputs]
        if not outs:
            raise TFLiteImportError(f"operator {n} has no outputs")
        for i in ins + outs:
            if not -1 <= i < tensors or (i == -1 and i in outs):
                raise TFLiteImportError(f"operator {n} names tensor {i} of {tensors}")


def operator(op: Any, kind: str) -> None:
    """Enough inputs for `kind`, the options table it reads, and window fields in range."""
    inputs = [] if op.inputs is None else [int(i) for i in op.inputs]
    needed = MIN_INPUTS.get(kind, 0)
    if len(inputs) < needed or any(i < 0 for i in inputs[:needed]):
        raise TFLiteImportError(f"takes {needed} inputs, got {inputs}")
    options = op.builtinOptions
    expected = OPTIONS.get(kind)
    if expected is not None and getattr(options, "table", None) != expected:
        got = getattr(options, "table", None) or "none"
        raise TFLiteImportError(f"has builtin options {got}, expected {expected}")
    for field in _WINDOW_FIELDS:
        value = getattr(options, field, None)
        if value is not None and not 1 <= int(value) <= MAX_WINDOW:
            raise TFLiteImportError(f"option {field} = {int(value)} is outside [1, {MAX_WINDOW}]")
    padding = getattr(options, "padding", None)
    if padding is not None and int(padding) not in (0, 1):
        raise TFLiteImportError(f"option padding = {int(padding)} is neither SAME nor VALID")


def quantization(index: int, scale: np.ndarray, zp: np.ndarray, axis: int,
                 shape: tuple[int, ...], storage: tuple[int, int] | None) -> None:  # fmt: skip
    """Scales finite and positive, one per tensor or one per slice along `axis`; as many
    zero points, within the `storage` range (int8/uint8) when given."""
    if not np.all(np.isfinite(scale)) or not np.all(scale > 0):
        shown = scale[:4].tolist()
        raise TFLiteImportError(f"tensor {index}: scales must be finite and positive, got {shown}")
    if zp.size != scale.size:
        raise TFLiteImportError(f"tensor {index}: {zp.size} zero points for {scale.size} scales")
    if scale.size > 1 and not (0 <= axis < len(shape) and shape[axis] == scale.size):
        raise TFLiteImportError(
            f"tensor {index}: {scale.size} scales along axis {axis} of shape {list(shape)}"
        )
    if storage is not None and (zp.min() < storage[0] or zp.max() > storage[1]):
        raise TFLiteImportError(
            f"tensor {index}: zero points {zp[:4].tolist()} outside [{storage[0]}, {storage[1]}]"
        )


def shape(index: int, dims: tuple[int, ...]) -> None:
    if any(d < 0 for d in dims):
        raise TFLiteImportError(f"tensor {index} has a dynamic shape {list(dims)}")
    if math.prod(dims) > MAX_ELEMENTS:
        raise TFLiteImportError(
            f"tensor {index} declares {math.prod(dims)} elements, more than {MAX_ELEMENTS}"
        )


@contextmanager
def guard(n: int, kind: str) -> Iterator[None]:
    """Name operator `n` in any error its import raises; an unexpected Python error (an
    importer bug the checks above missed) becomes a `TFLiteImportError` naming it."""
    from qdialect.numerics import QuantizationError

    try:
        yield
    except (TFLiteImportError, QuantizationError) as err:
        raise TFLiteImportError(f"operator {n} ({kind}): {err}") from None
    except (ValueError, TypeError, IndexError, KeyError, ArithmeticError, AttributeError) as err:
        raise TFLiteImportError(
            f"TFLite operator {n} ({kind}): unexpected {type(err).__name__}: {err}"
        ) from None
