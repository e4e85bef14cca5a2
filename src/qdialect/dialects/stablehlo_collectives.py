"""StableHLO's distribution ops: replica_id, partition_id and the collectives.

`stablehlo.replica_id : tensor<ui32>` and `stablehlo.partition_id` print
upstream's pretty form; all_reduce, all_gather, all_to_all, reduce_scatter,
collective_permute and collective_broadcast print generically, as upstream
does. Their attributes (replica_groups, channel_handle, ...) are kept as
written; the interpreter runs them for one process (docs/interpreter.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.ir import Attribute, Data, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import print_extra_attrs
from qdialect.dialects.stablehlo_attrs import _parse_field_list


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


class _IdOp(IRDLOperation):
    """`stablehlo.replica_id : tensor<ui32>`."""

    result = result_def()

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], attributes=attrs)

    def print(self, printer: Printer):
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

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


class _Collective(IRDLOperation):
    """A collective: operands, results of the same shapes' kind, optional reduction body.

    Attributes stay in the attribute dictionary as written (replica_groups,
    channel_handle, use_global_device_ids, dimensions...)."""

    operands_ = var_operand_def()
    results_ = var_result_def()
    computation = opt_region_def()
    traits = traits_def(RecursiveMemoryEffect())

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
        """replica_groups (or source_target_pairs) as lists, None when absent."""
        for key in ("replica_groups", "source_target_pairs"):
            attr = self._attr(key)
            if attr is not None and hasattr(attr, "get_values"):
                values = [int(v) for v in attr.get_values()]  # type: ignore[union-attr]
                shape = attr.get_shape() or (len(values),)  # type: ignore[union-attr]
                width = shape[-1] if shape and shape[-1] else 1
                rows = [values[i : i + width] for i in range(0, len(values), width)]
                return [[i for i in row if i != -1] for row in rows]  # -1 pads ragged groups
        return None

    def verify_(self) -> None:
        if not self.operands_:
            raise VerifyException(f"'{self.name}' needs at least one operand")
        if len(self.results) != len(self.operands_):
            raise VerifyException(f"'{self.name}' needs one result per operand")
        groups = self.groups()
        if groups is not None:
            ids = [i for g in groups for i in g if i != -1]
            if any(i < 0 for i in ids) or (
                self.name != "stablehlo.collective_permute" and len(set(ids)) != len(ids)
            ):
                raise VerifyException(
                    f"'{self.name}' replica groups must hold distinct non-negative ids"
                )
        for i, (x, r) in enumerate(zip(self.operands_, self.results, strict=True)):
            if ht.element_type(x.type) != ht.element_type(r.type):
                raise VerifyException(
                    f"'{self.name}' result #{i} must have operand #{i}'s element type"
                )
            self.check_shapes(x.type, r.type)

    def check_shapes(self, operand: Attribute, result: Attribute) -> None:
        if not ht.shapes_compatible(ht.shape_of(operand), ht.shape_of(result)):
            raise VerifyException(f"'{self.name}' result must have the operand's shape")


def _dim_in_range(op: _Collective, name: str, t: Attribute) -> int:
    dim = op.int_attr(name)
    rank = ht.rank_of(t)
    if rank is not None and not 0 <= dim < rank:
        raise VerifyException(f"'{op.name}' {name} {dim} is out of range [0, {rank})")
    return dim


@irdl_op_definition
class AllReduceOp(_Collective):
    """Reduce each operand across the processes of a group with the body."""

    name = "stablehlo.all_reduce"


@irdl_op_definition
class AllGatherOp(_Collective):
    """Concatenate each operand across a group along all_gather_dim."""

    name = "stablehlo.all_gather"

    def check_shapes(self, operand: Attribute, result: Attribute) -> None:
        dim = _dim_in_range(self, "all_gather_dim", operand)
        so, sr = ht.shape_of(operand), ht.shape_of(result)
        if so is not None and sr is not None:
            if len(so) != len(sr) or any(
                a != b for i, (a, b) in enumerate(zip(so, sr, strict=True)) if i != dim
            ):
                raise VerifyException(
                    f"'{self.name}' result may differ from the operand only in all_gather_dim"
                )


@irdl_op_definition
class AllToAllOp(_Collective):
    """Split along split_dimension, exchange, concatenate along concat_dimension."""

    name = "stablehlo.all_to_all"

    def check_shapes(self, operand: Attribute, result: Attribute) -> None:
        _dim_in_range(self, "split_dimension", operand)
        _dim_in_range(self, "concat_dimension", operand)
        if self.int_attr("split_count") < 1:
            raise VerifyException(f"'{self.name}' split_count must be positive")


@irdl_op_definition
class ReduceScatterOp(_Collective):
    """Reduce across a group, then scatter the result along scatter_dimension."""

    name = "stablehlo.reduce_scatter"

    def check_shapes(self, operand: Attribute, result: Attribute) -> None:
        _dim_in_range(self, "scatter_dimension", operand)


@irdl_op_definition
class CollectivePermuteOp(_Collective):
    """Send each operand to the process source_target_pairs names."""

    name = "stablehlo.collective_permute"


@irdl_op_definition
class CollectiveBroadcastOp(_Collective):
    """Broadcast the group's first process's operand to the group."""

    name = "stablehlo.collective_broadcast"


def is_collective(op: Operation) -> bool:
    return isinstance(op, _Collective)


COLLECTIVE_OPS = [
    ReplicaIdOp,
    PartitionIdOp,
    AllReduceOp,
    AllGatherOp,
    AllToAllOp,
    ReduceScatterOp,
    CollectivePermuteOp,
    CollectiveBroadcastOp,
]
COLLECTIVE_ATTRS = [ChannelHandleAttr]
