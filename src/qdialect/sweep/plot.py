"""The sweep's plot: every machine on which all models ran, total cycles against the
area proxy, the Pareto front drawn through the ones no other beats on both (matplotlib,
the optional `plot` extra)."""

from __future__ import annotations

from pathlib import Path

from qdialect.debug.plots import pyplot
from qdialect.sweep.results import MachineSummary, pareto_front


def short(label: str) -> str:
    """A point's label with each field named by its last part (`weight.bytes=65536` for
    `buffers.weight.bytes=65536`, `rows+cols=8` for `mac_array.rows+mac_array.cols=8`)."""

    def name(key: str) -> str:
        names = key.split(".")
        return ".".join(names[-2:]) if names[-1] == "bytes" and len(names) > 1 else names[-1]

    parts = []
    for item in label.split(","):
        key, _, value = item.partition("=")
        parts.append("+".join(name(k) for k in key.split("+")) + f"={value}")
    return ",".join(parts)


def pareto_plot(summaries: list[MachineSummary], path: Path, title: str = "") -> Path:
    plt = pyplot()
    front = pareto_front(summaries)
    fig, ax = plt.subplots(figsize=(8.0, 5.0))
    ax.scatter([s.area for s in summaries], [s.cycles for s in summaries], s=14,
               color="lightgrey", label="machines")  # fmt: skip
    ax.plot([s.area for s in front], [s.cycles for s in front], marker="o", markersize=5,
            color="tab:blue", label="Pareto front")  # fmt: skip
    for s in front:
        ax.annotate(short(s.machine), (s.area, s.cycles), fontsize=6, xytext=(4, 4),
                    textcoords="offset points")  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("area proxy (MACs + on-chip buffer bytes, weighted)")
    ax.set_ylabel("cycles, summed over the models")
    ax.set_title(title or "Design-space sweep")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
