"""Sliding-window geometry shared by the StableHLO and TOSA verifiers (convolutions,
pooling, reduce_window): one formula for an output dimension."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DYNAMIC = -1
_INT64_MIN = -(1 << 63)  # MLIR's ShapedType::kDynamic, as xDSL's parser gives `?`
_DYNAMIC_MARKERS = (DYNAMIC, _INT64_MIN)
"""How callers mark a dynamic size: TOSA's shapes use -1, parsed tensor types INT64_MIN."""


def window_output_size(size: int, window: int, stride: int, pad: tuple[int, int],
                       base_dilation: int = 1, window_dilation: int = 1) -> int:  # fmt: skip
    """The number of window positions along one dimension: the input dilated by
    `base_dilation` and padded, a window of `window` taps dilated by `window_dilation`,
    moved by `stride` (0 when the window does not fit; dynamic stays dynamic)."""
    if size < 0:  # dynamic, however the caller marks it (-1, or MLIR's INT64_MIN)
        return size
    dilated = 0 if size == 0 else (size - 1) * base_dilation + 1
    padded = dilated + pad[0] + pad[1]
    dilated_window = 0 if window == 0 else (window - 1) * window_dilation + 1
    if padded < dilated_window:
        return 0
    return (padded - dilated_window) // stride + 1


class WindowError(ValueError):
    """A window attribute breaks a rule; the message is upstream StableHLO's wording."""


@dataclass(frozen=True)
class WindowDim:
    """One window dimension with every attribute filled in (defaults where absent)."""

    size: int
    stride: int = 1
    pad: tuple[int, int] = (0, 0)
    base_dilation: int = 1
    window_dilation: int = 1


def padding_pairs(shape: Sequence[int], values: Sequence[int]) -> list[tuple[int, int]]:
    """A padding attribute's [low, high] pairs; its shape must be {N, 2}."""
    if len(shape) != 2 or shape[1] != 2:
        raise WindowError(
            "expects the shape of padding-attribute to be {N, 2}, but got {"
            + ", ".join(str(d) for d in shape)
            + "}."
        )
    return [(int(values[i]), int(values[i + 1])) for i in range(0, len(values), 2)]


def check_window(
    sizes: Sequence[int],
    strides: Sequence[int] = (),
    padding: Sequence[tuple[int, int]] = (),
    base_dilations: Sequence[int] = (),
    window_dilations: Sequence[int] = (),
    reversal_count: int = 0,
) -> list[WindowDim]:
    """Check the window attributes of a convolution, reduce_window or select_and_scatter
    in upstream's order (an empty list means the attribute is absent) and fill them in."""
    n = len(sizes)
    for count, what in (
        (len(strides), "window-strides"),
        (len(base_dilations), "base-dilation factors"),
        (len(window_dilations), "window-dilation factors"),
        (len(padding), "padding-entries"),
        (reversal_count, "window-reversal"),
    ):
        if count not in (0, n):
            raise WindowError(
                f"expects {what} to have same dimension-size as size of window "
                f"dimensions ({n}), but got: {count}."
            )
    window = []
    for i, size in enumerate(sizes):
        stride = strides[i] if strides else 1
        base = base_dilations[i] if base_dilations else 1
        dilation = window_dilations[i] if window_dilations else 1
        for value, what in (
            (size, "value"),
            (stride, "stride"),
            (base, "base dilation factor"),
            (dilation, "window dilation factor"),
        ):
            if value <= 0 and not (what == "value" and value in _DYNAMIC_MARKERS):
                raise WindowError(
                    f"expects window to have positive {what} for {i}-th window dimension, "
                    f"but got {value}."
                )
        window.append(WindowDim(size, stride, padding[i] if padding else (0, 0), base, dilation))
    return window


def window_output_shape(base: Sequence[int], window: Sequence[WindowDim]) -> list[int]:
    """The output size along each window dimension (dynamic stays dynamic: MLIR's marker,
    as the StableHLO verifiers that call this compare shapes with it)."""
    return [
        _INT64_MIN
        if w.size in _DYNAMIC_MARKERS
        else window_output_size(size, w.size, w.stride, w.pad, w.base_dilation, w.window_dilation)
        for size, w in zip(base, window, strict=True)
    ]
