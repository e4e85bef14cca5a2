"""`stablehlo.composite`: a named op whose meaning is a function, as JAX exports it.

    %0 = stablehlo.composite "my.gelu" %x {composite_attributes = {approximate = true},
           decomposition = @my.gelu.impl, version = 1 : i32} : (T) -> T

Tools that know `name` may treat it as one op (a fused activation, a table); everything
else, the interpreter included, runs `decomposition`. The spec's constraints, in
upstream's words: a namespaced name (C1), a decomposition that is a function of the
module (C2) whose signature is the op's (C3-C4).
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import (
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolUserOpInterface
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects.hlo_syntax import (
    create_typed_by_function,
    parse_optional_operand_list,
    print_extra_attrs,
    split_attr_dict,
)

# A dialect namespace and at least one more dot-separated part.
_NAMESPACED = re.compile(r"[A-Za-z_][\w$]*(\.[\w$]+)+")


def _function(op: IRDLOperation, name: str) -> FuncOp | None:
    module = op.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    if module is None:
        return None
    return next((f for f in module.ops if isinstance(f, FuncOp) and f.sym_name.data == name), None)


class _DecompositionIsAFunction(SymbolUserOpInterface):
    def verify(self, op) -> None:
        assert isinstance(op, CompositeOp)
        name = op.decomposition.root_reference.data
        func = _function(op, name)
        if func is None:  # C2
            raise VerifyException(f"'{op.name}' '{name}' does not reference a valid function")
        inputs, outputs = func.function_type.inputs.data, func.function_type.outputs.data
        for what, mine, theirs in (
            ("operand", [o.type for o in op.operands], inputs),
            ("result", [r.type for r in op.results], outputs),
        ):
            if len(mine) != len(theirs):  # C3 / C4
                raise VerifyException(
                    f"'{op.name}' has {len(mine)} {what}(s), but decomposition has {len(theirs)}"
                )
            for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
                if a != b:
                    raise VerifyException(
                        f"'{op.name}' {what} at index {i} has type '{a}', but decomposition "
                        f"has type '{b}'"
                    )


@irdl_op_definition
class CompositeOp(IRDLOperation):
    name = "stablehlo.composite"
    inputs = var_operand_def()
    outputs = var_result_def()
    composite_name = prop_def(StringAttr, prop_name="name")
    composite_attributes = opt_prop_def(DictionaryAttr)
    decomposition = prop_def(SymbolRefAttr)
    version = opt_prop_def(IntegerAttr)
    traits = traits_def(_DecompositionIsAFunction())

    @classmethod
    def parse(cls, parser: Parser):
        name = parser.parse_str_literal()
        operands = parse_optional_operand_list(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["name"] = StringAttr(name)
        return create_typed_by_function(cls, parser, operands, props, attrs)

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_string_literal(self.composite_name.data)
        if self.inputs:
            printer.print_string(" ")
            printer.print_list(self.inputs, printer.print_operand)
        props = ["decomposition"]
        if self.composite_attributes is not None and self.composite_attributes.data:
            props.append("composite_attributes")
        if self.version is not None and self.version.value.data != 0:
            props.append("version")
        print_extra_attrs(printer, self, props=props)
        printer.print_string(" : ")
        printer.print_function_type([o.type for o in self.inputs], [r.type for r in self.outputs])

    def verify_(self) -> None:
        if not _NAMESPACED.fullmatch(self.composite_name.data):  # C1
            raise VerifyException(f"'{self.name}' name must be a valid namespaced op name")
        if self.version is not None and self.version.type != i32:
            raise VerifyException(f"'{self.name}' version must be an i32 integer")
