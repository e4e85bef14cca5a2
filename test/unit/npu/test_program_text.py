"""The whole program as text (`qdialect.npu.program_text`): text -> binary -> text ->
binary is byte-identical for compiled programs and random ones, `-t npu-asm` assembles
to the bytes of `-t npu-bin`, and malformed directives are errors naming the line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from qdialect.context import make_context
from qdialect.dialects.npu import ProgramOp, program_binary
from qdialect.ir.parser import QParser
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.npu.encoding import (
    DATA_SECTIONS,
    Binary,
    EncodingError,
    Instruction,
    LayerRecord,
    Section,
    Tensor,
)
from qdialect.npu.isa import OPCODES
from qdialect.npu.machine import load_machine
from qdialect.npu.program_text import parse_program, program_text
from qdialect.tools import qasm, qopt
from unit.lowering.test_tosa_to_npu_golden import SOURCES

from .test_encoding import _random_values

ROOT = Path(__file__).resolve().parents[3]
CASES = ["example-tosa_mlp", "example-resnet_block", "net-mlp", "conv-depthwise", "pool-avg",
         "random-0", "random-3"]  # fmt: skip


def _round_trip(binary: Binary, machine: str) -> None:
    text = program_text(binary, machine)
    parsed = parse_program(text, "prog.s")
    assert parsed.machine == machine
    assert parsed.binary.to_bytes() == binary.to_bytes()
    assert program_text(parsed.binary, machine) == text  # a fixed point


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("machine", ["default", "small"])
def test_compiled_programs_round_trip(name: str, machine: str) -> None:
    ctx = make_context()
    module = QParser(ctx, SOURCES[name]()).parse_module()
    TosaToNpu(machine=machine).apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    binary = program_binary(program, load_machine(machine).digest())
    assert binary.sections and binary.inputs and binary.layers
    _round_trip(binary, machine)


@pytest.mark.parametrize("seed", range(20))
def test_random_programs_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    code = [Instruction(op, _random_values(op, rng))
            for op in (rng.choice(OPCODES) for _ in range(rng.randint(0, 40)))]  # fmt: skip
    sections = {name: Section(bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 300))),
                              rng.randrange(0, 1 << 20, 16))
                for name in DATA_SECTIONS if rng.random() < 0.7}  # fmt: skip
    names = ["x", "", "/features/3/Add_output_0", 'odd "name" with spaces', "ünï"]
    shape = lambda: tuple(rng.randint(0, 9) for _ in range(rng.randint(0, 4)))  # noqa: E731
    inputs = [Tensor(rng.choice(names) or "in", rng.randrange(0, 4096), shape(), "int8")
              for _ in range(rng.randint(0, 3))]  # fmt: skip
    outputs = [Tensor(f"result{i}", rng.randrange(0, 4096), shape(), rng.choice(["int8", "int32"]))
               for i in range(rng.randint(0, 2))]  # fmt: skip
    layers = []
    start = 0
    while start < len(code) and rng.random() < 0.8:
        end = rng.randint(start, len(code))
        layers.append(LayerRecord(rng.choice(names), start, end,
                                  rng.choice([None, rng.randrange(0, 1 << 16)]), shape()))  # fmt: skip
        start = end
    binary = Binary(rng.getrandbits(64), code, sections, inputs, outputs, layers)
    _round_trip(binary, rng.choice(["default", "small", "machines/custom.json"]))


def test_qopt_asm_assembles_to_qopt_bin_and_disassembles_back(tmp_path) -> None:
    source = tmp_path / "fc.mlir"
    source.write_text(SOURCES["example-tosa_mlp"]())
    pipeline = ["-p", "tosa-to-npu{machine=small}"]
    assert qopt.main([str(source), *pipeline, "-t", "npu-asm", "-o", str(tmp_path / "p.s")]) == 0
    assert qopt.main([str(source), *pipeline, "-t", "npu-bin", "-o", str(tmp_path / "b.npub")]) == 0
    assert qasm.main([str(tmp_path / "p.s"), "-o", str(tmp_path / "a.npub")]) == 0
    assert (tmp_path / "a.npub").read_bytes() == (tmp_path / "b.npub").read_bytes()
    assert qasm.main(["-d", str(tmp_path / "b.npub"), "--machine", "small",
                      "-o", str(tmp_path / "d.s")]) == 0  # fmt: skip
    assert (tmp_path / "d.s").read_text() == (tmp_path / "p.s").read_text()


def test_a_bare_instruction_stream_still_assembles(tmp_path) -> None:
    out = tmp_path / "m.npub"
    assert qasm.main([str(ROOT / "examples" / "npu_matmul.s"), "-o", str(out)]) == 0
    binary = Binary.from_bytes(out.read_bytes())
    assert binary.machine_digest == load_machine("default").digest() and not binary.sections


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('.machine "small" 0x1\n.machine "small" 0x1\n.text\n', r"p\.s:2: a second '\.machine'"),
        ('.input "a" dram=0 shape=[1] dtype=int8\n', r"p\.s:1: directives need a '\.machine'"),
        ('.machine "small" 0x1\n.section weights 0x0 3\n.bytes 0102\n.text\n',
         r"p\.s:2: section 'weights' declares 3 bytes, has 2"),
        ('.machine "small" 0x1\n.section code 0x0 0\n.text\n', r"p\.s:2: expected \.section"),
        ('.machine "small" 0x1\n.bytes 00\n.text\n', r"p\.s:2: '\.bytes' outside a section"),
        ('.machine "small" 0x1\n.section luts 0x0 1\n.bytes zz\n.text\n', r"p\.s:3: '\.bytes' takes hex"),
        ('.machine "small" 0x1\n.input "a" dram=0 shape=1x2 dtype=int8\n.text\n',
         r"p\.s:2: shape must be a list"),
        ('.machine "small" 0x1\n.input a dram=0 shape=[1] dtype=int8\n.text\n',
         r"p\.s:2: expected a quoted name"),
        ('.machine "small" 0x1\n.layer "a" code=0..5 dram=chip shape=[1]\n.text\nhalt\n',
         r"layer \"a\": instructions 0\.\.5 run past the program's 1"),
        ('.machine "small" 0x1\n.weird 1\n.text\n', r"p\.s:2: unknown directive '\.weird'"),
        ('.machine "small" 0x10000000000000000\n.text\n', r"p\.s:1: the digest is 64 bits"),
        ('.machine "small" 0x1\n.section luts 0x100000000 0\n.text\n', r"p\.s:2: a section's address"),
        ('.machine "small" 0x1\n', r"no '\.text' line"),
        ('.machine "small" 0x1\n.text\nbogus x=1\n', r"p\.s:3: unknown instruction 'bogus'"),
    ],
)  # fmt: skip
def test_malformed_text_is_an_error_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(EncodingError, match=message):
        parse_program(text, "p.s")


def test_qasm_refuses_a_text_made_for_another_description(tmp_path, capsys) -> None:
    text = program_text(Binary(load_machine("small").digest(), []), "small")
    (tmp_path / "p.s").write_text(text)
    assert (
        qasm.main([str(tmp_path / "p.s"), "--machine", "default", "-o", str(tmp_path / "x")]) == 1
    )
    assert "was made for a description of machine 'small'" in capsys.readouterr().err
