"""The TOSA -> NPU back end on whole blocks: cycles, MAC utilization, DRAM traffic, compile time.

Each network of `qdialect.models.networks` (bench sizes) and a set of single
convolution layers goes quantized StableHLO -> `stablehlo-legalize-to-tosa`
-> `canonicalize` -> `tosa-to-npu` -> simulator, on each shipped machine.
The simulator's output is compared with the TOSA interpreter's before any
figure is printed (bit-exact or the bench stops).

Figures per run:
  cycles        simulated cycles to `halt`
  array util    MACs the array executes / (cycles x MACs per cycle): counts taps on
                padding and tile padding, so it overstates how busy the model keeps it
  useful util   the model's MACs (taps on padding excluded; `npu_graph.useful_macs`)
                / (cycles x MACs per cycle): the figure the field reports
  DRAM          bytes read + written by the program
  vs layers     DRAM over the per-layer lower bound: each layer reads its inputs
                and constants once and writes its output once
  vs network    DRAM over the network lower bound: network inputs and constants
                read once, outputs written once (intermediates never leave the chip)
  compile       wall time of tosa-to-npu in this process
  on-chip gain  DRAM bytes without keeping intermediates on chip (tosa-to-npu's
                keep_on_chip=false, run in this process) over DRAM bytes with it

    python bench/bench_tosa_to_npu.py [--machine default] [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from xdsl.dialects.func import FuncOp
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.dialects.npu import ProgramOp, program_binary
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.lowering.npu_graph import alias, layers_of, sources, useful_macs
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.models import networks
from qdialect.npu.machine import load_machine
from qdialect.npu.simulator import Simulator
from qdialect.transforms.legalize_to_tosa import LegalizeToTosa


def _bytes(v) -> int:
    from qdialect.dialects import hlo_types as ht

    return int(np.prod(ht.shape_of(v.type), dtype=np.int64))


def run(net: networks.Network, machine_name: str, keep_on_chip: bool = True) -> dict[str, float]:
    ctx = make_context()
    module = QParser(ctx, net.source).parse_module()
    LegalizeToTosa().apply(ctx, module)
    CanonicalizePass().apply(ctx, module)
    want = np.asarray(Interpreter(module).call("main", net.inputs)[0]).view(np.int8)
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    layers = layers_of(func)
    per_layer = sum(
        sum(_bytes(alias(v)) for v in sources(layer)) + _bytes(layer.out) for layer in layers
    )
    start = time.perf_counter()
    TosaToNpu(machine=machine_name, keep_on_chip=keep_on_chip).apply(ctx, module)
    compile_s = time.perf_counter() - start
    program = next(op for op in module.walk() if isinstance(op, ProgramOp))
    machine = load_machine(machine_name)
    binary = program_binary(program, machine.digest())
    constants = sum(len(s.data) for s in binary.sections.values())
    sim = Simulator(machine, binary.code)
    sim.load_sections(binary)
    sim.set_inputs(binary, {"arg0": net.inputs[0]})
    stats = sim.run()
    got = sim.get_outputs(binary)["result0"]
    if not np.array_equal(got, want.reshape(got.shape)):
        raise SystemExit(f"{net.name} on {machine_name}: the NPU output differs from TOSA's")
    dram = stats.dram_read + stats.dram_written
    network_bound = net.inputs[0].nbytes + constants + want.nbytes
    return {
        "cycles": stats.cycles,
        "util": stats.array_busy(machine),
        "useful": sum(useful_macs(layer) for layer in layers)
        / (stats.cycles * machine.mac_rows * machine.mac_cols),
        "dram": dram,
        "vs_layers": dram / (per_layer + constants),
        "vs_network": dram / network_bound,
        "compile": compile_s,
        "layers": len(layers),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--machine", action="append", help="default and small unless given")
    parser.add_argument("--quick", action="store_true", help="test sizes, for a smoke run")
    args = parser.parse_args()
    size = "small" if args.quick else "bench"
    cases = [networks.build(name, size) for name in networks.NETWORKS]
    if not args.quick:
        cases += [
            networks.conv_layer(16, 64, 64, 3),
            networks.conv_layer(28, 64, 64, 3),
            networks.conv_layer(14, 128, 128, 3),
            networks.conv_layer(28, 64, 128, 3, stride=2),
            networks.conv_layer(28, 64, 64, 1),
        ]
    print(f"{'case':<32} {'machine':<8} {'layers':>6} {'cycles':>10} {'array':>6} {'useful':>6} "
          f"{'DRAM B':>9} {'vs layers':>9} {'vs net':>7} {'compile':>8} {'on-chip gain':>12}")  # fmt: skip
    for machine_name in args.machine or ["default", "small"]:
        for net in cases:
            if machine_name == "small" and net.name.startswith("conv") and not args.quick:
                continue  # the single-layer figures are for the default machine
            r = run(net, machine_name)
            gain = run(net, machine_name, keep_on_chip=False)["dram"] / r["dram"]
            print(
                f"{net.name:<32} {machine_name:<8} {r['layers']:>6} {r['cycles']:>10,} "
                f"{r['util']:>6.1%} {r['useful']:>6.1%} {r['dram']:>9,} {r['vs_layers']:>8.2f}x {r['vs_network']:>6.2f}x "
                f"{r['compile']:>7.2f}s {gain:>11.2f}x"
            )


if __name__ == "__main__":
    main()
