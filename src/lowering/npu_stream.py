"""The instruction stream of `tosa-to-npu`: token protocol, slot records, DMA helpers.

Every emitter appends instruction records (`Instruction`, one generic record
keyed by the ISA table) to one `Stream`; nothing is written as assembly text
and parsed back, so a field out of range fails where it is built and text
exists only when a program is printed. The stream owns the token protocol
that orders the engines:

* a *delivery* is a group of loads the load engine finishes with
  `signal ld2cp`, which the compute engine waits for before using them;
* a *release* (`signal cp2ld`) says compute is done with the buffer slots a
  step used; the load engine waits for the release a slot was last used by
  before it loads that slot again (`SlotWaits`), so with two slots the next
  step's loads overlap this step's compute;
* a *store group* (`signal cp2st` .. stores .. `signal st2cp`) hands an
  output slot to the store engine; compute takes the `st2cp` back before it
  writes that slot again, so stores overlap compute too;
* at a layer's end compute waits for all of its stores and releases once
  more, and the next layer's first load waits for every release: a layer
  only reads DRAM its producers have finished writing.

Only loads write the input, weight, params and lut buffers, so the stream knows
which of their rows hold nothing but padding, and a padding-only load whose rows
already hold that padding is left out (`Stream.deliver`): a depthwise layer's
input slot, reused channel block after channel block, keeps its border rows, and
each such load would cost a DMA latency for nothing.

Which slot each step uses is not decided here: an emitter's `Cut` (a pure
function of its layer) names its slot areas and what each step needs in
them, and the plan assigns the slots (`npu_plan.plan_slots`); the stream
only adds the waits those choices need.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from qdialect.lowering.npu_graph import Requant, Stage
from qdialect.npu.encoding import EncodingError, Instruction
from qdialect.npu.machine import BUFFERS, Machine

RECORD_BYTES = 16
MAX_M = 1023  # the matmul's m field


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _token(mnemonic: str, queue: str) -> Instruction:
    return Instruction.of(mnemonic, queue=queue)


class Stream:
    """The program's instruction records and the token counts that keep its engines in step."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self.code: list[Instruction] = []
        self.released = 0  # cp2ld tokens compute has signalled, in program order
        self.taken = 0  # cp2ld tokens the load engine has waited for
        self.pending = 0  # store groups whose st2cp compute has not taken back
        self.out_groups = 0
        # per loadable buffer, each row's padding byte if a load left it all padding, else -1
        self.padding = {
            buf: np.full(machine.buffer(buf).rows, -1, np.int16)
            for buf in ("input", "weight", "params", "lut")
        }

    def load_after(self, release: int) -> None:
        """Make the load engine wait until release number `release` has been signalled."""
        while self.taken < release:
            self.code.append(_token("wait", "cp2ld"))
            self.taken += 1

    def begin_layer(self) -> None:
        self.load_after(self.released)

    def deliver(self, loads: list[Instruction]) -> None:
        if loads:
            dmas = self._drop_known_padding(fold_blocks(coalesce(in_row_order(loads))))
            self.code += [*dmas, _token("signal", "ld2cp"), _token("wait", "ld2cp")]

    def _drop_known_padding(self, loads: list[Instruction]) -> list[Instruction]:
        """`loads` without those that write only padding rows already holding it; the
        rest update what each row is known to hold."""
        kept = []
        for load in loads:
            state = self.padding[BUFFERS[load["buf"]]]
            top, rows, bottom = load["pad_top"], load["rows"], load["pad_bottom"]
            per, blocks, pad = top + rows + bottom, load.values.get("blocks", 1), load["pad"] & 0xFF
            first = load["row"]
            if rows == 0 and np.all(state[first : first + blocks * per] == pad):
                continue
            kept.append(load)
            for base in range(first, first + blocks * per, per):
                state[base : base + per] = pad
                state[base + top : base + top + rows] = -1
        return kept

    def release(self) -> int:
        self.code.append(_token("signal", "cp2ld"))
        self.released += 1
        return self.released

    def out_slot(self, area: SlotArea) -> int:
        """First row of the next store group's slot in the output `area` (its slots in
        turn), once that slot's last store is done."""
        if self.pending >= area.count:
            self.wait_store()
        slot = self.out_groups % area.count
        self.out_groups += 1
        return area.row(slot)

    def wait_store(self) -> None:
        """Compute takes back the oldest pending store group's slot."""
        self.code.append(_token("wait", "st2cp"))
        self.pending -= 1

    def store(self, stores: list[Instruction]) -> None:
        self.code += [
            _token("signal", "cp2st"),
            _token("wait", "cp2st"),
            *fold_blocks(coalesce(stores)),
            _token("signal", "st2cp"),
        ]
        self.pending += 1

    def end_layer(self) -> None:
        while self.pending:
            self.wait_store()
        self.out_groups = 0
        self.release()

    def finish(self) -> list[Instruction]:
        self.load_after(self.released)
        return [*self.code, Instruction.of("halt")]


@dataclass(frozen=True)
class SlotArea:
    """`count` equal slots of `rows` rows each, from row `base` of one buffer."""

    count: int
    rows: int
    base: int = 0

    def row(self, slot: int) -> int:
        return self.base + slot * self.rows


@dataclass(frozen=True)
class SlotUse:
    """The slot a step uses in one buffer: which, its first row, and whether it must be
    loaded (a miss) or already holds what the step needs (a hit)."""

    slot: int
    row: int
    miss: bool


@dataclass(frozen=True)
class Cut:
    """How an emitter cuts its layer for the machine's buffers, computed before emission:
    the slot areas by buffer (`output` for its store groups), and per step what each
    other buffer's slot must hold, as a key (the same key again is a hit). Each emitter
    extends it with its own tiling."""

    areas: Mapping[str, SlotArea]
    keys: tuple[Mapping[str, Hashable], ...]


class SlotWaits:
    """The token side of one buffer's planned slots: a slot is loaded again only after
    the release of its last use (the load engine waits for it)."""

    def __init__(self, area: SlotArea):
        self.free_after = [0] * area.count

    def take(self, use: SlotUse, stream: Stream) -> int:
        """The slot's first row; on a miss the load engine first waits for the slot."""
        if use.miss:
            stream.load_after(self.free_after[use.slot])
        return use.row

    def used(self, slot: int, release: int) -> None:
        self.free_after[slot] = release


MAX_DMA_ROWS = 1023  # the load's rows field
MAX_BLOCKS = 255  # the load2d's blocks field


def dma_load(buf: str, row: int, dram: int, rows: int, row_bytes: int, stride: int,
             pad: int = 0, top: int = 0, bottom: int = 0) -> list[Instruction]:  # fmt: skip
    """One DMA, split into several when it moves more rows than the field holds."""
    loads = []
    start = 0
    while True:
        count = min(MAX_DMA_ROWS, rows - start)
        last = start + count == rows
        loads.append(
            Instruction.of(
                "load",
                buf=buf,
                row=row + (top if start else 0) + start,
                dram=dram + start * stride,
                rows=count,
                row_bytes=row_bytes,
                stride=stride,
                pad=pad,
                pad_top=0 if start else top,
                pad_bottom=bottom if last else 0,
                pad_left=0,
            )
        )
        start += count
        if last:
            return loads


def dma_store(buf: str, row: int, dram: int, rows: int, row_bytes: int,
              stride: int) -> Instruction:  # fmt: skip
    return Instruction.of(
        "store", buf=buf, row=row, dram=dram, rows=rows, row_bytes=row_bytes, stride=stride
    )


def _continues(p: Instruction, n: Instruction) -> bool:
    """`n` moves the next buffer rows and DRAM rows after `p`, the same way."""
    pv, nv = p.values, n.values

    def same(name: str) -> bool:
        return pv.get(name, 0) == nv.get(name, 0)

    return (
        p.opcode is n.opcode
        and all(map(same, ("buf", "row_bytes", "stride", "pad", "pad_left")))
        and pv.get("pad_bottom", 0) == 0
        and nv.get("pad_top", 0) == 0
        and pv["rows"] > 0
        and nv["rows"] > 0
        and nv["row"] == pv["row"] + pv.get("pad_top", 0) + pv["rows"]
        and nv["dram"] == pv["dram"] + pv["rows"] * pv["stride"]
        and pv["rows"] + nv["rows"] <= MAX_DMA_ROWS
    )


def coalesce(dmas: list[Instruction]) -> list[Instruction]:
    """Merge each load or store into the one before it when it continues it: the next
    buffer row and the next DRAM row at the same stride, no padding between (a DMA's
    latency is paid once per instruction, so unpadded image rows go in one)."""
    out: list[Instruction] = []
    for dma in dmas:
        if out and _continues(out[-1], dma):
            merged = {"rows": out[-1]["rows"] + dma["rows"]}
            if "pad_bottom" in dma.values:
                merged["pad_bottom"] = dma["pad_bottom"]
            out[-1] = out[-1].replace(**merged)
        else:
            out.append(dma)
    return out


def in_row_order(loads: list[Instruction]) -> list[Instruction]:
    """The loads of one delivery (all before one token, so in any order) sorted by the
    rows they write, when none overlap: a window layer's rows come interleaved by stride
    phase, and in row order each phase's rows follow each other, ready to coalesce and
    fold. Overlapping loads keep their order (the later write wins)."""
    spans = sorted(
        (i["buf"], i["row"], i["row"] + i["pad_top"] + i["rows"] + i["pad_bottom"], n)
        for n, i in enumerate(loads)
    )
    if any(a[0] == b[0] and b[1] < a[2] for a, b in itertools.pairwise(spans)):
        return loads
    return [loads[n] for *_, n in spans]


_SHAPE = {
    "load": ("buf", "rows", "row_bytes", "stride", "pad", "pad_top", "pad_bottom"),
    "store": ("buf", "rows", "row_bytes", "stride"),
}
"""The fields the blocks of a `load2d` / `store2d` share."""


def _next_block(run: list[Instruction], n: Instruction) -> bool:
    """`n` is one more block of the run: the same shape, as far from the last block in
    the buffer and in DRAM as the run's blocks are apart — a load's right after the last
    one (`load2d` has no row step), a store's any rows on (`store2d` has)."""
    last = run[-1]
    kind = last.opcode.mnemonic
    if n.opcode is not last.opcode or any(n[f] != last[f] for f in _SHAPE[kind]):
        return False
    rows, step = n["row"] - last["row"], n["dram"] - last["dram"]
    if kind == "load":
        if n["pad_left"] or rows != last["pad_top"] + last["rows"] + last["pad_bottom"]:
            return False
    elif rows <= 0:
        return False
    if step <= 0 and not (kind == "load" and n["rows"] == 0):  # padding alone reads no DRAM
        return False
    return len(run) == 1 or (
        step == last["dram"] - run[-2]["dram"] and rows == last["row"] - run[-2]["row"]
    )


def fold_blocks(dmas: list[Instruction]) -> list[Instruction]:
    """Fold each run of loads (stores) that are the same block repeated — a window layer's
    image rows of one stride phase, each with its padding columns; its output rows, each
    a pitch of buffer rows apart — into one `load2d` (`store2d`): one DRAM latency instead
    of one per row. Runs the narrower fields cannot hold stay as they are."""
    out: list[Instruction] = []
    i = 0
    while i < len(dmas):
        run = [dmas[i]]
        kind = run[0].opcode.mnemonic
        if kind in _SHAPE and not (kind == "load" and run[0]["pad_left"]):
            while i + len(run) < len(dmas) and len(run) < MAX_BLOCKS:
                if not _next_block(run, dmas[i + len(run)]):
                    break
                run.append(dmas[i + len(run)])
        i += len(run)
        if len(run) == 1:
            out += run
            continue
        first = run[0]
        fields = {f: first[f] for f in ("row", "dram", *_SHAPE[kind])}
        fields.update(blocks=len(run), block_stride=run[1]["dram"] - first["dram"])
        if kind == "store":
            fields["row_step"] = run[1]["row"] - first["row"]
        try:
            out.append(Instruction.of(f"{kind}2d", **fields))
        except EncodingError:  # an address, a stride or a row count too large for the 2-D form
            out += run
    return out


def pad_rows(row: int, count: int, pad: int) -> list[Instruction]:
    return [
        load
        for s in range(0, count, 15)
        for load in dma_load("input", row + s, 0, 0, 0, 0, pad, min(15, count - s))
    ]


# ---- per-channel records ------------------------------------------------------------


def _records(stage: Stage, n: int, cols: int) -> np.ndarray:
    """(bias, multiplier, shift) records padded to whole blocks with (0, 0, 2), a valid
    scale that gives 0 on unused lanes."""
    padded = ceil_div(n, cols) * cols
    records = np.zeros((padded, RECORD_BYTES), np.uint8)
    records[n:, 8] = 2
    records[:n, 0:4] = np.asarray(stage.bias, np.int32).view(np.uint8).reshape(n, 4)
    records[:n, 4:8] = np.asarray(stage.multiplier, np.int32).view(np.uint8).reshape(n, 4)
    records[:n, 8] = np.asarray(stage.shift, np.int8).view(np.uint8)
    return records


def param_bytes(stages: Sequence[Stage], n: int, cols: int) -> bytes:
    """Records block by block: block j holds every stage's `cols` records in turn."""
    for stage in stages:
        if np.any(np.abs(stage.bias) >= 1 << 31):
            raise ValueError("a folded bias does not fit int32")
    nb = ceil_div(n, cols)
    blocks = [_records(s, n, cols).reshape(nb, cols, RECORD_BYTES) for s in stages]
    return np.ascontiguousarray(np.stack(blocks, axis=1)).tobytes()


def epilogue(code: list[Instruction], requant: Requant, first_set: int, acc: int, rows: int,
             params: int, out: int, cols: int,
             pieces: list[tuple[int, int, int]] | None = None) -> None:  # fmt: skip
    """`scale` for every stage but the last (identity ones skipped), then `requant` of the
    rows to `out`, or of each (accumulator offset, output row, rows) piece."""
    *middle, last = requant.stages
    for i, stage in enumerate(middle):
        if not stage.is_identity():
            code.append(
                Instruction.of(
                    "scale",
                    acc=acc,
                    rows=rows,
                    params=params + (first_set + i) * cols,
                    round=stage.rounding,
                )
            )
    for offset, row, count in pieces or [(0, out, rows)]:
        code.append(
            Instruction.of(
                "requant",
                acc=acc + offset,
                out=row,
                rows=count,
                params=params + (first_set + len(middle)) * cols,
                zp=requant.zp,
                lo=requant.lo,
                hi=requant.hi,
                round=last.rounding,
            )
        )


def slot_count(want: int, rows: int, have: int, what: str) -> int:
    if rows > have:
        raise ValueError(f"a step needs {rows} {what} rows; the machine has {have}")
    return max(1, min(want, have // max(rows, 1)))
