"""What every qdialect command-line tool shares: reading input, chunks, parsing, verifying, locating."""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolUserOpInterface
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Input

from qdialect.dialects.hlo_types import InferenceError
from qdialect.dialects.stablehlo_type_constraints import type_constraint_error
from qdialect.ir.containers import first_container_error
from qdialect.ir.dominance import dominance_error
from qdialect.ir.errors import follow_ups, is_note
from qdialect.ir.parser import QParser, location_of
from qdialect.tools.boundary import UserError, first_line
from qdialect.tools.diagnostics import Diagnostic

__all__ = [
    "Chunk",
    "Locator",
    "UserError",
    "count_argument",
    "first_line",
    "op_message",
    "parse_chunk",
    "read_text",
    "seed_argument",
    "split_chunks",
    "verify_module",
    "verify_module_all",
]

SPLIT_MARKER = re.compile(r"^[ \t]*// -----", re.MULTILINE)
"""Where qopt splits its input: a line starting with `// -----`, indented or not.
(mlir-opt also splits where the marker follows other text on a line, e.g. in a
`// CHECK: // -----` line; qopt leaves those lines whole.)"""


def read_text(path: str) -> str:
    """The text of `path` ('-' = stdin), or a UserError."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as err:
        raise UserError(f"cannot read '{path}': {err.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"'{path}' is not UTF-8 text") from None


@dataclass
class Chunk:
    text: str
    line_offset: int  # lines before this chunk in the file


def split_chunks(text: str, split: bool) -> list[Chunk]:
    if not split:
        return [Chunk(text, 0)]
    chunks: list[Chunk] = []
    start, line = 0, 0
    for marker in SPLIT_MARKER.finditer(text):
        body = text[start : marker.start()]
        chunks.append(Chunk(body, line))
        line += body.count("\n")
        start = marker.start()
    chunks.append(Chunk(text[start:], line))
    return chunks


@dataclass
class Locator:
    """Maps operations back to source positions for diagnostics."""

    input: Input[str] | None = None
    line_offset: int = 0
    offsets: dict[Operation, int] = field(default_factory=dict)

    def locate(self, op: Operation | None, severity: str, message: str, file: str) -> Diagnostic:
        while op is not None:
            if isinstance(op.location, FileLineColLoc):
                loc = op.location
                return Diagnostic(
                    severity, message, loc.filename.data, loc.line.data, loc.column.data
                )
            if self.input is not None and op in self.offsets:
                where = location_of(self.input, self.offsets[op], self.line_offset)
                return Diagnostic(severity, message, file, where.line, where.col)
            op = op.parent_op()
        return Diagnostic(severity, message, None)


def parse_chunk(ctx: Context, chunk: Chunk, file: str) -> tuple[ModuleOp, Locator] | Diagnostic:
    """Parse one chunk; the module and a locator for its ops, or the located parse error."""
    try:
        parser = QParser(ctx, chunk.text, file, chunk.line_offset)  # lexes the first token
        locator = Locator(parser.lexer.input, chunk.line_offset, parser.op_offsets)
        return parser.parse_module(), locator
    except ParseError as err:
        located = [
            (
                "note" if is_note(e) else "error",
                e.msg,
                location_of(e.span.input, e.span.start, chunk.line_offset),
            )
            for e in (err, *follow_ups(err))
        ]
        first, *more = (Diagnostic(k, m, file, w.line, w.col) for k, m, w in located)
        return replace(first, follow_ups=tuple(more))


def op_message(op: Operation, message: str, always: bool = True) -> str:
    """`message` about `op` as MLIR's `emitOpError` words it: `'dialect.op' op message`.

    Verifiers may already start with the quoted op name (`'stablehlo.add' requires ...`,
    `'stablehlo.add': ...`); that name is replaced, so the prefix appears exactly once.
    With `always=False` (a pass's OpError) only a message that starts with the op's
    name is reworded: others read as MLIR's plain `emitError`."""
    quoted = f"'{op.name}'"
    if not always and not message.startswith(quoted):
        return message
    if message.startswith(quoted):
        message = message[len(quoted) :].lstrip(":").lstrip()
        message = message[3:] if message.startswith("op ") else message
    return f"{quoted} op {message}"


# Ops whose upstream checks live in their result-type inference (no verifier of their
# own), so that MLIR reports a failed check twice: the check's message, then "failed to
# infer returned types".
_MISSING_PROPERTY = re.compile(r"^property '([^']+)' expected in operation '[^']+'$")
_NOT_A_TERMINATOR = re.compile(
    r"^Operation (\S+) terminates block in single-block region but is not a terminator$"
)


_REDEFINED_SYMBOL = re.compile(r'^Redefinition of symbol "(.*)"$')


def _redefined_symbol(table: Operation, message: str) -> tuple[Operation, Operation, str] | None:
    """For xDSL's symbol-table error, the first definition, the second and the name:
    MLIR reports the second (`redefinition of symbol named 'x'`) with a note at the first."""
    if (m := _REDEFINED_SYMBOL.match(message)) is None or not table.regions:
        return None
    seen: dict[str, Operation] = {}
    for block in table.regions[0].blocks:
        for op in block.ops:
            name = op.get_attr_or_prop("sym_name")
            if not isinstance(name, StringAttr) or name.data != m.group(1):
                continue
            if name.data in seen:
                return seen[name.data], op, name.data
            seen[name.data] = op
    return None


def _mlir_words(message: str) -> str:
    """xDSL's words for what ODS checks, in MLIR's: a missing property is MLIR's
    `requires attribute 'X'`."""
    if (m := _MISSING_PROPERTY.match(message)) is not None:
        return f"requires attribute '{m.group(1)}'"
    if (m := _NOT_A_TERMINATOR.match(message)) is not None:
        return f"block with no terminator, has '{m.group(1)}'"
    return message


_NOT_INFERENCE = (
    "requires attribute '",
    "or more operands, but found",
    "failed to satisfy constraint",
    "failed to verify that",
    "requires the same shape for all operands and results",
    "requires the same element type for all operands and results",
    "all non-scalar operands/results must have the same shape and base type",
    "requires compatible types for all operands and results",
    "op requires one region",
    "' op operand #",
    "' op result #",
    "is not same as permutation",
    "expect same quantization scale",
    "requires the same number of operands and results",
    "requires the same element type for operand and result at index",
)
"""Messages of checks that are not the inference's, so no "failed to infer returned
types" follows them: ODS's (operand counts, attribute and type constraints, traits),
which come before it, and an op's own verifier (transpose's quantization dimension),
which comes after it."""

INFERENCE_VERIFIED = frozenset(
    "stablehlo." + name
    for name in (
        "abs",
        "all_to_all",
        "async_done",
        "async_start",
        "batch_norm_grad",
        "batch_norm_inference",
        "batch_norm_training",
        "broadcast",
        "case",
        "cholesky",
        "clamp",
        "concatenate",
        "constant",
        "dynamic_gather",
        "dynamic_slice",
        "dynamic_update_slice",
        "fft",
        "gather",
        "get_dimension_size",
        "get_tuple_element",
        "if",
        "imag",
        "map",
        "pad",
        "real",
        "rng",
        "select",
        "send",
        "set_dimension_size",
        "slice",
        "transpose",
        "triangular_solve",
        "tuple",
    )
)


def verify_module(
    module: ModuleOp, locator: Locator, file: str, suffix: str = ""
) -> Diagnostic | None:
    """MLIR-style verification: None if valid, else the first located error
    (`verify_module_all` has every function's)."""
    found = verify_module_all(module, locator, file, suffix)
    return found[0] if found else None


def verify_module_all(
    module: ModuleOp, locator: Locator, file: str, suffix: str = ""
) -> list[Diagnostic]:
    """Every error MLIR's verifier reports, worded `'dialect.op' op message` as MLIR words
    them: the module's own first (symbol redefinitions), then the first of each op in its
    body. MLIR verifies each op isolated from above (a function) on its own, so a file
    whose functions fail one check each reports every one of them, as upstream's
    expected-error lines want."""
    symbol_uses: list[Diagnostic] = []
    found = _verify_all(module, locator, file, suffix, symbol_uses)
    # MLIR checks symbol uses (a call's callee, a mesh a collective names) only once
    # every op has verified, and reports the first that fails.
    return found or symbol_uses[:1]


def _verify_all(
    module: ModuleOp, locator: Locator, file: str, suffix: str, symbol_uses: list[Diagnostic]
) -> list[Diagnostic]:
    own = _first_error(module, locator, file, suffix, symbol_uses, nested=False)
    if own is not None:
        return [own]
    found: list[Diagnostic] = []
    for op in module.ops:
        if isinstance(op, ModuleOp):
            found += _verify_all(op, locator, file, suffix, symbol_uses)
        elif (diag := _first_error(op, locator, file, suffix, symbol_uses)) is not None:
            found.append(diag)
    return found


def _symbol_use_failure(op: Operation, message: str) -> bool:
    """Whether `op` failed verification (with `message`) in a symbol-use check."""
    for trait in op.get_traits_of_type(SymbolUserOpInterface):
        try:
            trait.verify(op)
        except DiagnosticException as err:
            return first_line(err) == message
    return False


def _first_error(
    root: Operation,
    locator: Locator,
    file: str,
    suffix: str,
    symbol_uses: list[Diagnostic],
    nested: bool = True,
) -> Diagnostic | None:
    """The first failing op under `root` (or `root` alone unless `nested`), located;
    failed symbol-use checks are appended to `symbol_uses` instead.

    Op by op in walk order (parents before their regions, as MLIR verifies): the
    element-type constraints upstream's ODS puts on StableHLO ops, then xDSL's verifier.
    Then SSA dominance, then element types against their containers
    (`qdialect.ir.containers`), which upstream leaves to the ops and so reports after them.
    """

    def located(op: Operation, message: str) -> Diagnostic:
        return locator.locate(op, "error", op_message(op, message) + suffix, file)

    deferred = len(symbol_uses)
    try:
        root.verify(verify_nested_ops=nested)
        whole_error = None
    except DiagnosticException as err:
        whole_error = first_line(err)
    for op in root.walk() if nested else (root,):
        if (message := type_constraint_error(op)) is not None:
            return located(op, message)
        if whole_error is not None:  # find the op that failed
            try:
                op.verify(verify_nested_ops=False)
            except DiagnosticException as err:
                if _symbol_use_failure(op, first_line(err)):
                    symbol_uses.append(located(op, _mlir_words(first_line(err))))
                    continue
                if (twice := _redefined_symbol(op, first_line(err))) is not None:
                    first, again, name = twice
                    note = locator.locate(
                        first, "note", "see existing symbol definition here", file
                    )
                    diag = locator.locate(
                        again, "error", f"redefinition of symbol named '{name}'" + suffix, file
                    )
                    return dataclasses.replace(diag, follow_ups=(note,))
                if isinstance(err, InferenceError) and err.plain:
                    diag = locator.locate(op, "error", first_line(err) + suffix, file)
                else:
                    diag = located(op, _mlir_words(first_line(err)))
                if isinstance(err, InferenceError) or (
                    op.name in INFERENCE_VERIFIED
                    and not any(phrase in diag.message for phrase in _NOT_INFERENCE)
                ):
                    # MLIR follows an inference failure with a second error at the op.
                    follow = located(op, "failed to infer returned types")
                    diag = dataclasses.replace(diag, follow_ups=(follow,))
                return diag
    if whole_error is not None and len(symbol_uses) == deferred:  # none found under root
        return Diagnostic("error", whole_error + suffix)
    if not nested:
        return None
    if (wrong := dominance_error(root) or first_container_error(root)) is not None:
        return located(*wrong)
    return None


def count_argument(limit: int) -> Callable[[str], int]:
    """argparse type of a repeat count: an integer in [1, limit] (a count of 10^9 would
    only look like a hang)."""

    def parse(text: str) -> int:
        try:
            count = int(text, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a count, got '{text}'") from None
        if not 1 <= count <= limit:
            raise argparse.ArgumentTypeError(f"expected a count in [1, {limit}], got {count}")
        return count

    return parse


def seed_argument(text: str) -> int:
    """argparse type of a random seed: a non-negative integer (numpy's generators refuse
    negative ones)."""
    try:
        seed = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{text}'") from None
    if seed < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {seed}")
    return seed
