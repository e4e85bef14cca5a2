"""Row-streamed layers of `tosa-to-npu`: fully connected, elementwise, tables, data movement.

Each emitter tiles its layer for the machine's buffers and writes instructions
into a `Stream` (see `npu_stream` for the token protocol); window layers live
in `npu_window`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from qdialect.lowering.npu_graph import (
    SOURCE_BITS,
    MacLayer,
    MoveLayer,
    Stage,
    TableLayer,
    VectorLayer,
    alias,
    nbytes,
)
from qdialect.lowering.npu_stream import (
    MAX_DMA_ROWS,
    MAX_M,
    RECORD_BYTES,
    Cut,
    SlotArea,
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
from qdialect.lowering.npu_window import OnChipRows
from qdialect.npu.encoding import Instruction
from qdialect.npu.machine import Machine

if TYPE_CHECKING:  # the plan is built from these cuts, and emission reads it
    from qdialect.lowering.npu_plan import LayerPlan, Residency

# ---- fully connected ---------------------------------------------------------------


def fc_weight_bytes(layer: MacLayer, cols: int) -> bytes:
    """Block j of output columns: K (padded to whole tiles) rows of `cols` bytes, so any
    run of K tiles of a block is one DMA."""
    k, n = layer.weight.shape
    padded = np.zeros((ceil_div(k, cols) * cols, ceil_div(n, cols) * cols), np.int8)
    padded[:k, :n] = layer.weight
    blocks = padded.reshape(padded.shape[0], -1, cols).transpose(1, 0, 2)
    return np.ascontiguousarray(blocks).tobytes()


@dataclass(frozen=True)
class FcCut(Cut):
    """M x K times K x N in steps (chunk of M rows, K group, column block): K is split into
    groups of `gk` tiles when it does not fit one matmul (255 tiles) or the weight
    buffer; then every column block keeps its partial sums in its own accumulator rows
    while the groups go by, so each input group loads once."""

    m_total: int
    gk: int  # K tiles per group
    groups: int
    mt: int  # rows of M per chunk
    steps: tuple[tuple[int, int, int], ...]  # (chunk, group, block)


def fc_cut(layer: MacLayer, mc: Machine, where: Residency) -> FcCut:
    cols = mc.mac_cols
    k, n = layer.weight.shape
    m_total = nbytes(alias(layer.x)) // k
    kt, nb = ceil_div(k, cols), ceil_div(n, cols)
    sets = len(layer.requant.stages)
    in_rows, out_rows = mc.buffer("input").rows, mc.buffer("output").rows
    w_rows, acc_rows = mc.buffer("weight").rows, mc.buffer("accumulator").rows
    gk = min(kt, 255, w_rows // cols)
    if gk < kt:
        gk = min(gk, w_rows // (2 * cols), in_rows // 2)
    if gk < 1:
        raise ValueError(f"the weight buffer's {w_rows} rows hold no {cols}-row K tile")
    groups = ceil_div(kt, gk)
    cap = min(MAX_M, acc_rows // (nb if groups > 1 else 1), out_rows)
    if groups == 1 and m_total * kt <= in_rows and m_total <= cap:
        mt, in_count = m_total, 1
    else:
        mt = min(cap, out_rows // 2, in_rows // (2 * gk))
        in_count = 2
    if mt < 1:
        raise ValueError(f"{nb} column blocks of partial sums exceed the accumulator")
    chunks = ceil_div(m_total, mt)
    w_count = slot_count(nb * groups, gk * cols, w_rows, "weight")
    p_count = slot_count(nb, sets * cols, mc.buffer("params").rows, "params")
    if groups > 1:
        steps = [(c, g, j) for c in range(chunks) for g in range(groups) for j in range(nb)]
    elif nb <= w_count or m_total * k + kt * cols * n * chunks <= kt * cols * n + m_total * k * nb:
        steps = [(c, 0, j) for c in range(chunks) for j in range(nb)]
    else:
        steps = [(c, 0, j) for j in range(nb) for c in range(chunks)]
    areas = {
        "input": SlotArea(in_count, gk * mt),
        "weight": SlotArea(w_count, gk * cols),
        "params": SlotArea(p_count, sets * cols),
        "output": SlotArea(2 if 2 * mt <= out_rows else 1, mt),
    }
    keys = tuple({"input": (c, g), "weight": (j, g), "params": j} for c, g, j in steps)
    return FcCut(areas, keys, m_total, gk, groups, mt, tuple(steps))


def fc_constants(layer: MacLayer, mc: Machine, where: Residency) -> dict[str, bytes]:
    cols = mc.mac_cols
    return {
        "weights": fc_weight_bytes(layer, cols),
        "params": param_bytes(layer.requant.stages, layer.channels, cols),
    }


def emit_fc(st: Stream, layer: MacLayer, lp: LayerPlan) -> None:
    """The steps of the layer's `FcCut`, in the slots the plan gave them."""
    cut = lp.slots.cut
    assert isinstance(cut, FcCut)
    x, w, p, out = lp.inputs[0], lp.address("weights"), lp.address("params"), lp.output
    cols = st.machine.mac_cols
    k, n = layer.weight.shape
    kt = ceil_div(k, cols)
    sets = len(layer.requant.stages)
    m_total, gk, groups, mt = cut.m_total, cut.gk, cut.groups, cut.mt
    in_slots, w_slots, p_slots = (SlotWaits(cut.areas[b]) for b in ("input", "weight", "params"))
    for (c, g, j), use in zip(cut.steps, lp.slots.uses, strict=True):
        m0 = c * mt
        rows = min(mt, m_total - m0)
        width = min(cols, n - j * cols)
        tiles = min(gk, kt - g * gk)
        loads = []
        ib = in_slots.take(use["input"], st)
        if use["input"].miss:
            for t in range(tiles):
                kk = (g * gk + t) * cols
                loads += dma_load("input", ib + t * mt, x + m0 * k + kk, rows, min(cols, k - kk), k)
        wb = w_slots.take(use["weight"], st)
        if use["weight"].miss:
            dram = w + (j * kt + g * gk) * cols * cols
            loads += dma_load("weight", wb, dram, tiles * cols, cols, cols)
        pb = p_slots.take(use["params"], st)
        if use["params"].miss:
            loads += dma_load("params", pb, p + j * sets * cols * RECORD_BYTES, sets * cols,
                               RECORD_BYTES, RECORD_BYTES)  # fmt: skip
        st.deliver(loads)
        acc = j * mt if groups > 1 else 0
        st.code.append(
            Instruction.of(
                "matmul",
                in_=ib,
                w=wb,
                acc=acc,
                m=rows,
                k_tiles=tiles,
                accumulate=int(g > 0),
                in_step=1,
                k_step=mt,
                buf="input",
            )
        )
        last = g == groups - 1
        if last:
            ob = st.out_slot(cut.areas["output"])
            epilogue(st.code, layer.requant, 0, acc, rows, pb, ob, cols)
        release = st.release()
        in_slots.used(use["input"].slot, release)
        w_slots.used(use["weight"].slot, release)
        p_slots.used(use["params"].slot, release)
        if last:
            st.store([dma_store("output", ob, out + m0 * n + j * cols, rows, width, n)])
    st.end_layer()


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
    stages = [*(s for i in layer.inputs for s in i.stages), *layer.requant.stages]
    if width is None:
        return stages
    return [
        Stage(np.resize(s.bias, width), np.resize(s.multiplier, width), np.resize(s.shift, width),
              s.rounding)
        for s in stages
    ]  # fmt: skip


def vector_shape(layer: VectorLayer, cols: int, by_channel: bool = False) -> tuple[int, int]:
    """(rows, row length) of the layer's stream; `by_channel` (an operand arrives on chip,
    a pixel per row) forces one row per last-axis vector."""
    uniform = all(
        np.all(s.multiplier == s.multiplier[0])
        and np.all(s.shift == s.shift[0])
        and not np.any(s.bias)
        for s in vector_stages(layer)
    )
    return _flat(layer.shape, uniform and not by_channel, cols)


def _chunk_rows(mc: Machine, per_row: int, extra_cap: int, out_rows: int | None = None) -> int:
    """Rows per step of a row-streamed layer: two input and two output slots."""
    in_rows = mc.buffer("input").rows
    out_rows = mc.buffer("output").rows if out_rows is None else out_rows
    cap = min(MAX_M, extra_cap, out_rows // 2, in_rows // (2 * per_row))
    if cap < 1:
        raise ValueError("the buffers cannot hold two rows of this layer")
    return cap


@dataclass(frozen=True)
class RowsCut(Cut):
    """A row-streamed layer (elementwise or table) in steps (chunk of `mt` rows, block of
    the array width) over `m_total` rows of `c` bytes."""

    m_total: int
    c: int
    mt: int
    steps: tuple[tuple[int, int], ...]  # (chunk, block)


def vector_cut(layer: VectorLayer, mc: Machine, where: Residency) -> RowsCut:
    """Each step loads every operand not on chip into one input slot and the block's
    record sets into a params slot; `where.out_area` is the output rows it may use."""
    cols = mc.mac_cols
    m_total, c = vector_shape(layer, cols, where.by_channel)
    ni = len(layer.inputs)
    sets = len(vector_stages(layer))
    out_base, out_rows = where.out_area
    mt = _chunk_rows(mc, ni, mc.buffer("accumulator").rows // ni, out_rows)
    nb = ceil_div(c, cols)
    p_count = slot_count(nb, sets * cols, mc.buffer("params").rows, "params")
    steps = tuple((chunk, j) for chunk in range(ceil_div(m_total, mt)) for j in range(nb))
    areas = {
        "input": SlotArea(2, ni * mt),
        "params": SlotArea(p_count, sets * cols),
        "output": SlotArea(2, mt, out_base),
    }
    keys = tuple({"input": step, "params": step[1]} for step in steps)
    return RowsCut(areas, keys, m_total, c, mt, steps)


def vector_constants(layer: VectorLayer, mc: Machine, where: Residency) -> dict[str, bytes]:
    cols = mc.mac_cols
    _, width = vector_shape(layer, cols, where.by_channel)
    return {"params": param_bytes(vector_stages(layer, width), width, cols)}


def emit_vector(st: Stream, layer: VectorLayer, lp: LayerPlan) -> None:
    """An elementwise layer. With an on-chip input (`OnChipRows`), operand
    `lp.chip_operand` is already in the output buffer, left there by the layer before."""
    cut = lp.slots.cut
    assert isinstance(cut, RowsCut)
    xs, p, out, chip_in = lp.inputs, lp.address("params"), lp.output, lp.residency.chip_in
    chip_operand = lp.chip_operand
    cols = st.machine.mac_cols
    m_total, c, mt = cut.m_total, cut.c, cut.mt
    sets = len(vector_stages(layer))
    in_slots, p_slots = SlotWaits(cut.areas["input"]), SlotWaits(cut.areas["params"])
    # add and sub combine in the second operand's widen when its scales fit that pass
    fused = (
        layer.op in ("add", "sub") and len(layer.inputs) == 2 and len(layer.inputs[1].stages) <= 1
    )
    first_set = []  # each input's first record set
    k = 0
    for operand in layer.inputs:
        first_set.append(k)
        k += len(operand.stages)
    for (chunk, j), use in zip(cut.steps, lp.slots.uses, strict=True):
        m0 = chunk * mt
        rows = min(mt, m_total - m0)
        width = min(cols, c - j * cols)
        ib = in_slots.take(use["input"], st)
        loads = [
            load
            for i, a in enumerate(xs)
            if i != chip_operand
            for load in dma_load("input", ib + i * mt, a + m0 * c + j * cols, rows, width, c)
        ]
        pb = p_slots.take(use["params"], st)
        if use["params"].miss:
            loads += dma_load("params", pb, p + j * sets * cols * RECORD_BYTES, sets * cols,
                               RECORD_BYTES, RECORD_BYTES)  # fmt: skip
        st.deliver(loads)
        ob = st.out_slot(cut.areas["output"])
        for i, operand in enumerate(layer.inputs):
            source, row = ("input", ib + i * mt)
            if i == chip_operand:
                assert isinstance(chip_in, OnChipRows)
                source, row = "output", chip_in.base + j * chip_in.pixels + m0
            combine = layer.op if i > 0 and fused and layer.op else "set"
            acc = 0 if fused else i * mt
            params = [pb + (first_set[i] + n) * cols for n in range(len(operand.stages))]
            scaled = {"scaled": 0, "params": 0, "round": "single"}
            if operand.stages:  # the first i32 -> i32 rescale rides in the widen
                scaled = {"scaled": 1, "params": params[0], "round": operand.stages[0].rounding}
            widen = Instruction.of("widen", buf=source, in_=row, acc=acc, rows=rows,
                                   zp=operand.zp, shift=operand.shift, combine=combine,
                                   **scaled)  # fmt: skip
            st.code.append(widen)
            for n, stage in enumerate(operand.stages[1:], 1):
                st.code.append(
                    Instruction.of(
                        "scale", acc=acc, rows=rows, params=params[n], round=stage.rounding
                    )
                )
        if layer.op is not None and not fused:
            st.code.append(
                Instruction.of("alu", op=layer.op, dst=0, src=mt, rows=rows, use_imm=0, imm=0)
            )
        epilogue(st.code, layer.requant, k, 0, rows, pb, ob, cols)
        release = st.release()
        in_slots.used(use["input"].slot, release)
        p_slots.used(use["params"].slot, release)
        st.store([dma_store("output", ob, out + m0 * c + j * cols, rows, width, c)])
    st.end_layer()


def table_cut(layer: TableLayer, mc: Machine, where: Residency) -> RowsCut:
    m_total, c = _flat(layer.shape, True, mc.mac_cols)
    mt = _chunk_rows(mc, 1, MAX_M)
    steps = tuple(
        (chunk, j)
        for chunk in range(ceil_div(m_total, mt))
        for j in range(ceil_div(c, mc.mac_cols))
    )
    areas = {"input": SlotArea(2, mt), "output": SlotArea(2, mt)}
    return RowsCut(areas, tuple({"input": step} for step in steps), m_total, c, mt, steps)


def table_constants(layer: TableLayer, mc: Machine, where: Residency) -> dict[str, bytes]:
    return {"luts": layer.table.tobytes()}


def emit_table(st: Stream, layer: TableLayer, lp: LayerPlan) -> None:
    cut = lp.slots.cut
    assert isinstance(cut, RowsCut)
    x, table, out = lp.inputs[0], lp.address("table"), lp.output
    cols = st.machine.mac_cols
    m_total, c, mt = cut.m_total, cut.c, cut.mt
    in_slots = SlotWaits(cut.areas["input"])
    first = dma_load("lut", 0, table, 1, 256, 256)
    for (chunk, j), use in zip(cut.steps, lp.slots.uses, strict=True):
        m0 = chunk * mt
        rows = min(mt, m_total - m0)
        width = min(cols, c - j * cols)
        ib = in_slots.take(use["input"], st)
        st.deliver([*first, *dma_load("input", ib, x + m0 * c + j * cols, rows, width, c)])
        first = []
        ob = st.out_slot(cut.areas["output"])
        st.code.append(Instruction.of("lut", buf="input", in_=ib, out=ob, rows=rows, table=0))
        in_slots.used(use["input"].slot, st.release())
        st.store([dma_store("output", ob, out + m0 * c + j * cols, rows, width, c)])
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
    `width` bytes, a buffer row), then runs of equal length and equal strides.

    Blocks copy independently, so the pieces may be taken in any order; two are tried
    and the one giving fewer blocks kept. Source by source in output order: a long run
    (a pixel of 512 channels) is one block of consecutive rows. Source by source, the
    k-th row-sized piece of every run together: a concat along the last axis, or a run
    of three rows per pixel (48 channels), is then one strided block over all pixels
    instead of a block a pixel. Computed on arrays: a transpose is a gather of single
    bytes, millions for one layer."""
    if code.size == 0:
        return []
    code = code.astype(np.int64, copy=False)
    pad = code < 0
    step = np.diff(code)
    joined = np.where(pad[1:], pad[:-1], ~pad[:-1] & (step == 1))
    starts = np.concatenate([[0], np.nonzero(~joined)[0] + 1])
    ends = np.concatenate([starts[1:], [code.size]])
    # Split runs longer than a row into row-sized pieces.
    count = -(-(ends - starts) // width)
    first = np.repeat(starts, count)
    piece = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    dst = first + piece * width
    length = np.minimum(width, np.repeat(ends, count) - dst)
    c = code[dst]
    source = np.where(c < 0, -1, c >> SOURCE_BITS)
    orders = (np.lexsort((dst, source)), np.lexsort((dst, length, piece, source)))
    tries = [_greedy_blocks(dst[o], length[o], c[o], source[o]) for o in orders]
    return min(tries, key=len)


def _greedy_blocks(
    dst: np.ndarray, length: np.ndarray, c: np.ndarray, source: np.ndarray
) -> list[_Block]:
    """Blocks from pieces in the order given, greedy from the front: a block's first two
    pieces fix its strides and it takes the next pieces while they keep them (up to the
    DMA's row and stride limits)."""
    src = c & ((1 << SOURCE_BITS) - 1)
    # pair k joins piece k + 1 to piece k when they could share a block, with its strides.
    ds, ss = np.diff(dst), np.diff(src)
    padded = source[:-1] < 0
    pair_ok = (length[1:] == length[:-1]) & (source[1:] == source[:-1]) & (ds <= MAX_STRIDE)
    pair_ok &= (ds >= 0) & (padded | ((ss >= 0) & (ss <= MAX_STRIDE)))
    ss = np.where(padded, 0, ss)  # a pad block has no source stride
    # Maximal runs of pairs that are joinable with equal strides: run_end[k] is the end
    # (exclusive) of the run holding pair k.
    n = dst.size
    same = pair_ok[1:] & pair_ok[:-1] & (ds[1:] == ds[:-1]) & (ss[1:] == ss[:-1])
    breaks = np.nonzero(~same)[0] + 1
    run_end = np.empty(max(n - 1, 0), np.int64)
    bounds = np.concatenate([[0], breaks, [n - 1]])
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        run_end[a:b] = b
    dst_l, len_l, src_l, source_l = dst.tolist(), length.tolist(), src.tolist(), source.tolist()
    ok_l, ds_l, ss_l, end_l = pair_ok.tolist(), ds.tolist(), ss.tolist(), run_end.tolist()
    blocks: list[_Block] = []
    i = 0
    while i < n:
        rows = 1
        if i < n - 1 and ok_l[i]:
            rows = min(end_l[i] - i + 1, MAX_DMA_ROWS)
        dst_stride, src_stride = (ds_l[i], ss_l[i]) if rows > 1 else (len_l[i], len_l[i])
        origin = None if source_l[i] < 0 else source_l[i]
        blocks.append(_Block(origin, src_l[i], src_stride, dst_l[i], dst_stride, rows, len_l[i]))
        i += rows
    return blocks


@dataclass(frozen=True)
class MoveCut(Cut):
    """The gather's DMA blocks in batches, each staged in one of two input slots."""

    batches: tuple[tuple[_Block, ...], ...]


def move_cut(layer: MoveLayer, mc: Machine, where: Residency) -> MoveCut:
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
    keys = tuple({"input": index} for index in range(len(batches)))
    return MoveCut({"input": SlotArea(2, slot_rows)}, keys, tuple(map(tuple, batches)))


def move_constants(layer: MoveLayer, mc: Machine, where: Residency) -> dict[str, bytes]:
    return {}


def emit_move(st: Stream, layer: MoveLayer, lp: LayerPlan) -> None:
    """DMA only: loads stage the blocks in an input slot, the store engine writes them out
    (compute just passes the tokens along). Two slots let a batch load while the last stores."""
    cut = lp.slots.cut
    assert isinstance(cut, MoveCut)
    xs, out = lp.inputs, lp.output
    in_slots = SlotWaits(cut.areas["input"])
    previous = None
    for batch, use in zip(cut.batches, lp.slots.uses, strict=True):
        row = in_slots.take(use["input"], st)
        loads, stores = [], []
        for b in batch:
            if b.source is None:
                loads += pad_rows(row, b.rows, layer.pad)
            else:
                loads += dma_load(
                    "input", row, xs[b.source] + b.src, b.rows, b.row_bytes, b.src_stride
                )
            stores.append(dma_store("input", row, out + b.dst, b.rows, b.row_bytes, b.dst_stride))
            row += b.rows
        st.deliver(loads)
        st.store(stores)
        if previous is not None:  # the previous batch's stores are done: its slot is free
            st.wait_store()
            in_slots.used(previous, st.release())
        previous = use["input"].slot
    st.end_layer()
