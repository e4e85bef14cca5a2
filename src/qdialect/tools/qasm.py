"""`qasm`: assemble NPU assembly into an `.npub` binary, or disassemble one.

    qasm program.s -o program.npub [--machine default|small|FILE.json]
    qasm --disassemble program.npub [-o program.s] [--machine ...]

The text is the whole program (`qdialect.npu.program_text`): the machine and its
digest, the io manifest, the layer map and every data section as directives, then the
instructions — what `qopt -t npu-asm` prints, assembling to the bytes `-t npu-bin`
writes, and what `-d` prints, assembling back to the same bytes. A text's `.machine`
must be the description `--machine` loads (default: the one it names). A bare
instruction stream (no directives) is assembled for `--machine` (default `default`).
The binary records the machine description's digest; disassembling checks it against
`--machine`. Errors name the file and line and exit with status 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qdialect.npu.encoding import EncodingError, load_binary
from qdialect.npu.machine import MachineError, load_machine
from qdialect.npu.program_text import parse_program, program_text
from qdialect.tools.boundary import ToolArgumentParser, run_tool


def _parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(prog="qasm", description=__doc__.splitlines()[0])
    p.add_argument("input", help="assembly file, or a binary with --disassemble ('-' = stdin)")
    p.add_argument("-o", "--output", help="output file (default: stdout for text)")
    p.add_argument("-d", "--disassemble", action="store_true", help="binary -> assembly")
    p.add_argument(
        "--machine",
        help="machine description: a shipped name or a JSON file (default: the "
        "text's .machine, else 'default')",
    )
    return p


def _read(path: str, binary: bool):
    if path == "-":
        return sys.stdin.buffer.read() if binary else sys.stdin.read()
    p = Path(path)
    if binary:
        return p.read_bytes()
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise EncodingError(
            f"{path}: not assembly text (not UTF-8; to disassemble a binary, use -d)"
        ) from None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return run_tool("qasm", lambda: _run(args), (EncodingError, MachineError))


def _run(args: argparse.Namespace) -> int:
    if args.disassemble:
        name = args.machine or "default"
        binary = load_binary(_read(args.input, True), load_machine(name), args.input)
        text = program_text(binary, name)
        if args.output:
            Path(args.output).write_text(text)
        else:
            sys.stdout.write(text)
        return 0
    parsed = parse_program(_read(args.input, False), args.input)
    name = args.machine or parsed.machine or "default"
    machine = load_machine(name)
    binary = parsed.binary
    if parsed.machine is None:
        binary.machine_digest = machine.digest()
    elif binary.machine_digest != machine.digest():
        raise EncodingError(
            f"{args.input} was made for a description of machine '{parsed.machine}' with digest "
            f"0x{binary.machine_digest:016x}; '{name}' has 0x{machine.digest():016x}"
        )
    if not args.output:
        raise EncodingError("assembling needs -o FILE.npub")
    Path(args.output).write_bytes(binary.to_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
