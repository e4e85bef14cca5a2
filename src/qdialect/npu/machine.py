"""The NPU machine description: one JSON file read by the compiler, encoder and simulator.

A description names the MAC array, the on-chip buffers (size and row width in
bytes), the DRAM (size, bus width, latency, and optionally how many DMA requests may
be in flight: 1 when not given) and the clock. `read_machine`
validates every field with a message naming it; `load_machine` remembers what
it read for as long as the file is unchanged, so the verifier can ask for its
program's description once per instruction without re-reading it each time.
`Machine.digest` is what a binary records so the simulator refuses code built
for another machine.
Shipped descriptions live in `qdialect/npu/machines/` (`default`, `small`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

BUFFERS = ("input", "weight", "accumulator", "output", "params", "lut")
"""On-chip buffers, in the order their ids are encoded."""

SHIPPED = Path(__file__).parent / "machines"


class MachineError(ValueError):
    """An invalid machine description (the message names the file and field)."""


@dataclass(frozen=True)
class Buffer:
    name: str
    bytes: int
    row_bytes: int

    @property
    def rows(self) -> int:
        return self.bytes // self.row_bytes


@dataclass(frozen=True)
class Machine:
    name: str
    clock_mhz: int
    mac_rows: int
    mac_cols: int
    buffers: dict[str, Buffer]
    dram_bytes: int
    bus_bytes: int
    dram_latency: int
    source: str  # canonical JSON text, hashed into binaries
    dram_outstanding: int = 1  # DMA requests in flight at once (timing.DmaTiming)

    def buffer(self, name: str) -> Buffer:
        return self.buffers[name]

    def digest(self) -> int:
        """First 8 bytes of the SHA-256 of the canonical description, as an integer."""
        return int.from_bytes(hashlib.sha256(self.source.encode()).digest()[:8], "little")


LIMIT = 1 << 32
"""The largest size or count a description may give (4 GiB of DRAM, say): the simulator
allocates what a description declares, so a larger one is refused, not attempted."""


def _field(data: dict, path: str, where: str, minimum: int = 1) -> int:
    node = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise MachineError(f"{where}: missing field '{path}'")
        node = node[key]
    if isinstance(node, bool) or not isinstance(node, int) or not minimum <= node <= LIMIT:
        shown = repr(node) if not isinstance(node, int) or node < LIMIT else "a larger value"
        raise MachineError(
            f"{where}: '{path}' must be an integer in {minimum}..{LIMIT}, got {shown}"
        )
    return node


MAX_OUTSTANDING = 256
"""The most DMA requests a description may keep in flight (AXI masters allow a few dozen)."""


def _outstanding(data: dict, where: str) -> int:
    """`dram.outstanding`: DMA requests in flight at once; 1 when the description has none."""
    if "outstanding" not in data["dram"]:
        return 1
    value = _field(data, "dram.outstanding", where)
    if value > MAX_OUTSTANDING:
        raise MachineError(
            f"{where}: 'dram.outstanding' must be an integer in 1..{MAX_OUTSTANDING}, got {value}"
        )
    return value


def parse_machine(text: str, where: str = "<machine>") -> Machine:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise MachineError(f"{where}: not JSON: {err}") from None
    except RecursionError:
        raise MachineError(f"{where}: not a machine description (nested too deeply)") from None
    except ValueError as err:  # e.g. an integer literal of thousands of digits
        raise MachineError(f"{where}: not a machine description ({err})") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise MachineError(f"{where}: expected an object with a string 'name'")
    rows, cols = _field(data, "mac_array.rows", where), _field(data, "mac_array.cols", where)
    if rows != cols:
        raise MachineError(
            f"{where}: 'mac_array.rows' ({rows}) must equal 'mac_array.cols' ({cols}): the "
            "array multiplies one input row by a cols x cols weight tile a cycle; "
            "rectangular arrays are not modelled"
        )
    if _field(data, "mac_array.input_bits", where) != 8:
        raise MachineError(f"{where}: 'mac_array.input_bits' must be 8 (int8 inputs)")
    if _field(data, "mac_array.accumulator_bits", where) != 32:
        raise MachineError(f"{where}: 'mac_array.accumulator_bits' must be 32")
    buffers = {}
    for name in BUFFERS:
        size = _field(data, f"buffers.{name}.bytes", where)
        row = _field(data, f"buffers.{name}.row_bytes", where)
        if size % row:
            raise MachineError(
                f"{where}: 'buffers.{name}.bytes' ({size}) is not a multiple of its row_bytes ({row})"
            )
        buffers[name] = Buffer(name, size, row)
    expected_rows = {"input": cols, "weight": cols, "output": cols, "accumulator": 4 * cols}
    for name, want in expected_rows.items():
        if buffers[name].row_bytes != want:
            raise MachineError(
                f"{where}: 'buffers.{name}.row_bytes' must be {want} for a {rows}x{cols} MAC array"
            )
    if buffers["lut"].row_bytes != 256:
        raise MachineError(f"{where}: 'buffers.lut.row_bytes' must be 256 (one i8 table)")
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return Machine(
        name=data["name"],
        clock_mhz=_field(data, "clock_mhz", where),
        mac_rows=rows,
        mac_cols=cols,
        buffers=buffers,
        dram_bytes=_field(data, "dram.bytes", where),
        bus_bytes=_field(data, "dram.bus_bytes", where),
        dram_latency=_field(data, "dram.latency_cycles", where, minimum=0),
        source=canonical,
        dram_outstanding=_outstanding(data, where),
    )


def _path(name_or_path: str) -> Path:
    path = Path(name_or_path)
    if not path.suffix and (SHIPPED / f"{name_or_path}.json").exists():
        return SHIPPED / f"{name_or_path}.json"
    return path


def _unreadable(name_or_path: str, err: OSError) -> MachineError:
    shipped = ", ".join(sorted(p.stem for p in SHIPPED.glob("*.json")))
    return MachineError(
        f"cannot read machine description '{name_or_path}': {err.strerror} (shipped: {shipped})"
    )


def read_machine(name_or_path: str = "default") -> Machine:
    """A shipped description by name (`default`, `small`) or a JSON file by path, read now."""
    path = _path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise _unreadable(name_or_path, err) from None
    except UnicodeDecodeError:
        raise MachineError(f"{path}: not a machine description (not UTF-8 text)") from None
    return parse_machine(text, str(path))


def load_machine(name_or_path: str = "default") -> Machine:
    """`read_machine`, remembered: a shipped description (package data, never edited) by
    its name, a file by its version (modification time and size), so a changed file is
    read again and an unchanged one costs one `stat`."""
    if name_or_path in _shipped_names():
        return _cached(name_or_path, 0, 0)
    try:
        stat = os.stat(name_or_path)
    except OSError:
        return read_machine(name_or_path)  # raises the error naming the description
    return _cached(name_or_path, stat.st_mtime_ns, stat.st_size)


@functools.cache
def _shipped_names() -> frozenset[str]:
    return frozenset(p.stem for p in SHIPPED.glob("*.json"))


@functools.lru_cache(maxsize=16)
def _cached(name_or_path: str, mtime_ns: int, size: int) -> Machine:
    """Keyed by the file's version as well as its name; errors are not cached."""
    return read_machine(name_or_path)
