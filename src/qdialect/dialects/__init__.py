"""Dialect registry: the one place that lists every dialect `qopt` knows."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Dialect name -> factory, loaded lazily by the context."""

    def get_builtin() -> Dialect:
        from xdsl.dialects.builtin import Builtin

        return Builtin

    def get_func() -> Dialect:
        from xdsl.dialects.func import Func

        return Func

    def get_arith() -> Dialect:
        from xdsl.dialects.arith import Arith

        return Arith

    def get_math() -> Dialect:
        # xDSL's: upstream's tosa-validate tests check that non-TOSA ops pass through.
        from xdsl.dialects.math import Math

        return Math

    def get_tensor() -> Dialect:
        # xDSL's: upstream's TOSA tests make result tensors with `tensor.empty`.
        from xdsl.dialects.tensor import Tensor

        return Tensor

    def get_quant() -> Dialect:
        from qdialect.dialects.quant import Quant

        return Quant

    def get_stablehlo() -> Dialect:
        # The core ops and, from their own modules, the region, data-movement,
        # numeric and distribution ops: one `stablehlo` dialect.
        from qdialect.dialects.stablehlo import StableHLO
        from qdialect.dialects.stablehlo_async import ASYNC_OP_CLASSES, ASYNC_TYPES
        from qdialect.dialects.stablehlo_batch_norm import BATCH_NORM_OPS
        from qdialect.dialects.stablehlo_collectives import COLLECTIVE_ATTRS, COLLECTIVE_OPS
        from qdialect.dialects.stablehlo_composite import CompositeOp
        from qdialect.dialects.stablehlo_control import CONTROL_OPS
        from qdialect.dialects.stablehlo_data import DATA_ATTRS, DATA_OPS
        from qdialect.dialects.stablehlo_einsum import EINSUM_OPS
        from qdialect.dialects.stablehlo_linalg import LINALG_ATTRS, LINALG_OPS
        from qdialect.dialects.stablehlo_mesh import MESH_ATTRS
        from qdialect.dialects.stablehlo_numeric import NUMERIC_OPS
        from qdialect.dialects.stablehlo_random import RANDOM_ATTRS, RANDOM_OPS
        from qdialect.dialects.stablehlo_token import TOKEN_OPS, TOKEN_TYPES

        return Dialect(
            "stablehlo",
            [
                *StableHLO.operations,
                *NUMERIC_OPS,
                *CONTROL_OPS,
                *DATA_OPS,
                *COLLECTIVE_OPS,
                *LINALG_OPS,
                *EINSUM_OPS,
                *TOKEN_OPS,
                *BATCH_NORM_OPS,
                *RANDOM_OPS,
                *ASYNC_OP_CLASSES,
                CompositeOp,
            ],
            [
                *StableHLO.attributes,
                *DATA_ATTRS,
                *COLLECTIVE_ATTRS,
                *MESH_ATTRS,
                *LINALG_ATTRS,
                *TOKEN_TYPES,
                *RANDOM_ATTRS,
                *ASYNC_TYPES,
            ],
        )

    def get_chlo() -> Dialect:
        from qdialect.dialects.chlo import CHLO

        return CHLO

    def get_interpreter() -> Dialect:
        from qdialect.dialects.interpreter import Interpreter

        return Interpreter

    def get_check() -> Dialect:
        from qdialect.dialects.check import Check

        return Check

    def get_tosa() -> Dialect:
        from qdialect.dialects.tosa_extra import TOSA

        return TOSA

    def get_npu() -> Dialect:
        from qdialect.dialects.npu import NPU

        return NPU

    return {
        "builtin": get_builtin,
        "func": get_func,
        "arith": get_arith,
        "tensor": get_tensor,
        "math": get_math,
        "quant": get_quant,
        "stablehlo": get_stablehlo,
        "chlo": get_chlo,
        "check": get_check,
        "interpreter": get_interpreter,
        "tosa": get_tosa,
        "npu": get_npu,
    }
