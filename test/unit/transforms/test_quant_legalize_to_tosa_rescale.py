"""`stablehlo-quant-legalize-to-tosa-rescale` against the spec's float semantics.

The reference is the interpreter on the original program: each quantized op
means dequantize -> float op -> quantize (the StableHLO spec). The fixed-point
form may differ by one storage unit (two roundings instead of one); compare
may differ only where the two real values are closer than the i32 grid's
resolution. `tosa-rescale-legalize-to-stablehlo` afterwards must not change a
single bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.errors import OpError
from qdialect.ir.parser import QParser
from qdialect.transforms.quant_legalize_to_tosa_rescale import (
    GRID_SHIFT,
    QuantLegalizeToTosaRescale,
)
from qdialect.transforms.tosa_rescale_legalize_to_stablehlo import TosaRescaleLegalizeToStablehlo

BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]
UNARY = ["abs", "negate"]


def parse(src: str):
    module = QParser(make_context(), src).parse_module()
    module.verify()
    return module


def run(module, *args: np.ndarray) -> np.ndarray:
    return Interpreter(module).call("main", list(args))[0]


def apply(src: str, *passes):
    module = parse(src)
    for p in passes:
        p.apply(make_context(), module)
    module.verify()
    return module


def qtype(scale: float, zp: int, bits: int) -> str:
    return f"!quant.uniform<i{bits}:f32, {scale!r}:{zp}>"


scales = st.floats(1e-3, 1.0).map(lambda s: float(np.float32(s)))


@st.composite
def cases(draw):
    bits = draw(st.sampled_from([8, 16]))
    zps = (lambda: draw(st.integers(-128, 127))) if bits == 8 else (lambda: 0)
    op = draw(st.sampled_from(BINARY + UNARY + ["compare"] + (["divide"] if bits == 8 else [])))
    a, b, o = (qtype(draw(scales), zps(), bits) for _ in range(3))
    rounding = draw(st.sampled_from(["double", "single"]))
    seed = draw(st.integers(0, 2**31))
    return bits, op, a, b, o, rounding, seed


def program(op: str, a: str, b: str, o: str, n: int) -> str:
    ta, tb, to = f"tensor<{n}x{a}>", f"tensor<{n}x{b}>", f"tensor<{n}x{o}>"
    if op in UNARY:
        body, sig, res = f"stablehlo.{op} %x : ({ta}) -> {to}", f"%x: {ta}", to
    elif op == "compare":
        res = f"tensor<{n}xi1>"
        body, sig = f"stablehlo.compare LT, %x, %y : ({ta}, {tb}) -> {res}", f"%x: {ta}, %y: {tb}"
    else:
        body, sig, res = f"stablehlo.{op} %x, %y : ({ta}, {tb}) -> {to}", f"%x: {ta}, %y: {tb}", to
    return f"func.func @main({sig}) -> {res} {{\n  %0 = {body}\n  func.return %0 : {res}\n}}"


def _scale_zp(t: str) -> tuple[float, int]:
    inner = t.split(", ")[1].rstrip(">")
    s, z = inner.split(":")
    return float(s), int(z)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_fixed_point_is_within_one_unit_and_stablehlo_form_is_bit_exact(case) -> None:
    bits, op, a, b, o, rounding, seed = case
    n = 64
    src = program(op, a, b, o, n)
    rng = np.random.default_rng(seed)
    dtype = np.int8 if bits == 8 else np.int16
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    y = rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    x[:2], y[:2] = info.min, info.max  # the extremes, always
    args = (x,) if op in UNARY else (x, y)
    try:
        tosa_form = apply(src, QuantLegalizeToTosaRescale(rounding=rounding))
    except OpError as err:  # a scale ratio outside the 32-bit multiplier's range
        assert "needs a rescale by" in str(err)
        return
    reference = run(parse(src), *args)
    got = run(tosa_form, *args)
    integer_form = apply(
        src, QuantLegalizeToTosaRescale(rounding=rounding), TosaRescaleLegalizeToStablehlo()
    )
    assert np.array_equal(run(integer_form, *args), got)
    if op == "compare":
        (sa, za), (sb, zb) = _scale_zp(a), _scale_zp(b)
        real_a = (x.astype(np.float64) - za) * sa
        real_b = (y.astype(np.float64) - zb) * sb
        resolution = 2 * max(sa, sb) / (1 << GRID_SHIFT[bits])
        differs = got != reference
        assert np.all(np.abs(real_a - real_b)[differs] <= resolution)
    else:
        diff = np.abs(got.astype(np.int64) - reference.astype(np.int64))
        assert diff.max() <= 1, (src, x, y, got, reference)


def test_rewrites_to_rescale_i32_op_rescale() -> None:
    q = qtype(0.05, -3, 8)
    module = apply(program("add", q, q, qtype(0.1, 2, 8), 4), QuantLegalizeToTosaRescale())
    names = [op.name for op in module.walk()]
    assert names.count("tosa.rescale") == 3
    assert "stablehlo.add" in names
    adds = [op for op in module.walk() if op.name == "stablehlo.add"]
    assert str(adds[0].results[0].type) == "tensor<4xi32>"


@pytest.mark.parametrize(
    "op, a, b",
    [
        ("divide", qtype(0.1, 0, 16), qtype(0.1, 0, 16)),  # no i32 headroom for the dividend
        ("add", "!quant.uniform<u8:f32, 0.1:3>", "!quant.uniform<u8:f32, 0.1:3>"),  # unsigned
        ("add", qtype(0.1, 5, 16), qtype(0.1, 5, 16)),  # 16-bit with a zero point
        ("add", "!quant.uniform<i32:f32, 0.1>", "!quant.uniform<i32:f32, 0.1>"),  # too wide
    ],
)
def test_must_not_fire(op: str, a: str, b: str) -> None:
    src = program(op, a, b, a, 4)
    module = apply(src, QuantLegalizeToTosaRescale())
    assert not any(o.name.startswith("tosa.") for o in module.walk())


def test_bad_rounding_option() -> None:
    with pytest.raises(ValueError, match="rounding must be"):
        QuantLegalizeToTosaRescale(rounding="nearest")


def test_divide_fires_and_handles_zero_divisors() -> None:
    a, b, o = qtype(0.05, -3, 8), qtype(0.1, 4, 8), qtype(0.02, 1, 8)
    src = program("divide", a, b, o, 256)
    x = np.arange(-128, 128, dtype=np.int8)
    y = np.roll(x, 37)
    y[::16] = 4  # the divisor's zero point: real 0 -> +inf, -inf and (at x = -3) NaN
    x[0] = -3
    module = apply(src, QuantLegalizeToTosaRescale())
    assert "stablehlo.divide" in {op.name for op in module.walk()}  # now on i32
    assert "tosa.rescale" in {op.name for op in module.walk()}
    got, want = run(module, x, y), run(parse(src), x, y)
    assert np.abs(got.astype(np.int64) - want.astype(np.int64)).max() <= 1
    zero = y == 4
    np.testing.assert_array_equal(got[zero], want[zero])  # saturation and NaN -> storage 0
