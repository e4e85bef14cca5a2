"""Errors that passes and verifiers raise so drivers can locate them in the source."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


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
