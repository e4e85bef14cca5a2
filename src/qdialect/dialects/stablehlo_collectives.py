"""StableHLO's distribution ops: replica_id, partition_id and the collectives.

`stablehlo.replica_id : tensor<ui32>` and `stablehlo.partition_id` print
upstream's pretty form; all_reduce, all_gather, all_to_all, reduce_scatter,
collective_permute and collective_broadcast print generically, as upstream
does, their inherent attributes (replica_groups, channel_handle, ...) in
`<{...}>`. Replica groups are a dense table or mesh axes (`stablehlo_mesh`);
the interpreter runs them over a grid of processes (docs/interpreter.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType, Signedness, TensorType
from xdsl.ir import Attribute, Data, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    opt_region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect, SymbolUserOpInterface
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import ResultTypeSyntax
from qdialect.dialects.stablehlo_attrs import _parse_field_list
from qdialect.dialects.stablehlo_mesh import ReplicaGroupMeshAxesAttr, mesh_groups
from qdialect.dialects.stablehlo_reducer import verify_reducer


@dataclass(frozen=True)
class ChannelHandle:
    handle: int = 0
    type: int = 0


@irdl_attr_definition
class ChannelHandleAttr(Data[ChannelHandle]):
    """`#stablehlo.channel_handle<handle = 1, type = 0>`."""

    name = "stablehlo.channel_handle"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ChannelHandle:
        return ChannelHandle(**_parse_field_list(parser, (), ("handle", "type")))  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<handle = {self.data.handle}, type = {self.data.type}>")


class _IdOp(ResultTypeSyntax):
    """`stablehlo.replica_id : tensor<ui32>`."""

    result = result_def()

    def verify_(self) -> None:
        t = self.result.type
        e = ht.element_type(t)
        if not (
            ht.rank_of(t) == 0
            and isinstance(e, IntegerType)
            and e.width.data == 32
            and e.signedness.data == Signedness.UNSIGNED
        ):
            raise VerifyException(f"'{self.name}' result must be a tensor<ui32>, got {t}")


@irdl_op_definition
class ReplicaIdOp(_IdOp):
    """The id of the replica running the program."""

    name = "stablehlo.replica_id"


@irdl_op_definition
class PartitionIdOp(_IdOp):
    """The id of the partition running the program."""

    name = "stablehlo.partition_id"


class _MeshSymbolUse(SymbolUserOpInterface):
    """Upstream's verifySymbolUses: a mesh-axes replica group names a mesh the op finds.
    A symbol use, so `qopt` checks it after every op verifies, as MLIR does."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, _Collective)
        op.verify_mesh_symbol()


class _Collective(IRDLOperation):
    """A collective: operands, results of the same shapes' kind, optional reduction body.

    Each op declares upstream's inherent attributes (replica_groups, channel_handle,
    use_global_device_ids, dimensions...) as properties, so they print in `<{...}>` as
    upstream prints them; the verifiers check their kinds in upstream's words."""

    operands_ = var_operand_def()
    results_ = var_result_def()
    computation = opt_region_def()
    traits = traits_def(RecursiveMemoryEffect(), _MeshSymbolUse())

    def _attr(self, name: str) -> Attribute | None:
        attr = self.attributes.get(name)  # (an IntegerAttr of 0 is falsy: no `or` here)
        return attr if attr is not None else self.properties.get(name)

    def int_attr(self, name: str, default: int | None = None) -> int:
        attr = self._attr(name)
        value = getattr(getattr(attr, "value", None), "data", None)
        if value is None:
            if default is None:
                raise VerifyException(f"'{self.name}' requires the integer attribute '{name}'")
            return default
        return int(value)

    def groups(self) -> list[list[int]] | None:
        """replica_groups (or source_target_pairs) as lists, None when absent; mesh-axes
        groups expanded (a ValueError when they cannot be: `mesh_groups`)."""
        attr = self._attr("replica_groups")
        if isinstance(attr, ReplicaGroupMeshAxesAttr):
            return mesh_groups(attr, self)
        for key in ("replica_groups", "source_target_pairs"):
            attr = self._attr(key)
            if attr is not None and hasattr(attr, "get_values"):
                values = [int(v) for v in attr.get_values()]  # type: ignore[union-attr]
                shape = attr.get_shape() or (len(values),)  # type: ignore[union-attr]
                width = shape[-1] if shape and shape[-1] else 1
                rows = [values[i : i + width] for i in range(0, len(values), width)]
                return [[i for i in row if i != -1] for row in rows]  # -1 pads ragged groups
        return None

    def replica_groups(self) -> tuple[list[int], list[int]] | None:
        """replica_groups as written: (shape, values), -1 padding included; None if absent."""
        attr = self._attr("replica_groups")
        if attr is None or not hasattr(attr, "get_values"):
            return None
        values = [int(v) for v in attr.get_values()]  # type: ignore[union-attr]
        return list(attr.get_shape() or (len(values),)), values  # type: ignore[union-attr]

    @property
    def use_global_device_ids(self) -> bool:
        return self._attr("use_global_device_ids") is not None

    @property
    def channel_id(self) -> int:
        handle = self._attr("channel_handle")
        return handle.data.handle if isinstance(handle, ChannelHandleAttr) else 0

    def verify_(self) -> None:
        if not self.operands_:
            raise VerifyException(f"'{self.name}' needs at least one operand")
        if len(self.results) != len(self.operands_):
            raise VerifyException(f"'{self.name}' needs one result per operand")
        self.verify_collective()

    def verify_collective(self) -> None:
        """The op's own rules (upstream's words); by default the replica groups, and
        results of the operands' types."""
        self.verify_replica_groups(all_same_size=False)
        self.verify_same_types()

    def verify_pairwise_element_types(self) -> None:
        """Upstream's PairwiseSameOperandAndResultElementType trait, in its words."""
        if len(self.results) != len(self.operands_):
            raise self._fail("requires the same number of operands and results")
        for i, (x, r) in enumerate(zip(self.operands_, self.results, strict=True)):
            if ht.element_type(x.type) != ht.element_type(r.type):
                raise self._fail(
                    f"requires the same element type for operand and result at index {i}"
                )

    def verify_same_types(self) -> None:
        """Each result has its operand's element type, and a shape `check_shapes` allows."""
        for i, (x, r) in enumerate(zip(self.operands_, self.results, strict=True)):
            if ht.element_type(x.type) != ht.element_type(r.type):
                raise self._fail(f"result #{i} must have operand #{i}'s element type")
            self.check_shapes(x.type, r.type)

    def verify_replica_groups(self, all_same_size: bool, group_size: int | None = None) -> None:
        """Upstream's verifyReplicaGroups: a rank-2 tensor of distinct ids covering 0..n-1
        (-1 pads a ragged group where groups may differ in size). Mesh-axes groups
        need only a mesh the op can find (`_MeshSymbolUse`)."""
        groups = self.replica_groups()
        if groups is None:
            return
        shape, values = groups
        fail = self._fail
        if len(shape) != 2:
            raise fail("replica groups should be a rank 2 tensor")
        if self.use_global_device_ids and shape[0] * shape[1] == 0:
            raise fail("if `use_global_device_ids` is set, the replica groups cannot be empty")
        seen: set[int] = set()
        for replica in values:
            if replica == -1:
                if not all_same_size:
                    continue
                raise fail("Invalid replica id -1")
            if replica in seen:
                raise fail(f"replica id #{replica} seen more than once")
            seen.add(replica)
        for replica in range(len(seen)):
            if replica not in seen:
                raise fail(f"replica id #{replica} not seen in replica groups")
        if (
            all_same_size
            and group_size is not None
            and (shape[0] == 0 or len(values) // shape[0] != group_size)
        ):
            raise fail(f"group size of replica_groups must be {group_size}")

    def verify_mesh_symbol(self) -> None:
        """Upstream's verifySymbolUses: mesh-axes replica groups naming a mesh symbol."""
        attr = self._attr("replica_groups")
        if isinstance(attr, ReplicaGroupMeshAxesAttr):
            if (message := attr.symbol_problem(self)) is not None:
                raise self._fail(message)

    def _fail(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' {message}")

    def verify_body(self, types: list[Attribute] | None = None) -> list[Attribute]:
        """The reducer rules on the computation; returns one accumulator type per operand
        (of `types`, by default every operand's). Upstream applies a body of one scalar
        pair to each operand; the spec's body takes one scalar per operand twice: both
        are accepted."""
        block = self.computation.blocks.first if self.computation is not None else None
        types = [x.type for x in self.operands_] if types is None else types
        scalars = [TensorType(ht.element_type(t), []) for t in types]
        if block is not None and len(block.args) == 2 * len(types) and len(types) > 1:
            return verify_reducer(self.name, block, types, scalars, [])
        return [
            verify_reducer(self.name, block, [t], [z], [])[0]
            for t, z in zip(types, scalars, strict=True)
        ]

    @property
    def has_dynamic_root(self) -> bool:
        return self._attr("has_dynamic_root") is not None

    def data_operands(self) -> list:
        """The operands but the last, a rank-1 i32 tensor of root indices, when
        `has_dynamic_root` is set; else all of them."""
        return list(self.operands_[:-1] if self.has_dynamic_root else self.operands_)

    def verify_roots(self) -> None:
        """Upstream's checks of the data operands and the root-index operand, in its words."""
        word = self.name.removeprefix("stablehlo.")
        if not self.has_dynamic_root:
            if not self.operands_:
                raise self._fail(f"{word} requires at least one data operand")
            return
        if len(self.operands_) < 2:
            raise self._fail(
                f"{word} with has_dynamic_root=true requires at least two operands (data + root)"
            )
        root = self.operands_[-1].type
        e, shape = ht.element_type(root), ht.shape_of(root)
        if (
            not (isinstance(e, IntegerType) and e.width.data == 32)
            or shape is None
            or len(shape) != 1
        ):
            raise self._fail(
                f"last operand of {word} with has_dynamic_root=true must be a rank-1 i32 "
                f"tensor, but got '{root}'"
            )
        count = len(self.operands_) - 1
        if shape[0] != count:
            raise self._fail(
                f"last operand of {word} with has_dynamic_root=true must have the same number "
                f"of elements as data operands ({count}), but got {shape[0]}"
            )

    def check_shapes(self, operand: Attribute, result: Attribute) -> None:
        if not ht.shapes_compatible(ht.shape_of(operand), ht.shape_of(result)):
            raise VerifyException(f"'{self.name}' result must have the operand's shape")


@irdl_op_definition
class AllReduceOp(_Collective):
    """Reduce each operand across the processes of a group with the body."""

    name = "stablehlo.all_reduce"
    replica_groups_ = opt_prop_def(prop_name="replica_groups")
    channel_handle_ = opt_prop_def(prop_name="channel_handle")
    use_global_device_ids_ = opt_prop_def(prop_name="use_global_device_ids")

    def verify_collective(self) -> None:
        """Upstream's verifyAllReduceOp, then the results against the inferred types."""
        self.verify_replica_groups(all_same_size=False)  # C1-C3
        if self.use_global_device_ids and self.channel_id <= 0:  # C4
            raise self._fail(
                "channel_id must be positive when useGlobalDeviceIds is set but got: "
                f"{self.channel_id}"
            )
        accumulators = self.verify_body()  # C5
        ht.verify_inferred_results(  # C6, C7
            self.name,
            [
                TensorType(ht.element_type(a), list(ht.shape_of(x.type) or ()))
                for a, x in zip(accumulators, self.operands_, strict=True)
            ],
            [r.type for r in self.results],
        )


@irdl_op_definition
class CrossReplicaSumOp(_Collective):
    """`"stablehlo.cross-replica-sum"(%x) {replica_groups = dense<...>}`: the legacy
    all_reduce with a sum and no body (upstream still parses it; the spec has none)."""

    name = "stablehlo.cross-replica-sum"
    replica_groups_ = opt_prop_def(prop_name="replica_groups")

    def verify_(self) -> None:
        if len(self.operands_) != 1 or len(self.results_) != 1:
            raise self._fail("expects one operand and one result")
        if self.computation is not None and self.computation.blocks:
            raise self._fail("has no reduction body (it sums)")
        if self.operands_[0].type != self.results_[0].type:
            raise self._fail(
                f"result type {self.results_[0].type} must equal the operand type "
                f"{self.operands_[0].type}"
            )
        self.verify_replica_groups(all_same_size=False)


@irdl_op_definition
class AllGatherOp(_Collective):
    """Concatenate each operand across a group along all_gather_dim."""

    name = "stablehlo.all_gather"
    all_gather_dim_ = opt_prop_def(prop_name="all_gather_dim")
    replica_groups_ = opt_prop_def(prop_name="replica_groups")
    channel_handle_ = opt_prop_def(prop_name="channel_handle")
    use_global_device_ids_ = opt_prop_def(prop_name="use_global_device_ids")

    def verify_(self) -> None:
        self.verify_pairwise_element_types()
        self.verify_collective()

    def verify_collective(self) -> None:
        """Upstream's verifyAllGatherOp, in its order and words."""
        self.verify_replica_groups(all_same_size=True)  # I3, C2, C4
        if self.use_global_device_ids and self.channel_id < 0:  # C5
            raise self._fail("channel_id cannot be negative when useGlobalDeviceIds is set")
        dim = self.int_attr("all_gather_dim")
        for x, r in zip(self.operands_, self.results, strict=True):
            so, sr = ht.shape_of(x.type), ht.shape_of(r.type)
            if ht.element_type(x.type) != ht.element_type(r.type):
                raise self._fail("result must have the operand's element type")
            if so is None or sr is None:
                continue
            if not 0 <= dim < len(so):  # C1
                raise self._fail("all_gather_dim must be a valid index of operand")
            if so[dim] == 0:
                raise self._fail("dimension size of operand at 'all_gather_dim' cannot be zero")
            if len(sr) != len(so):  # C6
                raise self._fail("operand and result must have the same rank")
            if any(
                i != dim and not ht.dims_compatible(a, b)
                for i, (a, b) in enumerate(zip(so, sr, strict=True))
            ):
                raise self._fail(
                    "operand and result should have the same shape except for the dimension "
                    "size at 'all_gather_dim'"
                )
            if DYNAMIC_INDEX not in (so[dim], sr[dim]) and sr[dim] % so[dim]:
                raise self._fail(
                    f"result gather dimension has size {sr[dim]}, expected to be a multiple of "
                    f"operand gather dimension size {so[dim]}"
                )


@irdl_op_definition
class AllToAllOp(_Collective):
    """Split along split_dimension, exchange, concatenate along concat_dimension."""

    name = "stablehlo.all_to_all"
    split_dimension_ = opt_prop_def(prop_name="split_dimension")
    concat_dimension_ = opt_prop_def(prop_name="concat_dimension")
    split_count_ = opt_prop_def(prop_name="split_count")
    replica_groups_ = opt_prop_def(prop_name="replica_groups")
    channel_handle_ = opt_prop_def(prop_name="channel_handle")

    def verify_(self) -> None:
        self.verify_pairwise_element_types()
        self.verify_collective()

    def verify_collective(self) -> None:
        """Upstream's inferAllToAllOp, in its order and words, then the results against
        the inferred types."""
        split, concat = self.int_attr("split_dimension"), self.int_attr("concat_dimension")
        count = self.int_attr("split_count")
        self.verify_replica_groups(all_same_size=True, group_size=count)  # C5, C7
        inferred: list[Attribute] = []
        for x in self.operands_:
            shape = ht.shape_of(x.type)
            if shape is None:
                inferred.append(x.type)
                continue
            for name, dim in (("split_dimension", split), ("concat_dimension", concat)):
                if not 0 <= dim < len(shape):  # C1, C3
                    raise self._fail(
                        f"AllToAll {name} {dim} is out-of-bounds for input rank {len(shape)}"
                    )
            out = list(shape)
            if out[split] != DYNAMIC_INDEX:
                if out[split] % count:  # C2
                    raise self._fail(
                        f"split dimension has size {out[split]}, expected to be a multiple "
                        f"of split_count {count}"
                    )
                out[split] //= count
            if out[concat] != DYNAMIC_INDEX:
                out[concat] *= count
            inferred.append(TensorType(ht.element_type(x.type), out))
        ht.verify_inferred_results(self.name, inferred, [r.type for r in self.results])  # C9


@irdl_op_definition
class ReduceScatterOp(_Collective):
    """Reduce across a group, then scatter the result along scatter_dimension."""

    name = "stablehlo.reduce_scatter"
    scatter_dimension_ = opt_prop_def(prop_name="scatter_dimension")
    replica_groups_ = opt_prop_def(prop_name="replica_groups")
    channel_handle_ = opt_prop_def(prop_name="channel_handle")
    use_global_device_ids_ = opt_prop_def(prop_name="use_global_device_ids")

    def verify_collective(self) -> None:
        """Upstream's verifyReduceScatterOp, in its order and words."""
        self.verify_replica_groups(all_same_size=True)
        accumulators = self.verify_body()  # C7
        dim = self.int_attr("scatter_dimension")
        for x, r, acc in zip(self.operands_, self.results, accumulators, strict=True):
            so, sr = ht.shape_of(x.type), ht.shape_of(r.type)
            if so is None or sr is None:
                continue
            if len(so) != len(sr):  # C8
                raise self._fail("operand and result should have same rank")
            if dim >= len(so):  # C2
                raise self._fail("scatter dim should be less than operand/result rank")
            if self.use_global_device_ids and self.channel_id <= 0:  # C6
                raise self._fail(
                    "channel_id must be positive when useGlobalDeviceIds is set but got: "
                    f"{self.channel_id}"
                )
            if DYNAMIC_INDEX not in (so[dim], sr[dim]):
                if sr[dim] == 0:
                    raise self._fail("result dimension size at scatter_dimension cannot be zero")
                if so[dim] == 0:
                    raise self._fail("operand dimension size at scatter_dimension cannot be zero")
                if so[dim] % sr[dim]:  # C8
                    raise self._fail(
                        f"operand scatter dimension has size {so[dim]}, expected to be a "
                        f"multiple of result scatter dimension size {sr[dim]}"
                    )
            for i, (a, b) in enumerate(zip(so, sr, strict=True)):
                if i != dim and not ht.dims_compatible(a, b):
                    raise self._fail(
                        f"non scatter dimensions should be same for operand ({a}) and result ({b})"
                    )
            if ht.element_type(r.type) != ht.element_type(acc):  # C9
                raise self._fail(
                    f"result element-type is expected to be '{ht.element_type(acc)}', but got "
                    f"'{ht.element_type(r.type)}'"
                )


@irdl_op_definition
class CollectivePermuteOp(_Collective):
    """Send each operand to the process source_target_pairs names."""

    name = "stablehlo.collective_permute"
    source_target_pairs_ = opt_prop_def(prop_name="source_target_pairs")
    channel_handle_ = opt_prop_def(prop_name="channel_handle")

    def verify_collective(self) -> None:
        """Upstream's verifyCollectivePermuteOp on source_target_pairs, then results of
        the operands' types."""
        attr = self._attr("source_target_pairs")
        if attr is not None and hasattr(attr, "get_values"):
            values = [int(v) for v in attr.get_values()]  # type: ignore[union-attr]
            shape = list(attr.get_shape() or (len(values),))  # type: ignore[union-attr]
            if len(shape) != 2:  # I2
                raise self._fail(
                    "expect source_target_pairs attribute to be of rank 2, but got rank "
                    f"{len(shape)}"
                )
            if shape[1] != 2:  # C1
                raise self._fail(
                    "expect source_target_pairs attribute of shape (N, 2), but got "
                    f"({', '.join(map(str, shape))})"
                )
            sources: set[int] = set()
            targets: set[int] = set()
            for index, value in enumerate(values):
                if value < 0:  # C4
                    raise self._fail("replica ids in source_target_pairs must be >= 0.")
                side, what = (sources, "sources") if index % 2 == 0 else (targets, "targets")
                if value in side:  # C2, C3
                    raise self._fail(f"duplicate {what} not allowed.")
                side.add(value)
        self.verify_same_types()


@irdl_op_definition
class CollectiveBroadcastOp(_Collective):
    """Broadcast the group's first process's operand to the group."""

    name = "stablehlo.collective_broadcast"
    replica_groups_ = opt_prop_def(prop_name="replica_groups")
    channel_handle_ = opt_prop_def(prop_name="channel_handle")
    has_dynamic_root_ = opt_prop_def(prop_name="has_dynamic_root")

    def verify_collective(self) -> None:
        """Upstream's verifyCollectiveBroadcastOp on replica_groups (ids need only be
        distinct and non-negative), then results of the operands' types."""
        groups = self.replica_groups()
        if groups is not None:
            shape, values = groups
            if len(shape) != 2:
                raise self._fail(
                    f"replica groups should be a rank 2 tensor,but instead it is of rank "
                    f"{len(shape)}"
                )
            seen: set[int] = set()
            for replica in values:
                if replica < 0:  # C2
                    raise self._fail(
                        f"replica_groups values must be positive, but was given {replica}"
                    )
                if replica in seen:  # C1
                    raise self._fail(f"replica id #{replica} seen more than once")
                seen.add(replica)
        self.verify_roots()
        ht.verify_inferred_results(  # inferCollectiveBroadcastOp: the data operands' types
            self.name, [x.type for x in self.data_operands()], [r.type for r in self.results]
        )

    def verify_(self) -> None:
        self.verify_collective()


@irdl_op_definition
class CollectiveReduceOp(_Collective):
    """Reduce each data operand over the group onto one process (the group's first, or
    the one `has_dynamic_root`'s indices name); the others get zeros."""

    name = "stablehlo.collective_reduce"
    replica_groups_ = opt_prop_def(prop_name="replica_groups")
    channel_handle_ = opt_prop_def(prop_name="channel_handle")
    use_global_device_ids_ = opt_prop_def(prop_name="use_global_device_ids")
    has_dynamic_root_ = opt_prop_def(prop_name="has_dynamic_root")

    def verify_(self) -> None:
        """Upstream's verifyCollectiveReduceOp, in its order and words, then the results
        against the inferred types (the data operands' shapes, the body's accumulators)."""
        self.verify_replica_groups(all_same_size=False)
        if self.use_global_device_ids and self.channel_id <= 0:
            raise self._fail(
                "channel_id must be positive when useGlobalDeviceIds is set but got: "
                f"{self.channel_id}"
            )
        self.verify_roots()
        data = [x.type for x in self.data_operands()]
        accumulators = self.verify_body(data)
        ht.verify_inferred_results(
            self.name,
            [
                TensorType(ht.element_type(a), list(ht.shape_of(t) or ()))
                for a, t in zip(accumulators, data, strict=True)
            ],
            [r.type for r in self.results],
        )


def is_collective(op: Operation) -> bool:
    return isinstance(op, _Collective)


COLLECTIVE_OPS = [
    ReplicaIdOp,
    PartitionIdOp,
    AllReduceOp,
    CrossReplicaSumOp,
    AllGatherOp,
    AllToAllOp,
    ReduceScatterOp,
    CollectivePermuteOp,
    CollectiveBroadcastOp,
    CollectiveReduceOp,
]
COLLECTIVE_ATTRS = [ChannelHandleAttr]
