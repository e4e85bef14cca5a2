"""Our NPU code against Arm's Vela on the same int8 TFLite models: cycles, utilization,
off-chip traffic, side by side from one run.

Each model is a Keras model converted by TFLiteConverter (`qdialect.models.keras_zoo`:
int8 post-training quantization, int8 I/O), written once to --cache. The same .tflite
file goes

  * through Vela (`ethos-u-vela`, the `vela` extra) for Ethos-U55-256 twice: with its
    stock `Arm/vela.ini` system Ethos_U55_High_End_Embedded and memory mode Shared_Sram
    (what Vela picks when none is named; named here so the run is reproducible), and
    with a system written here whose memory is like our default machine's (800 MHz,
    16 bytes a cycle to the SRAM and to the flash, 100 cycles latency), so that memory
    speed is not what the comparison measures. The figures are Vela's own estimates,
    from its summary CSV;
  * through `qimport --target tosa`, `npu-partition`, `tosa-to-npu` and the simulator on
    the default machine (qnpu-16x16), the output checked bit-exact against the
    interpreter (bench_network_npu.network).

Figures per model:

  MACs        ours: the model's useful multiply-accumulates (no taps on padding);
              Vela's `nn_macs` beside it (it counts a padded window's taps)
  cycles      Vela: `cycles_total`, its estimate of the inference (the slower of compute
              and memory access per pass, summed), stock and on our memory; Vela NPU:
              `cycles_npu`, compute alone (on our memory). Ours: the simulator's cycles
              over the NPU regions
  util        our useful MACs / (cycles x 256): both machines do 256 MACs a cycle, and the
              same MAC count is used for both so the two columns compare
  off-chip    Vela: bytes moved to and from the SoC SRAM that holds its feature maps plus
              the flash that holds its weights (Ethos-U55 has no large internal buffer:
              every tensor crosses its AXI ports). Ours: bytes our loads and stores move
              to and from DRAM (on-chip buffers hold what fits)
  ours/Vela   our cycles / Vela's total, stock and on our memory

What the two machines do not share, stated plainly: Ethos-U55-256 runs at 500 MHz in the
stock system with an 8-byte/cycle SRAM port and a flash at 1/8 of the clock (the second
run removes that difference), has a small internal buffer (every feature map crosses
its AXI ports to the SRAM) and compresses its weights; qnpu-16x16 runs at 800 MHz with a
16-byte/cycle DRAM bus (100 cycles latency), ~790 KiB of on-chip buffers that keep what
fits, and raw int8 weights. Both do 256 MACs a cycle, so cycles compare. Vela maps
SOFTMAX to the NPU; our partitioner leaves it on the host and its time is not counted
(the host ops are listed under the table). Vela's figure is an estimate of a real chip,
ours a simulator's count: neither is a measurement of silicon.

    pip install -e '.[vela,keras]'
    python bench/bench_vs_vela.py                         # every model (about 3 minutes)
    python bench/bench_vs_vela.py --models conv3x3-56 mobilenet_v2 --markdown
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from qdialect.tools.text_table import format_table

sys.path.insert(0, str(Path(__file__).resolve().parent))

STOCK = ["--config", "Arm/vela.ini", "--system-config", "Ethos_U55_High_End_Embedded",
         "--memory-mode", "Shared_Sram"]  # fmt: skip
# A Vela system with our default machine's memory: a port's bandwidth is its clock scale
# times the 8-byte AXI width, so 2.0 makes 16 bytes a cycle.
OUR_MEMORY_INI = """[System_Config.Qnpu_Memory]
core_clock=800e6
axi0_port=Sram
axi1_port=OffChipFlash
Sram_clock_scale=2.0
Sram_burst_length=32
Sram_read_latency=100
Sram_write_latency=100
Sram_max_reads=8
Sram_max_writes=8
OffChipFlash_clock_scale=2.0
OffChipFlash_burst_length=128
OffChipFlash_read_latency=100
OffChipFlash_write_latency=0
OffChipFlash_max_reads=8
OffChipFlash_max_writes=0

[Memory_Mode.Qnpu_Memory]
const_mem_area=Axi1
arena_mem_area=Axi0
cache_mem_area=Axi0
"""
MACS_PER_CYCLE = 256  # both machines


def _keras(name: str, *args, **kwargs) -> Callable[[], bytes]:
    def build() -> bytes:
        from qdialect.models import keras_zoo

        return getattr(keras_zoo, name)(*args, **kwargs)

    return build


def _layer(kind: str, size: int, channels: int, filters: int = 0, stride: int = 1):
    return _keras("single_layer", kind, size=size, channels=channels,
                  filters=filters or channels, stride=stride)  # fmt: skip


MODELS: dict[str, Callable[[], bytes]] = {
    "mobilenet_v2": _keras("mobilenet_v2", 224),
    "resnet50": _keras("resnet50", 224),
    "conv3x3-112x32": _layer("conv3x3", 112, 32),
    "conv3x3-56x64": _layer("conv3x3", 56, 64),
    "conv3x3-14x256": _layer("conv3x3", 14, 256),
    "depthwise-112x32": _layer("depthwise3x3", 112, 32),
    "depthwise-56x144/2": _layer("depthwise3x3", 56, 144, stride=2),
    "depthwise-14x576": _layer("depthwise3x3", 14, 576),
    "pointwise-56x24-144": _layer("pointwise", 56, 24, 144),
    "pointwise-28x192-32": _layer("pointwise", 28, 192, 32),
    "pointwise-7x960-320": _layer("pointwise", 7, 960, 320),
    "dense-1280-1000": _layer("dense", 1, 1280, 1000),
    "dense-512-512": _layer("dense", 1, 512, 512),
    "dense-2048-10": _layer("dense", 1, 2048, 10),
}


@dataclass
class VelaFigures:
    macs: int
    cycles: int  # cycles_total
    npu_cycles: int  # cycles_npu
    sram_bytes: int
    flash_bytes: int  # off-chip flash (weights)
    dram_bytes: int
    cpu_ops: int


def vela(model: Path, out_dir: Path, our_memory: bool = False) -> VelaFigures:
    """Vela's estimate for `model` on Ethos-U55-256 (its summary CSV), working in
    `out_dir`: the stock system, or with `our_memory` the one like our machine's."""
    system = STOCK
    if our_memory:
        ini = out_dir / "qnpu_memory.ini"
        ini.write_text(OUR_MEMORY_INI)
        system = ["--config", str(ini), "--system-config", "Qnpu_Memory",
                  "--memory-mode", "Qnpu_Memory"]  # fmt: skip
    run = subprocess.run([sys.executable, "-m", "ethosu.vela", str(model),
                          "--accelerator-config", "ethos-u55-256", *system,
                          "--output-dir", str(out_dir)],
                         capture_output=True, text=True)  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"vela failed on {model.name}:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    (summary,) = out_dir.glob(f"{model.stem}_summary_*.csv")
    with summary.open() as f:
        row = next(csv.DictReader(f))
    cpu = re.search(r"CPU operators = (\d+)", run.stdout)
    return VelaFigures(
        macs=int(float(row["nn_macs"])),
        cycles=int(float(row["cycles_total"])),
        npu_cycles=int(float(row["cycles_npu"])),
        sram_bytes=int(float(row["sram_total_bytes"])),
        flash_bytes=int(float(row["off_chip_flash_total_bytes"])),
        dram_bytes=int(float(row["dram_total_bytes"])),
        cpu_ops=int(cpu.group(1)) if cpu else -1,
    )


@dataclass
class OurFigures:
    macs: int
    cycles: int
    dram_bytes: int
    host_ops: list[str]  # the ops left on the host, constants aside


def ours(model: bytes, machine: str = "default") -> OurFigures:
    """Our figures for the .tflite `model`: imported as TOSA, partitioned, every NPU
    region compiled and simulated (checked against the interpreter)."""
    from xdsl.dialects.func import CallOp, FuncOp, ReturnOp

    from bench_network_npu import network
    from qdialect.importers.tflite import import_tflite

    module = import_tflite(model)
    main = next(f for f in module.body.block.ops if isinstance(f, FuncOp))
    t = main.function_type.inputs.data[0]
    x = np.random.default_rng(0).integers(-128, 128, tuple(t.get_shape())).astype(np.int8)  # type: ignore[attr-defined]
    figures, cycles = network(module, machine, x)
    main = next(
        f for f in module.body.block.ops if isinstance(f, FuncOp) and f.sym_name.data == "main"
    )
    host = [op.name for op in main.body.walk()
            if not isinstance(op, CallOp | ReturnOp | FuncOp)
            and op.name not in ("tosa.const", "tosa.const_shape")]  # fmt: skip
    return OurFigures(sum(f.macs for f in figures), cycles, sum(f.dram for f in figures), host)


def cached(name: str, cache: Path) -> Path:
    path = cache / f"vela-{name.replace('/', 's')}.tflite"
    if not path.exists():
        path.write_bytes(MODELS[name]())
    return path


HEADER = ("model", "MACs", "Vela nn_macs", "Vela cycles", "Vela cycles, our memory",
          "Vela NPU", "our cycles", "Vela util", "Vela util, our memory", "our util",
          "ours/Vela", "ours/Vela, our memory", "Vela off-chip B", "our DRAM B")  # fmt: skip


def row(name: str, stock: VelaFigures, like: VelaFigures, o: OurFigures) -> tuple[str, ...]:
    """One table row (`HEADER`): `stock` and `like` are Vela's two runs, `o` ours."""
    util = lambda cycles: f"{o.macs / (cycles * MACS_PER_CYCLE):.1%}"  # noqa: E731
    return (name, f"{o.macs:,}", f"{stock.macs:,}", f"{stock.cycles:,}", f"{like.cycles:,}",
            f"{like.npu_cycles:,}", f"{o.cycles:,}", util(stock.cycles), util(like.cycles),
            util(o.cycles), f"{o.cycles / stock.cycles:.2f}", f"{o.cycles / like.cycles:.2f}",
            f"{stock.sram_bytes + stock.flash_bytes + stock.dram_bytes:,}",
            f"{o.dram_bytes:,}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="*", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--cache", type=Path, default=Path(".bench-cache"))
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    args.cache.mkdir(exist_ok=True)
    rows, notes = [], []
    for name in args.models:
        path = cached(name, args.cache)
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            v, like = vela(path, Path(a)), vela(path, Path(b), our_memory=True)
        o = ours(path.read_bytes())
        rows.append(row(name, v, like, o))
        if o.host_ops or v.cpu_ops:
            notes.append(f"{name}: Vela CPU operators {v.cpu_ops}; "
                         f"our host ops {', '.join(sorted(set(o.host_ops))) or 'none'}")  # fmt: skip
        if not args.markdown:
            print("  ".join(rows[-1]), flush=True)
    if not args.markdown:
        print()
    print(format_table(HEADER, rows, markdown=args.markdown, right=True))
    for n in notes:
        print(n)
    for column in ("ours/Vela", "ours/Vela, our memory"):
        i = HEADER.index(column)
        slower = [r[0] for r in rows if float(r[i]) > 1.0]
        print(f"{column}: at or below Vela's cycles on {len(rows) - len(slower)} of {len(rows)}"
              + (f"; slower on {', '.join(slower)}" if slower else ""))  # fmt: skip


if __name__ == "__main__":
    main()
