"""Tensor-by-tensor comparison of two .npz files (`qrun --compare a.npz b.npz`).

Integers and booleans must match exactly (or within --max-mismatch elements);
floats are judged by cosine similarity, SQNR (signal = the reference `b`) and
the largest absolute error — the checks TPU-MLIR's npz compare makes when a
quantized model is compared against its float original layer by layer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Thresholds:
    min_cosine: float = 0.99
    min_sqnr_db: float | None = None
    max_abs_error: float | None = None
    max_mismatch: int = 0


@dataclass(frozen=True)
class TensorReport:
    name: str
    shape: str
    cosine: float | None
    sqnr_db: float | None
    max_abs_error: float | None
    mismatches: int | None
    ok: bool
    note: str = ""


def compare_arrays(name: str, a: np.ndarray, b: np.ndarray, th: Thresholds) -> TensorReport:
    if a.shape != b.shape:
        return TensorReport(
            name,
            f"{list(a.shape)} vs {list(b.shape)}",
            None,
            None,
            None,
            None,
            False,
            "shape differs",
        )
    shape = "x".join(map(str, a.shape)) or "scalar"
    if a.dtype.kind in "iub" and b.dtype.kind in "iub":
        mismatches = int(np.count_nonzero(a.astype(np.int64) != b.astype(np.int64)))
        err = int(np.abs(a.astype(np.int64) - b.astype(np.int64)).max(initial=0))
        return TensorReport(
            name, shape, None, None, float(err), mismatches, mismatches <= th.max_mismatch
        )
    x, y = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    finite = np.isfinite(x) & np.isfinite(y)
    same_special = np.all((x == y) | (np.isnan(x) & np.isnan(y)) | finite)
    x, y = x[finite], y[finite]
    mismatches = int(
        np.count_nonzero(a.ravel() != b.ravel())
        - np.count_nonzero(np.isnan(a.ravel()) & np.isnan(b.ravel()))
    )
    diff = x - y
    max_abs = float(np.abs(diff).max(initial=0.0))
    norm = float(np.linalg.norm(x) * np.linalg.norm(y))
    if norm == 0.0:
        cosine = 1.0 if not np.any(x) and not np.any(y) else 0.0
    else:
        cosine = float(np.dot(x, y) / norm)
    noise = float(np.dot(diff, diff))
    signal = float(np.dot(y, y))
    sqnr = (
        math.inf if noise == 0.0 else (10 * math.log10(signal / noise) if signal > 0 else -math.inf)
    )
    ok = (
        bool(same_special)
        and cosine >= th.min_cosine
        and (th.min_sqnr_db is None or sqnr >= th.min_sqnr_db)
        and (th.max_abs_error is None or max_abs <= th.max_abs_error)
    )
    note = "" if same_special else "non-finite values differ"
    return TensorReport(name, shape, cosine, sqnr, max_abs, mismatches, ok, note)


def compare_npz(
    a: dict[str, np.ndarray], b: dict[str, np.ndarray], th: Thresholds
) -> list[TensorReport]:
    reports = []
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            where = "first" if name not in a else "second"
            reports.append(
                TensorReport(
                    name, "-", None, None, None, None, False, f"missing from the {where} file"
                )
            )
            continue
        reports.append(compare_arrays(name, a[name], b[name], th))
    return reports


def fmt(value: float | int | None, spec: str) -> str:
    """A table cell: `-` for nothing, `inf`/`-inf` spelled out, else `spec`."""
    if value is None:
        return "-"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return format(value, spec)


def format_report(reports: list[TensorReport]) -> str:
    header = f"{'tensor':<40} {'shape':<16} {'cosine':>9} {'SQNR dB':>9} {'max|err|':>10} {'mismatch':>9}  result"
    lines = [header, "-" * len(header)]
    for r in reports:
        status = "ok" if r.ok else "FAIL" + (f" ({r.note})" if r.note else "")
        lines.append(
            f"{r.name:<40} {r.shape:<16} {fmt(r.cosine, '.6f'):>9} {fmt(r.sqnr_db, '.2f'):>9} "
            f"{fmt(r.max_abs_error, '.4g'):>10} {fmt(r.mismatches, 'd'):>9}  {status}"
        )
    failed = sum(not r.ok for r in reports)
    lines.append(f"{len(reports) - failed} passed, {failed} failed")
    return "\n".join(lines)
