"""`chlo.ragged_dot`: a dot_general whose lhs is cut into groups along one dimension.

`group_sizes` says how many consecutive entries of the lhs's ragged dimension each group
takes. The kind of that dimension picks one of three modes (shapes for one batch `b`,
`m` rows, `k` contracted, `n` columns and `g` groups):

- ragged non-contracting (`m`): `[b,m,k] x [g,b,k,n] -> [b,m,n]`, each group of rows
  multiplied by its own rhs (the rhs's group dimension);
- ragged contracting (`k`): `[b,m,k] x [b,k,n] -> [g,b,m,n]`, one partial product per
  group of the contraction;
- ragged batch (`b`): `[b,m,k] x [b,k,n] -> [b,m,n]`, an ordinary batched product
  (every batch entry computed, whatever the group sizes, as XLA computes it).

`group_sizes` is `[g]` or `[b..., x..., g]`: the lhs batch dimensions (for a ragged batch
dimension, those listed before it) and, for ragged `m` / `k`, the lhs non-contracting /
contracting dimensions before the ragged one, so each such position has its own groups.
The verifier follows upstream's (checkDotGeneralConstraints, then the ragged rules and
the inferred shape), in its order and words. The op has no custom syntax upstream and is
printed generically.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Data, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.dim_rules import (
    dim_out_of_bounds,
    dims_text,
    dot_general_problem,
    repeated,
)
from qdialect.dialects.stablehlo_attrs import DotDims, Precision, parse_struct, struct_text


@irdl_attr_definition
class ChloPrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#chlo<precision DEFAULT>`."""

    name = "chlo.precision"


@dataclass(frozen=True)
class RaggedDotDims(DotDims):
    lhs_ragged_dimensions: tuple[int, ...] = ()
    rhs_group_dimensions: tuple[int, ...] = ()


_FIELDS = (
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
    "lhs_ragged_dimensions",
    "rhs_group_dimensions",
)


@irdl_attr_definition
class RaggedDotDimensionNumbersAttr(Data[RaggedDotDims]):
    """`#chlo.ragged_dot<lhs_batching_dimensions = [..], ..., rhs_group_dimensions = [..]>`."""

    name = "chlo.ragged_dot"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> RaggedDotDims:
        parser.parse_punctuation("<")
        fields = parse_struct(parser, _FIELDS, (), "ragged dot dimension numbers")
        return RaggedDotDims(**fields)  # type: ignore[arg-type]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(struct_text(self.data, _FIELDS))


class Mode:
    NON_CONTRACTING = "non-contracting"
    CONTRACTING = "contracting"
    BATCH = "batch"


def mode_of(d: RaggedDotDims) -> str:
    """Which kind of lhs dimension is ragged (the dimensions must have been checked)."""
    ragged = d.lhs_ragged_dimensions[0]
    if ragged in d.lhs_batching_dimensions:
        return Mode.BATCH
    if ragged in d.lhs_contracting_dimensions:
        return Mode.CONTRACTING
    return Mode.NON_CONTRACTING


def group_prefix_dims(d: RaggedDotDims, lhs_rank: int) -> list[int]:
    """The lhs dimensions `group_sizes` has before its group dimension (`[b..., x...]`)."""
    ragged = d.lhs_ragged_dimensions[0]
    mode = mode_of(d)
    if mode == Mode.BATCH:
        return list(d.lhs_batching_dimensions[: d.lhs_batching_dimensions.index(ragged)])
    prefix = list(d.lhs_batching_dimensions)
    if mode == Mode.CONTRACTING:
        return prefix + list(
            d.lhs_contracting_dimensions[: d.lhs_contracting_dimensions.index(ragged)]
        )
    free = [
        i
        for i in range(ragged)
        if i not in d.lhs_batching_dimensions and i not in d.lhs_contracting_dimensions
    ]
    return prefix + free


def ragged_problem(
    d: RaggedDotDims, lhs: Sequence[int], rhs: Sequence[int], group_sizes: Sequence[int]
) -> str | None:
    """checkRaggedDotConstraints, in its order and words."""
    if len(d.lhs_ragged_dimensions) != 1:
        return "There must be exactly one ragged dimension in the lhs."
    ragged = d.lhs_ragged_dimensions[0]
    if (problem := dim_out_of_bounds(ragged, len(lhs), "lhs_ragged_dim", "lhs_rank")) is not None:
        return problem
    prefix = [lhs[i] for i in group_prefix_dims(d, len(lhs))]
    if len(group_sizes) != 1:
        if len(group_sizes) != len(prefix) + 1:
            return f"expected group_sizes to have rank {len(prefix) + 1}, got {len(group_sizes)}"
        if list(group_sizes[: len(prefix)]) != prefix:
            expected = dims_text([*prefix, group_sizes[-1]])
            return (
                f"group_sizes is expected to have shape [{expected}], "
                f"got [{dims_text(group_sizes)}]"
            )
    groups = group_sizes[-1]
    for dim in d.rhs_group_dimensions:
        if (problem := dim_out_of_bounds(dim, len(rhs), "rhs_group_dim", "rhs_rank")) is not None:
            return problem
    for kind in ("batching", "contracting"):
        problem = repeated(
            d.rhs_group_dimensions,
            getattr(d, f"rhs_{kind}_dimensions"),
            "rhs_group_dimensions",
            f"rhs_{kind}_dimensions",
        )
        if problem is not None:
            return problem
    if mode_of(d) != Mode.NON_CONTRACTING:
        if d.rhs_group_dimensions:
            return (
                "There must be zero group dimensions in the rhs when the ragged dimension "
                "is batch or contracting."
            )
        return None
    if len(d.rhs_group_dimensions) != 1:
        return (
            "There must be exactly one group dimension in the rhs when the lhs ragged "
            "dimension is non-contracting."
        )
    size = rhs[d.rhs_group_dimensions[0]]
    if not ht.dims_compatible(groups, size):
        return f"rhs group dimension is expected to have size={groups}, got {size}"
    return None


def result_shape(
    d: RaggedDotDims, lhs: Sequence[int], rhs: Sequence[int], groups: int
) -> list[int]:
    """[g]? + lhs batch + lhs free + rhs free (the group dimension is not free)."""
    shape = [groups] if mode_of(d) == Mode.CONTRACTING else []
    shape += [lhs[i] for i in d.lhs_batching_dimensions]
    reduced = (*d.lhs_batching_dimensions, *d.lhs_contracting_dimensions)
    shape += [lhs[i] for i in range(len(lhs)) if i not in reduced]
    rhs_reduced = (*d.rhs_batching_dimensions, *d.rhs_contracting_dimensions,
                   *d.rhs_group_dimensions)  # fmt: skip
    shape += [rhs[i] for i in range(len(rhs)) if i not in rhs_reduced]
    return shape


@irdl_op_definition
class RaggedDotOp(IRDLOperation):
    """`"chlo.ragged_dot"(%lhs, %rhs, %group_sizes) {ragged_dot_dimension_numbers = ...}`."""

    name = "chlo.ragged_dot"
    lhs = operand_def()
    rhs = operand_def()
    group_sizes = operand_def()
    result = result_def()
    ragged_dot_dimension_numbers = prop_def(RaggedDotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        for what, t in (("lhs", self.lhs.type), ("rhs", self.rhs.type)):
            ht.require_tensor(t, f"'{self.name}' {what}")
        if not ht.is_integer(ht.element_type(self.group_sizes.type)):
            raise VerifyException(
                f"'{self.name}' operand #2 must be ranked tensor of integer values, "
                f"but got '{self.group_sizes.type}'"
            )
        config = self.precision_config
        if config is not None and not all(isinstance(p, ChloPrecisionAttr) for p in config.data):
            raise VerifyException(
                f"'{self.name}' attribute 'precision_config' failed to satisfy constraint: "
                "Precision Config attribute"
            )
        if config is not None and len(config.data) > 2:
            raise VerifyException(
                f"'{self.name}' expects precision config to be empty or have <= 2 elements, "
                f"got {len(config.data)}"
            )
        d = self.ragged_dot_dimension_numbers.data
        lhs, rhs = ht.shape_of(self.lhs.type), ht.shape_of(self.rhs.type)
        sizes = ht.shape_of(self.group_sizes.type)
        if (problem := dot_general_problem(d, lhs, rhs)) is not None:
            raise VerifyException(f"'{self.name}' {problem}")
        if lhs is None or rhs is None or sizes is None:
            return
        if (problem := ragged_problem(d, lhs, rhs, sizes)) is not None:
            raise VerifyException(f"'{self.name}' {problem}")
        inferred = result_shape(d, lhs, rhs, sizes[-1])
        ht.require_inferred_shape(self.name, inferred, self.result.type)
