"""StableHLO ops with regions or tuples: while, if, case, map, sort, tuple, get_tuple_element.

`while` prints upstream's pretty form (`stablehlo.while(%arg = %init) : T cond
{...} do {...}`), `tuple`/`get_tuple_element` theirs; if, case, map and sort
print generically, as `stablehlo-opt` does. Verifiers implement the spec's
constraints on region signatures. Joined to the `stablehlo` dialect by
`qdialect.dialects.get_all_dialects()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    TupleType,
    i32,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects.hlo_syntax import (
    dense_values,
    parse_optional_operand_list,
    print_extra_attrs,
    resolve,
    split_attr_dict,
)
from qdialect.dialects.stablehlo import ReturnOp
from qdialect.ir import xdsl_private as xp


def _types_text(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def _returned(op: Operation, region: Region, what: str) -> list[Attribute]:
    """Types the region's terminator returns (it must be stablehlo.return)."""
    block = region.blocks.first
    term = block.last_op if block is not None else None
    if not isinstance(term, ReturnOp):
        raise VerifyException(f"'{op.name}' {what} must end in stablehlo.return")
    return [o.type for o in term.operands]


def _arg_types(region: Region) -> list[Attribute]:
    block = region.blocks.first
    return [] if block is None else [a.type for a in block.args]


def _require_scalar_of(op: Operation, t: Attribute, element_ok, what: str, expected: str) -> None:
    if ht.rank_of(t) != 0 or not element_ok(ht.element_type(t)):
        raise VerifyException(f"'{op.name}' {what} must be {expected}, got {t}")


@irdl_op_definition
class WhileOp(IRDLOperation):
    """`stablehlo.while(%i = %init) : T cond {...} do {...}`."""

    name = "stablehlo.while"
    operand = var_operand_def()
    results_ = var_result_def()
    cond = region_def()
    body = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("(")
        iter_args, inits = [], []
        if parser.parse_optional_punctuation(")") is None:
            while True:
                iter_args.append(parser.parse_argument(expect_type=False))
                parser.parse_punctuation("=")
                inits.append(parser.parse_unresolved_operand())
                if parser.parse_optional_punctuation(")") is not None:
                    break
                parser.parse_punctuation(",")
        types: list[Attribute] = []
        if inits:
            parser.parse_punctuation(":")
            types = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
        attrs = parser.parse_optional_attr_dict_with_keyword()
        operands = resolve(parser, inits, types)
        args = [a.resolve(t) for a, t in zip(iter_args, types, strict=True)]
        parser.parse_keyword("cond")
        cond = parser.parse_region(args)
        parser.parse_keyword("do")
        body = parser.parse_region(args)
        return cls.create(
            operands=operands,
            result_types=types,
            attributes=attrs.data if attrs is not None else {},
            regions=[cond, body],
        )

    def print(self, printer: Printer):
        printer.print_string("(")
        block = self.body.blocks.first
        args = list(block.args) if block is not None else []
        for i, (arg, init) in enumerate(zip(args, self.operand, strict=False)):
            if i:
                printer.print_string(", ")
            printer.print_operand(arg)
            printer.print_string(" = ")
            printer.print_operand(init)
        printer.print_string(")")
        if self.operand:
            printer.print_string(" : ")
            printer.print_list([o.type for o in self.operand], printer.print_attribute)
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        cond_block = self.cond.blocks.first
        if cond_block is not None:
            xp.share_value_names(printer, list(args), list(cond_block.args))
        xp.print_new_line(printer)
        printer.print_string("cond ")
        printer.print_region(self.cond, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        """Upstream's verifyWhileOp in its order and words (types need only be compatible
        there), then the exact types the interpreter runs on, then the results."""
        types = [o.type for o in self.operand]
        cond_args, body_args = _arg_types(self.cond), _arg_types(self.body)
        for what, other in (
            ("condition block arguments", cond_args),  # C1
            ("body block arguments", body_args),  # C2
        ):
            if not _compatible(types, other):
                raise VerifyException(
                    f"'{self.name}' expect operands to be compatible with {what} but got "
                    f"{ht.quoted_types(types)} vs {ht.quoted_types(other)}"
                )
        body_ret = _returned(self, self.body, "body")
        if not _compatible(types, body_ret):  # C2
            raise VerifyException(
                f"'{self.name}' expect operands to be compatible with body block return types "
                f"but got {ht.quoted_types(types)} vs {ht.quoted_types(body_ret)}"
            )
        cond_ret = _returned(self, self.cond, "cond")
        if len(cond_ret) != 1:  # C1
            raise VerifyException(
                f"'{self.name}' expect condition body returns a single value but got "
                f"{len(cond_ret)}"
            )
        if ht.rank_of(cond_ret[0]) != 0 or not ht.is_bool(ht.element_type(cond_ret[0])):
            raise VerifyException(
                f"'{self.name}' expect condition block return a zero-ranked tensor of i1 but "
                f"got {ht.quoted_types(cond_ret)}"
            )
        for what, other in (("cond", cond_args), ("body", body_args)):
            if other != types:  # stricter than upstream: the same types, not just compatible
                raise VerifyException(
                    f"'{self.name}' {what} must take the operands' types {_types_text(types)}, "
                    f"got {_types_text(other)}"
                )
        if body_ret != types:
            raise VerifyException(
                f"'{self.name}' body must return the operands' types {_types_text(types)}, "
                f"got {_types_text(body_ret)}"
            )
        ht.verify_inferred_results(self.name, types, [r.type for r in self.results])


def _compatible(a: Sequence[Attribute], b: Sequence[Attribute]) -> bool:
    """Upstream's isCompatibleForHloTypeInference on two type lists."""
    return len(a) == len(b) and all(
        ht.element_type(x) == ht.element_type(y)
        and ht.shapes_compatible(ht.shape_of(x), ht.shape_of(y))
        for x, y in zip(a, b, strict=True)
    )


def _verify_branches(op: Operation, operand: SSAValue, branches: Sequence[Region]) -> None:
    """inferConditionalOp's checks (if and case), in its order and words, then the
    results against the types it infers (branch 0's)."""
    rank = ht.rank_of(operand.type)
    if rank not in (0, None):
        raise VerifyException(f"'{op.name}' operand should be rank 0 tensor but got rank {rank}")
    if not branches:
        raise VerifyException(f"'{op.name}' expect at least one branch")
    returned = []
    for region in branches:
        if region.blocks.first is None:
            raise VerifyException(f"'{op.name}' expect non-empty region")
    for i, region in enumerate(branches):
        if args := _arg_types(region):
            raise VerifyException(
                f"'{op.name}' branch {i} must have 0 arguments, but found {len(args)}"
            )
        returned.append(_returned(op, region, f"branch {i}"))
        if not _compatible(returned[0], returned[i]):
            raise VerifyException(
                f"'{op.name}' branch 0 and branch {i} have mismatched return types: "
                f"{ht.quoted_types(returned[0])} vs {ht.quoted_types(returned[i])}"
            )
    ht.verify_inferred_results(op.name, returned[0], [r.type for r in op.results])


@irdl_op_definition
class IfOp(IRDLOperation):
    """`"stablehlo.if"(%pred) ({...}, {...})`: runs one of two branches."""

    name = "stablehlo.if"
    pred = operand_def()
    results_ = var_result_def()
    true_branch = region_def()
    false_branch = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        pred = self.pred.type
        if not ht.is_bool(ht.element_type(pred)):  # ODS's constraint, in its words
            raise VerifyException(
                f"'{self.name}' operand #0 must be ranked tensor of bool values, but got '{pred}'"
            )
        _verify_branches(self, self.pred, [self.true_branch, self.false_branch])


@irdl_op_definition
class CaseOp(IRDLOperation):
    """`"stablehlo.case"(%index) ({...}, ...)`: runs branch `index`, the last one when out of range."""

    name = "stablehlo.case"
    index = operand_def()
    results_ = var_result_def()
    branches = var_region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        index = ht.element_type(self.index.type)
        if not (isinstance(index, IntegerType) and index.width.data == 32):
            raise VerifyException(  # ODS's constraint, in its words
                f"'{self.name}' operand #0 must be ranked tensor of 32-bit signless integer "
                f"values, but got '{self.index.type}'"
            )
        _verify_branches(self, self.index, list(self.branches))


def _verify_scalar_args(
    op: Operation, region: Region, inputs: Sequence[SSAValue], copies: int, what: str
) -> None:
    """The region takes `copies` rank-0 tensors of each input's element type, input by input."""
    args = _arg_types(region)
    expected = [TensorType(ht.element_type(x.type), []) for x in inputs for _ in range(copies)]
    if args != expected:
        raise VerifyException(
            f"'{op.name}' {what} must take {_types_text(expected)}, got {_types_text(args)}"
        )


@irdl_op_definition
class MapOp(IRDLOperation):
    """`"stablehlo.map"(%a, %b) ({...}) {dimensions = array<i64: 0, 1>}`: the body per element."""

    name = "stablehlo.map"
    inputs = var_operand_def()
    result = result_def()
    dimensions = prop_def(DenseArrayBase)
    computation = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        """The trait's shape rule, then inferMapOp's checks in its order and words."""
        if not self.inputs:
            raise VerifyException(f"'{self.name}' needs at least one input")
        shapes = [ht.shape_of(x.type) for x in (*self.inputs, self.result)]
        if any(not ht.shapes_compatible(shapes[0], s) for s in shapes):
            raise VerifyException(
                f"'{self.name}' requires the same shape for all operands and results"
            )
        block = self.computation.blocks.first
        if block is None:
            raise VerifyException(f"'{self.name}' expect non-empty region")
        args = block.args
        if len(self.inputs) != len(args):
            raise VerifyException(
                f"'{self.name}' expects number of operands to match the arity of map "
                f"computation, but got: {len(self.inputs)} and {len(args)}"
            )
        for i, (x, arg) in enumerate(zip(self.inputs, args, strict=True)):
            if ht.rank_of(arg.type) != 0:
                raise VerifyException(
                    f"'{self.name}' computation arguments must be 0-rank tensor, but got: "
                    f"arg #{i} of type '{arg.type}'"
                )
            if ht.element_type(arg.type) != ht.element_type(x.type):
                raise VerifyException(
                    f"'{self.name}' element type of operands and computation arguments must "
                    f"match, but got: '{ht.element_type(x.type)}' and "
                    f"'{ht.element_type(arg.type)}'"
                )
        ret = _returned(self, self.computation, "computation")
        if len(ret) != 1:
            raise VerifyException(
                f"'{self.name}' computation must return single output, but got: {len(ret)}"
            )
        if ht.rank_of(ret[0]) != 0:
            raise VerifyException(
                f"'{self.name}' computation must return 0-rank tensor, but got: '{ret[0]}'"
            )
        dims = list(dense_values(self.dimensions))
        if dims != list(range(len(dims))):
            raise VerifyException(
                f"'{self.name}' requires monotonically increasing dimension numbers, but got: "
                f"{', '.join(map(str, dims))}"
            )
        for x in self.inputs:
            rank = ht.rank_of(x.type)
            if rank is not None and rank != len(dims):
                raise VerifyException(
                    f"'{self.name}' applied to a subset of dimensions currently not supported: "
                    f"operand dimensions = {rank}, requested map dimensions size = {len(dims)}"
                )
        if ht.element_type(ret[0]) != ht.element_type(self.result.type):
            shape = ht.shape_of(self.inputs[-1].type)
            inferred = TensorType(ht.element_type(ret[0]), list(shape)) if shape else ret[0]
            ht.verify_inferred_results(self.name, [inferred], [self.result.type])


@irdl_op_definition
class SortOp(IRDLOperation):
    """`"stablehlo.sort"(%a, %b) ({comparator}) {dimension = 0 : i64, is_stable = true}`."""

    name = "stablehlo.sort"
    inputs = var_operand_def()
    results_ = var_result_def()
    dimension = opt_prop_def(IntegerAttr)
    is_stable = opt_prop_def(BoolAttr)
    comparator = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def sort_dimension(self) -> int:
        """The dimension (default -1), made non-negative when the rank is known."""
        dim = -1 if self.dimension is None else self.dimension.value.data
        rank = ht.rank_of(self.inputs[0].type) if self.inputs else None
        return dim + rank if rank is not None and dim < 0 else dim

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException(f"'{self.name}' needs at least one input")
        # SameOperandsAndResultShape, verifySortOp, then the results against inferSortOp's
        # types (MLIR checks inferred types after the op's verifier)
        shapes = [ht.shape_of(v.type) for v in (*self.inputs, *self.results)]
        if any(not ht.shapes_compatible(shapes[0], s) for s in shapes):
            raise VerifyException(
                f"'{self.name}' requires the same shape for all operands and results"
            )
        rank = ht.rank_of(self.inputs[0].type)
        dim = -1 if self.dimension is None else self.dimension.value.data
        if rank is not None and not -rank <= dim < rank:
            raise VerifyException(
                f"'{self.name}' dimension attribute value must be in range [-{rank}, {rank}), "
                f"but found {dim}"
            )
        args = _arg_types(self.comparator)
        if len(args) != 2 * len(self.inputs):
            raise VerifyException(
                f"'{self.name}' comparator block should have {2 * len(self.inputs)} arguments"
            )
        for i, arg in enumerate(args):
            scalar = TensorType(ht.element_type(self.inputs[i // 2].type), [])
            if arg != scalar:
                raise VerifyException(
                    f"'{self.name}' comparator block argument #{i} should be of type "
                    f"'{scalar}' but got '{arg}'"
                )
        ret = _returned(self, self.comparator, "comparator")
        if len(ret) != 1:
            raise VerifyException(
                f"'{self.name}' comparator must return single output but got {len(ret)}"
            )
        if ret[0] != TensorType(IntegerType(1), []):
            raise VerifyException(
                f"'{self.name}' comparator must return tensor<i1> but got '{ret[0]}'"
            )
        ht.verify_inferred_results(
            self.name, [x.type for x in self.inputs], [r.type for r in self.results]
        )


@irdl_op_definition
class TupleOp(IRDLOperation):
    """`stablehlo.tuple %a, %b : tuple<A, B>`."""

    name = "stablehlo.tuple"
    val = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parse_optional_operand_list(parser)
        _props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        start = parser.pos
        t = parser.parse_type()
        if not isinstance(t, TupleType):  # upstream's parseTupleOpType
            parser.raise_error("expected tuple type", start)
        types = list(t.types.data)
        return cls.create(
            operands=resolve(parser, operands, types), result_types=[t], attributes=attrs
        )

    def print(self, printer: Printer):
        if self.val:
            printer.print_string(" ")
            printer.print_list(self.val, printer.print_operand)
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        """Upstream's inference: the tuple of the operands' types, in its words."""
        t = self.result.type
        if list(t.types.data) != [o.type for o in self.val]:
            inferred = TupleType(tuple(cast(TypeAttribute, o.type) for o in self.val))
            raise ht.InferenceError(
                f"'{self.name}' inferred type(s) {ht.quoted_types([inferred])} are incompatible "
                f"with return type(s) of operation {ht.quoted_types([t])}"
            )


@irdl_op_definition
class GetTupleElementOp(IRDLOperation):
    """`stablehlo.get_tuple_element %t[0] : (tuple<A, B>) -> A`."""

    name = "stablehlo.get_tuple_element"
    operand = operand_def(TupleType)
    result = result_def()
    index = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation("]")
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["index"] = IntegerAttr(index, i32)
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(
            operands=resolve(parser, [operand], fn.inputs.data),
            result_types=list(fn.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f"[{self.index.value.data}]")
        print_extra_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type([self.operand.type], [self.result.type])

    def verify_(self) -> None:
        t = self.operand.type
        assert isinstance(t, TupleType)  # operand_def(TupleType)
        types = list(t.types.data)
        i = self.index.value.data
        if not 0 <= i < len(types):  # inferGetTupleElementOp's words
            raise VerifyException(
                f"'{self.name}' index {i} is out of bounds of operand with size {len(types)}"
            )
        ht.verify_inferred_results(self.name, [types[i]], [self.result.type])


CONTROL_OPS = [WhileOp, IfOp, CaseOp, MapOp, SortOp, TupleOp, GetTupleElementOp]
