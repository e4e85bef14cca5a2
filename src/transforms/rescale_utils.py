"""What the passes that emit `tosa.rescale` share: building one rescale from real
scales (`emit_rescale`) and the `rounding` option (`RescaleRoundingPass`).

Used by `stablehlo-quant-legalize-to-tosa-rescale` and `stablehlo-legalize-to-tosa`,
so neither pass imports the other's helpers.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import BoolAttr, DenseIntOrFPElementsAttr, IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from qdialect import numerics
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import tosa
from qdialect.ir.errors import OpError


def emit_rescale(
    emit: Callable[[Operation], SSAValue],
    op: Operation,
    pass_name: str,
    v: SSAValue,
    scales: list[float],
    input_zp: int,
    output_zp: int,
    out: IntegerType,
    double_round: bool,
) -> SSAValue:
    """`tosa.rescale` of `v` by `scales` with 32-bit multipliers (per channel along the
    last axis when there is more than one), its parameters as `tosa.const`s, all built
    through `emit` (inserts an op, returns its result). A scale no multiplier with a
    shift in 2..62 can express is an error at `op` naming `pass_name`."""
    pairs = []
    for scale in scales:
        try:
            pairs.append(numerics.quantize_multiplier(scale, 32))
        except numerics.QuantizationError as err:
            raise OpError(
                op, f"{pass_name}: '{op.name}' needs a rescale by {scale!r} ({err})"
            ) from None
    n = len(pairs)
    in_element = ht.element_type(v.type)
    shape = ht.shape_of(v.type)
    if not isinstance(in_element, IntegerType) or shape is None:
        raise OpError(
            op, f"{pass_name}: '{op.name}' rescales a ranked integer tensor, not {v.type}"
        )

    def const(values: list[int], element: IntegerType) -> SSAValue:
        t = TensorType(element, [len(values)])
        return emit(tosa.ConstOp(DenseIntOrFPElementsAttr.from_list(t, values)))

    mode = tosa.RoundingMode.DOUBLE_ROUND if double_round else tosa.RoundingMode.SINGLE_ROUND
    false = BoolAttr.from_bool(False)
    return emit(
        tosa.RescaleOp.create(
            operands=[
                v,
                const([m for m, _ in pairs], i32),
                const([s for _, s in pairs], IntegerType(8)),
                const([input_zp], in_element),
                const([output_zp], out),
            ],
            result_types=[TensorType(out, shape)],
            properties={
                "scale32": BoolAttr.from_bool(True),
                "rounding_mode": tosa.RoundingModeAttr(mode),
                "per_channel": BoolAttr.from_bool(n > 1),
                "input_unsigned": false,
                "output_unsigned": false,
            },
        )
    )


@dataclass(frozen=True)
class RescaleRoundingPass(ModulePass, ABC):
    """A pass that emits rescales, with the `rounding` option they all share."""

    rounding: str = "double"
    """`double` (DOUBLE_ROUND, TFLite's reference kernels) or `single` (SINGLE_ROUND)."""

    def __post_init__(self) -> None:
        if self.rounding not in ("double", "single"):
            raise ValueError(f"rounding must be 'double' or 'single', not '{self.rounding}'")

    @property
    def double_round(self) -> bool:
        return self.rounding == "double"
