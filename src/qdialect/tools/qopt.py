"""`qopt`: the project's `mlir-opt`: parse, verify, run a pass pipeline, print.

Every user error (bad IR, bad type, unknown pass, malformed pipeline, missing
file) is one `file:line:col: error: ...` or `error: ...` line on stderr and
exit status 1. An internal error (a bug) is one line and exit status 2; set
QDIALECT_DEBUG=1 to see its traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import TextIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from qdialect.context import make_context
from qdialect.ir.errors import OpError, OpErrors
from qdialect.ir.printer import QPrinter
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import (
    Chunk,
    Locator,
    UserError,
    op_message,
    parse_chunk,
    read_text,
    split_chunks,
    verify_module_all,
)
from qdialect.tools.diagnostics import Diagnostic, check_expectations, parse_expectations
from qdialect.tools.pipeline import (
    PassStep,
    PipelineError,
    parse_pass_list,
    parse_pass_pipeline,
)
from qdialect.transforms import get_all_passes, pass_summary


class _ArgumentParser(ToolArgumentParser):
    def format_help(self) -> str:
        passes = StringIO()
        list_passes(passes)
        return super().format_help() + "\navailable passes:\n" + passes.getvalue()


def build_arg_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog="qopt",
        description="Parse, verify, transform and print MLIR with the qdialect dialects.",
    )
    p.add_argument("input_file", nargs="?", default="-", help="input .mlir file ('-' = stdin)")
    p.add_argument("-o", "--output-file", default="-", help="output file ('-' = stdout)")
    p.add_argument(
        "--pass-pipeline",
        metavar="PIPELINE",
        help="MLIR textual pipeline, e.g. 'builtin.module(canonicalize,func.func(cse))'",
    )
    p.add_argument(
        "-p", "--passes", metavar="PASSES", help="comma-separated passes, e.g. 'canonicalize,cse'"
    )
    p.add_argument(
        "--split-input-file", action="store_true", help="process each '// -----' chunk separately"
    )
    p.add_argument(
        "--verify-diagnostics",
        action="store_true",
        help="check '// expected-error @+1 {{...}}' comments against the diagnostics produced",
    )
    p.add_argument(
        "--mlir-print-ir-after-all",
        action="store_true",
        help="print the IR after every pass (stderr)",
    )
    p.add_argument(
        "--mlir-print-ir-before",
        action="append",
        default=[],
        metavar="PASS",
        help="print the IR before PASS (stderr)",
    )
    p.add_argument(
        "--mlir-print-ir-after",
        action="append",
        default=[],
        metavar="PASS",
        help="print the IR after PASS (stderr)",
    )
    p.add_argument(
        "--mlir-timing",
        action="store_true",
        help="print a wall-time report per phase and pass (stderr)",
    )
    p.add_argument(
        "--print-op-generic",
        "--mlir-print-op-generic",
        action="store_true",
        dest="print_op_generic",
        help="print operations in the generic form",
    )
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print operation locations")
    p.add_argument(
        "--upstream-names",
        action="store_true",
        help="name values as mlir-opt does (%%0, %%arg0, %%c, %%cst, ...) instead of keeping "
        "the input's names, so the output diffs cleanly against upstream's",
    )
    p.add_argument(
        "-t",
        "--target",
        choices=("mlir", "npu-asm", "npu-bin", "bundle"),
        default="mlir",
        help="output: MLIR text (default), NPU assembly of each npu.program, an .npub binary, "
        "or a .qbundle of a module partitioned by npu-partition (binaries: -o required)",
    )
    p.add_argument(
        "--allow-unregistered-dialect",
        action="store_true",
        help="accept operations of unknown dialects",
    )
    p.add_argument(
        "--list-passes",
        action="store_true",
        help="list every pass with its description and options",
    )
    p.add_argument("--version", action="version", version="qopt (qdialect) 0.1.0")
    return p


# --------------------------------------------------------------------------
# The driver
# --------------------------------------------------------------------------


@dataclass
class Timer:
    enabled: bool
    entries: list[tuple[str, float]] = field(default_factory=list)

    def record(self, name: str, seconds: float) -> None:
        if self.enabled:
            self.entries.append((name, seconds))

    def report(self, stream: TextIO) -> None:
        totals: dict[str, float] = {}
        for name, seconds in self.entries:
            totals[name] = totals.get(name, 0.0) + seconds
        total = sum(totals.values()) or 1e-12
        rule = "===" + "-" * 73 + "==="
        print(rule, file=stream)
        print("Execution time report".center(len(rule)), file=stream)
        print(rule, file=stream)
        print(f"  Total Execution Time: {total:.4f} seconds\n", file=stream)
        print("  ----Wall Time----  ----Name----", file=stream)
        for name, seconds in totals.items():
            print(f"  {seconds:8.4f} ({100 * seconds / total:5.1f}%)  {name}", file=stream)
        print(f"  {total:8.4f} (100.0%)  Total", file=stream)


class QOpt:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.ctx: Context = make_context(args.allow_unregistered_dialect)
        self.registry = get_all_passes()
        self.file = "<stdin>" if args.input_file == "-" else args.input_file
        self.timer = Timer(args.mlir_timing)
        self.steps: list[PassStep] = []

    # ---- setup ------------------------------------------------------------

    def build_pipeline(self) -> list[PassStep]:
        steps: list[PassStep] = []
        if self.args.pass_pipeline:
            steps += parse_pass_pipeline(self.args.pass_pipeline, self.registry)
        if self.args.passes:
            steps += parse_pass_list(self.args.passes, self.registry)
        for name in [*self.args.mlir_print_ir_before, *self.args.mlir_print_ir_after]:
            if name not in self.registry:
                raise PipelineError(f"unknown pass '{name}' in --mlir-print-ir-before/after")
        return steps

    def read_input(self) -> str:
        return read_text(self.args.input_file)

    # ---- one chunk ----------------------------------------------------------

    def process(self, chunk: Chunk) -> tuple[str | None, list[Diagnostic]]:
        """Parse, verify, transform and print one chunk: (output or None, diagnostics)."""
        start = time.perf_counter()
        parsed = parse_chunk(self.ctx, chunk, self.file)
        if isinstance(parsed, Diagnostic):
            return None, parsed.all()
        module, locator = parsed
        self.timer.record("Parser", time.perf_counter() - start)

        if found := self.verify(module, locator):
            return None, [d for diag in found for d in diag.all()]

        for step in self.steps:
            if step.name in self.args.mlir_print_ir_before:
                self.dump(module, f"IR Dump Before {step.name}")
            start = time.perf_counter()
            try:
                step.apply(self.ctx, module)
            except OpErrors as err:
                return None, [
                    locator.locate(
                        e.op, "error", op_message(e.op, e.message, always=False), self.file
                    )
                    for e in err.errors
                ]
            except OpError as err:
                message = op_message(err.op, err.message, always=False)
                return None, [locator.locate(err.op, "error", message, self.file)]
            except DiagnosticException as err:
                return None, [Diagnostic("error", f"pass '{step.name}' failed: {err}")]
            self.timer.record(step.name, time.perf_counter() - start)
            if found := self.verify(module, locator, after=step.name):
                return None, [d for diag in found for d in diag.all()]
            if self.args.mlir_print_ir_after_all or step.name in self.args.mlir_print_ir_after:
                self.dump(module, f"IR Dump After {step.name}")

        start = time.perf_counter()
        if self.args.target == "mlir":
            text = self.print_module(module)
        elif self.args.target == "bundle":
            try:
                text = self.emit_bundle(module)
            except OpError as err:
                return None, [locator.locate(err.op, "error", err.message, self.file)]
        else:
            text = self.emit_npu(module)
            if isinstance(text, Diagnostic):
                return None, [text]
        self.timer.record("Output", time.perf_counter() - start)
        return text, []

    def emit_bundle(self, module: ModuleOp) -> str:
        """The hex of a `.qbundle` (docs/partition.md): the module's NPU-marked functions
        compiled, with the module's text."""
        from qdialect.runtime.bundle import BundleError, build_bundle

        try:
            return build_bundle(module).to_bytes().hex()
        except BundleError as err:
            raise UserError(f"-t bundle: {err}") from None

    def emit_npu(self, module: ModuleOp) -> str | Diagnostic:
        """NPU assembly of every npu.program, or (npu-bin) the hex of the one program's binary."""
        from qdialect.dialects.npu import ProgramOp, program_binary
        from qdialect.npu.machine import load_machine
        from qdialect.npu.program_text import program_text

        programs = [op for op in module.walk() if isinstance(op, ProgramOp)]
        if not programs:
            return Diagnostic("error", f"-t {self.args.target}: the module has no npu.program")
        if self.args.target == "npu-asm":  # the whole program: qasm assembles it to -t npu-bin
            texts = []
            for p in programs:
                digest = load_machine(p.machine.data).digest()
                texts.append(program_text(program_binary(p, digest), p.machine.data))
            return "".join(texts)
        if len(programs) != 1:
            return Diagnostic(
                "error", f"-t npu-bin: expected one npu.program, found {len(programs)}"
            )
        program = programs[0]
        digest = load_machine(program.machine.data).digest()
        return program_binary(program, digest).to_bytes().hex()

    def verify(
        self, module: ModuleOp, locator: Locator, after: str | None = None
    ) -> list[Diagnostic]:
        start = time.perf_counter()
        try:
            return verify_module_all(
                module, locator, self.file, f" (after pass '{after}')" if after else ""
            )
        finally:
            self.timer.record("Verifier", time.perf_counter() - start)

    def print_module(self, module: ModuleOp) -> str:
        out = StringIO()
        printer = QPrinter(
            stream=out,
            print_generic_format=self.args.print_op_generic,
            print_debuginfo=self.args.mlir_print_debuginfo,
            upstream_names=self.args.upstream_names,
        )
        printer.print_op(module)
        out.write("\n")
        return out.getvalue()

    def dump(self, module: ModuleOp, title: str) -> None:
        sys.stderr.write(f"// -----// {title} //----- //\n{self.print_module(module)}\n")

    # ---- whole run ----------------------------------------------------------

    def run(self) -> int:
        self.steps = self.build_pipeline()
        text = self.read_input()
        chunks = split_chunks(text, self.args.split_input_file)
        outputs: list[str] = []
        failed = False
        for chunk in chunks:
            output, diagnostics = self.process(chunk)
            if self.args.verify_diagnostics:
                expectations = parse_expectations(chunk.text, chunk.line_offset, self.file)
                if isinstance(expectations, Diagnostic):
                    diagnostics = [expectations]
                else:
                    diagnostics = check_expectations(expectations, diagnostics, self.file)
            for diag in diagnostics:
                diag.emit()
            failed |= bool(diagnostics)
            if self.args.target == "mlir":  # as mlir-opt: a blank line after each module,
                outputs.append("" if output is None else output + "\n")  # a separator per chunk
            elif output is not None:
                outputs.append(output)
        self.write_output("// -----\n".join(outputs))
        if self.args.mlir_timing:
            self.timer.report(sys.stderr)
        return 1 if failed else 0

    def write_output(self, text: str) -> None:
        if self.args.target in ("npu-bin", "bundle"):
            suffix = "npub" if self.args.target == "npu-bin" else "qbundle"
            if self.args.output_file == "-":
                raise UserError(
                    f"-t {self.args.target} writes a binary file: give -o FILE.{suffix}"
                )
            if "// -----" in text:
                raise UserError(f"-t {self.args.target} writes one file: do not split the input")
            try:
                with open(self.args.output_file, "wb") as f:
                    f.write(bytes.fromhex(text))
            except OSError as err:
                raise UserError(f"cannot write '{self.args.output_file}': {err.strerror}") from None
            return
        if self.args.output_file == "-":
            sys.stdout.write(text)
            return
        try:
            with open(self.args.output_file, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            raise UserError(f"cannot write '{self.args.output_file}': {err.strerror}") from None


def list_passes(stream: TextIO) -> None:
    """Every registered pass: name, one-line description, options."""
    import dataclasses

    for name, factory in sorted(get_all_passes().items()):
        cls = factory()
        print(f"  {name}: {pass_summary(name, cls)}", file=stream)
        for f in dataclasses.fields(cls):
            default = f.default if f.default is not dataclasses.MISSING else None
            option = f.name.replace("_", "-")
            print(f"      {option}={_type_name(f.type)} (default: {default!r})", file=stream)


def _type_name(t: object) -> str:
    return t if isinstance(t, str) else getattr(t, "__name__", str(t))


def mlir_style_arguments(
    argv: Sequence[str], parser: argparse.ArgumentParser, passes: Iterable[str]
) -> tuple[list[str], list[str]]:
    """`argv` with mlir-opt's spellings made qopt's: a long option with one dash
    (`-split-input-file`) gets its second, and a pass given as a flag
    (`--canonicalize`, `-tosa-validate=profile=pro_int`) is taken out and returned as a
    pipeline element (`tosa-validate{profile=pro_int}`), in order."""
    long_options = {o for a in parser._actions for o in a.option_strings if o.startswith("--")}
    known_passes = set(passes)
    rest: list[str] = []
    pass_flags: list[str] = []
    for index, token in enumerate(argv):
        if token == "--":
            rest += argv[index:]
            break
        name, eq, value = token.partition("=")
        if name.startswith("-") and not name.startswith("--") and len(name) > 2:
            if "-" + name in long_options or name[1:] in known_passes:
                name, token = "-" + name, "-" + token
        if name.startswith("--") and name not in long_options and name[2:] in known_passes:
            pass_flags.append(f"{name[2:]}{{{value}}}" if eq else name[2:])
            continue
        rest.append(token)
    return rest, pass_flags


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_arg_parser()
    argv, pass_flags = mlir_style_arguments(
        sys.argv[1:] if argv is None else list(argv), parser, get_all_passes()
    )
    args = parser.parse_args(argv)
    if pass_flags:
        if args.pass_pipeline:
            parser.error("'--pass-pipeline' cannot be used with passes given as flags")
        args.passes = ",".join(filter(None, [args.passes, *pass_flags]))

    def body() -> int:
        if args.list_passes:
            print("Available passes:")
            list_passes(sys.stdout)
            return 0
        return QOpt(args).run()

    return run_tool("qopt", body, (PipelineError,))


if __name__ == "__main__":
    sys.exit(main())
