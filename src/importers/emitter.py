"""The one IR emitter the model importers (ONNX, TFLite) and the model builders share.

Importers used to format MLIR text and parse it back: slow (every weight went through a
decimal formatter and then xDSL's lexer) and fragile (a wrong op surfaced as a parse
error far from the node that caused it). The emitter builds operations through the
dialects' Python classes instead:

* constants become `DenseIntOrFPElementsAttr`s straight from numpy's bytes, so a
  25-million-weight model costs a memory copy, not 25 million formatted floats;
* every op carries the location set by `at(name)` — the source model's tensor name —
  so later tools (comparison, cutting, partitioning) speak in the model's names;
* an op that is ill-formed fails when `finish()` verifies the module, and the
  importer's error names the op and its location.

Values are `Value`s: the SSA value with its shape and element-type name ("i8", "ui8",
"i32", "f32", ...) so importers can reason about shapes without unpacking types.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    Signedness,
    StringAttr,
    TensorType,
    UnknownLoc,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as hlo
from qdialect.dialects import tosa
from qdialect.dialects.stablehlo_attrs import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
    ConvDimensionNumbersAttr,
    ConvDims,
    DotDimensionNumbersAttr,
    DotDims,
    GatherDimensionNumbersAttr,
    GatherDims,
)

ELEMENT_TYPES: dict[str, Attribute] = {
    "i1": IntegerType(1),
    "i8": IntegerType(8),
    "ui8": IntegerType(8, Signedness.UNSIGNED),
    "i16": IntegerType(16),
    "ui16": IntegerType(16, Signedness.UNSIGNED),
    "i32": IntegerType(32),
    "i48": IntegerType(48),
    "i64": IntegerType(64),
    "f16": Float16Type(),
    "f32": Float32Type(),
    "f64": Float64Type(),
    "index": IndexType(),
}
# The little-endian numpy dtype whose bytes a dense attribute of the element type holds
# (i1 is one byte per element in xDSL's storage).
STORAGE_DTYPES: dict[str, np.dtype] = {
    "i1": np.dtype("u1"), "i8": np.dtype("i1"), "ui8": np.dtype("u1"), "i16": np.dtype("<i2"),
    "ui16": np.dtype("<u2"), "i32": np.dtype("<i4"), "i64": np.dtype("<i8"),
    "f16": np.dtype("<f2"), "f32": np.dtype("<f4"), "f64": np.dtype("<f8"),
    "index": np.dtype("<i8"),
}  # fmt: skip
_RANGES = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-(1 << 15), (1 << 15) - 1),
           "ui16": (0, (1 << 16) - 1), "i32": (-(1 << 31), (1 << 31) - 1),
           "i64": (-(1 << 63), (1 << 63) - 1), "index": (-(1 << 63), (1 << 63) - 1),
           "i1": (0, 1)}  # fmt: skip


@dataclass(frozen=True)
class Value:
    """An SSA value with its static shape and element-type name."""

    ssa: SSAValue
    shape: tuple[int, ...]
    elem: str


def tensor_type(shape: Sequence[int], elem: str) -> TensorType:
    return TensorType(ELEMENT_TYPES[elem], list(shape))


def dense(array: np.ndarray | np.generic, elem: str) -> DenseIntOrFPElementsAttr:
    """A dense elements attribute of `array`'s values as `elem`, from its bytes.

    Integers must fit the element type (a wider value is a bug in the caller, not
    something to wrap silently)."""
    array = np.asarray(array)
    storage = STORAGE_DTYPES[elem]
    if elem in _RANGES and array.size and array.dtype.kind in "iub":
        lo, hi = _RANGES[elem]
        if int(array.min()) < lo or int(array.max()) > hi:
            raise ValueError(f"constant values outside the range of {elem}")
    data = np.ascontiguousarray(array, dtype=storage).tobytes()
    return DenseIntOrFPElementsAttr(tensor_type(array.shape, elem), BytesAttr(data))


def name_loc(name: str) -> NameLoc:
    """MLIR's `loc("name")`."""
    return NameLoc(StringAttr(name), NoneAttr())


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def i32_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [int(v) for v in values])


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(int(value), i64)


class Emitter:
    """Builds one `func.func @main` op by op; `finish()` returns the verified module."""

    def __init__(self) -> None:
        self.block = Block()
        self.arg_types: list[Attribute] = []
        self.arg_attrs: list[dict[str, Attribute]] = []
        self.location: LocationAttr = UnknownLoc()

    # ---- structure --------------------------------------------------------------------

    @contextmanager
    def at(self, name: str | None) -> Iterator[None]:
        """Ops created inside carry `loc("name")` (the source model's tensor name), or
        `loc(unknown)` for None."""
        saved = self.location
        self.location = UnknownLoc() if name is None else name_loc(name)
        try:
            yield
        finally:
            self.location = saved

    def argument(
        self, shape: Sequence[int], elem: str, name: str = "", attrs: dict | None = None
    ) -> Value:
        t = tensor_type(shape, elem)
        arg = self.block.insert_arg(t, len(self.block.args))
        if name:
            arg.location = name_loc(name)
        self.arg_types.append(t)
        self.arg_attrs.append(attrs or {})
        return Value(arg, tuple(shape), elem)

    def mark(self) -> Operation | None:
        """The last op so far: `verify_since` checks the ops built after it."""
        return self.block.last_op

    def verify_since(self, mark: Operation | None) -> None:
        """Verify the ops built after `mark` (raises xDSL's VerifyException)."""
        op = mark.next_op if mark is not None else self.block.first_op
        while op is not None:
            op.verify()
            op = op.next_op

    def insert(self, op: Operation) -> Operation:
        op.location = self.location
        self.block.add_op(op)
        return op

    def op(
        self,
        cls: type[Operation],
        operands: Sequence[Value | SSAValue],
        shape: Sequence[int],
        elem: str,
        properties: dict[str, Attribute] | None = None,
        regions: Sequence[Region] = (),
    ) -> Value:
        """One op of `cls` with one result of `shape` x `elem`."""
        op = cls.create(
            operands=[v.ssa if isinstance(v, Value) else v for v in operands],
            result_types=[tensor_type(shape, elem)],
            properties=properties or {},
            regions=list(regions),
        )
        self.insert(op)
        return Value(op.results[0], tuple(shape), elem)

    def finish(
        self, results: Sequence[Value], result_attrs: Sequence[dict[str, Attribute]] = ()
    ) -> ModuleOp:
        with self.at(None):
            self.insert(func.ReturnOp(*[v.ssa for v in results]))
        fn_type = FunctionType.from_lists(self.arg_types, [tensor_type(v.shape, v.elem)
                                                           for v in results])  # fmt: skip
        fn = func.FuncOp.create(
            properties={"sym_name": StringAttr("main"), "function_type": fn_type},
            regions=[Region(self.block)],
        )
        if any(self.arg_attrs):
            fn.arg_attrs = ArrayAttr([DictionaryAttr(a) for a in self.arg_attrs])
        attrs = list(result_attrs) + [{}] * (len(results) - len(result_attrs))
        if any(attrs):
            fn.res_attrs = ArrayAttr([DictionaryAttr(a) for a in attrs])
        return ModuleOp([fn])

    # ---- StableHLO --------------------------------------------------------------------

    def const(self, array: np.ndarray | np.generic, elem: str) -> Value:
        """`stablehlo.constant` of `array` (its shape) as `elem`."""
        attr = dense(array, elem)
        op = self.insert(hlo.ConstantOp(attr))
        return Value(op.results[0], tuple(np.shape(array)), elem)

    def unary(self, name: str, x: Value, elem: str | None = None) -> Value:
        """An elementwise StableHLO op (`convert`, `round_nearest_even`, `exponential`...)."""
        return self.op(_HLO[name], [x], x.shape, elem or x.elem)

    def binary(self, name: str, a: Value, b: Value) -> Value:
        return self.op(_HLO[name], [a, b], a.shape, a.elem)

    def clamp(self, lo: Value, x: Value, hi: Value) -> Value:
        return self.op(hlo.ClampOp, [lo, x, hi], x.shape, x.elem)

    def compare(self, direction: str, a: Value, b: Value) -> Value:
        kind = {"f": ComparisonType.FLOAT, "u": ComparisonType.UNSIGNED}.get(
            a.elem[0], ComparisonType.SIGNED
        )
        props = {
            "comparison_direction": ComparisonDirectionAttr(ComparisonDirection(direction)),
            "compare_type": ComparisonTypeAttr(kind),
        }
        return self.op(hlo.CompareOp, [a, b], a.shape, "i1", props)

    def select(self, pred: Value, a: Value, b: Value) -> Value:
        return self.op(hlo.SelectOp, [pred, a, b], a.shape, a.elem)

    def broadcast(self, x: Value, shape: Sequence[int], dims: Sequence[int]) -> Value:
        return self.op(hlo.BroadcastInDimOp, [x], shape, x.elem,
                       {"broadcast_dimensions": i64_array(dims)})  # fmt: skip

    def splat(self, value, shape: Sequence[int], elem: str, dim: int | None = None) -> Value:
        """A scalar, or a vector laid along `dim`, broadcast to `shape`."""
        array = np.asarray(value)
        if array.size == 1:
            return self.broadcast(self.const(array.reshape(()), elem), shape, [])
        return self.broadcast(self.const(array.reshape(-1), elem), shape, [dim])

    def reshape(self, x: Value, shape: Sequence[int]) -> Value:
        return self.op(hlo.ReshapeOp, [x], shape, x.elem)

    def transpose(self, x: Value, perm: Sequence[int]) -> Value:
        shape = [x.shape[p] for p in perm]
        return self.op(hlo.TransposeOp, [x], shape, x.elem, {"permutation": i64_array(perm)})

    def slice(self, x: Value, start: Sequence[int], limit: Sequence[int],
              strides: Sequence[int] | None = None) -> Value:  # fmt: skip
        strides = list(strides or [1] * len(start))
        shape = [-(-(hi - lo) // s) for lo, hi, s in zip(start, limit, strides, strict=True)]
        props = {"start_indices": i64_array(start), "limit_indices": i64_array(limit),
                 "strides": i64_array(strides)}  # fmt: skip
        return self.op(hlo.SliceOp, [x], shape, x.elem, props)

    def pad(self, x: Value, value: Value, low: Sequence[int], high: Sequence[int]) -> Value:
        shape = [d + lo + hi for d, lo, hi in zip(x.shape, low, high, strict=True)]
        props = {"edge_padding_low": i64_array(low), "edge_padding_high": i64_array(high),
                 "interior_padding": i64_array([0] * len(low))}  # fmt: skip
        return self.op(hlo.PadOp, [x, value], shape, x.elem, props)

    def concatenate(self, parts: Sequence[Value], dim: int) -> Value:
        shape = list(parts[0].shape)
        shape[dim] = sum(p.shape[dim] for p in parts)
        return self.op(hlo.ConcatenateOp, parts, shape, parts[0].elem, {"dimension": i64_attr(dim)})

    def convolution(
        self,
        x: Value,
        w: Value,
        shape: Sequence[int],
        strides: Sequence[int],
        pads: Sequence[tuple[int, int]],
        dilations: Sequence[int],
        groups: int = 1,
        lhs_dilation: Sequence[int] | None = None,
        layout: str = "NCHW",
    ) -> Value:
        """NCHW x OIHW -> NCHW (ONNX's layout), or with `layout="NHWC"` NHWC x HWIO -> NHWC
        (TFLite's data layout, JAX's); `lhs_dilation` spreads the input (a transposed
        convolution)."""
        if layout == "NHWC":
            dims = ConvDims(0, 3, (1, 2), 2, 3, (0, 1), 0, 3, (1, 2))
        else:
            dims = ConvDims(0, 1, (2, 3), 1, 0, (2, 3), 0, 1, (2, 3))
        props = {
            "dimension_numbers": ConvDimensionNumbersAttr(dims),
            "window_strides": i64_array(strides),
            "padding": dense(np.array(pads, np.int64).reshape(len(pads), 2), "i64"),
            "rhs_dilation": i64_array(dilations),
            "batch_group_count": i64_attr(1),
            "feature_group_count": i64_attr(groups),
        }
        if lhs_dilation is not None and any(d != 1 for d in lhs_dilation):
            props["lhs_dilation"] = i64_array(lhs_dilation)
        return self.op(hlo.ConvolutionOp, [x, w], shape, x.elem, props)

    def dot_general(self, a: Value, b: Value, shape: Sequence[int],
                    contracting: tuple[Sequence[int], Sequence[int]],
                    batching: tuple[Sequence[int], Sequence[int]] = ((), ())) -> Value:  # fmt: skip
        dims = DotDims(tuple(batching[0]), tuple(batching[1]), tuple(contracting[0]),
                       tuple(contracting[1]))  # fmt: skip
        return self.op(hlo.DotGeneralOp, [a, b], shape, a.elem,
                       {"dot_dimension_numbers": DotDimensionNumbersAttr(dims)})  # fmt: skip

    _ERF_P = 0.3275911
    _ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)

    def erf(self, x: Value) -> Value:
        """erf of float32 values as StableHLO arithmetic (StableHLO has no erf op; XLA also
        lowers CHLO's erf to a polynomial): Abramowitz and Stegun 7.1.26, within 1.5e-7.
        ONNX Runtime's and LiteRT's kernels are other polynomials (docs/onnx.md gives the
        measured difference)."""

        def c(v: float) -> Value:
            return self.splat(np.float32(v), x.shape, "f32")

        ax = self.unary("abs", x)
        t = self.binary("divide", c(1.0),
                        self.binary("add", c(1.0), self.binary("multiply", c(self._ERF_P), ax)))  # fmt: skip
        poly = c(self._ERF_A[-1])
        for a in reversed(self._ERF_A[:-1]):
            poly = self.binary("add", self.binary("multiply", poly, t), c(a))
        poly = self.binary("multiply", poly, t)
        decay = self.unary("exponential", self.unary("negate", self.binary("multiply", ax, ax)))
        magnitude = self.binary("subtract", c(1.0), self.binary("multiply", poly, decay))
        return self.binary("multiply", self.unary("sign", x), magnitude)

    def gelu(self, x: Value, approximate: bool) -> Value:
        """GELU of float32 values: x/2 (1 + erf(x / sqrt 2)), or when `approximate`
        x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""

        def c(v: float) -> Value:
            return self.splat(np.float32(v), x.shape, "f32")

        if approximate:
            cube = self.binary("multiply", self.binary("multiply", x, x), x)
            inner = self.binary("add", x, self.binary("multiply", c(0.044715), cube))
            core = self.unary("tanh", self.binary("multiply", c(math.sqrt(2 / math.pi)), inner))
        else:
            core = self.erf(self.binary("multiply", x, c(1 / math.sqrt(2))))
        half = self.binary("multiply", x, c(0.5))
        return self.binary("multiply", half, self.binary("add", c(1.0), core))

    def _scalar_body(self, name: str, elem: str) -> Region:
        """`^bb0(%a, %b): %r = stablehlo.<name> %a, %b; stablehlo.return %r`."""
        t = tensor_type((), elem)
        block = Block(arg_types=[t, t])
        body = _HLO[name](block.args[0], block.args[1])
        ret = hlo.ReturnOp(body.results[0])
        body.location = ret.location = self.location
        block.add_ops([body, ret])
        return Region(block)

    def reduce(self, x: Value, init: Value, dims: Sequence[int], name: str) -> Value:
        """`stablehlo.reduce` of x over `dims` by the binary op `name` from `init`."""
        shape = [d for i, d in enumerate(x.shape) if i not in set(dims)]
        return self.op(hlo.ReduceOp, [x, init], shape, x.elem,
                       {"dimensions": i64_array(dims)},
                       [self._scalar_body(name, x.elem)])  # fmt: skip

    def reduce_window(
        self,
        x: Value,
        init: Value,
        window: Sequence[int],
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[tuple[int, int]],
        name: str,
    ) -> Value:
        geometry = zip(x.shape, window, strides, dilations, pads, strict=True)
        shape = [(d + lo + hi - (k - 1) * dl - 1) // s + 1 for d, k, s, dl, (lo, hi) in geometry]
        props = {"window_dimensions": i64_array(window), "window_strides": i64_array(strides)}
        if any(d != 1 for d in dilations):
            props["window_dilations"] = i64_array(dilations)
        if any(p != (0, 0) for p in pads):
            props["padding"] = dense(np.array(pads, np.int64).reshape(len(pads), 2), "i64")
        return self.op(hlo.ReduceWindowOp, [x, init], shape, x.elem, props,
                       [self._scalar_body(name, x.elem)])  # fmt: skip

    def gather_rows(self, table: Value, index: Value) -> Value:
        """`table[index]` elementwise: a 1-D table read at an i32 index of any shape."""
        column = self.reshape(index, (*index.shape, 1))
        dims = GatherDims(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,),
                          index_vector_dim=len(index.shape))  # fmt: skip
        props = {"dimension_numbers": GatherDimensionNumbersAttr(dims),
                 "slice_sizes": i64_array([1])}  # fmt: skip
        return self.op(hlo.GatherOp, [table, column], index.shape, table.elem, props)

    def take(self, x: Value, indices: np.ndarray, axis: int) -> Value:
        """numpy's `take(x, indices, axis)` for constant indices: one `stablehlo.gather`
        whose slices are whole except along `axis`."""
        rank = len(x.shape)
        index = self.const(np.asarray(indices, np.int64).reshape(-1, 1), "i32")
        offset = tuple(d for d in range(rank) if d != axis)
        dims = GatherDims(offset_dims=offset, collapsed_slice_dims=(axis,),
                          start_index_map=(axis,), index_vector_dim=1)  # fmt: skip
        sizes = [1 if d == axis else n for d, n in enumerate(x.shape)]
        shape = [len(indices) if d == axis else n for d, n in enumerate(x.shape)]
        props = {"dimension_numbers": GatherDimensionNumbersAttr(dims),
                 "slice_sizes": i64_array(sizes)}  # fmt: skip
        return self.op(hlo.GatherOp, [x, index], shape, x.elem, props)

    # ---- TOSA -------------------------------------------------------------------------

    def tosa_const(self, array: np.ndarray, elem: str) -> Value:
        op = self.insert(tosa.ConstOp(dense(array, elem)))
        return Value(op.results[0], tuple(np.shape(array)), elem)

    def tosa_shape(self, shape: Sequence[int]) -> SSAValue:
        """A `tosa.const_shape` (the operand form TOSA 1.0 takes shapes in)."""
        return self.insert(tosa.ConstShapeOp.of(shape)).results[0]

    def tosa(self, name: str, operands: Sequence[Value | SSAValue], shape: Sequence[int],
             elem: str, **props: Attribute) -> Value:  # fmt: skip
        """Any TOSA op by its name without the `tosa.` prefix. A 2-D window op (conv2d,
        depthwise_conv2d, max_pool2d, avg_pool2d) is made valid TOSA v1.0, whose windows
        must tile the padded input exactly: padding no window reaches is cut and input
        rows no window reaches are sliced off (`tosa.exact_window_pad`); results do not
        change, as frameworks' VALID/SAME windows simply never read those rows."""
        if name in _WINDOW_OPS and "pad" in props and isinstance(operands[0], Value):
            operands, props = self._exact_window(name, list(operands), props)
        return self.op(_TOSA[name], operands, shape, elem, props)

    def _exact_window(
        self, name: str, operands: list[Value | SSAValue], props: dict[str, Attribute]
    ) -> tuple[list[Value | SSAValue], dict[str, Attribute]]:
        x = operands[0]
        assert isinstance(x, Value)

        def ints(key: str, default: Sequence[int]) -> list[int]:
            attr = props.get(key)
            return (
                [int(v) for v in attr.get_values()]
                if isinstance(attr, DenseArrayBase)
                else list(default)
            )

        pad, stride = ints("pad", (0, 0, 0, 0)), ints("stride", (1, 1))
        dilation = ints("dilation", (1, 1))
        if name in ("max_pool2d", "avg_pool2d"):
            kernel = ints("kernel", (1, 1))
        else:  # weights: conv2d OHWI, depthwise_conv2d HWCM
            w = operands[1]
            w_shape = w.shape if isinstance(w, Value) else ht.shape_of(w.type) or ()
            kernel = list(w_shape[1:3] if name == "conv2d" else w_shape[0:2])
        exact, trims = tosa.exact_window_pad(x.shape[1:3], kernel, stride, pad, dilation)
        if exact == pad and not any(trims):
            return operands, props
        if any(trims):
            size = [x.shape[0], x.shape[1] - trims[0], x.shape[2] - trims[1], x.shape[3]]
            begin = [0, 0, 0, 0]
            operands[0] = self.tosa(
                "slice", [x, self.tosa_shape(begin), self.tosa_shape(size)], size, x.elem
            )
        return operands, {**props, "pad": i64_array(exact)}

    def tosa_reshape(self, x: Value, shape: Sequence[int]) -> Value:
        return self.tosa("reshape", [x, self.tosa_shape(shape)], shape, x.elem)

    def tosa_transpose(self, x: Value, perms: Sequence[int]) -> Value:
        shape = [x.shape[p] for p in perms]
        return self.tosa("transpose", [x], shape, x.elem, perms=i32_array(perms))

    def tosa_rescale(self, x: Value, multipliers: Sequence[int], shifts: Sequence[int],
                     input_zp: int, output_zp: int, elem: str, *,
                     rounding: tosa.RoundingMode,
                     input_unsigned: bool = False, output_unsigned: bool = False,
                     zp_elems: tuple[str, str] | None = None,
                     per_channel: bool | None = None) -> Value:  # fmt: skip
        """`tosa.rescale` with 32-bit multipliers, per channel when several are given (or
        when `per_channel` says so). An unsigned side's zero point is given as the uint8
        value and stored as its 8-bit pattern, TOSA's convention for unsigned rescales."""
        n = len(multipliers)
        in_zp_elem, out_zp_elem = zp_elems or (x.elem, elem)
        zps = [(zp + 128) % 256 - 128 if unsigned else zp
               for zp, unsigned in ((input_zp, input_unsigned), (output_zp, output_unsigned))]  # fmt: skip
        operands = [
            x,
            self.tosa_const(np.array(multipliers, np.int64), "i32"),
            self.tosa_const(np.array(shifts, np.int64), "i8"),
            self.tosa_const(np.array([zps[0]], np.int64), in_zp_elem),
            self.tosa_const(np.array([zps[1]], np.int64), out_zp_elem),
        ]
        return self.tosa(
            "rescale", operands, x.shape, elem,
            scale32=BoolAttr.from_bool(True), rounding_mode=tosa.RoundingModeAttr(rounding),
            per_channel=BoolAttr.from_bool(n > 1 if per_channel is None else per_channel),
            input_unsigned=BoolAttr.from_bool(input_unsigned),
            output_unsigned=BoolAttr.from_bool(output_unsigned),
        )  # fmt: skip

    def tosa_clamp(self, x: Value, lo: int | float, hi: int | float) -> Value:
        """`tosa.clamp`, or for integers CLAMP has no mode for (TOSA clamps i8 and i16
        only) the same bounds as `maximum` then `minimum`, which take i32."""
        t = ELEMENT_TYPES[x.elem]
        if x.elem not in ("i8", "i16") and not isinstance(t, AnyFloat):
            ones = [1] * len(x.shape)
            low = self.tosa_const(np.full(ones, int(lo), np.int64), x.elem)
            high = self.tosa_const(np.full(ones, int(hi), np.int64), x.elem)
            floor = self.tosa("maximum", [x, low], x.shape, x.elem)
            return self.tosa("minimum", [floor, high], x.shape, x.elem)
        if isinstance(t, AnyFloat):
            bounds = FloatAttr(float(lo), t), FloatAttr(float(hi), t)
        else:
            bounds = IntegerAttr(int(lo), t), IntegerAttr(int(hi), t)
        return self.tosa("clamp", [x], x.shape, x.elem, min_val=bounds[0], max_val=bounds[1])

    def tosa_take(self, x: Value, index: np.ndarray, axis: int) -> Value:
        """numpy's `take(x, index, axis)` for constant indices: `tosa.gather` of x seen as
        [before, axis, after] (gather reads [N, K, C] by [N, W] indices)."""
        before = int(np.prod(x.shape[:axis], dtype=np.int64))
        after = int(np.prod(x.shape[axis + 1 :], dtype=np.int64))
        values = self.tosa_reshape(x, (before, x.shape[axis], after))
        rows = self.tosa_const(np.tile(np.asarray(index, np.int64), (before, 1)), "i32")
        picked = self.tosa("gather", [values, rows], (before, len(index), after), x.elem)
        return self.tosa_reshape(picked, [*x.shape[:axis], len(index), *x.shape[axis + 1 :]])

    def tosa_axis(self, name: str, x: Value, axis: int) -> Value:
        """A TOSA reduction (`reduce_sum`, `reduce_max`...) keeping the axis as size 1."""
        shape = list(x.shape)
        shape[axis] = 1
        return self.tosa(name, [x], shape, x.elem, axis=IntegerAttr(axis, i32))


class InvalidIRError(Exception):
    """The importer built an op its dialect rejects: a bug in the importer, reported with
    the op and the source tensor it was built for."""


def verified(module: ModuleOp) -> ModuleOp:
    """`module`, verified; a failure names the op and the tensor it was built for."""
    try:
        module.verify()
    except VerifyException:
        for op in module.walk():
            try:
                op.verify_()
            except VerifyException as err:
                where = op.location.desc.data if isinstance(op.location, NameLoc) else "?"
                raise InvalidIRError(f"'{op.name}' built for '{where}' is invalid: {err}") from None
        raise
    return module


def _ops_by_name(dialect) -> dict[str, type[Operation]]:
    prefix = dialect.name + "."
    return {op.name[len(prefix) :]: op for op in dialect.operations}


_HLO = _ops_by_name(hlo.StableHLO)
_TOSA = _ops_by_name(tosa.TOSA)
_WINDOW_OPS = frozenset({"conv2d", "depthwise_conv2d", "max_pool2d", "avg_pool2d"})
