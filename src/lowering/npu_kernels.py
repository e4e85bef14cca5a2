"""NPU instruction emitters for the layers of `tosa-to-npu`: tiling, buffers, tokens.

Every emitter writes assembly text (`qasm` syntax) into one `Stream`. The
stream owns the token protocol that orders the engines:

* a *delivery* is a group of loads the load engine finishes with
  `signal ld2cp`, which the compute engine waits for before using them;
* a *release* (`signal cp2ld`) says compute is done with the buffer slots a
  step used; the load engine waits for the release a slot was last used by
  before it loads that slot again (`Slots`), so with two slots the next
  step's loads overlap this step's compute;
* a *store group* (`signal cp2st` .. stores .. `signal st2cp`) hands an
  output slot to the store engine; compute takes the `st2cp` back before it
  writes that slot again, so stores overlap compute too;
* at a layer's end compute waits for all of its stores and releases once
  more, and the next layer's first load waits for every release: a layer
  only reads DRAM its producers have finished writing.

Window layers (convolution, depthwise, pooling) keep input pixels one per
buffer row, channel tile by channel tile, split by stride phase
(`[tile][row phase][column phase][row][column]`), so an output row band is a
single run of rows: one matmul covers many output rows (`m` = rows x pitch,
computing `pitch - OW` throwaway columns between rows that are never stored; a
read never reaches past the last row's own pixels, so it only reads loaded rows).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from qdialect import numerics
from qdialect.lowering.npu_graph import (
    SOURCE_BITS,
    MacLayer,
    MoveLayer,
    PoolLayer,
    Requant,
    Stage,
    TableLayer,
    VectorLayer,
    Window,
)
from qdialect.npu.machine import Machine

RECORD_BYTES = 16
MAX_M = 1023  # the matmul's m field


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


class Stream:
    """The program text and the token counts that keep its engines in step."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self.lines: list[str] = []
        self.released = 0  # cp2ld tokens compute has signalled, in program order
        self.taken = 0  # cp2ld tokens the load engine has waited for
        self.pending = 0  # store groups whose st2cp compute has not taken back
        self.out_groups = 0

    def load_after(self, release: int) -> None:
        """Make the load engine wait until release number `release` has been signalled."""
        while self.taken < release:
            self.lines.append("wait queue=cp2ld")
            self.taken += 1

    def begin_layer(self) -> None:
        self.load_after(self.released)

    def deliver(self, loads: list[str]) -> None:
        if loads:
            self.lines += [*_coalesce(loads), "signal queue=ld2cp", "wait queue=ld2cp"]

    def release(self) -> int:
        self.lines.append("signal queue=cp2ld")
        self.released += 1
        return self.released

    def out_slot(self, slots: int, rows: int) -> int:
        """First output row of the next store group's slot, once its last store is done."""
        if self.pending >= slots:
            self.lines.append("wait queue=st2cp")
            self.pending -= 1
        slot = self.out_groups % slots
        self.out_groups += 1
        return slot * rows

    def store(self, stores: list[str]) -> None:
        self.lines += [
            "signal queue=cp2st",
            "wait queue=cp2st",
            *_coalesce(stores),
            "signal queue=st2cp",
        ]
        self.pending += 1

    def end_layer(self) -> None:
        self.lines += ["wait queue=st2cp"] * self.pending
        self.pending = 0
        self.out_groups = 0
        self.release()

    def finish(self) -> str:
        self.load_after(self.released)
        return "\n".join([*self.lines, "halt"])


class Slots:
    """`count` equal regions of a buffer, reused least recently used first."""

    def __init__(self, count: int, rows: int, base: int = 0):
        self.rows, self.base = rows, base
        self.keys: list[object] = [None] * count
        self.free_after = [0] * count
        self.order = list(range(count))  # least recently used first

    def get(self, key: object, stream: Stream) -> tuple[int, int, bool]:
        """(slot, first row, needs loading); on a miss the load engine waits for the slot."""
        if key in self.keys:
            slot, miss = self.keys.index(key), False
        else:
            slot, miss = self.order[0], True
            stream.load_after(self.free_after[slot])
            self.keys[slot] = key
        self.order.remove(slot)
        self.order.append(slot)
        return slot, self.base + slot * self.rows, miss

    def used(self, slot: int, release: int) -> None:
        self.free_after[slot] = release


MAX_DMA_ROWS = 1023  # the load's rows field


def _load(buf, row, dram, rows, row_bytes, stride, pad=0, top=0, bottom=0) -> list[str]:
    """One DMA, split into several when it moves more rows than the field holds."""
    lines = []
    start = 0
    while True:
        count = min(MAX_DMA_ROWS, rows - start)
        last = start + count == rows
        lines.append(
            f"load buf={buf} row={row + (top if start else 0) + start} dram={dram + start * stride} "
            f"rows={count} row_bytes={row_bytes} stride={stride} pad={pad} "
            f"pad_top={0 if start else top} pad_bottom={bottom if last else 0} pad_left=0"
        )
        start += count
        if last:
            return lines


def _fields(line: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in line.split()[1:])


def _coalesce(dmas: list[str]) -> list[str]:
    """Merge each load or store into the one before it when it continues it: the next
    buffer row and the next DRAM row at the same stride, no padding between (a DMA's
    latency is paid once per instruction, so unpadded image rows go in one)."""
    out: list[str] = []
    previous: dict[str, str] | None = None
    for line in dmas:
        kind = line.split(" ", 1)[0]
        f = _fields(line)
        f.setdefault("pad_top", "0")
        f.setdefault("pad_bottom", "0")
        f.setdefault("pad", "0")
        if previous is not None and out[-1].startswith(kind + " "):
            p = {k: int(v) for k, v in previous.items() if k != "buf"}
            n = {k: int(v) for k, v in f.items() if k != "buf"}
            if (
                f["buf"] == previous["buf"]
                and p["pad_bottom"] == 0
                and n["pad_top"] == 0
                and p["rows"] > 0
                and n["rows"] > 0
                and (n["row_bytes"], n["stride"], n["pad"])
                == (p["row_bytes"], p["stride"], p["pad"])
                and n["row"] == p["row"] + p["pad_top"] + p["rows"]
                and n["dram"] == p["dram"] + p["rows"] * p["stride"]
                and p["rows"] + n["rows"] <= MAX_DMA_ROWS
            ):
                previous["rows"] = str(p["rows"] + n["rows"])
                previous["pad_bottom"] = f["pad_bottom"]
                out[-1] = _dma_text(kind, previous)
                continue
        out.append(line)
        previous = f
    return out


def _dma_text(kind: str, f: dict[str, str]) -> str:
    if kind == "store":  # stores have no padding fields
        f = {k: v for k, v in f.items() if k not in ("pad", "pad_top", "pad_bottom", "pad_left")}
    return f"{kind} " + " ".join(f"{k}={v}" for k, v in f.items())


def _pad_rows(row: int, count: int, pad: int) -> list[str]:
    return [
        line
        for s in range(0, count, 15)
        for line in _load("input", row + s, 0, 0, 0, 0, pad, min(15, count - s))
    ]


# ---- per-channel records ------------------------------------------------------------


def _records(stage: Stage, n: int, cols: int) -> np.ndarray:
    """(bias, multiplier, shift) records padded to whole blocks with (0, 0, 2), a valid
    scale that gives 0 on unused lanes."""
    padded = _ceil(n, cols) * cols
    records = np.zeros((padded, RECORD_BYTES), np.uint8)
    records[n:, 8] = 2
    records[:n, 0:4] = np.asarray(stage.bias, np.int32).view(np.uint8).reshape(n, 4)
    records[:n, 4:8] = np.asarray(stage.multiplier, np.int32).view(np.uint8).reshape(n, 4)
    records[:n, 8] = np.asarray(stage.shift, np.int8).view(np.uint8)
    return records


def param_bytes(stages: list[Stage], n: int, cols: int) -> bytes:
    """Records block by block: block j holds every stage's `cols` records in turn."""
    for stage in stages:
        if np.any(np.abs(stage.bias) >= 1 << 31):
            raise ValueError("a folded bias does not fit int32")
    nb = _ceil(n, cols)
    blocks = [_records(s, n, cols).reshape(nb, cols, RECORD_BYTES) for s in stages]
    return np.ascontiguousarray(np.stack(blocks, axis=1)).tobytes()


def _epilogue(lines, requant: Requant, first_set: int, acc: int, rows: int, params: int,
              out: int, cols: int, pieces: list[tuple[int, int, int]] | None = None) -> None:  # fmt: skip
    """`scale` for every stage but the last (identity ones skipped), then `requant` of the
    rows to `out`, or of each (accumulator offset, output row, rows) piece."""
    *middle, last = requant.stages
    for i, stage in enumerate(middle):
        if not stage.is_identity():
            lines.append(
                f"scale acc={acc} rows={rows} params={params + (first_set + i) * cols} "
                f"double_round={int(stage.double_round)}"
            )
    for offset, row, count in pieces or [(0, out, rows)]:
        lines.append(
            f"requant acc={acc + offset} out={row} rows={count} "
            f"params={params + (first_set + len(middle)) * cols} zp={requant.zp} "
            f"lo={requant.lo} hi={requant.hi} double_round={int(last.double_round)}"
        )


def _slot_count(want: int, rows: int, have: int, what: str) -> int:
    if rows > have:
        raise ValueError(f"a step needs {rows} {what} rows; the machine has {have}")
    return max(1, min(want, have // max(rows, 1)))


# ---- fully connected ---------------------------------------------------------------


def fc_weight_bytes(layer: MacLayer, cols: int) -> bytes:
    """Block j of output columns: K (padded to whole tiles) rows of `cols` bytes, so any
    run of K tiles of a block is one DMA."""
    k, n = layer.weight.shape
    padded = np.zeros((_ceil(k, cols) * cols, _ceil(n, cols) * cols), np.int8)
    padded[:k, :n] = layer.weight
    blocks = padded.reshape(padded.shape[0], -1, cols).transpose(1, 0, 2)
    return np.ascontiguousarray(blocks).tobytes()


def emit_fc(st: Stream, layer: MacLayer, x: int, w: int, p: int, out: int, m_total: int) -> None:
    """M x K times K x N. K is split into groups when it does not fit one matmul (255
    tiles) or the weight buffer; then every column block keeps its partial sums in its
    own accumulator rows while the groups go by, so each input group loads once."""
    mc = st.machine
    cols = mc.mac_cols
    k, n = layer.weight.shape
    kt, nb = _ceil(k, cols), _ceil(n, cols)
    sets = len(layer.requant.stages)
    in_rows, out_rows = mc.buffer("input").rows, mc.buffer("output").rows
    w_rows, acc_rows = mc.buffer("weight").rows, mc.buffer("accumulator").rows
    gk = min(kt, 255, w_rows // cols)
    if gk < kt:
        gk = min(gk, w_rows // (2 * cols), in_rows // 2)
    if gk < 1:
        raise ValueError(f"the weight buffer's {w_rows} rows hold no {cols}-row K tile")
    groups = _ceil(kt, gk)
    cap = min(MAX_M, acc_rows // (nb if groups > 1 else 1), out_rows)
    if groups == 1 and m_total * kt <= in_rows and m_total <= cap:
        mt, in_count = m_total, 1
    else:
        mt = min(cap, out_rows // 2, in_rows // (2 * gk))
        in_count = 2
    if mt < 1:
        raise ValueError(f"{nb} column blocks of partial sums exceed the accumulator")
    chunks = _ceil(m_total, mt)
    w_count = _slot_count(nb * groups, gk * cols, w_rows, "weight")
    p_count = _slot_count(nb, sets * cols, mc.buffer("params").rows, "params")
    w_slots, p_slots = Slots(w_count, gk * cols), Slots(p_count, sets * cols)
    in_slots = Slots(in_count, gk * mt)
    out_count = 2 if 2 * mt <= out_rows else 1
    if groups > 1:
        steps = [(c, g, j) for c in range(chunks) for g in range(groups) for j in range(nb)]
    elif nb <= w_count or m_total * k + kt * cols * n * chunks <= kt * cols * n + m_total * k * nb:
        steps = [(c, 0, j) for c in range(chunks) for j in range(nb)]
    else:
        steps = [(c, 0, j) for j in range(nb) for c in range(chunks)]
    for c, g, j in steps:
        m0 = c * mt
        rows = min(mt, m_total - m0)
        width = min(cols, n - j * cols)
        tiles = min(gk, kt - g * gk)
        loads = []
        in_slot, ib, miss = in_slots.get((c, g), st)
        if miss:
            for t in range(tiles):
                kk = (g * gk + t) * cols
                loads += _load("input", ib + t * mt, x + m0 * k + kk, rows, min(cols, k - kk), k)
        w_slot, wb, miss = w_slots.get((j, g), st)
        if miss:
            dram = w + (j * kt + g * gk) * cols * cols
            loads += _load("weight", wb, dram, tiles * cols, cols, cols)
        p_slot, pb, miss = p_slots.get(j, st)
        if miss:
            loads += _load("params", pb, p + j * sets * cols * RECORD_BYTES, sets * cols,
                               RECORD_BYTES, RECORD_BYTES)  # fmt: skip
        st.deliver(loads)
        acc = j * mt if groups > 1 else 0
        st.lines.append(
            f"matmul in={ib} w={wb} acc={acc} m={rows} k_tiles={tiles} accumulate={int(g > 0)} "
            f"in_step=1 k_step={mt} buf=input"
        )
        last = g == groups - 1
        if last:
            ob = st.out_slot(out_count, mt)
            _epilogue(st.lines, layer.requant, 0, acc, rows, pb, ob, cols)
        release = st.release()
        in_slots.used(in_slot, release)
        w_slots.used(w_slot, release)
        p_slots.used(p_slot, release)
        if last:
            st.store([f"store buf=output row={ob} dram={out + m0 * n + j * cols} rows={rows} "
                      f"row_bytes={width} stride={n}"])  # fmt: skip
    st.end_layer()


# ---- windows: convolution, depthwise, pooling --------------------------------------------


@dataclass(frozen=True)
class _Geometry:
    """Where padded input pixel (row, column) of channel tile `t` lives in a tile's region."""

    g: Window
    pitch: int  # columns per row within a column phase
    tiles: int  # channel tiles per region

    def phase_rows(self, band: int) -> int:
        """Rows per (row phase) of a region for `band` output rows."""
        span = (band - 1) * self.g.stride[0] + (self.g.kh - 1) * self.g.dilation[0] + 1
        return _ceil(span, self.g.stride[0])

    def region(self, band: int) -> int:
        sh, sw = self.g.stride
        return self.tiles * sh * sw * self.phase_rows(band) * self.pitch

    def row(self, band: int, tile: int, lr: int, col_phase: int) -> int:
        sh, sw = self.g.stride
        return (
            ((tile * sh + lr % sh) * sw + col_phase) * self.phase_rows(band) + lr // sh
        ) * self.pitch


def _count_map(g: Window) -> tuple[np.ndarray, np.ndarray]:
    """In-bounds taps per output row and per output column (average pooling's divisor)."""

    def counts(n_out, stride, pad, k, size):
        return np.array(
            [sum(0 <= o * stride - pad + i < size for i in range(k)) for o in range(n_out)]
        )

    return counts(g.oh, g.stride[0], g.pad[0], g.kh, g.h), counts(
        g.ow, g.stride[1], g.pad[2], g.kw, g.w
    )


def window_stages(layer: MacLayer | PoolLayer) -> tuple[list[Stage], dict[int, int]]:
    """The record sets of a window layer, and for average pooling each tap count's set."""
    if isinstance(layer, MacLayer) or layer.kind != "avg":
        return layer.requant.stages, {}
    rows, cols = _count_map(layer.window)
    counts = sorted({int(r * c) for r in rows for c in cols})
    n = layer.window.c
    stages = []
    for count in counts:
        m, s = numerics.reciprocal_scale(count)
        stages.append(Stage(np.full(n, -layer.zp_in * count), np.full(n, m), np.full(n, s), False))
    return stages, {c: i for i, c in enumerate(counts)}


def block_tiles(layer: MacLayer | PoolLayer, j: int, cols: int) -> list[int]:
    """The input channel tiles output block j reads."""
    g = layer.window
    if isinstance(layer, PoolLayer):
        return [j]
    if not layer.depthwise:
        return list(range(_ceil(g.c, cols)))
    first, last = j * cols, min(layer.channels, (j + 1) * cols) - 1
    return list(range(first // layer.depthwise // cols, last // layer.depthwise // cols + 1))


def conv_weight_bytes(layer: MacLayer, cols: int, group: int) -> bytes:
    """Per output block j, group of `group` input tiles, kernel row, input tile and kernel
    column: a cols x cols block (row = input channel of the tile, column = output
    channel of the block). Depthwise blocks are zero except where output o reads input o // M."""
    kh, kw = layer.weight.shape[:2]
    n = layer.channels
    nb = _ceil(n, cols)
    tiles = [block_tiles(layer, j, cols) for j in range(nb)]
    groups = _ceil(max(len(t) for t in tiles), group)
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
    blocks = blocks[:, :, :, tap_order(layer.window)]  # taps grouped by column phase
    # nb, groups, kh, group, kw, cols(in), cols(out)
    blocks = blocks.reshape(nb, groups, group, kh, kw, cols, cols).transpose(0, 1, 3, 2, 4, 5, 6)
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
    g = layer.window
    pool = isinstance(layer, PoolLayer)
    pitch = _ceil(g.w + g.pad[2] + g.pad[3], g.stride[1])
    most = max(len(block_tiles(layer, j, cols)) for j in range(_ceil(layer.channels, cols)))
    in_rows = mc.buffer("input").rows
    out_rows = mc.buffer("output").rows if out_rows is None else out_rows
    w_rows = mc.buffer("weight").rows
    acc_rows = mc.buffer("accumulator").rows // (2 if pool else 1)
    band_cap = min(MAX_M, acc_rows, out_rows) // pitch
    if band_cap < 1:
        raise ValueError(f"an output row needs {pitch} accumulator and output rows")

    def weight_rows(group: int) -> int:
        return 0 if pool else g.kh * group * g.kw * cols

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
    most = max(len(block_tiles(consumer, j, cols)) for j in range(_ceil(consumer.channels, cols)))
    if plan.tile_rows != g.oh or plan.group != most:
        return None
    pool = isinstance(consumer, PoolLayer)
    pad = -128 if pool and consumer.kind == "max" else 0 if pool else consumer.zp_x
    return OnChip(base, plan.geo, _ceil(g.c, cols), pad)


def emit_window(st: Stream, layer: MacLayer | PoolLayer, x: int, w: int, p: int, out: int,
                chip_in: OnChip | None = None, chip_out: OnChip | None = None,
                out_area: tuple[int, int] | None = None) -> None:  # fmt: skip
    """A convolution, depthwise convolution or pooling layer (see the module docstring).

    `chip_in`: the input is already in the output buffer (no loads; matmul and pool read
    `buf=output`). `chip_out`: the result goes into the output buffer in the next layer's
    layout (one requant per output row, padding filled first; no stores). `out_area`:
    (first row, rows) of the output buffer this layer's output slots may use.
    """
    mc = st.machine
    cols = mc.mac_cols
    g = layer.window
    sh, sw = g.stride
    dh = g.dilation[0]
    top = g.pad[0]
    n = layer.channels
    nb = _ceil(n, cols)
    conv = isinstance(layer, MacLayer) and not layer.depthwise
    pool = isinstance(layer, PoolLayer)
    pad_value = -128 if pool and layer.kind == "max" else 0 if pool else layer.zp_x
    source = "output" if chip_in else "input"
    out_base, out_rows = out_area or (0, mc.buffer("output").rows)
    plan = plan_window(layer, mc, (1 << 30) if chip_out else out_rows)
    geo, group, tile_rows = plan.geo, plan.group, plan.tile_rows
    if chip_in is not None:
        geo = chip_in.geo  # the same cut, read from where the producer left it
    pitch = geo.pitch
    groups_of = []
    for j in range(nb):
        tiles = block_tiles(layer, j, cols)
        groups_of.append([tiles[i : i + group] for i in range(0, len(tiles), group)])
    split = any(len(gs) > 1 for gs in groups_of)
    stages, count_set = window_stages(layer)
    sets = len(stages)
    block = 0 if pool else g.kh * group * g.kw * cols
    w_count = (
        _slot_count(nb * len(groups_of[0]), block, mc.buffer("weight").rows, "weight")
        if block
        else 1
    )
    p_count = _slot_count(nb, sets * cols, mc.buffer("params").rows, "params")
    w_slots, p_slots = Slots(w_count, block), Slots(p_count, sets * cols)
    in_slots = Slots(plan.in_count, geo.region(tile_rows))
    band_cap = plan.band_cap
    out_count = 2 if 2 * band_cap * pitch <= out_rows else 1
    out_size = (out_rows // out_count) // pitch * pitch
    band_cap = min(band_cap, out_size // pitch)
    tiles = _ceil(g.oh, tile_rows)
    tile_bytes = g.w * g.c * min(g.h, (tile_rows - 1) * sh + (g.kh - 1) * dh + 1)
    weight_bytes = block * cols * nb * len(groups_of[0])
    rows_outer = (
        tiles == 1
        or not conv
        or nb * len(groups_of[0]) <= w_count
        or tile_bytes * tiles + weight_bytes * tiles <= weight_bytes + tile_bytes * tiles * nb
    )
    steps = (
        [(t, j) for t in range(tiles) for j in range(nb)]
        if rows_outer
        else [(t, j) for j in range(nb) for t in range(tiles)]
    )
    span = (g.kh - 1) * dh + 1
    runs = tap_runs(g)
    loaded: dict[int | None, int] = {None: 1 << 30}  # input slot -> padded rows loaded so far
    if chip_out is not None:  # padding first; the layer's requants then fill in the pixels
        st.lines.append(
            f"fill buf=output row={chip_out.base} rows={chip_out.rows} value={chip_out.pad}"
        )

    def band(t: int, j: int, gi: int, key_tiles: list[int], in_slot: int | None, ib: int,
             wb: int, pb: int, s0: int, s1: int, loads: list[str]) -> None:  # fmt: skip
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
        for kh in range(g.kh):
            lr0 = (s0 - o0) * sh + kh * dh
            for ti in range(len(key_tiles)):
                base = ib + geo.row(tile_rows, ti, lr0, 0)
                phase = geo.phase_rows(tile_rows) * pitch
                tap = 0  # position in tap order of the run's first tap
                for ph, offset, count, step in runs:
                    row = base + ph * phase + offset
                    if pool:
                        first = kh == 0 and tap == 0
                        _pool_taps(st.lines, layer.kind, row, m, count, step, first)
                    else:
                        w_row = wb + ((kh * group + ti) * g.kw + tap) * cols
                        accumulate = int(gi > 0 or kh > 0 or ti > 0 or tap > 0)
                        st.lines.append(
                            f"matmul in={row} w={w_row} acc=0 m={m} k_tiles={count} "
                            f"accumulate={accumulate} in_step=1 k_step={step} buf={source}"
                        )
                    tap += count
        if gi < len(groups_of[j]) - 1:
            return
        if chip_out is not None:
            if count_set:
                _average(st.lines, layer, count_set, s0, s1, pitch, pb,
                         lambda oh, ow: chip_out.pixel(j, oh, ow), cols)  # fmt: skip
            else:
                pieces = [
                    ((oh - s0) * pitch, chip_out.pixel(j, oh, 0), g.ow) for oh in range(s0, s1)
                ]
                _epilogue(st.lines, layer.requant, 0, 0, m, pb, 0, cols, pieces)
            return
        ob = out_base + st.out_slot(out_count, out_size)
        if count_set:
            _average(st.lines, layer, count_set, s0, s1, pitch, pb,
                     lambda oh, ow: ob + (oh - s0) * pitch + ow, cols)  # fmt: skip
        else:
            _epilogue(st.lines, layer.requant, 0, 0, m, pb, ob, cols)
        width = min(cols, n - j * cols)
        st.store([
            f"store buf=output row={ob + (oh - s0) * pitch} "
            f"dram={out + oh * g.ow * n + j * cols} rows={g.ow} row_bytes={width} stride={n}"
            for oh in range(s0, s1)
        ])  # fmt: skip

    def acquire(t: int, j: int, gi: int, key_tiles: list[int]):
        """The slots step (t, j, gi) uses, and the loads of those that miss."""
        loads: list[str] = []
        if chip_in is not None:
            in_slot, ib = None, chip_in.base + key_tiles[0] * chip_in.tile_rows
        else:
            in_slot, ib, miss = in_slots.get((t, *key_tiles), st)
            if miss:
                loaded[in_slot] = 0
        w_slot, wb, miss = w_slots.get((j, gi), st)
        if miss and block:
            dram = w + (j * len(groups_of[j]) + gi) * block * cols
            loads += _load("weight", wb, dram, block, cols, cols)
        p_slot, pb, miss = p_slots.get(j, st)
        if miss:
            loads += _load("params", pb, p + j * sets * cols * RECORD_BYTES, sets * cols,
                           RECORD_BYTES, RECORD_BYTES)  # fmt: skip
        return (in_slot, w_slot, p_slot), ib, wb, pb, loads

    def release(slots) -> None:
        mark = st.release()
        in_slot, w_slot, p_slot = slots
        if in_slot is not None:
            in_slots.used(in_slot, mark)
        w_slots.used(w_slot, mark)
        p_slots.used(p_slot, mark)

    quarter = max(1, min(band_cap, _ceil(tile_rows, 4)))
    band_major = (
        tiles == 1 and not split and nb > 1 and chip_in is None
        and nb <= min(w_count if block else nb, p_count)
    )  # fmt: skip
    if band_major:
        # The whole image and every block's weights fit: go band by band across all blocks,
        # so compute starts after the first quarter of the rows while the rest loads.
        s0 = 0
        while s0 < g.oh:
            s1 = min(g.oh, s0 + (quarter if s0 == 0 else band_cap))
            for j in range(nb):
                slots, ib, wb, pb, loads = acquire(0, j, 0, groups_of[j][0])
                band(0, j, 0, groups_of[j][0], slots[0], ib, wb, pb, s0, s1, loads)
                release(slots)
            s0 = s1
        st.end_layer()
        return
    for t, j in steps:
        o0, o1 = t * tile_rows, min(g.oh, (t + 1) * tile_rows)
        for gi, key_tiles in enumerate(groups_of[j]):
            slots, ib, wb, pb, loads = acquire(t, j, gi, key_tiles)
            s0 = o0
            while s0 < o1:
                full = loaded[slots[0]] >= (o1 - 1 - o0) * sh + span
                s1 = min(o1, s0 + (band_cap if full or split else quarter))
                band(t, j, gi, key_tiles, slots[0], ib, wb, pb, s0, s1, loads)
                loads = []
                s0 = s1
            release(slots)
    st.end_layer()


def _image_row(geo: _Geometry, row: int, x: int, h: int, ci: int, ph: int, pad: int,
               cols: int) -> list[str]:  # fmt: skip
    """Column phase `ph` of image row h, channel tile ci: its pixels at `row` on, padding around."""
    g = geo.g
    sw, left = g.stride[1], g.pad[2]
    first = max(0, _ceil(left - ph, sw))
    end = min(geo.pitch, max(0, _ceil(left + g.w - ph, sw)))
    valid = max(0, end - first)
    if not 0 <= h < g.h or valid == 0:
        return _pad_rows(row, geo.pitch, pad)
    column = ph + sw * first - left
    cw = min(cols, g.c - ci * cols)
    return _load("input", row, x + (h * g.w + column) * g.c + ci * cols, valid, cw, sw * g.c,
                 pad, first, geo.pitch - first - valid)  # fmt: skip


def _pool_taps(lines, kind: str, row: int, m: int, taps: int, step: int, first: bool) -> None:
    op = "max" if kind == "max" else "sum"
    lines.append(
        f"pool op={op} buf=input in={row} acc={0 if first else m} rows={m} taps={taps} "
        f"row_step=1 tap_step={step}"
    )
    if not first:
        alu = "max" if kind == "max" else "add"
        lines.append(f"alu op={alu} dst=0 src={m} rows={m} use_imm=0 imm=0")


def _average(lines, layer: PoolLayer, count_set, s0, s1, pitch, pb, out_row, cols) -> None:
    """One requant per run of output columns with the same count of in-bounds taps;
    `out_row(oh, ow)` is where output pixel (oh, ow) goes."""
    rows, columns = _count_map(layer.window)
    requant = layer.requant
    for oh in range(s0, s1):
        start = 0
        while start < layer.window.ow:
            count = int(rows[oh] * columns[start])
            end = start + 1
            while end < layer.window.ow and int(rows[oh] * columns[end]) == count:
                end += 1
            r = (oh - s0) * pitch + start
            lines.append(
                f"requant acc={r} out={out_row(oh, start)} rows={end - start} "
                f"params={pb + count_set[count] * cols} zp={requant.zp} lo={requant.lo} "
                f"hi={requant.hi} double_round=0"
            )
            start = end


# ---- elementwise and tables ---------------------------------------------------------------


def _flat(shape: tuple[int, ...], uniform: bool, cols: int) -> tuple[int, int]:
    """Rows and row length the tensor is processed as: whole array-width rows when every
    parameter is per tensor and they divide it, else one row per last-axis vector."""
    total = int(np.prod(shape, dtype=np.int64))
    if uniform and total % cols == 0:
        return total // cols, cols
    return total // shape[-1], shape[-1]


def vector_stages(layer: VectorLayer, width: int | None = None) -> list[Stage]:
    """The layer's record sets (input scales, then the requantization), each `width` lanes."""
    stages = [s for _, _, s in layer.inputs if s is not None] + layer.requant.stages
    if width is None:
        return stages
    return [
        Stage(np.resize(s.bias, width), np.resize(s.multiplier, width), np.resize(s.shift, width),
              s.double_round)
        for s in stages
    ]  # fmt: skip


def vector_shape(layer: VectorLayer, cols: int) -> tuple[int, int]:
    uniform = all(
        np.all(s.multiplier == s.multiplier[0])
        and np.all(s.shift == s.shift[0])
        and not np.any(s.bias)
        for s in vector_stages(layer)
    )
    return _flat(layer.shape, uniform, cols)


def _chunk_rows(st: Stream, per_row: int, extra_cap: int) -> int:
    """Rows per step of a row-streamed layer: two input and two output slots."""
    mc = st.machine
    in_rows, out_rows = mc.buffer("input").rows, mc.buffer("output").rows
    cap = min(MAX_M, extra_cap, out_rows // 2, in_rows // (2 * per_row))
    if cap < 1:
        raise ValueError("the buffers cannot hold two rows of this layer")
    return cap


def emit_vector(st: Stream, layer: VectorLayer, xs: list[int], p: int, out: int) -> None:
    mc = st.machine
    cols = mc.mac_cols
    m_total, c = vector_shape(layer, cols)
    ni = len(layer.inputs)
    stages = vector_stages(layer)
    sets = len(stages)
    mt = _chunk_rows(st, ni, mc.buffer("accumulator").rows // ni)
    nb = _ceil(c, cols)
    p_count = _slot_count(nb, sets * cols, mc.buffer("params").rows, "params")
    p_slots = Slots(p_count, sets * cols)
    in_slots = Slots(2, ni * mt)
    set_of = []
    k = 0
    for _, _, stage in layer.inputs:
        set_of.append(k if stage is not None else None)
        k += stage is not None
    for chunk in range(_ceil(m_total, mt)):
        m0 = chunk * mt
        rows = min(mt, m_total - m0)
        for j in range(nb):
            width = min(cols, c - j * cols)
            in_slot, ib, _ = in_slots.get((chunk, j), st)
            loads = [
                line
                for i, a in enumerate(xs)
                for line in _load("input", ib + i * mt, a + m0 * c + j * cols, rows, width, c)
            ]
            p_slot, pb, miss = p_slots.get(j, st)
            if miss:
                loads += _load("params", pb, p + j * sets * cols * RECORD_BYTES, sets * cols,
                                   RECORD_BYTES, RECORD_BYTES)  # fmt: skip
            st.deliver(loads)
            ob = st.out_slot(2, mt)
            for i, (_, zp, stage) in enumerate(layer.inputs):
                st.lines.append(
                    f"widen buf=input in={ib + i * mt} acc={i * mt} rows={rows} zp={zp} shift=0"
                )
                if stage is not None:
                    st.lines.append(
                        f"scale acc={i * mt} rows={rows} params={pb + set_of[i] * cols} "
                        f"double_round={int(stage.double_round)}"
                    )
            if layer.op is not None:
                st.lines.append(f"alu op={layer.op} dst=0 src={mt} rows={rows} use_imm=0 imm=0")
            _epilogue(st.lines, layer.requant, k, 0, rows, pb, ob, cols)
            release = st.release()
            in_slots.used(in_slot, release)
            p_slots.used(p_slot, release)
            st.store([f"store buf=output row={ob} dram={out + m0 * c + j * cols} rows={rows} "
                      f"row_bytes={width} stride={c}"])  # fmt: skip
    st.end_layer()


def emit_table(st: Stream, layer: TableLayer, x: int, table: int, out: int) -> None:
    mc = st.machine
    cols = mc.mac_cols
    m_total, c = _flat(layer.shape, True, cols)
    mt = _chunk_rows(st, 1, MAX_M)
    in_slots = Slots(2, mt)
    first = _load("lut", 0, table, 1, 256, 256)
    for chunk in range(_ceil(m_total, mt)):
        m0 = chunk * mt
        rows = min(mt, m_total - m0)
        for j in range(_ceil(c, cols)):
            width = min(cols, c - j * cols)
            in_slot, ib, _ = in_slots.get((chunk, j), st)
            st.deliver([*first, *_load("input", ib, x + m0 * c + j * cols, rows, width, c)])
            first = []
            ob = st.out_slot(2, mt)
            st.lines.append(f"lut buf=input in={ib} out={ob} rows={rows} table=0")
            in_slots.used(in_slot, st.release())
            st.store([f"store buf=output row={ob} dram={out + m0 * c + j * cols} rows={rows} "
                      f"row_bytes={width} stride={c}"])  # fmt: skip
    st.end_layer()


# ---- data movement ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Block:
    """`rows` rows of `row_bytes` bytes: from input `source` at `src` (stride `src_stride`),
    or the pad value when `source` is None, to the output at `dst` (stride `dst_stride`)."""

    source: int | None
    src: int
    src_stride: int
    dst: int
    dst_stride: int
    rows: int
    row_bytes: int


MAX_STRIDE = (1 << 20) - 1  # the DMA stride fields


def move_blocks(code: np.ndarray, width: int) -> list[_Block]:
    """Cut a byte gather into 2-D DMA blocks: runs contiguous in both tensors (at most
    `width` bytes, a buffer row), then runs of equal length and equal strides."""
    if code.size == 0:
        return []
    pad = code < 0
    step = np.diff(code)
    joined = np.where(pad[1:], pad[:-1], ~pad[:-1] & (step == 1))
    starts = np.concatenate([[0], np.nonzero(~joined)[0] + 1])
    ends = np.concatenate([starts[1:], [code.size]])
    pieces = []  # (dst, length, source, src)
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        for s in range(start, end, width):
            c = int(code[s])
            src = None if c < 0 else c >> SOURCE_BITS
            pieces.append((s, min(width, end - s), src, c & ((1 << SOURCE_BITS) - 1)))
    blocks: list[_Block] = []
    i = 0
    while i < len(pieces):
        dst, length, source, src = pieces[i]
        rows, dst_stride, src_stride = 1, length, length
        while i + rows < len(pieces) and rows < MAX_DMA_ROWS:
            d, n, s_id, s = pieces[i + rows]
            ds, ss = d - pieces[i + rows - 1][0], s - pieces[i + rows - 1][3]
            if n != length or s_id != source:
                break
            if rows == 1:
                if ds > MAX_STRIDE or (source is not None and not 0 <= ss <= MAX_STRIDE):
                    break
                dst_stride, src_stride = ds, ss
            elif ds != dst_stride or (source is not None and ss != src_stride):
                break
            rows += 1
        blocks.append(_Block(source, src, src_stride, dst, dst_stride, rows, length))
        i += rows
    return blocks


def emit_move(st: Stream, layer: MoveLayer, xs: list[int], out: int) -> None:
    """DMA only: loads stage the blocks in an input slot, the store engine writes them out
    (compute just passes the tokens along). Two slots let a batch load while the last stores."""
    mc = st.machine
    slot_rows = mc.buffer("input").rows // 2
    blocks = move_blocks(layer.code, mc.buffer("input").row_bytes)
    batches: list[list[_Block]] = [[]]
    used = 0
    for block in blocks:
        if used + block.rows > slot_rows:
            batches.append([])
            used = 0
        batches[-1].append(block)
        used += block.rows
    in_slots = Slots(2, slot_rows)
    previous = None
    for index, batch in enumerate(batches):
        slot, row, _ = in_slots.get(index, st)
        loads, stores = [], []
        for b in batch:
            if b.source is None:
                loads += _pad_rows(row, b.rows, layer.pad)
            else:
                loads += _load(
                    "input", row, xs[b.source] + b.src, b.rows, b.row_bytes, b.src_stride
                )
            stores.append(
                f"store buf=input row={row} dram={out + b.dst} rows={b.rows} "
                f"row_bytes={b.row_bytes} stride={b.dst_stride}"
            )
            row += b.rows
        st.deliver(loads)
        st.store(stores)
        if previous is not None:  # the previous batch's stores are done: its slot is free
            st.lines.append("wait queue=st2cp")
            st.pending -= 1
            in_slots.used(previous, st.release())
        previous = slot
    st.end_layer()
