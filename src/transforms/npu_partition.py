"""`npu-partition`: split a quantized TOSA function between the NPU and the host.

The NPU back end (`tosa-to-npu`) compiles a function only when it can run every
op in it; one softmax stops a whole classifier. This pass finds the parts it can
run and outlines each as a function marked for the NPU, leaving the rest for the
host (the reference interpreter, or any TOSA runtime):

1. **Guess** which ops the NPU may run: those the lowering's recognizer has a rule
   for (`npu_graph.may_run_on_npu`; constants are free and cloned where used).
2. **Grow** regions in program order: an op joins the region of one of its
   producers unless a path from that region reaches it through an op outside the
   region (joining would make the region non-convex, and outlining it would make a
   cycle); otherwise it starts a region. So every region is convex by construction.
3. **Ask the lowering**: each region is outlined into a scratch function and run
   through the first two stages of `tosa-to-npu` (form layers, plan). An op they
   refuse, or a value crossing the region's edge that is not an int8 tensor of
   static shape (the NPU exchanges only those through DRAM), goes to the host, and
   the regions are grown again. The lowering is the one source of truth for what
   is supported. Views (reshapes) and ops whose result is not int8 (a matmul's
   accumulator, a widening rescale) are not placed on their own: they are cloned
   into each region that reads them, as the lowering folds them into that layer.
4. **Cost**: a region must pay for its transfers. With the machine's MAC array and
   DRAM bus, its NPU time is estimated as MACs / (rows x cols) + bytes in and out /
   bus bytes per cycle, the host's as MACs / `host-macs-per-cycle`; a region with
   fewer than `min-macs` MACs, or no faster on the NPU, goes to the host.

Each surviving region becomes `func.func private @<entry>_npu<i>` with
`qdialect.target = "npu"` and `qdialect.machine`, called from the entry function,
whose ops are then put back in a dependency order. Steps 2-4 repeat until nothing
changes; each repeat moves at least one op to the host, so it ends.
"""

from __future__ import annotations

import heapq
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects import tosa
from qdialect.ir.errors import OpError
from qdialect.lowering.npu_graph import (
    LayerError,
    form_layers,
    is_view,
    may_run_on_npu,
    storage_i8,
)
from qdialect.lowering.npu_plan import plan_program
from qdialect.npu.machine import Machine, MachineError, load_machine
from qdialect.transforms import tosa_space_to_depth
from qdialect.transforms.tosa_fold_kernel_columns import TosaFoldKernelColumns

PASS_NAME = "npu-partition"
TARGET_ATTR = "qdialect.target"
MACHINE_ATTR = "qdialect.machine"

_CONSTANTS = (tosa.ConstOp, tosa.ConstShapeOp, sh.ConstantOp)


def op_macs(op: Operation) -> int:
    """Multiply-accumulates of a convolution or matmul, from its types (padding taps
    included: an estimate for the cost model, not a utilization figure)."""
    out = ht.shape_of(op.results[0].type) if op.results else None
    if out is None:
        return 0
    if isinstance(op, tosa.Conv2DOp):
        w = ht.shape_of(op.weight.type)  # [OC, KH, KW, IC]
        return math.prod(out) * math.prod(w[1:]) if w else 0
    if isinstance(op, tosa.DepthwiseConv2DOp):
        w = ht.shape_of(op.weight.type)  # [KH, KW, C, M]
        return math.prod(out) * math.prod(w[:2]) if w else 0
    if isinstance(op, tosa.MatMulOp):
        a = ht.shape_of(op.a.type)  # [N, H, C]
        return math.prod(out) * a[-1] if a else 0
    return 0


def _nbytes(v: SSAValue) -> int:
    shape = ht.shape_of(v.type)
    return math.prod(shape) if shape else 0


def _crosses_as_int8(v: SSAValue) -> bool:
    shape = ht.shape_of(v.type)
    return shape is not None and all(d >= 0 for d in shape) and storage_i8(v.type)


# ---------------------------------------------------------------- growing regions


def attached_ops(ops: Sequence[Operation], host: set[Operation]) -> set[Operation]:
    """Views (reshapes, bitcasts), and ops that give no int8 tensor and read only int8
    tensors, constants or other such ops (a widening rescale, a matmul and the reshape
    of its accumulator): the lowering folds them into the layer that consumes them, so
    they belong to their consumer's region, cloned into each region that reads them,
    and never cross a region's edge. A host op that reads one keeps the original."""
    attached: set[Operation] = set()
    for op in ops:
        if op in host or not may_run_on_npu(op) or isinstance(op, _CONSTANTS):
            continue
        if is_view(op):  # free to clone; a region never gives back a view of its input
            attached.add(op)
            continue
        if any(_crosses_as_int8(r) for r in op.results):
            continue
        if all(
            _crosses_as_int8(v) or isinstance(v.owner, _CONSTANTS) or v.owner in attached
            for v in op.operands
        ):
            attached.add(op)
    return attached


def grow_regions(
    ops: Sequence[Operation], host: set[Operation], attached: set[Operation]
) -> list[list[Operation]]:
    """Convex regions of the ops the NPU may run (not in `host`, not `attached`), in
    program order.

    For each op, `reach` holds the regions it depends on and `left` those of them a
    path leaves before reaching it; an op may join a producer's region only if that
    region is not in `left`. An op that reads no region's value (only arguments,
    constants or host values) joins the latest region under the same rule. Attached
    ops are looked through: their producers count as the reader's."""
    region_of: dict[Operation, int] = {}
    reach: dict[Operation, frozenset[int]] = {}
    left: dict[Operation, frozenset[int]] = {}
    through: dict[Operation, frozenset[Operation]] = {}  # an attached op's real producers
    regions: list[list[Operation]] = []

    def producers_of(op: Operation) -> set[Operation]:
        found: set[Operation] = set()
        for v in _reads(op):
            p = v.owner
            if isinstance(p, Operation) and p in through:
                found |= through[p]
            elif isinstance(p, Operation) and p in reach:
                found.add(p)
        return found

    for op in ops:
        if isinstance(op, _CONSTANTS):
            continue
        producers = producers_of(op)
        if op in attached:
            through[op] = frozenset(producers)
            continue
        reached: set[int] = set()
        escaped: set[int] = set()
        for p in producers:
            reached |= reach[p]
            escaped |= left[p]
            escaped |= {r for r in reach[p] if region_of.get(p) != r}
        if op not in host and may_run_on_npu(op):
            joinable = sorted({region_of[p] for p in producers if p in region_of} - escaped)
            if joinable:
                own = joinable[0]
            elif (
                regions
                and len(regions) - 1 not in escaped
                and not any(p in region_of for p in producers)
            ):
                own = len(regions) - 1  # reads only arguments or host values: no reason to split
            else:
                own = len(regions)
                regions.append([])
            regions[own].append(op)
            region_of[op] = own
            reached.add(own)
        reach[op] = frozenset(reached)
        left[op] = frozenset(escaped)
    return regions


# ---------------------------------------------------------------- outlining


@dataclass
class Outlined:
    """A region as a function: its body clones the region's ops, the constants and
    attached ops they read; `inputs`/`outputs` are the entry function's values it takes
    and gives back."""

    func: FuncOp
    inputs: list[SSAValue]
    outputs: list[SSAValue]
    original: dict[Operation, Operation]  # clone -> the entry function's op

    @property
    def body(self) -> list[Operation]:
        """The function's ops that do work (not constants, not the return)."""
        return [o for o in self.func.body.block.ops if not isinstance(o, (*_CONSTANTS, ReturnOp))]


def outline(region: Sequence[Operation], name: str, attached: set[Operation]) -> Outlined:
    members = set(region)

    def read_outside(v: SSAValue) -> bool:
        """Some op outside the region reads `v`, directly or through attached ops (which
        are cloned into each region that reads them, so only their readers count)."""
        for use in v.uses:
            user = use.operation
            if user in attached:
                if any(read_outside(r) for r in user.results):
                    return True
            elif user not in members:
                return True
        return False

    outputs: list[SSAValue] = [r for op in region for r in op.results if read_outside(r)]
    block = Block()
    inputs: list[SSAValue] = []
    mapping: dict[SSAValue, SSAValue] = {}
    original: dict[Operation, Operation] = {}

    def place(op: Operation) -> None:
        for v in op.operands:
            owner = v.owner
            if v in mapping:
                continue
            if isinstance(owner, _CONSTANTS) or owner in attached:
                assert isinstance(owner, Operation)
                place(owner)
            else:
                inputs.append(v)
                mapping[v] = block.insert_arg(v.type, len(block.args))
        clone = op.clone(value_mapper=mapping)
        block.add_op(clone)
        mapping.update(zip(op.results, clone.results, strict=True))
        original[clone] = op

    for op in region:
        place(op)
    block.add_op(ReturnOp(*[mapping[v] for v in outputs]))
    func = FuncOp(name, ([v.type for v in inputs], [v.type for v in outputs]), Region(block))
    return Outlined(func, inputs, outputs, original)


# ---------------------------------------------------------------- the pass


@dataclass(frozen=True)
class Decision:
    """Why an op or a region goes to the host (kept for `dump`)."""

    ops: tuple[Operation, ...]
    reason: str


def _problem(region: Sequence[Operation], outlined: Outlined, machine: Machine) -> Decision | None:
    """The first thing that keeps this region off the NPU, per the lowering itself."""
    for v, arg in zip(outlined.inputs, outlined.func.body.block.args, strict=True):
        if not _crosses_as_int8(v):
            user = outlined.original[next(iter(arg.uses)).operation]
            return Decision((user,), "takes a value that is not an int8 tensor")
    for v in outlined.outputs:
        if not _crosses_as_int8(v):
            assert isinstance(v.owner, Operation)
            return Decision((v.owner,), "gives a value that is not an int8 tensor")
    try:
        graph = form_layers(outlined.func)
        plan_program(graph, machine)
    except LayerError as err:  # the layer as a whole does not fit: its ops go together
        culprits = tuple(outlined.original[o] for o in err.ops if o in outlined.original)
        return Decision(culprits, err.message)
    except OpError as err:
        culprit = outlined.original.get(err.op)
        if culprit is None:  # about the region as a whole (no layer, its results)
            return Decision(tuple(region), err.message.removeprefix("tosa-to-npu: "))
        return Decision((culprit,), err.message)
    return None


def _cost_problem(
    region: Sequence[Operation], outlined: Outlined, machine: Machine, min_macs: int,
    host_macs_per_cycle: int,
) -> Decision | None:  # fmt: skip
    macs = sum(op_macs(op) for op in outlined.body)
    if macs < min_macs:
        return Decision(tuple(region), f"has {macs} MACs, fewer than min-macs={min_macs}")
    moved = sum(_nbytes(v) for v in (*outlined.inputs, *outlined.outputs))
    npu = macs / (machine.mac_rows * machine.mac_cols) + moved / machine.bus_bytes
    host = macs / host_macs_per_cycle
    if npu >= host:
        return Decision(
            tuple(region),
            f"is not faster on the NPU (~{npu:.0f} cycles with its transfers, ~{host:.0f} on "
            "the host)",
        )
    return None


def partition(
    ops: Sequence[Operation], machine: Machine, min_macs: int, host_macs_per_cycle: int,
    name: str,
) -> tuple[list[tuple[list[Operation], Outlined]], list[Decision]]:  # fmt: skip
    """The regions the NPU runs (each with its outlined function) and the decisions
    that sent ops to the host, in the order they were taken."""
    host: set[Operation] = set()
    decisions: list[Decision] = []
    unsupported = [o for o in ops if not may_run_on_npu(o) and not isinstance(o, _CONSTANTS)]
    for kind in sorted({o.name for o in unsupported}):
        same = tuple(o for o in unsupported if o.name == kind)
        decisions.append(Decision(same, "tosa-to-npu has no rule for it"))
    host.update(unsupported)
    boundary = [o for o in ops if o not in host and _boundary_layout(o)]
    if boundary:
        host.update(boundary)
        decisions.append(Decision(tuple(boundary), "a layout transpose of the program's input "
                                  "or output: the host writes and reads those"))  # fmt: skip
    _host_bound(ops, host, decisions)
    while True:
        attached = attached_ops(ops, host)
        regions = grow_regions(ops, host, attached)
        outlined = [outline(r, f"{name}_npu{i}", attached) for i, r in enumerate(regions)]
        found = False
        for region, out in zip(regions, outlined, strict=True):
            decision = _problem(region, out, machine) or _cost_problem(
                region, out, machine, min_macs, host_macs_per_cycle
            )
            if decision is not None:  # each region's first problem; the others may vanish
                host.update(decision.ops)
                decisions.append(decision)
                found = True
        if not found:
            return list(zip(regions, outlined, strict=True)), decisions
        _host_bound(ops, host, decisions)


def _boundary_layout(op: Operation) -> bool:
    """A `tosa.transpose` of an argument of the function, or whose results only return:
    it stays on the host, which prepares the input (it quantizes it there) and takes the
    output, and can lay them out as it writes them. On the NPU a transpose is a gather
    of single bytes by DMA: 5.07 M cycles for a 1x3x224x224 image, 43% of ONNX
    MobileNetV2's time, against nothing for a host that writes NHWC to begin with."""
    if not isinstance(op, tosa.TransposeOp):
        return False
    # An argument seen through reshapes and transposes (the space-to-depth of a stem's
    # input follows the NCHW -> NHWC one) is still the host's to lay out.
    from_argument = tosa_space_to_depth.from_argument(op.operands[0])
    to_result = all(
        isinstance(use.operation, ReturnOp) for r in op.results for use in r.uses
    ) and any(r.uses for r in op.results)
    return from_argument or to_result


def _host_bound(ops: Sequence[Operation], host: set[Operation], decisions: list[Decision]) -> None:
    """Send to the host, in program order, every op that reads a value wider than int8
    from an argument or a host op: the NPU could not receive it. (What regrowing would
    find one op at a time, found in one walk.)"""
    bound: list[Operation] = []
    for op in ops:
        if op in host or isinstance(op, _CONSTANTS):
            continue
        for v in op.operands:
            owner = v.owner
            if (
                not _crosses_as_int8(v)
                and not isinstance(owner, _CONSTANTS)
                and (not isinstance(owner, Operation) or owner in host)
            ):
                bound.append(op)
                host.add(op)
                break
    for kind in sorted({o.name for o in bound}):
        same = tuple(o for o in bound if o.name == kind)
        decisions.append(Decision(same, "reads a value wider than int8 from the host"))


def _reads(op: Operation) -> list[SSAValue]:
    """Every value `op` reads, its nested regions' reads included (a host op with a body
    depends on what its body reads)."""
    return [v for nested in op.walk() for v in nested.operands]


def _erase_moved(block: Block, moved: set[Operation]) -> None:
    """Erase the outlined ops, with the constants and attached ops only they read (their
    clones live in the regions now); every other reader already reads a call's result."""
    dead = set(moved)
    for candidate in reversed(list(block.ops)):
        if candidate in dead or isinstance(candidate, ReturnOp):
            continue
        readers = [use.operation for r in candidate.results for use in r.uses]
        if (
            readers
            and all(reader in dead for reader in readers)
            and (isinstance(candidate, _CONSTANTS) or may_run_on_npu(candidate))
        ):
            dead.add(candidate)
    for dying in dead:
        dying.detach()
    for dying in dead:
        dying.erase(safe_erase=False)


def _dependency_order(block: Block) -> None:
    """Re-order the block's ops so each comes after what it reads, keeping program order
    where it is free (a stable topological sort); the terminator stays last."""
    ops = list(block.ops)
    index = {op: i for i, op in enumerate(ops)}
    waiting = [0] * len(ops)
    users: list[list[int]] = [[] for _ in ops]
    for i, op in enumerate(ops):
        for p in {v.owner for v in _reads(op)}:
            if isinstance(p, Operation) and p in index and p is not op:
                waiting[i] += 1
                users[index[p]].append(i)
    ready = [i for i in range(len(ops)) if waiting[i] == 0]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for user in users[i]:
            waiting[user] -= 1
            if waiting[user] == 0:
                heapq.heappush(ready, user)
    assert len(order) == len(ops), "outlining a convex region cannot make a cycle"
    for op in ops:
        op.detach()
    for i in order:
        block.add_op(ops[i])


def _format(
    decisions: Iterable[Decision], regions: Sequence[tuple[list[Operation], Outlined]]
) -> str:
    lines = [f"// -----// {PASS_NAME} //----- //"]
    for d in decisions:
        names = ", ".join(sorted({op.name for op in d.ops}))
        lines.append(f"host: {len(d.ops)} op(s) ({names}): {d.reason}")
    for i, (_, out) in enumerate(regions):
        macs = sum(op_macs(op) for op in out.body)
        lines.append(
            f"region {i}: @{out.func.sym_name.data} {len(out.body)} ops, {macs} MACs, "
            f"{len(out.inputs)} in, {len(out.outputs)} out"
        )
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class NpuPartition(ModulePass):
    """Outline the parts of the entry function the NPU can run; the rest stays on the host."""

    name = PASS_NAME

    machine: str = "default"
    """A shipped machine description (`default`, `small`) or a JSON file."""

    entry: str = "main"
    """The function to partition."""

    min_macs: int = 1
    """A region with fewer multiply-accumulates stays on the host."""

    host_macs_per_cycle: int = 16
    """The host's int8 MAC rate, for the cost model."""

    space_to_depth: bool = True
    """Run `tosa-space-to-depth` first: stride-2 stems read from the input as stride-1
    convolutions of 2x2 pixel blocks (the host lays out the input)."""

    fold_kernel_columns: bool = True
    """Run `tosa-fold-kernel-columns` next, for this machine: convolutions whose kernel
    columns waste the array (few channels, narrow padded rows) read their input's
    columns as channels."""

    dump: bool = False
    """Print the decisions and the regions on stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            machine = load_machine(self.machine)
        except MachineError as err:
            raise OpError(op, f"{PASS_NAME}: {err}") from None
        if self.min_macs < 0 or self.host_macs_per_cycle < 1:
            raise OpError(op, f"{PASS_NAME}: min-macs must be >= 0 and host-macs-per-cycle >= 1")
        funcs = {f.sym_name.data: f for f in op.body.block.ops if isinstance(f, FuncOp)}
        entry = funcs.get(self.entry)
        if entry is None or not entry.body.blocks:
            raise OpError(op, f"{PASS_NAME}: no function '@{self.entry}' to partition")
        if len(entry.body.blocks) != 1:
            raise OpError(entry, f"{PASS_NAME}: '@{self.entry}' must have one block")
        if self.space_to_depth:
            tosa_space_to_depth.TosaSpaceToDepth().apply(ctx, op)
        if self.fold_kernel_columns:
            TosaFoldKernelColumns(machine=self.machine).apply(ctx, op)
        block = entry.body.block
        ops = [o for o in block.ops if not isinstance(o, ReturnOp)]
        regions, decisions = partition(
            ops, machine, self.min_macs, self.host_macs_per_cycle, self.entry
        )
        if self.dump:
            sys.stderr.write(_format(decisions, regions))
        taken = set(funcs)
        moved: set[Operation] = set()
        replaced: dict[SSAValue, SSAValue] = {}
        for region, out in regions:
            name = out.func.sym_name.data
            while name in taken:
                name += "_"
            taken.add(name)
            out.func.sym_name = StringAttr(name)
            out.func.sym_visibility = StringAttr("private")
            out.func.attributes[TARGET_ATTR] = StringAttr("npu")
            out.func.attributes[MACHINE_ATTR] = StringAttr(self.machine)
            inputs = [replaced.get(v, v) for v in out.inputs]  # an earlier call's result
            call = CallOp(name, inputs, [v.type for v in out.outputs])
            block.insert_op_before(call, region[-1])
            for old, new in zip(out.outputs, call.results, strict=True):
                old.replace_all_uses_with(new)
                replaced[old] = new
            moved.update(region)
            op.body.block.add_op(out.func)
        _erase_moved(block, moved)
        _dependency_order(block)
