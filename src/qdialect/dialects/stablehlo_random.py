"""StableHLO's random-number ops: `rng` and `rng_bit_generator`.

Both print upstream's pretty forms (`stablehlo.rng %a, %b, %shape, distribution =
NORMAL : (...) -> ...`, `stablehlo.rng_bit_generator %state, algorithm = PHILOX : (...)
-> (...)`) and verify as upstream does (inferRngOp, verifyRngBitGeneratorOp). Their
values are implementation-defined (the spec fixes no generator for `rng`, and
`rng_bit_generator`'s DEFAULT algorithm is the implementation's), so the interpreter
does not run them: a program that draws random numbers is refused by name rather than
given numbers no other implementation would reproduce.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import ClauseSyntax, parse_keyword_enum
from qdialect.dialects.stablehlo_data import constant_ints


class RngDistribution(StrEnum):
    UNIFORM = "UNIFORM"
    NORMAL = "NORMAL"


class RngAlgorithm(StrEnum):
    DEFAULT = "DEFAULT"
    THREE_FRY = "THREE_FRY"
    PHILOX = "PHILOX"


@irdl_attr_definition
class RngDistributionAttr(EnumAttribute[RngDistribution], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.rng_distribution"


@irdl_attr_definition
class RngAlgorithmAttr(EnumAttribute[RngAlgorithm], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.rng_algorithm"


def _fail(op: IRDLOperation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' {message}")


@irdl_op_definition
class RngOp(ClauseSyntax):
    """Random numbers of the result's shape: uniform in [a, b) or normal(mu = a, sigma = b)."""

    name = "stablehlo.rng"
    OPERANDS: ClassVar[int] = 3
    a = operand_def()
    b = operand_def()
    shape = operand_def()
    result = result_def()
    rng_distribution = prop_def(RngDistributionAttr)

    @classmethod
    def parse_clause(cls, parser: Parser) -> dict[str, Attribute]:
        kind = parse_keyword_enum(
            parser, "distribution", RngDistribution, "::mlir::stablehlo::RngDistribution"
        )
        return {"rng_distribution": RngDistributionAttr(RngDistribution(kind))}

    def clause_text(self) -> str:
        return f"distribution = {self.rng_distribution.data.value}"

    def verify_(self) -> None:
        """AllElementTypesMatch, then inferRngOp, in their order and words."""
        a, b, r = self.a.type, self.b.type, self.result.type
        if not ht.element_type(a) == ht.element_type(b) == ht.element_type(r):
            raise _fail(self, "failed to verify that all of {a, b, result} have same element type")
        normal = self.rng_distribution.data == RngDistribution.NORMAL
        if normal and not (ht.is_float(ht.element_type(a)) and ht.is_float(ht.element_type(b))):
            raise _fail(self, "mu and sigma must be floats")
        sizes = constant_ints(self.shape)
        if sizes is None:
            count = (ht.shape_of(self.shape.type) or (0,))[0]
            sizes = [DYNAMIC_INDEX] * count
        inferred = TensorType(ht.element_type(b), list(sizes))
        ht.verify_inferred_results(self.name, [inferred], [r])


@irdl_op_definition
class RngBitGeneratorOp(ClauseSyntax):
    """Random bits of `output`'s type from `initial_state`, and the next state."""

    name = "stablehlo.rng_bit_generator"
    initial_state = operand_def()
    output_state = result_def()
    output = result_def()
    rng_algorithm = prop_def(RngAlgorithmAttr)

    @classmethod
    def parse_clause(cls, parser: Parser) -> dict[str, Attribute]:
        kind = parse_keyword_enum(
            parser, "algorithm", RngAlgorithm, "::mlir::stablehlo::RngAlgorithm"
        )
        return {"rng_algorithm": RngAlgorithmAttr(RngAlgorithm(kind))}

    def clause_text(self) -> str:
        return f"algorithm = {self.rng_algorithm.data.value}"

    def verify_(self) -> None:
        """verifyRngBitGeneratorOp, in its words."""
        initial, out = self.initial_state.type, self.output_state.type
        if not ht.shapes_compatible(ht.shape_of(initial), ht.shape_of(out)):
            raise _fail(
                self,
                "output state shape must be compatible with initial state shape. Got: "
                f"'{initial}' and '{out}'",
            )


RANDOM_OPS = [RngOp, RngBitGeneratorOp]
RANDOM_ATTRS = [RngDistributionAttr, RngAlgorithmAttr]
