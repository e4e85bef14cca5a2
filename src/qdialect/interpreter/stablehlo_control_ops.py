"""Semantics of the region and tuple ops: while, if, case, map, sort, tuple, get_tuple_element.

Regions run through `Interpreter.run_region`, so they read values of the
enclosing blocks as dominance allows. Values move as they are (quantized ones
as storage integers; the regions see the same types).
"""

from __future__ import annotations

import functools

import numpy as np

from qdialect.dialects import stablehlo_control as sc
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.values import InterpreterError

MAX_WHILE_ITERATIONS = 10_000_000
"""A `stablehlo.while` that runs longer is reported instead of hanging the interpreter."""


@implements(sc.WhileOp, quantized="none")
def _while(interp: Interpreter, op: sc.WhileOp, args: Arrays, types: Types) -> Arrays:
    values = list(args)
    for _ in range(MAX_WHILE_ITERATIONS):
        (cond,) = interp.run_region(op.cond, values)
        if not bool(np.asarray(cond)):
            return values
        values = interp.run_region(op.body, values)
    raise InterpreterError(f"'{op.name}' did not finish within {MAX_WHILE_ITERATIONS} iterations")


@implements(sc.IfOp, quantized="none")
def _if(interp: Interpreter, op: sc.IfOp, args: Arrays, types: Types) -> Arrays:
    branch = op.true_branch if bool(np.asarray(args[0])) else op.false_branch
    return interp.run_region(branch, [])


@implements(sc.CaseOp, quantized="none")
def _case(interp: Interpreter, op: sc.CaseOp, args: Arrays, types: Types) -> Arrays:
    index = int(np.asarray(args[0]))
    n = len(op.branches)
    if not 0 <= index < n:  # the spec: an out-of-range index runs the last branch
        index = n - 1
    return interp.run_region(op.branches[index], [])


@implements(sc.MapOp, quantized="none")
def _map(interp: Interpreter, op: sc.MapOp, args: Arrays, types: Types) -> Arrays:
    """The computation on each element's scalars, in index order."""
    shape = args[0].shape
    out = np.empty(shape, dtype=v.dtype_of(types[0]))
    for index in np.ndindex(*shape):
        (value,) = interp.run_region(op.computation, [np.asarray(a[index]) for a in args])
        out[index] = value
    return [out]


@implements(sc.SortOp, quantized="none")
def _sort(interp: Interpreter, op: sc.SortOp, args: Arrays, types: Types) -> Arrays:
    """Sort 1-D slices along `dimension` with the comparator: a stable merge sort (stable
    sorting is one of the orders an unstable sort may give)."""
    dim = op.sort_dimension()
    if args[0].ndim == 0:
        return list(args)
    moved = [np.moveaxis(a, dim, -1) for a in args]
    outs = [m.copy() for m in moved]
    length = moved[0].shape[-1]
    for index in np.ndindex(*moved[0].shape[:-1]):
        rows = [m[index] for m in moved]

        def less(i: int, j: int, rows: list[np.ndarray] = rows) -> bool:
            pairs = [np.asarray(x) for r in rows for x in (r[i], r[j])]
            (pred,) = interp.run_region(op.comparator, pairs)
            return bool(np.asarray(pred))

        def compare(i: int, j: int) -> int:
            if less(i, j):
                return -1
            return 1 if less(j, i) else 0

        order = sorted(range(length), key=functools.cmp_to_key(compare))
        for out, row in zip(outs, rows, strict=True):
            out[index] = row[order]
    return [np.moveaxis(o, -1, dim) for o in outs]


@implements(sc.TupleOp, quantized="none")
def _tuple(interp: Interpreter, op: sc.TupleOp, args: Arrays, types: Types) -> Arrays:
    return [tuple(args)]  # type: ignore[list-item]


@implements(sc.GetTupleElementOp, quantized="none")
def _get_tuple_element(
    interp: Interpreter, op: sc.GetTupleElementOp, args: Arrays, types: Types
) -> Arrays:
    return [args[0][op.index.value.data]]
