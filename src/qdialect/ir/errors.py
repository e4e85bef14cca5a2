"""Errors that passes and verifiers raise so drivers can locate them in the source."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError


class OpError(DiagnosticException):
    """A user-facing error about one operation (e.g. "unsupported op in pass X").

    Drivers report it at the op's source location, like MLIR's `op->emitError()`.
    """

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message


class OpErrors(OpError):
    """Every op a pass rejects, as an MLIR pass reports each failing op before it fails.

    Drivers that know it report them all; others see the first, as an `OpError`.
    """

    def __init__(self, errors: list[OpError]):
        super().__init__(errors[0].op, errors[0].message)
        self.errors = errors


_FOLLOW_UPS = "qdialect_follow_ups"


def add_follow_up(err: ParseError, follow_up: ParseError) -> ParseError:
    """Note a further error MLIR reports for the same parse failure (an attribute parser's
    "failed parsing ... attribute" after the struct parser's own message); returns `err`."""
    setattr(err, _FOLLOW_UPS, [*follow_ups(err), follow_up])
    return err


def follow_ups(err: ParseError) -> list[ParseError]:
    """The further errors noted on `err`, in the order MLIR emits them."""
    return list(getattr(err, _FOLLOW_UPS, ()))


_NOTE = "qdialect_note"


def add_note(err: ParseError, note: ParseError) -> ParseError:
    """Attach a note MLIR emits with the parse error (`add a trailing dot ...`); it is
    reported as a note after `err`; returns `err`."""
    setattr(note, _NOTE, True)
    return add_follow_up(err, note)


def is_note(err: ParseError) -> bool:
    return bool(getattr(err, _NOTE, False))


_CORE = "qdialect_core"


def mark_core(err: ParseError) -> ParseError:
    """Note that `err` (and the further errors noted on it) is the core type or attribute
    parser's, which MLIR does not prefix with the custom op being parsed; returns `err`."""
    for e in (err, *follow_ups(err)):
        if not hasattr(e, _CORE):
            setattr(e, _CORE, True)
    return err


def is_core(err: ParseError) -> bool:
    return bool(getattr(err, _CORE, False))
