"""Stages run side by side (`qdialect.debug.stages`, `layer_table`): each stage's record
of a tensor is what that stage's program computes for it, the NPU's integers equal
TOSA's, and a fault planted in one NPU layer is found at that layer, with the
instructions that computed it."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.debug.layer_table import Thresholds, build_table, format_table, verdict
from qdialect.debug.names import named_values, source_layouts
from qdialect.debug.stages import STAGES, Programs, entry, run_all
from qdialect.interpreter import Interpreter
from qdialect.npu.encoding import Instruction
from qdialect.runtime.executor import HostNpuExecutor


@pytest.fixture(scope="module")
def programs(digits_float):
    module, cal, _ = digits_float
    return Programs.from_float(module, cal, STAGES)


def test_each_stage_records_what_its_program_computes(digits_float, programs) -> None:
    _, _, inputs = digits_float
    traces = run_all(programs, STAGES, inputs)
    for stage in ("float", "quant", "tosa"):
        module = programs.module(stage)
        func = entry(module, "main")
        values = named_values(func)
        layouts = source_layouts(func)
        for k, args in enumerate(inputs):
            seen: dict = {}
            interp = Interpreter(module)
            interp.on_result = seen.__setitem__
            interp.call("main", args)
            for name, v in values.items():
                if v not in seen:
                    continue  # an argument
                want = np.transpose(seen[v], np.argsort(layouts[v]))
                assert np.array_equal(traces[stage].values[name].arrays[k], want), (stage, name)
    # the NPU computed the fused layers' outputs exactly as TOSA: those that reach DRAM
    # (a pooled map the next layer reads from the output buffer stays on chip, unseen,
    # and is listed so), and with npu_keep_on_chip off every one of r1, p1, r2, p2
    npu = traces["npu"]
    assert {"r1", "r2", "p2"} <= set(npu.layers)
    assert set(npu.not_observed) <= {"p1"}
    observe_all = Programs(programs.function, False, programs.float, programs.quant,
                           programs.tosa, programs.npu)  # fmt: skip
    every = run_all(observe_all, ["npu"], inputs)["npu"]
    assert {"r1", "p1", "r2", "p2"} <= set(every.layers) and not every.not_observed
    for trace in (npu, every):
        for name in trace.layers:
            for got, want in zip(
                trace.values[name].arrays, traces["tosa"].values[name].arrays, strict=True
            ):
                assert np.array_equal(got, want), name


def test_the_table_is_within_thresholds_and_the_npu_equals_tosa(digits_float, programs) -> None:
    _, _, inputs = digits_float
    table = build_table(run_all(programs, STAGES, inputs), Thresholds(min_sqnr_db=20.0))
    print(format_table(table))
    assert table.stages == ["quant", "tosa", "npu"]
    assert [r.name for r in table.rows] == list(
        named_values(entry(programs.module("float"), "main"))
    )
    assert table.ok(), verdict(table)
    assert table.first_mismatch("npu") is None
    logits = next(r for r in table.rows if r.name == "logits")
    assert logits.cells["quant"].sqnr_db > 25
    # a pre-ReLU convolution output is clipped by design: marked, not judged
    assert next(r for r in table.rows if r.name == "c2").fused_into == "r2"


def test_a_fault_in_one_npu_layer_is_found_at_that_layer(
    digits_float, programs, monkeypatch
) -> None:
    _, _, inputs = digits_float
    compile_function = HostNpuExecutor._compile
    planted = {}

    def faulty(self, func, machine_name):
        compiled = compile_function(self, func, machine_name)
        record = next((r for r in compiled.binary.layers if r.name == "r2"), None)
        if record is not None and not planted:
            for i in range(record.start, record.end):
                inst = compiled.binary.code[i]
                if inst.opcode.mnemonic == "requant":  # output zero point off by one
                    values = dict(inst.values, zp=inst.values["zp"] + 1)
                    compiled.binary.code[i] = Instruction(inst.opcode, values)
            planted["r2"] = (func.sym_name.data, record)
        return compiled

    monkeypatch.setattr(HostNpuExecutor, "_compile", faulty)
    table = build_table(run_all(programs, STAGES, inputs), Thresholds())
    assert planted, "the NPU program has a layer named r2"
    function, record = planted["r2"]
    assert table.first_mismatch("npu") == "r2"
    assert not table.ok()
    lines = verdict(table)
    want = f"first tensor where npu differs from tosa: 'r2': @{function} instructions {record.start}..{record.end - 1}"
    assert want in lines, lines
