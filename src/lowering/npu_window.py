"""Window layers of `tosa-to-npu`: convolution, depthwise convolution, pooling.

Input pixels sit one per buffer row, channel tile by channel tile, split by
stride phase (`[tile][row phase][column phase][row][column]`), so an output
row band is a single run of rows. Depthwise layers and pools cover many output
rows with one instruction (`m` = rows x pitch, computing `pitch - OW` throwaway
columns between rows that are never stored; a read never reaches past the last
row's own pixels, so it only reads loaded rows). A convolution with padding or
throwaway columns issues a matmul per output row instead, cut where the taps
inside the image change, so it computes neither (`skips_padding`). A layer's
input may instead already sit in the output buffer (`OnChip`), left there by
the layer before.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from qdialect import numerics
from qdialect.lowering.npu_graph import MacLayer, PoolLayer, Stage, Window
from qdialect.lowering.npu_stream import (
    MAX_M,
    RECORD_BYTES,
    Cut,
    SlotArea,
    SlotUse,
    SlotWaits,
    Stream,
    ceil_div,
    dma_load,
    dma_store,
    epilogue,
    pad_rows,
    param_bytes,
    slot_count,
)
from qdialect.npu.encoding import EncodingError, Instruction
from qdialect.npu.machine import Machine

if TYPE_CHECKING:  # the plan is built from these cuts, and emission reads it
    from qdialect.lowering.npu_plan import LayerPlan, Residency


@dataclass(frozen=True)
class _Geometry:
    """Where padded input pixel (row, column) of channel tile `t` lives in a tile's region."""

    g: Window
    pitch: int  # columns per row within a column phase
    tiles: int  # channel tiles per region

    def phase_rows(self, band: int) -> int:
        """Rows per (row phase) of a region for `band` output rows."""
        span = (band - 1) * self.g.stride[0] + (self.g.kh - 1) * self.g.dilation[0] + 1
        return ceil_div(span, self.g.stride[0])

    def region(self, band: int) -> int:
        sh, sw = self.g.stride
        return self.tiles * sh * sw * self.phase_rows(band) * self.pitch

    def row(self, band: int, tile: int, lr: int, col_phase: int) -> int:
        sh, sw = self.g.stride
        return (
            ((tile * sh + lr % sh) * sw + col_phase) * self.phase_rows(band) + lr // sh
        ) * self.pitch


def window_of(layer: MacLayer | PoolLayer) -> Window:
    """The window of a window layer (a fully connected MacLayer has none)."""
    if layer.window is None:
        raise AssertionError("a fully connected layer has no window")
    return layer.window


def _count_map(g: Window) -> tuple[np.ndarray, np.ndarray]:
    """In-bounds taps per output row and per output column (average pooling's divisor)."""

    def counts(n_out, stride, pad, k, size):
        return np.array(
            [sum(0 <= o * stride - pad + i < size for i in range(k)) for o in range(n_out)]
        )

    return counts(g.oh, g.stride[0], g.pad[0], g.kh, g.h), counts(
        g.ow, g.stride[1], g.pad[2], g.kw, g.w
    )


@dataclass(frozen=True)
class PixelSets:
    """The record set each output pixel is requantized with, where not all use set 0:
    average pooling divides by its pixel's count of in-bounds taps, and a convolution
    that skips the taps on padding adds back what they would have summed
    (`_border_stages`)."""

    table: np.ndarray  # [oh, ow] record-set index
    rounding: str


def tap_validity(g: Window) -> tuple[np.ndarray, np.ndarray]:
    """Which kernel rows read an image row, per output row ([oh, kh] booleans), and which
    kernel columns read an image column, per output column ([ow, kw])."""

    def valid(n_out: int, stride: int, pad: int, k: int, dilation: int, size: int):
        pos = np.arange(n_out)[:, None] * stride - pad + np.arange(k)[None, :] * dilation
        return (pos >= 0) & (pos < size)

    return (
        valid(g.oh, g.stride[0], g.pad[0], g.kh, g.dilation[0], g.h),
        valid(g.ow, g.stride[1], g.pad[2], g.kw, g.dilation[1], g.w),
    )


def skips_padding(layer: MacLayer | PoolLayer, mc: Machine) -> bool:
    """A padded convolution computes no taps on padding: they are the input zero point,
    whose products the folded bias takes back, so each border pixel gets a record set
    whose bias leaves them out instead (one rescale stage, and the sets fit half the
    params buffer), or none is needed (zero point 0). Depthwise layers and pools keep
    their padding taps."""
    if (
        not isinstance(layer, MacLayer)
        or layer.depthwise
        or layer.window is None
        or not any(layer.window.pad)
    ):
        return False
    if layer.zp_x == 0:
        return True
    rows, columns = tap_validity(layer.window)
    classes = len({tuple(r) for r in rows}) * len({tuple(c) for c in columns})
    return len(layer.requant.stages) == 1 and classes * mc.mac_cols <= mc.buffer("params").rows // 2


def _border_stages(layer: MacLayer) -> tuple[list[Stage], PixelSets | None]:
    """Set 0 for pixels whose taps are all in bounds, then one per border class (the
    kernel rows and columns it misses) with zp_x x the missing taps' weights added back."""
    stage = layer.requant.stages[0]
    if layer.zp_x == 0:
        return list(layer.requant.stages), None
    g = window_of(layer)
    rows, columns = tap_validity(g)
    per_tap = np.asarray(layer.weight, np.int64).sum(axis=2)  # [kh, kw, n]
    row_keys, row_class = np.unique(rows, axis=0, return_inverse=True)
    col_keys, col_class = np.unique(columns, axis=0, return_inverse=True)
    stages = [stage]
    set_of = np.zeros((len(row_keys), len(col_keys)), np.int64)
    for r, rk in enumerate(row_keys):
        for c, ck in enumerate(col_keys):
            missing = ~(rk[:, None] & ck[None, :])
            if not missing.any():
                continue  # set 0
            set_of[r, c] = len(stages)
            back = layer.zp_x * per_tap[missing].sum(axis=0)
            stages.append(Stage(stage.bias + back, stage.multiplier, stage.shift, stage.rounding))
    table = set_of[
        np.asarray(row_class).reshape(-1)[:, None], np.asarray(col_class).reshape(-1)[None, :]
    ]
    return stages, PixelSets(table, stage.rounding)


def window_stages(layer: MacLayer | PoolLayer, mc: Machine) -> tuple[list[Stage], PixelSets | None]:
    """The record sets of a window layer, and which output pixel uses which (None: all
    use the requantization's stages in order)."""
    if isinstance(layer, MacLayer):
        if skips_padding(layer, mc):
            return _border_stages(layer)
        return list(layer.requant.stages), None
    if layer.kind != "avg":
        return list(layer.requant.stages), None
    rows, cols = _count_map(layer.window)
    counts = sorted({int(r * c) for r in rows for c in cols})
    n = layer.window.c
    stages = []
    for count in counts:
        m, s = numerics.reciprocal_scale(count)
        stages.append(
            Stage(np.full(n, -layer.zp_in * count), np.full(n, m), np.full(n, s), "single")
        )
    set_of = {c: i for i, c in enumerate(counts)}
    table = np.array([[set_of[int(r * c)] for c in cols] for r in rows], np.int64)
    return stages, PixelSets(table, "single")


def block_tiles(layer: MacLayer | PoolLayer, j: int, cols: int) -> list[int]:
    """The input channel tiles output block j reads."""
    g = window_of(layer)
    if isinstance(layer, PoolLayer):
        return [j]
    if not layer.depthwise:
        return list(range(ceil_div(g.c, cols)))
    first, last = j * cols, min(layer.channels, (j + 1) * cols) - 1
    return list(range(first // layer.depthwise // cols, last // layer.depthwise // cols + 1))


def per_lane(layer: MacLayer | PoolLayer) -> bool:
    """A depthwise convolution of multiplier 1: output channel c reads input channel c, so
    the array runs it as pixels x channels (`dwmac`), a weight row per tap, not a
    diagonal cols x cols block per tap (1/cols of the array)."""
    return isinstance(layer, MacLayer) and layer.depthwise == 1


def weight_rows_per_tap(layer: MacLayer | PoolLayer, cols: int) -> int:
    """Weight buffer rows one tap of one input tile takes: a block, a row, or none (pools)."""
    return 0 if isinstance(layer, PoolLayer) else 1 if per_lane(layer) else cols


def conv_weight_bytes(layer: MacLayer, cols: int, group: int) -> bytes:
    """Per output block j, group of `group` input tiles, kernel row, kernel column (in
    `tap_order`) and input tile: a cols x cols block (row = input channel of the tile, column = output
    channel of the block). Depthwise blocks are zero except where output o reads input o // M.
    Per lane (`per_lane`): per block j, kernel row and kernel column, one row of the
    block's channels' weights."""
    kh, kw = layer.weight.shape[:2]
    if per_lane(layer):
        nb = ceil_div(layer.channels, cols)
        rows = np.zeros((nb * cols, kh, kw), np.int8)
        rows[: layer.channels] = layer.weight.transpose(2, 0, 1)
        rows = rows[:, :, tap_order(window_of(layer))]
        # nb, kh, kw, cols
        return np.ascontiguousarray(rows.reshape(nb, cols, kh, kw).transpose(0, 2, 3, 1)).tobytes()
    n = layer.channels
    nb = ceil_div(n, cols)
    tiles = [block_tiles(layer, j, cols) for j in range(nb)]
    groups = ceil_div(max(len(t) for t in tiles), group)
    blocks = np.zeros((nb, groups * group, kh, kw, cols, cols), np.int8)
    if not layer.depthwise:
        c = layer.weight.shape[2]
        padded = np.zeros((kh, kw, groups * group * cols, nb * cols), np.int8)
        padded[:, :, :c, :n] = layer.weight
        blocks = padded.reshape(kh, kw, groups * group, cols, nb, cols).transpose(4, 2, 0, 1, 3, 5)
    else:
        for o in range(n):
            j, lane = divmod(o, cols)
            c = o // layer.depthwise
            blocks[j, tiles[j].index(c // cols), :, :, c % cols, lane] = layer.weight[:, :, o]
    blocks = blocks[:, :, :, tap_order(window_of(layer))]  # taps grouped by column phase
    # nb, groups, kh, kw, group, cols(in), cols(out): a tap's input tiles are consecutive
    # blocks, so one matmul sums them (k_step: the rows between two tiles' regions)
    blocks = blocks.reshape(nb, groups, group, kh, kw, cols, cols).transpose(0, 1, 3, 4, 2, 5, 6)
    return np.ascontiguousarray(blocks).tobytes()


def tap_order(g: Window) -> list[int]:
    """Kernel columns in weight order: grouped by the column phase they read, so the taps
    of one phase are consecutive weight blocks and one matmul can sum them."""
    return sorted(range(g.kw), key=lambda i: ((i * g.dilation[1]) % g.stride[1], i))


def tap_runs(g: Window) -> list[tuple[int, int, int, int]]:
    """(column phase, first column offset in the phase, taps, offset step) per matmul:
    runs of taps consecutive in `tap_order` whose offsets step evenly."""
    sw, dw = g.stride[1], g.dilation[1]
    runs: list[list[int]] = []
    for i in tap_order(g):
        run = runs[-1] if runs else None
        if run and (i * dw) % sw == (run[0] * dw) % sw:
            offsets = [t * dw // sw for t in [*run, i]]
            steps = {b - a for a, b in itertools.pairwise(offsets)}
            if len(steps) == 1 and len(run) < 255:
                run.append(i)
                continue
        runs.append([i])
    out = []
    for run in runs:
        offsets = [t * dw // sw for t in run]
        step = offsets[1] - offsets[0] if len(run) > 1 else 1
        out.append(((run[0] * dw) % sw, offsets[0], len(run), step))
    return out


@dataclass(frozen=True)
class WindowPlan:
    """How a window layer is cut: input tiles per group, output rows per input tile."""

    geo: _Geometry
    group: int  # input channel tiles per group (a block's tiles split when too many)
    tile_rows: int  # output rows whose input one input slot holds
    in_count: int  # input slots
    band_cap: int  # output rows per matmul


def plan_window(
    layer: MacLayer | PoolLayer, mc: Machine, out_rows: int | None = None
) -> WindowPlan:
    """The layer's cut. `out_rows`: output buffer rows its results may use (default all)."""
    cols = mc.mac_cols
    g = window_of(layer)
    pool = isinstance(layer, PoolLayer)
    pitch = ceil_div(g.w + g.pad[2] + g.pad[3], g.stride[1])
    most = max(len(block_tiles(layer, j, cols)) for j in range(ceil_div(layer.channels, cols)))
    in_rows = mc.buffer("input").rows
    out_rows = mc.buffer("output").rows if out_rows is None else out_rows
    w_rows = mc.buffer("weight").rows
    acc_rows = mc.buffer("accumulator").rows // (2 if pool else 1)
    band_cap = min(MAX_M, acc_rows, out_rows) // pitch
    if band_cap < 1:
        raise ValueError(f"an output row needs {pitch} accumulator and output rows")

    def weight_rows(group: int) -> int:
        return g.kh * group * g.kw * weight_rows_per_tap(layer, cols)

    whole = _Geometry(g, pitch, most)
    if weight_rows(most) <= w_rows and (
        whole.region(g.oh) <= in_rows or whole.region(1) <= in_rows // 2
    ):
        group = most
    else:  # split the input channels; partial sums stay in the accumulator
        group = max(
            (
                t
                for t in range(1, most + 1)
                if _Geometry(g, pitch, t).region(1) <= in_rows // 2 and weight_rows(t) <= w_rows
            ),
            default=0,
        )
        if group < 1:
            raise ValueError(
                f"one output row of one channel tile needs {_Geometry(g, pitch, 1).region(1)} "
                f"input rows per slot and {weight_rows(1)} weight rows"
            )
    geo = _Geometry(g, pitch, group)
    if group == most and geo.region(g.oh) <= in_rows:
        conv = isinstance(layer, MacLayer) and not layer.depthwise
        in_count = 2 if 2 * geo.region(g.oh) <= in_rows and not conv else 1
        return WindowPlan(geo, group, g.oh, in_count, band_cap)
    limit = g.oh if group == most else band_cap  # split groups: one band per input tile
    tile_rows = max(t for t in range(1, limit + 1) if geo.region(t) <= in_rows // 2 or t == 1)
    return WindowPlan(geo, group, tile_rows, 2, band_cap)


@dataclass(frozen=True)
class OnChip:
    """A tensor kept in the output buffer between two window layers, in the consumer's
    input layout (stride 1 along rows: no column phases), padding included."""

    base: int  # first output-buffer row
    geo: _Geometry  # the consumer's geometry (its whole input is one tile)
    tiles: int  # channel tiles of the tensor
    pad: int  # the consumer's padding value

    @property
    def tile_rows(self) -> int:
        g = self.geo.g
        return g.stride[0] * self.geo.phase_rows(g.oh) * self.geo.pitch

    @property
    def rows(self) -> int:
        return self.tiles * self.tile_rows

    def pixel(self, tile: int, h: int, w: int) -> int:
        """Output-buffer row of pixel (h, w) of channel tile `tile`."""
        g = self.geo.g
        return (
            self.base
            + tile * self.tile_rows
            + self.geo.row(g.oh, 0, h + g.pad[0], 0)
            + w
            + g.pad[2]
        )


@dataclass(frozen=True)
class OnChipRows:
    """A tensor kept in the output buffer for an elementwise consumer: channel block by
    channel block, one row per pixel, no padding."""

    base: int
    height: int
    width: int
    tiles: int
    pad = None  # nothing to fill before the producer writes

    @property
    def pixels(self) -> int:
        return self.height * self.width

    @property
    def rows(self) -> int:
        return self.tiles * self.pixels

    def pixel(self, tile: int, h: int, w: int) -> int:
        return self.base + tile * self.pixels + h * self.width + w


def on_chip_layout(consumer: MacLayer | PoolLayer, mc: Machine, base: int) -> OnChip | None:
    """The layout `consumer` would read its input in from the output buffer, or None when it
    cannot (column stride above 1, or its input would not be one tile of one channel group)."""
    g = consumer.window
    if g.stride[1] != 1:
        return None
    try:
        plan = plan_window(consumer, mc)
    except ValueError:
        return None
    cols = mc.mac_cols
    most = max(
        len(block_tiles(consumer, j, cols)) for j in range(ceil_div(consumer.channels, cols))
    )
    if plan.tile_rows != g.oh or plan.group != most:
        return None
    pool = isinstance(consumer, PoolLayer)
    pad = -128 if pool and consumer.kind == "max" else 0 if pool else consumer.zp_x
    return OnChip(base, plan.geo, ceil_div(g.c, cols), pad)


@dataclass(frozen=True)
class WindowCut(Cut):
    """A window layer's steps: per step the output tile `t`, block `j`, channel group `gi`
    and output rows [s0, s1) — one band when `band_major`, else the tile's rows, cut
    into bands as its input arrives."""

    plan: WindowPlan
    geo: _Geometry  # the plan's, or the on-chip input's when it stays in the output buffer
    groups_of: tuple[tuple[tuple[int, ...], ...], ...]  # per block, its groups' input tiles
    band_cap: int  # output rows per band
    first: int  # output rows of a first band, so compute starts early (`band_sizes`)
    band_major: bool
    steps: tuple[tuple[int, int, int, int, int], ...]  # (t, j, gi, s0, s1)
    split: bool  # some block's input tiles are split into groups (partial sums accumulate)


def window_cut(layer: MacLayer | PoolLayer, mc: Machine, where: Residency) -> WindowCut:
    """The layer's slots (input tiles, weight groups, params, output bands) and its steps;
    an on-chip input (`where.chip_in`) takes no input slot."""
    cols = mc.mac_cols
    g = window_of(layer)
    n = layer.channels
    nb = ceil_div(n, cols)
    conv = isinstance(layer, MacLayer) and not layer.depthwise
    chip_in, chip_out = where.chip_in, where.chip_out
    out_base, out_rows = where.out_area
    plan = plan_window(layer, mc, (1 << 30) if chip_out else out_rows)
    geo, group, tile_rows = plan.geo, plan.group, plan.tile_rows
    if chip_in is not None:
        assert isinstance(chip_in, OnChip)
        geo = chip_in.geo  # the same cut, read from where the producer left it
    pitch = geo.pitch
    groups_of = []
    for j in range(nb):
        tiles = block_tiles(layer, j, cols)
        groups_of.append(tuple(tuple(tiles[i : i + group]) for i in range(0, len(tiles), group)))
    split = any(len(gs) > 1 for gs in groups_of)
    sets = len(window_stages(layer, mc)[0])
    block = g.kh * group * g.kw * weight_rows_per_tap(layer, cols)
    w_count = (
        slot_count(nb * len(groups_of[0]), block, mc.buffer("weight").rows, "weight")
        if block
        else 1
    )
    p_count = slot_count(nb, sets * cols, mc.buffer("params").rows, "params")
    band_cap = plan.band_cap
    out_count = 2 if 2 * band_cap * pitch <= out_rows else 1
    out_size = (out_rows // out_count) // pitch * pitch
    band_cap = min(band_cap, out_size // pitch)
    tiles = ceil_div(g.oh, tile_rows)
    tile_bytes = (
        g.w * g.c * min(g.h, (tile_rows - 1) * g.stride[0] + (g.kh - 1) * g.dilation[0] + 1)
    )
    weight_bytes = block * cols * nb * len(groups_of[0])
    rows_outer = (
        tiles == 1
        or not conv
        or nb * len(groups_of[0]) <= w_count
        or tile_bytes * tiles + weight_bytes * tiles <= weight_bytes + tile_bytes * tiles * nb
    )
    first = 1
    if geo.region(tile_rows) * cols <= 4 * mc.dram_latency * mc.bus_bytes:
        # A tile this small loads in less than four DMA latencies: starting compute on a
        # part of it would cost more DMAs (one per stride phase a delivery) than it saves.
        first = band_cap
    band_major = (
        tiles == 1
        and not split
        and nb > 1
        and len(set(groups_of)) == 1  # every block reads the same input (not depthwise, a pool)
        and chip_in is None
        and nb <= min(w_count if block else nb, p_count)
    )
    steps: list[tuple[int, int, int, int, int]] = []
    if band_major:
        # The whole image and every block's weights fit: go band by band across all blocks,
        # so compute starts after the first band's rows while the rest loads.
        s0 = 0
        for size in band_sizes(g.oh, first, band_cap):
            steps += [(0, j, 0, s0, s0 + size) for j in range(nb)]
            s0 += size
    else:
        order = (
            [(t, j) for t in range(tiles) for j in range(nb)]
            if rows_outer
            else [(t, j) for j in range(nb) for t in range(tiles)]
        )
        for t, j in order:
            o0, o1 = t * tile_rows, min(g.oh, (t + 1) * tile_rows)
            steps += [(t, j, gi, o0, o1) for gi in range(len(groups_of[j]))]
    keys = []
    for t, j, gi, _, _ in steps:
        key: dict[str, Hashable] = {"weight": (j, gi), "params": j}
        if chip_in is None:
            key["input"] = (t, *groups_of[j][gi])
        keys.append(key)
    areas: dict[str, SlotArea] = {}
    if chip_in is None:  # else the input is read where the layer before left it
        areas["input"] = SlotArea(plan.in_count, geo.region(tile_rows))
    areas["weight"] = SlotArea(w_count, block)
    areas["params"] = SlotArea(p_count, sets * cols)
    if chip_out is None:  # else the output goes where the next layer reads it
        areas["output"] = SlotArea(out_count, out_size, out_base)
    return WindowCut(areas, tuple(keys), plan, geo, tuple(groups_of), band_cap, first,
                     band_major, tuple(steps), split)  # fmt: skip


def band_sizes(total: int, first: int, cap: int) -> list[int]:
    """Output rows per band over `total` rows: from the front `first`, then each band
    twice the one before, and from the back 1, 2, 4, ... (up to `cap`), taken in turn.
    Compute starts once the first band's input has loaded, and each band's input loads
    while the band before it computes (a band at most twice the one before, so a layer
    whose loads take under half its compute never waits; a fixed first quarter made
    compute wait for the other three quarters in one piece); and a small last band
    leaves little requantization and storing after the last matmul."""
    front: list[int] = []
    back: list[int] = []
    grow = {"front": min(first, cap), "back": 1}
    left = total
    while left > 0:
        end, bands = ("front", front) if len(front) <= len(back) else ("back", back)
        size = min(grow[end], cap, left)
        bands.append(size)
        grow[end] = min(2 * grow[end], cap)
        left -= size
    return [*front, *reversed(back)]


def window_constants(layer: MacLayer | PoolLayer, mc: Machine,
                     where: Residency) -> dict[str, bytes]:  # fmt: skip
    """A convolution's weights and records; a pool's records (per tap count for average)."""
    cols = mc.mac_cols
    stages, _ = window_stages(layer, mc)
    params = {"params": param_bytes(stages, layer.channels, cols)}
    if isinstance(layer, PoolLayer):
        return params
    return {"weights": conv_weight_bytes(layer, cols, plan_window(layer, mc).group), **params}


def emit_window(st: Stream, layer: MacLayer | PoolLayer, lp: LayerPlan) -> None:
    """A convolution, depthwise convolution or pooling layer (see the module docstring),
    in the steps and slots of its `WindowCut`.

    An on-chip input (`chip_in`) needs no loads: matmul and pool read `buf=output`. An
    on-chip output (`chip_out`) goes into the output buffer in the next layer's layout
    (one requant per output row, padding filled first; no stores).
    """
    cut = lp.slots.cut
    assert isinstance(cut, WindowCut)
    x, w, p, out = lp.inputs[0], lp.weights or 0, lp.address("params"), lp.output
    chip_in, chip_out = lp.residency.chip_in, lp.residency.chip_out
    assert chip_in is None or isinstance(chip_in, OnChip)
    cols = st.machine.mac_cols
    g = window_of(layer)
    sh, sw = g.stride
    dh = g.dilation[0]
    top = g.pad[0]
    n = layer.channels
    pool = isinstance(layer, PoolLayer)
    pad_value = -128 if pool and layer.kind == "max" else 0 if pool else layer.zp_x
    source = "output" if chip_in else "input"
    geo, group, tile_rows, groups_of = cut.geo, cut.plan.group, cut.plan.tile_rows, cut.groups_of
    pitch = geo.pitch
    split = cut.split
    stages, pixel_sets = window_stages(layer, st.machine)
    sets = len(stages)
    block = cut.areas["weight"].rows
    w_slots, p_slots = SlotWaits(cut.areas["weight"]), SlotWaits(cut.areas["params"])
    in_slots = SlotWaits(cut.areas["input"]) if chip_in is None else None
    band_cap = cut.band_cap
    span = (g.kh - 1) * dh + 1
    runs = tap_runs(g)
    lanes = per_lane(layer)
    per_tap = weight_rows_per_tap(layer, cols)
    loaded: dict[int | None, int] = {None: 1 << 30}  # input slot -> padded rows loaded so far
    # Bands take the accumulator's halves in turn when a band fits in half, so a band's
    # matmuls run while the vector unit requantizes the band before (timing.py).
    half = st.machine.buffer("accumulator").rows // 2
    alternate = not pool and band_cap * pitch <= half
    acc_of: dict[tuple[int, int, int], int] = {}
    skip = skips_padding(layer, st.machine)
    row_valid, col_valid = tap_validity(g)
    if not skip:
        row_valid[:], col_valid[:] = True, True
    # Per kernel column in tap order, the output columns it reads inside the image.
    tap_columns = []
    for kw_index in tap_order(g):
        inside = np.flatnonzero(col_valid[:, kw_index])
        tap_columns.append((int(inside[0]), int(inside[-1]) + 1) if len(inside) else (0, 0))
    if chip_out is not None and chip_out.pad is not None:  # padding first, then the pixels
        st.code.append(
            Instruction.of(
                "fill", buf="output", row=chip_out.base, rows=chip_out.rows, value=chip_out.pad
            )
        )

    def band(t: int, j: int, gi: int, key_tiles: list[int], in_slot: int | None, ib: int,
             wb: int, pb: int, s0: int, s1: int, loads: list[Instruction]) -> None:  # fmt: skip
        """Output rows [s0, s1) of block j (group gi): missing input rows, matmuls or pool
        taps, and (after the last group) requantization and stores."""
        o0 = t * tile_rows
        need = (s1 - 1 - o0) * sh + span
        for ti, ci in enumerate(key_tiles):  # row innermost, so loads coalesce
            for ph in range(sw):
                for lr in range(loaded[in_slot], need if in_slot is not None else 0):
                    row = ib + geo.row(tile_rows, ti, lr, ph)
                    h = o0 * sh + lr - top
                    loads += _image_row(geo, row, x, h, ci, ph, pad_value, cols)
        loaded[in_slot] = max(loaded[in_slot], need)
        st.deliver(loads)
        m = (s1 - s0 - 1) * pitch + g.ow  # the last row's throwaway columns are skipped
        acc = acc_of.setdefault((t, j, s0), len(acc_of) % 2 * half if alternate else 0)
        # A convolution: a matmul per output row (a flattened m would compute pitch - ow
        # throwaway columns per row: 13 % at 14 x 14 with a 3-wide window), kernel tap
        # and in-bounds columns, over all the group's input tiles (k_tiles); with the
        # array's fill hidden behind the matmul before, that costs nothing more. Rows
        # without throwaway columns or padding go as one flattened matmul.
        per_row = not pool and not lanes
        flat = per_row and pitch == g.ow and not skip
        row_pitch = g.ow if per_row else pitch
        sums = (s1 - s0) * g.ow if per_row else m
        lines, width = (1, sums) if flat else (s1 - s0, g.ow)
        fresh = np.full((lines, width), gi == 0)  # sums no matmul has started yet
        tiles = len(key_tiles)
        for kh in range(g.kh):
            lr0 = (s0 - o0) * sh + kh * dh
            phase = geo.phase_rows(tile_rows) * pitch
            if per_row:
                base = ib + geo.row(tile_rows, 0, lr0, 0)
                tile_step = geo.row(tile_rows, 1, lr0, 0) - geo.row(tile_rows, 0, lr0, 0)
                tap = 0
                for ph, offset, count, step in runs:
                    for a in range(count):
                        c0, c1 = (0, width) if flat else tap_columns[tap + a]
                        row = base + ph * phase + offset + a * step
                        w_row = wb + (kh * g.kw + tap + a) * group * per_tap
                        for i in range(lines):
                            if skip and not row_valid[s0 + i, kh]:
                                continue
                            for x0, x1, new in _runs(fresh[i], c0, c1):
                                for k0 in range(0, tiles, 255):  # the k_tiles field
                                    append_mac(st.code, Instruction.of(
                                        "matmul", in_=row + i * pitch + x0 + k0 * tile_step,
                                        w=w_row + k0 * per_tap, acc=acc + i * g.ow + x0,
                                        m=x1 - x0, k_tiles=min(255, tiles - k0),
                                        accumulate=int(not new or k0 > 0), in_step=1,
                                        k_step=tile_step if tiles > 1 else 1, buf=source,
                                    ), cols)  # fmt: skip
                            fresh[i, c0:c1] = False
                    tap += count
                continue
            for ti in range(tiles):
                base = ib + geo.row(tile_rows, ti, lr0, 0)
                tap = 0  # position in tap order of the run's first tap
                for ph, offset, count, step in runs:
                    row = base + ph * phase + offset
                    if pool:
                        first = kh == 0 and tap == 0
                        _pool_taps(st.code, layer.kind, source, row, m, count, step, first)
                    else:
                        w_row = wb + ((kh * group + ti) * g.kw + tap) * per_tap
                        accumulate = int(gi > 0 or kh > 0 or ti > 0 or tap > 0)
                        append_mac(
                            st.code,
                            Instruction.of(
                                "dwmac",
                                in_=row,
                                w=w_row,
                                acc=acc,
                                m=m,
                                k_tiles=count,
                                accumulate=accumulate,
                                in_step=1,
                                k_step=step,
                                buf=source,
                            ),
                            cols,
                        )
                    tap += count
        for i in range(lines) if per_row else ():  # pixels whose taps are all padding
            for x0, x1, new in _runs(fresh[i], 0, width):
                if new:
                    st.code.append(Instruction.of(
                        "fill", buf="accumulator", row=acc + i * g.ow + x0, rows=x1 - x0, value=0
                    ))  # fmt: skip
        if gi < len(groups_of[j]) - 1:
            return
        if chip_out is not None:
            if pixel_sets is not None:
                _requant_pixels(st.code, layer, pixel_sets, s0, s1, row_pitch, pb, acc,
                         lambda oh, ow: chip_out.pixel(j, oh, ow), cols)  # fmt: skip
            else:
                pieces = [
                    ((oh - s0) * row_pitch, chip_out.pixel(j, oh, 0), g.ow) for oh in range(s0, s1)
                ]
                epilogue(st.code, layer.requant, 0, acc, sums, pb, 0, cols, pieces)
            return
        ob = st.out_slot(cut.areas["output"])
        if pixel_sets is not None:
            _requant_pixels(st.code, layer, pixel_sets, s0, s1, row_pitch, pb, acc,
                     lambda oh, ow: ob + (oh - s0) * row_pitch + ow, cols)  # fmt: skip
        else:
            epilogue(st.code, layer.requant, 0, acc, sums, pb, ob, cols)
        width = min(cols, n - j * cols)
        st.store([
            dma_store("output", ob + (oh - s0) * row_pitch, out + oh * g.ow * n + j * cols, g.ow,
                      width, n)
            for oh in range(s0, s1)
        ])  # fmt: skip

    def acquire(j: int, gi: int, key_tiles: tuple[int, ...], use: Mapping[str, SlotUse]):
        """The slots a step of block j, group gi uses, and the loads of those that miss."""
        loads: list[Instruction] = []
        if in_slots is None:
            assert chip_in is not None
            in_slot, ib = None, chip_in.base + key_tiles[0] * chip_in.tile_rows
        else:
            in_slot, ib = use["input"].slot, in_slots.take(use["input"], st)
            if use["input"].miss:
                loaded[in_slot] = 0
        wb = w_slots.take(use["weight"], st)
        if use["weight"].miss and block:
            dram = w + (j * len(groups_of[j]) + gi) * block * cols
            loads += dma_load("weight", wb, dram, block, cols, cols)
        pb = p_slots.take(use["params"], st)
        if use["params"].miss:
            loads += dma_load("params", pb, p + j * sets * cols * RECORD_BYTES, sets * cols,
                           RECORD_BYTES, RECORD_BYTES)  # fmt: skip
        return (in_slot, use["weight"].slot, use["params"].slot), ib, wb, pb, loads

    def release(slots) -> None:
        mark = st.release()
        in_slot, w_slot, p_slot = slots
        if in_slots is not None and in_slot is not None:
            in_slots.used(in_slot, mark)
        w_slots.used(w_slot, mark)
        p_slots.used(p_slot, mark)

    for (t, j, gi, o0, o1), use in zip(cut.steps, lp.slots.uses, strict=True):
        key_tiles = list(groups_of[j][gi])
        slots, ib, wb, pb, loads = acquire(j, gi, groups_of[j][gi], use)
        if cut.band_major:  # one band of every block in turn
            band(t, j, gi, key_tiles, slots[0], ib, wb, pb, o0, o1, loads)
            release(slots)
            continue
        s0 = t * tile_rows
        full = loaded[slots[0]] >= (o1 - 1 - o0) * sh + span
        first = band_cap if full else cut.first
        for size in [o1 - s0] if split else band_sizes(o1 - s0, first, band_cap):
            band(t, j, gi, key_tiles, slots[0], ib, wb, pb, s0, s0 + size, loads)
            loads = []
            s0 += size
        release(slots)
    st.end_layer()


_MAC_SHAPE = ("acc", "m", "in_step", "buf")


def append_mac(code: list[Instruction], mac: Instruction, cols: int) -> None:
    """Append `mac`, or fold it into the `matmul` before it when it continues that one's
    sum: the same outputs, its input rows and weight blocks one more k step on (a 1x1
    convolution's input tiles, one matmul each, become one of many k tiles). Each matmul
    pays the array's fill, so a 7x7 layer of 60 tiles took 60 x (49 + 32) cycles a block
    where one matmul takes 60 x 49 + 32. Integer sums: the order does not change them."""
    prev = code[-1] if code else None
    if (
        prev is None
        or mac.opcode.mnemonic != "matmul"
        or prev.opcode is not mac.opcode
        or not mac["accumulate"]
        or any(prev[f] != mac[f] for f in _MAC_SHAPE)
        or mac["w"] != prev["w"] + prev["k_tiles"] * cols
    ):
        code.append(mac)
        return
    # The step from prev's last k tile to mac's first, and each one's own when it has
    # more than one tile, must all be the same.
    steps = {mac["in"] - prev["in"] - (prev["k_tiles"] - 1) * prev["k_step"]}
    steps |= {i["k_step"] for i in (prev, mac) if i["k_tiles"] > 1}
    step = steps.pop()
    if steps or step <= 0:
        code.append(mac)
        return
    try:
        code[-1] = prev.replace(k_tiles=prev["k_tiles"] + mac["k_tiles"], k_step=step)
    except EncodingError:  # k_tiles or k_step too large for the fields
        code.append(mac)


def _image_row(geo: _Geometry, row: int, x: int, h: int, ci: int, ph: int, pad: int,
               cols: int) -> list[Instruction]:  # fmt: skip
    """Column phase `ph` of image row h, channel tile ci: its pixels at `row` on, padding around."""
    g = geo.g
    sw, left = g.stride[1], g.pad[2]
    first = max(0, ceil_div(left - ph, sw))
    end = min(geo.pitch, max(0, ceil_div(left + g.w - ph, sw)))
    valid = max(0, end - first)
    if not 0 <= h < g.h or valid == 0:
        return pad_rows(row, geo.pitch, pad)
    column = ph + sw * first - left
    cw = min(cols, g.c - ci * cols)
    return dma_load("input", row, x + (h * g.w + column) * g.c + ci * cols, valid, cw, sw * g.c,
                 pad, first, geo.pitch - first - valid)  # fmt: skip


def _pool_taps(code: list[Instruction], kind: str, source: str, row: int, m: int, taps: int,
               step: int, first: bool) -> None:  # fmt: skip
    op = "max" if kind == "max" else "sum"
    code.append(
        Instruction.of(
            "pool",
            op=op,
            buf=source,
            in_=row,
            acc=0 if first else m,
            rows=m,
            taps=taps,
            row_step=1,
            tap_step=step,
        )
    )
    if not first:
        alu = "max" if kind == "max" else "add"
        code.append(Instruction.of("alu", op=alu, dst=0, src=m, rows=m, use_imm=0, imm=0))


def _runs(flags: np.ndarray, c0: int, c1: int) -> list[tuple[int, int, bool]]:
    """[c0, c1) cut into runs of equal `flags`: (start, end, flag)."""
    part = flags[c0:c1]
    cuts = [c0, *(c0 + 1 + np.flatnonzero(part[1:] != part[:-1])).tolist(), c1]
    return [(a, b, bool(flags[a])) for a, b in itertools.pairwise(cuts) if a < b]


def _requant_pixels(code: list[Instruction], layer: MacLayer | PoolLayer, sets: PixelSets,
                    s0: int, s1: int, pitch: int, pb: int, acc: int, out_row, cols: int) -> None:  # fmt: skip
    """One requant per run of a row's output columns that use the same record set, from
    the band's sums at accumulator row `acc` (`pitch` apart per row); `out_row(oh, ow)` is
    where output pixel (oh, ow) goes."""
    requant = layer.requant
    for oh in range(s0, s1):
        row = sets.table[oh]
        cuts = [0, *(1 + np.flatnonzero(row[1:] != row[:-1])).tolist(), len(row)]
        for start, end in itertools.pairwise(cuts):
            code.append(
                Instruction.of(
                    "requant",
                    acc=acc + (oh - s0) * pitch + start,
                    out=out_row(oh, start),
                    rows=end - start,
                    params=pb + int(row[start]) * cols,
                    zp=requant.zp,
                    lo=requant.lo,
                    hi=requant.hi,
                    round=sets.rounding,
                )
            )
