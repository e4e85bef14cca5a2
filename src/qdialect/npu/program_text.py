"""The whole NPU program as text: what `qopt -t npu-asm` and `qasm -d` print and `qasm`
assembles into a binary byte-identical to `qopt -t npu-bin`.

Besides instructions (`encoding.assemble`'s syntax), the text carries everything the
`.npub` container holds, as directives before `.text`:

    .machine "default" 0x3f2a...            the description's name and digest
    .input "arg0" dram=0 shape=[1,4,4,4] dtype=int8
    .output "result0" dram=512 shape=[1,2,2,6] dtype=int8
    .layer "conv1" code=0..22 dram=448 shape=[1,2,2,4] macs=2304   (dram=chip: on chip)
    .section weights 0x100 2                name, DRAM address, byte count
    .bytes 0102                             the section's bytes in hex, 64 a line
    .text

Names are JSON strings (any character a model's tensor name has). In the instruction
stream a comment names the source layer of each block (`# layer "conv1": ...`). A text
without `.machine` is a bare instruction stream, as before, assembled for the machine
given on the command line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from qdialect.npu.encoding import (
    DATA_SECTIONS,
    Binary,
    EncodingError,
    LayerRecord,
    Section,
    Tensor,
    assemble,
    disassemble,
)

BYTES_PER_LINE = 64


def _name(text: str) -> str:
    return json.dumps(text)


def _shape(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(map(str, shape)) + "]"


def program_text(binary: Binary, machine: str) -> str:
    """`binary` as text for machine `machine` (whose digest the binary records)."""
    lines = [f".machine {_name(machine)} 0x{binary.machine_digest:016x}"]
    for kind, tensors in (("input", binary.inputs), ("output", binary.outputs)):
        for t in tensors:
            lines.append(f".{kind} {_name(t.name)} dram={t.address} shape={_shape(t.shape)} "
                         f"dtype={t.dtype}")  # fmt: skip
    for r in binary.layers:
        where = "chip" if r.address is None else str(r.address)
        lines.append(f".layer {_name(r.name)} code={r.start}..{r.end} dram={where} "
                     f"shape={_shape(r.shape)} macs={r.macs}")  # fmt: skip
    for name in sorted(binary.sections, key=DATA_SECTIONS.index):
        section = binary.sections[name]
        data = bytes(section.data)
        lines.append(f".section {name} 0x{section.address:x} {len(data)}")
        for i in range(0, len(data), BYTES_PER_LINE):
            lines.append(".bytes " + data[i : i + BYTES_PER_LINE].hex())
    lines.append(".text")
    starts = {r.start: r for r in binary.layers if r.end > r.start}
    for index, line in enumerate(disassemble(binary.code).splitlines()):
        record = starts.get(index)
        if record is not None:
            label = _name(record.name) if record.name else "(unnamed)"
            lines.append(f"# layer {label}: instructions {record.start}..{record.end - 1}")
        lines.append(line)
    return "\n".join(lines) + "\n"


@dataclass
class ParsedProgram:
    machine: str | None  # None: a bare instruction stream
    binary: Binary


def _fields(words: list[str], where: str, want: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> dict[str, str]:  # fmt: skip
    out = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or key not in want + optional or key in out:
            raise EncodingError(
                f"{where}expected {' '.join(k + '=...' for k in want)}, got '{word}'"
            )
        out[key] = value
    missing = [k for k in want if k not in out]
    if missing:
        raise EncodingError(f"{where}missing {', '.join(missing)}")
    return out


def _int(text: str, where: str, what: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise EncodingError(f"{where}{what} must be an integer, got '{text}'") from None
    if value < 0:
        raise EncodingError(f"{where}{what} must not be negative, got {value}")
    return value


def _parse_shape(text: str, where: str) -> tuple[int, ...]:
    try:
        shape = json.loads(text)
    except json.JSONDecodeError:
        shape = None
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise EncodingError(f"{where}shape must be a list such as [1,4,4,8], got '{text}'")
    return tuple(shape)


def _split_name(rest: str, where: str) -> tuple[str, list[str]]:
    """A leading JSON string, then the space-separated words after it."""
    try:
        name, end = json.JSONDecoder().raw_decode(rest)
    except json.JSONDecodeError:
        name, end = None, 0
    if not isinstance(name, str):
        raise EncodingError(
            f"{where}expected a quoted name, got '{rest.split()[0] if rest.split() else ''}'"
        )
    return name, rest[end:].split()


def parse_program(text: str, filename: str = "<asm>") -> ParsedProgram:
    """Text (with or without directives) -> the binary it describes."""
    lines = text.splitlines()
    has_directives = any(line.strip().startswith(".machine") for line in lines)
    if not has_directives:
        if any(line.strip().startswith(".") for line in lines):
            first = next(n for n, line in enumerate(lines, 1) if line.strip().startswith("."))
            raise EncodingError(f"{filename}:{first}: directives need a '.machine' line first")
        return ParsedProgram(None, Binary(0, assemble(text, filename)))
    machine: str | None = None
    digest = 0
    inputs: list[Tensor] = []
    outputs: list[Tensor] = []
    layers: list[LayerRecord] = []
    sections: dict[str, tuple[int, int, bytearray, int]] = {}  # name -> address, size, data, line
    current: str | None = None
    text_at: int | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{filename}:{number}: "
        directive, _, rest = line.partition(" ")
        rest = rest.strip()
        if directive == ".text":
            text_at = number
            break
        if directive == ".machine":
            if machine is not None:
                raise EncodingError(f"{where}a second '.machine': one program per file")
            machine, words = _split_name(rest, where)
            if len(words) != 1:
                raise EncodingError(f'{where}expected .machine "NAME" 0xDIGEST')
            digest = _int(words[0], where, "the digest")
            if digest >= 1 << 64:
                raise EncodingError(f"{where}the digest is 64 bits, got {words[0]}")
            continue
        if machine is None:
            raise EncodingError(f"{where}'{directive}' before '.machine'")
        if directive in (".input", ".output"):
            name, words = _split_name(rest, where)
            f = _fields(words, where, ("dram", "shape", "dtype"))
            entry = {"name": name, "dram": _int(f["dram"], where, "dram"),
                     "shape": list(_parse_shape(f["shape"], where)), "dtype": f["dtype"]}  # fmt: skip
            (inputs if directive == ".input" else outputs).append(
                Tensor.from_json(entry, f"{where}{directive[1:]}")
            )
        elif directive == ".layer":
            name, words = _split_name(rest, where)
            f = _fields(words, where, ("code", "dram", "shape"), ("macs",))
            start, dots, end = f["code"].partition("..")
            if not dots:
                raise EncodingError(f"{where}code must be START..END, got '{f['code']}'")
            address = None if f["dram"] == "chip" else _int(f["dram"], where, "dram")
            layers.append(LayerRecord.from_json(
                {"name": name, "code": [_int(start, where, "code"), _int(end, where, "code")],
                 "dram": address, "shape": list(_parse_shape(f["shape"], where)),
                 "macs": _int(f.get("macs", "0"), where, "macs")},
                f"{where}layer"))  # fmt: skip
        elif directive == ".section":
            words = rest.split()
            if len(words) != 3 or words[0] not in DATA_SECTIONS:
                raise EncodingError(
                    f"{where}expected .section {'|'.join(DATA_SECTIONS)} ADDRESS SIZE, got '{rest}'"
                )
            if words[0] in sections:
                raise EncodingError(f"{where}section '{words[0]}' given twice")
            current = words[0]
            address, size = _int(words[1], where, "address"), _int(words[2], where, "size")
            if address >= 1 << 32 or size >= 1 << 32:
                raise EncodingError(f"{where}a section's address and size are 32-bit")
            sections[current] = (address, size, bytearray(), number)
        elif directive == ".bytes":
            if current is None:
                raise EncodingError(f"{where}'.bytes' outside a section")
            try:
                sections[current][2].extend(bytes.fromhex(rest))
            except ValueError:
                raise EncodingError(f"{where}'.bytes' takes hex digits, two per byte") from None
        else:
            raise EncodingError(f"{where}unknown directive '{directive}'")
    if text_at is None:
        raise EncodingError(f"{filename}: no '.text' line: the instructions follow it")
    for name, (_, size, data, number) in sections.items():
        if len(data) != size:
            raise EncodingError(
                f"{filename}:{number}: section '{name}' declares {size} bytes, has {len(data)}"
            )
    body = "\n" * text_at + "\n".join(lines[text_at:])  # keep line numbers in errors
    code = assemble(body, filename)
    for r in layers:
        if r.end > len(code):
            raise EncodingError(f"{filename}: layer {_name(r.name)}: instructions {r.start}..{r.end} "
                                f"run past the program's {len(code)}")  # fmt: skip
    data_sections = {n: Section(bytes(d), a) for n, (a, _, d, _) in sections.items()}
    return ParsedProgram(machine, Binary(digest, code, data_sections, inputs, outputs, layers))
