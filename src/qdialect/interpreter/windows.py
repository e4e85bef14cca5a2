"""Windowed computations, vectorized: padding, convolution as batched matmuls, pooling windows.

Convolution gathers every window into a patch matrix (sliding_window_view,
then one copy) and multiplies it with the kernel, one matmul per feature or
batch group, all groups in one batched call — so depthwise convolutions do not
loop over channels in Python.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from qdialect.dialects.hlo_syntax import dense_values


def pad_array(
    x: np.ndarray,
    value: np.ndarray | float | int,
    low: Sequence[int],
    high: Sequence[int],
    interior: Sequence[int],
) -> np.ndarray:
    """StableHLO `pad`: interior padding, then edge padding (negative edges crop)."""
    inner = [d + max(d - 1, 0) * it for d, it in zip(x.shape, interior, strict=True)]
    if any(interior):
        spaced = np.full(inner, value, dtype=x.dtype)
        spaced[tuple(slice(None, None, it + 1) for it in interior)] = x
    else:
        spaced = x
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high, strict=True)]
    if any(g != (0, 0) for g in grow):
        spaced = np.pad(
            spaced, grow, mode="constant", constant_values=np.asarray(value, dtype=x.dtype)
        )
    crop = tuple(
        slice(max(-lo, 0), spaced.shape[d] - max(-hi, 0))
        for d, (lo, hi) in enumerate(zip(low, high, strict=True))
    )
    return spaced[crop]


def _pairs(attr, n: int) -> list[tuple[int, int]]:
    if attr is None:
        return [(0, 0)] * n
    flat = [int(v) for v in attr.get_values()]
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


def windows(
    x: np.ndarray,
    window: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    axes: Sequence[int],
) -> np.ndarray:
    """View of all windows over `axes`: x.shape with `axes` replaced by output positions, window dims appended.

    Returns None-sized output (a zero-length axis) when a window does not fit.
    """
    span = [(w - 1) * d + 1 for w, d in zip(window, dilations, strict=True)]
    if any(x.shape[a] < s for a, s in zip(axes, span, strict=True)):
        shape = list(x.shape)
        for a in axes:
            shape[a] = 0
        return np.zeros((*shape, *window), dtype=x.dtype)
    view = sliding_window_view(x, span, axis=tuple(axes))
    index = [slice(None)] * x.ndim + [slice(None)] * len(axes)
    for a, s in zip(axes, strides, strict=True):
        index[a] = slice(None, None, s)
    for k, d in enumerate(dilations):
        index[x.ndim + k] = slice(None, None, d)
    return view[tuple(index)]


def convolution(
    op, lhs: np.ndarray, rhs: np.ndarray, matmul: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """StableHLO `convolution` for any layout, padding, dilation, reversal and grouping."""
    dn = op.dimension_numbers.data
    n = len(dn.input_spatial_dimensions)
    strides = dense_values(op.window_strides) or (1,) * n
    lhs_dil = dense_values(op.lhs_dilation) or (1,) * n
    rhs_dil = dense_values(op.rhs_dilation) or (1,) * n
    reversal = dense_values(op.window_reversal) or (0,) * n
    pads = _pairs(op.padding, n)
    fgc = op.feature_group_count.value.data
    bgc = op.batch_group_count.value.data

    x = np.transpose(
        lhs, [dn.input_batch_dimension, *dn.input_spatial_dimensions, dn.input_feature_dimension]
    )
    k = np.transpose(
        rhs,
        [
            *dn.kernel_spatial_dimensions,
            dn.kernel_input_feature_dimension,
            dn.kernel_output_feature_dimension,
        ],
    )
    flip = tuple(i for i, r in enumerate(reversal) if r)
    if flip:
        k = np.flip(k, axis=flip)
    zero = np.zeros((), dtype=x.dtype)
    x = pad_array(
        x,
        zero,
        [0, *(lo for lo, _ in pads), 0],
        [0, *(hi for _, hi in pads), 0],
        [0, *(d - 1 for d in lhs_dil), 0],
    )

    batch, channels = x.shape[0], x.shape[-1]
    kernel_spatial = k.shape[:n]
    out_features = k.shape[-1]
    patches = windows(x, kernel_spatial, strides, rhs_dil, list(range(1, n + 1)))
    # patches: [N, out..., C, kernel...] -> [N, out..., kernel..., C]
    patches = np.moveaxis(patches, n + 1, -1)
    out_spatial = patches.shape[1 : n + 1]
    positions = int(np.prod(out_spatial))
    window = int(np.prod(kernel_spatial))

    groups = max(fgc, bgc)
    og = out_features // groups
    if bgc > 1:  # batch groups: group g convolves batch chunk g with output-feature chunk g
        nb = batch // bgc
        p = patches.reshape(bgc, nb * positions, window * channels)
        w = k.reshape(window * channels, bgc, og).transpose(1, 0, 2)
        out = matmul(p, w).reshape(bgc, nb, positions, og).transpose(1, 2, 0, 3)
        batch = nb
    elif channels == fgc > 1:  # depthwise: one multiply-add per tap beats C tiny matmuls
        p = patches.reshape(batch * positions, window, fgc)
        out = _tapwise(p, k.reshape(window, fgc, og)).reshape(batch, positions, fgc, og)
    else:  # feature groups (1 = ordinary convolution)
        cg = channels // fgc
        p = (
            patches.reshape(batch * positions, window, fgc, cg)
            .transpose(2, 0, 1, 3)
            .reshape(fgc, batch * positions, window * cg)
        )
        w = k.reshape(window, cg, fgc, og).transpose(2, 0, 1, 3).reshape(fgc, window * cg, og)
        out = matmul(p, w).reshape(fgc, batch, positions, og).transpose(1, 2, 0, 3)
    out = out.reshape(batch, *out_spatial, out_features)
    canonical = [
        dn.output_batch_dimension,
        *dn.output_spatial_dimensions,
        dn.output_feature_dimension,
    ]
    return np.transpose(out, np.argsort(canonical))


def magnitude(x: np.ndarray) -> int:
    """The largest |element| of an integer array (0 when empty): with the summed count it
    bounds every partial sum, which decides when float arithmetic is exact."""
    return max(abs(int(x.min(initial=0))), abs(int(x.max(initial=0))))


def _tapwise(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """sum_t p[:, t, c] * w[t, c, j] -> [positions, C, J], exact for integers: in float64
    when every partial sum stays below 2^53 (as `exact_matmul` decides), else int64."""
    if p.dtype.kind == "f" or w.dtype.kind == "f":  # half floats add in float32, as matmul
        dtype = np.result_type(p.dtype, w.dtype, np.float32)
    else:
        bound = magnitude(p) * magnitude(w) * w.shape[0]
        dtype = np.float64 if bound < 2**53 else np.int64
    pc, wc = p.astype(dtype, copy=False), w.astype(dtype, copy=False)
    acc = pc[:, 0, :, None] * wc[0][None]
    for t in range(1, w.shape[0]):
        acc += pc[:, t, :, None] * wc[t][None]
    return acc.astype(np.int64) if p.dtype.kind in "iub" and dtype == np.float64 else acc


def reduce_windows(
    op, inputs: Sequence[np.ndarray], inits: Sequence[np.ndarray]
) -> list[np.ndarray]:
    """For reduce_window: every window of every input, flattened into a trailing axis."""
    rank = inputs[0].ndim
    window = dense_values(op.window_dimensions)
    strides = dense_values(op.window_strides) or (1,) * rank
    base = dense_values(op.base_dilations) or (1,) * rank
    wdil = dense_values(op.window_dilations) or (1,) * rank
    pads = _pairs(op.padding, rank)
    result = []
    for x, init in zip(inputs, inits, strict=True):
        padded = pad_array(
            x, init, [lo for lo, _ in pads], [hi for _, hi in pads], [b - 1 for b in base]
        )
        view = windows(padded, window, strides, wdil, list(range(rank)))
        result.append(view.reshape(*view.shape[:rank], -1))
    return result
