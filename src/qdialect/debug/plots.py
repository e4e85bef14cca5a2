"""Plots of a per-layer comparison (matplotlib, the optional `plot` extra).

* `sqnr_plot`: each stage's SQNR against float along the network, the threshold drawn
  across — where the curve falls is where accuracy is lost;
* `histogram_plot`: one tensor's float values with the clipping range its quantization
  chose, and the dequantized values over them — a range too narrow shows as mass piled
  on its edges, a range too wide as a few occupied bins.

Each function writes one file (PNG or SVG by its suffix) and returns its path.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from qdialect.debug.layer_table import Table
from qdialect.debug.stages import Observed

FORMATS = ("png", "svg")


class PlotError(RuntimeError):
    """matplotlib is missing, or a plot cannot be made from what was asked."""


def pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError("plots need matplotlib: pip install 'qdialect[plot]'") from None
    return plt


def sqnr_plot(table: Table, path: Path) -> Path:
    plt = pyplot()
    rows = [r for r in table.rows if r.fused_into is None]  # fused: clipped by design
    names = [r.name for r in rows]
    fig, ax = plt.subplots(figsize=(min(16.0, max(6.0, 0.2 * len(names) + 2)), 5.0))
    for stage in table.stages:
        ys = []
        for row in rows:
            cell = row.cells.get(stage)
            v = cell.sqnr_db if cell is not None else None
            ys.append(np.nan if v is None or math.isinf(v) else v)
        ax.plot(range(len(names)), ys, marker="o", markersize=3, label=stage)
    ax.axhline(table.thresholds.min_sqnr_db, color="red", linestyle="--", linewidth=1,
               label=f"threshold {table.thresholds.min_sqnr_db:g} dB")  # fmt: skip
    below = table.first_below()
    if below is not None:
        ax.axvline(names.index(below[0]), color="grey", linestyle=":", linewidth=1,
                   label=f"first below: {below[0]}")  # fmt: skip
    step = max(1, -(-len(names) // 60))  # at most about 60 labels
    ticks = list(range(0, len(names), step))
    ax.set_xticks(ticks)
    ax.set_xticklabels([names[i] for i in ticks], rotation=90, fontsize=6)
    ax.set_ylabel("SQNR against float (dB)")
    ax.set_title("Per-tensor SQNR along the network")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def histogram_plot(name: str, reference: Observed, quantized: Observed, path: Path,
                   bins: int = 128) -> Path:  # fmt: skip
    """`reference` (float) with the clipping range of `quantized`'s parameters, and
    `quantized`'s values as real numbers."""
    plt = pyplot()
    q = quantized.quant
    if q is None or not reference.arrays or not quantized.arrays:
        raise PlotError(f"no quantized values of '{name}' to plot")
    x = reference.real()
    y = quantized.real()
    lo, hi = q.clip_range()
    span_lo, span_hi = min(x.min(initial=0.0), lo), max(x.max(initial=0.0), hi)
    edges = np.linspace(span_lo, span_hi, bins + 1)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(x, bins=edges, alpha=0.6, label="float")
    ax.hist(y, bins=edges, alpha=0.6, label="dequantized")
    for edge in (lo, hi):
        ax.axvline(edge, color="red", linestyle="--", linewidth=1)
    clipped = float(np.mean((x < lo) | (x > hi))) if x.size else 0.0
    ax.set_yscale("log")
    ax.set_xlabel("value")
    ax.set_title(f"{name}\nclipping range [{lo:.4g}, {hi:.4g}], {100 * clipped:.2f}% clipped",
                 fontsize=9)  # fmt: skip
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def file_name(name: str, kind: str, fmt: str) -> str:
    """A file name for tensor `name` (its characters that paths dislike replaced)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip("._") or "tensor"
    return f"{kind}-{safe}.{fmt}"
