"""`stablehlo-legalize-fake-quant`: quantization points written as composites become
`uniform_quantize` / `uniform_dequantize` with `!quant.uniform` types.

A network trained with fake quantization in JAX (`qdialect.qat`) is exported with each
quantization point as a `stablehlo.composite` naming what it is (its decomposition is
the same arithmetic in plain StableHLO, so the program runs as exported):

    %y = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {
           scale = dense<...> : tensor<Nxf64>, zero_point = dense<...> : tensor<Nxi64>,
           storage_min = -128, storage_max = 127, storage_bits = 8, axis = -1}, ...}
    =>  %q = stablehlo.uniform_quantize %x : (tensor<...xf32>) -> tensor<...x!quant.uniform<i8:f32, s:z>>
        %y = stablehlo.uniform_dequantize %q

`qdialect.dequantize` reads integers (storage values) as that type: a constant becomes a
quantized constant (a broadcast of one, a broadcast of the quantized constant); another
value a `bitcast_convert`. A `fake_quant` of a constant is quantized at compile time.
`axis` -1 is per tensor, else per axis (N scales). A fake_quant reading the
dequantization of another point quantizes that point's value directly (a requantize,
which the spec defines as exactly dequantize-then-quantize). The result is the QDQ form
`stablehlo-quantize` writes, which `stablehlo-legalize-qdq-to-quantized-op` folds.

JAX passes a composite the constants its decomposition reads as leading operands: the
tensor is the last one. Attributes that make no valid type (a scale that is not a
positive finite number, a zero point or storage range outside the storage type, a wrong
count of per-axis values) are errors naming the op and the pass. Private functions
left unreferenced (the decompositions) and values left unread are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.dead_code_elimination import dce

from qdialect.calibration.params import QuantParams
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.dialects.stablehlo_composite import CompositeOp
from qdialect.ir.constants import constant_array
from qdialect.ir.errors import OpError
from qdialect.transforms.quantize import is_constant, quant_type, quantized_constant, unbroadcast

PASS_NAME = "stablehlo-legalize-fake-quant"
FAKE_QUANT = "qdialect.fake_quant"
DEQUANTIZE = "qdialect.dequantize"
_KEYS = ("scale", "zero_point", "storage_min", "storage_max", "storage_bits", "axis")


def _values(attr: Attribute) -> np.ndarray | None:
    if isinstance(attr, IntegerAttr):
        return np.asarray([attr.value.data], np.float64)
    if isinstance(attr, FloatAttr):
        return np.asarray([attr.value.data], np.float64)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return np.asarray(attr.get_values(), np.float64).reshape(-1)
    return None


def _params(op: CompositeOp, x: SSAValue) -> tuple[QuantParams, int]:
    """The composite's quantization parameters and storage width, checked."""
    name = op.composite_name.data

    def fail(message: str) -> OpError:
        return OpError(op, f"{PASS_NAME}: {name}: {message}")

    attrs = op.composite_attributes.data if op.composite_attributes is not None else {}
    missing = [k for k in _KEYS if k not in attrs]
    if missing:
        raise fail(f"missing attribute(s) {', '.join(missing)}")
    values = {k: _values(attrs[k]) for k in _KEYS}
    for k, v in values.items():
        if v is None or not v.size:
            raise fail(f"attribute '{k}' is not a number or a tensor of numbers")
    scalar = {k: values[k][0] for k in ("storage_min", "storage_max", "storage_bits", "axis")}  # type: ignore[index]
    scale, zp = values["scale"], values["zero_point"]
    assert scale is not None and zp is not None
    bits, axis = int(scalar["storage_bits"]), int(scalar["axis"])
    if bits not in (2, 4, 8, 16, 32) or bits != scalar["storage_bits"]:
        raise fail(f"storage_bits {scalar['storage_bits']:g} is not an integer width (2 to 32)")
    full = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    lo, hi = int(scalar["storage_min"]), int(scalar["storage_max"])
    if not full[0] <= lo < hi <= full[1]:
        raise fail(f"storage range [{lo}, {hi}] is not a range inside i{bits}'s {list(full)}")
    if not np.all(np.isfinite(scale)) or not np.all(scale > 0):
        raise fail("scales must be positive finite numbers")
    if not np.all((zp >= full[0]) & (zp <= full[1])) or not np.all(zp == np.round(zp)):
        raise fail(f"zero points must be integers in i{bits}'s range {list(full)}")
    shape = ht.shape_of(x.type) or []
    if axis == -1:
        if scale.size != 1 or zp.size != 1:
            raise fail(f"per-tensor parameters (axis -1) take one scale and one zero point, "
                       f"not {scale.size} and {zp.size}")  # fmt: skip
        p_axis = None
    else:
        if not 0 <= axis < len(shape):
            raise fail(f"axis {axis} is out of range for a rank-{len(shape)} tensor")
        if scale.size != shape[axis] or zp.size != shape[axis]:
            raise fail(f"axis {axis} has {shape[axis]} channels, but {scale.size} scales and "
                       f"{zp.size} zero points")  # fmt: skip
        p_axis = axis
    # The scales as written (an f64 attribute keeps an accumulator's exact s_x * s_w).
    return QuantParams(scale, zp.astype(np.int64), bits, lo, hi, p_axis), bits


def _quantized_tensor(params: QuantParams, bits: int, x: SSAValue) -> TensorType:
    return TensorType(quant_type(params, bits), ht.shape_of(x.type) or [])


def _constant_params(op: CompositeOp, x: SSAValue, params: QuantParams) -> QuantParams:
    """`params` for the constant under `x` (a broadcast's operand has its own axes)."""
    owner = x.owner
    if params.axis is None or not isinstance(owner, sh.BroadcastInDimOp):
        return params
    dims = [int(d) for d in dense_values(owner.broadcast_dimensions)]
    if params.axis not in dims:
        raise OpError(op, f"{PASS_NAME}: per-axis parameters along dimension {params.axis}, "
                          "which the constant's broadcast creates")  # fmt: skip
    return QuantParams(params.scale, params.zero_point, params.bits, params.qmin, params.qmax,
                       dims.index(params.axis))  # fmt: skip


def _rewrite(op: CompositeOp) -> None:
    name = op.composite_name.data
    if not op.inputs or len(op.outputs) != 1:
        raise OpError(op, f"{PASS_NAME}: {name} takes a tensor and gives one")
    x, result = op.inputs[-1], op.outputs[0]
    params, bits = _params(op, x)
    element = ht.element_type(x.type)
    ops: list[Operation]
    if name == FAKE_QUANT:
        if x.type != result.type or not isinstance(element, Float32Type):
            raise OpError(op, f"{PASS_NAME}: {name} maps an f32 tensor to its own type")
        if is_constant(x):
            values = constant_array(unbroadcast(x), integer=False)
            assert values is not None
            own = _constant_params(op, x, params)
            ops, value = quantized_constant(x, own.quantize(values), own, bits)
        else:
            source = x.owner.operand if isinstance(x.owner, sh.UniformDequantizeOp) else x
            q = sh.UniformQuantizeOp(source, _quantized_tensor(params, bits, x))
            dq = sh.UniformDequantizeOp(q.result)
            ops, value = [q, dq], dq.result
    else:
        if not isinstance(element, IntegerType) or element.width.data != bits:
            raise OpError(op, f"{PASS_NAME}: {name} reads i{bits} storage values, not {element}")
        if ht.shape_of(x.type) != ht.shape_of(result.type):
            raise OpError(op, f"{PASS_NAME}: {name} keeps its operand's shape")
        if is_constant(x):
            storage = constant_array(unbroadcast(x))
            assert storage is not None
            if storage.size and (storage.min() < params.qmin or storage.max() > params.qmax):
                raise OpError(op, f"{PASS_NAME}: {name}: a constant's values lie outside the "
                                  f"storage range [{params.qmin}, {params.qmax}]")  # fmt: skip
            ops, value = quantized_constant(x, storage, _constant_params(op, x, params), bits)
        else:
            cast = sh.BitcastConvertOp.create(operands=[x],
                                              result_types=[_quantized_tensor(params, bits, x)])  # fmt: skip
            dq = sh.UniformDequantizeOp(cast.results[0])
            ops, value = [cast, dq], dq.result
    block = op.parent_block()
    assert block is not None
    for new in ops:
        new.location = op.location
        block.insert_op_before(new, op)
    result.replace_all_uses_with(value)
    block.erase_op(op)


def _referenced(module: ModuleOp) -> set[str]:
    names: set[str] = set()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, SymbolRefAttr):
                names.add(attr.root_reference.data)
    return names


def erase_unreferenced_private_functions(module: ModuleOp) -> None:
    """Erase private functions nothing refers to, until none is left (a decomposition's
    helpers go once the decomposition has)."""
    while True:
        used = _referenced(module)
        dead = [f for f in module.body.block.ops
                if isinstance(f, FuncOp) and f.sym_visibility == StringAttr("private")
                and f.sym_name.data not in used]  # fmt: skip
        if not dead:
            return
        for f in dead:
            module.body.block.erase_op(f)


@dataclass(frozen=True)
class LegalizeFakeQuant(ModulePass):
    """Composite quantization points (`qdialect.fake_quant`, `qdialect.dequantize`) as
    `uniform_quantize`/`uniform_dequantize`."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        points = [c for c in op.walk() if isinstance(c, CompositeOp)
                  and c.composite_name.data in (FAKE_QUANT, DEQUANTIZE)]  # fmt: skip
        for composite in points:
            _rewrite(composite)
        if points:
            erase_unreferenced_private_functions(op)
            dce(op)  # the integer operands, dequantizations no longer read
