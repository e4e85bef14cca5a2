"""Semantics of async_start and async_done.

The interpreter runs the wrapped collective when `async_start` executes (its future
holds the result, a Python tuple) and `async_done` returns it: a program sees the same
values as if the collective ran at `async_done`, since nothing else can observe it in
between.
"""

from __future__ import annotations

from qdialect.dialects import stablehlo_async as sa
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements


@implements(sa.AsyncStartOp, quantized="none")
def _async_start(interp: Interpreter, op: sa.AsyncStartOp, args: Arrays, types: Types) -> Arrays:
    return [tuple(interp.run_region(op.body[0], args))]  # type: ignore[list-item]


@implements(sa.AsyncDoneOp, quantized="none")
def _async_done(interp: Interpreter, op: sa.AsyncDoneOp, args: Arrays, types: Types) -> Arrays:
    return [args[0][0]]
