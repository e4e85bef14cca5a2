"""The NPU instruction set as ONE table: the encoder, decoder, assembler and docs/npu-isa.md use it.

Every instruction is 128 bits, stored as four little-endian 32-bit words. The
opcode sits in bits 0..7; each instruction's fields follow from bit 8 upward
in table order, least significant bit first; unused high bits are zero.
Signed fields are two's complement. Enumerated fields (buffers, queues, ALU
operations) have names in the assembly.

    python -m qdialect.npu.isa      # prints the ISA reference (docs/npu-isa.md)
"""

from __future__ import annotations

from dataclasses import dataclass

from qdialect.npu.machine import BUFFERS

WORD_BITS = 32
INSTRUCTION_BITS = 128
OPCODE_BITS = 8

QUEUES = ("ld2cp", "cp2ld", "cp2st", "st2cp")
"""Token queues between engines: load->compute, compute->load, compute->store, store->compute."""
ALU_OPS = ("add", "sub", "mul", "min", "max", "shl", "shr")
POOL_OPS = ("max", "sum")
COMBINES = ("set", "add", "sub")
"""How `widen` puts its value into the accumulator: overwrite, add to, subtract from."""
ROUNDINGS = ("single", "double", "half_even")
"""Requantization rounding, by code: TOSA's SINGLE_ROUND and DOUBLE_ROUND (code 1 was the
`double_round` bit, so older binaries decode alike) and qdialect's HALF_EVEN_ROUND."""


@dataclass(frozen=True)
class Field:
    name: str
    bits: int
    doc: str
    signed: bool = False
    names: tuple[str, ...] = ()  # enumerated values, by code

    @property
    def lo(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def hi(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1


@dataclass(frozen=True)
class Opcode:
    mnemonic: str
    code: int
    engine: str  # load, compute, store or control
    doc: str
    fields: tuple[Field, ...] = ()


def _buf(doc: str = "on-chip buffer") -> Field:
    return Field("buf", 3, doc, names=BUFFERS)


def _rounding() -> Field:
    return Field(
        "round",
        2,
        "rounding of apply_scale_32: TOSA SINGLE_ROUND, DOUBLE_ROUND, or ties to even "
        "(qdialect's HALF_EVEN_ROUND)",
        names=ROUNDINGS,
    )


def _mac_fields(k_doc: str) -> tuple[Field, ...]:
    """The operands of the array's two modes (`matmul`, `dwmac`)."""
    return (
        _row("in", "first input row"),
        _row("w", "first weight row"),
        _row("acc", "first accumulator row"),
        Field("m", 10, "output rows"),
        Field("k_tiles", 8, k_doc),
        Field("accumulate", 1, "1: add to the accumulator, 0: overwrite"),
        Field("in_step", 8, "input rows between output rows (convolution stride)"),
        _row("k_step", "input rows between k tiles"),
        _buf("source of the activations (input or output)"),
    )


def _blocks(buf_doc: str, row_doc: str) -> tuple[Field, ...]:
    """The fields `load2d` and `store2d` share: a DMA's, narrowed to leave room for the
    block count and the DRAM stride between blocks."""
    return (
        _buf(buf_doc),
        _row("row", row_doc),
        Field("dram", 28, "DRAM byte address of the first row"),
        Field("rows", 8, "rows to copy per block"),
        Field("row_bytes", 7, "bytes per row (at most the buffer's row width)"),
        Field("stride", 14, "DRAM bytes between rows"),
        Field("blocks", 8, "blocks"),
        Field("block_stride", 20, "DRAM bytes between blocks"),
    )


def _padding(where: str) -> tuple[Field, ...]:
    """A load's padding: its value, and the rows before and after (`where`)."""
    return (
        Field("pad", 8, "padding value (the input zero point)", signed=True),
        Field("pad_top", 4, f"padding rows before{where}"),
        Field("pad_bottom", 4, f"padding rows after{where}"),
    )


def _row(name: str, doc: str) -> Field:
    return Field(name, 16, doc)


OPCODES: tuple[Opcode, ...] = (
    Opcode("halt", 0x00, "control", "Stop once every engine has drained its queue."),
    Opcode(
        "signal",
        0x01,
        "control",
        "Push a token on a queue (runs on the queue's producing engine).",
        (Field("queue", 2, "token queue", names=QUEUES),),
    ),
    Opcode(
        "wait",
        0x02,
        "control",
        "Pop a token from a queue, stalling until one is there (runs on the consuming engine).",
        (Field("queue", 2, "token queue", names=QUEUES),),
    ),
    Opcode(
        "load",
        0x10,
        "load",
        "DMA DRAM -> buffer: `rows` rows of `row_bytes` bytes, `stride` bytes apart in DRAM, "
        "into consecutive buffer rows from `row`; padding rows/bytes around them hold `pad`.",
        (
            _buf("destination buffer (input, weight, params or lut)"),
            _row("row", "first destination row"),
            Field("dram", 32, "DRAM byte address of the first row"),
            Field("rows", 10, "rows to copy"),
            Field("row_bytes", 10, "bytes per row (at most the buffer's row width)"),
            Field("stride", 20, "DRAM bytes between rows"),
            *_padding(""),
            Field("pad_left", 4, "padding bytes before each row"),
        ),
    ),
    Opcode(
        "load2d",
        0x12,
        "load",
        "DMA DRAM -> buffer in `blocks` blocks: block b is a `load` of `rows` rows from "
        "`dram + b * block_stride` with `pad_top` and `pad_bottom` padding rows, written "
        "after block b - 1; one DRAM latency for all (an image's rows, each with its "
        "padding columns, in one instruction, as VTA's 2-D loads do).",
        (
            *_blocks("destination buffer (input, weight, params or lut)", "first destination row"),
            *_padding(" each block"),
        ),
    ),
    Opcode(
        "store",
        0x11,
        "store",
        "DMA buffer -> DRAM: `rows` rows of `row_bytes` bytes from `row` on, `stride` bytes apart in DRAM.",
        (
            _buf("source buffer (input for DRAM-to-DRAM moves, output or accumulator)"),
            _row("row", "first source row"),
            Field("dram", 32, "DRAM byte address of the first row"),
            Field("rows", 10, "rows to copy"),
            Field("row_bytes", 10, "bytes per row"),
            Field("stride", 20, "DRAM bytes between rows"),
        ),
    ),
    Opcode(
        "store2d",
        0x13,
        "store",
        "DMA buffer -> DRAM in `blocks` blocks: block b is a `store` of `rows` rows from "
        "buffer row `row + b * row_step` to `dram + b * block_stride`; one DRAM latency for "
        "all (a window layer's output rows, each `pitch` buffer rows apart).",
        (
            *_blocks(
                "source buffer (input for DRAM-to-DRAM moves, output or accumulator)",
                "first source row",
            ),
            Field("row_step", 12, "buffer rows between blocks"),
        ),
    ),
    Opcode(
        "fill",
        0x20,
        "compute",
        "Set every element of `rows` buffer rows to `value`.",
        (
            _buf(),
            _row("row", "first row"),
            Field("rows", 16, "rows to fill"),
            Field("value", 32, "element value", signed=True),
        ),
    ),
    Opcode(
        "matmul",
        0x21,
        "compute",
        "acc[acc + i] (+)= sum over t < k_tiles of buf[in + i*in_step + t*k_step] x "
        "W_t, for i < m; W_t is the cols x cols weight block at weight row w + t*cols "
        "(row = input channel). int8 x int8 -> int32; `accumulate` adds to the accumulator. "
        "`buf` is the input buffer, or the output buffer for a layer input kept on chip.",
        _mac_fields("weight blocks to sum over"),
    ),
    Opcode(
        "dwmac",
        0x28,
        "compute",
        "acc[acc + i][c] (+)= sum over t < k_tiles of buf[in + i*in_step + t*k_step][c] x "
        "weight[w + t][c], for i < m: the array as rows output pixels x cols channels, each "
        "lane its own channel (a depthwise convolution, one weight row per tap). "
        "`accumulate`, `buf` as for `matmul`.",
        _mac_fields("weight rows (taps) to sum over"),
    ),
    Opcode(
        "alu",
        0x22,
        "compute",
        "acc[dst + i] = acc[dst + i] op (imm if use_imm else acc[src + i]) on int32 lanes; "
        "shl/shr shift left / arithmetic-right with rounding.",
        (
            Field("op", 3, "operation", names=ALU_OPS),
            _row("dst", "first destination (and left operand) row"),
            _row("src", "first right operand row"),
            Field("rows", 12, "rows"),
            Field("use_imm", 1, "1: the right operand is `imm`"),
            Field("imm", 32, "immediate right operand", signed=True),
        ),
    ),
    Opcode(
        "requant",
        0x23,
        "compute",
        "out[out + i][c] = clamp(apply_scale_32(acc[acc + i][c] + bias[c], M[c], shift[c]) + zp, "
        "lo, hi); per-column records (bias i32, M i32, shift i8) start at params row `params`.",
        (
            _row("acc", "first accumulator row"),
            _row("out", "first output row"),
            Field("rows", 12, "rows"),
            _row("params", "first per-channel record"),
            Field("zp", 8, "output zero point", signed=True),
            Field("lo", 8, "clamp minimum", signed=True),
            Field("hi", 8, "clamp maximum", signed=True),
            _rounding(),
        ),
    ),
    Opcode(
        "scale",
        0x27,
        "compute",
        "acc[acc + i][c] = apply_scale_32(acc[acc + i][c] + bias[c], M[c], shift[c]) in place, "
        "int32 to int32 (TOSA's rescale between i32 values); records as for `requant`.",
        (
            _row("acc", "first accumulator row"),
            Field("rows", 12, "rows"),
            _row("params", "first per-channel record"),
            _rounding(),
        ),
    ),
    Opcode(
        "widen",
        0x24,
        "compute",
        "v = (int8 row in[in + i] - zp) << shift, then, when `scaled`, "
        "v[c] = apply_scale_32(v[c] + bias[c], M[c], shift[c]) by the records at `params` "
        "(as for `scale`); acc[acc + i] = v, or acc[acc + i] + v, or acc[acc + i] - v "
        "(`combine`): one operand of an elementwise op, in int32, in one pass.",
        (
            _buf("source buffer (input or output)"),
            _row("in", "first source row"),
            _row("acc", "first accumulator row"),
            Field("rows", 12, "rows"),
            Field("zp", 8, "zero point subtracted", signed=True),
            Field("shift", 5, "left shift after centring"),
            Field("scaled", 1, "1: apply the records at `params` to the widened value"),
            _row("params", "first per-channel record (when `scaled`)"),
            _rounding(),
            Field("combine", 2, "how the value enters the accumulator", names=COMBINES),
        ),
    ),
    Opcode(
        "lut",
        0x25,
        "compute",
        "out[out + i][c] = table[in[in + i][c] + 128], with the 256-entry int8 table at lut row `table`.",
        (
            _buf("source buffer (input or output)"),
            _row("in", "first source row"),
            _row("out", "first output row"),
            Field("rows", 12, "rows"),
            Field("table", 8, "lut row of the table"),
        ),
    ),
    Opcode(
        "pool",
        0x26,
        "compute",
        "acc[acc + i] = op over t < taps of in[in + i*row_step + t*tap_step] (int8 -> int32), for i < rows.",
        (
            Field("op", 1, "max or sum", names=POOL_OPS),
            _buf("source buffer (input or output)"),
            _row("in", "first source row"),
            _row("acc", "first accumulator row"),
            Field("rows", 12, "output rows"),
            Field("taps", 8, "rows combined per output row"),
            Field("row_step", 8, "source rows between output rows"),
            _row("tap_step", "source rows between taps"),
        ),
    ),
)

BY_MNEMONIC = {op.mnemonic: op for op in OPCODES}
BY_CODE = {op.code: op for op in OPCODES}


def _check_table() -> None:
    for op in OPCODES:
        used = OPCODE_BITS + sum(f.bits for f in op.fields)
        assert used <= INSTRUCTION_BITS, f"{op.mnemonic} needs {used} bits"
        assert len({f.name for f in op.fields}) == len(op.fields), op.mnemonic
        for f in op.fields:
            assert not f.names or len(f.names) <= 1 << f.bits, (op.mnemonic, f.name)
    assert len(BY_CODE) == len(OPCODES) and len(BY_MNEMONIC) == len(OPCODES)


_check_table()


def reference_markdown() -> str:
    """The ISA reference, generated from the table (docs/npu-isa.md)."""
    lines = [
        "# NPU instruction set reference",
        "",
        "Generated from `src/qdialect/npu/isa.py` by `python -m qdialect.npu.isa`; "
        "do not edit by hand (a test compares it with the table).",
        "",
        f"Every instruction is {INSTRUCTION_BITS} bits, stored as four little-endian "
        f"{WORD_BITS}-bit words. Bits 0..7 hold the opcode; the fields follow from bit 8 "
        "upward in the order listed, least significant bit first; unused bits are zero. "
        "Signed fields are two's complement.",
        "",
        f"Token queues: {', '.join(f'`{q}` = {i}' for i, q in enumerate(QUEUES))}. "
        f"Buffers: {', '.join(f'`{b}` = {i}' for i, b in enumerate(BUFFERS))}.",
        "",
    ]
    for op in OPCODES:
        lines += [
            f"## `{op.mnemonic}` — opcode 0x{op.code:02x}, {op.engine} engine",
            "",
            op.doc,
            "",
        ]
        if not op.fields:
            continue
        lines += ["| bits | field | width | meaning |", "|---|---|---|---|"]
        bit = OPCODE_BITS
        for f in op.fields:
            kind = "signed " if f.signed else ""
            meaning = f.doc + (f" ({', '.join(f'`{n}`' for n in f.names)})" if f.names else "")
            lines.append(f"| {bit}..{bit + f.bits - 1} | `{f.name}` | {kind}{f.bits} | {meaning} |")
            bit += f.bits
        lines.append("")
    lines += PROGRAM_TEXT.splitlines()
    return "\n".join(lines) + "\n"


PROGRAM_TEXT = """## Program text: directives

`qopt -t npu-asm` and `qasm -d` print the whole program, which `qasm` assembles into
the bytes `qopt -t npu-bin` writes (`src/qdialect/npu/program_text.py`). Directives
come first, one a line, then `.text` and the instructions (one a line, `#` comments).
Names are JSON strings; shapes are lists such as `[1,4,4,8]`.

| directive | meaning |
|---|---|
| `.machine "NAME" 0xDIGEST` | the machine description and its digest (the first 8 bytes of the SHA-256 of its canonical text); `qasm` refuses a description with another digest |
| `.input "NAME" dram=A shape=S dtype=T` | an input tensor of the io manifest: DRAM address, shape, `int8`/`uint8`/`int16`/`int32` |
| `.output "NAME" dram=A shape=S dtype=T` | an output tensor, likewise |
| `.layer "NAME" code=START..END dram=A shape=S macs=N` | the layer map: the source tensor a layer computes (`""`: none), its instructions `START..END-1`, where its output is when they have run (`dram=chip`: kept in the output buffer), the model's MACs it computes (taps on padding not counted; `qsim --stats` divides their sum by cycles x MACs per cycle); the program does not read it |
| `.section weights\\|params\\|luts 0xADDRESS SIZE` | a data section the loader copies to DRAM at ADDRESS before the run |
| `.bytes HEX` | the next bytes of the current section, two hex digits a byte (64 bytes a line as printed) |
| `.text` | the end of the directives: instructions follow |

A comment before each layer's first instruction names it: `# layer "conv1": instructions
0..21`. A text without `.machine` is a bare instruction stream, assembled for the
machine given with `--machine`."""


if __name__ == "__main__":
    print(reference_markdown(), end="")
