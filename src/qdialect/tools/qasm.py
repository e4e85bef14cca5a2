"""`qasm`: assemble NPU assembly into an `.npub` binary, or disassemble one.

    qasm program.s -o program.npub [--machine default|small|FILE.json]
    qasm --disassemble program.npub [-o program.s]

The binary records the machine description's digest; disassembling checks it
against `--machine`. Errors name the file and line and exit with status 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qdialect.npu.encoding import Binary, EncodingError, assemble, disassemble, load_binary
from qdialect.npu.machine import MachineError, load_machine
from qdialect.tools.boundary import ToolArgumentParser, run_tool


def _parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(prog="qasm", description=__doc__.splitlines()[0])
    p.add_argument("input", help="assembly file, or a binary with --disassemble ('-' = stdin)")
    p.add_argument("-o", "--output", help="output file (default: stdout for text)")
    p.add_argument("-d", "--disassemble", action="store_true", help="binary -> assembly")
    p.add_argument(
        "--machine", default="default", help="machine description: a shipped name or a JSON file"
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
    machine = load_machine(args.machine)
    if args.disassemble:
        binary = load_binary(_read(args.input, True), machine, args.input)
        text = disassemble(binary.code)
        if args.output:
            Path(args.output).write_text(text)
        else:
            sys.stdout.write(text)
        return 0
    program = assemble(_read(args.input, False), args.input)
    data = Binary(machine.digest(), program).to_bytes()
    if not args.output:
        raise EncodingError("assembling needs -o FILE.npub")
    Path(args.output).write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
