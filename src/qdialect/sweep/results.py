"""The sweep's table: rows keyed by machine x model x compiler version, kept in CSV (the
store a sweep appends to as points finish, so an interrupted sweep keeps what it did)
and written to Parquet at the end; the summary per machine and its Pareto front.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from qdialect.sweep.evaluate import COLUMNS

_INTS = {"cycles", "useful_macs", "dram_bytes", "onchip_bytes", "macs_per_cycle", "host_ops"}
_FLOATS = {"utilization", "area", "time_us", "compile_seconds"}


def _typed(row: dict[str, str]) -> dict:
    out: dict = {}
    for k in COLUMNS:
        v = row.get(k, "")
        if v == "":
            out[k] = "" if k in ("reason", "point") else None
        elif k in _INTS:
            out[k] = int(v)
        elif k in _FLOATS:
            out[k] = float(v)
        elif k == "exact":
            out[k] = v == "True"
        else:
            out[k] = v
    return out


def read_csv(path: Path) -> list[dict]:
    """The rows of a results CSV (none if it does not exist)."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return [_typed(r) for r in csv.DictReader(f)]


class CsvStore:
    """Appends rows to the CSV as they arrive (header written once)."""

    def __init__(self, path: Path):
        self.path = path
        new = not path.exists() or path.stat().st_size == 0
        self.file = path.open("a", newline="")
        self.writer = csv.DictWriter(self.file, fieldnames=list(COLUMNS))
        if new:
            self.writer.writeheader()

    def add(self, row: dict) -> None:
        self.writer.writerow({k: "" if row.get(k) is None else row[k] for k in COLUMNS})
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def write_parquet(rows: list[dict], path: Path) -> bool:
    """The table as Parquet (pyarrow); False when pyarrow is not installed."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return False
    columns = {k: [r.get(k) for r in rows] for k in COLUMNS}
    pq.write_table(pa.table(columns), path)
    return True


@dataclass(frozen=True)
class MachineSummary:
    machine: str  # its name (the point's fields)
    area: float
    cycles: int  # summed over the models
    utilization: float  # useful MACs / (cycles x MACs per cycle), over all models
    dram_bytes: int


def summarize(rows: list[dict], models: list[str]) -> list[MachineSummary]:
    """Per machine on which every model ran exactly: totals over the models."""
    by_machine: dict[str, list[dict]] = {}
    for r in rows:
        by_machine.setdefault(r["machine"], []).append(r)
    out = []
    for machine, rs in by_machine.items():
        done = {r["model"]: r for r in rs if r["status"] == "ok"}
        if set(models) - set(done) or not rs:
            continue
        chosen = [done[m] for m in models]
        cycles = sum(r["cycles"] for r in chosen)
        useful = sum(r["useful_macs"] for r in chosen)
        mpc = chosen[0]["macs_per_cycle"]
        out.append(MachineSummary(chosen[0]["point"] or machine, float(chosen[0]["area"]), cycles,
                                  useful / (cycles * mpc) if cycles else 0.0,
                                  sum(r["dram_bytes"] for r in chosen)))  # fmt: skip
    return out


def pareto_front(summaries: list[MachineSummary]) -> list[MachineSummary]:
    """The machines no other beats on both area and cycles (lower is better), by area."""
    front = []
    best = math.inf
    for s in sorted(summaries, key=lambda s: (s.area, s.cycles)):
        if s.cycles < best:
            front.append(s)
            best = s.cycles
    return front
