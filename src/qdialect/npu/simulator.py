"""Bit-exact NPU simulator: runs decoded instructions, not the compiler's IR.

Three engines — load (DMA in), compute, store (DMA out) — each take their
instructions from the one program in order and synchronize only through the
token queues (`signal` / `wait`). The simulator interleaves them in a seeded
random order: a program whose result depends on that order is missing a
token, and `check_synchronization` reports it by running several orders.

Faults are `SimulatorError`s naming the instruction: buffer or DRAM accesses
out of bounds, an engine touching a buffer it may not, reads of memory never
written, a REQUIRE of TOSA's apply_scale failing, deadlock (every unfinished
engine waits on an empty queue) and tokens left over at the end.

The cycle model: DMA costs the DRAM latency plus bytes / bus width; matmul a
pass per input row and k tile plus the array's fill; the other compute
instructions a row (pool: a row per tap) each. An engine starts an
instruction when it is free and, for `wait`, when the token was signalled.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from qdialect import numerics
from qdialect.npu.encoding import Binary, Instruction
from qdialect.npu.footprint import ACCESS, engine_of
from qdialect.npu.isa import ALU_OPS, COMBINES, POOL_OPS, QUEUES, ROUNDINGS
from qdialect.npu.machine import BUFFERS, Machine
from qdialect.npu.timing import ARRAY_OPS, ComputeTiming, DmaTiming

ENGINES = ("load", "compute", "store")


class SimulatorError(RuntimeError):
    """A fault of the simulated program (the message names the instruction)."""


@dataclass
class Stats:
    cycles: int = 0
    busy: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENGINES, 0))
    """Per engine, the cycles its instructions took (a DMA: request to completion; the
    compute engine: its two units' cycles together), summed: overlapping work counts
    each time, so a figure can exceed `cycles`."""
    units: dict[str, int] = field(default_factory=lambda: {"array": 0, "vector": 0})
    """The compute engine's cycles per unit (`timing.ComputeTiming`)."""
    macs: int = 0
    dram_read: int = 0
    dram_written: int = 0
    instructions: int = 0

    def utilization(self, machine: Machine, useful_macs: int) -> float:
        """The model's MACs over what the array could do in the cycles taken: the field's
        figure (`useful_macs` from the binary's layer map; taps on padding, tile padding
        and repeated work are not useful)."""
        peak = self.cycles * machine.mac_rows * machine.mac_cols
        return useful_macs / peak if peak else 0.0

    def array_busy(self, machine: Machine) -> float:
        """The MACs the array executed (padding included) over its peak: how busy it
        was, not how much of the model's work it did."""
        return self.utilization(machine, self.macs)


class _Memory:
    """A byte array with a written-bytes mask, for uninitialized-read traps.

    The mask is a `bytearray` (1 = written): `find(0, start, end)` checks a range in C
    without building an array, which matters because the simulator reads a few rows at
    a time, millions of times per network."""

    def __init__(self, name: str, size: int):
        self.name = name
        self.data = np.zeros(size, np.uint8)
        self.written = bytearray(size)
        self.mask = np.frombuffer(self.written, np.uint8)  # the same bytes, for numpy

    def check(self, start: int, size: int, what: str) -> None:
        if start < 0 or start + size > self.data.size:
            raise SimulatorError(
                f"{what} bytes [{start}, {start + size}) of {self.name} are out of bounds "
                f"(size {self.data.size})"
            )

    def read(self, start: int, size: int, what: str) -> np.ndarray:
        self.check(start, size, what)
        first = self.written.find(0, start, start + size)
        if first >= 0:
            raise SimulatorError(f"{what} reads {self.name} byte {first}, which was never written")
        return self.data[start : start + size]

    def _spans(self, starts: np.ndarray, size: int, what: str) -> np.ndarray:
        """The byte indices of `size` bytes at each start (one row per start), checked in
        row order as a loop of `check` calls would check them."""
        bad = (starts < 0) | (starts + size > self.data.size)
        if bad.any():
            self.check(int(starts[int(np.argmax(bad))]), size, what)
        return starts[:, None] + np.arange(size)

    def gather(self, starts: np.ndarray, size: int, what: str) -> np.ndarray:
        """`read` of `size` bytes at each of `starts`, as one (len(starts), size) array:
        the same checks and the same first fault as reading them one by one."""
        index = self._spans(starts, size, what)
        written = self.mask[index]
        if not written.all():
            first = int(index.reshape(-1)[int(np.argmin(written.reshape(-1)))])
            raise SimulatorError(f"{what} reads {self.name} byte {first}, which was never written")
        return self.data[index]

    def scatter(self, starts: np.ndarray, rows: np.ndarray, what: str) -> None:
        """`write` of each row of `rows` at its start (rows must not overlap)."""
        index = self._spans(starts, rows.shape[1], what)
        self.data[index] = rows
        self.mask[index] = 1

    def write(self, start: int, values: np.ndarray, what: str) -> None:
        raw = np.ascontiguousarray(values).view(np.uint8).reshape(-1)
        self.check(start, raw.size, what)
        self.data[start : start + raw.size] = raw
        self.written[start : start + raw.size] = _ones(raw.size)


_ONES = memoryview(b"")


def _ones(size: int) -> memoryview:
    """`size` bytes of 1, sliced from one shared buffer grown on demand."""
    global _ONES
    if len(_ONES) < size:
        _ONES = memoryview(b"\x01" * max(size, 2 * len(_ONES)))
    return _ONES[:size]


class Simulator:
    def __init__(self, machine: Machine, program: list[Instruction], seed: int = 0):
        self.machine = machine
        self.program = program
        self.rng = random.Random(seed)
        self.dram = _Memory("DRAM", machine.dram_bytes)
        self.buffers = {n: _Memory(f"buffer '{n}'", machine.buffer(n).bytes) for n in BUFFERS}
        self.stats = Stats()
        self.cols = machine.mac_cols

    # ---- loading a binary ----------------------------------------------------------

    def load_sections(self, binary: Binary) -> None:
        """Copy the binary's weights, params and luts to their DRAM addresses."""
        for name, section in binary.sections.items():
            self.dram.write(
                section.address, np.frombuffer(section.data, np.uint8), f"section '{name}'"
            )

    def set_inputs(self, binary: Binary, arrays: dict[str, np.ndarray]) -> None:
        """Write each manifest input from `arrays` (by name; shape and dtype must match)."""
        missing = [t.name for t in binary.inputs if t.name not in arrays]
        unknown = sorted(set(arrays) - {t.name for t in binary.inputs})
        if missing or unknown:
            parts = [f"missing {', '.join(missing)}"] if missing else []
            parts += [f"unknown {', '.join(unknown)}"] if unknown else []
            raise SimulatorError(f"inputs: {'; '.join(parts)}")
        for t in binary.inputs:
            a = np.asarray(arrays[t.name])
            if a.shape != t.shape or a.dtype != np.dtype(t.dtype):
                raise SimulatorError(
                    f"input '{t.name}' must be {t.dtype}{list(t.shape)}, got {a.dtype}{list(a.shape)}"
                )
            self.dram.write(t.address, np.ascontiguousarray(a), f"input '{t.name}'")

    def get_outputs(self, binary: Binary) -> dict[str, np.ndarray]:
        return {
            t.name: self.dram.read(t.address, t.nbytes, f"output '{t.name}'")
            .copy()
            .view(t.dtype)
            .reshape(t.shape)
            for t in binary.outputs
        }

    # ---- memory helpers -------------------------------------------------------

    def write_dram(self, address: int, data: bytes | np.ndarray) -> None:
        self.dram.write(address, np.frombuffer(bytes(data), np.uint8), "host write")

    def read_dram(self, address: int, size: int) -> bytes:
        return self.dram.read(address, size, "host read").tobytes()

    def _rows(self, buf: str, row: int, count: int, engine: str, mode: str, what: str):
        if buf not in ACCESS[engine][mode]:
            raise SimulatorError(f"{what}: the {engine} engine may not {mode} buffer '{buf}'")
        width = self.machine.buffer(buf).row_bytes
        return row * width, count * width, width

    def _read_rows(self, buf, row, count, engine, what, dtype) -> np.ndarray:
        start, size, width = self._rows(buf, row, count, engine, "read", what)
        raw = self.buffers[buf].read(start, size, what)
        return raw.view(dtype).reshape(count, width // np.dtype(dtype).itemsize)

    def _gather_rows(self, buf: str, rows: np.ndarray, engine: str, what: str) -> np.ndarray:
        """The int8 rows of `buf` at the indices `rows`, in that order: `_read_rows` of one
        row each, at once (same permission, bounds and uninitialized-read checks)."""
        _, _, width = self._rows(buf, 0, 1, engine, "read", what)
        return self.buffers[buf].gather(rows * width, width, what).view(np.int8)

    def _write_rows(self, buf, row, values: np.ndarray, engine, what) -> None:
        start, size, _ = self._rows(buf, row, len(values), engine, "write", what)
        assert np.asarray(values).nbytes == size, (what, buf)  # whole rows only
        self.buffers[buf].write(start, values, what)

    def _lane_dtype(self, buf: str):
        return np.int32 if buf == "accumulator" else np.int8

    # ---- instructions -----------------------------------------------------------

    def _store_block(self, v: dict[str, int], row: int, dram: int, what: str) -> None:
        """`rows` rows of `row_bytes` from buffer row `row` on to DRAM, `stride` apart."""
        buf = BUFFERS[v["buf"]]
        start, _, width = self._rows(buf, row, v["rows"], "store", "read", what)
        if v["row_bytes"] > width:
            raise SimulatorError(
                f"{what}: row_bytes {v['row_bytes']} exceeds the {width}-byte rows of '{buf}'"
            )
        rows = np.arange(v["rows"], dtype=np.int64)
        data = self.buffers[buf].gather(start + rows * width, v["row_bytes"], what)
        if v["rows"] > 1 and v["stride"] < v["row_bytes"]:  # overlapping rows: in order
            for r in range(v["rows"]):
                self.dram.write(dram + r * v["stride"], data[r], what)
        else:
            self.dram.scatter(dram + rows * v["stride"], data, what)
        self.stats.dram_written += v["rows"] * v["row_bytes"]

    def execute(self, inst: Instruction, what: str) -> int:
        """Run one instruction; return the cycles its compute unit is busy (0 for a DMA:
        `DmaTiming` times transfers)."""
        m = inst.opcode.mnemonic
        v = inst.values
        cols = self.cols
        if m in ("load", "load2d"):
            blocks = v.get("blocks", 1)
            buf = BUFFERS[v["buf"]]
            width = self.machine.buffer(buf).row_bytes
            left = v.get("pad_left", 0)
            if left + v["row_bytes"] > width:
                raise SimulatorError(
                    f"{what}: pad_left + row_bytes = {left + v['row_bytes']} exceeds "
                    f"the {width}-byte rows of '{buf}'"
                )
            total = v["pad_top"] + v["rows"] + v["pad_bottom"]
            block = np.full((blocks, total, width), v["pad"] & 0xFF, np.uint8)
            firsts = v["dram"] + np.arange(blocks, dtype=np.int64) * v.get("block_stride", 0)
            starts = firsts[:, None] + np.arange(v["rows"], dtype=np.int64) * v["stride"]
            data = self.dram.gather(starts.reshape(-1), v["row_bytes"], what)
            block[:, v["pad_top"] : v["pad_top"] + v["rows"], left : left + v["row_bytes"]] = (
                data.reshape(blocks, v["rows"], v["row_bytes"])
            )
            self._write_rows(buf, v["row"], block.reshape(-1, width), "load", what)
            self.stats.dram_read += blocks * v["rows"] * v["row_bytes"]
            return 0  # timed by DmaTiming
        if m in ("store", "store2d"):
            for b in range(v.get("blocks", 1)):
                self._store_block(
                    v, v["row"] + b * v.get("row_step", 0), v["dram"] + b * v.get("block_stride", 0),
                    what,
                )  # fmt: skip
            return 0  # timed by DmaTiming
        if m == "fill":
            buf = BUFFERS[v["buf"]]
            dtype = self._lane_dtype(buf)
            info = np.iinfo(dtype)
            if not info.min <= v["value"] <= info.max:
                raise SimulatorError(
                    f"{what}: value {v['value']} does not fit the {np.dtype(dtype)} lanes of '{buf}'"
                )
            lanes = self.machine.buffer(buf).row_bytes // np.dtype(dtype).itemsize
            self._write_rows(
                buf, v["row"], np.full((v["rows"], lanes), v["value"], dtype), "compute", what
            )
            return v["rows"]
        if m == "matmul":
            out = np.zeros((v["m"], cols), np.int64)
            lead = v["in"] + np.arange(v["m"], dtype=np.int64) * v["in_step"]
            for t in range(v["k_tiles"]):
                w = self._read_rows("weight", v["w"] + t * cols, cols, "compute", what, np.int8)
                x = self._gather_rows(BUFFERS[v["buf"]], lead + t * v["k_step"], "compute", what)
                out += x.astype(np.int64) @ w.astype(np.int64)
            if v["accumulate"]:
                out += self._read_rows("accumulator", v["acc"], v["m"], "compute", what, np.int32)
            self._write_rows("accumulator", v["acc"], _wrap32(out), "compute", what)
            self.stats.macs += v["m"] * v["k_tiles"] * cols * cols
            return v["m"] * v["k_tiles"]  # the fill is latency (ComputeTiming)
        if m == "dwmac":
            out = np.zeros((v["m"], cols), np.int64)
            lead = v["in"] + np.arange(v["m"], dtype=np.int64) * v["in_step"]
            w = self._read_rows("weight", v["w"], v["k_tiles"], "compute", what, np.int8)
            for t in range(v["k_tiles"]):
                x = self._gather_rows(BUFFERS[v["buf"]], lead + t * v["k_step"], "compute", what)
                out += x.astype(np.int64) * w[t].astype(np.int64)
            if v["accumulate"]:
                out += self._read_rows("accumulator", v["acc"], v["m"], "compute", what, np.int32)
            self._write_rows("accumulator", v["acc"], _wrap32(out), "compute", what)
            self.stats.macs += v["m"] * v["k_tiles"] * cols
            # mac_rows output rows a pass; the input buffer serves mac_rows rows a cycle
            # from as many banks, so rows in_step apart take in_step cycles a pass.
            passes = -(-v["m"] // self.machine.mac_rows)
            return passes * v["k_tiles"] * max(v["in_step"], 1)
        if m == "alu":
            a = self._read_rows(
                "accumulator", v["dst"], v["rows"], "compute", what, np.int32
            ).astype(np.int64)
            if v["use_imm"]:
                b = np.full_like(a, v["imm"])
            else:
                b = self._read_rows(
                    "accumulator", v["src"], v["rows"], "compute", what, np.int32
                ).astype(np.int64)
            op = ALU_OPS[v["op"]]
            if op in ("shl", "shr") and (b.min() < 0 or b.max() > 31):
                raise SimulatorError(f"{what}: shift amounts must be 0..31")
            result = {
                "add": lambda: a + b,
                "sub": lambda: a - b,
                "mul": lambda: a * b,
                "min": lambda: np.minimum(a, b),
                "max": lambda: np.maximum(a, b),
                "shl": lambda: a << b,
                "shr": lambda: np.where(b > 0, (a + (np.int64(1) << np.maximum(b - 1, 0))) >> b, a),
            }[op]()
            self._write_rows("accumulator", v["dst"], _wrap32(result), "compute", what)
            return v["rows"]
        if m == "requant":
            acc = self._read_rows(
                "accumulator", v["acc"], v["rows"], "compute", what, np.int32
            ).astype(np.int64)
            if v["lo"] > v["hi"]:
                raise SimulatorError(f"{what}: clamp lo {v['lo']} exceeds hi {v['hi']}")
            scaled = self._scale(acc, v, what)
            out = np.clip(scaled.astype(np.int64) + v["zp"], v["lo"], v["hi"]).astype(np.int8)
            self._write_rows("output", v["out"], out, "compute", what)
            return v["rows"]
        if m == "scale":
            acc = self._read_rows(
                "accumulator", v["acc"], v["rows"], "compute", what, np.int32
            ).astype(np.int64)
            scaled = self._scale(acc, v, what).astype(np.int32)
            self._write_rows("accumulator", v["acc"], scaled, "compute", what)
            return v["rows"]
        if m == "widen":
            buf = BUFFERS[v["buf"]]
            x = self._read_rows(buf, v["in"], v["rows"], "compute", what, np.int8).astype(np.int64)
            value = (x - v["zp"]) << v["shift"]
            if v["scaled"]:
                value = self._scale(_wrap32(value).astype(np.int64), v, what).astype(np.int64)
            combine = COMBINES[v["combine"]]
            if combine != "set":
                acc = self._read_rows(
                    "accumulator", v["acc"], v["rows"], "compute", what, np.int32
                ).astype(np.int64)
                value = acc + value if combine == "add" else acc - value
            self._write_rows("accumulator", v["acc"], _wrap32(value), "compute", what)
            return v["rows"]
        if m == "lut":
            buf = BUFFERS[v["buf"]]
            x = self._read_rows(buf, v["in"], v["rows"], "compute", what, np.int8).astype(np.int64)
            table = self._read_rows("lut", v["table"], 1, "compute", what, np.int8)[0]
            self._write_rows("output", v["out"], table[x + 128], "compute", what)
            return v["rows"]
        if m == "pool":
            buf = BUFFERS[v["buf"]]
            if v["taps"] == 0:
                raise SimulatorError(f"{what}: pool needs at least one tap")
            rows = v["in"] + (np.arange(v["rows"], dtype=np.int64)[:, None] * v["row_step"]
                              + np.arange(v["taps"], dtype=np.int64) * v["tap_step"])  # fmt: skip
            taps = self._gather_rows(buf, rows.reshape(-1), "compute", what).astype(np.int64)
            taps = taps.reshape(v["rows"], v["taps"], cols)
            out = taps.max(axis=1) if POOL_OPS[v["op"]] == "max" else taps.sum(axis=1)
            self._write_rows("accumulator", v["acc"], out.astype(np.int32), "compute", what)
            return v["rows"] * v["taps"]
        raise SimulatorError(f"{what}: '{m}' is not executable here")  # pragma: no cover

    def _scale(self, acc: np.ndarray, v: dict[str, int], what: str) -> np.ndarray:
        """apply_scale_32(acc + bias, M, shift) by the per-column records at `params`."""
        records = self._read_rows("params", v["params"], self.cols, "compute", what, np.uint8)
        bias = records[:, 0:4].copy().view(np.int32).reshape(-1).astype(np.int64)
        mult = records[:, 4:8].copy().view(np.int32).reshape(-1).astype(np.int64)
        shift = records[:, 8].view(np.int8).astype(np.int64)
        try:
            rounding = ROUNDINGS[v["round"]]
            return numerics.apply_scale_32(
                acc + bias, mult, shift, rounding == "double", half_even=rounding == "half_even"
            )
        except numerics.QuantizationError as err:
            raise SimulatorError(f"{what}: {err}") from None

    # ---- scheduling ---------------------------------------------------------------

    def run(
        self,
        trace: list[str] | None = None,
        timeline: list[tuple[int, int, int]] | None = None,
        retired: Callable[[int], None] | None = None,
    ) -> Stats:
        """Run to `halt`. `trace` gets one line per instruction; `timeline` gets
        (instruction index, start cycle, end cycle) per instruction, for per-layer
        figures (the emitter records where each layer's instructions start);
        `retired` is called with each instruction's index once it has run (the
        debugging tools read a layer's output when its last instruction retires)."""
        streams: dict[str, list[tuple[int, Instruction]]] = {e: [] for e in ENGINES}
        halted = False
        for index, inst in enumerate(self.program):
            if inst.opcode.mnemonic == "halt":
                halted = True
                break
            streams[engine_of(inst)].append((index, inst))
        if not halted:
            raise SimulatorError("the program has no 'halt'")
        position = dict.fromkeys(ENGINES, 0)
        tokens: dict[str, list[int]] = {q: [] for q in QUEUES}  # the cycle each token was pushed
        compute = ComputeTiming(self.machine)
        dma = {e: DmaTiming(self.machine) for e in ("load", "store")}
        while True:
            ready = []
            for e in ENGINES:
                if position[e] < len(streams[e]):
                    _, inst = streams[e][position[e]]
                    if inst.opcode.mnemonic != "wait" or tokens[QUEUES[inst["queue"]]]:
                        ready.append(e)
            if not ready:
                blocked = [
                    f"{e} engine at instruction {streams[e][position[e]][0]} "
                    f"({streams[e][position[e]][1].text()})"
                    for e in ENGINES
                    if position[e] < len(streams[e])
                ]
                if blocked:
                    raise SimulatorError(
                        "deadlock: " + "; ".join(blocked) + " wait on empty queues"
                    )
                break
            engine = self.rng.choice(ready)
            index, inst = streams[engine][position[engine]]
            position[engine] += 1
            what = f"instruction {index} ({inst.opcode.mnemonic})"
            mnemonic = inst.opcode.mnemonic
            timing = compute if engine == "compute" else dma[engine]
            if mnemonic == "signal":
                start, end = timing.signal()
                tokens[QUEUES[inst["queue"]]].append(end)  # visible once signalled
                cycles = 1
            elif mnemonic == "wait":
                start, end = timing.wait(tokens[QUEUES[inst["queue"]]].pop(0))
                cycles = 1
            elif engine == "compute":
                cycles = self.execute(inst, what)
                start, end = compute.run(inst, cycles)
                self.stats.units["array" if mnemonic in ARRAY_OPS else "vector"] += cycles
            else:
                self.execute(inst, what)
                start, end = dma[engine].transfer(_dma_bytes(inst))
                cycles = end - start
            self.stats.busy[engine] += cycles
            self.stats.instructions += 1
            if trace is not None:
                trace.append(f"{start:>8} {engine:>7}  {inst.text()}")
            if timeline is not None:
                timeline.append((index, start, end))
            if retired is not None:
                retired(index)
        left = {q: len(t) for q, t in tokens.items() if t}
        if left:
            raise SimulatorError(
                "token imbalance at halt: "
                + ", ".join(f"{n} token(s) left on {q}" for q, n in left.items())
            )
        self.stats.cycles = max(compute.done, *(d.done for d in dma.values()))
        return self.stats


def _dma_bytes(inst: Instruction) -> int:
    """The bytes a load or store moves (its blocks together)."""
    v = inst.values
    return v.get("blocks", 1) * v["rows"] * v["row_bytes"]


def _wrap32(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, np.int64).astype(np.uint32).view(np.int32)


def check_synchronization(
    machine: Machine,
    program: list[Instruction],
    setup,
    outputs: list[tuple[int, int]],
    orders: int = 8,
) -> bytes:
    """Run `orders` random engine interleavings; raise if the DRAM regions `outputs` differ.

    `setup(sim)` writes the inputs. Returns the agreed output bytes.
    """
    results = []
    for seed in range(orders):
        sim = Simulator(machine, program, seed=seed)
        setup(sim)
        try:
            sim.run()
            results.append(b"".join(sim.read_dram(a, n) for a, n in outputs))
        except SimulatorError as err:
            results.append(f"fault: {err}".encode())
    if len(set(results)) > 1:
        raise SimulatorError(
            "missing synchronization: the result depends on the order the engines run in "
            f"({len(set(results))} different outcomes over {orders} orders)"
        )
    if results[0].startswith(b"fault: "):
        raise SimulatorError(results[0][len(b"fault: ") :].decode())
    return results[0]
