"""StableHLO's batch normalization ops: batch_norm_inference, batch_norm_training and
batch_norm_grad.

Upstream gives them no pretty form: they print generically, with `epsilon` (f32) and
`feature_index` (i64, non-negative) as properties. The multi-dimensional operands
(`operand`, `grad_output`) and the one-dimensional ones (`scale`, `offset`, `mean`,
`variance`) are checked as upstream's verifyBatchNorm checks them, in its order and
words, and the results against the types inference gives. The interpreter computes
them as the spec's decompositions do (docs/interpreter.md); model importers fold
inference-mode batch norm into the convolution before (`fold_batch_norm`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht


class _BatchNormOp(IRDLOperation):
    """The checks the three ops share: verifyBatchNorm, then the inferred results."""

    epsilon = prop_def(FloatAttr)
    feature_index = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    def multi_dim(self) -> Sequence[SSAValue]:
        raise NotImplementedError

    def single_dim(self) -> Sequence[SSAValue]:
        raise NotImplementedError

    def _fail(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' {message}")

    def verify_(self) -> None:
        multi = [v.type for v in self.multi_dim()]
        single = [v.type for v in self.single_dim()]
        if not _pairwise_compatible(multi):
            raise self._fail("expects multi-dimensional operands to have compatible shapes.")
        if not _pairwise_compatible(single):
            raise self._fail("expects single-dimensional operands to have compatible shapes.")
        shape = ht.shape_of(multi[0])
        feature = self.feature_index.value.data
        if shape is None:
            return
        if feature >= len(shape):
            raise self._fail(
                "expects featureIndex to be smaller than the rank of multi-dimensional "
                f"operands; got featureIndex {feature}, and rank {len(shape)}."
            )
        count = shape[feature]
        size = (ht.shape_of(single[0]) or (DYNAMIC_INDEX,))[0]
        if not ht.dims_compatible(size, count):
            raise self._fail(
                "expects the size of single-dimensional operands to be compatible with feature "
                f"count, but the size of single-dimensional operands is {_dim(size)} and the "
                f"feature count is {_dim(count)}."
            )
        e = ht.element_type(multi[0])
        inferred: list[Attribute] = [TensorType(e, list(shape))]
        inferred += [TensorType(e, [count])] * (len(self.results) - 1)
        ht.verify_inferred_results(self.name, inferred, [r.type for r in self.results])


def _dim(size: int) -> str:
    return "?" if size == DYNAMIC_INDEX else str(size)


def _pairwise_compatible(types: Sequence[Attribute]) -> bool:
    shapes = [ht.shape_of(t) for t in types]
    return all(ht.shapes_compatible(shapes[0], s) for s in shapes)


@irdl_op_definition
class BatchNormInferenceOp(_BatchNormOp):
    """Normalizes `operand` with the given mean and variance, per feature."""

    name = "stablehlo.batch_norm_inference"
    operand = operand_def()
    scale = operand_def()
    offset = operand_def()
    mean = operand_def()
    variance = operand_def()
    result = result_def()

    def multi_dim(self) -> Sequence[SSAValue]:
        return [self.operand]

    def single_dim(self) -> Sequence[SSAValue]:
        return [self.scale, self.offset, self.mean, self.variance]


@irdl_op_definition
class BatchNormTrainingOp(_BatchNormOp):
    """Normalizes `operand` with its own per-feature mean and variance, and returns them."""

    name = "stablehlo.batch_norm_training"
    operand = operand_def()
    scale = operand_def()
    offset = operand_def()
    output = result_def()
    batch_mean = result_def()
    batch_var = result_def()

    def multi_dim(self) -> Sequence[SSAValue]:
        return [self.operand]

    def single_dim(self) -> Sequence[SSAValue]:
        return [self.scale, self.offset]


@irdl_op_definition
class BatchNormGradOp(_BatchNormOp):
    """The gradients of batch_norm_training with respect to operand, scale and offset."""

    name = "stablehlo.batch_norm_grad"
    operand = operand_def()
    scale = operand_def()
    mean = operand_def()
    variance = operand_def()
    grad_output = operand_def()
    grad_operand = result_def()
    grad_scale = result_def()
    grad_offset = result_def()

    def multi_dim(self) -> Sequence[SSAValue]:
        return [self.operand, self.grad_output]

    def single_dim(self) -> Sequence[SSAValue]:
        return [self.scale, self.mean, self.variance]


BATCH_NORM_OPS = [BatchNormInferenceOp, BatchNormTrainingOp, BatchNormGradOp]
