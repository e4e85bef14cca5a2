"""Semantics of replica_id, partition_id, the collectives and `interpreter.run_parallel`.

Run directly, a function is the single process of a 1x1 grid (replica 0,
partition 0): collectives exchange data within a group of one.
`interpreter.run_parallel` runs a replicas x partitions grid, one thread and one
`Interpreter` per process; a collective posts its operands under (op, how many
times this process has run it) and reads the posts of the processes the spec's
process groups name. A group naming a process outside the grid, or a process
that never posts (it failed, or runs other code), is an error at the op.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from qdialect.dialects import interpreter as interp_dialect
from qdialect.dialects import stablehlo_collectives as sc
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.values import InterpreterError

WAIT_SECONDS = 60.0
"""How long a collective waits for another process's data before reporting it."""

Process = tuple[int, int]  # (replica id, partition id)


class _Rendezvous:
    """What a grid's processes share: posted values by key and process (readers wait
    until the value is there), the send/recv channels' queues, the infeed's functions
    still to read and what the outfeed received."""

    def __init__(self, infeed: Sequence[str] = ()) -> None:
        self._values: dict[tuple, Arrays] = {}
        self._ready = threading.Condition()
        self.failed = False
        self._channels: dict[int, list[Arrays]] = {}
        self._infeed = list(infeed)
        self.outfeed: list[Arrays] = []

    def send(self, channel: int, values: Arrays) -> None:
        with self._ready:
            self._channels.setdefault(channel, []).append(values)
            self._ready.notify_all()

    def recv(self, op_name: str, channel: int) -> Arrays:
        """The oldest values sent on `channel` not yet received (waiting for a send)."""
        with self._ready:
            done = self._ready.wait_for(
                lambda: bool(self._channels.get(channel)) or self.failed, timeout=WAIT_SECONDS
            )
            if self._channels.get(channel):
                return self._channels[channel].pop(0)
        why = "a process failed" if done else f"nothing was sent within {WAIT_SECONDS:.0f} s"
        raise InterpreterError(f"'{op_name}' waits on channel {channel}, but {why}")

    def next_infeed(self, op_name: str) -> str:
        with self._ready:
            if not self._infeed:
                raise InterpreterError(
                    f"'{op_name}' reads the infeed, which is empty (interpreter.run_parallel's "
                    "infeed lists the functions it reads, one per infeed op run)"
                )
            return self._infeed.pop(0)

    def write_outfeed(self, values: Arrays) -> None:
        with self._ready:
            self.outfeed.append(values)

    def post(self, key: tuple, process: Process, values: Arrays) -> None:
        with self._ready:
            self._values[(key, process)] = values
            self._ready.notify_all()

    def fail(self) -> None:
        with self._ready:
            self.failed = True
            self._ready.notify_all()

    def get(self, op_name: str, key: tuple, process: Process) -> Arrays:
        with self._ready:
            done = self._ready.wait_for(
                lambda: (key, process) in self._values or self.failed, timeout=WAIT_SECONDS
            )
            if (key, process) in self._values:
                return self._values[(key, process)]
        why = "failed" if done else f"did not reach it within {WAIT_SECONDS:.0f} s"
        raise InterpreterError(
            f"'{op_name}' waits for process (replica {process[0]}, partition {process[1]}), which {why}"
        )


@dataclass
class ProcessContext:
    """Where a process sits in the grid, and the channel to its peers."""

    replica: int
    partition: int
    replicas: int
    partitions: int
    rendezvous: _Rendezvous
    _counts: dict[int, int] = field(default_factory=dict)

    @property
    def me(self) -> Process:
        return (self.replica, self.partition)

    def key(self, op: sc._Collective) -> tuple:
        n = self._counts.get(id(op), 0)
        self._counts[id(op)] = n + 1
        return (id(op), n)


def context(interp: Interpreter) -> ProcessContext:
    """The process `interp` runs: its place in run_parallel's grid, or (run directly)
    the one process of a 1x1 grid, with channels and feeds of its own."""
    if interp.process is None:
        interp.process = ProcessContext(0, 0, 1, 1, _Rendezvous())
    return interp.process


def _channel_id(op: sc._Collective) -> int:
    attr = op._attr("channel_handle")
    return attr.data.handle if isinstance(attr, sc.ChannelHandleAttr) else 0


def _check_ids(op: sc._Collective, ids: Sequence[int], limit: int, what: str) -> None:
    for i in ids:
        if not 0 <= i < limit:
            if limit == 1:
                raise InterpreterError(
                    f"'{op.name}' names process {i}, but the interpreter runs one process "
                    "(replica 0, partition 0)"
                )
            raise InterpreterError(f"'{op.name}' names {what} {i}, but the grid has {limit}")


def process_groups(op: sc._Collective, ctx: ProcessContext) -> list[list[Process]]:
    """The spec's process groups: cross_replica, cross_partition,
    cross_replica_and_partition or flattened_ids, chosen by channel id and
    use_global_device_ids."""
    try:
        groups = op.groups()
    except ValueError as err:  # mesh-axes groups that cannot be expanded
        raise InterpreterError(f"'{op.name}' {err}") from None
    channel = _channel_id(op)
    global_ids = op._attr("use_global_device_ids") is not None
    cross_partition = isinstance(op, sc.AllToAllOp | sc.CollectiveBroadcastOp) and channel > 0
    if groups is None or not groups or not groups[0]:
        groups = [list(range(ctx.partitions if cross_partition else ctx.replicas))]
    if cross_partition:
        _check_ids(op, [i for g in groups for i in g], ctx.partitions, "partition")
        return [[(r, p) for p in g] for r in range(ctx.replicas) for g in groups]
    if channel <= 0 or isinstance(op, sc.AllToAllOp | sc.CollectiveBroadcastOp):
        _check_ids(op, [i for g in groups for i in g], ctx.replicas, "replica")
        return [[(r, p) for r in g] for p in range(ctx.partitions) for g in groups]
    if not global_ids:
        _check_ids(op, [i for g in groups for i in g], ctx.replicas, "replica")
        return [[(r, p) for p in range(ctx.partitions) for r in g] for g in groups]
    _check_ids(op, [i for g in groups for i in g], ctx.replicas * ctx.partitions, "process")
    return [[divmod(i, ctx.partitions) for i in g] for g in groups]


def _my_group(op: sc._Collective, ctx: ProcessContext) -> list[Process] | None:
    for group in process_groups(op, ctx):
        if ctx.me in group:
            return group
    return None


def _exchange(
    op: sc._Collective, ctx: ProcessContext, args: Arrays, peers: Sequence[Process]
) -> list[Arrays]:
    """Post this process's operands; return each peer's, in `peers` order."""
    key = ctx.key(op)
    ctx.rendezvous.post(key, ctx.me, [np.array(a, copy=True) for a in args])
    return [ctx.rendezvous.get(op.name, key, p) for p in peers]


def _reduce_over(interp: Interpreter, op: sc._Collective, per_process: list[Arrays]) -> Arrays:
    if op.computation is None or not op.computation.blocks:
        raise InterpreterError(f"'{op.name}' needs a reduction body")
    block = op.computation.blocks.first
    n = len(per_process[0])
    if block is not None and len(block.args) == 2 and n > 1:  # one scalar body per operand
        return [
            _reduce_over_one(interp, op, [values[i] for values in per_process]) for i in range(n)
        ]
    acc = per_process[0]
    for values in per_process[1:]:
        acc = interp.run_region(op.computation, [*acc, *values])
    return acc


def _reduce_over_one(interp: Interpreter, op: sc._Collective, values: Arrays):
    assert op.computation is not None
    acc = values[0]
    for value in values[1:]:
        (acc,) = interp.run_region(op.computation, [acc, value])
    return acc


@implements(sc.ReplicaIdOp, sc.PartitionIdOp, quantized="none")
def _process_id(
    interp: Interpreter, op: sc.ReplicaIdOp | sc.PartitionIdOp, args: Arrays, types: Types
) -> Arrays:
    ctx = context(interp)
    value = ctx.replica if isinstance(op, sc.ReplicaIdOp) else ctx.partition
    return [np.asarray(value, dtype=np.uint32)]


def _group_or_fail(op: sc._Collective, ctx: ProcessContext) -> list[Process]:
    group = _my_group(op, ctx)
    if group is None:
        raise InterpreterError(
            f"'{op.name}': process (replica {ctx.replica}, partition {ctx.partition}) "
            "is in none of its groups"
        )
    return group


def _promoted(args: Arrays, types: Types) -> Arrays:
    """The operands in the results' element types: a reducing collective's body may take
    wider types than its operands (i8 summed in i32), as `reduce`'s may."""
    return [a.astype(v.dtype_of(t), copy=False) for a, t in zip(args, types, strict=True)]


@implements(sc.AllReduceOp, quantized="storage")
def _all_reduce(interp: Interpreter, op: sc.AllReduceOp, args: Arrays, types: Types) -> Arrays:
    ctx = context(interp)
    group = _group_or_fail(op, ctx)
    args = _promoted(args, types)
    return _reduce_over(interp, op, _exchange(op, ctx, args, group))


@implements(sc.CrossReplicaSumOp)
def _cross_replica_sum(
    interp: Interpreter, op: sc.CrossReplicaSumOp, args: Arrays, types: Types
) -> Arrays:
    """The operand summed over this process's replica group, in group order (integers
    wrap, as `stablehlo.add` does)."""
    ctx = context(interp)
    group = _group_or_fail(op, ctx)
    received = _exchange(op, ctx, args, group)
    total = received[0][0]
    for values in received[1:]:
        total = np.add(total, values[0], dtype=total.dtype)
    return [total]


@implements(sc.AllGatherOp, quantized="storage")
def _all_gather(interp: Interpreter, op: sc.AllGatherOp, args: Arrays, types: Types) -> Arrays:
    ctx = context(interp)
    group = _group_or_fail(op, ctx)
    received = _exchange(op, ctx, args, group)
    dim = op.int_attr("all_gather_dim")
    return [np.concatenate([r[i] for r in received], axis=dim) for i in range(len(args))]


@implements(sc.ReduceScatterOp, quantized="storage")
def _reduce_scatter(
    interp: Interpreter, op: sc.ReduceScatterOp, args: Arrays, types: Types
) -> Arrays:
    ctx = context(interp)
    group = _group_or_fail(op, ctx)
    args = _promoted(args, types)
    reduced = _reduce_over(interp, op, _exchange(op, ctx, args, group))
    dim = op.int_attr("scatter_dimension")
    return [np.split(r, len(group), axis=dim)[group.index(ctx.me)] for r in reduced]


@implements(sc.AllToAllOp, quantized="storage")
def _all_to_all(interp: Interpreter, op: sc.AllToAllOp, args: Arrays, types: Types) -> Arrays:
    ctx = context(interp)
    group = _group_or_fail(op, ctx)
    count = op.int_attr("split_count")
    if count != len(group):
        if len(group) == 1:
            raise InterpreterError(
                f"'{op.name}' split_count {count} needs that many processes; "
                "the interpreter runs one"
            )
        raise InterpreterError(f"'{op.name}' split_count {count} but the group has {len(group)}")
    split, concat = op.int_attr("split_dimension"), op.int_attr("concat_dimension")
    received = _exchange(op, ctx, args, group)
    me = group.index(ctx.me)
    return [
        np.concatenate([np.split(r[i], count, axis=split)[me] for r in received], axis=concat)
        for i in range(len(args))
    ]


@implements(sc.CollectivePermuteOp, quantized="storage")
def _collective_permute(
    interp: Interpreter, op: sc.CollectivePermuteOp, args: Arrays, types: Types
) -> Arrays:
    ctx = context(interp)
    pairs = op.groups() or []
    channel = _channel_id(op)
    limit = ctx.partitions if channel > 0 else ctx.replicas
    _check_ids(
        op, [i for pair in pairs for i in pair], limit, "partition" if channel > 0 else "replica"
    )

    def process(i: int) -> Process:
        return (ctx.replica, i) if channel > 0 else (i, ctx.partition)

    sources = [process(s) for s, t in pairs if process(t) == ctx.me]
    received = _exchange(op, ctx, args, sources)
    if received:
        return [np.array(a, copy=True) for a in received[0]]
    return [np.zeros_like(a) for a in args]


def _roots(op: sc._Collective, args: Arrays, group: list[Process]) -> tuple[Arrays, list[Process]]:
    """The data operands and, for each, the process of `group` it goes to or comes from:
    the group's first, or the one `has_dynamic_root`'s last operand names by index."""
    if not op.has_dynamic_root:
        return args, [group[0]] * len(args)
    data, indices = args[:-1], [int(i) for i in np.asarray(args[-1]).reshape(-1)]
    for i in indices:
        if not 0 <= i < len(group):
            raise InterpreterError(
                f"'{op.name}' root index {i} is outside its group of {len(group)} processes"
            )
    return data, [group[i] for i in indices]


@implements(sc.CollectiveBroadcastOp, quantized="storage")
def _collective_broadcast(
    interp: Interpreter, op: sc.CollectiveBroadcastOp, args: Arrays, types: Types
) -> Arrays:
    ctx = context(interp)
    group = _my_group(op, ctx)
    if group is None:
        data = args[:-1] if op.has_dynamic_root else args
        return [np.zeros_like(a) for a in data]
    data, roots = _roots(op, args, group)
    received = dict(zip(group, _exchange(op, ctx, data, group), strict=True))
    return [np.array(received[root][i], copy=True) for i, root in enumerate(roots)]


@implements(sc.CollectiveReduceOp, quantized="storage")
def _collective_reduce(
    interp: Interpreter, op: sc.CollectiveReduceOp, args: Arrays, types: Types
) -> Arrays:
    """Each data operand reduced over the group onto its root; zeros elsewhere."""
    ctx = context(interp)
    group = _my_group(op, ctx)
    data_types = types
    if group is None:
        return [np.zeros(a.shape, v.dtype_of(t)) for a, t in zip(args, data_types, strict=False)]
    data, roots = _roots(op, args, group)
    data = _promoted(data, data_types)
    received = _exchange(op, ctx, data, group)
    results = []
    for i, root in enumerate(roots):
        if root != ctx.me:
            results.append(np.zeros_like(data[i]))
            continue
        results.append(_reduce_over_one(interp, op, [values[i] for values in received]))
    return results


@implements(interp_dialect.RunParallelOp, quantized="none")
def _run_parallel(
    interp: Interpreter, op: interp_dialect.RunParallelOp, args: Arrays, types: Types
) -> Arrays:
    grid = op.grid()
    replicas, partitions = len(grid), len(grid[0])
    rendezvous = _Rendezvous(op.infeed_names())
    names = [name for row in grid for name in row]
    arities = []
    for name in names:
        func = interp.functions.get(name)
        if func is None or not func.body.blocks:
            raise InterpreterError(f"'{op.name}' runs @{name}, which is not a defined function")
        arities.append(len(func.body.blocks.first.args))  # type: ignore[union-attr]
    if sum(arities) != len(args):
        raise InterpreterError(
            f"'{op.name}' programs take {sum(arities)} inputs in all, got {len(args)}"
        )
    results: list[Arrays | None] = [None] * len(names)
    errors: list[BaseException | None] = [None] * len(names)
    children: list[Interpreter] = []

    def run(index: int, child: Interpreter, inputs: Arrays) -> None:
        try:
            results[index] = child.call(names[index], inputs)
        except BaseException as err:  # reported below, after every thread has stopped
            errors[index] = err
            rendezvous.fail()

    threads, start = [], 0
    for index in range(len(names)):
        replica, partition = divmod(index, partitions)
        child = Interpreter(interp.module, probes=interp.probes)
        child.process = ProcessContext(replica, partition, replicas, partitions, rendezvous)
        children.append(child)
        inputs = list(args[start : start + arities[index]])
        start += arities[index]
        threads.append(threading.Thread(target=run, args=(index, child, inputs), daemon=True))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for child in children:
        interp.check_failures.extend(child.check_failures)
    for err in errors:
        if err is not None:
            raise err
    flat = [value for r in results for value in (r or [])]
    if len(flat) != len(op.results):
        raise InterpreterError(
            f"'{op.name}' programs return {len(flat)} values in all, but the op has "
            f"{len(op.results)} results"
        )
    return flat
