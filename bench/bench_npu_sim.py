"""Speed of the NPU simulator on a tiled int8 matmul + requantization, and its cycle figures.

Builds an M x K by K x N program for the default machine (16x16 MAC array):
per block of 16 output columns, one matmul over all K tiles into the
accumulator and one requant, with loads and stores synchronized by tokens.
Prints the simulator's wall time against numpy doing the same integer work in
the same process (ratio), and the simulated cycles, MAC utilization and DRAM
traffic. The result is checked against numpy before any figure is printed.

    python bench/bench_npu_sim.py [--m 32] [--k 256] [--n 256]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from qdialect import numerics
from qdialect.npu.encoding import Binary, Section, Tensor, assemble
from qdialect.npu.machine import load_machine
from qdialect.npu.simulator import Simulator


def build(m: int, k: int, n: int, cols: int) -> str:
    kt, nt = k // cols, n // cols
    lines = [
        # x: m rows of k bytes; as input rows of `cols` bytes: row i*kt + t is x[i, t*cols:(t+1)*cols]
        f"load buf=input row=0 dram=0 rows={m * kt} row_bytes={cols} stride={cols} pad=0 pad_top=0 pad_bottom=0 pad_left=0",
    ]
    for j in range(nt):
        # weight block column j: rows t*cols..: w[t*cols + r, j*cols:(j+1)*cols], stored column-block-major
        lines += [
            f"load buf=weight row=0 dram={0x100000 + j * k * cols} rows={k} row_bytes={cols} stride={cols} pad=0 pad_top=0 pad_bottom=0 pad_left=0",
            f"load buf=params row=0 dram={0x200000 + j * cols * 16} rows={cols} row_bytes=16 stride=16 pad=0 pad_top=0 pad_bottom=0 pad_left=0",
            "signal queue=ld2cp",
            "wait queue=ld2cp",
            *(["wait queue=st2cp"] if j else []),
            f"matmul in=0 w=0 acc=0 m={m} k_tiles={kt} accumulate=0 in_step={kt} k_step=1 buf=input",
            f"requant acc=0 out=0 rows={m} params=0 zp=0 lo=-128 hi=127 round=double",
            "signal queue=cp2ld",
            "signal queue=cp2st",
            "wait queue=cp2st",
            f"store buf=output row=0 dram={0x300000 + j * cols} rows={m} row_bytes={cols} stride={n}",
            "signal queue=st2cp",
            "wait queue=cp2ld",
        ]
    lines += ["wait queue=st2cp", "halt"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=32)
    parser.add_argument("--k", type=int, default=256)
    parser.add_argument("--n", type=int, default=256)
    args = parser.parse_args()
    machine = load_machine("default")
    cols = machine.mac_cols
    m, k, n = args.m, args.k, args.n
    rng = np.random.default_rng(0)
    x = rng.integers(-128, 128, (m, k)).astype(np.int8)
    w = rng.integers(-128, 128, (k, n)).astype(np.int8)
    mult, shift = numerics.quantize_multiplier(1 / (k * 64))
    records = np.zeros((n, 16), np.uint8)
    records[:, 4:8] = np.full(n, mult, np.int32).view(np.uint8).reshape(n, 4)
    records[:, 8] = shift
    blocks = np.concatenate([w[:, j * cols : (j + 1) * cols] for j in range(n // cols)])
    binary = Binary(
        machine.digest(),
        assemble(build(m, k, n, cols)),
        {
            "weights": Section(blocks.tobytes(), 0x100000),
            "params": Section(records.tobytes(), 0x200000),
        },
        inputs=[Tensor("arg0", 0, (m, k), "int8")],
        outputs=[Tensor("result0", 0x300000, (m, n), "int8")],
    )
    start = time.perf_counter()
    sim = Simulator(machine, binary.code)
    sim.load_sections(binary)
    sim.set_inputs(binary, {"arg0": x})
    stats = sim.run()
    got = sim.get_outputs(binary)["result0"]
    simulated = time.perf_counter() - start

    start = time.perf_counter()
    acc = x.astype(np.int64) @ w.astype(np.int64)
    want = np.clip(numerics.apply_scale_32(acc, mult, shift, True), -128, 127).astype(np.int8)
    direct = time.perf_counter() - start
    assert np.array_equal(got, want), "simulator and numpy disagree"

    macs = m * k * n
    lower_bound = m * k + k * n + n * 16 + m * n
    print(f"{m}x{k} @ {k}x{n} int8 on {machine.name}: {len(binary.code)} instructions")
    print(
        f"  simulator wall time {simulated * 1e3:.1f} ms vs numpy {direct * 1e3:.2f} ms (ratio {simulated / direct:.0f})"
    )
    print(
        f"  simulated cycles {stats.cycles}  (compute busy {stats.busy['compute']}, load {stats.busy['load']}, store {stats.busy['store']})"
    )
    print(f"  MAC utilization {stats.utilization(machine, macs):.1%} ({macs} useful MACs of "
          f"{stats.macs} executed)")  # fmt: skip
    print(
        f"  DRAM read {stats.dram_read} + written {stats.dram_written} bytes; lower bound {lower_bound} (ratio {(stats.dram_read + stats.dram_written) / lower_bound:.2f})"
    )


if __name__ == "__main__":
    main()
