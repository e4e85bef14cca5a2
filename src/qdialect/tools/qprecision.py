"""`qprecision`: find the fewest ops to promote to 16 bits (or float) for a target accuracy.

    qprecision model.mlir --calibration calib.json --data eval.npz --target-sqnr 40 -o qtable.txt
    qprecision model.mlir --calibration calib.json --data eval.npz --target-top1 0.99 \\
        --promote float --method entropy -o qtable.txt
    qopt model.mlir -p 'stablehlo-quantize{calibration="calib.json" qtable="qtable.txt"}'

--search bisect (the default) measures each op the quantize pass quantizes twice on
the simulated quantization — quantized alone (the rest float) and dequantized alone
(the rest quantized) — ranks them by the error each brings alone, and bisects to the fewest of the top-ranked ops whose promotion reaches the target, each
probe scored on the real integer program (qdialect.debug.sensitivity; a MobileNetV2 in
about half a minute per input). --search greedy promotes each op alone on the integer
program, then promotes greedily, most sensitive first (one full evaluation per op:
minutes on large models). Scores are against the float program on --data: output SQNR
in dB (--target-sqnr), or the fraction of inputs whose largest output is the float
program's (--target-top1). --method, --scheme, --formula, --weights and --percentile are
the quantize pass's options.

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
from qdialect.interpreter import InterpreterError
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import UserError
from qdialect.tools.diagnostics import Diagnostic
from qdialect.tools.qcalib import add_quantize_options, quantize_options, read_program
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
    add_quantize_options(p)
    p.add_argument("--search", choices=("bisect", "greedy"), default="bisect")
    p.add_argument("--show", type=int, default=20, metavar="N",
                   help="--search bisect: print the N most sensitive ops (default 20)")  # fmt: skip
    p.add_argument("--function", default="main")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def _main(args: argparse.Namespace) -> int:
    program = read_program(args.input_file, args.function)
    if isinstance(program, Diagnostic):
        program.emit(sys.stderr)
        return 1
    cal = Calibration.load(Path(args.calibration))
    options = quantize_options(args)
    _, batches = function_batches(program.func, Path(args.data))
    inputs = list(batches)
    metric, target = (("sqnr", args.target_sqnr) if args.target_sqnr is not None
                      else ("top1", args.target_top1))  # fmt: skip

    if args.search == "bisect":
        return _bisect(args, program.module, cal, inputs, metric, target, options)

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


def _bisect(args: argparse.Namespace, module, cal: Calibration, inputs, metric: str,
            target: float, options: Options) -> int:  # fmt: skip
    from qdialect.debug.sensitivity import analyze, bisect

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"  {line}", file=sys.stderr)

    try:
        found = analyze(module, cal, inputs, metric=metric, options=options,
                        function=args.function, progress=progress)  # fmt: skip
        ranked = [u.key for u in found.ranked()]
        result = bisect(module, cal, inputs, ranked, target, metric=metric,
                        promote=args.promote, options=options, function=args.function)  # fmt: skip
    except InterpreterError as err:
        raise UserError(str(err)) from None
    print(found.report(args.show))
    probes = ", ".join(f"{k}: {score:.4g}" for k, score in result.probes)
    print(f"bisection ({args.promote}), ops promoted: {metric} — {probes} ({result.seconds:.1f} s)")
    verdict = "reached" if result.reached else "NOT reached (every candidate promoted)"
    print(f"promoted {len(result.qtable.entries)} op(s): {metric} {result.score:.4g}, "
          f"target {target:g} {verdict}")  # fmt: skip
    result.qtable.save(
        Path(args.output),
        comment=f"{metric} target {target:g}: all 8-bit {found.all_quantized:.4g}, with these "
        f"{result.score:.4g} ({args.method}, {args.scheme}, bisection)",
    )
    print(f"qprecision: {len(result.qtable.entries)} op(s) -> {args.output}")
    return 0 if result.reached else NOT_REACHED


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    return run_tool("qprecision", lambda: _main(args), (CalibrationError,))


if __name__ == "__main__":
    sys.exit(main())
