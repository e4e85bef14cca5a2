"""TFLite's reference int8 SOFTMAX as an exact TOSA program.

TFLite's kernel (the gemmlowp scheme) works per row of the last axis:

1. d = x - max(row), an integer in [-255, 0]; rows entries with d below `diff_min`
   count as exp = 0;
2. exp(beta * s_in * d) as a Q0.31 value: d times a multiplier (Q5.26), then
   gemmlowp's `exp_on_negative_values`;
3. the row sum of those exponentials, each rounded to Q12.19;
4. the reciprocal of the sum: normalised by its leading zeros into [1, 2), then
   three Newton-Raphson steps in Q2.29 starting from 48/17 - 32/17 x;
5. each output round(reciprocal * exp / 2^(35 - leading zeros)) - 128.

Steps 2-3 depend on d alone, so they become two 256-entry int32 tables read with
`tosa.gather`; steps 4-5 are TOSA integer arithmetic: `tosa.mul` with shift 31 is
gemmlowp's rounding doubling high multiply for every operand pair that occurs here
(both round half up after adding the product's nudge), `tosa.clz` and
`tosa.logical_left_shift` normalise, `tosa.arithmetic_right_shift` with round is
gemmlowp's rounding divide for the non-negative values it sees.

One deliberate difference: when a row's sum reaches 2^28 (at least 512 entries tied
at the maximum), TFLite's final shift exceeds 31 and its reference kernel stops on
a gemmlowp assertion; this program gives the exact rounding there, 0 (the output
zero point). docs/tflite.md records it.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import BoolAttr

from qdialect import numerics
from qdialect.importers import fixed_point as fp
from qdialect.importers.emitter import Emitter, Value

SCALED_DIFF_INTEGER_BITS = 5  # exp's input format: Q5.26
ACCUMULATION_INTEGER_BITS = 12  # the row sum's format: Q12.19
MAX_DEPTH = (1 << (31 - 19)) - 1  # 4095 entries of at most 2^19 keep the Q12.19 sum in int32
_FORTY_EIGHT_SEVENTEENTHS = 1515870810  # 48/17 in Q2.29
_MINUS_THIRTY_TWO_SEVENTEENTHS = -1010580540  # -32/17 in Q2.29


class SoftmaxError(ValueError):
    """Softmax parameters TFLite's int8 kernel does not accept."""


def softmax_parameters(beta: float, input_scale: float) -> tuple[int, int, int]:
    """PreprocessSoftmaxScaling and CalculateInputRadius: the multiplier and left shift that
    turn an integer difference into Q5.26 exp input, and the smallest difference kept."""
    real = min(beta * input_scale * float(1 << (31 - SCALED_DIFF_INTEGER_BITS)), (1 << 31) - 1.0)
    if not real > 1.0:  # QuantizeMultiplierGreaterThanOne's precondition
        raise SoftmaxError(f"beta * input scale = {beta * input_scale!r} is too small")
    multiplier, exponent = numerics.frexp_multiplier(real)  # TFLite's QuantizeMultiplier
    if exponent > 30:  # ... which saturates a left shift above 30
        multiplier, exponent = (1 << 31) - 1, 30
    radius = math.floor(
        ((1 << SCALED_DIFF_INTEGER_BITS) - 1)
        * float(1 << (31 - SCALED_DIFF_INTEGER_BITS))
        / float(1 << exponent)
    )
    return multiplier, exponent, -radius


def exp_tables(beta: float, input_scale: float) -> tuple[np.ndarray, np.ndarray]:
    """For d = -255..0 (index d + 255): exp(beta s_in d) in Q0.31, and the same rounded to
    the Q12.19 the row sum accumulates; both 0 below diff_min."""
    multiplier, left_shift, diff_min = softmax_parameters(beta, input_scale)
    d = np.arange(-255, 1, dtype=np.int64)
    kept = d >= diff_min
    scaled = fp.rounding_doubling_high_mul(np.where(kept, d, 0) << left_shift, multiplier)
    exps = np.where(kept, fp.exp_on_negative_values(scaled, SCALED_DIFF_INTEGER_BITS), 0)
    return exps, fp.rounding_divide_by_pot(exps, ACCUMULATION_INTEGER_BITS)


class _Program:
    """Emits the softmax's TOSA ops through the importer's emitter, sharing constants."""

    def __init__(self, e: Emitter) -> None:
        self.e = e
        self.consts: dict[tuple[int, str], Value] = {}

    def const(self, value: int, elem: str = "i32") -> Value:
        """A rank-2 i32 constant (broadcasts against rows), or a tensor<1xi8> shift."""
        key = (value, elem)
        if key not in self.consts:
            shape = (1, 1) if elem == "i32" else (1,)
            self.consts[key] = self.e.tosa_const(np.full(shape, value), elem)
        return self.consts[key]

    def op(self, name: str, operands: list[Value], shape: tuple[int, ...], elem: str = "i32",
           **props) -> Value:  # fmt: skip
        return self.e.tosa(name, operands, shape, elem, **props)

    def mul(self, a: Value, b: Value, shape: tuple[int, ...], shift: int) -> Value:
        """`tosa.mul`; with shift 31 it is the rounding doubling high multiply."""
        return self.op("mul", [a, b, self.const(shift, "i8")], shape)

    def reshape(self, x: Value, shape: tuple[int, ...]) -> Value:
        return self.e.tosa_reshape(x, shape)


def emit_softmax(e: Emitter, x: Value, rows: int, depth: int, beta: float, scale: float) -> Value:
    """TOSA ops computing TFLite's int8 softmax of `x` (tensor<rows x depth x i8>) along
    its last axis; returns the int8 result (output scale 1/256, zero point -128)."""
    if depth > MAX_DEPTH:
        raise SoftmaxError(
            f"a row of {depth} entries can overflow TFLite's Q12.19 sum (at most {MAX_DEPTH})"
        )
    exps, terms = exp_tables(beta, scale)
    p = _Program(e)
    row, grid, flat = (rows, 1), (rows, depth), (1, rows * depth)
    k = p.const

    # 1. differences from the row maximum, as gather indices 0..255
    top = e.tosa_axis("reduce_max", x, 1)
    diff = p.op("sub", [p.op("cast", [x], grid), p.op("cast", [top], row)], grid)
    index = p.reshape(p.op("add", [diff, k(255)], grid), flat)

    # 2-3. the exponentials and their Q12.19 row sum, by table
    def lookup(table: np.ndarray) -> Value:
        values = e.tosa_const(table.reshape(1, 256, 1), "i32")
        return p.reshape(p.op("gather", [values, index], (*flat, 1)), grid)

    exp = lookup(exps)
    total = e.tosa_axis("reduce_sum", lookup(terms), 1)

    # 4. reciprocal: the sum shifted into [2^30, 2^31) is half the denominator in Q0.31
    zeros = p.op("clz", [total], row)
    half = p.op("logical_left_shift", [total, p.op("sub", [zeros, k(1)], row)], row)
    estimate = p.op(
        "add", [p.mul(half, k(_MINUS_THIRTY_TWO_SEVENTEENTHS), row, 31), k(_FORTY_EIGHT_SEVENTEENTHS)],
        row,
    )  # fmt: skip
    for _ in range(3):  # x += x (1 - half x); the Q4.27 product back to Q2.29 is * 4
        error = p.op("sub", [k(1 << 29), p.mul(half, estimate, row, 31)], row)
        step = p.mul(p.mul(estimate, error, row, 31), k(4), row, 0)
        estimate = p.op("add", [estimate, step], row)
    # The Q2.29 estimate halved is Q1.30 with the same raw value; to Q0.31 is a saturating
    # doubling: twice min(x, 2^30 - 1), plus one when x reached 2^30 (x is positive).
    limit = k((1 << 30) - 1)
    reached = e.tosa_clamp(p.op("sub", [estimate, limit], row), 0, 1)
    doubled = p.mul(p.op("minimum", [estimate, limit], row), k(2), row, 0)
    reciprocal = p.op("add", [doubled, reached], row)

    # 5. reciprocal * exp / 2^(35 - zeros), rounding half up; 0 once the divisor reaches 2^32
    product = p.mul(reciprocal, exp, grid, 31)
    amount = p.op("minimum", [p.op("sub", [k(35), zeros], row), k(31)], row)
    quotient = p.op("arithmetic_right_shift", [product, amount], grid,
                    round=BoolAttr.from_bool(True))  # fmt: skip
    small = e.tosa_clamp(p.op("sub", [zeros, k(3)], row), 0, 1)
    quotient = p.mul(quotient, small, grid, 0)
    shifted = p.op("add", [quotient, k(-128)], grid)
    bounded = e.tosa_clamp(shifted, -128, 127)
    return p.op("cast", [bounded], grid, "i8")
