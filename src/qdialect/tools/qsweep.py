"""qsweep: run a design-space sweep — machine descriptions x models → cycles, utilization,
DRAM and on-chip bytes, compile time — and summarize it (docs/design-space.md).

    qsweep sweep.json -o results/                      # local process pool
    qsweep sweep.json -o results/ --jobs 2 --plot front.png
    qsweep sweep.json -o results/ --scheduler tcp://host:8786   # a Dask cluster

Each point is compiled, simulated on one random input and checked bit for bit against
the interpreter; points that cannot run (a description that does not validate, a layer
larger than a buffer) are rows with the reason, not failures. `results/results.csv` is
appended as points finish and reused: running again runs only what is missing (a new
point, a new model, a changed compiler). Prints the summary per machine and its Pareto
front (cycles against the area proxy); exit status 1 if any point's NPU output differed
from the interpreter's or a point failed with an error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.text_table import format_table

USAGE = __doc__ or ""


def build_arg_parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(
        prog="qsweep",
        description=USAGE.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(USAGE.splitlines()[2:]),
    )
    p.add_argument("sweep", help="the sweep file (JSON)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="results directory")
    p.add_argument("--jobs", type=int, help="local worker processes (default: the CPUs)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask distributed scheduler")
    p.add_argument("--plot", metavar="FILE", help="the Pareto plot (PNG or SVG)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _main(args: argparse.Namespace) -> int:
    from qdialect.sweep.results import pareto_front, summarize
    from qdialect.sweep.run import progress_to, run_sweep
    from qdialect.sweep.spec import load_spec

    if args.jobs is not None and args.jobs < 1:
        from qdialect.tools.common import UserError

        raise UserError("--jobs must be at least 1")
    spec = load_spec(args.sweep)
    out = Path(args.output)
    rows = run_sweep(spec, out, scheduler=args.scheduler, jobs=args.jobs,
                     progress_total=None if args.quiet else progress_to())  # fmt: skip
    models = list(dict.fromkeys(r["model"] for r in rows))
    counts = {
        s: sum(r["status"] == s for r in rows) for s in ("ok", "invalid", "mismatch", "error")
    }
    print(f"qsweep: {len(rows)} points ({len(rows) // max(len(models), 1)} machines x "
          f"{len(models)} models): " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))  # fmt: skip
    for r in rows:
        if r["status"] in ("invalid", "error", "mismatch"):
            print(f"  {r['status']}: {r['point'] or '(base)'} / {r['model']}: {r['reason']}")
    summaries = summarize(rows, models)
    front = {s.machine for s in pareto_front(summaries)}
    table = [[s.machine or "(base)", f"{s.area:,.0f}", f"{s.cycles:,}", f"{s.utilization:.1%}",
              f"{s.dram_bytes:,}", "*" if s.machine in front else ""]
             for s in sorted(summaries, key=lambda s: (s.area, s.cycles))]  # fmt: skip
    if table:
        print(format_table(["machine", "area", "cycles", "util", "DRAM B", "front"], table))
    print(f"qsweep: wrote {out / 'results.csv'}"
          + (f" and {out / 'results.parquet'}" if (out / "results.parquet").exists() else ""))  # fmt: skip
    if args.plot:
        from qdialect.sweep.plot import pareto_plot

        print(f"qsweep: wrote {pareto_plot(summaries, Path(args.plot), spec.name)}")
    return 1 if counts["mismatch"] or counts["error"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    from qdialect.debug.plots import PlotError
    from qdialect.sweep.spec import SweepError

    args = build_arg_parser().parse_args(argv)
    return run_tool("qsweep", lambda: _main(args), (SweepError, PlotError))


if __name__ == "__main__":
    sys.exit(main())
