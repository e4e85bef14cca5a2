"""Semantics of the `check` dialect (and the `custom_call @check.*` form).

Each check returns None when it holds, else a one-line message; the
interpreter records failures against the function being run.

* expect_eq / expect_eq_const: exact equality (bitwise for floats, so -0 != +0,
  and NaN equals NaN); expect_eq on quantized operands compares storage integers
  (both operands have one type, so one scale).
* expect_almost_eq / _const: |a - b| <= tol * max(1, |b|) elementwise (absolute
  near zero, relative elsewhere); NaN equals NaN; default tol 1e-4.
* expect_close: min_ulp <= ULP distance <= max_ulp; non-finite values must be
  bitwise equal (any two NaNs are equal).
* `stablehlo.custom_call @check.*` (StableHLO's testdata form) uses the rules and
  tolerances of upstream's `stablehlo-translate --interpret`, so a file passes here
  exactly when it passes there: `@check.eq` is exact for integer (and boolean)
  values and within 1e-4 absolute for floats, `@check.expect_almost_eq` within
  1e-3 absolute, `@check.expect_close` within 3 ULP. Its results (i1 tensors, as
  JAX writes them) hold whether the check passed.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute

from qdialect.dialects import check
from qdialect.dialects.check import DEFAULT_TOLERANCE, tolerance_of
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements


def _where(mask: np.ndarray, actual: np.ndarray, expected: np.ndarray) -> str:
    bad = np.argwhere(mask)
    count = len(bad)
    first = tuple(int(i) for i in bad[0]) if actual.ndim else ()
    a = actual[first] if actual.ndim else actual
    e = expected[first] if expected.ndim else expected
    return f"{count} of {actual.size} elements differ; first at index {list(first)}: got {a}, expected {e}"


def _is_float(x: np.ndarray) -> bool:
    return v.is_float_dtype(x.dtype)


def _as_compared(x: np.ndarray) -> np.ndarray:
    return x.view(np.dtype(f"u{x.dtype.itemsize}")) if _is_float(x) else x


def expect_eq(actual: np.ndarray, expected: np.ndarray, t: Attribute | None = None) -> str | None:
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)} differs from expected {list(expected.shape)}"
    if _is_float(actual):
        same = (_as_compared(actual) == _as_compared(expected.astype(actual.dtype))) | (
            np.isnan(actual) & np.isnan(expected)
        )
    else:
        same = actual == expected
    return None if bool(np.all(same)) else _where(~same, actual, expected)


def expect_almost_eq(
    actual: np.ndarray,
    expected: np.ndarray,
    tol: float = DEFAULT_TOLERANCE,
    t: Attribute | None = None,
) -> str | None:
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)} differs from expected {list(expected.shape)}"
    if t is not None:
        actual, expected = v.dequantize(actual, t), v.dequantize(expected, t)
    wide = np.complex128 if np.iscomplexobj(actual) or np.iscomplexobj(expected) else np.float64
    a, e = actual.astype(wide), expected.astype(wide)  # complex: |a - b| on the plane
    ok = (
        (np.abs(a - e) <= tol * np.maximum(1.0, np.abs(e))) | (np.isnan(a) & np.isnan(e)) | (a == e)
    )
    return None if bool(np.all(ok)) else _where(~ok, actual, expected)


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Number of representable values between a and b (same float dtype, finite)."""
    width = a.dtype.itemsize * 8
    ia = a.view(np.dtype(f"i{a.dtype.itemsize}")).astype(np.int64)
    ib = b.view(np.dtype(f"i{b.dtype.itemsize}")).astype(np.int64)
    sign = 1 << (width - 1)
    ka = np.where(ia < 0, -(ia & (sign - 1)), ia)  # monotone integer key, -0 and +0 both 0
    kb = np.where(ib < 0, -(ib & (sign - 1)), ib)
    return np.abs(ka - kb)


def expect_close(
    actual: np.ndarray,
    expected: np.ndarray,
    max_ulp: int = 1,
    min_ulp: int = 0,
    t: Attribute | None = None,
) -> str | None:
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)} differs from expected {list(expected.shape)}"
    if not _is_float(actual):
        return expect_eq(actual, expected)
    expected = expected.astype(actual.dtype)
    finite = np.isfinite(actual) & np.isfinite(expected)
    dist = np.where(finite, ulp_distance(actual, expected), 0)
    ok_finite = (dist >= min_ulp) & (dist <= max_ulp)
    ok_special = (_as_compared(actual) == _as_compared(expected)) | (
        np.isnan(actual) & np.isnan(expected)
    )
    ok = np.where(finite, ok_finite, ok_special)
    if bool(np.all(ok)):
        return None
    worst = int(dist.max(initial=0))
    return (
        _where(~ok, actual, expected) + f" (max ULP distance {worst}, allowed {min_ulp}..{max_ulp})"
    )


def expect_within(actual: np.ndarray, expected: np.ndarray, tol: float) -> str | None:
    """|a - b| <= tol, absolute, elementwise (complex: both parts): equal values and two
    NaNs match; a NaN or an infinity matches only itself."""
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)} differs from expected {list(expected.shape)}"
    parts = (np.real, np.imag) if np.iscomplexobj(actual) else (np.asarray,)
    ok = np.ones(actual.shape, dtype=bool)
    for part in parts:
        a = part(actual).astype(np.float64)
        e = part(expected).astype(np.float64)
        both_finite = np.isfinite(a) & np.isfinite(e)
        close = both_finite & (np.abs(np.where(both_finite, a - e, 0.0)) <= tol)
        ok &= (a == e) | (np.isnan(a) & np.isnan(e)) | close
    if bool(np.all(ok)):
        return None
    return _where(~ok, actual, expected) + f" (tolerance {tol:g})"


def _check_eq(a: np.ndarray, e: np.ndarray, t: Attribute | None) -> str | None:
    if e.dtype.kind in "iub":
        return expect_eq(a, e)
    return expect_within(a, e, 1e-4)


# `stablehlo.custom_call @check.<name>(%actual, %expected)` as JAX and the StableHLO
# testdata write it, with the tolerances of upstream's interpreter.
CUSTOM_CALL_CHECKS = {
    "check.eq": _check_eq,
    "check.expect_eq": lambda a, e, t: expect_eq(a, e),
    "check.expect_almost_eq": lambda a, e, t: expect_within(a, e, 1e-3),
    "check.expect_close": lambda a, e, t: expect_close(a, e, max_ulp=3),
}


@implements(check.ExpectEqOp, quantized="none")
def _eq(interp: Interpreter, op: check.ExpectEqOp, args: Arrays, types: Types) -> None:
    interp.record_check(op, expect_eq(args[0], args[1]))


@implements(check.ExpectEqConstOp, quantized="none")
def _eq_const(interp: Interpreter, op: check.ExpectEqConstOp, args: Arrays, types: Types) -> None:
    expected = v.from_dense(op.value, op.operands[0].type)
    interp.record_check(op, expect_eq(args[0], expected))


@implements(check.ExpectAlmostEqOp, quantized="none")
def _almost_eq(interp: Interpreter, op: check.ExpectAlmostEqOp, args: Arrays, types: Types) -> None:
    interp.record_check(
        op, expect_almost_eq(args[0], args[1], tolerance_of(op), op.operands[0].type)
    )


@implements(check.ExpectAlmostEqConstOp, quantized="none")
def _almost_eq_const(
    interp: Interpreter, op: check.ExpectAlmostEqConstOp, args: Arrays, types: Types
) -> None:
    t = op.operands[0].type
    actual = v.dequantize(args[0], t)
    expected = v.from_dense(op.value, v.expressed_type(t))
    interp.record_check(op, expect_almost_eq(actual, expected, tolerance_of(op)))


@implements(check.ExpectCloseOp, quantized="none")
def _close(interp: Interpreter, op: check.ExpectCloseOp, args: Arrays, types: Types) -> None:
    min_ulp = 0 if op.min_ulp_difference is None else op.min_ulp_difference.value.data
    interp.record_check(
        op, expect_close(args[0], args[1], op.max_ulp_difference.value.data, min_ulp)
    )


@implements(check.ExpectSerializedEqOp, quantized="none")
def _serialized_eq(
    interp: Interpreter, op: check.ExpectSerializedEqOp, args: Arrays, types: Types
) -> None:
    probe_id, iteration = op.probe_id.data, op.iteration_index()
    recorded = interp.probes.get(probe_id, iteration)
    if recorded is None:
        count = len(interp.probes.values.get(probe_id, []))
        interp.record_check(
            op, f"probe '{probe_id}' recorded {count} values; none at iteration {iteration}"
        )
        return
    if recorded.dtype != args[0].dtype:
        interp.record_check(
            op, f"probe '{probe_id}' recorded {recorded.dtype}, not {args[0].dtype}"
        )
        return
    interp.record_check(op, expect_eq(args[0], recorded))
