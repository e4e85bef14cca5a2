"""Instructions <-> binary words <-> assembly text, and the `.npub` container, from the ISA table.

Assembly is one instruction per line: the mnemonic, then every field as
`name=value` (any order; integers in decimal or 0x hex; enumerated fields by
name). `#` starts a comment. The disassembler prints every field in table
order, so text -> binary -> text is a fixed point after one round.

The container (little-endian):

    magic "QNPU" | version u16 | reserved u16 | machine digest u64 | section count u32
    then per section: kind u32 | offset u32 | size u32 | DRAM address u32
    then the section payloads (offsets from the file start).

Section kinds: 1 code (16 bytes per instruction), 2 weights, 3 params, 4 luts
(copied to DRAM at their address before the program runs), 5 io (a JSON
manifest of the program's input and output tensors: name, DRAM address,
shape, dtype).
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field

import numpy as np

from qdialect.npu.isa import BY_CODE, BY_MNEMONIC, INSTRUCTION_BITS, OPCODE_BITS, Opcode

INSTRUCTION_BYTES = INSTRUCTION_BITS // 8
MAGIC = b"QNPU"
VERSION = 2
SECTIONS = {"code": 1, "weights": 2, "params": 3, "luts": 4, "io": 5}
DATA_SECTIONS = ("weights", "params", "luts")
_HEADER = struct.Struct("<4sHHQI")
_ENTRY = struct.Struct("<IIII")
_DTYPES = ("int8", "uint8", "int16", "int32")


class EncodingError(ValueError):
    """Malformed assembly, an out-of-range field, or a malformed binary (message says where)."""


@dataclass(frozen=True)
class Instruction:
    opcode: Opcode
    values: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [f.name for f in self.opcode.fields]
        missing = [n for n in names if n not in self.values]
        extra = [n for n in self.values if n not in names]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"unknown {', '.join(extra)}")
            raise EncodingError(f"'{self.opcode.mnemonic}': {'; '.join(parts)}")
        for f in self.opcode.fields:
            v = self.values[f.name]
            if not f.lo <= v <= f.hi:
                raise EncodingError(
                    f"'{self.opcode.mnemonic}' field '{f.name}' = {v} does not fit "
                    f"{'signed ' if f.signed else ''}{f.bits} bits [{f.lo}, {f.hi}]"
                )
            if f.names and v >= len(f.names):
                raise EncodingError(
                    f"'{self.opcode.mnemonic}' field '{f.name}' = {v} names no {f.name}"
                )

    @classmethod
    def of(cls, mnemonic: str, **fields: int | str) -> Instruction:
        """A record built in code: enumerated fields by name (`buf="input"`) or code, and a
        trailing underscore for a field named like a Python keyword (`in_=` for `in`)."""
        opcode = BY_MNEMONIC[mnemonic]
        names = {f.name: f.names for f in opcode.fields}
        values = {}
        for key, value in fields.items():
            name = key.removesuffix("_") if key.removesuffix("_") in names else key
            if isinstance(value, str):
                if value not in names.get(name, ()):
                    raise EncodingError(f"'{mnemonic}' field '{name}' has no value '{value}'")
                value = names[name].index(value)
            values[name] = value
        return cls(opcode, values)

    def replace(self, **changes: int) -> Instruction:
        """The same instruction with some fields changed (checked again)."""
        return Instruction(self.opcode, {**self.values, **changes})

    def __getitem__(self, name: str) -> int:
        return self.values[name]

    def encode(self) -> int:
        word = self.opcode.code
        bit = OPCODE_BITS
        for f in self.opcode.fields:
            word |= (self.values[f.name] & ((1 << f.bits) - 1)) << bit
            bit += f.bits
        return word

    def to_bytes(self) -> bytes:
        return self.encode().to_bytes(INSTRUCTION_BYTES, "little")

    def words(self) -> tuple[int, int, int, int]:
        """The four little-endian 32-bit words."""
        return struct.unpack("<4I", self.to_bytes())  # type: ignore[return-value]

    def text(self) -> str:
        parts = [self.opcode.mnemonic]
        for f in self.opcode.fields:
            v = self.values[f.name]
            parts.append(f"{f.name}={f.names[v] if f.names else v}")
        return " ".join(parts)


def decode(word: int, where: str = "") -> Instruction:
    opcode = BY_CODE.get(word & ((1 << OPCODE_BITS) - 1))
    if opcode is None:
        raise EncodingError(f"{where}unknown opcode 0x{word & 0xFF:02x}")
    values = {}
    bit = OPCODE_BITS
    for f in opcode.fields:
        v = (word >> bit) & ((1 << f.bits) - 1)
        if f.signed and v >> (f.bits - 1):
            v -= 1 << f.bits
        values[f.name] = v
        bit += f.bits
    if word >> bit:
        raise EncodingError(f"{where}'{opcode.mnemonic}' has nonzero unused bits")
    try:
        return Instruction(opcode, values)
    except EncodingError as err:
        raise EncodingError(f"{where}{err}") from None


def decode_code(data: bytes) -> list[Instruction]:
    if len(data) % INSTRUCTION_BYTES:
        raise EncodingError(f"code section of {len(data)} bytes is not whole instructions")
    return [
        decode(
            int.from_bytes(data[i : i + INSTRUCTION_BYTES], "little"), f"instruction {i // 16}: "
        )
        for i in range(0, len(data), INSTRUCTION_BYTES)
    ]


def _value(text: str, f, where: str) -> int:
    if f.names:
        if text not in f.names:
            raise EncodingError(
                f"{where}'{f.name}' must be one of {', '.join(f.names)}, not '{text}'"
            )
        return f.names.index(text)
    try:
        return int(text, 0)
    except ValueError:
        raise EncodingError(f"{where}'{f.name}' needs an integer, not '{text}'") from None


def assemble(text: str, filename: str = "<asm>") -> list[Instruction]:
    program = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{filename}:{number}: "
        mnemonic, *operands = line.split()
        opcode = BY_MNEMONIC.get(mnemonic)
        if opcode is None:
            raise EncodingError(f"{where}unknown instruction '{mnemonic}'")
        fields = {f.name: f for f in opcode.fields}
        values = {}
        for operand in operands:
            name, eq, value = operand.partition("=")
            if not eq or name not in fields:
                raise EncodingError(
                    f"{where}'{mnemonic}' takes {', '.join(fields) or 'no operands'}; got '{operand}'"
                )
            if name in values:
                raise EncodingError(f"{where}'{name}' given twice")
            values[name] = _value(value, fields[name], where)
        try:
            program.append(Instruction(opcode, values))
        except EncodingError as err:
            raise EncodingError(f"{where}{err}") from None
    return program


def disassemble(program: list[Instruction]) -> str:
    return "".join(inst.text() + "\n" for inst in program)


@dataclass(frozen=True)
class Section:
    """Bytes the loader copies to DRAM at `address` before the program runs."""

    data: bytes
    address: int


@dataclass(frozen=True)
class Tensor:
    """A program input or output in DRAM: name, byte address, shape, dtype."""

    name: str
    address: int
    shape: tuple[int, ...]
    dtype: str

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * np.dtype(self.dtype).itemsize

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "dram": self.address,
            "shape": list(self.shape),
            "dtype": self.dtype,
        }

    @classmethod
    def from_json(cls, entry, where: str) -> Tensor:
        ok = (
            isinstance(entry, dict)
            and isinstance(entry.get("name"), str)
            and isinstance(entry.get("dram"), int)
            and entry["dram"] >= 0
            and isinstance(entry.get("shape"), list)
            and all(isinstance(d, int) and d >= 0 for d in entry["shape"])
            and entry.get("dtype") in _DTYPES
        )
        if not ok:
            raise EncodingError(
                f"{where}: expected {{name, dram >= 0, shape, dtype in {', '.join(_DTYPES)}}}, got {entry!r}"
            )
        return cls(entry["name"], entry["dram"], tuple(entry["shape"]), entry["dtype"])


@dataclass(frozen=True)
class LayerRecord:
    """One layer of a program, for debugging (the program runs without them): the source
    model's name of the tensor it computes (its location; "" when unnamed or when the
    layer computes only an intermediate of it, such as a layout copy), its
    instructions `code[start:end]`, and where its int8 output is once they have run —
    a DRAM address, or None when it stays in the output buffer for the next layer."""

    name: str
    start: int
    end: int
    address: int | None
    shape: tuple[int, ...]
    macs: int = 0  # the model's MACs the layer computes (taps on padding not counted)

    def to_json(self) -> dict:
        return {"name": self.name, "code": [self.start, self.end], "dram": self.address,
                "shape": list(self.shape), "macs": self.macs}  # fmt: skip

    @classmethod
    def from_json(cls, entry, where: str) -> LayerRecord:
        code = entry.get("code") if isinstance(entry, dict) else None
        ok = (
            isinstance(entry, dict)
            and isinstance(entry.get("name"), str)
            and isinstance(code, list)
            and len(code) == 2
            and all(isinstance(c, int) for c in code)
            and 0 <= code[0] <= code[1]
            and (
                entry.get("dram") is None or (isinstance(entry["dram"], int) and entry["dram"] >= 0)
            )
            and isinstance(entry.get("shape"), list)
            and all(isinstance(d, int) and d >= 0 for d in entry["shape"])
            and isinstance(entry.get("macs", 0), int)
            and entry.get("macs", 0) >= 0
        )
        if not ok or not isinstance(code, list):
            raise EncodingError(
                f"{where}: expected {{name, code: [start, end], dram >= 0 or null, shape, "
                f"macs >= 0}}, got {entry!r}"
            )
        return cls(entry["name"], code[0], code[1], entry["dram"], tuple(entry["shape"]),
                   entry.get("macs", 0))  # fmt: skip


def read_layers(manifest: dict, where: str) -> list[LayerRecord]:
    """The manifest's `layers` (absent in programs built without them)."""
    entries = manifest.get("layers", [])
    if not isinstance(entries, list):
        raise EncodingError(f"{where}: 'layers' must be a list")
    return [LayerRecord.from_json(e, f"{where} layer") for e in entries]


@dataclass
class Binary:
    machine_digest: int
    code: list[Instruction]
    sections: dict[str, Section] = field(default_factory=dict)  # weights, params, luts
    inputs: list[Tensor] = field(default_factory=list)
    outputs: list[Tensor] = field(default_factory=list)
    layers: list[LayerRecord] = field(default_factory=list)  # the layer map, for debugging

    @property
    def useful_macs(self) -> int | None:
        """The model's MACs the program computes, from its layer map (None without one)."""
        return sum(r.macs for r in self.layers) if self.layers else None

    def to_bytes(self) -> bytes:
        payloads: dict[str, tuple[bytes, int]] = {
            "code": (b"".join(i.to_bytes() for i in self.code), 0)
        }
        for name in self.sections:
            if name not in DATA_SECTIONS:
                raise EncodingError(f"'{name}' is not a data section ({', '.join(DATA_SECTIONS)})")
        for name in sorted(self.sections, key=DATA_SECTIONS.index):  # one byte order per binary
            payloads[name] = (self.sections[name].data, self.sections[name].address)
        if self.inputs or self.outputs:
            manifest = {
                "inputs": [t.to_json() for t in self.inputs],
                "outputs": [t.to_json() for t in self.outputs],
            }
            if self.layers:
                manifest["layers"] = [layer.to_json() for layer in self.layers]
            payloads["io"] = (json.dumps(manifest, sort_keys=True).encode(), 0)
        offset = _HEADER.size + _ENTRY.size * len(payloads)
        table, body = b"", b""
        for name, (data, address) in payloads.items():
            table += _ENTRY.pack(SECTIONS[name], offset + len(body), len(data), address)
            body += data
        header = _HEADER.pack(MAGIC, VERSION, 0, self.machine_digest, len(payloads))
        return header + table + body

    @classmethod
    def from_bytes(cls, data: bytes) -> Binary:
        if len(data) < _HEADER.size:
            raise EncodingError("not an NPU binary: shorter than its header")
        magic, version, _, digest, count = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise EncodingError(f"not an NPU binary: magic {magic!r}, expected {MAGIC!r}")
        if version != VERSION:
            raise EncodingError(f"NPU binary version {version}; this tool reads {VERSION}")
        if _HEADER.size + count * _ENTRY.size > len(data):
            raise EncodingError(f"NPU binary truncated: {count} sections do not fit")
        kinds = {v: k for k, v in SECTIONS.items()}
        found: dict[str, Section] = {}
        for i in range(count):
            kind, offset, size, address = _ENTRY.unpack_from(data, _HEADER.size + i * _ENTRY.size)
            if kind not in kinds:
                raise EncodingError(f"NPU binary section {i} has unknown kind {kind}")
            if offset + size > len(data):
                raise EncodingError(
                    f"NPU binary section '{kinds[kind]}' runs past the end of the file"
                )
            if kinds[kind] in found:
                raise EncodingError(f"NPU binary has two '{kinds[kind]}' sections")
            found[kinds[kind]] = Section(data[offset : offset + size], address)
        code = decode_code(found.pop("code", Section(b"", 0)).data)
        inputs: list[Tensor] = []
        outputs: list[Tensor] = []
        layers: list[LayerRecord] = []
        if "io" in found:
            try:
                manifest = json.loads(found.pop("io").data)
            except (UnicodeDecodeError, json.JSONDecodeError) as err:
                raise EncodingError(f"NPU binary io manifest is not JSON: {err}") from None
            if not isinstance(manifest, dict):
                raise EncodingError("NPU binary io manifest must be an object")
            inputs = [Tensor.from_json(e, "io input") for e in manifest.get("inputs", [])]
            outputs = [Tensor.from_json(e, "io output") for e in manifest.get("outputs", [])]
            layers = read_layers(manifest, "io")
        for layer in layers:
            if layer.end > len(code):
                raise EncodingError(
                    f"io layer '{layer.name}': instructions {layer.start}..{layer.end} run past "
                    f"the program's {len(code)}"
                )
        return cls(digest, code, found, inputs, outputs, layers)


def load_binary(data: bytes, machine, name: str) -> Binary:
    """Parse `data` (read from `name`) and require it to be built for `machine`."""
    binary = Binary.from_bytes(data)
    if binary.machine_digest != machine.digest():
        raise EncodingError(
            f"{name} was built for another machine description than '{machine.name}'"
        )
    return binary
