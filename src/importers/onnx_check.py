"""Validation at the ONNX importer's door: the graph, attributes and quantization
parameters are checked where they enter, so a malformed or hostile model is one
`ONNXImportError` naming the node, tensor or field, never a Python traceback, and the
work an import does stays bounded by the limits below (docs/onnx.md lists them).

The op handlers read attributes through `attributes` (each value of the type ONNX
defines for it), spatial attributes through `spatial` (one value per spatial axis,
within range) and quantization parameters through `quantization` (finite positive
scales, zero points that fit their storage and match the scales in number).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from qdialect.importers.onnx_common import MAX_ELEMENTS, ONNXImportError

if TYPE_CHECKING:
    from onnx import GraphProto, NodeProto

MAX_NODES = 1 << 20  # a graph with more nodes is refused
MAX_WINDOW = 1 << 16  # largest kernel extent, stride, dilation or padding along one axis
MAX_TAPS = 1 << 12  # largest window of an op imported tap by tap (padded AveragePool)
MAX_INT = (1 << 31) - 1  # largest magnitude of an integer attribute

# The attribute kinds ONNX defines for the names the importer reads (onnx.AttributeProto:
# 1 FLOAT, 2 INT, 3 STRING, 4 TENSOR, 6 FLOATS, 7 INTS).
_KINDS = {
    **dict.fromkeys(
        "kernel_shape strides pads dilations perm axes output_padding output_shape split".split(),
        7,
    ),
    **dict.fromkeys(
        "axis group ceil_mode count_include_pad channels_last keepdims transA transB to "
        "noop_with_empty_axes antialias exclude_outside start end opset size "
        "select_last_index".split(),
        2,
    ),
    **dict.fromkeys("alpha beta epsilon bias cubic_coeff_a extrapolation_value".split(), 1),
    **dict.fromkeys(
        "auto_pad mode approximate coordinate_transformation_mode nearest_mode "
        "keep_aspect_ratio_policy".split(),
        3,
    ),
    "scales": 6,
    "value": 4,
}
_KIND_NAMES = {1: "a float", 2: "an integer", 3: "a string", 4: "a tensor", 6: "a list of floats",
               7: "a list of integers"}  # fmt: skip


def node_label(node: NodeProto) -> str:
    """How messages name a node: `node 'conv1' (Conv)`."""
    return f"node '{node.name}' ({node.op_type})"


def attributes(node: NodeProto) -> dict[str, Any]:
    """The node's attributes as Python values, each of the kind ONNX defines for its name
    and integers within +-MAX_INT; anything else is an error naming the attribute."""
    from onnx import helper

    values: dict[str, Any] = {}
    for a in node.attribute:
        kind = _KINDS.get(a.name)
        if kind is not None and a.type != kind:
            raise ONNXImportError(
                f"{node_label(node)}: attribute '{a.name}' must be {_KIND_NAMES[kind]}"
            )
        try:
            value = helper.get_attribute_value(a)
        except Exception as err:  # an unset or unknown attribute type
            raise ONNXImportError(f"{node_label(node)}: attribute '{a.name}': {err}") from None
        ints = [value] if a.type == 2 else list(value) if a.type == 7 else []
        if any(abs(v) > MAX_INT for v in ints):
            raise ONNXImportError(
                f"{node_label(node)}: attribute '{a.name}' holds an integer beyond +-{MAX_INT}"
            )
        if a.type in (1, 6) and not all(math.isfinite(v) for v in np.atleast_1d(value)):
            raise ONNXImportError(f"{node_label(node)}: attribute '{a.name}' is not finite")
        values[a.name] = value
    return values


def spatial(node: NodeProto, attrs: dict[str, Any], name: str, count: int, default: int,
            low: int) -> list[int]:  # fmt: skip
    """Attribute `name` (kernel_shape, strides, dilations, pads...): `count` integers in
    [low, MAX_WINDOW], `default` repeated when absent."""
    values = [int(v) for v in attrs.get(name, [default] * count)]
    if len(values) != count:
        raise ONNXImportError(
            f"{node_label(node)}: attribute '{name}' needs {count} values, got {values}"
        )
    if any(not low <= v <= MAX_WINDOW for v in values):
        raise ONNXImportError(
            f"{node_label(node)}: attribute '{name}' values must lie in [{low}, {MAX_WINDOW}], "
            f"got {values}"
        )
    return values


def axis(node: NodeProto, value: Any, rank: int, what: str = "axis") -> int:
    """`value` as an axis of a rank-`rank` tensor, made non-negative."""
    if not -rank <= int(value) < max(rank, 1):
        raise ONNXImportError(
            f"{node_label(node)}: {what} {int(value)} is out of range for rank {rank}"
        )
    return int(value) % max(rank, 1)


def permutation(node: NodeProto, perm: list[int], rank: int) -> list[int]:
    """A Transpose `perm`: each axis of the rank once."""
    if sorted(int(p) for p in perm) != list(range(rank)):
        raise ONNXImportError(
            f"{node_label(node)}: perm {list(perm)} is not a permutation of {rank} axes"
        )
    return [int(p) for p in perm]


def quantization(node: NodeProto, scale: np.ndarray, zp: np.ndarray) -> None:
    """Scales finite and positive, at least one; zero points as many (or one) and of an
    integer type."""
    if scale.size == 0 or not np.all(np.isfinite(scale)) or not np.all(scale > 0):
        shown = scale.reshape(-1)[:4].tolist()
        raise ONNXImportError(
            f"{node_label(node)}: scales must be finite and positive, got {shown}"
            + ("..." if scale.size > 4 else "")
        )
    if zp.size not in (1, scale.size) or zp.dtype.kind not in "iu":
        raise ONNXImportError(
            f"{node_label(node)}: {zp.size} zero points of type {zp.dtype} for {scale.size} scales"
        )


def _text(value: object, what: str) -> None:
    if not isinstance(value, str):  # protobuf hands out invalid UTF-8 as bytes
        raise ONNXImportError(f"{what} {value!r} is not valid UTF-8 text")


def graph(g: GraphProto) -> None:
    """Names are text, the graph is not too large, it has outputs, and every initializer
    declares a bounded size."""
    if len(g.node) > MAX_NODES:
        raise ONNXImportError(f"the graph has {len(g.node)} nodes, more than {MAX_NODES}")
    for index, n in enumerate(g.node):
        for field in (n.name, n.op_type, n.domain, *n.input, *n.output):
            _text(field, f"node {index}: name")
    for vi in (*g.input, *g.output, *g.initializer):
        _text(vi.name, "tensor name")
    if not g.output:
        raise ONNXImportError("the graph has no outputs")
    for t in g.initializer:
        if any(d < 0 for d in t.dims) or math.prod(t.dims) > MAX_ELEMENTS:
            raise ONNXImportError(
                f"initializer '{t.name}' declares shape {list(t.dims)}: negative or more than "
                f"{MAX_ELEMENTS} elements"
            )


# Inputs the com.microsoft kernels need (onnx.defs has no schema for them).
_MS_MIN_INPUTS = {"QLinearAdd": 7, "QLinearMul": 7, "QLinearGlobalAveragePool": 4, "QGemm": 6,
                  "QLinearSigmoid": 4, "QLinearSoftmax": 4, "QLinearConcat": 5,
                  "QLinearAveragePool": 4, "QLinearLeakyRelu": 4}  # fmt: skip


def arity(node: NodeProto, opset: int) -> None:
    """The node has as many inputs and outputs as its operator's schema allows."""
    from onnx import defs

    if node.domain == "com.microsoft":
        low, high, outputs = _MS_MIN_INPUTS.get(node.op_type, 1), MAX_INT, 1
    else:
        try:
            schema = defs.get_schema(node.op_type, max(opset, 1), node.domain)
        except Exception:  # not in this opset: the operator's latest schema
            try:
                schema = defs.get_schema(node.op_type, node.domain)
            except Exception:  # unknown operators are reported by the supported-ops check
                return
        low, high, outputs = schema.min_input, schema.max_input, schema.min_output
    if not low <= len(node.input) <= high or len(node.output) < max(outputs, 1):
        takes = f"{low}" if low == high else f"{low} to {high}" if high < MAX_INT else f"{low}+"
        raise ONNXImportError(
            f"{node_label(node)} has {len(node.input)} inputs and {len(node.output)} outputs; "
            f"{node.op_type} takes {takes} inputs and at least {max(outputs, 1)} output"
        )


@contextmanager
def guard(node: NodeProto) -> Iterator[None]:
    """Name the node in any error its import raises. Known errors gain the node's name;
    an unexpected Python error (an importer bug the checks above missed) becomes an
    `ONNXImportError` naming the node rather than a traceback."""
    from qdialect.numerics import QuantizationError

    try:
        yield
    except ONNXImportError as err:
        if f"'{node.name}'" in str(err):
            raise
        raise ONNXImportError(f"{node_label(node)}: {err}") from None
    except QuantizationError as err:
        raise ONNXImportError(f"{node_label(node)}: {err}") from None
    except (ValueError, TypeError, IndexError, KeyError, ArithmeticError, AttributeError) as err:
        raise ONNXImportError(
            f"ONNX {node_label(node)}: unexpected {type(err).__name__}: {err}"
        ) from None


def pooled(node: NodeProto, size, kernel, strides, dilations, pads) -> tuple[int, ...]:
    """The output extent of a window op along each spatial axis; a window larger than the
    padded input (no output) is an error."""
    rank = len(size)
    out = tuple(
        (n + pads[i] + pads[i + rank] - (k - 1) * d - 1) // s + 1
        for i, (n, k, s, d) in enumerate(zip(size, kernel, strides, dilations, strict=True))
    )
    if min(out, default=1) < 1:
        raise ONNXImportError(
            f"{node_label(node)}: window {list(kernel)} does not fit the padded input "
            f"{list(size)} (pads {list(pads)})"
        )
    return out


def int32_bias(node: NodeProto, bias: np.ndarray, channels: int | None = None) -> np.ndarray:
    """An integer bias within int32 (as int64), of shape [channels] when given."""
    if bias.dtype.kind not in "iu" or (
        bias.size and (int(bias.min()) < -(1 << 31) or int(bias.max()) > MAX_INT)
    ):
        raise ONNXImportError(f"{node_label(node)}: the bias must hold int32 values")
    if channels is not None and bias.shape != (channels,):
        raise ONNXImportError(
            f"{node_label(node)}: a bias of shape {list(bias.shape)} for {channels} channels"
        )
    return bias.astype(np.int64)


def average_counts(size, kernel, strides, pads, out, include_pad: bool) -> np.ndarray:
    """AveragePool's divisor per output position (float32, [OH, OW]): the kernel size
    with `count_include_pad`, else the taps that fall inside the image."""
    oh, ow = out
    if include_pad:
        return np.full((oh, ow), kernel[0] * kernel[1], np.float32)
    ys = np.arange(oh) * strides[0] - pads[0]
    xs = np.arange(ow) * strides[1] - pads[1]
    rows = np.minimum(ys + kernel[0], size[0]) - np.maximum(ys, 0)
    cols = np.minimum(xs + kernel[1], size[1]) - np.maximum(xs, 0)
    return np.outer(rows, cols).astype(np.float32)
