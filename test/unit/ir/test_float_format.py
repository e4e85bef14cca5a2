"""MLIR's f64 printing, reproduced bit for bit.

Expected strings were produced by upstream MLIR (iree-opt 3.13) for the same
inputs; `test_matches_upstream_mlir_on_random_doubles` re-derives them live
when `iree-opt` (the `oracle` extra) is installed.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qdialect.ir.float_format import (
    FLOAT_FORMATS,
    _reads_back,
    double_bits,
    double_from_bits,
    float_bits,
    format_mlir_double,
    format_mlir_float,
    round_to_format,
)

UPSTREAM = [
    (0.2, "2.000000e-01"),
    (0.99872, "9.987200e-01"),
    (3.0, "3.000000e+00"),
    (0.015625, "1.562500e-02"),
    (1.1e-7, "1.100000e-07"),
    (1e22, "1.000000e+22"),
    (3e38, "3.000000e+38"),
    (1e-300, "1.000000e-300"),
    (2.5e-310, "2.500000e-310"),
    (1e-320, "9.999880e-321"),  # subnormal: six digits happen to round-trip
    (0.0078431372549019607, "0.0078431372549019607"),
    (0.3333333333333333, "0.33333333333333331"),
    (123456.7, "123456.7"),
    (1234567.8, "1234567.8"),
    (0.000123456789, "1.23456789E-4"),
    (3.0517578125e-05, "3.0517578125E-5"),
    # APFloat truncates the binary expansion before rounding to six digits, so
    # "1.000000e-44" is never produced and the long form is used instead.
    (1e-44, "9.9999999999999995E-45"),
    (1e-40, "9.9999999999999992E-41"),
    (1e-38, "9.9999999999999996E-39"),
    # No '.' in the long form: the bits are printed in hex.
    (12345678.0, "0x41678C29C0000000"),
    (1234567.0, "0x4132D68700000000"),
    (double_from_bits(0x41646ABBA0000000), "0x41646ABBA0000000"),
]


@pytest.mark.parametrize(("value", "text"), UPSTREAM)
def test_known_upstream_output(value: float, text: str) -> None:
    assert format_mlir_double(value) == text


def _parse_back(text: str) -> float:
    return double_from_bits(int(text, 16)) if text.startswith("0x") else float(text)


@given(st.floats(min_value=5e-324, max_value=1.7e308, allow_nan=False))
def test_printed_text_round_trips(value: float) -> None:
    assert double_bits(_parse_back(format_mlir_double(value))) == double_bits(value)


def _random_doubles(count: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    values: list[float] = []
    for i in range(count):
        if i % 3 == 0:  # arbitrary bit patterns of positive finite doubles
            bits = rng.getrandbits(63)
            value = double_from_bits(bits)
            if value == 0.0 or value != value or value == float("inf"):
                continue
        elif i % 3 == 1:  # log-uniform magnitudes
            value = 10.0 ** rng.uniform(-45, 38)
        else:  # short decimals, as people write scales
            value = round(rng.uniform(0.0001, 10.0), rng.randint(1, 8)) or 0.5
        values.append(value)
    return values


@pytest.mark.skipif(
    shutil.which("iree-opt") is None,
    reason="iree-opt not installed (pip install 'qdialect[oracle]')",
)
def test_matches_upstream_mlir_on_random_doubles(tmp_path) -> None:
    values = _random_doubles(600, seed=7)
    lines = [
        f"func.func private @s{i}(!quant.uniform<i8:f64, 0x{double_bits(v):016X}>)"
        for i, v in enumerate(values)
    ]
    src = tmp_path / "scales.mlir"
    src.write_text("\n".join(lines) + "\n")
    out = subprocess.run(["iree-opt", str(src)], capture_output=True, text=True, check=True).stdout
    printed = re.findall(r"!quant\.uniform<i8:f64, ([^>]+)>", out)
    assert len(printed) == len(values)
    ours = [format_mlir_double(v) for v in values]
    mismatches = [(v, a, b) for v, a, b in zip(values, printed, ours, strict=True) if a != b]
    assert mismatches == []


@pytest.mark.parametrize(
    ("fmt", "value", "text"),
    [
        ("f32", float.fromhex("0x1.921fb6p+1"), "3.14159274"),
        ("f32", 4286578688.0, "4.28657869E+9"),
        ("f32", float("-inf"), "0xFF800000"),
        ("f16", float.fromhex("0x1.998p-4"), "9.997550e-02"),
        ("f16", 65504.0, "6.550400e+04"),
        ("bf16", float.fromhex("0x1.9ap-4"), "1.000980e-01"),
        # MLIR keeps the sign of zero in decimal, at every width
        ("f32", -0.0, "-0.000000e+00"),
        ("f64", -0.0, "-0.000000e+00"),
        ("bf16", -0.0, "-0.000000e+00"),
        ("f8E5M2", -0.0, "-0.000000e+00"),
        ("f8E4M3FN", 0.0, "0.000000e+00"),
    ],
)
def test_known_upstream_output_narrow_formats(fmt: str, value: float, text: str) -> None:
    assert format_mlir_float(value, fmt) == text


@pytest.mark.skipif(
    shutil.which("iree-opt") is None,
    reason="iree-opt not installed (pip install 'qdialect[oracle]')",
)
@pytest.mark.parametrize("fmt", ["f16", "bf16", "f32", "f8E5M2", "f8E4M3FN"])
def test_dense_floats_match_upstream_mlir(tmp_path, fmt: str) -> None:
    """qopt prints dense float elements as upstream does, on both zeros and random bit patterns."""
    from qdialect.ir.float_format import float_from_bits

    spec = FLOAT_FORMATS[fmt]
    rng = random.Random(11)
    values = [-0.0, 0.0]
    while len(values) < 300:
        v = float_from_bits(rng.getrandbits(spec.width), spec)
        if v == v and abs(v) != float("inf"):
            values.append(v)
    # MLIR prints attributes of more than 100 elements as one hex blob: stay below.
    chunks = [values[i : i + 50] for i in range(0, len(values), 50)]
    lines = []
    for n, chunk in enumerate(chunks):
        items = ", ".join(f"0x{float_bits(v, spec):0{spec.width // 4}X}" for v in chunk)
        lines.append(
            f"func.func private @f{n}() attributes {{v = dense<[{items}]> : tensor<{len(chunk)}x{fmt}>}}"
        )
    src = tmp_path / "dense.mlir"
    src.write_text("\n".join(lines) + "\n")
    upstream = subprocess.run(
        ["iree-opt", str(src)], capture_output=True, text=True, check=True
    ).stdout
    ours = subprocess.run(["qopt", str(src)], capture_output=True, text=True, check=True).stdout
    pick = re.compile(r"dense<\[([^\]]*)\]>")
    assert pick.findall(ours) == pick.findall(upstream)
    assert len(pick.findall(ours)) == len(chunks)


def _exact_reads_back(text: str, value: float, fmt: str) -> bool:
    return round_to_format(Fraction(text), FLOAT_FORMATS[fmt]) == Fraction(value)


@pytest.mark.parametrize(
    "text, value",
    [
        ("1.000000059604644775390625", 1.0),  # exactly between 1 and 1 + 2^-23: ties to even
        ("1.0000000596046447753906251", 1.0 + 2.0**-23),  # above it, but f64 rounds onto it
        ("1.0000000596046447753906249", 1.0),  # below it, f64 rounds onto it too
        ("3.4028235e38", 3.4028234663852886e38),  # the largest f32
        ("1e-46", 0.0),
    ],
)
def test_f32_read_back_is_exact_where_f64_rounding_lands_on_a_tie(text: str, value: float) -> None:
    """The fast read-back check (through f64) defers to rational arithmetic exactly when
    f64 rounding lands between two f32 values, so it never double-rounds."""
    assert _exact_reads_back(text, value, "f32")
    assert _reads_back(text, value, FLOAT_FORMATS["f32"])


@given(st.floats(width=32, allow_nan=False, allow_infinity=False), st.integers(0, 9))
def test_fast_read_back_agrees_with_rational_arithmetic(value: float, digits: int) -> None:
    for fmt in ("f32", "f64"):
        text = f"{value:.{digits}e}"
        assert _reads_back(text, value, FLOAT_FORMATS[fmt]) == _exact_reads_back(text, value, fmt)
