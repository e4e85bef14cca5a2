"""When instructions run: the compute engine's two units beside each other, fed in
program order with interlocks on the buffer rows they share, and the DMA engines' transfers
with up to `dram.outstanding` requests in flight.

The compute engine has a MAC array (`matmul`, `dwmac`) and a vector unit (`requant`,
`scale`, `alu`, `widen`, `lut`, `pool`, `fill`), as Ethos-U has its MAC unit and its
output unit and a TPU its matrix unit and its vector unit. Each instruction starts when
its unit is free and no earlier instruction still in flight conflicts with it (one
writes accumulator or output rows the other reads or writes: the hardware's scoreboard,
so the program needs no tokens inside the engine). The engine dispatches an instruction a cycle, in program order,
into its unit's queue (`QUEUE_DEPTH` deep), so one unit runs ahead of the other as far
as the interlocks allow. The array is pipelined: it is busy a pass per output row and k
tile and its results land `rows + cols` cycles later (the fill), so back-to-back
products overlap their fills and only a reader of their rows waits for it; products
accumulating into the rows of the one before them follow it through the pipeline
without waiting. A `signal` from the engine is pushed once everything before it has
finished, so the other engines see only finished work.

A DMA engine (`load`, `store`) issues a transfer a cycle; its data starts `latency`
cycles after the request, or when the bus is done with the transfer before, and takes
`ceil(bytes / bus_bytes)` cycles. At most `outstanding` transfers are in flight: the
next request waits for the oldest to finish (with 1, each transfer costs latency plus
its bytes, one after another). The engine's `signal` is pushed once its transfers have
finished.

The functional result does not depend on any of this: the simulator executes each
engine's instructions in program order, and the interlocks and token rules make the
timing agree with that.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from qdialect.npu.encoding import Instruction
from qdialect.npu.footprint import accesses
from qdialect.npu.machine import Machine

ARRAY_OPS = frozenset({"matmul", "dwmac"})
"""Instructions of the MAC array; every other compute instruction runs on the vector unit."""

QUEUE_DEPTH = 32
"""Instructions each unit's queue holds: the engine dispatches one a cycle, in program
order, into the queue of its unit, and stalls while that queue is full."""

_SHARED = frozenset({"accumulator", "output"})
"""The buffers compute instructions write: the only ones an interlock has to watch."""

Span = tuple[str, str, int, int]  # buffer, read or write, first row, one past the last


@dataclass(frozen=True)
class _InFlight:
    done: int  # the cycle its results are in place
    unit: str
    spans: tuple[Span, ...]


def _spans(inst: Instruction, machine: Machine) -> tuple[Span, ...]:
    return tuple(
        (a.buffer, a.mode, a.start, a.end)
        for a in accesses(inst, machine)
        if a.buffer in _SHARED and a.end > a.start
    )


def _conflict(earlier: tuple[Span, ...], later: tuple[Span, ...]) -> bool:
    for buf, mode, lo, hi in earlier:
        for buf2, mode2, lo2, hi2 in later:
            if buf == buf2 and "write" in (mode, mode2) and lo < hi2 and lo2 < hi:
                return True
    return False


class _EngineClock:
    """What every engine's clock shares: where its next instruction may start (`issue`),
    when everything it has started is done (`done`), and `wait`."""

    def __init__(self) -> None:
        self.issue = 0
        self.done = 0

    def wait(self, token: int) -> tuple[int, int]:
        """A wait's start (once the token is there) and end; nothing after it starts sooner."""
        start = max(self.issue, token)
        self.issue = start + 1
        self.done = max(self.done, start + 1)
        return start, start + 1


class ComputeTiming(_EngineClock):
    """The compute engine's clock: `run` places an instruction, `signal`/`wait` the tokens."""

    def __init__(self, machine: Machine):
        super().__init__()
        self.machine = machine
        self.fill = machine.mac_rows + machine.mac_cols
        self.free = {"array": 0, "vector": 0}
        self.queued = {u: deque(maxlen=QUEUE_DEPTH) for u in ("array", "vector")}  # starts
        self.flight: list[_InFlight] = []

    def run(self, inst: Instruction, cycles: int) -> tuple[int, int]:
        """Place `inst`, whose unit is busy `cycles` (an array instruction's results land
        a fill later); return its start and the cycle its results are in place."""
        unit = "array" if inst.opcode.mnemonic in ARRAY_OPS else "vector"
        spans = _spans(inst, self.machine)
        queued = self.queued[unit]
        dispatch = self.issue
        if len(queued) == QUEUE_DEPTH:  # the unit's queue is full until its oldest starts
            dispatch = max(dispatch, queued[0])
        start = max(dispatch, self.free[unit])
        self.flight = [f for f in self.flight if f.done > dispatch]
        for f in self.flight:
            if f.unit == unit == "array":
                continue  # one pipeline: accumulation into earlier rows follows in order
            if f.done > start and _conflict(f.spans, spans):
                start = f.done
        self.free[unit] = start + cycles
        done = start + cycles + (self.fill if unit == "array" else 0)
        self.flight.append(_InFlight(done, unit, spans))
        queued.append(start)
        self.issue = dispatch + 1
        self.done = max(self.done, done)
        return start, done

    def signal(self) -> tuple[int, int]:
        """A signal's issue cycle and the cycle its token is visible: after all before it."""
        start = self.issue
        self.issue = start + 1
        visible = max(start, self.done) + 1
        self.done = max(self.done, visible)
        return start, visible


class DmaTiming(_EngineClock):
    """A DMA engine's clock: `transfer` places a load or store, `signal`/`wait` the tokens."""

    def __init__(self, machine: Machine):
        super().__init__()
        self.latency = machine.dram_latency
        self.bus = machine.bus_bytes
        self.outstanding = machine.dram_outstanding
        self.bus_free = 0
        self.ends: list[int] = []  # when each transfer in flight finishes, oldest first

    def transfer(self, nbytes: int) -> tuple[int, int]:
        """A transfer of `nbytes`: the cycle its request goes out and the cycle it finishes."""
        start = self.issue
        if len(self.ends) >= self.outstanding:
            start = max(start, self.ends[-self.outstanding])
        data = max(start + self.latency, self.bus_free)
        end = self.bus_free = data + -(-nbytes // self.bus)
        self.ends = [*self.ends[-self.outstanding + 1 :], end] if self.outstanding > 1 else [end]
        self.issue = start + 1 if self.outstanding > 1 else end
        self.done = max(self.done, end)
        return start, end

    def signal(self) -> tuple[int, int]:
        start = self.issue
        visible = max(start, self.done) + 1
        self.issue = visible if self.outstanding == 1 else start + 1
        self.done = max(self.done, visible)
        return start, visible
