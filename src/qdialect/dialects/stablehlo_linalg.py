"""StableHLO's Fourier transform and triangular solve.

`stablehlo.fft %x, type = FFT, length = [4] : (T) -> R` (upstream's pretty form; the
generic form carries `fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>`)
and `"stablehlo.triangular_solve"(%a, %b) {left_side, lower, unit_diagonal,
transpose_a = #stablehlo<transpose NO_TRANSPOSE>}` (generic only, as upstream prints
it), with the spec's constraints. They join the one `stablehlo` dialect through
`qdialect.dialects.get_all_dialects()`; docs/interpreter.md says what they compute.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
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
    dense_values,
    int_list_text,
    parse_int_list,
    print_extra_attrs,
    resolve,
    split_attr_dict,
)


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


class Transpose(StrEnum):
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
        parser.parse_keyword("type")
        parser.parse_punctuation("=")
        start = parser.pos
        word = parser.parse_identifier()
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
        parser.parse_punctuation(":")
        function = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, [operand], list(function.inputs.data)),
            result_types=list(function.outputs.data),
            properties=props,
            attributes=attrs,
        )

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
        kind = self.fft_type.data
        length = dense_values(self.fft_length)
        a, r = self.operand.type, self.result.type
        for what, t in (("operand", a), ("result", r)):
            ht.require_tensor(t, f"'{self.name}' {what}")
        if not 1 <= len(length) <= 3:  # C1
            raise _error(self, f"fft_length must have 1 to 3 entries, got {len(length)}")
        ea, er = ht.element_type(a), ht.element_type(r)
        real_in, real_out = kind == FftType.RFFT, kind == FftType.IRFFT
        if ht.is_complex(ea) == real_in or ht.is_complex(er) == real_out:  # C2-C3
            want_in = "floating-point" if real_in else "complex"
            want_out = "floating-point" if real_out else "complex"
            raise _error(
                self, f"{kind.value} takes {want_in} operands and gives {want_out} results"
            )
        if not (ht.is_float(ea) or ht.is_complex(ea)) or not (ht.is_float(er) or ht.is_complex(er)):
            raise _error(self, "operand and result must be floating-point or complex")
        sa, sr = ht.shape_of(a), ht.shape_of(r)
        if sa is None or sr is None:
            return
        if len(length) > len(sa):
            raise _error(
                self, f"operand rank {len(sa)} is below the {len(length)} transformed dimensions"
            )
        expected = list(sa)
        n = len(length)
        if kind == FftType.RFFT:  # C4: the real input's trailing dimensions are fft_length
            if any(not ht.dims_compatible(s, f) for s, f in zip(sa[-n:], length, strict=True)):
                raise _error(
                    self, f"RFFT needs operand dimensions {int_list_text(length)} at the end"
                )
            expected[-1] = length[-1] // 2 + 1
        elif kind == FftType.IRFFT:  # C5: the real result's trailing dimensions are fft_length
            expected[-n:] = length
            if not ht.dims_compatible(sa[-1], length[-1] // 2 + 1):
                raise _error(
                    self,
                    f"IRFFT needs operand's last dimension {length[-1] // 2 + 1}, got {sa[-1]}",
                )
        if not ht.shapes_compatible(tuple(expected), sr):
            raise _error(
                self,
                f"inferred result shape {ht.shape_text(tuple(expected))} but the result has "
                f"shape {ht.shape_text(sr)}",
            )
        part = ht.element_type(r) if real_out else ht.element_type(a)
        other = ht.element_type(a) if real_out else ht.element_type(r)
        if real_in or real_out:
            if not ht.is_complex(other) or _complex_part(other) != part:
                raise _error(self, "the real side's type must be the complex side's part type")
        elif ea != er:
            raise _error(self, "operand and result element types differ")


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
        sa, sb, sr = ht.shape_of(a), ht.shape_of(b), ht.shape_of(r)
        if sa is None or sb is None:
            return
        if len(sa) < 2:  # C2
            raise _error(self, f"operand 'a' must have rank >= 2, but got {a}")
        if not ht.dims_compatible(sa[-1], sa[-2]):  # C3
            raise _error(
                self, f"two minor-most dimensions of operand 'a' must have equal size, got {a}"
            )
        if len(sa) != len(sb):  # C1
            raise _error(self, f"operands must have equal rank, got {a} and {b}")
        k = sb[-2] if self.left_side.value.data else sb[-1]
        if not ht.dims_compatible(sa[-1], k):  # C4
            side = "second" if self.left_side.value.data else "last"
            raise _error(
                self,
                f"shared dimension of operands 'a' and 'b' does not match ({sa[-1]} vs {side} "
                f"minor dimension {k} of b)",
            )
        for x, y in zip(sa[:-2], sb[:-2], strict=True):  # C5
            if not ht.dims_compatible(x, y):
                raise _error(self, f"batch dimensions of the operands must match, got {a} and {b}")
        if sr is not None and not ht.shapes_compatible(sb, sr):  # C6
            raise _error(self, f"result must have the shape of b, got {r}")


LINALG_OPS = [FftOp, TriangularSolveOp]
LINALG_ATTRS = [FftTypeAttr, TransposeAttr]
