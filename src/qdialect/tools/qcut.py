"""`qcut`: the part of a program between named tensors, as a module that runs alone.

    qcut model.mlir --inputs NAME[,NAME...] --outputs NAME[,NAME...] -o part.mlir
    qcut stages/quant.mlir --inputs a --outputs b -o part.mlir --from-dump dumps/quant.npz

Names are the source model's tensor names, which every pass keeps as op locations, so
the same command cuts the float, quantized and TOSA programs at the same place
(`qcompare --save-stages` writes them, `--dump` their tensors). With --from-dump
(a `qcompare --dump` file of the same stage) the cut's arguments for input --sample
are written next to it (`part.inputs.npz`, keyed arg0, arg1, ...), so

    qrun part.mlir --entry main --inputs part.inputs.npz --outputs out.npz

reproduces that layer alone. Exit status: 0 on success, 1 on bad input (a name not
found, a cut that is not closed — the error names what else it reads), 2 on an
internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from qdialect.debug.cut import CutError, cut, inputs_from_dump
from qdialect.ir.printer import module_text
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import UserError
from qdialect.tools.diagnostics import Diagnostic
from qdialect.tools.npz import NpzError, read_npz, write_npz
from qdialect.tools.qcalib import read_program

USAGE = __doc__ or ""


def build_arg_parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(
        prog="qcut",
        description=USAGE.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(USAGE.splitlines()[2:]),
    )
    p.add_argument("input_file", help="a program whose ops carry the model's names")
    p.add_argument("--inputs", default="", metavar="NAMES", help="comma-separated tensor names")
    p.add_argument("--outputs", required=True, metavar="NAMES", help="comma-separated names")
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    p.add_argument("--function", default="main")
    p.add_argument("--from-dump", metavar="NPZ", help="a qcompare --dump file of this stage")
    p.add_argument("--sample", type=int, default=0, help="which input of the dump (default 0)")
    return p


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _main(args: argparse.Namespace) -> int:
    program = read_program(args.input_file, args.function)
    if isinstance(program, Diagnostic):
        program.emit(sys.stderr)
        return 1
    try:
        part = cut(program.module, _names(args.inputs), _names(args.outputs), args.function)
        arrays = None
        if args.from_dump:
            try:
                dump = read_npz(args.from_dump)
            except NpzError as err:
                raise UserError(str(err)) from None
            arrays = inputs_from_dump(part, program.module, dump, args.sample, args.function)
    except CutError as err:
        raise UserError(str(err)) from None
    out = Path(args.output)
    out.write_text(module_text(part, debuginfo=True))
    print(f"qcut: wrote {out}")
    if arrays is not None:
        inputs = out.with_suffix(".inputs.npz")
        write_npz(str(inputs), arrays)
        print(f"qcut: wrote {inputs} (sample {args.sample})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    return run_tool("qcut", lambda: _main(args))


if __name__ == "__main__":
    sys.exit(main())
