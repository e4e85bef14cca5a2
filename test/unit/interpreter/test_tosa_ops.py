"""TOSA-like ops in the interpreter against hand-computed values and independent scalar code."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.interpreter import Interpreter, InterpreterError, OpFailure
from qdialect.ir.parser import QParser


def run(src: str, *args: np.ndarray) -> list[np.ndarray]:
    module = QParser(make_context(), src).parse_module()
    module.verify()
    return Interpreter(module).call("main", list(args))


def const(name: str, values, t: str) -> str:
    return f"  {name} = tosa.const  values(dense<{values}> : {t}) : () -> {t}\n"


def rescale_program(
    shift: int,
    multiplier: int,
    mode: str,
    out: str = "i32",
    izp: int = 0,
    ozp: int = 0,
    in_t: str = "i32",
) -> str:
    return (
        f"func.func @main(%x: tensor<1x{in_t}>) -> tensor<1x{out}> {{\n"
        + const("%m", multiplier, "tensor<1xi32>")
        + const("%s", shift, "tensor<1xi8>")
        + const("%izp", izp, f"tensor<1x{in_t}>")
        + const("%ozp", ozp, f"tensor<1x{out}>")
        + f"  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<{mode}> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x{in_t}>, tensor<1xi32>, tensor<1xi8>, tensor<1x{in_t}>, tensor<1x{out}>) -> tensor<1x{out}>\n"
        f"  func.return %r : tensor<1x{out}>\n}}"
    )


@pytest.mark.parametrize(
    ("value", "multiplier", "shift", "single", "double"),
    [
        (-4, 2**30, 33, 0, -1),  # -0.5: single rounds toward +inf, double away from zero
        (
            320,
            1717986918,
            40,
            0,
            1,
        ),  # 0.4999999999: the 2^30 pre-round of double rounding carries it over
        (3, 2**30, 31, 2, 2),  # 1.5, shift <= 31: the modes agree
        (-3, 2**30, 31, -1, -1),
    ],
)
def test_rescale_corner_cases(
    value: int, multiplier: int, shift: int, single: int, double: int
) -> None:
    x = np.array([value], np.int32)
    assert int(run(rescale_program(shift, multiplier, "SINGLE_ROUND"), x)[0][0]) == single
    assert int(run(rescale_program(shift, multiplier, "DOUBLE_ROUND"), x)[0][0]) == double


def test_rescale_zero_points_clamp_and_unsigned() -> None:
    # i8 -> i8 at scale 1/2 (M = 2^30, shift 31): (x - izp) / 2 + ozp, clamped.
    x = np.array([[-128, 0, 10, 127]], np.int8)
    src = (
        "func.func @main(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {\n"
        + const("%m", 2**30, "tensor<1xi32>")
        + const("%s", 31, "tensor<1xi8>")
        + const("%izp", -10, "tensor<1xi8>")
        + const("%ozp", 100, "tensor<1xi8>")
        + "  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4xi8>\n"
        "  func.return %r : tensor<1x4xi8>\n}"
    )
    # (-118)/2 + 100 = 41; 10/2 + 100 = 105; 20/2 + 100 = 110; 137/2 = 68.5 -> 69 + 100 = 169 -> clamp 127
    np.testing.assert_array_equal(run(src, x)[0], [[41, 105, 110, 127]])
    # Unsigned input (both sides unsigned is a spec ERROR_IF): the bits read as u8
    # [128, 0, 10, 127] -> /2 + 100 = [164, 100, 105, 164] -> clamped to i8.
    from_u8 = src.replace(
        "input_unsigned(false) output_unsigned(false)",
        "input_unsigned(true) output_unsigned(false)",
    ).replace("dense<-10>", "dense<0>")
    np.testing.assert_array_equal(run(from_u8, x)[0], [[127, 100, 105, 127]])
    # Unsigned output: (x + 10) / 2 + 100 = [41, 105, 110, 169], clamped to u8 (no clamp
    # here), stored as u8 bits in i8.
    to_u8 = src.replace(
        "input_unsigned(false) output_unsigned(false)",
        "input_unsigned(false) output_unsigned(true)",
    )
    got = run(to_u8, x)[0].view(np.uint8)
    np.testing.assert_array_equal(got, [[41, 105, 110, 169]])


def test_rescale_per_channel() -> None:
    src = (
        "func.func @main(%x: tensor<2x2xi32>) -> tensor<2x2xi8> {\n"
        + const("%m", "[1073741824, 1610612736]", "tensor<2xi32>")
        + const("%s", "[31, 33]", "tensor<2xi8>")
        + const("%izp", 0, "tensor<1xi32>")
        + const("%ozp", 0, "tensor<1xi8>")
        + "  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(false) : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x2xi8>\n"
        "  func.return %r : tensor<2x2xi8>\n}"
    )
    x = np.array([[10, 10], [-10, 100]], np.int32)
    # channel 0: x * 0.5; channel 1: x * 0.75 / 4 = x * 0.1875
    np.testing.assert_array_equal(run(src, x)[0], [[5, 2], [-5, 19]])  # 1.875 -> 2; 18.75 -> 19


def test_table_i8_and_i16() -> None:
    table8 = np.arange(256, dtype=np.int64) - 128
    table8 = (table8 * 3 // 4).astype(np.int8)
    table16 = (np.arange(513) * 37 - 9000).astype(np.int16)
    src = (
        "func.func @main(%x: tensor<5xi8>, %t: tensor<256xi8>, %y: tensor<4xi16>, %u: tensor<513xi16>) -> (tensor<5xi8>, tensor<4xi32>) {\n"
        "  %0 = tosa.table %x, %t : (tensor<5xi8>, tensor<256xi8>) -> tensor<5xi8>\n"
        "  %1 = tosa.table %y, %u : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>\n"
        "  func.return %0, %1 : tensor<5xi8>, tensor<4xi32>\n}"
    )
    x = np.array([-128, -1, 0, 1, 127], np.int8)
    y = np.array([-32768, -1, 200, 32767], np.int16)
    got8, got16 = run(src, x, table8, y, table16)
    np.testing.assert_array_equal(
        got8, [table8[0], table8[127], table8[128], table8[129], table8[255]]
    )
    expected16 = []
    for value in y.tolist():  # the spec's interpolation, scalar
        index = value + 32768
        frac, base = index & 0x7F, index >> 7
        expected16.append(
            int(table16[base]) * 128 + (int(table16[base + 1]) - int(table16[base])) * frac
        )
    np.testing.assert_array_equal(got16, expected16)


def test_clz_and_logical_left_shift() -> None:
    src = (
        "func.func @main(%x: tensor<7xi32>, %b: tensor<7xi32>) -> (tensor<7xi32>, tensor<7xi32>) {\n"
        "  %0 = tosa.clz %x : (tensor<7xi32>) -> tensor<7xi32>\n"
        "  %1 = tosa.logical_left_shift %x, %b : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>\n"
        "  func.return %0, %1 : tensor<7xi32>, tensor<7xi32>\n}"
    )
    x = np.array([0, 1, 2, 3, 1 << 30, (1 << 31) - 1, -1], np.int32)
    b = np.array([5, 31, 30, 1, 1, 4, 31], np.int32)
    clz, shifted = run(src, x, b)
    # Scalar references: leading zeros of the 32-bit pattern; the shift keeps the low 32 bits.
    np.testing.assert_array_equal(clz, [32 - (int(v) & 0xFFFFFFFF).bit_length() for v in x])
    wrapped = [((int(v) << int(k)) & 0xFFFFFFFF) for v, k in zip(x, b, strict=True)]
    np.testing.assert_array_equal(shifted, [w - (1 << 32) if w >> 31 else w for w in wrapped])
    with pytest.raises(OpFailure, match=r"logical_left_shift amount outside 0\.\.31"):
        run(src, x, np.full(7, 32, np.int32))


def test_gather() -> None:
    src = (
        "func.func @main(%v: tensor<2x4x3xi32>, %i: tensor<2x5xi32>) -> tensor<2x5x3xi32> {\n"
        "  %0 = tosa.gather %v, %i : (tensor<2x4x3xi32>, tensor<2x5xi32>) -> tensor<2x5x3xi32>\n"
        "  func.return %0 : tensor<2x5x3xi32>\n}"
    )
    values = np.arange(24, dtype=np.int32).reshape(2, 4, 3) * 1000 - 7
    indices = np.array([[0, 3, 3, 1, 2], [2, 2, 0, 1, 3]], np.int32)
    expected = [[values[n, k] for k in row] for n, row in enumerate(indices)]
    np.testing.assert_array_equal(run(src, values, indices)[0], expected)
    with pytest.raises(OpFailure, match=r"tosa\.gather index outside 0\.\.3"):
        run(src, values, np.full((2, 5), 4, np.int32))


def test_mul_with_shift() -> None:
    src = (
        "func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xi32>) {\n"
        + const("%s", 3, "tensor<1xi8>")
        + const("%z", 0, "tensor<1xi8>")
        + "  %0 = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>\n"
        "  %1 = tosa.mul %c, %c, %z : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>\n"
        "  func.return %0, %1 : tensor<4xi32>, tensor<4xi32>\n}"
    )
    a = np.array([5, -5, 100000, 7], np.int32)
    b = np.array([3, 3, 30000, -1], np.int32)
    c = np.array([-128, 127, 3, -3], np.int8)
    shifted, wide = run(src, a, b, c)
    expected = [
        (int(x) * int(y) + 4) >> 3 for x, y in zip(a, b, strict=True)
    ]  # 15/8 -> 2, -15/8 -> -2 (ties up)
    np.testing.assert_array_equal(shifted, expected)
    np.testing.assert_array_equal(wide, [16384, 16129, 9, 9])


def avg_pool_reference(x, kernel, stride, pad, izp, ozp):
    """TOSA AVG_POOL2D pseudocode, scalar: sum of (x - izp) over valid elements, reciprocal scale."""
    n, h, w, c = x.shape
    oh = (h + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    out = np.zeros((n, oh, ow, c), np.int64)
    for b, i, j, ch in itertools.product(range(n), range(oh), range(ow), range(c)):
        acc = count = 0
        for ky, kx in itertools.product(range(kernel[0]), range(kernel[1])):
            y, xx = i * stride[0] + ky - pad[0], j * stride[1] + kx - pad[2]
            if 0 <= y < h and 0 <= xx < w:
                acc += int(x[b, y, xx, ch]) - izp
                count += 1
        k = (count - 1).bit_length()
        multiplier = (((1 << 30) + 1) << k) // count
        shift = 30 + k
        scaled = (acc * multiplier + (1 << (shift - 1))) >> shift
        out[b, i, j, ch] = min(max(scaled + ozp, -128), 127)
    return out


def test_avg_pool2d_matches_the_spec_pseudocode() -> None:
    rng = np.random.default_rng(4)
    x = rng.integers(-128, 128, (1, 5, 6, 3)).astype(np.int8)
    src = (
        "func.func @main(%x: tensor<1x5x6x3xi8>) -> tensor<1x3x3x3xi8> {\n"
        + const("%izp", -7, "tensor<1xi8>")
        + const("%ozp", 4, "tensor<1xi8>")
        + "  %0 = tosa.avg_pool2d %x, %izp, %ozp kernel([3, 3]) stride([2, 2]) pad([1, 1, 1, 0]) acc_type(i32) : (tensor<1x5x6x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x3xi8>\n"
        "  func.return %0 : tensor<1x3x3x3xi8>\n}"
    )
    np.testing.assert_array_equal(
        run(src, x)[0], avg_pool_reference(x, (3, 3), (2, 2), (1, 1, 1, 0), -7, 4)
    )


def naive_conv_ohwi(x, w, bias, izp, wzp, pad, stride, dilation, depthwise=False):
    n, h, wd, c = x.shape
    if depthwise:
        kh, kw, _, m = w.shape
        co = c * m
    else:
        co, kh, kw, _ = w.shape
    oh = (h - 1 + pad[0] + pad[1] - (kh - 1) * dilation[0]) // stride[0] + 1
    ow = (wd - 1 + pad[2] + pad[3] - (kw - 1) * dilation[1]) // stride[1] + 1
    out = np.zeros((n, oh, ow, co), np.int64)
    for b, i, j, o in itertools.product(range(n), range(oh), range(ow), range(co)):
        acc = int(bias[o])
        for ky, kx in itertools.product(range(kh), range(kw)):
            y = i * stride[0] - pad[0] + ky * dilation[0]
            xx = j * stride[1] - pad[2] + kx * dilation[1]
            if not (0 <= y < h and 0 <= xx < wd):
                continue
            if depthwise:
                ch, mm = divmod(o, w.shape[3])
                acc += (int(x[b, y, xx, ch]) - izp) * (int(w[ky, kx, ch, mm]) - wzp)
            else:
                for ch in range(c):
                    acc += (int(x[b, y, xx, ch]) - izp) * (int(w[o, ky, kx, ch]) - wzp)
        out[b, i, j, o] = acc
    return out


def test_conv2d_and_depthwise_match_naive_loops() -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(-128, 128, (1, 6, 5, 3)).astype(np.int8)
    w = rng.integers(-128, 128, (4, 3, 2, 3)).astype(np.int8)
    dw = rng.integers(-128, 128, (3, 2, 3, 2)).astype(np.int8)
    bias = rng.integers(-1000, 1000, 4).astype(np.int32)
    bias6 = rng.integers(-1000, 1000, 6).astype(np.int32)
    pad, stride, dil = (1, 0, 1, 1), (2, 1), (1, 2)
    ref = naive_conv_ohwi(x, w, bias, 5, 2, pad, stride, dil)
    ref_dw = naive_conv_ohwi(x, dw, bias6, 5, 2, pad, stride, dil, depthwise=True)
    oh, ow = ref.shape[1:3]
    src = (
        f"func.func @main(%x: tensor<1x6x5x3xi8>, %w: tensor<4x3x2x3xi8>, %dw: tensor<3x2x3x2xi8>, %b: tensor<4xi32>, %b6: tensor<6xi32>) -> (tensor<1x{oh}x{ow}x4xi32>, tensor<1x{oh}x{ow}x6xi32>) {{\n"
        + const("%izp", 5, "tensor<1xi8>")
        + const("%wzp", 2, "tensor<1xi8>")
        + f"  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp pad([1, 0, 1, 1]) stride([2, 1]) dilation([1, 2]) acc_type(i32)  : (tensor<1x6x5x3xi8>, tensor<4x3x2x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x{oh}x{ow}x4xi32>\n"
        f"  %1 = tosa.depthwise_conv2d %x, %dw, %b6, %izp, %wzp pad([1, 0, 1, 1]) stride([2, 1]) dilation([1, 2]) acc_type(i32)  : (tensor<1x6x5x3xi8>, tensor<3x2x3x2xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x{oh}x{ow}x6xi32>\n"
        f"  func.return %0, %1 : tensor<1x{oh}x{ow}x4xi32>, tensor<1x{oh}x{ow}x6xi32>\n}}"
    )
    conv, depthwise = run(src, x, w, dw, bias, bias6)
    np.testing.assert_array_equal(conv, ref)
    np.testing.assert_array_equal(depthwise, ref_dw)


def test_transpose_conv2d_and_matmul() -> None:
    rng = np.random.default_rng(6)
    x = rng.integers(-128, 128, (1, 3, 2, 2)).astype(np.int8)
    w = rng.integers(-128, 128, (3, 2, 2, 2)).astype(np.int8)
    bias = np.array([1, 2, 3], np.int32)
    # out = (in - 1) * stride + pads + kernel: h = 2*2 + 1 + 0 + 2 = 7, w = 1*1 + 0 + 1 + 2 = 4
    expected = np.zeros((1, 7, 4, 3), np.int64) + bias
    for iy, ix, ky, kx, o, c in itertools.product(
        range(3), range(2), range(2), range(2), range(3), range(2)
    ):
        expected[0, iy * 2 + 1 + ky, ix * 1 + 0 + kx, o] += (int(x[0, iy, ix, c]) + 1) * (
            int(w[o, ky, kx, c]) - 0
        )
    a = rng.integers(-128, 128, (2, 3, 4)).astype(np.int8)
    b = rng.integers(-128, 128, (2, 4, 5)).astype(np.int8)
    src = (
        "func.func @main(%x: tensor<1x3x2x2xi8>, %w: tensor<3x2x2x2xi8>, %b: tensor<3xi32>, %a: tensor<2x3x4xi8>, %m: tensor<2x4x5xi8>) -> (tensor<1x7x4x3xi32>, tensor<2x3x5xi32>) {\n"
        + const("%izp", -1, "tensor<1xi8>")
        + const("%wzp", 0, "tensor<1xi8>")
        + const("%bzp", 3, "tensor<1xi8>")
        + "  %0 = tosa.transpose_conv2d %x, %w, %b, %izp, %wzp out_pad([1, 0, 0, 1]) stride([2, 1]) acc_type(i32)  : (tensor<1x3x2x2xi8>, tensor<3x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x4x3xi32>\n"
        "  %1 = tosa.matmul %a, %m, %izp, %bzp : (tensor<2x3x4xi8>, tensor<2x4x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3x5xi32>\n"
        "  func.return %0, %1 : tensor<1x7x4x3xi32>, tensor<2x3x5xi32>\n}"
    )
    tconv, mm = run(src, x, w, bias, a, b)
    np.testing.assert_array_equal(tconv, expected)
    np.testing.assert_array_equal(
        mm, np.einsum("nhc,ncw->nhw", a.astype(np.int64) + 1, b.astype(np.int64) - 3)
    )


def test_data_movement_and_reductions() -> None:
    src = (
        "func.func @main(%x: tensor<2x3xi8>) -> (tensor<3x2xi8>, tensor<3x2xi8>, tensor<4x3xi8>, tensor<3x5xi8>, tensor<2x2xi8>, tensor<2x1xi8>, tensor<1x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>) {\n"
        "  %s = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
        "  %0 = tosa.reshape %x, %s : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<3x2xi8>\n"
        "  %1 = tosa.transpose %x perms([1, 0]) : (tensor<2x3xi8>) -> tensor<3x2xi8>\n"
        "  %2 = tosa.concat %x, %x axis(0) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<4x3xi8>\n"
        "  %p = tosa.const_shape  values(dense<[1, 0, 0, 2]> : tensor<4xindex>) : () -> !tosa.shape<4>\n"
        + const("%v", 9, "tensor<1xi8>")
        + "  %3 = tosa.pad %x, %p, %v : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<3x5xi8>\n"
        "  %st = tosa.const_shape  values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
        "  %sz = tosa.const_shape  values(dense<2> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
        "  %4 = tosa.slice %x, %st, %sz : (tensor<2x3xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xi8>\n"
        "  %5 = tosa.reduce_sum %x axis(1) : (tensor<2x3xi8>) -> tensor<2x1xi8>\n"
        "  %6 = tosa.reduce_max %x axis(0) : (tensor<2x3xi8>) -> tensor<1x3xi8>\n"
        "  %7 = tosa.clamp %x min_val(-2 : i8) max_val(5 : i8) : (tensor<2x3xi8>) -> tensor<2x3xi8>\n"
        + const("%z0", 1, "tensor<1xi8>")
        + "  %8 = tosa.negate %x, %z0, %z0 : (tensor<2x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3xi8>\n"
        "  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3x2xi8>, tensor<3x2xi8>, tensor<4x3xi8>, tensor<3x5xi8>, tensor<2x2xi8>, tensor<2x1xi8>, tensor<1x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>\n}"
    )
    x = np.array([[1, -2, 3], [120, 5, -128]], np.int8)
    r, t, c, p, s, rs, rm, cl, ng = run(src, x)
    np.testing.assert_array_equal(r, x.reshape(3, 2))
    np.testing.assert_array_equal(t, x.T)
    np.testing.assert_array_equal(c, np.vstack([x, x]))
    np.testing.assert_array_equal(p, np.pad(x, ((1, 0), (0, 2)), constant_values=9))
    np.testing.assert_array_equal(s, x[:, 1:3])
    np.testing.assert_array_equal(rs, [[2], [-3]])  # 1-2+3 = 2; 120+5-128 = -3
    np.testing.assert_array_equal(rm, [[120, 5, 3]])
    np.testing.assert_array_equal(cl, np.clip(x, -2, 5))
    np.testing.assert_array_equal(
        ng, np.clip(-(x.astype(int) - 1) + 1, -128, 127)
    )  # -(-128-1)+1 = 130 -> 127


def test_requires_are_errors() -> None:
    src = (
        "func.func @main(%a: tensor<1xi32>) -> tensor<1xi32> {\n"
        + const("%s", 0, "tensor<1xi8>")
        + "  %0 = tosa.mul %a, %a, %s : (tensor<1xi32>, tensor<1xi32>, tensor<1xi8>) -> tensor<1xi32>\n"
        "  func.return %0 : tensor<1xi32>\n}"
    )
    with pytest.raises((OpFailure, InterpreterError), match="does not fit in i32"):
        run(src, np.array([2**20], np.int32))


def test_unsigned_16_bit_zero_point_is_zero_extended() -> None:
    # u16 data with zero point 32768 (stored as the i16 bits -32768), scale 1 -> i16.
    src = (
        "func.func @main(%x: tensor<3xi16>) -> tensor<3xi16> {\n"
        + const("%m", 2**30, "tensor<1xi32>")
        + const("%s", 30, "tensor<1xi8>")
        + const("%izp", -32768, "tensor<1xi16>")
        + const("%ozp", 0, "tensor<1xi16>")
        + "  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(true) output_unsigned(false) : (tensor<3xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi16>) -> tensor<3xi16>\n"
        "  func.return %r : tensor<3xi16>\n}"
    )
    x = np.array([0xFFFF, 0, 0x8000], np.uint16).view(np.int16)
    # 65535 - 32768 = 32767; 0 - 32768 = -32768; 32768 - 32768 = 0
    np.testing.assert_array_equal(run(src, x)[0], [32767, -32768, 0])


def test_run_time_zero_point_must_hold_one_value():
    # An unranked zero point passes verification; its run-time value is checked.
    src = (
        "func.func @main(%x: tensor<2xi8>, %z: tensor<*xi8>) -> tensor<2xi8> {\n"
        "  %r = tosa.negate %x, %z, %z : (tensor<2xi8>, tensor<*xi8>, tensor<*xi8>) -> tensor<2xi8>\n"
        "  func.return %r : tensor<2xi8>\n}"
    )
    x = np.array([1, 2], np.int8)
    with pytest.raises(
        OpFailure, match=r"expected a one-element zero point or shift, got shape \[0\]"
    ):
        run(src, x, np.zeros((0,), np.int8))
    assert run(src, x, np.zeros((1,), np.int8))[0].tolist() == [-1, -2]
