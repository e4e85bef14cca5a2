"""The rest of TOSA v1.0: the operators beyond the quantized-inference core of `tosa.py`.

Elementwise unary and binary ops, comparisons, `select`, the other reductions,
`argmax`, `reverse`, `tile`, `scatter`, `resize`, `identity`, `conv3d`,
`fft2d`/`rfft2d`, control flow (`cond_if`, `while_loop`, `yield`), variables and
`custom`. They share `tosa.py`'s syntax (operands, `name(value)` clauses, function
type; upstream's `{...}` attribute dictionary is read too) and its verifier
helpers, so their diagnostics read as upstream MLIR's do. `TOSA` here is the whole
dialect the registry loads.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FlatSymbolRefAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, Region
from xdsl.irdl import (
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import ParseError

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import tosa
from qdialect.dialects.tosa import (
    BOOL,
    DYNAMIC,
    INT32,
    NAN,
    RESIZE,
    TENSOR,
    TYPED,
    NanModeAttr,
    ResizeModeAttr,
    ShapeType,
    TosaOp,
    _Binary,
    _element,
    _Elementwise,
    _Reduce,
    _shape_values,
    op_error,
    shape_of,
    shapes_compatible,
    tosa_op,
    type_text,
    verify_broadcast,
)
from qdialect.ir import xdsl_private as xp
from qdialect.ir.errors import add_follow_up

# --------------------------------------------------------------------------
# Elementwise
# --------------------------------------------------------------------------


class _Unary(_Elementwise):
    input1 = operand_def(TENSOR)


def _unary(op_name: str, doc: str) -> type[_Unary]:
    cls = type(
        op_name.split(".")[1].title().replace("_", "") + "Op",
        (_Unary,),
        {"name": op_name, "__doc__": doc, "__module__": __name__},
    )
    return tosa_op(cls)


AbsOp = _unary(
    "tosa.abs", "|x|; for integers `abs(INT_MIN)` is an error (the spec REQUIREs it fits)."
)
BitwiseNotOp = _unary("tosa.bitwise_not", "~x.")
CeilOp = _unary("tosa.ceil", "Rounds up (float).")
CosOp = _unary("tosa.cos", "Cosine (float).")
ErfOp = _unary("tosa.erf", "The error function (float).")
ExpOp = _unary("tosa.exp", "e^x (float).")
FloorOp = _unary("tosa.floor", "Rounds down (float).")
LogOp = _unary("tosa.log", "Natural logarithm (float).")
LogicalNotOp = _unary("tosa.logical_not", "not x (i1).")
ReciprocalOp = _unary("tosa.reciprocal", "1 / x (float).")
RsqrtOp = _unary("tosa.rsqrt", "1 / sqrt(x) (float).")
SigmoidOp = _unary("tosa.sigmoid", "1 / (1 + e^-x) (float).")
SinOp = _unary("tosa.sin", "Sine (float).")
TanhOp = _unary("tosa.tanh", "Hyperbolic tangent (float).")


def _binary(op_name: str, doc: str) -> type[_Binary]:
    cls = type(
        op_name.split(".")[1].title().replace("_", "") + "Op",
        (_Binary,),
        {"name": op_name, "__doc__": doc, "__module__": __name__},
    )
    return tosa_op(cls)


BitwiseAndOp = _binary("tosa.bitwise_and", "a & b.")
BitwiseOrOp = _binary("tosa.bitwise_or", "a | b.")
BitwiseXorOp = _binary("tosa.bitwise_xor", "a ^ b.")
IntDivOp = _binary("tosa.intdiv", "a / b truncated toward zero; b = 0 and INT_MIN / -1 are errors.")
LogicalAndOp = _binary("tosa.logical_and", "a and b (i1).")
LogicalOrOp = _binary("tosa.logical_or", "a or b (i1).")
LogicalXorOp = _binary("tosa.logical_xor", "a xor b (i1).")
LogicalRightShiftOp = _binary(
    "tosa.logical_right_shift", "a >> b with zeros shifted in; amounts 0..width-1."
)
PowOp = _binary("tosa.pow", "a^b (float).")


class _Compare(TosaOp):
    """Comparisons: two inputs of one element type, an i1 result, broadcasting."""

    input1 = operand_def(TENSOR)
    input2 = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b = _element(self.input1.type), _element(self.input2.type)
        if a != b:
            raise op_error(self, "requires the same element type for all operands")
        if _element(self.output.type) != i1:
            raise op_error(
                self,
                f"result #0 must be tensor of 1-bit signless integer values, got '{type_text(self.output.type)}'",
            )
        verify_broadcast(self, [self.input1.type, self.input2.type], self.output.type)


@tosa_op
class EqualOp(_Compare):
    name = "tosa.equal"


@tosa_op
class GreaterOp(_Compare):
    name = "tosa.greater"


@tosa_op
class GreaterEqualOp(_Compare):
    name = "tosa.greater_equal"


@tosa_op
class SelectOp(TosaOp):
    """`tosa.select %pred, %on_true, %on_false`: broadcasting, an i1 predicate."""

    name = "tosa.select"
    input1 = operand_def(TENSOR)
    input2 = operand_def(TENSOR)
    input3 = operand_def(TENSOR)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        if _element(self.input1.type) != i1:
            raise op_error(
                self,
                f"operand #0 must be tensor of 1-bit signless integer values, but got '{type_text(self.input1.type)}'",
            )
        out = _element(self.output.type)
        if _element(self.input2.type) != out or _element(self.input3.type) != out:
            raise op_error(
                self,
                "failed to verify that all of {on_true, on_false, output} have same element type",
            )
        verify_broadcast(
            self, [self.input1.type, self.input2.type, self.input3.type], self.output.type
        )


# --------------------------------------------------------------------------
# Reductions, argmax, reverse, tile
# --------------------------------------------------------------------------


@tosa_op
class ReduceAllOp(_Reduce):
    name = "tosa.reduce_all"


@tosa_op
class ReduceAnyOp(_Reduce):
    name = "tosa.reduce_any"


@tosa_op
class ReduceMinOp(_Reduce):
    name = "tosa.reduce_min"
    nan_mode = opt_prop_def(NanModeAttr)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("axis", INT32), ("nan_mode", NAN))


@tosa_op
class ReduceProductOp(_Reduce):
    name = "tosa.reduce_product"


@tosa_op
class ArgMaxOp(TosaOp):
    """Index of the first maximum along `axis` (the axis is removed); i32 result."""

    name = "tosa.argmax"
    input = operand_def(TENSOR)
    output = result_def()
    axis = prop_def(IntegerAttr)
    nan_mode = opt_prop_def(NanModeAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("axis", INT32), ("nan_mode", NAN))

    def verify_(self) -> None:
        x, out = shape_of(self.input.type), shape_of(self.output.type)
        axis = self.int_prop("axis")
        if x is not None and not 0 <= axis < len(x):
            raise op_error(
                self, f"expect input tensor rank ({len(x)}) to be larger than reduce axis ({axis})"
            )
        if x is not None and out is not None:
            expected = tuple(d for i, d in enumerate(x) if i != axis)
            if not shapes_compatible(expected, out):
                show = ", ".join("?" if d == DYNAMIC else str(d) for d in expected)
                got = ", ".join("?" if d == DYNAMIC else str(d) for d in out)
                raise op_error(self, f"expected output shape '{show}', got '{got}'")
        if not isinstance(_element(self.output.type), IntegerType):
            raise op_error(
                self,
                f"result #0 must be a tensor of integer values, got '{type_text(self.output.type)}'",
            )


@tosa_op
class ReverseOp(TosaOp):
    name = "tosa.reverse"
    input1 = operand_def(TENSOR)
    output = result_def()
    axis = prop_def(IntegerAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("axis", INT32),)

    def verify_(self) -> None:
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        axis = self.int_prop("axis")
        if x is not None and not 0 <= axis < max(len(x), 1):
            raise op_error(
                self, f"expect input tensor rank ({len(x)}) to be larger than reverse axis ({axis})"
            )
        if _element(self.input1.type) != _element(self.output.type):
            raise op_error(self, "requires the same element type for all operands and results")
        if x is not None and out is not None and not shapes_compatible(x, out):
            raise op_error(self, "requires the same shape for all operands and results")


@tosa_op
class TileOp(TosaOp):
    """`tosa.tile %x, %multiples`: output[i] = input[i mod size] along every axis."""

    name = "tosa.tile"
    input1 = operand_def(TENSOR)
    multiples = operand_def(ShapeType)
    output = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        x, out = shape_of(self.input1.type), shape_of(self.output.type)
        multiples = _shape_values(self.multiples)
        rank = self.multiples.type.rank.data if isinstance(self.multiples.type, ShapeType) else None
        if x is not None and rank is not None and rank != len(x):
            raise op_error(self, f"expect 'multiples' to have rank {len(x)} but got {rank}.")
        if multiples is not None and any(m < 1 and m != -1 for m in multiples):
            raise op_error(self, "expect element of 'multiples' to be positive integer or -1.")
        if x is not None and out is not None and len(x) != len(out):
            raise op_error(self, "expect same input and output tensor rank.")
        if x is not None and out is not None and multiples is not None:
            for d, (size, m, o) in enumerate(zip(x, multiples, out, strict=True)):
                if DYNAMIC not in (size, m, o) and size * m != o:
                    raise op_error(
                        self,
                        f"expect output dimension {d} to be {size * m} (input * multiple), got {o}",
                    )


# --------------------------------------------------------------------------
# Scatter, resize, identity
# --------------------------------------------------------------------------


@tosa_op
class ScatterOp(TosaOp):
    """`tosa.scatter %values_in, %indices, %input`: values_out[n, indices[n, w], :] = input[n, w, :];
    each position may be written once."""

    name = "tosa.scatter"
    values_in = operand_def(TENSOR)
    indices = operand_def(TENSOR)
    input = operand_def(TENSOR)
    values_out = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        v, i = shape_of(self.values_in.type), shape_of(self.indices.type)
        x, out = shape_of(self.input.type), shape_of(self.values_out.type)
        for shape, what, rank in (
            (v, "values_in", 3),
            (i, "indices", 2),
            (x, "input", 3),
            (out, "values_out", 3),
        ):
            if shape is not None and len(shape) != rank:
                raise op_error(self, f"expect {what} to have rank {rank}, got {len(shape)}")
        e = _element(self.values_out.type)
        if _element(self.values_in.type) != e or _element(self.input.type) != e:
            raise op_error(
                self, "requires the same element type for values_in, input and values_out"
            )
        # Upstream's order: each dimension name (N, K, W, C) takes its size from the first
        # operand that fixes it; a later one that disagrees is reported, then K >= W.
        known: dict[str, int] = {}
        for shape, what, names in (
            (v, "values_in", "NKC"),
            (i, "indices", "NW"),
            (x, "input", "NWC"),
            (out, "values_out", "NKC"),
        ):
            for d, (size, name) in enumerate(zip(shape or (), names, strict=False)):
                if size == DYNAMIC:
                    continue
                if name in known and known[name] != size:
                    raise op_error(
                        self,
                        f"requires {what} dimension {d} to have size {known[name]}, got {size}",
                    )
                known.setdefault(name, size)
        if "K" in known and "W" in known and known["K"] < known["W"]:
            raise op_error(
                self, f"requires dimensions K >= W, got K={known['K']} and W={known['W']}"
            )


@tosa_op
class ResizeOp(TosaOp):
    """`tosa.resize %x, %scale, %offset, %border mode<...>`: NHWC, scale = [y_n, y_d, x_n, x_d]."""

    name = "tosa.resize"
    input = operand_def(TENSOR)
    scale = operand_def(ShapeType)
    offset = operand_def(ShapeType)
    border = operand_def(ShapeType)
    output = result_def()
    mode = prop_def(ResizeModeAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("mode", RESIZE),)

    def verify_(self) -> None:
        scale, offset, border = (
            _shape_values(self.scale),
            _shape_values(self.offset),
            _shape_values(self.border),
        )
        if scale is not None and any(s <= 0 for s in scale):
            raise op_error(
                self, f"expect all scale values to be > 0, got {', '.join(str(s) for s in scale)}"
            )
        x, out = shape_of(self.input.type), shape_of(self.output.type)
        if scale is None or offset is None or border is None or x is None or out is None:
            return
        for i, (dim, axis) in enumerate((("height", "y"), ("width", "x"))):
            size, o = x[1 + i], out[1 + i]
            n, d = scale[2 * i], scale[2 * i + 1]
            if size == DYNAMIC:
                continue
            numerator = (size - 1) * n - offset[i] + border[i]
            if numerator % d:
                raise op_error(
                    self,
                    f"expected (input_{dim} - 1) * scale_{axis}_n - offset_{axis} + border_{axis} "
                    f"to be wholly divisible by scale_{axis}_d, got (({size} - 1) * {n} - "
                    f"{offset[i]} + {border[i]}) / {d}",
                )
            calculated = numerator // d + 1
            if o != DYNAMIC and o != calculated:
                raise op_error(
                    self,
                    f"calculated output {dim} did not match expected: calculated={calculated}, expected={o}",
                )

    def output_size(self) -> tuple[int, int] | None:
        """(OH, OW) from the constant parameters and the input shape."""
        scale, offset, border = (
            _shape_values(self.scale),
            _shape_values(self.offset),
            _shape_values(self.border),
        )
        x = shape_of(self.input.type)
        if scale is None or offset is None or border is None or x is None:
            return None
        return (
            ((x[1] - 1) * scale[0] - offset[0] + border[0]) // scale[1] + 1,
            ((x[2] - 1) * scale[2] - offset[1] + border[1]) // scale[3] + 1,
        )


@tosa_op
class IdentityOp(_Unary):
    name = "tosa.identity"


# --------------------------------------------------------------------------
# FFT
# --------------------------------------------------------------------------


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


@tosa_op
class FFT2dOp(TosaOp):
    """Complex 2-D DFT over [N, H, W] real and imaginary parts; `inverse` flips the sign (no scaling)."""

    name = "tosa.fft2d"
    input_real = operand_def(TENSOR)
    input_imag = operand_def(TENSOR)
    output_real = result_def()
    output_imag = result_def()
    inverse = prop_def(BoolAttr)
    local_bound = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("inverse", BOOL), ("local_bound", BOOL))
    EXTRA_SPACE: ClassVar[bool] = True

    def verify_(self) -> None:
        types = [o.type for o in self.operands] + [r.type for r in self.results]
        if len({_element(t) for t in types}) != 1:
            raise op_error(self, "requires the same element type for all operands and results")
        shapes = [shape_of(t) for t in types]
        ranked = [s for s in shapes if s is not None]
        if any(not shapes_compatible(s, ranked[0]) for s in ranked):
            raise op_error(self, "requires the same shape for all operands and results")
        if not ht.is_float(_element(types[0])):
            raise op_error(self, "requires a floating point type")
        if ranked:
            h, w = ranked[0][1], ranked[0][2]
            if h != DYNAMIC and not _is_pow2(h):
                raise op_error(self, f"expected height to be a power of two, got {h}")
            if w != DYNAMIC and not _is_pow2(w):
                raise op_error(self, f"expected width to be a power of two, got {w}")


@tosa_op
class RFFT2dOp(TosaOp):
    """Real 2-D DFT: [N, H, W] -> two [N, H, W/2 + 1] results (real, imaginary)."""

    name = "tosa.rfft2d"
    input_real = operand_def(TENSOR)
    output_real = result_def()
    output_imag = result_def()
    local_bound = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (("local_bound", BOOL),)
    EXTRA_SPACE: ClassVar[bool] = True

    def verify_(self) -> None:
        types = [self.input_real.type, self.output_real.type, self.output_imag.type]
        if len({_element(t) for t in types}) != 1:
            raise op_error(self, "requires the same element type for all operands and results")
        a, b = shape_of(types[1]), shape_of(types[2])
        if a is not None and b is not None and a != b:
            raise op_error(
                self,
                f"expected output shapes to match, got '{type_text(types[1])}', '{type_text(types[2])}'",
            )
        if not ht.is_float(_element(types[0])):
            raise op_error(self, "requires a floating point type")
        x = shape_of(types[0])
        if x is None:
            return
        if x[1] != DYNAMIC and not _is_pow2(x[1]):
            raise op_error(self, f"expected height to be a power of two, got {x[1]}")
        if x[2] != DYNAMIC and not _is_pow2(x[2]):
            raise op_error(self, f"expected width to be a power of two, got {x[2]}")
        out = a if a is not None else b
        if out is None:
            return
        if any(DYNAMIC not in (p, q) and p != q for p, q in ((x[0], out[0]), (x[1], out[1]))):
            raise op_error(
                self,
                "expected batch and height dimensions of input/output to match, got "
                f"input='{type_text(types[0])}' output='{type_text(types[1])}'",
            )
        if DYNAMIC not in (x[2], out[2]) and out[2] != x[2] // 2 + 1:
            raise op_error(
                self, f"expected output width to be equal to input_width / 2 + 1, got {out[2]}"
            )


# --------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------


@tosa_op
class YieldOp(TosaOp):
    """`tosa.yield %a, %b : T1, T2`: the values a `cond_if` branch or `while_loop` body gives back."""

    name = "tosa.yield"
    inputs = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        operands = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
            )
            or []
        )
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(operands=tosa.resolve(parser, operands, types))

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([o.type for o in self.operands], printer.print_attribute)

    def verify_(self) -> None:
        return


def _yielded(region: Region) -> list[Attribute] | None:
    """The types a region's `tosa.yield` returns; None when the block ends otherwise,
    which upstream leaves to the block's and the last op's own checks (`block with no
    terminator`, `'func.return' op expects parent op 'func.func'`)."""
    block = region.blocks.first
    if block is None or not isinstance(block.last_op, YieldOp):
        return None
    return [o.type for o in block.last_op.operands]


def _entry_arg_types(region: Region) -> list[Attribute]:
    block = region.blocks.first
    return [a.type for a in block.args] if block is not None else []


def _same_types(
    op: Operation, list1: list[Attribute], name1: str, list2: list[Attribute], name2: str
) -> None:
    """Upstream's errorIfTypeOrShapeMismatch on two lists of values, in its words."""
    if len(list1) != len(list2):
        raise op_error(
            op,
            f"require same number of values in {name1} ({len(list1)}) and {name2} ({len(list2)})",
        )
    for a, b in zip(list1, list2, strict=True):
        if (shape_of(a) is None and not isinstance(a, TensorType)) or (
            shape_of(b) is None and not isinstance(b, TensorType)
        ):
            continue  # not shaped: upstream checks nothing more
        if _element(a) != _element(b):
            raise op_error(
                op,
                f"require same element type for {name1} ('{type_text(_element(a))}') and "
                f"{name2} ('{type_text(_element(b))}')",
            )
        if not shapes_compatible(shape_of(a), shape_of(b)):
            raise op_error(
                op,
                f"require same shapes for {name1} ('{type_text(a)}') and {name2} "
                f"('{type_text(b)}')",
            )


def _not_size_one(t: Attribute) -> bool:
    """A static shape whose element count is not 1 (upstream's errorIfShapeNotSizeOne)."""
    shape = shape_of(t)
    if shape is None or DYNAMIC in shape:
        return False
    count = 1
    for d in shape:
        count *= d
    return count != 1


def _parse_bound_args(parser: Parser, opened: bool = False):
    """`(%a = %x, %b = %y)`: a region's block arguments bound to operands."""
    names: list = []
    values: list = []

    def one() -> None:
        names.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        values.append(parser.parse_unresolved_operand())

    if not opened:
        parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is None:
        one()
        while parser.parse_optional_punctuation(",") is not None:
            one()
        parser.parse_punctuation(")")
    return names, values


def _parse_graph(parser: Parser, names: list, types: list[Attribute]) -> Region:
    """A region whose entry block takes the bound arguments: written without a block
    header (the names come from the `(%a = %x)` list) or with its own `^bb0(...)`."""
    text = parser.lexer.input.content[parser.pos :].lstrip()
    if not names or text[1:].lstrip().startswith("^"):
        return parser.parse_region()
    return parser.parse_region([n.resolve(t) for n, t in zip(names, types, strict=True)])


@tosa_op
class CondIfOp(TosaOp):
    """`tosa.cond_if %cond (%a = %x, ...) : tensor<i1> (T...) -> (R...) { then } else { else }`
    (the bound-argument list is optional)."""

    name = "tosa.cond_if"
    condition = operand_def(TENSOR)
    input_list = var_operand_def(TENSOR)
    output_list = var_result_def()
    then_graph = region_def()
    else_graph = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> CondIfOp:
        cond = parser.parse_unresolved_operand()
        names: list = []
        values: list = []
        if parser.parse_optional_punctuation("(") is not None:
            names, values = _parse_bound_args(parser, opened=True)
        attrs = parser.parse_optional_attr_dict()
        in_types: list[Attribute] = []
        result_types: list[Attribute] = []
        span = xp.current_token(parser).span
        if parser.parse_optional_punctuation(":") is None:  # upstream's two errors
            raise add_follow_up(
                ParseError(span, "expected ':'"),
                ParseError(span, "custom op 'tosa.cond_if' expected type for condition operand"),
            )
        cond_type = parser.parse_type()
        if values:
            start = xp.current_token(parser).span
            try:
                fn = parser.parse_function_type()
            except ParseError as err:
                raise add_follow_up(
                    err,
                    ParseError(
                        start,
                        "custom op 'tosa.cond_if' expected list of types for block arguments "
                        "followed by arrow type and list of return types",
                    ),
                ) from None
            in_types, result_types = list(fn.inputs.data), list(fn.outputs.data)
            if len(in_types) != len(values):
                parser.raise_error(
                    "custom op 'tosa.cond_if' expected as many input types as operands "
                    f"(expected {len(values)} got {len(in_types)})",
                    start,
                )
        elif parser.parse_optional_punctuation("->") is not None:
            result_types = _parse_result_types(parser)
        then_region = _parse_graph(parser, names, in_types)
        parser.parse_keyword("else")
        else_region = _parse_graph(parser, names, in_types)
        cond_value = parser.resolve_operand(cond, cond_type)
        op = cls.create(
            operands=[cond_value, *tosa.resolve(parser, values, in_types)],
            result_types=result_types,
            regions=[then_region, else_region],
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        then_block = self.then_graph.blocks.first
        if self.input_list:
            printer.print_string(" (")
            args = then_block.args if then_block is not None else ()
            for i, (arg, value) in enumerate(zip(args, self.input_list, strict=False)):
                if i:
                    printer.print_string(", ")
                printer.print_operand(arg)
                printer.print_string(" = ")
                printer.print_operand(value)
            printer.print_string(")")
        printer.print_string(" : ")
        printer.print_attribute(self.condition.type)
        if self.input_list:
            printer.print_string(" ")
            printer.print_function_type(
                [o.type for o in self.input_list], [r.type for r in self.results]
            )
        elif self.results:
            printer.print_string(" -> ")
            _print_result_types(printer, [r.type for r in self.results])
        printer.print_string(" ")
        printer.print_region(self.then_graph, print_entry_block_args=True)
        printer.print_string(" else ")
        printer.print_region(self.else_graph, print_entry_block_args=True)

    def verify_(self) -> None:
        """Upstream's IfOp::verify, in its order and words; then the condition's i1."""
        inputs = [o.type for o in self.input_list]
        outputs = [r.type for r in self.results]
        _same_types(
            self, _entry_arg_types(self.then_graph), "'then_graph' arguments", inputs,
            "'input_list'",
        )  # fmt: skip
        _same_types(
            self, _entry_arg_types(self.else_graph), "'else_graph' arguments", inputs,
            "'input_list'",
        )  # fmt: skip
        for region, what in ((self.then_graph, "then_graph"), (self.else_graph, "else_graph")):
            got = _yielded(region)
            if got is None:
                return  # the block's own check reports the missing terminator
            _same_types(self, got, f"'{what}' results", outputs, "'output_list'")
        cond = self.condition.type
        if _not_size_one(cond):
            raise op_error(self, f"'condition' must be a size 1 tensor, got '{type_text(cond)}'")
        if _element(cond) != i1:
            raise op_error(self, f"'condition' must be a boolean tensor, got '{type_text(cond)}'")


def _parse_result_types(parser: Parser) -> list[Attribute]:
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        types: list[Attribute] = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        parser.parse_punctuation(")")
        return types
    result: list[Attribute] = [parser.parse_type()]
    return result


def _print_result_types(printer: Printer, types: list[Attribute]) -> None:
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    printer.print_string("(")
    printer.print_list(types, printer.print_attribute)
    printer.print_string(")")


@tosa_op
class WhileLoopOp(TosaOp):
    """`tosa.while_loop (%a = %x, ...) : (T...) -> (T...) { cond } do { body }`."""

    name = "tosa.while_loop"
    input_list = var_operand_def(TENSOR)
    output_list = var_result_def()
    cond_graph = region_def()
    body_graph = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> WhileLoopOp:
        names, values = _parse_bound_args(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn: FunctionType = parser.parse_function_type()
        types = list(fn.inputs.data)
        cond = _parse_graph(parser, names, types)
        parser.parse_keyword("do")
        body = _parse_graph(parser, names, types)
        return cls.create(
            operands=tosa.resolve(parser, values, types),
            result_types=list(fn.outputs.data),
            regions=[cond, body],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        block = self.cond_graph.blocks.first
        args = block.args if block is not None else ()
        for i, (arg, value) in enumerate(zip(args, self.input_list, strict=False)):
            if i:
                printer.print_string(", ")
            printer.print_operand(arg)
            printer.print_string(" = ")
            printer.print_operand(value)
        printer.print_string(") : ")
        printer.print_function_type(
            [o.type for o in self.input_list], [r.type for r in self.results]
        )
        printer.print_string(" ")
        printer.print_region(self.cond_graph, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.body_graph, print_entry_block_args=True)

    def verify_(self) -> None:
        """Upstream's WhileOp::verify, in its order and words."""
        ins = [o.type for o in self.input_list]
        outs = [r.type for r in self.results]
        _same_types(self, ins, "'input_list'", outs, "'output_list'")
        _same_types(
            self, _entry_arg_types(self.cond_graph), "'cond_graph' arguments", ins,
            "'input_list'",
        )  # fmt: skip
        _same_types(
            self, _entry_arg_types(self.body_graph), "'body_graph' arguments", ins,
            "'input_list'",
        )  # fmt: skip
        body = _yielded(self.body_graph)
        cond = _yielded(self.cond_graph)
        if body is None or cond is None:
            return  # the block's own check reports the missing terminator
        _same_types(self, body, "'body_graph' results", ins, "'input_list'")
        if len(cond) != 1:
            raise op_error(self, "require 'cond_graph' only have one result")
        if _not_size_one(cond[0]):
            raise op_error(
                self, f"'cond_graph' result must be a size 1 tensor, got '{type_text(cond[0])}'"
            )
        if _element(cond[0]) != i1:
            raise op_error(
                self, f"'cond_graph' result must be a boolean tensor, got '{type_text(cond[0])}'"
            )


# --------------------------------------------------------------------------
# Variables and custom
# --------------------------------------------------------------------------


@tosa_op
class VariableOp(TosaOp):
    """`tosa.variable @name = dense<...> : tensor<...>` (module level): mutable state."""

    name = "tosa.variable"
    sym_name = prop_def(StringAttr)
    var_shape = prop_def()
    type = prop_def()
    initial_value = opt_prop_def()

    @classmethod
    def parse(cls, parser: Parser) -> VariableOp:
        sym = parser.parse_symbol_name()
        initial: Attribute | None = None
        if parser.parse_optional_punctuation("=") is not None:
            try:
                initial = parser.parse_attribute()
            except ParseError as err:  # upstream's parser then reports where it stopped
                at = xp.current_token(parser).span
                raise add_follow_up(
                    err, ParseError(at, "custom op 'tosa.variable' expected attribute")
                ) from None
            var_type = initial.get_type() if isinstance(initial, DenseIntOrFPElementsAttr) else None
        else:
            parser.parse_punctuation(":")
            var_type = parser.parse_type()
        if not isinstance(var_type, TensorType):
            parser.raise_error("custom op 'tosa.variable' expected ranked type")
        props: dict[str, Attribute] = {
            "sym_name": sym,
            "var_shape": DenseArrayBase.from_list(i64, var_type.get_shape()),
            "type": var_type.get_element_type(),
        }
        if initial is not None:
            props["initial_value"] = initial
        return cls.create(properties=props)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data}")
        if self.initial_value is not None:
            printer.print_string(" = ")
            printer.print_attribute(self.initial_value)
        else:
            printer.print_string(" : ")
            printer.print_attribute(self.tensor_type())

    def tensor_type(self) -> TensorType:
        return TensorType(self.type, tosa.dense_values(self.var_shape))

    def verify_(self) -> None:
        return


def _variable(op: Operation, sym: SymbolRefAttr) -> VariableOp | None:
    """The `tosa.variable` `sym` names, looked up from the outermost op."""
    top = op
    while (parent := top.parent_op()) is not None:
        top = parent
    for candidate in top.walk():
        if isinstance(candidate, VariableOp) and candidate.sym_name.data == sym.root_reference.data:
            return candidate
    return None


def _check_variable(op: TosaOp, sym: SymbolRefAttr, t: Attribute, what: str) -> None:
    var = _variable(op, sym)
    if var is None:
        raise op_error(op, f"'{sym.root_reference.data}' has not been declared by 'tosa.variable'")
    want = var.tensor_type()
    if _element(t) != want.get_element_type():
        raise op_error(
            op,
            f"require same element type for '{what}' ('{_element(t)}') and the input tensor ('{want.get_element_type()}')",
        )
    if shape_of(t) != tuple(want.get_shape()):
        raise op_error(
            op,
            f"require same shapes for '{what}' ('{type_text(t)}') and the input tensor ('{type_text(want)}')",
        )


@tosa_op
class VariableReadOp(TosaOp):
    """`%v = tosa.variable_read @name : tensor<...>`."""

    name = "tosa.variable_read"
    name_ = prop_def(FlatSymbolRefAttr, prop_name="name")
    output1 = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> VariableReadOp:
        sym = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(properties={"name": SymbolRefAttr(sym)}, result_types=[t])

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.name_.root_reference.data} : ")
        printer.print_attribute(self.output1.type)

    def verify_(self) -> None:
        _check_variable(self, self.name_, self.output1.type, "output1")


@tosa_op
class VariableWriteOp(TosaOp):
    """`tosa.variable_write @name, %v : tensor<...>`."""

    name = "tosa.variable_write"
    name_ = prop_def(FlatSymbolRefAttr, prop_name="name")
    input1 = operand_def(TENSOR)

    @classmethod
    def parse(cls, parser: Parser) -> VariableWriteOp:
        sym = parser.parse_symbol_name()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(value, t)],
            properties={"name": SymbolRefAttr(sym)},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.name_.root_reference.data}, ")
        printer.print_operand(self.input1)
        printer.print_string(" : ")
        printer.print_attribute(self.input1.type)

    def verify_(self) -> None:
        _check_variable(self, self.name_, self.input1.type, "input1")


@tosa_op
class CustomOp(TosaOp):
    """`tosa.custom %x {domain_name = "..", operator_name = "..", implementation_attrs = ".."}`:
    an operator TOSA does not define; it verifies but does not run."""

    name = "tosa.custom"
    input_list = var_operand_def()
    output_list = var_result_def()
    domain_name = prop_def(StringAttr)
    operator_name = prop_def(StringAttr)
    implementation_attrs = prop_def(StringAttr)
    CLAUSES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("operator_name", TYPED),
        ("domain_name", TYPED),
        ("implementation_attrs", TYPED),
    )


EXTRA_OPS: list[type[Operation]] = [
    AbsOp, BitwiseNotOp, CeilOp, CosOp, ErfOp, ExpOp, FloorOp, LogOp, LogicalNotOp,
    ReciprocalOp, RsqrtOp, SigmoidOp, SinOp, TanhOp,
    BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, IntDivOp, LogicalAndOp, LogicalOrOp,
    LogicalXorOp, LogicalRightShiftOp, PowOp,
    EqualOp, GreaterOp, GreaterEqualOp, SelectOp,
    ReduceAllOp, ReduceAnyOp, ReduceMinOp, ReduceProductOp, ArgMaxOp, ReverseOp, TileOp,
    ScatterOp, ResizeOp, IdentityOp, tosa.Conv3DOp, FFT2dOp, RFFT2dOp,
    YieldOp, CondIfOp, WhileLoopOp, VariableOp, VariableReadOp, VariableWriteOp, CustomOp,
]  # fmt: skip

TOSA = Dialect(
    "tosa",
    [*tosa.TOSA.operations, *EXTRA_OPS],
    list(tosa.TOSA.attributes),
)
