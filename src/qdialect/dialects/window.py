"""Sliding-window geometry shared by the StableHLO and TOSA verifiers (convolutions,
pooling, reduce_window): one formula for an output dimension."""

from __future__ import annotations

DYNAMIC = -1


def window_output_size(size: int, window: int, stride: int, pad: tuple[int, int],
                       base_dilation: int = 1, window_dilation: int = 1) -> int:  # fmt: skip
    """The number of window positions along one dimension: the input dilated by
    `base_dilation` and padded, a window of `window` taps dilated by `window_dilation`,
    moved by `stride` (0 when the window does not fit; dynamic stays dynamic)."""
    if size == DYNAMIC:
        return DYNAMIC
    dilated = 0 if size == 0 else (size - 1) * base_dilation + 1
    padded = dilated + pad[0] + pad[1]
    dilated_window = 0 if window == 0 else (window - 1) * window_dilation + 1
    if padded < dilated_window:
        return 0
    return (padded - dilated_window) // stride + 1
