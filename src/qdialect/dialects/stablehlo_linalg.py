"""StableHLO's Fourier transform and triangular solve.

`stablehlo.fft %x, type = FFT, length = [4] : (T) -> R` (upstream's pretty form; the
generic form carries `fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>`)
and `"stablehlo.triangular_solve"(%a, %b) {left_side, lower, unit_diagonal,
transpose_a = #stablehlo<transpose NO_TRANSPOSE>}` (generic only, as upstream prints
it), with the spec's constraints. They join the one `stablehlo` dialect through
`qdialect.dialects.get_all_dialects()`; docs/interpreter.md says what they compute.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import (
    create_typed_by_function,
    dense_values,
    int_list_text,
    parse_int_list,
    parse_keyword_word,
    parse_same_operands_and_result_type,
    print_extra_attrs,
    print_same_operands_and_result_type,
    resolve,
    split_attr_dict,
)


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


class Transpose(StrEnum):
    TRANSPOSE_INVALID = "TRANSPOSE_INVALID"  # upstream's enum has it; inference refuses it
    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[FftType], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.fft_type"


@irdl_attr_definition
class TransposeAttr(EnumAttribute[Transpose], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.transpose"


def _error(op: IRDLOperation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' {message}")


@irdl_op_definition
class FftOp(IRDLOperation):
    """Forward and inverse, complex and real Fourier transforms over the trailing
    `len(fft_length)` dimensions."""

    name = "stablehlo.fft"
    operand = operand_def()
    result = result_def()
    fft_type = prop_def(FftTypeAttr)
    fft_length = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        word, start, _ = parse_keyword_word(parser, "type")
        if word not in FftType.__members__:
            parser.raise_error(
                f"expected one of {', '.join(FftType.__members__)}, got '{word}'", start, parser.pos
            )
        parser.parse_punctuation(",")
        parser.parse_keyword("length")
        parser.parse_punctuation("=")
        length = parse_int_list(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["fft_type"] = FftTypeAttr(FftType(word))
        props["fft_length"] = DenseArrayBase.from_list(i64, length)
        return create_typed_by_function(cls, parser, [operand], props, attrs)

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(
            f", type = {self.fft_type.data.value}, "
            f"length = {int_list_text(dense_values(self.fft_length))}"
        )
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([self.operand.type], [self.result.type])

    def verify_(self) -> None:
        """Upstream's inferFftOp in its order and words, then the result type against the
        inferred one."""
        kind = self.fft_type.data
        length = list(dense_values(self.fft_length))
        a, r = self.operand.type, self.result.type
        for what, t in (("operand", a), ("result", r)):
            ht.require_tensor(t, f"'{self.name}' {what}")
        if not 1 <= len(length) <= 3:  # C1
            raise _error(self, f"rank must be between 1 and 3, but got {len(length)}.")
        ea = ht.element_type(a)
        real_in, real_out = kind == FftType.RFFT, kind == FftType.IRFFT
        element: Attribute | None = ea
        if real_in:  # C2
            if not isinstance(ea, Float32Type | Float64Type):
                raise _error(self, f"RFFT requires f32 or f64 input type, but is given '{ea}'.")
            element = ComplexType(ea)
        elif not ht.is_complex(ea):
            raise _error(
                self, f"FFT/IFFT/IRFFT take a complex tensor as input, but is given '{a}'."
            )
        elif real_out:
            element = _complex_part(ea)
        sa = ht.shape_of(a)
        if sa is None:
            return
        n = len(length)
        if len(sa) < n:
            raise _error(
                self,
                f"operand rank must not be less than fft rank of {n} for operand of type '{a}'.",
            )
        expected = list(sa)
        # Upstream prints a dynamic size as the int64 it stores for one.
        got = ", ".join(str(-(2**63) if d == DYNAMIC_INDEX else d) for d in sa)
        wanted = ", ".join(map(str, length))
        if real_in:  # C4
            if any(not ht.dims_compatible(s, f) for s, f in zip(sa[-n:], length, strict=True)):
                raise _error(
                    self,
                    "RFFT requires innermost dimensions to be compatible with fft_length. "
                    f"Got: {got} but wanted {wanted}.",
                )
            if length[-1]:
                expected[-1] = length[-1] // 2 + 1
        if real_out:  # C5
            for s, f in zip(sa[-n:-1], length, strict=False):
                if not ht.dims_compatible(s, f):
                    raise _error(
                        self,
                        "IRFFT requires non-final dimensions to be compatible with fft_length. "
                        f"Got: {got} but wanted {wanted}, and {s} != {f}.",
                    )
            last = sa[-1]
            if (not ht.dims_compatible(last, 0) or length[-1]) and not ht.dims_compatible(
                last, length[-1] // 2 + 1
            ):
                raise _error(
                    self,
                    "IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. "
                    f"Got: {last} but fft_length is {wanted}.",
                )
            expected[-1] = length[-1]
        assert element is not None
        ht.verify_inferred_results(self.name, [ht.tensor_like(expected, element)], [r])


def _complex_part(t: Attribute) -> Attribute | None:
    return getattr(t, "element_type", None)


@irdl_op_definition
class TriangularSolveOp(IRDLOperation):
    """Solves `op(a) x = b` (left_side) or `x op(a) = b` for batches of triangular `a`."""

    name = "stablehlo.triangular_solve"
    a = operand_def()
    b = operand_def()
    result = result_def()
    left_side = prop_def(BoolAttr)
    lower = prop_def(BoolAttr)
    unit_diagonal = prop_def(BoolAttr)
    transpose_a = prop_def(TransposeAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b, r = self.a.type, self.b.type, self.result.type
        for what, t in (("a", a), ("b", b), ("result", r)):
            ht.require_tensor(t, f"'{self.name}' {what}")
        e = ht.element_type(a)
        if not (ht.is_float(e) or ht.is_complex(e)):
            raise _error(self, f"operands must be floating-point or complex, got {a}")
        if ht.element_type(b) != e or ht.element_type(r) != e:
            raise _error(self, "a, b and the result must have one element type")
        sa, sb = ht.shape_of(a), ht.shape_of(b)
        if sa is None or sb is None:
            return
        # inferTriangularSolveOp, in its order and words
        if len(sa) < 2:  # C2
            raise _error(self, f"operand 'a' must have rank >= 2, but got '{a}'")
        if not ht.dims_compatible(sa[-1], sa[-2]):  # C3
            raise _error(
                self, f"two minor dimensions of operand 'a' must be compatible, but got '{a}'"
            )
        if len(sa) != len(sb):  # C1
            raise _error(self, f"operands must have equal rank, but got '{a}' and '{b}'")
        k = sb[-2] if self.left_side.value.data else sb[-1]
        if not ht.dims_compatible(sa[-1], k):  # C4
            raise _error(
                self,
                f"shared dimension of operands 'a' and 'b' must be compatible, but got '{a}' "
                f"and '{b}'",
            )
        if not ht.shapes_compatible(sa[:-2], sb[:-2]):  # C5
            raise _error(
                self,
                f"batch dimensions of the operands must be compatible, but got '{a}' and '{b}'",
            )
        if self.transpose_a.data == Transpose.TRANSPOSE_INVALID:
            raise _error(self, "Invalid transpose option value for triangular solve")
        ht.verify_inferred_results(self.name, [b], [r])  # C6


@irdl_op_definition
class CholeskyOp(IRDLOperation):
    """`stablehlo.cholesky %a, lower = true : tensor<2x2xf32>`: the Cholesky factor of each
    Hermitian positive-definite matrix of a batch (lower or upper triangle)."""

    name = "stablehlo.cholesky"
    a = operand_def()
    result = result_def()
    lower = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("lower")
            parser.parse_punctuation("=")
            props["lower"] = parser.parse_attribute()
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        types, result = parse_same_operands_and_result_type(parser, 1)
        return cls.create(
            operands=resolve(parser, [operand], types),
            result_types=[result],
            properties={**more, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.a)
        if self.lower is not None:
            printer.print_string(", lower = ")
            printer.print_attribute(self.lower)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        print_same_operands_and_result_type(printer, [self.a], self.result.type)

    def verify_(self) -> None:
        """inferCholeskyOp, in its order and words, then the result against it."""
        a = self.a.type
        shape = ht.shape_of(a)
        if shape is None:
            return
        text = ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape)
        if len(shape) < 2:  # C2
            raise _error(self, f"argument 'a' must have rank >= 2, got shape {text}.")
        if not ht.dims_compatible(shape[-1], shape[-2]):  # C3
            raise _error(self, f"minor dimensions of 'a' must have equal size, got shape {text}.")
        ht.verify_inferred_results(self.name, [a], [self.result.type])  # C1


LINALG_OPS = [FftOp, TriangularSolveOp, CholeskyOp]
LINALG_ATTRS = [FftTypeAttr, TransposeAttr]
