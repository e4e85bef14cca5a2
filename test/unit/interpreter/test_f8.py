"""The 8-bit float types against a reference written from their definitions.

Each format is (exponent bits, mantissa bits, bias, kind): "ieee" has infinities and
NaNs in the top exponent, "fn" has no infinity and one NaN per sign (all ones), "fnuz"
has no infinity, no -0 and one NaN (0x80). The reference decodes every bit pattern and
rounds by brute force (nearest value, ties to the even pattern, overflow past the
rounding boundary above the largest value); the interpreter's `convert` (ml_dtypes
underneath) and the literal reader/printer must agree with it bit for bit.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.float_format import FLOAT_FORMATS, float_bits, float_from_bits, format_mlir_float
from qdialect.ir.parser import QParser

FORMATS = {
    "f8E5M2": (5, 2, 15, "ieee"),
    "f8E4M3": (4, 3, 7, "ieee"),
    "f8E3M4": (3, 4, 3, "ieee"),
    "f8E4M3FN": (4, 3, 7, "fn"),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz"),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz"),
    "f8E4M3B11FNUZ": (4, 3, 11, "fnuz"),
}


def decode(bits: int, ebits: int, mbits: int, bias: int, kind: str) -> float:
    sign = -1.0 if bits & 0x80 else 1.0
    e, m = (bits >> mbits) & ((1 << ebits) - 1), bits & ((1 << mbits) - 1)
    top = e == (1 << ebits) - 1
    if kind == "ieee" and top:
        return sign * math.inf if m == 0 else math.nan
    if kind == "fn" and top and m == (1 << mbits) - 1:
        return math.nan
    if kind == "fnuz" and bits == 0x80:
        return math.nan
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - mbits)
    return sign * (1 + m / 2**mbits) * 2.0 ** (e - bias)


def reference(x: float, name: str) -> int:
    """The bit pattern x (an f64) rounds to: nearest, ties to the even pattern."""
    ebits, mbits, bias, kind = FORMATS[name]
    table = {b: decode(b, ebits, mbits, bias, kind) for b in range(128)}
    finite = {b: v for b, v in table.items() if math.isfinite(v)}
    nan = 0x80 if kind == "fnuz" else 0x7F
    if math.isnan(x):
        return nan  # one of the NaN patterns
    negative = math.copysign(1.0, x) < 0
    sign = 0x80 if negative else 0
    top = max(finite, key=finite.__getitem__)
    largest = finite[top]
    ulp = largest - finite[top - 1]
    boundary = largest + ulp / 2
    if abs(x) > boundary or (abs(x) == boundary and top % 2 == 1):
        if kind == "ieee":
            return sign | (((1 << ebits) - 1) << mbits)
        return nan if kind == "fnuz" else sign | nan
    best = min(finite, key=lambda b: (abs(finite[b] - abs(x)), b % 2))
    if kind == "fnuz" and best == 0:
        return 0  # no -0
    return sign | best


def interesting_values(name: str) -> list[float]:
    """Every value, the midpoints between neighbours (ties), points just off them,
    the overflow boundary, infinities, NaN and signed zeros."""
    ebits, mbits, bias, kind = FORMATS[name]
    values = sorted(
        {decode(b, ebits, mbits, bias, kind) for b in range(128)} - {math.inf}, key=float
    )
    values = [v for v in values if math.isfinite(v)]
    out = list(values)
    for a, b in itertools.pairwise(values):
        mid = (a + b) / 2
        out += [mid, np.nextafter(mid, -np.inf), np.nextafter(mid, np.inf)]
    largest = values[-1]
    ulp = largest - values[-2]
    out += [largest + ulp / 2, largest + ulp, largest * 4, 1e30, math.inf, math.nan, 0.0]
    out += [values[1] / 4, values[1] / 2 * 1.0000001]  # below the smallest subnormal
    return [float(np.float32(v)) for v in out] + [-float(np.float32(v)) for v in out]


def convert(name: str, x: np.ndarray) -> np.ndarray:
    n = x.size
    src = (
        f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xui8> {{\n"
        f"  %0 = stablehlo.convert %x : (tensor<{n}xf32>) -> tensor<{n}x{name}>\n"
        f"  %1 = stablehlo.bitcast_convert %0 : (tensor<{n}x{name}>) -> tensor<{n}xui8>\n"
        f"  func.return %1 : tensor<{n}xui8>\n}}"
    )
    module = QParser(make_context(), src).parse_module()
    module.verify()
    return Interpreter(module).call("main", [x])[0]


@pytest.mark.parametrize("name", FORMATS)
def test_decoding_every_pattern(name: str) -> None:
    fmt = FLOAT_FORMATS[name]
    for bits in range(256):
        want = decode(bits, *FORMATS[name])
        got = float_from_bits(bits, fmt)
        assert (math.isnan(got) and math.isnan(want)) or (
            got == want and math.copysign(1, got) == math.copysign(1, want)
        ), (name, hex(bits), got, want)


@pytest.mark.parametrize("name", FORMATS)
def test_convert_from_f32_rounds_as_the_reference(name: str) -> None:
    xs = interesting_values(name)
    got = convert(name, np.array(xs, np.float32))
    want = [reference(x, name) for x in xs]
    # A NaN may come out as any NaN pattern (IEEE formats have several; the quiet one
    # keeps the top mantissa bit, as LLVM's APFloat does).
    bad = [
        (x, hex(g), hex(w))
        for x, g, w in zip(xs, got.tolist(), want, strict=True)
        if g != w and not (math.isnan(x) and math.isnan(decode(g, *FORMATS[name])))
    ]
    assert not bad, (name, bad[:5], len(bad))


@pytest.mark.parametrize("name", FORMATS)
def test_literals_read_and_print_every_value(name: str) -> None:
    """A decimal or hex literal reads as the reference rounds it; each value prints as
    text that reads back to the same bits (NaN as its hex pattern)."""
    fmt = FLOAT_FORMATS[name]
    for bits in range(256):
        value = float_from_bits(bits, fmt)
        text = format_mlir_float(value, fmt)
        if math.isnan(value):
            assert text.startswith("0x"), (name, hex(bits), text)
            continue
        if text.startswith("0x"):
            back = int(text, 16)
        else:
            back = float_bits(float(text), fmt)
        assert back == bits or (value == 0 and float_from_bits(back, fmt) == 0), (
            name,
            hex(bits),
            text,
        )


def test_known_values() -> None:
    """Hand-checked: 0.1 is 0x1D (1.625 * 2^-4 = 0.1015625) in E4M3FN; 1000 overflows to
    NaN there and to inf in E5M2 (whose 0x7B = 57344 is the largest value); E4M3FN's
    largest is 448, and 464 - halfway to the next pattern, which is NaN - rounds back
    to it (ties to the even pattern 0x7E)."""
    got = convert("f8E4M3FN", np.array([0.1, 1000.0, 448.0, 464.0], np.float32))
    assert got.tolist() == [0x1D, 0x7F, 0x7E, 0x7E]
    got = convert("f8E5M2", np.array([1e6, 57344.0, -1e6], np.float32))
    assert got.tolist() == [0x7C, 0x7B, 0xFC]
