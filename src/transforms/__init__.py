"""Pass registry: the one place that lists every pass `qopt` can run.

Each project pass lives in its own module, named after the pass; generic
clean-up passes come from xDSL.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass

# One-line summaries for the xDSL passes we re-export (their classes carry none).
_SUMMARIES = {
    "canonicalize": "Fold constants and apply every op's canonicalization patterns.",
    "cse": "Eliminate common subexpressions (identical side-effect-free ops).",
    "dce": "Erase operations whose results are unused and that have no side effects.",
}


def pass_summary(name: str, cls: type[ModulePass]) -> str:
    """First line of the pass's docstring, or our summary for re-exported xDSL passes."""
    if name in _SUMMARIES:
        return _SUMMARIES[name]
    doc = (cls.__doc__ or "").strip().splitlines()
    return doc[0] if doc else ""


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass CLI name -> factory returning the pass class (imported lazily)."""

    def get_canonicalize() -> type[ModulePass]:
        from qdialect.transforms.canonicalize import Canonicalize

        return Canonicalize

    def get_cse() -> type[ModulePass]:
        from xdsl.transforms.common_subexpression_elimination import (
            CommonSubexpressionElimination,
        )

        return CommonSubexpressionElimination

    def get_dce() -> type[ModulePass]:
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    def get_qdq_to_quantized() -> type[ModulePass]:
        from qdialect.transforms.legalize_qdq_to_quantized_op import LegalizeQdqToQuantizedOp

        return LegalizeQdqToQuantizedOp

    def get_quantized_to_qdq() -> type[ModulePass]:
        from qdialect.transforms.legalize_quantized_op_to_qdq import LegalizeQuantizedOpToQdq

        return LegalizeQuantizedOpToQdq

    def get_quant_to_math() -> type[ModulePass]:
        from qdialect.transforms.legalize_quant_to_math import LegalizeQuantToMath

        return LegalizeQuantToMath

    def get_lower_quant() -> type[ModulePass]:
        from qdialect.transforms.lower_quant_pipeline import LowerQuantPipeline

        return LowerQuantPipeline

    def get_tosa_rescale_to_stablehlo() -> type[ModulePass]:
        from qdialect.transforms.tosa_rescale_legalize_to_stablehlo import (
            TosaRescaleLegalizeToStablehlo,
        )

        return TosaRescaleLegalizeToStablehlo

    def get_quant_to_tosa_rescale() -> type[ModulePass]:
        from qdialect.transforms.quant_legalize_to_tosa_rescale import QuantLegalizeToTosaRescale

        return QuantLegalizeToTosaRescale

    def get_legalize_to_tosa() -> type[ModulePass]:
        from qdialect.transforms.legalize_to_tosa import LegalizeToTosa

        return LegalizeToTosa

    def get_npu_partition() -> type[ModulePass]:
        from qdialect.transforms.npu_partition import NpuPartition

        return NpuPartition

    def get_normalize_quant_types() -> type[ModulePass]:
        from qdialect.transforms.normalize_quant_types import NormalizeQuantTypes

        return NormalizeQuantTypes

    def get_tosa_attach_target() -> type[ModulePass]:
        from qdialect.transforms.tosa_attach_target import TosaAttachTarget

        return TosaAttachTarget

    def get_tosa_validate() -> type[ModulePass]:
        from qdialect.transforms.tosa_validate import TosaValidate

        return TosaValidate

    def get_tosa_space_to_depth() -> type[ModulePass]:
        from qdialect.transforms.tosa_space_to_depth import TosaSpaceToDepth

        return TosaSpaceToDepth

    def get_fold_pad() -> type[ModulePass]:
        from qdialect.transforms.fold_pad import FoldPad

        return FoldPad

    def get_strip_func_quant_types() -> type[ModulePass]:
        from qdialect.transforms.strip_func_quant_types import StripFuncQuantTypes

        return StripFuncQuantTypes

    def get_normalize_layout() -> type[ModulePass]:
        from qdialect.transforms.normalize_layout import NormalizeLayout

        return NormalizeLayout

    def get_substitute_activations() -> type[ModulePass]:
        from qdialect.transforms.substitute_activations import SubstituteActivations

        return SubstituteActivations

    def get_fold_constants() -> type[ModulePass]:
        from qdialect.transforms.fold_constants import FoldConstants

        return FoldConstants

    def get_bind_arguments() -> type[ModulePass]:
        from qdialect.transforms.bind_arguments import BindArguments

        return BindArguments

    def get_legalize_fake_quant() -> type[ModulePass]:
        from qdialect.transforms.legalize_fake_quant import LegalizeFakeQuant

        return LegalizeFakeQuant

    def get_quantize() -> type[ModulePass]:
        from qdialect.transforms.quantize import Quantize

        return Quantize

    def get_fold_batch_norm() -> type[ModulePass]:
        from qdialect.transforms.fold_batch_norm import FoldBatchNorm

        return FoldBatchNorm

    def get_tosa_fold_kernel_columns() -> type[ModulePass]:
        from qdialect.transforms.tosa_fold_kernel_columns import TosaFoldKernelColumns

        return TosaFoldKernelColumns

    def get_tosa_reduce_transposes() -> type[ModulePass]:
        from qdialect.transforms.tosa_reduce_transposes import TosaReduceTransposes

        return TosaReduceTransposes

    def get_tosa_to_npu() -> type[ModulePass]:
        from qdialect.lowering.tosa_to_npu import TosaToNpu

        return TosaToNpu

    return {
        "tosa-to-npu": get_tosa_to_npu,
        "npu-partition": get_npu_partition,
        "tosa-validate": get_tosa_validate,
        "tosa-reduce-transposes": get_tosa_reduce_transposes,
        "tosa-space-to-depth": get_tosa_space_to_depth,
        "tosa-fold-kernel-columns": get_tosa_fold_kernel_columns,
        "stablehlo-fold-batch-norm": get_fold_batch_norm,
        "stablehlo-quantize": get_quantize,
        "stablehlo-bind-arguments": get_bind_arguments,
        "stablehlo-legalize-fake-quant": get_legalize_fake_quant,
        "stablehlo-fold-constants": get_fold_constants,
        "stablehlo-fold-pad": get_fold_pad,
        "stablehlo-normalize-layout": get_normalize_layout,
        "stablehlo-substitute-activations": get_substitute_activations,
        "tosa-attach-target": get_tosa_attach_target,
        "stablehlo-legalize-to-tosa": get_legalize_to_tosa,
        "stablehlo-quant-legalize-to-tosa-rescale": get_quant_to_tosa_rescale,
        "tosa-rescale-legalize-to-stablehlo": get_tosa_rescale_to_stablehlo,
        "stablehlo-legalize-quant-to-math": get_quant_to_math,
        "stablehlo-lower-quant": get_lower_quant,
        "stablehlo-legalize-qdq-to-quantized-op": get_qdq_to_quantized,
        "stablehlo-legalize-quantized-op-to-qdq": get_quantized_to_qdq,
        "normalize-quant-types": get_normalize_quant_types,
        "strip-func-quant-types": get_strip_func_quant_types,
        "canonicalize": get_canonicalize,
        "cse": get_cse,
        "dce": get_dce,
    }
