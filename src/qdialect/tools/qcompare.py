"""`qcompare`: where does a quantized model lose accuracy? Every tensor, every stage.

    qcompare model.mlir --calibration calib.json --data eval.npz
    qcompare model.mlir --calibration calib.json --random-inputs 0 --stages quant,tosa,npu \\
        --plot plots/ --plot-tensor conv1 --dump dumps/ --json table.json

The float program (what `qcalib` calibrated) is quantized as `stablehlo-quantize` would
(--method, --scheme, --formula, --weights, --percentile, --qtable are its options),
lowered to TOSA and to the NPU, and every stage runs on the same inputs. Tensors are
matched by the source model's names, which every pass carries as locations. The
table gives, per tensor and stage, SQNR and cosine against float and the largest error
in storage units; TOSA's and the NPU's integers are compared with the stage they were
lowered from. The first tensor below --min-sqnr / --min-cosine is named, and the first
whose NPU integers differ from TOSA's, with the instructions that computed it.

--dump DIR writes one .npz per stage (tensor name -> values in the model's layout,
inputs stacked) and --save-stages DIR each stage's program: `qcut` cuts a layer out of
any stage and `qcut --from-dump` gives it that stage's inputs. --plot DIR draws SQNR along the network and, for the first
tensor below the thresholds and each --plot-tensor, the float histogram with the
clipping range and the dequantized one (matplotlib: `pip install 'qdialect[plot]'`).

Exit status: 0 when every tensor is within the thresholds and the NPU equals TOSA, 1 when
not (or on bad input), 2 on an internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.ir import Operation

from qdialect.calibration.calibrate import Calibration, CalibrationError, function_batches
from qdialect.calibration.qtable import QTable
from qdialect.debug.layer_table import (
    Table,
    Thresholds,
    build_table,
    format_table,
    to_json,
    verdict,
)
from qdialect.debug.names import named_values
from qdialect.debug.stages import STAGES, Programs, StageError, StageTrace, run_all
from qdialect.interpreter import InterpreterError
from qdialect.interpreter.values import random_value
from qdialect.ir.printer import module_text
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import UserError
from qdialect.tools.diagnostics import Diagnostic
from qdialect.tools.npz import write_npz
from qdialect.tools.qcalib import add_quantize_options, quantize_options, read_program

USAGE = __doc__ or ""


def build_arg_parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(
        prog="qcompare",
        description=USAGE.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(USAGE.splitlines()[2:]),
    )
    p.add_argument("input_file", help="the float program the calibration was made on")
    p.add_argument("--calibration", required=True, metavar="JSON", help="qcalib's output")
    data = p.add_mutually_exclusive_group(required=True)
    data.add_argument("--data", metavar="NPZ|DIR", help="inputs (qcalib's --data format)")
    data.add_argument("--random-inputs", type=int, metavar="SEED", help="random inputs")
    p.add_argument("--samples", type=int, default=4, metavar="N",
                   help="inputs to run (default 4)")  # fmt: skip
    p.add_argument("--stages", default="quant,tosa,npu",
                   help=f"stages to compare with float, of {','.join(STAGES[1:])}")  # fmt: skip
    p.add_argument("--npu-observe-all", action="store_true",
                   help="compile the NPU stage keeping nothing on chip, so every layer's "
                   "output is observed (the program differs from the default build)")  # fmt: skip
    p.add_argument("--min-sqnr", type=float, default=20.0, metavar="DB")
    p.add_argument("--min-cosine", type=float, default=0.99)
    p.add_argument("--qtable", metavar="FILE", help="per-op precisions (qprecision's output)")
    add_quantize_options(p)
    p.add_argument("--function", default="main")
    p.add_argument("--json", metavar="FILE", help="write the table as JSON")
    p.add_argument("--dump", metavar="DIR", help="write <stage>.npz of every tensor")
    p.add_argument("--save-stages", metavar="DIR",
                   help="write <stage>.mlir of every stage (with locations), for qcut")  # fmt: skip
    p.add_argument("--plot", metavar="DIR", help="write the plots here")
    p.add_argument("--plot-tensor", action="append", default=[], metavar="NAME",
                   help="also plot this tensor's histograms (repeatable)")  # fmt: skip
    p.add_argument("--plot-format", choices=("png", "svg"), default="png")
    return p


def _stages(text: str) -> list[str]:
    asked = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in asked if s not in STAGES]
    if unknown or not asked:
        raise UserError(
            f"--stages: unknown stage(s) {', '.join(unknown) or '(none given)'} "
            f"(of {', '.join(STAGES[1:])})"
        )
    return ["float", *[s for s in STAGES[1:] if s in asked]]


def _inputs(args: argparse.Namespace, func) -> list[list[np.ndarray]]:
    if args.samples < 1:
        raise UserError("--samples must be at least 1")
    if args.data is not None:
        _, batches = function_batches(func, Path(args.data))
        inputs = []
        for batch in batches:
            inputs.append(batch)
            if len(inputs) == args.samples:
                break
        if not inputs:
            raise UserError(f"'{args.data}' holds no inputs")
        return inputs
    rng = np.random.default_rng(args.random_inputs)
    block = func.body.block
    return [[random_value(a.type, rng) for a in block.args] for _ in range(args.samples)]


def dump(traces: dict[str, StageTrace], directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for stage, trace in traces.items():
        arrays = {n: np.stack(o.arrays) for n, o in trace.values.items() if o.arrays}
        path = directory / f"{stage}.npz"
        write_npz(str(path), arrays)  # any tensor name, `file` and `allow_pickle` too
        written.append(path)
    return written


def save_stages(programs: Programs, stages: Sequence[str], directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for stage in stages:
        path = directory / f"{stage}.mlir"
        path.write_text(module_text(programs.module(stage), debuginfo=True))
        written.append(path)
    return written


def plot(table: Table, traces: dict[str, StageTrace], args: argparse.Namespace) -> list[Path]:
    from qdialect.debug import plots

    directory = Path(args.plot)
    directory.mkdir(parents=True, exist_ok=True)
    fmt = args.plot_format
    written = [plots.sqnr_plot(table, directory / f"sqnr.{fmt}")]
    names = list(args.plot_tensor)
    below = table.first_below()
    if below is not None and below[0] not in names:
        names.insert(0, below[0])
    reference = traces["float"]
    quant = traces.get("quant")
    for name in names:
        if name not in reference.values:
            raise UserError(f"--plot-tensor: no tensor '{name}' in the float program")
        got = quant.values.get(name) if quant is not None else None
        if got is None or got.quant is None:
            raise UserError(f"--plot-tensor: '{name}' is not quantized")
        path = directory / plots.file_name(name, "histogram", fmt)
        written.append(plots.histogram_plot(name, reference.values[name], got, path))
    return written


def _main(args: argparse.Namespace) -> int:
    stages = _stages(args.stages)
    program = read_program(args.input_file, args.function)
    if isinstance(program, Diagnostic):
        program.emit(sys.stderr)
        return 1
    if not any(isinstance(v.owner, Operation) for v in named_values(program.func).values()):
        raise UserError(
            f"no op of @{args.function} carries a name: tensors are matched by the source "
            "model's names, kept as op locations (qimport writes them; print with "
            "qopt --mlir-print-debuginfo to keep them)"
        )
    cal = Calibration.load(Path(args.calibration))
    options = quantize_options(args)
    qtable = QTable.load(Path(args.qtable)) if args.qtable else None
    inputs = _inputs(args, program.func)
    try:
        programs = Programs.from_float(program.module, cal, stages, options=options,
                                       qtable=qtable, function=args.function)  # fmt: skip
        programs.npu_keep_on_chip = not args.npu_observe_all
        traces = run_all(programs, stages, inputs)
    except (StageError, InterpreterError) as err:
        raise UserError(str(err)) from None
    table = build_table(traces, Thresholds(args.min_sqnr, args.min_cosine))
    print(format_table(table))
    for line in verdict(table):
        print(f"qcompare: {line}")
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(table), indent=1) + "\n")
    written = dump(traces, Path(args.dump)) if args.dump else []
    if args.save_stages:
        written += save_stages(programs, stages, Path(args.save_stages))
    if args.plot:
        from qdialect.debug.plots import PlotError

        try:
            written += plot(table, traces, args)
        except PlotError as err:
            raise UserError(str(err)) from None
    for path in written:
        print(f"qcompare: wrote {path}")
    return 0 if table.ok() else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    return run_tool("qcompare", lambda: _main(args), (CalibrationError,))


if __name__ == "__main__":
    sys.exit(main())
