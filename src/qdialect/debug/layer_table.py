"""The per-layer table: every named tensor, each stage against the float program, and each
integer stage against the one it was lowered from.

Against float (the question "how much accuracy is lost here?"): cosine similarity, SQNR
in dB (signal: the float tensor; noise: the difference), and the largest error in
storage units (|difference| / scale: 0.5 is rounding, large values are clipping or a
wrong scale). Between integer stages (the question "did a lowering change a bit?"):
the number of storage integers that differ — TOSA against the quantized program, the
NPU against TOSA — which the numeric contract says must be zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from qdialect.debug.stages import STAGES, Observed, StageTrace
from qdialect.npu.encoding import LayerRecord
from qdialect.tools.compare import fmt as _fmt

EXACT_AGAINST = {"tosa": "quant", "npu": "tosa"}
"""Each integer stage and the stage whose integers it is compared with."""

MUST_EQUAL = ("npu",)
"""The stages that must reproduce the one before bit for bit: the NPU runs TOSA's
semantics exactly. TOSA may differ from the quantized program by one unit where a
rescale rounds twice (`rounding=double`, TFLite's kernels; docs/debugging.md)."""


@dataclass(frozen=True)
class Thresholds:
    min_sqnr_db: float = 20.0
    min_cosine: float = 0.99


@dataclass(frozen=True)
class Cell:
    cosine: float | None = None
    sqnr_db: float | None = None
    max_error_units: float | None = None  # |stage - float| / scale, largest
    mismatches: int | None = None  # storage integers differing from EXACT_AGAINST's stage
    largest_difference: int | None = None  # ... by at most this many units
    note: str = ""

    def below(self, th: Thresholds) -> bool:
        return (self.sqnr_db is not None and self.sqnr_db < th.min_sqnr_db) or (
            self.cosine is not None and self.cosine < th.min_cosine
        )


@dataclass
class Row:
    name: str
    shape: tuple[int, ...]
    cells: dict[str, Cell] = field(default_factory=dict)
    fused_into: str | None = None  # quantized in this activation's type: not judged


@dataclass
class Table:
    stages: list[str]
    rows: list[Row]
    thresholds: Thresholds
    npu_sites: dict[str, tuple[str, LayerRecord]] = field(default_factory=dict)
    not_observed: list[str] = field(default_factory=list)

    def first_below(self) -> tuple[str, str] | None:
        """(tensor, stage) of the first row where a stage falls below the thresholds."""
        for row in self.rows:
            if row.fused_into is not None:
                continue
            for stage in self.stages:
                cell = row.cells.get(stage)
                if cell is not None and cell.below(self.thresholds):
                    return row.name, stage
        return None

    def first_mismatch(self, stage: str) -> str | None:
        """The first tensor whose integers differ between `stage` and the one before."""
        for row in self.rows:
            cell = row.cells.get(stage)
            if cell is not None and cell.mismatches:
                return row.name
        return None

    def ok(self) -> bool:
        return self.first_below() is None and not any(
            self.first_mismatch(s) for s in MUST_EQUAL if s in self.stages
        )


def metrics(reference: np.ndarray, got: np.ndarray) -> tuple[float, float]:
    """Cosine similarity and SQNR (dB) of `got` against `reference` (flat float64)."""
    diff = got - reference
    noise = float(np.dot(diff, diff))
    signal = float(np.dot(reference, reference))
    norm = float(np.linalg.norm(reference) * np.linalg.norm(got))
    if norm == 0.0:
        cosine = 1.0 if noise == 0.0 else 0.0
    else:
        cosine = float(np.dot(reference, got) / norm)
    if noise == 0.0:
        sqnr = math.inf
    else:
        sqnr = 10 * math.log10(signal / noise) if signal > 0 else -math.inf
    return cosine, sqnr


def _cell(ref: Observed | None, got: Observed, before: Observed | None) -> Cell:
    if not got.arrays:
        return Cell(note="not observed")
    cosine = sqnr = err = None
    note = ""
    if ref is not None and ref.arrays:
        r, g = ref.real(), got.real()
        if r.shape != g.shape or not got.layout_known:
            note = "shape or layout differs from float"
        else:
            cosine, sqnr = metrics(r, g)
            steps = got.steps()
            if steps is not None:
                err = float(np.max(np.abs(g - r) / steps, initial=0.0))
    mismatches = largest = None
    if before is not None and before.arrays:
        a, b = got.storage(), before.storage()
        if a is not None and b is not None and a.shape == b.shape:
            mismatches = int(np.count_nonzero(a != b))
            largest = int(np.max(np.abs(a - b), initial=0))
    return Cell(cosine, sqnr, err, mismatches, largest, note)


def build_table(traces: dict[str, StageTrace], thresholds: Thresholds) -> Table:
    """One row per tensor of the float program (in its order), or of the first stage
    given when there is no float stage."""
    stages = [s for s in STAGES if s in traces]
    reference = traces.get("float")
    first = reference or traces[stages[0]]
    rows = []
    quant = traces.get("quant")
    fused = quant.fused if quant is not None else {}
    for name, obs in first.values.items():
        shape = obs.arrays[0].shape if obs.arrays else ()
        row = Row(name, tuple(shape), fused_into=fused.get(name))
        for stage in stages:
            if stage == "float":
                continue
            got = traces[stage].values.get(name)
            if got is None:
                continue
            ref = reference.values.get(name) if reference is not None else None
            before_trace = traces.get(EXACT_AGAINST.get(stage, ""))
            before = before_trace.values.get(name) if before_trace is not None else None
            row.cells[stage] = _cell(ref, got, before)
        rows.append(row)
    npu = traces.get("npu")
    return Table(
        [s for s in stages if s != "float"],
        rows,
        thresholds,
        dict(npu.layers) if npu else {},
        list(npu.not_observed) if npu else [],
    )


def format_table(table: Table) -> str:
    """The table as text: per stage SQNR, cosine, max error in storage units and, for
    TOSA and the NPU, the integers that differ from the stage before."""
    width = max([len(r.name) for r in table.rows] + [6])
    head = f"{'tensor':<{width}} {'shape':<14}"
    for s in table.stages:
        head += f" | {s + ' dB':>9} {'cos':>8} {'max|e|q':>8}"
        if s in EXACT_AGAINST:
            head += f" {'!=' + EXACT_AGAINST[s]:>8}"
    lines = [head, "-" * len(head)]
    below = table.first_below()
    for row in table.rows:
        line = f"{row.name:<{width}} {'x'.join(map(str, row.shape)) or 'scalar':<14}"
        for s in table.stages:
            c = row.cells.get(s, Cell(note="absent"))
            line += (
                f" | {_fmt(c.sqnr_db, '.2f'):>9} {_fmt(c.cosine, '.5f'):>8} "
                f"{_fmt(c.max_error_units, '.3g'):>8}"
            )
            if s in EXACT_AGAINST:
                line += f" {_fmt(c.mismatches, 'd'):>8}"
        if below is not None and below[0] == row.name:
            line += "  <-- first below"
        if row.fused_into is not None:
            line += f"  (fused into {row.fused_into})"
        lines.append(line)
    return "\n".join(lines)


def verdict(table: Table) -> list[str]:
    """What the table says, one line each: the first tensor below the thresholds, the
    first tensor a lowering changed (for the NPU: the function and instructions that
    computed it), the NPU layers that could not be observed."""
    th = table.thresholds
    lines = []
    below = table.first_below()
    if below is None:
        lines.append(
            f"every tensor within the thresholds (SQNR >= {th.min_sqnr_db:g} dB, "
            f"cosine >= {th.min_cosine:g})"
        )
    else:
        lines.append(
            f"first below the thresholds: '{below[0]}' in the {below[1]} stage "
            f"(SQNR >= {th.min_sqnr_db:g} dB, cosine >= {th.min_cosine:g})"
        )
    for stage, before in EXACT_AGAINST.items():
        if stage not in table.stages:
            continue
        name = table.first_mismatch(stage)
        if name is None:
            continue
        where = ""
        site = table.npu_sites.get(name) if stage == "npu" else None
        if site is not None:
            function, record = site
            where = f": @{function} instructions {record.start}..{record.end - 1}"
        if stage in MUST_EQUAL:
            lines.append(f"first tensor where {stage} differs from {before}: '{name}'{where}")
            continue
        row = next(r for r in table.rows if r.name == name)
        cell = row.cells[stage]
        lines.append(
            f"{stage} first differs from {before} at '{name}' ({cell.mismatches} integer(s), "
            f"by at most {cell.largest_difference}): rescales round twice "
            "(rounding=single to round once)"
        )
    if table.not_observed:
        lines.append(
            "kept in the NPU's output buffer, not observed: " + ", ".join(table.not_observed)
        )
    return lines


def to_json(table: Table) -> dict:
    def clean(v: float | int | None) -> float | int | str | None:
        if isinstance(v, float) and math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v

    return {
        "stages": table.stages,
        "thresholds": {
            "min_sqnr_db": table.thresholds.min_sqnr_db,
            "min_cosine": table.thresholds.min_cosine,
        },
        "first_below": table.first_below(),
        "first_mismatch": {s: table.first_mismatch(s) for s in EXACT_AGAINST if s in table.stages},
        "rows": [
            {
                "tensor": r.name,
                "shape": list(r.shape),
                "fused_into": r.fused_into,
                **{
                    s: {
                        "sqnr_db": clean(c.sqnr_db),
                        "cosine": clean(c.cosine),
                        "max_error_units": clean(c.max_error_units),
                        "mismatches": c.mismatches,
                        "largest_difference": c.largest_difference,
                        "note": c.note,
                    }
                    for s, c in r.cells.items()
                },
            }
            for r in table.rows
        ],
    }
