"""NPU instruction encoding, assembly text and the .npub container."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from qdialect.npu.encoding import (
    Binary,
    EncodingError,
    Instruction,
    LayerRecord,
    Section,
    Tensor,
    assemble,
    decode,
    decode_code,
    disassemble,
)
from qdialect.npu.isa import BY_MNEMONIC, OPCODES
from qdialect.npu.machine import load_machine

ROOT = Path(__file__).resolve().parents[3]


def inst(mnemonic: str, **values: int) -> Instruction:
    return Instruction(BY_MNEMONIC[mnemonic], values)


def test_golden_words() -> None:
    # signal: opcode 0x01, queue cp2st = 2 at bits 8..9 -> 0x201.
    assert inst("signal", queue=2).words() == (0x201, 0, 0, 0)
    # fill: 0x20 | buf accumulator=2 << 8 | row 5 << 11 | rows 3 << 27 | value -1 (32 ones) << 43
    #   word0 = 0x20 + 0x200 + 0x2800 + 0x18000000        = 0x18002A20
    #   word1 = (0xFFFFFFFF << 11) & 0xFFFFFFFF             = 0xFFFFF800
    #   word2 = 0xFFFFFFFF >> 21                            = 0x000007FF
    assert inst("fill", buf=2, row=5, rows=3, value=-1).words() == (
        0x18002A20,
        0xFFFFF800,
        0x7FF,
        0,
    )
    # halt is all zeros; the opcode of load is 0x10.
    assert inst("halt").words() == (0, 0, 0, 0)
    assert decode(0x10).opcode.mnemonic == "load"


# The ISA is a contract: the least significant bit of each opcode's last field,
# summed by hand from the field widths of docs/npu-isa.md.
LAST_FIELD_BIT = {
    "signal": ("queue", 8),
    "wait": ("queue", 8),
    "load": ("pad_left", 8 + 3 + 16 + 32 + 10 + 10 + 20 + 8 + 4 + 4),  # 115
    "load2d": ("pad_bottom", 8 + 3 + 16 + 28 + 8 + 7 + 14 + 8 + 20 + 8 + 4),  # 124
    "store": ("stride", 8 + 3 + 16 + 32 + 10 + 10),  # 79
    "store2d": ("row_step", 8 + 3 + 16 + 28 + 8 + 7 + 14 + 8 + 20),  # 112
    "fill": ("value", 8 + 3 + 16 + 16),  # 43
    "matmul": ("buf", 8 + 16 * 3 + 10 + 8 + 1 + 8 + 16),  # 99
    "dwmac": ("buf", 8 + 16 * 3 + 10 + 8 + 1 + 8 + 16),  # 99, the same operands
    "alu": ("imm", 8 + 3 + 16 + 16 + 12 + 1),  # 56
    "requant": ("round", 8 + 16 + 16 + 12 + 16 + 8 + 8 + 8),  # 92
    "scale": ("round", 8 + 16 + 12 + 16),  # 52
    "widen": ("combine", 8 + 3 + 16 + 16 + 12 + 8 + 5 + 1 + 16 + 2),  # 87
    "lut": ("table", 8 + 3 + 16 + 16 + 12),  # 55
    "pool": ("tap_step", 8 + 1 + 3 + 16 + 16 + 12 + 8 + 8),  # 72
}


@pytest.mark.parametrize("op", [o for o in OPCODES if o.fields], ids=lambda o: o.mnemonic)
def test_field_layout_of_every_opcode(op) -> None:
    last, bit = LAST_FIELD_BIT[op.mnemonic]
    assert op.fields[-1].name == last
    values = {f.name: 0 for f in op.fields} | {last: 1}
    word = Instruction(op, values).encode()
    assert word == op.code | (1 << bit)
    assert Instruction(op, values).words() == tuple(
        (word >> (32 * i)) & 0xFFFFFFFF for i in range(4)
    )


def _random_values(op, rng: random.Random) -> dict[str, int]:
    values = {}
    for f in op.fields:
        hi = len(f.names) - 1 if f.names else f.hi
        values[f.name] = rng.choice([f.lo, hi, rng.randint(f.lo, hi)])
    return values


@pytest.mark.parametrize("op", OPCODES, ids=lambda o: o.mnemonic)
def test_every_opcode_round_trips_through_words_and_text(op) -> None:
    rng = random.Random(op.code)
    for _ in range(50):
        original = Instruction(op, _random_values(op, rng))
        assert decode(original.encode()) == original
        (parsed,) = assemble(original.text())
        assert parsed == original
        assert parsed.to_bytes() == original.to_bytes()


def test_records_built_in_code_equal_parsed_ones() -> None:
    """What the lowering builds (`Instruction.of`) is what the assembler reads."""
    (parsed,) = assemble(
        "matmul in=3 w=0 acc=0 m=2 k_tiles=1 accumulate=1 in_step=1 k_step=2 buf=output"
    )
    built = Instruction.of("matmul", in_=3, w=0, acc=0, m=2, k_tiles=1, accumulate=1, in_step=1,
                           k_step=2, buf="output")  # fmt: skip
    assert built == parsed and built.replace(m=5)["m"] == 5
    with pytest.raises(EncodingError, match="'buf' has no value 'dram'"):
        Instruction.of("fill", buf="dram", row=0, rows=1, value=0)
    with pytest.raises(EncodingError, match="missing value"):
        Instruction.of("fill", buf="input", row=0, rows=1)
    with pytest.raises(EncodingError, match="'m' = 1024 does not fit"):
        built.replace(m=1024)


def test_assembly_text_is_a_fixed_point_after_one_round() -> None:
    text = (ROOT / "examples" / "npu_matmul.s").read_text()
    program = assemble(text)
    once = disassemble(program)
    assert disassemble(assemble(once)) == once
    assert decode_code(b"".join(i.to_bytes() for i in program)) == program


@pytest.mark.parametrize(
    "line, message",
    [
        ("frobnicate", "unknown instruction 'frobnicate'"),
        ("signal queue=sideways", "'queue' must be one of ld2cp, cp2ld, cp2st, st2cp"),
        ("signal", "missing queue"),
        ("signal queue=ld2cp queue=ld2cp", "'queue' given twice"),
        ("signal q=ld2cp", "'signal' takes queue; got 'q=ld2cp'"),
        ("halt now", "'halt' takes no operands"),
        ("fill buf=input row=0 rows=1 value=x", "'value' needs an integer, not 'x'"),
        ("fill buf=input row=70000 rows=1 value=0", "'row' = 70000 does not fit 16 bits"),
        (
            "fill buf=input row=0 rows=1 value=2147483648",
            "'value' = 2147483648 does not fit signed 32 bits",
        ),
    ],
)
def test_assembly_errors_name_the_line(line: str, message: str) -> None:
    with pytest.raises(EncodingError, match=r"prog\.s:2: ") as err:
        assemble("# comment\n" + line, "prog.s")
    assert message in str(err.value)


def test_decoding_rejects_unknown_opcodes_and_stray_bits() -> None:
    with pytest.raises(EncodingError, match="unknown opcode 0x7f"):
        decode(0x7F)
    with pytest.raises(EncodingError, match="nonzero unused bits"):
        decode(0x01 | (1 << 100))
    with pytest.raises(EncodingError, match="names no buf"):
        decode(0x20 | (7 << 8))  # buffer id 7 does not exist


def test_container_round_trip_and_malformed_files() -> None:
    machine = load_machine("default")
    program = assemble((ROOT / "examples" / "npu_matmul.s").read_text())
    binary = Binary(
        machine.digest(),
        program,
        {"weights": Section(b"\x01\x02", 0x100), "luts": Section(bytes(256), 0x9000)},
        inputs=[Tensor("arg0", 0, (4, 16), "int8")],
        outputs=[Tensor("result0", 0x400, (4, 16), "int8")],
    )
    data = binary.to_bytes()
    back = Binary.from_bytes(data)
    assert back.code == program and back.sections == binary.sections
    assert back.inputs == binary.inputs and back.outputs == binary.outputs
    assert back.machine_digest == machine.digest()
    with pytest.raises(EncodingError, match="not a data section"):
        Binary(0, [], {"code": Section(b"", 0)}).to_bytes()
    bad_io = data.replace(b'"dtype": "int8"', b'"dtype": "int9"', 1)
    with pytest.raises(EncodingError, match="io input: expected"):
        Binary.from_bytes(bad_io)
    with pytest.raises(EncodingError, match="magic"):
        Binary.from_bytes(b"XXXX" + data[4:])
    with pytest.raises(EncodingError, match="shorter than its header"):
        Binary.from_bytes(data[:10])
    with pytest.raises(EncodingError, match="runs past the end"):
        Binary.from_bytes(data[:-1])
    with pytest.raises(EncodingError, match="version 9; this tool reads 2"):
        Binary.from_bytes(data[:4] + (9).to_bytes(2, "little") + data[6:])


def test_the_layer_map_round_trips_and_is_checked() -> None:
    """The layer map (`npu.layers`): names, instruction ranges, DRAM addresses (None
    for an output kept on chip) survive the container; a range past the code or a
    malformed entry is refused with the entry named."""
    program = assemble((ROOT / "examples" / "npu_matmul.s").read_text())
    layers = [LayerRecord("conv1", 0, 3, 0x400, (1, 4, 4, 8)),
              LayerRecord("", 3, len(program), None, (1, 2))]  # fmt: skip
    binary = Binary(0, program, outputs=[Tensor("result0", 0x400, (4, 16), "int8")],
                    layers=layers)  # fmt: skip
    data = binary.to_bytes()
    assert Binary.from_bytes(data).layers == layers
    past = Binary(0, program, outputs=binary.outputs,
                  layers=[LayerRecord("x", 0, len(program) + 1, 0, (1,))]).to_bytes()  # fmt: skip
    end = len(program) + 1
    with pytest.raises(EncodingError, match=f"io layer 'x': instructions 0..{end} run past"):
        Binary.from_bytes(past)
    bad = data.replace(b'"code": [0, 3]', b'"code": [3, 0]', 1)
    with pytest.raises(EncodingError, match=r"io layer: expected \{name, code: \[start, end\]"):
        Binary.from_bytes(bad)
