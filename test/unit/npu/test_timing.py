"""The timing model (qdialect.npu.timing), case by case against cycle counts worked out
by hand from its rules, on programs the simulator runs (so the instructions also execute
and their results are checked where the timing could hide a wrong order)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from qdialect.npu.encoding import Instruction, assemble
from qdialect.npu.machine import load_machine
from qdialect.npu.simulator import Simulator
from qdialect.npu.timing import QUEUE_DEPTH, ComputeTiming, DmaTiming

DEFAULT = load_machine("default")
FILL = DEFAULT.mac_rows + DEFAULT.mac_cols  # 32: the array's latency


def _machine(outstanding: int):
    return dataclasses.replace(DEFAULT, dram_outstanding=outstanding)


def inst(text: str) -> Instruction:
    return assemble(text)[0]


def matmul(acc: int, m: int, k: int = 1, accumulate: int = 0, buf: str = "input") -> Instruction:
    return inst(
        f"matmul in=0 w=0 acc={acc} m={m} k_tiles={k} accumulate={accumulate} in_step=1 "
        f"k_step=1 buf={buf}"
    )


def requant(acc: int, rows: int, out: int = 0) -> Instruction:
    return inst(
        f"requant acc={acc} out={out} rows={rows} params=0 zp=0 lo=-128 hi=127 round=single"
    )


def test_back_to_back_matmuls_overlap_their_fill() -> None:
    """The array is busy m x k cycles; the next product starts then, its results a fill
    later."""
    t = ComputeTiming(DEFAULT)
    assert t.run(matmul(0, 100, 2), 200) == (0, 200 + FILL)
    assert t.run(matmul(200, 50, 1), 50) == (200, 250 + FILL)
    assert t.done == 250 + FILL


def test_a_requant_waits_for_the_sums_it_reads() -> None:
    t = ComputeTiming(DEFAULT)
    t.run(matmul(0, 100), 100)
    assert t.run(requant(0, 100), 100) == (100 + FILL, 200 + FILL)


def test_a_requant_of_other_rows_runs_beside_the_array() -> None:
    """Band i's requant on the vector unit while band i+1's matmul fills the other half of
    the accumulator: the matmul starts a cycle after the requant is dispatched."""
    t = ComputeTiming(DEFAULT)
    t.run(matmul(0, 100), 100)
    start, _ = t.run(requant(0, 100), 100)
    assert start == 100 + FILL
    assert t.run(matmul(1024, 100), 100) == (100, 200 + FILL)  # array free at 100


def test_a_matmul_does_not_overwrite_sums_a_requant_still_reads() -> None:
    t = ComputeTiming(DEFAULT)
    t.run(matmul(0, 100), 100)
    _, requant_done = t.run(requant(0, 100), 100)
    start, _ = t.run(matmul(50, 10), 10)  # writes rows 50..59, which the requant reads
    assert start == requant_done


def test_accumulating_products_follow_each_other_without_the_fill() -> None:
    t = ComputeTiming(DEFAULT)
    t.run(matmul(0, 64, 3), 192)
    assert t.run(matmul(0, 64, 3, accumulate=1), 192) == (192, 384 + FILL)


def test_a_matmul_reading_the_output_buffer_waits_for_the_requant_writing_it() -> None:
    t = ComputeTiming(DEFAULT)
    _, done = t.run(requant(0, 40, out=8), 40)
    assert t.run(matmul(512, 16, buf="output"), 16)[0] == done


def test_a_signal_is_pushed_after_everything_before_it() -> None:
    t = ComputeTiming(DEFAULT)
    t.run(matmul(0, 100), 100)
    start, visible = t.signal()
    assert start == 1 and visible == 100 + FILL + 1


def test_a_wait_holds_back_what_follows_it() -> None:
    t = ComputeTiming(DEFAULT)
    assert t.wait(500) == (500, 501)
    assert t.run(matmul(0, 10), 10)[0] == 501


def test_a_full_queue_stalls_dispatch() -> None:
    """Requants of 10 cycles dispatched a cycle apart: the vector unit starts one every 10
    cycles, so its queue fills; requant i + 32 is dispatched only when requant i has
    started (i = 4 starts at 40: the 37th requant is dispatched at 40 instead of 36), and
    a matmul behind 40 requants is dispatched after the last of them (70) and starts at
    71, while the array has been idle all along."""
    assert QUEUE_DEPTH == 32
    t = ComputeTiming(DEFAULT)
    starts = [t.run(requant(16 * i, 10, out=16 * i), 10)[0] for i in range(40)]
    assert starts == [10 * i for i in range(40)]
    assert t.run(matmul(1024, 8), 8)[0] == 71


@pytest.mark.parametrize("outstanding", [1, 4])
def test_dma_latency_overlaps_up_to_the_outstanding_requests(outstanding: int) -> None:
    """Eight 160-byte loads, latency 100, 16 bytes a cycle: one at a time, 8 x 110; with
    four in flight, the bus carries one transfer's 10 cycles after another once the first
    has arrived, and a fifth request waits for the first to finish."""
    t = DmaTiming(_machine(outstanding))
    ends = [t.transfer(160)[1] for _ in range(8)]
    if outstanding == 1:
        assert ends == [110 * (i + 1) for i in range(8)]
    else:
        # requests at 0, 1, 2, 3; data 100..110, 110..120, 120..130, 130..140; the fifth
        # asks at 110 (when the first is done): data 210..220, and so on
        assert ends == [110, 120, 130, 140, 220, 230, 240, 250]
    assert t.signal()[1] == ends[-1] + 1


def test_one_outstanding_request_is_the_serial_model() -> None:
    """A description without `dram.outstanding` keeps each transfer latency + bytes after
    the one before, as the simulator always timed it."""
    assert load_machine("small").dram_outstanding == 1
    t = DmaTiming(load_machine("small"))
    assert t.transfer(16) == (0, 44)
    assert t.transfer(16) == (44, 88)


def test_the_simulator_overlaps_requant_and_matmul_and_keeps_the_result() -> None:
    """Two bands through the simulator: band 2's matmul runs while band 1 is requantized;
    the outputs equal the integer products."""
    n = DEFAULT.mac_cols
    rng = np.random.default_rng(1)
    x = rng.integers(-128, 128, (2 * 64, n)).astype(np.int8)
    w = rng.integers(-128, 128, (n, n)).astype(np.int8)
    records = np.zeros((n, 16), np.uint8)
    records[:, 4:8] = np.full(n, 1 << 30, np.int32).view(np.uint8).reshape(n, 4)
    records[:, 8] = 30 + 8  # x * 2^30 >> 38: divide by 256
    body = [
        f"load buf=input row=0 dram=0 rows=128 row_bytes={n} stride={n} pad=0 pad_top=0 pad_bottom=0 pad_left=0",
        f"load buf=weight row=0 dram=4096 rows={n} row_bytes={n} stride={n} pad=0 pad_top=0 pad_bottom=0 pad_left=0",
        "load buf=params row=0 dram=8192 rows=16 row_bytes=16 stride=16 pad=0 pad_top=0 pad_bottom=0 pad_left=0",
        "signal queue=ld2cp", "wait queue=ld2cp",
        "matmul in=0 w=0 acc=0 m=64 k_tiles=1 accumulate=0 in_step=1 k_step=1 buf=input",
        "requant acc=0 out=0 rows=64 params=0 zp=0 lo=-128 hi=127 round=single",
        "matmul in=64 w=0 acc=1024 m=64 k_tiles=1 accumulate=0 in_step=1 k_step=1 buf=input",
        "requant acc=1024 out=64 rows=64 params=0 zp=0 lo=-128 hi=127 round=single",
        "signal queue=cp2st", "wait queue=cp2st",
        f"store buf=output row=0 dram=12288 rows=128 row_bytes={n} stride={n}",
        "halt",
    ]  # fmt: skip
    sim = Simulator(DEFAULT, assemble("\n".join(body)))
    sim.write_dram(0, x.tobytes())
    sim.write_dram(4096, w.tobytes())
    sim.write_dram(8192, records.tobytes())
    timeline: list[tuple[int, int, int]] = []
    stats = sim.run(timeline=timeline)
    got = np.frombuffer(sim.read_dram(12288, 128 * n), np.int8).reshape(128, n)
    exact = x.astype(np.int64) @ w.astype(np.int64)
    want = np.clip(np.floor(exact / 256 + 0.5), -128, 127).astype(np.int8)
    assert np.array_equal(got, want)
    at = {i: (s, e) for i, s, e in timeline}
    first_requant, second_matmul = at[6], at[7]
    assert second_matmul[0] < first_requant[1]  # the two overlap
    assert stats.busy["compute"] < stats.cycles
