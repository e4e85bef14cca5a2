"""`qprecision`: find the fewest ops to promote to 16 bits (or float) for a target accuracy.

    qprecision model.mlir --calibration calib.json --data eval.npz --target-sqnr 40 -o qtable.txt
    qprecision model.mlir --calibration calib.json --data eval.npz --target-top1 0.99 \\
        --promote float --method entropy -o qtable.txt
    qopt model.mlir -p 'stablehlo-quantize{calibration="calib.json" qtable="qtable.txt"}'

Each op the quantize pass quantizes is promoted alone and the integer program (after
`stablehlo-legalize-qdq-to-quantized-op`) is scored on --data against the float
program: output SQNR in dB (--target-sqnr), or the fraction of inputs whose largest
output is the float program's (--target-top1). Ops are then promoted greedily, most
sensitive first, until the target is reached; the qtable lists them. --method,
--scheme, --formula, --weights and --percentile are the quantize pass's options.

Exit status: 0 when the target is reached, 3 when promoting every candidate does not
reach it (the qtable is written all the same), 1 on bad input, 2 on an internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from qdialect.calibration.calibrate import Calibration, CalibrationError, function_batches
from qdialect.calibration.mixed import search
from qdialect.calibration.observers import METHODS
from qdialect.calibration.params import FORMULAS, SCHEMES
from qdialect.interpreter import InterpreterError
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import UserError
from qdialect.tools.diagnostics import Diagnostic
from qdialect.tools.qcalib import read_program
from qdialect.transforms.quantize import Options

USAGE = __doc__ or ""
NOT_REACHED = 3


def build_arg_parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(
        prog="qprecision",
        description=USAGE.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(USAGE.splitlines()[2:]),
    )
    p.add_argument("input_file", help="the float program the calibration was made on")
    p.add_argument("--calibration", required=True, metavar="JSON", help="qcalib's output")
    p.add_argument("--data", required=True, metavar="NPZ|DIR", help="evaluation inputs")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--target-sqnr", type=float, metavar="DB")
    target.add_argument("--target-top1", type=float, metavar="FRACTION")
    p.add_argument("-o", "--output", required=True, metavar="QTABLE")
    p.add_argument("--promote", choices=("i16", "float"), default="i16")
    p.add_argument("--method", choices=METHODS, default="minmax")
    p.add_argument("--scheme", choices=SCHEMES, default="symmetric")
    p.add_argument("--formula", choices=FORMULAS, default="google")
    p.add_argument("--weights", choices=("per-channel", "per-tensor"), default="per-channel")
    p.add_argument("--percentile", type=float, default=99.999)
    p.add_argument("--function", default="main")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def _main(args: argparse.Namespace) -> int:
    program = read_program(args.input_file, args.function)
    if isinstance(program, Diagnostic):
        program.emit(sys.stderr)
        return 1
    cal = Calibration.load(Path(args.calibration))
    try:
        options = Options(args.method, args.percentile, args.scheme, args.formula,
                          args.weights == "per-channel")  # fmt: skip
    except ValueError as err:
        raise UserError(str(err)) from None
    _, batches = function_batches(program.func, Path(args.data))
    inputs = list(batches)
    metric, target = (("sqnr", args.target_sqnr) if args.target_sqnr is not None
                      else ("top1", args.target_top1))  # fmt: skip

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"  promoted alone: {line}", file=sys.stderr)

    try:
        result = search(program.module, cal, inputs, target, metric=metric,
                        promote=args.promote, options=options, function=args.function,
                        progress=progress)  # fmt: skip
    except InterpreterError as err:
        raise UserError(str(err)) from None
    result.qtable.save(
        Path(args.output),
        comment=f"{metric} target {target:g}: baseline {result.baseline:.4g}, "
        f"with these {result.score:.4g} ({args.method}, {args.scheme})",
    )
    print(result.report(metric))
    print(f"qprecision: {len(result.qtable.entries)} op(s) -> {args.output}")
    return 0 if result.reached else NOT_REACHED


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    return run_tool("qprecision", lambda: _main(args), (CalibrationError,))


if __name__ == "__main__":
    sys.exit(main())
