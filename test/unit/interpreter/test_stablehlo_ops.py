"""The interpreter, op by op, against computations written here directly in numpy.

Expected values never come from the interpreter's own helpers: convolution,
gather and reduce_window are checked against naive loops, quantized ops
against hand-computed numbers and an independent quantize/dequantize.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qdialect.context import make_context
from qdialect.interpreter import Interpreter, InterpreterError, OpFailure
from qdialect.interpreter.stablehlo_ops import exact_matmul
from qdialect.ir.parser import QParser


def run(src: str, *args: np.ndarray, entry: str = "main") -> list[np.ndarray]:
    module = QParser(make_context(), src).parse_module()
    module.verify()
    return Interpreter(module).call(entry, list(args))


def unary(op: str, t: str, x: np.ndarray, result: str | None = None) -> np.ndarray:
    r = result or t
    sig = f": {t}" if r == t else f": ({t}) -> {r}"
    src = f"func.func @main(%x: {t}) -> {r} {{\n  %0 = stablehlo.{op} %x {sig}\n  func.return %0 : {r}\n}}"
    return run(src, x)[0]


def binary(op: str, t: str, a: np.ndarray, b: np.ndarray, result: str | None = None) -> np.ndarray:
    r = result or t
    sig = f": {t}" if r == t else f": ({t}, {t}) -> {r}"
    src = f"func.func @main(%a: {t}, %b: {t}) -> {r} {{\n  %0 = stablehlo.{op} %a, %b {sig}\n  func.return %0 : {r}\n}}"
    return run(src, a, b)[0]


RNG = np.random.default_rng(1234)
F32 = RNG.standard_normal(16).astype(np.float32)
POS = (np.abs(F32) + np.float32(0.1)).astype(np.float32)


# --------------------------------------------------------------------------
# Float and integer elementwise ops
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "x", "expected"),
    [
        ("abs", F32, np.abs(F32)),
        ("negate", F32, -F32),
        ("sign", F32, np.sign(F32)),
        ("tanh", F32, np.tanh(F32)),
        ("logistic", F32, np.float32(1) / (np.float32(1) + np.exp(-F32))),
        ("exponential", F32, np.exp(F32)),
        ("exponential_minus_one", F32, np.expm1(F32)),
        ("log", POS, np.log(POS)),
        ("log_plus_one", POS, np.log1p(POS)),
        ("sqrt", POS, np.sqrt(POS)),
        ("rsqrt", POS, np.float32(1) / np.sqrt(POS)),
        ("cbrt", F32, np.cbrt(F32)),
        ("sine", F32, np.sin(F32)),
        ("cosine", F32, np.cos(F32)),
        ("floor", F32 * 3, np.floor(F32 * 3)),
        ("ceil", F32 * 3, np.ceil(F32 * 3)),
    ],
)
def test_float_unary(op: str, x: np.ndarray, expected: np.ndarray) -> None:
    got = unary(op, "tensor<16xf32>", x.astype(np.float32))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, expected.astype(np.float32))


def test_rounding_ops_on_ties() -> None:
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -1.2], np.float32)
    np.testing.assert_array_equal(
        unary("round_nearest_even", "tensor<7xf32>", x), [0, 2, 2, -0.0, -2, 0, -1]
    )
    np.testing.assert_array_equal(
        unary("round_nearest_afz", "tensor<7xf32>", x), [1, 2, 3, -1, -3, 0, -1]
    )


def test_sign_of_nan_and_zero() -> None:
    got = unary("sign", "tensor<3xf32>", np.array([np.nan, -0.0, 3.0], np.float32))
    assert np.isnan(got[0]) and got[1] == 0 and got[2] == 1


@pytest.mark.parametrize(
    ("op", "fn"),
    [
        ("add", np.add),
        ("subtract", np.subtract),
        ("multiply", np.multiply),
        ("divide", np.divide),
        ("remainder", np.fmod),
        ("power", np.power),
        ("maximum", np.maximum),
        ("minimum", np.minimum),
        ("atan2", np.arctan2),
    ],
)
def test_float_binary(op: str, fn) -> None:
    a, b = F32, POS
    with np.errstate(invalid="ignore"):  # negative ** fraction is NaN on both sides
        expected = fn(a, b).astype(np.float32)
    np.testing.assert_array_equal(binary(op, "tensor<16xf32>", a, b), expected)


def test_integer_arithmetic_wraps_and_truncates() -> None:
    t = "tensor<6xi8>"
    a = np.array([127, -128, 7, -7, 7, -128], np.int8)
    b = np.array([1, -1, 2, 2, -2, -1], np.int8)
    np.testing.assert_array_equal(binary("add", t, a, b), [-128, 127, 9, -5, 5, 127])
    np.testing.assert_array_equal(binary("multiply", t, a, b), [127, -128, 14, -14, -14, -128])
    # Division truncates toward zero; INT_MIN / -1 wraps to INT_MIN.
    np.testing.assert_array_equal(binary("divide", t, a, b), [127, -128, 3, -3, -3, -128])
    # The remainder has the dividend's sign.
    np.testing.assert_array_equal(binary("remainder", t, a, b), [0, 0, 1, -1, 1, 0])


def test_integer_division_by_zero_is_defined() -> None:
    t = "tensor<2xi32>"
    a = np.array([5, -5], np.int32)
    zero = np.zeros(2, np.int32)
    np.testing.assert_array_equal(binary("divide", t, a, zero), [-1, -1])
    np.testing.assert_array_equal(binary("remainder", t, a, zero), [5, -5])


def test_integer_power() -> None:
    t = "tensor<6xi32>"
    a = np.array([2, 3, -2, 1, -1, 5], np.int32)
    b = np.array([10, 3, 3, -4, -3, -1], np.int32)
    np.testing.assert_array_equal(binary("power", t, a, b), [1024, 27, -8, 1, -1, 0])


def test_boolean_add_is_or_and_multiply_is_and() -> None:
    t = "tensor<4xi1>"
    a = np.array([0, 0, 1, 1], bool)
    b = np.array([0, 1, 0, 1], bool)
    np.testing.assert_array_equal(binary("add", t, a, b), [0, 1, 1, 1])
    np.testing.assert_array_equal(binary("multiply", t, a, b), [0, 0, 0, 1])


def test_bitwise_and_shifts_follow_the_spec_out_of_range_rules() -> None:
    a = np.array([-128, -1, 5, 127, -7, 64], np.int8)
    k = np.array([1, 7, 8, -1, 2, 6], np.int8)

    # Reference: Python integers on the two's complement bit pattern.
    def ref(fn):
        return np.array([fn(int(x), int(s)) for x, s in zip(a, k, strict=True)]).astype(np.int64)

    def wrap(v: int) -> int:
        return (v + 128) % 256 - 128

    left = ref(lambda x, s: wrap(x << s) if 0 <= s < 8 else 0)
    arith = ref(lambda x, s: x >> s if 0 <= s < 8 else (-1 if x < 0 else 0))
    logical = ref(lambda x, s: wrap((x & 0xFF) >> s) if 0 <= s < 8 else 0)
    t = "tensor<6xi8>"
    np.testing.assert_array_equal(binary("shift_left", t, a, k), left)
    np.testing.assert_array_equal(binary("shift_right_arithmetic", t, a, k), arith)
    np.testing.assert_array_equal(binary("shift_right_logical", t, a, k), logical)
    np.testing.assert_array_equal(binary("and", t, a, k), a & k)
    np.testing.assert_array_equal(binary("or", t, a, k), a | k)
    np.testing.assert_array_equal(binary("xor", t, a, k), a ^ k)
    np.testing.assert_array_equal(unary("not", t, a), ~a)
    p = np.array([True, False, True])
    q = np.array([True, True, False])
    np.testing.assert_array_equal(binary("and", "tensor<3xi1>", p, q), [True, False, False])
    np.testing.assert_array_equal(unary("not", "tensor<3xi1>", p), [False, True, False])
    big = np.array([-(2**62), 2**40], np.int64)
    np.testing.assert_array_equal(
        binary("shift_right_arithmetic", "tensor<2xi64>", big, np.array([61, 63])), [-2, 0]
    )


@pytest.mark.parametrize(
    ("direction", "fn"),
    [
        ("EQ", np.equal),
        ("NE", np.not_equal),
        ("GE", np.greater_equal),
        ("GT", np.greater),
        ("LE", np.less_equal),
        ("LT", np.less),
    ],
)
def test_compare(direction: str, fn) -> None:
    a = np.array([1.0, 2.0, np.nan, -0.0], np.float32)
    b = np.array([1.0, 3.0, np.nan, 0.0], np.float32)
    src = f"""func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {{
  %0 = stablehlo.compare {direction}, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}}"""
    np.testing.assert_array_equal(run(src, a, b)[0], fn(a, b))


def test_compare_totalorder() -> None:
    a = np.array([-0.0, np.nan, -np.inf, 1.0], np.float32)
    b = np.array([0.0, np.inf, -1.0, 1.0], np.float32)
    src = """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}"""
    # totalOrder: -0 < +0, +inf < +NaN, -inf < -1.
    np.testing.assert_array_equal(run(src, a, b)[0], [True, False, True, False])


def test_select_and_clamp() -> None:
    src = """func.func @main(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  %1 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}"""
    p = np.array([1, 0, 1, 0], bool)
    a = np.array([-2.0, -0.5, 0.5, 2.0], np.float32)
    b = np.array([9.0, 8.0, 7.0, 6.0], np.float32)
    sel, clamped = run(src, p, a, b, np.float32(-1.0), np.float32(1.0))
    np.testing.assert_array_equal(sel, [-2.0, 8.0, 0.5, 6.0])
    np.testing.assert_array_equal(clamped, [-1.0, -0.5, 0.5, 1.0])


def test_convert_and_bitcast() -> None:
    x = np.array([1.7, -1.7, 300.0, np.nan], np.float32)
    np.testing.assert_array_equal(
        unary("convert", "tensor<4xf32>", x, "tensor<4xi8>"), [1, -1, 127, 0]
    )
    ints = np.array([1065353216, -1082130432], np.int32)  # bits of 1.0f and -1.0f
    np.testing.assert_array_equal(
        unary("bitcast_convert", "tensor<2xi32>", ints, "tensor<2xf32>"), [1.0, -1.0]
    )


# --------------------------------------------------------------------------
# Data movement
# --------------------------------------------------------------------------


X23 = np.arange(6, dtype=np.float32).reshape(2, 3)


def one_op(body: str, arg_types: str, result: str, *args: np.ndarray) -> np.ndarray:
    names = ", ".join(f"%a{i}: {t.strip()}" for i, t in enumerate(arg_types.split(";")))
    src = f"func.func @main({names}) -> {result} {{\n  %0 = {body}\n  func.return %0 : {result}\n}}"
    return run(src, *args)[0]


def test_shape_ops() -> None:
    t = "tensor<2x3xf32>"
    np.testing.assert_array_equal(
        one_op(f"stablehlo.reshape %a0 : ({t}) -> tensor<3x2xf32>", t, "tensor<3x2xf32>", X23),
        X23.reshape(3, 2),
    )
    np.testing.assert_array_equal(
        one_op(
            f"stablehlo.transpose %a0, dims = [1, 0] : ({t}) -> tensor<3x2xf32>",
            t,
            "tensor<3x2xf32>",
            X23,
        ),
        X23.T,
    )
    got = one_op(
        "stablehlo.broadcast_in_dim %a0, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>",
        "tensor<2xf32>",
        t,
        np.array([1.0, 2.0], np.float32),
    )
    np.testing.assert_array_equal(got, [[1, 1, 1], [2, 2, 2]])
    got = one_op(
        f"stablehlo.concatenate %a0, %a0, dim = 1 : ({t}, {t}) -> tensor<2x6xf32>",
        t,
        "tensor<2x6xf32>",
        X23,
    )
    np.testing.assert_array_equal(got, np.hstack([X23, X23]))
    got = one_op(
        f"stablehlo.slice %a0 [0:2, 0:3:2] : ({t}) -> tensor<2x2xf32>", t, "tensor<2x2xf32>", X23
    )
    np.testing.assert_array_equal(got, X23[:, ::2])
    got = one_op("stablehlo.iota dim = 1 : tensor<2x3xi32>", t, "tensor<2x3xi32>", X23)
    np.testing.assert_array_equal(got, [[0, 1, 2], [0, 1, 2]])


def test_dynamic_slice_clamps_start_indices() -> None:
    t = "tensor<2x3xf32>"
    got = one_op(
        f"stablehlo.dynamic_slice %a0, %a1, %a2, sizes = [1, 2] : ({t}, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>",
        f"{t}; tensor<i32>; tensor<i32>",
        "tensor<1x2xf32>",
        X23,
        np.int32(5),
        np.int32(-3),
    )
    np.testing.assert_array_equal(got, X23[1:2, 0:2])  # (5, -3) clamps to (1, 0)


def test_pad_with_interior_and_negative_edges() -> None:
    x = np.array([1, 2, 3], np.int32)
    got = one_op(
        "stablehlo.pad %a0, %a1, low = [-1], high = [2], interior = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<6xi32>",
        "tensor<3xi32>; tensor<i32>",
        "tensor<6xi32>",
        x,
        np.int32(0),
    )
    # interior: [1 0 2 0 3]; low -1 drops the first element; high +2 appends two zeros.
    np.testing.assert_array_equal(got, [0, 2, 0, 3, 0, 0])


def naive_gather(
    operand, indices, offset_dims, collapsed, start_index_map, index_vector_dim, slice_sizes
):
    batch_shape = [s for i, s in enumerate(indices.shape) if i != index_vector_dim]
    offset_sizes = [s for i, s in enumerate(slice_sizes) if i not in collapsed]
    rank = len(batch_shape) + len(offset_sizes)
    out_shape = []
    b, o = iter(batch_shape), iter(offset_sizes)
    for r in range(rank):
        out_shape.append(next(o) if r in offset_dims else next(b))
    out = np.zeros(out_shape, operand.dtype)
    for out_index in itertools.product(*(range(s) for s in out_shape)):
        batch_index = [out_index[r] for r in range(rank) if r not in offset_dims]
        offset_index = [out_index[r] for r in range(rank) if r in offset_dims]
        idx = list(batch_index)
        idx.insert(index_vector_dim, slice(None))
        start_vec = indices[tuple(idx)]
        start = [0] * operand.ndim
        for k, od in enumerate(start_index_map):
            start[od] = int(start_vec[k])
        start = [min(max(s, 0), operand.shape[d] - slice_sizes[d]) for d, s in enumerate(start)]
        full_offset = []
        it = iter(offset_index)
        for d in range(operand.ndim):
            full_offset.append(0 if d in collapsed else next(it))
        out[out_index] = operand[tuple(s + f for s, f in zip(start, full_offset, strict=True))]
    return out


def test_gather_matches_a_naive_gather() -> None:
    operand = RNG.standard_normal((5, 4, 3)).astype(np.float32)
    indices = np.array(
        [[[0, 1], [4, 3]], [[2, 0], [9, -2]]], np.int32
    )  # out-of-range starts are clamped
    src = """func.func @main(%a: tensor<5x4x3xf32>, %i: tensor<2x2x2xi32>) -> tensor<2x2x2x3xf32> {
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 3>}> : (tensor<5x4x3xf32>, tensor<2x2x2xi32>) -> tensor<2x2x2x3xf32>
  func.return %0 : tensor<2x2x2x3xf32>
}"""
    expected = naive_gather(operand, indices, [2, 3], [0], [0, 1], 2, [1, 2, 3])
    np.testing.assert_array_equal(run(src, operand, indices)[0], expected)


# --------------------------------------------------------------------------
# Contractions
# --------------------------------------------------------------------------


def test_dot_general_batched() -> None:
    a = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    b = RNG.standard_normal((2, 4, 5)).astype(np.float32)
    src = """func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}"""
    np.testing.assert_allclose(run(src, a, b)[0], np.einsum("bij,bjk->bik", a, b), rtol=1e-6)


def test_dot_general_int8_is_exact() -> None:
    a = RNG.integers(-128, 128, (7, 64)).astype(np.int8)
    b = RNG.integers(-128, 128, (64, 5)).astype(np.int8)
    src = """func.func @main(%a: tensor<7x64xi8>, %b: tensor<64x5xi8>) -> tensor<7x5xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<7x64xi8>, tensor<64x5xi8>) -> tensor<7x5xi32>
  func.return %0 : tensor<7x5xi32>
}"""
    expected = a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(run(src, a, b)[0], expected)


def test_float64_blas_is_exact_for_integer_products_below_2_pow_53() -> None:
    """The claim the integer matmul relies on, checked at its edge."""
    k = 1 << 22  # k * (-2^15)^2 = 2^52: every partial sum is an exact float64 integer
    a = np.full((1, 1, k), -(2**15), np.int16)
    b = np.full((1, k, 1), -(2**15), np.int16)
    assert int(exact_matmul(a, b)[0, 0, 0]) == k * 2**30
    # Just past 2^53 float64 would round; exact_matmul switches to int64 there.
    a2 = np.full((1, 1, 4 * k + 1), 2**15 - 1, np.int16)
    b2 = np.full((1, 4 * k + 1, 1), 2**15 - 1, np.int16)
    assert int(exact_matmul(a2, b2)[0, 0, 0]) == (4 * k + 1) * (2**15 - 1) ** 2


def naive_conv_nhwc(x, w, stride, pad, lhs_dil, rhs_dil, groups):
    """Direct loops over output positions (HWIO weights, NHWC activations)."""
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    # dilate and pad the input
    hd, wdd = (h - 1) * lhs_dil[0] + 1, (wd - 1) * lhs_dil[1] + 1
    xd = np.zeros((n, hd, wdd, c), np.float64)
    xd[:, :: lhs_dil[0], :: lhs_dil[1], :] = x
    xp = np.zeros((n, hd + pad[0][0] + pad[0][1], wdd + pad[1][0] + pad[1][1], c), np.float64)
    xp[:, pad[0][0] : pad[0][0] + hd, pad[1][0] : pad[1][0] + wdd, :] = xd
    ekh, ekw = (kh - 1) * rhs_dil[0] + 1, (kw - 1) * rhs_dil[1] + 1
    oh = (xp.shape[1] - ekh) // stride[0] + 1
    ow = (xp.shape[2] - ekw) // stride[1] + 1
    out = np.zeros((n, oh, ow, co), np.float64)
    og = co // groups
    for b_, i, j, o in itertools.product(range(n), range(oh), range(ow), range(co)):
        g = o // og
        acc = 0.0
        for p, q, cc in itertools.product(range(kh), range(kw), range(ci)):
            acc += (
                xp[b_, i * stride[0] + p * rhs_dil[0], j * stride[1] + q * rhs_dil[1], g * ci + cc]
                * w[p, q, cc, o]
            )
        out[b_, i, j, o] = acc
    return out


@pytest.mark.parametrize(
    ("stride", "pad", "lhs_dil", "rhs_dil", "groups"),
    [
        ((1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1), 1),
        ((2, 1), ((1, 2), (0, 1)), (1, 1), (1, 1), 1),
        ((1, 1), ((1, 1), (1, 1)), (1, 1), (2, 2), 1),
        ((1, 1), ((0, 0), (0, 0)), (2, 1), (1, 1), 1),
        ((1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 4),  # depthwise
        ((2, 2), ((0, 1), (0, 1)), (1, 1), (1, 1), 2),  # grouped
    ],
)
def test_convolution_matches_naive_loops(stride, pad, lhs_dil, rhs_dil, groups) -> None:
    c, co = 4, 8
    x = RNG.integers(-8, 8, (2, 6, 5, c)).astype(np.float32)
    w = RNG.integers(-8, 8, (3, 2, c // groups, co)).astype(np.float32)
    expected = naive_conv_nhwc(x, w, stride, pad, lhs_dil, rhs_dil, groups)
    out_t = f"tensor<2x{expected.shape[1]}x{expected.shape[2]}x{co}xf32>"
    src = f"""func.func @main(%x: tensor<2x6x5x{c}xf32>, %w: tensor<3x2x{c // groups}x{co}xf32>) -> {out_t} {{
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [{stride[0]}, {stride[1]}], pad = [[{pad[0][0]}, {pad[0][1]}], [{pad[1][0]}, {pad[1][1]}]], lhs_dilate = [{lhs_dil[0]}, {lhs_dil[1]}], rhs_dilate = [{rhs_dil[0]}, {rhs_dil[1]}]}} {{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}} : (tensor<2x6x5x{c}xf32>, tensor<3x2x{c // groups}x{co}xf32>) -> {out_t}
  func.return %0 : {out_t}
}}"""
    np.testing.assert_array_equal(run(src, x, w)[0], expected.astype(np.float32))


def test_convolution_nchw_layout_equals_nhwc() -> None:
    x = RNG.integers(-5, 5, (1, 4, 4, 3)).astype(np.float32)
    w = RNG.integers(-5, 5, (3, 3, 3, 2)).astype(np.float32)
    expected = naive_conv_nhwc(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 1)
    src = """func.func @main(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  func.return %0 : tensor<1x2x4x4xf32>
}"""
    got = run(src, x.transpose(0, 3, 1, 2).copy(), w.transpose(3, 2, 0, 1).copy())[0]
    np.testing.assert_array_equal(got, expected.transpose(0, 3, 1, 2).astype(np.float32))


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------


def test_reduce_compact_and_general_bodies() -> None:
    x = RNG.standard_normal((3, 5, 4)).astype(np.float32)
    src = """func.func @main(%x: tensor<3x5x4xf32>) -> (tensor<5xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 2] : (tensor<3x5x4xf32>, tensor<f32>) -> tensor<5xf32>
  %1 = stablehlo.reduce(%x init: %ninf) across dimensions = [1] : (tensor<3x5x4xf32>, tensor<f32>) -> tensor<3x4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  %iota = stablehlo.iota dim = 1 : tensor<3x5x4xi32>
  %2:2 = stablehlo.reduce(%x init: %ninf), (%iota init: %c0) across dimensions = [1] : (tensor<3x5x4xf32>, tensor<3x5x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x4xf32>, tensor<3x4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>)  {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %ia, %ib, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %smaller = stablehlo.select %lt, %ia, %ib : tensor<i1>, tensor<i32>
    %i1 = stablehlo.select %gt, %ia, %ib : tensor<i1>, tensor<i32>
    %i = stablehlo.select %eq, %smaller, %i1 : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }
  func.return %0, %1, %2#0, %2#1 : tensor<5xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>
}"""
    total, maxima, argmax_v, argmax_i = run(src, x)
    np.testing.assert_allclose(total, x.sum(axis=(0, 2)), rtol=1e-5)
    np.testing.assert_array_equal(maxima, x.max(axis=1))
    np.testing.assert_array_equal(argmax_v, x.max(axis=1))
    np.testing.assert_array_equal(argmax_i, x.argmax(axis=1))


def test_reduce_window_max_and_sum_pooling() -> None:
    x = RNG.integers(-20, 20, (1, 5, 5, 2)).astype(np.float32)
    src = """func.func @main(%x: tensor<1x5x5x2xf32>) -> (tensor<1x3x3x2xf32>, tensor<1x2x2x2xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %ninf) <{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  %1 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, window_dilations = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
  func.return %0, %1 : tensor<1x3x3x2xf32>, tensor<1x2x2x2xf32>
}"""
    pooled, summed = run(src, x)
    padded = np.full((1, 7, 7, 2), -np.inf, np.float32)
    padded[:, 1:6, 1:6, :] = x
    expected_max = np.zeros((1, 3, 3, 2), np.float32)
    expected_sum = np.zeros((1, 2, 2, 2), np.float32)
    for i, j, c in itertools.product(range(3), range(3), range(2)):
        expected_max[0, i, j, c] = padded[0, 2 * i : 2 * i + 3, 2 * j : 2 * j + 3, c].max()
    for i, j, c in itertools.product(range(2), range(2), range(2)):
        expected_sum[0, i, j, c] = x[0, 2 * i : 2 * i + 3 : 2, 2 * j : 2 * j + 3 : 2, c].sum()
    np.testing.assert_array_equal(pooled, expected_max)
    np.testing.assert_array_equal(summed, expected_sum)


# --------------------------------------------------------------------------
# Quantized ops: hand-checkable values
# --------------------------------------------------------------------------


def test_quantized_add_hand_computed() -> None:
    # a: scale 0.5 zp 0 -> q [2, 4, -6] means [1, 2, -3]; b: scale 0.25 zp 4 -> q [8, 0, 4] means [1, -1, 0]
    # sum [2, 1, -3] at scale 1.0 zp -1 -> q = rne(x / 1 - 1) = [1, 0, -4]
    src = """func.func @main(%a: tensor<3x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3x!quant.uniform<i8:f32, 0.25:4>>) -> tensor<3x!quant.uniform<i8:f32, 1.0:-1>> {
  %0 = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:4>>) -> tensor<3x!quant.uniform<i8:f32, 1.0:-1>>
  func.return %0 : tensor<3x!quant.uniform<i8:f32, 1.0:-1>>
}"""
    got = run(src, np.array([2, 4, -6], np.int8), np.array([8, 0, 4], np.int8))[0]
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, [1, 0, -4])


def test_quantize_dequantize_per_axis_hand_computed() -> None:
    src = """func.func @main(%x: tensor<2xf32>) -> (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>, tensor<2xf32>) {
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  %d = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xf32>
  func.return %q, %d : tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>, tensor<2xf32>
}"""
    q, d = run(src, np.array([4.0, 15.0], np.float32))
    np.testing.assert_array_equal(q, [10, 10])  # 4/0.1 - 30 = 10; 15/0.5 - 20 = 10
    np.testing.assert_allclose(d, [4.0, 15.0], rtol=1e-6)


def test_requantize_and_data_movement_keep_storage() -> None:
    src = """func.func @main(%q: tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>) -> (tensor<2x2x!quant.uniform<u8:f32, 0.25:100>>, tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>) {
  %r = stablehlo.uniform_quantize %q : (tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<2x2x!quant.uniform<u8:f32, 0.25:100>>
  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>
  func.return %r, %t : tensor<2x2x!quant.uniform<u8:f32, 0.25:100>>, tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>
}"""
    q = np.array([[128, 130], [0, 255]], np.uint8)  # reals [0, 1, -64, 63.5]
    r, t = run(src, q)
    np.testing.assert_array_equal(
        r, [[100, 104], [0, 255]]
    )  # 0/0.25+100, 1/0.25+100, clamped, clamped
    np.testing.assert_array_equal(t, q.T)


def test_quantized_constant_and_compare() -> None:
    src = """func.func @main() -> tensor<3xi1> {
  %a = stablehlo.constant() <{value = dense<[10, 20, 30]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 0.1>>
  %b = stablehlo.constant() <{value = dense<[1, 4, 3]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 1.0>>
  %0 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<3x!quant.uniform<i8:f32, 0.1>>, tensor<3x!quant.uniform<i8:f32, 1.0>>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}"""
    np.testing.assert_array_equal(run(src)[0], [False, False, False])  # [1,2,3] vs [1,4,3]


def independent_quantize(
    x: np.ndarray, scale: float, zp: int, lo: int = -128, hi: int = 127
) -> np.ndarray:
    y = x.astype(np.float32) / np.float32(scale) + np.float32(zp)
    return np.clip(np.rint(y), lo, hi).astype(np.int8)


def independent_dequantize(q: np.ndarray, scale: float, zp: int) -> np.ndarray:
    return (q.astype(np.float32) - np.float32(zp)) * np.float32(scale)


QOPS = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
}


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(QOPS)),
    st.floats(min_value=0.01, max_value=2.0),
    st.integers(min_value=-20, max_value=20),
    st.floats(min_value=0.01, max_value=2.0),
    st.integers(min_value=-20, max_value=20),
    st.lists(st.integers(min_value=-128, max_value=127), min_size=8, max_size=8),
    st.lists(st.integers(min_value=-128, max_value=127), min_size=8, max_size=8),
)
def test_quantized_binary_equals_dequantize_op_quantize(
    op, s_in, zp_in, s_out, zp_out, a, b
) -> None:
    tin = f"tensor<8x!quant.uniform<i8:f32, {s_in!r}:{zp_in}>>"
    tout = f"tensor<8x!quant.uniform<i8:f32, {s_out!r}:{zp_out}>>"
    src = f"func.func @main(%a: {tin}, %b: {tin}) -> {tout} {{\n  %0 = stablehlo.{op} %a, %b : ({tin}, {tin}) -> {tout}\n  func.return %0 : {tout}\n}}"
    qa, qb = np.array(a, np.int8), np.array(b, np.int8)
    fa, fb = independent_dequantize(qa, s_in, zp_in), independent_dequantize(qb, s_in, zp_in)
    expected = independent_quantize(QOPS[op](fa, fb), s_out, zp_out)
    np.testing.assert_array_equal(run(src, qa, qb)[0], expected)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["tanh", "logistic", "exponential", "abs", "negate", "floor"]),
    st.floats(min_value=0.01, max_value=0.5),
    st.integers(min_value=-10, max_value=10),
    st.lists(st.integers(min_value=-128, max_value=127), min_size=6, max_size=6),
)
def test_quantized_unary_equals_dequantize_op_quantize(op, scale, zp, values) -> None:
    fns = {
        "tanh": np.tanh,
        "logistic": lambda x: np.float32(1) / (np.float32(1) + np.exp(-x)),
        "exponential": np.exp,
        "abs": np.abs,
        "negate": np.negative,
        "floor": np.floor,
    }
    t = f"tensor<6x!quant.uniform<i8:f32, {scale!r}:{zp}>>"
    src = f"func.func @main(%a: {t}) -> {t} {{\n  %0 = stablehlo.{op} %a : {t}\n  func.return %0 : {t}\n}}"
    q = np.array(values, np.int8)
    with np.errstate(over="ignore"):
        expected = independent_quantize(fns[op](independent_dequantize(q, scale, zp)), scale, zp)
    np.testing.assert_array_equal(run(src, q)[0], expected)


def test_quantized_dot_general_per_axis() -> None:
    # x: scale 0.5 zp 1; w per output channel: scales [1, 0.5]; result i32 scales [0.5, 0.25].
    src = """func.func @main(%x: tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>, %w: tensor<2x2x!quant.uniform<i8:f32:1, {1.0,0.5}>>) -> tensor<1x2x!quant.uniform<i32:f32:1, {0.5,0.25}>> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x2x!quant.uniform<i8:f32:1, {1.0,0.5}>>) -> tensor<1x2x!quant.uniform<i32:f32:1, {0.5,0.25}>>
  func.return %0 : tensor<1x2x!quant.uniform<i32:f32:1, {0.5,0.25}>>
}"""
    x = np.array([[3, 5]], np.int8)  # reals [1, 2]
    w = np.array([[2, 4], [1, -2]], np.int8)  # reals [[2, 2], [1, -1]]
    # float result [1*2 + 2*1, 1*2 + 2*(-1)] = [4, 0]; quantized [4/0.5, 0/0.25] = [8, 0]
    np.testing.assert_array_equal(run(src, x, w)[0], [[8, 0]])


# --------------------------------------------------------------------------
# Calls, checks, errors
# --------------------------------------------------------------------------


def test_calls_and_checks() -> None:
    src = """func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = func.call @twice(%a) : (tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const %b, dense<[2, 4]> : tensor<2xi32>
  check.expect_eq_const %b, dense<[2, 5]> : tensor<2xi32>
  func.return
}
func.func private @twice(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %x, %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}"""
    module = QParser(make_context(), src).parse_module()
    interp = Interpreter(module)
    interp.call("main", [])
    assert len(interp.check_failures) == 1
    assert (
        "1 of 2 elements differ; first at index [1]: got 4, expected 5"
        in interp.check_failures[0].message
    )


def test_unsupported_op_and_bad_inputs_are_clear_errors() -> None:
    module = QParser(
        make_context(allow_unregistered=True),
        'func.func @main() {\n  "foo.bar"() : () -> ()\n  func.return\n}',
    ).parse_module()
    with pytest.raises(OpFailure, match=r"does not support 'foo\.bar'"):
        Interpreter(module).call("main", [])
    src = (
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  func.return %x : tensor<2xf32>\n}"
    )
    with pytest.raises(InterpreterError, match=r"argument #0 of @main has shape \[3\], expected 2"):
        run(src, np.zeros(3, np.float32))
    with pytest.raises(InterpreterError, match="no function named @nope"):
        run(src, np.zeros(2, np.float32), entry="nope")


def test_dot_and_optimization_barrier() -> None:
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    v = RNG.standard_normal(4).astype(np.float32)
    src = """func.func @main(%a: tensor<3x4xf32>, %v: tensor<4xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<3x4xf32>) {
  %0 = stablehlo.dot %a, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %1 = stablehlo.dot %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %2:2 = stablehlo.optimization_barrier %a, %v : tensor<3x4xf32>, tensor<4xf32>
  func.return %0, %1, %2#0 : tensor<3xf32>, tensor<f32>, tensor<3x4xf32>
}"""
    mv, vv, same = run(src, a, v)
    np.testing.assert_allclose(mv, a @ v, rtol=1e-6)
    np.testing.assert_allclose(vv, v @ v, rtol=1e-6)
    np.testing.assert_array_equal(same, a)


def test_convolution_batch_groups() -> None:
    # batch_group_count = 2: output features [0, 2) see batch 0, features [2, 4) see batch 1.
    x = RNG.integers(-5, 5, (2, 4, 4, 3)).astype(np.float32)
    w = RNG.integers(-5, 5, (2, 2, 3, 4)).astype(np.float32)
    expected = np.zeros((1, 3, 3, 4), np.float32)
    for i, j, o in itertools.product(range(3), range(3), range(4)):
        g = o // 2
        expected[0, i, j, o] = np.sum(x[g, i : i + 2, j : j + 2, :] * w[:, :, :, o])
    src = """func.func @main(%x: tensor<2x4x4x3xf32>, %w: tensor<2x2x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x3xf32>, tensor<2x2x3x4xf32>) -> tensor<1x3x3x4xf32>
  func.return %0 : tensor<1x3x3x4xf32>
}"""
    np.testing.assert_array_equal(run(src, x, w)[0], expected)


def test_region_reads_a_value_of_the_enclosing_block():
    # Dominance allows it; the interpreter looked values up in the region's block only.
    module = QParser(
        make_context(),
        """func.func @main() -> tensor<i32> {
          %in = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
          %init = stablehlo.constant dense<10> : tensor<i32>
          %r = stablehlo.reduce(%in init: %init) across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
           reducer(%a: tensor<i32>, %b: tensor<i32>) {
            %s = stablehlo.add %a, %init : tensor<i32>
            stablehlo.return %s : tensor<i32>
          }
          func.return %r : tensor<i32>
        }""",
    ).parse_module()
    module.verify()
    assert Interpreter(module).call("main", [])[0].tolist() == 20


def test_rank_above_the_limit_is_an_error_at_the_op():
    ones = "[" * 33 + "1" + "]" * 33
    module = QParser(
        make_context(),
        f"func.func @main() -> tensor<{'1x' * 33}i8> {{\n"
        f"  %0 = stablehlo.constant dense<{ones}> : tensor<{'1x' * 33}i8>\n"
        f"  func.return %0 : tensor<{'1x' * 33}i8>\n}}",
    ).parse_module()
    with pytest.raises(OpFailure, match="the interpreter runs tensors of rank at most 32"):
        Interpreter(module).call("main", [])


# Sub-channel: row 0 blocks use scales 0.5 / 0.25 (zero points 1 / -2), row 1 uses
# 2.0 / 1.0 (3 / 0), each block two columns wide.
_SUB_CHANNEL = "!quant.uniform<i8:f32:{0:1, 1:2}, {{0.5:1, 0.25:-2}, {2.0:3, 1.0}}>"


@pytest.mark.parametrize(
    ("quantize", "dequantize"),
    [
        (
            "stablehlo.uniform_quantize %x : (tensor<2x4xf32>) -> tensor<2x4x{q}>",
            "stablehlo.uniform_dequantize %q : (tensor<2x4x{q}>) -> tensor<2x4xf32>",
        ),
        (
            "quant.qcast %x : tensor<2x4xf32> to tensor<2x4x{q}>",
            "quant.dcast %q : tensor<2x4x{q}> to tensor<2x4xf32>",
        ),
    ],
)
def test_sub_channel_quantize_dequantize(quantize: str, dequantize: str) -> None:
    q = _SUB_CHANNEL
    src = f"""
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x4xi8>, tensor<2x4xf32>) {{
  %q = {quantize.format(q=q)}
  %s = quant.scast %q : tensor<2x4x{q}> to tensor<2x4xi8>
  %d = {dequantize.format(q=q)}
  func.return %s, %d : tensor<2x4xi8>, tensor<2x4xf32>
}}"""
    x = np.array([[1.0, -3.0, 0.3, 100.0], [5.0, 7.0, -2.2, 0.5]], np.float32)
    s, d = run(src, x)
    # Worked by hand: x / s + zp, clamped to [-128, 127], ties to even.
    assert s.tolist() == [[3, -5, -1, 127], [6, 6, -2, 0]]
    assert d.tolist() == [[1.0, -3.0, 0.25, 32.25], [6.0, 6.0, -2.0, 0.0]]
