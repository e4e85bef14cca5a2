"""TOSA canonicalizations change no bit: random rescale chains, clamps and
constant reshapes/transposes run before and after `canonicalize`."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.interpreter import Interpreter, OpFailure
from qdialect.ir.parser import QParser

WIDTHS = {"i8": 8, "i16": 16, "i32": 32}


def const(name: str, value: int, t: str) -> str:
    return f"  %{name} = tosa.const values(dense<{value}> : {t}) : () -> {t}\n"


def rescale(name, x, in_t, out_t, m, s, izp, ozp, mode="SINGLE_ROUND", iu=False, ou=False) -> str:
    return (
        const(f"{name}_m", m, "tensor<1xi32>")
        + const(f"{name}_s", s, "tensor<1xi8>")
        + const(f"{name}_izp", izp, f"tensor<1x{in_t}>")
        + const(f"{name}_ozp", ozp, f"tensor<1x{out_t}>")
        + f"  %{name} = tosa.rescale %{x}, %{name}_m, %{name}_s, %{name}_izp, %{name}_ozp scale32(true) "
        f"rounding_mode<{mode}> per_channel(false) input_unsigned({str(iu).lower()}) output_unsigned({str(ou).lower()}) : "
        f"(tensor<8x{in_t}>, tensor<1xi32>, tensor<1xi8>, tensor<1x{in_t}>, tensor<1x{out_t}>) -> tensor<8x{out_t}>\n"
    )


def zp(draw, t: str) -> int:
    return draw(st.integers(-128, 127)) if t == "i8" else 0


@st.composite
def chains(draw):
    a, mid, out = (draw(st.sampled_from(list(WIDTHS))) for _ in range(3))
    unit = draw(st.booleans())
    s1 = draw(st.integers(2, 30))
    m1 = (1 << s1) if unit else draw(st.integers(1, (1 << 31) - 1))
    z1, z1out = zp(draw, a), (0 if draw(st.booleans()) else zp(draw, mid))
    m2, s2 = draw(st.integers(1, (1 << 31) - 1)), draw(st.integers(2, 62))
    mode = draw(st.sampled_from(["SINGLE_ROUND", "DOUBLE_ROUND"]))
    iu = a == "i8" and mid != "i32" and draw(st.booleans())  # u8 -> i32: a spec ERROR_IF
    body = rescale("r1", "x", a, mid, m1, s1, z1, z1out, iu=iu)
    body += rescale(
        "r2", "r1", mid, out, m2, s2, 0 if mid != "i8" else zp(draw, mid), zp(draw, out), mode
    )
    lo, hi = -(1 << (WIDTHS[a] - 1)), (1 << (WIDTHS[a] - 1)) - 1
    x = draw(st.lists(st.integers(lo, hi), min_size=8, max_size=8))
    src = f"func.func @main(%x: tensor<8x{a}>) -> tensor<8x{out}> {{\n{body}  func.return %r2 : tensor<8x{out}>\n}}"
    return src, np.array(x, np.int64)


def run(src: str, x: np.ndarray, canonicalize: bool) -> np.ndarray:
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    if canonicalize:
        CanonicalizePass().apply(ctx, module)
    module.verify()
    return Interpreter(module).call("main", [x])[0]


@settings(max_examples=200, deadline=None)
@given(chains())
def test_rescale_chains_keep_every_bit(chain) -> None:
    src, x = chain
    try:
        expected = run(src, x, False)
    except OpFailure:
        assume(False)  # a spec REQUIRE fails: nothing to preserve
    assert np.array_equal(run(src, x, True), expected)


def test_constant_folds_match_numpy() -> None:
    k = np.arange(24, dtype=np.int8).reshape(2, 3, 4) - 12
    dense = str(k.tolist())
    src = (
        "func.func @main() -> (tensor<4x6xi8>, tensor<4x2x3xi8>) {\n"
        f"  %k = tosa.const values(dense<{dense}> : tensor<2x3x4xi8>) : () -> tensor<2x3x4xi8>\n"
        "  %s = tosa.const_shape values(dense<[4, 6]> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
        "  %r = tosa.reshape %k, %s : (tensor<2x3x4xi8>, !tosa.shape<2>) -> tensor<4x6xi8>\n"
        "  %t = tosa.transpose %k perms([2, 0, 1]) : (tensor<2x3x4xi8>) -> tensor<4x2x3xi8>\n"
        "  func.return %r, %t : tensor<4x6xi8>, tensor<4x2x3xi8>\n}"
    )
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    CanonicalizePass().apply(ctx, module)
    names = [op.name for op in module.walk()]
    assert "tosa.reshape" not in names and "tosa.transpose" not in names
    r, t = Interpreter(module).call("main", [])
    np.testing.assert_array_equal(r, k.reshape(4, 6))
    np.testing.assert_array_equal(t, np.transpose(k, (2, 0, 1)))
