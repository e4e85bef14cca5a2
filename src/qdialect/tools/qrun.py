"""`qrun`: run StableHLO-like programs with the reference interpreter.

    qrun tests.mlir                                 run every public function without
                                                    arguments; report check results
    qrun model.mlir --entry main --inputs in.npz --outputs out.npz
    qrun model.mlir --entry main --random-inputs 0 --dump-all-tensors dump.npz
    qrun --compare a.npz b.npz [--min-cosine 0.99 --min-sqnr 30 ...]

Exit status: 0 when everything ran and every check passed, 1 otherwise (a
failed check, a user error such as a missing input, an unsupported op),
2 on an internal error. Inputs/outputs in .npz files are keyed arg0, arg1, ...
and result0, result1, ...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from qdialect.context import make_context
from qdialect.interpreter import Interpreter, InterpreterError, OpFailure
from qdialect.interpreter.instrumentation_ops import ProbeLog, tensor_text
from qdialect.interpreter.values import random_value
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import (
    Locator,
    UserError,
    parse_chunk,
    read_text,
    seed_argument,
    split_chunks,
    verify_module,
)
from qdialect.tools.compare import Thresholds, compare_npz, format_report
from qdialect.tools.diagnostics import Diagnostic
from qdialect.tools.npz import NpzError, read_npz, write_npz


def build_arg_parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(
        prog="qrun",
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]),
    )
    p.add_argument("input_file", nargs="?", help="input .mlir file ('-' = stdin)")
    p.add_argument(
        "--split-input-file", action="store_true", help="run each '// -----' chunk separately"
    )
    p.add_argument(
        "--entry",
        metavar="FUNC",
        help="run this function (default: every public function without arguments)",
    )
    p.add_argument("--inputs", metavar="NPZ", help="arguments of --entry, keyed arg0, arg1, ...")
    p.add_argument(
        "--random-inputs",
        metavar="SEED",
        type=seed_argument,
        help="random arguments for --entry from this seed",
    )
    p.add_argument(
        "--save-inputs",
        metavar="NPZ",
        help="write the arguments used (e.g. random ones) to this file",
    )
    p.add_argument(
        "--outputs", metavar="NPZ", help="write the results of --entry, keyed result0, result1, ..."
    )
    p.add_argument(
        "--dump-all-tensors",
        metavar="NPZ",
        help="write every intermediate value, keyed function/value-name",
    )
    p.add_argument(
        "--print-results",
        action="store_true",
        help="print each function's results as StableHLO's interpreter prints them",
    )
    p.add_argument(
        "--probe-output-dir",
        metavar="DIR",
        help="write each value interpreter.probe records to DIR/probeN.npy, listed in "
        "DIR/index.csv (probe_id,type,path), as StableHLO's interpreter does",
    )
    p.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="compare two .npz files tensor by tensor (B is the reference)",
    )
    p.add_argument(
        "--min-cosine",
        type=float,
        default=0.99,
        help="--compare: minimum cosine similarity for floats (default 0.99)",
    )
    p.add_argument("--min-sqnr", type=float, help="--compare: minimum SQNR in dB for floats")
    p.add_argument(
        "--max-abs-error", type=float, help="--compare: maximum absolute error for floats"
    )
    p.add_argument(
        "--max-mismatch",
        type=int,
        default=0,
        help="--compare: integer elements allowed to differ (default 0)",
    )
    return p


def _load_npz(path: str) -> dict[str, np.ndarray]:
    try:
        return read_npz(path)
    except NpzError as err:
        raise UserError(str(err)) from None


def _save_npz(path: str, arrays: dict[str, np.ndarray]) -> None:
    try:
        write_npz(path, arrays)
    except NpzError as err:
        raise UserError(str(err)) from None


def _probe_directory(path: str | None) -> Path | None:
    """The probe output directory, created if needed, with a fresh index.csv."""
    if path is None:
        return None
    directory = Path(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "index.csv").write_text("", encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot write probes to '{path}': {err.strerror}") from None
    return directory


class QRun:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.file = "<stdin>" if args.input_file in (None, "-") else args.input_file
        self.ctx = make_context()
        self.probes = ProbeLog(_probe_directory(args.probe_output_dir))
        self.passed = 0
        self.failed = 0

    def report(self, diag: Diagnostic) -> None:
        """Diagnostics go to stderr like every tool's; stdout is flushed first so the
        PASS/FAIL lines and the errors interleave in order when both are captured."""
        sys.stdout.flush()
        for d in diag.all():
            d.emit(sys.stderr)

    def run(self) -> int:
        text = read_text(self.args.input_file or "-")
        dump: dict[str, np.ndarray] | None = {} if self.args.dump_all_tensors else None
        for chunk in split_chunks(text, self.args.split_input_file):
            parsed = parse_chunk(self.ctx, chunk, self.file)
            if isinstance(parsed, Diagnostic):
                self.report(parsed)
                self.failed += 1
                continue
            module, locator = parsed
            if (diag := verify_module(module, locator, self.file)) is not None:
                self.report(diag)
                self.failed += 1
                continue
            self.probes.forget()
            interp = Interpreter(module, dump=dump, probes=self.probes)
            if self.args.entry:
                self.run_entry(interp, locator)
            else:
                self.run_tests(interp, locator)
        if dump is not None:
            _save_npz(self.args.dump_all_tensors, dump)
        if not self.args.entry:
            print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0

    def run_tests(self, interp: Interpreter, locator: Locator) -> None:
        tests = [
            f
            for f in interp.functions.values()
            if f.body.blocks
            and not f.body.blocks.first.args
            and (f.sym_visibility is None or f.sym_visibility.data == "public")
        ]
        for func in tests:
            name = func.sym_name.data
            before = len(interp.check_failures)
            try:
                results = interp.call(name, [])
            except OpFailure as err:
                self.failed += 1
                print(f"FAIL: @{name}")
                self.report(locator.locate(err.op, "error", err.message, self.file))
                continue
            except InterpreterError as err:
                self.failed += 1
                print(f"FAIL: @{name}")
                self.report(Diagnostic("error", str(err)))
                continue
            failures = interp.check_failures[before:]
            if failures:
                self.failed += 1
                print(f"FAIL: @{name}")
                for failure in failures:
                    self.report(
                        locator.locate(
                            failure.op,
                            "error",
                            f"{failure.op.name} failed: {failure.message}",
                            self.file,
                        )
                    )
            else:
                self.passed += 1
                print(f"PASS: @{name}")
            if self.args.print_results:
                for value, t in zip(results, func.function_type.outputs.data, strict=True):
                    print(tensor_text(value, t))

    def run_entry(self, interp: Interpreter, locator: Locator) -> None:
        name = self.args.entry
        func = interp.functions.get(name)
        if func is None:
            raise UserError(
                f"no function @{name} in '{self.file}' (have: {', '.join('@' + n for n in interp.functions)})"
            )
        arg_types = [a.type for a in func.body.blocks.first.args] if func.body.blocks else []
        args = self.entry_inputs(name, arg_types)
        try:
            results = interp.call(name, args)
        except OpFailure as err:
            self.report(locator.locate(err.op, "error", err.message, self.file))
            self.failed += 1
            return
        except InterpreterError as err:
            raise UserError(str(err)) from None
        for failure in interp.check_failures:
            self.report(
                locator.locate(
                    failure.op, "error", f"{failure.op.name} failed: {failure.message}", self.file
                )
            )
            self.failed += 1
        outputs = {f"result{i}": r for i, r in enumerate(results)}
        if self.args.print_results:
            for value, t in zip(results, func.function_type.outputs.data, strict=True):
                print(tensor_text(value, t))
        if self.args.outputs:
            _save_npz(self.args.outputs, outputs)
        elif not self.args.print_results:
            for key, value in outputs.items():
                print(f"{key}: {value.dtype}{list(value.shape)}")
                print(np.array2string(value, threshold=64))

    def entry_inputs(self, name: str, arg_types: Sequence) -> list[np.ndarray]:
        if self.args.inputs and self.args.random_inputs is not None:
            raise UserError("use either --inputs or --random-inputs, not both")
        if self.args.inputs:
            data = _load_npz(self.args.inputs)
            keys = [f"arg{i}" for i in range(len(arg_types))]
            if not all(k in data for k in keys):
                positional = [f"arr_{i}" for i in range(len(arg_types))]
                if all(k in data for k in positional):
                    keys = positional
                else:
                    missing = [k for k in keys if k not in data]
                    raise UserError(
                        f"'{self.args.inputs}' lacks {', '.join(missing)} for @{name} ({len(arg_types)} arguments)"
                    )
            args = [data[k] for k in keys]
        elif self.args.random_inputs is not None:
            rng = np.random.default_rng(self.args.random_inputs)
            try:
                args = [random_value(t, rng) for t in arg_types]
            except InterpreterError as err:
                raise UserError(str(err)) from None
        elif arg_types:
            raise UserError(
                f"@{name} takes {len(arg_types)} arguments: pass --inputs FILE.npz or --random-inputs SEED"
            )
        else:
            args = []
        if self.args.save_inputs:
            _save_npz(self.args.save_inputs, {f"arg{i}": a for i, a in enumerate(args)})
        return args


def run_compare(args: argparse.Namespace) -> int:
    a, b = (_load_npz(p) for p in args.compare)
    thresholds = Thresholds(args.min_cosine, args.min_sqnr, args.max_abs_error, args.max_mismatch)
    reports = compare_npz(a, b, thresholds)
    print(format_report(reports))
    return 0 if all(r.ok for r in reports) else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)

    def body() -> int:
        if args.compare:
            return run_compare(args)
        if (args.inputs or args.random_inputs is not None or args.outputs) and not args.entry:
            raise UserError("--inputs, --random-inputs and --outputs need --entry FUNC")
        return QRun(args).run()

    return run_tool("qrun", body)


if __name__ == "__main__":
    sys.exit(main())
