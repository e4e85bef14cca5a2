"""The operand and result types each TOSA op declares, checked first, in upstream's words.

Upstream MLIR declares every TOSA operand with a named type constraint ("tosa-conformant
tensor of at least rank 1", "4-d tosa-conformant tensor", a zero point's "scalar
tensor" ...) and its generated verifier checks them before the op's own rules:

    'tosa.argmax' op operand #0 must be tosa-conformant tensor of at least rank 1, but got 'tensor<i32>'

`check_declared_types` does the same from the table below, so an op whose types are
outside its declaration gets that one message, and the op verifiers can rely on ranks.
"tosa-conformant" means: no dimension of size 0; "scalar tensor": exactly `tensor<1xT>`.
`!tosa.shape` operands are typed by the op definitions themselves and are not listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, Signedness, TensorType, UnrankedTensorType
from xdsl.ir import Attribute, Operation, TypeAttribute
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.ir.float_format import FLOAT_FORMATS


def _int(e: Attribute) -> bool:
    """TOSA's Tosa_Int: signless or unsigned integers of any width (not `si`)."""
    return isinstance(e, IntegerType) and e.signedness.data != Signedness.SIGNED


def _float(e: Attribute) -> bool:
    """MLIR's AnyFloat: every builtin float type, the 8-, 6- and 4-bit ones included."""
    return ht.is_float(e) or (isinstance(e, TypeAttribute) and str(e) in FLOAT_FORMATS)


def _int_or_float(e: Attribute) -> bool:
    return _int(e) or _float(e)


def _number(e: Attribute) -> bool:
    """Tosa_AnyNumber: integers, floats, and quantized types on 4- to 32-bit integer storage."""
    if getattr(e, "float_storage_name", None) is not None:
        return False
    storage = getattr(e, "storage_type", None)
    if isinstance(storage, IntegerType):
        return storage.width.data in (4, 8, 16, 32)
    width = getattr(e, "storage_width", None)  # !quant.any
    if isinstance(width, int):
        return width in (4, 8, 16, 32)
    return _int_or_float(e)


def _width(*widths: int) -> Callable[[Attribute], bool]:
    return lambda e: (
        isinstance(e, IntegerType)
        and e.signedness.data == Signedness.SIGNLESS
        and (e.width.data in widths)
    )


@dataclass(frozen=True)
class TensorConstraint:
    """One declared operand or result type: a tensor kind and its element types."""

    summary: str
    elements: Callable[[Attribute], bool] = _number
    ranks: tuple[int, ...] | None = None
    """The ranks a ranked tensor may have (None: any)."""
    min_rank: int = 0
    unranked: bool = True
    """Whether `tensor<*xT>` is accepted."""
    unranked_elements: Callable[[Attribute], bool] | None = None
    """Element types of the unranked form, when they differ (scalar tensors)."""
    scalar: bool = False
    """The ranked form must be `tensor<1xT>`."""
    conformant: bool = True
    """No dimension of size 0 (every "tosa-conformant" constraint)."""

    def admits(self, t: Attribute) -> bool:
        if isinstance(t, UnrankedTensorType):
            accept = self.unranked_elements or self.elements
            return self.unranked and accept(t.get_element_type())
        if not isinstance(t, TensorType) or not self.elements(t.get_element_type()):
            return False
        shape = tuple(t.get_shape())
        if self.conformant and 0 in shape:
            return False
        if self.scalar:
            return shape == (1,)
        if self.ranks is not None and len(shape) not in self.ranks:
            return False
        return len(shape) >= self.min_rank


_INT_OR_FLOAT = "unsigned integer or signless integer or floating-point"

TENSOR = TensorConstraint("tosa-conformant tensor of number values")
AT_LEAST_1D = TensorConstraint("tosa-conformant tensor of at least rank 1", min_rank=1)
TENSOR_1D = TensorConstraint("1-d tosa-conformant tensor", ranks=(1,))
TENSOR_3D = TensorConstraint("3-d tosa-conformant tensor", ranks=(3,))
TENSOR_4D = TensorConstraint("4-d tosa-conformant tensor", ranks=(4,))
TENSOR_5D = TensorConstraint("5-d tosa-conformant tensor", ranks=(5,))
BOOL_TENSOR = TensorConstraint(
    "tosa-conformant tensor of 1-bit signless integer values", elements=_width(1)
)
INT32_OR_64_TENSOR = TensorConstraint(
    "tosa-conformant tensor of 32-bit signless integer or 64-bit signless integer values",
    elements=_width(32, 64),
)
FLOAT_TENSOR = TensorConstraint("tosa-conformant tensor of floating-point values", elements=_float)
ZERO_POINT = TensorConstraint(
    f"tosa-conformant unranked tensor of {_INT_OR_FLOAT} values or tosa-conformant scalar "
    f"tensor of {_INT_OR_FLOAT} values",
    elements=_int_or_float,
    scalar=True,
)
PAD_CONST = TensorConstraint(
    f"tosa-conformant unranked tensor of {_INT_OR_FLOAT} values or tosa-conformant scalar "
    "tensor of number values",
    unranked_elements=_int_or_float,
    scalar=True,
)
SHIFT_I8 = TensorConstraint(
    "tosa-conformant unranked tensor of 8-bit signless integer values or tosa-conformant "
    "scalar tensor of 8-bit signless integer values",
    elements=_width(8),
    scalar=True,
)
INDICES_2D = TensorConstraint(
    "tosa-conformant unranked tensor of number values or 2D tensor of 32-bit signless "
    "integer or 64-bit signless integer values",
    elements=_width(32, 64),
    unranked_elements=_number,
    ranks=(2,),
)
MULTIPLIER = TensorConstraint(
    "1D tensor of 16-bit signless integer or 32-bit signless integer values",
    elements=_width(16, 32),
    ranks=(1,),
    unranked=False,
    conformant=False,
)
SHIFT_1D = TensorConstraint(
    "1D tensor of 8-bit signless integer values",
    elements=_width(8),
    ranks=(1,),
    unranked=False,
    conformant=False,
)

_UNARY_OPS = (
    "clamp erf sigmoid tanh abs bitwise_not ceil clz exp floor log reciprocal rsqrt identity cast"
)
_BINARY_OPS = (
    "add sub arithmetic_right_shift bitwise_and bitwise_or bitwise_xor logical_left_shift "
    "logical_right_shift maximum minimum pow"
)
_RANK_KEEPING_OPS = (
    "reduce_all reduce_any reduce_max reduce_min reduce_product reduce_sum reverse transpose"
)
_CONV_2D = ((TENSOR_4D, TENSOR_4D, TENSOR_1D, ZERO_POINT, ZERO_POINT), (TENSOR_4D,))

#: op -> (operands, results); None marks a `!tosa.shape` operand. A variadic op lists
#: one constraint for all its operands (`VARIADIC`).
DECLARED: dict[str, tuple[Sequence[TensorConstraint | None], Sequence[TensorConstraint]]] = {
    "tosa.argmax": ((AT_LEAST_1D,), (TENSOR,)),
    "tosa.avg_pool2d": ((TENSOR_4D, ZERO_POINT, ZERO_POINT), (TENSOR_4D,)),
    "tosa.conv2d": _CONV_2D,
    "tosa.depthwise_conv2d": _CONV_2D,
    "tosa.transpose_conv2d": _CONV_2D,
    "tosa.conv3d": ((TENSOR_5D, TENSOR_5D, TENSOR_1D, ZERO_POINT, ZERO_POINT), (TENSOR_5D,)),
    "tosa.fft2d": ((TENSOR_3D, TENSOR_3D), (TENSOR_3D, TENSOR_3D)),
    "tosa.rfft2d": ((TENSOR_3D,), (TENSOR_3D, TENSOR_3D)),
    "tosa.matmul": ((TENSOR_3D, TENSOR_3D, ZERO_POINT, ZERO_POINT), (TENSOR_3D,)),
    "tosa.max_pool2d": ((TENSOR_4D,), (TENSOR_4D,)),
    "tosa.intdiv": ((INT32_OR_64_TENSOR, INT32_OR_64_TENSOR), (INT32_OR_64_TENSOR,)),
    "tosa.logical_and": ((BOOL_TENSOR, BOOL_TENSOR), (BOOL_TENSOR,)),
    "tosa.logical_or": ((BOOL_TENSOR, BOOL_TENSOR), (BOOL_TENSOR,)),
    "tosa.logical_xor": ((BOOL_TENSOR, BOOL_TENSOR), (BOOL_TENSOR,)),
    "tosa.logical_not": ((BOOL_TENSOR,), (BOOL_TENSOR,)),
    "tosa.cos": ((FLOAT_TENSOR,), (FLOAT_TENSOR,)),
    "tosa.sin": ((FLOAT_TENSOR,), (FLOAT_TENSOR,)),
    "tosa.mul": ((TENSOR, TENSOR, SHIFT_I8), (TENSOR,)),
    "tosa.table": ((TENSOR, TENSOR_1D), (TENSOR,)),
    "tosa.negate": ((TENSOR, ZERO_POINT, ZERO_POINT), (TENSOR,)),
    "tosa.select": ((BOOL_TENSOR, TENSOR, TENSOR), (TENSOR,)),
    "tosa.equal": ((TENSOR, TENSOR), (BOOL_TENSOR,)),
    "tosa.greater": ((TENSOR, TENSOR), (BOOL_TENSOR,)),
    "tosa.greater_equal": ((TENSOR, TENSOR), (BOOL_TENSOR,)),
    "tosa.concat": ((AT_LEAST_1D,), (AT_LEAST_1D,)),
    "tosa.pad": ((AT_LEAST_1D, None, PAD_CONST), (AT_LEAST_1D,)),
    "tosa.reshape": ((TENSOR, None), (TENSOR,)),
    "tosa.slice": ((AT_LEAST_1D, None, None), (AT_LEAST_1D,)),
    "tosa.tile": ((AT_LEAST_1D, None), (AT_LEAST_1D,)),
    "tosa.gather": ((TENSOR_3D, INDICES_2D), (TENSOR_3D,)),
    "tosa.scatter": ((TENSOR_3D, INDICES_2D, TENSOR_3D), (TENSOR_3D,)),
    "tosa.resize": ((TENSOR_4D, None, None, None), (TENSOR_4D,)),
    "tosa.rescale": ((TENSOR, MULTIPLIER, SHIFT_1D, ZERO_POINT, ZERO_POINT), (TENSOR,)),
    "tosa.const": ((), (TENSOR,)),
}
for _names, _declared in (
    (_UNARY_OPS, ((TENSOR,), (TENSOR,))),
    (_BINARY_OPS, ((TENSOR, TENSOR), (TENSOR,))),
    (_RANK_KEEPING_OPS, ((AT_LEAST_1D,), (AT_LEAST_1D,))),
):
    DECLARED.update({f"tosa.{name}": _declared for name in _names.split()})

#: Ops whose operands are all one variadic group (`concat`'s `input1`).
VARIADIC = frozenset({"tosa.concat"})


def check_declared_types(op: Operation) -> None:
    """Raise upstream's `operand #i must be ...` for the first operand or result whose
    type its declaration does not admit."""
    declared = DECLARED.get(op.name)
    if declared is None:
        return
    operands, results = declared
    variadic = op.name in VARIADIC
    for what, values, kinds in (
        ("operand", op.operands, operands),
        ("result", op.results, results),
    ):
        for index, value in enumerate(values):
            kind = (
                kinds[0]
                if variadic and what == "operand"
                else (kinds[index] if index < len(kinds) else None)
            )
            if kind is None or kind.admits(value.type):
                continue
            summary = (
                f"variadic of {kind.summary}" if variadic and what == "operand" else kind.summary
            )
            raise VerifyException(
                f"'{op.name}' op {what} #{index} must be {summary}, but got '{value.type}'"
            )


def _is_shape_op(owner: object) -> bool:
    """TOSA's shape operators: `const_shape`, `dim` and the `*_shape` arithmetic."""
    name = getattr(owner, "name", "")
    return (
        isinstance(owner, Operation)
        and name.startswith("tosa.")
        and (name.endswith("_shape") or name == "tosa.dim")
    )


def check_shape_operands(op: Operation) -> None:
    """Every `!tosa.shape` operand comes from a shape operator, so it is known at compile
    time (upstream's TosaResolvableShapeOperands: a block argument does not qualify)."""
    for value in op.operands:
        if getattr(value.type, "name", "") == "tosa.shape" and not _is_shape_op(value.owner):
            raise VerifyException(f"'{op.name}' op shape operand is not compile time resolvable")
