"""`chlo.scan`: a loop over one dimension that carries state, as `jax.lax.scan` writes it.

    %out, %carry = chlo.scan(%xs) inits(%c0) dimension=0 {
    ^bb0(%x: tensor<3xf32>, %c: tensor<3xf32>):
      %s = stablehlo.add %x, %c : tensor<3xf32>
      stablehlo.return %s, %s : tensor<3xf32>, tensor<3xf32>
    } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)

The body takes one slice of each input (the scan dimension removed) and the carries, and
returns the outputs' slices, then the new carries. Results are the outputs (slices
stacked back along `dimension`) then the final carries; `is_reverse` runs the steps
from the end. The syntax, the verifier and the result-type inference follow upstream's
(ScanOp::parse/print/verify/inferReturnTypeComponents) in their order and words,
including the printer's double space before the region.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import resolve

_ELIDED = ("dimension", "operandSegmentSizes", "resultSegmentSizes")


@irdl_op_definition
class ScanOp(IRDLOperation):
    """`chlo.scan(%inputs) inits(%inits) dimension=D {attrs} {body} : (...) -> (...)`."""

    name = "chlo.scan"
    inputs = var_operand_def()
    inits = var_operand_def()
    outputs = var_result_def()
    carries = var_result_def()
    dimension = prop_def(IntegerAttr)
    scan_dim_size = opt_prop_def(IntegerAttr)
    is_reverse = opt_prop_def(BoolAttr)
    is_associative = opt_prop_def(BoolAttr)
    body = region_def("single_block")
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )
    traits = traits_def(IsolatedFromAbove(), RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        delimiter = parser.Delimiter.PAREN
        inputs = parser.parse_comma_separated_list(delimiter, parser.parse_unresolved_operand)
        parser.parse_keyword("inits")
        inits = parser.parse_comma_separated_list(delimiter, parser.parse_unresolved_operand)
        parser.parse_keyword("dimension")
        parser.parse_punctuation("=")
        dimension = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        n_outputs = len(fn.outputs.data) - len(inits)
        if len(fn.inputs.data) != len(inputs) + len(inits):
            parser.raise_error("operand types must match the number of inputs and inits", start)
        if n_outputs < 0:
            parser.raise_error("not enough result types to cover the required carries", start)
        types = fn.inputs.data
        operands = resolve(parser, [*inputs, *inits], types)
        props = {} if attrs is None else dict(attrs.data)
        names = cls.get_irdl_definition().properties
        attributes = {k: props.pop(k) for k in list(props) if k not in names}
        props["dimension"] = IntegerAttr(dimension, i64)
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(inputs), len(inits)])
        props["resultSegmentSizes"] = DenseArrayBase.from_list(i32, [n_outputs, len(inits)])
        return cls.create(
            operands=operands,
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer):
        printer.print_string("(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(") inits (")
        printer.print_list(self.inits, printer.print_operand)
        printer.print_string(f") dimension={self.dimension.value.data} ")
        shown = {k: v for k, v in self.properties.items() if k not in _ELIDED}
        shown.update(self.attributes)
        if shown:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(sorted(shown.items())))
        printer.print_string(" ")
        printer.print_region(self.body)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.operands], self.result_types)

    def verify_(self) -> None:
        """ODS's attribute constraints, then ScanOp::verify, then the inferred types."""
        for attr_name in ("dimension", "scan_dim_size"):
            attr = self.properties.get(attr_name)
            if isinstance(attr, IntegerAttr) and attr.value.data < 0:
                raise VerifyException(
                    f"'{self.name}' attribute '{attr_name}' failed to satisfy constraint: "
                    "64-bit signless integer attribute whose value is non-negative"
                )
        if not self.inputs and not self.outputs:
            raise VerifyException(
                f"'{self.name}' at least one of inputs or outputs must be present"
            )
        dim = self.dimension.value.data
        size = None if self.scan_dim_size is None else self.scan_dim_size.value.data
        for i, t in enumerate(self.inputs.types):
            shape = _ranked(self.name, i, t)
            if dim >= len(shape):
                raise VerifyException(
                    f"'{self.name}' scan dimension of operand {i} is out of bounds"
                )
            if shape[dim] == DYNAMIC_INDEX:
                continue
            if size is not None and size != shape[dim]:
                raise VerifyException(f"'{self.name}' invalid scan dimension size of operand {i}")
            size = shape[dim]
        block = self.body.block
        if len(block.args) != len(self.operands):
            raise VerifyException(
                f"'{self.name}' expects {len(self.operands)} arguments in the body, but got "
                f"{len(block.args)}"
            )
        for i, operand in enumerate(self.operands):
            shape = list(_ranked(self.name, i, operand.type))
            if i < len(self.inputs):
                del shape[dim]
            expected = TensorType(ht.element_type(operand.type), shape)
            arg = block.args[i].type
            if not (ht.elements_compatible(expected, arg) and ht.shapes_compatible(
                tuple(shape), ht.shape_of(arg)
            )):  # fmt: skip
                raise VerifyException(
                    f"'{self.name}' operand and body argument {i} are incompatible"
                )
        self._verify_inferred_results()

    def _verify_inferred_results(self) -> None:
        """inferReturnTypeComponents: each returned value's type, with the scan dimension
        put back into the outputs'; compared by shape only (isCompatibleReturnTypes)."""
        terminator = self.body.block.last_op
        if terminator is None:
            return
        returned = [v.type for v in terminator.operands]
        if len(returned) < len(self.inits):
            raise ht.InferenceError(
                f"'{self.name}' ScanOp body must return at least {len(self.inits)} values (carries)"
            )
        dim = self.dimension.value.data
        size = DYNAMIC_INDEX if self.scan_dim_size is None else self.scan_dim_size.value.data
        for t in self.inputs.types:
            if size == DYNAMIC_INDEX:
                size = _ranked(self.name, 0, t)[dim]
        n_outputs = len(returned) - len(self.inits)
        inferred: list[Attribute] = []
        for i, t in enumerate(returned):
            shape = ht.shape_of(t)
            if shape is None:
                raise ht.InferenceError(f"'{self.name}' terminator operand {i} is not ranked")
            shape = list(shape)
            if i < n_outputs:
                shape.insert(dim, size)
            inferred.append(TensorType(ht.element_type(t), shape))
        results = self.result_types
        if len(inferred) != len(results) or not all(
            ht.shapes_compatible(ht.shape_of(a), ht.shape_of(b))
            for a, b in zip(inferred, results, strict=False)
        ):
            raise ht.InferenceError(
                f"'{self.name}' inferred type(s) {ht.quoted_types(inferred)} are incompatible "
                f"with return type(s) of operation {ht.quoted_types(results)}"
            )


def _ranked(op_name: str, index: int, t: Attribute) -> Sequence[int]:
    shape = ht.shape_of(t)
    if shape is None:
        raise VerifyException(f"'{op_name}' operand {index} is not ranked")
    return shape
