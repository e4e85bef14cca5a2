"""The NPU simulator: instructions against numpy, hand-written kernels bit-exact with the
numerics core, faults as clear errors, and the cycle model's arithmetic."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qdialect import numerics
from qdialect.npu.encoding import Binary, Section, Tensor, assemble
from qdialect.npu.isa import ROUNDINGS
from qdialect.npu.machine import load_machine
from qdialect.npu.simulator import Simulator, SimulatorError, check_synchronization
from qdialect.tools import qasm, qsim

DEFAULT, SMALL = load_machine("default"), load_machine("small")


def load(buf, row, dram, rows, row_bytes, stride, pad=0, top=0, bottom=0, left=0) -> str:
    return (
        f"load buf={buf} row={row} dram={dram} rows={rows} row_bytes={row_bytes} stride={stride} "
        f"pad={pad} pad_top={top} pad_bottom={bottom} pad_left={left}"
    )


def store(buf, row, dram, rows, row_bytes, stride) -> str:
    return (
        f"store buf={buf} row={row} dram={dram} rows={rows} row_bytes={row_bytes} stride={stride}"
    )


def program(*lines: str) -> str:
    return "\n".join(lines) + "\nhalt\n"


def run(machine, text: str, inputs: dict[int, np.ndarray], seed: int = 0):
    sim = Simulator(machine, assemble(text), seed=seed)
    for address, array in inputs.items():
        sim.write_dram(address, np.ascontiguousarray(array).tobytes())
    stats = sim.run()
    return sim, stats


NO_SCALE = " scaled=0 params=0 round=single combine=set"
"""`widen` fields of a plain widen: no records applied, the accumulator overwritten."""


def params_records(bias, mult, shift, cols: int) -> np.ndarray:
    records = np.zeros((cols, 16), np.uint8)
    records[:, 0:4] = np.asarray(bias, np.int32).view(np.uint8).reshape(cols, 4)
    records[:, 4:8] = np.asarray(mult, np.int32).view(np.uint8).reshape(cols, 4)
    records[:, 8] = np.asarray(shift, np.int8).view(np.uint8)
    return records


def scale32(value, multiplier, shift, rounding: str) -> np.ndarray:
    """numerics' apply_scale_32 with the ISA's rounding name."""
    return numerics.apply_scale_32(
        value, multiplier, shift, rounding == "double", half_even=rounding == "half_even"
    )


@pytest.mark.parametrize("machine", [DEFAULT, SMALL], ids=["default", "small"])
@pytest.mark.parametrize("rounding", ROUNDINGS)
def test_tiled_matmul_with_requantization(machine, rounding: str) -> None:
    rng = np.random.default_rng(machine.mac_cols + ROUNDINGS.index(rounding))
    n = machine.mac_cols
    m, k_tiles = 5, 3
    x = rng.integers(-128, 128, (m, k_tiles * n)).astype(np.int8)
    w = rng.integers(-128, 128, (k_tiles * n, n)).astype(np.int8)
    bias = rng.integers(-5000, 5000, n)
    scales = rng.uniform(1e-4, 1e-2, n)
    mult, shift = zip(*(numerics.quantize_multiplier(float(s)) for s in scales), strict=True)
    # x is stored row-major m x (k_tiles*n): k tile t of row i is DRAM row i*k_tiles + t.
    text = program(
        load("input", 0, 0, m * k_tiles, n, n),
        load("weight", 0, 0x10000, k_tiles * n, n, n),
        load("params", 0, 0x20000, n, 16, 16),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        f"matmul in=0 w=0 acc=0 m={m} k_tiles={k_tiles} accumulate=0 in_step={k_tiles} k_step=1 buf=input",
        f"requant acc=0 out=0 rows={m} params=0 zp=-3 lo=-100 hi=120 round={rounding}",
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("output", 0, 0x30000, m, n, n),
    )
    sim, stats = run(
        machine, text, {0: x, 0x10000: w, 0x20000: params_records(bias, mult, shift, n)}
    )
    got = np.frombuffer(sim.read_dram(0x30000, m * n), np.int8).reshape(m, n)
    acc = x.astype(np.int64) @ w.astype(np.int64) + bias
    scaled = scale32(acc, np.array(mult), np.array(shift), rounding)
    np.testing.assert_array_equal(got, np.clip(scaled.astype(np.int64) - 3, -100, 120))
    assert stats.macs == m * k_tiles * n * n
    assert stats.dram_written == m * n


@pytest.mark.parametrize("rounding", ROUNDINGS)
def test_scale_is_tosa_rescale_between_i32_values(rounding: str) -> None:
    """`scale` then `requant`: two rescales in a row, each rounded as TOSA does."""
    n, rows = SMALL.mac_cols, 6
    rng = np.random.default_rng(7 + ROUNDINGS.index(rounding))
    x = rng.integers(-(1 << 20), 1 << 20, (rows, n)).astype(np.int32)
    bias = rng.integers(-500, 500, n)
    mult, shift = zip(
        *(numerics.quantize_multiplier(float(s)) for s in rng.uniform(0.3, 3, n)), strict=True
    )
    mult2, shift2 = numerics.quantize_multiplier(1 / 3000)
    text = program(
        load("params", 0, 0x100, n, 16, 16),
        load("params", n, 0x200, n, 16, 16),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        *(f"fill buf=accumulator row={i} rows=1 value=0" for i in range(rows)),
        *(f"alu op=add dst={i} src=0 rows=1 use_imm=1 imm={int(x[i, 0])}" for i in range(rows)),
        f"scale acc=0 rows={rows} params=0 round={rounding}",
        f"requant acc=0 out=0 rows={rows} params={n} zp=4 lo=-128 hi=127 round={rounding}",
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("accumulator", 0, 0x300, rows, 4 * n, 4 * n),
        store("output", 0, 0x400, rows, n, n),
    )
    first = params_records(bias, mult, shift, n)
    second = params_records(np.zeros(n), [mult2] * n, [shift2] * n, n)
    sim, _ = run(SMALL, text, {0x100: first, 0x200: second})
    lane0 = np.repeat(x[:, :1].astype(np.int64), n, axis=1)  # every lane of row i holds x[i, 0]
    want = scale32(lane0 + bias, np.array(mult), np.array(shift), rounding)
    got = np.frombuffer(sim.read_dram(0x300, rows * n * 4), np.int32).reshape(rows, n)
    np.testing.assert_array_equal(got, want)
    out = scale32(want, mult2, shift2, rounding).astype(np.int64) + 4
    got8 = np.frombuffer(sim.read_dram(0x400, rows * n), np.int8).reshape(rows, n)
    np.testing.assert_array_equal(got8, np.clip(out, -128, 127))


def test_half_even_requant_rounds_ties_to_even() -> None:
    """By 2^30 >> 31 (a half) every odd accumulator is a tie: `round=half_even` sends
    -3, -1, 1, 3 to -2, 0, 0, 2 where `round=single` gives -1, 0, 1, 2 (ties up)."""
    n = SMALL.mac_cols
    values = [-3, -1, 1, 3]
    records = params_records(np.zeros(n), [1 << 30] * n, [31] * n, n)
    got = {}
    for rounding in ("single", "half_even"):
        text = program(
            load("params", 0, 0x100, n, 16, 16),
            "signal queue=ld2cp",
            "wait queue=ld2cp",
            *(f"fill buf=accumulator row={i} rows=1 value={v}" for i, v in enumerate(values)),
            f"requant acc=0 out=0 rows=4 params=0 zp=0 lo=-128 hi=127 round={rounding}",
            "signal queue=cp2st",
            "wait queue=cp2st",
            store("output", 0, 0x400, 4, n, n),
        )
        sim, _ = run(SMALL, text, {0x100: records})
        got[rounding] = np.frombuffer(sim.read_dram(0x400, 4 * n), np.int8).reshape(4, n)[:, 0]
    assert got["half_even"].tolist() == [-2, 0, 0, 2]
    assert got["single"].tolist() == [-1, 0, 1, 2]


@pytest.mark.parametrize("combine", ["add", "sub"])
def test_scaled_widen_is_an_elementwise_operand_in_one_pass(combine: str) -> None:
    """Two `widen`s with records: TOSA's add (sub) of two rescaled i8 tensors, each
    operand (x - zp) << shift then rescaled, the second added to (taken from) the first."""
    n, rows = SMALL.mac_cols, 5
    rng = np.random.default_rng(11)
    a = rng.integers(-128, 128, (rows, n)).astype(np.int8)
    b = rng.integers(-128, 128, (rows, n)).astype(np.int8)
    (ma, sa), (mb, sb) = numerics.quantize_multiplier(0.37), numerics.quantize_multiplier(0.81)
    text = program(
        load("input", 0, 0x000, rows, n, n),
        load("input", rows, 0x100, rows, n, n),
        load("params", 0, 0x200, n, 16, 16),
        load("params", n, 0x300, n, 16, 16),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        f"widen buf=input in=0 acc=0 rows={rows} zp=3 shift=20 scaled=1 params=0 "
        "round=single combine=set",
        f"widen buf=input in={rows} acc=0 rows={rows} zp=-7 shift=20 scaled=1 params={n} "
        f"round=double combine={combine}",
        f"widen buf=input in=0 acc={rows} rows={rows} zp=3 shift=0" + NO_SCALE,
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("accumulator", 0, 0x400, 2 * rows, 4 * n, 4 * n),
    )
    records_a = params_records(np.zeros(n), [ma] * n, [sa] * n, n)
    records_b = params_records(np.full(n, 9), [mb] * n, [sb] * n, n)
    sim, stats = run(SMALL, text, {0: a, 0x100: b, 0x200: records_a, 0x300: records_b})
    got = np.frombuffer(sim.read_dram(0x400, 2 * rows * n * 4), np.int32).reshape(2 * rows, n)
    left = scale32((a.astype(np.int64) - 3) << 20, ma, sa, "single")
    right = scale32(((b.astype(np.int64) + 7) << 20) + 9, mb, sb, "double")
    want = left + right if combine == "add" else left - right
    np.testing.assert_array_equal(got[:rows], want)
    np.testing.assert_array_equal(got[rows:], a.astype(np.int64) - 3)  # a plain widen
    assert stats.busy["compute"] == 3 * rows + 2  # a row a cycle each, a wait, a signal


def test_depthwise_tile_from_widen_mul_and_add() -> None:
    """A 3-tap depthwise convolution along rows: acc = sum_t (x[i+t] - zp) * w[t], per channel."""
    n, rows, taps, zp = 4, 6, 3, 5
    rng = np.random.default_rng(1)
    x = rng.integers(-128, 128, (rows + taps - 1, n)).astype(np.int8)
    w = rng.integers(-127, 128, (taps, n)).astype(np.int8)
    lines = [load("input", 0, 0, rows + taps - 1, n, n), load("input", 64, 0x100, taps, n, n)]
    lines += [
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        f"fill buf=accumulator row=0 rows={rows} value=0",
    ]
    for t in range(taps):
        lines += [
            f"widen buf=input in={t} acc=100 rows={rows} zp={zp} shift=0" + NO_SCALE,
            # broadcast weight row t over `rows` accumulator rows, one row at a time
            *(
                f"widen buf=input in={64 + t} acc={200 + i} rows=1 zp=0 shift=0" + NO_SCALE
                for i in range(rows)
            ),
            f"alu op=mul dst=100 src=200 rows={rows} use_imm=0 imm=0",
            f"alu op=add dst=0 src=100 rows={rows} use_imm=0 imm=0",
        ]
    lines += [
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("accumulator", 0, 0x200, rows, 4 * n, 4 * n),
    ]
    sim, _ = run(SMALL, program(*lines), {0: x, 0x100: w})
    got = np.frombuffer(sim.read_dram(0x200, rows * n * 4), np.int32).reshape(rows, n)
    want = sum((x[t : t + rows].astype(np.int64) - zp) * w[t] for t in range(taps))
    np.testing.assert_array_equal(got, want)


def test_lut_pass() -> None:
    n = 4
    table = ((np.arange(256) - 128) * 3 // 5).astype(np.int8)
    x = np.arange(-128, 128, 16, dtype=np.int8).reshape(-1, n)
    text = program(
        load("lut", 2, 0, 1, 256, 256),
        load("input", 0, 0x1000, len(x), n, n),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        f"lut buf=input in=0 out=0 rows={len(x)} table=2",
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("output", 0, 0x2000, len(x), n, n),
    )
    sim, _ = run(SMALL, text, {0: table, 0x1000: x})
    got = np.frombuffer(sim.read_dram(0x2000, x.size), np.int8).reshape(x.shape)
    np.testing.assert_array_equal(got, table[x.astype(np.int64) + 128])


@pytest.mark.parametrize(
    "op, imm, fn",
    [
        ("add", 7, lambda a, b: a + b),
        ("sub", 7, lambda a, b: a - b),
        ("mul", -3, lambda a, b: a * b),
        ("min", 10, np.minimum),
        ("max", 10, np.maximum),
        ("shl", 4, lambda a, b: a << b),
        ("shr", 3, lambda a, b: (a + (1 << (b - 1))) >> b),  # arithmetic, rounding half up
    ],
)
def test_alu_against_numpy(op: str, imm: int, fn) -> None:
    """Each operation on int32 lanes, wrapping like int32 hardware."""
    a = np.array([[-(2**31), -9, 0, 9], [2**31 - 1, -1, 100, -100]], np.int64)
    sim = Simulator(SMALL, [], seed=0)
    sim.buffers["accumulator"].write(0, a.astype(np.int32), "test setup")
    sim.buffers["accumulator"].write(32, np.full((2, 4), 3, np.int32), "test setup")
    for use_imm, b in ((1, np.int64(imm)), (0, np.int64(3))):
        sim.buffers["accumulator"].write(0, a.astype(np.int32), "test setup")
        (inst,) = assemble(f"alu op={op} dst=0 src=2 rows=2 use_imm={use_imm} imm={imm}")
        sim.execute(inst, "alu")
        got = sim.buffers["accumulator"].data[:32].view(np.int32).reshape(2, 4)
        want = fn(a, b)
        np.testing.assert_array_equal(got, want.astype(np.int64).astype(np.uint32).view(np.int32))


def test_load_padding_pool_and_fill_against_numpy() -> None:
    n = 4
    x = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)[:, :3]  # 3 rows of 3 bytes
    text = program(
        load("input", 0, 0, 3, 3, 4, pad=-7, top=1, bottom=1, left=1),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        "pool op=max buf=input in=0 acc=0 rows=3 taps=3 row_step=1 tap_step=1",
        "pool op=sum buf=input in=0 acc=3 rows=2 taps=2 row_step=2 tap_step=1",
        "fill buf=output row=0 rows=1 value=-5",
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("accumulator", 0, 0x100, 5, 16, 16),
        store("output", 0, 0x200, 1, 4, 4),
    )
    sim, _ = run(SMALL, text, {0: np.ascontiguousarray(np.pad(x, ((0, 0), (0, 1))))})
    padded = np.full((5, n), -7, np.int64)
    padded[1:4, 1:4] = x
    acc = np.frombuffer(sim.read_dram(0x100, 5 * 16), np.int32).reshape(5, n)
    np.testing.assert_array_equal(acc[:3], [padded[i : i + 3].max(axis=0) for i in range(3)])
    np.testing.assert_array_equal(
        acc[3:], [padded[2 * i : 2 * i + 2].sum(axis=0) for i in range(2)]
    )
    np.testing.assert_array_equal(np.frombuffer(sim.read_dram(0x200, 4), np.int8), [-5] * 4)


@pytest.mark.parametrize(
    "lines, message",
    [
        ([load("input", 1020, 0, 8, 4, 4)], "out of bounds"),
        (["wait queue=ld2cp"], "deadlock: compute engine at instruction 0"),
        (["signal queue=ld2cp"], "token imbalance at halt: 1 token(s) left on ld2cp"),
        (
            [
                "signal queue=ld2cp",
                "wait queue=ld2cp",
                "requant acc=0 out=0 rows=1 params=0 zp=0 lo=0 hi=0 round=single",
            ],
            "reads buffer 'accumulator' byte 0, which was never written",
        ),
        ([store("weight", 0, 0, 1, 4, 4)], "the store engine may not read buffer 'weight'"),
        (
            [load("accumulator", 0, 0, 1, 4, 4)],
            "the load engine may not write buffer 'accumulator'",
        ),
        ([load("input", 0, 2**24, 1, 4, 4)], "of DRAM are out of bounds"),
    ],
)
def test_faults_are_clear_errors(lines, message: str) -> None:
    sim = Simulator(SMALL, assemble(program(*lines)))
    sim.write_dram(0, bytes(64))
    with pytest.raises(SimulatorError, match=message.replace("(", r"\(").replace(")", r"\)")):
        sim.run()


def test_missing_halt_is_an_error() -> None:
    with pytest.raises(SimulatorError, match="no 'halt'"):
        Simulator(SMALL, assemble("signal queue=ld2cp")).run()


def test_missing_synchronization_is_detected_by_random_orders() -> None:
    n = 4
    x = np.arange(16, dtype=np.int8).reshape(4, 4)
    body = [load("input", 0, 0, 4, n, n), "signal queue=ld2cp", "wait queue=ld2cp",
            "lut buf=input in=0 out=0 rows=4 table=0"]  # fmt: skip
    table = np.arange(-128, 128, dtype=np.int64).astype(np.int8)
    synced = program(
        load("lut", 0, 0x100, 1, 256, 256), *body,
        "signal queue=cp2st", "wait queue=cp2st", store("output", 0, 0x400, 4, n, n),
    )  # fmt: skip
    # The token to the store engine is signalled before the lut writes the output,
    # so the store may read the zeros of the fill or the lut's values.
    racy = program(
        load("lut", 0, 0x100, 1, 256, 256), load("input", 0, 0, 4, n, n),
        "signal queue=ld2cp", "wait queue=ld2cp",
        "fill buf=output row=0 rows=4 value=0", "signal queue=cp2st",
        "lut buf=input in=0 out=0 rows=4 table=0",
        "wait queue=cp2st", store("output", 0, 0x400, 4, n, n),
    )  # fmt: skip

    def setup(sim):
        sim.write_dram(0, x.tobytes())
        sim.write_dram(0x100, table.tobytes())

    out = check_synchronization(SMALL, assemble(synced), setup, [(0x400, 16)])
    assert np.array_equal(np.frombuffer(out, np.int8).reshape(4, 4), x)
    with pytest.raises(SimulatorError, match="missing synchronization"):
        check_synchronization(SMALL, assemble(racy), setup, [(0x400, 16)])


def test_cycle_model_arithmetic() -> None:
    # One 4-row load of 4 bytes on the small machine: latency 40 + 16 bytes / 4 per cycle.
    _, stats = run(SMALL, program(load("input", 0, 0, 4, 4, 4)), {0: np.zeros(16, np.int8)})
    assert stats.busy["load"] == 40 + 4 and stats.cycles == 44
    # Compute waits for the token pushed at the end of the load.
    text = program(
        load("input", 0, 0, 4, 4, 4),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        "fill buf=accumulator row=0 rows=8 value=0",
    )
    _, stats = run(SMALL, text, {0: np.zeros(16, np.int8)})
    assert stats.cycles == 44 + 1 + 1 + 8  # load, signal, wait (after the token), fill
    assert stats.dram_read == 16 and stats.array_busy(SMALL) == 0.0


def test_qsim_cli_runs_the_shipped_example(tmp_path, capsys) -> None:
    example = Path(__file__).resolve().parents[3] / "examples" / "npu_matmul.s"
    rng = np.random.default_rng(3)
    x = rng.integers(-128, 128, (4, 16)).astype(np.int8)
    w = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    mult, shift = numerics.quantize_multiplier(0.004)
    records = params_records(np.zeros(16), [mult] * 16, [shift] * 16, 16)
    inputs, outputs, binary = tmp_path / "in.npz", tmp_path / "out.npz", tmp_path / "m.npub"
    np.savez(inputs, **{"0x0": x, "0x100": w, "0x200": records})
    assert qasm.main([str(example), "-o", str(binary)]) == 0
    args = [str(binary), "--inputs", str(inputs), "--read", "0x400:64", "--outputs", str(outputs)]
    assert qsim.main([*args, "--stats", "--orders", "4"]) == 0
    # hand-written assembly has no layer map: the array's busy figure, said to be that
    assert "MAC array busy: " in capsys.readouterr().out
    got = np.load(outputs)["0x400"].view(np.int8).reshape(4, 16)
    acc = x.astype(np.int64) @ w.astype(np.int64)
    want = np.clip(numerics.apply_scale_32(acc, mult, shift, True).astype(np.int64) - 3, -128, 127)
    np.testing.assert_array_equal(got, want)
    # Without inputs the first load reads DRAM nobody wrote: a clear error, exit 1.
    assert qsim.main([str(binary)]) == 1
    assert "which was never written" in capsys.readouterr().err
    assert qsim.main([str(binary), "--machine", "small"]) == 1
    assert "built for another machine description" in capsys.readouterr().err


def test_sections_and_io_manifest_drive_qsim(tmp_path, capsys) -> None:
    """Weights and params travel in the binary; inputs and outputs go by name."""
    n, m = 16, 4
    rng = np.random.default_rng(5)
    x = rng.integers(-128, 128, (m, n)).astype(np.int8)
    w = rng.integers(-128, 128, (n, n)).astype(np.int8)
    mult, shift = numerics.quantize_multiplier(0.003)
    records = params_records(np.arange(n) * 10, [mult] * n, [shift] * n, n)
    code = assemble((Path(__file__).resolve().parents[3] / "examples" / "npu_matmul.s").read_text())
    binary = Binary(
        DEFAULT.digest(),
        code,
        {"weights": Section(w.tobytes(), 0x100), "params": Section(records.tobytes(), 0x200)},
        inputs=[Tensor("arg0", 0x0, (m, n), "int8")],
        outputs=[Tensor("result0", 0x400, (m, n), "int8")],
    )
    path, inputs, outputs = tmp_path / "m.npub", tmp_path / "in.npz", tmp_path / "out.npz"
    path.write_bytes(binary.to_bytes())
    np.savez(inputs, arg0=x)
    assert (
        qsim.main([str(path), "--inputs", str(inputs), "--outputs", str(outputs), "--orders", "3"])
        == 0
    )
    acc = x.astype(np.int64) @ w.astype(np.int64) + np.arange(n) * 10
    want = np.clip(numerics.apply_scale_32(acc, mult, shift, True).astype(np.int64) - 3, -128, 127)
    np.testing.assert_array_equal(np.load(outputs)["result0"], want)
    np.savez(inputs, arg0=x.astype(np.int32))
    assert qsim.main([str(path), "--inputs", str(inputs)]) == 1
    assert "input 'arg0' must be int8[4, 16], got int32[4, 16]" in capsys.readouterr().err
    np.savez(inputs, x=x)
    assert qsim.main([str(path), "--inputs", str(inputs)]) == 1
    assert "inputs: missing arg0; unknown x" in capsys.readouterr().err


def test_load2d_is_its_blocks_with_one_latency() -> None:
    """`load2d` writes block b as a `load` from dram + b * block_stride would, padding
    rows around each block; it costs one DRAM latency for all its bytes."""
    n = SMALL.mac_cols
    image = np.arange(6 * 5 * n, dtype=np.uint8).reshape(6, 5, n)  # 6 rows of 5 pixels
    # Every other image row, its 5 pixels, one padding pixel either side of each.
    text = program(
        "load2d buf=input row=0 dram=0 rows=5 row_bytes=4 stride=4 blocks=3 "
        f"block_stride={2 * 5 * n} pad=-7 pad_top=1 pad_bottom=1",
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("input", 0, 0x1000, 21, n, n),
    )
    sim, stats = run(SMALL, text, {0: image})
    got = np.frombuffer(sim.read_dram(0x1000, 21 * n), np.uint8).reshape(3, 7, n)
    want = np.full((3, 7, n), np.uint8(256 - 7))
    want[:, 1:6] = image[0::2]
    np.testing.assert_array_equal(got, want)
    assert stats.dram_read == 3 * 5 * n
    # one latency, the bytes over the bus, and the signal
    assert stats.busy["load"] == SMALL.dram_latency + 3 * 5 * n // SMALL.bus_bytes + 1


def test_dwmac_multiplies_each_lane_by_its_own_weight() -> None:
    """`dwmac`: out[i][c] = sum_t x[i*in_step + t*k_step][c] * w[t][c] (a depthwise tap sum
    per channel), accumulated on request; mac_rows outputs a pass, in_step cycles a pass."""
    n, m, taps = DEFAULT.mac_cols, 21, 3
    rng = np.random.default_rng(5)
    x = rng.integers(-128, 128, (2 * m + 2 * taps, n)).astype(np.int8)
    w = rng.integers(-128, 128, (taps, n)).astype(np.int8)
    text = program(
        load("input", 0, 0, len(x), n, n),
        load("weight", 0, 0x1000, taps, n, n),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        "fill buf=accumulator row=0 rows=21 value=1000",
        f"dwmac in=1 w=0 acc=0 m={m} k_tiles={taps} accumulate=1 in_step=2 k_step=1 buf=input",
        "signal queue=cp2st",
        "wait queue=cp2st",
        store("accumulator", 0, 0x2000, m, 4 * n, 4 * n),
    )
    sim, stats = run(DEFAULT, text, {0: x, 0x1000: w})
    got = np.frombuffer(sim.read_dram(0x2000, m * n * 4), np.int32).reshape(m, n)
    want = np.full((m, n), 1000, np.int64)
    for i in range(m):
        for t in range(taps):
            want[i] += x[1 + 2 * i + t].astype(np.int64) * w[t]
    np.testing.assert_array_equal(got, want)
    assert stats.macs == m * taps * n
    passes = -(-m // DEFAULT.mac_rows)
    # wait, fill (a cycle a row), dwmac (its passes; the array's fill is latency), signal
    assert stats.busy["compute"] == 1 + m + passes * taps * 2 + 1


def test_store2d_is_its_blocks_with_one_latency() -> None:
    """`store2d` writes block b as a `store` from buffer row row + b * row_step to
    dram + b * block_stride would: here 3 rows of 2 pixels out of rows 3 apart."""
    n = SMALL.mac_cols
    rows = np.arange(9 * n, dtype=np.uint8).reshape(9, n)
    text = program(
        load("input", 0, 0, 9, n, n),
        "signal queue=ld2cp",
        "wait queue=ld2cp",
        "signal queue=cp2st",
        "wait queue=cp2st",
        f"store2d buf=input row=0 dram=0x400 rows=2 row_bytes={n} stride={n} blocks=3 "
        f"block_stride={2 * n} row_step=3",
    )
    sim, stats = run(SMALL, text, {0: rows})
    got = np.frombuffer(sim.read_dram(0x400, 6 * n), np.uint8).reshape(6, n)
    np.testing.assert_array_equal(got, rows[[0, 1, 3, 4, 6, 7]])
    assert stats.dram_written == 6 * n
    # one latency, the bytes over the bus, and the wait
    assert stats.busy["store"] == SMALL.dram_latency + 6 * n // SMALL.bus_bytes + 1


def test_qsim_utilization_counts_the_models_macs_only(tmp_path, capsys) -> None:
    """With a layer map, utilization is the model's MACs (padding taps excluded, as
    `npu_graph.useful_macs` counts them) over cycles x MACs per cycle."""
    from qdialect.context import make_context
    from qdialect.dialects.npu import ProgramOp, program_binary
    from qdialect.ir.parser import QParser
    from qdialect.lowering.npu_graph import form_layers, useful_macs
    from qdialect.lowering.tosa_to_npu import TosaToNpu
    from qdialect.npu.encoding import Binary
    from qdialect.npu.machine import load_machine

    from ..lowering.test_tosa_to_npu import conv_program

    source = conv_program(8, 8, 8, 8, 3, 1, (1, 1, 1, 1), seed=4)
    ctx = make_context()
    module = QParser(ctx, source).parse_module()
    func = next(op for op in module.walk() if op.name == "func.func")
    # 3x3 taps that land inside the 8x8 image, over the 8x8 outputs, x 8 in x 8 out
    inside = sum(0 <= o + t - 1 < 8 for o in range(8) for t in range(3))
    want = inside * inside * 8 * 8
    assert sum(useful_macs(layer) for layer in form_layers(func).layers) == want
    TosaToNpu(machine="small").apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    binary = program_binary(program, load_machine("small").digest())
    assert binary.useful_macs == want
    path = tmp_path / "c.npub"
    path.write_bytes(binary.to_bytes())
    assert qsim.main([str(path), "--machine", "small", "--random-inputs", "0", "--stats"]) == 0
    out = capsys.readouterr().out
    cycles = int(out.split("cycles: ")[1].split()[0])
    executed = int(out.split(" MACs of ")[1].split()[0])
    assert executed > want  # the array also multiplies the padding
    assert f"MAC utilization: {want / (cycles * 16):.1%} ({want} useful MACs of {executed}" in out
    assert Binary.from_bytes(path.read_bytes()).useful_macs == want
