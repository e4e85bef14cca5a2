"""`qsim`: run an `.npub` binary on the bit-exact NPU simulator.

    qsim model.npub --inputs in.npz --read 0x400:64 --outputs out.npz --stats [--trace]
    qsim model.npub --random-inputs 0 --stats

The binary's weights, params and luts are copied to DRAM first. When the
binary has an io manifest (what the compiler emits), `--inputs` holds the
arrays by input name (`arg0`, ...; shape and dtype checked) and `--outputs`
receives the outputs by name (without `--outputs` they are printed);
`--random-inputs SEED` fills the manifest's inputs with uniform random values
instead. Without a manifest, each array of `--inputs` is named by
its DRAM byte address (`0x1000`, or decimal) and written as raw bytes. Either
way, `--read ADDR:BYTES` regions are also saved to `--outputs` (as uint8
arrays named by address). `--stats` prints cycles, each engine's
busy cycles, MAC utilization and DRAM traffic; `--trace` prints every executed
instruction with its start cycle and engine; `--orders N` reruns N random
engine interleavings and fails if the results differ (missing synchronization).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from qdialect.npu.encoding import EncodingError, load_binary
from qdialect.npu.machine import MachineError, load_machine
from qdialect.npu.simulator import ENGINES, Simulator, SimulatorError, check_synchronization
from qdialect.tools.boundary import ToolArgumentParser, run_tool
from qdialect.tools.common import count_argument, seed_argument
from qdialect.tools.npz import NpzError, read_npz, write_npz

MAX_ORDERS = 1000


def _region(text: str) -> tuple[int, int]:
    address, sep, size = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(address, 0), int(size, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ADDR:BYTES, got '{text}'") from None


def _parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(prog="qsim", description=__doc__.splitlines()[0])
    p.add_argument("binary", help="an .npub file")
    p.add_argument("--machine", default="default", help="machine description (name or JSON file)")
    p.add_argument("--inputs", help=".npz of arrays by input name (or by DRAM address)")
    p.add_argument(
        "--random-inputs", type=seed_argument, metavar="SEED", help="random manifest inputs"
    )
    p.add_argument("--read", type=_region, action="append", default=[], metavar="ADDR:BYTES")
    p.add_argument("--outputs", help=".npz to write the --read regions to")
    p.add_argument("--stats", action="store_true", help="print cycle and traffic figures")
    p.add_argument("--trace", action="store_true", help="print each executed instruction")
    p.add_argument(
        "--orders",
        type=count_argument(MAX_ORDERS),
        default=1,
        help=f"random engine orders to compare (1 to {MAX_ORDERS})",
    )
    return p


def _inputs(path: str | None) -> dict[str, np.ndarray]:
    return {} if path is None else read_npz(path)


def _by_address(arrays: dict[str, np.ndarray], path: str | None) -> dict[int, bytes]:
    out = {}
    for name, array in arrays.items():
        try:
            out[int(name, 0)] = np.ascontiguousarray(array).tobytes()
        except ValueError:
            raise EncodingError(
                f"{path}: array '{name}' is not named by a DRAM address (the binary has no io manifest)"
            ) from None
    return out


def _random(tensor, rng: np.random.Generator) -> np.ndarray:
    dtype = np.dtype(tensor.dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, tensor.shape).astype(dtype)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return run_tool(
        "qsim", lambda: _run(args), (EncodingError, MachineError, SimulatorError, NpzError)
    )


def _run(args: argparse.Namespace) -> int:
    machine = load_machine(args.machine)
    binary = load_binary(Path(args.binary).read_bytes(), machine, args.binary)
    inputs = _inputs(args.inputs)
    manifest = bool(binary.inputs or binary.outputs)
    if args.random_inputs is not None:
        if args.inputs or not manifest:
            raise EncodingError(
                "--random-inputs needs a binary with an io manifest and no --inputs"
            )
        rng = np.random.default_rng(args.random_inputs)
        inputs = {t.name: _random(t, rng) for t in binary.inputs}

    raw = {} if manifest else _by_address(inputs, args.inputs)

    def setup(sim: Simulator) -> None:
        sim.load_sections(binary)
        if manifest:
            sim.set_inputs(binary, inputs)
        for address, data in raw.items():
            sim.write_dram(address, data)

    if args.orders > 1:
        regions = args.read + [(t.address, t.nbytes) for t in binary.outputs]
        check_synchronization(machine, binary.code, setup, regions, args.orders)
    sim = Simulator(machine, binary.code)
    setup(sim)
    trace: list[str] | None = [] if args.trace else None
    stats = sim.run(trace)
    if trace is not None:
        print("   cycle  engine  instruction")
        print("\n".join(trace))
    if args.outputs:
        named = sim.get_outputs(binary)
        regions = {f"0x{a:x}": np.frombuffer(sim.read_dram(a, n), np.uint8) for a, n in args.read}
        write_npz(args.outputs, {**named, **regions})
    elif manifest:
        for name, value in sim.get_outputs(binary).items():
            print(f"{name}: {value.dtype}{list(value.shape)}")
            print(np.array2string(value, threshold=64))
    if args.stats:
        print(
            f"cycles: {stats.cycles} ({stats.cycles / machine.clock_mhz:.2f} us at {machine.clock_mhz} MHz)"
        )
        total = max(stats.cycles, 1)
        for engine in ENGINES:
            busy = stats.busy[engine]
            if engine == "compute":
                units = ", ".join(f"{u} {c} ({c / total:.1%})" for u, c in stats.units.items())
                print(f"  {engine:8} {units}")
            else:  # request to completion, summed: requests in flight overlap
                print(f"  {engine:8} transfers in flight {busy} cycles ({busy / total:.1%})")
        useful = binary.useful_macs
        if useful is not None:
            print(f"MAC utilization: {stats.utilization(machine, useful):.1%} ({useful} useful "
                  f"MACs of {stats.macs} executed; taps on padding not counted)")  # fmt: skip
        else:
            print(f"MAC array busy: {stats.array_busy(machine):.1%} ({stats.macs} MACs executed, "
                  "padding included: the binary has no layer map to count useful MACs)")  # fmt: skip
        print(f"DRAM read {stats.dram_read} bytes, written {stats.dram_written} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
