"""`qcalib`: run a float program over calibration data and record each tensor's statistics.

    qcalib model.mlir --data calib.npz -o calib.json
    qcalib model.mlir --data calib_dir/ --function main -o calib.json --show entropy

--data is one .npz file or a directory of them; each holds an array per argument of the
function (keyed by the argument's name, or arg0, arg1, ...), of the argument's shape
(one batch) or with an extra leading axis (that many batches). The statistics (extremes,
moving averages, a bounded histogram per float tensor; docs/quantization.md) stream: one
batch in memory at a time. --show METHOD prints each tensor's range by that method.

Exit status: 0 on success, 1 on bad input (a missing file, data that does not fit the
program, an op the interpreter cannot run), 2 on an internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from qdialect.calibration.calibrate import (
    CalibrationError,
    calibrate,
    function_batches,
    progress_bar,
)
from qdialect.calibration.observers import METHODS
from qdialect.context import make_context
from qdialect.interpreter import InterpreterError, OpFailure
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import (
    Locator,
    UserError,
    parse_chunk,
    read_text,
    split_chunks,
    verify_module,
)
from qdialect.tools.diagnostics import Diagnostic

USAGE = __doc__ or ""


def build_arg_parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(
        prog="qcalib",
        description=USAGE.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(USAGE.splitlines()[2:]),
    )
    p.add_argument("input_file", help="the float program (.mlir; '-' = stdin)")
    p.add_argument("--data", required=True, metavar="NPZ|DIR", help="calibration batches")
    p.add_argument("-o", "--output", required=True, metavar="JSON", help="the calibration file")
    p.add_argument("--function", default="main", help="the function to calibrate (main)")
    p.add_argument("--show", choices=METHODS, help="print each tensor's range by this method")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


@dataclass
class Program:
    """A verified float program read from the command line, and its function."""

    module: ModuleOp
    func: FuncOp
    locator: Locator
    file: str


def read_program(path: str, function: str) -> Program | Diagnostic:
    """Parse and verify `path` ('-' = stdin); the diagnostic to print if it is invalid."""
    file = "<stdin>" if path == "-" else path
    chunks = split_chunks(read_text(path), False)
    parsed = parse_chunk(make_context(), chunks[0], file)
    if isinstance(parsed, Diagnostic):
        return parsed
    module, locator = parsed
    if (diag := verify_module(module, locator, file)) is not None:
        return diag
    funcs = {f.sym_name.data: f for f in module.walk() if isinstance(f, FuncOp)}
    func = funcs.get(function)
    if func is None or not func.body.blocks:
        raise UserError(f"no function @{function} in '{file}'")
    return Program(module, func, locator, file)


def add_quantize_options(p: argparse.ArgumentParser) -> None:
    """The quantize pass's options, for tools that quantize a calibrated program."""
    from qdialect.calibration.observers import METHODS
    from qdialect.calibration.params import FORMULAS, SCHEMES

    p.add_argument("--method", choices=METHODS, default="minmax")
    p.add_argument("--scheme", choices=SCHEMES, default="symmetric")
    p.add_argument("--formula", choices=FORMULAS, default="google")
    p.add_argument("--weights", choices=("per-channel", "per-tensor"), default="per-channel")
    p.add_argument("--percentile", type=float, default=99.999)


def quantize_options(args: argparse.Namespace):
    """`add_quantize_options`' values as the pass's checked `Options`."""
    from qdialect.transforms.quantize import Options

    try:
        return Options(args.method, args.percentile, args.scheme, args.formula,
                       args.weights == "per-channel")  # fmt: skip
    except ValueError as err:
        raise UserError(str(err)) from None


def _main(args: argparse.Namespace) -> int:
    program = read_program(args.input_file, args.function)
    if isinstance(program, Diagnostic):
        program.emit(sys.stderr)
        return 1
    module, locator, file = program.module, program.locator, program.file
    total, batches = function_batches(program.func, Path(args.data))
    progress = None if args.quiet else progress_bar(total)
    try:
        cal = calibrate(module, batches, args.function, progress)
    except OpFailure as err:
        locator.locate(err.op, "error", err.message, file).emit(sys.stderr)
        return 1
    except InterpreterError as err:
        raise UserError(str(err)) from None
    cal.save(Path(args.output))
    print(f"qcalib: {len(cal.stats)} tensors over {cal.batches} batches -> {args.output}")
    if args.show:
        for key, stats in cal.stats.items():
            lo, hi = stats.range(args.show)
            print(f"  {key:>8} {cal.info[key]['name'] or cal.info[key]['op']:40.40} "
                  f"[{lo:.6g}, {hi:.6g}]")  # fmt: skip
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    return run_tool("qcalib", lambda: _main(args), (CalibrationError,))


if __name__ == "__main__":
    sys.exit(main())
