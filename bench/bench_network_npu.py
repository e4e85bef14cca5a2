"""Whole networks on the NPU, layer by layer: MACs, cycles, useful-MAC utilization, DRAM
bytes against each layer's lower bound, and the totals.

Each network (the ONNX zoo, quantized by ONNX Runtime's `quantize_static` QDQ
per-channel after `quant_pre_process`; with `--keras`, the Keras applications at 224
pixels as TFLiteConverter makes them) is imported as TOSA, canonicalized, partitioned
(`npu-partition`) and each NPU region compiled by `tosa-to-npu` and run on the
simulator, on each machine asked for. The bundle's output is checked against the
interpreter first (bit-exact or the bench stops). Per layer:

  MACs      the model's multiply-accumulates (taps on padding and tile padding are not
            counted: `npu_graph.useful_macs`)
  cycles    the cycles the layer adds: from the moment every earlier layer's last
            instruction is done to the moment its own are (a layer's loads start while
            the one before computes, so its first instruction is no measure; these add up
            to the total)
  useful    MACs / (cycles x the array's MACs per cycle)
  DRAM      bytes the layer's loads and stores move
  bound     the bytes it cannot avoid: its constants once (weights one byte each, 9 bytes
            of requantization record per output channel, 256 per table), a network
            input or output once, and an intermediate too large for the output buffer
            once written and once read; an intermediate that fits stays on chip (0)

Totals are over the NPU regions (host parts — a softmax — are not modelled): cycles are
the simulator's, utilization is the network's MACs over cycles x MACs per cycle, DRAM
over the network's bound (the sum of the layers' bounds). `--layers N` prints the N
layers that lose the most cycles (cycles x (1 - useful utilization)).

    python bench/bench_network_npu.py                                  # ResNet-50, MobileNetV2
    python bench/bench_network_npu.py --models squeezenet1_1 --machine small --layers 10
    python bench/bench_network_npu.py --all --keras
"""

from __future__ import annotations

import argparse
import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp, NameLoc
from xdsl.dialects.func import FuncOp
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.dialects.npu import program_binary
from qdialect.interpreter import Interpreter
from qdialect.lowering.npu_assemble import assemble_program
from qdialect.lowering.npu_emit import emit_program
from qdialect.lowering.npu_graph import (
    MacLayer,
    TableLayer,
    alias,
    form_layers,
    nbytes,
    sources,
    useful_macs,
)
from qdialect.lowering.npu_plan import plan_program
from qdialect.npu.machine import Machine, load_machine
from qdialect.npu.simulator import Simulator
from qdialect.runtime.executor import npu_target
from qdialect.transforms.npu_partition import NpuPartition

MODELS = ["resnet50", "mobilenet_v2", "squeezenet1_1", "densenet121_block", "inception_block",
          "shufflenet_block", "vgg16", "alexnet", "gelu_mlp", "gelu_mlp_op"]  # fmt: skip
SMALL = {"vgg16": {"width": 0.25}, "alexnet": {"width": 0.25}}  # the full ones: 550/240 MB

GOALS = {"resnet50": 0.75, "mobilenet_v2": 0.45}  # useful-MAC utilization, default machine
DRAM_GOAL = 1.3  # x the network's lower bound


@dataclass
class LayerFigures:
    name: str
    kind: str
    macs: int
    cycles: int
    dram: int
    bound: int


def _name(layer) -> str:
    owner = layer.out.owner
    loc = getattr(owner, "location", None)
    if isinstance(loc, NameLoc):
        return loc.desc.data
    return owner.name if owner is not None else "?"


def _kind(layer) -> str:
    if isinstance(layer, MacLayer):
        if layer.window is None:
            return "fc"
        w = layer.window
        return f"{'dw' if layer.depthwise else 'conv'}{w.kh}x{w.kw}/{w.stride[0]}"
    return type(layer).__name__.removesuffix("Layer").lower()


def _constants(layer) -> int:
    if isinstance(layer, MacLayer):
        channels = layer.weight.shape[-1]
        return int(layer.weight.size) + 9 * channels * len(layer.requant.stages)
    if isinstance(layer, TableLayer):
        return 256
    return 0


def region_figures(func: FuncOp, machine: Machine, args: list[np.ndarray]):
    """(per-layer figures, total cycles, output) of one NPU function run on `args`."""
    graph = form_layers(func)
    plan = plan_program(graph, machine, True)
    emitted = emit_program(graph, plan, machine)
    program = assemble_program(emitted, plan, "default")  # the name is only printed
    binary = program_binary(program, machine.digest())
    sim = Simulator(machine, binary.code)
    sim.load_sections(binary)
    sim.set_inputs(binary, {t.name: a for t, a in zip(binary.inputs, args, strict=True)})
    timeline: list[tuple[int, int, int]] = []
    stats = sim.run(timeline=timeline)
    outputs = sim.get_outputs(binary)
    starts = [*emitted.layer_starts, len(emitted.code)]
    finish = [0] * len(graph.layers)  # when each layer's last instruction is done
    for index, _, end in timeline:
        layer = int(np.searchsorted(starts, index, side="right")) - 1
        if 0 <= layer < len(graph.layers):
            finish[layer] = max(finish[layer], end)
    done = list(itertools.accumulate(finish, max))
    added = [b - a for a, b in zip([0, *done], done, strict=False)]  # partitions the total
    moved = [0] * len(graph.layers)
    for i, inst in enumerate(emitted.code):
        if inst.opcode.mnemonic in ("load", "load2d", "store", "store2d"):
            layer = int(np.searchsorted(starts, i, side="right")) - 1
            if 0 <= layer < len(graph.layers):
                v = inst.values
                moved[layer] += v.get("blocks", 1) * v["rows"] * v["row_bytes"]
    args_set = set(func.body.block.args)
    returned = set(func.body.block.last_op.operands) if func.body.block.last_op else set()
    on_chip = machine.buffer("output").bytes
    figures = []
    for i, layer in enumerate(graph.layers):
        bound = _constants(layer)
        for v in sources(layer):
            v = alias(v)
            if v in args_set or nbytes(v) > on_chip:
                bound += nbytes(v)
        out = alias(layer.out)
        if layer.out in returned or out in returned or nbytes(out) > on_chip:
            bound += nbytes(out)
        figures.append(LayerFigures(_name(layer), _kind(layer), useful_macs(layer),
                                    added[i], moved[i], bound))  # fmt: skip
    return figures, stats.cycles, [outputs[t.name] for t in binary.outputs]


def network(module: ModuleOp, machine_name: str, x: np.ndarray):
    """Per-layer figures and total cycles over every NPU region of the partitioned module,
    run on the interpreter's values of its inputs; checked against the interpreter."""
    machine = load_machine(machine_name)
    ctx = make_context()
    CanonicalizePass().apply(ctx, module)
    reference = module.clone()
    # The bench measures the NPU: every region it can run goes to it, even where the
    # partitioner's cost model would prefer the host (the small machine's 16 MACs a cycle
    # are no faster than the host it assumes).
    NpuPartition(machine=machine_name, host_macs_per_cycle=1).apply(ctx, module)
    figures: list[LayerFigures] = []
    cycles = 0

    class Run(Interpreter):
        def call(self, name, args):
            nonlocal cycles
            func = self.functions.get(name)
            if func is None or npu_target(func) is None:
                return super().call(name, args)
            layer_figures, region_cycles, outs = region_figures(func, machine, list(args))
            figures.extend(layer_figures)
            cycles += region_cycles
            return outs

    got = Run(module).call("main", [x])
    want = Interpreter(reference).call("main", [x])
    if not all(np.array_equal(g, w) for g, w in zip(got, want, strict=True)):
        raise SystemExit("the NPU's output differs from the interpreter's")
    return figures, cycles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="*", default=["resnet50", "mobilenet_v2"])
    parser.add_argument("--all", action="store_true", help="the whole ONNX zoo")
    parser.add_argument("--keras", action="store_true", help="and the Keras applications")
    parser.add_argument("--machine", action="append", help="default and small unless given")
    parser.add_argument("--layers", type=int, default=5, help="worst layers to print")
    parser.add_argument("--cache", type=Path, default=Path(".bench-cache"))
    args = parser.parse_args()
    args.cache.mkdir(exist_ok=True)
    from qdialect.importers.onnx_import import import_onnx
    from qdialect.models import onnx_zoo

    jobs = [(n, lambda n=n: import_onnx(onnx_zoo.quantized(n, args.cache, **SMALL.get(n, {})),
                                        "tosa"))
            for n in (MODELS if args.all else args.models)]  # fmt: skip
    if args.keras:
        from qdialect.importers.tflite import import_tflite
        from qdialect.models import keras_zoo as kz

        for n in ("mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large",
                  "efficientnet_b0", "resnet50"):  # fmt: skip
            jobs.append((f"keras_{n}", lambda n=n: import_tflite(getattr(kz, n)(224))))
    print(f"{'network':<22} {'machine':<8} {'layers':>6} {'GMACs':>7} {'cycles':>12} "
          f"{'useful':>7} {'DRAM':>12} {'bound':>12} {'x bound':>7}")  # fmt: skip
    for name, load in jobs:
        for machine_name in args.machine or ["default", "small"]:
            machine = load_machine(machine_name)
            module = load()
            main_func = next(f for f in module.body.block.ops if isinstance(f, FuncOp))
            t = main_func.function_type.inputs.data[0]
            rng = np.random.default_rng(0)
            x = rng.integers(-128, 128, tuple(t.get_shape())).astype(np.int8)  # type: ignore[attr-defined]
            figures, cycles = network(module, machine_name, x)
            macs = sum(f.macs for f in figures)
            util = macs / (cycles * machine.mac_rows * machine.mac_cols) if cycles else 0.0
            dram, bound = sum(f.dram for f in figures), sum(f.bound for f in figures)
            goal = GOALS.get(name) if machine_name == "default" else None
            note = (
                ""
                if goal is None
                else f"  (goal {goal:.0%}: {'met' if util >= goal else 'not met'})"
            )
            print(f"{name:<22} {machine_name:<8} {len(figures):>6} {macs / 1e9:>7.2f} "
                  f"{cycles:>12,} {util:>7.1%} {dram:>12,} {bound:>12,} "
                  f"{dram / max(bound, 1):>6.2f}x{note}")  # fmt: skip
            worst = sorted(
                figures, key=lambda f: -(f.cycles - f.macs / (machine.mac_rows * machine.mac_cols))
            )
            for f in worst[: args.layers]:
                u = f.macs / (f.cycles * machine.mac_rows * machine.mac_cols) if f.cycles else 0.0
                print(f"    {f.kind:<10} {f.name[:40]:<40} {f.macs:>12,} MACs {f.cycles:>10,} cyc "
                      f"{u:>6.1%} DRAM {f.dram:>10,} / {f.bound:>10,}")  # fmt: skip
    print(f"\nDRAM goal: <= {DRAM_GOAL}x the network's bound; worst layers: most cycles lost")


if __name__ == "__main__":
    main()
