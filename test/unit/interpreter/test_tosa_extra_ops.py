"""The TOSA v1.0 operators beyond the quantized core, against values worked by hand from the
specification's pseudocode, and their REQUIREs as errors naming the op."""

from __future__ import annotations

import re

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.interpreter import Interpreter, OpFailure
from qdialect.ir.parser import QParser


def run(src: str, *args: np.ndarray) -> list[np.ndarray]:
    module = QParser(make_context(), src).parse_module()
    module.verify()
    return Interpreter(module).call("main", list(args))


def unary(op: str, t: str, out: str | None = None) -> str:
    out = out or t
    return (
        f"func.func @main(%x: {t}) -> {out} {{\n"
        f"  %0 = {op} %x : ({t}) -> {out}\n"
        f"  return %0 : {out}\n}}"
    )


def binary(op: str, a: str, b: str, out: str) -> str:
    return (
        f"func.func @main(%a: {a}, %b: {b}) -> {out} {{\n"
        f"  %0 = {op} %a, %b : ({a}, {b}) -> {out}\n"
        f"  return %0 : {out}\n}}"
    )


I32 = "tensor<4xi32>"


def test_intdiv_truncates_toward_zero() -> None:
    a = np.array([7, -7, 7, -7], np.int32)
    b = np.array([2, 2, -2, -2], np.int32)
    (out,) = run(binary("tosa.intdiv", I32, I32, I32), a, b)
    assert out.tolist() == [3, -3, -3, 3]


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ([1, 2, 3, 4], [1, 0, 1, 1], "'tosa.intdiv' divides by zero"),
        ([-(2**31), 0, 0, 0], [-1, 1, 1, 1], "'tosa.intdiv' of -2147483648 by -1"),
    ],
)
def test_intdiv_requires(a: list[int], b: list[int], message: str) -> None:
    with pytest.raises(OpFailure, match=message):
        run(binary("tosa.intdiv", I32, I32, I32), np.array(a, np.int32), np.array(b, np.int32))


def test_abs_of_int_min_is_an_error() -> None:
    (out,) = run(unary("tosa.abs", I32), np.array([-5, 5, 0, -(2**31) + 1], np.int32))
    assert out.tolist() == [5, 5, 0, 2**31 - 1]
    with pytest.raises(OpFailure, match=re.escape("'tosa.abs' of -2147483648 does not fit")):
        run(unary("tosa.abs", I32), np.array([-(2**31), 0, 0, 0], np.int32))


def test_logical_right_shift_shifts_in_zeros() -> None:
    t = "tensor<3xi8>"
    a = np.array([-128, -1, 64], np.int8)  # 0x80, 0xFF, 0x40
    b = np.array([7, 4, 6], np.int8)
    (out,) = run(binary("tosa.logical_right_shift", t, t, t), a, b)
    assert out.tolist() == [1, 15, 1]
    with pytest.raises(OpFailure, match=re.escape("amount outside 0..7")):
        run(binary("tosa.logical_right_shift", t, t, t), a, np.array([8, 0, 0], np.int8))


def test_bitwise_and_logical_ops() -> None:
    a = np.array([0b1100, -1, 0, 5], np.int32)
    b = np.array([0b1010, 3, 7, 5], np.int32)
    assert run(binary("tosa.bitwise_and", I32, I32, I32), a, b)[0].tolist() == [8, 3, 0, 5]
    assert run(binary("tosa.bitwise_or", I32, I32, I32), a, b)[0].tolist() == [14, -1, 7, 5]
    assert run(binary("tosa.bitwise_xor", I32, I32, I32), a, b)[0].tolist() == [6, -4, 7, 0]
    assert run(unary("tosa.bitwise_not", I32), a)[0].tolist() == [-13, 0, -1, -6]
    t = "tensor<4xi1>"
    p, q = np.array([0, 0, 1, 1], bool), np.array([0, 1, 0, 1], bool)
    assert run(binary("tosa.logical_and", t, t, t), p, q)[0].tolist() == [0, 0, 0, 1]
    assert run(binary("tosa.logical_or", t, t, t), p, q)[0].tolist() == [0, 1, 1, 1]
    assert run(binary("tosa.logical_xor", t, t, t), p, q)[0].tolist() == [0, 1, 1, 0]
    assert run(unary("tosa.logical_not", t), p)[0].tolist() == [1, 1, 0, 0]


def test_comparisons_broadcast() -> None:
    a, b = "tensor<2x2xi8>", "tensor<1x2xi8>"
    out = "tensor<2x2xi1>"
    x = np.array([[1, 5], [3, 3]], np.int8)
    y = np.array([[3, 3]], np.int8)
    assert run(binary("tosa.equal", a, b, out), x, y)[0].tolist() == [[0, 0], [1, 1]]
    assert run(binary("tosa.greater", a, b, out), x, y)[0].tolist() == [[0, 1], [0, 0]]
    assert run(binary("tosa.greater_equal", a, b, out), x, y)[0].tolist() == [[0, 1], [1, 1]]


def test_select() -> None:
    src = """func.func @main(%p: tensor<3xi1>, %a: tensor<3xi8>, %b: tensor<1xi8>) -> tensor<3xi8> {
  %0 = tosa.select %p, %a, %b : (tensor<3xi1>, tensor<3xi8>, tensor<1xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}"""
    out = run(src, np.array([1, 0, 1], bool), np.array([1, 2, 3], np.int8), np.array([9], np.int8))
    assert out[0].tolist() == [1, 9, 3]


def test_argmax_takes_the_first_maximum() -> None:
    src = unary("tosa.argmax", "tensor<2x4xi8>", "tensor<2xi32>").replace(
        "%x :", "%x {axis = 1 : i32} :"
    )
    x = np.array([[1, 7, 7, 0], [-3, -3, -5, -4]], np.int8)
    assert run(src, x)[0].tolist() == [1, 0]


def test_reductions_reverse_tile() -> None:
    b = np.array([[1, 0, 1], [1, 1, 1]], bool)
    src = unary("tosa.reduce_all", "tensor<2x3xi1>", "tensor<1x3xi1>").replace(
        "%x :", "%x {axis = 0 : i32} :"
    )
    assert run(src, b)[0].tolist() == [[1, 0, 1]]
    src = unary("tosa.reduce_any", "tensor<2x3xi1>", "tensor<2x1xi1>").replace(
        "%x :", "%x {axis = 1 : i32} :"
    )
    assert run(src, ~b)[0].tolist() == [[1], [0]]
    x = np.array([[4, -2, 9], [0, 3, -7]], np.int8)
    src = unary("tosa.reduce_min", "tensor<2x3xi8>", "tensor<2x1xi8>").replace(
        "%x :", "%x {axis = 1 : i32} :"
    )
    assert run(src, x)[0].tolist() == [[-2], [-7]]
    src = unary("tosa.reverse", "tensor<2x3xi8>").replace("%x :", "%x {axis = 1 : i32} :")
    assert run(src, x)[0].tolist() == [[9, -2, 4], [-7, 3, 0]]
    src = """func.func @main(%x: tensor<2x3xi8>) -> tensor<2x6xi8> {
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %x, %m : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<2x6xi8>
  return %0 : tensor<2x6xi8>
}"""
    assert run(src, x)[0].tolist() == [[4, -2, 9, 4, -2, 9], [0, 3, -7, 0, 3, -7]]


SCATTER = """func.func @main(%v: tensor<1x4x1xi8>, %i: tensor<1x2xi32>, %x: tensor<1x2x1xi8>) -> tensor<1x4x1xi8> {
  %0 = tosa.scatter %v, %i, %x : (tensor<1x4x1xi8>, tensor<1x2xi32>, tensor<1x2x1xi8>) -> tensor<1x4x1xi8>
  return %0 : tensor<1x4x1xi8>
}"""


def test_scatter_writes_each_position_once() -> None:
    v = np.zeros((1, 4, 1), np.int8)
    x = np.array([[[5], [6]]], np.int8)
    (out,) = run(SCATTER, v, np.array([[3, 1]], np.int32), x)
    assert out.reshape(-1).tolist() == [0, 6, 0, 5]
    with pytest.raises(
        OpFailure, match=re.escape("'tosa.scatter' writes position 2 of batch 0 twice")
    ):
        run(SCATTER, v, np.array([[2, 2]], np.int32), x)
    with pytest.raises(OpFailure, match=re.escape("'tosa.scatter' index 4 is outside 0..3")):
        run(SCATTER, v, np.array([[4, 0]], np.int32), x)


def resize_program(mode: str, out: str) -> str:
    return f"""func.func @main(%x: tensor<1x2x2x1xi8>) -> tensor<1x3x3x1x{out}> {{
  %scale = tosa.const_shape {{values = dense<[2, 1, 2, 1]> : tensor<4xindex>}} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {{values = dense<0> : tensor<2xindex>}} : () -> !tosa.shape<2>
  %border = tosa.const_shape {{values = dense<0> : tensor<2xindex>}} : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %scale, %offset, %border {{mode = {mode}}} : (tensor<1x2x2x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x3x1x{out}>
  return %0 : tensor<1x3x3x1x{out}>
}}"""


def test_resize_bilinear_integer_is_the_unnormalized_weighted_sum() -> None:
    # scale 2/1: output (oy, ox) samples input (oy/2, ox/2); weights are in units of 1/2,
    # so the sum carries a factor 2 * 2 = 4: corners 4*x, edge midpoints 2*(a+b), centre a+b+c+d.
    x = np.array([10, 20, 30, 40], np.int8).reshape(1, 2, 2, 1)
    (out,) = run(resize_program("BILINEAR", "i32"), x)
    assert out[0, :, :, 0].tolist() == [[40, 60, 80], [80, 100, 120], [120, 140, 160]]


def test_resize_nearest_rounds_half_up() -> None:
    x = np.array([10, 20, 30, 40], np.int8).reshape(1, 2, 2, 1)
    (out,) = run(resize_program("NEAREST_NEIGHBOR", "i8"), x)
    assert out[0, :, :, 0].tolist() == [[10, 20, 20], [30, 40, 40], [30, 40, 40]]


def test_fft2d_and_rfft2d() -> None:
    src = """func.func @main(%r: tensor<1x2x2xf32>, %i: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
  %0, %1 = tosa.fft2d %r, %i {inverse = false} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>)
  return %0, %1 : tensor<1x2x2xf32>, tensor<1x2x2xf32>
}"""
    r = np.array([[[1, 2], [3, 4]]], np.float32)
    re, im = run(src, r, np.zeros_like(r))
    # X[y, x] = sum r[iy, ix] (-1)^(iy*y + ix*x)
    assert re[0].tolist() == [[10, -2], [-4, 0]]
    assert im[0].tolist() == [[0, 0], [0, 0]]
    inverse = src.replace("inverse = false", "inverse = true")
    back, _ = run(inverse, re, im)
    assert back[0].tolist() == [[4, 8], [12, 16]]  # the spec's inverse does not divide by H*W


def test_cond_if_and_while_loop() -> None:
    src = """func.func @main(%c: tensor<i1>, %a: tensor<i32>, %n: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<i32>) -> tensor<i32> {
    %1 = tosa.add %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %1 : tensor<i32>
  } else {
  ^bb0(%x: tensor<i32>):
    tosa.yield %x : tensor<i32>
  }
  %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %2 = tosa.while_loop (%i = %a) : (tensor<i32>) -> tensor<i32> {
    %3 = tosa.greater %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %3 : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %4 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %4 : tensor<i32>
  }
  return %0, %2 : tensor<i32>, tensor<i32>
}"""
    a, n = np.array(3, np.int32), np.array(7, np.int32)
    doubled, counted = run(src, np.array(True), a, n)
    assert (int(doubled), int(counted)) == (6, 7)
    kept, _ = run(src, np.array(False), a, n)
    assert int(kept) == 3


def test_variables_read_their_initial_value_and_writes() -> None:
    src = """module {
  tosa.variable @state = dense<[1, 2]> : tensor<2xi8>
  func.func @main(%x: tensor<2xi8>) -> (tensor<2xi8>, tensor<2xi8>) {
    %0 = tosa.variable_read @state : tensor<2xi8>
    tosa.variable_write @state, %x : tensor<2xi8>
    %1 = tosa.variable_read @state : tensor<2xi8>
    return %0, %1 : tensor<2xi8>, tensor<2xi8>
  }
}"""
    before, after = run(src, np.array([7, 8], np.int8))
    assert before.tolist() == [1, 2]
    assert after.tolist() == [7, 8]


def test_float_unary_ops() -> None:
    x = np.array([0.25, 1.0, 2.0, 4.0], np.float32)
    t = "tensor<4xf32>"
    assert np.allclose(run(unary("tosa.rsqrt", t), x)[0], [2, 1, 2**-0.5, 0.5])
    assert np.allclose(run(unary("tosa.reciprocal", t), x)[0], [4, 1, 0.5, 0.25])
    assert np.allclose(run(unary("tosa.sigmoid", t), np.zeros(4, np.float32))[0], 0.5)
    assert np.allclose(run(unary("tosa.erf", t), np.zeros(4, np.float32))[0], 0)
    assert run(unary("tosa.ceil", t), x - 0.5)[0].tolist() == [0, 1, 2, 4]
    assert run(unary("tosa.floor", t), x - 0.5)[0].tolist() == [-1, 0, 1, 3]
