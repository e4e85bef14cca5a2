"""Semantics of replica_id, partition_id and the collectives, for one process.

`qrun` runs a function as the single process of a 1x1 grid (replica 0,
partition 0). A collective then exchanges data within a group of one: the
spec's all_reduce, all_gather, all_to_all, reduce_scatter and
collective_broadcast all return the operand, collective_permute returns it
when the pairs send process 0 to itself and zeros otherwise. A group naming
any other process is reported: it needs processes this interpreter does not
run.
"""

from __future__ import annotations

import numpy as np

from qdialect.dialects import stablehlo_collectives as sc
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.values import InterpreterError

NUM_PROCESSES = 1


@implements(sc.ReplicaIdOp, sc.PartitionIdOp, quantized="none")
def _process_id(
    interp: Interpreter, op: sc.ReplicaIdOp | sc.PartitionIdOp, args: Arrays, types: Types
) -> Arrays:
    return [np.asarray(0, dtype=np.uint32)]


def _check_single_process(op: sc._Collective) -> list[list[int]]:
    groups = op.groups() or [[0]]
    for group in groups:
        for i in group:
            if i >= NUM_PROCESSES:
                raise InterpreterError(
                    f"'{op.name}' names process {i}, but the interpreter runs one process "
                    "(replica 0, partition 0)"
                )
    return groups


@implements(
    sc.AllReduceOp,
    sc.AllGatherOp,
    sc.ReduceScatterOp,
    sc.CollectiveBroadcastOp,
    quantized="storage",
)
def _group_of_one(interp: Interpreter, op: sc._Collective, args: Arrays, types: Types) -> Arrays:
    _check_single_process(op)
    return [np.array(a, copy=True) for a in args]


@implements(sc.AllToAllOp, quantized="storage")
def _all_to_all(interp: Interpreter, op: sc.AllToAllOp, args: Arrays, types: Types) -> Arrays:
    _check_single_process(op)
    if op.int_attr("split_count") != 1:
        raise InterpreterError(
            f"'{op.name}' split_count {op.int_attr('split_count')} needs that many processes; "
            "the interpreter runs one"
        )
    return [np.array(a, copy=True) for a in args]  # one piece split, one concatenated


@implements(sc.CollectivePermuteOp, quantized="storage")
def _collective_permute(
    interp: Interpreter, op: sc.CollectivePermuteOp, args: Arrays, types: Types
) -> Arrays:
    pairs = _check_single_process(op)
    receives = any(pair == [0, 0] for pair in pairs)
    return [np.array(a, copy=True) if receives else np.zeros_like(a) for a in args]
