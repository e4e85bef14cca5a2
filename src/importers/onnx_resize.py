"""Resize and Upsample of the ONNX importer (a mixin), as ONNX Runtime's CPU kernels
compute them.

Every mode is separable: each resized axis maps output position `o` to an original
coordinate (the coordinate transformation, in float32 as ONNX Runtime computes it), and
the output is a weighted sum of a few input positions along that axis ("taps"):

- nearest: one tap of weight 1, the coordinate rounded by `nearest_mode` — a `gather`,
  exact for 8-bit and float values alike (also between Q/DQ sharing parameters);
- linear: two taps, the coordinate clamped into the input, weights `1 - d` and `d`;
- cubic: four taps around `floor(coordinate)`, Keys' kernel with `cubic_coeff_a`,
  indices clamped at the edges, or (`exclude_outside`) outside taps dropped and the
  rest renormalized.

Linear and cubic are float computations (between Q/DQ, ONNX Runtime keeps them float:
DequantizeLinear, float Resize, QuantizeLinear); ONNX Runtime sums the taps of a 2-D
window in its own order, so results are compared with a tolerance (docs/onnx.md).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from qdialect import numerics
from qdialect.importers.emitter import Value
from qdialect.importers.onnx_common import MAX_ELEMENTS, ONNXImportError

if TYPE_CHECKING:
    from qdialect.importers.onnx_host import ImporterLike
else:
    ImporterLike = object  # only the type checker sees the mixin as an ImporterLike

F32 = np.float32


class Tap(NamedTuple):
    """One term of a resampled axis: output[o] += weight[o] * input[index[o]]."""

    index: np.ndarray
    weight: np.ndarray


class ResizeOps(ImporterLike):
    def _op_Resize(self, node) -> None:
        """Resize (opset 10 and later): scales or sizes, optional `axes`; coordinate
        transformations half_pixel, half_pixel_symmetric, pytorch_half_pixel, asymmetric,
        align_corners and tf_half_pixel_for_nn; nearest, linear and cubic modes."""
        attrs = self._attrs(node)
        legacy = self.opset < 11  # Resize-10: asymmetric coordinates, "simple" rounding
        mode = _text(attrs, "mode", "nearest")
        transform = "asymmetric" if legacy else _text(attrs, "coordinate_transformation_mode",
                                                      "half_pixel")  # fmt: skip
        rounding = "simple" if legacy else _text(attrs, "nearest_mode", "round_prefer_floor")
        if _text(attrs, "keep_aspect_ratio_policy", "stretch") != "stretch":
            raise ONNXImportError(f"node '{node.name}': Resize keep_aspect_ratio_policy")
        if int(attrs.get("antialias", 0)) and mode != "nearest":
            raise ONNXImportError(f"node '{node.name}': antialiased Resize is not supported")
        if transform == "tf_crop_and_resize":
            raise ONNXImportError(f"node '{node.name}': Resize tf_crop_and_resize (a region)")
        rank = len(self._resize_source(node).shape)
        axes = [int(a) for a in attrs.get("axes", range(rank))]
        if len(set(a % rank for a in axes)) != len(axes) or any(
            not -rank <= a < rank for a in axes
        ):
            raise ONNXImportError(f"node '{node.name}': Resize axes {axes} for rank {rank}")
        axes = [a % rank for a in axes]
        scales_at, sizes_at = (1, None) if legacy else (2, 3)
        sizes = None
        if sizes_at is not None and len(node.input) > sizes_at and node.input[sizes_at]:
            sizes = [int(v) for v in self._const_input(node, sizes_at, "sizes").reshape(-1)]
            if len(sizes) != len(axes):
                raise ONNXImportError(f"node '{node.name}': needs {len(axes)} sizes")
        scales = None
        if sizes is None:
            scales = self._const_input(node, scales_at, "scales").astype(F32).reshape(-1)
            if scales.size != len(axes):
                raise ONNXImportError(f"node '{node.name}': needs {len(axes)} scales")
        self._resize(node, mode, transform, rounding, attrs, axes, scales, sizes)

    def _op_Upsample(self, node) -> None:
        """Upsample (opsets 7-9, deprecated): Resize-10 with scales >= 1, from an
        attribute (opset 7) or a constant input."""
        attrs = self._attrs(node)
        if "scales" in attrs:
            scales = np.asarray(attrs["scales"], F32)
        else:
            scales = self._const_input(node, 1, "scales").astype(F32).reshape(-1)
        rank = len(self._resize_source(node).shape)
        if scales.size != rank or np.any(scales < 1):
            raise ONNXImportError(f"node '{node.name}': Upsample needs {rank} scales >= 1")
        mode = _text(attrs, "mode", "nearest")
        self._resize(node, mode, "asymmetric", "simple", attrs, list(range(rank)), scales, None)

    def _resize_source(self, node) -> Value:
        """The resized value (8-bit behind a DequantizeLinear, or already defined)."""
        if node.input[0] in self.dq and node.input[0] not in self.values:
            return self._dequantized(node, 0, "input")[0]
        return self._input(node, 0)

    def _resize(self, node, mode: str, transform: str, rounding: str, attrs: dict,
                axes: list[int], scales: np.ndarray | None,
                sizes: list[int] | None) -> None:  # fmt: skip
        if mode not in ("nearest", "linear", "cubic"):
            raise ONNXImportError(f"node '{node.name}': unknown Resize mode '{mode}'")
        if mode == "nearest":
            x, target = self._passthrough(node)
        else:
            x, target = self._float_operand(node, 0), node.output[0]
        shape = list(x.shape)
        plan: dict[int, tuple[int, np.float32]] = {}
        for k, axis in enumerate(axes):
            if sizes is not None:
                out = sizes[k]
                scale = F32(F32(out) / F32(shape[axis]))
            else:
                assert scales is not None
                scale = F32(scales[k])
                if not math.isfinite(scale) or scale <= 0:
                    raise ONNXImportError(f"node '{node.name}': Resize scales must be positive")
                out = math.floor(shape[axis] * float(scale))
            plan[axis] = (out, scale)
        out_shape = [plan.get(a, (d, F32(1)))[0] for a, d in enumerate(shape)]
        if min(out_shape) < 1 or math.prod(out_shape) > MAX_ELEMENTS:
            raise ONNXImportError(f"node '{node.name}': output sizes {out_shape} out of range")
        a = F32(attrs.get("cubic_coeff_a", -0.75))
        exclude = bool(int(attrs.get("exclude_outside", 0)))

        def origin(axis: int) -> np.ndarray:
            out, scale = plan.get(axis, (shape[axis], F32(1)))
            if out == shape[axis] and scale == 1:  # ONNX Runtime skips the transformation
                return np.arange(out, dtype=F32)
            return _original(node, transform, shape[axis], out, scale)

        y = x
        pair = _bilinear_axes(len(shape), plan) if mode == "linear" else None
        if pair is not None:
            y = self._bilinear(y, _linear(origin(pair[0]), shape[pair[0]]),
                               _linear(origin(pair[1]), shape[pair[1]]), pair)  # fmt: skip
        else:
            for axis in sorted(plan, reverse=True):  # innermost axis first
                out, scale = plan[axis]
                if out == shape[axis] and scale == 1:
                    continue
                if mode == "nearest":
                    index = _nearest(node, origin(axis), shape[axis], rounding, scale < 1)
                    if out != shape[axis] or not np.array_equal(index, np.arange(out)):
                        y = self._taken(y, index, axis)
                elif mode == "linear":
                    y = self._resampled(y, _linear(origin(axis), shape[axis]), axis)
                else:
                    y = self._resampled(y, _cubic(origin(axis), shape[axis], a, exclude), axis)
        self.values[target] = y

    def _taken(self, x: Value, index: np.ndarray, axis: int) -> Value:
        return self.e.take(x, index, axis)

    def _resampled(self, x: Value, taps: list[Tap], axis: int) -> Value:
        """sum of weight * take(x, index, axis) over the taps, in float32, in tap order."""
        total = None
        for tap in taps:
            picked = self.e.take(x, tap.index, axis)
            term = self.e.binary(
                "multiply", self.e.splat(tap.weight, picked.shape, "f32", axis), picked
            )
            total = term if total is None else self.e.binary("add", total, term)
        assert total is not None
        return total

    def _bilinear(self, x: Value, rows: list[Tap], cols: list[Tap], axes: tuple[int, int]) -> Value:
        """ONNX Runtime's bilinear kernel: the four corner terms, each weighted by the
        float32 product of its row and column weights, summed in its order."""
        total = None
        for row in rows:
            picked_rows = self.e.take(x, row.index, axes[0])
            for col in cols:
                picked = self.e.take(picked_rows, col.index, axes[1])
                weight = (row.weight[:, None] * col.weight[None, :]).astype(F32)
                w = self.e.broadcast(self.e.const(weight, "f32"), picked.shape, axes)
                term = self.e.binary("multiply", w, picked)
                total = term if total is None else self.e.binary("add", total, term)
        assert total is not None
        return total


def _bilinear_axes(rank: int, plan: dict[int, tuple[int, np.float32]]) -> tuple[int, int] | None:
    """The two axes ONNX Runtime's bilinear kernel resizes (a 2-D input; a 4-D one with
    unit scales on N and C, or on N and the last axis), or None: other linear resizes
    are computed axis by axis here, within a tolerance of ONNX Runtime's."""

    def unit(axis: int) -> bool:
        return axis not in plan or plan[axis][1] == 1

    if rank == 2:
        return (0, 1)
    if rank == 4 and unit(0) and unit(1):
        return (2, 3)
    if rank == 4 and unit(0) and unit(3):
        return (1, 2)
    return None


def _text(attrs: dict, key: str, default: str) -> str:
    v = attrs.get(key, default)
    return v.decode() if isinstance(v, bytes) else str(v)


def _original(node, transform: str, size: int, out: int, scale: np.float32) -> np.ndarray:
    """The original coordinate of each output position along one axis, in float32 step
    by step as ONNX Runtime computes it."""
    x = np.arange(out, dtype=F32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if transform == "half_pixel":
            o = (x + F32(0.5)) / scale - F32(0.5)
        elif transform == "half_pixel_symmetric":
            adjustment = F32(F32(out) / F32(scale * F32(size)))
            offset = F32(F32(size) / F32(2) * (F32(1) - adjustment))
            # ONNX Runtime's literals are doubles here: the rest runs in float64
            o = float(offset) + (x.astype(np.float64) + 0.5) / float(scale) - 0.5
        elif transform == "pytorch_half_pixel":
            o = (x + F32(0.5)) / scale - F32(0.5) if out > 1 else np.zeros_like(x)
        elif transform == "asymmetric":
            o = x / scale
        elif transform == "align_corners":
            o = (x * F32(size - 1)) / F32(out - 1) if out > 1 else np.zeros_like(x)
        elif transform == "tf_half_pixel_for_nn":
            o = (x + F32(0.5)) / scale
        else:
            raise ONNXImportError(
                f"node '{node.name}': coordinate transformation '{transform}' is not supported"
            )
    return o.astype(F32)


def _nearest(node, origin: np.ndarray, size: int, rounding: str, down: bool) -> np.ndarray:
    """ONNX Runtime's nearest source index: the coordinate rounded by `rounding`, clamped
    ("simple", Resize-10's and Upsample's: truncate, or ceil when downsampling)."""
    if rounding == "round_prefer_floor":
        halfway = origin == np.trunc(origin) + F32(0.5)
        index = np.where(halfway, np.floor(origin), numerics.round_half_away_from_zero(origin))
    elif rounding == "round_prefer_ceil":
        index = numerics.round_half_away_from_zero(origin)
    elif rounding == "floor":
        index = np.floor(origin)
    elif rounding == "ceil":
        index = np.ceil(origin)
    elif rounding == "simple":
        index = np.ceil(origin) if down else np.trunc(origin)
    else:
        raise ONNXImportError(f"node '{node.name}': unknown nearest_mode '{rounding}'")
    return np.clip(np.nan_to_num(index), 0, size - 1).astype(np.int64)


def _linear(origin: np.ndarray, size: int) -> list[Tap]:
    """Two taps: the coordinate clamped into [0, size-1], its floor and the next index
    (clamped), weighted by their distances to it (1/2 each where both are the edge)."""
    v = np.clip(origin, F32(0), F32(size - 1)).astype(F32)
    low = np.minimum(v.astype(np.int64), size - 1)
    high = np.minimum(low + 1, size - 1)
    to_high = np.abs(v - low.astype(F32)).astype(F32)
    to_low = np.abs(v - high.astype(F32)).astype(F32)
    edge = low == high
    to_high[edge] = to_low[edge] = F32(0.5)
    return [Tap(low, to_low), Tap(high, to_high)]


def _cubic(origin: np.ndarray, size: int, a: np.float32, exclude: bool) -> list[Tap]:
    """Four taps at floor(coordinate) - 1 .. + 2 with Keys' cubic kernel of parameter
    `a` in float32; out-of-range indices read the edge, or with `exclude` get weight 0
    and the remaining weights are divided by their sum."""
    base = np.floor(origin)
    s = (origin - base).astype(F32)
    one, two = s + F32(1), F32(1) - s
    three = F32(2) - s
    weights = [
        ((a * one - F32(5) * a) * one + F32(8) * a) * one - F32(4) * a,
        ((a + F32(2)) * s - (a + F32(3))) * s * s + F32(1),
        ((a + F32(2)) * two - (a + F32(3))) * two * two + F32(1),
        ((a * three - F32(5) * a) * three + F32(8) * a) * three - F32(4) * a,
    ]
    weights = [w.astype(F32) for w in weights]
    index = [base.astype(np.int64) - 1 + k for k in range(4)]
    if exclude:
        inside = [(i >= 0) & (i < size) for i in index]
        weights = [np.where(m, w, F32(0)).astype(F32) for w, m in zip(weights, inside, strict=True)]
        total = (weights[0] + weights[1] + weights[2] + weights[3]).astype(F32)
        weights = [(w / total).astype(F32) for w in weights]
    return [Tap(np.clip(i, 0, size - 1), w) for i, w in zip(index, weights, strict=True)]
