"""The instruction stream of `tosa-to-npu`: token protocol, buffer slots, DMA helpers.

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
"""

from __future__ import annotations

import numpy as np

from qdialect.lowering.npu_graph import Requant, Stage
from qdialect.npu.machine import Machine

RECORD_BYTES = 16
MAX_M = 1023  # the matmul's m field


def ceil_div(a: int, b: int) -> int:
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
            self.lines += [*coalesce(loads), "signal queue=ld2cp", "wait queue=ld2cp"]

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
            *coalesce(stores),
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


def dma_load(buf, row, dram, rows, row_bytes, stride, pad=0, top=0, bottom=0) -> list[str]:
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


def coalesce(dmas: list[str]) -> list[str]:
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


def pad_rows(row: int, count: int, pad: int) -> list[str]:
    return [
        line
        for s in range(0, count, 15)
        for line in dma_load("input", row + s, 0, 0, 0, 0, pad, min(15, count - s))
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


def param_bytes(stages: list[Stage], n: int, cols: int) -> bytes:
    """Records block by block: block j holds every stage's `cols` records in turn."""
    for stage in stages:
        if np.any(np.abs(stage.bias) >= 1 << 31):
            raise ValueError("a folded bias does not fit int32")
    nb = ceil_div(n, cols)
    blocks = [_records(s, n, cols).reshape(nb, cols, RECORD_BYTES) for s in stages]
    return np.ascontiguousarray(np.stack(blocks, axis=1)).tobytes()


def epilogue(lines, requant: Requant, first_set: int, acc: int, rows: int, params: int,
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


def slot_count(want: int, rows: int, have: int, what: str) -> int:
    if rows > have:
        raise ValueError(f"a step needs {rows} {what} rows; the machine has {have}")
    return max(1, min(want, have // max(rows, 1)))
