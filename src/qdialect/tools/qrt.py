"""`qrt`: run a `.qbundle` — host parts on the interpreter, NPU parts on the simulator.

    qopt model.tosa.mlir -p 'canonicalize,npu-partition' -t bundle -o model.qbundle
    qrt model.qbundle --inputs x.npz --outputs y.npz [--stats] [--trace]
    qrt model.qbundle --random-inputs 0 --stats
    qrt model.qbundle --describe                  what the bundle holds

Inputs and outputs are .npz files keyed arg0, arg1, ... and result0, result1, ...
(without --outputs the results are printed). --stats prints, per NPU function,
its calls, simulated cycles, MACs and DRAM bytes, and the totals; --trace prints
which device ran each host op and NPU call, in order (stderr).

Exit status: 0 on success, 1 on a user error (a malformed or mismatched bundle,
missing inputs, an op that fails), 2 on an internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from qdialect.interpreter import InterpreterError
from qdialect.interpreter.values import random_value
from qdialect.npu.encoding import DATA_SECTIONS
from qdialect.runtime.bundle import Bundle, BundleError
from qdialect.runtime.executor import HostNpuExecutor
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import UserError, seed_argument
from qdialect.tools.npz import NpzError, read_npz, write_npz


def build_arg_parser() -> argparse.ArgumentParser:
    doc = (__doc__ or "").splitlines()
    p = ToolArgumentParser(
        prog="qrt",
        description=doc[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(doc[2:]),
    )
    p.add_argument("bundle", help="a .qbundle file (qopt -t bundle)")
    p.add_argument("--inputs", metavar="NPZ", help="the entry's arguments, keyed arg0, arg1, ...")
    p.add_argument(
        "--random-inputs", metavar="SEED", type=seed_argument, help="random arguments from SEED"
    )
    p.add_argument("--save-inputs", metavar="NPZ", help="write the arguments used to this file")
    p.add_argument("--outputs", metavar="NPZ", help="write the results, keyed result0, ...")
    p.add_argument("--stats", action="store_true", help="per NPU function cycles, MACs, DRAM bytes")
    p.add_argument("--trace", action="store_true", help="which device ran each op (stderr)")
    p.add_argument("--describe", action="store_true", help="print what the bundle holds and exit")
    return p


def describe(bundle: Bundle, executor: HostNpuExecutor) -> str:
    entry = executor.functions[bundle.entry]
    host_ops = [
        op.name
        for op in entry.walk()
        if op is not entry and op.name not in ("func.return", "func.call")
    ]
    lines = [
        f"entry: @{bundle.entry}",
        f"host: {len(host_ops)} ops ({len(set(host_ops))} kinds) in @{bundle.entry}",
    ]
    for r in bundle.regions:
        b = r.binary
        sections = ", ".join(
            f"{name} {len(b.sections[name].data)} B" for name in DATA_SECTIONS if name in b.sections
        )
        lines.append(
            f"region @{r.function}: machine '{r.machine}' (digest {r.digest:016x}), "
            f"{len(b.code)} instructions, {sections or 'no data sections'}"
        )
        for kind, tensors in (("in", b.inputs), ("out", b.outputs)):
            for t in tensors:
                lines.append(f"  {kind} {t.name}: {t.dtype}{list(t.shape)} @ {t.address}")
    return "\n".join(lines) + "\n"


def entry_inputs(
    args: argparse.Namespace, executor: HostNpuExecutor, entry: str
) -> list[np.ndarray]:
    block = executor.functions[entry].body.blocks.first
    types = [a.type for a in block.args] if block is not None else []
    if args.inputs and args.random_inputs is not None:
        raise UserError("use either --inputs or --random-inputs, not both")
    if args.inputs:
        data = read_npz(args.inputs)
        keys = [f"arg{i}" for i in range(len(types))]
        missing = [k for k in keys if k not in data]
        if missing:
            raise UserError(f"'{args.inputs}' lacks {', '.join(missing)} for @{entry}")
        values = [data[k] for k in keys]
    elif args.random_inputs is not None:
        rng = np.random.default_rng(args.random_inputs)
        values = [random_value(t, rng) for t in types]
    elif types:
        raise UserError(f"@{entry} takes {len(types)} arguments: pass --inputs or --random-inputs")
    else:
        values = []
    if args.save_inputs:
        write_npz(args.save_inputs, {f"arg{i}": v for i, v in enumerate(values)})
    return values


def format_stats(executor: HostNpuExecutor) -> str:
    """Per NPU function: calls, cycles, the model's (useful) MACs, the MACs the array
    executed, utilization (useful MACs over cycles x the machine's MACs per cycle) and
    DRAM bytes."""
    lines = [
        f"{'function':<24} {'calls':>5} {'cycles':>12} {'useful MACs':>14} {'executed':>14} "
        f"{'util':>6} {'DRAM read':>12} {'written':>10}"
    ]
    total = [0, 0, 0, 0, 0, 0]
    peak_total = 0
    for name, s in executor.stats.items():
        row = [s.calls, s.cycles, s.useful_macs, s.macs, s.dram_read, s.dram_written]
        total = [a + b for a, b in zip(total, row, strict=True)]
        peak = s.cycles * executor.macs_per_cycle(name)
        peak_total += peak
        util = f"{s.useful_macs / peak:.1%}" if peak else "-"
        lines.append(
            f"{'@' + name:<24} {row[0]:>5} {row[1]:>12,} {row[2]:>14,} {row[3]:>14,} {util:>6} "
            f"{row[4]:>12,} {row[5]:>10,}"
        )
    util = f"{total[2] / peak_total:.1%}" if peak_total else "-"
    lines.append(
        f"{'total':<24} {total[0]:>5} {total[1]:>12,} {total[2]:>14,} {total[3]:>14,} {util:>6} "
        f"{total[4]:>12,} {total[5]:>10,}"
    )
    lines.append("(useful MACs: the model's, taps on padding not counted; executed: what the "
                 "array ran, padding included; util: useful MACs / (cycles x MACs per cycle); "
                 "host time is not modelled)")  # fmt: skip
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    path = Path(args.bundle)
    bundle = Bundle.from_bytes(path.read_bytes(), args.bundle)
    trace: list[str] | None = [] if args.trace else None
    executor = HostNpuExecutor.from_bundle(bundle, trace=trace)
    if args.describe:
        sys.stdout.write(describe(bundle, executor))
        return 0
    values = entry_inputs(args, executor, bundle.entry)
    try:
        results = executor.call(bundle.entry, values)
    except InterpreterError as err:
        raise UserError(str(err)) from None
    if trace is not None:
        sys.stderr.write("".join(line + "\n" for line in trace))
    outputs = {f"result{i}": r for i, r in enumerate(results)}
    if args.outputs:
        write_npz(args.outputs, outputs)
    else:
        for key, value in outputs.items():
            print(f"{key}: {value.dtype}{list(value.shape)}")
            print(np.array2string(value, threshold=64))
    if args.stats:
        sys.stdout.write(format_stats(executor))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    def body() -> int:
        return run(build_arg_parser().parse_args(argv))

    return run_tool("qrt", body, (BundleError, NpzError))


if __name__ == "__main__":
    sys.exit(main())
