"""Float storage types (f8E5M2, f8E4M3FN, f4E2M1FN) in `!quant.uniform`: the type's
accessors, the interpreter's quantize/dequantize against the formula computed here with
numpy and ml_dtypes directly, and stablehlo-legalize-quant-to-math against the interpreter
(bit for bit, NaN, infinities, signed zeros and rounding ties included)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import Float8E4M3FNType, Float32Type

from qdialect.context import make_context
from qdialect.dialects.quant import UniformQuantizedType
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.transforms.legalize_quant_to_math import LegalizeQuantToMath

FORMATS = {
    "f8E5M2": (ml_dtypes.float8_e5m2, 57344),
    "f8E4M3FN": (ml_dtypes.float8_e4m3fn, 448),
    "f4E2M1FN": (ml_dtypes.float4_e2m1fn, 6),
}

INPUTS = np.array(
    [1.3, -2.77, 0.0, -0.0, np.nan, np.inf, -np.inf, 1e30, 0.375, 0.625, 3.1, -5.9], np.float32
)


def test_accessors_and_default_range() -> None:
    t = UniformQuantizedType.get(8, Float32Type(), 0.5, 3, float_storage="f8E4M3FN")
    assert t.float_storage_name == "f8E4M3FN"
    assert t.storage_type == Float8E4M3FNType()
    assert (t.storage_min, t.storage_max) == (-448, 448)
    assert not t.has_narrow_range
    assert str(t) == "!quant.uniform<f8E4M3FN:f32, 5.000000e-01:3>"
    with pytest.raises(ValueError, match="4 bits wide, not 8"):
        UniformQuantizedType.get(8, Float32Type(), 0.5, float_storage="f4E2M1FN")


def _program(storage: str, scale: float, zp: int, lo: int | None, hi: int | None) -> str:
    rng = f"<{lo}:{hi}>" if lo is not None else ""
    q = f"tensor<12x!quant.uniform<{storage}{rng}:f32, {scale!r}:{zp}>>"
    return f"""
func.func @main(%x: tensor<12xf32>) -> (tensor<12xf32>, {q}) {{
  %0 = quant.qcast %x : tensor<12xf32> to {q}
  %1 = quant.dcast %0 : {q} to tensor<12xf32>
  return %1, %0 : tensor<12xf32>, {q}
}}
"""


def _run(src: str, lower: bool) -> list[np.ndarray]:
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    module.verify()
    if lower:
        LegalizeQuantToMath().apply(ctx, module)
        module.verify()
    return Interpreter(module).call("main", [INPUTS])


CASES = [
    ("f8E4M3FN", 0.5, 0, None, None),
    ("f8E4M3FN", 0.25, 3, -100, 448),
    ("f8E5M2", 0.5, -2, None, None),
    ("f8E5M2", 1.0, 0, -1000, 1000),
    ("f4E2M1FN", 0.5, 0, None, None),
    ("f4E2M1FN", 0.25, 1, -4, 6),
]


@pytest.mark.parametrize(("storage", "scale", "zp", "lo", "hi"), CASES)
def test_interpreter_matches_the_formula(
    storage: str, scale: float, zp: int, lo: int | None, hi: int | None
) -> None:
    dtype, largest = FORMATS[storage]
    lo_, hi_ = (-largest, largest) if lo is None else (lo, hi)
    with np.errstate(invalid="ignore", over="ignore"):
        y = INPUTS / np.float32(scale) + np.float32(zp)
        y = np.clip(y, np.float32(lo_), np.float32(hi_))
    if storage == "f4E2M1FN":  # no NaN encoding: NaN is stored as 0
        y = np.where(np.isnan(y), np.float32(0), y)
    want_q = y.astype(dtype)
    want_real = (want_q.astype(np.float32) - np.float32(zp)) * np.float32(scale)
    real, q = _run(_program(storage, scale, zp, lo, hi), lower=False)
    assert q.dtype == np.dtype(dtype)
    assert np.array_equal(q.view(np.uint8), want_q.view(np.uint8))
    assert np.array_equal(real.view(np.uint32), want_real.view(np.uint32))


@pytest.mark.parametrize(("storage", "scale", "zp", "lo", "hi"), CASES)
def test_lowering_matches_the_interpreter(
    storage: str, scale: float, zp: int, lo: int | None, hi: int | None
) -> None:
    src = _program(storage, scale, zp, lo, hi)
    (real, q), (real_low, q_low) = _run(src, lower=False), _run(src, lower=True)
    assert np.array_equal(q.view(np.uint8), q_low.view(np.uint8))
    assert np.array_equal(real.view(np.uint32), real_low.view(np.uint32))
