"""The Python API of `!quant.uniform` and the quant cast ops."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    i32,
)
from xdsl.utils.exceptions import ParseError, VerifyException

from qdialect.context import make_context
from qdialect.dialects.quant import (
    AnyQuantizedType,
    CalibratedQuantizedType,
    DequantizeCastOp,
    QuantizeCastOp,
    StorageCastOp,
    UniformQuantizedType,
)
from qdialect.ir.parser import QParser

f32 = Float32Type()


def parse_type(text: str):
    return QParser(make_context(), text).parse_type()


def test_per_tensor_accessors() -> None:
    t = UniformQuantizedType.get(8, f32, 0.01, 50)
    assert str(t) == "!quant.uniform<i8:f32, 1.000000e-02:50>"
    assert (t.storage_width, t.is_signed, t.storage_type) == (8, True, IntegerType(8))
    assert (t.scale, t.zero_point, t.axis, t.is_per_axis) == (0.01, 50, None, False)
    assert (t.storage_min, t.storage_max, t.has_narrow_range) == (-128, 127, False)
    assert t.expressed_type == f32 and t.expressed_type_name == "f32"
    with pytest.raises(ValueError, match="per-tensor"):
        _ = t.quantized_dimension


def test_per_axis_accessors() -> None:
    t = UniformQuantizedType.get_per_axis(
        8, f32, [0.2, 0.1, 0.3], [20, 10, 30], axis=1, signed=False
    )
    assert str(t) == "!quant.uniform<u8:f32:1, {2.000000e-01:20,1.000000e-01:10,3.000000e-01:30}>"
    assert (t.is_per_axis, t.axis, t.quantized_dimension) == (True, 1, 1)
    assert t.scales == (0.2, 0.1, 0.3) and t.zero_points == (20, 10, 30)
    assert (t.storage_min, t.storage_max, t.is_signed) == (0, 255, False)
    with pytest.raises(ValueError, match="per-axis"):
        _ = t.scale
    with pytest.raises(ValueError, match="per-axis"):
        _ = t.zero_point


def test_zero_points_default_to_zero_and_narrow_range_prints() -> None:
    t = UniformQuantizedType.get_per_axis(8, f32, [1.0, 2.0], None, axis=0, storage_min=-127)
    assert t.zero_points == (0, 0)
    assert str(t) == "!quant.uniform<i8<-127:127>:f32:0, {1.000000e+00,2.000000e+00}>"
    assert t.has_narrow_range


def test_broadcast_params() -> None:
    t = UniformQuantizedType.get_per_axis(8, f32, [0.5, 0.25], [1, 2], axis=1)
    scales, zps = t.broadcast_params(3)
    assert scales.shape == (1, 2, 1) and zps.shape == (1, 2, 1)
    np.testing.assert_array_equal(scales.ravel(), [0.5, 0.25])
    per_tensor = UniformQuantizedType.get(8, f32, 0.5, 3).broadcast_params(4)
    assert per_tensor[0].shape == () and int(per_tensor[1]) == 3


def test_with_params() -> None:
    t = UniformQuantizedType.get(8, f32, 0.5, 3, storage_min=-127)
    u = t.with_params([0.1, 0.2], [0, 1], axis=0)
    assert str(u) == "!quant.uniform<i8<-127:127>:f32:0, {1.000000e-01,2.000000e-01:1}>"


@pytest.mark.parametrize(
    ("expressed", "name"),
    [(Float16Type(), "f16"), (BFloat16Type(), "bf16"), (f32, "f32"), (Float64Type(), "f64")],
)
def test_expressed_types(expressed, name: str) -> None:
    t = UniformQuantizedType.get(8, expressed, 0.5)
    assert str(t) == f"!quant.uniform<i8:{name}, 5.000000e-01>"


def test_types_are_values() -> None:
    a = UniformQuantizedType.get(8, f32, 0.5, 1)
    b = parse_type("!quant.uniform<i8:f32, 0.5:1>")
    assert a == b and hash(a) == hash(b)
    assert a != UniformQuantizedType.get(8, f32, 0.5, 2)
    assert a != UniformQuantizedType.get(8, f32, 0.5, 1, signed=False)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: UniformQuantizedType.get(8, f32, -1.0),
            "scale -1.000000e+00 out of expressed type range",
        ),
        (
            lambda: UniformQuantizedType.get(8, f32, float("nan")),
            "scale nan out of expressed type range",
        ),
        (lambda: UniformQuantizedType.get(8, Float16Type(), 1e5), "out of expressed type range"),
        (
            lambda: UniformQuantizedType.get(8, f32, 0.1, 1 << 63),
            "zero point 9223372036854775808 does not fit in 64 bits",
        ),
        (
            lambda: UniformQuantizedType.get(8, f32, 0.1, storage_min=5, storage_max=1),
            "illegal storage min and storage max: (5:1)",
        ),
        (lambda: UniformQuantizedType.get(40, f32, 0.1), "illegal storage type size: 40"),
        (
            lambda: UniformQuantizedType.get(8, i32, 0.1),
            "expressed type must be f16, bf16, f32 or f64",
        ),
        (
            lambda: UniformQuantizedType.get_per_axis(8, f32, [0.1], [0], axis=-2),
            "illegal quantized dimension: -2",
        ),
        (
            lambda: UniformQuantizedType.get_per_axis(8, f32, [0.1, 0.2], [0], axis=0),
            "illegal number of scales and zero points: 2, 1",
        ),
        (
            lambda: UniformQuantizedType.get_sub_channel(8, f32, [[0.1, 0.2]], None, [(1, 0)]),
            "illegal block size: 0",
        ),
        (
            lambda: UniformQuantizedType.get_sub_channel(8, f32, [[0.1]], None, [(0, 1), (0, 2)]),
            "duplicate quantized dimension: 0",
        ),
        (
            lambda: UniformQuantizedType.get_sub_channel(8, f32, [[0.1]], [[-(1 << 64)]], []),
            "does not fit in 64 bits",
        ),
        (lambda: AnyQuantizedType.get(8, i32), "expressed type must be floating point"),
        (
            lambda: AnyQuantizedType.get(4, storage_min=-9),
            "illegal storage type minimum: -9",
        ),
        (
            lambda: CalibratedQuantizedType.get(f32, 1.0, 1.0),
            "illegal min and max: (1.000000e+00:1.000000e+00)",
        ),
        (
            lambda: CalibratedQuantizedType.get(IntegerType(8), -1.0, 1.0),
            "expressed type must be floating point",
        ),
    ],
)
def test_construction_is_verified(build, message: str) -> None:
    with pytest.raises(VerifyException) as info:
        build()
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("!quant.uniform<i8:f32, 0.1:300000000000000000000>", "integer value too large", 28),
        ("!quant.uniform<i4<-9:7>:f32, 0.1>", "illegal storage type minimum: -9", 19),
    ],
)
def test_parse_errors_are_located(text: str, message: str, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_type(text)
    assert message in info.value.msg
    assert info.value.span.get_location().col == column


def test_container_rules_are_checked_after_parsing() -> None:
    """A per-axis type that does not fit its tensor parses (as upstream's does) and is
    reported by `container_error`, which verification runs after the op verifiers."""
    from qdialect.ir.containers import container_error

    t = parse_type("tensor<2x3x!quant.uniform<i8:f32:1, {0.1,0.2}>>")
    assert container_error(t) == (
        "quantized dimension size does not match number of scales "
        "(dimension 1 has size 3, the type has 2 scales)"
    )
    assert container_error(parse_type("tensor<2x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>")) is None
    assert container_error(parse_type("tensor<?x3x!quant.uniform<i8:f32:0, {0.1,0.2}>>")) is None


def test_parse_print_round_trip_in_tensor() -> None:
    t = parse_type("tensor<4x2x!quant.uniform<u8:f32:1, {2.0:10,3.0:20}>>")
    assert isinstance(t, TensorType)
    q = t.get_element_type()
    assert isinstance(q, UniformQuantizedType) and q.zero_points == (10, 20)
    assert str(t) == "tensor<4x2x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>>"


def test_cast_ops_build_and_verify() -> None:
    from xdsl.ir import Block

    q = UniformQuantizedType.get_per_axis(8, f32, [0.5, 0.25], [0, 1], axis=1)
    block = Block(arg_types=[TensorType(f32, [3, 2])])
    qcast = QuantizeCastOp(block.args[0], TensorType(q, [3, 2]))
    scast = StorageCastOp(qcast.result, TensorType(IntegerType(8), [3, 2]))
    dcast = DequantizeCastOp(qcast.result, TensorType(f32, [3, 2]))
    for op in (qcast, scast, dcast):
        block.add_op(op)
        op.verify()
    bad = QuantizeCastOp(block.args[0], TensorType(q, [3, 3]))
    block.add_op(bad)
    with pytest.raises(VerifyException):
        bad.verify()


def test_sub_channel_accessors_and_expanded_params() -> None:
    t = UniformQuantizedType.get_sub_channel(
        8, f32, [[0.5, 0.25], [2.0, 1.0]], [[1, -2], [3, 0]], [(0, 1), (1, 2)]
    )
    assert str(t) == (
        "!quant.uniform<i8:f32:{0:1, 1:2}, {{5.000000e-01:1, 2.500000e-01:-2}, "
        "{2.000000e+00:3, 1.000000e+00}}>"
    )
    assert parse_type(str(t)) == t
    assert (t.is_sub_channel, t.is_per_axis, t.axis) == (True, False, None)
    assert t.block_sizes == ((0, 1), (1, 2)) and t.scales_shape == (2, 2)
    # Code written for one scale per tensor cannot read a sub-channel type by mistake.
    with pytest.raises(ValueError):
        _ = t.scale
    with pytest.raises(ValueError):
        t.broadcast_params(2)
    scales, zps = t.expand_params((2, 4))
    assert scales.tolist() == [[0.5, 0.5, 0.25, 0.25], [2.0, 2.0, 1.0, 1.0]]
    assert zps.tolist() == [[1, 1, -2, -2], [3, 3, 0, 0]]
    # Per-tensor and per-axis types are not sub-channel ones.
    assert not UniformQuantizedType.get(8, f32, 0.5).is_sub_channel


def test_any_and_calibrated_types() -> None:
    a = AnyQuantizedType.get(8, f32, storage_min=-8, storage_max=7)
    assert str(a) == "!quant.any<i8<-8:7>:f32>"
    assert parse_type("!quant.any<i8<-8:7>:f32>") == a
    assert str(AnyQuantizedType.get(4, signed=False)) == "!quant.any<u4>"
    c = parse_type("!quant.calibrated<f32<-0.998:1.2321>>")
    assert isinstance(c, CalibratedQuantizedType) and (c.min, c.max) == (-0.998, 1.2321)
    assert str(c) == "!quant.calibrated<f32<-0.998:1.232100e+00>>"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tensor<2x4x!quant.uniform<i8:f32:{1:3}, {{1.0}}>>", "must be divisible by"),
        ("tensor<2x4x!quant.uniform<i8:f32:{1:2}, {{1.0, 2.0, 3.0}}>>", "dimension size 3 of"),
        ("tensor<*x!quant.uniform<i8:f32:{1:2}, {{1.0, 2.0}}>>", "must be ranked"),
    ],
)
def test_sub_channel_type_is_checked_against_its_tensor(text: str, message: str) -> None:
    from qdialect.ir.containers import container_error

    problem = container_error(parse_type(text))
    assert problem is not None and message in problem


def test_sub_channel_cast_ops_verify_their_containers() -> None:
    from xdsl.ir import Block

    q = UniformQuantizedType.get_sub_channel(8, f32, [[0.5, 0.25]], None, [(1, 2)])
    block = Block(arg_types=[TensorType(f32, [3, 4]), f32])
    good = QuantizeCastOp(block.args[0], TensorType(q, [3, 4]))
    scalar = QuantizeCastOp(block.args[1], q)
    for op in (good, scalar):
        block.add_op(op)
    good.verify()
    with pytest.raises(VerifyException, match="scalar types may not use sub-channel"):
        scalar.verify()


def test_builtin_signedness_spellings_keep_their_storage_type() -> None:
    ui8 = parse_type("!quant.uniform<ui8:f32, 1.0:255>")
    u8 = parse_type("!quant.uniform<u8:f32, 1.0:255>")
    si8 = parse_type("!quant.uniform<si8:f32, 1.0:-128>")
    assert isinstance(ui8, UniformQuantizedType) and isinstance(u8, UniformQuantizedType)
    assert isinstance(si8, UniformQuantizedType)
    assert not ui8.is_signed and si8.is_signed
    assert (ui8.storage_min, ui8.storage_max, si8.storage_min) == (0, 255, -128)
    assert ui8 != u8  # MLIR's storage types differ: ui8 vs signless i8
    assert ui8.storage_type == IntegerType(8, Signedness.UNSIGNED)
    assert si8.storage_type == IntegerType(8, Signedness.SIGNED)
    assert u8.storage_type == IntegerType(8)
    # Deriving new parameters keeps the spelling.
    assert str(ui8.with_params([0.5], [3], None)) == "!quant.uniform<ui8:f32, 5.000000e-01:3>"
