"""What each instruction touches: buffer row ranges and DRAM byte ranges, from the ISA table's meaning.

Used by the static verifier (`npu.program` checks every access against the
machine description before anything runs); the simulator traps the same
faults dynamically. Both need to know which engine runs an instruction
(`engine_of`), so it lives here, and the verifier never imports the simulator.
"""

from __future__ import annotations

from dataclasses import dataclass

from qdialect.npu.encoding import Instruction
from qdialect.npu.isa import POOL_OPS, QUEUES
from qdialect.npu.machine import BUFFERS, Machine

ACCESS = {
    "load": {"write": {"input", "weight", "params", "lut"}, "read": set()},
    "store": {"read": {"input", "output", "accumulator"}, "write": set()},  # input: DMA moves
    "compute": {
        "read": {"input", "weight", "params", "lut", "accumulator", "output"},
        "write": {"accumulator", "output"},
    },
}
"""Which engine may read and write which buffer."""

QUEUE_ENDS = {"ld2cp": ("load", "compute"), "cp2ld": ("compute", "load"),
              "cp2st": ("compute", "store"), "st2cp": ("store", "compute")}  # fmt: skip
"""Each token queue's (producing, consuming) engine."""


def engine_of(inst: Instruction) -> str:
    """The engine that runs `inst`: a queue's producer signals, its consumer waits."""
    mnemonic = inst.opcode.mnemonic
    if mnemonic in ("signal", "wait"):
        producer, consumer = QUEUE_ENDS[QUEUES[inst["queue"]]]
        return producer if mnemonic == "signal" else consumer
    return inst.opcode.engine


@dataclass(frozen=True)
class Access:
    buffer: str  # a buffer name, or "dram"
    mode: str  # read or write
    start: int  # first row (buffers) or byte (dram)
    end: int  # one past the last


def accesses(inst: Instruction, machine: Machine) -> list[Access]:
    v = inst.values
    cols = machine.mac_cols
    m = inst.opcode.mnemonic

    def span(first: int, count: int, step: int = 1) -> tuple[int, int]:
        return first, first + (count - 1) * step + 1 if count else first

    if m in ("load", "load2d"):
        buf = BUFFERS[v["buf"]]
        blocks = v.get("blocks", 1)
        last = v["dram"] + max(blocks - 1, 0) * v.get("block_stride", 0)  # the last block's
        dram_end = last + (v["rows"] - 1) * v["stride"] + v["row_bytes"] if v["rows"] else last
        total = blocks * (v["pad_top"] + v["rows"] + v["pad_bottom"])
        return [
            Access(buf, "write", v["row"], v["row"] + total),
            Access("dram", "read", v["dram"], max(dram_end, v["dram"])),
        ]
    if m in ("store", "store2d"):
        buf = BUFFERS[v["buf"]]
        blocks = v.get("blocks", 1)
        last = v["dram"] + max(blocks - 1, 0) * v.get("block_stride", 0)
        dram_end = last + (v["rows"] - 1) * v["stride"] + v["row_bytes"] if v["rows"] else last
        last_row = v["row"] + max(blocks - 1, 0) * v.get("row_step", 0)
        return [
            Access(buf, "read", v["row"], max(last_row + v["rows"], v["row"])),
            Access("dram", "write", v["dram"], max(dram_end, v["dram"])),
        ]
    if m == "fill":
        return [Access(BUFFERS[v["buf"]], "write", v["row"], v["row"] + v["rows"])]
    if m in ("matmul", "dwmac"):
        last_in = (
            v["in"] + max(v["m"] - 1, 0) * v["in_step"] + max(v["k_tiles"] - 1, 0) * v["k_step"]
        )
        w_rows = v["k_tiles"] * (cols if m == "matmul" else 1)
        out = [
            Access(BUFFERS[v["buf"]], "read", v["in"], last_in + 1),
            Access("weight", "read", v["w"], v["w"] + w_rows),
            Access("accumulator", "write", v["acc"], v["acc"] + v["m"]),
        ]
        if v["accumulate"]:
            out.append(Access("accumulator", "read", v["acc"], v["acc"] + v["m"]))
        return out
    if m == "alu":
        out = [
            Access("accumulator", "read", v["dst"], v["dst"] + v["rows"]),
            Access("accumulator", "write", v["dst"], v["dst"] + v["rows"]),
        ]
        if not v["use_imm"]:
            out.append(Access("accumulator", "read", v["src"], v["src"] + v["rows"]))
        return out
    if m == "requant":
        return [
            Access("accumulator", "read", v["acc"], v["acc"] + v["rows"]),
            Access("params", "read", v["params"], v["params"] + cols),
            Access("output", "write", v["out"], v["out"] + v["rows"]),
        ]
    if m == "scale":
        return [
            Access("accumulator", "read", v["acc"], v["acc"] + v["rows"]),
            Access("params", "read", v["params"], v["params"] + cols),
            Access("accumulator", "write", v["acc"], v["acc"] + v["rows"]),
        ]
    if m == "widen":
        out = [
            Access(BUFFERS[v["buf"]], "read", v["in"], v["in"] + v["rows"]),
            Access("accumulator", "write", v["acc"], v["acc"] + v["rows"]),
        ]
        if v["scaled"]:
            out.append(Access("params", "read", v["params"], v["params"] + cols))
        if v["combine"]:
            out.append(Access("accumulator", "read", v["acc"], v["acc"] + v["rows"]))
        return out
    if m == "lut":
        return [
            Access(BUFFERS[v["buf"]], "read", v["in"], v["in"] + v["rows"]),
            Access("lut", "read", v["table"], v["table"] + 1),
            Access("output", "write", v["out"], v["out"] + v["rows"]),
        ]
    if m == "pool":
        assert POOL_OPS  # max and sum read the same rows
        last = (
            v["in"] + max(v["rows"] - 1, 0) * v["row_step"] + max(v["taps"] - 1, 0) * v["tap_step"]
        )
        return [
            Access(BUFFERS[v["buf"]], "read", v["in"], last + 1),
            Access("accumulator", "write", v["acc"], v["acc"] + v["rows"]),
        ]
    return []  # halt, signal, wait


def check(inst: Instruction, machine: Machine, engine: str) -> str | None:
    """The first static fault of `inst` on `machine` (permissions, bounds), or None."""
    v = inst.values
    m = inst.opcode.mnemonic
    for a in accesses(inst, machine):
        if a.buffer == "dram":
            if a.end > machine.dram_bytes:
                return f"DRAM bytes [{a.start}, {a.end}) exceed the {machine.dram_bytes}-byte DRAM"
            continue
        if a.buffer not in ACCESS[engine][a.mode]:
            return f"the {engine} engine may not {a.mode} buffer '{a.buffer}'"
        rows = machine.buffer(a.buffer).rows
        if a.end > rows:
            return f"rows [{a.start}, {a.end}) of buffer '{a.buffer}' exceed its {rows} rows"
    if m in ("load", "load2d", "store", "store2d"):
        width = machine.buffer(BUFFERS[v["buf"]]).row_bytes
        used = v["row_bytes"] + v.get("pad_left", 0)
        if used > width:
            return f"{used} bytes per row exceed the {width}-byte rows of '{BUFFERS[v['buf']]}'"
    return None
